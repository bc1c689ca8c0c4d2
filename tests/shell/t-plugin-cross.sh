#!/bin/sh
# The plugin for a cross compiler: built with PLUGIN_CC=aarch64-linux-gnu-gcc
# into build/aarch64-linux-gnu/ksunset.so, it finds the same uses and writes
# the same records into an AArch64 object (so the note's assembler syntax
# works where '@' starts a comment). The cross packages are installed here
# when missing, if possible; otherwise the test is skipped.
. "$(dirname "$0")/lib.sh"
CROSS=aarch64-linux-gnu
CC_X=$CROSS-gcc
PKGS="gcc-$CROSS gcc-12-plugin-dev-$CROSS"

have_cross() {
	command -v "$CC_X" >/dev/null 2>&1 &&
		[ -f "$("$CC_X" -print-file-name=plugin)/include/gcc-plugin.h" ]
}
if ! have_cross && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "t-plugin-cross: installing $PKGS"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		$PKGS >"$TMP/apt.log" 2>&1
fi
if ! have_cross; then
	skip "no $CC_X with plugin headers, and $PKGS could not be installed"
	exit 0
fi

XPLUGIN="$TOP/build/$CROSS/ksunset.so"
if ! make -C "$TOP" --no-print-directory plugin PLUGIN_CC="$CC_X" >"$TMP/make.log" 2>&1; then
	fail "make plugin PLUGIN_CC=$CC_X"; sed 's/^/  | /' "$TMP/make.log" | tail; exit 1
fi
expect_eq "cross plugin built under a name that says which" "$(test -f "$XPLUGIN" && echo yes)" yes

cd "$TOP/tests/plugin" || exit 1
SOURCE_DATE_EPOCH=$(date -u -d 2026-12-03 +%s)
LC_ALL=C
export SOURCE_DATE_EPOCH LC_ALL
for f in wrappers.c addr.c data.c; do
	"$CC_X" -O2 -c -fplugin="$XPLUGIN" -fplugin-arg-ksunset-schedule=plugin.schedule \
		-fplugin-arg-ksunset-kernel-dir=kernel -Ikernel/include "$f" -o "$TMP/$f.o" \
		2>"$TMP/$f.err"
	expect_eq "$f: cross build succeeds" "$?" 0
	expect_eq "$f: an AArch64 object" \
		"$(readelf -h "$TMP/$f.o" | sed -n 's/^ *Machine: *//p')" AArch64
	readelf -p .note.ksunset "$TMP/$f.o" | sed -n 's/^ *\[ *[0-9a-f]*\]  ksunset 1^Iuse^I//p' |
		awk -F '\\^I' '{ print $1, $2, $3, $4, $5, ($6 == "" ? "-" : $6), $7 }' >"$TMP/got"
	sed -n 's/^ \* record: //p' "$f" >"$TMP/want"
	expect_file_eq "$f: the records the native plugin writes" "$TMP/got" "$TMP/want"
done

# Loaded into the wrong compiler, the plugin says which it was built for.
gcc -c -fplugin="$XPLUGIN" werror.c -Ikernel/include -o "$TMP/x.o" 2>"$TMP/x.err"
expect_eq "wrong compiler: exit 1" "$?" 1
expect_grep "wrong compiler: message" "$TMP/x.err" \
	"for $CROSS and cannot be loaded into GCC"
exit "${T_FAILED:-0}"
