"""The caret checker of tests/kbuild/carets.sh: every place the plugin
points at must be the token a reader would fix.

  carets.py check EXPORTS OUT BUILD-DIR...
      reads, under each BUILD-DIR (a copy of a kernel folder built with
      M=): diags.json (the build's GCC diagnostics, -fdiagnostics-format=json,
      one array a line; other lines are ignored), check.json (`ksunset check
      --format json` of its modules), nm.txt (`nm -A -u` of its modules) and
      the objects' .*.o.cmd files (the headers each object included).
      EXPORTS lists the kernel's exports, one a line. Writes every mismatch
      to OUT, prints a summary; exits 1 if there was any.
  carets.py configs LOG
      the objects a Kbuild log says failed, each with the config symbol
      that builds its module ("CONFIG_X<TAB>OBJECT"; "-" where the
      folder's Makefile does not say), to build the folder without them.
  carets.py selftest
      the same judgement on a small tree with carets put right and wrong on
      purpose: the wrong ones must be reported, each for its reason.

A caret (a warning's location; a record's, whose column is GCC's display
column) is right when the source text there starts an identifier token,
outside comments and string and character literals, that is
  - the symbol's name (or the name its declaration was written with),
  - a macro (kernel headers or the module's own sources) whose expansion
    reaches the symbol, or whose invocation's arguments do,
  - a static inline function of the kernel's headers whose body reaches the
    symbol, or whose call's arguments do,
  - a library function GCC's folders rewrite into a call of the symbol
    (strncmp(s, "lit", 7) is compiled as strcmp: BUILTIN_FOLDS).
"Reaches" follows macro and inline bodies to a bounded depth; an identifier
pasted with ## reaches every name it is a prefix of; __builtin_NAME reaches
NAME (GCC calls NAME where it does not expand the builtin inline).
Each record must also sit where a warning is, each module's findings must
be the exported names nm -u lists, and each finding must have a record
unless the plugin cannot see the use (INVISIBLE).
"""
import bisect
import collections
import json
import os
import re
import sys
import tempfile
import unicodedata

TABSTOP = 8             # GCC's -ftabstop default, which display columns use
MAX_DEPTH = 12          # macro/inline nesting followed when looking for a symbol
INLINE_WORDS = {"inline", "__inline", "__inline__", "__always_inline"}
NOT_NAMES = {"__attribute__", "__attribute", "typeof", "__typeof__", "__typeof",
             "sizeof", "if", "while", "for", "switch", "return"}

# One C token, in the order the alternatives must be tried: comments and
# literals (with their prefixes) before identifiers; a backslash-newline is
# a splice, not a token.
TOKEN = re.compile(r'''
  (?P<comment>/\*(?:.*?\*/|.*\Z)|//(?:[^\n\\]|\\.|\\\n)*)
| (?P<string>(?:u8|[uUL])?"(?:[^"\\\n]|\\.|\\\n)*"?)
| (?P<char>[uUL]?'(?:[^'\\\n]|\\.|\\\n)*'?)
| (?P<ident>[A-Za-z_$][A-Za-z0-9_$]*)
| (?P<number>\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.])*)
| (?P<splice>\\\r?\n)
| (?P<ws>\s+)
| (?P<punct>.)
''', re.S | re.X)
HEADER_NAME = re.compile(r'^[ \t]*#[ \t]*include[ \t]*(<[^>\n]*>)', re.M)


