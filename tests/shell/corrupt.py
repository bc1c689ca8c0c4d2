#!/usr/bin/env python3
"""Corrupt-input generator and checker for `ksunset check` (t-corrupt.sh).

Derives broken files from a real module: truncations at many offsets, and
bytes flipped in the ELF header, the section headers, the symbol table,
.modinfo and .note.ksunset. Each is checked together with good modules:

  corrupt.py KSUNSET SCHEDULE SYMVERS WORKDIR BASE.ko GOOD...

For every case the run must not crash, hang or print a sanitizer report;
the good modules' findings must be exactly those they have when checked
alone, and no message may name anything but the broken file. Then either
  - exit 2 and exactly one message naming the file (unusable, or usable
    with a malformed record), or
  - exit 0/1, no message about the file, the file counted as checked, its
    findings only about scheduled symbols, and the exit status the one its
    findings and the good ones call for.
A truncated file and a file whose ELF magic is flipped must give exit 2.
Prints "PASS t-corrupt: ..." / "FAIL t-corrupt: ..." lines for lib.sh.
"""
import json
import os
import random
import struct
import subprocess
import sys

NAME = "t-corrupt"
TODAY = "2026-12-03"
failures = 0


def report(ok, what, detail=""):
    global failures
    print("%s %s: %s" % ("PASS" if ok else "FAIL", NAME, what))
    if not ok:
        failures += 1
        for line in detail.splitlines()[:30]:
            print("  | " + line)


class Elf:
    """The parts of an ELF64 little-endian relocatable object we corrupt."""

    def __init__(self, data):
        assert data[:4] == b"\x7fELF" and data[4] == 2 and data[5] == 1, "ELF64 LE only"
        self.data = data
        (self.shoff,) = struct.unpack_from("<Q", data, 0x28)
        self.shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
        self.shdrs = []
        for i in range(shnum):
            f = struct.unpack_from("<IIQQQQIIQQ", data, self.shoff + i * self.shentsize)
            self.shdrs.append({"name": f[0], "type": f[1], "offset": f[4], "size": f[5],
                               "link": f[6], "entsize": f[9]})
        strtab = self.shdrs[shstrndx]
        for s in self.shdrs:
            o = strtab["offset"] + s["name"]
            s["sname"] = data[o:data.index(b"\0", o)].decode()

    def section(self, name):
        return next((s for s in self.shdrs if s["sname"] == name), None)

    def shdr_offset(self, i):
        return self.shoff + i * self.shentsize


