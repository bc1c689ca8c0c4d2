#!/bin/sh
# examples/kernel-developer/run.sh, the 2005 story, gives the output stated
# in examples/kernel-developer/expected.txt (for Debian's 6.1.0-57 headers).
. "$(dirname "$0")/lib.sh"
K=$(kdir)
EX="$TOP/examples/kernel-developer"
if [ -z "$K" ]; then skip "no kernel headers in /usr/src (linux-headers-amd64)"; exit 0; fi
if [ "$(basename "$K")" != linux-headers-6.1.0-57-amd64 ]; then
	skip "expected.txt is for linux-headers-6.1.0-57-amd64, not $(basename "$K")"
	exit 0
fi
TODAY=2026-12-03 KDIR=$K WORK="$TMP/work" PATH="$(dirname "$KSUNSET"):$PATH" \
	sh "$EX/run.sh" >"$TMP/out" 2>"$TMP/err"
expect_eq "run.sh: exit 0" "$?" 0
grep -v '^#' "$EX/expected.txt" >"$TMP/want"
expect_file_eq "run.sh: output as in expected.txt" "$TMP/out" "$TMP/want"
expect_eq "run.sh: nothing on stderr" "$(cat "$TMP/err")" ""
expect_grep "the schedule is where a kernel tree keeps it" "$TMP/work/kernel/ksunset.schedule" \
	"What:    do_settimeofday64"
"$KSUNSET" lint --kernel-dir "$TMP/work/kernel" --today 2026-12-03 >/dev/null 2>&1
expect_eq "the marked schedule passes lint" "$?" 0
exit 0
