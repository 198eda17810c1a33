#!/usr/bin/env bash
# Full-size concurrency and crash proofs of the remote backends against
# the real servers of scripts/services.sh: 20 concurrent applies on one
# PostgreSQL workspace, 50 workspaces applied in parallel, and kill -9 of
# an apply of 2,000 resources. `go test` runs the same tests smaller.
#
#   bash scripts/backend-stress.sh          # starts the servers if needed
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(bash scripts/services.sh)"
export TENET_BACKEND_FULL=1
exec go test ./cli -count=1 -v -timeout 60m \
	-run 'TestBackendConcurrentApplies|TestBackendParallelWorkspaces|TestBackendKillDuringApply|TestBackendLostConnectionKeepsErroredState' "$@"
