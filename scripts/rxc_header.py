"""What the generators and checks read from include/rxc.h: every exported function, with its
section, its doc comment, its parameters, and for section 9's operators their family (the
`/* family */` comment above them), the first sentence of their @abstract and their
`@example` call, if any. Built on the one parser of the header, scripts/docs/header.py
(which `make docs` reads too).

An operator with an `@example rx_op(src, ...)` line needs nothing else: the fuzzer's call,
its perf-guard workload and its marble diagram are made from that call (`src` is the source,
`other` a second observable, `scheduler` the test scheduler; numbers and NULL as written).
"""
import os
import re
import sys
from dataclasses import dataclass, field

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "docs"))
import header as model  # noqa: E402

# A family comment's first line: lower case words (a longer one is a note to the parser).
FAMILY = re.compile(r"^[a-z][a-z ,/:-]*$")
SIGNATURE = re.compile(r"RX_EXPORT\s+(?:RX_WARN_UNUSED_RESULT\s+)?(.*?)\b(rx_[a-z0-9_]+)\s*\((.*)\)\s*;?$", re.S)


@dataclass
class Function:
    name: str
    returns: str
    params: list  # [(type, name)]
    section: str
    family: str = ""
    abstract: str = ""
    example: str = ""
    doc: str = field(default="", repr=False)  # the doc comment's text, on one line
    params_text: str = field(default="", repr=False)  # as declared, comments included


def _split(text):
    """Top-level comma-separated parts (commas inside parentheses stay)."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
            continue
        depth += ch in "([{"
        depth -= ch in ")]}"
        cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def _params(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S).strip()
    if text in ("", "void"):
        return []
    out = []
    for p in _split(text):
        p = " ".join(p.split())
        fp = re.match(r"(.*?)\(\s*\*\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)(.*)$", p)
        if fp:  # a function pointer: its type is the whole declaration less the name
            out.append((fp.group(1) + "(*)" + fp.group(3), fp.group(2)))
            continue
        m = re.match(r"(.*?)([A-Za-z_][A-Za-z0-9_]*)(\[\])?$", p)
        out.append((m.group(1).strip() + ("*" if m.group(3) else ""), m.group(2)))
    return out


def _function(decl, comment, section, family):
    m = SIGNATURE.match(decl.code.strip())
    if not m:
        sys.exit(f"rxc_header: cannot read the declaration of {decl.name} (line {decl.line})")
    # Only a doc comment (/** */) right above a declaration is that function's own.
    doc = " ".join(comment.text.split()) if comment is not None and comment.doc else ""
    abstract = ""
    a = re.search(r"@abstract (.*?)(?= @[a-z]+ |$)", doc)
    if a:
        abstract = re.split(r"(?<=\.)\s", a.group(1).strip(), maxsplit=1)[0]
    e = re.search(r"@example (rx_[a-z0-9_]+\(.*?\))(?= @[a-z]+ |$)", doc)
    return Function(m.group(2), " ".join(m.group(1).split()), _params(m.group(3)), section,
                    family if section == "9" else "", abstract, e.group(1) if e else "", doc, m.group(3))


def functions(path="include/rxc.h"):
    sections, _ = model.parse(path)
    found = []
    for s in sections:
        family = ""
        for item in s.items:
            if item[0] == "subsection":
                family = item[1]
            elif item[0] == "note" and FAMILY.match(item[1].split("\n")[0]):
                family = item[1].split("\n")[0]  # "creation, here for its callback types"
            elif item[0] == "entry":
                entry = item[1]
                for i, d in enumerate(entry.decls):
                    if isinstance(d, model.Decl) and d.exported:
                        # a comment over a run of declarations documents the first one only
                        found.append(_function(d, entry.comment if i == 0 else None, s.number or "", family))
    return found


def operators(path="include/rxc.h"):
    return [f for f in functions(path) if f.section == "9" and not f.name.startswith("rx_by_ref_")]


def call_args(example):
    """The top-level arguments of an example call."""
    return _split(example[example.index("(") + 1:example.rindex(")")])
