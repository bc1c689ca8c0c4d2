#!/usr/bin/env python3
"""Mines the calls of scripts/migrations.sh: for each function or
function-like macro of the kernel's headers (include/, arch/x86/include/)
that takes another number of arguments in NEW-SRC than in OLD-SRC, its
in-tree calls paired across the two trees (same file, same enclosing
function, same rank there) and the rewrite each pair made: an argument
dropped, or one inserted (with its text); and, for calls paired with as
many arguments, each argument that names nothing of the caller's own (the
address of a name, a constant) and what the pair passes there instead
(Argument:, keyed by the name, the argument's place and its text). Also names gone whose callers
call another, assignments become accessor calls, callbacks stored in a
struct's member whose definitions changed (callbacks()), reads of a
member gone that became calls (reads()), and names whose users added the
#include of a header that declares them (includes()). Writes the entries of
ksunset.migrations(5) for the names whose pairs show one rewrite (at least
3 of them, in at least 3 files, and two in three of the pairs), or the two
most common when they show none.

    migrations-calls.py OLD-SRC NEW-SRC

Only facts are written: names, argument positions, an inserted argument's
text (a constant or a name), counts and file:line."""

import collections
import functools
import os
import re
import subprocess
import sys

MIN = 3
HEADER_DIRS = ("include", "arch/x86/include")
KEYWORDS = {"if", "while", "for", "switch", "return", "sizeof", "typeof", "__typeof__",
            "defined", "__attribute__", "asm", "__asm__", "do", "else", "case"}

COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'')
MACRO = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)\(([^)]*)\)", re.M)
PROTO = re.compile(r"\b(\w+)\s*\(([^;{}()]*(?:\([^;{}()]*\)[^;{}()]*)*)\)"
                   r"\s*(?:\w+\b\s*(?:\(\([^;{}()]*(?:\([^;{}()]*\)[^;{}()]*)*\)\)\s*)?)*(?=[;{])")
DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)
OBJECT = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)", re.M)
INCLUDE = re.compile(r"^[ \t]*#[ \t]*include[ \t]*<([^>\n]+)>", re.M)
WORD = re.compile(r"\bstruct\s+\w+|\b[A-Za-z_]\w*")


def blank(m):
    """The match's text as spaces, its newlines kept (lines stay put)."""
    return re.sub(r"[^\n]", " ", m.group(0))


def strip_comments(text):
    return COMMENT.sub(blank, text)


def split_args(s):
    """The top-level arguments of s (the text between a call's parentheses)."""
    args, depth, cur = [], 0, []
    for ch in s:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            args.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    args.append("".join(cur))
    args = [" ".join(a.split()) for a in args]
    return [] if args == [""] else args


def arity(params):
    """A parameter list's number of parameters; None: variadic."""
    ps = split_args(params)
    if ps == ["void"]:
        return 0
    if any("..." in p or p == "__VA_ARGS__" for p in ps):
        return None
    return len(ps)


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def header_files(top):
    """(its folder of HEADER_DIRS, path) of each header of top, by name."""
    for d in HEADER_DIRS:
        base = os.path.join(top, d)
        for root, dirs, files in os.walk(base):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(".h"):
                    yield base, os.path.join(root, name)


def headers(top):
    """(name, text) of each header of top (HEADER_DIRS): its name as
    #include <...> names it (include/uapi's without uapi/), its text with
    comments blanked."""
    for base, path in header_files(top):
        rel = os.path.relpath(path, base)
        yield rel[5:] if rel.startswith("uapi/") else rel, strip_comments(read(path))


def prototypes(text):
    """(name, arity, parameters) of each function-like macro and function
    the header text declares, the parameters' text with blanks squeezed."""
    for m in MACRO.finditer(text):
        yield m.group(1), arity(m.group(2)), " ".join(m.group(2).split())
    code = DIRECTIVE.sub(blank, text)
    for m in PROTO.finditer(code):
        if m.group(1) not in KEYWORDS and type_before(code, m.start()):
            yield m.group(1), arity(m.group(2)), " ".join(m.group(2).split())


def type_before(code, at):
    """Whether a type comes before the name at code[at] (a declaration's):
    a word or a '*', not return, if, while, else or case."""
    before = code[max(0, at - 80):at].rstrip()
    return bool(before) and (before[-1].isalnum() or before[-1] in "_*") and \
        not re.search(r"\b(?:return|if|while|else|case)$", before)


def declarations(top, params=None):
    """name -> set of arities its headers declare it with (None: variadic);
    into params (when given) name -> set of its parameter lists' texts."""
    found = collections.defaultdict(set)
    for _, text in headers(top):
        for name, n, ps in prototypes(text):
            found[name].add(n)
            if params is not None:
                params[name].add(ps)
    return found


def close_paren(text, at):
    """Where the parenthesis opened at text[at] closes; -1: not in text."""
    depth = 0
    i = at
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in "\"'":
            m = STRING.match(text, i)
            if m:
                i = m.end()
                continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


FUNC_HEAD = re.compile(r"^[A-Za-z_][^;]*?\b(\w+)\s*\(", re.M)


TYPE_END = re.compile(r"(\w+)[\s*]*$")


def declares(text, at):
    """Whether the name at text[at] is declared or defined there (a type
    before it), not called."""
    m = TYPE_END.search(text, max(0, at - 80), at)
    return bool(m) and m.group(1) not in KEYWORDS | {"else", "case", "goto", "static", "extern"}


def function_bodies(text):
    """[(start, end, name)] of the functions' bodies in text: from a '{' at
    the start of a line to the next '}' there, named by the last
    definition head before it ("" when none)."""
    bodies = []
    for m in re.finditer(r"^\{", text, re.M):
        heads = list(FUNC_HEAD.finditer(text, max(0, m.start() - 600), m.start()))
        end = text.find("\n}", m.start())
        bodies.append((m.start(), end if end >= 0 else len(text),
                       heads[-1].group(1) if heads else ""))
    return bodies


