#!/bin/sh
# check --history: the shipped share/history.schedule (export changes
# between Debian's 6.1, 6.12 and 7.x, written by scripts/history.sh)
# forecasts without downloading anything. Regenerating it needs the
# Debian archive (skipped, saying so, when it cannot be reached).
. "$(dirname "$0")/lib.sh"
H="$TOP/share/history.schedule"
LC_ALL=C
export LC_ALL

"$KSUNSET" lint -s "$H" >"$TMP/lint" 2>&1
expect_eq "the shipped history passes lint" "$?" 0
expect_grep "the shipped history names its kernels" "$H" "# Export changes between Debian kernels: 6.1.0-"
# field SYMBOL FIELD: that field of the entry whose What names SYMBOL
field() {
	awk -v s="$1" -v f="$2:" 'BEGIN { RS = "" }
		{ w = substr($0, 1, index($0, "\nWhen:")); gsub(/[,\n\t]/, " ", w)
		  if (index(" " w " ", " " s " ")) { n = split($0, l, "\n")
			for (i = 1; i <= n; i++) if (index(l[i], f) == 1) print l[i] } }' "$H"
}
for s in follow_pfn kmalloc_trace __class_create vmalloc; do
	expect_eq "history: $s removed in 6.12" "$(field "$s" When) $(field "$s" Action)" \
		"When:    6.12 Action:  unexport"
done
expect_eq "history: __flush_tlb_all, in a module: list since 7.x, is an unexport" \
	"$(field __flush_tlb_all When) $(field __flush_tlb_all Action)" "When:    7.3 Action:  unexport"

K=$(kdir)
[ -n "$K" ] || { fail "no Debian kernel headers in /usr/src (scripts/install-deps.sh installs them)"; exit 1; }
d=$TMP/forecast
if ! kbuild "$TOP/tests/kbuild/forecast" "$d"; then
	fail "forecast: build against $(basename "$K")"
	tail -20 "$d.log" | sed 's/^/  | /'
	exit 1
fi
KSUNSET_HISTORY=$H "$KSUNSET" check --history "$d/forecast.ko" >"$TMP/out" 2>"$TMP/err"
expect_eq "check --history, for the module's own 6.1: warnings only (exit 0)" "$?" 0
expect_grep "check --history: forecasts 6.12" "$TMP/out" \
	"WARNING: ksunset: \"kmalloc_trace\" [$d/forecast.ko] is scheduled for removal in Linux 6.12 (target kernel"
expect_grep "check --history: a namespace to come" "$TMP/out" \
	"WARNING: ksunset: \"pwm_get\" [$d/forecast.ko] will move to namespace PWM in Linux 6.12"
expect_grep "check --history: summary" "$TMP/err" "1 module checked: 0 errors, 5 warnings"
# the program of a build tree finds the tree's history on its own
cp "$TMP/out" "$TMP/with-env"
env -u KSUNSET_HISTORY "$KSUNSET" check --history "$d/forecast.ko" >"$TMP/out" 2>/dev/null
expect_file_eq "check --history from the build tree: the tree's history" "$TMP/out" "$TMP/with-env"
KSUNSET_HISTORY=$H "$KSUNSET" check --history --kernel-release 6.12.117+deb13-amd64 "$d/forecast.ko" \
	>"$TMP/out" 2>"$TMP/err"
expect_eq "check --history --kernel-release 6.12: exit 1" "$?" 1
expect_grep "check --history on 6.12: overdue" "$TMP/err" "1 module checked: 5 errors, 0 warnings"
# the plugin with the history as its schedule: at kmalloc(), which the
# module writes, the note that only the kernel's headers call kmalloc_trace
w=$TMP/warned
if kbuild "$TOP/tests/kbuild/forecast" "$w" \
	KCFLAGS="-fplugin=${PLUGIN:-$TOP/build/ksunset.so} -fplugin-arg-ksunset-schedule=$H"; then
	expect_grep "the plugin with the history: the source's kmalloc() calls kmalloc_trace, a rebuild is enough" \
		"$w.log" "note: the source writes 'kmalloc', which the kernel's headers make a call of 'kmalloc_trace': a rebuild against headers that no longer do is enough for this use (ksunset check --target tells)"
else
	fail "the plugin with the history: build"
	tail -20 "$w.log" | sed 's/^/  | /'
fi
KSUNSET_HISTORY=$TMP/none "$KSUNSET" check --history "$d/forecast.ko" >/dev/null 2>"$TMP/err"
expect_eq "a missing history: exit 2" "$?" 2
expect_grep "a missing history: says which file" "$TMP/err" "$TMP/none"

# Regenerate: the same kernels' changes, lint-clean
"$TOP/scripts/history.sh" -o "$TMP/history.schedule" "$KSUNSET" >"$TMP/gen" 2>&1
rc=$?
if [ "$rc" -eq 77 ] || grep -q 'cannot reach\|cannot download' "$TMP/gen"; then
	skip "cannot fetch Debian's headers to regenerate the history: $(grep -m1 'cannot' "$TMP/gen")"
	exit 0
fi
expect_eq "scripts/history.sh: exit 0" "$rc" 0
expect_grep "scripts/history.sh: says what it wrote" "$TMP/gen" "$TMP/history.schedule: "
"$KSUNSET" lint -s "$TMP/history.schedule" >/dev/null 2>&1
expect_eq "the regenerated history passes lint" "$?" 0
exit 0
