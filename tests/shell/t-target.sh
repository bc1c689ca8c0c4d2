#!/bin/sh
# check --target: a module built for Debian 12's 6.1 with the plugin (and
# the schedule that ksunset diff writes for 6.1 -> 6.12), forecast on the
# 6.12 headers of bookworm-backports: which imports 6.12 lacks, where the
# source uses them, and whether a rebuild against 6.12 is enough. Also a
# Module.symvers target (no headers: remedy unknown, one note), namespace
# verdicts, and bad --target input. Skipped, saying so, when the Debian
# archive cannot be reached.
. "$(dirname "$0")/lib.sh"
PLUGIN=${PLUGIN:-$TOP/build/ksunset.so}
LC_ALL=C
export LC_ALL

# --- bad --target input: one error naming the file, exit 2 ----------------
printf '0x1\tkfree\tvmlinux\tEXPORT_SYMBOL\t\nnot a row\n' >"$TMP/bad.symvers"
for c in "bad.symvers|$TMP/bad.symvers:2: error: expected CRC, symbol, module, export type and namespace separated by tabs: 'not a row'" \
	"nothing|$TMP/nothing: error: cannot read: No such file or directory" \
	".|$TMP/.: error: a directory without a Module.symvers"; do
	arg=$TMP/${c%%|*} want=${c#*|}
	"$KSUNSET" check --target "$arg" "$TOP/tests/shell/lib.sh" >"$TMP/out" 2>"$TMP/err"
	expect_eq "bad --target ${c%%|*}: exit 2" "$?" 2
	expect_grep "bad --target ${c%%|*}: says why" "$TMP/err" "$want"
	expect_eq "bad --target ${c%%|*}: one error, no report" "$(grep -c ': error:' "$TMP/err") $(wc -c <"$TMP/out")" "1 0"
done
"$KSUNSET" check --target-release 6.12 "$TOP/tests/shell/lib.sh" >/dev/null 2>"$TMP/err"
expect_eq "--target-release without --target: exit 2" "$?" 2
expect_grep "--target-release without --target: says so" "$TMP/err" "--target-release needs --target"

K=$(kdir)
[ -n "$K" ] || { fail "no Debian kernel headers in /usr/src (scripts/install-deps.sh installs them)"; exit 1; }
H=$(fetch_headers bookworm-backports 'linux-headers-6\.12\.[0-9]+\+deb12-amd64')
rc=$?
if [ "$rc" -ne 0 ]; then
	skip "cannot fetch bookworm-backports' 6.12 headers (status $rc): $(tail -1 "$TMP/fetch.log")"
	exit 0
fi
old=$(basename "$K" | sed 's/^linux-headers-//') new=$(basename "$H" | sed 's/^linux-headers-//')
# the header scan's cache, ours alone (fetch-debian.sh already has its folder)
KSUNSET_CACHE=$TMP/cache
export KSUNSET_CACHE

# The schedule of what 6.12 dropped: the plugin records where the module uses it.
"$KSUNSET" diff "$K" "$H" --schedule-out "$TMP/next.schedule" >/dev/null 2>&1
expect_eq "diff $old -> $new --schedule-out: exit 0" "$?" 0
d=$TMP/forecast
if ! KB_KDIR=$K kbuild "$TOP/tests/kbuild/forecast" "$d" \
	KCFLAGS="-fplugin=$PLUGIN -fplugin-arg-ksunset-schedule=$TMP/next.schedule"; then
	fail "forecast: build against $old"
	tail -20 "$d.log" | sed 's/^/  | /'
	exit 1
fi
pass "forecast: builds against $old with the plugin and the diff's schedule"

"$KSUNSET" check --target "$H" "$d/forecast.ko" >"$TMP/out" 2>"$TMP/err"
expect_eq "check --target $new: exit 1 (the module will not load there)" "$?" 1
grep '^ERROR' "$TMP/out" | sed "s|$d/||" >"$TMP/got"
cat >"$TMP/want" <<EOT
ERROR: ksunset: "__class_create" [forecast.ko] is not exported by the target kernel $new: a rebuild against its headers is enough ('class_create', as the source writes it, is still declared there)
ERROR: ksunset: "follow_pfn" [forecast.ko] is not exported by the target kernel $new: the source must change ('follow_pfn', as the source writes it, is no macro, inline or exported function there)
ERROR: ksunset: "kmalloc_trace" [forecast.ko] is not exported by the target kernel $new: a rebuild against its headers is enough ('kmalloc', as the source writes it, is still declared there)
ERROR: ksunset: "vmalloc" [forecast.ko] is not exported by the target kernel $new: a rebuild against its headers is enough ('vmalloc', as the source writes it, is still declared there)
EOT
expect_file_eq "check --target $new: each missing import, rebuild or source change" "$TMP/got" "$TMP/want"
expect_eq "the header scan is cached" "$(ls "$TMP/cache/headers/" | grep -c '^headers-.*\.names$')" 1
"$KSUNSET" check --target "$H" "$d/forecast.ko" 2>/dev/null | grep '^ERROR' | sed "s|$d/||" >"$TMP/got"
expect_file_eq "from the cache: the same verdicts" "$TMP/got" "$TMP/want"
for c in "$TMP/cache/headers/"*.names; do printf 'ksunset-headers 1\n9 broken\n' >"$c"; done
"$KSUNSET" check --target "$H" "$d/forecast.ko" 2>/dev/null | grep '^ERROR' | sed "s|$d/||" >"$TMP/got"
expect_file_eq "a broken cache is scanned again: the same verdicts" "$TMP/got" "$TMP/want"
expect_grep "check --target: the source location" "$TMP/out" \
	"$d/forecast.c:22:16: error: call to 'follow_pfn' in 'forecast_pfn' (not exported by $new) [ksunset-target-missing]"
expect_grep "check --target: summary" "$TMP/err" "1 module checked: 4 errors, 0 warnings"

"$KSUNSET" check --target "$H" --format json "$d/forecast.ko" >"$TMP/json" 2>/dev/null
python3 - "$TMP/json" >"$TMP/got" <<'EOT'
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    print(f["module_name"], f["symbol"], f["target_status"], f["remedy"], f["written_as"],
          f["target_release"], f["severity"], len(f["locations"]))
EOT
cat >"$TMP/want" <<EOT
forecast __class_create missing rebuild class_create $new error 1
forecast follow_pfn missing source-change follow_pfn $new error 1
forecast kmalloc_trace missing rebuild kmalloc $new error 1
forecast vmalloc missing rebuild vmalloc $new error 1
EOT
expect_file_eq "check --target --format json: target_status, remedy, written_as" "$TMP/got" "$TMP/want"

"$KSUNSET" check --target "$H" --format sarif "$d/forecast.ko" >"$TMP/sarif" 2>/dev/null
python3 - "$TMP/sarif" >"$TMP/got" <<'EOT'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
rules = {r["id"] for r in run["tool"]["driver"]["rules"]}
for r in run["results"]:
    assert r["ruleId"] in rules, r["ruleId"]
    loc = r["locations"][0]["physicalLocation"]["region"]["startLine"]
    print(r["ruleId"], r["level"], loc, "source must change" in r["message"]["text"])
EOT
cat >"$TMP/want" <<'EOT'
ksunset/target-missing error 30 False
ksunset/target-missing error 22 True
ksunset/target-missing error 27 False
ksunset/target-missing error 28 False
EOT
expect_file_eq "check --target --format sarif: one result per use, the remedy in its message" "$TMP/got" "$TMP/want"

# -fplugin-arg-ksunset-api: the plugin also records every call of a
# function or macro of the kernel's headers, and every address taken of
# one, so --target sees strlcpy(): 6.1's fortified inline compiles it into
# other calls (no import), and 6.12's headers declare it nowhere.
da=$TMP/forecast-api
if ! KB_KDIR=$K kbuild "$TOP/tests/kbuild/forecast" "$da" \
	KCFLAGS="-fplugin=$PLUGIN -fplugin-arg-ksunset-schedule=$TMP/next.schedule -fplugin-arg-ksunset-api"; then
	fail "forecast with api: build against $old"
	tail -20 "$da.log" | sed 's/^/  | /'
	exit 1
fi
expect_eq "api: strlcpy is no import of forecast.ko" "$(nm -u "$da/forecast.ko" | grep -cw strlcpy)" 0
"$KSUNSET" check --target "$H" "$da/forecast.ko" >"$TMP/out" 2>"$TMP/err"
expect_eq "api: check --target $new: exit 1" "$?" 1
grep '^ERROR' "$TMP/out" | sed "s|$da/||" >"$TMP/got"
cat >"$TMP/want" <<EOT
ERROR: ksunset: "__class_create" [forecast.ko] is not exported by the target kernel $new: a rebuild against its headers is enough ('class_create', as the source writes it, is still declared there)
ERROR: ksunset: "follow_pfn" [forecast.ko] is not exported by the target kernel $new: the source must change ('follow_pfn', as the source writes it, is no macro, inline or exported function there)
ERROR: ksunset: "kmalloc_trace" [forecast.ko] is not exported by the target kernel $new: a rebuild against its headers is enough ('kmalloc', as the source writes it, is still declared there)
ERROR: ksunset: "strlcpy" [forecast.ko] is declared nowhere in the headers of the target kernel $new: the source must change (the source writes it; the module does not import it)
ERROR: ksunset: "vmalloc" [forecast.ko] is not exported by the target kernel $new: a rebuild against its headers is enough ('vmalloc', as the source writes it, is still declared there)
EOT
expect_file_eq "api: check --target $new: strlcpy too, a source change" "$TMP/got" "$TMP/want"
expect_grep "api: strlcpy's location" "$TMP/out" \
	"$da/forecast.c:29:9: error: call to 'strlcpy' in 'forecast_init' (not declared by $new) [ksunset-target-undeclared]"
expect_grep "api: summary" "$TMP/err" "1 module checked: 5 errors, 0 warnings"
"$KSUNSET" check --target "$H" --format json "$da/forecast.ko" 2>/dev/null | python3 -c '
import json, sys
for f in json.load(sys.stdin)["findings"]:
    if f["symbol"] == "strlcpy":
        l = f["locations"][0]
        print(f["target_status"], f["remedy"], f["written_as"], f["severity"], l["line"], l["column"])' >"$TMP/got"
expect_eq "api: json" "$(cat "$TMP/got")" "missing source-change strlcpy error 29 9"
"$KSUNSET" check --target "$H" --format sarif "$da/forecast.ko" 2>/dev/null | python3 -c '
import json, sys
run = json.load(sys.stdin)["runs"][0]
rules = {r["id"] for r in run["tool"]["driver"]["rules"]}
for r in run["results"]:
    if r["ruleId"] == "ksunset/target-undeclared":
        assert r["ruleId"] in rules
        print(r["level"], r["locations"][0]["physicalLocation"]["region"]["startLine"],
              "source must change" in r["message"]["text"])' >"$TMP/got"
expect_eq "api: sarif" "$(cat "$TMP/got")" "error 29 True"
"$KSUNSET" check --target "$K" "$da/forecast.ko" >"$TMP/out" 2>"$TMP/err"
expect_eq "api: check --target $old (its own kernel): exit 0, every name written declared there" \
	"$? $(wc -c <"$TMP/out")" "0 0"
"$KSUNSET" check -s "$TMP/next.schedule" "$d/forecast.ko" 2>&1 | sed "s|$d/||" >"$TMP/want"
"$KSUNSET" check -s "$TMP/next.schedule" "$da/forecast.ko" 2>&1 | sed "s|$da/||" >"$TMP/got"
expect_file_eq "api: check without --target: the records change nothing" "$TMP/got" "$TMP/want"
expect_eq "without api: no api record" \
	"$(readelf -p .note.ksunset "$d/forecast.ko" | grep -c 'ksunset 3')" 0

# A Module.symvers target: load verdicts, remedies unknown, one note.
# Namespaces: kfree in one the module does not import; vfree only for
# modules named forecast* (this one); class_destroy only for kvm.
awk -F'\t' 'BEGIN { OFS = "\t" }
	$2 == "kfree" { $5 = "SLAB_TEST" } $2 == "vfree" { $5 = "module:kvm,fore*" }
	$2 == "class_destroy" { $5 = "module:kvm" } { print }' "$H/Module.symvers" >"$TMP/Module.symvers"
"$KSUNSET" check --target "$TMP/Module.symvers" --target-release 6.12.95 "$d/forecast.ko" >"$TMP/out" 2>"$TMP/err"
expect_eq "Module.symvers target: exit 1" "$?" 1
expect_grep "Module.symvers target: one note on the missing headers" "$TMP/err" \
	"$TMP/Module.symvers: note: no kernel headers here (no include/linux/module.h): --target gives load verdicts, but whether a rebuild is enough stays unknown"
expect_eq "Module.symvers target: the note once" "$(grep -c 'no kernel headers' "$TMP/err")" 1
expect_grep "Module.symvers target: remedy unknown" "$TMP/out" \
	"\"follow_pfn\" [$d/forecast.ko] is not exported by the target kernel 6.12.95: whether a rebuild is enough is unknown (no headers of the target kernel)"
expect_grep "namespace: MODULE_IMPORT_NS needed" "$TMP/out" \
	"\"kfree\" [$d/forecast.ko] is in namespace SLAB_TEST in the target kernel 6.12.95: add MODULE_IMPORT_NS(SLAB_TEST), or the module will not load there"
expect_grep "namespace: a module: list not naming the module" "$TMP/out" \
	"\"class_destroy\" [$d/forecast.ko] is exported only to module:kvm in the target kernel 6.12.95: the module will not load there"
expect_eq "namespace: a module: list whose glob names the module" "$(grep -c '"vfree"' "$TMP/out")" 0
expect_eq "not in the build's schedule: DWARF places every use" \
	"$(grep -c 'no source location' "$TMP/out")" 0
"$KSUNSET" check --locations=plugin --target "$TMP/Module.symvers" --target-release 6.12.95 \
	"$d/forecast.ko" >"$TMP/out" 2>"$TMP/err"
expect_grep "records only: no location, and says why" "$TMP/out" "$d/forecast.ko: note: no source location (the plugin records the symbols of the schedule it builds with"
"$KSUNSET" check --target "$TMP/Module.symvers" --format json "$d/forecast.ko" 2>/dev/null |
	python3 -c 'import json,sys; print(sorted({(f["target_status"], f["remedy"]) for f in json.load(sys.stdin)["findings"]}))' >"$TMP/got"
expect_eq "Module.symvers target json: every remedy unknown" "$(cat "$TMP/got")" \
	"[('missing', 'unknown'), ('namespace', 'source-change')]"

# The module's own kernel as the target: nothing missing, exit 0.
"$KSUNSET" check --target "$K" "$d/forecast.ko" >"$TMP/out" 2>"$TMP/err"
expect_eq "check --target $old (its own kernel): exit 0" "$?" 0
expect_eq "check --target $old: no finding" "$(wc -c <"$TMP/out")" 0
exit 0
