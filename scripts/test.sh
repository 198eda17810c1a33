#!/usr/bin/env bash
# The project's test command (README and .ci/run both call this):
# build, vet, gofmt check, the recorded OpenTofu conformance corpus
# replayed through the tenet binary, a short run of every fuzz target, the
# whole test suite, and the race detector on the packages that run things
# in parallel.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "==> go build ./..."
go build ./...

echo "==> go vet ./..."
go vet ./...

echo "==> gofmt check"
unformatted=$(gofmt -l $(find . -name '*.go' -not -path './.git/*'))
if [ -n "$unformatted" ]; then
  echo "these files need gofmt:"; echo "$unformatted"; exit 1
fi

# The shared runner replays every recorded scenario (including those of
# issues still open); its result is reported, while the Go test suite
# below enforces the scenarios that must pass.
shared=${TENET_SHARED:-../shared}
if [ -x "$shared/conformance/run" ] && command -v jq >/dev/null && command -v python3 >/dev/null; then
  echo "==> conformance corpus (shared runner, informational)"
  bin=$(mktemp -d)/tenet
  go build -o "$bin" .
  out=$(PEERS=/nonexistent "$shared/conformance/run" "$bin" 2>&1 || true)
  echo "$out" | grep -E '^(PASS|FAIL) ' || true
  echo "conformance corpus: $(echo "$out" | tail -1 | sed 's/ passed, / matched OpenTofu, /; s/ failed/ differ/')"
fi

echo "==> fuzz targets (each ${TENET_FUZZTIME:-5s})"
bash scripts/fuzz.sh

echo "==> go test ./..."
go test -count=1 ./...

echo "==> go test -race (parallel packages)"
go test -count=1 -race ./graphsolve/... ./engine/... ./state/... ./rules/... ./cli/...
