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


def test_subscribers_get_the_emitted_object():
    # Every subscriber receives the very object passed to on_next (as in RxPY), whatever
    # the kind: the compiled path hands the emitter's object on instead of converting the
    # value once per subscriber; ABI mode gives an equal one for immutable values.
    big, text, obj = 10 ** 12, "héllo wörld", {"k": [1, 2]}
    got = [[], [], []]
    with rxc.PublishSubject() as s:
        subs = [s.subscribe(out.append) for out in got]
        for x in (big, 2.5, text, obj, None, True, 7):
            s.on_next(x)
        for d in subs:
            d.dispose()
    for out in got:
        assert out == [big, 2.5, text, obj, None, True, 7]
        assert out[3] is obj
        if rxc.mode == "compiled":
            assert out[0] is big and out[2] is text


def test_nested_emits_and_values_after_them():
    # A subscriber that emits into another subject (and into the same one) in the middle
    # of a delivery: each subscriber still gets the value emitted to it.
    a, b = rxc.PublishSubject(), rxc.PublishSubject()
    seen_a, seen_b = [], []

    def first(x):
        seen_a.append(("first", x))
        if x < 10 ** 9 + 2:
            b.on_next(x * 1000)
            a.on_next(x + 1)

    with a, b:
        subs = [a.subscribe(first), a.subscribe(lambda x: seen_a.append(("second", x))),
                b.subscribe(seen_b.append)]
        a.on_next(10 ** 9)
        for d in subs:
            d.dispose()
    # (a subject delivers an emission made from its own callback after the current one)
    assert seen_a == [("first", 10 ** 9), ("second", 10 ** 9), ("first", 10 ** 9 + 1),
                      ("second", 10 ** 9 + 1), ("first", 10 ** 9 + 2), ("second", 10 ** 9 + 2)]
    assert seen_b == [10 ** 12, (10 ** 9 + 1) * 1000]


def test_emitters_on_many_threads_each_deliver_their_own_values():
    # Threads emitting into their own subjects at once, the GIL changing hands inside the
    # callbacks: no subscriber ever sees another thread's value.
    import threading
    import time
    errors = []

    def work(t):
        s = rxc.PublishSubject()
        base = (t + 1) * 10 ** 10
        got = []

        def slow(x):
            time.sleep(0)  # lets the other threads run in the middle of a delivery
            got.append(x)
        subs = [s.subscribe(slow) for _ in range(3)]
        for i in range(300):
            s.on_next(base + i)
            s.on_next("t%d-%d" % (t, i))
        for d in subs:
            d.dispose()
        s.dispose()
        want = [v for i in range(300) for v in [base + i] * 3 + ["t%d-%d" % (t, i)] * 3]
        if got != want:
            errors.append(t)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
