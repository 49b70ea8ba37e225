#!/usr/bin/env python3
"""bench.py: the same Python-level workloads on rxc and on RxPY (`reactivex`, pure Python),
with the same Python callables, in ns per event, and their ratio.

    make bench-python                    (the wheel, compiled mode; BENCH_ARGS=... passes options)
    python3 bindings/python/bench.py     (whatever `import rxc` finds; RXC_MODE=abi for ABI mode)
    options: --events N (default 100000), --runs R (default 5), --stat min|median (default
             min: which of the R runs is reported), --clock cpu|wall (default cpu),
             --markdown (the table only), --only NAME,NAME

The machine this runs on is often shared: other processes take the CPU for part of a run,
which only ever makes a run slower, and a wall clock counts the time a run waited for a core.
So by default each run is timed in the process's CPU time (time.process_time_ns: every
thread of the process, so observe_on's and asyncio's other threads count too, for both
libraries), the statistic is the minimum of the runs (the one least disturbed), and the
floor is timed just before every sample: a row's ratio to the floor divides by the floor
timed beside that row's own runs (the floor row shows the smallest of those).

Workloads (every callback is a Python function; each run makes its own pipeline):
  floor          a plain Python loop calling the same on_next function: the callback's own cost
  subject-1      a subject, 1 subscriber; events emitted from a Python loop (ns per event)
  subject-10     the same, 10 subscribers (ns per event emitted, i.e. per 10 deliveries)
  subject-100    the same, 100 subscribers (ns per event emitted, i.e. per 100 deliveries)
  map-filter-reduce  range -> map -> filter -> reduce (three Python lambdas)
  scan-take      range -> scan -> take(n) -> last (one Python lambda)
  observe-on     range -> observe_on(a thread) -> subscribe, waiting for completion
  group-by       range -> group_by(x % 10) -> each group subscribed, counting
  merge-2        two subjects merged, one subscriber; events alternate between them
  asyncio        values delivered to an asyncio loop (rxc: `async for`; RxPY: observe_on its
                 AsyncIOScheduler, the only asyncio delivery it has)
  no-callback    range -> skip(n - 1) -> last value only (rxc: no Python per event at all)
"""
import argparse
import asyncio
import os
import statistics
import sys
import threading
import time


CLOCK = time.process_time_ns  # main() sets it from --clock


def timed(fns, n, runs, stat, k=1):
    """For each fn(n) in fns, the stat of runs timings in ns per event, and the stat of the
    floor timed just before each of them (n * k calls, in ns per call). The functions take
    turns, so that both libraries meet the same moments of a busy machine."""
    samples = [([], []) for _ in fns]
    for _ in range(runs):
        for fn, (out, floors) in zip(fns, samples):
            t0 = CLOCK()
            floor(n * k)
            t1 = CLOCK()
            fn(n)
            t2 = CLOCK()
            floors.append((t1 - t0) / (n * k))
            out.append((t2 - t1) / n)
    return [(stat(out), stat(floors)) for out, floors in samples]


class Counter:
    __slots__ = ("n",)

    def __init__(self):
        self.n = 0


def counter():
    c = Counter()

    def on_next(x):
        c.n += 1
    return c, on_next


def double(x):
    return x * 2


def third(x):
    return x % 3 == 0


def add(acc, x):
    return acc + x


def tenth(x):
    return x % 10


def floor(n):
    c, on_next = counter()
    for i in range(n):
        on_next(i)


