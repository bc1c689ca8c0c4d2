#!/usr/bin/env python3
"""check --target's forecast against real builds (bench/validate-target.sh).

Each DKMS package of the TSV files is built against Debian 12's 6.1
headers with the plugin and its api argument, forecast with check --target
on bookworm-backports' 6.12 headers (one Kbuild run of the probes, no
cache), then really built against those headers with make -k: once as it
is and, when the forecast found a gone header with a namesake, once more
with the forecast's header in its place (a fatal error stops a file; the
second build reaches the rest). Compared, per package:

  modules       the .ko the 6.1 build left that a Kbuild modules.order
                lists (all of them when there is none), less the Kbuild
                trees of configure's probes: a tree (the topmost folder
                with a modules.order and those below it) none of whose
                modules dkms.conf's BUILT_MODULE_NAME names (zfs's build/)
  error lines   file:line of every error the real builds report in the
                package's own files; an error GCC reports in a kernel
                header (or anywhere outside the package) whose "in expansion
                of macro" notes point into the package counts at the
                outermost of those lines (where the module expands it);
                "following others" are left out of them and listed: a name
                undeclared because the line of its file that declares it is
                an error line itself, the end of a non-void function
                reached because an earlier error line of it dropped the
                return (fixing that line fixes these; the totals also give
                "located" counting them as missed)
  located       those that are a forecast location, or whose macro
                expansion the compiler notes at one
  forecast      the forecast's locations: every location in the package's
                files of a finding that is a break (has a "kind") or whose
                remedy is source-change; "compile" those on a line with no
                error in a file the real builds compiled to its end (a false
                alarm); "repeats" those naming what GCC reported earlier in
                the file (an implicit declaration is reported once per unit,
                an undeclared name once per function, or once per unit at
                file scope; the name is the one the source writes there:
                strlcpy, where the import is fortify_panic); "unreached" those in
                a file the builds did not compile or a fatal error stopped
  unknown       the modules whose outlook is unknown (each listed under
                "What remains" with the forecast's reason)
  outlook       what the forecast tells each module: when the package fails
                to build, not every module may be told it builds, and no
                module one of whose own files (its .mod's objects and their
                dependencies) has an error line

A build command may run several makes (joined with ; or &&): the 6.12
build gives each its -k and runs the next one even when one fails (&& is
turned into ;); a build fails when the command does, or any make it runs
itself does (a make wrapper first in PATH records those; the makes of a
configure script or of a Makefile are not its own). Each build step, the
fetch and the forecast have a time limit (KSUNSET_VALIDATE_TIMEOUT
seconds, 1800 by default); a package that cannot be fetched, does not
build on 6.1, whose forecast fails or whose 6.12 build times out gets one
row saying so, and the run goes on. Progress goes to stderr.

Prints the Markdown table, the totals against the goals, the lists of what
is missed or wrong, and the cost of the forecast against one real build
(wall and CPU seconds, make and compiler included).

  validate_target.py KSUNSET K H TSV...

TSV: package, srcdir prefix, .ko count, build command (run in S; $K, $S,
$R, <release>, ${K%-amd64}-common expand; a trailing "   (...)" is a note)
and optionally extra bookworm packages the build needs (fetched, never
installed; $R is the root they are unpacked in). Lines after an
"# excluded:" comment, up to the next "# main"/"# contrib"/"# non-free",
and packages named by one are skipped.

KSUNSET_VALIDATE_ONLY=pkg,pkg picks packages; KSUNSET_VALIDATE_KEEP=DIR
keeps the builds (DIR/pkg/a: 6.1 with the plugin, b: 6.12) and their logs
(a.log, b.log, b2.log, forecast.json, forecast.err).
"""
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

KS, K, H = sys.argv[1:4]
TSVS = sys.argv[4:]
TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FETCH = os.path.join(TOP, "scripts", "fetch-debian.sh")
COMPONENTS = os.environ.get("KSUNSET_DEBIAN_COMPONENTS") or "main contrib non-free"
ENV = dict(os.environ, LANG="C", LC_ALL="C", LC_MESSAGES="C", MAKEFLAGS="-j2",
           KSUNSET_DEBIAN_COMPONENTS=COMPONENTS)
TIMEOUT = int(os.environ.get("KSUNSET_VALIDATE_TIMEOUT") or 1800)
MAKE = shutil.which("make") or "/usr/bin/make"
START = time.monotonic()
# KSUNSET_VALIDATE_FIX=1: ksunset fix too, against the maintainers' newer
# version of each failing package (the first of these suites that has it)
FIX = bool(os.environ.get("KSUNSET_VALIDATE_FIX"))
NEWER_SUITES = ("bookworm-backports", "trixie")

DIAG = re.compile(r"^([^\s:]+):(\d+):(?:\d+:)? (fatal error|error|warning): (.*)$")
IN_FN = re.compile(r"^([^\s:]+): In function '([^']+)':$")
TOP_LEVEL = re.compile(r"^([^\s:]+): At top level:$")
EXPANSION = re.compile(r"^([^\s:]+):(\d+):\d+: note: in expansion of macro")
CC = re.compile(r"^\s+CC \[M\]\s+(\S+)\.o$")
ENTER = re.compile(r"^make(?:\[\d+\])?: Entering directory '([^']+)'")
MAKEWORD = re.compile(r"(?<![\w./$=-])make(?=[ \t]|$)")


