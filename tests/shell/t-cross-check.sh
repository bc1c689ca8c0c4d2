#!/bin/sh
# ksunset check on objects from Debian's cross compilers: ELF64 little
# endian (aarch64), ELF64 big endian (s390x) and ELF32 little endian (armhf)
# must give the same imports as the native object. The cross compilers are
# installed here when missing, if possible; each missing one is skipped.
. "$(dirname "$0")/lib.sh"
D="$TOP/tests/data/cross"
S="$D/cross.schedule"
TARGETS="aarch64-linux-gnu s390x-linux-gnu arm-linux-gnueabihf"

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
	want=""
	for t in $TARGETS; do command -v "$t-gcc" >/dev/null || want="$want gcc-$t"; done
	if [ -n "$want" ]; then
		echo "t-cross-check: installing$want"
		# shellcheck disable=SC2086
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			$want >"$TMP/apt.log" 2>&1
	fi
fi

# imports CC TAG: the sorted findings (symbol list) of the checker on CC's object
imports() {
	"$1" -O2 -c "$D/uses.c" -o "$TMP/$2.o" || return 1
	"$KSUNSET" check -s "$S" --today 2026-12-03 --format json "$TMP/$2.o" 2>/dev/null |
		python3 -c 'import json,sys; print(" ".join(sorted(f["symbol"] for f in json.load(sys.stdin)["findings"])))'
}

native=$(imports gcc native)
expect_eq "native object: every scheduled import found" "$native" "do_settimeofday64 jiffies noop_llseek simple_strtoul"
for t in $TARGETS; do
	if ! command -v "$t-gcc" >/dev/null; then
		skip "$t: no $t-gcc, and gcc-$t could not be installed"
		continue
	fi
	got=$(imports "$t-gcc" "$t")
	cls=$(readelf -h "$TMP/$t.o" | sed -n 's/ *Class: *//p; s/ *Data: *2.s complement, //p' | paste -sd' ')
	expect_eq "$t ($cls): same imports as native" "$got" "$native"
done
exit 0
