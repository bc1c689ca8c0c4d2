#!/bin/sh
# Corrupt inputs derived from a real module (tests/shell/corrupt.py):
# truncations, flipped bytes in every part ksunset reads, files that are
# not modules. Each is checked beside good modules: no crash, hang or
# sanitizer report, exit 2 and one message naming it (or, for a flip that
# leaves a usable object, a sane result), and the good modules unchanged.
. "$(dirname "$0")/lib.sh"
K=$(kdir)
if [ -z "$K" ]; then skip "no kernel headers in /usr/src"; exit 0; fi
S="$TOP/tests/data/check.schedule"
PLUGIN=${PLUGIN:-$TOP/build/ksunset.so}
if [ ! -f "$PLUGIN" ]; then fail "no plugin at $PLUGIN (make plugin)"; exit 0; fi
# the base module carries plugin records, so .note.ksunset gets corrupted too
kbuild "$TOP/tests/modules/legacy" "$TMP/legacy" \
	KCFLAGS="-fplugin=$PLUGIN -fplugin-arg-ksunset-schedule=$S -fplugin-arg-ksunset-quiet" ||
	{ fail "build legacy with the plugin"; tail "$TMP/legacy.log"; exit 0; }
kbuild "$TOP/tests/modules/proprietary" "$TMP/prop" || { fail "build proprietary"; exit 0; }
cc -c "$TOP/tests/data/elf/records.S" -o "$TMP/records.o" || { fail "assemble records.S"; exit 0; }
mkdir "$TMP/work"
python3 "$TOP/tests/shell/corrupt.py" "$KSUNSET" "$S" "$K/Module.symvers" "$TMP/work" \
	"$TMP/legacy/legacy.ko" "$TMP/prop/proprietary.ko" "$TMP/records.o"
# the driver's status: a traceback after some PASS lines fails the test
exit $?
