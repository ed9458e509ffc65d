"""A reader for the MIDL subset used by Microsoft's D3D12 IDL files.

It turns d3d12.idl, d3dcommon.idl, dxgiformat.idl, ... (Debian's directx-headers-dev)
into a list of declarations: constants, enumerations, structures, typedefs,
interfaces with their methods in vtable order, GUIDs and functions.  Only the facts
are kept (names, types, values, layouts, order); tools/gen_d3d12_headers.py writes
the C and C++ text itself.

cpp_quote() lines are read for the facts they carry (DEFINE_GUID, static const UUID,
DEFINE_ENUM_FLAG_OPERATORS, object-like #define constants, function prototypes and
function-pointer typedefs); macros with parameters and other C text are skipped and
listed in Idl.skipped (our own description supplies what we need of them).
"""

import re

TOKEN_RE = re.compile(r"""
    (?P<ws>\s+)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<number>0[xX][0-9a-fA-F]+[uUlL]*|[0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?[fF]?|[0-9]+(?:[eE][-+]?[0-9]+)?[fFuUlL]*)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct><<|>>|::|[{}()\[\];,=:*|&+\-~<>?!/%.^])
  | (?P<pp>\#[^\n]*)
  | (?P<other>\\|')
""", re.S | re.X)

SAL_RE = re.compile(r"^_[A-Z][A-Za-z_]*_$|^_In_|^_Out|^_Inout|^_COM_|^_Always_|^_Field_|^_Maybenull_")


class IdlError(Exception):
    pass


def tokenize(text, keep_pp=False):
    toks = []
    pos = 0
    while pos < len(text):
        m = TOKEN_RE.match(text, pos)
        if not m:
            raise IdlError("cannot read '%s'" % text[pos:pos + 40])
        pos = m.end()
        kind = m.lastgroup
        if kind in ("ws", "comment", "other"):
            continue
        if kind == "pp":
            if keep_pp:
                toks.append(("pp", m.group()))
            continue
        toks.append((kind, m.group()))
    return toks


class Member:
    """A struct member: a plain field, or an anonymous/named union or struct."""
    def __init__(self, type_=None, name=None, array="", bits=None, nested=None, nested_kind=None):
        self.type = type_            # C type text ("const D3D12_RANGE *")
        self.name = name
        self.array = array           # "[4]" / "[D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT]"
        self.bits = bits
        self.nested = nested         # list of Member for union/struct
        self.nested_kind = nested_kind


class Param:
    def __init__(self, type_, name, array="", annotations=()):
        self.type = type_
        self.name = name
        self.array = array
        # The SAL annotations and MIDL attributes of the parameter, as written
        # ("_COM_Outptr_", "out", "iid_is(riid)", ...): what the generator reads to tell
        # what the callee writes.
        self.annotations = list(annotations)


class Method:
    def __init__(self, ret, name, params):
        self.ret = ret
        self.name = name
        self.params = params


class Interface:
    def __init__(self, name, base, guid, source):
        self.name = name
        self.base = base
        self.guid = guid
        self.methods = []
        self.source = source


class Decl:
    def __init__(self, kind, name, source, **kw):
        self.kind = kind
        self.name = name
        self.source = source
        self.__dict__.update(kw)


def join_decls(names):
    return ", ".join(join_type(x.split()) for x in " ".join(names).split(" , "))


def join_type(toks):
    """C type text from tokens: 'const', 'void', '*', '*' -> 'const void **'."""
    out = ""
    for t in toks:
        if t == "*":
            out = out.rstrip() + (" " if out and not out.endswith("*") else "") + "*"
        else:
            if out and not out.endswith(" "):
                out += " "
            out += t
    return out.strip()


