#!/bin/sh
# Baselines on real modules built through Kbuild: what a baseline accepts
# (a use in the status it had when written, never an overdue or removed
# one), refreshing, keys that survive optimisation and name the folder,
# and stale entries.
. "$(dirname "$0")/lib.sh"
K=$(kdir)
if [ -z "$K" ]; then skip "no kernel headers in /usr/src"; exit 0; fi
S="$TOP/tests/data/check.schedule"
SV="$K/Module.symvers"
# the plugin's records only: t-dwarf.sh tests lines from DWARF
chk() { "$KSUNSET" check --locations=plugin -s "$S" -i "$SV" "$@"; }

kbuild "$TOP/tests/modules/legacy" "$TMP/legacy" || { fail "build legacy"; cat "$TMP/legacy.log"; exit 0; }
L="$TMP/legacy/legacy.ko"

# written when every use was scheduled
chk --today 2026-01-01 --write-baseline "$TMP/base" "$L" >/dev/null 2>&1
expect_grep "the header says version 2" "$TMP/base" "# ksunset baseline 2"
expect_grep "the status is recorded" "$TMP/base" "legacy	simple_strtoul			scheduled"
chk --today 2026-01-01 --strict --baseline "$TMP/base" "$L" >"$TMP/out" 2>"$TMP/err"
expect_eq "the same status: accepted, exit 0" "$?" 0
expect_grep "the same status: counted" "$TMP/err" "3 accepted by the baseline"

# the next kernel's Module.symvers no longer has do_settimeofday64: the
# module will not load, whatever the baseline says
grep -v "	do_settimeofday64	" "$SV" >"$TMP/next.symvers"
"$KSUNSET" check --locations=plugin -s "$S" -i "$TMP/next.symvers" --today 2026-01-01 --baseline "$TMP/base" "$L" \
	>"$TMP/out" 2>"$TMP/err"
expect_eq "removed: never accepted, exit 1" "$?" 1
expect_grep "removed: reported" "$TMP/out" "ERROR: ksunset: \"do_settimeofday64\" [$L] is no longer exported"
expect_grep "removed: the rest accepted" "$TMP/err" "2 accepted by the baseline"

# every date past: overdue uses are never accepted
chk --today 2028-06-01 --strict --baseline "$TMP/base" "$L" >"$TMP/out" 2>"$TMP/err"
expect_eq "overdue: never accepted, exit 1" "$?" 1
expect_eq "overdue: every dated use reported" "$(grep -c '^ERROR: .*overdue by' "$TMP/out")" 3

# scheduled when written, due soon now: not accepted
chk --today 2026-12-03 --error-within 30 --baseline "$TMP/base" "$L" >"$TMP/out" 2>"$TMP/err"
expect_grep "scheduled, now due soon: reported" "$TMP/out" 'ERROR: ksunset: "simple_strtoul"'
# written due soon: accepted due soon, not overdue; the overdue use is not written
chk --today 2026-12-03 --error-within 30 --write-baseline "$TMP/soon" "$L" >/dev/null 2>&1
expect_grep "due-soon written" "$TMP/soon" "legacy	simple_strtoul			due-soon"
expect_eq "overdue not written" "$(grep -c noop_llseek "$TMP/soon")" 0
chk --today 2026-12-10 --error-within 30 --baseline "$TMP/soon" "$L" >"$TMP/out" 2>"$TMP/err"
expect_eq "due soon when written and now: accepted" "$(grep -c '"simple_strtoul"' "$TMP/out")" 0
chk --today 2026-12-21 --baseline "$TMP/soon" "$L" >"$TMP/out" 2>"$TMP/err"
expect_grep "due soon when written, overdue now: reported" "$TMP/out" 'ERROR: ksunset: "simple_strtoul"'

# version 1 files (no status) are read, and accept scheduled uses only
printf '# ksunset baseline 1\nlegacy\tsimple_strtoul\t\t\n' >"$TMP/v1"
chk --today 2026-01-01 --strict --baseline "$TMP/v1" "$L" >"$TMP/out" 2>"$TMP/err"
expect_grep "version 1: a scheduled use accepted" "$TMP/err" "1 accepted by the baseline"
chk --today 2026-12-03 --error-within 30 --baseline "$TMP/v1" "$L" >"$TMP/out" 2>"$TMP/err"
expect_grep "version 1: a due-soon use reported" "$TMP/out" 'ERROR: ksunset: "simple_strtoul"'
printf '# ksunset baseline 2\nlegacy\tsimple_strtoul\t\t\toverdue\n' >"$TMP/bad"
chk --today 2026-01-01 --baseline "$TMP/bad" "$L" >"$TMP/out" 2>"$TMP/err"
expect_eq "a status no baseline accepts: exit 2" "$?" 2
expect_grep "a status no baseline accepts: named" "$TMP/err" "$TMP/bad:2: error: bad status 'overdue'"

# A module built with the plugin: two files named parse.c (a/ and b/), each
# with a function that GCC clones (parse.constprop); -DTWIN_B_USE adds a use
# to b/parse.c.
TS="$TMP/twin.schedule"
printf 'What: kstrtoull\nWhen: 2027-09-01\nWhy: test\nWho: T. Est\n' >"$TS"
twin() { "$KSUNSET" make -s "$TS" --today 2026-12-03 -C "$K" M="$TMP/twin" KCFLAGS="$1" >"$TMP/twin.log" 2>&1; }
tw() { "$KSUNSET" check -s "$TS" -i "$SV" --today 2026-12-03 "$@" "$TMP/twin/twin.ko"; }
rm -rf "$TMP/twin" && cp -r "$TOP/tests/modules/twin" "$TMP/twin"
twin "" || { fail "build twin"; cat "$TMP/twin.log"; exit 0; }

