"""Schedulers: the library's kinds, custom schedulers made of Python functions, the shared
default scheduler and the main loop."""
import threading

from ._ffi import ffi, lib
from .errors import _check, _checkp, _unraisable
from ._values import NULL, _drop, _free_cb, _from_ctx, _label, _ns, _put
from .disposables import Disposable, _Handle, _action_cb, _close_lock, _recursive_cb
from ._values import _Scheduled
from ._callbacks import _disposable_out, _scheduled_free_cb, _track

# --------------------------------------------------------------------------------------
# Schedulers
# --------------------------------------------------------------------------------------


class Scheduler(_Handle):
    """An rx_scheduler. Durations are in seconds (int, float or timedelta)."""

    __slots__ = ()

    @classmethod
    def _own(cls, ptr):
        s = cls.__new__(cls)
        _Handle.__init__(s, _checkp(ptr))
        return s

    def _schedule(self, make, action, *args, cb=_action_cb):
        if not callable(action):
            raise TypeError("expected a callable")
        job = _Scheduled(action)
        ctx = _put(job)
        p = make(self.handle, *args, cb, ctx, _scheduled_free_cb)
        if p == NULL:
            _drop(ctx)
            _checkp(p)
        _track(job, p)
        return Disposable(p)

    def schedule(self, action):
        """Runs action() on the scheduler; dispose the result to cancel it if not started."""
        return self._schedule(lib.rx_schedule, action)

    def schedule_after(self, delay, action):
        """Runs action() after `delay` seconds; a Disposable that cancels it."""
        return self._schedule(lib.rx_schedule_after, action, _ns(delay, "delay"))

    def schedule_recursive(self, action):
        """Runs action(recursion) on the scheduler; recursion.recurse() or
        recursion.recurse_after(delay) runs it again. Dispose the result to cancel the chain."""
        return self._schedule(lib.rx_schedule_recursive, action, cb=_recursive_cb)

    def schedule_periodic(self, period, action, start_after=None):
        """Runs action() every `period` seconds (first after `start_after`, default
        `period`); a Disposable that stops it."""
        return self._schedule(lib.rx_schedule_periodic, action,
                              _ns(period if start_after is None else start_after, "start_after"), _ns(period, "period"))

    def now_ns(self):
        """The scheduler's clock, in nanoseconds."""
        return lib.rx_scheduler_now_ns(self.handle)

    def now(self):
        """The scheduler's clock in seconds (monotonic, or virtual for a test scheduler)."""
        return self.now_ns() / 1e9

    @property
    def is_serial(self):
        """Whether actions run one at a time, in order."""
        return bool(lib.rx_scheduler_is_serial(self.handle))


class _Run:
    """The work a custom scheduler is given: call it once (from any thread) to run it."""

    __slots__ = ("_action", "_ctx", "__weakref__")

    def __init__(self, action, ctx):
        self._action, self._ctx = action, ctx

    def __call__(self):
        with _close_lock:
            a, self._action = self._action, None
        if a is not None:
            a(self._ctx)


class _Custom:
    __slots__ = ("schedule", "schedule_after", "now")

    def __init__(self, schedule, schedule_after, now):
        self.schedule, self.schedule_after, self.now = schedule, schedule_after, now


def _custom_scheduled(run, r):
    try:
        return _disposable_out(r)
    except BaseException:
        _unraisable("Exception ignored in an rxc custom scheduler's result", r)
        return NULL


@ffi.callback("rx_disposable *(void *, rx_action_fn, void *)")
def _custom_schedule(ctx, action, action_ctx):
    c = _from_ctx(ctx)
    run = _Run(action, action_ctx)
    try:
        r = c.schedule(run)
    except BaseException:
        _unraisable("Exception ignored in an rxc custom scheduler's schedule (the work runs "
                    "at once instead)", c.schedule)
        run()
        return NULL
    return _custom_scheduled(run, r)


@ffi.callback("rx_disposable *(void *, int64_t, rx_action_fn, void *)")
def _custom_schedule_after(ctx, delay_ns, action, action_ctx):
    c = _from_ctx(ctx)
    run = _Run(action, action_ctx)
    try:
        r = c.schedule_after(delay_ns / 1e9, run)
    except BaseException:
        _unraisable("Exception ignored in an rxc custom scheduler's schedule_after (the work "
                    "runs at once instead)", c.schedule_after)
        run()
        return NULL
    return _custom_scheduled(run, r)


