#!/bin/sh
# examples/distro-matrix: both CI files parse as YAML (PyYAML) and hold a
# kernels x packages matrix whose jobs run ksunset make and ksunset check
# --format sarif and keep the SARIF; the local Makefile runs the same
# matrix with make -j2.
. "$(dirname "$0")/lib.sh"
D="$TOP/examples/distro-matrix"
if ! python3 -c 'import yaml' 2>/dev/null; then
	skip "no PyYAML (scripts/install-deps.sh installs python3-yaml)"
else
	python3 - "$D/github-workflow.yml" "$D/gitlab-ci.yml" >"$TMP/yaml" 2>&1 <<'PY'
import sys, yaml

def ok(what, cond):
    print(("ok " if cond else "BAD ") + what)

def runs(steps):
    return "\n".join(str(s.get("run", "")) for s in steps)

gh = yaml.safe_load(open(sys.argv[1]))
on = gh.get("on", gh.get(True))  # YAML 1.1 reads a bare on as true
ok("github: triggers", isinstance(on, dict) and "push" in on)
check = gh["jobs"]["check"]
m = check["strategy"]["matrix"]
ok("github: matrix kernel x package", len(m["kernel"]) >= 2 and len(m["package"]) >= 1)
ok("github: needs the packages job", check["needs"] == "packages" and "packages" in gh["jobs"])
r = runs(check["steps"])
ok("github: ksunset make", "ksunset make" in r)
ok("github: ksunset check --format sarif", "ksunset check" in r and "--format sarif" in r)
up = [s for s in check["steps"] if str(s.get("uses", "")).startswith("github/codeql-action/upload-sarif")]
ok("github: SARIF uploaded per cell", len(up) == 1 and "matrix.kernel" in up[0]["with"]["category"]
   and up[0]["with"]["sarif_file"] == "ksunset.sarif" and up[0].get("if") == "always()")
ok("github: may upload", check["permissions"]["security-events"] == "write")
ok("github: builds the debs", "dpkg-buildpackage" in runs(gh["jobs"]["packages"]["steps"]))

gl = yaml.safe_load(open(sys.argv[2]))
job = gl["check"]
mx = job["parallel"]["matrix"][0]
ok("gitlab: matrix KERNEL x PACKAGE", len(mx["KERNEL"]) >= 2 and len(mx["PACKAGE"]) >= 1)
ok("gitlab: same kernels as github", mx["KERNEL"] == m["kernel"])
s = "\n".join(job["script"])
ok("gitlab: ksunset make", "ksunset make" in s)
ok("gitlab: ksunset check --format sarif", "ksunset check" in s and "--format sarif" in s)
ok("gitlab: SARIF kept", any(p.endswith(".sarif") for p in job["artifacts"]["paths"])
   and job["artifacts"]["when"] == "always")
ok("gitlab: stages", gl["stages"] == ["packages", "check"] and job["needs"] == ["packages"])
PY
	expect_eq "YAML parsed" "$?" 0
	while read -r st what; do
		[ "$st" = ok ] && pass "$what" || fail "$what"
	done <"$TMP/yaml"
	[ "$(grep -c '^ok ' "$TMP/yaml")" -ge 14 ] && pass "every YAML check ran" ||
		{ fail "every YAML check ran"; sed 's/^/  | /' "$TMP/yaml"; }
	printf 'jobs: [\n' >"$TMP/bad.yml"
	python3 -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' "$TMP/bad.yml" 2>/dev/null
	[ "$?" -ne 0 ] && pass "the parser rejects broken YAML" || fail "the parser rejects broken YAML"
fi

K=$(kdir)
if [ -z "$K" ]; then skip "no kernel headers: the local matrix was not run"; exit 0; fi
REL=$(basename "$K" | sed 's/^linux-headers-//')
make -s -C "$D" -j2 KSUNSET="$KSUNSET" KERNELS="$K" OUT="$TMP/out" \
	PACKAGES="$TOP/examples/rtc-legacy $TOP/tests/modules/legacy" \
	SCHEDULE="$TOP/tests/data/check.schedule" CHECK_ARGS="--today 2026-12-03" >"$TMP/matrix" 2>&1
expect_eq "make -j2: fails, a use is past its date" "$?" 2
expect_grep "summary: legacy has an error" "$TMP/matrix" "  $REL/legacy: 1"
expect_grep "summary: rtc-legacy listed" "$TMP/matrix" "  $REL/rtc-legacy: "
for p in rtc-legacy legacy; do
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["version"] == "2.1.0"' \
		"$TMP/out/$REL/$p/ksunset.sarif" && pass "$p: SARIF 2.1.0" || fail "$p: SARIF 2.1.0"
	expect_grep "$p: build log with the plugin's warnings" "$TMP/out/$REL/$p/build.log" \
		"is scheduled for removal"
done
expect_grep "legacy: the overdue use in its SARIF" "$TMP/out/$REL/legacy/ksunset.sarif" '"ruleId": "ksunset/overdue"'
exit 0
