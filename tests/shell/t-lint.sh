#!/bin/sh
# ksunset lint on the annotated schedules in tests/data/schedules: each file
# states its exit status ("# expect-exit:") and every message ("# expect:").
. "$(dirname "$0")/lib.sh"
cd "$TOP/tests/data/schedules" || exit 1

for f in *.schedule; do
	with=$(sed -n 's/^# lint-with: //p' "$f")
	want_rc=$(sed -n 's/^# expect-exit: //p' "$f")
	sed -n 's/^# expect: //p' "$f" >"$TMP/want"
	# shellcheck disable=SC2086
	"$KSUNSET" lint $with "$f" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	grep -v '^ksunset: [0-9]* errors\?, [0-9]* warnings\?$' "$TMP/err" >"$TMP/got"
	expect_eq "$f exit status" "$rc" "$want_rc"
	expect_file_eq "$f messages" "$TMP/got" "$TMP/want"
done

"$KSUNSET" lint /nonexistent/x.schedule >/dev/null 2>"$TMP/err"
expect_eq "unreadable file exit status" "$?" 2
expect_grep "unreadable file message" "$TMP/err" \
	"/nonexistent/x.schedule: error: cannot read schedule: No such file or directory"

"$KSUNSET" lint good.schedule /nonexistent/x.schedule errors.schedule >/dev/null 2>"$TMP/err"
expect_eq "unreadable among bad: exit 2" "$?" 2
expect_grep "unreadable among bad: others still checked" "$TMP/err" "errors.schedule:7: error"

"$KSUNSET" lint --frobnicate good.schedule >/dev/null 2>"$TMP/err"
expect_eq "unknown option exit status" "$?" 2
expect_grep "unknown option message" "$TMP/err" "ksunset lint: error: unknown option '--frobnicate'"

"$KSUNSET" lint --today 2027-02-30 good.schedule >/dev/null 2>"$TMP/err"
expect_eq "bad --today exit status" "$?" 2

env -u KSUNSET_SCHEDULE "$KSUNSET" frob >/dev/null 2>"$TMP/err"
expect_eq "unknown command exit status" "$?" 2
expect_grep "unknown command message" "$TMP/err" "ksunset: error: unknown command 'frob'"
"$KSUNSET" --history check x.ko >/dev/null 2>"$TMP/err"
expect_eq "command after options: exit 2" "$?" 2
expect_grep "command after options: said" "$TMP/err" "ksunset: error: 'check' is a command: give it first"

KSUNSET_SCHEDULE="good.schedule:warnings.schedule" "$KSUNSET" lint >/dev/null 2>"$TMP/err"
expect_eq "KSUNSET_SCHEDULE used when no -s" "$?" 0
expect_grep "KSUNSET_SCHEDULE loads every file" "$TMP/err" "warnings.schedule:5: warning"

"$KSUNSET" lint --list --today 2026-12-03 "$TOP/examples/schedules/ksunset.schedule" >"$TMP/out"
expect_grep "--list shows days left" "$TMP/out" "do_settimeofday64                2027-09-01 unexport"
expect_grep "--list counts days" "$TMP/out" "in 272 days"
SOURCE_DATE_EPOCH=1830384000 "$KSUNSET" lint --list "$TOP/examples/schedules/ksunset.schedule" >"$TMP/out"
expect_grep "SOURCE_DATE_EPOCH sets today" "$TMP/out" "overdue by 1 day;"

"$KSUNSET" --version >"$TMP/out"
expect_grep "--version" "$TMP/out" "ksunset "
"$KSUNSET" --help >"$TMP/out"
expect_grep "--help lists lint" "$TMP/out" "lint"
exit 0
