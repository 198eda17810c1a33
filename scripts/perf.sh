#!/usr/bin/env bash
# perf.sh builds tenet and times the CLI end to end on generated
# configurations: plan from an empty state, apply, and a no-change plan
# (plan -detailed-exitcode, which must exit 0).
#
# Usage: scripts/perf.sh [-n RUNS] [-b BINARY] [-x | -X] [-t TOFU | -T | -B BEFORE] [-c] [SHAPE-SIZE ...]
#   SHAPE is flat, pairs, fan or chain; e.g. scripts/perf.sh flat-1000 chain-10000
#   Without shapes it runs the issue's table (side by side) or the issue's
#   table plus the 10k and 100k cases (tenet alone).
#   -x  tenet runs "the real thing": every generated directory also gets the
#       team rules of examples/rules in .tenet/rules and the policies of
#       examples/policies in .tenet/policy, so each plan runs them too.
#   -X  side by side only: tenet runs both plain and with -x's files, so one
#       run of OpenTofu (the slow part) serves both comparisons.
#   -t TOFU  side by side: time OpenTofu (the binary TOFU; or set TOFU in the
#       environment) on the same configurations, each step of each tool run
#       in turn (tenet, tofu, tenet, tofu, ...) so that both see the same
#       machine. Prints both medians (wall and CPU) and their ratios.
#   -T  as -t, with OpenTofu 1.10.6 built from the Go module proxy's copy of
#       its module into .cache/tofu/ (once; takes minutes).
#   -B BEFORE  before and after: time another tenet binary (BEFORE, built
#       from an earlier commit) against this build on the same
#       configurations, interleaved step by step as with -t, and print both
#       medians and after / before (a refactoring must keep every cell
#       within 10%). With -x both run the team rules and policies.
#   -c  the 100k checks: tenet alone on flat-10000 and flat-100000, then
#       PASS or FAIL for each target (apply <= 5 s, peak RSS <= 1.5 GiB,
#       no-change plan <= 3 s, each step's cost per instance at 100k within
#       1.5x of 10k). Exits 1 if one fails.
# Every table is followed by the machine's load average (/proc/loadavg):
# wall times on a busy machine are not comparable with a quiet one's; CPU
# time and the ratios of one run are steadier.
# Environment: KEEP=1 keeps the work directory, PARALLELISM passes
# -parallelism to both tools.
set -euo pipefail

tofu_version=1.10.6
runs=3
bin=""
extras=""
both=""
tofu=${TOFU:-}
build_tofu=""
check=""
before=""
usage="usage: $0 [-n RUNS] [-b BINARY] [-x | -X] [-t TOFU | -T | -B BEFORE] [-c] [SHAPE-SIZE ...]"
while getopts "n:b:xXt:TB:c" opt; do
	case $opt in
	n) runs=$OPTARG ;;
	b) bin=$OPTARG ;;
	x) extras=1 ;;
	X) both=1 ;;
	t) tofu=$OPTARG ;;
	T) build_tofu=1 ;;
	B) before=$OPTARG ;;
	c) check=1 ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
