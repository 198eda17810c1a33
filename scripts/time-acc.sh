#!/usr/bin/env bash
# Runs the acceptance tests of hashicorp/time v0.14.2 (its Go module, from
# the Go module proxy) against tenet: terraform-plugin-testing drives the
# binary named by TF_ACC_TERRAFORM_PATH through init, plan, apply, show
# -json, import and destroy, with the provider under test attached through
# TF_REATTACH_PROVIDERS. Prints the pass/fail/skip count of the top-level
# tests; the full log is .cache/time-acc/test.json (go test -json).
#
#   bash scripts/time-acc.sh [-run REGEXP]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mod=github.com/hashicorp/terraform-provider-time@v0.14.2
out="$root/.cache/time-acc"
mkdir -p "$out"
(cd "$root" && go build -o "$out/tenet" .)
src=$(cd "$root" && GOFLAGS=-mod=mod go mod download -json "$mod" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
if [[ -z "$src" || ! -d "$src" ]]; then
  echo "time-acc: go mod download $mod gave no directory" >&2
  exit 1
fi
set +e
(cd "$src" && TF_ACC=1 TF_ACC_TERRAFORM_PATH="$out/tenet" TF_ACC_PROVIDER_HOST=registry.opentofu.org \
  TF_CLI_CONFIG_FILE=/dev/null CHECKPOINT_DISABLE=1 GOFLAGS=-mod=mod \
  go test -count=1 -json -timeout 30m "$@" ./internal/provider/...) > "$out/test.json"
set -e
python3 - "$out/test.json" <<'PY'
import json, sys
res = {}
for line in open(sys.argv[1]):
    try:
        e = json.loads(line)
    except ValueError:
        continue
    t = e.get("Test")
    if t and "/" not in t and e.get("Action") in ("pass", "fail", "skip"):
        res[t] = e["Action"]
counts = {k: sum(1 for v in res.values() if v == k) for k in ("pass", "fail", "skip")}
print("time provider acceptance tests against tenet: %(pass)d pass, %(fail)d fail, %(skip)d skip" % counts)
for t, a in sorted(res.items()):
    if a == "fail":
        print("  FAIL", t)
PY
