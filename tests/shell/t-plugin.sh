#!/bin/sh
# The GCC plugin on the annotated sources in tests/plugin: each file states
# its diagnostics (" * expect: LINE:COL: KIND: TEXT", FILE: prefix for other
# files; with -fdiagnostics-parseable-fixits in its cflags, " * expect:
# fix-it:..." lines too), its records (" * record: SYMBOL KIND FILE LINE COL FUNCTION WHEN",
# "-" for no function, then 'accepted "REASON"' for a use accepted in the
# source), with the plugin argument api its include and shape records
# (" * include:", " * shape:", see shapes below), its exit status ("expect-exit:"), extra compiler
# flags ("cflags:") and plugin arguments ("ksunset-args:"). Then argument
# and schedule errors, and the note's ELF properties.
. "$(dirname "$0")/lib.sh"
PLUGIN=${PLUGIN:-$TOP/build/ksunset.so}
if [ ! -f "$PLUGIN" ]; then fail "no plugin at $PLUGIN (make plugin)"; exit 1; fi
T="$TOP/tests/plugin"
cd "$T" || exit 1
# "today" for every test: 2026-12-03
SOURCE_DATE_EPOCH=$(date -u -d 2026-12-03 +%s)
LC_ALL=C
export SOURCE_DATE_EPOCH LC_ALL

# kcc FILE OUT [GCC ARGS...]: compile FILE with the plugin and the tests'
# schedule and kernel tree; stderr goes to OUT.err.
kcc() {
	f=$1 out=$2
	shift 2
	gcc -O2 -Wall -c -fno-diagnostics-show-caret -fplugin="$PLUGIN" \
		-fplugin-arg-ksunset-schedule=plugin.schedule \
		-fplugin-arg-ksunset-kernel-dir=kernel -Ikernel/include -Iinclude \
		-I"$TOP/include" "$@" "$f" -o "$out" 2>"$out.err"
}

# records OBJ: the use records of OBJ's .note.ksunset, space-separated.
records() {
	objcopy --dump-section .note.ksunset="$1.note" "$1" "$1.tmp" 2>/dev/null || return
	tail -c +21 "$1.note" | tr '\0' '\n' | grep "^ksunset [12]	use	" |
		cut -f3- | awk -F '\t' '{ print $1, $2, $3, $4, $5, ($6 == "" ? "-" : $6), $7 \
			(NF > 7 ? " accepted \"" $8 "\"" : "") }'
}

# shapes OBJ: its include and shape records (argument api), as " * include:"
# and " * shape: WHAT NAME FILE LINE COL FUNCTION \"OLD\" \"PROBE\"" lines
# state them.
shapes() {
	[ -f "$1.note" ] || return
	tail -c +21 "$1.note" | tr '\0' '\n' | grep "^ksunset 4	" | cut -f2- | awk -F '\t' '
		$1 == "include" { print "include: " $2, $3, $4; next }
		{ print "shape: " $2, $3, $4, $5, $6, ($7 == "" ? "-" : $7), "\"" $8 "\"", "\"" $9 "\"" }'
}

annot() { sed -n "s|^ \* $1: ||p" "$2"; }
header() { sed -n "s|^/\* $1: \(.*\) \*/\$|\1|p" "$2"; }

for f in *.c; do
	args=""
	for a in $(header ksunset-args "$f"); do args="$args -fplugin-arg-ksunset-$a"; done
	want_rc=$(header expect-exit "$f")
	# shellcheck disable=SC2046,SC2086
	kcc "$f" "$TMP/$f.o" $(header cflags "$f") $args
	expect_eq "$f: exit status" "$?" "${want_rc:-0}"
	grep -E '^([^ :]+:[0-9]+:[0-9]+: |fix-it:)' "$TMP/$f.o.err" | sed "s|^$f:||" >"$TMP/got"
	annot expect "$f" >"$TMP/want"
	expect_file_eq "$f: diagnostics" "$TMP/got" "$TMP/want"
	records "$TMP/$f.o" >"$TMP/got"
	annot record "$f" >"$TMP/want"
	expect_file_eq "$f: records" "$TMP/got" "$TMP/want"
	shapes "$TMP/$f.o" >"$TMP/got"
	sed -n 's/^ \* \(include\|shape\): /\1: /p' "$f" >"$TMP/want"
	expect_file_eq "$f: include and shape records" "$TMP/got" "$TMP/want"
done

# The note: SHT_NOTE, not allocated, 4-byte aligned, name "ksunset", our type.
kcc calls.c "$TMP/n.o"
readelf -S -W "$TMP/n.o" | sed 's/^ *\[ *[0-9]*\]//' |
	awk '$1 == ".note.ksunset" { print $2, ($7 ~ /^[0-9]+$/ ? "-" : $7), $NF }' >"$TMP/got"
