#!/usr/bin/env bash
# Runs every fuzz target of the module for the given time (default 3s).
# go test accepts one -fuzz target per invocation, so each runs on its own.
# A crasher is written to the package's testdata/fuzz/ and fails the run.
set -euo pipefail
fuzztime=${1:-3s}
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  targets=$(grep -hoE '^func (Fuzz[A-Za-z0-9_]+)\(f \*testing\.F\)' "$dir"/*_test.go 2>/dev/null | sed -E 's/^func (Fuzz[A-Za-z0-9_]+).*/\1/' || true)
  for t in $targets; do
    echo "fuzz $pkg $t ($fuzztime)"
    go test -run '^$' -fuzz "^${t}\$" -fuzztime "$fuzztime" "$pkg" >/tmp/fuzz-$t.log 2>&1 || { cat /tmp/fuzz-$t.log; exit 1; }
  done
done
