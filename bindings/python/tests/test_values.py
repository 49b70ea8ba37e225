import gc
import math
import weakref

import rxc


def roundtrip(x):
    """x through a behavior subject's value, a just() stream and a map() result."""
    with rxc.BehaviorSubject(x) as s:
        a = s.value
    b = rxc.just(x).blocking_last()
    c = rxc.just(0).map(lambda _: x).blocking_last()
    return a, b, c


def test_plain_values_round_trip():
    for x in [0, 1, -1, 2**63 - 1, -2**63, 1.5, -0.0, 1e300, True, False, None]:
        for y in roundtrip(x):
            assert y == x and type(y) is type(x), (x, y)


def test_nan_and_inf():
    a, b, c = roundtrip(float("nan"))
    assert all(math.isnan(v) for v in (a, b, c))
    assert roundtrip(float("inf")) == (float("inf"),) * 3


def test_strings_bytes_lists():
    for x in ["", "héllo wörld ✓", b"", b"\x00\xffbytes", bytearray(b"ab"), [1, "two", [3.0, None]], []]:
        for y in roundtrip(x):
            assert y == (bytes(x) if isinstance(x, bytearray) else x)
    assert roundtrip((1, 2)) == ([1, 2],) * 3  # tuples travel as arrays


def test_big_ints_and_nul_strings_travel_as_objects():
    big = 2**70
    assert roundtrip(big) == (big,) * 3
    assert roundtrip("a\0b") == ("a\0b",) * 3


def test_arbitrary_objects_keep_identity_and_are_freed():
    class Thing:
        pass
    t = Thing()
    ref = weakref.ref(t)
    with rxc.ReplaySubject() as s:
        s.on_next(t)
        got = s.blocking_last(timeout=0) if False else None
        seen = []
        d = s.subscribe(seen.append)
        assert seen[0] is t
        d.dispose()
        del t, seen
        gc.collect()
        assert ref() is not None  # the replay buffer's rx_object holds it
    gc.collect()
    assert ref() is None  # the destroy callback dropped the reference


def test_observable_values_flatten():
    inner = rxc.of(1, 2)
    assert rxc.just(inner).switch_latest().blocking_to_list() == [1, 2]
    nested = rxc.just(0).map(lambda _: rxc.of(7, 8)).blocking_last()
    assert isinstance(nested, rxc.Observable) and nested.blocking_to_list() == [7, 8]


def test_pointer_values():
    p = rxc.ffi.cast("void *", 0x1234)
    got = rxc.just(p).blocking_last()
    assert rxc.ffi.typeof(got) is rxc.ffi.typeof("void *") and int(rxc.ffi.cast("uintptr_t", got)) == 0x1234


def test_materialize_dematerialize():
    events = rxc.of(1, 2).materialize().blocking_to_list()
    assert [e.kind for e in events] == ["N", "N", "C"] and events[0].value == 1
    assert rxc.of(*events).dematerialize().blocking_to_list() == [1, 2]
    err = rxc.throw(rxc.RxError("bad", 1234)).materialize().blocking_to_list()
    assert err[0].kind == "E" and err[0].error.code == 1234 and err[0].error.message == "bad"
    del events, err


def test_plain_value_conversion_agrees_with_the_library():
    # the package packs and reads plain values itself; the library's own constructors and
    # readers must agree with it
    from rxc import _values as _core, lib
    for x in [0.0, -1.25, 1e-300, float("inf")]:
        assert lib.rx_value_double(_core._from_py(x)) == x
        assert _core._to_py(lib.rx_double(x)) == x
    for x in [0, -5, 2**63 - 1]:
        assert lib.rx_value_int(_core._from_py(x)) == x
        assert _core._to_py(lib.rx_int(x)) == x
    assert lib.rx_value_bool(_core._from_py(True)) is True and _core._to_py(lib.rx_bool(False)) is False
    assert _core._to_py(lib.rx_none()) is None
    p = rxc.ffi.cast("void *", 0xABC)
    assert lib.rx_value_ptr(_core._from_py(p)) == p and _core._to_py(lib.rx_ptr(p)) == p
