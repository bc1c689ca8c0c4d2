#!/bin/sh
# ksunset make, --cflags by hand, and the DKMS command line, on real
# modules through Kbuild against Debian's headers.
. "$(dirname "$0")/lib.sh"
K=$(kdir)
if [ -z "$K" ]; then skip "no kernel headers in /usr/src"; exit 0; fi
S="$TOP/tests/data/check.schedule"
M="$TOP/tests/modules"
REL=$(basename "$K" | sed 's/^linux-headers-//')

# prep NAME: a fresh copy of a test module
prep() { rm -rf "$TMP/$1" && cp -r "$M/$1" "$TMP/$1"; }

prep legacy
(cd "$TMP/legacy" && "$KSUNSET" make -s "$S" --today 2026-12-03 -C "$K" M="$TMP/legacy") >"$TMP/out" 2>"$TMP/err"
expect_eq "failing check: exit 1" "$?" 1
expect_grep "compile-time warning from the plugin" "$TMP/err" "legacy-clock.c:12:16: warning: 'do_settimeofday64' is scheduled for removal on 2027-09-01"
expect_grep "post-build report with the location" "$TMP/out" "$TMP/legacy/legacy-clock.c:12:16: warning: call to 'do_settimeofday64' in 'legacy_set_clock' (removal on 2027-09-01) [ksunset-scheduled]"
expect_grep "overdue use is an error" "$TMP/out" 'ERROR: ksunset: "noop_llseek"'
expect_grep "a date still ahead: removal on" "$TMP/out" "legacy-main.c:20:27: warning: call to 'simple_strtoul' in 'legacy_init' (removal on 2026-12-20) [ksunset-scheduled]"
expect_grep "a date passed: removed on" "$TMP/out" "legacy-main.c:14:19: error: address of 'noop_llseek' (removed on 2026-06-01) [ksunset-overdue]"
expect_grep "check ran on modules.order" "$TMP/err" "ksunset: 1 module checked: 1 error, 2 warnings"
test -f "$TMP/legacy/legacy.ko" && pass "the module was built" || fail "the module was built"

# --report-only (DKMS): the same findings, make's exit status
prep legacy
(cd "$TMP/legacy" && "$KSUNSET" make --report-only -s "$S" --today 2026-12-03 -C "$K" M="$TMP/legacy") \
	>"$TMP/out" 2>"$TMP/err"
expect_eq "--report-only: an overdue use keeps make's exit 0" "$?" 0
expect_grep "--report-only: the overdue use is still reported" "$TMP/out" 'ERROR: ksunset: "noop_llseek"'
"$KSUNSET" make --report-only --strict -C "$K" M="$TMP/legacy" >"$TMP/out" 2>"$TMP/err"
expect_eq "--report-only --strict: exit 2" "$?" 2
expect_grep "--report-only --strict: said" "$TMP/err" "--report-only and --strict exclude each other"

prep legacy
(cd "$TMP/legacy" && "$KSUNSET" make -s "$S" --today 2026-01-01 -- -C "$K" M="$TMP/legacy") >"$TMP/out" 2>"$TMP/err"
expect_eq "only warnings: exit 0 (and -- accepted)" "$?" 0
(cd "$TMP/legacy" && "$KSUNSET" make -s "$S" --today 2026-01-01 --strict -C "$K" M="$TMP/legacy") >"$TMP/out" 2>"$TMP/err"
expect_eq "--strict: exit 1" "$?" 1

prep broken
(cd "$TMP/broken" && "$KSUNSET" make -s "$S" -C "$K" M="$TMP/broken") >"$TMP/out" 2>"$TMP/err"
expect_eq "failing build: make's exit status" "$?" 2
expect_eq "failing build: no check" "$(grep -c 'modules\? checked' "$TMP/err")" 0

prep kcflags
(cd "$TMP/kcflags" && KCFLAGS=-DKS_USER_FLAG=1 "$KSUNSET" make -s "$S" --today 2026-01-01 -C "$K" M="$TMP/kcflags") >"$TMP/out" 2>"$TMP/err"
expect_eq "user KCFLAGS from the environment kept" "$?" 0
expect_grep "plugin loaded beside the user's flags" "$TMP/err" "warning: 'do_settimeofday64'"
prep kcflags
(cd "$TMP/kcflags" && "$KSUNSET" make -s "$S" --today 2026-01-01 -C "$K" M="$TMP/kcflags" KCFLAGS=-DKS_USER_FLAG=1) >"$TMP/out" 2>"$TMP/err"
expect_eq "user KCFLAGS= argument kept" "$?" 0
expect_grep "plugin loaded beside the KCFLAGS= argument" "$TMP/err" "warning: 'do_settimeofday64'"