class Source:
    """One file, tokenised: tokens as (kind, start, end, bol) with bol true
    for the first token of a logical line; byte offsets (read as latin-1,
    so offsets are bytes)."""

    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            self.raw = f.read()
        self.text = self.raw.decode("latin-1")
        self.lines = [0]
        for m in re.finditer("\n", self.text):
            self.lines.append(m.end())
        # the <...> of #include is a header name, not tokens
        names = [(m.start(1), m.end(1)) for m in HEADER_NAME.finditer(self.text)]
        self.toks = []
        bol = True
        for m in TOKEN.finditer(self.text):
            kind, start = m.lastgroup, m.start()
            while names and names[0][1] <= start:
                names.pop(0)
            if names and names[0][0] <= start:
                if start == names[0][0]:
                    self.toks.append(("string", start, names[0][1], False))
                continue
            if kind == "ws":
                bol = bol or "\n" in m.group()
                continue
            if kind == "splice":
                continue
            self.toks.append((kind, start, m.end(), bol))
            bol = False
        self.starts = [t[1] for t in self.toks]

    def word(self, i):
        return self.text[self.toks[i][1]:self.toks[i][2]]

    def line_bytes(self, line):
        """The line's text (without its newline) and its start offset, or
        None past the end of the file."""
        if line < 1 or line > len(self.lines) or \
                (line == len(self.lines) and self.lines[-1] == len(self.text)):
            return None
        start = self.lines[line - 1]
        end = self.lines[line] - 1 if line < len(self.lines) else len(self.text)
        return self.raw[start:end], start

    def token_at(self, off):
        """The index of the token that holds offset off, or None."""
        i = bisect.bisect_right(self.starts, off) - 1
        if i >= 0 and self.toks[i][1] <= off < self.toks[i][2]:
            return i
        return None

    def call_args(self, i):
        """The identifiers in the parenthesised list after token i, if the
        next token opens one."""
        if i + 1 >= len(self.toks) or self.word(i + 1) != "(":
            return []
        depth, out = 0, []
        for j in range(i + 1, len(self.toks)):
            kind, w = self.toks[j][0], self.word(j)
            if w == "(":
                depth += 1
            elif w == ")":
                depth -= 1
                if depth == 0:
                    break
            elif kind == "ident":
                out.append(w)
        return out


def display_width(ch):
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def display_to_byte(line, col):
    """GCC's display column (tabs to the next multiple of TABSTOP, wide
    characters two) as a byte column, or None where no character starts."""
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    disp, byte = 1, 1
    for ch in text:
        if disp == col:
            return byte
        if disp > col:
            return None
        if ch == "\t":
            disp += TABSTOP - (disp - 1) % TABSTOP
        else:
            disp += display_width(ch)
        byte += len(ch.encode("utf-8")) if ch != "\ufffd" else 1
    return byte if disp == col else None