class Parser:
    def __init__(self, toks, source):
        self.t = toks
        self.i = 0
        self.source = source

    def peek(self, k=0):
        j = self.i + k
        return self.t[j][1] if j < len(self.t) else None

    def kind(self, k=0):
        j = self.i + k
        return self.t[j][0] if j < len(self.t) else None

    def next(self):
        if self.i >= len(self.t):
            raise IdlError("%s: unexpected end" % self.source)
        v = self.t[self.i][1]
        self.i += 1
        return v

    def expect(self, v):
        got = self.next()
        if got != v:
            ctx = " ".join(x[1] for x in self.t[max(0, self.i - 12):self.i + 4])
            raise IdlError("%s: expected '%s', got '%s' near: %s" % (self.source, v, got, ctx))

    def skip_attrs(self):
        """Skips '[ ... ]' groups; returns their raw text."""
        texts = []
        while self.peek() == "[":
            depth = 0
            buf = []
            while True:
                v = self.next()
                buf.append(v)
                if v == "[":
                    depth += 1
                elif v == "]":
                    depth -= 1
                    if depth == 0:
                        break
            texts.append(" ".join(buf))
        return " ".join(texts)

    def until(self, stop):
        """Tokens up to (not including) one of stop at nesting depth 0."""
        out = []
        depth = 0
        while True:
            v = self.peek()
            if v is None:
                raise IdlError("%s: unexpected end" % self.source)
            if depth == 0 and v in stop:
                return out
            if v in "([{":
                depth += 1
            elif v in ")]}":
                depth -= 1
            out.append(self.next())


def parse_members(p, closing="}"):
    members = []
    while p.peek() != closing:
        p.skip_attrs()
        if p.peek() in ("union", "struct") and p.peek(1) in ("{",) or \
                (p.peek() in ("union", "struct") and p.peek(1) == "switch"):
            kind = p.next()
            if p.peek() == "switch":       # encapsulated unions are not used by d3d12
                raise IdlError("switch unions are not supported")
            p.expect("{")
            nested = parse_members(p)
            p.expect("}")
            name = None
            if p.peek() != ";":
                name = p.next()
            p.expect(";")
            members.append(Member(nested=nested, nested_kind=kind, name=name))
            continue
        toks = p.until([";"])
        p.expect(";")
        bits = None
        if ":" in toks:
            k = toks.index(":")
            bits = " ".join(toks[k + 1:])
            toks = toks[:k]
        array = ""
        while toks and toks[-1] == "]":
            k = len(toks) - 1 - toks[::-1].index("[")
            array = "[" + " ".join(toks[k + 1:-1]) + "]" + array
            toks = toks[:k]
        name = toks[-1]
        members.append(Member(type_=join_type(toks[:-1]), name=name, array=array, bits=bits))
    return members


def attr_annotations(text):
    """The attributes of a '[ ... ]' group before a parameter: MIDL words ("out", "iid_is(riid)")
    and the SAL text of annotation("...") entries (skip_attrs's text, tokens joined by spaces)."""
    if not text:
        return []
    out = []
    for group in re.findall(r"\[(.*?)\]", text.replace(" ", "")):
        depth = 0
        item = ""
        for ch in group + ",":
            if ch == "," and depth == 0:
                if item:
                    m = re.match(r'^annotation\("(.*)"\)$', item)
                    out.append(m.group(1) if m else item)
                item = ""
                continue
            depth += {"(": 1, ")": -1}.get(ch, 0)
            item += ch
    return out


def parse_params(p):
    params = []
    p.expect("(")
    while p.peek() != ")":
        annotations = attr_annotations(p.skip_attrs())
        toks = p.until([",", ")"])
        if p.peek() == ",":
            p.next()
        kept = []
        k = 0
        while k < len(toks):
            if SAL_RE.match(toks[k]):
                start = k
                k += 1
                if k < len(toks) and toks[k] == "(":
                    depth = 0
                    while True:
                        depth += {"(": 1, ")": -1}.get(toks[k], 0)
                        k += 1
                        if depth == 0:
                            break
                annotations.append("".join(toks[start:k]))
                continue
            kept.append(toks[k])
            k += 1
        toks = kept
        if toks == ["void"]:
            continue
        array = ""
        while toks and toks[-1] == "]":
            k = len(toks) - 1 - toks[::-1].index("[")
            array = "[" + " ".join(toks[k + 1:-1]) + "]" + array
            toks = toks[:k]
        if len(toks) >= 2 and toks[-1] not in ("*",) and re.match(r"^[A-Za-z_]\w*$", toks[-1]) \
                and not (len(toks) == 2 and toks[0] == "const"):
            name = toks[-1]
            type_toks = toks[:-1]
        else:
            name = None
            type_toks = toks
        params.append(Param(join_type([t for t in type_toks if t != "interface"]), name, array, annotations))
    p.expect(")")
    return params