def workloads(rx, lib):
    """The workloads for rx = "rxc" or "rxpy"; lib is the imported package."""
    if rx == "rxpy":
        from reactivex import operators as ops
        from reactivex.scheduler import EventLoopScheduler
        from reactivex.scheduler.eventloop import AsyncIOScheduler
        from reactivex.subject import Subject
        rng = lib.range

        def pipe(src, *stages):
            return src.pipe(*stages)
        M, F, R, S, T, L = ops.map, ops.filter, ops.reduce, ops.scan, ops.take, ops.last
        thread = EventLoopScheduler()

        def observe_on(src):
            return src.pipe(ops.observe_on(thread))

        def group_by(src, fn):
            return src.pipe(ops.group_by(fn))

        def merge(a, b):
            return lib.merge(a, b)
    else:
        from rxc import operators as ops
        Subject = lib.PublishSubject
        rng = lib.range

        def pipe(src, *stages):
            return src.pipe(*stages)
        M, F, S, T, L = ops.map, ops.filter, ops.scan, ops.take, ops.last

        def R(fn, seed):
            return ops.reduce(fn, seed)
        thread = lib.SerialScheduler("bench")

        def observe_on(src):
            return src.observe_on(thread)

        def group_by(src, fn):
            return src.group_by(fn)

        def merge(a, b):
            return lib.merge(a, b)

    def subject(k):
        def run(n):
            c, on_next = counter()
            s = Subject()
            subs = [s.subscribe(on_next) for _ in range(k)]
            emit = s.on_next
            for i in range(n):
                emit(i)
            for d in subs:
                d.dispose()
            assert c.n == k * n
        return run

    def map_filter_reduce(n):
        out = []
        pipe(rng(0, n), M(double), F(third), R(add, 0)).subscribe(out.append).dispose()
        assert out == [sum(x * 2 for x in range(n) if (x * 2) % 3 == 0)]

    def scan_take(n):
        out = []
        pipe(rng(0, 2 * n), S(add, 0), T(n), L()).subscribe(out.append).dispose()
        assert out == [n * (n - 1) // 2]

    def observe(n):
        c, on_next = counter()
        done = threading.Event()
        d = observe_on(rng(0, n)).subscribe(on_next=on_next, on_completed=done.set)
        done.wait()
        d.dispose()
        assert c.n == n

    def groups(n):
        c, on_next = counter()
        subs = []
        group_by(rng(0, n), tenth).subscribe(lambda g: subs.append(g.subscribe(on_next)))
        assert c.n == n and len(subs) == 10

    def merge_2(n):
        c, on_next = counter()
        a, b = Subject(), Subject()
        d = merge(a, b).subscribe(on_next)
        ea, eb = a.on_next, b.on_next
        for i in range(0, n, 2):
            ea(i)
            eb(i)
        d.dispose()
        assert c.n == n

    def via_asyncio(n):
        c, on_next = counter()

        async def main():
            if rx == "rxc":
                async for x in rng(0, n):
                    on_next(x)
            else:
                done = asyncio.get_running_loop().create_future()
                rng(0, n).pipe(ops.observe_on(AsyncIOScheduler(asyncio.get_running_loop()))).subscribe(
                    on_next=on_next, on_completed=lambda: done.set_result(None))
                await done
        asyncio.run(main())
        assert c.n == n

    def no_callback(n):
        out = []
        pipe(rng(0, n), ops.skip(n - 1)).subscribe(out.append).dispose()
        assert out == [n - 1]

    return {"subject-1": subject(1), "subject-10": subject(10), "subject-100": subject(100),
            "map-filter-reduce": map_filter_reduce, "scan-take": scan_take, "observe-on": observe,
            "group-by": groups, "merge-2": merge_2, "asyncio": via_asyncio, "no-callback": no_callback}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=100000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--stat", choices=("min", "median"), default="min")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--only", default="")
    args = ap.parse_args(argv)
    import rxc
    import reactivex
    mine, theirs = workloads("rxc", rxc), workloads("rxpy", reactivex)
    only = set(filter(None, args.only.split(",")))
    n, runs = args.events, args.runs
    stat = min if args.stat == "min" else statistics.median
    global CLOCK
    CLOCK = time.process_time_ns if args.clock == "cpu" else time.perf_counter_ns
    rows = []
    for name in mine:
        if only and name not in only:
            continue
        k = 100 if name == "subject-100" else (10 if name == "subject-10" else 1)
        m = max(1000, n // k)  # fewer events where each is many deliveries
        mine[name](1000)
        theirs[name](1000)  # warm up
        (a, fa), (b, _) = timed((mine[name], theirs[name]), m, runs, stat, k)
        rows.append((name, k, a, b, fa))
    base = stat([r[4] for r in rows]) if rows else timed((floor,), n, runs, stat)[0][1]
    if not args.markdown:
        print("rxc %s (%s mode; librxc %s, %s) vs RxPY (reactivex) %s; Python %s; %d events, "
              "%s of %d runs, %s time" % (rxc.__version__, rxc.mode, rxc.version(), rxc.library_path,
                                          reactivex.__version__, sys.version.split()[0], n,
                                          "minimum" if args.stat == "min" else "median", runs,
                                          "CPU" if args.clock == "cpu" else "wall-clock"))
    print("| workload | rxc ns/event | RxPY ns/event | rxc ahead by | rxc / Python-loop floor (per delivery) |")
    print("|---|---:|---:|---:|---:|")
    print("| floor (a Python loop calling on_next) | %.0f | – | – | 1.0× |" % base)
    for name, k, a, b, fa in rows:  # each row's ratio to the floor timed beside its own runs
        per = "%.1f×" % (a / k / fa) if name.startswith("subject") or name == "merge-2" else "–"
        print("| %s | %.0f | %.0f | %s× | %s |" % (name, a, b, ("%.2f" if b / a < 3 else "%.1f") % (b / a), per))
    return 0


if __name__ == "__main__":
    sys.exit(main())
