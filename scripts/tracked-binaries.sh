#!/usr/bin/env bash
# Fails when git tracks a built file: an executable or object in a binary
# format (ELF, Mach-O, PE, a Go archive), or a file with the executable bit
# that is not a script (no "#!" first line). A clone and the module zip carry
# every tracked file; nothing built belongs there.
set -euo pipefail
cd "$(dirname "$0")/.."
bad=0
while IFS= read -r -d '' f; do
  [ -f "$f" ] || continue
  magic=$(head -c 4 "$f" | od -An -tx1 | tr -d ' \n')
  case "$magic" in
    7f454c46|cffaedfe|cefaedfe|feedfacf|feedface|cafebabe|4d5a*|213c6172)
      echo "tracked-binaries: $f is a built file (magic $magic): git rm --cached it and ignore it" >&2
      bad=1; continue ;;
  esac
  if [ -x "$f" ] && [ "$(head -c 2 "$f")" != "#!" ]; then
    echo "tracked-binaries: $f is executable but not a script: git rm --cached it, or chmod -x it" >&2
    bad=1
  fi
done < <(git ls-files -z)
exit $bad
