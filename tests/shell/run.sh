#!/bin/sh
# Runs every tests/shell/t-*.sh; each prints "PASS name" or "FAIL name"
# lines (and "SKIP name: why"). Ends with the plain "N passed, N failed" line.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${KSUNSET:?set KSUNSET to the ksunset binary}"
export KSUNSET TOP="$here/../.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
for t in "$here"/t-*.sh; do
	[ -n "${TESTS:-}" ] && case " $TESTS " in *" $(basename "$t" .sh) "*) ;; *) continue ;; esac
	sh "$t" 2>&1 | tee -a "$log" || status=1
done
pass=$(grep -c '^PASS ' "$log")
fail=$(grep -c '^FAIL ' "$log")
skip=$(grep -c '^SKIP ' "$log")
echo "shell: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$status" -eq 0 ] && [ "$pass" -gt 0 ]