class Definitions:
    """Macros and static inline functions by name: the identifiers of each
    body, and the prefixes it pastes with ##. Inline functions that a macro
    defines with a pasted name (asm/io.h's BUILDIO makes outb_p, page-flags.h's
    PAGEFLAG makes SetPageError) are templates: a pattern of the names, the
    macro and its body. A template's instance also gets the identifiers of
    the top-level invocations (in the headers) that made it: PAGEFLAG(Error,
    error, PF_NO_TAIL) says which policy macro SetPageError calls."""

    def __init__(self):
        self.macros = collections.defaultdict(lambda: [set(), set()])
        self.inlines = collections.defaultdict(lambda: [set(), set()])
        self.templates = []
        self.invocations = collections.defaultdict(list)
        self.files = []
        self.seen = set()
        self.memo = {}
        self.kinds = {}

    def add_file(self, src, inlines=True):
        """Takes a file's definitions; call finish() after the last."""
        path = os.path.realpath(src.path)
        if path not in self.seen:
            self.seen.add(path)
            self.files.append((src, inlines))

    def finish(self):
        """Macros first, so that a macro which stands for inline
        (__FORTIFY_INLINE) counts as an inline word in every file."""
        for src, _ in self.files:
            self._scan(src, False)
        self.inline_words = set(INLINE_WORDS)
        self.inline_words |= {m for m, (ids, _) in self.macros.items() if ids & INLINE_WORDS}
        for src, inlines in self.files:
            if inlines:
                self._scan(src, True)
        self.users = collections.defaultdict(set)      # name -> macros that use it
        for m, (ids, _) in self.macros.items():
            for i in ids:
                self.users[i].add(m)
        self.files = []

    def _scan(self, src, inlines):
        toks, depth, i = src.toks, 0, 0
        while i < len(toks):
            kind, start, end, bol = toks[i]
            w = src.text[start:end]
            if bol and w == "#":
                i = self._directive(src, i, not inlines)
                continue
            if w == "{":
                depth += 1
            elif w == "}":
                depth = max(depth - 1, 0)
            elif inlines and depth == 0 and kind == "ident" and w in self.inline_words:
                i = self._inline(src, i)
                continue
            elif not inlines and depth == 0 and bol and kind == "ident":
                args = src.call_args(i)
                if args:
                    self.invocations[w].append(set(args))
            i += 1

    def _body(self, src, lo, hi, into):
        idents, pastes = into
        for j in range(lo, hi):
            if src.toks[j][0] != "ident":
                continue
            idents.add(src.word(j))
            if j + 2 < hi and src.word(j + 1) == "#" and src.word(j + 2) == "#":
                pastes.add(src.word(j))

    def _directive(self, src, i, take):
        end = i + 1
        while end < len(src.toks) and not src.toks[end][3]:
            end += 1
        if take and end - i >= 3 and src.word(i + 1) == "define" and \
                src.toks[i + 2][0] == "ident":
            body = self.macros[src.word(i + 2)]
            self._body(src, i + 3, end, body)
            if body[0] & INLINE_WORDS:
                self._template(src, src.word(i + 2), i + 3, end)
        return end

    def _template(self, src, macro, lo, hi):
        """The pasted names of the inline functions a macro's body defines."""
        params, j = set(), lo
        if src.word(lo) == "(" and src.toks[lo][1] == src.toks[lo - 1][2]:
            while j < hi and src.word(j) != ")":
                params.add(src.word(j))
                j += 1
        body = None
        for k in range(j, hi):
            if src.word(k) not in INLINE_WORDS:
                continue
            while k < hi and src.word(k) not in ("(", ";", "{"):
                k += 1
            parts = self._pasted_name(src, lo, k - 1)
            if len(parts) < 2:
                continue
            if body is None:
                body = [set(), set()]
                self._body(src, lo, hi, body)
            pattern = "".join(r"(\w*)" if p in params else re.escape(p) for p in parts)
            self.templates.append((re.compile(pattern + r"\Z"), macro, body))

    @staticmethod
    def _pasted_name(src, lo, k):
        """The parts of a name pasted with ## that ends at token k."""
        parts = []
        while k > lo and src.toks[k][0] == "ident":
            parts.insert(0, src.word(k))
            if k - 2 <= lo or not (src.word(k - 1) == "#" and src.word(k - 2) == "#"):
                break
            k -= 3
        return parts

    def _inline(self, src, i):
        """A definition whose specifiers hold an inline word: its names are
        the identifiers before a parenthesis at the top level (attribute
        macros such as __printf(2, 3) come along, harmlessly)."""
        names, depth, j = [], 0, i + 1
        while j < len(src.toks):
            w = src.word(j)
            if src.toks[j][3] and w == "#" or (depth == 0 and w in (";", "=", "}")):
                return j
            if w == "(":
                if depth == 0 and src.toks[j - 1][0] == "ident":
                    names.append(src.word(j - 1))
                depth += 1
            elif w == ")":
                depth -= 1
            elif w == "{" and depth == 0:
                break
            j += 1
        end, depth = j, 0
        while end < len(src.toks):
            w = src.word(end)
            depth += (w == "{") - (w == "}")
            end += 1
            if depth == 0:
                break
        for n in names:
            if n not in NOT_NAMES:
                self._body(src, j, end, self.inlines[n])
        return end

    def _instances(self, macro, captures):
        """The identifiers of the invocations of macro, or of a macro
        that uses it (three deep), that name every captured part."""
        out, level, seen = set(), {macro}, {macro}
        for _ in range(3):
            for m in level:
                for args in self.invocations.get(m, ()):
                    if all(c in args for c in captures):
                        out |= args
            level = {u for m in level for u in self.users.get(m, ()) if u not in seen}
            seen |= level
        return out

    def bodies(self, name):
        """(kind, idents, pastes) of every definition of name."""
        out = []
        if name in self.macros:
            out.append(("macro",) + tuple(self.macros[name]))
        if name in self.inlines:
            out.append(("inline",) + tuple(self.inlines[name]))
        for pattern, macro, (idents, pastes) in self.templates:
            m = pattern.match(name)
            if m and all(m.groups()):       # not the pasted fragment itself
                out.append(("inline", idents | self._instances(macro, m.groups()), pastes))
        return out

    def kind(self, name):
        """'macro' or 'inline' (a macro wins: it is what the name means
        where it is written), or None."""
        if name not in self.kinds:
            b = self.bodies(name)
            self.kinds[name] = b[0][0] if b else None
        return self.kinds[name]

    def reaches(self, name, targets):
        """Whether the expansion or body of name mentions a target,
        following nested macros and inline functions MAX_DEPTH deep."""
        key = (name, targets)
        if key not in self.memo:
            self.memo[key] = self._search(name, targets)
        return self.memo[key]

    def _search(self, name, targets):
        seen, level = {name}, [name]
        for _ in range(MAX_DEPTH + 1):
            nxt = []
            for n in level:
                for _, idents, pastes in self.bodies(n):
                    if idents & targets or \
                            any(t.startswith(p) for p in pastes for t in targets):
                        return True
                    nxt += [i for i in idents if i not in seen and self.kind(i)]
                    seen.update(idents)
            level = nxt
        return False


