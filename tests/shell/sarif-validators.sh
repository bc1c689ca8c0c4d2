# The SARIF validators for t-sarif.sh and t-vendor-ci.sh, sourced after
# lib.sh: the SARIF SDK's multitool ($MT, $have_mt) and python3-jsonschema
# against the 2.1.0 schema its package ships ($have_schema, $SCHEMA), each
# with a SKIP line when it cannot be had; validate WHAT FILE runs both.
# shellcheck shell=sh
SP="$TOP/tests/shell/sarif.py"

# The multitool, from the npm registry into a cache that the worktrees
# share: KSUNSET_TOOLS_CACHE, else /var/cache/ksunset, else build/tools.
MT_VERSION=5.7.0
cache=${KSUNSET_TOOLS_CACHE:-/var/cache/ksunset}
{ mkdir -p "$cache" && [ -w "$cache" ]; } 2>/dev/null || cache=$TOP/build/tools
mtdir=$cache/sarif-multitool-$MT_VERSION
MT=$mtdir/node_modules/.bin/sarif-multitool
SCHEMA=$mtdir/node_modules/@microsoft/sarif-multitool-linux/sarif-2.1.0.json
if [ ! -x "$MT" ] && command -v npm >/dev/null; then
	mkdir -p "$mtdir"
	# one install at a time, and none half done: other tests share it
	# shellcheck disable=SC2016
	flock "$mtdir.lock" sh -c '[ -x "$1" ] || timeout 600 npm install --prefix "$2" \
		--no-audit --no-fund --no-update-notifier "@microsoft/sarif-multitool@$3"' \
		sh "$MT" "$mtdir" "$MT_VERSION" >"$TMP/npm.log" 2>&1
fi
have_mt="" have_schema=""
if "$MT" --version >/dev/null 2>&1; then have_mt=1; else
	skip "no SARIF multitool: npm cannot install it (registry not reached?) or it does not run"
	grep -m 5 -E 'code|errno|network|ENOTFOUND|ECONN' "$TMP/npm.log" 2>/dev/null | sed 's/^/  | /'
fi
for py in /usr/bin/python3 python3; do
	if "$py" -c 'import jsonschema' 2>/dev/null; then
		have_schema=$py
		break
	fi
done
if [ -z "$have_schema" ]; then
	skip "no schema check: no python3-jsonschema (scripts/install-deps.sh installs it)"
elif [ ! -f "$SCHEMA" ]; then
	skip "no schema check: the 2.1.0 schema comes with the multitool's package"
	have_schema=""
fi

# validate WHAT FILE: both validators find nothing wrong with FILE.
validate() {
	if [ -n "$have_mt" ]; then
		"$MT" validate "$2" -o "$2.mt" --log ForceOverwrite >"$TMP/mt.out" 2>&1
		python3 "$SP" multitool "$2.mt" >"$TMP/v" 2>&1
		expect_grep "$1: valid for the SARIF SDK's multitool" "$TMP/v" "multitool: valid"
	fi
	if [ -n "$have_schema" ]; then
		"$have_schema" "$SP" schema "$SCHEMA" "$2" >"$TMP/v" 2>&1
		expect_grep "$1: holds to the SARIF 2.1.0 schema" "$TMP/v" "schema: valid"
	fi
}