# a relative M= is made absolute: Kbuild reads it after make -C, and with
# "." it recurses without end in the headers (the timeout stops that)
prep legacy
(cd "$TMP/legacy" && timeout 120 "$KSUNSET" make -s "$S" --today 2026-01-01 -C "$K" M=.) >"$TMP/out" 2>"$TMP/err"
expect_eq "M=.: exit 0" "$?" 0
test -f "$TMP/legacy/legacy.ko" && pass "M=.: the module was built" || fail "M=.: the module was built"
expect_grep "M=.: checked, named by its absolute path" "$TMP/out" "[$TMP/legacy/legacy.ko]"
prep legacy
(cd "$TMP" && timeout 120 "$KSUNSET" make -s "$S" --today 2026-01-01 -C "$K" M=legacy) >"$TMP/out" 2>"$TMP/err"
expect_eq "M=legacy (relative): exit 0" "$?" 0
expect_grep "M=legacy (relative): checked" "$TMP/err" "ksunset: 1 module checked: 0 errors, 3 warnings"

"$KSUNSET" make -s "$TMP/none.schedule" -C "$K" M="$TMP/legacy" >"$TMP/out" 2>"$TMP/err"
expect_eq "missing schedule: exit 2 before building" "$?" 2
expect_grep "missing schedule: named" "$TMP/err" "$TMP/none.schedule: error: cannot read schedule"

# --cflags wired by hand into KCFLAGS
prep legacy
flags=$("$KSUNSET" --cflags -s "$S")
expect_grep "--cflags loads the plugin" "$(printf '%s\n' "$flags" >"$TMP/flags"; echo "$TMP/flags")" "-fplugin="
make -C "$K" M="$TMP/legacy" KCFLAGS="$flags" modules >"$TMP/build.log" 2>&1
expect_eq "--cflags: Kbuild build succeeds" "$?" 0
readelf -n "$TMP/legacy/legacy.ko" >"$TMP/notes"
expect_grep "--cflags: records in the .ko" "$TMP/notes" "ksunset"
"$KSUNSET" check -s "$S" -i "$K/Module.symvers" --today 2026-12-03 "$TMP/legacy/legacy.ko" >"$TMP/out" 2>&1
expect_grep "--cflags: check finds the locations" "$TMP/out" "legacy-main.c:20:27: warning: call to 'simple_strtoul'"
"$KSUNSET" --plugin-path >"$TMP/out"
expect_grep "--plugin-path" "$TMP/out" "ksunset.so"

# the command line DKMS runs: MAKE[0] from dkms.conf, in the build dir
mkdir -p "$TMP/dkms/rtc-legacy/1.0"
cp -r "$TOP/examples/rtc-legacy" "$TMP/dkms/rtc-legacy/1.0/build"
cat >"$TMP/dkms.sh" <<EOS
kernel_source_dir="$K" dkms_tree="$TMP/dkms"
. "$TOP/examples/dkms/dkms.conf"
cd "\$dkms_tree/\$PACKAGE_NAME/\$PACKAGE_VERSION/build" && eval "\${MAKE[0]}"
EOS
PATH="$(dirname "$KSUNSET"):$PATH" KSUNSET_SCHEDULE="$TOP/examples/schedules/ksunset.schedule" \
	bash "$TMP/dkms.sh" >"$TMP/out" 2>"$TMP/err"