def static_call_name(sym):
    """A static call's trampoline and key are spelt by pasting a prefix
    macro onto the call's name (STATIC_CALL_TRAMP(name)); that name is
    what the headers write."""
    for prefix in ("__SCT__", "__SCK__"):
        if sym.startswith(prefix):
            return sym[len(prefix):]
    return None


# The library calls GCC's folders write in place of others, by the name
# written: what the object imports, from what the source may say.
BUILTIN_FOLDS = {
    "strcmp": {"strncmp"},                      # strncmp(s, "lit", n > 3)
    "strcpy": {"sprintf"},                      # sprintf(d, "%s", s)
    "memcpy": {"strcpy", "memmove", "sprintf"},  # a known length
    "strchr": {"strstr", "strpbrk"},            # a one-character needle
}


class Targets(frozenset):
    """The names a right caret's expansion may reach; .folded: those that
    are a builtin GCC rewrote into the symbol."""
    folded = frozenset()


def targets_of(sym, name):
    """The names a right caret's expansion may reach."""
    names = {x for x in (sym, name, static_call_name(sym)) if x}
    folded = BUILTIN_FOLDS.get(sym, set()) - names
    names |= folded | {"__builtin_" + x for x in names | folded}
    out = Targets(names)
    out.folded = frozenset(folded)
    return out


RIGHT = ("symbol", "macro", "inline", "builtin")


