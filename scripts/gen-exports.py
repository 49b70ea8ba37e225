#!/usr/bin/env python3
"""Writes the `@c` exports whose only work is to check their arguments and call the core, from
one line each beside the hand-written exports of the same header section.

Usage: gen-exports.py [--check]     (`make generate`, `make check-generated`)

A line in a file under Sources/RxC/Exports:

  // rx:export rx_delay: ObservableHandle.make(src.observable.delay(ns, scheduler: scheduler))

makes, in Sources/RxC/Generated/<File>+Exports.swift, the function with the signature
include/rxc.h declares (its C types as the compiler's header of the exports spells them,
which `make check-abi` compares with rxc.h), whose arguments are checked in order:
  rx_observable *x    an observable handle, bound to `x` (borrowed for the call when it is
                      the first parameter); the error names it "source" for `src`, else by
                      its name
  rx_observable *const *x, size_t n
                      the array's observables (`observableArray`), bound to `x`
  rx_scheduler *x     a scheduler (`SchedulerHandle.from`), bound to `x` as the `Scheduler`
  rx_value x          the value (`RxValue.from`), bound to `x`
  rx_..._fn x         not NULL ("rx_f: x is NULL"); an rx_free_fn may be, and so may the
                      parameters the line names: `// rx:export rx_zip nullable=fn: ...`
  anything else       passed as is, under its name in camel case (`max_attempts`: `maxAttempts`)
then returns the expression after the colon (the function returns an rx_observable *, an
rx_disposable * or an rx_subject *) (a failed check returns NULL, the message in
rx_last_error()). An export that does more is written out by hand in the same file.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import generated_files  # noqa: E402
import rxc_header  # noqa: E402

EXPORTS = os.path.join(ROOT, "Sources", "RxC", "Exports")
OUT = os.path.join(ROOT, "Sources", "RxC", "Generated")
LINE = re.compile(r"^// rx:export (rx_[a-z0-9_]+)(?: nullable=([a-z0-9_,]+))?: (.+)$")
SCALARS = {"int64_t": "Int64", "uint64_t": "UInt64", "size_t": "UInt", "bool": "Bool", "double": "Double",
           "int": "Int32", "int32_t": "Int32", "uint32_t": "UInt32", "void *": "UnsafeMutableRawPointer?"}
SCHEDULER = 'SchedulerHandle.from({n}, "{f}"{arg})?.scheduler'
OBSERVABLE = 'ObservableHandle.from({n}, "{f}"{arg})'
ARRAY = "rx_observable *const *"


def camel(name):
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def is_fn(t):
    return re.fullmatch(r"rx_[a-z0-9_]+_fn", t) is not None


def swift_type(ctype, where):
    t = " ".join(ctype.split())
    if t in ("rx_observable *", "rx_scheduler *"):
        return f"UnsafeMutablePointer<{t[:-2]}>?"
    if t == ARRAY:
        return "UnsafePointer<UnsafeMutablePointer<rx_observable>?>?"
    if t in ("rx_value", "rx_observer"):
        return t
    if t in SCALARS:
        return SCALARS[t]
    if is_fn(t):
        return t + "?"
    raise SystemExit(f"gen-exports: {where}: no rule for a parameter of type `{t}`")


RETURNS = {f"{t} *": f"UnsafeMutablePointer<{t}>?" for t in ("rx_observable", "rx_disposable", "rx_subject")}


def export(fn, body, where, nullable=()):
    returns = RETURNS.get(" ".join(fn.returns.split()))
    if returns is None:
        raise SystemExit(f"gen-exports: {where}: {fn.name} returns {fn.returns}, which no rule makes NULL on bad input")
    params = [(camel(n), " ".join(t.split()), n) for t, n in fn.params]
    sig = ", ".join(f"_ {s}: {swift_type(t, where)}" for s, t, _ in params)
    name = fn.name
    # The checks, in the header's order: each a guard-let binding, or a NULL check of a function.
    checks = []
    borrowed = None  # the first parameter, an observable, is borrowed for the call (no retain)
    for k, (s, t, n) in enumerate(params):
        if t == "rx_observable *":
            if k == 0:
                arg = "" if n == "src" else f', "{n}"'
                borrowed = f'ObservableHandle.with({s}, "{name}"{arg}) {{ {s} in'
                continue
            arg = "" if n == "src" else f', "{n}"'
            checks.append(f"let {s} = " + OBSERVABLE.format(n=s, f=name, arg=arg))
        elif t == "rx_scheduler *":
            arg = "" if n == "scheduler" else f', "{n}"'
            checks.append(f"let {s} = " + SCHEDULER.format(n=s, f=name, arg=arg))
        elif t == ARRAY:
            count = params[k + 1][0]
            checks.append(f'let {s} = observableArray({s}, {count}, "{name}")')
        elif t == "rx_value":
            checks.append(f'let {s} = RxValue.from({s}, "{name}")')
        elif is_fn(t) and t != "rx_free_fn" and n not in nullable:
            checks.append(f'fn:{s}')
    ind = "    " if borrowed else "  "
    lines = [f"@c({name})", f"public func {name}({sig}) -> {returns} {{"]
    if borrowed:
        lines.append("  " + borrowed)
    run = []
    for c in checks + [None]:
        if c is not None and not c.startswith("fn:"):
            run.append(c)
            continue
        if len(run) == 1:
            lines.append(f"{ind}guard {run[0]} else {{ return nil }}")
        elif run:  # consecutive bindings share one guard
            lines.append(f"{ind}guard " + f",\n{ind}  ".join(run) + f"\n{ind}else {{ return nil }}")
        run = []
        if c is not None:
            lines.append(f'{ind}guard let {c[3:]} else {{ setLastError("{name}: {c[3:]} is NULL"); return nil }}')
    lines.append(f"{ind}return {body}")
    if borrowed:
        lines.append("  }")
    lines.append("}")
    return "\n".join(lines)


def generate():
    functions = {f.name: f for f in rxc_header.functions(os.path.join(ROOT, "include", "rxc.h"))}
    out = {}
    for dirpath, _, names in sorted(os.walk(EXPORTS)):
        for name in sorted(names):
            path = os.path.join(dirpath, name)
            if not name.endswith(".swift"):
                continue
            made = []
            for i, line in enumerate(open(path).read().split("\n"), 1):
                m = LINE.match(line)
                if not m:
                    continue
                where = f"{os.path.relpath(path, ROOT)}:{i}"
                if m.group(1) not in functions:
                    raise SystemExit(f"gen-exports: {where}: {m.group(1)} is not declared in include/rxc.h")
                nullable = m.group(2).split(",") if m.group(2) else []
                made.append(export(functions[m.group(1)], m.group(3), where, nullable))
            if made:
                rel = os.path.relpath(path, os.path.join(ROOT, "Sources", "RxC"))
                head = [f"// Generated by scripts/gen-exports.py from {rel}: do not edit.",
                        "// Regenerate with `make generate`; `make check-generated` checks it.",
                        "// Each export checks its arguments and calls the core (its `// rx:export` line).",
                        "", "import CRxc", "@_spi(RxC) import RxCore", "", ""]
                out[os.path.join(OUT, os.path.splitext(name)[0] + "+Exports.swift")] = "\n".join(head) + "\n\n".join(made) + "\n"
    return out


def main():
    check = "--check" in sys.argv[1:]
    generated_files.sync("gen-exports", generate(), [OUT], "+Exports.swift", check, "has no rx:export line")


if __name__ == "__main__":
    main()
