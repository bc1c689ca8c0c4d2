#!/bin/sh
# Runs every tests/shell/t-*.sh; each prints "PASS name" or "FAIL name"
# lines (and "SKIP name: why"). Ends with the plain "N passed, N failed" line.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${KSUNSET:?set KSUNSET to the ksunset binary}"
export KSUNSET TOP="$here/../.."
log=$(mktemp)
# With SANITIZE=1 every sanitizer report (a leak too, whatever the exit
# status) goes to a file here, so none is lost in a test's discarded
# stderr; any report fails the run.
san=$(mktemp -d)
trap 'rm -f "$log"; rm -rf "$san"' EXIT
export ASAN_OPTIONS="log_path=$san/asan:detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="log_path=$san/ubsan:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
status=0
for t in "$here"/t-*.sh; do
	[ -n "${TESTS:-}" ] && case " $TESTS " in *" $(basename "$t" .sh) "*) ;; *) continue ;; esac
	sh "$t" 2>&1 | tee -a "$log" || status=1
done
for r in "$san"/*; do
	[ -f "$r" ] || continue
	echo "FAIL sanitizer: a report in $(basename "$r"):" | tee -a "$log"
	sed 's/^/  | /' "$r" | head -40
done
pass=$(grep -c '^PASS ' "$log")
fail=$(grep -c '^FAIL ' "$log")
skip=$(grep -c '^SKIP ' "$log")
echo "shell: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$status" -eq 0 ] && [ "$pass" -gt 0 ]
