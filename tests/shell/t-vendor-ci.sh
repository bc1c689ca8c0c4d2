#!/bin/sh
# examples/vendor-ci/ci.sh on a real Kbuild module against Debian's
# headers, today fixed by SOURCE_DATE_EPOCH: a baseline written once lets
# the job pass; a new use fails it and is named; the same accepted use
# fails once overdue, and once the symbol is gone from the Module.symvers
# given in KSUNSET_SYMVERS; a use accepted in the source (KSUNSET_ACCEPT)
# passes and fails the same way; every run's SARIF validates
# (sarif-validators.sh).
. "$(dirname "$0")/lib.sh"
K=$(kdir)
if [ -z "$K" ]; then skip "no kernel headers in /usr/src"; exit 0; fi
S="$TOP/tests/data/check.schedule"
CI="$TOP/examples/vendor-ci/ci.sh"
. "$TOP/tests/shell/sarif-validators.sh"
MOD=$TMP/legacy
epoch() { date -u -d "$1" +%s; }

# ci WHAT DATE [VAR=VALUE...]: one CI job on DATE; its status in $rc, its
# log in $TMP/out; the SARIF it writes must be new and valid
ci() {
	what=$1 day=$2
	shift 2
	rm -f "$MOD/ksunset.sarif"
	env SOURCE_DATE_EPOCH="$(epoch "$day")" KSUNSET="$KSUNSET" "$@" \
		sh "$CI" "$MOD" "$K" "$S" >"$TMP/out" 2>&1
	rc=$?
	if [ -f "$MOD/ksunset.sarif" ]; then
		validate "$what: SARIF" "$MOD/ksunset.sarif"
	else
		fail "$what: SARIF written"
	fi
}

rm -rf "$MOD" && cp -r "$TOP/tests/modules/legacy" "$MOD"
cp "$MOD/legacy-clock.c" "$TMP/legacy-clock.c.orig"
# the baseline, once, with the plugin, on 2026-01-01: every use is ahead
# of its date and of --error-within 90
"$KSUNSET" make -s "$S" --today 2026-01-01 --source-root "$MOD" \
	--write-baseline "$MOD/ksunset.baseline" -C "$K" M="$MOD" >"$TMP/out" 2>&1
expect_eq "the baseline written" "$?" 0
expect_eq "the baseline holds the module's three scheduled uses" \
	"$(grep -vc '^#' "$MOD/ksunset.baseline")" 3

ci "accepted uses" 2026-01-01
expect_eq "accepted uses: the job passes" "$rc" 0
expect_grep "accepted uses: SARIF named in the log" "$TMP/out" \
	"ksunset: SARIF report in $MOD/ksunset.sarif; exit status 0"
expect_grep "accepted uses: SARIF holds the accepted uses, suppressed" "$MOD/ksunset.sarif" \
	'"status": "accepted"'

# a new use of simple_strtoul beside the accepted one
sed -i 's/return do_settimeofday64(&ts);/return do_settimeofday64(\&ts) ?: simple_strtoul("1", NULL, 10);/' \
	"$MOD/legacy-clock.c"
ci "a new use" 2026-01-01
expect_eq "a new use: the job fails" "$rc" 1
expect_grep "a new use: named by file:line" "$TMP/out" \
	"$MOD/legacy-clock.c:12:42: error: call to 'simple_strtoul' in 'legacy_set_clock'"
expect_eq "a new use: the accepted uses are not named" \
	"$(grep -c "legacy-main.c:[0-9]*:[0-9]*: error" "$TMP/out")" 0
expect_grep "a new use: its SARIF result (UTF-16 column: the tab is one)" "$MOD/ksunset.sarif" \
	'"uri": "legacy-clock.c", "uriBaseId": "SRCROOT"}, "region": {"startLine": 12, "startColumn": 35}'
expect_eq "a new use: the only result not suppressed" \
	"$(grep -c '"suppressions": \[\]' "$MOD/ksunset.sarif")" 1
cp "$TMP/legacy-clock.c.orig" "$MOD/legacy-clock.c"
ci "the new use removed" 2026-01-01
expect_eq "the new use removed: the job passes again" "$rc" 0

# the same accepted uses, today past noop_llseek's date (2026-06-01)
ci "overdue" 2026-07-01
expect_eq "overdue: the accepted use fails the job" "$rc" 1
expect_grep "overdue: named" "$TMP/out" \
	"$MOD/legacy-main.c:14:19: error: address of 'noop_llseek' (removed on 2026-06-01) [ksunset-overdue]"

