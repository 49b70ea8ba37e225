import os
import threading

import pytest

import rxc


def run_on_test_scheduler(policy, capacity, values):
    """values pushed at once into observe_on_bounded on a test scheduler, whose drain runs only
    when the scheduler advances: the queue overflows by len(values) - capacity."""
    ts = rxc.TestScheduler()
    s = rxc.PublishSubject()
    dropped, got, errors = [], [], []
    o = s.observe_on_bounded(ts, capacity, policy, on_dropped=dropped.append)
    d = o.subscribe(on_next=got.append, on_error=errors.append)
    for v in values:
        s.on_next(v)
    s.on_completed()
    ts.advance_by(1)
    stats = o.stats()
    d.dispose()
    return got, dropped, errors, stats


def test_observe_on_bounded_policies():
    got, dropped, errors, st = run_on_test_scheduler("drop_oldest", 2, ["a", "b", "c", "d"])
    assert got == ["c", "d"] and dropped == ["a", "b"] and not errors
    assert st == {"received": 4, "delivered": 2, "dropped": 2, "overflows": 0}
    got, dropped, _, _ = run_on_test_scheduler("drop_newest", 2, [1, 2, 3, 4])
    assert got == [1, 2] and dropped == [3, 4]
    got, dropped, _, _ = run_on_test_scheduler("keep_latest", 99, [1, 2, 3])
    assert got == [3] and dropped == [1, 2]
    got, dropped, errors, st = run_on_test_scheduler("fail", 2, [1, 2, 3, 4])
    assert got == [1, 2] and dropped == [3] and st["overflows"] == 1
    assert len(errors) == 1 and errors[0].code == rxc.ERROR_OVERFLOW


def test_observe_on_bounded_rejects_bad_options():
    ts = rxc.TestScheduler()
    with pytest.raises(ValueError):
        rxc.range(0, 3).observe_on_bounded(ts, 2, "sometimes")
    with pytest.raises(rxc.RxStatusError, match="capacity"):
        rxc.range(0, 3).observe_on_bounded(ts, 0, "drop_oldest", on_dropped=print)


def test_observe_on_bounded_block_loses_nothing_across_threads():
    with rxc.SerialScheduler() as bg:
        done = threading.Event()
        got = []
        o = rxc.range(0, 2000).observe_on_bounded(bg, 8, "block", block_timeout=10)
        with o.subscribe(on_next=got.append, on_completed=done.set):
            assert done.wait(10)
        assert got == list(range(2000))
        assert o.stats()["dropped"] == 0


def test_pausable_and_pausable_buffered():
    src, pauser = rxc.PublishSubject(), rxc.PublishSubject()
    plain, buffered, dropped = [], [], []
    b = src.pausable_buffered(pauser, 2, "drop_oldest", on_dropped=dropped.append)
    with src.pausable(pauser).subscribe(plain.append), b.subscribe(buffered.append):
        src.on_next(1)           # paused at first
        pauser.on_next(True)
        src.on_next(2)
        pauser.on_next(False)
        for v in (3, 4, 5):      # held: 2 slots, the oldest goes
            src.on_next(v)
        pauser.on_next(True)
        src.on_next(6)
    assert plain == [2, 6]
    assert buffered == [1, 2, 4, 5, 6] and dropped == [3]
    assert b.stats() == {"received": 6, "delivered": 5, "dropped": 1, "overflows": 0}
    with pytest.raises(rxc.RxStatusError, match="RX_OVERFLOW_BLOCK"):
        src.pausable_buffered(pauser, 2, "block")


def test_rate_limit_queues_and_counts():
    ts = rxc.TestScheduler()
    s = rxc.PublishSubject()
    got = []
    o = s.rate_limit(2, 0.010, ts)  # unbounded
    with o.subscribe(on_next=lambda v: got.append((round(ts.now() * 1000), v)), on_completed=lambda: got.append("|")):
        for v in range(5):
            s.on_next(v)
        s.on_completed()  # waits behind the queue
        ts.start()
    assert got == [(0, 0), (0, 1), (10, 2), (10, 3), (20, 4), "|"]
    assert o.stats() == {"received": 5, "delivered": 5, "dropped": 0, "overflows": 0}


def test_rate_limit_bounded_policies_and_options():
    ts = rxc.TestScheduler()
    s = rxc.PublishSubject()
    got, dropped = [], []
    o = s.rate_limit(1, 0.010, ts, capacity=2, policy="drop_newest", on_dropped=dropped.append)
    with o.subscribe(on_next=got.append):
        for v in range(5):
            s.on_next(v)
        ts.start()
    assert got == [0, 1, 2] and dropped == [3, 4]
    assert o.stats()["dropped"] == 2
    with pytest.raises(rxc.RxStatusError, match="RX_OVERFLOW_BLOCK"):
        s.rate_limit(1, 0.010, ts, capacity=2, policy="block")
    with pytest.raises(rxc.RxStatusError, match="n must be"):
        s.rate_limit(0, 0.010, ts)
    with pytest.raises(ValueError):
        s.rate_limit(1, 0.010, ts, on_dropped=print)


def test_block_policy_fed_from_python_with_a_python_consumer_does_not_deadlock():
    # A subject's on_next may keep the GIL across the library call (compiled mode), except
    # once an RX_OVERFLOW_BLOCK operator exists: its producer (this thread, in on_next) waits
    # for room that the consumer's Python callback, on the scheduler's thread, makes. Run in
    # a fresh interpreter, so that a deadlock fails the test instead of hanging the suite.
    import subprocess
    import sys
    import textwrap
    code = textwrap.dedent("""
        import threading, time, rxc
        with rxc.SerialScheduler("consumer") as bg, rxc.PublishSubject() as s:
            got, done = [], threading.Event()
            s.observe_on_bounded(bg, 2, "block").subscribe(
                on_next=lambda x: (time.sleep(0.001), got.append(x)), on_completed=done.set)
            for i in range(100):
                s.on_next(i)
            s.on_completed()
            assert done.wait(20) and got == list(range(100)), got
        print("ok", rxc.mode)
    """)
    env = dict(os.environ)
    if os.environ.get("RXC_TEST_INSTALLED") != "1":
        env["PYTHONPATH"] = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
    r = subprocess.run([sys.executable, "-c", code], env=env, timeout=30, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    assert r.returncode == 0 and r.stdout.startswith("ok"), r.stdout
