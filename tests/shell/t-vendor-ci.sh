#!/bin/sh
# examples/vendor-ci/ci.sh on a real Kbuild module against Debian's
# headers, today fixed by SOURCE_DATE_EPOCH: a baseline written once lets
# the job pass; a new use fails it and is named; the same accepted use
# fails once overdue, and once the symbol is gone from the Module.symvers
# given in KSUNSET_SYMVERS; every run's SARIF validates (sarif-validators.sh).
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
exit 0