@ffi.callback("int64_t(void *)")
def _custom_now(ctx):
    c = _from_ctx(ctx)
    try:
        return int(c.now() * 1e9)
    except BaseException:
        _unraisable("Exception ignored in an rxc custom scheduler's now", c.now)
        return 0


def custom_scheduler(schedule, schedule_after=None, now=None, serial=False):
    """A Scheduler backed by Python functions (rx_scheduler_custom_new).

    schedule(run) must arrange for run() to be called once, on any thread; it may return
    None (the work cannot be cancelled), a Disposable or a callable that cancels it.
    schedule_after(delay_seconds, run) is the same after a delay (None: the library waits on
    its own timer, then calls schedule). now() gives the clock in seconds (None: monotonic).
    serial declares that runs never overlap and keep their order."""
    c = _Custom(schedule, schedule_after, now)
    vt = ffi.new("rx_scheduler_vtable *", {
        "schedule": _custom_schedule,
        "schedule_after": _custom_schedule_after if schedule_after is not None else NULL,
        "now_ns": _custom_now if now is not None else NULL,
        "serial": bool(serial)})
    ctx = _put(c)
    p = lib.rx_scheduler_custom_new(vt, ctx, _free_cb)
    if p == NULL:
        _drop(ctx)
        _checkp(p)
    return Scheduler._own(p)


def immediate_scheduler():
    """Runs actions at once, on the calling thread."""
    return Scheduler._own(lib.rx_scheduler_immediate())


def current_thread_scheduler():
    """Runs actions on the calling thread, queued behind the one running (a trampoline)."""
    return Scheduler._own(lib.rx_scheduler_current_thread())


def main_scheduler():
    """The main thread's scheduler: its work runs while the main thread drives it
    (main_run, main_run_for, main_drain, or an asyncio loop through rxc.aio)."""
    return Scheduler._own(lib.rx_scheduler_main())


class SerialScheduler(Scheduler):
    """One action at a time, in order, on library threads."""

    __slots__ = ()

    def __init__(self, label=None):
        super().__init__(_checkp(lib.rx_scheduler_serial_new(_label(label))))


class ConcurrentScheduler(Scheduler):
    """Actions on library threads, several at a time."""
    __slots__ = ()

    def __init__(self, label=None):
        super().__init__(_checkp(lib.rx_scheduler_concurrent_new(_label(label))))


class OperationQueueScheduler(Scheduler):
    """Actions on library threads, at most `max_concurrent` at a time."""
    __slots__ = ()

    def __init__(self, max_concurrent=1, label=None):
        super().__init__(_checkp(lib.rx_scheduler_operation_queue_new(
            _label(label), max_concurrent)))


class NewThreadScheduler(Scheduler):
    """Each action on a thread of its own."""
    __slots__ = ()

    def __init__(self):
        super().__init__(_checkp(lib.rx_scheduler_new_thread()))



_default_lock = threading.Lock()
_default = None


def default_scheduler():
    """The scheduler time-based operators use when given none: one shared concurrent
    scheduler ("rxc.default"), made on first use."""
    global _default
    if _default is None:
        with _default_lock:
            if _default is None:
                _default = ConcurrentScheduler("rxc.default")
    return _default


# ---- the main loop ---------------------------------------------------------------------


def main_run():
    """Runs main-scheduler work until main_stop() (main thread only)."""
    _check(lib.rx_main_run())


def main_run_for(timeout):
    """Runs main-scheduler work for `timeout` seconds (main thread only)."""
    _check(lib.rx_main_run_for(_ns(timeout, "timeout")))


def main_drain():
    """Runs the main-scheduler work pending now; returns how many actions ran."""
    return lib.rx_main_drain()


def main_stop():
    """Makes main_run() return."""
    _check(lib.rx_main_stop())


def main_fd():
    """A file descriptor readable while main-scheduler work is pending (for event loops)."""
    return lib.rx_main_fd()
