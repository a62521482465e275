#!/usr/bin/env bash
# Runs every fuzz target of the module for the given -fuzztime (default 30000x:
# a count, see the Makefile for why not a duration).
# go test accepts one -fuzz target per invocation, so each runs on its own.
# A crasher is written to the package's testdata/fuzz/ and fails the run.
set -euo pipefail
fuzztime=${1:-30000x}
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  targets=$(grep -hoE '^func (Fuzz[A-Za-z0-9_]+)\(f \*testing\.F\)' "$dir"/*_test.go 2>/dev/null | sed -E 's/^func (Fuzz[A-Za-z0-9_]+).*/\1/' || true)
  for t in $targets; do
    echo "fuzz $pkg $t ($fuzztime)"
    log=$(mktemp)
    go test -run '^$' -fuzz "^${t}\$" -fuzztime "$fuzztime" "$pkg" >"$log" 2>&1 || { cat "$log"; rm -f "$log"; exit 1; }
    rm -f "$log"
  done
done
