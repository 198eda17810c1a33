#!/usr/bin/env bash
# Measures tenet against OpenTofu with the real hashicorp/time 0.14.2
# plugin, both installing it from the same filesystem mirror (built by
# scripts/build-time-provider.sh): for each COUNT, a configuration of
# COUNT time_static instances is planned on an empty state, applied, and
# planned again with no change. Runs alternate between the tools and the
# median of RUNS is printed (seconds of wall time).
#
#   bash scripts/perf-plugins.sh [TOFU]
#
# TOFU (argument or environment) is the OpenTofu binary; without one, or
# when it is not executable, only tenet is measured. COUNTS (default
# "1000 5000") and RUNS (default 3) may be set in the environment.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tofu=${1:-${TOFU:-}}
counts=${COUNTS:-1000 5000}
runs=${RUNS:-3}

exe=$(bash "$root/scripts/build-time-provider.sh")
mirror="$root/.cache/time-provider/mirror"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && go build -o "$work/tenet" .)
cat > "$work/cli.tfrc" <<EOT
provider_installation {
  filesystem_mirror {
    path = "$mirror"
  }
}
EOT
export TF_CLI_CONFIG_FILE="$work/cli.tfrc" CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
tools=(tenet)
bins=("$work/tenet")
if [[ -n "$tofu" && -x "$tofu" ]]; then
  tools+=(tofu)
  bins+=("$tofu")
  echo "tofu: $("$tofu" version | head -1)"
else
  echo "tofu: not measured (pass its path as the argument or in TOFU)"
fi
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)  load average: $(cut -d' ' -f1-3 /proc/loadavg)  cpus: $(nproc)"
echo "plugin: $exe"

# seconds runs a command and prints its wall time; its output goes to a
# log, and a failure stops the script.
seconds() {
  local log=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  if ! "$@" >"$log" 2>&1; then
    echo "failed: $*" >&2; tail -20 "$log" >&2; exit 1
  fi
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

printf '%-6s %-6s %12s %12s %12s\n' count tool plan-empty apply plan-nochg
for count in $counts; do
  declare -A res=()
  for i in "${!tools[@]}"; do
    d="$work/${tools[$i]}-$count"
    mkdir -p "$d"
    cat > "$d/main.tf" <<EOT
terraform {
  required_providers {
    time = { source = "hashicorp/time", version = "0.14.2" }
  }
}
resource "time_static" "t" {
  count = $count
}
EOT
    (cd "$d" && "${bins[$i]}" init -no-color >"$d/init.log" 2>&1) || { echo "${tools[$i]} init failed" >&2; cat "$d/init.log" >&2; exit 1; }
  done
  for r in $(seq "$runs"); do
    for i in "${!tools[@]}"; do
      t=${tools[$i]} b=${bins[$i]} d="$work/${tools[$i]}-$count"
      rm -f "$d/terraform.tfstate" "$d/terraform.tfstate.backup"
      cd "$d"
      res[$t,plan]+="$(seconds "$d/plan.log" "$b" plan -no-color -input=false) "
      res[$t,apply]+="$(seconds "$d/apply.log" "$b" apply -auto-approve -no-color -input=false) "
      res[$t,noop]+="$(seconds "$d/noop.log" "$b" plan -no-color -input=false) "
      grep -q "No changes" "$d/noop.log" || { echo "$t: the second plan was not empty" >&2; exit 1; }
      cd "$root"
    done
  done
  for t in "${tools[@]}"; do
    printf '%-6s %-6s %12.2f %12.2f %12.2f\n' "$count" "$t" \
      "$(median ${res[$t,plan]})" "$(median ${res[$t,apply]})" "$(median ${res[$t,noop]})"
  done
  unset res
done