# refreshing (--baseline and --write-baseline) keeps every key, with its
# file and function; the same file for both is replaced after reading
tw --write-baseline "$TMP/tb" >/dev/null 2>&1
expect_eq "twin: its use written" "$(grep -c '^twin	kstrtoull	.*parse.c	parse' "$TMP/tb")" 1
tw --strict --baseline "$TMP/tb" --write-baseline "$TMP/tb2" >"$TMP/out" 2>&1
expect_eq "refresh: accepted, exit 0" "$?" 0
expect_file_eq "refresh: every key kept, with its file and function" "$TMP/tb2" "$TMP/tb"
chmod 664 "$TMP/tb" && cp "$TMP/tb" "$TMP/tb.orig"
tw --strict --baseline "$TMP/tb" --write-baseline "$TMP/tb" >"$TMP/out" 2>&1
expect_eq "refresh in place: exit 0" "$?" 0
expect_file_eq "refresh in place: unchanged" "$TMP/tb" "$TMP/tb.orig"
expect_eq "refresh in place: mode kept" "$(stat -c %a "$TMP/tb")" 664
tw --strict --baseline "$TMP/tb" >"$TMP/out" 2>&1
expect_eq "refresh in place: still accepts" "$?" 0
tw --baseline "$TMP/tb" --write-baseline "$TMP/tb" "$TMP/missing.ko" >"$TMP/out" 2>"$TMP/err"
expect_eq "refresh with an unusable input: exit 2" "$?" 2
expect_file_eq "refresh with an unusable input: the baseline kept" "$TMP/tb" "$TMP/tb.orig"
expect_grep "refresh with an unusable input: said" "$TMP/err" \
	"$TMP/tb: note: baseline not written: some input could not be used"

# keys change with the source only: the function as written (not GCC's
# clone parse.constprop), the file relative to the module's folder, M=
# (a/parse.c, not parse.c, which b/parse.c has too)
expect_grep "key: the function as written, the file below M=" "$TMP/tb" \
	"twin	kstrtoull	a/parse.c	parse	scheduled"
twin "-fno-ipa-cp -fno-ipa-sra" || { fail "build twin without clones"; cat "$TMP/twin.log"; }
tw --format json >"$TMP/out" 2>&1
expect_grep "built without clones: the plugin names the function parse" "$TMP/out" '"function": "parse"'
tw --strict --baseline "$TMP/tb" >"$TMP/out" 2>&1
expect_eq "built without clones: still accepted" "$?" 0
twin -DTWIN_B_USE || { fail "build twin with a use in b/"; cat "$TMP/twin.log"; }
tw --strict --baseline "$TMP/tb" >"$TMP/out" 2>&1
expect_eq "a new use in b/parse.c, function parse: exit 1" "$?" 1
expect_grep "a new use in b/parse.c: reported" "$TMP/out" "$TMP/twin/b/parse.c:15:16: error: call to 'kstrtoull'"
expect_eq "a new use in b/parse.c: a/parse.c's still accepted" "$(grep -c "$TMP/twin/a/parse.c" "$TMP/out")" 0

# stale entries: the use in b/parse.c goes away again
tw --write-baseline "$TMP/both" >/dev/null 2>&1
expect_eq "both uses written" "$(grep -c '^twin	' "$TMP/both")" 2
twin "" || { fail "rebuild twin"; cat "$TMP/twin.log"; }
tw --baseline "$TMP/both" >"$TMP/out" 2>"$TMP/err"
expect_eq "a stale entry: exit 0" "$?" 0
expect_grep "a stale entry: noted with its line" "$TMP/err" \
	"$TMP/both:3: note: baseline entry no longer matches a use: twin kstrtoull b/parse.c parse"
expect_eq "a stale entry: one note" "$(grep -c 'no longer matches' "$TMP/err")" 1
# entries of a module that was not checked are not stale
grep -v '^#' "$TMP/base" >>"$TMP/both"
cp "$TMP/both" "$TMP/both.orig"
tw --baseline "$TMP/both" "$TMP/missing.ko" --prune-baseline >"$TMP/out" 2>"$TMP/err"
expect_file_eq "--prune-baseline with an unusable input: not pruned" "$TMP/both" "$TMP/both.orig"
expect_eq "--prune-baseline with an unusable input: nothing stale" "$(grep -c 'no longer matches' "$TMP/err")" 0
"$KSUNSET" make -s "$TS" --today 2026-12-03 --baseline "$TMP/both" --prune-baseline \
	-C "$K" M="$TMP/twin" >"$TMP/out" 2>"$TMP/err"
expect_eq "ksunset make --prune-baseline: exit 0" "$?" 0
expect_eq "--prune-baseline: the stale entry noted" "$(grep -c 'no longer matches' "$TMP/err")" 1
{ cat "$TMP/tb.orig"; grep -v '^#' "$TMP/base"; } | LC_ALL=C sort >"$TMP/want"
LC_ALL=C sort "$TMP/both" >"$TMP/got"
expect_file_eq "--prune-baseline: the stale entry gone, the unchecked module's kept" "$TMP/got" "$TMP/want"
tw --baseline "$TMP/both" >"$TMP/out" 2>"$TMP/err"
expect_eq "pruned: nothing stale" "$(grep -c 'no longer matches' "$TMP/err")" 0
"$KSUNSET" check -s "$TS" --prune-baseline "$TMP/twin/twin.ko" >"$TMP/out" 2>"$TMP/err"
expect_eq "--prune-baseline without --baseline: exit 2" "$?" 2
expect_grep "--prune-baseline without --baseline: said" "$TMP/err" "--prune-baseline needs --baseline FILE"
exit 0
