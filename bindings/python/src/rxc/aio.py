"""asyncio integration: a scheduler that runs its work on a running asyncio loop, and
`async for` over an observable.

How it works: librxc's run loop exposes a file descriptor that is readable exactly while
work is pending, and a drain function that runs that work. `scheduler()` registers the fd
with `loop.add_reader(fd, drain)`, so the loop calls drain (on its own thread) whenever
work arrives, from any thread. An asyncio loop on the main thread drains the main run loop
(rx_main_fd / rx_main_drain / rx_scheduler_main, so that main-scheduler work such as
drive() runs there too); a loop on any other thread gets a run loop of its own
(rx_run_loop_new), bound to that thread by its first drain.

`async for` buffers what the loop has not consumed yet: at most `maxsize` values, the
policy deciding what happens beyond (for an observe_on_bounded / pausable_buffered /
rate_limit observable, its own capacity and policy by default); unbounded otherwise.
"""
import collections
import threading
import weakref

from . import _late
from ._ffi import ffi, lib
from .errors import ERROR_OVERFLOW, RxError, _raising
from .schedulers import Scheduler, custom_scheduler, main_scheduler



def _running_loop():
    # asyncio is imported on first use, not by `import rxc` (which imports this module)
    import asyncio
    return asyncio.get_running_loop()


class _LoopBackend:
    """What a library run loop gives an event loop: fd (readable while work is pending),
    drain() (runs the pending work on the calling thread) and the Scheduler whose work
    they run."""

    __slots__ = ("fd", "drain", "scheduler", "run_loop", "__weakref__")

    def __init__(self, fd, drain, scheduler, run_loop=None):
        self.fd = fd
        self.drain = drain
        self.scheduler = scheduler
        self.run_loop = run_loop  # an owned rx_run_loop (released by cffi with the backend)


_main_backend = None
_attached = weakref.WeakKeyDictionary()  # asyncio loop -> its _LoopBackend
_lock = threading.Lock()


def _backend(loop):
    """The run-loop backend for `loop`, which must be running on the calling thread: the
    main run loop on the main thread, else a new run loop for this asyncio loop."""
    global _main_backend
    if threading.current_thread() is threading.main_thread():
        if _main_backend is None:
            _main_backend = _LoopBackend(lib.rx_main_fd(), lib.rx_main_drain, main_scheduler())
        return _main_backend
    p = lib.rx_run_loop_new()
    if p == ffi.NULL:
        raise OSError("rx_run_loop_new: " + ffi.string(lib.rx_last_error()).decode())
    rl = ffi.gc(p, lib.rx_release)
    # The scheduler is borrowed from the loop: retained, so the Scheduler owns a reference.
    sched = Scheduler._own(lib.rx_retain(lib.rx_run_loop_scheduler(rl)))
    return _LoopBackend(lib.rx_run_loop_fd(rl), lambda: lib.rx_run_loop_drain(rl), sched, rl)


def scheduler(loop=None):
    """A Scheduler whose work runs on the running asyncio loop (its thread), between its
    other callbacks. Works from any thread once made (the loop must be running or about to)."""
    loop = loop or _running_loop()
    with _lock:
        b = _attached.get(loop)
        if b is None:
            b = _backend(loop)
            loop.add_reader(b.fd, b.drain)
            _attached[loop] = b
    return b.scheduler


def detach(loop=None):
    """Stops the loop from draining rxc's run loop (done anyway when the loop closes)."""
    loop = loop or _running_loop()
    with _lock:
        b = _attached.pop(loop, None)
    if b is not None and not loop.is_closed():
        loop.remove_reader(b.fd)


def threadsafe_scheduler(loop=None):
    """A Scheduler that runs its work on `loop` (on any thread) through
    loop.call_soon_threadsafe / call_later: a custom scheduler, so each action costs a
    Python call more than scheduler(); it works on loops of any thread, today."""
    loop = loop or _running_loop()

    def schedule(run):
        h = []

        def start():
            h.append(loop.call_soon(run))
        loop.call_soon_threadsafe(start)
        return lambda: loop.call_soon_threadsafe(lambda: h and h[0].cancel())

    def schedule_after(delay, run):
        h = []

        def start():
            h.append(loop.call_later(delay, run))
        loop.call_soon_threadsafe(start)
        return lambda: loop.call_soon_threadsafe(lambda: h and h[0].cancel())

    return custom_scheduler(schedule, schedule_after, loop.time, serial=True)


