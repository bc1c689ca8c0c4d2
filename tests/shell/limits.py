#!/usr/bin/env python3
"""Limits test for `ksunset check` (t-limits.sh): huge generated inputs.

  limits.py KSUNSET WORKDIR RUSAGE

Generates a Module.symvers of 200,000 lines, a schedule of 50,000 entries
and a relocatable object with 70,000 sections (so e_shnum, e_shstrndx and
symbol section indexes need SHN_XINDEX) and 1,000,000 symbols, half of
them undefined imports. Checks that the findings are exactly the expected
ones, then that time and memory grow linearly: each input is also made at a
quarter of the size, and the big/small ratios of CPU time and peak RSS (best
of five runs each, measured by the rusage helper) must stay below twice the size
ratio, which a quadratic step would exceed. RUSAGE is the helper built
from rusage.c that measures one run.
Prints "PASS t-limits: ..." / "FAIL t-limits: ..." lines for lib.sh.
"""
import json
import os
import struct
import subprocess
import sys

NAME = "t-limits"
RUSAGE = None
failures = 0
SHN_LORESERVE, SHN_XINDEX = 0xFF00, 0xFFFF
VERMAGIC = b"6.1.0-57-amd64 SMP preempt mod_unload modversions "


def report(ok, what, detail=""):
    global failures
    print("%s %s: %s" % ("PASS" if ok else "FAIL", NAME, what))
    if not ok:
        failures += 1
        for line in str(detail).splitlines()[:30]:
            print("  | " + line)


def imp(i):
    return "imp_%d" % i


def write_symvers(path, n):
    """n exports: imp_0 .. imp_{n-1}, every third one GPL-only."""
    with open(path, "w") as f:
        for i in range(n):
            f.write("0x%08x\t%s\tvmlinux\tEXPORT_SYMBOL%s\t\n" % (i, imp(i), "_GPL" * (i % 3 == 0)))


def scheduled(n):
    """The symbols a schedule of n entries names: every 20th import."""
    return [imp(20 * k) for k in range(n)]


def write_schedule(path, n):
    with open(path, "w") as f:
        for s in scheduled(n):
            f.write("What: %s\nWhen: 2027-09-01\nReplace: %s_v2\n\n" % (s, s))


