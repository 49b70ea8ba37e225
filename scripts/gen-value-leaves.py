#!/usr/bin/env python3
"""Writes the `Value` leaves of RxCore's operators from one annotation beside each generic class.

Usage: gen-value-leaves.py [--check]     (`make generate`, `make check-generated`)

Why the leaves exist: a generic class's vtable holds its unspecialized bodies, so the C ABI's
element type gets specialized code only through final, non-generic subclasses whose
overrides call the generic bodies directly (docs/SPECIALIZATION.md). Those subclasses are
mechanical, so they are written here, into Sources/RxCore/Generated/<File>+Value.swift (from
RxC's sources: Sources/RxC/Generated), from a comment directly above the generic class (or
above its doc comment):

  // rx:value-leaf [name=N] [args=A,B] [on] [on=M] [next=E] [copy=m,..] [super=m,..] [map=G:L,..]
  class TakeSink<Element>: Sink<Element, Element> {

makes `final class ValueTakeSink: TakeSink<Value>` (`name=`, `args=`: another name, other
type arguments than `Value` for each parameter) with:
  on          `override func on(_ event: Event<T>) { super.on(event) }`, T as the class has it
  on=M        the same calling `M(event)` (a final, inlinable body of the generic class)
  next=E      `takesNextByPointer` true and `onNext(at element:)` running E: `next` is
              `next(at: element)`, `forward` is `forwardNext(at: element)`, `copy` is
              `super.on(.next(Value.copy(at: element)))`, `{...}` is written as given
  copy=m      the generic class's method `m` (e.g. `run`) copied, at the leaf's types, with
              each construction of a generic class that has a leaf turned into its leaf's
              (`TakeSink(` becomes `ValueTakeSink(`; `map=G:L` picks leaf L for G)
  super=m     `override` of method or property `m` whose body is `super.m(...)`

  // rx:value-overload [map=G:L,..]
  public func take(_ count: Int) -> Observable<Element> {  (in `extension Observable`
                                                            or `extension ObservableType`)

copies the operator into `extension Observable where Element == Value`, at `Value` (the
function's own type parameters too), constructing the leaves: that overload is the one a
caller with an `Observable<Value>` gets. A construction written with its type arguments
(`CountingProducer<Element, TakeRule>(`) becomes the leaf annotated at those arguments. A `Value` class whose body is not the generic one
stays hand-written beside its operator, under a comment `// rx:hand-leaf: <why>`.
--check fails when the committed files differ from a fresh generation, or when a
hand-written `class Value...` in RxCore has no such comment.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generated_files  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORE = os.path.join(ROOT, "Sources", "RxCore")
OUT = os.path.join(CORE, "Generated")
# RxC's leaves of its own generic sinks (the C function as the callback) go beside RxC.
RXC = os.path.join(ROOT, "Sources", "RxC")
MODULES = [(CORE, OUT, []), (RXC, os.path.join(RXC, "Generated"), ["import CRxc", "@_spi(RxC) import RxCore"])]

HEADER = re.compile(
    r"^(?P<mods>(?:(?:public|open|final|internal|package|@usableFromInline|@_spi\(\w+\))\s+)*)class\s+(?P<name>\w+)"
    r"(?:<(?P<params>[^{]*?)>)?\s*(?::\s*(?P<base>[^{]*?))?\s*\{", re.M)
ANNOT = re.compile(r"^\s*// rx:(value-leaf|value-overload)\b(.*)$")
STRIP = re.compile(r"(@_spi\(\w+\)|@inlinable|@inline\(\w+\)|@usableFromInline|\bpublic\b|\bopen\b|\bfinal\b|"
                   r"\boverride\b|\binternal\b|\bpackage\b)\s*")


def split_top(text, sep):
    """Splits at `sep` outside brackets."""
    parts, depth, cur = [], 0, ""
    for i, ch in enumerate(text):
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}" and text[i - 1:i + 1] != "->":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    return [p.strip() for p in parts]


def block_end(text, start):
    """Index just past the `}` that closes the first `{` at or after `start`."""
    i = text.index("{", start)
    depth = 0
    while True:
        c = text[i]
        if c == '"':
            i = text.index('"', i + 1)
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1


def substitute(text, mapping):
    for k, v in mapping.items():
        text = re.sub(r"\b%s\b" % re.escape(k), v, text)
    return text


class Klass:
    def __init__(self, path, name, params, base, body, specs):
        self.path, self.name, self.base, self.body, self.specs = path, name, base, body, specs
        self.params = [p.split(":")[0].strip() for p in split_top(params or "", ",")]


def parse_spec(text):
    spec = {}
    for tok in split_top(text.strip(), " "):
        if not tok:
            continue
        key, _, val = tok.partition("=")
        spec[key] = val
    return spec


def scan():
    """Every class in RxCore and RxC (by name), and each file's annotated declarations in order."""
    classes, files = {}, {}
    for root, _, names in [w for module, _, _ in MODULES for w in os.walk(module)]:
        if os.path.basename(root) == "Generated":
            continue
        for n in sorted(names):
            if not n.endswith(".swift"):
                continue
            path = os.path.join(root, n)
            text = open(path).read()
            items = []
            for m in HEADER.finditer(text):
                end = block_end(text, m.start())
                body = text[m.end():end - 1]
                above = text[:m.start()].rstrip("\n").split("\n")
                while above and above[-1].lstrip().startswith("///"):
                    above.pop()
                specs = []
                while above and ANNOT.match(above[-1]) and ANNOT.match(above[-1]).group(1) == "value-leaf":
                    specs.insert(0, parse_spec(ANNOT.match(above.pop()).group(2)))
                k = Klass(path, m.group("name"), m.group("params"), m.group("base"), body, specs)
                classes[k.name] = k
                for i, spec in enumerate(specs):
                    items.append((m.start() + i, "leaf", (k, spec)))
            for m in re.finditer(r"^[ \t]*// rx:value-overload\b(.*)\n", text, re.M):
                end = block_end(text, m.end())
                decl = re.sub(r"^[ \t]*///.*\n", "", text[m.end():end], flags=re.M)
                items.append((m.start(), "overload", (parse_spec(m.group(1)), decl)))
            if items:
                files[path] = [(kind, it) for _, kind, it in sorted(items, key=lambda x: x[0])]
    return classes, files


