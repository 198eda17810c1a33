#!/usr/bin/env bash
# Builds hashicorp/time v0.14.2 from its Go module (fetched through the Go
# module proxy) and lays it out as a filesystem mirror:
#
#   .cache/time-provider/mirror/registry.opentofu.org/hashicorp/time/0.14.2/<os>_<arch>/terraform-provider-time_v0.14.2
#
# Prints the executable's path. Reruns reuse the build. Used by the
# conformance test (TENET_TIME_PROVIDER) and scripts/time-acc.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=0.14.2
mod=github.com/hashicorp/terraform-provider-time@v$version
platform="$(go env GOOS)_$(go env GOARCH)"
dir="$root/.cache/time-provider/mirror/registry.opentofu.org/hashicorp/time/$version/$platform"
exe="$dir/terraform-provider-time_v$version"
if [[ -x "$exe" ]]; then
  echo "$exe"
  exit 0
fi
# The module's directory in the module cache (downloaded if needed).
src=$(cd "$root" && GOFLAGS=-mod=mod go mod download -json "$mod" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
if [[ -z "$src" || ! -d "$src" ]]; then
  echo "build-time-provider: go mod download $mod gave no directory" >&2
  exit 1
fi
mkdir -p "$dir"
# The module cache is read-only and the module is its own main module.
(cd "$src" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -o "$exe.tmp" .)
mv "$exe.tmp" "$exe"
echo "$exe"