def write_module(path, nsec, nsym):
    """An ELF64 x86-64 ET_REL with nsec PROGBITS sections and nsym symbols:
    nsym/2 undefined imports (imp_0 ...), the rest defined, spread over
    every section. Section headers and the symbol table come last."""
    nimp = nsym // 2
    shstr = bytearray(b"\0.symtab\0.strtab\0.shstrtab\0.symtab_shndx\0.modinfo\0")
    names = {n: shstr.index(n.encode() + b"\0") for n in
             (".symtab", ".strtab", ".shstrtab", ".symtab_shndx", ".modinfo")}
    sec_name = []
    for i in range(nsec):
        sec_name.append(len(shstr))
        shstr += b".text.f%d\0" % i
    # section indexes: 0 null, 1..nsec text, then modinfo, symtab, shndx, strtab, shstrtab
    i_mod, i_sym = nsec + 1, nsec + 2
    i_shndx, i_str, i_shstr = nsec + 3, nsec + 4, nsec + 5
    shnum = nsec + 6
    strtab = bytearray(b"\0")
    syms = bytearray(24 * (nsym + 1))
    shndx = bytearray(4 * (nsym + 1))
    for k in range(1, nsym + 1):
        name = len(strtab)
        if k <= nimp:
            strtab += imp(k - 1).encode() + b"\0"
            struct.pack_into("<IBBHQQ", syms, 24 * k, name, 0x10, 0, 0, 0, 0)
        else:
            strtab += b"def_%d\0" % k
            sec = 1 + k % nsec
            small = sec if sec < SHN_LORESERVE else SHN_XINDEX
            struct.pack_into("<IBBHQQ", syms, 24 * k, name, 0x12, 0, small, 0, 1)
            struct.pack_into("<I", shndx, 4 * k, sec)
    modinfo = b"license=GPL\0name=limits\0vermagic=" + VERMAGIC + b"\0"
    body = bytearray(b"\0" * 64)
    text_off = len(body)
    body += b"\xc3"  # every text section shares this one byte
    offs = {}
    for key, blob in (("mod", modinfo), ("sym", syms), ("shndx", shndx), ("str", strtab),
                      ("shstr", shstr)):
        body += b"\0" * (-len(body) % 8)
        offs[key] = len(body)
        body += blob
    body += b"\0" * (-len(body) % 8)
    shoff = len(body)
    sh = bytearray(64 * shnum)

    def shdr(i, name, typ, flags, off, size, link=0, info=0, align=1, entsize=0):
        struct.pack_into("<IIQQQQIIQQ", sh, 64 * i, name, typ, flags, 0, off, size, link,
                         info, align, entsize)

    # section 0 holds the real counts that do not fit the ELF header
    shdr(0, 0, 0, 0, 0, shnum, link=i_shstr)
    for i in range(nsec):
        shdr(i + 1, sec_name[i], 1, 0x6, text_off, 1)
    shdr(i_mod, names[".modinfo"], 1, 0x2, offs["mod"], len(modinfo))
    shdr(i_sym, names[".symtab"], 2, 0, offs["sym"], len(syms), link=i_str, info=1, align=8,
         entsize=24)
    shdr(i_shndx, names[".symtab_shndx"], 18, 0, offs["shndx"], len(shndx), link=i_sym,
         align=4, entsize=4)
    shdr(i_str, names[".strtab"], 3, 0, offs["str"], len(strtab))
    shdr(i_shstr, names[".shstrtab"], 3, 0, offs["shstr"], len(shstr))
    ehdr = struct.pack("<4sBBBBB7sHHIQQQIHHHHHH", b"\x7fELF", 2, 1, 1, 0, 0, b"", 1, 62, 1, 0,
                       0, shoff, 0, 64, 0, 0, 64, shnum if shnum < SHN_LORESERVE else 0,
                       i_shstr if i_shstr < SHN_LORESERVE else SHN_XINDEX)
    body[:64] = ehdr
    with open(path, "wb") as f:
        f.write(body + sh)
    return nimp


def measure(argv):
    """(exit status, stdout, CPU seconds, peak RSS in KiB) of one run, as
    measured by the rusage helper (rusage.c)."""
    work = os.path.dirname(argv[-1])
    res = os.path.join(work, "rusage.out")
    with open(os.path.join(work, "out.json"), "wb") as o:
        rc = subprocess.run([RUSAGE, res] + argv, stdout=o, stderr=subprocess.DEVNULL).returncode
    with open(os.path.join(work, "out.json"), "rb") as o, open(res) as r:
        cpu, rss = r.read().split()
        return rc, o.read(), float(cpu), int(rss)


def best(argv, runs=5):
    res = [measure(argv) for _ in range(runs)]
    return res[0][0], res[0][1], min(r[2] for r in res), min(r[3] for r in res)


def expected(nimp, nsched, nexp):
    """(findings that are removals, findings that are scheduled uses)."""
    hit = [20 * k for k in range(nsched) if 20 * k < nimp]
    removed = sum(1 for i in hit if i >= nexp)
    return removed, len(hit) - removed


def check_findings(what, rc, out, nimp, nsched, nexp):
    removed, sched = expected(nimp, nsched, nexp)
    try:
        doc = json.loads(out)
    except ValueError:
        report(False, what + ": JSON report", "exit %d" % rc)
        return
    rules = {}
    for f in doc["findings"]:
        rules[f["rule"]] = rules.get(f["rule"], 0) + 1
    want = {k: v for k, v in (("ksunset/removed", removed), ("ksunset/scheduled", sched)) if v}
    report(rc == (1 if removed else 0) and rules == want and doc["modules_checked"] == 1,
           "%s: exit %d, findings %s" % (what, rc, rules), "want %s" % want)


