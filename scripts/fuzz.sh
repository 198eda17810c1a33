#!/usr/bin/env bash
# Runs every fuzz target in the module for a short time (TENET_FUZZTIME,
# default 5s each). A target that fails leaves its input under the
# package's testdata/fuzz/, where plain `go test` replays it from then on
# as a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."

fuzztime=${TENET_FUZZTIME:-5s}
failed=()
count=0
while IFS=: read -r file name; do
  pkg=./$(dirname "${file#./}")
  count=$((count + 1))
  echo "--> $name ($pkg, $fuzztime)"
  if ! go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "$pkg"; then
    failed+=("$name ($pkg)")
  fi
done < <(grep -rEo --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*\(' . \
  | grep -v '^./.git/' \
  | sed -E 's/:func (Fuzz[A-Za-z0-9_]*)\($/:\1/' | sort)

if [ "$count" -eq 0 ]; then
  echo "no fuzz targets found"; exit 1
fi
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz targets that found a failure (inputs saved under testdata/fuzz/):"
  printf '  %s\n' "${failed[@]}"
  exit 1
fi
echo "fuzzing: $count targets clean"
