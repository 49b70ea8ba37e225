#!/usr/bin/env python3
"""Every concrete `Value` observer takes `.next` by pointer (part of `make check-metadata`).

Usage: check-leaves.py Sources

A class that overrides `on(_ event: Event<Value>)` (or `Event<RxValue>`) must also override
`takesNextByPointer` and `onNext(at:)`: otherwise subjects and sinks hand it `.next` as an
`Event` through the generic vtable's thunk, which stalls on a store-forwarding miss per
event (docs/SPECIALIZATION.md, "`.next` by pointer"). Prints one line per class that does
not, and exits 1 if there is any.
"""
import os
import re
import sys

# A class header at the start of a line, and the body up to the next top-level declaration.
DECL = re.compile(r"^(?:public |open |@usableFromInline |final |private |fileprivate |internal )*class (\w+)(<)?", re.M)
ON_VALUE = re.compile(r"override func on\(_ event: Event<(?:Value|RxValue)>\)")

problems = []
for root, _, files in os.walk(sys.argv[1]):
    for name in sorted(files):
        if not name.endswith(".swift"):
            continue
        path = os.path.join(root, name)
        text = open(path).read()
        heads = list(DECL.finditer(text))
        for i, head in enumerate(heads):
            body = text[head.end(): heads[i + 1].start() if i + 1 < len(heads) else len(text)]
            if head.group(2) or not ON_VALUE.search(body):  # generic: its leaves are checked
                continue
            if "takesNextByPointer" not in body or "func onNext(at" not in body:
                problems.append(f"{path}: {head.group(1)} overrides on(Event<Value>) but does not take .next by pointer "
                                "(override takesNextByPointer and onNext(at:); see docs/SPECIALIZATION.md)")
for p in problems:
    print("check-leaves:", p)
if problems:
    sys.exit(1)
print("check-leaves: every Value observer takes .next by pointer")