def calls(path, names, text=None, bodies=None):
    """(function, name) -> [(line, args)] of the calls of names (None:
    every name) in the file at path, in order; function "" at file scope.
    text, bodies: its text without comments and its function_bodies(), when
    the caller has them."""
    if text is None:
        text = strip_comments(read(path))
    out = collections.defaultdict(list)
    if bodies is None:
        bodies = function_bodies(text)
    b = 0
    at, line = 0, 1	# the line of text[at], counted on as the calls come
    for m in ANY_CALL.finditer(text):
        name = m.group(1)
        if name not in names if names is not None else name in KEYWORDS:
            continue
        end = close_paren(text, m.end() - 1)
        if end < 0:
            continue
        before = text[max(0, m.start() - 1):m.start()]
        if before and (before.isalnum() or before in "_#"):
            continue
        if declares(text, m.start()):
            continue
        while b < len(bodies) and bodies[b][1] < m.start():
            b += 1
        func = bodies[b][2] if b < len(bodies) and bodies[b][0] <= m.start() else ""
        line += text.count("\n", at, m.start())
        at = m.start()
        out[(func, name)].append((line, split_args(text[m.end():end])))
    return out


def paired(co, cn):
    """(name, old call, new call) of the calls co and cn of one file in
    both releases (calls()'s): those of a function with as many in both,
    in order; and a name's one call in the file in both, in functions of
    other names (its function renamed, or moved into another)."""
    for key, lo in co.items():
        ln = cn.get(key)
        if ln and len(ln) == len(lo):
            yield from ((key[1], a, b) for a, b in zip(lo, ln))
    lone = []
    for c in (co, cn):
        n = collections.Counter()
        for (_, name), cs in c.items():
            n[name] += len(cs)
        lone.append({k[1]: k for k in c if n[k[1]] == 1})
    for name, k in lone[0].items():
        j = lone[1].get(name)
        if j and j != k:
            yield name, co[k][0], cn[j][0]


def rewrite(old, new):
    """The rewrite that takes the argument list old to new: ("drop", i),
    ("insert", i, text) with i 1-based, or None."""
    if len(new) == len(old) - 1:
        for i in range(len(old)):
            if old[:i] + old[i + 1:] == new:
                return ("drop", i + 1)
    if len(new) == len(old) + 1:
        for i in range(len(new)):
            if new[:i] + new[i + 1:] == old:
                return ("insert", i + 1, new[i])
    return None


# an argument that names nothing of a caller's own: the address of a name,
# a name in capitals, a number, NULL, true or false
FIXED = re.compile(r"&[A-Za-z_]\w*|[A-Z_][A-Z0-9_]*|-?[0-9][0-9a-fA-FxXuUlL]*|NULL|true|false")


def passed(name, old, new, f, la, lb, args):
    """Into args ("NAME N TEXT" -> [(rewrite, file, oldline, newline)]):
    for each argument of a call paired with one of as many arguments that
    is such a fixed text, whether the pair passes it as before (no
    rewrite) or another (("replace", TEXT)); another that is not fixed
    counts as no rewrite either."""
    for i, (a, b) in enumerate(zip(old, new)):
        if not FIXED.fullmatch(a):
            continue
        rw = ("replace", b) if b != a and FIXED.fullmatch(b) else None
        args["%s %d %s" % (name, i + 1, a)].append((rw, f, la, lb))


def files_using(top, names):
    """The .c files of top that name any of names, relative to top."""
    pat = "\n".join(sorted(names))
    r = subprocess.run(["grep", "-rlwF", "--include=*.c", "-f", "-", "."], cwd=top,
                       input=pat, capture_output=True, text=True)
    if r.returncode not in (0, 1):
        sys.exit("migrations-calls.py: grep failed in %s: %s" % (top, r.stderr.strip()))
    return {p[2:] if p.startswith("./") else p for p in r.stdout.split()}


ANY_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def mentioned(top, names):
    """Those of names that the headers of top mention at all."""
    dirs = [d for d in HEADER_DIRS if os.path.isdir(os.path.join(top, d))]
    r = subprocess.run(["grep", "-rhowF", "-f", "-"] + dirs, cwd=top,
                       input="\n".join(sorted(names)), capture_output=True, text=True)
    if r.returncode not in (0, 1):
        sys.exit("migrations-calls.py: grep failed in %s: %s" % (top, r.stderr.strip()))
    return set(r.stdout.split())


def squeeze(line):
    return " ".join(line.split())


def blankless(text):
    return "".join(text.split())


def ored(name):
    """The pattern of name OR-ed with another flag, with its '|' and the
    blanks beside it: "| NAME" or "NAME |"."""
    return r"\s*\|\s*\b%s\b|\b%s\b\s*\|\s*" % (re.escape(name), re.escape(name))


