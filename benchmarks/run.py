#!/usr/bin/env python3
"""`make bench`: builds and runs the benchmark suite (W1-W9) and the operator catalog.

For each workload W1-W9: ns per unit (min and median of 5 runs, one per pass over the suite)
for the raw C loop, librxc through its C ABI, RxCore (the Swift core called directly) and
OpenCombine; allocations per unit (LD_PRELOAD malloc counter, two sizes); instructions per
unit (callgrind, two sizes); the budget and whether librxc meets it. Writes
benchmarks/RESULTS.md and benchmarks/chart.png.

Environment: BENCH_QUICK=1 shrinks every size (a smoke run); BENCH_NO_CALLGRIND=1 skips
callgrind; BENCH_RUNS=R changes the number of timed runs; BENCH_MAX_MS=T caps one timed run
(about T ms, 200 by default: n shrinks for slow workloads, so `make bench` stays under 10 min).

Then the catalog: every workload of Tests/perf/workloads.c (one per operator of rxc.h, the
list of the metadata guard) timed through librxc (`workloads --time`), RxCore on
Observable<Value>, OpenCombine and, when RXSWIFT_PATH names a RxSwift 6 checkout, RxSwift;
instructions per event for librxc from one callgrind run per size (the per-workload dumps);
and the contended workload (4 threads into one publish subject). BENCH_CATALOG_RUNS=R passes
(3; 1 with BENCH_QUICK), BENCH_CATALOG_MAX_MS=T per timed run (100; 10 with BENCH_QUICK),
BENCH_NO_CATALOG=1 skips it. Beside librxc, for the synchronous per-event rows, the floor
(benchmarks/c/floor.c: the same user calls through function pointers, no library between
them) and, when RXCPP_CATALOG names the program `make bench-rxcpp-catalog` builds (`make bench`
passes it when RXCPP_PATH is set; run directly with RXCPP_PATH, this script asks make for it),
RxCpp twins (benchmarks/cpp/catalog_rxcpp.cpp). All three print the same RESULT lines and are
joined by workload name.
"""
import concurrent.futures
import glob
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "benchmarks")
OUT = os.path.join(ROOT, "build", "bench")
LIBDIR = os.path.join(ROOT, "build", "lib")
SWIFT_SCRATCH = os.path.join(BENCH, ".build-swift")
QUICK = os.environ.get("BENCH_QUICK") == "1"
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
# A timed run of one workload takes at most about this long (n shrinks for slow ones).
MAX_MS = int(os.environ.get("BENCH_MAX_MS", "200"))
CALLGRIND = os.environ.get("BENCH_NO_CALLGRIND") != "1" and shutil.which("valgrind")
CATALOG = os.environ.get("BENCH_NO_CATALOG") != "1"
# Fewer and shorter passes than the nine: 65 workloads on up to four implementations.
CATALOG_RUNS = int(os.environ.get("BENCH_CATALOG_RUNS", "1" if QUICK else "3"))
CATALOG_MAX_MS = int(os.environ.get("BENCH_CATALOG_MAX_MS", "10" if QUICK else "100"))
# Events per workload of the two callgrind runs (difference / size difference).
CATALOG_CG_SIZES = (200, 600) if QUICK else (1000, 3000)
# Absolute: Package.swift resolves a relative path from benchmarks/swift.
RXCPP_PATH = os.path.abspath(os.environ["RXCPP_PATH"]) if os.environ.get("RXCPP_PATH") else None
RXSWIFT_PATH = os.path.abspath(os.environ["RXSWIFT_PATH"]) if os.environ.get("RXSWIFT_PATH") else None
if RXSWIFT_PATH:
    # A scratch path of its own: in a shared one, the RxSwift module a previous build left
    # keeps canImport(RxSwift) true after RXSWIFT_PATH is unset, and the link fails.
    SWIFT_SCRATCH = os.path.join(BENCH, ".build-swift-rxswift")

# name, title, unit, budget ns (or bytes for W9), budget allocations per unit (None: none set)
WORKLOADS = [
    ("W1", "publish subject → 1 subscriber", "event", 20, 0),
    ("W2", "publish subject → 100 subscribers", "delivery", 5, 0),
    ("W3", "range → map → filter → map", "element", 25, 0),
    ("W4", "subscribe + dispose on a subject", "pair", 100, 2),
    ("W5", "just → map → subscribe lifecycle", "lifecycle", 150, 4),
    ("W6", "subject → observe_on(serial) → subscriber", "event", 40, 0),
    ("W6b", "subject → observe_on_bounded(serial, drop oldest, nothing overflows) → subscriber", "event", 60, 0),
    ("W7", "replay(100): late subscriber", "replayed value", 4, 0),
    ("W8", "range → flat_map(just)", "element", 120, None),
    ("W9", "memory per live subscription (1M)", "subscription", 128, None),
]
# Sizes for the allocation counter and callgrind (two each; the difference removes start-up;
# both counts are exact, so small sizes suffice).
SMALL = {"W1": (10000, 50000), "W2": (10000, 50000), "W3": (10000, 50000),
         "W4": (1000, 5000), "W5": (1000, 5000), "W6": (1000, 5000), "W6b": (1000, 5000),
         "W7": (10000, 50000), "W8": (1000, 5000), "W9": (1000, 5000)}
