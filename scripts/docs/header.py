"""Reads include/rxc.h into sections of documented declarations (standard library only).

The header is the single source of the reference: its section banners, its comments and
the declarations they precede. Blocks under #if/#ifdef (other than the include guard) are
skipped: they hold attribute macros, inline C helpers and extern "C", never a declaration
that FFIs see.
"""
import re

BANNER = re.compile(r"^/\*\s*-{20,}")


class Comment:
    def __init__(self, text, doc, line):
        self.text, self.doc, self.line = text, doc, line


class Decl:
    def __init__(self, code, line):
        self.code, self.line = code.strip(), line
        flat = " ".join(self.code.split())
        self.exported = flat.startswith("RX_EXPORT ")
        self.kind, self.name = classify(flat)


class Define:
    def __init__(self, name, code, line):
        self.kind, self.name, self.code, self.line = "macro", name, code, line
        self.exported = False


class Blank:
    pass


class Entry:
    """One documented item: the comment (or None) and the declarations it covers."""

    def __init__(self, comment, decls):
        self.comment, self.decls = comment, decls


class Section:
    def __init__(self, number, title, intro):
        self.number, self.title, self.intro = number, title, intro
        self.items = []  # ("entry", Entry) | ("note", text) | ("subsection", title, text)


def classify(flat):
    """(kind, name) of a declaration flattened to one line."""
    if flat.startswith("typedef"):
        last = re.search(r"(\w+)\s*;\s*$", flat)
        if "{" in flat:  # a struct or enum body (its members may be function pointers)
            kind = "enum" if flat.startswith("typedef enum") else "struct"
            return kind, last.group(1) if last else "?"
        m = re.search(r"\(\s*\*\s*(\w+)\s*\)\s*\(", flat)  # function-pointer typedef
        if m:
            return "callback type", m.group(1)
        return "typedef", last.group(1) if last else "?"
    if flat.startswith("enum"):
        m = re.search(r"\{\s*(\w+)", flat)
        return "enum", m.group(1) if m else "enum"
    # a function: the identifier right before the parameter list's "(" (the name may be
    # followed by a function-pointer parameter, so take the first "(" after the return type)
    m = re.search(r"[\s*](\w+)\s*\(", flat)
    return "function", m.group(1) if m else "?"


def comment_text(raw):
    """The text of a /* */ comment without its delimiters and leading ' * '."""
    body = raw[2:-2]
    if body.startswith("*"):
        body = body[1:]
    lines = body.split("\n")
    out = []
    for ln in lines:
        stripped = ln.strip()
        # " * text" loses " * " (deeper indentation stays: tables, code); a continuation
        # line without '*' ("   rx_last_error(). Results ...") loses its indentation
        out.append(ln.rstrip().lstrip()[2:] if stripped.startswith("* ") or stripped == "*" else stripped)
    while out and not out[0].strip():
        out.pop(0)
    while out and not out[-1].strip():
        out.pop()
    return "\n".join(out)


