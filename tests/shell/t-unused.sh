#!/bin/sh
# ksunset unused, users and lint --modules on a corpus of modules built
# through Kbuild against Debian's headers, each answer compared with one
# computed independently from `nm -u` over the same .ko files.
. "$(dirname "$0")/lib.sh"
K=$(kdir)
if [ -z "$K" ]; then skip "no kernel headers in /usr/src (linux-headers-amd64)"; exit 0; fi
PLUGIN=${PLUGIN:-$TOP/build/ksunset.so}
S="$TOP/tests/data/check.schedule"
C="$TMP/corpus"
LC_ALL=C
export LC_ALL

# legacy with the plugin, so that users has source locations to show
kbuild "$TOP/tests/modules/legacy" "$C/legacy" \
	KCFLAGS="-fplugin=$PLUGIN -fplugin-arg-ksunset-schedule=$S" || { fail "build legacy"; exit 0; }
kbuild "$TOP/tests/modules/proprietary" "$C/prop" || { fail "build proprietary"; exit 0; }
kbuild "$TOP/tests/modules/chain" "$C/chain" || { fail "build chain"; exit 0; }
find "$C" -name '*.ko' | sort >"$TMP/kos"
expect_eq "corpus: four modules" "$(wc -l <"$TMP/kos")" 4
SV1="$K/Module.symvers" SV2="$C/chain/Module.symvers"

nm_counts "$TMP/kos" "$SV1" "$SV2" >"$TMP/want-counts"

"$KSUNSET" unused -i "$SV1" -i "$SV2" --counts "$C" >"$TMP/counts" 2>"$TMP/err"
expect_eq "unused --counts: exit 0" "$?" 0
expect_file_eq "unused --counts agrees with nm -u for every export" "$TMP/counts" "$TMP/want-counts"
"$KSUNSET" unused -i "$SV1" -i "$SV2" "$C" >"$TMP/unused" 2>"$TMP/err"
awk -F'\t' '$1 == 0' "$TMP/want-counts" | cut -f2- >"$TMP/want-unused"
expect_file_eq "unused: exactly the exports nm -u finds no importer of" "$TMP/unused" "$TMP/want-unused"
expect_grep "unused: summary" "$TMP/err" "imported by none of 4 modules"
grep -q "^chain_nobody	EXPORT_SYMBOL	-	$C/chain/chain-provider\$" "$TMP/unused" &&
	pass "unused: a module's unimported export, type, owner" || fail "unused: chain_nobody"

"$KSUNSET" unused -i "$SV1" -i "$SV2" --module chain-provider "$C" >"$TMP/out" 2>/dev/null
expect_eq "--module by the owner's last part" "$(cat "$TMP/out" | cut -f1 | head -1)" "chain_nobody"
"$KSUNSET" unused -i "$SV1" -i "$SV2" --module chain-provider --counts "$C" 2>/dev/null >"$TMP/out"
printf '1\tchain_gpl_only\tEXPORT_SYMBOL_GPL\t-\t%s\n1\tchain_hello\tEXPORT_SYMBOL\t-\t%s\n1\tchain_in_ns\tEXPORT_SYMBOL_GPL\tKSUNSET_TEST\t%s\n0\tchain_nobody\tEXPORT_SYMBOL\t-\t%s\n' \
	"$C/chain/chain-provider" "$C/chain/chain-provider" "$C/chain/chain-provider" \
	"$C/chain/chain-provider" >"$TMP/want"
expect_file_eq "--module --counts: namespace and GPL shown" "$TMP/out" "$TMP/want"
"$KSUNSET" unused -i "$SV1" --module vmlinux "$C" 2>/dev/null | cut -f4 | sort -u >"$TMP/out"
expect_eq "--module vmlinux: only vmlinux's exports" "$(cat "$TMP/out")" "vmlinux"
"$KSUNSET" unused -i "$SV1" --module no_such_owner "$C" >/dev/null 2>"$TMP/err"
expect_eq "--module unknown owner: exit 2" "$?" 2
expect_grep "--module unknown owner: message" "$TMP/err" \
	"--module no_such_owner: no export of Module.symvers belongs to it"

"$KSUNSET" unused -i "$SV1" -i "$SV2" --counts --format json "$C" >"$TMP/j" 2>/dev/null
python3 - "$TMP/j" "$TMP/want-counts" >"$TMP/out" 2>&1 <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["command"] == "unused" and d["modules_scanned"] == 4 and d["counts"], d
want = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])]
got = [[str(e["users"]), e["symbol"], e["type"], e["namespace"] or "-", e["module"]]
       for e in d["exports"]]
assert got == want, "json differs from nm -u"
print("json ok")
EOP
expect_grep "unused --format json: same counts" "$TMP/out" "json ok"

# users: every (symbol, module) pair, against nm -u, for all the corpus imports
# plus a symbol nobody imports
xargs nm -u <"$TMP/kos" | awk '/:$/ { mod = substr($1, 1, length($1) - 1); next }
	NF >= 2 && $2 != "__this_module" { print $2 "\t" mod }' | sort -u >"$TMP/want-users"
