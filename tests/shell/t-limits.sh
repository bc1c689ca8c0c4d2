#!/bin/sh
# Huge generated inputs (tests/shell/limits.py): a Module.symvers of
# 200,000 lines, a schedule of 50,000 entries, a module with 70,000
# sections (SHN_XINDEX) and 1,000,000 symbols. Exact findings, and CPU time
# and peak RSS that grow linearly (big/small ratios in the same run).
. "$(dirname "$0")/lib.sh"
cc -O2 -Wall -Wextra -Werror -o "$TMP/rusage" "$TOP/tests/shell/rusage.c" ||
	{ fail "build the rusage helper"; exit 0; }
python3 "$TOP/tests/shell/limits.py" "$KSUNSET" "$TMP" "$TMP/rusage"
# the driver's status: a traceback after some PASS lines fails the test
exit $?
