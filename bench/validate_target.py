#!/usr/bin/env python3
"""check --target's forecast against real builds (bench/validate-target.sh).

Each DKMS package of the TSV files is built against Debian 12's 6.1
headers with the plugin and its api argument, forecast with check --target
on bookworm-backports' 6.12 headers (one Kbuild run of the probes, no
cache), then really built against those headers with make -k: once as it
is and, when the forecast found a gone header with a namesake, once more
with the forecast's header in its place (a fatal error stops a file; the
second build reaches the rest). Compared, per package:

  error lines   file:line of every error the real builds report in the
                package's own sources
  located       those that are a forecast location (the sites of its breaks),
                or whose macro expansion the compiler notes at one
  forecast      the forecast's locations; "compile" those on a line with no
                error in a file the real builds compiled to its end (a false
                alarm); "repeats" those naming what GCC reported earlier in
                the file (an implicit declaration is reported once per unit,
                an undeclared name once per function); "unreached" those in
                a file the builds did not compile or a fatal error stopped
  outlook       what the forecast tells each module: when the package fails
                to build, not every module may be told it builds, and no
                module one of whose own files (its .mod's objects and their
                dependencies) has an error line

Prints the Markdown table and the lists of what is missed or wrong, and the
cost of the forecast against one real build (wall and CPU seconds, make and
compiler included).

  validate_target.py KSUNSET K H TSV...

KSUNSET_VALIDATE_ONLY=pkg,pkg picks packages; KSUNSET_VALIDATE_KEEP=DIR
keeps the builds (DIR/pkg/a: 6.1 with the plugin, b: 6.12) and their logs.
"""
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

KS, K, H = sys.argv[1:4]
TSVS = sys.argv[4:]
TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FETCH = os.path.join(TOP, "scripts", "fetch-debian.sh")
ENV = dict(os.environ, LANG="C", LC_ALL="C", LC_MESSAGES="C", MAKEFLAGS="-j2")
ERR = re.compile(r"^(/[^:\s]+):(\d+):(?:\d+:)? (fatal )?error: (.*)$")


