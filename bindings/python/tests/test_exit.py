"""Interpreter exit with deliveries still under way on library threads (each case runs in
fresh interpreters, several times: the crashes they guard against were timing-dependent)."""
import os
import subprocess
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "src")


def run_script(code, runs=1):
    env = dict(os.environ)
    if os.environ.get("RXC_TEST_INSTALLED") != "1":
        env["PYTHONPATH"] = SRC + os.pathsep + env.get("PYTHONPATH", "")
    results = []
    for _ in range(runs):
        r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, timeout=60,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        results.append((r.returncode, r.stdout))
    return results


def test_exit_right_after_observe_on_completes():
    # on_completed sets the event on the scheduler's thread; on_disposed follows there while
    # the main thread already exits. Without rxc's exit handler CPython ended that thread
    # with pthread_exit inside libdispatch, which trapped (SIGILL) in most runs.
    results = run_script("""
        import rxc, threading
        with rxc.SerialScheduler("bg") as bg, rxc.PublishSubject() as s:
            done = threading.Event()
            with s.observe_on(bg).map(str.upper).subscribe(on_next=print, on_completed=done.set):
                for w in ["a", "b"]:
                    s.on_next(w)
                s.on_completed()
                done.wait()
    """, runs=10)
    assert results == [(0, "A\nB\n")] * 10


def test_exit_with_live_intervals_and_pending_actions():
    results = run_script("""
        import rxc, threading, time
        sched = rxc.SerialScheduler("bg")
        ticks = []
        rxc.interval(0.001, sched).map(lambda x: x).subscribe(ticks.append)   # never disposed
        rxc.interval(0.001).subscribe(on_disposed=lambda: print("disposed at exit"))
        sched.schedule_after(0.002, lambda: ticks.append("late"))
        sched.schedule_after(60, lambda: print("never"))
        time.sleep(0.05)
        print("ticking", len(ticks) > 3)
    """, runs=2)
    assert results == [(0, "ticking True\ndisposed at exit\n")] * 2


def test_exit_after_async_for_over_an_interval():
    # librxc must stay loaded until the process ends: cffi used to dlclose it when its Lib
    # object was collected at exit, under libdispatch threads still running its code
    # (SIGSEGV in about 1 run in 5). rxc loads it with RTLD_NODELETE.
    results = run_script("""
        import asyncio, rxc
        async def main():
            async for x in rxc.interval(0.01).take(3):
                print("tick", x)
        asyncio.run(main())
    """, runs=6)
    assert results == [(0, "tick 0\ntick 1\ntick 2\n")] * 6