def progress(pkg, what, t0=None):
    el = " (%.1f s)" % (time.monotonic() - t0) if t0 is not None else ""
    print("validate [%s] %s: %s%s" % (time.strftime("%H:%M:%S"), pkg, what, el),
          file=sys.stderr, flush=True)


def run(cmd, cwd=None, env=ENV, log=None, timeout=TIMEOUT):
    """Runs cmd (a shell line) in a session of its own, killed with all
    its processes after timeout seconds; returns (status, output, wall,
    cpu, timed out)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, shell=True, cwd=cwd, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, start_new_session=True)
    late = False
    try:
        out, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        late = True
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, _ = p.communicate()
    out = out.decode(errors="replace")
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if log:
        with open(log, "w") as f:
            f.write(out)
    return p.returncode, out, wall, cpu, late


def strip_note(cmd):
    """The command without its trailing note: a "(...)" at the end, with
    nested parentheses, after white space, that is not a subshell (after
    ;, &&, || or |)."""
    cmd = cmd.rstrip()
    if not cmd.endswith(")"):
        return cmd
    depth = 0
    for i in range(len(cmd) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(cmd[i], 0)
        if depth == 0:
            break
    else:
        return cmd
    head = cmd[:i]
    if i == 0 or not head[-1].isspace() or head.rstrip().endswith((";", "&", "|", "$")):
        return cmd
    return head.rstrip()


def build_cmd(cmd, kdir, src, root, fails):
    """The TSV's command with K, S and R; a Makefile that finds the kernel
    by KVER under /lib/modules (the old corpus's ddcci) gets the tree as
    KDIR, as DKMS would find it installed. The shell's pid is KSV_TOP, for
    the make wrapper; the command's status is the shell's."""
    rel = os.path.basename(kdir).replace("linux-headers-", "")
    cmd = strip_note(cmd).replace("<release>", rel)
    if "KVER=" in cmd and "$K" not in cmd:
        cmd = cmd.replace("make ", "make KDIR=$K ", 1)
    return ("KSV_TOP=$$ KSV_FAILS='%s'; export KSV_TOP KSV_FAILS; K='%s' S='%s' R='%s'; "
            "{ %s\n}; ksv_st=$?; exit $ksv_st" % (fails, kdir, src, root, cmd))


def real_cmd(cmd):
    """The 6.12 build: -k to each make, and every make run when one fails."""
    return MAKEWORD.sub("make -k", cmd.replace("&&", ";"))


def make_wrapper(work):
    """A make first in PATH that records the failures of the makes the
    command runs itself (those whose parent is the command's shell)."""
    d = os.path.join(work, "bin")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "make"), "w") as f:
        f.write('#!/bin/sh\n%s "$@"\ns=$?\n'
                'if [ "$s" != 0 ] && [ -n "${KSV_FAILS:-}" ] && [ "$PPID" = "${KSV_TOP:-}" ]; then\n'
                '\techo "make $*: exit $s" >>"$KSV_FAILS"\nfi\nexit $s\n' % MAKE)
    os.chmod(os.path.join(d, "make"), 0o755)
    return d


def installed(c, kdir, log):
    """The command c run where /lib/modules/RELEASE/build is kdir, as
    DKMS finds a kernel installed: a package's own configure script that
    reads /lib/modules/$KVER/build whatever KDIR says (nvidia-fs-dkms's)
    would otherwise test the running kernel's headers, or none. Where the
    machine has no such folder for kdir's release, a mount namespace of
    the build's own shows /lib/modules with it added (its entries as they
    are); c itself where it has one, or where that cannot be made (not
    root, no unshare)."""
    rel = os.path.basename(kdir).replace("linux-headers-", "")
    if os.path.exists(os.path.join("/lib/modules", rel)) or os.geteuid() != 0 or \
            not shutil.which("unshare"):
        return c
    top = log + ".lib-modules"
    shutil.rmtree(top, ignore_errors=True)
    view, orig = os.path.join(top, "view"), os.path.join(top, "orig")
    os.makedirs(os.path.join(view, rel))
    os.makedirs(orig)
    for e in os.listdir("/lib/modules"):
        os.symlink(os.path.join(orig, e), os.path.join(view, e))
    os.symlink(kdir, os.path.join(view, rel, "build"))
    q = lambda x: "'" + x.replace("'", "'\\''") + "'"
    return "unshare -m sh -c %s" % q("mount --bind /lib/modules %s && mount --bind %s /lib/modules && "
                                      "exec sh -c %s" % (q(orig), q(view), q(c)))


def build(cmd, kdir, src, root, env, log, real=False):
    """(failed, output, wall, cpu, timed out, reason)"""
    fails = log + ".fails"
    if os.path.exists(fails):
        os.unlink(fails)
    c = installed(build_cmd(real_cmd(cmd) if real else cmd, kdir, src, root, fails), kdir, log)
    st, out, wall, cpu, late = run(c, cwd=src, env=env, log=log)
    made = open(fails).read().splitlines() if os.path.exists(fails) else []
    reason = "a make: %s" % made[0].rsplit(": ", 1)[-1] if made else ("status %d" % st if st else "")
    return st != 0 or bool(made), out, wall, cpu, late, reason


