import pytest

import rxc


def test_schedule_recursive_counts_on_virtual_time_and_disposes():
    ts = rxc.TestScheduler()
    at = []

    def step(rec):
        at.append(ts.now())
        if len(at) < 4:
            assert rec.recurse_after(0.01)
    d = ts.schedule_recursive(step)
    ts.advance_by(1)
    assert at == pytest.approx([0, 0.01, 0.02, 0.03])
    d.dispose()

    runs = []

    def forever(rec):
        runs.append(1)
        rec.recurse_after(0.01)
    d = ts.schedule_recursive(forever)
    ts.advance_by(0.035)
    assert len(runs) == 4
    d.dispose()
    ts.advance_by(1)
    assert len(runs) == 4


def test_schedule_recursive_on_the_current_thread_loops():
    n = []

    def step(rec):
        n.append(1)
        if len(n) < 1000:
            rec.recurse()
    rxc.current_thread_scheduler().schedule_recursive(step).dispose()
    assert len(n) == 1000