echo "NOTE - 4" >"$TMP/want"
expect_file_eq "note section: type NOTE, no flags, align 4" "$TMP/got" "$TMP/want"
readelf -n "$TMP/n.o" >"$TMP/out"
expect_grep "readelf -n shows the note" "$TMP/out" "ksunset              0x"
expect_grep "readelf -n: our note type" "$TMP/out" "Unknown note type: (0x00004b53)"
readelf -p .note.ksunset "$TMP/n.o" >"$TMP/out"
expect_grep "unit record" "$TMP/out" "ksunset 1^Iunit^Icalls.c^I"

# A fix-it when Replace is an identifier.
kcc werror.c "$TMP/f.o" -fdiagnostics-parseable-fixits
expect_grep "fix-it hint" "$TMP/f.o.err" 'fix-it:"werror.c":{8:9-8:26}:"rtc_set_time"'

# -Wno-deprecated-declarations and -w hide the warnings, not the records.
kcc werror.c "$TMP/w.o" -Wno-deprecated-declarations
expect_eq "-Wno-deprecated-declarations: silent" "$(cat "$TMP/w.o.err")" ""
expect_eq "-Wno-deprecated-declarations: still recorded" "$(records "$TMP/w.o" | wc -l)" 1
kcc werror.c "$TMP/w.o" -w
expect_eq "-w: silent" "$(cat "$TMP/w.o.err")" ""
# strict without -Werror fails too
kcc werror.c "$TMP/w.o" -fplugin-arg-ksunset-strict
expect_eq "strict without -Werror: exit 1" "$?" 1
expect_grep "strict: an error" "$TMP/w.o.err" "werror.c:8:16: error: 'do_settimeofday64'"

# Without the plugin __sunset() is empty and __KSUNSET__ undefined.
printf '#include <ksunset/sunset.h>\nint f(void) __sunset("2027-01-01", "g");\n#ifdef __KSUNSET__\n#error defined\n#endif\n' >"$TMP/np.c"
gcc -c -Wall -Werror -I"$TOP/include" "$TMP/np.c" -o "$TMP/np.o" 2>"$TMP/np.err"
expect_eq "no plugin: __sunset() compiles to nothing" "$?" 0

# KSUNSET_ACCEPT without the plugin: a statement that compiles to nothing
# under the kernel's C dialects and warnings; an empty reason is an error.
printf '#include <ksunset/sunset.h>\nint f(int x)\n{\n\tint y = x;\n\n\tKSUNSET_ACCEPT("why");\n\tif (y)\n\t\tKSUNSET_ACCEPT("why" " not");\n\treturn y;\n}\n' >"$TMP/na.c"
for std in gnu89 gnu11; do
	gcc -std=$std -O2 -c -Wall -Wextra -Werror -Wdeclaration-after-statement -I"$TOP/include" \
		"$TMP/na.c" -o "$TMP/na.o" 2>"$TMP/na.err"
	expect_eq "no plugin, -std=$std: KSUNSET_ACCEPT compiles" "$?" 0
	expect_eq "no plugin, -std=$std: KSUNSET_ACCEPT imports nothing" "$(nm -u "$TMP/na.o")" ""
	expect_eq "no plugin, -std=$std: KSUNSET_ACCEPT leaves no data" \
		"$(objdump -h "$TMP/na.o" | grep -c '\.rodata')" 0
done
printf '#include <ksunset/sunset.h>\nvoid f(void)\n{\n\tKSUNSET_ACCEPT("");\n}\n' >"$TMP/ne.c"
gcc -c -I"$TOP/include" "$TMP/ne.c" -o "$TMP/ne.o" 2>"$TMP/ne.err"
expect_eq "no plugin: empty KSUNSET_ACCEPT reason: exit 1" "$?" 1
expect_grep "no plugin: empty KSUNSET_ACCEPT reason: message" "$TMP/ne.err" \
	"error: static assertion failed: \"KSUNSET_ACCEPT needs a reason\""
expect_grep "no plugin: empty KSUNSET_ACCEPT reason: where" "$TMP/ne.err" \
	"ne.c:4:9: note: in expansion of macro 'KSUNSET_ACCEPT'"

# KSUNSET_ACCEPT with the plugin: a reason that is empty, blank or not a
# string, or an accept outside a function, is an error at the accept.
aerr() { # aerr WHAT WANT-MESSAGE SOURCE
	printf '%s\n' "$3" >"$TMP/ae.c"
	kcc "$TMP/ae.c" "$TMP/ae.o"
	expect_eq "$1: exit 1" "$?" 1
	expect_grep "$1: message" "$TMP/ae.o.err" "$2"
}
aerr "empty accept reason" "ae.c:4:9: error: 'KSUNSET_ACCEPT' needs a reason: say why the use is accepted" \
	"$(printf '#include <ksunset/sunset.h>\nvoid f(void)\n{\n\tKSUNSET_ACCEPT("");\n}')"
