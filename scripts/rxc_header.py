"""What the generators read from include/rxc.h: every exported function, and section 9's
operators with their family (the `/* family */` comment above them), the first sentence of
their @abstract and their `@example` call, if any.

An operator with an `@example rx_op(src, ...)` line needs nothing else: the fuzzer's call,
its perf-guard workload and its marble diagram are made from that call (`src` is the source,
`other` a second observable, `scheduler` the test scheduler; numbers and NULL as written).
"""
import re
from dataclasses import dataclass, field

EXPORT = re.compile(r"RX_EXPORT\s+(?:RX_WARN_UNUSED_RESULT\s+)?([^;(]*?)\b(rx_[a-z0-9_]+)\s*\(([^;]*)\);")


@dataclass
class Function:
    name: str
    returns: str
    params: list  # [(type, name)]
    section: str
    family: str = ""
    abstract: str = ""
    example: str = ""
    doc: str = field(default="", repr=False)


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


def functions(path="include/rxc.h"):
    text = open(path).read()
    sections = [(m.start(), m.group(1)) for m in re.finditer(r"^ \* (\d+)\. ", text, re.M)]
    families = [(m.start(), m.group(1)) for m in re.finditer(r"^/\* ([a-z][a-z ,/:-]*) \*/$", text, re.M)]
    found = []
    for m in EXPORT.finditer(text):
        before = text[:m.start()]
        section = next((n for pos, n in reversed(sections) if pos < m.start()), "")
        family = next((f for pos, f in reversed(families) if pos < m.start()), "")
        doc = ""
        j = before.rstrip().rfind("*/")
        if j >= 0 and not before[j + 2:].strip():
            i = before.rfind("/**", 0, j)
            if i >= 0:
                doc = before[i + 3:j]
        lines = [re.sub(r"^\s*\*\s?", "", ln) for ln in doc.split("\n")]
        doc = " ".join(" ".join(lines).split())
        abstract = ""
        a = re.search(r"@abstract (.*?)(?= @[a-z]+ |$)", doc)
        if a:
            abstract = re.split(r"(?<=\.)\s", a.group(1).strip(), maxsplit=1)[0]
        e = re.search(r"@example (rx_[a-z0-9_]+\(.*?\))(?= @[a-z]+ |$)", doc)
        found.append(Function(m.group(2), " ".join(m.group(1).split()), _params(m.group(3)), section,
                              family if section == "9" else "", abstract, e.group(1) if e else "", doc))
    return found


def operators(path="include/rxc.h"):
    return [f for f in functions(path) if f.section == "9" and not f.name.startswith("rx_by_ref_")]


def call_args(example):
    """The top-level arguments of an example call."""
    return _split(example[example.index("(") + 1:example.rindex(")")])