expect_eq "DKMS MAKE[0]: exit 0 (warnings only)" "$?" 0
test -f "$TMP/dkms/rtc-legacy/1.0/build/rtc-legacy.ko" && pass "DKMS MAKE[0]: module built" || fail "DKMS MAKE[0]: module built"
expect_grep "DKMS MAKE[0]: report" "$TMP/out" 'WARNING: ksunset: "do_settimeofday64"'
# no schedule anywhere: DKMS still builds the module, and ksunset says once
# that nothing was checked and where it looked; --cflags likewise
if ! ls /etc/ksunset/schedule.d/*.schedule /usr/local/share/ksunset/schedule.d/*.schedule \
	>/dev/null 2>&1; then
	rm -rf "$TMP/dkms" && mkdir -p "$TMP/dkms/rtc-legacy/1.0"
	cp -r "$TOP/examples/rtc-legacy" "$TMP/dkms/rtc-legacy/1.0/build"
	PATH="$(dirname "$KSUNSET"):$PATH" KSUNSET_SCHEDULE= bash "$TMP/dkms.sh" >"$TMP/out" 2>"$TMP/err"
	expect_eq "no schedule: DKMS MAKE[0] exit 0" "$?" 0
	test -f "$TMP/dkms/rtc-legacy/1.0/build/rtc-legacy.ko" && pass "no schedule: module built" ||
		fail "no schedule: module built"
	expect_eq "no schedule: said once" "$(grep -c 'no schedule found' "$TMP/err")" 1
	expect_grep "no schedule: where it looked" "$TMP/err" \
		"ksunset: note: no schedule found (looked for \$KSUNSET_SCHEDULE, $K/ksunset.schedule, /etc/ksunset/schedule.d/*.schedule and "
	expect_grep "no schedule: what it means" "$TMP/err" \
		"): nothing checked but __sunset attributes; give -s FILE or set KSUNSET_SCHEDULE"
	expect_eq "no schedule: no check run" "$(grep -c 'modules\? checked' "$TMP/err")" 0
	KSUNSET_SCHEDULE= "$KSUNSET" --cflags --kernel-dir "$K" >"$TMP/out" 2>"$TMP/err"
	expect_eq "no schedule: --cflags exit 0" "$?" 0
	expect_eq "no schedule: --cflags loads the plugin, no schedule argument" \
		"$(cat "$TMP/out")" "-fplugin=$("$KSUNSET" --plugin-path)"
	expect_grep "no schedule: --cflags says the same" "$TMP/err" \
		"ksunset: note: no schedule found (looked for \$KSUNSET_SCHEDULE, $K/ksunset.schedule, "
fi
# KBUILD_EXTRA_SYMBOLS: another module's exports count as exported
rm -rf "$TMP/prov" "$TMP/cons" && mkdir -p "$TMP/prov" "$TMP/cons"
cp "$M/chain/chain-provider.c" "$TMP/prov/" && echo 'obj-m := chain-provider.o' >"$TMP/prov/Kbuild"
cp "$M/chain/chain-consumer.c" "$TMP/cons/" && echo 'obj-m := chain-consumer.o' >"$TMP/cons/Kbuild"
printf 'What: chain_hello\nWhen: 2027-09-01\nWhy: test\nWho: T. Est\n' >"$TMP/chain.schedule"
make -s -C "$K" M="$TMP/prov" modules >/dev/null 2>&1
"$KSUNSET" make -s "$TMP/chain.schedule" --today 2026-12-03 -C "$K" M="$TMP/cons" \
	KBUILD_EXTRA_SYMBOLS="$TMP/prov/Module.symvers" >"$TMP/out" 2>"$TMP/err"
expect_eq "KBUILD_EXTRA_SYMBOLS: exit 0" "$?" 0
expect_grep "KBUILD_EXTRA_SYMBOLS: read, so the import is scheduled, not removed" "$TMP/out" \
	'WARNING: ksunset: "chain_hello"'

# M/Module.symvers: a sibling module's exports in the same build count as
# exported (scheduled, not removed), and its GPL-only and namespaced ones
# are allowed to a GPL consumer that imports the namespace
prep chain
printf 'What: chain_hello\nWhen: 2027-09-01\nWhy: test\nWho: T. Est\n' >"$TMP/chain.schedule"
"$KSUNSET" make -s "$TMP/chain.schedule" --today 2026-12-03 -C "$K" M="$TMP/chain" >"$TMP/out" 2>"$TMP/err"
expect_eq "M/Module.symvers: exit 0" "$?" 0
expect_grep "M/Module.symvers: a sibling's export is scheduled, not removed" "$TMP/out" \
	"WARNING: ksunset: \"chain_hello\" [$TMP/chain/chain-consumer.ko] is scheduled for removal on 2027-09-01"
expect_eq "M/Module.symvers: no error" "$(grep -c '^ERROR' "$TMP/out")" 0
expect_grep "M/Module.symvers: both modules checked" "$TMP/err" "ksunset: 2 modules checked: 0 errors, 1 warning"

# the vendor CI example: a baseline accepts today's uses, a new one fails
prep legacy
"$KSUNSET" make -s "$S" --today 2026-01-01 --source-root "$TMP/legacy" \
	--write-baseline "$TMP/legacy/ksunset.baseline" -C "$K" M="$TMP/legacy" >/dev/null 2>&1
SOURCE_DATE_EPOCH=1767225600 KSUNSET="$KSUNSET" sh "$TOP/examples/vendor-ci/ci.sh" "$TMP/legacy" "$K" "$S" \
	>"$TMP/out" 2>&1
expect_eq "vendor CI: baselined uses pass" "$?" 0
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["version"]=="2.1.0"; print("sarif ok")' \
	"$TMP/legacy/ksunset.sarif" >"$TMP/sarif" 2>&1
expect_grep "vendor CI: SARIF written" "$TMP/sarif" "sarif ok"
sed -i 's/return do_settimeofday64(&ts);/return do_settimeofday64(\&ts) ?: simple_strtoul("1", NULL, 10);/' \
	"$TMP/legacy/legacy-clock.c"
SOURCE_DATE_EPOCH=1767225600 KSUNSET="$KSUNSET" sh "$TOP/examples/vendor-ci/ci.sh" "$TMP/legacy" "$K" "$S" \
	>"$TMP/out" 2>&1
expect_eq "vendor CI: a new use fails" "$?" 1
expect_grep "vendor CI: the new use is named" "$TMP/out" "legacy-clock.c:12:42: error: call to 'simple_strtoul' in 'legacy_set_clock'"
exit 0