def tokens(src):
    """Comments, declarations, documented #defines and blank lines, in order."""
    out = []
    i, n, line = 0, len(src), 1
    depth_if = 0  # nesting of skipped #if blocks
    guard_seen = False
    while i < n:
        if src.startswith("\n", i):
            # a blank line (only whitespace between two newlines) separates groups
            j = src.find("\n", i + 1)
            seg = src[i + 1:j if j >= 0 else n]
            if not seg.strip() and depth_if == 0:
                out.append(Blank())
            i += 1
            line += 1
            continue
        if src[i] in " \t":
            i += 1
            continue
        if depth_if > 0 and not src.startswith("#", i):
            j = src.find("\n", i)  # inside a skipped block only directives matter
            i = n if j < 0 else j
            continue
        if src.startswith("#", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            directive = src[i:j]
            while directive.endswith("\\"):  # continued lines
                k = src.find("\n", j + 1)
                k = n if k < 0 else k
                directive = src[i:k]
                line += 1
                j = k
            d = directive[1:].strip()
            if d.startswith(("if", "ifdef", "ifndef")):
                if d.startswith("ifndef RXC_H") and not guard_seen:
                    guard_seen = True
                else:
                    depth_if += 1
            elif d.startswith("endif"):
                if depth_if > 0:
                    depth_if -= 1
            elif d.startswith("define") and depth_if == 0:
                m = re.match(r"define\s+(\w+)", d)
                if m and m.group(1) != "RXC_H":
                    out.append(Define(m.group(1), directive, line))
            i = j
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            raw = src[i:j + 2]
            if depth_if == 0:
                doc = raw.startswith("/**") and not raw.startswith("/***")
                out.append(Comment(comment_text(raw), doc, line))
            line += raw.count("\n")
            i = j + 2
            continue
        # a declaration: up to ';' outside braces (comments inside are kept verbatim)
        start, depth, start_line = i, 0, line
        while i < n:
            c = src[i]
            if src.startswith("/*", i):
                j = src.find("*/", i + 2)
                line += src[i:j + 2].count("\n")
                i = j + 2
                continue
            if c == "\n":
                line += 1
            elif c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0 and depth_if > 0 and src[i + 1:i + 2] != ";":
                    i += 1  # an inline function body (skipped block)
                    break
            elif c == ";" and depth == 0:
                i += 1
                break
            i += 1
        code = src[start:i]
        if depth_if == 0 and code.strip() and not code.strip().startswith("}"):
            out.append(Decl(code, start_line))
    return out


def parse(path):
    """Sections of the header, each with its entries; and the problems found."""
    src = open(path, encoding="utf-8").read()
    toks = tokens(src)
    sections = []
    problems = []
    cur = None
    k = 0
    while k < len(toks):
        t = toks[k]
        if isinstance(t, Comment) and not t.doc and re.match(r"^-{20,}", t.text):
            lines = [l for l in t.text.split("\n") if not re.match(r"^-{20,}$", l.strip())]
            head = lines[0].strip() if lines else ""
            intro = "\n".join(lines[1:]).strip("\n")
            m = re.match(r"^(\d+)\.\s+(.*)$", head)
            if m:
                number, rest = m.group(1), m.group(2)
                title, _, more = rest.partition(". ")
                if more:
                    intro = (more + ("\n" + intro if intro else "")).strip()
                cur = Section(number, title.rstrip("."), intro)
            else:
                cur = Section(None, head, intro)
            sections.append(cur)
            k += 1
            continue
        if cur is None:
            cur = Section(None, "Overview", "")
            sections.append(cur)
        if isinstance(t, Comment):
            nxt = toks[k + 1] if k + 1 < len(toks) else None
            if isinstance(nxt, (Decl, Define)):
                # a comment right above declarations documents them; a plain comment above
                # a run of exported functions documents the whole run (rx_int ... rx_none)
                decls = [nxt]
                k += 2
                if not t.doc and isinstance(nxt, Decl) and nxt.exported:
                    while k < len(toks) and isinstance(toks[k], Decl) and toks[k].exported:
                        decls.append(toks[k])
                        k += 1
                cur.items.append(("entry", Entry(t, decls)))
                continue
            first, _, rest = t.text.partition("\n")
            if not t.doc and len(first.split()) <= 3 and first.strip() and \
                    first.strip()[0].islower() and not first.rstrip().endswith("."):
                cur.items.append(("subsection", first.strip(), rest.strip()))
            else:
                cur.items.append(("note", t.text))
            k += 1
            continue
        if isinstance(t, (Decl, Define)):
            if isinstance(t, Define) and cur.items and cur.items[-1][0] == "entry" and \
                    isinstance(cur.items[-1][1].decls[-1], Define) and cur.items[-1][1].comment is None:
                cur.items[-1][1].decls.append(t)  # runs of #defines (RX_VERSION_*) stay together
            else:
                cur.items.append(("entry", Entry(None, [t])))
            if isinstance(t, Decl) and t.exported:
                problems.append(f"{t.name} (line {t.line}): no comment")
        k += 1
    return sections, problems


def functions(sections):
    """Every exported function, in header order: (name, Decl, Entry, Section)."""
    out = []
    for s in sections:
        for it in s.items:
            if it[0] == "entry":
                for d in it[1].decls:
                    if isinstance(d, Decl) and d.exported:
                        out.append((d.name, d, it[1], s))
    return out


TAG = re.compile(r"^@(abstract|discussion|param|result|return|returns)\b\s*", re.M)


def doc_fields(text):
    """{'abstract': str, 'discussion': str, 'params': [(name, text)], 'result': str}."""
    fields = {"abstract": "", "discussion": "", "params": [], "result": ""}
    parts = TAG.split(text)
    if len(parts) == 1:  # no tags: all of it is the description
        fields["abstract"] = text
        return fields
    lead = parts[0].strip()
    if lead:
        fields["abstract"] = lead
    for tag, body in zip(parts[1::2], parts[2::2]):
        body = body.strip("\n")
        if tag == "param":
            name, _, rest = body.partition(" ")
            fields["params"].append((name, rest.strip()))
        elif tag in ("result", "return", "returns"):
            fields["result"] = body
        else:
            fields[tag] = (fields[tag] + "\n" + body).strip() if fields[tag] else body
    return fields
