"""Subjects and relays: observables you feed by hand."""
from ._ffi import ffi, lib, speedups
from .errors import RxError, _ErrorRef, _check, _checkp, _raise_status
from ._values import _Borrowed, _INT, _INT64_MAX, _INT64_MIN, _addr
from .disposables import _close_lock
from ._callbacks import _blocking_result
from .observable import Observable

# --------------------------------------------------------------------------------------
# Subjects
# --------------------------------------------------------------------------------------


_subject_on_next = lib.rx_subject_on_next


class Subject(Observable):
    """An observable you feed by hand (rx_subject). Releasing it (close(), or the last
    Python reference going) disposes it: its observers get on_disposed."""

    __slots__ = ("_s", "__dict__")

    def __init__(self, ptr):
        self._s = ffi.gc(_checkp(ptr), lib.rx_release)
        self._h = lib.rx_subject_as_observable(self._s)  # borrowed: valid as long as _s
        if speedups is not None:
            # The compiled on_next: an instance attribute, so that `s.on_next(x)` is one C
            # call (no Python frame). Not where a subclass defines its own.
            em = self.__dict__["_emitter"] = speedups.Emitter(_addr(self._s))
            for name in ("on_next", "accept"):
                if getattr(type(self), name, None) is Subject.on_next:
                    self.__dict__[name] = em.on_next

    def _subject(self):
        s = self._s
        if s is None:
            raise ValueError("the Subject is closed")
        return s

    def _src(self):
        self._subject()
        return self._h

    def close(self):
        """Releases the subject now (which disposes it: its observers get on_disposed)."""
        with _close_lock:
            s, self._s = self._s, None
            em = self.__dict__.get("_emitter")
            if em is not None:
                em.close()
        if s is not None:
            ffi.release(s)

    def on_next(self, value):
        """Emits a value to every observer (a C call with the compiled fast path)."""
        s = self._s
        if s is None:
            raise ValueError("the Subject is closed")
        if type(value) is int and _INT64_MIN <= value <= _INT64_MAX:  # the common case, fast
            st = _subject_on_next(s, [_INT, value])
        else:
            with _Borrowed(value) as v:
                st = _subject_on_next(s, v)
        if st != 0:
            _raise_status(st)

    def on_error(self, error):
        """Fails every observer with `error` (an exception; it reaches them as itself)."""
        e = _ErrorRef(error if isinstance(error, BaseException) else RxError(str(error)))
        _check(lib.rx_subject_on_error(self._subject(), e.ptr))

    def on_completed(self):
        """Completes every observer."""
        _check(lib.rx_subject_on_completed(self._subject()))

    @property
    def has_observers(self):
        """Whether anyone is subscribed."""
        return bool(lib.rx_subject_has_observers(self._subject()))

    def dispose(self):
        """Drops every observer (each gets on_disposed); the handle stays yours."""
        _check(lib.rx_subject_dispose(self._subject()))

    @property
    def value(self):
        """The current value (behavior subjects and relays); raises the stream's RxError
        after on_error."""
        out = ffi.new("rx_value *")
        err = ffi.new("rx_error **")
        ok, r = _blocking_result(lib.rx_subject_value(self._subject(), out, err), out, err)
        if ok:
            return r
        del self
        raise r


class PublishSubject(Subject):
    """Emits to the observers subscribed at the time."""
    __slots__ = ()

    def __init__(self):
        super().__init__(lib.rx_publish_subject_new())


class BehaviorSubject(Subject):
    """Holds a current value (`initial` first), replayed to each new observer."""
    __slots__ = ()

    def __init__(self, initial):
        with _Borrowed(initial) as v:
            super().__init__(lib.rx_behavior_subject_new(v))


class ReplaySubject(Subject):
    """Replays the last buffer_size values (all of them when None)."""

    __slots__ = ()

    def __init__(self, buffer_size=None):
        super().__init__(lib.rx_replay_subject_new_unbounded() if buffer_size is None
                         else lib.rx_replay_subject_new(buffer_size))


class AsyncSubject(Subject):
    """Emits only its last value, with the completion."""
    __slots__ = ()

    def __init__(self):
        super().__init__(lib.rx_async_subject_new())


class PublishRelay(Subject):
    """A publish subject that never terminates: accept(x) (on_error / on_completed raise
    InvalidStateError)."""

    __slots__ = ()

    def __init__(self):
        super().__init__(lib.rx_publish_relay_new())

    accept = Subject.on_next


class ReplayRelay(Subject):
    """A replay subject that never terminates: the last buffer_size values (all when None)."""

    __slots__ = ()

    def __init__(self, buffer_size=None):
        super().__init__(lib.rx_replay_relay_new_unbounded() if buffer_size is None
                         else lib.rx_replay_relay_new(buffer_size))

    accept = Subject.on_next


class BehaviorRelay(Subject):
    """A behavior subject that never terminates: accept(x); `value` is the current one."""

    __slots__ = ()

    def __init__(self, initial):
        with _Borrowed(initial) as v:
            super().__init__(lib.rx_behavior_relay_new(v))

    accept = Subject.on_next
