#!/bin/sh
# make check-world, second part: every caret of the plugin on real kernel
# code. Folders of Debian's linux-source-6.1 are built as external modules
# (make -C <headers> M=<copy>) with the plugin and a schedule of every
# export, so every use is warned; tests/kbuild/carets.py then checks that
# each warning's and each record's line:column starts the identifier a
# reader would fix (the symbol, or the macro or kernel inline function that
# reaches it), that `ksunset check` reports exactly the exported names
# nm -u lists for each module, and that the plugin recorded a use of each
# (but for the imports a GIMPLE pass cannot see). A compiler crash on any file fails; a file
# that does not build outside the kernel tree, with or without the plugin,
# is skipped (its module is left out, and counted).
# Usage: carets.sh [NAME...]   (names from the table below; default all)
# Needs linux-source-6.1 (scripts/install-deps.sh world installs it).
T_SELF=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$T_SELF/../.." && pwd)
. "$TOP/tests/shell/lib.sh"
PLUGIN=${PLUGIN:-$TOP/build/ksunset.so}
KSUNSET=${KSUNSET:-$TOP/build/ksunset}
JOBS=${JOBS:-2}
TARBALL=/usr/src/linux-source-6.1.tar.xz
PY="python3 $T_SELF/carets.py"

# name, folder in the source tree, what to enable beyond the headers'
# .config: CONFIG_X=m words, or PREFIX* for every module of the folder's
# Makefile whose symbol starts so. Debian builds no RTC driver and no ext2
# as modules; their sources build all the same (the RTC drivers here are
# I2C, SPI and memory-mapped chips that build on any architecture).
RTC=$(for c in DS1307 DS1374 DS1672 DS3232 PCF8523 PCF8563 PCF85063 PCF2127 RX8581 \
	RX8025 M41T80 RV3029C2 RV3028 RV8803 ISL1208 ISL12022 ABX80X RS5C372 BQ32K EM3027 \
	X1205 FM3130 DS1305 DS1390 M41T93 M41T94 PCF2123 RX4581 MAX6902 R9701 MCP795 DS1286 \
	DS1511 DS1553 STK17TA8 M48T59 MSM6242 BQ4802; do printf 'CONFIG_RTC_DRV_%s=m ' $c; done)
FOLDERS="hwmon	drivers/hwmon	-
i2c	drivers/i2c/busses	-
input	drivers/input/misc	-
rtc	drivers/rtc	$RTC
ext2	fs/ext2	CONFIG_EXT2_FS=m
netfilter	net/netfilter	-"

K=$(kdir)
[ -n "$K" ] || { skip "no kernel headers in /usr/src"; exit 0; }
if [ ! -x "$KSUNSET" ] || [ ! -f "$PLUGIN" ]; then
	fail "build $KSUNSET and $PLUGIN first"
	exit 1
fi
if [ ! -f "$TARBALL" ]; then
	sh "$TOP/scripts/install-deps.sh" world >"$TMP/deps.log" 2>&1
	[ -f "$TARBALL" ] || {
		skip "linux-source-6.1 cannot be installed: $(tail -n 1 "$TMP/deps.log")"
		exit 0
	}
fi
src_ver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null)
hdr_ver=$(dpkg-query -W -f='${Version}' "$(basename "$K")" 2>/dev/null)
[ "$src_ver" = "$hdr_ver" ] ||
	echo "note: linux-source-6.1 $src_ver, headers $(basename "$K") $hdr_ver"

# The checker must be able to fail: wrong carets put on purpose.
$PY selftest >"$TMP/selftest" 2>&1
if grep -q '^FAIL' "$TMP/selftest" || ! grep -q '^PASS' "$TMP/selftest"; then
	fail "the caret checker's self-test"
	sed 's/^/  | /' "$TMP/selftest"
	exit 1
fi
pass "the caret checker's self-test ($(grep -c '^PASS' "$TMP/selftest") cases)"

