import pytest

import rxc


def test_publish_subject(rec):
    with rxc.PublishSubject() as s:
        s.on_next(0)  # nobody listens yet
        d = s.subscribe(rec)
        assert s.has_observers
        s.on_next(1)
        s.on_next("two")
        s.on_completed()
        s.on_next(3)  # ignored after the stop event
        assert rec.events == [1, "two", ("completed",)] and rec.disposed
        d.dispose()


def test_behavior_subject(rec):
    with rxc.BehaviorSubject("initial") as s:
        assert s.value == "initial"
        with s.subscribe(rec):
            s.on_next("next")
        assert s.value == "next"
        assert rec.values == ["initial", "next"] and rec.disposed


def test_behavior_subject_value_after_error():
    with rxc.BehaviorSubject(1) as s:
        s.on_error(rxc.RxError("broken", 1001))
        with pytest.raises(rxc.RxError) as e:
            s.value
        assert e.value.code == 1001


def test_replay_subject_bounded_and_unbounded():
    with rxc.ReplaySubject(2) as bounded, rxc.ReplaySubject() as unbounded:
        for i in range(5):
            bounded.on_next(i)
            unbounded.on_next(i)
        got_b, got_u = [], []
        with bounded.subscribe(got_b.append), unbounded.subscribe(got_u.append):
            bounded.on_next(5)
            unbounded.on_next(5)
        assert got_b == [3, 4, 5] and got_u == [0, 1, 2, 3, 4, 5]


def test_async_subject(rec):
    with rxc.AsyncSubject() as s:
        with s.subscribe(rec):
            s.on_next(1)
            s.on_next(2)
            assert rec.events == []
            s.on_completed()
        assert rec.events == [2, ("completed",)]


def test_relays(rec):
    with rxc.PublishRelay() as r, rxc.BehaviorRelay(10) as b:
        with r.subscribe(rec):
            r.accept(1)
            with pytest.raises(rxc.InvalidStateError):
                r.on_completed()
            with pytest.raises(rxc.InvalidStateError):
                r.on_error(ValueError("no"))
        assert rec.values == [1]
        b.accept(11)
        assert b.value == 11


def test_replay_relay(rec):
    with rxc.ReplayRelay(2) as r, rxc.ReplayRelay() as every:
        for i in range(4):
            r.accept(i)
            every.accept(i)
        with r.subscribe(rec):
            with pytest.raises(rxc.InvalidStateError):
                r.on_completed()
            r.accept(4)
        assert rec.values == [2, 3, 4]
        got = []
        every.subscribe(got.append).dispose()
        assert got == [0, 1, 2, 3]


def test_subject_dispose_drops_observers_and_fails_late_subscribers(rec):
    s = rxc.PublishSubject()
    s.subscribe(rec)
    s.dispose()
    assert rec.disposed and rec.events == []
    late = []
    s.subscribe(on_error=late.append).dispose()
    assert late[0].code == rxc.ERROR_DISPOSED
    with pytest.raises(rxc.DisposedError):
        s.on_next(1)
    s.close()
    s.close()  # closing twice is a no-op


def test_subject_as_observer_and_as_observable():
    with rxc.PublishSubject() as a, rxc.ReplaySubject() as b:
        with a.map(lambda x: x * 2).subscribe(b):
            a.on_next(1)
            a.on_next(2)
            a.on_completed()
        assert b.to_list().blocking_last() == [2, 4]


def test_releasing_a_subject_disposes_it(rec):
    s = rxc.PublishSubject()
    d = s.subscribe(rec)
    s.close()
    assert rec.disposed
    d.dispose()
