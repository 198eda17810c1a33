#!/usr/bin/env bash
# Records what OpenTofu prints for the human-output scenarios
# (testdata/human/*.txtar) into their golden sections; the test
# TestHumanGoldens (cli/human_golden_test.go) then compares tenet's output
# with them. Usage: scripts/record-human-goldens.sh /path/to/tofu [SCENARIO]
#
# The scenarios use the real hashicorp/time provider: it is built into a
# filesystem mirror (scripts/build-time-provider.sh) that OpenTofu installs
# from. Recorded with OpenTofu 1.10.6.
set -euo pipefail
if [[ $# -lt 1 ]]; then
  echo "usage: $0 /path/to/tofu [SCENARIO]" >&2
  exit 2
fi
tofu=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build-time-provider.sh" >/dev/null
rc=$(mktemp)
trap 'rm -f "$rc"' EXIT
cat >"$rc" <<CFG
provider_installation {
  filesystem_mirror {
    path = "$root/.cache/time-provider/mirror"
  }
}
CFG
run='TestHumanGoldens'
if [[ $# -ge 2 ]]; then
  run="TestHumanGoldens/$2"
fi
cd "$root"
TENET_RECORD_HUMAN_GOLDENS="$tofu" TENET_RECORD_TF_CLI_CONFIG_FILE="$rc" \
  go test ./cli -count=1 -run "^${run}\$"
