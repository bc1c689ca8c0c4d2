#!/bin/sh
# Runs every tests/shell/t-*.sh; each prints "PASS name" or "FAIL name"
# lines (and "SKIP name: why"). A script that exits non-zero, or is killed,
# fails too. Ends with the plain "N passed, N failed" line.
# KS_SHELL_TESTS_DIR runs the t-*.sh of another folder (t-driver.sh's fakes).
set -u
here=$(cd "$(dirname "$0")" && pwd)
dir=${KS_SHELL_TESTS_DIR:-$here}
: "${KSUNSET:?set KSUNSET to the ksunset binary}"
export KSUNSET TOP="$here/../.."
# The tests run their own make commands: `make -j check` must not hand
# them its jobserver (they would print "jobserver unavailable" into the
# output they compare).
unset MAKEFLAGS MFLAGS MAKELEVEL
work=$(mktemp -d)
log=$work/log
rcfile=$work/rc
# With SANITIZE=1 every sanitizer report (a leak too, whatever the exit
# status) goes to a file here, so none is lost in a test's discarded
# stderr; any report fails the run.
san=$work/san
mkdir "$san"
: >"$log"
trap 'rm -rf "$work"' EXIT
export ASAN_OPTIONS="log_path=$san/asan:detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="log_path=$san/ubsan:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
for t in "$dir"/t-*.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	[ -n "${TESTS:-}" ] && case " $TESTS " in *" $name "*) ;; *) continue ;; esac
	# the script's own status: a pipeline's is tee's, and POSIX sh has no pipefail
	rm -f "$rcfile"
	{ sh "$t" 2>&1; echo $? >"$rcfile"; } | tee -a "$log"
	rc=$(cat "$rcfile" 2>/dev/null) || rc=unknown
	[ "$rc" = 0 ] || echo "FAIL $name: exited with status $rc" | tee -a "$log"
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
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
