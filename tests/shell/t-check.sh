#!/bin/sh
# ksunset check on real modules built through Kbuild against Debian's
# headers: findings, severities and exit status for each CI control.
. "$(dirname "$0")/lib.sh"
K=$(kdir)
if [ -z "$K" ]; then skip "no kernel headers in /usr/src"; exit 0; fi
S="$TOP/tests/data/check.schedule"
SV="$K/Module.symvers"
# --locations=plugin: these cases are about the plugin's records or their
# absence (t-dwarf.sh tests lines from DWARF)
chk() { "$KSUNSET" check --locations=plugin -s "$S" -i "$SV" --today 2026-12-03 "$@"; }

kbuild "$TOP/tests/modules/legacy" "$TMP/legacy" || { fail "build legacy"; cat "$TMP/legacy.log"; exit 0; }
kbuild "$TOP/tests/modules/proprietary" "$TMP/prop" || { fail "build proprietary"; cat "$TMP/prop.log"; exit 0; }
L="$TMP/legacy/legacy.ko" P="$TMP/prop/proprietary.ko"

chk "$L" "$P" >"$TMP/out" 2>"$TMP/err"
expect_eq "default: overdue use makes exit 1" "$?" 1
grep -E '^(WARNING|ERROR):' "$TMP/out" | sed "s|$TMP/||" >"$TMP/got"
cat >"$TMP/want" <<EOW
WARNING: ksunset: "do_settimeofday64" [legacy/legacy.ko] is scheduled for removal on 2027-09-01 (in 272 days); no replacement: modules must not set the system clock
ERROR: ksunset: "noop_llseek" [legacy/legacy.ko] was due for removal on 2026-06-01 (overdue by 185 days)
WARNING: ksunset: "simple_strtoul" [legacy/legacy.ko] is scheduled for removal on 2026-12-20 (in 17 days); use 'kstrtoul' instead
WARNING: ksunset: "__register_chrdev" [prop/proprietary.ko] will become GPL-only in Linux 6.20 (target kernel $(basename "$K" | sed 's/^linux-headers-//')); module license 'Proprietary' is not GPL-compatible
WARNING: ksunset: "rtc_time64_to_tm" [prop/proprietary.ko] will move to namespace RTC on 2027-12-01 (in 363 days); add MODULE_IMPORT_NS(RTC)
EOW
expect_file_eq "default: findings (GPL module spared gpl-only, RTC importer spared namespace)" "$TMP/got" "$TMP/want"
expect_grep "no plugin: no source location" "$TMP/out" "legacy.ko: note: no source location (module not built with the ksunset plugin)"
expect_eq "no plugin: one note for the module, not one per finding" \
	"$(grep -c 'legacy.ko: note: no source location' "$TMP/out")" 1
expect_eq "no plugin: one note per module" "$(grep -c ': note: no source location' "$TMP/out")" 2
expect_grep "summary line" "$TMP/err" "ksunset: 2 modules checked: 1 error, 4 warnings"

chk --today 2026-01-01 "$L" "$P" >"$TMP/out" 2>&1
expect_eq "--today in the past: warnings only, exit 0" "$?" 0
chk --today 2028-06-01 "$L" "$P" >"$TMP/out" 2>&1
expect_eq "--today in the future: exit 1" "$?" 1
expect_eq "--today in the future: all dated uses overdue" "$(grep -c '^ERROR: .*overdue by' "$TMP/out")" 4

chk --error-within 30 "$L" >"$TMP/out" 2>&1
expect_grep "--error-within makes a near date an error" "$TMP/out" 'ERROR: ksunset: "simple_strtoul"'
chk --error-within 10 "$L" >"$TMP/out" 2>&1
expect_grep "--error-within leaves a later date a warning" "$TMP/out" 'WARNING: ksunset: "simple_strtoul"'

chk --today 2026-01-01 --strict "$L" >"$TMP/out" 2>&1
expect_eq "--strict: exit 1" "$?" 1
expect_eq "--strict: every use an error" "$(grep -c '^WARNING:' "$TMP/out")" 0

chk --kernel-release 6.20-rc1 "$P" >"$TMP/out" 2>&1
expect_grep "--kernel-release reaching the release: overdue" "$TMP/out" \
	"ERROR: ksunset: \"__register_chrdev\" [$P] was due to become GPL-only in Linux 6.20 (target kernel 6.20-rc1)"

