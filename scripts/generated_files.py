"""What the generators share: bring a Generated folder in line with a fresh generation, or
(--check) say where it differs."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sync(tool, out, dirs, suffix, check, why_stale, problems=()):
    """`out` maps paths to their text; a file in `dirs` ending in `suffix` that `out` lacks is
    stale. `problems` are further failures a check reports."""
    existing = {os.path.join(d, n) for d in dirs if os.path.isdir(d) for n in os.listdir(d)}
    stale = sorted(n for n in existing if n.endswith(suffix) and n not in out)
    differ = sorted(n for n, t in out.items() if not os.path.exists(n) or open(n).read() != t)
    if check:
        for n in differ:
            print(f"check-generated: {os.path.relpath(n, ROOT)} differs from a fresh generation")
        for n in stale:
            print(f"check-generated: {os.path.relpath(n, ROOT)} {why_stale}")
        for p in problems:
            print(f"check-generated: {p}")
        bad = len(differ) + len(stale) + len(problems)
        print(f"{len(out) - len(differ)} passed, {bad} failed")
        sys.exit(1 if bad else 0)
    for n in stale:
        os.remove(n)
    for n in differ:
        os.makedirs(os.path.dirname(n), exist_ok=True)
        with open(n, "w") as f:
            f.write(out[n])
    print(f"{tool}: {len(out)} files, {len(differ)} written, {len(stale)} removed")