def cases(elf, rng):
    """(kind, label, bytes) for every broken file."""
    data, size = elf.data, len(elf.data)
    offs = set(range(0, 80, 4)) | {size * k // 48 for k in range(48)} | {size - 1, size - 64}
    for s in elf.shdrs:
        if s["type"] != 8 and s["size"]:  # not NOBITS
            offs |= {s["offset"], s["offset"] + s["size"] // 2, s["offset"] + s["size"] - 1}
    for i in range(0, len(elf.shdrs), 3):
        offs.add(elf.shdr_offset(i) + 20)
    for o in sorted(x for x in offs if 0 < x < size):
        yield "truncated", "truncated to %d bytes" % o, data[:o]

    def flip(where, off, mask):
        b = bytearray(data)
        b[off] ^= mask
        return "flip", "%s: byte %#x ^ %#x" % (where, off, mask), bytes(b)

    for off in range(64):  # the whole ELF header
        for mask in (0x01, 0x80, 0xFF):
            yield flip("ELF header", off, mask)
    # section header fields: name, type, offset, size, link, entsize
    fields = {"sh_name": 0, "sh_type": 4, "sh_offset": 24, "sh_size": 32, "sh_link": 40,
              "sh_entsize": 56}
    for i, s in enumerate(elf.shdrs):
        picked = fields.items() if s["sname"] in (".symtab", ".strtab", ".modinfo",
                                                  ".note.ksunset", ".shstrtab") \
            else rng.sample(sorted(fields.items()), 2)
        for fname, fo in picked:
            for byte, mask in ((0, 0xFF), (3, 0x80), (7, 0x40)):
                if fo == 4 or fo == 0 or fo == 40:
                    byte = min(byte, 3)
                yield flip("section %d (%s) %s" % (i, s["sname"], fname),
                           elf.shdr_offset(i) + fo + byte, mask)
    sym = elf.section(".symtab")
    nsyms = sym["size"] // 24
    for k in rng.sample(range(1, nsyms), min(40, nsyms - 1)):
        base = sym["offset"] + 24 * k
        for fo, mask in ((0, 0xFF), (3, 0x80), (4, 0x10), (4, 0xF0), (6, 0xFF), (7, 0xFF),
                         (8, 0x01)):
            yield flip("symbol %d" % k, base + fo, mask)
    for name, n in ((".modinfo", 40), (".note.ksunset", 80), (".strtab", 20)):
        s = elf.section(name)
        if not s:
            continue
        body = range(s["offset"], s["offset"] + s["size"])
        picks = rng.sample(body, min(n, len(body)))
        if name == ".note.ksunset":  # the note headers and record separators too
            picks += list(range(s["offset"], s["offset"] + 12))
            picks += [o for o in body if data[o] in (0, 9)][:30]
        for off in sorted(set(picks)):
            yield flip(name, off, 0xFF if data[off] in (0, 9) else rng.choice((0x01, 0x20, 0x80)))


def run(argv, timeout=30):
    # sanitizer reports (SANITIZE=1) on stderr, with an exit status of their own
    env = dict(os.environ, LC_ALL="C", ASAN_OPTIONS="detect_leaks=1:exitcode=86",
               UBSAN_OPTIONS="print_stacktrace=1:exitcode=86")
    return subprocess.run(argv, capture_output=True, text=True, errors="replace",
                          timeout=timeout, env=env)


def findings_of(doc, module):
    return sorted(json.dumps(f, sort_keys=True) for f in doc["findings"] if f["module"] == module)


class Checker:
    def __init__(self, ksunset, sched, symvers, goods):
        self.ksunset, self.goods = ksunset, goods
        self.common = ["-s", sched, "-i", symvers, "--today", TODAY, "--format", "json"]
        self.scheduled = set()
        for line in open(sched):
            if line.startswith("What:"):
                self.scheduled |= set(line[5:].replace(",", " ").split())
        p = self.check(goods)
        doc = json.loads(p.stdout)
        assert p.returncode in (0, 1) and doc["modules_checked"] == len(goods), p.stderr
        self.want = {g: findings_of(doc, g) for g in goods}

    def check(self, modules, args=(), prefix=()):
        return run(list(prefix) + [self.ksunset, "check"] + self.common + list(args) + modules)

    def problems(self, path, p):
        """What is wrong with the run on [path] + goods, or None."""
        if p.returncode < 0:
            return "killed by signal %d" % -p.returncode
        if "Sanitizer" in p.stderr or "runtime error" in p.stderr:
            return "sanitizer report"
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            return "no JSON report (exit %d)" % p.returncode
        lines = [l for l in p.stderr.splitlines() if not l.startswith("ksunset: ")]
        about = [l for l in lines if l.startswith(path + ": ")]
        if len(about) != len(lines):
            return "messages not naming the file: %r" % (set(lines) - set(about))
        for g in self.goods:
            if findings_of(doc, g) != self.want[g]:
                return "findings of the good module %s changed" % g
        if p.returncode == 2:
            if len(about) != 1:
                return "exit 2 with %d messages naming the file" % len(about)
            n = doc["modules_checked"] - len(self.goods)
            if n not in (0, 1) or (n == 1) != (".note.ksunset record" in about[0]):
                return "modules_checked %d for: %s" % (doc["modules_checked"], about[0])
            return None
        if p.returncode not in (0, 1):
            return "exit %d" % p.returncode
        if about or doc["modules_checked"] != len(self.goods) + 1:
            return "exit %d but %d messages, %d modules checked" % (
                p.returncode, len(about), doc["modules_checked"])
        mine = [f for f in doc["findings"] if f["module"] == path]
        if any(f["symbol"] not in self.scheduled for f in mine):
            return "finding for a symbol not in the schedule"
        errors = any(f["severity"] == "error" and not f["accepted"] for f in doc["findings"])
        if p.returncode != (1 if errors else 0):
            return "exit %d but errors=%s" % (p.returncode, errors)
        return None

    def case(self, path, must_fail=False, modules=None, args=(), prefix=(), message=None):
        """Checks path (or modules) with the good modules, optionally wanting
        exit 2 and a message with the given text; returns (problem, exit)."""
        try:
            p = self.check((modules if modules is not None else [path]) + self.goods, args, prefix)
        except subprocess.TimeoutExpired:
            return "hung (timeout)", None
        why = self.problems(path, p)
        if not why and must_fail and p.returncode != 2:
            why = "exit %d, want 2" % p.returncode
        if not why and message and message not in p.stderr:
            why = "no message '%s' in: %s" % (message, p.stderr)
        return why, p.returncode


def special_cases(work, base):
    """(what, path named, case() arguments) for files that are not modules."""
    def put(name, blob):
        path = os.path.join(work, name)
        with open(path, "wb") as f:
            f.write(blob)
        return path

    empty = put("empty.ko", b"")
    yield "empty file", empty, {"message": empty + ": error: file too short to be an ELF object"}
    text = put("text.ko", b"just text, not an object file\n" * 40)
    yield "text file", text, {"message": text + ": error: not an ELF object"}
    a, b = os.path.join(work, "loop-a.ko"), os.path.join(work, "loop-b.ko")
    os.symlink(b, a)
    os.symlink(a, b)
    yield "symlink loop", a, {"message": a + ": error: Too many levels of symbolic links"}
    dangling = os.path.join(work, "dangling.ko")
    os.symlink(os.path.join(work, "nowhere.ko"), dangling)
    yield "dangling symlink", dangling, {"message": dangling + ": error: No such file"}
    os.mkdir(os.path.join(work, "dir.ko"))
    order = put("modules.order", b"dir.ko\n")
    yield "directory listed in modules.order", os.path.join(work, "dir.ko"), {
        "modules": [order], "message": os.path.join(work, "dir.ko") + ": error: is a directory"}
    yield "directory given as -s SCHEDULE", work, {"modules": [], "args": ["-s", work]}
    yield "directory given as -i Module.symvers", work, {"modules": [], "args": ["-i", work]}
    yield "read error (/proc/self/mem)", "/proc/self/mem", {
        "message": "/proc/self/mem: error: Input/output error"}
    zeros = subprocess.run(["zstd", "-q", "-c"], input=b"\0" * (200 << 20),
                           capture_output=True, check=True).stdout
    bomb = put("bomb.ko.zst", zeros)
    yield "decompression bomb (200 MiB of zeros in %d bytes)" % len(zeros), bomb, {
        "message": bomb + ": error: decompressed size too large"}
    noread = put("noread.ko", open(base, "rb").read())
    os.chmod(noread, 0)
    # root reads anything; without CAP_DAC_* it is refused like anyone else
    drop = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"]
    if os.getuid() != 0:
        drop = []
    elif subprocess.run(drop + ["true"], capture_output=True).returncode != 0:
        drop = None
    if drop is not None:
        yield "unreadable file", noread, {"prefix": drop,
                                          "message": noread + ": error: Permission denied"}
    else:
        print("SKIP %s: unreadable file: cannot drop CAP_DAC_OVERRIDE here" % NAME)


def main():
    ksunset, sched, symvers, work, base = sys.argv[1:6]
    goods = sys.argv[6:]
    rng = random.Random(20261203)
    chk = Checker(ksunset, sched, symvers, goods)
    elf = Elf(open(base, "rb").read())
    report(elf.section(".note.ksunset") is not None and elf.section(".modinfo") is not None,
           "the base module has .modinfo and .note.ksunset")
    why, rc = chk.case(base)
    report(not why and rc in (0, 1), "the base module itself is checked (exit %s)" % rc, why or "")

    for what, path, kw in special_cases(work, base):
        why, rc = chk.case(path, must_fail=True, **kw)
        report(not why, "%s: exit 2, one message naming it, others checked" % what, why or "")
    loopdir = os.path.join(work, "loopdir")
    os.mkdir(loopdir)
    os.symlink(".", os.path.join(loopdir, "self"))
    os.symlink(base, os.path.join(loopdir, "m.ko"))
    p = chk.check([loopdir] + goods)
    # the links are not followed, so the folder holds no module: that is
    # said once, as for any folder without modules, and the rest is checked
    errors = [l for l in p.stderr.splitlines() if not l.startswith("ksunset: ")]
    report(p.returncode == 2 and errors == [loopdir + ": error: no module found"]
           and json.loads(p.stdout)["modules_checked"] == len(goods),
           "directory with a symlink loop: links not followed, 'no module found' once",
           p.stderr)

    tally = {}
    path = os.path.join(work, "broken.ko")
    for kind, label, blob in cases(elf, rng):
        with open(path, "wb") as f:
            f.write(blob)
        magic = kind == "flip" and label.startswith("ELF header: byte 0x") and \
            int(label.split()[3].rstrip(":"), 16) < 4
        why, rc = chk.case(path, must_fail=kind == "truncated" or magic)
        t = tally.setdefault(kind, {"cases": 0, "failed": 0})
        t["cases"] += 1
        t["exit %s" % rc] = t.get("exit %s" % rc, 0) + 1
        if why:
            t["failed"] += 1
            keep = os.path.join(work, "failed-%d.ko" % sum(x["failed"] for x in tally.values()))
            os.replace(path, keep)
            report(False, "%s %s" % (kind, label), "%s (input kept as %s)" % (why, keep))
    for kind, t in sorted(tally.items()):
        report(t["failed"] == 0 and t["cases"] > 20, "%s: %d cases, outcomes %s" % (
            kind, t["cases"], {k: v for k, v in sorted(t.items()) if k.startswith("exit")}))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