aerr "blank accept reason" "ae.c:4:9: error: 'KSUNSET_ACCEPT' needs a reason" \
	"$(printf '#include <ksunset/sunset.h>\nvoid f(void)\n{\n\tKSUNSET_ACCEPT(" \\t");\n}')"
aerr "accept reason not a string" "ae.c:4:9: error: 'KSUNSET_ACCEPT' takes a string literal: the reason" \
	"$(printf '#include <ksunset/sunset.h>\nvoid f(const char *r)\n{\n\tKSUNSET_ACCEPT(r);\n}')"
aerr "accept outside a function" "ae.c:1:24: error: 'KSUNSET_ACCEPT' outside a function" \
	'#pragma ksunset accept "everything"'

# No schedule argument and no $KSUNSET_SCHEDULE (what `ksunset --cflags`
# prints when it finds no schedule): the plugin loads, and __sunset
# attributes still warn and are recorded.
printf '#include <ksunset/sunset.h>\nextern int f(int) __sunset("2027-04-01", "g");\nint u(int x)\n{\n\treturn f(x);\n}\n' >"$TMP/ns.c"
KSUNSET_SCHEDULE= gcc -O2 -c -fno-diagnostics-show-caret -fplugin="$PLUGIN" -I"$TOP/include" \
	"$TMP/ns.c" -o "$TMP/ns.o" 2>"$TMP/ns.err"
expect_eq "no schedule argument: exit 0" "$?" 0
expect_grep "no schedule argument: __sunset warns" "$TMP/ns.err" \
	"ns.c:5:16: warning: 'f' is scheduled for removal on 2027-04-01; use 'g' instead"
expect_eq "no schedule argument: __sunset recorded" "$(records "$TMP/ns.o" | cut -d' ' -f1,2,4-)" \
	"f call 5 16 u 2027-04-01"

# A bad attribute is an error at the mark.
printf 'extern int f(void) __attribute__((sunset("someday", "g")));\n' >"$TMP/ba.c"
kcc "$TMP/ba.c" "$TMP/ba.o"
expect_eq "bad sunset date: exit 1" "$?" 1
expect_grep "bad sunset date: message" "$TMP/ba.o.err" "ba.c:1:1: error: 'sunset' attribute: 'someday' is not a date"

# Arguments and schedules: one clear error each, never a crash.
perr() { # perr WHAT WANT-MESSAGE GCC-ARGS...
	what=$1 want=$2
	shift 2
	gcc -c -fplugin="$PLUGIN" "$@" werror.c -Ikernel/include -o "$TMP/e.o" 2>"$TMP/e.err"
	expect_eq "$what: exit 1" "$?" 1
	expect_grep "$what: message" "$TMP/e.err" "$want"
	if grep -qi "internal compiler error" "$TMP/e.err"; then fail "$what: ICE"; fi
}
perr "unknown argument" "error: ksunset: unknown argument '-fplugin-arg-ksunset-frob'" \
	-fplugin-arg-ksunset-frob=1
perr "flag with a value" "error: ksunset: argument 'strict' takes no value" \
	-fplugin-arg-ksunset-strict=yes
perr "api with a value" "error: ksunset: argument 'api' takes no value" \
	-fplugin-arg-ksunset-api=all
perr "schedule without a value" "error: ksunset: argument 'schedule' needs a value" \
	-fplugin-arg-ksunset-schedule
perr "missing schedule" "error: ksunset: /nonexistent.schedule: cannot read schedule: No such file or directory" \
	-fplugin-arg-ksunset-schedule=/nonexistent.schedule
printf 'What: foo\nWhen: 2027-13-45\n\nWhat: bar\nWhen: 2027-01-01\nColour: red\n' >"$TMP/bad.schedule"
perr "malformed schedule" "error: ksunset: $TMP/bad.schedule:2: " \
	-fplugin-arg-ksunset-schedule="$TMP/bad.schedule"
expect_grep "malformed schedule: every problem" "$TMP/e.err" "error: ksunset: $TMP/bad.schedule:6: "
expect_eq "malformed schedule: one error per problem" "$(grep -c 'error: ksunset: ' "$TMP/e.err")" 2
perr "kernel-dir not a directory" "error: ksunset: kernel-dir '/nonexistent/linux' is not a directory" \
	-fplugin-arg-ksunset-kernel-dir=/nonexistent/linux
