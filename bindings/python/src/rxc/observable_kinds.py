"""The kinds of Observable the operators return (bounded, grouped, connectable, Driver,
Signal), and the Emitter that create() hands its function."""
from . import _late
from ._ffi import ffi, lib
from .errors import RxError, _ErrorRef, _check, _checkp, _raise_status
from ._values import _Borrowed
from .disposables import Disposable, _Handle
from ._callbacks import _observer_parts, _observer_struct, _subscribe_trait
from .observable import Observable, _alias

class BoundedObservable(Observable):
    """The result of observe_on_bounded, pausable_buffered or rate_limit: an Observable with
    flow counters. `flow` is (capacity, policy, on_dropped), which `async for` applies to
    its own buffer too (capacity None: unbounded)."""

    __slots__ = ("flow",)

    def stats(self):
        """The counters, summed over the subscriptions: received, delivered, dropped and
        overflows (streams failed with ERROR_OVERFLOW)."""
        out = ffi.new("rx_flow_stats *")
        out.struct_size = ffi.sizeof("rx_flow_stats")
        _check(lib.rx_flow_stats_get(self._src(), out))
        return {"received": out.received, "delivered": out.delivered, "dropped": out.dropped,
                "overflows": out.overflows}


class GroupedObservable(Observable):
    """A group of group_by: an Observable with the group's `key`."""

    __slots__ = ("key",)

    @classmethod
    def _group(cls, ptr, key):
        o = cls._own(ptr)
        o.key = key
        return o

    def __repr__(self):
        return "GroupedObservable(key=%r)" % (self.key,)


class ConnectableObservable(Observable):
    """From publish() / replay(): subscribes its source only on connect()."""

    __slots__ = ()

    def connect(self):
        """Subscribes to the source now; a Disposable that disconnects."""
        return Disposable(_checkp(lib.rx_connect(self._src())))

    def ref_count(self):
        """An Observable that connects with its first subscriber and disconnects after its last."""
        return Observable._own(lib.rx_ref_count(self._src()))


class Driver(Observable):
    """From as_driver(): never errors, delivers on the main scheduler, replays the latest."""

    __slots__ = ()

    def drive(self, observer=None, on_next=None, on_completed=None, on_disposed=None):
        """Subscribes (on the main scheduler); a Disposable."""
        sub = _observer_parts(observer, on_next, None, on_completed, on_disposed)
        return _subscribe_trait(sub, lambda ctx: lib.rx_drive(self._src(), _observer_struct(sub, ctx)))


class Signal(Observable):
    """From as_signal(): never errors, delivers on the main scheduler, no replay."""

    __slots__ = ()

    def emit(self, observer=None, on_next=None, on_completed=None, on_disposed=None):
        """Subscribes (on the main scheduler); a Disposable."""
        sub = _observer_parts(observer, on_next, None, on_completed, on_disposed)
        return _subscribe_trait(sub, lambda ctx: lib.rx_emit(self._src(), _observer_struct(sub, ctx)))


class Emitter(_Handle):
    """The emitter of a create() subscription; usable from any thread, also after the
    subscribe function returned. on_next returns False once the subscription is disposed."""

    __slots__ = ()

    def __class_getitem__(cls, item):
        """`Emitter[int]` at run time: the generic alias (for type checkers)."""
        return _alias(cls, item)

    def on_next(self, value):
        """Emits a value to the subscriber."""
        with _Borrowed(value) as v:
            st = lib.rx_emitter_next(self.handle, v)
        return _emit_status(st)

    def on_error(self, error):
        """Fails the subscription with `error` (an exception)."""
        e = _ErrorRef(error if isinstance(error, BaseException) else RxError(str(error)))
        return _emit_status(lib.rx_emitter_error(self.handle, e.ptr))

    def on_completed(self):
        """Completes the subscription."""
        return _emit_status(lib.rx_emitter_completed(self.handle))

    @property
    def is_disposed(self):
        """Whether the subscription has ended (emitting is then pointless)."""
        return bool(lib.rx_emitter_is_disposed(self.handle))


def _emit_status(st):
    if st == 0:
        return True
    if st == lib.RX_EDISPOSED:
        return False
    _raise_status(st)


_late.GroupedObservable, _late.BoundedObservable, _late.ConnectableObservable = (
    GroupedObservable, BoundedObservable, ConnectableObservable)
_late.Driver, _late.Signal, _late.Emitter = Driver, Signal, Emitter