def leaf_args(k, spec):
    args = split_top(spec["args"], ",") if spec.get("args") else ["Value"] * len(k.params)
    return dict(zip(k.params, args))


def leaf_name(k, spec):
    return spec.get("name") or "Value" + k.name


def find_member(classes, k, name, mapping):
    """The declaration of `name` in `k` or its bases: (signature line, kind), at `mapping`'s types."""
    while k is not None:
        pat = re.compile(r"^[ \t]*((?:@[\w()]+\s+)*(?:\w+\s+)*(func|var)\s+%s\b[^{]*)" % re.escape(name), re.M)
        m = pat.search(k.body)
        if m:
            return substitute(re.sub(r"\s+", " ", m.group(1)).strip(), mapping), m.group(2), k, m
        base = k.base or ""
        bm = re.match(r"(\w+)(?:<(.*)>)?", base)
        if not bm or bm.group(1) not in classes:
            break
        parent = classes[bm.group(1)]
        bargs = split_top(bm.group(2) or "", ",")
        mapping = {p: substitute(a, mapping) for p, a in zip(parent.params, bargs)}
        k = parent
    raise SystemExit(f"gen-value-leaves: no member {name!r} found")


def find_body(classes, k, name, mapping):
    """The class among `k` and its bases that declares `name`, the match, and its type mapping."""
    word = r"init\(" if name == "init" else r"func\s+%s\b" % re.escape(name)
    while k is not None:
        found = re.search(r"^([ \t]*)((?:@[\w()]+\s+)*(?:\w+\s+)*%s)" % word, k.body, re.M)
        if found:
            return k, found, mapping
        bm = re.match(r"(\w+)(?:<(.*)>)?", k.base or "")
        if not bm or bm.group(1) not in classes:
            break
        parent = classes[bm.group(1)]
        mapping = {p: substitute(a, mapping) for p, a in zip(parent.params, split_top(bm.group(2) or "", ","))}
        k = parent
    raise SystemExit(f"gen-value-leaves: {name} to copy not found")