SOURCE_DATE_EPOCH=yesterday perr "bad SOURCE_DATE_EPOCH" "error: ksunset: cannot tell the date of today" \
	-fplugin-arg-ksunset-schedule=plugin.schedule

# $KSUNSET_SCHEDULE stands in for schedule=.
KSUNSET_SCHEDULE=plugin.schedule gcc -c -fplugin="$PLUGIN" -Ikernel/include werror.c \
	-o "$TMP/e.o" 2>"$TMP/e.err"
expect_grep "KSUNSET_SCHEDULE" "$TMP/e.err" "werror.c:8:16: warning: 'do_settimeofday64'"

# Every annotated file at other optimisation levels: the same exit status,
# no internal compiler error.
for f in *.c; do
	want_rc=$(header expect-exit "$f")
	for o in -O0 -O1 -O3 -Os; do
		args=""
		for a in $(header ksunset-args "$f"); do args="$args -fplugin-arg-ksunset-$a"; done
		# shellcheck disable=SC2046,SC2086
		kcc "$f" "$TMP/o.o" $(header cflags "$f") $args $o
		rc=$?
		if [ "$rc" != "${want_rc:-0}" ] || grep -qi "internal compiler error" "$TMP/o.o.err"; then
			fail "$f $o: exit $rc"; sed 's/^/  | /' "$TMP/o.o.err" | head
			T_OPT_FAILED=1
		fi
	done
done
[ -z "${T_OPT_FAILED:-}" ] && pass "annotated files at -O0, -O1, -O3, -Os: same exit, no ICE"

# Kernel trees are found from the include paths (arch/, scripts/,
# include/linux/kernel.h), and a module inside one (in-tree, M=drivers/foo)
# is still the module: the call in the wrapper is reported in foo.c.
L="$TMP/linux"
mkdir -p "$L/arch/x86" "$L/scripts" "$L/include/linux" "$L/drivers/foo"
cp kernel/include/linux/ksunset-test.h "$L/include/linux/"
echo '#include <linux/ksunset-test.h>' >"$L/include/linux/kernel.h"
printf '#include <linux/kernel.h>\nint foo(void)\n{\n\treturn register_chrdev(0, "foo");\n}\n' \
	>"$L/drivers/foo/foo.c"
(cd "$L" && gcc -O2 -c -fplugin="$PLUGIN" -fplugin-arg-ksunset-schedule="$T/plugin.schedule" \
	-I./include drivers/foo/foo.c -o "$TMP/foo.o" -fno-diagnostics-show-caret) 2>"$TMP/foo.err"
grep -E '^[^ :]+:[0-9]+:[0-9]+: ' "$TMP/foo.err" >"$TMP/got"
cat >"$TMP/want" <<'EOT'
drivers/foo/foo.c:4:16: warning: '__register_chrdev' is scheduled for removal on 2027-03-01; use 'misc_register' instead [-Wdeprecated-declarations]
drivers/foo/foo.c:4:16: note: the source writes 'register_chrdev', which the kernel's headers make a call of '__register_chrdev': a rebuild against headers that no longer do is enough for this use (ksunset check --target tells)
EOT
expect_file_eq "kernel tree found from -I; in-tree module is the module's" "$TMP/got" "$TMP/want"

# Robustness: what builds without the plugin builds with it (ksunset's own
# sources, a schedule of libc functions), at -O0 and -O2, with no ICE.
printf 'What: malloc, free, strcmp, memcpy, snprintf, errno, stderr, realloc\nWhen: 2027-01-01\n' >"$TMP/libc.schedule"
ok=1
for src in "$TOP"/lib/*.c "$TOP"/modpost-ext/*.c "$TOP"/modpost-ext/*/*.c "$TOP"/tests/unit/*.c; do
	for o in -O0 -O2; do
		set -- $o -std=c11 -D_GNU_SOURCE -DKS_VERSION='"0"' -c -I"$TOP/include" -I"$TOP/lib" -iquote "$TOP/modpost-ext"
		gcc "$@" "$src" -o "$TMP/r0.o" 2>/dev/null || continue
		gcc "$@" -fplugin="$PLUGIN" -fplugin-arg-ksunset-schedule="$TMP/libc.schedule" \
			-fplugin-arg-ksunset-quiet "$src" -o "$TMP/r.o" 2>"$TMP/r.err" ||
			{ ok=0; fail "robustness: $src $o"; sed 's/^/  | /' "$TMP/r.err" | head; }
		records "$TMP/r.o" >>"$TMP/allrec"
	done
done
[ $ok = 1 ] && pass "robustness: ksunset's own sources build with the plugin"
if [ -s "$TMP/allrec" ]; then pass "robustness: libc uses recorded"; else fail "robustness: no records"; fi

exit "${T_FAILED:-0}"
