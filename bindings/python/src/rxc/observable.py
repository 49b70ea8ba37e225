"""Observable: an rx_observable with its operators as methods, and its kinds (bounded,
grouped, connectable, Driver, Signal)."""
from . import _late
from ._ffi import ffi, lib
from .errors import _checkp
from ._values import NULL, _Borrowed, _count, _drop, _free_cb, _from_py, _label, _ns, _put, _release
from .disposables import Disposable, _close_lock
from ._callbacks import _subscribe_trait, _HOOK_CALLBACKS, _HOOK_NAMES, _Sub, _acc_cb, _blocking, _catch_cb, _combine_cb, _compact_cb, _debug_line_cb, _equal_cb, _flat_cb, _flow, _map_cb, _obs_completed, _obs_disposed, _obs_error, _obs_next, _observer_parts, _observer_struct, _pred_cb, _retry_when_cb, _track, _with_fn
from .schedulers import default_scheduler

try:
    from types import GenericAlias as _alias
except ImportError:  # Python 3.8: no parameterised alias of a plain class
    def _alias(cls, item):
        return cls

class Observable:
    """An rx_observable: subscribe to it, or chain operators (each a thin call into the
    library returning a new Observable). Sources and arguments are kept by the library as
    needed, so intermediate Observables may be dropped."""

    def __class_getitem__(cls, item):
        """`Observable[int]` in annotations evaluated at run time: the generic alias (the type
        parameters are for type checkers, see the stubs)."""
        return _alias(cls, item)

    __slots__ = ("_h", "__weakref__")

    def __init__(self, ptr):
        self._h = ffi.gc(_checkp(ptr), lib.rx_release)

    @classmethod
    def _own(cls, ptr):
        o = cls.__new__(cls)
        o._h = ffi.gc(_checkp(ptr), lib.rx_release)
        return o

    def _src(self):
        h = self._h
        if h is None:
            raise ValueError("the Observable is closed")
        return h

    def close(self):
        """Releases the handle now (subscriptions made from it go on)."""
        with _close_lock:
            h, self._h = self._h, None
        if h is not None:
            ffi.release(h)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _wrap(self, ptr):
        return Observable._own(ptr)

    # ---- subscribing -----------------------------------------------------------------
    def subscribe(self, observer=None, on_next=None, on_error=None, on_completed=None,
                  on_disposed=None):
        """Subscribes; returns a Disposable (dispose it, or use it as a context manager).

        `observer` may be a callable (on_next) or an object with on_next / on_error /
        on_completed (a Subject works). Callbacks run on the thread that delivers the event.
        A stream error with no on_error is reported through sys.unraisablehook."""
        sub = _observer_parts(observer, on_next, on_error, on_completed, on_disposed)
        ctx = _put(sub)
        p = lib.rx_subscribe(self._src(), _observer_struct(sub, ctx))
        if p == NULL:
            _drop(ctx)  # no callback will ever run
            _checkp(p)
        _track(sub, p)
        return Disposable(p)

    def blocking_to_list(self, timeout=None):
        """All values once the stream ends (waits; on the main thread the main loop runs
        meanwhile). Raises RxError for a stream error, RxTimeoutError on time-out."""
        ok, r = _blocking(lib.rx_blocking_to_array, self._src(), timeout)
        if ok:
            return r
        del self  # the traceback must not keep the Observable alive
        raise r

    def blocking_last(self, timeout=None):
        """The last value once the stream ends (RxError ERROR_NO_ELEMENTS if empty)."""
        ok, r = _blocking(lib.rx_blocking_last, self._src(), timeout)
        if ok:
            return r
        del self  # the traceback must not keep the Observable alive
        raise r

    def blocking_first(self, timeout=None):
        """The first value (the subscription ends there; RxError ERROR_NO_ELEMENTS if empty)."""
        ok, r = _blocking(lib.rx_blocking_first, self._src(), timeout)
        if ok:
            return r
        del self  # the traceback must not keep the Observable alive
        raise r

    def blocking_single(self, timeout=None):
        """The only value (RxError ERROR_NO_ELEMENTS / ERROR_MORE_THAN_ONE_ELEMENT otherwise)."""
        ok, r = _blocking(lib.rx_blocking_single, self._src(), timeout)
        if ok:
            return r
        del self  # the traceback must not keep the Observable alive
        raise r

    def __aiter__(self):
        return _late.aiter(self)

    # ---- scheduling ------------------------------------------------------------------
    def subscribe_on(self, scheduler):
        """Subscribes to this on `scheduler`."""
        return self._wrap(lib.rx_subscribe_on(self._src(), scheduler.handle))

    def observe_on(self, scheduler):
        """Delivers the events on `scheduler` (in order, one at a time)."""
        return self._wrap(lib.rx_observe_on(self._src(), scheduler.handle))

    def observe_on_bounded(self, scheduler, capacity, policy="drop_oldest", on_dropped=None,
                           block_timeout=None):
        """observe_on through a queue of at most `capacity` values. `policy`: "drop_oldest",
        "drop_newest", "keep_latest" (one slot), "fail" (ERROR_OVERFLOW after the queued
        values) or "block" (the producer waits up to `block_timeout` seconds, then as "fail").
        on_dropped(value) runs on the producer's thread for each dropped value. The result's
        stats() returns the counters."""
        return _flow(lambda opts: lib.rx_observe_on_bounded(self._src(), scheduler.handle, opts),
                     capacity, policy, on_dropped, block_timeout)

    def pausable(self, pauser):
        """Values only while the latest value of `pauser` (an observable of bools) is True;
        starts paused, and values that arrive while paused are ignored."""
        return self._wrap(lib.rx_pausable(self._src(), as_observable(pauser)._src()))

    def pausable_buffered(self, pauser, capacity, policy="drop_oldest", on_dropped=None):
        """pausable, but values that arrive while paused wait (at most `capacity`, with the
        policies of observe_on_bounded but "block") and are delivered when it resumes. The
        result's stats() returns the counters."""
        p = as_observable(pauser)
        return _flow(lambda opts: lib.rx_pausable_buffered(self._src(), p._src(), opts),
                     capacity, policy, on_dropped, None)

    def rate_limit(self, n, window, scheduler, capacity=None, policy="drop_oldest", on_dropped=None):
        """At most `n` values per sliding `window` (seconds): the others wait and are delivered
        in order on `scheduler` as soon as the window allows. capacity None: an unbounded
        queue (nothing dropped); otherwise the policies of observe_on_bounded but "block".
        Completion and errors wait behind the queue. The result's stats() returns the
        counters."""
        if capacity is None:
            if on_dropped is not None:
                raise ValueError("on_dropped needs a capacity: an unbounded queue drops nothing")
            o = _late.BoundedObservable._own(lib.rx_rate_limit(self._src(), n, _ns(window, "window"), scheduler.handle, NULL))
            o.flow = (None, policy, on_dropped)
            return o
        return _flow(lambda opts: lib.rx_rate_limit(self._src(), n, _ns(window, "window"), scheduler.handle, opts),
                     capacity, policy, on_dropped, None)

    # ---- transform -------------------------------------------------------------------
    def map(self, fn):
        """fn(value) for each value."""
        return self._wrap(_with_fn(lib.rx_map, _map_cb, fn, self._src()))

    def compact_map(self, fn):
        """fn(x) for each value, dropping the values for which it returns None."""
        return self._wrap(_with_fn(lib.rx_compact_map, _compact_cb, fn, self._src()))

    def scan(self, fn, seed):
        """fn(acc, value) folded from `seed`: each accumulator."""
        with _Borrowed(seed) as s:
            return self._wrap(_with_fn(lib.rx_scan, _acc_cb, fn, self._src(), s))

    def reduce(self, fn, seed):
        """fn(acc, value) folded from `seed`: the final accumulator, with the completion."""
        with _Borrowed(seed) as s:
            return self._wrap(_with_fn(lib.rx_reduce, _acc_cb, fn, self._src(), s))

    def flat_map(self, fn, max_concurrent=0):
        """Merges fn(x) of every value; max_concurrent > 0: that many inner subscriptions at
        once at most, the others waiting in order."""
        if max_concurrent:
            make = lib.rx_flat_map_max
            return self._wrap(_with_fn(make, _flat_cb, fn, self._src(), max_concurrent))
        return self._wrap(_with_fn(lib.rx_flat_map, _flat_cb, fn, self._src()))

    def flat_map_latest(self, fn):
        """fn(value) -> an Observable; only the latest inner one is followed (switch_map)."""
        return self._wrap(_with_fn(lib.rx_flat_map_latest, _flat_cb, fn, self._src()))

    def flat_map_first(self, fn):
        """Like flat_map, one inner observable at a time: values that arrive while it is
        active are ignored (fn is not called for them)."""
        return self._wrap(_with_fn(lib.rx_flat_map_first, _flat_cb, fn, self._src()))

    def concat_map(self, fn):
        """fn(value) -> an Observable per value, subscribed one after the other."""
        return self._wrap(_with_fn(lib.rx_concat_map, _flat_cb, fn, self._src()))

    def buffer(self, count=0, span=None, scheduler=None):
        """Lists of values by count and/or time span (seconds)."""
        sched = scheduler if scheduler is not None else (default_scheduler() if span else None)
        return self._wrap(lib.rx_buffer(self._src(), _ns(span, "span") if span else 0, count,
                                        sched.handle if sched is not None else NULL))

    def window(self, count=0, span=None, scheduler=None):
        """Windows by count and/or time span (seconds): each value is an Observable of the
        values that arrive while it is open (hot: subscribe to it as it arrives)."""
        sched = scheduler if scheduler is not None else (default_scheduler() if span else None)
        return self._wrap(lib.rx_window(self._src(), _ns(span, "span") if span else 0, count,
                                        sched.handle if sched is not None else NULL))

    def to_list(self):
        """One list of every value, when the source completes (rx_to_array)."""
        return self._wrap(lib.rx_to_array(self._src()))

    def enumerated(self):
        """Each value as the list [index, value], the index counting from 0."""
        return self._wrap(lib.rx_enumerated(self._src()))

    def group_by(self, key_fn):
        """A GroupedObservable per new key of key_fn(x) (its .key), with that key's values:
        hot, so subscribe to a group in on_next to get the value that opened it. Keys compare
        by value: ints, floats (not NaN), bools, strs and bytes; any other key fails the
        stream with an RxError of code ERROR_TYPE. Groups keep the source subscribed while
        they have subscribers, even after the subscription to group_by is disposed."""
        return self._wrap(_with_fn(lib.rx_group_by, _map_cb, key_fn, self._src()))

    # ---- filter ----------------------------------------------------------------------
    def filter(self, predicate):
        """Only the values for which predicate(value) is true."""
        return self._wrap(_with_fn(lib.rx_filter, _pred_cb, predicate, self._src()))

    def take(self, n):
        """The first `n` values, then completion."""
        return self._wrap(lib.rx_take(self._src(), _count(n, "n")))

    def skip(self, n):
        """Drops the first `n` values."""
        return self._wrap(lib.rx_skip(self._src(), _count(n, "n")))

    def take_while(self, predicate, inclusive=False):
        """Values while predicate holds; inclusive: also the value that ends it."""
        make = lib.rx_take_while_inclusive if inclusive else lib.rx_take_while
        return self._wrap(_with_fn(make, _pred_cb, predicate, self._src()))

    def skip_while(self, predicate):
        """Drops values while predicate(value) is true."""
        return self._wrap(_with_fn(lib.rx_skip_while, _pred_cb, predicate, self._src()))

    def take_until(self, other):
        """Values until `other` emits, then completion."""
        return self._wrap(lib.rx_take_until(self._src(), as_observable(other)._src()))

    def take_until_predicate(self, predicate, inclusive=False):
        """Values until predicate holds for one; inclusive: with that value."""
        make = lib.rx_take_until_predicate
        return self._wrap(_with_fn(make, _pred_cb, predicate, self._src(), bool(inclusive)))

    def skip_until(self, other):
        """Drops values until `other` emits."""
        return self._wrap(lib.rx_skip_until(self._src(), as_observable(other)._src()))

    def skip_duration(self, duetime, scheduler=None):
        """Drops the elements of the first duetime (seconds or a timedelta) after subscribing."""
        return self._wrap(lib.rx_skip_duration(self._src(), _ns(duetime, "duetime"), _sched(scheduler)))

    def take_duration(self, duetime, scheduler=None):
        """Mirrors the source for duetime (seconds or a timedelta) after subscribing, then completes."""
        return self._wrap(lib.rx_take_duration(self._src(), _ns(duetime, "duetime"), _sched(scheduler)))

    def take_last(self, n):
        """The last `n` values, with the completion."""
        return self._wrap(lib.rx_take_last(self._src(), _count(n, "n")))

    def skip_last(self, n):
        """All but the last `n` values: each value is emitted once `n` newer ones arrived."""
        return self._wrap(lib.rx_skip_last(self._src(), _count(n, "n")))

    def distinct_until_changed(self, comparer=None):
        """Drops a value equal to the previous one (comparer(a, b), or the library's
        value equality)."""
        if comparer is None:
            return self._wrap(lib.rx_distinct_until_changed(self._src(), NULL, NULL, NULL))
        return self._wrap(_with_fn(lib.rx_distinct_until_changed, _equal_cb, comparer, self._src()))

    def element_at(self, index):
        """Only the value at `index` (ERROR_ARGUMENT_OUT_OF_RANGE if the stream is shorter)."""
        return self._wrap(lib.rx_element_at(self._src(), _count(index, "index")))

    def first(self):
        """The first value, then completion (ERROR_NO_ELEMENTS if empty)."""
        return self._wrap(lib.rx_first(self._src()))

    def last(self):
        """The last value, with the completion (ERROR_NO_ELEMENTS if empty)."""
        return self._wrap(lib.rx_last(self._src()))

    def single(self):
        """The only value (RxError ERROR_NO_ELEMENTS if none, ERROR_MORE_THAN_ONE_ELEMENT at a
        second one)."""
        return self._wrap(lib.rx_single(self._src()))

    def ignore_elements(self):
        """Only the terminal event."""
        return self._wrap(lib.rx_ignore_elements(self._src()))

    def default_if_empty(self, value):
        """The source's values, or `value` alone if it completes empty."""
        with _Borrowed(value) as v:
            return self._wrap(lib.rx_default_if_empty(self._src(), v))

    def switch_if_empty(self, fallback):
        """The source's values, or `fallback`'s if it completes empty."""
        return self._wrap(lib.rx_switch_if_empty(self._src(), as_observable(fallback)._src()))

    def debounce(self, duetime, scheduler=None):
        """A value once `duetime` seconds passed without a newer one."""
        return self._wrap(lib.rx_debounce(self._src(), _ns(duetime, "duetime"), _sched(scheduler)))

    def throttle(self, duetime, latest=True, scheduler=None):
        """At most one value per `duetime` seconds (latest=True: the latest one at
        the window's end too)."""
        return self._wrap(lib.rx_throttle(self._src(), _ns(duetime, "duetime"), bool(latest), _sched(scheduler)))

    def sample(self, sampler):
        """The latest value each time `sampler` emits (if a new one came)."""
        return self._wrap(lib.rx_sample(self._src(), as_observable(sampler)._src()))

    # ---- combine ---------------------------------------------------------------------
    def merge(self, *others):
        """The values of this and `others`, as they come."""
        return _late.merge(self, *others)

    def concat(self, *others):
        """This, then each of `others` in turn, each subscribed when the previous completes."""
        return _late.concat(self, *others)

    def combine_latest(self, *others, selector=None):
        """The latest values of this and `others` (a list, or selector(*values))
        each time one emits, once all have."""
        return _late.combine_latest(self, *others, selector=selector)

    def zip(self, *others, selector=None):
        """Values of this and `others` paired by index (a list, or selector(*values))."""
        return _late.zip_(self, *others, selector=selector)

    def with_latest_from(self, other, selector=None):
        """Each value with the latest of `other` (a list, or selector(value, latest))."""
        o = as_observable(other)
        if selector is None:
            return self._wrap(lib.rx_with_latest_from(self._src(), o._src(), NULL, NULL, NULL))
        return self._wrap(_with_fn(lib.rx_with_latest_from, _combine_cb, selector, self._src(), o._src()))

    def start_with(self, *values):
        """`values` first, then this."""
        vals = [_from_py(x) for x in values]
        try:
            arr = ffi.new("rx_value[]", vals) if vals else NULL
            return self._wrap(lib.rx_start_with(self._src(), arr, len(vals)))
        finally:
            for v in vals:
                _release(v)

    def switch_latest(self):
        """For an Observable of Observables: follows only the latest inner one."""
        return self._wrap(lib.rx_switch_latest(self._src()))

    def amb(self, *others):
        """The first of this and `others` to emit wins; the rest are disposed."""
        return _late.amb(self, *others)

    # ---- errors ----------------------------------------------------------------------
    def catch(self, handler):
        """On error, continues with handler(error) (an Observable; None keeps the error),
        or with handler itself when it is an Observable."""
        if isinstance(handler, Observable):
            return self._wrap(lib.rx_catch_with(self._src(), handler._src()))
        return self._wrap(_with_fn(lib.rx_catch, _catch_cb, handler, self._src()))

    def catch_and_return(self, value):
        """On error, emits `value` and completes."""
        with _Borrowed(value) as v:
            return self._wrap(lib.rx_catch_and_return(self._src(), v))

    def retry(self, max_attempts=0):
        """At most max_attempts subscriptions in all (0: forever)."""
        return self._wrap(lib.rx_retry(self._src(), _count(max_attempts, "max_attempts")))

    def retry_when(self, handler):
        """Resubscribes when the Observable handler(errors) emits; errors emits each error as
        a Notification. Its completion or error ends the stream (see rx_retry_when)."""
        return self._wrap(_with_fn(lib.rx_retry_when, _retry_when_cb, handler, self._src()))

    def timeout(self, duetime, scheduler=None):
        """Fails with ERROR_TIMEOUT when `duetime` seconds pass without an event."""
        return self._wrap(lib.rx_timeout(self._src(), _ns(duetime, "duetime"), _sched(scheduler)))

    def timeout_to(self, duetime, fallback, scheduler=None):
        """timeout, but switches to fallback (an Observable) instead of failing."""
        return self._wrap(lib.rx_timeout_to(self._src(), _ns(duetime, "duetime"), as_observable(fallback)._src(),
                                            _sched(scheduler)))

    def retry_backoff(self, initial_delay, multiplier=2.0, max_delay=0, max_attempts=0, jitter=0.0,
                      seed=0, reset_on_next=False, scheduler=None):
        """Resubscribes after an error, the n-th time after initial_delay * multiplier**(n-1)
        seconds (at most max_delay; 0: no limit), shortened by up to the share `jitter` (drawn
        from `seed`, see rx_backoff_options); max_attempts subscriptions in all (0: forever)."""
        o = ffi.new("rx_backoff_options *")
        o.struct_size = ffi.sizeof("rx_backoff_options")
        o.initial_delay_ns = _ns(initial_delay, "initial_delay")
        o.multiplier = multiplier
        o.max_delay_ns = _ns(max_delay, "max_delay")
        o.max_attempts = max_attempts
        o.jitter = jitter
        o.seed = seed
        o.reset_on_next = bool(reset_on_next)
        return self._wrap(lib.rx_retry_backoff(self._src(), o, _sched(scheduler)))

    # ---- utility ---------------------------------------------------------------------
    def do(self, observer=None, on_next=None, on_error=None, on_completed=None, on_disposed=None):
        """A tap: its callbacks see every event of every subscription first."""
        sub = _observer_parts(observer, on_next, on_error, on_completed, on_disposed)
        ctx = _put(sub)
        p = lib.rx_do(self._src(), _observer_struct(sub, ctx, tap=True), _free_cb)
        if p == NULL:
            _drop(ctx)
            _checkp(p)
        return self._wrap(p)

    do_action = do

    def debug(self, label=None, fn=None):
        """RxSwift's debug: a line "<seconds>.<us> tid <thread> <label> -> <event>" for every
        subscription, event and disposal, given to fn(line) as a str, or written to the C
        library's stderr when fn is None."""
        lab = _label(label)
        if fn is None:
            return self._wrap(lib.rx_debug(self._src(), lab, NULL))
        ctx = _put(fn)
        p = lib.rx_debug_callback(self._src(), lab, _debug_line_cb, ctx, _free_cb)
        if p == NULL:
            _drop(ctx)
            _checkp(p)
        return self._wrap(p)

    def do_hooks(self, on_next=None, after_next=None, on_error=None, after_error=None, on_completed=None,
                 after_completed=None, on_subscribe=None, on_subscribed=None, on_dispose=None):
        """RxSwift's do with every hook: on_* before the subscriber sees the event, after_*
        after it; on_subscribe / on_subscribed around the source's subscription; on_dispose
        once per subscription, after the source's subscription was disposed."""
        fns = (on_next, after_next, on_error, after_error, on_completed, after_completed, on_subscribe,
               on_subscribed, on_dispose)
        ctx = _put(fns)
        hooks = ffi.new("rx_do_hooks *", dict(
            {name: (cb if fn is not None else NULL) for name, fn, cb in zip(_HOOK_NAMES, fns, _HOOK_CALLBACKS)},
            struct_size=ffi.sizeof("rx_do_hooks"), ctx=ctx))
        p = lib.rx_do_with_hooks(self._src(), hooks, _free_cb)
        if p == NULL:
            _drop(ctx)
            _checkp(p)
        return self._wrap(p)

    def delay(self, duetime, scheduler=None):
        """Every event, `duetime` seconds later (errors too)."""
        return self._wrap(lib.rx_delay(self._src(), _ns(duetime, "duetime"), _sched(scheduler)))

    def delay_subscription(self, duetime, scheduler=None):
        """Subscribes to this `duetime` seconds after being subscribed to."""
        return self._wrap(lib.rx_delay_subscription(self._src(), _ns(duetime, "duetime"), _sched(scheduler)))

    def timestamp(self, scheduler=None):
        """Each value as the tuple (time, value): the scheduler's clock in seconds when it arrived."""
        return self._wrap(lib.rx_timestamp(self._src(), _sched(scheduler))).map(lambda p: (p[0] / 1e9, p[1]))

    def materialize(self):
        """Each event as a Notification value, then completion."""
        return self._wrap(lib.rx_materialize(self._src()))

    def dematerialize(self):
        """The events described by Notification values (the inverse of materialize)."""
        return self._wrap(lib.rx_dematerialize(self._src()))

    # ---- sharing ---------------------------------------------------------------------
    def share(self):
        """One shared subscription to this while anyone is subscribed (publish().ref_count())."""
        return self._wrap(lib.rx_share(self._src()))

    def share_replay(self, n):
        """share, replaying the last `n` values to late subscribers."""
        return self._wrap(lib.rx_share_replay(self._src(), _count(n, "n")))

    def publish(self):
        """A ConnectableObservable through a PublishSubject (subscribes on connect())."""
        return _late.ConnectableObservable._own(lib.rx_publish(self._src()))

    def replay(self, n=0):
        """A ConnectableObservable replaying the last `n` values to late subscribers."""
        return _late.ConnectableObservable._own(lib.rx_replay(self._src(), _count(n, "n")))

    def replay_all(self):
        """A ConnectableObservable replaying every value to late subscribers."""
        return _late.ConnectableObservable._own(lib.rx_replay_all(self._src()))

    def multicast(self, subject):
        """Connectable through `subject` (a Subject, not a relay), the same for every connection."""
        return _late.ConnectableObservable._own(lib.rx_multicast(self._src(), subject._subject()))

    def share_forever(self, n=0):
        """share_replay(n) whose subject outlives the connection: late subscribers after the
        end get the replay and the terminal event, without a new subscription of the source."""
        return self._wrap(lib.rx_share_forever(self._src(), n))

    # ---- traits ----------------------------------------------------------------------
    def as_driver(self, on_error_value=None):
        """A Driver: never fails (an error becomes `on_error_value`, then
        completion), delivers on the main scheduler, shares its subscription."""
        with _Borrowed(on_error_value) as v:
            return _late.Driver._own(lib.rx_as_driver(self._src(), v))

    def as_signal(self, on_error_value=None):
        """A driver without the replay: late subscribers see only later values."""
        with _Borrowed(on_error_value) as v:
            return _late.Signal._own(lib.rx_as_signal(self._src(), v))

    def as_single(self):
        """Exactly one element, emitted with the completion (RxError ERROR_NO_ELEMENTS /
        ERROR_MORE_THAN_ONE_ELEMENT otherwise)."""
        return self._wrap(lib.rx_as_single(self._src()))

    def as_maybe(self):
        """At most one element, emitted with the completion (ERROR_MORE_THAN_ONE_ELEMENT)."""
        return self._wrap(lib.rx_as_maybe(self._src()))

    def as_completable(self):
        """Only the terminal event (an element is ERROR_UNEXPECTED_ELEMENT)."""
        return self._wrap(lib.rx_as_completable(self._src()))

    def subscribe_single(self, on_success=None, on_error=None, on_disposed=None):
        """Subscribes as a Single: on_success(value) or on_error(error); a Disposable."""
        sub = _Sub(on_success, on_error, None, on_disposed)
        return _subscribe_trait(sub, lambda ctx: lib.rx_subscribe_single(
            self._src(), _obs_next if on_success is not None else NULL, _obs_error, ctx, _obs_disposed))

    def subscribe_maybe(self, on_success=None, on_error=None, on_completed=None, on_disposed=None):
        """Subscribes as a Maybe: on_success(value), on_completed() when empty, or
        on_error(error); a Disposable."""
        sub = _Sub(on_success, on_error, on_completed, on_disposed)
        return _subscribe_trait(sub, lambda ctx: lib.rx_subscribe_maybe(
            self._src(), _obs_next if on_success is not None else NULL, _obs_error,
            _obs_completed if on_completed is not None else NULL, ctx, _obs_disposed))

    def subscribe_completable(self, on_completed=None, on_error=None, on_disposed=None):
        """Subscribes as a Completable: on_completed() or on_error(error); a Disposable."""
        sub = _Sub(None, on_error, on_completed, on_disposed)
        return _subscribe_trait(sub, lambda ctx: lib.rx_subscribe_completable(
            self._src(), _obs_completed if on_completed is not None else NULL, _obs_error, ctx,
            _obs_disposed))

    def pipe(self, *operators):
        """obs.pipe(f, g) is g(f(obs)), for reusable operator chains."""
        o = self
        for op in operators:
            o = op(o)
        return o


def _sched(scheduler):
    return (scheduler if scheduler is not None else default_scheduler()).handle



def as_observable(x):
    """x itself if an Observable, a Subject's observable, else of(*x) for an iterable."""
    if isinstance(x, Observable):
        return x
    if isinstance(x, (list, tuple)):
        return _late.of(*x)
    raise TypeError("expected an Observable, got %r" % type(x).__name__)


_late.Observable, _late.as_observable = Observable, as_observable
