import threading

import pytest

import rxc


def L(obs, timeout=10):
    return obs.blocking_to_list(timeout=timeout)


def test_groups_carry_their_key_and_values():
    words = rxc.of("ant", "bee", "ape", "cat", "bat")
    tagged = words.group_by(lambda w: w[0]).flat_map(lambda g: g.map(lambda w: "%s:%s" % (g.key, w)))
    assert L(tagged) == ["a:ant", "b:bee", "a:ape", "c:cat", "b:bat"]
    groups = L(words.group_by(len))
    assert [type(g) for g in groups] == [rxc.GroupedObservable]
    assert groups[0].key == 3
    assert repr(groups[0]) == "GroupedObservable(key=3)"


def test_keys_of_every_allowed_kind():
    values = [1, 1.5, True, "s", b"b", 1, 1.5, "s", b"b"]
    keys = [g.key for g in L(rxc.of(*values).group_by(lambda x: x))]
    assert keys == [1, 1.5, True, "s", b"b"]
    assert [type(k) for k in keys] == [int, float, bool, str, bytes]


def test_a_key_that_cannot_be_a_key_fails_the_stream():
    with pytest.raises(rxc.RxError) as e:
        L(rxc.of(1, 2).group_by(lambda x: [x]))
    assert e.value.code == rxc.ERROR_TYPE
    assert "RX_ARRAY" in e.value.message
    with pytest.raises(rxc.RxError) as e:
        L(rxc.of(1).group_by(lambda x: float("nan")))
    assert e.value.code == rxc.ERROR_TYPE


def test_key_function_error_reaches_groups_and_downstream():
    def key(x):
        if x == 3:
            raise ValueError("no key for 3")
        return x % 2

    seen = {}
    errors = []
    with rxc.PublishSubject() as s:
        s.group_by(key).subscribe(
            on_next=lambda g: g.subscribe(on_next=lambda x: seen.setdefault(g.key, []).append(x),
                                          on_error=lambda e: errors.append(("group", g.key))),
            on_error=lambda e: errors.append(("outer", str(e))))
        for x in (1, 2, 3, 4):
            s.on_next(x)
    assert seen == {1: [1], 0: [2]}
    assert ("group", 1) in errors and ("group", 0) in errors
    assert errors[-1][0] == "outer" and "no key for 3" in errors[-1][1]


def test_groups_keep_the_source_after_the_outer_subscription_is_disposed():
    got = []
    subs = []
    with rxc.PublishSubject() as s:
        outer = s.group_by(lambda x: x % 2).subscribe(
            on_next=lambda g: subs.append(g.subscribe(on_next=lambda x: got.append((g.key, x)))))
        s.on_next(1)
        outer.dispose()
        s.on_next(3)
        s.on_next(2)  # a new group, which nobody receives
        assert s.has_observers
        for d in subs:
            d.dispose()
        assert not s.has_observers
    assert got == [(1, 1), (1, 3)]


def test_groups_subscribed_on_another_thread():
    got = []
    ready = threading.Event()
    groups = []
    with rxc.PublishSubject() as s:
        d = s.group_by(lambda x: x % 3).subscribe(on_next=groups.append)
        s.on_next(0)
        s.on_next(1)

        def subscribe_all():
            for g in list(groups):
                subs.append(g.subscribe(on_next=lambda x, k=g.key: got.append((k, x))))
            ready.set()
        subs = []
        t = threading.Thread(target=subscribe_all)
        t.start()
        ready.wait(10)
        t.join()
        for x in range(3, 9):
            s.on_next(x)
        s.on_completed()
        d.dispose()
        for sub in subs:
            sub.dispose()
    assert got == [(0, 3), (1, 4), (0, 6), (1, 7)]
