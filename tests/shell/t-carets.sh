#!/bin/sh
# The caret checker of make check-world (tests/kbuild/carets.py), without a
# kernel: its self-test puts carets right and wrong on purpose and each
# must get its verdict; `configs` must name the module of a file that
# failed in a Kbuild log, through composite objects too.
. "$(dirname "$0")/lib.sh"
PY="python3 $TOP/tests/kbuild/carets.py"

$PY selftest >"$TMP/self" 2>&1
rc=$?
sed 's/^\(PASS\|FAIL\) carets selftest:/\1 t-carets: selftest:/' "$TMP/self"
expect_eq "selftest exit status" "$rc" 0
expect_grep "selftest flags every wrong caret" "$TMP/self" "every wrong caret is a mismatch"

mkdir -p "$TMP/k/sub"
cat >"$TMP/k/Makefile" <<'EOF'
obj-$(CONFIG_FOO)	+= foo.o
obj-$(CONFIG_BAR)	+= bar.o
bar-y := bar_main.o \
	 bar_extra.o
bar-$(CONFIG_BAR_DEBUG) += bar_debug.o
EOF
cat >"$TMP/log" <<EOF
make[2]: *** [/usr/src/k/scripts/Makefile.build:255: $TMP/k/foo.o] Error 1
make[2]: *** [/usr/src/k/scripts/Makefile.build:255: $TMP/k/bar_extra.o] Error 1
make[2]: *** [/usr/src/k/scripts/Makefile.build:255: $TMP/k/sub/nowhere.o] Error 1
make[1]: *** [/usr/src/k/Makefile:2065: $TMP/k] Error 2
EOF
$PY configs "$TMP/log" >"$TMP/got"
printf 'CONFIG_BAR\t%s\nCONFIG_FOO\t%s\n-\t%s\n' "$TMP/k/bar_extra.o" "$TMP/k/foo.o" \
	"$TMP/k/sub/nowhere.o" >"$TMP/want"
expect_file_eq "configs: the module of each failed object" "$TMP/got" "$TMP/want"