# The allocation counter's sizes: as SMALL, but W6 runs long enough that the queue's warm-up
# (the events pushed while the drain's thread wakes, ~50 us, a few thousand at 15 ns each)
# is not mistaken for a cost per event.
ALLOC_SIZES = dict(SMALL, W6=(100000, 1000000), W6b=(100000, 1000000))
IMPLS = ["raw", "rxc", "rxcore", "opencombine"]
LABEL = {"raw": "raw C", "rxc": "librxc (C ABI)", "rxcore": "RxCore (Swift, Value)",
         "opencombine": "OpenCombine"}


def log(msg):
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def sh(cmd, **kw):
    log(" ".join(cmd) if isinstance(cmd, list) else cmd)
    return subprocess.run(cmd, check=True, **kw)


# ---------------------------------------------------------------- build

def build_library():
    """The shipped librxc.so: `make` when the Makefile builds it, else the same swift build."""
    lib = os.path.join(LIBDIR, "librxc.so")
    if os.path.exists(os.path.join(ROOT, "Makefile")):
        sh(["make", "-C", ROOT, "--no-print-directory", "lib"] if has_make_target("lib")
           else ["make", "-C", ROOT, "--no-print-directory"])
    else:
        env = dict(os.environ, RXC_STATIC_STDLIB="1")
        sh(["swift", "build", "-c", "release", "--product", "rxc",
            "--scratch-path", os.path.join(ROOT, ".build-static")], cwd=ROOT, env=env)
        os.makedirs(LIBDIR, exist_ok=True)
        shutil.copy(os.path.join(ROOT, ".build-static", "release", "librxc.so"), lib)
        if not os.path.lexists(lib + ".0"):
            os.symlink("librxc.so", lib + ".0")
    return lib


