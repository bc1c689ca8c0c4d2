#!/bin/sh
# run.sh itself, on folders of fake t-*.sh scripts (KS_SHELL_TESTS_DIR):
# a script that exits non-zero or is killed after a PASS line, one that
# reports a FAIL and then exits 0, and t-limits.sh whose Python driver
# raises after a PASS line each fail the run; a passing script passes it.
. "$(dirname "$0")/lib.sh"
RUN="$TOP/tests/shell/run.sh"

# fake NAME: an empty folder $TMP/NAME with lib.sh beside the fake scripts
fake() {
	mkdir "$TMP/$1" && cp "$TOP/tests/shell/lib.sh" "$TMP/$1/"
}

# driver NAME: run.sh on the folder $TMP/NAME, output in $TMP/NAME.out.
# TESTS names the fake alone: a run.sh that ignored KS_SHELL_TESTS_DIR
# would run no real test (least of all this one, recursing) and just fail.
driver() {
	KS_SHELL_TESTS_DIR="$TMP/$1" KSUNSET=/bin/true TESTS="t-$1" \
		sh "$RUN" >"$TMP/$1.out" 2>&1
}

# failed NAME WHAT SUMMARY LINE...: the run on NAME exits 1, prints the
# SUMMARY line and each LINE
failed() {
	driver "$1"
	expect_eq "$2: run.sh exits 1" "$?" 1
	expect_grep "$2: counted" "$TMP/$1.out" "$3"
	f_out=$TMP/$1.out f_what=$2
	shift 3
	for l in "$@"; do expect_grep "$f_what: prints '$l'" "$f_out" "$l"; done
}

fake exit3
printf 'echo "PASS t-exit3: y"\nexit 3\n' >"$TMP/exit3/t-exit3.sh"
failed exit3 "PASS then exit 3" "shell: 1 passed, 1 failed, 0 skipped" \
	"FAIL t-exit3: exited with status 3"

fake killed
printf 'echo "PASS t-killed: y"\nkill -9 $$\necho "PASS t-killed: never"\n' >"$TMP/killed/t-killed.sh"
failed killed "PASS then SIGKILL" "shell: 1 passed, 1 failed, 0 skipped" \
	"FAIL t-killed: exited with status 137"

fake failzero
# shellcheck disable=SC2016 # the fake expands it
printf '. "$(dirname "$0")/lib.sh"\nfail "broken"\nexit 0\n' >"$TMP/failzero/t-failzero.sh"
failed failzero "lib.sh fail then exit 0" "shell: 0 passed, 2 failed, 0 skipped" \
	"FAIL t-failzero: broken" "FAIL t-failzero: exited with status 1"

# the real t-limits.sh, its limits.py replaced by one that raises
fake limits
printf 'print("PASS t-limits: first check")\nraise RuntimeError("driver broke")\n' >"$TMP/limits/drv.py"
sed "s|\$TOP/tests/shell/limits.py|$TMP/limits/drv.py|" "$TOP/tests/shell/t-limits.sh" \
	>"$TMP/limits/t-limits.sh"
if grep -qF "$TMP/limits/drv.py" "$TMP/limits/t-limits.sh"; then
	failed limits "t-limits.sh, traceback after PASS" "shell: 1 passed, 1 failed, 0 skipped" \
		"RuntimeError: driver broke" "FAIL t-limits: exited with status 1"
else
	fail "t-limits.sh no longer runs \$TOP/tests/shell/limits.py: update this test"
fi

fake good
# shellcheck disable=SC2016
printf '. "$(dirname "$0")/lib.sh"\npass "fine"\nexit 0\n' >"$TMP/good/t-good.sh"
driver good
expect_eq "passing script: run.sh exits 0" "$?" 0
expect_grep "passing script: only the fakes run" "$TMP/good.out" "shell: 1 passed, 0 failed, 0 skipped"
exit 0
