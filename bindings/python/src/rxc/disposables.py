"""Disposables and library handles: each owns one reference, released by GC or close()."""
import threading

from ._ffi import ffi, lib
from .errors import _check, _checkp, _raise_status, _unraisable
from ._values import NULL, _drop, _free_cb, _from_ctx, _ns, _put

# --------------------------------------------------------------------------------------
# Handles
# --------------------------------------------------------------------------------------

_close_lock = threading.Lock()


class _Handle:
    """Owns one reference to a library handle (released by GC or close())."""

    __slots__ = ("_h", "__weakref__")

    def __init__(self, ptr):
        self._h = ffi.gc(ptr, lib.rx_release)

    @property
    def handle(self):
        h = self._h
        if h is None:
            raise ValueError("%s is closed" % type(self).__name__)
        return h

    def close(self):
        """Releases the handle now (idempotent). What it still does in the library (live
        subscriptions, scheduled work) goes on; releasing a subject disposes it."""
        with _close_lock:
            h, self._h = self._h, None
        if h is not None:
            ffi.release(h)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# --------------------------------------------------------------------------------------
# Disposables
# --------------------------------------------------------------------------------------


@ffi.callback("void(void *)")
def _action_cb(ctx):
    f = _from_ctx(ctx)
    try:
        f()
    except BaseException:
        _unraisable("Exception ignored in an rxc action", f)


@ffi.callback("void(void *, rx_disposable *)")
def _recursive_cb(ctx, me):
    f = _from_ctx(ctx)
    try:
        f.fn(Recursion(me))
    except BaseException:
        _unraisable("Exception ignored in an rxc recursive action", f.fn)


class Recursion:
    """What a schedule_recursive action gets (valid inside the action): recurse() and
    recurse_after(delay) run the action again, and return False once the chain was disposed
    or has ended."""

    __slots__ = ("_p",)

    def __init__(self, p):
        self._p = p

    def recurse(self):
        return _recursed(lib.rx_recurse(self._p))

    def recurse_after(self, delay):
        return _recursed(lib.rx_recurse_after(self._p, _ns(delay, "delay")))


def _recursed(st):
    if st == 0:
        return True
    if st in (lib.RX_EDISPOSED, lib.RX_ESTATE):
        return False
    _raise_status(st)


class Disposable:
    """A subscription token or other disposable. `dispose()` (or leaving a `with` block)
    ends it and releases the token; letting it be collected only releases the token (the
    subscription goes on, as rx_release)."""

    __slots__ = ("_h", "_disposed", "__weakref__")

    def __init__(self, ptr):
        self._h = ffi.gc(ptr, lib.rx_release)
        self._disposed = False

    @classmethod
    def create(cls, action):
        """A disposable that calls action() once, on first dispose."""
        ctx = _put(action)
        p = lib.rx_disposable_create(_action_cb, ctx, _free_cb)
        if p == NULL:
            _drop(ctx)
            _checkp(p)
        return cls(p)

    def _take(self):
        """Detaches the owned token (for the library to take it); None if already gone."""
        with _close_lock:
            h, self._h = self._h, None
        if h is not None:
            ffi.gc(h, None)
        return h

    def dispose(self):
        """Ends it (once) and releases the token."""
        h = self._take()
        if h is not None:
            self._disposed = True
            _check(lib.rx_dispose(h))

    @property
    def is_disposed(self):
        """Whether it was disposed."""
        h = self._h
        if h is None:  # disposed here, or given to a container (then: unknown, False)
            return self._disposed
        return bool(lib.rx_disposable_is_disposed(h))

    def close(self):
        """Releases the token without disposing."""
        h = self._take()
        if h is not None:
            lib.rx_release(h)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.dispose()


def _token_of(d):
    if not isinstance(d, Disposable):
        raise TypeError("expected a Disposable, got %r" % type(d).__name__)
    h = d._take()
    if h is None:
        raise ValueError("the Disposable was already disposed or given away")
    return h


def _give(container_ptr, d, setter):
    h = _token_of(d)
    st = setter(container_ptr, h)
    if st != 0:
        lib.rx_release(h)  # on error nothing was taken: release our reference
        _raise_status(st)


class CompositeDisposable(Disposable):
    """Disposes every disposable added to it when disposed."""

    __slots__ = ()

    def __init__(self, *disposables):
        super().__init__(_checkp(lib.rx_composite_disposable_new()))
        for d in disposables:
            self.add(d)

    def _hh(self):
        h = self._h
        if h is None:
            raise ValueError("disposed")
        return h

    def add(self, d):
        """Takes d (a Disposable, which is then spent) into the composite."""
        _give(self._hh(), d, lib.rx_composite_disposable_add)


class SerialDisposable(CompositeDisposable):
    """Setting a new inner disposable disposes the previous one."""

    __slots__ = ()

    def __init__(self):
        Disposable.__init__(self, _checkp(lib.rx_serial_disposable_new()))

    def add(self, d):  # pragma: no cover
        """Not supported: use set()."""
        raise TypeError("use set()")

    def set(self, d):
        """Not supported: use set()."""
        _give(self._hh(), d, lib.rx_serial_disposable_set)

    disposable = property(None, set, doc="Write-only: setting it is set(d).")


class SingleAssignmentDisposable(SerialDisposable):
    """Can be set once; a second set raises InvalidStateError."""

    __slots__ = ()

    def __init__(self):
        Disposable.__init__(self, _checkp(lib.rx_single_assignment_disposable_new()))

    def set(self, d):
        """Takes d (a Disposable, which is then spent); a second set raises InvalidStateError."""
        _give(self._hh(), d, lib.rx_single_assignment_disposable_set)

    disposable = property(None, set, doc="Write-only: setting it is set(d).")


class DisposeBag(_Handle):
    """Disposes what it holds when drained or closed (or collected)."""

    __slots__ = ()

    def __init__(self):
        super().__init__(_checkp(lib.rx_dispose_bag_new()))

    def add(self, d):
        """Takes d (a Disposable, which is then spent) into the bag."""
        _give(self.handle, d, lib.rx_dispose_bag_add)
        return self

    __iadd__ = add

    def drain(self):
        """Disposes everything in the bag now."""
        _check(lib.rx_dispose_bag_drain(self.handle))
