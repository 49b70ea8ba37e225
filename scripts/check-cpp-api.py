#!/usr/bin/env python3
"""check-cpp-api.py RXC_H RXC_HPP UNWRAPPED

Every function rxc.h declares must be called by rxc.hpp (outside comments) or be listed in
UNWRAPPED as "rx_name  reason" (one per line, # comments allowed). A listed function that
rxc.hpp does call, or one that rxc.h does not declare, is an error too, so the list stays
true. Prints what it found; exits 1 on any mismatch."""
import re
import sys


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def main(h_path, hpp_path, list_path):
    header = strip_comments(open(h_path).read())
    declared = set(re.findall(r"\bRX_EXPORT\b[^;{]*?\b(rx_[a-z0-9_]+)\s*\(", header))
    used = set(re.findall(r"\b(rx_[a-z0-9_]+)\b", strip_comments(open(hpp_path).read())))
    listed = {}
    for n, line in enumerate(open(list_path), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, _, reason = line.partition(" ")
        if not reason.strip():
            print(f"{list_path}:{n}: {name} has no reason")
            return 1
        listed[name] = reason.strip()
    problems = []
    for name in sorted(declared - used - set(listed)):
        problems.append(f"{name}: declared in {h_path}, not called by {hpp_path} and not in {list_path}")
    for name in sorted(set(listed) & used):
        problems.append(f"{name}: listed as not wrapped in {list_path}, but {hpp_path} calls it")
    for name in sorted(set(listed) - declared):
        problems.append(f"{name}: listed in {list_path}, but {h_path} does not declare it")
    for p in problems:
        print("check-cpp-api: " + p)
    wrapped = len(declared & used)
    print(f"check-cpp-api: {len(declared)} functions in {h_path}: {wrapped} called by {hpp_path}, "
          f"{len(declared) - wrapped} listed as not wrapped")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