class Removals:
    """What a file's new text made of a line of its old one that named a
    name gone (removal())."""

    def __init__(self, told, tnew):
        self.told = told
        self.old = told.split("\n")
        self.new = tnew.split("\n")
        self.lines = {}
        self.bare = {}		# a line, blanks left out -> its number
        self.after = collections.defaultdict(set)	# a line -> the next one, squeezed
        self.starts = [0]	# where each old line starts in told
        for x in self.old:
            self.starts.append(self.starts[-1] + len(x) + 1)
        nb = [(i, squeeze(x)) for i, x in enumerate(self.new) if x.strip()]
        for (i, a), (j, b) in zip(nb, nb[1:] + [(len(self.new), "")]):
            self.lines.setdefault(a, i + 1)
            self.bare.setdefault(blankless(a), i + 1)
            self.after[a].add((b, j + 1))
        # the new text's statements (what ';', '{' and '}' bound), blanks
        # left out -> the line each starts on
        self.statements = {}
        at = 0
        for part in re.split(r"([;{}])", tnew):
            if part not in (";", "{", "}"):
                lead = len(part) - len(part.lstrip())
                self.statements.setdefault(blankless(part), tnew.count("\n", 0, at + lead) + 1)
            at += len(part)

    def neighbour(self, k, step):
        k += step
        while 0 <= k < len(self.old) and not self.old[k].strip():
            k += step
        return squeeze(self.old[k]) if 0 <= k < len(self.old) else ""

    def dropped(self, line, name):
        """(rewrite, line in new) when the new text has the statement that
        holds name at line (its first there) with name dropped from the
        flags it was OR-ed with, or 0 where it stood alone (an argument,
        a value): ("omit",); else None."""
        m = re.search(r"\b%s\b" % re.escape(name), self.old[line - 1])
        if not m:
            return None
        pos = self.starts[line - 1] + m.start()
        a = max(self.told.rfind(c, 0, pos) for c in ";{}") + 1
        ends = [e for e in (self.told.find(c, pos) for c in ";{}") if e >= 0]
        seg, pos = self.told[a:min(ends) if ends else len(self.told)], pos - a
        end = pos + len(name)
        for o in re.finditer(ored(name), seg):
            if o.start() <= pos and end <= o.end():
                rest = blankless(seg[:o.start()] + seg[o.end():])
                if rest in self.statements:
                    return ("omit",), self.statements[rest]
        before, after = seg[:pos].rstrip(), seg[end:].lstrip()
        if (not before or before[-1] in "(,=") and (not after or after[0] in ",)"):
            rest = blankless(seg[:pos] + "0" + seg[end:])
            if rest in self.statements:
                return ("omit",), self.statements[rest]
        return None

    def removal(self, line, name):
        """(rewrite, line in new) for line (1-based) of the old text:
        ("omit",) when the new text has the line with name and one '|'
        beside it left out (a flag dropped), blanks aside, or the statement
        that holds it so (dropped()), ("delete",) when it has the lines
        around it next to each other (the line deleted); else (None,
        line)."""
        text = self.old[line - 1]
        rest = blankless(re.sub(ored(name), "", text, count=1))
        if rest != blankless(text) and rest in self.bare:
            return ("omit",), self.bare[rest]
        prev, nxt = self.neighbour(line - 1, -1), self.neighbour(line - 1, 1)
        if squeeze(text) not in self.lines:
            for b, at in self.after.get(prev, ()):
                if b == nxt:
                    return ("delete",), at
        return self.dropped(line, name) or (None, line)


def renames(old, new, dold, dnew, pairs):
    """The calls of a function or macro the new headers no longer mention,
    each paired with the call of another name with the same arguments that
    took its place in the same function (one such name, not called so
    there before): ("rename", name); or with the call's line deleted
    (Removals)."""
    gone = {n for n, a in dold.items() if n not in dnew and None not in a}
    gone -= mentioned(new, gone)
    if not gone:
        return
    for f in sorted(files_using(old, gone)):
        if not os.path.isfile(os.path.join(new, f)):
            continue
        co = calls(os.path.join(old, f), None)
        cn = calls(os.path.join(new, f), None)
        funcs = {func for func, _ in cn}
        gaps = None
        for (func, name), lo in co.items():
            if name not in gone or func not in funcs:
                continue
            for line, args in lo:
                took = {(m, ln) for (fn, m), calls_n in cn.items() if fn == func and m != name
                        for ln, a in calls_n if a == args and
                        not any(b == args for _, b in co.get((func, m), []))}
                names = {m for m, _ in took}
                if len(names) == 1:
                    pairs[name].append((("rename", names.pop()), f, line,
                                        min(ln for _, ln in took)))
                    continue
                if gaps is None:
                    gaps = Removals(strip_comments(read(os.path.join(old, f))),
                                    strip_comments(read(os.path.join(new, f))))
                rw, ln = gaps.removal(line, name)
                pairs[name].append((rw if rw == ("delete",) else None, f, line, ln))


WRAPPER = re.compile(r"\bstatic\s+(?:inline|__always_inline)\b[^;{}()]*?\b(\w+)\s*\(([^()]*)\)\s*"
                     r"\{\s*return\s+(\w+)\s*\(([^;{}]*)\)\s*;\s*\}")
CONSTANT = re.compile(r"(?:NULL|true|false|-?\d[\dxXa-fA-FuUlL]*|_*[A-Z][A-Z0-9_]*|&\w+)$")


def wrappers(old, new, dold, dnew, pairs, keyed):
    """The functions and macros the new headers no longer mention that
    an inline function of the old headers wraps, its whole body
    "return F(...);" passing its parameters in order and one constant
    (a number, NULL, true, false, a name in capitals after underscores or
    a name's address) as one argument, that the new headers still declare
    with as many parameters: ("wrap", W, N, TEXT), hid_is_using_ll_driver()'s
    calls that pass &usb_hid_driver as argument 2 are hid_is_usb()'s; under
    F in pairs, the wrapper's line in both releases (a call of F with
    another argument there has no rewrite). Of several wrappers, each
    passing its own constant (__getblk_gfp's __getblk() __GFP_MOVABLE,
    getblk_unmovable() 0), each under "F N TEXT" in keyed (Argument:
    entries, found by what the call passes). Not for a name with an entry
    of its callers' own."""
    gone = {n for n, a in dold.items() if n not in dnew and None not in a}
    gone -= mentioned(new, gone)
    found = collections.defaultdict(list)
    for _, path in header_files(old):
        text = strip_comments(read(path))
        for m in WRAPPER.finditer(text):
            w, f = m.group(1), m.group(3)
            if f not in gone or w in KEYWORDS:
                continue
            names = [param_name(x) for x in split_args(m.group(2))]
            args = [" ".join(a.split()) for a in split_args(m.group(4))]
            if names == ["void"] or None in names or len(args) != len(names) + 1 or \
                    dnew.get(w) != {len(names)}:
                continue
            fixed = [i for i, a in enumerate(args) if a not in names]
            if len(fixed) != 1 or not CONSTANT.match(args[fixed[0]]) or \
                    args[:fixed[0]] + args[fixed[0] + 1:] != names:
                continue
            found[f].append((w, fixed[0] + 1, args[fixed[0]], os.path.relpath(path, old),
                             text.count("\n", 0, m.start(1)) + 1))
    want = {x[0] for ws in found.values() for x in ws}
    where = {}
    for _, path in header_files(new):
        text = strip_comments(read(path))
        for m in re.finditer(r"\b(\w+)\s*\(", text):
            if m.group(1) in want and m.group(1) not in where and type_before(text, m.start()):
                where[m.group(1)] = (os.path.relpath(path, new), text.count("\n", 0, m.start()) + 1)
    for f, ws in sorted(found.items()):
        if has_entry(pairs.get(f, [])) or any(x[0] not in where for x in ws) or \
                len({(x[1], x[2]) for x in ws}) != len(ws):
            continue
        for w, n, arg, path, line in ws:
            if len(ws) == 1:
                pairs[f] = [(("wrap", w, n, arg), path, line, where[w])]
            else:
                keyed["%s %d %s" % (f, n, arg)] = [(("wrap", w, n, arg), path, line, where[w])]


