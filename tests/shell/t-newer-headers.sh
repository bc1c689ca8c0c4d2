#!/bin/sh
# Modules built against a newer Debian kernel than the machine's: the 6.12
# headers of bookworm-backports (built with gcc-12, so the plugin loads;
# their BTF step needs pahole), fetched by scripts/fetch-debian.sh into the
# cache without touching the machine's apt configuration. The plugin warns
# and records as against 6.1, and check reads the 6.12 Module.symvers.
# Skipped, saying so, when the Debian archive cannot be reached.
. "$(dirname "$0")/lib.sh"
PLUGIN=${PLUGIN:-$TOP/build/ksunset.so}
F="$TOP/scripts/fetch-debian.sh"

# bad calls of the fetch script: one line, exit 2
"$F" 'no such suite' list x >/dev/null 2>"$TMP/err"
expect_eq "fetch-debian.sh: a bad suite name exits 2" "$?" 2
expect_grep "fetch-debian.sh: says which" "$TMP/err" "'no such suite': not a Debian suite name"
"$F" bookworm >/dev/null 2>"$TMP/err"
expect_eq "fetch-debian.sh: no action exits 2" "$?" 2
expect_grep "fetch-debian.sh: prints its usage" "$TMP/err" "usage: fetch-debian.sh"
KSUNSET_CACHE="$TMP/cache" KSUNSET_DEBIAN_MIRROR=http://127.0.0.1:9/debian \
	"$F" bookworm list 'linux-headers-.*' >/dev/null 2>"$TMP/err"
expect_eq "fetch-debian.sh: an unreachable archive exits 77" "$?" 77
expect_grep "fetch-debian.sh: says so" "$TMP/err" "cannot reach http://127.0.0.1:9/debian (bookworm)"

H=$(fetch_headers bookworm-backports 'linux-headers-6\.12\.[0-9]+\+deb12-amd64')
rc=$?
if [ "$rc" -ne 0 ]; then
	skip "cannot fetch bookworm-backports' 6.12 headers (status $rc): $(tail -1 "$TMP/fetch.log")"
	exit 0
fi
release=$(basename "$H" | sed 's/^linux-headers-//')
pass "fetched $release headers"
command -v pahole >/dev/null 2>&1 || { fail "pahole missing (scripts/install-deps.sh installs dwarves)"; exit 1; }

SOURCE_DATE_EPOCH=$(date -u -d 2026-12-03 +%s)
LC_ALL=C
export SOURCE_DATE_EPOCH LC_ALL
S="$TOP/tests/kbuild/kbuild.schedule"
d="$TMP/rtc_legacy"
if ! KB_KDIR=$H kbuild "$TOP/tests/kbuild/rtc_legacy" "$d" \
	KCFLAGS="-fplugin=$PLUGIN -fplugin-arg-ksunset-schedule=$S -fno-diagnostics-show-caret"; then
	fail "rtc_legacy: build against $release"
	tail -20 "$d.log" | sed 's/^/  | /'
	exit 1
fi
pass "rtc_legacy: builds against $release with the plugin"
expect_eq "the module is for $release" "$(modinfo -F vermagic "$d/rtc_legacy.ko" | cut -d' ' -f1)" "$release"
expect_grep "BTF added by pahole" "$d.log" "BTF [M]"
grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error|note):' "$d.log" | sed "s|^$d/||" >"$TMP/got"
sed -n 's/^diag: //p' "$TOP/tests/kbuild/rtc_legacy.expect" >"$TMP/want"
expect_file_eq "the same warnings as against 6.1" "$TMP/got" "$TMP/want"

"$KSUNSET" check -s "$S" -i "$H/Module.symvers" "$d/rtc_legacy.ko" >"$TMP/out" 2>"$TMP/err"
expect_eq "check against $release's Module.symvers: exit 1 (one overdue)" "$?" 1
expect_grep "check: the target kernel is $release" "$TMP/out" "(target kernel $release)"
expect_grep "check: source lines from the records" "$TMP/out" "rtc_legacy.c:10:19: error: address of 'noop_llseek'"
expect_grep "check: summary" "$TMP/err" "1 module checked: 1 error, 4 warnings"
exit 0