def signature(sig):
    sig = STRIP.sub("", sig).strip()
    return "override " + sig


def forward_args(sig):
    sig = STRIP.sub("", sig)  # `@inline(__always)` has parentheses too
    start = sig.index("(")
    params = split_top(sig[start:], ")")[0][1:]
    out = []
    for p in split_top(params, ","):
        names = p.split(":")[0].split()
        ref = "&" if "inout " in p else ""
        if len(names) == 2:
            out.append(ref + names[1] if names[0] == "_" else f"{names[0]}: {ref}{names[1]}")
        else:
            out.append(f"{names[0]}: {ref}{names[0]}")
    return ", ".join(out)


def leaf_map(classes, spec, args=None):
    """Generic class -> the leaf that its construction becomes: the one at the same type
    arguments as the leaf being written (`args`), else its first."""
    m = {}
    for k in classes.values():
        for s in k.specs:
            if k.name not in m or (args is not None and list(leaf_args(k, s).values()) == args):
                m[k.name] = leaf_name(k, s)
    for pair in filter(None, spec.get("map", "").split(",")):
        g, l = pair.split(":")
        m[g] = l
    return m


def construct_leaves(text, lmap):
    def rep(m):
        return lmap[m.group(1)] + "(" if m.group(1) in lmap else m.group(0)
    return re.sub(r"\b(\w+)(?:<[^(){}\n]*?>)?\(", rep, text)


def gen_leaf(classes, k, spec):
    mapping = leaf_args(k, spec)
    args = [mapping[p] for p in k.params]
    lmap = leaf_map(classes, spec, args)
    lines = [f"final class {leaf_name(k, spec)}: {k.name}<{', '.join(args)}> {{"]
    for m in filter(None, spec.get("copy", "").split(",")):
        owner, found, types = find_body(classes, k, m, mapping)
        start = found.start(2)
        text = owner.body[start:block_end(owner.body, start)]
        head, rest = text.split("(", 1)
        text = "override " + STRIP.sub("", head).strip() + "(" + rest
        lines += ["  " + construct_leaves(substitute(text, types), lmap), ""]
    if "on" in spec:
        sig, _, _, _ = find_member(classes, k, "on", mapping)
        call = spec["on"] or "super.on"
        lines.append(f"  {signature(sig)} {{ {call}(event) }}")
    if "next" in spec:
        sig, _, _, _ = find_member(classes, k, "on", mapping)
        t = re.search(r"Event<(.*)>\)", sig).group(1)
        e = spec["next"]
        body = {"next": "next(at: element)", "forward": "forwardNext(at: element)",
                "copy": "super.on(.next(Value.copy(at: element)))"}.get(e) or e.strip("{}").strip()
        lines.append("  override var takesNextByPointer: Bool { true }")
        lines.append(f"  override func onNext(at element: UnsafePointer<{t}>) {{ {body} }}")
    for m in filter(None, spec.get("super", "").split(",")):
        sig, kind, _, _ = find_member(classes, k, m, mapping)
        if kind == "var":
            lines.append(f"  {signature(sig)} {{ super.{m} }}")
        else:
            call = f"super.{m}({forward_args(sig)})"
            lines.append(f"  {signature(sig)} {{ {'try ' if ' throws' in sig else ''}{call} }}")
    if lines[-1] == "":
        lines.pop()
    lines.append("}")
    return "\n".join(lines)