cases=("$@")
if [ -n "$check" ] && { [ -n "$tofu$build_tofu$both" ] || [ ${#cases[@]} -gt 0 ]; }; then
	echo "-c runs tenet alone on flat-10000 and flat-100000; it takes no shapes, -t, -T or -X" >&2
	exit 2
fi

repo=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "$build_tofu" ]; then
	tofu=$repo/.cache/tofu/tofu-$tofu_version
	if [ ! -x "$tofu" ]; then
		echo "building OpenTofu $tofu_version into $tofu (takes minutes)" >&2
		src=$(cd "$repo" && go mod download -json "github.com/opentofu/opentofu@v$tofu_version" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
		if [ -z "$src" ]; then
			echo "the Go module proxy gave no source for OpenTofu $tofu_version" >&2
			exit 1
		fi
		mkdir -p "$repo/.cache/tofu"
		(cd "$src" && go build -o "$tofu" ./cmd/tofu)
	fi
fi
if [ -n "$before" ] && [ -n "$tofu$build_tofu$both$check" ]; then
	echo "-B compares two tenet builds; it takes no -t, -T, -X or -c" >&2
	exit 2
fi
if [ -n "$both" ] && [ -z "$tofu" ]; then
	echo "-X compares with OpenTofu: give -t TOFU or -T" >&2
	exit 2
fi
if [ -n "$both" ] && [ -n "$extras" ]; then
	echo "-X already runs tenet with and without -x's files" >&2
	exit 2
fi

if [ ${#cases[@]} -eq 0 ]; then
	cases=(flat-1000 flat-5000 pairs-1000 fan-1000 chain-1000)
	if [ -n "$check" ]; then
		cases=(flat-10000 flat-100000)
	elif [ -z "$tofu$before" ]; then
		cases+=(flat-10000 pairs-10000 fan-10000 chain-10000 flat-100000)
	fi
fi

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

# Neither tool reads the user's CLI configuration: the runs must not
# depend on who runs them (and OpenTofu must not look for providers).
export TF_CLI_CONFIG_FILE=/dev/null

# The tools compared: tenet (plain, or with -x's files) and, side by side,
# OpenTofu. Each gets its own copy of every generated directory.
tools=(tenet)
if [ -n "$extras" ]; then
	tools=(tenet-x)
elif [ -n "$both" ]; then
	tools=(tenet tenet-x)
fi
if [ -n "$before" ]; then
	before=$(cd "$(dirname "$before")" && pwd)/$(basename "$before")
	tools=("before${extras:+-x}" "${tools[@]}")
fi
if [ -n "$tofu" ]; then
	tofu=$(cd "$(dirname "$tofu")" && pwd)/$(basename "$tofu")
	tools+=(tofu)
	export CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
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

# prepare TOOL SHAPE N DIR generates DIR for TOOL and initialises it.
prepare() {
	local tool=$1 shape=$2 n=$3 dir=$4 exe=$bin
	rm -rf "$dir"
	generate "$shape" "$n" "$dir"
	case $tool in before*) exe=$before ;; esac
	case $tool in
	tenet-x | before-x)
		mkdir -p "$dir/.tenet/rules" "$dir/.tenet/policy"
		cp "$repo"/examples/rules/*.rego "$dir/.tenet/rules/"
		cp "$repo"/examples/policies/*.rego "$repo"/examples/policies/*.yaml "$dir/.tenet/policy/"
		rm -f "$dir"/.tenet/policy/*_test.rego
		(cd "$dir" && "$exe" init >/dev/null)
		;;
	tenet | before) (cd "$dir" && "$exe" init >/dev/null) ;;
	tofu) (cd "$dir" && "$tofu" init -input=false >/dev/null) ;;
	esac
}

par=()
if [ -n "${PARALLELISM:-}" ]; then
	par=(-parallelism="$PARALLELISM")
fi

# step_command TOOL STEP sets cmdline to the command line of one step.
step_command() {
	local tool=$1 step=$2 exe=$bin extra=()
	if [ "$tool" = tofu ]; then
		exe=$tofu
		extra=(-input=false)
	fi
	case $tool in before*) exe=$before ;; esac
	case $step in
	plan) cmdline=("$exe" plan -no-color "${extra[@]}" "${par[@]}") ;;
	apply) cmdline=("$exe" apply -auto-approve -no-color "${extra[@]}" "${par[@]}") ;;
	noop) cmdline=("$exe" plan -no-color -detailed-exitcode "${extra[@]}" "${par[@]}") ;;
	esac
}

# measure DIR OUT CMD... runs one command, checks it exits 0 and appends
# "wall-seconds peak-KiB user-seconds system-seconds" to OUT.
measure() {
	local dir=$1 out=$2
	shift 2
	local rc=0
	(cd "$dir" && /usr/bin/time -f '%e %M %U %S' -o "$work/time.out" "$@" >"$work/out.log" 2>"$work/err.log") || rc=$?
	if [ "$rc" != 0 ]; then
		echo "FAILED ($*: exit $rc) in $dir" >&2
		tail -20 "$work/err.log" "$work/out.log" >&2
		exit 1
	fi
	tail -1 "$work/time.out" >>"$out"
}

# median FILE COLUMN: the median of wall seconds (1), peak KiB shown as
# MiB (2), or CPU seconds, user + system (3), unrounded.
median() {
	awk '{ print $1, $2, $3 + $4 }' "$1" | sort -g -k"$2" | awk -v c="$2" '{ v[NR] = $c } END {
		m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		if (c == 2) m = m / 1024
		print m
	}'
}

# fmt_s SECONDS: 3 significant digits, enough for both 0.031 s and 61.2 s.
fmt_s() { awk -v v="$1" 'BEGIN { if (v < 1) printf "%.3f", v; else if (v < 10) printf "%.2f", v; else printf "%.1f", v }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b <= 0) print "-"; else { r = a / b; if (r < 10) printf "%.1fx", r; else printf "%.0fx", r } }'; }
ratio2() { awk -v a="$1" -v b="$2" 'BEGIN { if (b <= 0) print "-"; else printf "%.2f", a / b }'; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

# run_case CASE times every step of every tool RUNS times, interleaved:
# each step of each run goes tool by tool before the next step begins.
run_case() {
	local c=$1 shape=${1%-*} n=${1##*-} r tool step
	for tool in "${tools[@]}"; do
		for step in plan apply noop; do
			: >"$work/$c.$tool.$step"
		done
	done
	for ((r = 0; r < runs; r++)); do
		for tool in "${tools[@]}"; do
			prepare "$tool" "$shape" "$n" "$work/$c-$r-$tool"
		done
		for step in plan apply noop; do
			for tool in "${tools[@]}"; do
				step_command "$tool" "$step"
				measure "$work/$c-$r-$tool" "$work/$c.$tool.$step" "${cmdline[@]}"
			done
		done
		for tool in "${tools[@]}"; do
			rm -rf "$work/$c-$r-$tool"
		done
	done
}

if [ -n "$before" ]; then
	# One line per case and step: both builds' wall and CPU medians and
	# after / before (below 1 is faster).
	echo "before: $before; after: $bin; medians of $runs; ratio = after / before"
	echo "load at start: $(load)"
	echo "| configuration | step | before s (cpu) | after s (cpu) | after / before (cpu) | peak MiB before / after | load |"
	echo "|---|---|---|---|---|---|---|"
	for c in "${cases[@]}"; do
		run_case "$c"
		for step in plan apply noop; do
			f=$work/$c.${tools[0]}.$step g=$work/$c.${tools[1]}.$step
			bw=$(median "$f" 1) bc=$(median "$f" 3) aw=$(median "$g" 1) ac=$(median "$g" 3)
			echo "| $c | $step | $(fmt_s "$bw") ($(fmt_s "$bc")) | $(fmt_s "$aw") ($(fmt_s "$ac")) | $(ratio2 "$aw" "$bw") ($(ratio2 "$ac" "$bc")) | $(printf '%.0f' "$(median "$f" 2)") / $(printf '%.0f' "$(median "$g" 2)") | $(cut -d' ' -f1 /proc/loadavg) |"
		done
	done
	echo "load at end: $(load)"
	exit 0
fi

if [ -n "$tofu" ]; then
	# One line per case and step: for each tenet variant its wall and CPU
	# medians and its ratios (OpenTofu over tenet, by wall and by CPU).
	echo "OpenTofu: $("$tofu" version 2>/dev/null | head -1); medians of $runs; ratio = OpenTofu / tenet"
	echo "load at start: $(load)"
	header="| configuration | step | OpenTofu s (cpu)"
	sep="|---|---|---"
	for tool in "${tools[@]}"; do
		[ "$tool" = tofu ] && continue
		header+=" | $tool s (cpu) | ratio (cpu)"
		sep+="|---|---"
	done
	echo "$header | peak MiB tenet / tofu | load |"
	echo "$sep|---|---|"
	for c in "${cases[@]}"; do
		run_case "$c"
		for step in plan apply noop; do
			f=$work/$c.tofu.$step
			tw=$(median "$f" 1) tc=$(median "$f" 3)
			line="| $c | $step | $(fmt_s "$tw") ($(fmt_s "$tc"))"
			mem=""
			for tool in "${tools[@]}"; do
				[ "$tool" = tofu ] && continue
				g=$work/$c.$tool.$step
				w=$(median "$g" 1) u=$(median "$g" 3)
				line+=" | $(fmt_s "$w") ($(fmt_s "$u")) | $(ratio "$tw" "$w") ($(ratio "$tc" "$u"))"
				mem+="$(printf '%.0f' "$(median "$g" 2)") / "
			done
			echo "$line | $mem$(printf '%.0f' "$(median "$f" 2)") | $(cut -d' ' -f1 /proc/loadavg) |"
		done
	done
	echo "load at end: $(load)"
	exit 0
fi

# tenet alone: one row per case. Wall time is what the targets measure;
# CPU time (user + system) is shown too because on a shared machine it is
# the steadier of the two.
row() { printf '%-14s | %7s %7s %6s | %7s %7s %6s | %7s %7s %6s | %s\n' "$@"; }
echo "tenet${extras:+ with examples/rules and examples/policies}; medians of $runs; load at start: $(load)"
row configuration "plan s" "cpu s" MiB "apply s" "cpu s" MiB "noop s" "cpu s" MiB load
for c in "${cases[@]}"; do
	run_case "$c"
	cols=()
	for step in plan apply noop; do
		f=$work/$c.${tools[0]}.$step
		cols+=("$(fmt_s "$(median "$f" 1)")" "$(fmt_s "$(median "$f" 3)")" "$(printf '%.0f' "$(median "$f" 2)")")
	done
	row "$c" "${cols[@]}" "$(cut -d' ' -f1 /proc/loadavg)"
done
echo "load at end: $(load)"
[ -z "$check" ] && exit 0

# The 100k targets, from the medians above.
failed=0
verdict() { # verdict OK DESCRIPTION
	if [ "$1" = 1 ]; then echo "PASS  $2"; else echo "FAIL  $2"; failed=1; fi
}
le() { awk -v a="$1" -v b="$2" 'BEGIN { print (a <= b) ? 1 : 0 }'; }
big=$work/flat-100000.${tools[0]}
small=$work/flat-10000.${tools[0]}
apply=$(median "$big.apply" 1)
verdict "$(le "$apply" 5)" "flat-100000 apply $(fmt_s "$apply") s <= 5 s"
for step in plan apply noop; do
	mib=$(median "$big.$step" 2)
	verdict "$(le "$mib" 1536)" "flat-100000 $step peak RSS $(printf '%.0f' "$mib") MiB <= 1536 MiB"
done
noop=$(median "$big.noop" 1)
verdict "$(le "$noop" 3)" "flat-100000 no-change plan $(fmt_s "$noop") s <= 3 s"
for step in plan apply noop; do
	b=$(median "$big.$step" 1) s=$(median "$small.$step" 1)
	per=$(awk -v b="$b" -v s="$s" 'BEGIN { printf "%.2f", (b / 100000) / (s / 10000) }')
	verdict "$(le "$per" 1.5)" "$step per instance at 100k / at 10k = $per <= 1.5"
done
exit $failed