# the next kernel's Module.symvers no longer has do_settimeofday64
grep -v "	do_settimeofday64	" "$SV" >"$TMP/next.symvers"
"$KSUNSET" check --locations=plugin -s "$S" -i "$TMP/next.symvers" --today 2026-01-01 "$L" >"$TMP/out" 2>&1
expect_eq "removed: exit 1" "$?" 1
expect_grep "removed: error" "$TMP/out" \
	"ERROR: ksunset: \"do_settimeofday64\" [$L] is no longer exported by the kernel (unexport on 2027-09-01): the module will not load"

# Module.symvers decides first: a kernel whose Module.symvers already has
# __register_chrdev GPL-only (scheduled) and __unregister_chrdev in a
# namespace (not scheduled) refuses the proprietary module
sed -e 's/^\([^	]*	__register_chrdev	vmlinux	\)EXPORT_SYMBOL	/\1EXPORT_SYMBOL_GPL	/' \
	-e 's/^\([^	]*	__unregister_chrdev	vmlinux	EXPORT_SYMBOL	\)$/\1CHRDEV/' "$SV" >"$TMP/now.symvers"
expect_eq "symvers edited" "$(grep -cE '	__register_chrdev	vmlinux	EXPORT_SYMBOL_GPL	$|	__unregister_chrdev	vmlinux	EXPORT_SYMBOL	CHRDEV$' "$TMP/now.symvers")" 2
"$KSUNSET" check --locations=plugin -s "$S" -i "$TMP/now.symvers" --today 2026-01-01 "$P" >"$TMP/out" 2>"$TMP/err"
expect_eq "gpl-only-now, namespace-now: exit 1" "$?" 1
expect_grep "gpl-only-now: scheduled, but already GPL-only" "$TMP/out" \
	"ERROR: ksunset: \"__register_chrdev\" [$P] is GPL-only in the kernel's Module.symvers and module license 'Proprietary' is not GPL-compatible: the module will not load"
expect_grep "namespace-now: not scheduled, but in a namespace" "$TMP/out" \
	"ERROR: ksunset: \"__unregister_chrdev\" [$P] is in namespace CHRDEV in the kernel's Module.symvers: add MODULE_IMPORT_NS(CHRDEV), or the module will not load"
expect_grep "the schedule still decides the rest" "$TMP/out" 'WARNING: ksunset: "rtc_time64_to_tm"'
expect_grep "Module.symvers findings counted" "$TMP/err" "ksunset: 1 module checked: 2 errors, 1 warning"
"$KSUNSET" check --locations=plugin -s "$S" -i "$TMP/now.symvers" --today 2026-01-01 --format json "$P" >"$TMP/now.json" 2>/dev/null
python3 - "$TMP/now.json" >"$TMP/out" 2>&1 <<'EOP'
import json, sys
f = {x["symbol"]: x for x in json.load(open(sys.argv[1]))["findings"]}
g, n = f["__register_chrdev"], f["__unregister_chrdev"]
assert (g["rule"], g["status"], g["severity"], g["action"]) == ("ksunset/gpl-only-now", "gpl-only-now", "error", "gpl-only"), g
assert (n["rule"], n["status"], n["action"], n["when"], n["days_left"]) == ("ksunset/namespace-now", "namespace-now", None, None, None), n
print("json ok")
EOP
expect_grep "gpl-only-now, namespace-now: JSON" "$TMP/out" "json ok"
"$KSUNSET" check --locations=plugin -s "$S" -i "$TMP/now.symvers" --today 2026-01-01 --format sarif "$P" >"$TMP/now.sarif" 2>/dev/null
python3 - "$TMP/now.sarif" >"$TMP/out" 2>&1 <<'EOP'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
assert rules.index("ksunset/gpl-only-now") < rules.index("ksunset/removed"), rules
assert rules.index("ksunset/namespace-now") < rules.index("ksunset/removed"), rules
got = sorted((r["ruleId"], r["level"]) for r in run["results"])
assert ("ksunset/gpl-only-now", "error") in got and ("ksunset/namespace-now", "error") in got, got
print("sarif ok")
EOP
expect_grep "gpl-only-now, namespace-now: SARIF" "$TMP/out" "sarif ok"
"$KSUNSET" check --locations=plugin -s "$S" -i "$TMP/now.symvers" --today 2026-01-01 --write-baseline "$TMP/now.base" "$P" >/dev/null 2>&1
"$KSUNSET" check --locations=plugin -s "$S" -i "$TMP/now.symvers" --today 2026-01-01 --baseline "$TMP/now.base" "$P" >"$TMP/out" 2>&1
expect_eq "gpl-only-now, namespace-now: no baseline accepts them" "$?" 1
expect_eq "gpl-only-now, namespace-now: still reported with a baseline" "$(grep -c '^ERROR: ' "$TMP/out")" 2