def by_args(classes):
    """`G<A, B>` (spaces dropped) -> the leaf of generic class G at those type arguments."""
    m = {}
    for k in classes.values():
        for s in k.specs:
            m[k.name + "<" + ",".join(leaf_args(k, s)[p] for p in k.params).replace(" ", "") + ">"] = leaf_name(k, s)
    return m


def gen_overload(classes, spec, text):
    head = text[:text.index("(")]
    fm = re.search(r"func\s+\w+<([^>]*)>", head)
    mapping = {"Element": "Value"}
    if fm:
        for p in split_top(fm.group(1), ","):
            mapping[p.split(":")[0].strip()] = "Value"
        text = text.replace("<" + fm.group(1) + ">", "", 1)
    text = substitute(text, mapping)
    # A construction written with its type arguments (`CountingProducer<Element, SkipRule>(`)
    # becomes the leaf annotated at those arguments: no typealias and `map=` needed.
    leaves = by_args(classes)
    text = re.sub(r"\b(\w+<[^(){}\n]*?>)\(",
                  lambda m: leaves.get(m.group(1).replace(" ", ""), m.group(1)) + "(", text)
    text = construct_leaves(text, leaf_map(classes, spec))
    # From `extension ObservableType`: the Value overload is on `Observable`, which is its own.
    return text.replace("asObservable()", "self").rstrip()


def generate():
    classes, files = scan()
    names = [leaf_name(k, s) for items in files.values() for kind, it in items if kind == "leaf" for k, s in [it]]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise SystemExit(f"gen-value-leaves: leaves annotated twice: {', '.join(twice)}")
    out = {}
    for path, items in sorted(files.items()):
        module, outdir, imports = next(m for m in MODULES if path.startswith(m[0] + os.sep))
        rel = os.path.relpath(path, module)
        parts = [f"// Generated by scripts/gen-value-leaves.py from {rel}: do not edit.",
                 "// Regenerate with `make generate`; `make check-generated` checks it.",
                 "// The Value leaves (docs/SPECIALIZATION.md): each override calls the generic body",
                 "// directly, so it is compiled specialized for Value."]
        if imports:
            parts += [""] + imports
        overloads = [gen_overload(classes, s, t) for kind, (s, t) in
                     [(kd, it) for kd, it in items if kd == "overload"]]
        if overloads:
            parts += ["", "extension Observable where Element == Value {", "\n\n".join(overloads), "}"]
        for kind, it in items:
            if kind == "leaf":
                parts += ["", gen_leaf(classes, *it)]
        name = os.path.splitext(os.path.basename(path))[0] + "+Value.swift"
        out[os.path.join(outdir, name)] = "\n".join(parts) + "\n"
    return out


def unexplained():
    """Hand-written `class Value...` declarations with no `rx:hand-leaf` comment above them."""
    bad = []
    for root, _, names in os.walk(CORE):
        if os.path.abspath(root) == OUT:
            continue
        for n in sorted(names):
            path = os.path.join(root, n)
            if not n.endswith(".swift"):
                continue
            lines = open(path).read().split("\n")
            for i, line in enumerate(lines):
                m = re.match(r"(?:@\w+\s+|\w+\s+)*class (Value\w*)", line)
                if not m:
                    continue
                j = i - 1
                while j >= 0 and lines[j].lstrip().startswith(("//", "@")) and "rx:hand-leaf" not in lines[j]:
                    j -= 1
                if j < 0 or "rx:hand-leaf" not in lines[j]:
                    bad.append(f"{os.path.relpath(path, ROOT)}:{i + 1}: {m.group(1)}")
    return bad


def main():
    check = "--check" in sys.argv[1:]
    problems = [f"{h} is hand-written with no `// rx:hand-leaf: <why>` above it" for h in unexplained()] if check else []
    generated_files.sync("gen-value-leaves", generate(), [d for _, d, _ in MODULES], "+Value.swift", check,
                         "has no annotated source", problems)


if __name__ == "__main__":
    main()
