"""Operators as functions, for `Observable.pipe` and `rxc.pipe`, as in RxPY:

    >>> import rxc
    >>> from rxc import operators as ops
    >>> rxc.range(0, 10).pipe(ops.map(lambda x: x * x), ops.filter(lambda x: x % 2)).blocking_to_list()
    [1, 9, 25, 49, 81]

Each `ops.NAME(*args)` returns a function of a source Observable that calls
`source.NAME(*args)`; see that method for the semantics.
"""
from typing import Any, Callable

from .observable import Observable

#: What every function here returns: an operator, from a source Observable to another.
Operator = Callable[[Observable], Observable]


def subscribe_on(scheduler: Any) -> Operator:
    """Operator form of Observable.subscribe_on."""
    return lambda source: source.subscribe_on(scheduler)


def observe_on(scheduler: Any) -> Operator:
    """Operator form of Observable.observe_on."""
    return lambda source: source.observe_on(scheduler)


def observe_on_bounded(
        scheduler: Any, capacity: Any, policy: Any = 'drop_oldest', on_dropped: Any = None, block_timeout: Any = None) -> Operator:
    """Operator form of Observable.observe_on_bounded: observe_on through a queue of at most `capacity` values."""
    return lambda source: source.observe_on_bounded(scheduler, capacity, policy, on_dropped, block_timeout)


def pausable(pauser: Any) -> Operator:
    """Operator form of Observable.pausable."""
    return lambda source: source.pausable(pauser)


def pausable_buffered(
        pauser: Any, capacity: Any, policy: Any = 'drop_oldest', on_dropped: Any = None) -> Operator:
    """Operator form of Observable.pausable_buffered."""
    return lambda source: source.pausable_buffered(pauser, capacity, policy, on_dropped)


def rate_limit(
        n: Any, window: Any, scheduler: Any, capacity: Any = None, policy: Any = 'drop_oldest', on_dropped: Any = None) -> Operator:
    """Operator form of Observable.rate_limit."""
    return lambda source: source.rate_limit(n, window, scheduler, capacity, policy, on_dropped)


def map(fn: Any) -> Operator:
    """Operator form of Observable.map."""
    return lambda source: source.map(fn)


def compact_map(fn: Any) -> Operator:
    """Operator form of Observable.compact_map."""
    return lambda source: source.compact_map(fn)


def scan(fn: Any, seed: Any) -> Operator:
    """Operator form of Observable.scan."""
    return lambda source: source.scan(fn, seed)


def reduce(fn: Any, seed: Any) -> Operator:
    """Operator form of Observable.reduce."""
    return lambda source: source.reduce(fn, seed)


def flat_map(fn: Any, max_concurrent: Any = 0) -> Operator:
    """Operator form of Observable.flat_map."""
    return lambda source: source.flat_map(fn, max_concurrent)


def flat_map_latest(fn: Any) -> Operator:
    """Operator form of Observable.flat_map_latest."""
    return lambda source: source.flat_map_latest(fn)


def flat_map_first(fn: Any) -> Operator:
    """Operator form of Observable.flat_map_first."""
    return lambda source: source.flat_map_first(fn)


def concat_map(fn: Any) -> Operator:
    """Operator form of Observable.concat_map."""
    return lambda source: source.concat_map(fn)


def buffer(count: Any = 0, span: Any = None, scheduler: Any = None) -> Operator:
    """Operator form of Observable.buffer."""
    return lambda source: source.buffer(count, span, scheduler)


def window(count: Any = 0, span: Any = None, scheduler: Any = None) -> Operator:
    """Operator form of Observable.window."""
    return lambda source: source.window(count, span, scheduler)


def to_list() -> Operator:
    """Operator form of Observable.to_list."""
    return lambda source: source.to_list()


def enumerated() -> Operator:
    """Operator form of Observable.enumerated."""
    return lambda source: source.enumerated()


def group_by(key_fn: Any) -> Operator:
    """Operator form of Observable.group_by."""
    return lambda source: source.group_by(key_fn)


def filter(predicate: Any) -> Operator:
    """Operator form of Observable.filter."""
    return lambda source: source.filter(predicate)


def take(n: Any) -> Operator:
    """Operator form of Observable.take."""
    return lambda source: source.take(n)


def skip(n: Any) -> Operator:
    """Operator form of Observable.skip."""
    return lambda source: source.skip(n)


def take_while(predicate: Any, inclusive: Any = False) -> Operator:
    """Operator form of Observable.take_while."""
    return lambda source: source.take_while(predicate, inclusive)


