#!/usr/bin/env bash
# Runs tenet end to end on the bundled example (examples/starter) with the
# built-in providers: init, plan, apply, a second plan that must find no
# changes, the outputs, destroy, and finally the example's own tests. Works on a copy in a temporary
# directory so the repository stays clean.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "==> building tenet"
(cd "$root" && go build -o "$work/tenet" .)
cp -r "$root/examples/starter" "$work/project"
tenet() { (cd "$work/project" && "$work/tenet" "$@"); }

echo "==> tenet init";                tenet init
echo "==> tenet plan -out=site.plan"; tenet plan -out=site.plan
echo "==> tenet apply site.plan";     tenet apply site.plan
echo "==> files written by the apply:"; (cd "$work/project" && find out -type f | sort)
echo "==> tenet plan -detailed-exitcode (nothing should change)"
tenet plan -detailed-exitcode
echo "==> tenet output";              tenet output
echo "==> tenet apply -var env=staging (re-renders the site for another environment)"
tenet apply -auto-approve -var env=staging
echo "==> tenet destroy";             tenet destroy -auto-approve
echo "==> tenet test (the example's own tests/*.tftest.hcl)"; tenet test
echo "==> done: the example planned, applied, converged and was destroyed"