# the same accepted uses, against a kernel that no longer exports
# do_settimeofday64 (the build still runs against the headers)
grep -v '	do_settimeofday64	' "$K/Module.symvers" >"$TMP/Module.symvers"
expect_eq "the symbol taken out of a copy of Module.symvers" \
	"$(($(wc -l <"$K/Module.symvers") - $(wc -l <"$TMP/Module.symvers")))" 1
ci "gone from Module.symvers" 2026-01-01 KSUNSET_SYMVERS="$TMP/Module.symvers"
expect_eq "gone from Module.symvers: the accepted use fails the job" "$rc" 1
expect_grep "gone from Module.symvers: named" "$TMP/out" \
	"$MOD/legacy-clock.c:12:16: error: call to 'do_settimeofday64'"
ci "the kernel's own Module.symvers again" 2026-01-01
expect_eq "the kernel's own Module.symvers again: the job passes" "$rc" 0

# a new use accepted in the source: KSUNSET_ACCEPT in legacy_set_clock,
# from the module's own copy of <ksunset/sunset.h> (it builds without
# ksunset too), accepts the new use of simple_strtoul there
mkdir -p "$MOD/include/ksunset" && cp "$TOP/include/ksunset/sunset.h" "$MOD/include/ksunset/"
echo 'ccflags-y += -I$(src)/include' >>"$MOD/Kbuild"
sed -i -e 's|^#include "legacy.h"$|#include "legacy.h"\n#include <ksunset/sunset.h>|' \
	-e 's|^\treturn do_settimeofday64(&ts);$|\tKSUNSET_ACCEPT("no RTC class driver for this board yet");\n\treturn do_settimeofday64(\&ts) ?: simple_strtoul("1", NULL, 10);|' \
	"$MOD/legacy-clock.c"
expect_eq "the accept and the new use written" "$(grep -c 'KSUNSET_ACCEPT\|simple_strtoul' "$MOD/legacy-clock.c")" 2
ci "accepted in the source" 2026-01-01
expect_eq "accepted in the source: the job passes" "$rc" 0
expect_eq "accepted in the source: no compile-time warning" \
	"$(grep -c "legacy-clock.c:[0-9]*:[0-9]*: warning: 'simple_strtoul'" "$TMP/out")" 0
expect_grep "accepted in the source: counted" "$TMP/out" ", 1 accepted in the source"
expect_grep "accepted in the source: SARIF suppresses it with the reason" "$MOD/ksunset.sarif" \
	'"suppressions": [{"kind": "inSource", "status": "accepted", "justification": "no RTC class driver for this board yet"}]'
"$KSUNSET" check -s "$S" --today 2026-01-01 --format json "$MOD/modules.order" >"$TMP/json" 2>/dev/null
python3 - "$TMP/json" >"$TMP/out" 2>&1 <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
f = [f for f in d["findings"] if f["symbol"] == "simple_strtoul"][0]
l = [l for l in f["locations"] if l["file"].endswith("legacy-clock.c")][0]
assert l["accepted"] and l["reason"] == "no RTC class driver for this board yet", l
assert not f["accepted"], f  # the use in legacy-main.c is not
print("json accepted ok")
EOP
expect_grep "accepted in the source: JSON gives the reason" "$TMP/out" "json accepted ok"

# the same accepted use, past simple_strtoul's date (2026-12-20), compiled again
touch "$MOD/legacy-clock.c"
ci "accepted in the source, overdue" 2026-12-21
expect_eq "accepted in the source, overdue: the job fails" "$rc" 1
expect_grep "accepted in the source, overdue: named" "$TMP/out" \
	"$MOD/legacy-clock.c:14:42: error: call to 'simple_strtoul' in 'legacy_set_clock' (removed on 2026-12-20) [ksunset-overdue]"
expect_grep "accepted in the source, overdue: the compiler says the accept does not cover it" \
	"$TMP/out" "legacy-clock.c:14:42: note: accepted in the source (\"no RTC class driver for this board yet\"), but a use past its date never is"

# the same accepted use, against a kernel that no longer exports simple_strtoul
grep -v '	simple_strtoul	' "$K/Module.symvers" >"$TMP/Module.symvers"
ci "accepted in the source, gone from Module.symvers" 2026-01-01 KSUNSET_SYMVERS="$TMP/Module.symvers"
expect_eq "accepted in the source, gone from Module.symvers: the job fails" "$rc" 1
expect_grep "accepted in the source, gone from Module.symvers: named" "$TMP/out" \
	"$MOD/legacy-clock.c:14:42: error: call to 'simple_strtoul' in 'legacy_set_clock' (removal on 2026-12-20) [ksunset-removed]"
exit 0
