"""Checks of ksunset's SARIF for t-sarif.sh; each prints one line that the
script greps for, or fails with the reason.

  sarif.py multitool OUT.sarif    the SARIF SDK's verdict (its -o log): no
                                  error, no warning but a missing
                                  informationUri
  sarif.py schema SCHEMA FILE     FILE holds to the JSON schema (jsonschema)
  sarif.py uses FILE REPORT.json  one result per use of the JSON report of
                                  the same run, each placed where it is
  sarif.py fingerprints FILE      the fingerprints, one a line
"""
import json
import os
import sys
import urllib.parse

KEY = "ksunset/v2"
# The one warning the SDK gives that ksunset has nothing for: no web page.
ALLOWED = {"Warning_ProvideToolnformationUri"}


def multitool(log):
    run = json.load(open(log))["runs"][0]
    for inv in run.get("invocations", []):
        assert inv.get("executionSuccessful", True), inv
    bad = [r for r in run.get("results", [])
           if r.get("level", "warning") in ("error", "warning")
           and r["message"].get("id") not in ALLOWED]
    for r in bad:
        print(r["ruleId"], r.get("level", "warning"), r["message"])
    assert not bad, "%d problems" % len(bad)
    print("multitool: valid")


def schema(schema_file, sarif):
    import jsonschema
    s = json.load(open(schema_file))
    cls = jsonschema.validators.validator_for(s)
    cls.check_schema(s)
    errors = list(cls(s).iter_errors(json.load(open(sarif))))
    for e in errors:
        print(e.json_path if hasattr(e, "json_path") else list(e.path), e.message)
    assert not errors, "%d schema errors" % len(errors)
    print("schema: valid")


def file_of(art, base):
    """The absolute path an artifactLocation names."""
    uri = art["uri"]
    if "uriBaseId" in art:
        assert art["uriBaseId"] == "SRCROOT" and ":" not in uri.split("/")[0], art
        assert not uri.startswith("/"), art
        uri = base + uri
    assert uri.startswith("file:///"), art
    return urllib.parse.unquote(uri[len("file://"):])


def text_at(path, line, col):
    """The text of path from line, UTF-16 column col."""
    text = open(path, encoding="utf-8").read().split("\n")[line - 1]
    return text.encode("utf-16-le")[2 * (col - 1):].decode("utf-16-le")


def check_use(res, f, loc, base):
    phys = res["locations"][0]["physicalLocation"]
    path = file_of(phys["artifactLocation"], base)
    assert os.path.samefile(path, loc["file"]), (path, loc)
    region = phys["region"]
    assert region["startLine"] == loc["line"], (region, loc)
    at = text_at(path, loc["line"], region["startColumn"])
    assert at.startswith(f["symbol"]), (region, loc, at)
    want = []
    if loc["baselined"]:
        want.append({"kind": "external", "status": "accepted",
                     "justification": "accepted by the ksunset baseline"})
    if loc["accepted"] and loc["reason"] is not None:
        want.append({"kind": "inSource", "status": "accepted",
                     "justification": loc["reason"]})
    assert res["suppressions"] == want, res


def check_unplaced(res, f):
    loc = res["locations"][0]
    assert "physicalLocation" not in loc, loc
    assert loc["logicalLocations"] == [{
        "name": f["symbol"], "kind": "member",
        "fullyQualifiedName": "%s.ko/%s" % (f["module_name"], f["symbol"])}], loc
    assert bool(res["suppressions"]) == f["baselined"], res


def uses(sarif, report):
    run = json.load(open(sarif))["runs"][0]
    findings = json.load(open(report))["findings"]
    base = run["originalUriBaseIds"]["SRCROOT"]["uri"]
    assert base.startswith("file:///") and base.endswith("/"), base
    results = iter(run["results"])
    n = 0
    for f in findings:
        for loc in f["locations"] or [None]:
            res = next(results)
            assert res["ruleId"] == f["rule"], (res, f)
            if loc:
                check_use(res, f, loc, base)
            else:
                check_unplaced(res, f)
            n += 1
    assert next(results, None) is None, "more results than uses"
    fps = [r["partialFingerprints"][KEY] for r in run["results"]]
    assert len(set(fps)) == len(fps), fps
    print("uses: %d results, one per use" % n)


def fingerprints(sarif):
    for r in json.load(open(sarif))["runs"][0]["results"]:
        print(r["partialFingerprints"][KEY])


if __name__ == "__main__":
    {"multitool": multitool, "schema": schema, "uses": uses,
     "fingerprints": fingerprints}[sys.argv[1]](*sys.argv[2:])