def has_entry(ps):
    """Whether the pairs ps show a rewrite entry() writes: made at MIN
    sites or more, in MIN files or more."""
    top = collections.Counter(p[0] for p in ps if p[0]).most_common(1)
    return bool(top) and top[0][1] >= MIN and \
        len({p[1] for p in ps if p[0] == top[0][0]}) >= MIN


def deletions(old, new, dold, pairs):
    """The lines that name a macro, function or variable of the old
    headers that the new ones no longer mention, not to call it (renames()
    has the calls), paired with what the new text made of them: the name
    dropped from the flags it was OR-ed with, or 0 in its place where it
    stood alone ("omit",), or the line deleted ("delete",) (Removals)."""
    names = set(dold)
    for _, text in headers(old):
        names.update(OBJECT.findall(text))
    gone = names - mentioned(new, names)
    for f in sorted(files_using(old, gone)):
        if not os.path.isfile(os.path.join(new, f)):
            continue
        told, tnew = strip_comments(read(os.path.join(old, f))), read(os.path.join(new, f))
        gaps = Removals(told, strip_comments(tnew))
        for k, text in enumerate(gaps.old):
            for m in re.finditer(r"\b[A-Za-z_]\w*\b", text):
                name = m.group(0)
                if name not in gone or re.match(r"\s*\(", text[m.end():]):
                    continue
                rw, ln = gaps.removal(k + 1, name)
                pairs[name].append((rw, f, k + 1, ln))


ASSIGN = re.compile(r"^[ \t]*([A-Za-z_][\w.\->\[\]]*?)\s*(->|\.)\s*(\w+)\s*(\|=|&=|=)\s*"
                    r"([^;=]+);", re.M)


def func_at(bodies, at):
    for start, end, name in bodies:
        if start <= at <= end:
            return name
    return ""


def accessors(old, new, dold, dnew, entries):
    """Assignments to a member that in-tree code turned into calls of a
    function new in the newer headers whose name starts with the member's
    (vma->vm_flags |= X became vm_flags_set(vma, X)), or that sets a
    member gone from its struct (gone_members(), "set" a word of its name:
    inode->i_mtime = X became inode_set_mtime_to_ts(inode, X)): the same file and function has the
    call with the object (its address for '.') and the value (without its
    '~' for &=), or else one call of one setter with the object and as
    many arguments (the value rewritten too), under "MEMBER OP". An assignment of a call of F whose
    calls in-tree code turned into calls with the object alone
    (inode->i_ctime = current_time(inode) became
    inode_set_ctime_current(inode)) is under "MEMBER = F()", with every
    other assignment of a call of F. The assignments of a member gone are
    counted in the files whose newer version names one of its setters; one
    that the newer version's same function still makes (the same object,
    member and operator: another struct's member of that name) is no site."""
    newfuncs = {n for n in dnew if n not in dold}
    gone = gone_members(old, new, dold, dnew)[1]
    prefixes = {n.rsplit("_", 1)[0] for n in newfuncs if "_" in n}
    setters = {m: {n for n in newfuncs if n.startswith(m + "_")} for m in prefixes}
    # of a member gone, the accessors that set it: "set" a word of their
    # names, as the kernel names setters (inode_set_mtime_to_ts())
    for m, ns in gone.items():
        ns = {n for n in ns if "set" in n.split("_")}
        if ns:
            setters.setdefault(m, set()).update(ns)
    if not setters:
        return
    r = subprocess.run(["grep", "-rlE", "--include=*.c", r"(->|\.)(%s)\s*(\|=|&=|=)[^=]" %
                        "|".join(sorted(setters)), "."], cwd=old, capture_output=True, text=True)
    found = []	# (member, op, F or None, the name of the call it became, file, line, new line)
    prefixed = set(prefixes)
    for f in sorted(p[2:] for p in r.stdout.split()):
        if not os.path.isfile(os.path.join(new, f)):
            continue
        text = strip_comments(read(os.path.join(old, f)))
        # a file that assigns only members gone: read only where its newer
        # version names one of their setters
        assigned = {m.group(3) for m in ASSIGN.finditer(text) if m.group(3) in setters}
        newtext = read(os.path.join(new, f))
        if not assigned & prefixed:
            if not any(n in newtext for m in assigned for n in setters[m]):
                continue
        bodies = function_bodies(text)
        tnew = strip_comments(newtext)
        bnew = function_bodies(tnew)
        cn = calls(os.path.join(new, f), None, tnew, bnew)
        # what the newer version's functions still assign so: another
        # struct's member of the same name (an on-disk inode's i_ctime),
        # not a site of the change
        kept = {(func_at(bnew, m.start()), squeeze(m.group(1)), m.group(2), m.group(3), m.group(4))
                for m in ASSIGN.finditer(tnew) if m.group(3) in setters}
        for m in ASSIGN.finditer(text):
            obj, sep, member, op, value = m.groups()
            if member not in setters or \
                    (func_at(bodies, m.start()), squeeze(obj), sep, member, op) in kept:
                continue
            value = " ".join(value.split())
            if op == "&=":
                if not value.startswith("~"):
                    continue
                value = value[1:].strip()
                if value.startswith("(") and value.endswith(")"):
                    value = value[1:-1].strip()
            func = func_at(bodies, m.start())
            if not func:
                continue
            target = obj if sep == "->" else "&" + obj
            line = text.count("\n", 0, m.start()) + 1

            def became(want, loose=False):
                # loose: the value as another argument (rewritten too:
                # inode->i_mtime = inode->i_ctime became
                # inode_set_mtime_to_ts(inode, inode_get_ctime(inode)))
                took = {(n, ln) for (fn, n), cs in cn.items() if fn == func and n in setters[member]
                        for ln, a in cs
                        if a == want or (loose and len(a) == len(want) and a[0] == want[0])}
                names = {n for n, _ in took}
                return (names.pop(), min(ln for _, ln in took)) if len(names) == 1 else (None, line)
            fc = re.match(r"([A-Za-z_]\w*)\s*\(", value) if op == "=" else None
            if fc and close_paren(value, fc.end() - 1) != len(value) - 1:
                fc = None
            alone = became([target]) if fc else (None, line)
            both = became([target, value])
            if not both[0]:
                both = became([target, value], loose=True)
            found.append((member, op, fc.group(1) if fc else None, alone, both, f, line))
    # the calls F whose assignments became calls with the object alone
    alone_fs = {(x[0], x[2]) for x in found if x[2] and x[3][0]}
    for member, op, fc, alone, both, f, line in found:
        if (member, fc) in alone_fs:
            entries["%s %s %s()" % (member, op, fc)].append(
                (("call", alone[0]) if alone[0] else None, f, line, alone[1]))
        else:
            entries["%s %s" % (member, op)].append(
                (("call", both[0]) if both[0] else None, f, line, both[1]))


