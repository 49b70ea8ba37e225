"""Type-checked by `mypy --strict` in make python-test (and run by test_typing.py): the
generics of Observable flow through operators, subjects and the operators module."""
from typing import List, Tuple

import rxc
from rxc import operators as ops


def lengths() -> List[int]:
    words: rxc.Observable[str] = rxc.of("a", "bb", "ccc")
    return words.map(len).filter(lambda n: n > 1).blocking_to_list()


def plus_one(x: int) -> int:
    return x + 1


def totals() -> Tuple[int, str]:
    s: rxc.BehaviorSubject[int] = rxc.BehaviorSubject(1)
    acc: rxc.Observable[int] = s.scan(lambda a, x: a + x, 0)
    last = acc.take(1).blocking_last()
    # a typed function: a lambda inside ops.* gets no parameter type from its context
    text: rxc.Observable[str] = rxc.range(3).pipe(ops.map(plus_one), ops.map(str))
    return last, "".join(text.blocking_to_list())


def grouped() -> List[int]:
    keys = rxc.range(0, 6).group_by(lambda x: x % 2).map(lambda g: g.key)
    return keys.blocking_to_list()


def checked() -> None:
    assert lengths() == [2, 3]
    assert totals() == (1, "123")
    assert grouped() == [0, 1]
