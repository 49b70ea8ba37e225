import threading

import pytest

import rxc


def test_bad_arguments_raise_with_the_library_message():
    with pytest.raises(rxc.RxStatusError) as e:
        rxc.ReplaySubject(0)
    assert "buffer_size" in e.value.message
    with pytest.raises(rxc.RxStatusError):
        rxc.interval(0)
    with pytest.raises(rxc.InvalidArgumentError):
        rxc.main_run_for(-1)
    with pytest.raises(ValueError, match="count"):
        rxc.range(0, -1)


def test_main_loop_off_the_main_thread_is_invalid_state():
    errors = []

    def worker():
        try:
            rxc.main_run_for(0.001)
        except rxc.InvalidStateError as e:
            errors.append(e)
    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert len(errors) == 1 and errors[0].status == -3 and errors[0].message


def test_python_exception_in_map_becomes_the_stream_error_as_itself(rec):
    raised = []

    def f(x):
        if x == 2:
            raised.append(ValueError("two is bad"))
            raise raised[-1]
        return x
    with rxc.range(0, 5).map(f).subscribe(rec):
        pass
    assert rec.values == [0, 1]
    assert rec.error is raised[0] and type(rec.error) is ValueError
    text = rxc.error_traceback(rec.error)
    assert "in f" in text and "two is bad" in text
    assert rec.disposed
    # materialized, the error is the exception too
    note = rxc.range(0, 5).map(f).materialize().blocking_to_list()[-1]
    assert note.kind == "E" and note.error is raised[1]


def test_user_exception_is_raised_by_blocking_and_caught_by_its_type():
    boom = KeyError("k")
    with pytest.raises(KeyError) as e:
        rxc.of(1).map(lambda x: (_ for _ in ()).throw(boom)).blocking_last()
    assert e.value is boom
    s = rxc.PublishSubject()
    errors = []
    s.subscribe(on_error=errors.append)
    mine = OSError("disk")
    s.on_error(mine)
    assert errors == [mine] and errors[0] is mine


def test_rx_error_raised_in_a_callback_keeps_its_code():
    mine = rxc.RxError("custom", 4242)
    with pytest.raises(rxc.RxError) as e:
        rxc.of(1).filter(lambda x: (_ for _ in ()).throw(mine)).blocking_last()
    assert e.value is mine and e.value.code == 4242 and e.value.message == "custom"


def test_exceptions_in_every_kind_of_callback_fail_the_stream():
    boom = ZeroDivisionError
    cases = [
        rxc.of(1).scan(lambda a, x: 1 / 0, 0),
        rxc.of(1).flat_map(lambda x: 1 / 0),
        rxc.of(1).take_while(lambda x: 1 / 0),
        rxc.zip(rxc.of(1), rxc.of(2), selector=lambda a, b: 1 / 0),
        rxc.defer(lambda: 1 / 0),
        rxc.create(lambda em: 1 / 0),
        rxc.throw(ValueError("x")).catch(lambda e: 1 / 0),
    ]
    for obs in cases:
        with pytest.raises(boom):
            obs.blocking_to_list()
    del cases


def test_exception_in_on_next_goes_to_unraisablehook(unraisable, rec):
    def bad(x):
        raise RuntimeError("observer broke on %d" % x)
    with rxc.PublishSubject() as s:
        with s.subscribe(on_next=bad, on_completed=rec.on_completed):
            s.on_next(1)
            s.on_next(2)  # the subscription goes on
            s.on_completed()
    assert [str(u.exc_value) for u in unraisable] == ["observer broke on 1", "observer broke on 2"]
    assert "on_next" in unraisable[0].err_msg and rec.completed


def test_unhandled_stream_error_is_reported(unraisable):
    with rxc.throw(rxc.RxError("nobody listens", 1100)).subscribe(lambda x: None):
        pass
    assert len(unraisable) == 1 and unraisable[0].exc_value.code == 1100


def test_exception_in_comparer_and_action_are_reported(unraisable):
    assert rxc.of(1, 1).distinct_until_changed(lambda a, b: 1 / 0).blocking_to_list() == [1, 1]
    d = rxc.immediate_scheduler().schedule(lambda: 1 / 0)
    d.dispose()
    assert [type(u.exc_value) for u in unraisable] == [ZeroDivisionError, ZeroDivisionError]


def test_blocking_timeout_raises():
    with pytest.raises(rxc.RxTimeoutError):
        rxc.never().blocking_to_list(timeout=0.01)
    with pytest.raises(TimeoutError):
        rxc.never().blocking_last(timeout=0.01)


def test_emitter_after_dispose_returns_false():
    emitters = []
    d = rxc.create(lambda em: emitters.append(em)).subscribe(lambda x: None)
    assert emitters[0].on_next(1) is True
    d.dispose()
    assert emitters[0].is_disposed and emitters[0].on_next(2) is False
    emitters.clear()


def test_closed_handles_raise_value_error():
    o = rxc.of(1)
    o.close()
    o.close()
    with pytest.raises(ValueError):
        o.map(lambda x: x)
    s = rxc.PublishSubject()
    s.close()
    with pytest.raises(ValueError):
        s.on_next(1)
