#!/usr/bin/env python3
"""make docs: the HTML API reference, generated from include/rxc.h's comments, with a marble
diagram for each operator made by running it against the built library.

Usage: gen_docs.py include/rxc.h build/lib/librxc.so build/docs

Fails (exit 1, naming the function) when an exported function has no comment or an @param
that is not one of its parameters, when the header's functions and the ones cffi parses
from the preprocessed header differ, when an operator has neither a diagram nor a stated
reason, when running a diagram fails, or when an SVG is not well-formed XML.
"""
import html
import os
import re
import shutil
import sys
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import header  # noqa: E402
import marbles  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def fail(msg):
    print(f"make docs: {msg}", file=sys.stderr)
    sys.exit(1)


# ---- text of comments as HTML ------------------------------------------------------------------
ANCHORS = set()


def inline(text):
    """Escaped text with identifiers in <code>, linked when they have an entry."""
    s = html.escape(text, quote=False)
    s = re.sub(r"`([^`]+)`", r"<code>\1</code>", s)

    def ident(m):
        name = m.group(0)
        if name in ANCHORS:
            return f'<a href="#{name}"><code>{name}</code></a>'
        return f"<code>{name}</code>"
    # outside existing tags only: split on tags and treat the text pieces
    parts = re.split(r"(<[^>]+>)", s)
    in_code = False
    for j, p in enumerate(parts):
        if p.startswith("<"):
            in_code = p.startswith("<code") or (in_code and not p.startswith("</code"))
            continue
        if not in_code:
            parts[j] = re.sub(r"\b(rx_\w+|RX_[A-Z0-9_]+)\b", ident, p)
    return "".join(parts)


def blocks(text):
    """Comment text as HTML: paragraphs, '- ' lists, indented lines as preformatted text."""
    out, para, items, pre = [], [], [], []

    def flush():
        if para:
            out.append(f"<p>{inline(' '.join(para))}</p>")
            para.clear()
        if items:
            out.append("<ul>" + "".join(f"<li>{inline(' '.join(i))}</li>" for i in items) + "</ul>")
            items.clear()
        if pre:
            lines = pre[:]
            ind = min(len(l) - len(l.lstrip()) for l in lines if l.strip())
            out.append("<pre>" + html.escape("\n".join(l[ind:] for l in lines)) + "</pre>")
            pre.clear()

    for ln in text.split("\n"):
        if not ln.strip():
            flush()
            continue
        m = re.match(r"^\s*- (.*)$", ln)
        if m:
            if para or pre:
                flush()
            items.append([m.group(1).strip()])
            continue
        if items and ln.startswith(" "):  # continuation of a list item
            items[-1].append(ln.strip())
            continue
        if ln.startswith(" "):
            if para or items:
                flush()
            pre.append(ln)
            continue
        if pre or items:
            flush()
        para.append(ln.strip())
    flush()
    return "\n".join(out)


def signature(decl):
    """The declaration without the export macros, long parameter lists one per line."""
    code = decl.code
    if decl.kind == "function":
        flat = " ".join(code.split())
        flat = flat.replace("RX_EXPORT ", "").replace("RX_WARN_UNUSED_RESULT ", "")
        if len(flat) > 96:
            head, _, rest = flat.partition("(")
            params = split_params(rest[:-2])  # drop ");"
            flat = head + "(" + (",\n" + " " * (len(head) + 1)).join(params) + ");"
        return flat
    if isinstance(decl, header.Define):
        return code
    return code


def split_params(s):
    out, depth, cur = [], 0, ""
    for c in s:
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    if cur.strip():
        out.append(cur.strip())
    return out


def doc_html(comment):
    if comment is None:
        return ""
    if not comment.doc:
        return blocks(comment.text)
    f = header.doc_fields(comment.text)
    out = []
    if f["abstract"]:
        out.append(blocks(f["abstract"]))
    if f["discussion"]:
        out.append(blocks(f["discussion"]))
    if f["params"]:
        out.append('<dl class="params">' + "".join(
            f"<dt><code>{html.escape(n)}</code></dt><dd>{inline(' '.join(t.split()))}</dd>"
            for n, t in f["params"]) + "</dl>")
    if f["result"]:
        out.append(f'<p class="result"><span class="tag">Result</span> {inline(" ".join(f["result"].split()))}</p>')
    return "\n".join(out)


def anchor_id(d):
    return d.name if d.name != "?" else f"line-{d.line}"