FULL = {"symvers": 200000, "schedule": 50000, "sections": 70000, "symbols": 1000000}
SMALL = {k: v // 4 for k, v in FULL.items()}
TINY = {"symvers": 10, "schedule": 10, "sections": 4, "symbols": 40}


def generate(work):
    """Writes every input; prints {tag: [symvers, schedule, module, imports]}."""
    files = {}
    for tag, size in (("big", FULL), ("small", SMALL), ("tiny", TINY)):
        sv, sc, mod = (os.path.join(work, "%s.%s" % (tag, x)) for x in ("symvers", "schedule", "ko"))
        write_symvers(sv, size["symvers"])
        write_schedule(sc, size["schedule"])
        files[tag] = (sv, sc, mod, write_module(mod, size["sections"], size["symbols"]))
    print(json.dumps(files))


def main():
    global RUSAGE
    ksunset, work, RUSAGE = sys.argv[1:4]
    full, small = FULL, SMALL
    files = json.loads(subprocess.run([sys.executable, __file__, "--generate", work],
                                      capture_output=True, check=True, text=True).stdout)
    tiny_sv, tiny_sc, tiny_mod, tiny_imp = files["tiny"]

    base = [ksunset, "check", "--today", "2026-12-03", "--format", "json"]
    dims = {
        "Module.symvers lines": lambda t: ["-s", tiny_sc, "-i", files[t][0], tiny_mod],
        "schedule entries": lambda t: ["-s", files[t][1], "-i", tiny_sv, tiny_mod],
        "module sections and symbols": lambda t: ["-s", tiny_sc, "-i", tiny_sv, files[t][2]],
    }
    floor = best(base + ["-s", tiny_sc, "-i", tiny_sv, tiny_mod])[3]
    for what, args in dims.items():
        r = {t: best(base + args(t)) for t in ("big", "small")}
        cpu = r["big"][2] / max(r["small"][2], 0.01)
        # peak RSS above that of a run on tiny inputs (the program itself)
        mem = (r["big"][3] - floor) / max(r["small"][3] - floor, 1)
        for t in ("big", "small"):
            sizes = full if t == "big" else small
            if what == "Module.symvers lines":
                check_findings("%s, %s" % (what, t), r[t][0], r[t][1], tiny_imp, 10,
                               sizes["symvers"])
            elif what == "schedule entries":
                check_findings("%s, %s" % (what, t), r[t][0], r[t][1], tiny_imp,
                               sizes["schedule"], 10)
            else:
                check_findings("%s, %s" % (what, t), r[t][0], r[t][1], files[t][3], 10, 10)
        report(cpu < 8 and mem < 8,
               "%s: 4x the input costs %.1fx CPU time (%.2f s vs %.2f s), %.1fx peak RSS "
               "(%d vs %d KiB above %d); linear is at most 4x, the limit 8x" % (
                   what, cpu, r["big"][2], r["small"][2], mem, r["big"][3] - floor,
                   r["small"][3] - floor, floor))
    sv, sc, mod, nimp = files["big"]
    nm = subprocess.run(["nm", "-u", mod], capture_output=True, text=True)
    head = subprocess.run(["readelf", "-h", mod], capture_output=True, text=True).stdout
    report(nm.returncode == 0 and len(nm.stdout.splitlines()) == nimp and
           "Number of section headers:         0 (70006)" in head,
           "generated module: nm -u sees %d imports, readelf 70006 sections (SHN_XINDEX)" % nimp,
           nm.stderr + head)

    rc, out, _, _ = measure(base + ["-s", sc, "-i", sv, mod])
    check_findings("all big inputs together", rc, out, nimp, full["schedule"], full["symvers"])

    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    if sys.argv[1] == "--generate":
        generate(sys.argv[2])
    else:
        main()
