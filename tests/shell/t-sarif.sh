#!/bin/sh
# SARIF on real modules built through Kbuild with the plugin, checked by
# real validators: the SARIF SDK's own (npm @microsoft/sarif-multitool) and
# Debian's python3-jsonschema against the 2.1.0 schema that package ships;
# with and without --source-root and with a baseline. And what validators
# cannot see (sarif.py): one result per use, each column on its symbol
# after tabs, wide characters and an emoji, URIs that name the file,
# fingerprints that survive unrelated edits and tell a new use, and
# suppressions where the baseline accepted a use.
. "$(dirname "$0")/lib.sh"
K=$(kdir)
if [ -z "$K" ]; then skip "no kernel headers in /usr/src"; exit 0; fi
if [ -z "${PLUGIN:-}" ]; then skip "PLUGIN not set"; exit 0; fi
S="$TOP/tests/data/check.schedule"
KCF="-fplugin=$PLUGIN -fplugin-arg-ksunset-schedule=$S -fplugin-arg-ksunset-quiet"
chk() { "$KSUNSET" check -s "$S" -i "$K/Module.symvers" --today 2026-12-03 "$@"; }

. "$TOP/tests/shell/sarif-validators.sh"

# uses WHAT SARIF JSON: one result per use of the JSON report, each where
# the use is.
uses() {
	python3 "$SP" uses "$2" "$3" >"$TMP/u" 2>&1
	expect_grep "$1: one result per use, each where it is" "$TMP/u" "results, one per use"
}

SRC=$TMP/src
if ! kbuild "$TOP/tests/modules/legacy" "$SRC/legacy" KCFLAGS="$KCF" ||
	! kbuild "$TOP/tests/modules/columns" "$SRC/columns" KCFLAGS="$KCF" ||
	! kbuild "$TOP/tests/modules/proprietary" "$SRC/prop"; then
	fail "build the modules"
	cat "$SRC"/*.log
	exit 0
fi
L=$SRC/legacy/legacy.ko C=$SRC/columns/columns.ko P=$SRC/prop/proprietary.ko

chk --format sarif --source-root "$SRC" -o "$TMP/root.sarif" "$L" "$C" "$P" 2>/dev/null
chk --format json -o "$TMP/root.json" "$L" "$C" "$P" 2>/dev/null
validate "--source-root" "$TMP/root.sarif"
uses "--source-root" "$TMP/root.sarif" "$TMP/root.json"
expect_grep "--source-root: SRCROOT is its file: URI" "$TMP/root.sarif" \
	"\"originalUriBaseIds\": {\"SRCROOT\": {\"uri\": \"file://$SRC/\"}}"
expect_grep "--source-root: URIs relative to it" "$TMP/root.sarif" \
	'"uri": "columns/columns.c", "uriBaseId": "SRCROOT"}, "region": {"startLine": 15, "startColumn": 19}'
# the proprietary module was built without the plugin: its lines come from
# its DWARF; with the plugin's records only, it has no source location
expect_grep "without the plugin: the line from the module's DWARF" "$TMP/root.sarif" \
	'"uri": "prop/proprietary.c", "uriBaseId": "SRCROOT"}, "region": {"startLine": 13, "startColumn": 2}'
chk --format sarif --locations=plugin -o "$TMP/noloc.sarif" "$P" 2>/dev/null
validate "--locations=plugin" "$TMP/noloc.sarif"
expect_grep "no source location: the module's import, a logical location" "$TMP/noloc.sarif" \
	'"fullyQualifiedName": "proprietary.ko/__register_chrdev", "kind": "member"'

# without --source-root: the current directory is the root ...
(cd "$SRC" && chk --format sarif -o "$TMP/cwd.sarif" legacy/legacy.ko columns/columns.ko) 2>/dev/null
(cd "$SRC" && chk --format json -o "$TMP/cwd.json" legacy/legacy.ko columns/columns.ko) 2>/dev/null
validate "no --source-root" "$TMP/cwd.sarif"
uses "no --source-root" "$TMP/cwd.sarif" "$TMP/cwd.json"
expect_grep "no --source-root: URIs relative to the current directory" "$TMP/cwd.sarif" \
	'"uri": "legacy/legacy-main.c", "uriBaseId": "SRCROOT"}'
# ... and a file outside it has an absolute file: URI, never a bare path
(cd "$TOP" && chk --format sarif -o "$TMP/out.sarif" "$L" "$C") 2>/dev/null
validate "sources outside the root" "$TMP/out.sarif"
uses "sources outside the root" "$TMP/out.sarif" "$TMP/cwd.json"
expect_grep "sources outside the root: file: URIs" "$TMP/out.sarif" \
	"\"artifactLocation\": {\"uri\": \"file://$SRC/columns/columns.c\"}"

# the validators do reject a bad file: a bare absolute path under a base
# (the SDK's rules), a tool without a name (the schema)
sed 's|"uri": "columns/|"uri": "/columns/|' "$TMP/root.sarif" >"$TMP/bad-uri.sarif"
sed 's|"name": "ksunset", ||' "$TMP/root.sarif" >"$TMP/bad-schema.sarif"
if [ -n "$have_mt" ]; then
	for bad in uri schema; do
		"$MT" validate "$TMP/bad-$bad.sarif" -o "$TMP/bad-$bad.mt" --log ForceOverwrite >/dev/null 2>&1
		python3 "$SP" multitool "$TMP/bad-$bad.mt" >"$TMP/v-$bad" 2>&1
	done
	expect_grep "the multitool rejects a bare absolute path" "$TMP/v-uri" "SARIF1004 error"
	expect_grep "the multitool rejects a tool without a name" "$TMP/v-schema" "JSON1002 error"
fi
if [ -n "$have_schema" ]; then
	"$have_schema" "$SP" schema "$SCHEMA" "$TMP/bad-schema.sarif" >"$TMP/v" 2>&1
	expect_grep "the schema rejects a tool without a name" "$TMP/v" "'name' is a required property"
fi

# A baseline of every use today; then an unrelated edit moves every line
# and a new function uses simple_strtoul once more.
chk --today 2026-01-01 --source-root "$SRC" --write-baseline "$TMP/base" "$L" "$C" >/dev/null 2>&1
cp -r "$TOP/tests/modules/columns" "$TMP/edit"
sed -i '1i /* an unrelated edit: every line moves down */' "$TMP/edit/columns.c"
cat >>"$TMP/edit/columns.c" <<'EOC'