def _c_prototypes(text):
    """Function prototypes and function-pointer typedefs in a cpp_quote block."""
    found = []
    toks = [t for t in tokenize(text) if t[0] != "string"]
    p = Parser(toks, "cpp_quote")
    while p.peek() is not None:
        start = p.i
        try:
            if p.peek() == "typedef" and "(" in [x[1] for x in toks[p.i:p.i + 4]]:
                p.next()
                ret = p.until(["("])
                p.expect("(")
                cc = p.until(["*"])
                p.expect("*")
                name = p.next()
                p.expect(")")
                params = parse_params(p)
                p.expect(";")
                found.append(Decl("funcptr", name, None, ret=join_type(ret),
                                  params=params, callconv=" ".join(cc)))
                continue
            if p.peek(1) == "WINAPI" and p.kind(2) == "ident" and p.peek(3) == "(":
                ret = p.next()
                p.next()
                name = p.next()
                params = parse_params(p)
                p.expect(";")
                found.append(Decl("function", name, None, ret=ret, params=params))
                continue
        except IdlError:
            p.i = start
        p.i = start + 1
    return found


GUID_RE = re.compile(r"DEFINE_GUID\(\s*(\w+)\s*,\s*([^)]*)\)")
UUID_RE = re.compile(r"static\s+const\s+UUID\s+(\w+)\s*=\s*\{[^{]*?(0x[0-9a-fA-F]+)\s*,\s*(0x[0-9a-fA-F]+)\s*,"
                     r"\s*(0x[0-9a-fA-F]+)\s*,\s*\{([^}]*)\}", re.S)
DEFINE_RE = re.compile(r"^\s*#define\s+(\w+)(\s+.*)?$")
FLAGOPS_RE = re.compile(r"DEFINE_ENUM_FLAG_OPERATORS\(\s*(\w+)\s*\)")


def guid_from_parts(parts):
    v = [int(x, 16) for x in parts]
    return "%08x-%04x-%04x-%02x%02x-%s" % (v[0], v[1], v[2], v[3], v[4],
                                          "".join("%02x" % b for b in v[5:11]))