def has_make_target(target):
    r = subprocess.run(["make", "-C", ROOT, "-n", "--no-print-directory", target],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return r.returncode == 0


def build_c():
    os.makedirs(OUT, exist_ok=True)
    cc = os.environ.get("CC", "clang" if shutil.which("clang") else "cc")
    c = os.path.join(BENCH, "c")
    # DWARF 4: valgrind 3.19 cannot read clang's default DWARF 5.
    sh([cc, "-O2", "-gdwarf-4", "-Wall", "-Wextra", "-I" + os.path.join(ROOT, "include"),
        os.path.join(c, "bench.c"), os.path.join(c, "baseline.c"), "-o", os.path.join(OUT, "bench"),
        "-L" + LIBDIR, "-lrxc", "-Wl,-rpath," + LIBDIR, "-ldl", "-lpthread"])
    sh([cc, "-O2", "-Wall", "-shared", "-fPIC", os.path.join(c, "malloc_count.c"),
        "-o", os.path.join(OUT, "malloc_count.so")])
    # For callgrind: the same program on a copy of the library without debug info (valgrind
    # 3.19 gives up on DWARF 5, which clang writes for the library's C parts).
    cglib = os.path.join(OUT, "cglib")
    os.makedirs(cglib, exist_ok=True)
    sh(["objcopy", "--strip-debug", os.path.join(LIBDIR, "librxc.so"),
        os.path.join(cglib, "librxc.so")])
    if not os.path.lexists(os.path.join(cglib, "librxc.so.0")):
        os.symlink("librxc.so", os.path.join(cglib, "librxc.so.0"))
    sh([cc, "-O2", "-gdwarf-4", "-I" + os.path.join(ROOT, "include"),
        os.path.join(c, "bench.c"), os.path.join(c, "baseline.c"),
        "-o", os.path.join(OUT, "bench-cg"), "-L" + cglib, "-lrxc", "-Wl,-rpath," + cglib,
        "-ldl", "-lpthread"])
    # The catalog: the guard's workloads program (one source for both), optimized as bench.c,
    # once for timing and once on the callgrind copy of the library; and the contended run.
    workloads = os.path.join(ROOT, "Tests", "perf", "workloads.c")
    gen = os.path.join(ROOT, "build", "gen")
    sh(["python3", os.path.join(ROOT, "scripts", "gen-from-header.py"), "workloads",
        os.path.join(gen, "workloads_gen.h")])
    for name, lib in (("workloads", LIBDIR), ("workloads-cg", cglib)):
        sh([cc, "-std=gnu11", "-O2", "-gdwarf-4", "-Wall", "-Wextra",
            "-I" + os.path.join(ROOT, "include"), "-I" + gen, workloads, "-o", os.path.join(OUT, name),
            "-L" + lib, "-lrxc", "-Wl,-rpath," + lib])
    # The catalog's floor: the workloads' own user functions (Tests/perf/user_fns.h), called
    # through function pointers in plain loops; librxc only for the values they make.
    sh([cc, "-std=gnu11", "-O2", "-gdwarf-4", "-Wall", "-Wextra", "-I" + os.path.join(ROOT, "include"),
        "-I" + os.path.join(ROOT, "Tests", "perf"), "-I" + c, os.path.join(c, "floor.c"),
        "-o", os.path.join(OUT, "floor"), "-L" + LIBDIR, "-lrxc", "-Wl,-rpath," + LIBDIR])
    # The catalog through include/rxc.hpp, flags as benchmarks/cpp's (none without a g++).
    if shutil.which(os.environ.get("GXX", "g++")):
        sh([os.environ.get("GXX", "g++"), "-std=c++17", "-O2", "-DNDEBUG", "-pthread",
            "-I" + os.path.join(ROOT, "include"), "-I" + c, os.path.join(BENCH, "cpp", "catalog_rxc.cpp"),
            "-o", os.path.join(OUT, "catalog_rxc"), "-L" + LIBDIR, "-lrxc", "-Wl,-rpath," + LIBDIR])
    sh([cc, "-O2", "-gdwarf-4", "-Wall", "-Wextra", "-I" + os.path.join(ROOT, "include"),
        os.path.join(c, "contended.c"), os.path.join(c, "baseline.c"),
        "-o", os.path.join(OUT, "contended"), "-L" + LIBDIR, "-lrxc", "-Wl,-rpath," + LIBDIR,
        "-lpthread"])


def core_features():
    """-D flags for the parts of RxCore that exist (the Swift bench compiles only those)."""
    src = ""
    for d, _, files in os.walk(os.path.join(ROOT, "Sources", "RxCore")):
        for f in files:
            if f.endswith(".swift"):
                with open(os.path.join(d, f)) as fh:
                    src += fh.read()
    flags = []
    if re.search(r"class PublishSubject\b", src):
        flags.append("RXCORE_SUBJECTS")
    if re.search(r"class ReplaySubject\b", src):
        flags.append("RXCORE_REPLAY")
    if all(re.search(rf"func {op}\b", src) for op in ("map", "filter", "flatMap")):
        flags.append("RXCORE_OPERATORS")
    if re.search(r"func observe\(on", src):
        flags.append("RXCORE_OBSERVE_ON")
    return flags


def build_swift():
    flags = core_features()
    log("RxCore parts found: " + (", ".join(flags) or "none"))
    # Package.swift adds RxSwift (and RxSwiftCatalog.swift compiles) only with RXSWIFT_PATH.
    log(f"RxSwift: {RXSWIFT_PATH}" if RXSWIFT_PATH else "RxSwift: not included (RXSWIFT_PATH unset)")
    cmd = ["swift", "build", "-c", "release", "--scratch-path", SWIFT_SCRATCH,
           # cross-module optimization for every module, OpenCombine included: it halves
           # OpenCombine's times here, so the comparison is with its best build.
           "-Xswiftc", "-cross-module-optimization"]
    for f in flags:
        cmd += ["-Xswiftc", "-D" + f]
    env = {k: v for k, v in os.environ.items() if k != "RXC_STATIC_STDLIB"}
    if RXSWIFT_PATH:
        env["RXSWIFT_PATH"] = RXSWIFT_PATH
    try:
        sh(cmd, cwd=os.path.join(BENCH, "swift"), env=env)
    except subprocess.CalledProcessError:
        # SwiftPM can keep a stale file list of the path dependency (a source file added to
        # RxCore since the last build is "not in scope"): clean once and build again.
        log("Swift build failed: cleaning its build folder and trying once more")
        sh(["swift", "package", "--scratch-path", SWIFT_SCRATCH, "clean"],
           cwd=os.path.join(BENCH, "swift"), env=env)
        sh(cmd, cwd=os.path.join(BENCH, "swift"), env=env)
    # Without its DWARF 5 debug info (valgrind 3.19 gives up on it); the symbol table stays.
    binary = os.path.join(OUT, "SwiftBench")
    sh(["objcopy", "--strip-debug", os.path.join(SWIFT_SCRATCH, "release", "SwiftBench"), binary])
    return binary


# ---------------------------------------------------------------- running

RESULT = re.compile(r"^RESULT (\S+) (\S+) (.*?)(?:\s+#.*)?$")


def parse(text):
    out = {}
    for line in text.splitlines():
        m = RESULT.match(line)
        if not m:
            continue
        w, impl, rest = m.groups()
        if rest.startswith("n/a"):
            out[(w, impl)] = {"na": rest}
            continue
        out[(w, impl)] = {k: float(v) for k, v in re.findall(r"(\w+)=([\d.]+)", rest)}
    return out


def binary_for(impl, c_bin, swift_bin):
    return c_bin if impl in ("raw", "rxc") else swift_bin


def run_capture(cmd, env=None, partial=False):
    """The program's standard output, or None if it failed (with partial, what it printed
    before it failed: the rows it finished)."""
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if r.returncode != 0:
        log(f"FAILED ({r.returncode}): {' '.join(cmd)}\n{r.stdout}{r.stderr}")
        return r.stdout if partial else None
    return r.stdout


def timed(c_bin, swift_bin):
    """RUNS passes over the whole suite, each a fresh process of each binary with one timed
    run per workload (after its warm-up), C and Swift in turn. On these shared hosts a noisy
    spell (a busy neighbour) lasts seconds: five runs in a row of one workload could all fall
    into it, while five passes spread each workload's runs over the whole timed phase, and
    over several process layouts. Min and median are taken over the passes."""
    scale = "0.05" if QUICK else "1"
    passes = {}
    for p in range(RUNS):
        for binary in (c_bin, swift_bin):
            cmd = [binary, "--runs", "1", "--warm", "1", "--scale", scale, "--max-ms", str(MAX_MS)]
            log(f"pass {p + 1}/{RUNS}: " + " ".join(cmd))
            out = run_capture(cmd)
            if out:
                sys.stderr.write(out)
                for key, r in parse(out).items():
                    passes.setdefault(key, []).append(r)
    results = {}
    for key, rs in passes.items():
        if "na" in rs[0]:
            results[key] = rs[0]
            continue
        ns = [r["min_ns"] for r in rs]  # each pass's one run
        r = dict(rs[0], min_ns=min(ns), median_ns=statistics.median(ns), runs=len(ns))
        if "bytes_per_unit" in rs[0]:
            r["bytes_per_unit"] = min(x["bytes_per_unit"] for x in rs)
        results[key] = r
    return results


def single(binary, w, impl, n, env=None, prefix=()):
    out = run_capture(list(prefix) + [binary, "--workload", w, "--n", str(n), "--impl", impl],
                      env=env)
    if out is None:
        return None
    return parse(out).get((w, impl))


def alloc_counts(c_bin, swift_bin, timed_results):
    env = dict(os.environ, LD_PRELOAD=os.path.join(OUT, "malloc_count.so"))
    counts = {}
    for w, *_ in WORKLOADS:
        n1, n2 = ALLOC_SIZES[w]
        for impl in IMPLS:
            if (w, impl) not in timed_results or "na" in timed_results[(w, impl)]:
                continue
            binary = binary_for(impl, c_bin, swift_bin)
            a = single(binary, w, impl, n1, env)
            b = single(binary, w, impl, n2, env)
            if a and b:
                # Asynchronous W6 allocates per batch, not per event: a bigger run can batch
                # better and allocate less in all. Less than nothing per event is nothing.
                counts[(w, impl)] = max(0.0, (b["allocs"] - a["allocs"]) / (b["n"] - a["n"]))
    return counts


def callgrind_total(path):
    with open(path) as fh:
        for line in fh:
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    return None


def instructions(c_bin, swift_bin, timed_results):
    counts = {}
    if not CALLGRIND:
        return counts
    cg = os.path.join(OUT, "callgrind")
    os.makedirs(cg, exist_ok=True)

    def one(job):
        w, impl, n = job
        f = os.path.join(cg, f"callgrind.{w}.{impl}.{n}")
        r = single(binary_for(impl, c_bin + "-cg", swift_bin), w, impl, n,
                   prefix=("valgrind", "--tool=callgrind", "--callgrind-out-file=" + f))
        return job, callgrind_total(f) if r else None

    jobs = [(w, impl, n) for w, *_ in WORKLOADS if w != "W9"  # W9 measures memory
            for impl in IMPLS
            if (w, impl) in timed_results and "na" not in timed_results[(w, impl)]
            for n in SMALL[w]]
    # Instruction counts do not depend on load, so the runs may share the cores.
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        totals = dict(pool.map(one, jobs))
    for w, *_ in WORKLOADS:
        n1, n2 = SMALL[w]
        for impl in IMPLS:
            a, b = totals.get((w, impl, n1)), totals.get((w, impl, n2))
            if a is not None and b is not None:
                counts[(w, impl)] = (b - a) / (n2 - n1)
    return counts


# ---------------------------------------------------------------- the catalog

CATALOG_IMPLS = ["rxc", "rxcore", "opencombine", "rxswift", "floor", "rxcpp", "rxc_hpp"]
CATALOG_LABEL = {"rxc": "librxc (C ABI)", "rxcore": "RxCore (Swift, Value)", "floor": "floor (raw C)",
                 "rxcpp": "RxCpp", "rxc_hpp": "rxc.hpp",
                 "opencombine": "OpenCombine", "rxswift": "RxSwift", "raw": "raw C (mutex)"}


def rxcpp_catalog():
    """The RxCpp twins' program, or None (not built: RXCPP_PATH unset, or the build failed)."""
    path = os.environ.get("RXCPP_CATALOG")
    if not path and RXCPP_PATH:
        path = os.path.join(ROOT, "build", "cpp", "bench", "catalog_rxcpp", "catalog_rxcpp")
        try:
            sh(["make", "-C", ROOT, "--no-print-directory", "bench-rxcpp-catalog", "RXCPP_PATH=" + RXCPP_PATH])
        except subprocess.CalledProcessError:
            log("RxCpp twins: the build failed; the RxCpp column says so")
            return None
    if path and os.path.exists(path):
        return path
    if path:
        log(f"RxCpp twins: {path} does not exist")
    return None


def rxcpp_desc():
    """Which RxCpp the column measured, for RESULTS.md."""
    if not RXCPP_PATH:
        return f"RxCpp: the program RXCPP_CATALOG names ({os.environ.get('RXCPP_CATALOG')})"
    r = subprocess.run(["git", "-C", RXCPP_PATH, "log", "-1", "--format=%h %cs"], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    at = f" at {r.stdout.strip()}" if r.returncode == 0 and r.stdout.strip() else ""
    return f"RxCpp{at}, from RXCPP_PATH"


def twin_programs(names):
    """(impl, program) for the floor and, when built, the RxCpp twins. Each names its
    workloads as workloads.c does; a name the catalog lacks is a twin gone stale: said loudly."""
    progs = [("floor", os.path.join(OUT, "floor"))]
    if os.path.exists(os.path.join(OUT, "catalog_rxc")):
        progs.append(("rxc_hpp", os.path.join(OUT, "catalog_rxc")))
    rxcpp = rxcpp_catalog()
    if rxcpp:
        progs.append(("rxcpp", rxcpp))
    for impl, prog in progs:
        stale = [n for n in (run_capture([prog, "--list"]) or "").split() if n not in names]
        if stale:
            log(f"WARNING: {prog} times workloads the catalog does not have: {', '.join(stale)}")
    return progs


def catalog_list():
    out = run_capture([os.path.join(OUT, "workloads"), "--list"])
    return [tuple(line.split("\t", 1)) for line in (out or "").splitlines() if "\t" in line]


def catalog_timed(names, swift_bin, twins=()):
    """CATALOG_RUNS passes; in each, one process per program runs every workload once
    (warm-ups, then one timed run), so a workload's runs are a pass (tens of seconds) apart.
    Min and median over the passes."""
    ms = str(CATALOG_MAX_MS)
    passes = {}
    for p in range(CATALOG_RUNS):
        for cmd in ([os.path.join(OUT, "workloads"), "--time", ms] + names,
                    [os.path.join(OUT, "contended"), "--time", ms],
                    [swift_bin, "--catalog", ms] + names + ["contended"],
                    *([prog, "--time", ms] + names for _, prog in twins)):
            log(f"catalog pass {p + 1}/{CATALOG_RUNS}: {os.path.basename(cmd[0])} {' '.join(cmd[1:3])}")
            out = run_capture(cmd, partial=True)
            for key, r in parse(out or "").items():
                passes.setdefault(key, []).append(r)
    results = {}
    for key, rs in passes.items():
        if "na" in rs[0]:
            results[key] = rs[0]
            continue
        ns = [r["min_ns"] for r in rs]
        results[key] = dict(rs[0], min_ns=min(ns), median_ns=statistics.median(ns), runs=len(ns))
    return results


def catalog_instructions():
    """librxc's instructions per event: workloads-cg under callgrind at two sizes; each
    workload's counters are dumped under its name (CALLGRIND_DUMP_STATS_AT)."""
    if not CALLGRIND:
        return {}
    cg = os.path.join(OUT, "callgrind-catalog")
    shutil.rmtree(cg, ignore_errors=True)
    os.makedirs(cg)

    def one(n):
        prefix = os.path.join(cg, f"cg.{n}")
        r = run_capture(["valgrind", "--tool=callgrind", f"--callgrind-out-file={prefix}.%p",
                         os.path.join(OUT, "workloads-cg"), str(n)])
        totals = {}
        if r is None:
            return totals
        for path in glob.glob(prefix + ".*"):
            name = None
            with open(path, errors="replace") as fh:
                for line in fh:
                    if line.startswith("desc: Trigger: Client Request: "):
                        name = line.split(": ", 3)[3].strip()
                    elif line.startswith("summary:") and name:
                        totals[name] = int(line.split()[1])
                        break
        return totals

    n1, n2 = CATALOG_CG_SIZES
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        a, b = pool.map(one, (n1, n2))
    return {name: (b[name] - a[name]) / (n2 - n1) for name in a if name in b}


def catalog_table(rows, t, instr, rxcpp_built=True):
    def cell(name, impl, with_median=False):
        r = t.get((name, impl))
        if r is None:
            return "—"
        if "na" in r:
            return "n/a"
        c = fmt(r["min_ns"])
        if with_median and r.get("runs", 1) > 1:
            c += f" (med {fmt(r['median_ns'])})"
        return c

    def ratio(name, impl, over="rxc"):
        a, b = t.get((name, impl), {}), t.get((name, over), {})
        if "min_ns" not in a or "min_ns" not in b or b["min_ns"] == 0:
            return "—"
        return f"{a['min_ns'] / b['min_ns']:.1f}×"

    def rxcpp(name, cellf):
        # absent from a built program: RxCpp has no such operator
        if not rxcpp_built:
            return "not built"
        return cellf() if (name, "rxcpp") in t else "n/a"

    head = ("| workload | shape | librxc ns/event | librxc instr/event | RxCore (Swift, Value) "
            "| RxCore/librxc | OpenCombine | RxSwift | OpenCombine/librxc | RxSwift/librxc "
            "| floor | librxc/floor | RxCpp | RxCpp/librxc | rxc.hpp | rxc.hpp/librxc |")
    lines = [head, "|" + "|".join(["---"] * (head.count("|") - 1)) + "|"]
    for name, shape in rows:
        ir = instr.get(name)
        lines.append(f"| {name} | {shape} | {cell(name, 'rxc', True)} | "
                     f"{fmt(ir, 0) if ir is not None else '—'} | {cell(name, 'rxcore')} "
                     f"| {ratio(name, 'rxcore')} | {cell(name, 'opencombine')} | {cell(name, 'rxswift')} "
                     f"| {ratio(name, 'opencombine')} | {ratio(name, 'rxswift')} "
                     f"| {cell(name, 'floor')} | {ratio(name, 'rxc', 'floor')} "
                     f"| {rxcpp(name, lambda: cell(name, 'rxcpp'))} | {rxcpp(name, lambda: ratio(name, 'rxcpp'))} "
                     f"| {cell(name, 'rxc_hpp')} | {ratio(name, 'rxc_hpp')} |")
    return "\n".join(lines)


def rxcore_summary(rows, t, limit=1.5):
    """One line: how many rows have Swift callers of RxCore within `limit` of the C ABI."""
    over, measured = [], 0
    for name, _ in rows:
        a, b = t.get((name, "rxcore"), {}), t.get((name, "rxc"), {})
        if "min_ns" not in a or "min_ns" not in b or b["min_ns"] == 0:
            continue
        measured += 1
        if a["min_ns"] / b["min_ns"] > limit:
            over.append(f"{name} {a['min_ns'] / b['min_ns']:.2f}×")
    return (f"RxCore (Swift) within {limit}× of the C ABI's time: {measured - len(over)} of {measured} rows"
            + (f"; above: {', '.join(over)}." if over else "."))


def floor_summary(rows, t, limit=2.0):
    """Issue 32's budgets in two sentences: rows within `limit` of the floor (with the spread
    of librxc/floor), rows where RxCpp is faster than librxc."""
    ratios, faster, both = [], [], 0
    for name, _ in rows:
        f, r, c = (t.get((name, i), {}) for i in ("floor", "rxc", "rxcpp"))
        if "min_ns" in f and "min_ns" in r and f["min_ns"] > 0:
            ratios.append((r["min_ns"] / f["min_ns"], name))
        if "min_ns" in c and "min_ns" in r and r["min_ns"] > 0:
            both += 1
            if c["min_ns"] < r["min_ns"]:
                faster.append(f"{name} {c['min_ns'] / r['min_ns']:.2f}×")
    if not ratios:
        return "No floor measured."
    ratios.sort()
    text = (f"librxc within {limit:g}× of the floor: {sum(x <= limit for x, _ in ratios)} of {len(ratios)} rows "
            f"(librxc/floor from {ratios[0][0]:.1f}× for {ratios[0][1]} to {ratios[-1][0]:.1f}× for "
            f"{ratios[-1][1]}, median {statistics.median(x for x, _ in ratios):.1f}×).")
    if both:
        text += (f" RxCpp faster than librxc: {len(faster)} of {both} rows"
                 + (f" (RxCpp/librxc: {', '.join(faster)})." if faster else "."))
    return text


def contended_table(t):
    impls = ["raw", "rxc", "rxcore", "opencombine", "rxswift"]
    head = "| workload | " + " | ".join(CATALOG_LABEL[i] for i in impls) + " |"
    cells = []
    for i in impls:
        r = t.get(("contended", i))
        cells.append("—" if r is None else "n/a" if "na" in r else
                     fmt(r["min_ns"]) + (f" (med {fmt(r['median_ns'])})" if r.get("runs", 1) > 1 else ""))
    return "\n".join([head, "|" + "---|" * (len(impls) + 1),
                      "| 4 threads → one publish subject → 1 subscriber (ns per event: wall time / "
                      "events) | " + " | ".join(cells) + " |"])


def catalog(swift_bin):
    rows = catalog_list()
    if not rows:
        log("catalog: workloads --list printed nothing; no catalog")
        return None
    names = [name for name, _ in rows]
    start = time.time()
    twins = twin_programs(names)
    t = catalog_timed(names, swift_bin, twins)
    log(f"catalog: timed runs done in {time.time() - start:.0f} s; callgrind")
    instr = catalog_instructions()
    log(f"catalog: callgrind done in {time.time() - start:.0f} s")
    na = sorted(f"{name} {CATALOG_LABEL[i]}: {r['na'].removeprefix('n/a ').strip('()')}" for (name, i), r in t.items()
                if "na" in r and i in CATALOG_IMPLS and name in names)
    return rows, t, instr, na, any(impl == "rxcpp" for impl, _ in twins)


# ---------------------------------------------------------------- report

def fmt(x, digits=1):
    if x is None:
        return "—"
    if x >= 100:
        return f"{x:,.0f}"
    return f"{x:.{digits}f}"


def verdict(w, budget, budget_allocs, t, allocs):
    r = t.get((w, "rxc"), {})
    if not r or "na" in r:
        return "n/a"
    value = r.get("bytes_per_unit") if w == "W9" else r.get("min_ns")
    ok = value is not None and value <= budget
    a = allocs.get((w, "rxc"))
    if budget_allocs is not None and a is not None and a > budget_allocs + 0.01:
        ok = False
    return "**met**" if ok else "not met"


def table(t, allocs, instr, machine):
    def ns(w, impl):
        r = t.get((w, impl))
        if r is None:
            return None
        if "na" in r:
            return "n/a"
        return r.get("bytes_per_unit") if w == "W9" else r.get("min_ns")

    def cell(v):
        return v if isinstance(v, str) else fmt(v)

    def ratio(a, b):
        if not isinstance(a, float) or not isinstance(b, float) or b == 0:
            return "—"
        return f"{a / b:.1f}×"

    head = ("| workload | unit | raw C | librxc (C ABI) | RxCore (Swift, Value) | OpenCombine "
            "| librxc/raw | RxCore/raw | OpenCombine/raw | OpenCombine/librxc "
            "| allocs/unit librxc · RxCore · OpenCombine | instr/unit raw · librxc · RxCore · OpenCombine "
            "| budget | met? |")
    lines = [head, "|" + "|".join(["---"] * (head.count("|") - 1)) + "|"]
    for w, title, unit, budget, budget_allocs in WORKLOADS:
        vals = {impl: ns(w, impl) for impl in IMPLS}
        unit_s = f"bytes/{unit}" if w == "W9" else f"ns/{unit}"
        med = t.get((w, "rxc"), {}).get("median_ns")
        rxc_cell = cell(vals["rxc"])
        if isinstance(vals["rxc"], float) and med is not None and w != "W9":
            rxc_cell += f" (med {fmt(med)})"
        al = " · ".join(fmt(allocs.get((w, i)), 2) for i in ("rxc", "rxcore", "opencombine"))
        ir = " · ".join(fmt(instr.get((w, i)), 0) for i in IMPLS)
        bud = (f"≤ {budget} B" if w == "W9" else f"≤ {budget} ns") + (
            f", ≤ {budget_allocs} alloc" if budget_allocs is not None else "")
        lines.append(
            f"| {w} {title} | {unit_s} | {cell(vals['raw'])} | {rxc_cell} | {cell(vals['rxcore'])} "
            f"| {cell(vals['opencombine'])} | {ratio(vals['rxc'], vals['raw'])} "
            f"| {ratio(vals['rxcore'], vals['raw'])} | {ratio(vals['opencombine'], vals['raw'])} "
            f"| {ratio(vals['opencombine'], vals['rxc'])} | {al} | {ir} | {bud} "
            f"| {verdict(w, budget, budget_allocs, t, allocs)} |")
    return "\n".join(lines)


def machine_note():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = os.getloadavg()[0]
    swift = subprocess.run(["swift", "--version"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True).stdout.splitlines()[0]
    return f"{cpu}, {os.cpu_count()} cores, load average {load:.2f} at start; {swift}"


def ensure_matplotlib():
    try:
        import matplotlib  # noqa: F401
        return True
    except ImportError:
        pass
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "matplotlib"])
    if r.returncode != 0:
        log("matplotlib could not be installed: no chart")
        return False
    return True


def chart(t, path):
    if not ensure_matplotlib():
        return False
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colors = {"raw": "#888888", "rxc": "#d62728", "rxcore": "#ff9896", "opencombine": "#1f77b4"}
    fig, (ax, ax9) = plt.subplots(1, 2, figsize=(13, 5), gridspec_kw={"width_ratios": [8, 1.3]})
    names = [w for w, *_ in WORKLOADS if w != "W9"]
    width = 0.2
    for k, impl in enumerate(IMPLS):
        xs, ys = [], []
        for i, w in enumerate(names):
            r = t.get((w, impl))
            if r and "min_ns" in r:
                xs.append(i + (k - 1.5) * width)
                ys.append(r["min_ns"])
        ax.bar(xs, ys, width, label=LABEL[impl], color=colors[impl])
    for i, (w, _, _, budget, _) in enumerate(WORKLOADS[:-1]):
        ax.hlines(budget, i - 2 * width, i + 2 * width, colors="black", linestyles="dashed",
                  label="budget" if i == 0 else None)
    ax.set_yscale("log")
    ax.set_xticks(range(len(names)))
    short = {"W1": "subject\n→ 1", "W2": "subject\n→ 100", "W3": "range→map\n→filter→map",
             "W4": "subscribe\n+ dispose", "W5": "just→map\n→subscribe", "W6": "observe_on\n(serial)", "W6b": "bounded\nobserve_on",
             "W7": "replay(100)\nlate sub", "W8": "range\n→flat_map"}
    ax.set_xticklabels([f"{w}\n{short[w]}" for w in names], fontsize=8)
    ax.set_ylabel("ns per unit (min of runs, log scale)")
    ax.set_title("librxc vs raw C and OpenCombine (lower is better)")
    ax.legend(fontsize=8)
    for k, impl in enumerate(["rxc", "rxcore", "opencombine"]):
        r = t.get(("W9", impl))
        if r and "bytes_per_unit" in r:
            ax9.bar(k, r["bytes_per_unit"], color=colors[impl])
    ax9.axhline(128, color="black", linestyle="dashed")
    ax9.set_xticks(range(3))
    ax9.set_xticklabels(["librxc", "RxCore", "OpenComb."], fontsize=7, rotation=30)
    ax9.set_title("W9 bytes/subscription", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


def main():
    start = time.time()
    build_library()
    build_c()
    swift_bin = build_swift()
    c_bin = os.path.join(OUT, "bench")
    machine = machine_note()
    log(f"built in {time.time() - start:.0f} s")
    t = timed(c_bin, swift_bin)
    log(f"timed runs done at {time.time() - start:.0f} s; allocation counts")
    allocs = alloc_counts(c_bin, swift_bin, t)
    log(f"allocation counts done at {time.time() - start:.0f} s; callgrind")
    instr = instructions(c_bin, swift_bin, t)
    log(f"callgrind done at {time.time() - start:.0f} s")
    cat = catalog(swift_bin) if CATALOG else None
    log(f"catalog done at {time.time() - start:.0f} s")
    tab = table(t, allocs, instr, machine)
    print()
    print(tab)
    if cat:
        rows, ct, cinstr, cna, rxcpp_built = cat
        cat_tab, cont_tab = catalog_table(rows, ct, cinstr, rxcpp_built), contended_table(ct)
        print()
        print(cat_tab)
        print()
        print(rxcore_summary(rows, ct))
        print()
        print(floor_summary(rows, ct))
        print()
        print(cont_tab)
    na = sorted({f"{w} {LABEL[i]}: {r['na']}" for (w, i), r in t.items() if "na" in r})
    png = os.path.join(BENCH, "chart.png")
    have_chart = chart(t, png)
    with open(os.path.join(BENCH, "RESULTS.md"), "w") as fh:
        fh.write("# librxc benchmark results\n\n")
        fh.write(f"Written by `make bench` ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}). "
                 f"Machine: {machine}.\n\n")
        fh.write("Times are the minimum of "
                 f"{RUNS} runs (librxc's median in parentheses), in ns per unit, from one run "
                 f"of `make bench`: {RUNS} passes over the suite, each a fresh process of each "
                 "benchmark with one timed run per workload after its warm-up, so that a noisy "
                 "spell of a few seconds cannot take every run of one workload; W9 is heap "
                 "bytes per live subscription (mallinfo2 before and after 1M subscriptions). "
                 "Allocations per unit: LD_PRELOAD malloc counter around the measured region at "
                 "two sizes, difference over size difference. Instructions "
                 "per unit: `valgrind --tool=callgrind` at two sizes, same difference (removes "
                 "start-up). The budgets are the project's; \"met\" compares librxc's minimum time and "
                 "allocations with them. Wall time on these shared 2-core machines is noisy; "
                 "instruction counts are not.\n\n")
        fh.write(tab + "\n\n")
        if na:
            fh.write("Not measured:\n\n" + "".join(f"- {x}\n" for x in na) + "\n")
        if have_chart:
            fh.write("![ns per unit, log scale](chart.png)\n")
        if cat:
            fh.write("\n## The catalog: one workload per operator of rxc.h\n\n")
            fh.write(
                "The workloads of `Tests/perf/workloads.c` (the metadata guard's list), each in its "
                "natural shape; ns per event is the minimum over "
                f"{CATALOG_RUNS} pass(es) of one timed run each (librxc's median in parentheses), each "
                f"pass a fresh process per implementation with one run of about {CATALOG_MAX_MS} ms "
                "per workload after its warm-ups. librxc runs through the C ABI with a C "
                "subscriber; RxCore is the Swift core called directly on `Observable<Value>`; "
                "OpenCombine 0.14.0 and RxSwift use Int64 payloads, with the closest operator "
                "of their own (see benchmarks/README.md). Instructions per event: one callgrind "
                f"run at {CATALOG_CG_SIZES[0]} and one at {CATALOG_CG_SIZES[1]} events, per-workload "
                "dumps, difference over size difference. "
                + ("RxSwift: built from RXSWIFT_PATH." if RXSWIFT_PATH else
                   "RxSwift: not built in this run (RXSWIFT_PATH unset).") + "\n\n")
            fh.write(
                "**floor** (`benchmarks/c/floor.c`), for the synchronous per-event rows: a plain C loop "
                "that makes, per event, the user calls librxc makes for that workload, and only those: "
                "subject → map → subscriber is one call of the map function `inc` and one of the "
                "subscriber's on_next; map → filter → map is inc, keep_all, inc and on_next; "
                "combine_latest is one call of `sum2` over the two latest values (on the stack) and "
                "one on_next per value after the first. The functions are the workload's own "
                "(`Tests/perf/user_fns.h`; `inc` and `add` make their result with `rx_int`, a call "
                "into librxc, as the user's code does), each called through a volatile function "
                "pointer that the compiler can neither inline nor hoist. Between the calls the "
                "loop keeps only the state that decides them (a count, an accumulator, the latest "
                "value): no buffers, locks or retains of its own. The rows it has no loop for "
                "(inner observables, schedulers, lifecycles, buffers) show —. librxc/floor is "
                "what librxc costs per event over the user's own calls.\n\n"
                "**RxCpp** (`benchmarks/cpp/catalog_rxcpp.cpp`): C++ twins of the workloads, same "
                "names and shapes, `int64_t` payloads (`std::string` for the strings rows), the same "
                "user functions as lambdas, built with `g++ -std=c++17 -O2 -DNDEBUG` as the C++ "
                "benchmark is, one translation unit per twin (in one unit with all the others, g++ "
                "stops devirtualizing RxCpp's observer calls and its rows get up to 2× slower), "
                "linked into one program (`make bench-rxcpp-catalog`). The closest RxCpp operator "
                "stands in where the name differs (distinct → distinct_until_changed, catch → "
                "on_error_resume_next, share → publish().ref_count(), flat_map_latest → "
                "map + switch_on_next, do → tap); n/a where RxCpp has none (see "
                "benchmarks/README.md). RxCpp/librxc above 1 means librxc is faster. "
                + (f"{rxcpp_desc()}." if rxcpp_built else
                   "RxCpp: not built in this run (RXCPP_PATH unset).") + "\n\n"
                "**rxc.hpp** (`benchmarks/cpp/catalog_rxc.cpp`): the int rows again through the "
                "C++ API over the C ABI, lambdas for the user functions, the same g++ flags; "
                "rxc.hpp/librxc is what a C++ caller pays over a C caller.\n\n")
            fh.write(cat_tab + "\n\n")
            fh.write(rxcore_summary(rows, ct) + "\n\n")
            fh.write(floor_summary(rows, ct) + "\n\n")
            fh.write("### Contended: four threads emitting into one subject\n\n")
            fh.write("Four threads send n/4 events each into one publish subject (OpenCombine: "
                     "PassthroughSubject) with one subscriber that sums them; ns per event = wall "
                     "time from their creation (a barrier then releases them together) to the "
                     "last one's end / n. The raw C baseline "
                     "calls the subscriber under a pthread mutex. RxSwift is not measured: its "
                     "subjects require serialized callers.\n\n")
            fh.write(cont_tab + "\n\n")
            if cna:
                fh.write("Catalog rows not measured:\n\n" + "".join(f"- {x}\n" for x in cna) + "\n")
        cpp = os.path.join(BENCH, "cpp", "RESULTS.md")
        if os.path.exists(cpp):  # written by `make bench-cpp`, which `make bench` runs first
            body = open(cpp).read().split("\n", 1)[1].lstrip("\n").replace("\n## ", "\n### ")
            fh.write("\n## C++: rxc.hpp beside RxCpp\n\nFrom benchmarks/cpp/RESULTS.md "
                     "(`make bench-cpp`, run by `make bench`; RXCPP_PATH adds RxCpp):\n\n" + body)
    log(f"wrote benchmarks/RESULTS.md{' and benchmarks/chart.png' if have_chart else ''} "
        f"in {time.time() - start:.0f} s")


if __name__ == "__main__":
    # No options, only the environment knobs above: an argument (--help, a workload name)
    # prints them instead of starting a run of many minutes that rewrites RESULTS.md.
    if len(sys.argv) > 1:
        print(__doc__)
        sys.exit(0 if sys.argv[1] in ("-h", "--help") else 2)
    main()
