#!/bin/sh
# ksunset mark: the entry it appends, the existing text kept byte for byte,
# the result passing lint, refusals (already scheduled, not exported,
# schedule with errors), dates from --today and SOURCE_DATE_EPOCH, and
# writing through a symbolic link.
. "$(dirname "$0")/lib.sh"
SV="$TOP/tests/data/kernel.symvers"
D="$TOP/tests/data/schedules"
cd "$TMP" || exit 1
unset SOURCE_DATE_EPOCH

# no trailing newline, a comment at the end: the entry needs "\n\n" after it
printf '# Vendor schedule.\n\nWhat: plain_export\nWhen: 2028-01\nWhy: w\nWho: w\n# last line, no newline' >s.schedule
cp s.schedule orig
"$KSUNSET" mark old_clock -s s.schedule -i "$SV" --today 2026-12-03 --replace new_clock \
	--why "Nobody in tree.
Out-of-tree RTC drivers still call it." --who "K. Dev <k@example.org>" >out 2>err
expect_eq "mark: exit 0" "$?" 0
cat >want <<'EOW'
What:    old_clock
When:    2027-12-03
Action:  unexport
Replace: new_clock
Why:     Nobody in tree.
         Out-of-tree RTC drivers still call it.
Who:     K. Dev <k@example.org>
Since:   2026-12-03
EOW
expect_file_eq "mark: prints the entry (When today+1y, Since today)" out want
expect_grep "mark: says where" err "s.schedule:9: marked: 'old_clock' is scheduled for removal on 2027-12-03"
{ cat orig; printf '\n\n'; cat want; } >want-file
expect_file_eq "mark: existing text kept byte for byte, separated by a blank line" s.schedule want-file
"$KSUNSET" lint -s s.schedule -i "$SV" --today 2026-12-03 >lint.out 2>&1
expect_eq "mark: the result passes lint" "$?" 0
expect_eq "mark: lint has nothing to say" "$(cat lint.out)" ""

cp s.schedule before
"$KSUNSET" mark old_clock -s s.schedule --today 2026-12-03 >out 2>err
expect_eq "already scheduled: exit 1" "$?" 1
expect_grep "already scheduled: points at the entry" err \
	"s.schedule:9: error: 'old_clock' is already scheduled here: not marking it again"
expect_grep "already scheduled: file left alone" err "ksunset: s.schedule left unchanged"
cmp -s before s.schedule && pass "already scheduled: file unchanged" || fail "already scheduled: file changed"
"$KSUNSET" mark plain_export gpl_export -s s.schedule --why w --who w >/dev/null 2>err
expect_eq "one of several already scheduled: exit 1" "$?" 1
"$KSUNSET" mark no_such_export -s s.schedule -i "$SV" --why w --who w >/dev/null 2>err
expect_eq "not exported (-i): exit 1" "$?" 1
expect_grep "not exported: message" err "'no_such_export' is not exported by the kernel"
"$KSUNSET" mark gpl_export -s s.schedule --when 2020-01-01 -i "$SV" --why w --who w >/dev/null 2>err
expect_eq "a date already past with -i: refused as lint would (exit 1)" "$?" 1
cmp -s before s.schedule && pass "refusals: file unchanged" || fail "refusals: file changed"

# a deadline on or before today makes every use overdue at once: refused
# (exit 1) unless --force, which writes no Since (it would follow When)
for when in 2026-12-01 2026-12-03 +0d; do
	"$KSUNSET" mark p_sym -s s.schedule --when $when --today 2026-12-03 --why w --who w >/dev/null 2>err
	expect_eq "--when $when, not after today: exit 1" "$?" 1
done
expect_grep "not after today: says why and what to do" err \
	"s.schedule: error: When 2026-12-03 is not after today (2026-12-03): every use would be overdue at once; --force marks it anyway"