class _Sink:
    """Where the subscription's callbacks put events (kept by the library until
    on_disposed; it must not keep the iterator alive, whose collection disposes)."""

    __slots__ = ("loop", "items", "done", "error", "waiter", "tid", "maxsize", "policy", "on_dropped")

    def __init__(self, loop, maxsize, policy, on_dropped):
        self.loop = loop
        self.items = collections.deque()
        self.done = False
        self.error = None
        self.waiter = None
        self.tid = threading.get_ident()
        self.maxsize, self.policy, self.on_dropped = maxsize, policy, on_dropped

    def push(self, is_value, payload):  # on the loop's thread
        if self.done:
            return
        if is_value:
            items = self.items
            if self.maxsize is not None and len(items) >= self.maxsize:
                if self.policy == "fail":
                    self.done = True
                    self.error = RxError("async for: more than %d values waiting" % self.maxsize,
                                         ERROR_OVERFLOW)  # after the values waiting
                else:
                    dropped = [payload] if self.policy == "drop_newest" else (
                        [items.popleft()] if self.policy == "drop_oldest" else list(items))
                    if self.policy != "drop_newest":
                        if self.policy == "keep_latest":
                            items.clear()
                        items.append(payload)
                    if self.on_dropped is not None:
                        for d in dropped:
                            self.on_dropped(d)
            else:
                items.append(payload)
        else:
            self.done, self.error = True, payload
        w = self.waiter
        if w is not None and not w.done():
            w.set_result(None)

    def push_threadsafe(self, is_value, payload):  # any thread
        if threading.get_ident() == self.tid:
            self.push(is_value, payload)
            return
        try:
            self.loop.call_soon_threadsafe(self.push, is_value, payload)
        except RuntimeError:  # the loop is closed: nobody is listening any more
            pass


class _AsyncIterator:
    """An async iterator over an observable's values; raises the stream's RxError at the
    end when it failed. Leaving the `async for` early (the iterator is collected) or
    aclose() disposes the subscription."""

    def __init__(self, observable, threadsafe, maxsize, policy):
        self._token = None
        on_dropped = None
        flow = getattr(observable, "flow", None)
        if flow is not None:
            if maxsize is None:
                maxsize = flow[0]
            if policy is None:
                policy, on_dropped = flow[1], flow[2]
        policy = policy or "drop_oldest"
        if policy not in _POLICIES:
            raise ValueError("aiter(): policy must be one of %s, not %r" % (", ".join(_POLICIES), policy))
        if maxsize is not None and (type(maxsize) is not int or maxsize < 1):
            raise ValueError("aiter(): maxsize must be an int >= 1 or None, not %r" % (maxsize,))
        if policy == "block":  # the loop's thread cannot wait for itself: keep what comes
            maxsize = None
        elif policy == "keep_latest":  # one slot, as the library's RX_OVERFLOW_KEEP_LATEST
            maxsize = 1
        sink = self._sink = _Sink(_running_loop(), maxsize, policy, on_dropped)
        if threadsafe:
            src, push = observable, sink.push_threadsafe
        else:
            src, push = observable.observe_on(scheduler(sink.loop)), sink.push
        self._token = None
        self._token = src.subscribe(on_next=lambda v: push(True, v),
                                    on_error=lambda e: push(False, e),
                                    on_completed=lambda: push(False, None))

    def __aiter__(self):
        return self

    async def __anext__(self):
        sink = self._sink
        while True:
            if sink.items:
                return sink.items.popleft()
            if sink.done:
                self._close()
                if sink.error is not None:
                    raise _raising(sink.error)
                raise StopAsyncIteration
            sink.waiter = sink.loop.create_future()
            try:
                await sink.waiter
            finally:
                sink.waiter = None

    def _close(self):
        t, self._token = self._token, None
        if t is not None:
            t.dispose()

    async def aclose(self):
        self._close()

    def __del__(self):
        self._close()


_POLICIES = ("drop_oldest", "drop_newest", "keep_latest", "fail", "block")


def aiter(observable, threadsafe=None, maxsize=None, policy=None):
    """`async for x in rxc.aio.aiter(obs)` (or simply `async for x in obs`).

    threadsafe=False (the default) delivers through scheduler() (observe_on the loop's run
    loop); True subscribes directly and hands each event to the loop with
    call_soon_threadsafe.

    At most `maxsize` values wait for the loop to take them; beyond, `policy` applies:
    "drop_oldest" (the default), "drop_newest", "keep_latest" (one slot: only the newest
    waits, maxsize ignored) or "fail" (the iteration raises RxError ERROR_OVERFLOW after the
    values waiting). For an observe_on_bounded /
    pausable_buffered / rate_limit observable, both default to its own capacity and policy
    (and its on_dropped hears the iterator's drops too); "block" keeps every value (the
    loop's thread cannot wait for itself). maxsize None: unbounded."""
    if threadsafe is None:
        threadsafe = False
    return _AsyncIterator(observable, threadsafe, maxsize, policy)


async def to_list(observable):
    """Awaits every value of the observable, as a list."""
    return [x async for x in aiter(observable)]


_late.aiter = aiter
