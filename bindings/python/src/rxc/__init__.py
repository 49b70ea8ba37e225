"""rxc: Reactive Extensions for Python over librxc (cffi, with a compiled fast path where
there was a C compiler at install time).

    >>> import rxc
    >>> rxc.range(0, 10).map(lambda x: x * x).filter(lambda x: x % 2).blocking_to_list()
    [1, 9, 25, 49, 81]

See the package README for values, lifetimes, threads and asyncio.
"""
import datetime as _datetime
from typing import Union as _Union

from ._ffi import ffi, lib, library_path, mode
from .errors import DisposedError, ERROR_ARGUMENT_OUT_OF_RANGE, ERROR_DISPOSED, ERROR_MORE_THAN_ONE_ELEMENT, ERROR_NO_ELEMENTS, ERROR_OVERFLOW, ERROR_PYTHON, ERROR_TIMEOUT, ERROR_TYPE, ERROR_UNEXPECTED_ELEMENT, ERROR_UNKNOWN, ERROR_USER, HandleError, InvalidArgumentError, InvalidStateError, RxError, RxStatusError, RxTimeoutError, error_traceback, last_error
from ._values import Notification, live_callbacks
from .disposables import CompositeDisposable, Disposable, DisposeBag, SerialDisposable, SingleAssignmentDisposable
from .schedulers import ConcurrentScheduler, NewThreadScheduler, OperationQueueScheduler, Scheduler, SerialScheduler, current_thread_scheduler, custom_scheduler, default_scheduler, immediate_scheduler, main_drain, main_fd, main_run, main_run_for, main_scheduler, main_stop
from .observable import Observable, as_observable
from .observable_kinds import BoundedObservable, ConnectableObservable, Driver, Emitter, GroupedObservable, Signal
from .subjects import AsyncSubject, BehaviorRelay, BehaviorSubject, PublishRelay, PublishSubject, ReplayRelay, ReplaySubject, Subject
from .creation import amb, combine_latest, concat, create, defer, empty, from_iterable, generate, interval, just, merge, never, of, range_ as range, repeat_element, return_value, throw, timer, using, zip_ as zip
from .testing import TestScheduler
from ._runtime import live_objects, version
from ._runloop import RunLoop
from . import aio, operators
from .operators import pipe

# the aliases the signatures use (the stubs declare the same)
Seconds = _Union[int, float, _datetime.timedelta]  # a duration in seconds
Policy = str  # an overflow policy: "drop_oldest", "drop_newest", "keep_latest", "fail", "block"

__version__ = "0.4.0"

__all__ = [n for n in dir() if not n.startswith("_")]