chk --format json -o "$TMP/r.json" "$L" "$P" 2>/dev/null
python3 - "$TMP/r.json" >"$TMP/out" 2>&1 <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["tool"] == "ksunset" and d["today"] == "2026-12-03", d
assert d["modules_checked"] == 2 and d["summary"] == {"errors": 1, "warnings": 4, "baselined": 0, "accepted": 0}, d["summary"]
f = {(x["module_name"], x["symbol"]): x for x in d["findings"]}
n = f[("legacy", "noop_llseek")]
assert n["severity"] == "error" and n["status"] == "overdue" and n["days_left"] == -185, n
assert n["rule"] == "ksunset/overdue" and n["locations"] == [], n
r = f[("proprietary", "__register_chrdev")]
assert r["action"] == "gpl-only" and r["when_kind"] == "release" and r["days_left"] is None, r
print("json ok")
EOP
expect_grep "--format json: parsed back, facts right" "$TMP/out" "json ok"

chk --format sarif --source-root "$TMP" -o "$TMP/r.sarif" "$L" "$P" 2>/dev/null
python3 - "$TMP/r.sarif" >"$TMP/out" 2>&1 <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["version"] == "2.1.0" and "$schema" in d
run = d["runs"][0]
assert run["tool"]["driver"]["name"] == "ksunset"
ids = {r["id"] for r in run["tool"]["driver"]["rules"]}
assert {"ksunset/overdue", "ksunset/scheduled", "ksunset/removed"} <= ids
assert len(run["results"]) == 5
for res in run["results"]:
    assert res["ruleId"] in ids and res["level"] in ("error", "warning") and res["message"]["text"]
    # built without the plugin: the module's import, not the .ko as a file
    loc = res["locations"][0]
    assert "physicalLocation" not in loc, loc
    name = loc["logicalLocations"][0]["fullyQualifiedName"]
    assert name.split(".ko/")[0] in ("legacy", "proprietary") and name.endswith(".ko/" + res["message"]["text"].split('"')[1]), name
print("sarif ok")
EOP
expect_grep "--format sarif: required fields, no location: the module's import" "$TMP/out" "sarif ok"

# compressed copies give the same findings as the plain module
chk "$L" 2>/dev/null | sed "s|$L|MOD|g" >"$TMP/plain"
for z in "xz -k" "zstd -q -k" "gzip -k"; do
	ext=$(echo "$z" | sed 's/ .*//; s/zstd/zst/; s/gzip/gz/')
	rm -f "$L.$ext"
	$z "$L" || { fail "$z"; continue; }
	chk "$L.$ext" 2>/dev/null | sed "s|$L.$ext|MOD|g" >"$TMP/z"
	expect_file_eq ".ko.$ext gives the same findings" "$TMP/z" "$TMP/plain"
	rm -f "$L.$ext"
done

chk "$TMP/legacy/modules.order" >"$TMP/out" 2>"$TMP/err"
expect_grep "modules.order is read" "$TMP/err" "1 module checked"
chk "$TMP" >"$TMP/out" 2>"$TMP/err"
expect_grep "a directory is searched recursively" "$TMP/err" "2 modules checked"