def skip_while(predicate: Any) -> Operator:
    """Operator form of Observable.skip_while."""
    return lambda source: source.skip_while(predicate)


def take_until(other: Any) -> Operator:
    """Operator form of Observable.take_until."""
    return lambda source: source.take_until(other)


def take_until_predicate(predicate: Any, inclusive: Any = False) -> Operator:
    """Operator form of Observable.take_until_predicate."""
    return lambda source: source.take_until_predicate(predicate, inclusive)


def skip_until(other: Any) -> Operator:
    """Operator form of Observable.skip_until."""
    return lambda source: source.skip_until(other)


def skip_duration(duetime: Any, scheduler: Any = None) -> Operator:
    """Operator form of Observable.skip_duration."""
    return lambda source: source.skip_duration(duetime, scheduler)


def take_duration(duetime: Any, scheduler: Any = None) -> Operator:
    """Operator form of Observable.take_duration."""
    return lambda source: source.take_duration(duetime, scheduler)


def take_last(n: Any) -> Operator:
    """Operator form of Observable.take_last."""
    return lambda source: source.take_last(n)


def skip_last(n: Any) -> Operator:
    """Operator form of Observable.skip_last."""
    return lambda source: source.skip_last(n)


def distinct_until_changed(comparer: Any = None) -> Operator:
    """Operator form of Observable.distinct_until_changed."""
    return lambda source: source.distinct_until_changed(comparer)


def element_at(index: Any) -> Operator:
    """Operator form of Observable.element_at."""
    return lambda source: source.element_at(index)


def first() -> Operator:
    """Operator form of Observable.first."""
    return lambda source: source.first()


def last() -> Operator:
    """Operator form of Observable.last."""
    return lambda source: source.last()


def single() -> Operator:
    """Operator form of Observable.single."""
    return lambda source: source.single()


def ignore_elements() -> Operator:
    """Operator form of Observable.ignore_elements."""
    return lambda source: source.ignore_elements()


def default_if_empty(value: Any) -> Operator:
    """Operator form of Observable.default_if_empty."""
    return lambda source: source.default_if_empty(value)


def switch_if_empty(fallback: Any) -> Operator:
    """Operator form of Observable.switch_if_empty."""
    return lambda source: source.switch_if_empty(fallback)


def debounce(duetime: Any, scheduler: Any = None) -> Operator:
    """Operator form of Observable.debounce."""
    return lambda source: source.debounce(duetime, scheduler)


def throttle(duetime: Any, latest: Any = True, scheduler: Any = None) -> Operator:
    """Operator form of Observable.throttle."""
    return lambda source: source.throttle(duetime, latest, scheduler)


def sample(sampler: Any) -> Operator:
    """Operator form of Observable.sample."""
    return lambda source: source.sample(sampler)


def merge(*others: Any) -> Operator:
    """Operator form of Observable.merge."""
    return lambda source: source.merge(*others)


def concat(*others: Any) -> Operator:
    """Operator form of Observable.concat."""
    return lambda source: source.concat(*others)


def combine_latest(*others: Any, selector: Any = None) -> Operator:
    """Operator form of Observable.combine_latest."""
    return lambda source: source.combine_latest(*others, selector=selector)


def zip(*others: Any, selector: Any = None) -> Operator:
    """Operator form of Observable.zip."""
    return lambda source: source.zip(*others, selector=selector)


def with_latest_from(other: Any, selector: Any = None) -> Operator:
    """Operator form of Observable.with_latest_from."""
    return lambda source: source.with_latest_from(other, selector)


def start_with(*values: Any) -> Operator:
    """Operator form of Observable.start_with."""
    return lambda source: source.start_with(*values)


def switch_latest() -> Operator:
    """Operator form of Observable.switch_latest."""
    return lambda source: source.switch_latest()


def amb(*others: Any) -> Operator:
    """Operator form of Observable.amb."""
    return lambda source: source.amb(*others)


def catch(handler: Any) -> Operator:
    """Operator form of Observable.catch."""
    return lambda source: source.catch(handler)


def catch_and_return(value: Any) -> Operator:
    """Operator form of Observable.catch_and_return."""
    return lambda source: source.catch_and_return(value)


def retry(max_attempts: Any = 0) -> Operator:
    """Operator form of Observable.retry."""
    return lambda source: source.retry(max_attempts)


def retry_when(handler: Any) -> Operator:
    """Operator form of Observable.retry_when."""
    return lambda source: source.retry_when(handler)


