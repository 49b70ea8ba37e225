import re
import threading

import pytest

import rxc


def L(obs, timeout=10):
    return obs.blocking_to_list(timeout=timeout)


def test_map_filter_scan_reduce():
    assert L(rxc.range(0, 10).map(lambda x: x * x).filter(lambda x: x % 2)) == [1, 9, 25, 49, 81]
    assert L(rxc.range(1, 4).scan(lambda acc, x: acc + x, 0)) == [1, 3, 6, 10]
    assert L(rxc.range(1, 4).reduce(lambda acc, x: acc + [x], [])) == [[1, 2, 3, 4]]
    assert L(rxc.range(5)) == [0, 1, 2, 3, 4]


def test_take_skip_family():
    src = rxc.range(0, 10)
    assert L(src.take(3)) == [0, 1, 2]
    assert L(src.skip(7)) == [7, 8, 9]
    assert L(src.take_while(lambda x: x < 2)) == [0, 1]
    assert L(src.take_while(lambda x: x < 2, inclusive=True)) == [0, 1, 2]
    assert L(src.take_until_predicate(lambda x: x == 3)) == [0, 1, 2]
    assert L(src.take_until_predicate(lambda x: x == 3, inclusive=True)) == [0, 1, 2, 3]
    assert L(src.skip_while(lambda x: x < 8)) == [8, 9]
    assert L(src.take_last(2)) == [8, 9]
    assert L(src.skip_last(7)) == [0, 1, 2]
    assert L(src.skip_last(0)) == list(range(10))
    assert L(src.element_at(4)) == [4]
    assert L(src.first()) == [0] and L(src.last()) == [9]
    assert L(src.ignore_elements()) == []
    assert L(src.to_list()) == [list(range(10))]
    assert L(src.buffer(count=4)) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]


def test_first_of_empty_fails():
    with pytest.raises(rxc.RxError) as e:
        rxc.empty().first().blocking_last()
    assert e.value.code == rxc.ERROR_NO_ELEMENTS
    with pytest.raises(rxc.RxError) as e:
        rxc.of(1).element_at(3).blocking_last()
    assert e.value.code == rxc.ERROR_ARGUMENT_OUT_OF_RANGE


def test_default_and_switch_if_empty():
    assert L(rxc.empty().default_if_empty("none")) == ["none"]
    assert L(rxc.of(1, 2).default_if_empty(0)) == [1, 2]
    assert L(rxc.empty().switch_if_empty(rxc.of(7, 8))) == [7, 8]
    assert L(rxc.of(1).switch_if_empty([7, 8])) == [1]
    with pytest.raises(rxc.RxError):
        rxc.throw(rxc.RxError("x")).default_if_empty(0).blocking_last()


def test_single_and_enumerated():
    assert L(rxc.of(4).single()) == [4]
    with pytest.raises(rxc.RxError) as e:
        rxc.empty().single().blocking_last()
    assert e.value.code == rxc.ERROR_NO_ELEMENTS
    with pytest.raises(rxc.RxError) as e:
        rxc.of(1, 2).single().blocking_last()
    assert e.value.code == rxc.ERROR_MORE_THAN_ONE_ELEMENT
    assert L(rxc.of("a", "b").enumerated()) == [[0, "a"], [1, "b"]]