OPENER = re.compile(r"\bstruct\s+(\w+)\s+(?:\w+\s+)*?\w+\s*(?:\[[^\]=;]*\])?\s*"
                    r"(?:__\w+(?:\([^)]*\))?\s*)*=\s*\{")
INIT = re.compile(r"^[ \t]*\.(\w+)\s*=\s*&?\s*([A-Za-z_]\w*)\s*,?[ \t]*$", re.M)
STORAGE = {"static", "inline", "__always_inline", "noinline", "extern", "__init", "__exit",
           "__cold", "notrace", "__maybe_unused", "__must_check"}


BODY_OPEN = re.compile(r"\s*\{")
_opened = []	# [(text, {name: [(where name starts, past its '(')]})], the last few


def opened(text):
    """Each name of text followed by '(': where it starts and where its
    '(' ends, by name (one pass over text, kept for the next few asks)."""
    for t, found in _opened:
        if t is text:
            return found
    found = collections.defaultdict(list)
    for m in ANY_CALL.finditer(text):
        found[m.group(1)].append((m.start(), m.end()))
    _opened.insert(0, (text, found))
    del _opened[4:]
    return found


def definition(text, fn):
    """(return type, [parameters], line, where its body's '{' is) of the
    definition of fn in text, blanks squeezed and storage words left out;
    None: none."""
    for at, past in opened(text).get(fn, ()):
        if not declares(text, at):
            continue
        end = close_paren(text, past - 1)
        body = BODY_OPEN.match(text, end + 1) if end >= 0 else None
        if not body:
            continue
        start = max(text.rfind(ch, 0, at) for ch in ";}{\n#")
        # a head over two lines: the type on the line before the name
        if not text[start + 1:at].strip():
            start = max(text.rfind(ch, 0, start) for ch in ";}{\n#")
        ret = [w for w in text[start + 1:at].replace("*", " * ").split()
               if w not in STORAGE]
        return (" ".join(ret).replace(" *", "*"), split_args(text[past:end]),
                text.count("\n", 0, at) + 1, body.end() - 1)
    return None


def callback_rewrite(old, new):
    """The rewrite that takes a callback's definition old to new (each
    definition()'s): ("const", i) (0: the return type), ("retype", i,
    "struct OLD", "struct NEW"), ("drop", i) (the others kept as they
    were), or None."""
    (ro, po, *_), (rn, pn, *_) = old, new
    if len(po) == len(pn) + 1 and ro == rn:
        i = next((k for k in range(len(pn)) if po[k] != pn[k]), len(pn))
        return ("drop", i + 1) if po[:i] + po[i + 1:] == pn else None
    if len(po) != len(pn):
        return None
    diff = [i for i in range(len(po)) if po[i] != pn[i]]
    if ro != rn:
        return ("const", 0) if not diff and rn == "const " + ro else None
    if len(diff) != 1:
        return None
    i = diff[0]
    if pn[i] == "const " + po[i]:
        return ("const", i + 1)
    a = re.match(r"((?:const )?(?:struct|union|enum)) (\w+)( ?\**)", po[i])
    b = re.match(r"((?:const )?(?:struct|union|enum)) (\w+)( ?\**)", pn[i])
    if a and b and a.group(1) == b.group(1) and a.group(3) == b.group(3) and \
            a.group(2) != b.group(2):
        return ("retype", i + 1, "%s %s" % (a.group(1).split()[-1], a.group(2)),
                "%s %s" % (b.group(1).split()[-1], b.group(2)))
    return None


def param_name(param):
    """The name a parameter's declaration gives it ("struct page *page":
    page); None: none."""
    m = re.search(r"(\w+)\s*(?:\[[^\]]*\])?$", param)
    return m.group(1) if m and m.group(1) not in ("void", "struct", "union", "enum") else None


def body_end(text, at):
    """Where the body whose '{' is text[at] ends: its '}' (len(text): it
    does not close)."""
    depth, end = 0, at
    while end < len(text):
        depth += {"{": 1, "}": -1}.get(text[end], 0)
        if not depth:
            break
        end += 1
    return end


def uses_of(text, head, name):
    """How the body of a definition in text (head: definition()'s) uses
    name: the set of (the function whose call holds it, the member it
    reads) of each occurrence."""
    at = head[3]
    end = body_end(text, at)
    found = set()
    for occ in re.compile(r"\b%s\b" % re.escape(name)).finditer(text, at, end):
        nest, call = 0, None
        # back to the '(' of the call that holds it, at its own depth
        for j in range(occ.start() - 1, at, -1):
            c = text[j]
            if c in ")]":
                nest += 1
            elif c in "([" and nest:
                nest -= 1
            elif c == "(":
                w = re.search(r"(\w+)\s*$", text[max(at, j - 64):j])
                call = w.group(1) if w else None
                break
            elif c in "[;{}":
                break
        member = re.match(r"\s*(?:->|\.)\s*(\w+)", text[occ.end():end])
        found.add((call, member.group(1) if member else None))
    return found