# ---- the page ----------------------------------------------------------------------------------
def main():
    if len(sys.argv) != 4:
        fail("usage: gen_docs.py include/rxc.h build/lib/librxc.so build/docs")
    hdr, library, outdir = sys.argv[1:4]
    t0 = time.time()
    sections, problems = header.parse(hdr)
    if problems:
        for p in problems:
            print(f"make docs: {hdr}: {p}", file=sys.stderr)
        fail(f"{len(problems)} exported function(s) without a comment in {hdr}")
    funcs = header.functions(sections)
    names = [f[0] for f in funcs]
    # an @param must name one of the function's parameters (a stale name is a wrong comment)
    for name, d, e, s in funcs:
        if e.comment is not None and e.comment.doc:
            plist = " ".join(d.code.split()).partition("(")[2]
            for p, _ in header.doc_fields(e.comment.text)["params"]:
                if not re.search(r"\b" + re.escape(p) + r"\b", plist):
                    problems.append(f"{name} (line {d.line}): @param {p} is not one of its parameters")
    if problems:
        for p in problems:
            print(f"make docs: {hdr}: {p}", file=sys.stderr)
        fail(f"{len(problems)} malformed comment(s) in {hdr}")

    cffi_funcs = marbles.load(hdr, library, os.environ.get("CC", "cc"))
    missing = sorted(set(cffi_funcs) - set(names))
    extra = sorted(set(names) - set(cffi_funcs))
    if missing or extra:
        fail(f"the parser and cffi disagree on the functions: not parsed {missing}, "
             f"not seen by cffi {extra}")

    # operators: section 9's functions returning an observable, and the time sources of 6
    ops = []
    for name, d, e, s in funcs:
        if s.number == "9" and not name.startswith("rx_by_ref_") or name in marbles.DIAGRAMS:
            ops.append(name)
    undecided = [n for n in ops if n not in marbles.DIAGRAMS and n not in marbles.NO_DIAGRAM]
    if undecided:
        fail("operators with neither a marble diagram nor a reason in scripts/docs/marbles.py: "
             + ", ".join(undecided))
    for n in marbles.DIAGRAMS:
        if n not in names:
            fail(f"marble diagram for {n}, which include/rxc.h does not declare")

    if os.path.isdir(outdir):
        shutil.rmtree(outdir)
    os.makedirs(os.path.join(outdir, "marbles"))
    figures = {}
    for n in ops:
        if n not in marbles.DIAGRAMS:
            continue
        try:
            call, ins, outs, frames = marbles.run(n)
        except Exception as e:  # noqa: BLE001 - the message names the operator
            fail(f"{n}: running its marble diagram failed: {e}")
        path = os.path.join(outdir, "marbles", f"{n}.svg")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(marbles.svg(n, call, ins, outs, frames))
        try:
            ET.parse(path)
        except ET.ParseError as e:
            fail(f"{path} is not well-formed XML: {e}")
        figures[n] = (call, [(ln.name, marbles.events_text(ln)) for ln in ins + outs])

    for s in sections:
        for it in s.items:
            if it[0] == "entry":
                for d in it[1].decls:
                    ANCHORS.add(anchor_id(d))

    version = re.search(r'#define RX_VERSION_STRING "([^"]+)"', open(hdr).read()).group(1)
    page = render(sections, figures, ops, version, hdr)
    with open(os.path.join(outdir, "index.html"), "w", encoding="utf-8") as fh:
        fh.write(page)
    shutil.copy(os.path.join(HERE, "style.css"), os.path.join(outdir, "style.css"))
    no_diagram = [n for n in ops if n not in figures]
    print(f"  DOCS    {outdir}/index.html: {len(names)} functions, {len(figures)} marble diagrams "
          f"({len(no_diagram)} operators without: {', '.join(no_diagram)}), {time.time() - t0:.1f} s")


def section_id(s):
    return f"s{s.number}" if s.number else re.sub(r"\W+", "-", s.title.lower()).strip("-")


def render(sections, figures, ops, version, hdr):
    shown = [s for s in sections if s.number]
    overview = next((s for s in sections if not s.number and s.items), None)
    h = ['<!DOCTYPE html>', '<html lang="en"><head><meta charset="utf-8">',
         '<meta name="viewport" content="width=device-width, initial-scale=1">',
         f'<title>librxc {version} — API reference</title>',
         '<link rel="stylesheet" href="style.css"></head><body>',
         '<nav id="toc"><h2>Contents</h2><ol>']
    for s in shown:
        fn_names = [anchor_id(d) for it in s.items if it[0] == "entry" for d in it[1].decls
                    if d.kind == "function"]
        h.append(f'<li><a href="#{section_id(s)}">{html.escape(s.title)}</a>')
        if fn_names:
            mark = ' <span class="m" title="marble diagram">◉</span>'
            h.append('<ul class="fns">' + "".join(
                f'<li><a href="#{n}">{n}</a>{mark if n in figures else ""}</li>'
                for n in fn_names) + "</ul>")
        h.append("</li>")
    h.append('<li><a href="#marble-index">Marble diagrams</a></li>'
             '<li><a href="python/rxc.html">The Python package, rxc</a></li></ol></nav>')
    h.append('<main>')
    h.append(f'<header><h1>librxc {version} <span class="sub">API reference</span></h1>'
             f'<p class="gen">Generated by <code>make docs</code> from the comments of '
             f'<code>{html.escape(hdr)}</code>, the reference for the API. Each operator\'s marble '
             f'diagram was drawn from what the operator did when run on the test scheduler of '
             f'the built library.</p></header>')
    if overview:
        for it in overview.items:
            if it[0] == "note":
                h.append(f'<section class="intro">{blocks(it[1])}</section>')
    for s in shown:
        h.append(f'<section class="sec" id="{section_id(s)}"><h2><span class="num">{s.number}.</span> '
                 f'{html.escape(s.title)}</h2>')
        if s.intro:
            h.append(f'<div class="secintro">{blocks(s.intro)}</div>')
        for it in s.items:
            if it[0] == "note":
                h.append(f'<div class="note">{blocks(it[1])}</div>')
            elif it[0] == "subsection":
                h.append(f'<h3 class="group">{html.escape(it[1])}</h3>')
                if it[2]:
                    h.append(f'<div class="note">{blocks(it[2])}</div>')
            else:
                h.append(entry(it[1], figures, ops))
        h.append("</section>")
    h.append(marble_index(sections, figures, ops))
    h.append("</main></body></html>\n")
    return "\n".join(h)


