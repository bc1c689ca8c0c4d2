#!/usr/bin/env python3
"""tests/shell/t-dwarf.sh's reader: the uses a source's "dwarf:" comments
expect, or the uses a `ksunset check --format json` report gives, one a
line as "FILE:LINE SYMBOL KIND WHERE" (FILE: the base name; WHERE: the
function, or the initialized variable and its member), sorted.
Usage: dwarf-uses.py expect SOURCE...   |   dwarf-uses.py got SOURCE < REPORT
(SOURCE of got: which locations to list, dwarf or plugin)"""
import json
import os
import re
import sys


def expect(paths):
    out = []
    for p in paths:
        with open(p, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                m = re.search(r"/\* dwarf: (.*) \*/", line)
                for use in (m.group(1).split(";") if m else []):
                    out.append(f"{os.path.basename(p)}:{n} {' '.join(use.split())}")
    return out


def got(source):
    out = []
    for f in json.load(sys.stdin)["findings"]:
        for loc in f["locations"]:
            if loc["source"] != source:
                continue
            where = loc["function"]
            if "variable" in loc:
                where = f"{loc['variable']} {loc['member']}".strip()
            out.append(f"{os.path.basename(loc['file'])}:{loc['line']} {f['symbol']} "
                       f"{loc['kind']} {where}".rstrip())
    return out


lines = expect(sys.argv[2:]) if sys.argv[1] == "expect" else got(sys.argv[2])
for line in sorted(lines):
    print(line)