def dkms_names(src):
    """The modules dkms.conf's BUILT_MODULE_NAME names (those spelled
    without a variable other than PACKAGE_NAME), or None."""
    try:
        text = open(os.path.join(src, "dkms.conf"), errors="replace").read()
    except OSError:
        return None
    m = re.search(r'^\s*PACKAGE_NAME=["\']?([^"\'\s]+)', text, re.M)
    names = set()
    for n in re.findall(r'^\s*BUILT_MODULE_NAME\[[^]]*\]=["\']?([^"\'\s]+)', text, re.M):
        if m:
            n = n.replace("${PACKAGE_NAME}", m.group(1)).replace("$PACKAGE_NAME", m.group(1))
        if "$" not in n:
            names.add(n)
    return names or None


def modules(src):
    """The package's modules: the .ko under src that Kbuild's modules.order
    files list (all when there is none), less the trees of configure's
    probes; and how many .ko were left out."""
    kos = sorted(os.path.join(d, n) for d, _, fs in os.walk(src) for n in fs if n.endswith(".ko"))
    orders = sorted(d for d, _, fs in os.walk(src) if "modules.order" in fs)
    if not orders:
        return kos, 0
    listed = {}	# .ko -> the topmost folder with a modules.order above its list
    oset = set(orders)
    for d in orders:
        top, p = d, d
        while p != src and p.startswith(src + "/"):
            p = os.path.dirname(p)
            if p in oset:
                top = p
        for e in open(os.path.join(d, "modules.order"), errors="replace").read().split():
            e = re.sub(r"\.o$", ".ko", e)
            if e.startswith("kernel/"):
                e = e[7:]
            cands = [e] if os.path.isabs(e) else [os.path.join(a, e) for a in (d, top, src)]
            # moved after the build, as DKMS recipes do (openafs: mv
            # src/libafs/MODLOAD-*/openafs.ko .): the one .ko of that name
            moved = [k for k in kos if os.path.basename(k) == os.path.basename(e)]
            for c in cands + (moved if len(moved) == 1 else []):
                c = os.path.normpath(c)
                if os.path.exists(c):
                    listed.setdefault(c, top)
                    break
    mods = [k for k in kos if k in listed]
    names = dkms_names(src)
    if names:
        trees = {t for k, t in listed.items() if os.path.basename(k)[:-3] in names}
        if trees:
            mods = [k for k in mods if listed[k] in trees]
    if not mods:
        mods = kos
    return mods, len(kos) - len(mods)