class Idl:
    def __init__(self):
        self.decls = []          # ordered Decl / Interface
        self.flag_enums = set()
        self.skipped = []        # cpp_quote text we did not turn into a declaration

    def parse_file(self, path, source):
        with open(path) as f:
            text = f.read()
        # pragma and preprocessor lines of the IDL itself
        lines = []
        for line in text.split("\n"):
            s = line.strip()
            if s.startswith("#pragma"):
                continue
            if s.startswith("#define"):
                m = DEFINE_RE.match(s)
                if m and m.group(2):
                    self.decls.append(Decl("define", m.group(1), source, value=m.group(2).strip()))
                continue
            if s.startswith("#"):
                continue
            lines.append(line)
        toks = tokenize("\n".join(lines))
        p = Parser(toks, path)
        quote = []

        def flush_quote():
            if quote:
                self._cpp_quote("\n".join(quote), source)
                del quote[:]

        while p.peek() is not None:
            if p.peek() == "cpp_quote":
                p.next()
                p.expect("(")
                s = p.next()
                p.expect(")")
                quote.append(bytes(s[1:-1], "utf-8").decode("unicode_escape"))
                continue
            flush_quote()
            self._statement(p, source)
        flush_quote()

    def _cpp_quote(self, text, source):
        used = False
        for m in GUID_RE.finditer(text):
            parts = [x.strip() for x in m.group(2).split(",")]
            self.decls.append(Decl("guid", m.group(1), source, guid=guid_from_parts(parts)))
            used = True
        for m in UUID_RE.finditer(text):
            parts = [m.group(2), m.group(3), m.group(4)] + [x.strip() for x in m.group(5).split(",")]
            self.decls.append(Decl("guid", m.group(1), source, guid=guid_from_parts(parts), static=True))
            used = True
        for m in FLAGOPS_RE.finditer(text):
            self.flag_enums.add(m.group(1))
            used = True
        for line in text.split("\n"):
            m = DEFINE_RE.match(line)
            if m and m.group(2) and not line.rstrip().endswith("\\") and "(" not in m.group(1):
                name, value = m.group(1), m.group(2).strip()
                if name.startswith("_") or name in ("INTERFACE",):
                    continue
                self.decls.append(Decl("define", name, source, value=value))
                used = True
        for d in _c_prototypes(text):
            d.source = source
            self.decls.append(d)
            used = True
        m = re.search(r"typedef\s+(?:interface\s+)?(\w+)\s*\*\s*(\w+)\s*;", text)
        for m in re.finditer(r"typedef\s+(?:interface\s+)?(\w+)\s*(\*?)\s*(\w+)\s*;", text):
            if m.group(1) == m.group(3):
                continue
            self.decls.append(Decl("typedef", m.group(3), source, type=m.group(1) + (" *" if m.group(2) else "")))
            used = True
        if not used and text.strip():
            self.skipped.append(text)

    def _statement(self, p, source):
        attrs = p.skip_attrs()
        v = p.peek()
        if v == "import":
            p.until([";"])
            p.expect(";")
        elif v == "const":
            p.next()
            toks = p.until([";"])
            p.expect(";")
            eq = toks.index("=")
            self.decls.append(Decl("const", toks[eq - 1], source, type=" ".join(toks[:eq - 1]),
                                   value=" ".join(toks[eq + 1:])))
        elif v == "typedef":
            p.next()
            p.skip_attrs()
            w = p.peek()
            if w == "enum":
                p.next()
                tag = p.next()
                p.expect("{")
                members = []
                while p.peek() != "}":
                    name = p.next()
                    val = None
                    if p.peek() == "=":
                        p.next()
                        val = " ".join(p.until([",", "}"]))
                    if p.peek() == ",":
                        p.next()
                    members.append((name, val))
                p.expect("}")
                names = p.until([";"])
                p.expect(";")
                self.decls.append(Decl("enum", names[0], source, tag=tag, members=members,
                                       declarators=join_decls(names)))
            elif w in ("struct", "union"):
                p.next()
                tag = p.next() if p.peek() != "{" else None
                if p.peek() == "{":
                    p.expect("{")
                    members = parse_members(p)
                    p.expect("}")
                    names = p.until([";"])
                    p.expect(";")
                    self.decls.append(Decl(w, names[0], source, tag=tag, members=members,
                                           declarators=join_decls(names)))
                else:
                    names = p.until([";"])
                    p.expect(";")
                    self.decls.append(Decl("typedef", names[-1], source, type="%s %s" % (w, tag)))
            else:
                toks = p.until([";"])
                p.expect(";")
                if "(" in toks:        # function pointer: RET ( CC * NAME ) ( params )
                    sub = Parser([("x", t) for t in toks] + [("x", ";")], source)
                    ret = sub.until(["("])
                    sub.expect("(")
                    cc = sub.until(["*"])
                    sub.expect("*")
                    name = sub.next()
                    sub.expect(")")
                    params = parse_params(sub)
                    self.decls.append(Decl("funcptr", name, source, ret=join_type(ret), params=params,
                                           callconv=" ".join(cc)))
                else:
                    self.decls.append(Decl("typedef", toks[-1], source, type=join_type(toks[:-1])))
        elif v == "interface":
            p.next()
            name = p.next()
            if p.peek() == ";":
                p.next()
                return
            base = None
            if p.peek() == ":":
                p.next()
                base = p.next()
            m = re.search(r"uuid\(([0-9a-fA-F-]+)\)", attrs.replace(" ", ""))
            if not m:
                raise IdlError("interface %s has no uuid" % name)
            it = Interface(name, base, m.group(1).lower(), source)
            p.expect("{")
            while p.peek() != "}":
                p.skip_attrs()
                ret = p.until(["("])
                mname = ret[-1]
                params = parse_params(p)
                p.expect(";")
                it.methods.append(Method(join_type(ret[:-1]), mname, params))
            p.expect("}")
            if p.peek() == ";":
                p.next()
            self.decls.append(it)
        elif v in ("struct", "union") and p.peek(2) == "{":
            w = p.next()
            tag = p.next()
            p.expect("{")
            members = parse_members(p)
            p.expect("}")
            p.expect(";")
            self.decls.append(Decl(w, tag, source, tag=tag, members=members, declarators=None))
        elif v == ";":
            p.next()
        else:
            ctx = " ".join(x[1] for x in p.t[p.i:p.i + 10])
            raise IdlError("%s: cannot read statement: %s" % (source, ctx))