def initializers(text):
    """{(struct, member, function)} of the designated initializers of text
    that store a function: ".member = fn," in "struct S x = { ... }"."""
    found = {}
    openers = [(m.start(), m.group(1)) for m in OPENER.finditer(text)]
    k, line, seen = -1, 1, 0
    for m in INIT.finditer(text):
        while k + 1 < len(openers) and openers[k + 1][0] < m.start():
            k += 1
        line += text.count("\n", seen, m.start())
        seen = m.start()
        if k >= 0:
            found.setdefault((openers[k][1], m.group(1), m.group(2)), line)
    return found


def callbacks(old, new, entries, binds=None):
    """The functions in-tree code stores in a member of a struct (a
    designated initializer of "struct S"), paired across the two trees by
    file, struct, member and name, whose definition changed: the rewrite
    each made (a parameter or the return type become const, a parameter of
    another struct, one dropped), under "struct S.member". The initializer
    of a member gone from S, S still initialized in the file's newer
    version: ("delete",) when it stored what the file does not define (a
    function or a variable of its own: a helper, NULL, THIS_MODULE;
    drm_mode_config_funcs' output_poll_changed) and no
    initializer of the newer version stores it, else None."""
    mo, mn = struct_members(old), struct_members(new)
    r = subprocess.run(["grep", "-rlE", "--include=*.c", r"^[[:space:]]*\.[a-z_0-9]+[[:space:]]*=", "."],
                       cwd=old, capture_output=True, text=True)
    for f in sorted(p[2:] for p in r.stdout.split()):
        if not os.path.isfile(os.path.join(new, f)):
            continue
        to, tn = read(os.path.join(old, f)), read(os.path.join(new, f))
        if to == tn:
            continue
        to, tn = strip_comments(to), strip_comments(tn)
        io, inew = initializers(to), initializers(tn)
        for key in sorted(set(io) & set(inew)):
            s, member, fn = key
            do, dn = definition(to, fn), definition(tn, fn)
            if not do or not dn or do[:2] == dn[:2]:
                continue
            rw = callback_rewrite(do, dn)
            # a parameter of another struct: the head alone, when the body
            # still uses it every way it did (the same calls, the same
            # members; it may use it more); one that no longer reads a
            # member as it did, or hands it to other functions, made more
            # than the head's rewrite
            if rw and rw[0] == "retype":
                a, b = param_name(do[1][rw[1] - 1]), param_name(dn[1][rw[1] - 1])
                if not a or not b or not uses_of(to, do, a) <= uses_of(tn, dn, b):
                    rw = None
            key = "struct %s.%s" % (s, member)
            entries[key].append((rw, f, do[2], dn[2]))
            # a parameter dropped that both bodies use: how the newer one
            # declares it in its place
            a = param_name(do[1][rw[1] - 1]) if rw and rw[0] == "drop" else None
            if a and uses_of(to, do, a) and names_variable(tn, dn, a) and binds is not None:
                binds[key].append((local(tn, dn, do[1][rw[1] - 1], a, rw[1]), f, do[2], dn[2]))
        # the initializers of a member gone, where S is still initialized:
        # deleted when they stored what the file does not define (a
        # helper, NULL) and no initializer stores it now; else no
        # rewrite (the file's own function moved)
        first = {}
        for k, ln in inew.items():
            first[k[0]] = min(first.get(k[0], ln), ln)
        stored = {k[2] for k in inew}
        for s, member, fn in sorted(set(io) - set(inew)):
            if s in mo and s in mn and member in mo[s] - mn[s] and s in first:
                own = definition(to, fn) or re.search(r"\b%s\s*(?:\[[^\]]*\]\s*)*=" % fn, to)
                rw = None if fn in stored or own else ("delete",)
                entries["struct %s.%s" % (s, member)].append(
                    (rw, f, io[(s, member, fn)], first[s] if rw else io[(s, member, fn)]))


def names_variable(text, head, name):
    """Whether the body of the definition head in text names name as a
    variable: not a member's (after '.' or '->'), nor in a string."""
    body = STRING.sub(blank, text[head[3]:body_end(text, head[3])])
    return any(not re.search(r"(?:\.|->)\s*$", body[max(0, m.start() - 8):m.start()])
               for m in re.finditer(r"\b%s\b" % re.escape(name), body))


def local(text, head, param, name, i):
    """("local", i, F, K) when the body of the definition head in text
    declares the parameter dropped (param, named name) as a local of its
    old type set by F(the head's parameter K), a statement of the body's
    own ("const struct i2c_device_id *id = i2c_client_get_device_id(client);");
    else None."""
    names = [param_name(p) for p in head[1]]
    want = " ".join(param.replace("*", " * ").split())
    depth, at = 0, head[3]
    decl = re.compile(r"[;{}]\s*([^;{}=]*?)\b%s\s*=\s*(\w+)\s*\(\s*(\w+)\s*\)\s*;"
                      % re.escape(name))
    while at < len(text):
        depth += {"{": 1, "}": -1}.get(text[at], 0)
        if not depth:
            break
        m = decl.match(text, at) if depth == 1 and text[at] in ";{" else None
        if m and " ".join((m.group(1) + name).replace("*", " * ").split()) == want and \
                m.group(3) in names:
            return ("local", i, m.group(2), names.index(m.group(3)) + 1)
        at += 1
    return None


STRUCT = re.compile(r"\bstruct\s+(\w+)\s*\{")
FIELD_FP = re.compile(r"\(\s*\*\s*(\w+)\s*\)")
FIELD = re.compile(r"(\w+)\s*(?:\[[^\]]*\]\s*)*(?::\s*\w+\s*)?$")


@functools.lru_cache(maxsize=None)
def struct_members(top):
    """struct name -> set of its members' names, as the headers of top
    define them (members of nested unions and structs counted as its own);
    read once per tree (callbacks() and gone_members() both ask)."""
    found = collections.defaultdict(set)
    for _, text in headers(top):
        text = DIRECTIVE.sub(blank, text)
        for m in STRUCT.finditer(text):
            depth, i = 1, m.end()
            while i < len(text) and depth:
                depth += {"{": 1, "}": -1}.get(text[i], 0)
                i += 1
            body = re.sub(r"[{}]", ";", text[m.end():i - 1])
            for decl in body.split(";"):
                decl = " ".join(decl.split())
                if not decl or decl.startswith(("struct ", "union ")) and " " not in decl[7:]:
                    continue
                fp = FIELD_FP.search(decl)
                for part in ([fp.group(1)] if fp else decl.split(",")):
                    f = FIELD.search(part.strip())
                    if f and f.group(1) not in KEYWORDS:
                        found[m.group(1)].add(f.group(1))
    return found