unsigned long columns_more(void);
unsigned long columns_more(void)
{
	return simple_strtoul("4", NULL, 10);
}
EOC
kbuild "$TMP/edit" "$SRC/columns" KCFLAGS="$KCF" || { fail "rebuild columns"; cat "$SRC/columns.log"; exit 0; }
chk --today 2026-01-01 --source-root "$SRC" --baseline "$TMP/base" --format sarif -o "$TMP/base.sarif" \
	"$L" "$C" "$P" 2>/dev/null
chk --today 2026-01-01 --source-root "$SRC" --baseline "$TMP/base" --format json -o "$TMP/base.json" \
	"$L" "$C" "$P" 2>/dev/null
validate "a baseline" "$TMP/base.sarif"
uses "a baseline (accepted uses suppressed, the rest not)" "$TMP/base.sarif" "$TMP/base.json"
expect_eq "a baseline: the new use and the proprietary module's two findings unsuppressed" \
	"$(grep -c '"suppressions": \[\]' "$TMP/base.sarif")" 3
python3 "$SP" fingerprints "$TMP/root.sarif" | sort >"$TMP/fp.before"
python3 "$SP" fingerprints "$TMP/base.sarif" | sort >"$TMP/fp.after"
comm -13 "$TMP/fp.before" "$TMP/fp.after" >"$TMP/fp.new"
echo "columns/simple_strtoul/columns/columns.c/columns_more/1" >"$TMP/fp.want"
expect_file_eq "fingerprints: only the new use's is new, though every line moved" "$TMP/fp.new" "$TMP/fp.want"
expect_eq "fingerprints: none lost" "$(comm -23 "$TMP/fp.before" "$TMP/fp.after" | wc -l)" 0