def test_compact_map():
    assert L(rxc.range(0, 7).compact_map(lambda x: x * 10 if x % 3 == 0 else None)) == [0, 30, 60]
    assert L(rxc.of("a", "bb", "c").compact_map(lambda s: len(s) if len(s) > 1 else None)) == [2]
    with pytest.raises(ZeroDivisionError):
        rxc.of(1, 0).compact_map(lambda x: 1 // x).blocking_last()


def test_repeat_element():
    assert L(rxc.repeat_element("x").take(3)) == ["x", "x", "x"]
    with rxc.SerialScheduler("repeat") as q:
        assert L(rxc.repeat_element(5, q).take(100)) == [5] * 100


def test_generate():
    assert L(rxc.generate(1, lambda x: x < 100, lambda x: x * 3)) == [1, 3, 9, 27, 81]
    assert L(rxc.generate("a", lambda s: len(s) < 3, lambda s: s + "b")) == ["a", "ab"]
    assert L(rxc.generate(0, lambda x: True, lambda x: x + 1).take(4)) == [0, 1, 2, 3]
    with pytest.raises(ZeroDivisionError):
        L(rxc.generate(0, lambda x: True, lambda x: 1 // 0))


def test_using():
    log = []

    class Res:
        def __init__(self):
            log.append("open")

    def release(r):
        assert isinstance(r, Res)
        log.append("close")

    obs = rxc.using(Res, lambda r: rxc.of(1, 2), release)
    assert L(obs) == [1, 2] and log == ["open", "close"]
    assert L(obs.take(1)) == [1] and log == ["open", "close"] * 2
    with pytest.raises(ZeroDivisionError):
        L(rxc.using(Res, lambda r: 1 / 0, release))
    assert log[-2:] == ["open", "close"]


def test_catch_with_an_observable():
    failing = rxc.of(1).concat(rxc.throw(ValueError("x")))
    assert L(failing.catch(rxc.of(7, 8))) == [1, 7, 8]
    assert L(rxc.of(1).catch(rxc.of(7))) == [1]


def test_max_concurrent():
    with rxc.SerialScheduler("slow") as q:
        slow = rxc.of(1, 2).observe_on(q)
        assert L(rxc.merge(slow, rxc.of(3), max_concurrent=1)) == [1, 2, 3]
        assert L(rxc.of(1, 2).flat_map(lambda x: rxc.of(x, x).observe_on(q), max_concurrent=1)) == [1, 1, 2, 2]


def test_distinct_until_changed():
    src = rxc.of(1, 1, 2, 2, 2, 3, 1, 1)
    assert L(src.distinct_until_changed()) == [1, 2, 3, 1]
    words = rxc.of("a", "A", "b", "B", "a")
    assert L(words.distinct_until_changed(lambda a, b: a.lower() == b.lower())) == ["a", "b", "a"]


def test_flat_map_family():
    assert sorted(L(rxc.of(1, 2).flat_map(lambda x: rxc.of(x, x * 10)))) == [1, 2, 10, 20]
    assert L(rxc.of(1, 2).concat_map(lambda x: [x, x])) == [1, 1, 2, 2]
    assert L(rxc.of(1, 2).flat_map_latest(lambda x: rxc.just(x))) == [1, 2]
    # flat_map_first: 2 arrives while 1's inner is active, and is never mapped
    mapped, outer, inner = [], rxc.PublishSubject(), rxc.PublishSubject()
    got = []
    with outer.flat_map_first(lambda x: mapped.append(x) or inner).subscribe(got.append):
        outer.on_next(1)
        outer.on_next(2)
        inner.on_next("a")
        inner.on_completed()
        outer.on_next(3)
    assert mapped == [1, 3] and got == ["a"]


def test_window():
    src, seen, subs = rxc.PublishSubject(), [], []

    def open_window(w):
        seen.append([])
        subs.append(w.subscribe(on_next=seen[-1].append))

    with src.window(count=2).subscribe(open_window):
        for v in range(5):
            src.on_next(v)
        src.on_completed()
    for d in subs:
        d.dispose()
    assert seen == [[0, 1], [2, 3], [4]]


def test_combining():
    assert L(rxc.merge(rxc.of(1, 2), rxc.of(3))) == [1, 2, 3]
    assert L(rxc.of(1).concat(rxc.of(2), rxc.of(3))) == [1, 2, 3]
    assert L(rxc.zip(rxc.of(1, 2, 3), rxc.of("a", "b"))) == [[1, "a"], [2, "b"]]
    assert L(rxc.of(1, 2).zip(rxc.of(10, 20), selector=lambda a, b: a + b)) == [11, 22]
    assert L(rxc.combine_latest(rxc.just(1), rxc.of(2, 3))) == [[1, 2], [1, 3]]
    assert L(rxc.of(3).start_with(1, "2")) == [1, "2", 3]
    assert L(rxc.amb(rxc.never(), rxc.of(5))) == [5]


def test_with_latest_from_and_sample_on_subjects():
    with rxc.PublishSubject() as a, rxc.PublishSubject() as b:
        got = []
        with a.with_latest_from(b, lambda x, y: (x, y)).subscribe(got.append):
            a.on_next(1)  # dropped: b has no value yet
            b.on_next("x")
            a.on_next(2)
            b.on_next("y")
            a.on_next(3)
        assert got == [[2, "x"], [3, "y"]]


def test_take_until_and_skip_until():
    with rxc.PublishSubject() as src, rxc.PublishSubject() as stop:
        got = []
        with src.take_until(stop).subscribe(got.append), src.skip_until(stop).map(lambda x: -x).subscribe(got.append):
            src.on_next(1)
            stop.on_next(None)
            src.on_next(2)
        assert got == [1, -2]


def test_error_handling_operators():
    boom = rxc.throw(rxc.RxError("boom", 1001))
    assert L(boom.catch_and_return(-1)) == [-1]
    assert L(boom.catch(lambda e: rxc.of(e.code))) == [1001]
    assert L(boom.catch(rxc.of("alt"))) == ["alt"]
    with pytest.raises(rxc.RxError):
        L(boom.catch(lambda e: None))
    attempts = []

    def sub(em):
        attempts.append(1)
        if len(attempts) < 3:
            em.on_error(rxc.RxError("flaky"))
        else:
            em.on_next(len(attempts))
            em.on_completed()
    assert L(rxc.create(sub).retry(5)) == [3]


def test_create_and_defer(rec):
    cleanup = []

    def subscribe(em):
        em.on_next("a")
        em.on_next("b")
        em.on_completed()
        return lambda: cleanup.append("done")
    with rxc.create(subscribe).subscribe(rec):
        pass
    assert rec.events == ["a", "b", ("completed",)] and cleanup == ["done"]
    n = []
    d = rxc.defer(lambda: rxc.just(len(n)))
    n.append(1)
    assert L(d) == [1]


def test_do_tap_sees_events_first():
    order = []
    obs = rxc.of(1, 2).do(on_next=lambda x: order.append(("tap", x)),
                          on_completed=lambda: order.append("tap-done"),
                          on_disposed=lambda: order.append("tap-disposed"))
    with obs.subscribe(on_next=lambda x: order.append(("sub", x)), on_disposed=lambda: order.append("disposed")):
        pass
    assert order == [("tap", 1), ("sub", 1), ("tap", 2), ("sub", 2), "tap-done", "tap-disposed", "disposed"]


def test_do_hooks_order():
    order = []

    def log(tag):
        return lambda *a: order.append((tag,) + a)
    obs = rxc.of(1).do_hooks(on_next=log("on"), after_next=log("after"), on_completed=log("on|"),
                             after_completed=log("after|"), on_subscribe=log("subscribe"),
                             on_subscribed=log("subscribed"), on_dispose=log("dispose"))
    with obs.subscribe(on_next=log("sub"), on_completed=log("sub|")):
        pass
    assert order == [("subscribe",), ("on", 1), ("sub", 1), ("after", 1), ("on|",), ("sub|",), ("after|",),
                     ("subscribed",), ("dispose",)]
    errors = []
    failing = rxc.throw(rxc.RxError("bad", 1001)).do_hooks(on_error=errors.append, after_error=errors.append)
    with failing.subscribe(on_error=lambda e: None):
        pass
    assert [e.code for e in errors] == [1001, 1001]


def test_debug_lines(capfd):
    got = []
    assert rxc.of(1, "x").debug("tag", got.append).blocking_to_list() == [1, "x"]
    tid = threading.get_native_id()
    events = []
    for line in got:
        m = re.fullmatch(r"(\d+)\.(\d{6}) tid (\d+) tag -> (.*)", line)
        assert m, line
        assert int(m.group(3)) == tid
        events.append(m.group(4))
    assert events == ["subscribed", "next(1)", 'next("x")', "completed", "disposed"]
    rxc.just(5).debug().blocking_to_list()  # to the C library's stderr
    err = capfd.readouterr().err
    assert "rx_debug -> next(5)" in err


def test_sharing():
    subscriptions = []

    def sub(em):
        subscriptions.append(1)
        em.on_next(len(subscriptions))
    src = rxc.create(sub)
    pub = src.publish()
    a, b = [], []
    with pub.subscribe(a.append), pub.subscribe(b.append):
        with pub.connect():
            assert a == [1] and b == [1] and len(subscriptions) == 1
    shared = src.share_replay(1)
    c, d = [], []
    with shared.subscribe(c.append), shared.subscribe(d.append):
        assert c == [2] and d == [2] and len(subscriptions) == 2
    with src.replay(1).ref_count().subscribe(c.append):
        assert c[-1] == 3


def test_share_forever_replay_all_multicast():
    subscriptions = []

    def sub(em):
        subscriptions.append(1)
        em.on_next(len(subscriptions))
        em.on_completed()
    src = rxc.create(sub)
    forever = src.share_forever(1)
    a, b = [], []
    forever.subscribe(a.append).dispose()
    forever.subscribe(b.append).dispose()
    assert a == [1] and b == [1] and len(subscriptions) == 1  # the late one got the replay
    with rxc.PublishSubject() as hot:
        everything = hot.replay_all()
        with everything.connect():
            for i in (1, 2, 3):
                hot.on_next(i)
            c = []
            everything.subscribe(c.append).dispose()
            assert c == [1, 2, 3]
    with rxc.ReplaySubject(2) as s:
        m = rxc.of(1, 2, 3).multicast(s)
        with m.connect():
            d = []
            m.subscribe(d.append).dispose()
            assert d == [2, 3]
    with rxc.PublishRelay() as relay:
        with pytest.raises(rxc.RxStatusError, match="never terminates"):
            rxc.of(1).multicast(relay)


def test_marbles_on_a_test_scheduler():
    ts = rxc.TestScheduler()
    typed = ts.hot("-1-2------3---|")
    assert ts.expect(typed.debounce(3 * ts.FRAME, ts), "------2------3|")
    ts2 = rxc.TestScheduler()
    assert ts2.expect(ts2.cold("-a-b-|").map(lambda s: s.upper()), "-A-B-|")
    ts3 = rxc.TestScheduler()
    assert ts3.expect(ts3.cold("-1-2-|").delay(2 * ts3.FRAME, ts3), "---1-2-|")
    ts4 = rxc.TestScheduler()
    assert ts4.expect(ts4.cold("-1-----2|").timeout(3 * ts4.FRAME, ts4), "-1--#",
                      error=rxc.RxError("sequence timeout", rxc.ERROR_TIMEOUT))
    ts5 = rxc.TestScheduler()
    assert ts5.expect(rxc.interval(2 * ts5.FRAME, ts5).take(3), "--0-1-(2|)")
    ts6 = rxc.TestScheduler()
    assert ts6.expect(ts6.cold("12-3-|").throttle(2 * ts6.FRAME, False, ts6), "1--3-|")
    for t in (ts, ts2, ts3, ts4, ts5, ts6):
        t.close()


def test_timestamp_pairs_values_with_the_schedulers_clock():
    ts = rxc.TestScheduler()
    got = []
    sub = ts.cold("-1--2|").timestamp(ts).subscribe(on_next=got.append)
    ts.advance_to(10 * ts.FRAME)
    sub.dispose()
    assert [(round(t / ts.FRAME), v) for t, v in got] == [(1, 1), (4, 2)]
    ts.close()


def test_skip_and_take_duration_on_a_test_scheduler():
    ts = rxc.TestScheduler()
    assert ts.expect(ts.hot("-1-2-3-4-|").skip_duration(4 * ts.FRAME, ts), "-----3-4-|")
    ts2 = rxc.TestScheduler()
    assert ts2.expect(ts2.hot("-1-2-3-4-|").take_duration(4 * ts2.FRAME, ts2), "-1-2|")
    for t in (ts, ts2):
        t.close()


def test_timeout_to_on_a_test_scheduler():
    ts = rxc.TestScheduler()
    assert ts.expect(ts.hot("-1-2------3|").timeout_to(3 * ts.FRAME, ts.cold("-7-8|"), ts), "-1-2---7-8|")
    ts.close()


def test_retry_backoff_on_a_test_scheduler():
    ts = rxc.TestScheduler()
    assert ts.expect(ts.cold("-1-#").retry_backoff(ts.FRAME, 2.0, max_attempts=3, scheduler=ts), "-1---1----1-#")
    ts.close()
    with pytest.raises(Exception):
        rxc.never().retry_backoff(0.001, multiplier=0.5)


def test_retry_when_on_a_test_scheduler():
    ts = rxc.TestScheduler()
    seen = []

    def handler(errors):
        return errors.do(on_next=seen.append).take(2)
    assert ts.expect(ts.cold("-1-#").retry_when(handler), "-1--1--1-|")
    ts.close()
    assert len(seen) == 2 and all(isinstance(n, rxc.Notification) for n in seen)


def test_timer_and_interval_on_the_default_scheduler():
    assert L(rxc.timer(0.001)) == [0]
    assert L(rxc.interval(0.001).take(3)) == [0, 1, 2]
    assert L(rxc.of(1, 2).delay(0.001)) == [1, 2]


def test_pipe():
    double = lambda o: o.map(lambda x: 2 * x)  # noqa: E731
    assert L(rxc.of(1, 2).pipe(double, double)) == [4, 8]
