import multiprocessing
import os

import pytest

import rxc


def _child(q):
    try:
        with rxc.SerialScheduler("child") as s:
            got = rxc.range(0, 100).observe_on(s).map(lambda x: x + 1).blocking_to_list(timeout=10)
        q.put(("ok", got == list(range(1, 101)), rxc.live_objects()))
    except BaseException as e:  # report, never hang the parent
        q.put(("error", repr(e), None))


def _use_serial_and_observe_on():
    with rxc.SerialScheduler("parent") as s:
        assert rxc.range(0, 100).observe_on(s).blocking_to_list(timeout=10) == list(range(100))


def _run_child_after_parent_use():
    _use_serial_and_observe_on()
    ctx = multiprocessing.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_child, args=(q,))
    p.start()
    p.join(30)
    if p.is_alive():
        p.kill()
        p.join()
        return "child hung (killed after 30 s)"
    if p.exitcode != 0:
        return "child died with exit code %s" % p.exitcode
    status, detail, _live = q.get(timeout=5)
    if status != "ok" or detail is not True:
        return "child failed: %s %s" % (status, detail)
    return None


def test_fork_child_uses_serial_scheduler_and_observe_on_after_the_parent():
    problem = _run_child_after_parent_use()
    assert problem is None, problem