awk '{ print $2 }' "$K/Module.symvers" | sort -u >"$TMP/exports.txt"
schedule_every "$TMP/exports.txt" "$TMP/all.schedule"
# JSON diagnostics: one array per translation unit and line, written at
# once, so two compilers running in parallel do not mix their output.
KCF="-fplugin=$PLUGIN -fplugin-arg-ksunset-schedule=$TMP/all.schedule -fdiagnostics-format=json"
# GCC's temporary files in a folder of our own
mkdir -p "$TMP/gcctmp"
export TMPDIR="$TMP/gcctmp"

# enables FOLDER SPEC: the make arguments that turn on SPEC's modules, one
# a line; those the headers' .config has already are left as they are.
enables() {
	for w in $2; do
		case $w in
		-) ;;
		*'*')
			# shellcheck disable=SC2016 # the $( of the Makefile's text
			grep -o "obj-\$(${w%\*}[A-Z0-9_]*)" "$1/Makefile" | sed 's/^obj-\$(//; s/)$//'
			;;
		*) echo "${w%=m}" ;;
		esac
	done | sort -u | while read -r c; do
		grep -q "^$c=" "$K/include/config/auto.conf" || echo "$c=m"
	done
}

crashed() { # crashed LOG...: a compiler crash, whatever else happened
	grep -E -l 'internal compiler error|Please submit a full bug report|Segmentation fault|cc1: error: .*plugin' "$@"
}

# kmake DIR LOG ARGS...: the folder's modules with the plugin, -k so one
# file that does not build does not hide the others.
kmake() {
	d=$1 log=$2
	shift 2
	# shellcheck disable=SC2046 # one make argument per word
	make -k -j"$JOBS" -C "$K" M="$d" KBUILD_MODPOST_WARN=1 KCFLAGS="$KCF" "$@" modules \
		>>"$log" 2>>"$d/diags.json"
}