def timeout(duetime: Any, scheduler: Any = None) -> Operator:
    """Operator form of Observable.timeout."""
    return lambda source: source.timeout(duetime, scheduler)


def timeout_to(duetime: Any, fallback: Any, scheduler: Any = None) -> Operator:
    """Operator form of Observable.timeout_to."""
    return lambda source: source.timeout_to(duetime, fallback, scheduler)


def retry_backoff(
        initial_delay: Any, multiplier: Any = 2.0, max_delay: Any = 0, max_attempts: Any = 0, jitter: Any = 0.0, seed: Any = 0, reset_on_next: Any = False, scheduler: Any = None) -> Operator:
    """Operator form of Observable.retry_backoff."""
    return lambda source: source.retry_backoff(initial_delay, multiplier, max_delay, max_attempts, jitter, seed, reset_on_next, scheduler)


def do(
        observer: Any = None, on_next: Any = None, on_error: Any = None, on_completed: Any = None, on_disposed: Any = None) -> Operator:
    """Operator form of Observable.do."""
    return lambda source: source.do(observer, on_next, on_error, on_completed, on_disposed)


def do_action(
        observer: Any = None, on_next: Any = None, on_error: Any = None, on_completed: Any = None, on_disposed: Any = None) -> Operator:
    """Operator form of Observable.do_action."""
    return lambda source: source.do_action(observer, on_next, on_error, on_completed, on_disposed)


def debug(label: Any = None, fn: Any = None) -> Operator:
    """Operator form of Observable.debug."""
    return lambda source: source.debug(label, fn)


def do_hooks(
        on_next: Any = None, after_next: Any = None, on_error: Any = None, after_error: Any = None, on_completed: Any = None, after_completed: Any = None, on_subscribe: Any = None, on_subscribed: Any = None, on_dispose: Any = None) -> Operator:
    """Operator form of Observable.do_hooks."""
    return lambda source: source.do_hooks(on_next, after_next, on_error, after_error, on_completed, after_completed, on_subscribe, on_subscribed, on_dispose)


def delay(duetime: Any, scheduler: Any = None) -> Operator:
    """Operator form of Observable.delay."""
    return lambda source: source.delay(duetime, scheduler)


def delay_subscription(duetime: Any, scheduler: Any = None) -> Operator:
    """Operator form of Observable.delay_subscription."""
    return lambda source: source.delay_subscription(duetime, scheduler)


def timestamp(scheduler: Any = None) -> Operator:
    """Operator form of Observable.timestamp."""
    return lambda source: source.timestamp(scheduler)


def materialize() -> Operator:
    """Operator form of Observable.materialize."""
    return lambda source: source.materialize()


def dematerialize() -> Operator:
    """Operator form of Observable.dematerialize."""
    return lambda source: source.dematerialize()


def share() -> Operator:
    """Operator form of Observable.share."""
    return lambda source: source.share()


def share_replay(n: Any) -> Operator:
    """Operator form of Observable.share_replay."""
    return lambda source: source.share_replay(n)


def publish() -> Operator:
    """Operator form of Observable.publish."""
    return lambda source: source.publish()


def replay(n: Any = 0) -> Operator:
    """Operator form of Observable.replay."""
    return lambda source: source.replay(n)


def replay_all() -> Operator:
    """Operator form of Observable.replay_all."""
    return lambda source: source.replay_all()


def multicast(subject: Any) -> Operator:
    """Operator form of Observable.multicast."""
    return lambda source: source.multicast(subject)


def share_forever(n: Any = 0) -> Operator:
    """Operator form of Observable.share_forever."""
    return lambda source: source.share_forever(n)


def as_driver(on_error_value: Any = None) -> Operator:
    """Operator form of Observable.as_driver."""
    return lambda source: source.as_driver(on_error_value)


def as_signal(on_error_value: Any = None) -> Operator:
    """Operator form of Observable.as_signal."""
    return lambda source: source.as_signal(on_error_value)


def as_single() -> Operator:
    """Operator form of Observable.as_single."""
    return lambda source: source.as_single()


def as_maybe() -> Operator:
    """Operator form of Observable.as_maybe."""
    return lambda source: source.as_maybe()


def as_completable() -> Operator:
    """Operator form of Observable.as_completable."""
    return lambda source: source.as_completable()


def pipe(*operators: Operator) -> Operator:
    """The composition of operators, left to right: pipe(f, g)(source) is g(f(source))."""
    def composed(source: Observable) -> Observable:
        for op in operators:
            source = op(source)
        return source
    return composed
