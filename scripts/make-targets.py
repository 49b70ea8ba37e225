#!/usr/bin/env python3
"""The make targets' help, from one source: the `## make TARGET  what it does` lines above
their rules in Makefile and mk/*.mk (a line `##   more` continues the one before it).

Usage: make-targets.py help                   the text `make help` prints
       make-targets.py readme FILE [--check]  rewrites FILE's table between the markers
                                              <!-- make-targets --> and <!-- /make-targets -->
                                              (--check: exit 1 if it is not up to date)
"""
import glob
import re
import sys

BEGIN, END = "<!-- make-targets -->", "<!-- /make-targets -->"


def targets():
    found = []
    for path in ["Makefile"] + sorted(glob.glob("mk/*.mk")):
        for line in open(path):
            m = re.match(r"## make(?: (\S.*?))?(?:\s{2,}(.*))?$", line.rstrip())
            if m:
                found.append([m.group(1) or "", (m.group(2) or "").strip()])
            elif found and re.match(r"##\s{2,}\S", line):
                found[-1][1] += " " + line[2:].strip()
    return found


def markdown(found):
    rows = ["| target | does |", "| --- | --- |"]
    rows += ["| `%s` | %s |" % (("make " + t).strip(), d.replace("|", "\\|")) for t, d in found]
    return "\n".join(rows)


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("help", "readme"):
        sys.exit(__doc__)
    found = targets()
    if sys.argv[1] == "help":
        width = max(len(t) for t, _ in found) + 7
        for t, d in found:
            print(f"{('make ' + t).strip():<{width}}{d}")
        return
    path = sys.argv[2]
    text = open(path).read()
    if BEGIN not in text or END not in text:
        sys.exit(f"{path}: no {BEGIN} ... {END} markers")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    new = f"{head}{BEGIN}\n{markdown(found)}\n{END}{tail}"
    if "--check" in sys.argv:
        if new != text:
            sys.exit(f"{path}: its make-target table is out of date (make readme-tables)")
        return
    if new != text:
        open(path, "w").write(new)


main()
