#!/usr/bin/env python3
"""bench/dwarf.sh's judge: how many of the plugin's source lines DWARF
reproduces, and why the others differ. Reads pairs of `ksunset check
--format json` reports of the same package, one from its plugin build
(--locations=plugin) and one from its plain build (--locations=dwarf),
each with the folder its paths start with.
Usage: dwarf-compare.py PKG PLUGIN.json PLUGIN-DIR DWARF.json DWARF-DIR ..."""
import collections
import json
import os
import sys

GENERATED = ("__fentry__", "__x86_return_thunk", "__stack_chk_fail", "mcount")
# What a GIMPLE pass cannot see (tests/kbuild/world.sh's INVISIBLE).
INVISIBLE = ("__SCT__", "__get_user_", "__put_user_", "__x86_indirect_thunk_")
# Builtins GCC may expand inline or fold (no call remains).
BUILTINS = ("memcpy", "memset", "memmove", "memcmp", "strlen", "strcpy", "strcmp",
            "strncpy", "strnlen", "__memcpy", "__memset", "fortify_panic", "__fortify_panic")


def rel(path, root):
    path = os.path.normpath(path)
    root = os.path.normpath(root)
    return os.path.relpath(path, root) if path.startswith(root + "/") else path


def load(path, root):
    """{module: {symbol: [(file, line, function, var)]}}, and the findings
    without a location: [(module, symbol)]"""
    uses = collections.defaultdict(lambda: collections.defaultdict(list))
    bare = []
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    for fd in doc["findings"]:
        mod = rel(fd["module"], root)
        for loc in fd["locations"]:
            uses[mod][fd["symbol"]].append((rel(loc["file"], root), loc["line"],
                                            loc["function"], loc.get("variable")))
        if not fd["locations"]:
            bare.append((mod, fd["symbol"]))
    return uses, bare


def classify(sym, plug, dw):
    """Why the plugin's line plug = (file, line, function, var) has no
    DWARF line; dw: DWARF's lines of the symbol in the module."""
    file, line, fn, _ = plug
    if not fn and any(d[3] for d in dw if d[0] == file):
        return "initializer: DWARF gives the variable's declaration line"
    if not fn and any(d[3] for d in dw):
        return "initializer: the variable in another file"
    same_fn = [d for d in dw if d[0] == file and d[2] == fn]
    if same_fn and min(abs(d[1] - line) for d in same_fn) <= 3:
        return "same function, nearby line (a statement over several lines)"
    if same_fn:
        return "same function, other line (identical calls merged)"
    if sym in BUILTINS or sym.startswith("__builtin"):
        return "builtin expanded inline or folded: no call remains"
    if not dw:
        return "not located by DWARF (no relocation in code or a variable)"
    if any(d[0] == file for d in dw):
        return "same file, other function (code merged or moved)"
    return "other file"


def main(args):
    total = matched = 0
    classes = collections.Counter()
    examples = {}
    extra = collections.Counter()
    bare_total = bare_gen = 0
    bare_list = []
    while args:
        pkg, pj, pdir, dj, ddir = args[:5]
        args = args[5:]
        puses, _ = load(pj, pdir)
        duses, bare = load(dj, ddir)
        for mod, sym in bare:
            if sym.startswith(GENERATED) or sym.startswith("__x86_indirect_thunk_"):
                bare_gen += 1
            else:
                bare_total += 1
                bare_list.append(f"{pkg}: {mod}: {sym}")
        for mod, syms in puses.items():
            for sym, locs in syms.items():
                dl = duses.get(mod, {}).get(sym, [])
                dkeys = {(d[0], d[1]) for d in dl}
                for p in sorted(set(locs)):
                    total += 1
                    if (p[0], p[1]) in dkeys:
                        matched += 1
                        continue
                    c = classify(sym, p, dl)
                    classes[c] += 1
                    examples.setdefault(c, f"{pkg}: {sym} at {p[0]}:{p[1]}")
        for mod, syms in duses.items():
            for sym, dl in syms.items():
                if sym not in puses.get(mod, {}):
                    extra["invisible to the plugin (asm, static calls)"
                          if sym.startswith(INVISIBLE) else "DWARF only"] += 1
    pct = 100.0 * matched / total if total else 0.0
    print(f"plugin lines: {total}; reproduced by DWARF (same symbol, file, line): "
          f"{matched} ({pct:.1f}%)")
    print()
    print("| class of difference | plugin lines | example |")
    print("|---|---:|---|")
    for c, n in classes.most_common():
        print(f"| {c} | {n} | {examples[c]} |")
    print()
    print(f"findings without a location (DWARF run): {bare_total + bare_gen}, of which "
          f"compiler-generated: {bare_gen}")
    for b in bare_list:
        print(f"  no location: {b}")
    for c, n in extra.most_common():
        print(f"symbols located by DWARF only ({c}): {n}")
    return 0 if total else 1


sys.exit(main(sys.argv[1:]))