class Checker:
    def __init__(self, defs):
        self.defs = defs
        self.sources = {}
        self.mismatches = []
        self.counts = collections.Counter()

    def source(self, path):
        if path not in self.sources:
            try:
                src = Source(path)
            except OSError:
                src = None
            self.sources[path] = src
        return self.sources[path]

    def judge(self, path, line, col, targets, display):
        """'symbol', 'macro' or 'inline' for a right caret, else a
        mismatch kind; with the text found there."""
        src = self.source(path)
        if src is None:
            return "no-such-file", ""
        lb = src.line_bytes(line)
        if lb is None:
            return "no-such-line", ""
        text, start = lb
        if display:
            byte = display_to_byte(text, col)
            if byte is None:
                return "column-inside-character", text.decode("utf-8", "replace")
            col = byte
        if col < 1 or col > len(text):
            return "past-end-of-line", text.decode("utf-8", "replace")
        i = src.token_at(start + col - 1)
        found = text[col - 1:].decode("utf-8", "replace")
        if i is None:
            return "white-space", found
        kind, tstart = src.toks[i][0], src.toks[i][1]
        if kind != "ident":
            return {"comment": "in-comment", "string": "in-string", "char": "in-string",
                    "number": "number", "punct": "punctuation"}[kind], found
        if tstart != start + col - 1:
            return "inside-identifier", found
        return self.relation(src, i, targets), src.word(i)

    def relation(self, src, i, targets):
        word = src.word(i)
        if word in targets:
            return "builtin" if word in targets.folded else "symbol"
        kind = self.defs.kind(word)
        if not kind:
            return "unrelated-identifier"
        if self.defs.reaches(word, targets):
            return kind
        for a in src.call_args(i):
            if a in targets or (self.defs.kind(a) and self.defs.reaches(a, targets)):
                return kind
        return kind + "-not-reaching"

    def caret(self, what, path, line, col, sym, name, display=False):
        targets = targets_of(sym, name)
        verdict, found = self.judge(path, line, col, targets, display)
        self.counts["carets"] += 1
        self.counts[what + " carets"] += 1
        if verdict in RIGHT:
            self.counts["caret on " + verdict] += 1
            return True
        self.counts["mismatch " + verdict] += 1
        self.mismatches.append("%s:%d:%d: %s '%s': %s: %s" % (
            path, line, col, what, sym, verdict, found.strip()[:60]))
        return False

    def mismatch(self, kind, text):
        self.counts["mismatch " + kind] += 1
        self.mismatches.append(text)


# "'NAME' (symbol 'SYM') ..." or "'SYM' ..."
MESSAGE = re.compile(r"^'([^']+)'(?: \(symbol '([^']+)'\))? ")


def plugin_warnings(path):
    """(sym, name, file, line, byte column, display column) of every ksunset
    warning in a log of -fdiagnostics-format=json arrays."""
    out = []
    with open(path, errors="replace") as f:
        for line in f:
            if not line.startswith("["):
                continue
            try:
                diags = json.loads(line)
            except ValueError:
                continue
            for d in diags:
                m = MESSAGE.match(d.get("message", ""))
                if d.get("option") != "-Wdeprecated-declarations" or not m:
                    continue
                caret = d["locations"][0]["caret"]
                name, sym = m.group(1), m.group(2) or m.group(1)
                out.append((sym, name, caret["file"], caret["line"], caret["byte-column"],
                            caret["display-column"]))
    return out


def cmd_deps(build):
    """The headers every object under build included (Kbuild's .cmd files)."""
    deps = set()
    for root, _, files in os.walk(build):
        for f in files:
            if not (f.startswith(".") and f.endswith(".o.cmd")):
                continue
            with open(os.path.join(root, f), errors="replace") as fh:
                for line in fh:
                    line = line.strip().rstrip("\\").strip()
                    if line.endswith(".h") and not line.startswith(("$", "deps_", "cmd_")):
                        deps.add(line)
    return deps


def own_sources(build):
    for root, _, files in os.walk(build):
        for f in files:
            if f.endswith((".c", ".h")) and not f.endswith(".mod.c"):
                yield os.path.join(root, f)


def check_build(ck, build, exports, warned):
    """The carets of one build folder's warnings and records, and its
    modules' findings against nm -u."""
    for sym, name, path, line, bcol, dcol in plugin_warnings(os.path.join(build, "diags.json")):
        ck.counts["warnings"] += 1
        ck.caret("warning", path, line, bcol, sym, name)
        src = ck.source(path)
        lb = src and src.line_bytes(line)
        if lb and display_to_byte(lb[0], dcol) != bcol:
            ck.mismatch("display-column", "%s:%d: display column %d is not byte column %d"
                        % (path, line, dcol, bcol))
        warned.add((sym, path, line, dcol))
    with open(os.path.join(build, "check.json")) as f:
        report = json.load(f)
    found = collections.defaultdict(set)
    for fi in report["findings"]:
        found[fi["module"]].add(fi["symbol"])
        unrecorded(ck, fi)
        for loc in fi["locations"]:
            if loc["source"] != "plugin":
                continue
            ck.counts["records"] += 1
            ck.caret("record", loc["file"], loc["line"], loc["column"], fi["symbol"], None,
                     display=True)
            if (fi["symbol"], loc["file"], loc["line"], loc["column"]) not in warned:
                ck.mismatch("record-without-warning", "%s:%d:%d: record '%s': no warning there"
                            % (loc["file"], loc["line"], loc["column"], fi["symbol"]))
    compare_nm(ck, os.path.join(build, "nm.txt"), exports, found)


