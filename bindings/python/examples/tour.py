"""The README's tour: operators, subjects, a scheduler thread and the operators module."""
import threading
from typing import List

import rxc
from rxc import operators as ops


def tenfold(x: int) -> int:
    return x * 10


def main() -> None:
    squares: rxc.Observable[int] = rxc.range(1, 10).filter(lambda x: x % 2 == 1).map(lambda x: x * x)
    with squares.subscribe(on_next=print, on_error=print, on_completed=lambda: print("done")):
        pass
    total: int = squares.reduce(lambda acc, x: acc + x, 0).blocking_last()
    print(total)  # 165

    events: rxc.PublishSubject[str] = rxc.PublishSubject()
    seen: List[str] = []
    events.subscribe(seen.append)
    events.on_next("ada")
    print(seen)

    with rxc.SerialScheduler("bg") as bg:
        done = threading.Event()
        rxc.range(0, 3).observe_on(bg).subscribe(on_next=print, on_completed=done.set)
        done.wait()

    piped: rxc.Observable[str] = rxc.range(0, 5).pipe(ops.map(tenfold), ops.map(str))
    print(piped.blocking_to_list())

    try:
        rxc.of(1, 0).map(lambda x: 1 // x).blocking_last()
    except ZeroDivisionError as e:  # the callback's exception, as itself
        print("caught", e)


if __name__ == "__main__":
    main()