def run(cmd, cwd=None, env=ENV, log=None):
    """Runs cmd (a shell line); returns (status, output, wall, cpu)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, shell=True, cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, errors="replace")
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if log:
        with open(log, "w") as f:
            f.write(p.stdout)
    return p.returncode, p.stdout, wall, cpu


def build_cmd(cmd, kdir, src):
    """The TSV's command with K and S; a Makefile that finds the kernel by
    KVER under /lib/modules (ddcci's) gets the tree as KDIR, as DKMS would
    find it installed."""
    rel = os.path.basename(kdir).replace("linux-headers-", "")
    cmd = re.sub(r" *\(.*\)$", "", cmd).replace("<release>", rel)
    if "KVER=" in cmd and "KDIR=" not in cmd:
        cmd = cmd.replace("make ", "make KDIR=$K ", 1)
    return "K=%s S=%s; %s" % (kdir, src, cmd)


IN_FN = re.compile(r"^(/[^:\s]+): In function '([^']+)':$")
EXPANSION = re.compile(r"^(/[^:\s]+):(\d+):\d+: note: in expansion of macro")
CC = re.compile(r"^\s+CC \[M\]\s+(/\S+)\.o$")


def error_lines(out, src):
    """{(file relative to src, line): (message, function)}, the files a
    fatal error stopped, and the .c files the build compiled. An error
    spelled in a macro is at the lines its expansion notes name too (the
    source line that expands it): those are in .expanded[error]."""
    lines, fatal, compiled, fn = {}, set(), set(), {}
    last = None
    for l in out.splitlines():
        m = EXPANSION.match(l)
        if m and last and m.group(1).startswith(src + "/"):
            EXPANDED.setdefault(last, set()).add((os.path.relpath(m.group(1), src),
                                                  int(m.group(2))))
            continue
        m = CC.match(l)
        if m and m.group(1).startswith(src + "/"):
            compiled.add(os.path.relpath(m.group(1), src) + ".c")
        m = IN_FN.match(l)
        if m:
            fn[m.group(1)] = m.group(2)
        m = ERR.match(l)
        if not m or not m.group(1).startswith(src + "/"):
            continue
        f = os.path.relpath(m.group(1), src)
        last = (f, int(m.group(2)))
        lines.setdefault(last, (m.group(4), fn.get(m.group(1), "")))
        if m.group(3):
            fatal.add(f)
    return lines, fatal, compiled


EXPANDED = {}


def module_files(ko, src):
    """The files of the package that a module's objects were compiled from
    (Kbuild's NAME.mod and each object's dependencies), relative to src."""
    files = set()
    try:
        objs = open(ko[:-3] + ".mod").read().split()
    except OSError:
        return files
    for o in objs:
        o = o if os.path.isabs(o) else os.path.join(src, o)
        files.add(os.path.relpath(o[:-2] + ".c", src))
        cmd = os.path.join(os.path.dirname(o), "." + os.path.basename(o) + ".cmd")
        try:
            deps = open(cmd, errors="replace").read().replace("\\\n", " ").split()
        except OSError:
            continue
        files.update(os.path.relpath(d, src) for d in deps if d.startswith(src + "/"))
    return files


def repeat(loc, name, errs):
    """Whether GCC, which reports an implicit declaration once per file and
    an undeclared name once per function, reported name in loc's file
    before loc: the line is as broken as the one it reported."""
    for (f, line), (msg, fn) in errs.items():
        implicit = "implicit declaration of function '%s'" % name in msg
        if implicit and f.endswith(".h"):	# reported in the header, once per unit
            return True
        if f != loc[0] or line >= loc[1]:
            continue
        if implicit:
            return True
        if "'%s' undeclared" % name in msg and fn and fn == loc[2]:
            return True
    return False


def forecast(kos, src, work):
    """The forecast's locations {(file, line): kind name}, the outlooks, the
    header replacements, and its cost."""
    env = dict(ENV, KSUNSET_CACHE=os.path.join(work, "cache"))
    st, out, wall, cpu = run("%s check --target %s --format json %s 2>/dev/null" %
                             (KS, H, " ".join(kos)), env=env)
    doc = json.loads(out)
    locs, subst = {}, {}
    for f in doc["findings"]:
        if "kind" not in f:
            continue
        for l in f["locations"]:
            if l["file"].startswith(src + "/"):
                locs.setdefault((os.path.relpath(l["file"], src), l["line"]),
                                (f["kind"], f["symbol"], l["function"]))
        if f["kind"] == "header-gone" and f["header"]:
            subst[f["symbol"]] = "<%s>" % f["header"]
    outlooks = [(os.path.basename(m["module"]), m["outlook"], m["message"])
                for m in doc.get("modules", [])]
    return locs, outlooks, subst, wall, cpu


def substitute(src, subst):
    for root, _, files in os.walk(src):
        for n in files:
            if not n.endswith((".c", ".h")):
                continue
            p = os.path.join(root, n)
            with open(p, errors="replace") as f:
                text = f.read()
            new = text
            for old, alt in subst.items():
                new = new.replace("#include " + old, "#include " + alt)
            if new != text:
                with open(p, "w") as f:
                    f.write(new)


def package(pkg, prefix, cmd, work, rows, notes, costs):
    EXPANDED.clear()
    st, root, _, _ = run("%s bookworm get %s 2>/dev/null" % (FETCH, pkg))
    root = root.strip().splitlines()[-1] if st == 0 and root.strip() else None
    srcs = sorted(d for d in os.listdir(os.path.join(root, "usr/src")) if d.startswith(prefix)) \
        if root else []
    if not srcs:
        rows.append("| %s | fetch failed ||||||||||" % pkg)
        return
    orig = os.path.join(root, "usr/src", srcs[-1])
    a, b = os.path.join(work, pkg, "a"), os.path.join(work, pkg, "b")
    shutil.copytree(orig, a, symlinks=True)
    shutil.copytree(orig, b, symlinks=True)
    flags = subprocess.run([KS, "--cflags", "--api", "--kernel-dir", K], env=dict(
        ENV, KSUNSET_SCHEDULE=""), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True).stdout.strip()
    env = dict(ENV, KCFLAGS=flags)
    run(build_cmd(cmd, K, a), cwd=a, env=env, log=a + ".log")
    kos = sorted(os.path.join(d, n) for d, _, fs in os.walk(a) for n in fs if n.endswith(".ko"))
    if not kos:
        first = next((l for l in open(a + ".log", errors="replace") if "error:" in l), "")
        rows.append("| %s | none: does not build on 6.1 (%s) ||||||||||" %
                    (pkg, os.path.basename(first.strip())[:100].replace("|", "\\|")))
        return
    locs, outlooks, subst, fwall, fcpu = forecast(kos, a, work)
    # the real builds: as it is, then with the forecast's header in its place
    st1, out1, rwall, rcpu = run(build_cmd(cmd, H, b).replace("make ", "make -k ", 1), cwd=b,
                                 log=b + ".log")
    errs, fatal, compiled = error_lines(out1.replace(b + "/", a + "/"), a)
    fails = st1 != 0
    if subst:
        substitute(b, subst)
        _, out2, _, _ = run(build_cmd(cmd, H, b).replace("make ", "make -k ", 1), cwd=b)
        e2, f2, c2 = error_lines(out2.replace(b + "/", a + "/"), a)
        for k, v in e2.items():
            errs.setdefault(k, v)
        fatal = {f for f in fatal if f in f2}
        compiled |= c2
    costs.append((pkg, fwall, fcpu, rwall, rcpu))
    located = [e for e in errs if e in locs or EXPANDED.get(e, set()) & set(locs)]
    missed = sorted(e for e in errs if e not in located)
    expanding = set().union(*[EXPANDED.get(e, set()) for e in errs])
    ok_files = compiled - fatal
    unreached = [l for l in locs if l not in errs and l not in expanding and
                 (l[0] not in ok_files if l[0].endswith(".c") else not ok_files)]
    repeats = [l for l in locs if l not in errs and l not in unreached and
               repeat(l + (locs[l][2],), locs[l][1], errs)]
    compile_ok = sorted(l for l in locs if l not in errs and l not in expanding and
                        l not in unreached and l not in repeats)
    # told it builds: the whole package when its build fails, or a module
    # one of whose own files has an error line
    err_files = {e[0] for e in errs}
    told = {o[0]: o[1] for o in outlooks}
    wrong = sorted(os.path.basename(k) for k in kos if told.get(os.path.basename(k)) ==
                   "builds-and-loads" and module_files(k, a) & err_files)
    if fails and outlooks and all(o[1] == "builds-and-loads" for o in outlooks):
        wrong = wrong or ["the package"]
    rows.append("| %s | %d | %s | %d | %d | %d | %d | %d | %d | %s | %s |" % (
        pkg, len(kos), "fails" if fails else "ok", len(errs), len(located), len(locs),
        len(compile_ok), len(repeats), len(unreached),
        "; ".join("%s: %s" % (o[0], o[1]) for o in outlooks),
        "no: %s told it builds" % ", ".join(wrong) if wrong else "yes"))
    for e in missed:
        notes.append("- %s: missed %s:%d: %s" % (pkg, e[0], e[1], errs[e][0][:160]))
    for l in compile_ok:
        notes.append("- %s: compiles %s:%d (%s %s)" % (pkg, l[0], l[1], locs[l][0], locs[l][1]))
    return len(errs), len(located), len(locs), len(compile_ok), bool(wrong)


def main():
    keep = os.environ.get("KSUNSET_VALIDATE_KEEP")
    only = [p for p in os.environ.get("KSUNSET_VALIDATE_ONLY", "").split(",") if p]
    work = keep or tempfile.mkdtemp(prefix="ksunset-validate.")
    if keep:
        shutil.rmtree(keep, ignore_errors=True)
        os.makedirs(keep)
    rows, notes, costs = [], [], []
    totals = [0, 0, 0, 0, 0]
    try:
        for tsv in TSVS:
            for line in open(tsv):
                if line.startswith("#") or not line.strip():
                    continue
                pkg, prefix, _, cmd = line.rstrip("\n").split("\t")[:4]
                if only and pkg not in only:
                    continue
                r = package(pkg, prefix, cmd, work, rows, notes, costs)
                if r:
                    totals = [t + int(x) for t, x in zip(totals, r)]
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)
    print("| package | .ko | 6.12 build | error lines | located | forecast lines | "
          "on lines that compile | repeats | unreached | outlook | no failing build told it builds |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(r)
    e, l, f, c, w = totals
    print("\nIn all: %d error lines, %d located (%.1f%%); %d forecast lines, %d on lines "
          "that compile (%.1f%%); %d package(s) with a failing build told it builds." %
          (e, l, 100.0 * l / max(e, 1), f, c, 100.0 * c / max(f, 1), w))
    if notes:
        print("\nWhat remains:")
        for n in notes:
            print(n)
    print("\n| package | forecast wall s | forecast CPU s | real build wall s | real build CPU s |")
    print("|---|---|---|---|---|")
    for p, fw, fc, rw, rc in costs:
        print("| %s | %.1f | %.1f | %.1f | %.1f |" % (p, fw, fc, rw, rc))
    fw, fc, rw, rc = (sum(c[i] for c in costs) for i in range(1, 5))
    print("| all | %.1f | %.1f | %.1f | %.1f |" % (fw, fc, rw, rc))


main()
