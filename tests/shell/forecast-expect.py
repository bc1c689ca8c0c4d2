#!/usr/bin/env python3
"""Checks check --target's JSON against the "forecast:" lines of a module's
sources, and those lines against the real build on the target
(t-target.sh's test of modules no one tuned the forecast on).

  forecast-expect.py JSON SRCDIR [BUILD-LOG]

Each source file of SRCDIR that the build compiled, and each header, may
state, in comment lines:
  forecast: break KIND NAME FILE:LINE   a break of that kind and name there
  forecast: remedy MODULE SYMBOL REMEDY the remedy of MODULE's import SYMBOL
  forecast: written MODULE SYMBOL NAME  the name its source writes for it
  forecast: outlook MODULE OUTLOOK      the module's outlook
  forecast: unknown MODULE TEXT         an unknown outlook whose reason holds TEXT
  forecast: says MODULE TEXT            the module's outlook message holds TEXT
  forecast: compiles FILE:LINE          a line no finding calls for a change of

Every line that a finding calls for a change of (a break, or an import whose
remedy is a source change) must be a "break" line: the user reads each as a
claim. With BUILD-LOG (the real build on the target, make -k), every break
line must be an error line there (or the line that expands the macro GCC
reports the error in), and no "compiles" line may be. Prints one
"PASS what" or "FAIL what: why" line per check.
"""
import json
import os
import re
import sys

doc = json.load(open(sys.argv[1]))
src = sys.argv[2].rstrip("/") + "/"
log = sys.argv[3] if len(sys.argv) > 3 else None
ANN = re.compile(r"^\W*forecast: (\w+) (.*)$")


def rel(path):
    path = os.path.normpath(path)	# Kbuild's "dotdot/../x.c" is x.c
    return path[len(src):] if path.startswith(src) else path


def report(ok, what, why=""):
    print(("PASS %s" % what) if ok else ("FAIL %s: %s" % (what, why)))


# the sources the build compiled (a .o beside them), and the headers they include
names = [n for n in sorted(os.listdir(src))
         if n.endswith(".c") and os.path.exists(src + n[:-2] + ".o")]
text = "".join(open(src + n, errors="replace").read() for n in names)
names += [n for n in sorted(os.listdir(src))
          if n.endswith(".h") and '#include "%s"' % n in text]
anns = []
for name in names:
    for line in open(src + name, errors="replace"):
        m = ANN.match(line)
        if m:
            anns.append((m.group(1), m.group(2).split()))

# what the user reads as "this line must change"
changes = {}
for f in doc["findings"]:
    if "kind" in f or f.get("remedy") == "source-change":
        for loc in f["locations"]:
            at = "%s:%d" % (rel(loc["file"]), loc["line"])
            changes.setdefault(at, []).append(f.get("kind", f.get("rule")) + " " + f["symbol"])
outlooks = {os.path.basename(m["module"]): m for m in doc.get("modules", [])}
breaks = set()

for what, args in anns:
    if what == "break":	# the name may hold blanks: "struct inode.i_mtime"
        kind, name, at = args[0], " ".join(args[1:-1]), args[-1]
        breaks.add(at)
        hit = any(f.get("kind") == kind and f["symbol"] == name and
                  any("%s:%d" % (rel(l["file"]), l["line"]) == at for l in f["locations"])
                  for f in doc["findings"])
        report(hit, "break %s %s at %s" % (kind, name, at),
               "not found; at that line: %s" % changes.get(at, "nothing"))
    elif what == "remedy":
        of = [f for f in doc["findings"] if f["symbol"] == args[1] and "target_status" in f and
              os.path.basename(f["module"]) == args[0]]
        report([f.get("remedy") for f in of] == [args[2]],
               "remedy of %s's %s: %s" % tuple(args[:3]),
               "got %s" % [(f.get("remedy"), f.get("remedy_why")) for f in of])
    elif what == "written":
        of = [f for f in doc["findings"] if f["symbol"] == args[1] and "target_status" in f and
              os.path.basename(f["module"]) == args[0]]
        report([f.get("written_as") for f in of] == [[args[2]]],
               "%s's %s as the source writes it: %s" % tuple(args[:3]),
               "got %s" % [f.get("written_as") for f in of])
    elif what == "outlook":
        m = outlooks.get(args[0])
        report(m and m["outlook"] == args[1], "outlook of %s: %s" % (args[0], args[1]),
               "got %r" % ((m and (m["outlook"], m["message"])),))
    elif what == "unknown":
        m = outlooks.get(args[0])
        text = " ".join(args[1:])
        report(m and m["outlook"] == "unknown" and text in m["message"],
               "outlook of %s: unknown, because %s" % (args[0], text),
               "got %r" % ((m and (m["outlook"], m["message"])),))
    elif what == "says":
        m = outlooks.get(args[0])
        text = " ".join(args[1:])
        report(m and text in m["message"], "outlook of %s says: %s" % (args[0], text),
               "got %r" % ((m and m["message"]),))
    elif what == "compiles":
        report(args[0] not in changes, "%s compiles: no finding calls for a change" % args[0],
               "%s" % changes.get(args[0]))
    else:
        report(False, "annotation '%s %s'" % (what, " ".join(args)), "unknown annotation")

# the probe's own names never reach the user
leaks = [l["compiler"] for f in doc["findings"] for l in f["locations"]
         if re.search(r"__ks_|'[vsrp]'|\ba[0-9]+\b", l.get("compiler") or "")]
report(not leaks, "the compiler's words name nothing of the probe's", "%s" % leaks)

for at, names in sorted(changes.items()):
    if at not in breaks:
        report(False, "%s is called a change" % at, "by %s, which no 'break' line states" % names)

if log:
    err = re.compile(r"^(/[^:\s]+):(\d+):(?:\d+:)? (?:fatal )?error: ")
    note = re.compile(r"^(/[^:\s]+):(\d+):\d+: note: in expansion of macro")
    errors, last_error = set(), False
    for line in open(log, errors="replace"):
        m = err.match(line)
        if m:
            last_error = True
            if rel(m.group(1)) != os.path.normpath(m.group(1)):
                errors.add("%s:%s" % (rel(m.group(1)), m.group(2)))
            continue
        m = note.match(line)
        if m and last_error and rel(m.group(1)) != os.path.normpath(m.group(1)):
            errors.add("%s:%s" % (rel(m.group(1)), m.group(2)))
        elif not line.startswith((" ", "In file included", "  ")) and ": note:" not in line:
            last_error = False
    for what, args in anns:
        at = args[-1] if what == "break" else args[0] if what == "compiles" else None
        if at is None:
            continue
        if what == "break":
            report(at in errors, "the real build fails at %s" % at, "no error there")
        else:
            report(at not in errors, "the real build compiles %s" % at, "an error there")