# skips DIR: the modules to leave out after the first build failed, as
# "CONFIG_X<TAB>OBJECT<TAB>REASON" lines in DIR.skip. Each failed file is
# built again without the plugin: one that builds so fails the test.
skips() {
	d=$1
	$PY configs "$d/diags.json" | while IFS='	' read -r c o; do
		rel=${o#"$d"/}
		# shellcheck disable=SC2046
		if make -C "$K" M="$d" KBUILD_MODPOST_WARN=1 $(cat "$d.args") "$rel" \
			>"$d.plain.log" 2>&1; then
			fail "$rel builds without the plugin but not with it" >&2
		fi
		why=$(grep -m 1 -E 'error:|Error' "$d.plain.log" | sed "s|$d/||g")
		printf '%s\t%s\t%s\n' "$c" "$rel" "$why"
	done >"$d.skip" 2>"$d.fail"
	cat "$d.fail"
	[ ! -s "$d.fail" ] || T_FAILED=1
	if grep -q '^-' "$d.skip"; then
		fail "$d: cannot tell which module holds $(grep '^-' "$d.skip" | cut -f 2)"
		return 1
	fi
}

# build_folder NAME FOLDER SPEC: a copy of FOLDER, with the headers of the
# folder above it ("../foo.h"), built with the plugin and checked.
build_folder() {
	d=$TMP/b/$1/$(basename "$2")
	mkdir -p "$TMP/b/$1" && cp -r "$TMP/src/linux-source-6.1/$2" "$d" || return 1
	for h in "$TMP/src/linux-source-6.1/$(dirname "$2")"/*.h; do
		[ ! -f "$h" ] || cp "$h" "$TMP/b/$1/"
	done
	enables "$d" "$3" >"$d.args"
	: >"$d/diags.json"
	: >"$d.skip"
	# shellcheck disable=SC2046
	if ! kmake "$d" "$d.log" $(cat "$d.args"); then
		skips "$d" || return 1
		# shellcheck disable=SC2046
		kmake "$d" "$d.log" $(cat "$d.args") $(cut -f 1 "$d.skip" | sort -u | sed 's/$/=/') ||
			{ fail "$1: does not build even without $(cut -f 1 "$d.skip" | sort -u | tr '\n' ' ')"; return 1; }
	fi
	if crashed "$d/diags.json" "$d.log" >/dev/null; then
		fail "$1: the compiler crashed"
		grep -E -B 3 -A 8 'internal compiler error|Segmentation fault' "$d/diags.json" |
			grep -v '^\[' | head -n 40 | sed 's/^/  | /'
	fi
	find "$d" -name '*.ko' | sort >"$d.kos"
	pass "$1: $(grep -c . "$d.kos") modules built, $(cut -f 1 "$d.skip" | sort -u | grep -c .) skipped"
	sed 's/^/  skipped: /' "$d.skip"
	[ -s "$d.kos" ] || return 0
	xargs nm -A -u <"$d.kos" >"$d/nm.txt"
	# shellcheck disable=SC2046
	"$KSUNSET" check -s "$TMP/all.schedule" -i "$K/Module.symvers" --format json \
		$(cat "$d.kos") >"$d/check.json" 2>"$d.check.err"
	rc=$?
	[ "$rc" -le 1 ] || { fail "$1: ksunset check exited $rc: $(head -n 3 "$d.check.err")"; return 1; }
	echo "$d" >>"$TMP/built"
}

names=${*:-$(echo "$FOLDERS" | cut -f 1)}
members=""
for n in $names; do
	row=$(echo "$FOLDERS" | awk -F '\t' -v n="$n" '$1 == n')
	[ -n "$row" ] || { fail "no folder named $n"; exit 1; }
	f=$(echo "$row" | cut -f 2)
	members="$members linux-source-6.1/$f linux-source-6.1/$(dirname "$f")/*.h"
done
mkdir -p "$TMP/src"
# Not every folder above has headers: tar says so, and extracts the rest.
# shellcheck disable=SC2086 # one pattern a word
(set -f && tar -C "$TMP/src" -xf "$TARBALL" --wildcards --no-wildcards-match-slash $members) \
	2>"$TMP/tar.err"
for n in $names; do
	f=$(echo "$FOLDERS" | awk -F '\t' -v n="$n" '$1 == n { print $2 }')
	[ -d "$TMP/src/linux-source-6.1/$f" ] ||
		{ fail "$f not in $TARBALL: $(head -n 3 "$TMP/tar.err")"; exit 1; }
done

: >"$TMP/built"
for n in $names; do
	row=$(echo "$FOLDERS" | awk -F '\t' -v n="$n" '$1 == n')
	echo "== $n: $(echo "$row" | cut -f 2)"
	build_folder "$n" "$(echo "$row" | cut -f 2)" "$(echo "$row" | cut -f 3)"
done

# shellcheck disable=SC2046
if [ ! -s "$TMP/built" ]; then
	fail "no folder built"
elif $PY check "$TMP/exports.txt" "$TMP/carets.out" $(cat "$TMP/built") >"$TMP/summary"; then
	pass "every caret is the token, check = nm -u"
	cat "$TMP/summary"
else
	fail "carets or findings differ"
	# the copies' paths as the source tree's
	for n in $names; do
		f=$(echo "$FOLDERS" | awk -F '\t' -v n="$n" '$1 == n { print $2 }')
		echo "s|$TMP/b/$n/$(basename "$f")/|$f/|g; s|$TMP/b/$n/|$(dirname "$f")/|g"
	done >"$TMP/paths.sed"
	grep '^MISMATCH' "$TMP/carets.out" | head -n "${SHOW:-200}" | sed -f "$TMP/paths.sed" |
		sed 's/^/  /'
	n=$(grep -c '^MISMATCH' "$TMP/carets.out")
	[ "$n" -le "${SHOW:-200}" ] || echo "  ... $((n - ${SHOW:-200})) more (SHOW=N shows more)"
	cat "$TMP/summary"
fi
[ -z "${KEEP:-}" ] || { cp -r "$TMP" "$KEEP" && echo "kept in $KEEP"; }
exit "${T_FAILED:-0}"