_GONE = {}


def gone_members(old, new, dold, dnew):
    """The members gone from the one struct of the older headers that had
    them, for which the newer headers add functions that name them: (member
    -> struct, member -> those functions). An accessor names what it reads
    or sets, as a word of its name, after the struct's or the member's
    prefix: fd_file() fd's file, inode_get_mtime() and
    inode_set_mtime_to_ts() inode's i_mtime, bdev_partno() block_device's
    bd_partno; a function the older headers have too, after the struct's
    whole name (inode_set_ctime_current(), backported to 6.1.1xx)."""
    if (old, new) in _GONE:
        return _GONE[(old, new)]
    mo, mn = struct_members(old), struct_members(new)
    owner = collections.defaultdict(set)
    for s, ms in mo.items():
        if s in mn:
            for m in ms - mn[s]:
                owner[m].add(s)
    newfuncs = {n for n in dnew if n not in dold}
    words, all_words = collections.defaultdict(set), collections.defaultdict(set)
    for n in dnew:
        for w in n.split("_"):
            (words if n in newfuncs else all_words)[w].add(n)

    def named(m, s):
        pre, short = m.split("_", 1) if "_" in m and len(m.split("_", 1)[0]) <= 3 else ("", m)
        # or one the older headers have too (a stable release's
        # backport: 6.1.1xx's inode_set_ctime_current()) named after
        # the struct whole
        return {n for n in words.get(short, ()) if n.startswith(s.split("_")[0] + "_") or
                (pre and n.startswith(pre))} | \
            {n for n in all_words.get(short, ()) if n.startswith(s + "_")}
    gone = {m: next(iter(ss)) for m, ss in owner.items() if len(ss) == 1 and len(m) > 1}
    accessors = {m: named(m, s) for m, s in gone.items()}
    gone = {m: s for m, s in gone.items() if accessors[m]}
    _GONE[(old, new)] = gone, {m: accessors[m] for m in gone}
    return _GONE[(old, new)]


READ = r"([A-Za-z_][\w]*(?:(?:\.|->)[A-Za-z_]\w*|\[[^\]\n]*\])*)\s*(?:\.|->)\s*%s\b(?!\s*(?:[-+*/%%&|^]?=[^=]|\())"
# a field of the member read, not written: ".tv_sec" of "inode->i_mtime.tv_sec"
OF_MEMBER = re.compile(r"\s*\.\s*([A-Za-z_]\w*)\b")
WRITTEN = re.compile(r"\s*(?:[-+*/%&|^]?=[^=]|\+\+|--)")


def accessor(names, field):
    """Of the accessors a function called with the object, the one a read
    took: of a field ("tv_sec"), the one named after its last word
    (inode_get_mtime_sec()); of the whole member, the one every other one's
    name starts with (inode_get_mtime(), not inode_get_mtime_sec()); None
    when not one."""
    if field:
        names = {n for n in names if n.endswith("_" + field.split("_")[-1])}
    elif len(names) > 1:
        names = {n for n in names if all(o.startswith(n) for o in names)}
    return names.pop() if len(names) == 1 else None


def reads(old, new, dold, dnew, entries):
    """Reads of a member its struct no longer has that in-tree code turned
    into calls of a function or macro new in the newer headers, with what
    came before the '.' or '->' ("f.file" became "fd_file(f)"), under
    "struct S.MEMBER"; a read of one of the member's fields that became
    one call ("inode->i_mtime.tv_sec", "inode_get_mtime_sec(inode)") under
    "struct S.MEMBER.FIELD", a field written no read; a member gone from
    several structs is left out."""
    gone, accessors = gone_members(old, new, dold, dnew)
    if not gone:
        return
    pat = re.compile(READ % ("(" + "|".join(sorted(gone, key=len, reverse=True)) + ")"))
    # the files that read such a member and whose newer version calls one
    # of the accessors
    called = set().union(*(accessors[m] for m in gone))
    for f in sorted(files_using(old, set(gone)) & files_using(new, called)):
        if not os.path.isfile(os.path.join(new, f)):
            continue
        text = strip_comments(read(os.path.join(old, f)))
        bodies = function_bodies(text)
        cn = None
        tn = strip_comments(read(os.path.join(new, f)))
        newbody = {}
        for start, end, name in function_bodies(tn):
            newbody.setdefault(name, tn[start:end])
        for m in pat.finditer(text):
            obj, member = m.group(1), m.group(2)
            if text[max(0, m.start() - 1):m.start()] in ("&", ".", ">") or obj in KEYWORDS:
                continue
            func = func_at(bodies, m.start())
            if not func:
                continue
            obj = " ".join(obj.split())
            fm = OF_MEMBER.match(text, m.end())
            field = fm.group(1) if fm else None
            if fm and WRITTEN.match(text, fm.end()):
                continue
            # still read so there: another struct's member of that name
            if re.search(r"%s\s*(?:\.|->)\s*%s\b" % (re.escape(obj), member),
                         newbody.get(func, "")):
                continue
            if cn is None:
                cn = calls(os.path.join(new, f), None)
            took = {(n, ln) for (fn, n), cs in cn.items()
                    if fn == func and n in accessors[member] for ln, a in cs if a == [obj]}
            name = accessor({n for n, _ in took}, field)
            line = text.count("\n", 0, m.start()) + 1
            rw = ("call", name) if name else None
            entries["struct %s.%s%s" % (gone[member], member, "." + field if field else "")].append(
                (rw, f, line, min(ln for n, ln in took if n == name) if rw else line))


def declared_by(top):
    """header -> the names it declares: its macros and functions, and
    "struct TAG" of each struct it defines."""
    found = collections.defaultdict(set)
    for name, text in headers(top):
        found[name].update(OBJECT.findall(text))
        found[name].update(n for n, _, _ in prototypes(text))
        found[name].update("struct " + t for t in STRUCT.findall(DIRECTIVE.sub(blank, text)))
    return found


