#!/usr/bin/env python3
"""The generic-metadata guard: no per-event Swift runtime type lookups on the ABI's paths.

Usage: metadata_guard.py WORKLOADS_BINARY [--table FILE]
       metadata_guard.py SWIFTBENCH_BINARY --catalog-dump IMPL [--table FILE]

Runs the workloads program (Tests/perf/workloads.c: one workload per operator of rxc.h), or
the Swift bench's catalog for one implementation (`SwiftBench --catalog-dump N --impl rxcore`:
the same workloads on RxCore called from Swift with `Observable<Value>`),
under `valgrind --tool=callgrind` at two sizes, counts each workload's calls into the Swift
runtime's type-lookup entry points (LOOKUPS), and computes how many each event (or
subscription) adds. Instruction counts and call counts are exact under callgrind, so this
is deterministic: no timing.

A workload whose lookups grow with its events fails, unless it is listed in
UNSPECIALIZED below; a listed workload that no longer grows also fails, so the list can
only shrink. The list is the work left to make the core specialized for the ABI's value
type: each entry is a path that runs generic code unspecialized (a vtable call into a
generic class's method runs its unspecialized body, which looks up `Event<Element>` and
friends in the metadata cache on every call).
Prints one line per workload and "N passed, N failed".
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

SMALL, LARGE = 100, 300
# Growth per unit at or above this is a per-event lookup (an exact run gives >= 1 for a
# lookup on every event; amortized growth of a buffer stays far below it).
THRESHOLD = 0.1
LOOKUPS = re.compile(
    r"^(swift_getGenericMetadata|swift_getCanonicalSpecializedMetadata|swift_getGenericWitnessTable|"
    r"swift_getTupleTypeMetadata\w*|swift_getFunctionTypeMetadata\w*|swift_getAssociatedTypeWitness|"
    r"swift_getAssociatedConformanceWitness|swift_conformsToProtocol\w*|swift_getExistentialTypeMetadata|"
    r"swift_getOpaqueTypeMetadata\w*|swift_checkMetadataState|swift_getForeignTypeMetadata|"
    r"swift_getEnumCaseMultiPayload|swift_getWitnessTable)\b")

# Workloads known to run unspecialized generic code per event (see the docstring).
UNSPECIALIZED = set()  # every workload runs specialized code


def run(binary, n, outdir, impl=None):
    prefix = os.path.join(outdir, f"cg.{n}")
    args = [binary, "--catalog-dump", str(n), "--impl", impl] if impl else [binary, str(n)]
    cmd = ["valgrind", "--tool=callgrind", "--compress-strings=no", "--compress-pos=no",
           f"--callgrind-out-file={prefix}.%p"] + args
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"metadata_guard: {' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    counts = {}
    for path in glob.glob(prefix + ".*"):
        name, calls = None, 0
        pending = False
        with open(path, errors="replace") as f:
            for line in f:
                if line.startswith("desc: Trigger: Client Request: "):
                    name = line[len("desc: Trigger: Client Request: "):].strip()
                elif line.startswith("cfn="):
                    pending = bool(LOOKUPS.match(line[4:].strip()))
                elif pending and line.startswith("calls="):
                    calls += int(line[6:].split()[0])
                    pending = False
        if name:
            counts[name] = calls
    return counts


def main():
    binary = sys.argv[1]
    table = sys.argv[sys.argv.index("--table") + 1] if "--table" in sys.argv else None
    impl = sys.argv[sys.argv.index("--catalog-dump") + 1] if "--catalog-dump" in sys.argv else None
    with tempfile.TemporaryDirectory() as d:
        small, large = run(binary, SMALL, d, impl), run(binary, LARGE, d, impl)
    if not small:
        sys.exit("metadata_guard: no per-workload dumps (is the binary built with callgrind.h?)")
    passed = failed = 0
    rows = []
    for name in sorted(small):
        per_unit = (large.get(name, 0) - small[name]) / (LARGE - SMALL)
        grows = per_unit >= THRESHOLD
        listed = name in UNSPECIALIZED
        if grows and not listed:
            verdict, ok = "FAIL: runtime type lookups per event", False
        elif listed and not grows:
            verdict, ok = "FAIL: specialized now; remove it from UNSPECIALIZED", False
        elif listed:
            verdict, ok = "known: unspecialized", True
        else:
            verdict, ok = "ok", True
        rows.append((name, per_unit, verdict))
        print(f"metadata_guard: {name:28s} {per_unit:7.2f} lookups per event  {verdict}")
        passed, failed = passed + ok, failed + (not ok)
    for name in sorted(set(UNSPECIALIZED) - set(small)):
        print(f"metadata_guard: {name}: listed in UNSPECIALIZED but no such workload")
        failed += 1
    if table:
        with open(table, "w") as f:
            f.write("| workload | runtime type lookups per event | verdict |\n|---|---|---|\n")
            for name, per_unit, verdict in rows:
                f.write(f"| {name} | {per_unit:.2f} | {verdict} |\n")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
