#!/bin/sh
# A real DKMS run: Debian's dkms adds and builds examples/rtc-legacy with
# examples/dkms/dkms.conf (ksunset make). The plugin's warnings and the
# check's findings are in make.log; a use past its date fails the build in
# strict mode only; no schedule still builds; the module DKMS keeps is
# stripped of its debug info and still has its locations. Removes what it
# added (dkms remove --all, the source folder).
. "$(dirname "$0")/lib.sh"
if [ "$(id -u)" -ne 0 ]; then skip "not root: dkms not run"; exit 0; fi
if ! command -v dkms >/dev/null 2>&1; then
	skip "no dkms (scripts/install-deps.sh installs Debian's dkms)"
	exit 0
fi
K=$(kdir)
if [ -z "$K" ]; then skip "no kernel headers in /usr/src"; exit 0; fi
REL=$(basename "$K" | sed 's/^linux-headers-//')
ARCH=$(uname -m)
NAME=rtc-legacy VER=1.0
SRC=/usr/src/$NAME-$VER
TREE=/var/lib/dkms/$NAME/$VER
if [ -e "$SRC" ] || [ -n "$(dkms status -m $NAME 2>/dev/null)" ]; then
	skip "$NAME/$VER is known to dkms or in /usr/src already: not replaced by a test"
	exit 0
fi
cleanup() {
	dkms remove -m $NAME -v $VER --all >/dev/null 2>&1
	rm -rf "$SRC" "/var/lib/dkms/$NAME"
}
trap 'rc=$?; cleanup; t_exit $rc' EXIT

mkdir -p "$SRC" && cp "$TOP"/examples/rtc-legacy/* "$TOP/examples/dkms/dkms.conf" "$SRC"/
dkms add -m $NAME -v $VER >"$TMP/add.log" 2>&1
expect_eq "dkms add: exit 0" "$?" 0

# The build tree's ksunset and plugin, on PATH as a package would put them;
# today fixed, so that the dates mean the same every year.
PATH="$(cd "$(dirname "$KSUNSET")" && pwd):$PATH"
export PATH
SCHED="$TOP/examples/schedules/ksunset.schedule"
DEC3=1796256000 # 2026-12-03: every entry ahead
JUN1=1811808000 # 2027-06-01: simple_strtoul (2027-03) past its date

# dbuild LOG [VAR=VALUE...]: dkms build (again) with that environment;
# its status, and make.log (kept, or left in build/ on failure) in LOG
dbuild() {
	db_log=$1
	shift
	env "$@" dkms build -m $NAME -v $VER -k "$REL" --kernelsourcedir "$K" --force \
		>"$db_log.out" 2>&1
	db_rc=$?
	cat "$TREE/$REL/$ARCH/log/make.log" 2>/dev/null >"$db_log" ||
		cat "$TREE/build/make.log" >"$db_log" 2>/dev/null
	return $db_rc
}

dbuild "$TMP/ok.log" KSUNSET_SCHEDULE="$SCHED" SOURCE_DATE_EPOCH=$DEC3
expect_eq "dkms build -k $REL: exit 0" "$?" 0
expect_grep "dkms ran ksunset make --report-only" "$TMP/ok.log.out" "ksunset make --report-only -C $K"
expect_grep "make.log: the plugin's warning" "$TMP/ok.log" \
	"rtc-legacy-main.c:25:16: warning: 'do_settimeofday64' is scheduled for removal on 2027-09-01"
expect_grep "make.log: the check's finding" "$TMP/ok.log" 'WARNING: ksunset: "do_settimeofday64" ['
expect_grep "make.log: the finding's source line" "$TMP/ok.log" \
	"rtc-legacy-main.c:25:16: warning: call to 'do_settimeofday64' in 'rtc_legacy_sync_clock'"
KO=$TREE/$REL/$ARCH/module/$NAME.ko
test -f "$KO" && pass "DKMS kept the module" || fail "DKMS kept the module: $KO"

# STRIP[0]: DKMS stripped the debug info, the plugin's records stayed
readelf -S "$KO" >"$TMP/sections" 2>&1
expect_eq "the kept module has no .debug_info (strip -g)" "$(grep -c '\.debug_info' "$TMP/sections")" 0
expect_grep "the kept module has its .note.ksunset" "$TMP/sections" ".note.ksunset"
"$KSUNSET" check -s "$SCHED" -i "$K/Module.symvers" --today 2026-12-03 "$KO" >"$TMP/kept" 2>&1
expect_grep "the kept module's uses still have their lines" "$TMP/kept" \
	"rtc-legacy-main.c:25:16: warning: call to 'do_settimeofday64'"

# a use past its date: reported, the DKMS build stands; strict: it fails
dbuild "$TMP/late.log" KSUNSET_SCHEDULE="$SCHED" SOURCE_DATE_EPOCH=$JUN1
expect_eq "past its date: dkms build exit 0" "$?" 0
expect_grep "past its date: the error is in make.log" "$TMP/late.log" 'ERROR: ksunset: "simple_strtoul" ['
dbuild "$TMP/strict.log" KSUNSET_SCHEDULE="$SCHED" SOURCE_DATE_EPOCH=$JUN1 KSUNSET_STRICT=1
rc=$?
[ "$rc" -ne 0 ] && pass "strict, past its date: dkms build fails ($rc)" ||
	fail "strict, past its date: dkms build fails"
expect_grep "strict: dkms ran ksunset make --strict" "$TMP/strict.log.out" "ksunset make --strict -C $K"
expect_grep "strict: the overdue use" "$TMP/strict.log" 'ERROR: ksunset: "simple_strtoul" ['
expect_grep "strict: dkms names the bad status" "$TMP/strict.log.out" "Bad return status"
dbuild "$TMP/strict-ok.log" KSUNSET_SCHEDULE="$SCHED" SOURCE_DATE_EPOCH=$DEC3 KSUNSET_STRICT=1
[ "$?" -ne 0 ] && pass "strict, scheduled uses: dkms build fails too" ||
	fail "strict, scheduled uses: dkms build fails too"

# no schedule anywhere: the module is built all the same
if ls /etc/ksunset/schedule.d/*.schedule /usr/local/share/ksunset/schedule.d/*.schedule \
	"$K/ksunset.schedule" >/dev/null 2>&1; then
	skip "a system schedule exists: the no-schedule build was not tried"
else
	dbuild "$TMP/none.log" KSUNSET_SCHEDULE= SOURCE_DATE_EPOCH=$JUN1
	expect_eq "no schedule: dkms build exit 0" "$?" 0
	test -f "$KO" && pass "no schedule: module built" || fail "no schedule: module built"
	expect_grep "no schedule: make.log says so" "$TMP/none.log" "ksunset: note: no schedule found"
fi

dkms remove -m $NAME -v $VER --all >"$TMP/remove.log" 2>&1
expect_eq "dkms remove --all: exit 0" "$?" 0
expect_eq "dkms status: gone" "$(dkms status -m $NAME 2>/dev/null)" ""
exit 0
