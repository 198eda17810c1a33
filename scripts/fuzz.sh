#!/usr/bin/env bash
# Runs every fuzz target in the module for a short time (TENET_FUZZTIME,
# default 5s each). A target that fails leaves its input under the
# package's testdata/fuzz/, where plain `go test` replays it from then on
# as a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."

fuzztime=${TENET_FUZZTIME:-5s}

# fuzz_one NAME PKG fuzzes one target. Go 1.26's fuzzing coordinator can
# fail a target with a bare "context deadline exceeded" when -fuzztime ends
# while a worker is busy (go.dev/issue/75804, fixed in Go 1.27): nothing
# failed and no input is written. Such a run is tried again, up to four times;
# any other failure, or one that writes an input, fails at once.
fuzz_one() {
  local name=$1 pkg=$2 dir out attempt
  dir=$pkg/testdata/fuzz/$name
  for attempt in 1 2 3 4 5; do
    local before=""
    [ -d "$dir" ] && before=$(ls "$dir")
    if out=$(go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "$pkg" 2>&1); then
      echo "$out" | tail -1
      return 0
    fi
    local after=""
    [ -d "$dir" ] && after=$(ls "$dir")
    if [ "$before" != "$after" ] || ! echo "$out" | grep -q '^    context deadline exceeded$' ||
      echo "$out" | grep -v '^    context deadline exceeded$' | grep -q '^    '; then
      echo "$out"
      return 1
    fi
    echo "    (attempt $attempt: the coordinator's deadline race, go.dev/issue/75804; trying again)"
  done
  echo "$out"
  return 1
}
failed=()
count=0
while IFS=: read -r file name; do
  pkg=./$(dirname "${file#./}")
  count=$((count + 1))
  echo "--> $name ($pkg, $fuzztime)"
  if ! fuzz_one "$name" "$pkg"; then
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
