#!/bin/sh
# The plugin in real Kbuild module builds against Debian's kernel headers:
# the modules in tests/kbuild/ (one of them multi-file) build with
# KCFLAGS=-fplugin=..., print the warnings stated in tests/kbuild/MOD.expect,
# carry the records stated there in the final .ko, and modpost says nothing
# about the note. Without the plugin the same .ko files are built.
. "$(dirname "$0")/lib.sh"
PLUGIN=${PLUGIN:-$TOP/build/ksunset.so}
K=$(kdir)
if [ -z "$K" ]; then skip "no kernel headers in /usr/src (linux-headers-amd64)"; exit 0; fi
if [ ! -f "$PLUGIN" ]; then fail "no plugin at $PLUGIN (make plugin)"; exit 1; fi
S="$TOP/tests/kbuild/kbuild.schedule"
SOURCE_DATE_EPOCH=$(date -u -d 2026-12-03 +%s)
LC_ALL=C
export SOURCE_DATE_EPOCH LC_ALL
KCF="-fplugin=$PLUGIN -fplugin-arg-ksunset-schedule=$S -fno-diagnostics-show-caret"

# uses KO: the use records in KO, space-separated, paths relative to the module
uses() {
	readelf -p .note.ksunset "$1" | sed -n 's/^ *\[ *[0-9a-f]*\]  ksunset 1^Iuse^I//p' |
		sed "s|\^I| |g; s|$2/||g"
}

for m in rtc_legacy multi; do
	d="$TMP/$m"
	if ! kbuild "$TOP/tests/kbuild/$m" "$d" KCFLAGS="$KCF"; then
		fail "$m: build with the plugin"
		sed 's/^/  | /' "$d.log" | tail -20
		continue
	fi
	pass "$m: builds with the plugin"
	grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error|note):' "$d.log" | sed "s|^$d/||" >"$TMP/got"
	sed -n 's/^diag: //p' "$TOP/tests/kbuild/$m.expect" >"$TMP/want"
	expect_file_eq "$m: warnings at the module's own lines" "$TMP/got" "$TMP/want"
	uses "$d/$m.ko" "$d" >"$TMP/got"
	sed -n 's/^record: //p' "$TOP/tests/kbuild/$m.expect" >"$TMP/want"
	expect_file_eq "$m: records in the final .ko" "$TMP/got" "$TMP/want"
	nobj=$(sed -n 's/^objects: //p' "$TOP/tests/kbuild/$m.expect")
	expect_eq "$m: one note per object in readelf -n" \
		"$(readelf -n "$d/$m.ko" | grep -c '^  ksunset  .*Unknown note type: (0x00004b53)')" "$nobj"
	if grep -E 'modpost|section' "$d.log" | grep -qiE 'warning|error'; then
		fail "$m: modpost warned"; grep -iE 'modpost|section' "$d.log" | sed 's/^/  | /'
	else pass "$m: no modpost warning"; fi
	flags=$(readelf -S -W "$d/$m.ko" | sed 's/^ *\[ *[0-9]*\]//' | awk '$1 == ".note.ksunset" { print $2, $7 }')
	case "$flags" in
	"NOTE "*A*) fail "$m: .note.ksunset is allocated (loaded into the kernel): $flags" ;;
	"NOTE "*) pass "$m: .note.ksunset is a note, not allocated" ;;
	*) fail "$m: no .note.ksunset section in the .ko ($flags)" ;;
	esac
	(cd "$d" && find . -name '*.ko' | sort) >"$TMP/with"
	kbuild "$TOP/tests/kbuild/$m" "$d.plain" || fail "$m: build without the plugin"
	(cd "$d.plain" && find . -name '*.ko' | sort) >"$TMP/without"
	expect_file_eq "$m: same .ko files without the plugin" "$TMP/with" "$TMP/without"
done

# The checker finds a source location for every scheduled import of multi.ko.
if [ -f "$TMP/multi/multi.ko" ] && [ -x "${KSUNSET:-}" ]; then
	"$KSUNSET" check -s "$S" -i "$K/Module.symvers" --today 2026-12-03 "$TMP/multi/multi.ko" \
		>"$TMP/out" 2>&1
	expect_grep "checker: location from the records" "$TMP/out" "multi-dev.c:20:17:"
	expect_grep "checker: location in the module's header" "$TMP/out" "multi.h:6:16:"
	if grep -q "no source location" "$TMP/out"; then
		fail "checker: a scheduled import without a record"; sed 's/^/  | /' "$TMP/out"
	else pass "checker: every scheduled import has a record"; fi
fi

# -Werror (the way some vendors build) stays green; strict turns it red.
kbuild "$TOP/tests/kbuild/rtc_legacy" "$TMP/werror" KCFLAGS="$KCF -Werror"
expect_eq "-Werror: build succeeds" "$?" 0
kbuild "$TOP/tests/kbuild/rtc_legacy" "$TMP/strict" KCFLAGS="$KCF -fplugin-arg-ksunset-strict"
expect_eq "strict: build fails" "$?" 2
expect_grep "strict: the use is an error" "$TMP/strict.log" \
	"rtc_legacy.c:19:17: error: 'do_settimeofday64' is scheduled for removal on 2027-09-01"

exit "${T_FAILED:-0}"