# a baseline hides old uses but not a new one
chk --today 2026-01-01 --write-baseline "$TMP/base" "$L" >/dev/null 2>&1
expect_grep "baseline written" "$TMP/base" "legacy	simple_strtoul		"
chk --today 2026-01-01 --baseline "$TMP/base" "$L" "$P" >"$TMP/out" 2>"$TMP/err"
expect_eq "baseline: old findings hidden" "$(grep -c '"legacy' "$TMP/out" ; true)" 0
expect_grep "baseline: new module's findings still shown" "$TMP/out" "\"rtc_time64_to_tm\" [$P]"
chk --today 2026-01-01 --baseline "$TMP/base" --format json -o "$TMP/b.json" "$L" "$P" 2>/dev/null
python3 - "$TMP/b.json" >"$TMP/out" 2>&1 <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["summary"] == {"errors": 0, "warnings": 2, "baselined": 3, "accepted": 0}, d["summary"]
assert len(d["findings"]) == 5, d["findings"]
for f in d["findings"]:
    assert f["baselined"] == (f["module_name"] == "legacy"), f
print("json baselined ok")
EOP
expect_grep "baseline: JSON keeps accepted findings, marked baselined" "$TMP/out" "json baselined ok"

# A report that cannot be written is exit 2 and says why, whichever writer
# and whichever command; never a clean exit with the report lost.
if [ -w /dev/full ]; then
	for f in text json sarif; do
		chk --today 2026-01-01 --format $f "$L" >/dev/full 2>"$TMP/err"
		expect_eq "stdout full ($f): exit 2" "$?" 2
		expect_grep "stdout full ($f): said once" "$TMP/err" "ksunset: cannot write report: No space left on device"
		expect_eq "stdout full ($f): only once" "$(grep -c 'cannot write report' "$TMP/err")" 1
		chk --today 2026-01-01 --format $f -o /dev/full "$L" >/dev/null 2>"$TMP/err"
		expect_eq "-o full ($f): exit 2" "$?" 2
		expect_grep "-o full ($f): names the file" "$TMP/err" "/dev/full: error: cannot write report: No space left on device"
	done
	for cmd in "users simple_strtoul -- $L" "unused -i $SV $L" "lint --list -s $S" \
		"mark -n x_new_sym -s $S --today 2026-01-01" "check --help" "--help" "--version"; do
		# shellcheck disable=SC2086
		"$KSUNSET" $cmd >/dev/full 2>"$TMP/err"
		expect_eq "ksunset ${cmd%% *} to a full disk: exit 2" "$?" 2
		expect_grep "ksunset ${cmd%% *} to a full disk: said" "$TMP/err" "cannot write report: No space left on device"
	done
else
	skip "no writable /dev/full"
fi

# built with the plugin under an older schedule (do_settimeofday64 only),
# checked under today's: the new entries have no location, and the reason
# is said once for the module
if [ -n "${PLUGIN:-}" ]; then
	sed -n '/^What:    do_settimeofday64/,/^$/p' "$S" >"$TMP/old.schedule"
	if kbuild "$TOP/tests/modules/legacy" "$TMP/oldsched" \
		KCFLAGS="-fplugin=$PLUGIN -fplugin-arg-ksunset-schedule=$TMP/old.schedule -fplugin-arg-ksunset-quiet"; then
		chk "$TMP/oldsched/legacy.ko" >"$TMP/out" 2>&1
		expect_grep "another schedule: the old entry located" "$TMP/out" \
			"legacy-clock.c:12:16: warning: call to 'do_settimeofday64' in 'legacy_set_clock'"
		expect_grep "another schedule: said" "$TMP/out" \
			"$TMP/oldsched/legacy.ko: note: built with another schedule: rebuild with ksunset make to locate the new entries"
		expect_eq "another schedule: said once" "$(grep -c 'note: built with another schedule' "$TMP/out")" 1
		expect_eq "another schedule: not called a module without the plugin" \
			"$(grep -c 'not built with the ksunset plugin' "$TMP/out")" 0
		# the build's own schedule: every use located, nothing to say
		"$KSUNSET" check -s "$TMP/old.schedule" -i "$SV" --today 2026-12-03 \
			"$TMP/oldsched/legacy.ko" >"$TMP/out" 2>&1
		expect_eq "the build's schedule: no note" "$(grep -c ': note:' "$TMP/out")" 0
	else
		fail "build legacy under the old schedule"
		cat "$TMP/oldsched.log"
	fi
else
	skip "PLUGIN not set: no module built under another schedule"
fi
