#!/usr/bin/env python3
"""bench.py: the same Python-level workloads on rxc (librxc through cffi) and on RxPY
(`reactivex`, pure Python), in ns per event, and their ratio.

    RXC_LIBRARY=build/lib/librxc.so PYTHONPATH=bindings/python/src python3 bindings/python/bench.py
    make python-bench                      (installs reactivex when missing)
    options: --events N (default 200000), --runs R (default 5; the median is reported),
             --markdown (the table only, as markdown)

Workloads (every callback is a Python function; each run makes its own pipeline):
  floor        a plain Python loop calling the same on_next function: the cost of the callback
  subject-1    a subject, 1 subscriber; events emitted from a Python loop
  chain        range -> map -> filter -> subscribe (map and filter are Python lambdas)
  subject-10   a subject, 10 subscribers (ns per event, i.e. per 10 deliveries)
  observe-on   range -> observe_on(a thread) -> subscribe, waiting for completion
  no-callback  range -> skip(N-1) -> last value only (rxc: no Python per event at all)
"""
import argparse
import statistics
import sys
import threading
import time


def timed(fn, n, runs):
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter_ns()
        fn(n)
        samples.append((time.perf_counter_ns() - t0) / n)
    return statistics.median(samples)


class Counter:
    __slots__ = ("n",)

    def __init__(self):
        self.n = 0


def workloads_rxc():
    import rxc

    def floor(n):
        c = Counter()

        def on_next(x):
            c.n += 1
        for i in range(n):
            on_next(i)

    def subject_1(n):
        c = Counter()

        def on_next(x):
            c.n += 1
        with rxc.PublishSubject() as s, s.subscribe(on_next):
            emit = s.on_next
            for i in range(n):
                emit(i)
        assert c.n == n

    def chain(n):
        c = Counter()

        def on_next(x):
            c.n += 1
        rxc.range(0, n).map(lambda x: x * 2).filter(lambda x: x % 3 == 0).subscribe(on_next).dispose()
        assert c.n == (n + 2) // 3

    def subject_10(n):
        c = Counter()

        def on_next(x):
            c.n += 1
        with rxc.PublishSubject() as s:
            subs = [s.subscribe(on_next) for _ in range(10)]
            emit = s.on_next
            for i in range(n):
                emit(i)
            for d in subs:
                d.dispose()
        assert c.n == 10 * n

    sched = rxc.SerialScheduler("bench")

    def observe_on(n):
        c, done = Counter(), threading.Event()

        def on_next(x):
            c.n += 1
        with rxc.range(0, n).observe_on(sched).subscribe(on_next=on_next, on_completed=done.set):
            done.wait()
        assert c.n == n

    def no_callback(n):
        assert rxc.range(0, n).skip(n - 1).blocking_last() == n - 1

    return {"floor": floor, "subject-1": subject_1, "chain": chain, "subject-10": subject_10,
            "observe-on": observe_on, "no-callback": no_callback}


def workloads_rxpy():
    import reactivex
    from reactivex import operators as ops
    from reactivex.scheduler import EventLoopScheduler
    from reactivex.subject import Subject

    def subject_1(n):
        c = Counter()

        def on_next(x):
            c.n += 1
        s = Subject()
        d = s.subscribe(on_next)
        emit = s.on_next
        for i in range(n):
            emit(i)
        d.dispose()
        assert c.n == n

    def chain(n):
        c = Counter()

        def on_next(x):
            c.n += 1
        reactivex.range(0, n).pipe(ops.map(lambda x: x * 2), ops.filter(lambda x: x % 3 == 0)) \
            .subscribe(on_next).dispose()
        assert c.n == (n + 2) // 3

    def subject_10(n):
        c = Counter()

        def on_next(x):
            c.n += 1
        s = Subject()
        subs = [s.subscribe(on_next) for _ in range(10)]
        emit = s.on_next
        for i in range(n):
            emit(i)
        for d in subs:
            d.dispose()
        assert c.n == 10 * n

    sched = EventLoopScheduler()

    def observe_on(n):
        c, done = Counter(), threading.Event()

        def on_next(x):
            c.n += 1
        d = reactivex.range(0, n).pipe(ops.observe_on(sched)).subscribe(
            on_next=on_next, on_completed=done.set)
        done.wait()
        d.dispose()
        assert c.n == n

    def no_callback(n):
        last = []
        reactivex.range(0, n).pipe(ops.skip(n - 1)).subscribe(last.append)
        assert last == [n - 1]

    return {"subject-1": subject_1, "chain": chain, "subject-10": subject_10,
            "observe-on": observe_on, "no-callback": no_callback}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=200000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    import rxc
    try:
        import reactivex
        rxpy = workloads_rxpy()
        rxpy_version = reactivex.__version__
    except ImportError:
        rxpy, rxpy_version = {}, None
    mine = workloads_rxc()
    n, runs = args.events, args.runs
    rows = []
    for name, fn in mine.items():
        fn(max(1000, n // 20))  # warm up
        a = timed(fn, n, runs)
        b = None
        if name in rxpy:
            rxpy[name](max(1000, n // 20))
            b = timed(rxpy[name], n, runs)
        rows.append((name, a, b))
    floor = rows[0][1]
    if not args.markdown:
        print("rxc %s (librxc %s, %s) vs RxPY %s; Python %s; %d events, median of %d runs"
              % (rxc.__version__, rxc.version(), rxc.library_path, rxpy_version or "(not installed)",
                 sys.version.split()[0], n, runs))
    print("| workload | rxc ns/event | RxPY ns/event | RxPY / rxc | rxc minus the Python callback floor |")
    print("|---|---:|---:|---:|---:|")
    for name, a, b in rows:
        print("| %s | %.0f | %s | %s | %s |" % (
            name, a, "%.0f" % b if b is not None else "–",
            "%.1f×" % (b / a) if b is not None else "–",
            "%.0f" % (a - floor * (10 if name == "subject-10" else 1)) if name not in ("floor", "no-callback") else "–"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
