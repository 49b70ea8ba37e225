import gc
import weakref

import pytest

import rxc
from conftest import settle


class Callback:
    def __init__(self, log):
        self.log = log

    def __call__(self, x):
        self.log.append(x)


def test_observer_callback_is_freed_exactly_after_on_disposed():
    log, state = [], {}
    cb = Callback(log)
    ref = weakref.ref(cb)

    def on_disposed():
        state["alive_in_on_disposed"] = ref() is not None
    s = rxc.PublishSubject()
    d = s.subscribe(on_next=cb, on_disposed=on_disposed)
    del cb
    gc.collect()
    assert ref() is not None, "the library still holds the subscription: the callback must live"
    s.on_next(1)
    assert log == [1]
    assert rxc.live_callbacks() >= 1
    d.dispose()
    assert state["alive_in_on_disposed"] is True
    gc.collect()
    assert ref() is None, "on_disposed ran: the callback must be released"
    s.close()


def test_operator_function_is_freed_after_ctx_free():
    fn = Callback([])
    ref = weakref.ref(fn)
    src = rxc.PublishSubject()
    mapped = src.map(fn)
    d = mapped.subscribe(lambda x: None)
    del fn
    mapped.close()  # the subscription still holds the operator's ctx
    gc.collect()
    assert ref() is not None
    src.on_next(5)
    assert ref().log == [5]
    d.dispose()  # the observable and its last subscription are gone: ctx_free
    gc.collect()
    assert ref() is None
    src.close()


def test_handles_collected_while_subscriptions_live(rec):
    s = rxc.PublishSubject()
    chain = s.map(lambda x: x + 1).filter(lambda x: x % 2 == 0)
    token = chain.subscribe(rec)
    del chain  # the Observable wrappers go: the library keeps what the subscription needs
    gc.collect()
    s.on_next(1)
    s.on_next(2)
    s.on_next(3)
    assert rec.values == [2, 4]
    del token  # collecting the token releases it; the subscription goes on
    gc.collect()
    s.on_next(5)
    assert rec.values == [2, 4, 6] and not rec.disposed
    del s  # the subject's last reference: disposed, observers dropped
    gc.collect()
    assert rec.disposed


def test_disposable_context_manager_and_double_dispose(rec):
    with rxc.PublishSubject() as s:
        with s.subscribe(rec) as d:
            s.on_next(1)
        assert rec.disposed and d.is_disposed
        d.dispose()  # no-op, no double release
        s.on_next(2)
        assert rec.values == [1]


def test_dispose_bag_and_composites():
    with rxc.PublishSubject() as s:
        seen = []
        bag = rxc.DisposeBag()
        bag.add(s.subscribe(seen.append))
        bag += s.subscribe(seen.append)
        s.on_next(1)
        bag.drain()
        s.on_next(2)
        assert seen == [1, 1]
        bag.add(s.subscribe(seen.append))
        bag.close()  # releasing the bag disposes what it holds
        s.on_next(3)
        assert seen == [1, 1]
        c = rxc.CompositeDisposable(s.subscribe(seen.append), s.subscribe(seen.append))
        s.on_next(4)
        c.dispose()
        serial = rxc.SerialDisposable()
        serial.set(s.subscribe(seen.append))
        serial.set(s.subscribe(lambda x: seen.append(-x)))  # disposes the first
        s.on_next(5)
        serial.dispose()
        single = rxc.SingleAssignmentDisposable()
        single.set(rxc.Disposable.create(lambda: seen.append("action")))
        with pytest.raises(rxc.InvalidStateError):
            single.set(rxc.Disposable.create(lambda: None))
        single.dispose()
        assert seen == [1, 1, 4, 4, -5, "action"]


def test_given_away_disposable_cannot_be_reused():
    d = rxc.Disposable.create(lambda: None)
    with rxc.CompositeDisposable(d) as c:
        with pytest.raises(ValueError):
            c.add(d)


def test_objects_in_values_are_freed_with_their_last_box():
    class Payload:
        pass
    p = Payload()
    ref = weakref.ref(p)
    s = rxc.BehaviorSubject(p)
    del p
    gc.collect()
    assert ref() is not None
    s.on_next(0)  # the subject drops its current value
    gc.collect()
    assert ref() is None
    s.close()


def test_scheduled_action_is_freed_after_it_ran_or_was_cancelled():
    ran = []
    s = rxc.SerialScheduler("test")
    action = Callback(ran)
    ref = weakref.ref(action)
    d = s.schedule_after(10.0, lambda: action(1))
    del action
    d.dispose()  # cancelled before it started: ctx_free at once
    assert settle(lambda: ref() is None)
    s.schedule(lambda: ran.append(2)).close()  # released, not cancelled: it still runs
    assert settle(lambda: ran == [2])
    s.close()