def words(text):
    """name ("struct TAG" too) -> the line it is first named at in text."""
    first, line, at = {}, 1, 0
    for m in WORD.finditer(text):
        w = " ".join(m.group(0).split())
        if w not in first:
            line += text.count("\n", at, m.start())
            at = m.start()
            first[w] = line
    return first


def includes(old, new, entries):
    """The names whose in-tree users added the #include of a header that
    declares them (the one they had reached through another header),
    into entries: name -> [(("include", header), file, line of its first
    use in old, line of the #include in new)]. Only a file that named it
    in both trees counts: one that adds the name with its header is no
    adaptation."""
    declared = declared_by(new)
    for root, dirs, files in os.walk(new):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(root, name)
            f = os.path.relpath(path, new)
            if not os.path.isfile(os.path.join(old, f)):
                continue
            tnew = read(path)
            added = {m.group(1).strip(): m for m in INCLUDE.finditer(tnew)}
            if not any(h in declared for h in added):
                continue
            told = read(os.path.join(old, f))
            for m in INCLUDE.finditer(told):
                added.pop(m.group(1).strip(), None)
            if not any(declared.get(h) for h in added):
                continue
            wold, wnew = words(strip_comments(told)), words(strip_comments(tnew))
            for h, m in sorted(added.items()):
                line = tnew.count("\n", 0, m.start()) + 1
                for w in sorted(declared.get(h, set()) & set(wold) & set(wnew)):
                    entries[w].append((("include", h), f, wold[w], line))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: migrations-calls.py OLD-SRC NEW-SRC")
    old, new = sys.argv[1:]
    pold, pnew = collections.defaultdict(set), collections.defaultdict(set)
    dold, dnew = declarations(old, pold), declarations(new, pnew)
    changed = set()
    for name, a in dold.items():
        b = dnew.get(name)
        if not b or len(a) != 1 or len(b) != 1 or None in a or None in b:
            continue
        # another number of parameters, or as many of other types (or
        # names: the pairs show whether callers changed what they pass)
        if a != b or (len(pold[name]) == 1 and len(pnew[name]) == 1 and pold[name] != pnew[name]):
            changed.add(name)
    pairs = collections.defaultdict(list)	# name -> [(rewrite, file, oldline, newline)]
    args = collections.defaultdict(list)	# "NAME N TEXT" -> the same
    renames(old, new, dold, dnew, pairs)
    deletions(old, new, dold, pairs)
    both = files_using(old, changed) & files_using(new, changed) if changed else set()
    for f in sorted(both):
        co = calls(os.path.join(old, f), changed)
        cn = calls(os.path.join(new, f), changed)
        for name, (la, aa), (lb, ab) in paired(co, cn):
            if len(aa) != len(ab):
                if dold[name] != dnew[name]:
                    pairs[name].append((rewrite(aa, ab), f, la, lb))
            else:
                passed(name, aa, ab, f, la, lb, args)
    wrappers(old, new, dold, dnew, pairs, args)
    assigns = collections.defaultdict(list)
    accessors(old, new, dold, dnew, assigns)
    cbs = collections.defaultdict(list)
    binds = collections.defaultdict(list)
    callbacks(old, new, cbs, binds)
    gets = collections.defaultdict(list)
    reads(old, new, dold, dnew, gets)
    incs = collections.defaultdict(list)
    includes(old, new, incs)
    entry(pairs, "Call")
    entry(args, "Argument", single_only=True)
    entry(assigns, "Assign")
    entry(cbs, "Callback", binds=binds)
    entry(gets, "Read")
    entry(incs, "Include")


def entry(pairs, field, single_only=False, binds=None):
    """The entries of pairs (name -> [(rewrite, file, oldline, newline)]);
    single_only: only those that show one rewrite (an argument most
    callers kept is not what changed); binds (name -> the same, of the
    callbacks that dropped a parameter both their bodies use): where the
    entry's rewrite drops it, the local most of them declared in its
    place, when one did at two in three."""
    for name in sorted(pairs):
        ps = pairs[name]
        if ps and ps[0][0] and ps[0][0][0] == "wrap":	# wrappers()'s
            print("\n%-8s %s" % (field + ":", name))
            rewrite_lines(ps[0][0], 1, 1, ps[0][1], ps[0][2], *ps[0][3])
            continue
        counts = collections.Counter(p[0] for p in ps if p[0])
        files = collections.defaultdict(set)
        for p in ps:
            files[p[0]].add(p[1])
        top = counts.most_common(2)
        # a rewrite made in one or two files is theirs, not the API's
        if not top or top[0][1] < MIN or len(files[top[0][0]]) < MIN:
            continue
        single = top[0][1] * 3 >= len(ps) * 2
        if single_only and not single:
            continue
        shown = top[:1] if single or len(top) < 2 else top
        print("\n%-8s %s" % (field + ":", name))
        for rw, n in shown:
            ex = next(p for p in ps if p[0] == rw)
            rewrite_lines(rw, n, len(ps), ex[1], ex[2], ex[1], ex[3])
        bs = binds.get(name, []) if binds is not None and shown[0][0][0] == "drop" else []
        top = collections.Counter(b[0] for b in bs
                                  if b[0] and b[0][1] == shown[0][0][1]).most_common(1)
        if top and top[0][1] >= MIN and top[0][1] * 3 >= len(bs) * 2 and \
                len({b[1] for b in bs if b[0] == top[0][0]}) >= MIN:
            ex = next(b for b in bs if b[0] == top[0][0])
            rewrite_lines(top[0][0], top[0][1], len(ps), ex[1], ex[2], ex[1], ex[3])


def rewrite_lines(rw, n, of, old_file, old_line, new_file, new_line):
    """An entry's Rewrite:, Count: and Example: of rewrite rw."""
    print("Rewrite: %s" % " ".join(str(x) for x in rw))
    print("Count:   %d of %d" % (n, of))
    print("Example: %s:%d -> %s:%d" % (old_file, old_line, new_file, new_line))


if __name__ == "__main__":
    main()