# Imports a GIMPLE pass cannot see (as tests/kbuild/world.sh): calls GCC
# makes itself (ftrace, retpolines, the stack protector, block copies),
# calls written in inline assembly (static calls, get_user()/put_user(), the
# popcnt alternative's __sw_hweight*, clear_user()'s clear_user_*).
INVISIBLE = re.compile(r"(__fentry__|__x86_return_thunk|__x86_indirect_thunk_.*|"
                       r"__stack_chk_fail|__SCT__.*|__get_user_.*|__put_user_.*|clear_user_.*|"
                       r"__sw_hweight(8|16|32|64)|memcpy|memmove|memset)\Z")


def unrecorded(ck, finding):
    """An import the plugin should have recorded and did not: a use lost."""
    if any(loc["source"] == "plugin" for loc in finding["locations"]):
        return
    if INVISIBLE.match(finding["symbol"]):
        ck.counts["imports invisible to the plugin"] += 1
        return
    ck.mismatch("import-without-record", "%s: '%s': imported, and the plugin recorded no use"
                % (finding["module"], finding["symbol"]))


def compare_nm(ck, nm_txt, exports, found):
    """ksunset check's symbols per module against nm -u's exported names."""
    undef = collections.defaultdict(set)
    with open(nm_txt) as f:
        for line in f:
            mod, _, rest = line.rpartition(":")
            fields = rest.split()
            if mod and fields and fields[-1] in exports:
                undef[mod].add(fields[-1])
            elif mod:
                undef[mod]
    for mod in sorted(undef):
        ck.counts["modules"] += 1
        ck.counts["imports (nm -u, exported)"] += len(undef[mod])
        for s in sorted(undef[mod] - found.get(mod, set())):
            ck.mismatch("import-not-found", "%s: '%s': nm -u imports it, check has no finding"
                        % (mod, s))
        for s in sorted(found.get(mod, set()) - undef[mod]):
            ck.mismatch("finding-not-imported", "%s: '%s': check reports it, nm -u has no import"
                        % (mod, s))
    for mod in sorted(set(found) - set(undef)):
        ck.mismatch("finding-of-unknown-module", "%s: check reports a module nm did not see" % mod)


def summary(ck, out):
    """The counts, one a line."""
    keys = ["modules", "imports (nm -u, exported)", "imports invisible to the plugin",
            "warnings", "records", "carets"]
    keys += sorted(k for k in ck.counts if k.startswith("caret on "))
    keys += sorted(k for k in ck.counts if k.startswith("mismatch "))
    for k in keys:
        print("  %-32s %d" % (k, ck.counts[k]), file=out)
    print("  %-32s %d" % ("mismatches", len(ck.mismatches)), file=out)


def run_check(exports_txt, out_path, builds):
    with open(exports_txt) as f:
        exports = set(f.read().split())
    defs = Definitions()
    ck = Checker(defs)
    for b in builds:
        for h in sorted(cmd_deps(b)):
            src = ck.source(h)
            if src:
                defs.add_file(src)
        for p in own_sources(b):
            src = ck.source(p)
            if src:
                defs.add_file(src, inlines=False)
    defs.finish()
    warned = set()
    for b in builds:
        check_build(ck, b, exports, warned)
    with open(out_path, "w") as out:
        for m in ck.mismatches:
            print("MISMATCH " + m, file=out)
    summary(ck, sys.stdout)
    return 1 if ck.mismatches else 0