class Parse:
    """What the real builds reported: error lines {(file relative to src,
    line): (message, function)}, the lines each one's macro expansion notes
    name in the package (.expanded), the files a fatal error stopped, the .c
    files the build compiled, and the errors outside the package with no
    line of its own (.outside)."""

    def __init__(self, src):
        self.src = src
        self.lines, self.expanded, self.fatal, self.compiled = {}, {}, set(), set()
        self.outside = {}

    def mine(self, p):
        return p.startswith(self.src + "/")

    def rel(self, p):
        return os.path.relpath(p, self.src)

    def add(self, out):
        cwd, cur, fn = None, None, {}

        def path(p):
            return os.path.normpath(p if os.path.isabs(p) or not cwd else os.path.join(cwd, p))

        def close(cur):
            if not cur:
                return
            p, line, kind, msg, notes, in_fn = cur
            if self.mine(p):
                key = (self.rel(p), line)
                if kind == "fatal error":
                    self.fatal.add(key[0])
            elif notes:
                key = notes[-1]	# the outermost: where the module expands it
            else:
                self.outside.setdefault("%s:%d: %s" % (p, line, msg), None)
                return
            self.lines.setdefault(key, (msg, in_fn if self.mine(p) else ""))
            self.expanded.setdefault(key, set()).update(notes)

        for l in out.splitlines():
            m = ENTER.match(l)
            if m:
                cwd = m.group(1)
                continue
            m = EXPANSION.match(l)
            if m:
                p = path(m.group(1))
                if cur and self.mine(p):
                    cur[4].append((self.rel(p), int(m.group(2))))
                continue
            m = CC.match(l)
            if m and self.mine(path(m.group(1))):
                self.compiled.add(self.rel(path(m.group(1))) + ".c")
                continue
            m = DIAG.match(l)
            if m:
                close(cur)
                cur = None
                if m.group(3) != "warning":
                    # the function GCC named last for this file: the one the
                    # diagnostic is in
                    p = path(m.group(1))
                    cur = (p, int(m.group(2)), m.group(3), m.group(4), [], fn.get(p, ""))
                continue
            m = IN_FN.match(l)
            if m:
                fn[path(m.group(1))] = m.group(2)
                continue
            m = TOP_LEVEL.match(l)
            if m:
                fn[path(m.group(1))] = ""
        close(cur)


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
    before loc: the line is as broken as the one it reported. So is a
    member of a struct whose array or variable GCC reported incomplete
    before it: it reports the declaration once, not its initializers."""
    whole = name.split(".")[0] if name and name.startswith(("struct ", "union ")) else None
    for (f, line), (msg, fn) in errs.items():
        if whole and whole != name and f == loc[0] and line <= loc[1] and \
                "incomplete" in msg and "'%s'" % whole in msg:
            return True
        implicit = "implicit declaration of function '%s'" % name in msg
        if implicit and f.endswith(".h"):	# reported in the header, once per unit
            return True
        if f != loc[0] or line >= loc[1]:
            continue
        if implicit:
            return True
        if "'%s' undeclared" % name in msg and fn and fn == loc[2]:
            return True
        # at file scope ("undeclared here"), once per unit
        if "'%s' undeclared here" % name in msg and not loc[2]:
            return True
    return False


def consequence(e, errs, src):
    """Whether error line e only follows from another error line of its
    file: a name undeclared because the line that declares it is itself an
    error line (DEFINE_SEMAPHORE(core_lock) with 6.1's arity: every use of
    core_lock), or the end of a non-void function reached because an
    earlier error line of the same function dropped its return. Fixing the
    other line fixes this one; the user has nothing to change here."""
    msg, fn = errs[e]
    m = re.match(r"'(\w+)' undeclared", msg)
    for (f, line), (msg2, fn2) in errs.items():
        if f != e[0] or line >= e[1]:
            continue
        if msg.startswith("control reaches end of non-void function") and fn and fn2 == fn:
            return True
        if m and "undeclared" not in msg2 and re.search(r"\b%s\b" % m.group(1), source_line(src, f, line)):
            return True
    return False


def source_line(src, f, line):
    try:
        with open(os.path.join(src, f), errors="replace") as h:
            for i, t in enumerate(h, 1):
                if i == line:
                    return t
    except OSError:
        pass
    return ""


class ForecastError(Exception):
    pass


def forecast(kos, src, work, pkgdir):
    """The forecast's locations {(file, line): (kind or rule, symbol,
    function)}, the outlooks, the header replacements, and its cost."""
    env = dict(ENV, KSUNSET_CACHE=os.path.join(work, "cache"))
    errf = os.path.join(pkgdir, "forecast.err")
    st, out, wall, cpu, late = run("'%s' check --target '%s' --format json %s 2>'%s'" %
                                   (KS, H, " ".join("'%s'" % k for k in kos), errf),
                                   env=env, log=os.path.join(pkgdir, "forecast.json"))
    err = open(errf, errors="replace").read().strip().splitlines()
    last = (err[-1] if err else "no message")[:140]
    if late:
        raise ForecastError("forecast timed out after %d s" % TIMEOUT)
    if st not in (0, 1):
        raise ForecastError("forecast %s (%s)" % (
            "crashed, status %d" % st if st != 2 else "refused the input", last))
    try:
        doc = json.loads(out)
        findings = doc["findings"]
    except (ValueError, KeyError, TypeError) as e:
        raise ForecastError("forecast printed invalid JSON (%s; %s)" % (str(e)[:60], last))
    locs, subst = {}, {}
    for f in findings:
        if "kind" not in f and f.get("remedy") != "source-change":
            continue
        what = f.get("kind") or f.get("rule", "?")
        for l in f.get("locations", []):
            if l["file"].startswith(src + "/"):
                # the name the source writes there (strlcpy for fortify_panic)
                locs.setdefault((os.path.relpath(l["file"], src), l["line"]),
                                (what, l.get("written_as") or f.get("symbol"), l.get("function")))
        if f.get("kind") == "header-gone" and f.get("header"):
            subst[f["symbol"]] = "<%s>" % f["header"]
    outlooks = [(os.path.basename(m["module"]), m["outlook"], m.get("message", ""))
                for m in doc.get("modules", [])]
    return locs, outlooks, subst, wall, cpu


def substitute(src, subst):
    for root, _, files in os.walk(src):
        for n in files:
            if not n.endswith((".c", ".h")):
                continue
            p = os.path.join(root, n)
            if os.path.islink(p):
                continue
            with open(p, errors="replace") as f:
                text = f.read()
            new = text
            for old, alt in subst.items():
                new = new.replace("#include " + old, "#include " + alt)
            if new != text:
                with open(p, "w") as f:
                    f.write(new)


def cell(s, n=110):
    return s.strip().replace("|", "\\|")[:n]


def first_error(out):
    """The first error a compiler reported, else the first line speaking
    of an error (configure's, modpost's, make's)."""
    for l in out.splitlines():
        m = DIAG.match(l)
        if m and m.group(3) != "warning":
            return "%s:%s: %s: %s" % (os.path.basename(m.group(1)), m.group(2), m.group(3),
                                      m.group(4))
    ls = out.splitlines()
    for i, l in enumerate(ls):
        if "configure: error:" in l:
            why = l.split("configure: error:", 1)[1].strip() or next(
                (x.strip(" \t*") for x in ls[i + 1:] if x.strip(" \t*")), "")
            return "configure: error: " + why
    for l in ls:
        if re.search(r"error", l, re.I) and not re.search(
                r"not remade because of errors|warnings being treated as errors|^checking ", l):
            return l.strip()
    return ""


def srcdir(root, pkg, prefix):
    """The package's folder under root/usr/src: one its .deb holds when it
    can be told, else the last with the prefix."""
    debs = sorted(n for n in os.listdir(os.path.join(os.path.dirname(root), "debs"))
                  if n.startswith(pkg + "_") and n.endswith(".deb")) \
        if os.path.isdir(os.path.join(os.path.dirname(root), "debs")) else []
    if debs:
        p = subprocess.run(["dpkg-deb", "-c", os.path.join(os.path.dirname(root), "debs", debs[-1])],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        for l in p.stdout.splitlines():
            m = re.search(r"\./usr/src/([^/]+)/$", l)
            if m and m.group(1).startswith(prefix) and os.path.isdir(
                    os.path.join(root, "usr/src", m.group(1))):
                return m.group(1)
    srcs = sorted(d for d in os.listdir(os.path.join(root, "usr/src")) if d.startswith(prefix))
    return srcs[-1] if srcs else None


def package(pkg, prefix, count, cmd, extras, work, out):
    rows, notes, costs = out["rows"], out["notes"], out["costs"]
    pkgdir = os.path.join(work, pkg)
    os.makedirs(pkgdir, exist_ok=True)

    def row(why):
        rows.append("| %s | %s ||||||||||||" % (pkg, cell(why, 160)))
        progress(pkg, why)

    t0 = time.monotonic()
    progress(pkg, "fetch" + (" with " + " ".join(extras) if extras else ""))
    st, got, _, _, late = run("'%s' bookworm get %s %s 2>&1" % (FETCH, pkg, " ".join(extras)),
                              timeout=TIMEOUT)
    lines = got.strip().splitlines()
    root = lines[-1] if st == 0 and lines else None
    src = srcdir(root, pkg, prefix) if root and os.path.isdir(os.path.join(root, "usr/src")) else None
    if not src:
        row("fetch failed: %s" % ("timed out" if late else (lines[-1] if lines else "status %d" % st)
                                   if st else "no /usr/src/%s* in it" % prefix))
        return
    orig = os.path.join(root, "usr/src", src)
    a, b = os.path.join(pkgdir, "a"), os.path.join(pkgdir, "b")
    shutil.copytree(orig, a, symlinks=True)
    shutil.copytree(orig, b, symlinks=True)
    flags = subprocess.run([KS, "--cflags", "--api", "--kernel-dir", K], env=dict(
        ENV, KSUNSET_SCHEDULE=""), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True).stdout.strip()
    env = dict(ENV, KCFLAGS=flags, PATH=out["bin"] + ":" + ENV.get("PATH", "/usr/bin:/bin"))
    progress(pkg, "6.1 build of %s" % src, t0)
    failed, log, _, _, late, why = build(cmd, K, a, root, env, a + ".log")
    kos, probes = modules(a)
    if late or failed or not kos:
        row("does not build on 6.1 (%s): %s" % (
            "timed out after %d s" % TIMEOUT if late else why or "no .ko", first_error(log)))
        return
    if count is not None and len(kos) != count:
        notes.append("- %s: %d module(s), the TSV says %d%s" % (
            pkg, len(kos), count, " (%d probe .ko of configure left out)" % probes if probes else ""))
    progress(pkg, "forecast of %d module(s)" % len(kos), t0)
    try:
        locs, outlooks, subst, fwall, fcpu = forecast(kos, a, work, pkgdir)
    except ForecastError as e:
        row(str(e))
        return
    # the real builds: as it is, then with the forecast's header in its place
    progress(pkg, "6.12 build", t0)
    env = dict(ENV, PATH=env["PATH"])
    fails, out1, rwall, rcpu, late, why = build(cmd, H, b, root, env, b + ".log", real=True)
    if late:
        row("6.12 build timed out after %d s" % TIMEOUT)
        return
    errs = Parse(a)
    errs.add(out1.replace(b + "/", a + "/"))
    fatal, compiled = set(errs.fatal), set(errs.compiled)
    if subst:
        progress(pkg, "6.12 build with %s" % ", ".join(sorted(subst.values())), t0)
        substitute(b, subst)
        _, out2, _, _, late2, _ = build(cmd, H, b, root, env, b + "2.log", real=True)
        e2 = Parse(a)
        e2.add(out2.replace(b + "/", a + "/"))
        for k, v in e2.lines.items():
            errs.lines.setdefault(k, v)
            errs.expanded.setdefault(k, set()).update(e2.expanded.get(k, set()))
        for k in e2.outside:
            errs.outside.setdefault(k, None)
        fatal = fatal & e2.fatal if not late2 else fatal
        compiled |= e2.compiled
    costs.append((pkg, fwall, fcpu, rwall, rcpu))
    # a .c file no module is built from is a probe's (a configure test)
    mfiles = set().union(*[module_files(k, a) for k in kos])
    probe = sorted(e for e in errs.lines if mfiles and e[0].endswith(".c") and e[0] not in mfiles)
    if probe:
        notes.append("- %s: %d error line(s) left out, in files no module is built from, e.g. "
                     "%s:%d: %s" % (pkg, len(probe), probe[0][0], probe[0][1],
                                    errs.lines[probe[0]][0][:120]))
    for e in probe:
        del errs.lines[e]
    expanded = errs.expanded
    follows = sorted(e for e in errs.lines if consequence(e, errs.lines, a))
    lines = {e: v for e, v in errs.lines.items() if e not in follows}
    located = [e for e in lines if e in locs or expanded.get(e, set()) & set(locs)]
    missed = sorted(e for e in lines if e not in located)
    expanding = set().union(*[expanded.get(e, set()) for e in lines])
    ok_files = compiled - fatal
    unreached = [l for l in locs if l not in lines and l not in expanding and
                 (l[0] not in ok_files if l[0].endswith(".c") else not ok_files)]
    repeats = [l for l in locs if l not in lines and l not in unreached and
               repeat(l + (locs[l][2],), locs[l][1], lines)]
    compile_ok = sorted(l for l in locs if l not in lines and l not in expanding and
                        l not in unreached and l not in repeats)
    # told it builds: the whole package when its build fails, or a module
    # one of whose own files has an error line
    err_files = {e[0] for e in lines}
    told = {o[0]: o[1] for o in outlooks}
    wrong = sorted(os.path.basename(k) for k in kos if told.get(os.path.basename(k)) ==
                   "builds-and-loads" and module_files(k, a) & err_files)
    if fails and outlooks and all(o[1] == "builds-and-loads" for o in outlooks):
        wrong = wrong or ["the package"]
    unknown = [o for o in outlooks if o[1] == "unknown"]
    rows.append("| %s | %d | %s | %d | %d | %d | %d | %d | %d | %d | %d | %s | %s |" % (
        pkg, len(kos), "fails" if fails else "ok", len(lines), len(follows), len(located), len(locs),
        len(compile_ok), len(repeats), len(unreached), len(unknown),
        "; ".join("%s: %s" % (o[0], o[1]) for o in outlooks),
        "no: %s told it builds" % ", ".join(wrong) if wrong else "yes"))
    for e in missed:
        notes.append("- %s: missed %s:%d: %s" % (pkg, e[0], e[1], lines[e][0][:160]))
    for e in follows:
        notes.append("- %s: follows from another error %s:%d: %s" % (
            pkg, e[0], e[1], errs.lines[e][0][:160]))
    for l in compile_ok:
        notes.append("- %s: compiles %s:%d (%s %s)" % (pkg, l[0], l[1], locs[l][0], locs[l][1]))
    for o in unknown:
        notes.append("- %s: %s unknown: %s" % (pkg, o[0], o[2][:200]))
    if fails and not lines:
        notes.append("- %s: the 6.12 build fails (%s) without an error line in its files%s" % (
            pkg, why, ": " + first_error(out1)[:160] if first_error(out1) else ""))
    if errs.outside:
        o = list(errs.outside)
        notes.append("- %s: %d error(s) outside its files with no line of its own, e.g. %s" % (
            pkg, len(o), o[0][:200]))
    if FIX and fails:
        fix_check(pkg, prefix, cmd, root, orig, a, kos, env, len(lines), mfiles, pkgdir, out, t0)
    progress(pkg, "done", t0)
    out["totals"].append((len(lines), len(located), len(locs), len(compile_ok), bool(wrong),
                          len(unknown), len(kos), len(follows)))


def squeeze(s):
    return re.sub(r"\s+", "", s)


def newer_source(pkg, prefix, root):
    """The package's newer version (NEWER_SUITES, the first that has
    another .deb than bookworm's, fetched into a folder of its own):
    (suite and .deb, its /usr/src folder), or None."""
    mine = {n for n in os.listdir(os.path.join(os.path.dirname(root), "debs"))
            if n.startswith(pkg + "_")}
    for suite in NEWER_SUITES:
        d = os.path.join(os.environ.get("KSUNSET_CACHE") or "/var/cache/ksunset", "debian-" + suite)
        st, got, _, _, _ = run("'%s' -d '%s' %s get %s 2>&1" % (FETCH, d, suite, pkg),
                               timeout=TIMEOUT)
        lines = got.strip().splitlines()
        r = lines[-1] if st == 0 and lines else None
        if not r or not os.path.isdir(os.path.join(r, "usr/src")):
            continue
        debs = sorted(n for n in os.listdir(os.path.join(d, "debs")) if n.startswith(pkg + "_"))
        if not debs or debs[-1] in mine:
            continue
        src = srcdir(r, pkg, prefix)
        if src:
            return "%s %s" % (suite, debs[-1]), os.path.join(r, "usr/src", src)
    return None


def heads(tree, fn):
    """The heads of the function fn (definitions and declarations) in the
    .c and .h files of tree: (what comes before its name on its line, its
    parameters, blanks squeezed) of each."""
    found = []
    pat = re.compile(r"\b%s\s*\(" % re.escape(fn))
    for d, _, files in os.walk(tree):
        for name in files:
            if not name.endswith((".c", ".h")):
                continue
            text = open(os.path.join(d, name), errors="replace").read()
            for m in pat.finditer(text):
                depth, i = 0, m.end() - 1
                while i < len(text):
                    depth += {"(": 1, ")": -1}.get(text[i], 0)
                    if not depth:
                        break
                    i += 1
                if text[i + 1:].lstrip()[:1] not in ("{", ";", "#"):
                    continue
                params = [squeeze_blanks(x) for x in split_top(text[m.end():i])]
                found.append((text[text.rfind("\n", 0, m.start()) + 1:m.start()], params))
    return found


def squeeze_blanks(s):
    return " ".join(s.split())


def const_macros(tree):
    """The object-like macros the .c and .h files of tree define as const,
    or as const and what follows, in some branch (dahdi's UEVENT_CONST:
    const from 6.3, empty before; ddcci's CSTRUCT, "const struct")."""
    found = set()
    pat = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+const\b[^\n]*$", re.M)
    for d, _, files in os.walk(tree):
        for name in files:
            if name.endswith((".c", ".h")):
                found.update(pat.findall(open(os.path.join(d, name), errors="replace").read()))
    return found


def split_top(s):
    """The parts of s between its commas outside parentheses."""
    parts, depth, cur = [], 0, ""
    for c in s:
        depth += {"(": 1, ")": -1}.get(c, 0)
        if c == "," and not depth:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    return parts + [cur]


def same_head(tree, f):
    """Whether a head of the module's callback in the newer version tree
    made the change the break's fix makes: the parameter (or the return
    type, argument 0) made const (or of a macro the tree defines as const
    for the kernels that need it), retyped to the new struct, or dropped (as
    many parameters as the member takes on the target); its name, and the
    other parameters, as they may be."""
    rws = (f.get("fix") or {}).get("rewrites") or []
    if not f.get("callback") or not rws:
        return False
    rw, k = rws[0], rws[0].get("argument") or 0
    const = r"\b(?:%s)\b" % "|".join(["const"] + sorted(const_macros(tree)))
    takes = re.search(r"\(\*\)\((.*)\)$", f.get("new") or "")
    for before, params in heads(tree, f["callback"]):
        if rw["op"] == "drop" and takes and len(params) == len(split_top(takes.group(1))):
            return True
        if rw["op"] == "const" and not k and re.search(const, before):
            return True
        if not k or k > len(params):
            continue
        if rw["op"] == "const" and re.match(const, params[k - 1]):
            return True
        if rw["op"] == "retype" and re.search(r"\b%s\b" % re.escape(rw["text"]), params[k - 1]):
            return True
    return False


def same_line(path, x):
    """Whether the newer version's file at path has the line as the fix x
    makes it (blanks aside): the #include, the line rewritten, or no longer
    the line deleted."""
    text = squeeze(open(path, errors="replace").read())
    if (x["before"] or "").startswith("<"):
        return squeeze("include" + x["after"]) in text
    if not x["after"]:	# the line deleted
        return squeeze(x["before"]) not in text
    return squeeze(x["after"]) in text


def fix_check(pkg, prefix, cmd, root, orig, a, kos, env, errors, mfiles, pkgdir, out, t0):
    """ksunset fix against what the maintainers wrote: each break's fix
    looked for in the newer version's same file (the rewritten call or
    #include, blanks aside; a callback's head, same_head()), and the patch applied to the 6.1 source and
    built against both kernels. A fix's file is the one a link of the
    build leads to."""
    progress(pkg, "fix", t0)
    cenv = dict(ENV, KSUNSET_CACHE=os.path.join(os.path.dirname(pkgdir), "cache"))
    try:
        findings = [f for f in json.load(open(os.path.join(pkgdir, "forecast.json")))["findings"]
                    if "kind" in f]
    except (ValueError, KeyError, OSError):
        out["fixrows"].append("| %s | check --target's JSON unreadable |||||||||" % pkg)
        return
    newer = newer_source(pkg, prefix, root)
    breaks = fixed = same = 0
    for f in findings:
        for l in f.get("locations", []):
            if not l["file"].startswith(a + "/"):
                continue
            breaks += 1
            # the break's fix (the call at its first location rewritten, a
            # header, a callback's head), else its rewrite of this line
            # (an assignment of a member gone, where the break's entry is
            # of its reads)
            x = f.get("fix")
            if (not x or not x.get("single") or x.get("after") is None) and l.get("fix"):
                x = dict(l["fix"], single=True)
            # a deletion's after is "" (the line gone), none is null
            if not x or not x.get("single") or x.get("after") is None:
                continue
            fixed += 1
            rel = os.path.relpath(os.path.realpath(l["file"]), a)
            verdict = "no newer version"
            if newer:
                try:
                    # a callback's head: the same change of its parameter's
                    # type, wherever the newer version defines or declares
                    # it, whatever it names it; else the line in its file
                    found = same_head(newer[1], f) if f.get("kind") == "callback-prototype" \
                        else same_line(os.path.join(newer[1], rel), x)
                    verdict = "same" if found else "other"
                except OSError:
                    verdict = "file gone in the newer version"
            same += verdict == "same"
            out["notes"].append("- %s: fix %s:%d %s -> %s: %s" % (
                pkg, rel, l["line"], x["before"], x["after"],
                "the maintainers' (%s) too" % newer[0] if verdict == "same" else verdict))
    patch = os.path.join(pkgdir, "fix.patch")
    run("'%s' fix --target '%s' -o '%s' %s" % (KS, H, patch, " ".join("'%s'" % k for k in kos)),
        cwd=a, env=cenv)
    rewritten = 0
    if os.path.exists(patch):
        # a line rewritten has its #else; an #include added, its #endif alone
        rewritten = sum(1 for l in open(patch, errors="replace")
                        if l.startswith("+#endif"))
    after = built12 = built61 = "-"
    if rewritten:
        results = []
        for kdir, name in ((H, "c"), (K, "d")):
            c = os.path.join(pkgdir, name)
            shutil.rmtree(c, ignore_errors=True)
            shutil.copytree(orig, c, symlinks=True)
            run("patch -p1 -s <'%s'" % patch, cwd=c)
            fl, o, _, _, _, _ = build(cmd, kdir, c, root, dict(ENV, PATH=env["PATH"]),
                                      c + ".log", real=True)
            e = Parse(a)
            e.add(o.replace(c + "/", a + "/"))
            # counted as the 6.12 error lines are: not those of configure's
            # probes, nor those that follow from others
            results.append((fl, len([k for k in e.lines if not consequence(k, e.lines, a) and
                                     not (mfiles and k[0].endswith(".c") and
                                          k[0] not in mfiles)])))
        after = str(results[0][1])
        built12 = "no" if results[0][0] else "yes"
        built61 = "no" if results[1][0] else "yes"
    out["fixrows"].append("| %s | %d | %d | %d | %d | %d | %s | %s | %s |" % (
        pkg, breaks, fixed, same, rewritten, errors, after, built12, built61))
    out["fixtotals"].append((breaks, fixed, same, rewritten, errors,
                             int(after) if after != "-" else errors, built12 == "yes",
                             built61 != "no"))


def table(columns, rows, totals, n):
    """Prints a Markdown table of rows under columns; the sums of the
    first n fields of totals."""
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for r in rows:
        print(r)
    return [sum(x[i] for x in totals) for i in range(n)]


def print_fix(out):
    print()
    t = out["fixtotals"]
    b, f, m, r, e, a, ok12, ok61 = table(
        ["package", "break lines", "with a fix", "the maintainers' too", "lines rewritten",
         "6.12 error lines", "after the patch", "builds on 6.12 with it", "builds on 6.1 with it"],
        out["fixrows"], t, 8)
    pm, pr = 100.0 * m / max(b, 1), 100.0 * (e - a) / max(e, 1)
    print("\nIn all (%d failing package(s)): %d break lines, %d with a fix, %d of them what the "
          "maintainers wrote (%.1f%% of the breaks); %d lines rewritten; %d of %d error lines on "
          "6.12 gone with the patch (%.1f%%); %d package(s) build on 6.12 with the patch alone; "
          "%d of %d still build on 6.1." % (len(t), b, f, m, pm, r, e - a, e, pr, ok12, ok61,
                                            len(t)))
    goals = [("at least 75% of breaks get the maintainers' fix", pm >= 75.0),
             ("the patch removes at least 70% of the 6.12 error lines", pr >= 70.0),
             ("at least half of the failing packages build on 6.12 with the patch alone",
              2 * ok12 >= len(t)),
             ("no package stops building on 6.1", ok61 == len(t))]
    print("Goals: " + "; ".join("%s: %s" % (g, "met" if ok else "NOT met") for g, ok in goals) + ".")


def tsv_packages(only):
    for tsv in TSVS:
        excluded, named = False, set()
        for line in open(tsv):
            s = line.rstrip("\n")
            if s.startswith("#"):
                t = s[1:].strip()
                if t.startswith("excluded"):
                    excluded = True
                    w = t.split(":", 1)[1].split() if ":" in t else []
                    if w:
                        named.add(w[0])
                elif t in ("main", "contrib", "non-free", "non-free-firmware"):
                    excluded = False
                continue
            if not s.strip():
                continue
            cols = s.split("\t")
            if len(cols) < 4:
                print("validate: %s: not a package line: %s" % (tsv, s[:60]), file=sys.stderr)
                continue
            pkg = cols[0]
            if only and pkg not in only:
                continue
            if excluded or pkg in named:
                progress(pkg, "excluded in %s: skipped" % tsv)
                continue
            count = int(cols[2]) if cols[2].strip().isdigit() else None
            extras = cols[4].split() if len(cols) > 4 else []
            yield pkg, cols[1], count, cols[3], extras


def main():
    keep = os.environ.get("KSUNSET_VALIDATE_KEEP")
    only = [p for p in os.environ.get("KSUNSET_VALIDATE_ONLY", "").split(",") if p]
    work = os.path.abspath(keep) if keep else tempfile.mkdtemp(prefix="ksunset-validate.")
    if keep:
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
    out = {"rows": [], "notes": [], "costs": [], "totals": [], "bin": make_wrapper(work),
           "fixrows": [], "fixtotals": []}
    try:
        for pkg, prefix, count, cmd, extras in tsv_packages(only):
            try:
                package(pkg, prefix, count, cmd, extras, work, out)
            except Exception as e:	# one row, and the run goes on
                out["rows"].append("| %s | validation failed: %s ||||||||||||" % (
                    pkg, cell("%s: %s" % (type(e).__name__, e), 160)))
                progress(pkg, "validation failed: %s: %s" % (type(e).__name__, e))
            if not keep:
                shutil.rmtree(os.path.join(work, pkg), ignore_errors=True)
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)
    t = out["totals"]
    e, l, f, c, w, u, n, fo = table(
        ["package", ".ko", "6.12 build", "error lines", "following others", "located",
         "forecast lines", "on lines that compile", "repeats", "unreached", "unknown", "outlook",
         "no failing build told it builds"], out["rows"], t, 8)
    pl, pc, pu = 100.0 * l / max(e, 1), 100.0 * c / max(f, 1), 100.0 * u / max(n, 1)
    print("\nIn all (%d package(s) compared, %d without a result; %d module(s)): %d error lines "
          "(and %d that follow from others), %d located (%.1f%%; %.1f%% counting those that "
          "follow as missed); %d forecast lines, %d on lines that compile (%.1f%%); %d "
          "package(s) with a failing build or module told it builds; %d unknown outlook(s) "
          "(%.1f%% of modules)." %
          (len(t), len(out["rows"]) - len(t), n, e, fo, l, pl, 100.0 * l / max(e + fo, 1), f, c,
           pc, w, u, pu))
    goals = [("at least 90% of error lines located", pl >= 90.0 or not e),
             ("at most 5% of forecast lines on lines that compile", pc <= 5.0),
             ("no failing package or module told it builds", w == 0),
             ("unknown outlooks at most 5% of modules", pu <= 5.0)]
    print("Goals: " + "; ".join("%s: %s" % (g, "met" if ok else "NOT met") for g, ok in goals) + ".")
    if FIX:
        print_fix(out)
    if out["notes"]:
        print("\nWhat remains:")
        for x in out["notes"]:
            print(x)
    print("\n| package | forecast wall s | forecast CPU s | real build wall s | real build CPU s |")
    print("|---|---|---|---|---|")
    costs = out["costs"]
    for p, fw, fc, rw, rc in costs:
        print("| %s | %.1f | %.1f | %.1f | %.1f |" % (p, fw, fc, rw, rc))
    fw, fc, rw, rc = (sum(x[i] for x in costs) for i in range(1, 5))
    print("| all | %.1f | %.1f | %.1f | %.1f |" % (fw, fc, rw, rc))
    progress("all", "finished", START)


main()
