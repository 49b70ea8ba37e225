import threading

import pytest

import rxc


def test_as_single_maybe_completable():
    assert rxc.of(7).as_single().blocking_to_list() == [7]
    with pytest.raises(rxc.RxError) as e:
        rxc.empty().as_single().blocking_last()
    assert e.value.code == rxc.ERROR_NO_ELEMENTS
    with pytest.raises(rxc.RxError) as e:
        rxc.of(1, 2).as_single().blocking_to_list()
    assert e.value.code == rxc.ERROR_MORE_THAN_ONE_ELEMENT
    assert rxc.empty().as_maybe().blocking_to_list() == []
    assert rxc.of(3).as_maybe().blocking_to_list() == [3]
    with pytest.raises(rxc.RxError) as e:
        rxc.of(1, 2).as_maybe().blocking_to_list()
    assert e.value.code == rxc.ERROR_MORE_THAN_ONE_ELEMENT
    assert rxc.empty().as_completable().blocking_to_list() == []
    with pytest.raises(rxc.RxError) as e:
        rxc.of(1).as_completable().blocking_to_list()
    assert e.value.code == rxc.ERROR_UNEXPECTED_ELEMENT


def test_subscribe_single_maybe_completable():
    got = []
    rxc.of(5).subscribe_single(on_success=lambda v: got.append(("ok", v)),
                               on_error=lambda e: got.append(("err", e.code)),
                               on_disposed=lambda: got.append("end")).dispose()
    rxc.of(1, 2).subscribe_single(on_error=lambda e: got.append(("err", e.code))).dispose()
    assert got == [("ok", 5), "end", ("err", rxc.ERROR_MORE_THAN_ONE_ELEMENT)]
    got.clear()
    rxc.of(5).subscribe_maybe(on_success=lambda v: got.append(("ok", v)),
                              on_completed=lambda: got.append("done")).dispose()
    rxc.empty().subscribe_maybe(on_success=lambda v: got.append(("ok", v)),
                                on_completed=lambda: got.append("done")).dispose()
    assert got == [("ok", 5), "done"]
    got.clear()
    rxc.empty().subscribe_completable(on_completed=lambda: got.append("done")).dispose()
    rxc.of(1).subscribe_completable(on_error=lambda e: got.append(("err", e.code))).dispose()
    assert got == ["done", ("err", rxc.ERROR_UNEXPECTED_ELEMENT)]


def test_signal_emits_on_main_without_replay():
    got = []
    with rxc.PublishSubject() as s:
        signal = s.map(lambda x: 10 // x).as_signal(on_error_value=-1)
        with signal.emit(on_next=lambda v: got.append(("a", v, threading.get_ident()))):
            s.on_next(5)
            rxc.main_drain()
            with signal.emit(on_next=lambda v: got.append(("b", v, threading.get_ident()))):
                s.on_next(0)  # ZeroDivisionError: the signal emits -1 and completes
                rxc.main_drain()
    me = threading.get_ident()
    assert got == [("a", 2, me), ("a", -1, me), ("b", -1, me)]
    with pytest.raises(rxc.RxStatusError):  # rx_emit takes only observables made by rx_as_signal
        rxc.Signal.emit(rxc.of(1).as_driver(0), print)


def test_blocking_first_and_single():
    assert rxc.of(4, 5).blocking_first() == 4
    assert rxc.interval(0.001).blocking_first(timeout=5) == 0
    assert rxc.of(6).blocking_single() == 6
    for src, code in ((rxc.empty(), rxc.ERROR_NO_ELEMENTS), (rxc.of(1, 2), rxc.ERROR_MORE_THAN_ONE_ELEMENT)):
        with pytest.raises(rxc.RxError) as e:
            src.blocking_single()
        assert e.value.code == code
    with pytest.raises(rxc.RxError) as e:
        rxc.empty().blocking_first()
    assert e.value.code == rxc.ERROR_NO_ELEMENTS
    with pytest.raises(rxc.RxTimeoutError):
        rxc.never().blocking_first(timeout=0.01)