# The self-test: a header with a wrapper macro and an inline wrapper, a
# source whose lines hold right and wrong carets. Each case: line, byte
# column, symbol, the verdict the checker must give.
SELF_HEADER = """\
#define CALL_X(a) ({ int __r = export_x(a); __r; })
#define PASTE(n) export_ ## n (0)
#define UNRELATED(a) (a + 1)
static inline __attribute__((always_inline)) int wrap_y(int v)
{
\treturn export_y(v) + 1;
}
static inline int wrap_deep(int v) { return wrap_y(v); }
#define GEN(n, pol) static inline int get_##n(int v) { return pol(v); }
GEN(one, CALL_X)
GEN(two, UNRELATED)
static inline void resched(void) { static_call_mod(cond_resched)(); }
#define COPY(d, s, n) __builtin_memcpy(d, s, n)
"""
SELF_SOURCE = """\
#include <selftest.h>
int f(int a)
{
\ta = export_x(a);\t/* export_x again */
\ta += CALL_X(a) + UNRELATED(a);
\ta += wrap_deep(a) + PASTE(x);
\ta += UNRELATED(export_y(a)); // "export_y"
\treturn printk("export_x %d", a);
}
int g(int a)
{
\treturn get_one(a) + get_two(a) + (resched(), 0);
}
int h(char *d, const char *s)
{
\tCOPY(d, s, 4);
\treturn strncmp(s, "lit", 7) + strlen(s);
}
"""
SELF_CASES = [
    (4, 6, "export_x", False, "symbol"),             # the call, after a tab
    (4, 13, "export_x", True, "symbol"),             # display column 13 = byte 6
    (4, 22, "export_x", False, "in-comment"),        # the comment's mention
    (5, 7, "export_x", False, "macro"),              # CALL_X expands to it
    (5, 19, "export_x", False, "macro-not-reaching"),  # UNRELATED does not
    (5, 7, "export_y", False, "macro-not-reaching"),  # CALL_X, another symbol
    (6, 7, "export_y", False, "inline"),             # wrap_deep -> wrap_y -> export_y
    (6, 22, "export_x", False, "macro"),             # PASTE pastes export_ ## x
    (7, 7, "export_y", False, "macro"),              # UNRELATED's argument is the use
    (7, 9, "export_y", False, "inside-identifier"),
    (7, 36, "export_y", False, "in-comment"),
    (8, 17, "export_x", False, "in-string"),
    (8, 9, "export_x", False, "unrelated-identifier"),  # printk: not a wrapper
    (8, 15, "export_x", False, "punctuation"),
    (4, 8, "export_x", True, "column-inside-character"),  # inside the tab's width
    (2, 40, "export_x", False, "past-end-of-line"),
    (99, 1, "export_x", False, "no-such-line"),
    (12, 9, "export_x", False, "inline"),            # GEN(one, CALL_X) made get_one
    (12, 22, "export_x", False, "inline-not-reaching"),  # GEN(two, UNRELATED): get_two
    (12, 36, "__SCT__cond_resched", False, "inline"),  # a static call's trampoline
    (12, 36, "__SCT__other", False, "inline-not-reaching"),
    (16, 2, "memcpy", False, "macro"),               # COPY: __builtin_memcpy
    (16, 2, "memmove", False, "macro-not-reaching"),
    (17, 9, "strcmp", False, "builtin"),             # folded into strcmp
    (17, 9, "strlen", False, "unrelated-identifier"),  # strncmp never becomes strlen
    (17, 32, "strcmp", False, "unrelated-identifier"),
]
# nm -u of a module, and the symbols ksunset check found in it: one import
# without a finding, one finding without an import; and a finding with no
# record (__fentry__'s is no use lost).
SELF_NM = "m.ko:  U export_x\nm.ko:  U export_y\nm.ko:  U __fentry__\n"
SELF_FOUND = {"m.ko": {"export_x", "export_z"}}
SELF_NM_WANT = ["mismatch import-not-found", "mismatch finding-not-imported",
                "mismatch import-without-record"]


