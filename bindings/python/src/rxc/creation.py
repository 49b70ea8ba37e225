"""Creating observables: create, just, of, range, timers, and the combining functions."""
from . import _late
from ._ffi import ffi, lib
from .errors import RxError, _ErrorRef
from ._values import NULL, _Borrowed, _INT64_MIN, _count, _drop, _free_cb, _from_py, _ns, _put, _release
from ._callbacks import _array_of, _combine_cb, _create_cb, _defer_cb, _gen_cond_cb, _gen_iter_cb, _using_create_cb, _using_release_cb, _using_use_cb, _with_fn
from .observable import Observable, _sched

def create(subscribe):
    """An observable whose subscriptions run subscribe(emitter) (RxSwift's create). It may
    return None, a Disposable or a callable, disposed / called when the subscription ends."""
    return Observable._own(_with_fn(lib.rx_create, _create_cb, subscribe))


def just(value):
    """One value, then completion."""
    with _Borrowed(value) as v:
        return Observable._own(lib.rx_just(v))


return_value = just


def of(*values):
    """The given values, then completion."""
    vals = [_from_py(x) for x in values]
    try:
        return Observable._own(lib.rx_of(ffi.new("rx_value[]", vals) if vals else NULL, len(vals)))
    finally:
        for v in vals:
            _release(v)


def from_iterable(iterable):
    """The values of a finite iterable, taken now (rx_of)."""
    return of(*iterable)


def range_(start, count=None):
    """range(count) or range(start, count): count ints from start (rx_range's arguments)."""
    if count is None:
        start, count = 0, start
    return Observable._own(lib.rx_range(_count(start, "start", _INT64_MIN), _count(count, "count")))


def empty():
    """Completes at once."""
    return Observable._own(lib.rx_empty())


def never():
    """Never emits nor ends."""
    return Observable._own(lib.rx_never())


def throw(error):
    """Fails at once with `error` (an exception; it reaches subscribers as itself)."""
    e = _ErrorRef(error if isinstance(error, BaseException) else RxError(str(error)))
    return Observable._own(lib.rx_throw(e.ptr))


def defer(factory):
    """Calls factory() for each subscription and subscribes to the Observable it returns."""
    return Observable._own(_with_fn(lib.rx_defer, _defer_cb, factory))


def repeat_element(value, scheduler=None):
    """value again and again, one per action on scheduler (None: the current-thread
    scheduler); it never ends by itself: stop it with take(...) or the like."""
    with _Borrowed(value) as v:
        return Observable._own(lib.rx_repeat_element(v, scheduler.handle if scheduler is not None else NULL))


def generate(initial, condition, iterate, scheduler=None):
    """initial, iterate(initial), ... while condition(state) holds, one per action on
    scheduler (None: the current-thread scheduler)."""
    ctx = _put((condition, iterate))
    with _Borrowed(initial) as v:
        p = lib.rx_generate(v, scheduler.handle if scheduler is not None else NULL, _gen_cond_cb,
                            _gen_iter_cb, ctx, _free_cb)
    if p == NULL:
        _drop(ctx)
    return Observable._own(p)


def using(create, use, release=None):
    """A resource per subscription: create() makes it, use(resource) gives the Observable
    that reads it, and release(resource) runs once when that subscription ends."""
    ctx = _put((create, use, release))
    p = lib.rx_using(_using_create_cb, _using_use_cb, _using_release_cb, ctx, _free_cb)
    if p == NULL:
        _drop(ctx)
    return Observable._own(p)


def interval(period, scheduler=None):
    """0, 1, 2, ... every `period` seconds, on `scheduler`."""
    return Observable._own(lib.rx_interval(_ns(period, "period"), _sched(scheduler)))


def timer(duetime, period=None, scheduler=None):
    """0 after `duetime` seconds, then (with `period`) 1, 2, ... every `period` seconds."""
    return Observable._own(lib.rx_timer(_ns(duetime, "duetime"), -1 if period is None else _ns(period, "period"),
                                        _sched(scheduler)))


def merge(*sources, max_concurrent=0):
    """The values of all sources as they come; max_concurrent > 0: that many subscribed at
    once at most, the next when one completes."""
    keep, arr = _array_of(sources)
    if max_concurrent:
        return Observable._own(lib.rx_merge_max(arr, len(keep), max_concurrent))
    return Observable._own(lib.rx_merge(arr, len(keep)))


def concat(*sources):
    """Each of `sources` in turn."""
    keep, arr = _array_of(sources)
    return Observable._own(lib.rx_concat(arr, len(keep)))


def amb(*sources):
    """The first of `sources` to emit wins; the rest are disposed."""
    keep, arr = _array_of(sources)
    return Observable._own(lib.rx_amb(arr, len(keep)))


def combine_latest(*sources, selector=None):
    """selector(*latest) whenever any emits (a list of the latest values without one)."""
    keep, arr = _array_of(sources)
    if selector is None:
        return Observable._own(lib.rx_combine_latest(arr, len(keep), NULL, NULL, NULL))
    return Observable._own(_with_fn(lib.rx_combine_latest, _combine_cb, selector, arr, len(keep)))


def zip_(*sources, selector=None):
    """selector(*k-th values) for each k (a list without one)."""
    keep, arr = _array_of(sources)
    if selector is None:
        return Observable._own(lib.rx_zip(arr, len(keep), NULL, NULL, NULL))
    return Observable._own(_with_fn(lib.rx_zip, _combine_cb, selector, arr, len(keep)))


_late.amb, _late.combine_latest, _late.concat, _late.merge, _late.of, _late.zip_ = (
    amb, combine_latest, concat, merge, of, zip_)
