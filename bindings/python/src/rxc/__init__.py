"""rxc: Reactive Extensions for Python over librxc (cffi ABI mode; no compiler needed).

    >>> import rxc
    >>> rxc.range(0, 10).map(lambda x: x * x).filter(lambda x: x % 2).blocking_to_list()
    [1, 9, 25, 49, 81]

See the package README for values, lifetimes, threads and asyncio.
"""
from ._ffi import ffi, lib, library_path, mode
from ._core import (
    ERROR_ARGUMENT_OUT_OF_RANGE, ERROR_DISPOSED, ERROR_MORE_THAN_ONE_ELEMENT, ERROR_NO_ELEMENTS,
    ERROR_OVERFLOW, ERROR_PYTHON, ERROR_TIMEOUT, ERROR_TYPE, ERROR_UNEXPECTED_ELEMENT, ERROR_UNKNOWN,
    ERROR_USER,
    AsyncSubject, BehaviorRelay, BehaviorSubject, BoundedObservable, CompositeDisposable, ConcurrentScheduler,
    ConnectableObservable, Disposable, DisposeBag, DisposedError, Driver, Emitter, GroupedObservable, HandleError,
    InvalidArgumentError, InvalidStateError, NewThreadScheduler, Notification, Observable,
    OperationQueueScheduler, PublishRelay, PublishSubject, ReplayRelay, ReplaySubject, RxError, RxStatusError,
    RxTimeoutError, Scheduler, SerialDisposable, SerialScheduler, Signal, SingleAssignmentDisposable,
    Subject, TestScheduler, amb, as_observable, combine_latest, concat, create,
    current_thread_scheduler, custom_scheduler, error_traceback, default_scheduler, defer, empty, from_iterable,
    generate, immediate_scheduler, interval, just, last_error, live_callbacks, live_objects,
    main_drain, main_fd, main_run, main_run_for, main_scheduler, main_stop, merge, never, of,
    range_ as range, repeat_element, return_value, throw, timer, using, version, zip_ as zip,
)
from ._runloop import RunLoop
from . import operators
from .operators import pipe

__version__ = "0.4.0"

__all__ = [n for n in dir() if not n.startswith("_")]