syms=$(cut -f1 "$TMP/want-users" | sort -u | tr '\n' ' ')
# shellcheck disable=SC2086
"$KSUNSET" users $syms chain_nobody -- "$C" >"$TMP/users" 2>"$TMP/err"
expect_eq "users: exit 0 when users found" "$?" 0
grep -v ': note: ' "$TMP/users" | sort >"$TMP/got-users"
expect_file_eq "users: every importer nm -u finds, no other" "$TMP/got-users" "$TMP/want-users"
expect_grep "users: the unused symbol said so" "$TMP/err" "ksunset: 'chain_nobody': no user among 4 modules"
"$KSUNSET" users do_settimeofday64 -- "$C" >"$TMP/out" 2>&1
expect_grep "users: source location from the plugin's records" "$TMP/out" \
	"$C/legacy/legacy-clock.c:12:16: note: uses 'do_settimeofday64' (call) in legacy_set_clock()"
"$KSUNSET" users chain_nobody -- "$C" >/dev/null 2>&1
expect_eq "users: exit 1 when nobody imports it" "$?" 1
"$KSUNSET" users rtc_time64_to_tm --format json -- "$C/legacy/legacy.ko" "$C/prop" >"$TMP/j" 2>&1
python3 - "$TMP/j" >"$TMP/out" 2>&1 <<'EOP'
import json, sys
d = json.load(open(sys.argv[1]))
(s,) = d["symbols"]
assert s["symbol"] == "rtc_time64_to_tm", s
assert sorted(u["module_name"] for u in s["users"]) == ["legacy", "proprietary"], s
loc = [u for u in s["users"] if u["module_name"] == "legacy"][0]["locations"][0]
assert loc["kind"] == "call" and loc["function"] == "legacy_init" and loc["file"].endswith("legacy-main.c"), loc
print("json ok")
EOP
expect_grep "users --format json: users and locations" "$TMP/out" "json ok"
"$KSUNSET" users do_settimeofday64 "$C" >/dev/null 2>"$TMP/err"
expect_eq "users without --: exit 2" "$?" 2
expect_grep "users without --: message" "$TMP/err" "expected SYMBOL... -- MODULE..."
"$KSUNSET" users 'bad-name' -- "$C" >/dev/null 2>"$TMP/err"
expect_grep "users: bad symbol name" "$TMP/err" "ksunset users: error: bad symbol name 'bad-name'"
"$KSUNSET" users --bogus x -- "$C" >/dev/null 2>"$TMP/err"
expect_eq "users: unknown option exit 2" "$?" 2
"$KSUNSET" users x -- /nonexistent.ko >/dev/null 2>"$TMP/err"
expect_eq "users: unreadable module exit 2" "$?" 2
expect_grep "users: unreadable module named" "$TMP/err" "/nonexistent.ko"

# lint --modules: which entries nothing among the corpus needs any more
cat >"$TMP/dev.schedule" <<EOS
What:    chain_nobody
When:    2027-06-01
Why:     Nobody imports it.
Who:     T. Est <t@example.org>

What:    chain_hello
When:    2027-06-01
Why:     The consumer still uses it.
Who:     T. Est <t@example.org>

What:    chain_in_ns
When:    2027-06-01
Action:  namespace KSUNSET_TEST
Why:     Already there.
Who:     T. Est <t@example.org>

What:    rtc_time64_to_tm
When:    2027-06-01
Action:  namespace RTC
Why:     proprietary.ko does not import RTC yet.
Who:     T. Est <t@example.org>
EOS
"$KSUNSET" lint -s "$TMP/dev.schedule" -i "$SV1" -i "$SV2" --modules "$C" --today 2026-12-03 \
	>"$TMP/out" 2>"$TMP/err"
expect_eq "lint --modules: warnings only, exit 0" "$?" 0
sed "s|$TMP/||" "$TMP/err" >"$TMP/got"
cat >"$TMP/want" <<EOW
dev.schedule:1: note: 'chain_nobody' has no remaining user among 4 modules: ready to unexport now
dev.schedule:11: warning: 'chain_in_ns' is already in namespace KSUNSET_TEST: the entry has nothing left to do
ksunset: 0 errors, 1 warning
EOW
expect_file_eq "lint --modules: ready entries, done entries" "$TMP/got" "$TMP/want"
"$KSUNSET" lint -s "$TMP/dev.schedule" --modules /nonexistent --today 2026-12-03 >/dev/null 2>&1
expect_eq "lint --modules unreadable: exit 2" "$?" 2
mkdir "$TMP/none"
"$KSUNSET" lint -s "$TMP/dev.schedule" --modules "$TMP/none" --today 2026-12-03 >/dev/null 2>"$TMP/err"
expect_eq "lint --modules EMPTYDIR: exit 2" "$?" 2
expect_grep "lint --modules EMPTYDIR: said" "$TMP/err" "none: error: no module found"
expect_no_grep "lint --modules EMPTYDIR: nothing called ready" "$TMP/err" "ready to unexport"
exit 0
