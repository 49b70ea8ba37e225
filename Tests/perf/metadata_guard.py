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
With --locked RECORD it also counts each workload's locked instructions (lock-prefixed
instructions and xchg with memory: atomic reference counting, locks, compare-and-swap) per
event, from the same runs (`--dump-instr=yes`), and compares them with RECORD (lines of
"name count"): a workload whose count moves from its record by more than the tolerance
fails, either way (more: a retain, a lock or an atomic added to its path; fewer: lower the
record, so it keeps guarding). A per-event atomic costs about as much as 20 plain
instructions, and nothing else in a count shows ARC traffic so plainly.
Usage: metadata_guard.py ... --locked RECORD [--write-locked]  (--write-locked rewrites RECORD)

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

# Locked instructions per event: how far a count may move from its record. Exact for a
# workload on one thread (callgrind counts every instruction); one that hands events to
# another thread depends on how the threads interleave.
LOCKED_TOLERANCE = 0.1
THREADED = {"observe_on", "observe_on_bounded", "observe_on_bounded_full", "subscribe_on", "driver",
            "signal", "contended"}
THREADED_TOLERANCE = 2.0  # or a quarter of the record, whichever is more
LOCKED_INSTRUCTION = re.compile(r"^\s+([0-9a-f]+):\s+(?:lock |xchg\s+\S*\()")


def locked_addresses(obj, cache={}):
    """The addresses of the locked instructions in obj (objdump, once per object)."""
    if obj not in cache:
        found = set()
        if os.path.exists(obj):
            out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", obj], capture_output=True, text=True).stdout
            for line in out.splitlines():
                m = LOCKED_INSTRUCTION.match(line)
                if m:
                    found.add(int(m.group(1), 16))
        cache[obj] = found
    return cache[obj]


def run(binary, n, outdir, impl=None, locked=False):
    """Per workload: (runtime type lookups, locked instructions executed or None)."""
    prefix = os.path.join(outdir, f"cg.{n}")
    args = [binary, "--catalog-dump", str(n), "--impl", impl] if impl else [binary, str(n)]
    cmd = ["valgrind", "--tool=callgrind", "--compress-strings=no", "--compress-pos=no",
           f"--callgrind-out-file={prefix}.%p"] + (["--dump-instr=yes"] if locked else []) + args
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"metadata_guard: {' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    counts = {}
    for path in glob.glob(prefix + ".*"):
        name, calls, atomics = None, 0, 0
        pending = False
        objects, sites, after_call = {}, set(), False
        with open(path, errors="replace") as f:
            for line in f:
                if line.startswith("desc: Trigger: Client Request: "):
                    name = line[len("desc: Trigger: Client Request: "):].strip()
                elif line.startswith("cfn="):
                    pending = bool(LOOKUPS.match(line[4:].strip()))
                elif line.startswith("calls="):
                    if pending:
                        calls += int(line[6:].split()[0])
                        pending = False
                    after_call = True  # the next cost line is the call's inclusive cost
                elif not locked:
                    continue
                elif line.startswith(("ob=", "cob=")):
                    m = re.match(r"c?ob=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
                    if m and m.group(2):
                        objects[m.group(1)] = m.group(2)
                    if line.startswith("ob="):
                        sites = locked_addresses(objects[m.group(1)] if m else line[3:].strip())
                elif line.startswith("0x"):
                    if after_call:
                        after_call = False
                        continue
                    fields = line.split()
                    if len(fields) > 2 and int(fields[0], 16) in sites:
                        atomics += int(fields[2])
        if name:
            counts[name] = (calls, atomics if locked else None)
    return counts


def read_record(path):
    record = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                fields = line.split()
                if len(fields) == 2 and not line.startswith("#"):
                    record[fields[0]] = float(fields[1])
    return record


def write_record(path, measured):
    with open(path, "w") as f:
        f.write("# Locked instructions per event (or subscription), per workload: the record that\n"
                "# Tests/perf/metadata_guard.py --locked compares with (--write-locked rewrites it).\n")
        for name in sorted(measured):
            f.write(f"{name} {measured[name]:.2f}\n")


def check_locked(name, per_unit, record):
    """A verdict for one workload's locked instructions per event, or None when it holds."""
    if name not in record:
        return f"FAIL: {per_unit:.2f} locked per event, no record (add it: --write-locked)"
    tolerance = max(THREADED_TOLERANCE, record[name] / 4) if name in THREADED else LOCKED_TOLERANCE
    if per_unit > record[name] + tolerance:
        return f"FAIL: {per_unit:.2f} locked per event, recorded {record[name]:.2f}"
    if per_unit < record[name] - tolerance:
        return f"FAIL: {per_unit:.2f} locked per event, fewer than the {record[name]:.2f} recorded: lower the record"
    return None


def main():
    binary = sys.argv[1]
    table = sys.argv[sys.argv.index("--table") + 1] if "--table" in sys.argv else None
    impl = sys.argv[sys.argv.index("--catalog-dump") + 1] if "--catalog-dump" in sys.argv else None
    record_path = sys.argv[sys.argv.index("--locked") + 1] if "--locked" in sys.argv else None
    record = read_record(record_path) if record_path else {}
    with tempfile.TemporaryDirectory() as d:
        small, large = (run(binary, n, d, impl, locked=bool(record_path)) for n in (SMALL, LARGE))
    if not small:
        sys.exit("metadata_guard: no per-workload dumps (is the binary built with callgrind.h?)")
    passed = failed = 0
    rows = []
    measured_locked = {}
    for name in sorted(small):
        per_unit = (large.get(name, (0, 0))[0] - small[name][0]) / (LARGE - SMALL)
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
        locked_text = ""
        if record_path:
            atomics = (large.get(name, (0, 0))[1] - small[name][1]) / (LARGE - SMALL)
            measured_locked[name] = atomics
            locked_text = f" {atomics:6.2f} locked"
            locked_verdict = check_locked(name, atomics, record)
            if locked_verdict and "--write-locked" not in sys.argv:
                verdict, ok = (locked_verdict if ok else f"{verdict}; {locked_verdict}"), False
        rows.append((name, per_unit, measured_locked.get(name), verdict))
        print(f"metadata_guard: {name:28s} {per_unit:7.2f} lookups{locked_text} per event  {verdict}")
        passed, failed = passed + ok, failed + (not ok)
    for name in sorted(set(UNSPECIALIZED) - set(small)):
        print(f"metadata_guard: {name}: listed in UNSPECIALIZED but no such workload")
        failed += 1
    if record_path:
        for name in sorted(set(record) - set(small)):
            print(f"metadata_guard: {name}: in the locked-instruction record but no such workload")
            failed += "--write-locked" not in sys.argv
        if "--write-locked" in sys.argv:
            write_record(record_path, measured_locked)
            print(f"metadata_guard: wrote {record_path}")
    if table:
        with open(table, "w") as f:
            f.write("| workload | runtime type lookups per event | locked instructions per event | verdict |\n"
                    "|---|---|---|---|\n")
            for name, per_unit, atomics, verdict in rows:
                f.write(f"| {name} | {per_unit:.2f} | {'—' if atomics is None else f'{atomics:.2f}'} | {verdict} |\n")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
