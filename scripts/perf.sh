#!/usr/bin/env bash
# perf.sh builds tenet and times the CLI end to end on generated
# configurations: plan from an empty state, apply, and a no-change plan.
# It prints the median wall time and the peak RSS of each step.
#
# Usage: scripts/perf.sh [-n RUNS] [-b BINARY] [-x] [SHAPE-SIZE ...]
#   SHAPE is flat, pairs, fan or chain; e.g. scripts/perf.sh flat-1000 chain-10000
#   Without shapes it runs the issue's table plus the 10k and 100k cases.
#   -x runs "the real thing": every generated directory also gets the team
#   rules of examples/rules in .tenet/rules and the policies of
#   examples/policies in .tenet/policy, so each plan runs them too.
# Environment: KEEP=1 keeps the work directory, PARALLELISM passes -parallelism.
set -euo pipefail

runs=3
bin=""
extras=""
while getopts "n:b:x" opt; do
	case $opt in
	n) runs=$OPTARG ;;
	b) bin=$OPTARG ;;
	x) extras=1 ;;
	*) echo "usage: $0 [-n RUNS] [-b BINARY] [-x] [SHAPE-SIZE ...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
	cases=(flat-1000 flat-5000 pairs-1000 fan-1000 chain-1000
		flat-10000 pairs-10000 fan-10000 chain-10000 flat-100000)
fi

repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/tenet-perf.XXXXXX")
if [ "${KEEP:-}" = "" ]; then
	trap 'rm -rf "$work"' EXIT
else
	echo "work directory: $work" >&2
fi

if [ ! -x /usr/bin/time ]; then
	echo "installing GNU time (needed for peak memory)" >&2
	if [ "$(id -u)" = 0 ]; then
		apt-get install -y -qq time >/dev/null
	else
		sudo apt-get install -y -qq time >/dev/null
	fi
fi

if [ -z "$bin" ]; then
	bin=$work/tenet
	echo "building $bin" >&2
	(cd "$repo" && go build -o "$bin" .)
fi

# generate SHAPE N DIR writes DIR/main.tf.
generate() {
	local shape=$1 n=$2 dir=$3
	mkdir -p "$dir"
	case $shape in
	flat)
		printf 'resource "terraform_data" "r" {\n  count = %d\n  input = "x-${count.index}"\n}\n' "$n" >"$dir/main.tf"
		;;
	pairs)
		printf 'resource "terraform_data" "a" {\n  count = %d\n  input = "x-${count.index}"\n}\n\nresource "terraform_data" "b" {\n  count = %d\n  input = terraform_data.a[count.index].output\n}\n' "$n" "$n" >"$dir/main.tf"
		;;
	fan)
		printf 'resource "terraform_data" "hub" {\n  input = "hub"\n}\n\nresource "terraform_data" "b" {\n  count = %d\n  input = "${terraform_data.hub.output}-${count.index}"\n}\n\nresource "terraform_data" "sink" {\n  input = terraform_data.b[*].output\n}\n' "$n" >"$dir/main.tf"
		;;
	chain)
		awk -v n="$n" 'BEGIN {
			print "resource \"terraform_data\" \"r0\" {\n  input = \"x\"\n}"
			for (i = 1; i < n; i++)
				printf "\nresource \"terraform_data\" \"r%d\" {\n  input = terraform_data.r%d.output\n}\n", i, i - 1
		}' >"$dir/main.tf"
		;;
	*)
		echo "unknown shape $shape" >&2
		exit 2
		;;
	esac
}

# measure DIR WANT-EXIT CMD... runs one command, checks its exit code and
# appends "seconds kib" to $work/sample.
measure() {
	local dir=$1 want=$2
	shift 2
	local rc=0
	(cd "$dir" && /usr/bin/time -f '%e %M %U %S' -o "$work/time.out" "$@" >"$work/out.log" 2>"$work/err.log") || rc=$?
	if [ "$rc" != "$want" ]; then
		echo "FAILED ($*: exit $rc, want $want) in $dir" >&2
		tail -20 "$work/err.log" "$work/out.log" >&2
		exit 1
	fi
	tail -1 "$work/time.out" >>"$work/sample"
}

# median COLUMN FILE: the median of wall seconds (1), peak KiB shown as
# MiB (2), or CPU seconds, user + system (3).
median() {
	awk '{ print $1, $2, $3 + $4 }' "$1" | sort -g -k"$2" | awk -v c="$2" '{ v[NR] = $c } END {
		m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		if (c == 2) printf "%.0f", m / 1024; else printf "%.2f", m
	}'
}

par=()
if [ -n "${PARALLELISM:-}" ]; then
	par=(-parallelism="$PARALLELISM")
fi

# Wall time is what the issue measures; CPU time (user + system) is shown
# too because on a shared machine it is the steadier of the two.
row() { printf '%-14s | %7s %7s %6s | %7s %7s %6s | %7s %7s %6s\n' "$@"; }
row configuration "plan s" "cpu s" MiB "apply s" "cpu s" MiB "noop s" "cpu s" MiB
for c in "${cases[@]}"; do
	shape=${c%-*}
	n=${c##*-}
	: >"$work/plan.s"
	: >"$work/apply.s"
	: >"$work/noop.s"
	for ((r = 0; r < runs; r++)); do
		dir=$work/$c-$r
		rm -rf "$dir"
		generate "$shape" "$n" "$dir"
		if [ -n "$extras" ]; then
			mkdir -p "$dir/.tenet/rules" "$dir/.tenet/policy"
			cp "$repo"/examples/rules/*.rego "$dir/.tenet/rules/"
			cp "$repo"/examples/policies/*.rego "$repo"/examples/policies/*.yaml "$dir/.tenet/policy/"
			rm -f "$dir"/.tenet/policy/*_test.rego
		fi
		(cd "$dir" && "$bin" init >/dev/null)
		: >"$work/sample"
		measure "$dir" 0 "$bin" plan -no-color "${par[@]}"
		measure "$dir" 0 "$bin" apply -auto-approve -no-color "${par[@]}"
		measure "$dir" 0 "$bin" plan -no-color -detailed-exitcode "${par[@]}"
		sed -n 1p "$work/sample" >>"$work/plan.s"
		sed -n 2p "$work/sample" >>"$work/apply.s"
		sed -n 3p "$work/sample" >>"$work/noop.s"
		rm -rf "$dir"
	done
	cols=()
	for step in plan apply noop; do
		cols+=("$(median "$work/$step.s" 1)" "$(median "$work/$step.s" 3)" "$(median "$work/$step.s" 2)")
	done
	row "$c" "${cols[@]}"
done