def entry(e, figures, ops):
    out = ['<article class="entry">']
    for d in e.decls:
        kind = d.kind
        badge = ""
        if isinstance(d, header.Decl) and "RX_WARN_UNUSED_RESULT" in d.code:
            badge = ' <span class="badge" title="RX_WARN_UNUSED_RESULT">result must be used</span>'
        title = d.name if kind != "enum" or not d.name.startswith("RX_") else "enum (error codes)"
        out.append(f'<h4 id="{anchor_id(d)}"><a class="self" href="#{anchor_id(d)}">{html.escape(title)}</a>'
                   f' <span class="kind">{kind}</span>{badge}</h4>')
        out.append(f'<pre class="sig"><code>{html.escape(signature(d))}</code></pre>')
    out.append(f'<div class="doc">{doc_html(e.comment)}</div>')
    for d in e.decls:
        n = d.name
        if n in figures:
            call, lines = figures[n]
            alt = f"Marble diagram of {call}: " + "; ".join(f"{a}: {b}" for a, b in lines)
            out.append(f'<figure class="marble"><img src="marbles/{n}.svg" alt="{html.escape(alt)}" loading="lazy">'
                       f'<figcaption><details><summary>recorded events (frame:event)</summary><pre>'
                       + html.escape("\n".join(f"{a:>10}  {b}" for a, b in lines)) +
                       '</pre></details></figcaption></figure>')
        elif n in marbles.NO_DIAGRAM:
            out.append(f'<p class="nodiagram">No marble diagram: {inline(marbles.NO_DIAGRAM[n])}.</p>')
    out.append("</article>")
    return "\n".join(out)


def marble_index(sections, figures, ops):
    h = ['<section class="sec" id="marble-index"><h2>Marble diagrams</h2>',
         '<p>Each diagram is the record of one run: the inputs are marble observables '
         '(<a href="#rx_marble_hot"><code>rx_marble_hot</code></a>, <a href="#rx_marble_cold"><code>rx_marble_cold</code></a>) '
         'on a test scheduler, the operator is applied, and subscribers record every event with '
         'its virtual time (one frame is <a href="#RX_MARBLE_FRAME_NS"><code>RX_MARBLE_FRAME_NS</code></a>). '
         'A circle is a value, a bar completion, a cross an error; above a line, ^ marks a later '
         'subscription (the dashed part is the time before it) and a red ! a dispose. Values '
         'at the same frame are stacked below the line; a value pushed right to make room has a '
         'tick at its true time. Where an operator subscribes to an input later, or shares one '
         '(rx_concat, rx_switch_latest, rx_catch, rx_delay_subscription, the sharing operators), '
         'that input\'s line is the operator\'s own subscription to it, watched through '
         '<a href="#rx_defer"><code>rx_defer</code></a> and <a href="#rx_do"><code>rx_do</code></a>: '
         'when it subscribed, what it received, when it let go.</p>',
         f'<p>{len(figures)} operators have a diagram:</p><ul class="cols">']
    for n in ops:
        if n in figures:
            h.append(f'<li><a href="#{n}"><code>{n}</code></a></li>')
    h.append("</ul><p>Without a diagram:</p><ul>")
    for n in ops:
        if n not in figures:
            h.append(f'<li><a href="#{n}"><code>{n}</code></a>: {inline(marbles.NO_DIAGRAM[n])}</li>')
    h.append(f"<li><code>rx_by_ref_*</code>: {inline(marbles.NOT_OPERATORS)}</li>")
    h.append("</ul></section>")
    return "\n".join(h)


if __name__ == "__main__":
    main()