cmp -s before s.schedule && pass "not after today: file unchanged" || fail "not after today: file changed"
cp s.schedule forced.schedule
"$KSUNSET" mark p_sym -s forced.schedule --when 2026-12-01 --today 2026-12-03 --why w --who w --force >out 2>err
expect_eq "--force: a past date marked" "$?" 0
expect_grep "--force: the date written" out "When:    2026-12-01"
expect_eq "--force: no Since after When" "$(grep -c '^Since:' out)" 0
"$KSUNSET" lint forced.schedule >/dev/null 2>&1
expect_eq "--force: the result passes lint" "$?" 0
# a Since after When (by hand) is a lint error, so mark refuses it too
printf 'What: hand_sym\nWhen: 2027-01-01\nSince: 2027-02-01\nWhy: w\nWho: w\n' >since.schedule
"$KSUNSET" lint since.schedule >/dev/null 2>err
expect_eq "Since after When: lint exit 1" "$?" 1
expect_grep "Since after When: lint says so" err \
	"since.schedule:1: error: Since 2027-02-01 is after When 2027-01-01: the entry was overdue from the start"

# a read-only schedule is refused (exit 2) and left alone: the file's mode
# decides, since the tests run as root, whom access(2) never refuses
cp s.schedule ro.schedule && chmod 444 ro.schedule
"$KSUNSET" mark r_sym -s ro.schedule --why w --who w >/dev/null 2>err
expect_eq "read-only schedule: exit 2" "$?" 2
expect_grep "read-only schedule: named" err "ro.schedule: error: cannot write: the file is read-only (mode 0444)"
cmp -s before ro.schedule && pass "read-only schedule: unchanged" || fail "read-only schedule: changed"
"$KSUNSET" mark r_sym -s ro.schedule --why w --who w -n >/dev/null 2>&1
expect_eq "read-only schedule: --dry-run still shows the entry" "$?" 0

# the owner and group are kept (only root can give a file away)
cp s.schedule owned.schedule
if chown 4321:4322 owned.schedule 2>/dev/null; then
	"$KSUNSET" mark o_sym -s owned.schedule --why w --who w >/dev/null 2>&1
	expect_eq "owner and group kept" "$(stat -c %u:%g owned.schedule)" "4321:4322"
fi

# CRLF stays CRLF: the new entry is written with the file's line endings
printf 'What: crlf_sym\r\nWhen: 2028-01\r\nWhy: w\r\nWho: w\r\n' >crlf.schedule
cp crlf.schedule orig
"$KSUNSET" mark n_sym -s crlf.schedule --when 2027-06-01 --today 2026-12-03 --why w --who w >out 2>/dev/null
expect_eq "CRLF: exit 0" "$?" 0
{ cat orig; printf '\n'; cat out; } | sed 's/\r*$/\r/' >want
expect_file_eq "CRLF: every line of the new file ends in CRLF" crlf.schedule want
expect_eq "CRLF: the entry printed in plain lines" "$(grep -c "$(printf '\r')" out)" 0
"$KSUNSET" lint crlf.schedule >/dev/null 2>&1
expect_eq "CRLF: lint clean" "$?" 0

# ends with a blank line already: nothing added before the entry
printf 'What: a_sym\nWhen: 2028-01\nWhy: w\nWho: w\n\n' >blank.schedule
cp blank.schedule orig
"$KSUNSET" mark b_sym -s blank.schedule --when 2027-06 --today 2026-12-03 --why w --who w >out 2>/dev/null
{ cat orig; cat out; } >want
expect_file_eq "ends with a blank line: no second one" blank.schedule want
"$KSUNSET" lint blank.schedule >/dev/null 2>&1
expect_eq "ends with a blank line: lint clean" "$?" 0

# --when forms, --action, SOURCE_DATE_EPOCH, a new file
SOURCE_DATE_EPOCH=$(date -u -d 2026-01-31 +%s) "$KSUNSET" mark x_sym -s new.schedule \
	--when +1m --action "namespace RTC" --why w --who w >out 2>/dev/null
