"""Python's conventions: bad arguments raise TypeError / ValueError naming the function and
the parameter, in the caller's units (seconds)."""
import datetime

import pytest

import rxc


@pytest.mark.parametrize("call, exc, words", [
    (lambda: rxc.of(1).take(-1), ValueError, ["take()", "n", ">= 0", "-1"]),
    (lambda: rxc.of(1).skip("3"), TypeError, ["skip()", "n", "int", "str"]),
    (lambda: rxc.of(1).take(True), TypeError, ["take()", "n", "bool"]),
    (lambda: rxc.of(1).element_at(-2), ValueError, ["element_at()", "index"]),
    (lambda: rxc.of(1).retry(-1), ValueError, ["retry()", "max_attempts"]),
    (lambda: rxc.of(1).debounce("x"), TypeError, ["debounce()", "duetime", "seconds", "str"]),
    (lambda: rxc.of(1).delay(-0.5), ValueError, ["delay()", "duetime", "seconds", "-0.5"]),
    (lambda: rxc.of(1).throttle(float("nan")), ValueError, ["throttle()", "duetime"]),
    (lambda: rxc.interval(None), TypeError, ["interval()", "period"]),
    (lambda: rxc.timer(1, period=-1), ValueError, ["timer()", "period"]),
    (lambda: rxc.SerialScheduler(123), TypeError, ["SerialScheduler()", "label", "str", "int"]),
    (lambda: rxc.ConcurrentScheduler(b"x"), TypeError, ["ConcurrentScheduler()", "label"]),
    (lambda: rxc.of(1).observe_on_bounded(rxc.default_scheduler(), 0), ValueError,
     ["observe_on_bounded()", "capacity", ">= 1"]),
    (lambda: rxc.never().blocking_last(timeout="soon"), TypeError, ["blocking_last()", "timeout"]),
])
def test_bad_arguments_name_the_parameter(call, exc, words):
    with pytest.raises(exc) as e:
        call()
    for w in words:
        assert w in str(e.value), (w, str(e.value))


def test_timeouts_speak_seconds():
    with pytest.raises(TimeoutError) as e:
        rxc.never().blocking_last(timeout=0.05)
    assert "0.05 s" in str(e.value) and "ns" not in str(e.value)
    with pytest.raises(rxc.RxTimeoutError) as e:
        rxc.never().blocking_to_list(timeout=datetime.timedelta(milliseconds=20))
    assert "0.02 s" in str(e.value) and "blocking_to_list()" in str(e.value)


def test_durations_accept_int_float_and_timedelta():
    assert rxc.of(1).delay(0).blocking_last() == 1
    assert rxc.of(2).delay(0.001).blocking_last() == 2
    assert rxc.of(3).delay(datetime.timedelta(milliseconds=1)).blocking_last() == 3
