#!/bin/sh
# The progress line of check, users and unused over many modules: on a
# terminal (a pty from script(1)) only; never in a pipe, with -q, with CI
# set, or for JSON and SARIF.
. "$(dirname "$0")/lib.sh"
if ! command -v script >/dev/null 2>&1; then skip "no script (util-linux)"; exit 0; fi
S="$TOP/examples/schedules/ksunset.schedule"
K=$(kdir)
SV=$TOP/tests/data/Module.symvers
[ -n "$K" ] && SV=$K/Module.symvers

# 1200 modules that take a while to read: one object with 3000 undefined
# symbols, linked under 1200 names
awk 'BEGIN { print ".data"; for (i = 0; i < 3000; i++) print ".quad sym" i }' >"$TMP/big.s"
gcc -c -o "$TMP/big.o" "$TMP/big.s" || fail "assemble the module"
mkdir "$TMP/m"
i=0
while [ $i -lt 1200 ]; do ln "$TMP/big.o" "$TMP/m/m$i.ko"; i=$((i + 1)); done

# tty NAME COMMAND...: runs it on a pty, stdout and stderr in $TMP/NAME
tty() {
	t_name=$1
	shift
	script -qfec "$*" /dev/null >"$TMP/$t_name" 2>&1
}
progress='modules read ('
# the line shows from the first module on, so its absence below is the
# rule's, not the timing's
KSUNSET_PROGRESS_AFTER=0
export KSUNSET_PROGRESS_AFTER

tty check env -u CI "$KSUNSET" check -j 1 -s "$S" "$TMP/m"
expect_grep "check on a terminal: progress" "$TMP/check" "$progress"
expect_grep "check: the line is erased before the summary" "$TMP/check" \
	"$(printf '\r\033[K')ksunset: 1200 modules checked"
tty users env -u CI "$KSUNSET" users do_settimeofday64 -- "$TMP/m"
expect_grep "users on a terminal: progress" "$TMP/users" "$progress"
tty unused env -u CI "$KSUNSET" unused -i "$SV" "$TMP/m"
expect_grep "unused on a terminal: progress" "$TMP/unused" "$progress"

# none: no-progress NAME: the output of tty NAME has no progress line
no_progress() {
	expect_eq "$1: no progress line" "$(grep -c "$progress" "$TMP/$2")" 0
}
env -u CI "$KSUNSET" check -j 1 -s "$S" "$TMP/m" >"$TMP/pipe" 2>&1
no_progress "check in a pipe" pipe
tty ci env CI=1 "$KSUNSET" check -j 1 -s "$S" "$TMP/m"
expect_grep "CI=1: the check ran on a terminal" "$TMP/ci" "1200 modules checked"
no_progress "CI=1" ci
tty quiet env -u CI "$KSUNSET" check -q -j 1 -s "$S" "$TMP/m"
no_progress "check -q" quiet
tty json env -u CI "$KSUNSET" check --format json -j 1 -s "$S" "$TMP/m"
expect_grep "--format json: the report on the terminal" "$TMP/json" '"modules_checked": 1200'
no_progress "check --format json" json
tty sarif env -u CI "$KSUNSET" check --format sarif -j 1 -s "$S" "$TMP/m"
no_progress "check --format sarif" sarif
tty ujson env -u CI "$KSUNSET" unused --format json -i "$SV" "$TMP/m"
no_progress "unused --format json" ujson
exit 0