expect_eq "new file made" "$(head -1 new.schedule)" "What:    x_sym"
expect_grep "+1m from SOURCE_DATE_EPOCH (end of month clamped)" new.schedule "When:    2026-02-28"
expect_grep "Since from SOURCE_DATE_EPOCH" new.schedule "Since:   2026-01-31"
expect_grep "--action namespace NS" new.schedule "Action:  namespace RTC"
"$KSUNSET" mark y_sym -s new.schedule --when v6.20 --action gpl-only --why w --who w >/dev/null 2>err
expect_grep "--when a kernel release" new.schedule "When:    v6.20"
expect_grep "--when a kernel release: says when as the reports do" err ": marked: 'y_sym' will become GPL-only in Linux 6.20"
"$KSUNSET" mark w_sym -s new.schedule --when v6.21 --action GPL-Only --why w --who w >/dev/null 2>err
expect_eq "--action in any case, as the schedule's Action" "$?" 0
expect_grep "--action in any case: written as given" new.schedule "Action:  GPL-Only"
"$KSUNSET" mark z_sym -s new.schedule --when +30d --today 2026-12-03 --why w --who w -n >out 2>&1
expect_grep "--dry-run prints" out "When:    2027-01-02"
expect_eq "--dry-run changes nothing" "$(grep -c z_sym new.schedule)" 0
"$KSUNSET" lint new.schedule >/dev/null 2>&1
expect_eq "several marks: lint clean" "$?" 0

# a symbolic link is followed; the mode is kept; no temporary file is left
mkdir real && cp blank.schedule real/k.schedule && chmod 640 real/k.schedule
ln -s real/k.schedule link.schedule
"$KSUNSET" mark c_sym -s link.schedule --why w --who w >/dev/null 2>&1
[ -L link.schedule ] && pass "symlink kept" || fail "symlink replaced by a file"
expect_grep "written through the link" real/k.schedule "What:    c_sym"
expect_eq "mode kept" "$(stat -c %a real/k.schedule)" 640
expect_eq "no temporary file left" "$(ls -A real)" "k.schedule"

# --kernel-dir KDIR writes KDIR/ksunset.schedule, which lint --kernel-dir finds
mkdir kdir && cp "$SV" kdir/Module.symvers
"$KSUNSET" mark plain_export --kernel-dir kdir --why w --who w --today 2026-12-03 >/dev/null 2>&1
expect_grep "--kernel-dir: KDIR/ksunset.schedule" kdir/ksunset.schedule "What:    plain_export"
env -u KSUNSET_SCHEDULE "$KSUNSET" lint --kernel-dir kdir --today 2026-12-03 >/dev/null 2>&1
expect_eq "lint --kernel-dir: finds schedule and Module.symvers" "$?" 0
"$KSUNSET" mark plian_export --kernel-dir kdir --why w --who w >/dev/null 2>&1
expect_eq "--kernel-dir without -i: any name accepted" "$?" 0
env -u KSUNSET_SCHEDULE "$KSUNSET" lint --kernel-dir kdir >/dev/null 2>err
expect_eq "lint --kernel-dir: uses KDIR/Module.symvers (typo found)" "$?" 1

# a schedule with errors is refused, with its errors named
cp "$D/errors.schedule" bad.schedule
"$KSUNSET" mark q_sym -s bad.schedule >/dev/null 2>err
expect_eq "schedule with errors: exit 1" "$?" 1
expect_grep "schedule with errors: named" err "bad.schedule:7: error: bad symbol name 'foo-bar'"
cmp -s "$D/errors.schedule" bad.schedule && pass "schedule with errors: unchanged" ||
	fail "schedule with errors: changed"

# usage errors: exit 2
for args in "-s s.schedule" "q_sym" "q_sym -s a -s b" "bad-name -s s.schedule" \
	"q_sym -s s.schedule --when 2027-13-01" "q_sym -s s.schedule --action delete" \
	"q_sym -s s.schedule --frob" "q_sym -s s.schedule --today nope" \
	"q_sym -s s.schedule --when +8000y" "q_sym -s s.schedule --when +2920000d"; do
	# shellcheck disable=SC2086
	"$KSUNSET" mark $args >/dev/null 2>&1
	expect_eq "usage error: mark $args" "$?" 2
done
"$KSUNSET" mark q_sym -s /nonexistent/dir/x.schedule >/dev/null 2>err
expect_eq "unwritable: exit 2" "$?" 2
expect_grep "unwritable: names the file" err "/nonexistent/dir/x.schedule: error: cannot write: No such file or directory"
"$KSUNSET" mark q_sym -s s.schedule --when +8000y >/dev/null 2>err
expect_grep "a date past 9999: said so" err "bad --when '+8000y': past 9999-12-31, the last date a schedule can hold"
exit 0