def selftest():
    with tempfile.TemporaryDirectory() as d:
        h, c = os.path.join(d, "selftest.h"), os.path.join(d, "t.c")
        with open(h, "w") as f:
            f.write(SELF_HEADER)
        with open(c, "w") as f:
            f.write(SELF_SOURCE)
        defs = Definitions()
        ck = Checker(defs)
        defs.add_file(ck.source(h))
        defs.add_file(ck.source(c), inlines=False)
        defs.finish()
        bad = 0
        for line, col, sym, display, want in SELF_CASES:
            got = ck.judge(c, line, col, targets_of(sym, None), display)[0]
            ok = got == want
            bad += not ok
            print("%s carets selftest: %d:%d%s %s -> %s%s" % (
                "PASS" if ok else "FAIL", line, col, " (display)" if display else "", sym,
                got, "" if ok else " (want %s)" % want))
        wrong = [x for x in SELF_CASES if x[4] not in RIGHT]
        ck2 = Checker(defs)
        for line, col, sym, display, _ in wrong:
            ck2.caret("warning", c, line, col, sym, None, display)
        ok = len(ck2.mismatches) == len(wrong)
        bad += not ok
        print("%s carets selftest: every wrong caret is a mismatch (%d of %d)" % (
            "PASS" if ok else "FAIL", len(ck2.mismatches), len(wrong)))
        nm = os.path.join(d, "nm.txt")
        with open(nm, "w") as f:
            f.write(SELF_NM)
        ck3 = Checker(defs)
        compare_nm(ck3, nm, {"export_x", "export_y", "export_z"}, SELF_FOUND)
        for sym in ("export_x", "__fentry__"):
            unrecorded(ck3, {"module": "m.ko", "symbol": sym, "locations": []})
        got = sorted(k for k in ck3.counts if k.startswith("mismatch "))
        ok = got == sorted(SELF_NM_WANT) and len(ck3.mismatches) == 3
        bad += not ok
        print("%s carets selftest: findings against nm -u and records: %s" % (
            "PASS" if ok else "FAIL", "; ".join(ck3.mismatches)))
    return 1 if bad else 0


FAILED = re.compile(r"^make\[\d+\]: \*\*\* \[[^\]]*: (\S+\.o)\] Error")
ASSIGN = re.compile(r"^\s*([\w$()-]+?)-(y|objs|\$\((CONFIG_\w+)\))\s*[:+]?=(.*)$")


def makefile_rules(folder):
    """(module-or-obj, config, objects) of each assignment in a folder's
    Kbuild or Makefile, continuation lines joined."""
    for name in ("Kbuild", "Makefile"):
        path = os.path.join(folder, name)
        if os.path.exists(path):
            break
    else:
        return []
    with open(path, errors="replace") as f:
        text = f.read().replace("\\\n", " ")
    rules = []
    for line in text.splitlines():
        m = ASSIGN.match(line)
        if m:
            rules.append((m.group(1), m.group(3), m.group(4).split()))
    return rules


def config_of(obj):
    """The config symbol of the module that obj is built into."""
    folder, name = os.path.split(obj)
    rules = makefile_rules(folder)
    for _ in range(4):
        owner = next((r for r in rules if name in r[2]), None)
        if owner is None:
            return None
        target, config = owner[0], owner[1]
        if target == "obj":
            return config
        name = target + ".o"
    return None


def configs(log):
    with open(log, errors="replace") as f:
        failed = sorted({m.group(1) for m in map(FAILED.match, f) if m})
    for obj in failed:
        print("%s\t%s" % (config_of(obj) or "-", obj))
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] == "configs":
        return configs(argv[2])
    if len(argv) >= 2 and argv[1] == "selftest":
        return selftest()
    if len(argv) >= 5 and argv[1] == "check":
        return run_check(argv[2], argv[3], argv[4:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
