"""Values: the registry of Python objects the library holds (a `void *ctx` each), the
conversions between Python values and rx_value, and argument checks.

Lifetimes. Every Python object handed to the library (an on_next function, a map function,
an object carried by an RX_OBJECT value) is kept in `_keep` and dropped exactly when the
library says it is done with it: in `on_disposed` (subscriptions), in `ctx_free` (operators,
rx_create, schedules, disposables) or in the destroy function of an rx_object."""
import datetime
import struct
import sys

from . import _late
from ._ffi import NULL, _addr, ffi, lib, speedups
from .errors import InvalidArgumentError, _error_to_py


# value kinds
_NONE, _INT, _DOUBLE, _BOOL, _PTR, _STRING, _BYTES, _ARRAY, _OBJECT, _OBSERVABLE, _EVENT = (
    lib.RX_NONE, lib.RX_INT, lib.RX_DOUBLE, lib.RX_BOOL, lib.RX_PTR, lib.RX_STRING, lib.RX_BYTES,
    lib.RX_ARRAY, lib.RX_OBJECT, lib.RX_OBSERVABLE, lib.RX_EVENT)


_I64 = struct.Struct("=q")
_F64 = struct.Struct("=d")
_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1

# --------------------------------------------------------------------------------------
# The registry of Python objects the library holds a ctx for
# --------------------------------------------------------------------------------------

_keep = {}  # address of the cffi handle -> the handle (which keeps its object alive)


class _Sub:
    __slots__ = ("on_next", "on_error", "on_completed", "on_disposed", "token", "ended")

    def __init__(self, on_next, on_error, on_completed, on_disposed):
        self.on_next = on_next
        self.on_error = on_error
        self.on_completed = on_completed
        self.on_disposed = on_disposed
        self.token = None  # a reference of our own to the token, for _shutdown
        self.ended = False


class _Scheduled:
    """A scheduled Python action (with its token, for _shutdown)."""

    __slots__ = ("fn", "token", "ended")

    def __init__(self, fn):
        self.fn = fn
        self.token = None
        self.ended = False

    def __call__(self):
        self.fn()


if speedups is None:
    def _put(obj):
        """A `void *ctx` for obj, valid until _free_cb / _drop runs for it."""
        h = ffi.new_handle(obj)
        _keep[_addr(h)] = h
        return h

    _from_ctx = ffi.from_handle
    _kept = ffi.from_handle  # the object of a _keep entry
else:
    def _put(obj):
        """A `void *ctx` for obj, valid until _free_cb / _drop runs for it: the address of a
        fresh cell (obj, the callable the C trampolines call: a subscription's on_next, or
        obj itself)."""
        cell = (obj, obj.on_next if type(obj) is _Sub else obj)
        key = id(cell)
        _keep[key] = cell
        return ffi.cast("void *", key)

    def _from_ctx(ctx):
        return _keep[_addr(ctx)][0]

    def _kept(cell):
        return cell[0]


def _drop(ctx):
    _keep.pop(_addr(ctx), None)


def live_callbacks():
    """How many Python objects the library currently holds (callbacks, contexts, objects)."""
    return len(_keep)



# --------------------------------------------------------------------------------------
# Values
# --------------------------------------------------------------------------------------


@ffi.callback("void(void *)")
def _free_cb(ctx):
    _keep.pop(_addr(ctx), None)



class Notification:
    """An RX_EVENT value (from materialize): kind is "N", "E" or "C"; value or error."""

    __slots__ = ("kind", "value", "error", "_v")

    def __init__(self, v):
        k = lib.rx_value_event_kind(v)
        self.kind = {1: "N", 2: "E", 3: "C"}.get(k, "?")
        self.value = _to_py(lib.rx_value_event_value(v)) if k == 1 else None
        self.error = _error_to_py(lib.rx_value_event_error(v)) if k == 2 else None
        self._v = lib.rx_value_retain(v)

    def __del__(self):
        v, self._v = getattr(self, "_v", None), None
        if v is not None:
            lib.rx_value_release(v)

    def __eq__(self, other):
        if not isinstance(other, Notification):
            return NotImplemented
        return bool(lib.rx_value_equal(self._v, other._v))

    def __hash__(self):
        return hash((self.kind, repr(self.value)))

    def __repr__(self):
        if self.kind == "N":
            return "Notification.next(%r)" % (self.value,)
        if self.kind == "E":
            return "Notification.error(%r)" % (self.error,)
        return "Notification.completed()"


def _to_py(v):
    """A Python value for a borrowed rx_value."""
    k = v.kind
    if k == _INT:
        return v.i
    if k == _STRING:
        return ffi.string(lib.rx_value_string(v)).decode("utf-8", "surrogateescape")
    if k == _DOUBLE:
        return _F64.unpack(_I64.pack(v.i))[0]
    if k == _BOOL:
        return v.i != 0
    if k == _NONE:
        return None
    if k == _OBJECT:
        data = lib.rx_object_data(v)
        h = _keep.get(_addr(data))
        return _kept(h) if h is not None else data
    if k == _BYTES:
        n = ffi.new("size_t *")
        p = lib.rx_value_bytes(v, n)
        return ffi.unpack(ffi.cast("char *", p), n[0]) if n[0] else b""
    if k == _ARRAY:
        return [_to_py(lib.rx_array_get(v, j)) for j in range(lib.rx_array_count(v))]
    if k == _PTR:
        return ffi.cast("void *", v.i)
    if k == _OBSERVABLE:
        return _observable_to_py(lib.rx_value_observable(v))
    if k == _EVENT:
        return Notification(v)
    return None


def _observable_to_py(p):
    """An Observable for a borrowed rx_observable: a GroupedObservable, with its key, for a
    group of group_by. (For any other observable the key lookup fails with RX_EINVAL, which
    leaves its message in last_error(); nothing reads it there.)"""
    key = ffi.new("rx_value *")
    if lib.rx_group_key(p, key) != 0:
        return _late.Observable._own(lib.rx_retain(p))
    try:
        return _late.GroupedObservable._group(lib.rx_retain(p), _to_py(key[0]))
    finally:
        lib.rx_value_release(key[0])


def _from_py(x):
    """An OWNED rx_value for a Python value: a list [kind, payload] for plain data (nothing
    to release) or an rx_value cdata for a boxed one (release with _release)."""
    t = type(x)
    if t is int:
        if _INT64_MIN <= x <= _INT64_MAX:
            return [_INT, x]
    elif t is str:
        if "\0" not in x:
            return lib.rx_string(x.encode("utf-8", "surrogateescape"))
    elif t is float:
        return [_DOUBLE, _I64.unpack(_F64.pack(x))[0]]
    elif t is bool:
        return [_BOOL, 1 if x else 0]
    elif x is None:
        return [_NONE, 0]
    elif t is bytes or t is bytearray:
        return lib.rx_bytes(bytes(x), len(x))
    elif t is list or t is tuple:
        items = [_from_py(y) for y in x]
        try:
            return lib.rx_array(ffi.new("rx_value[]", items) if items else NULL, len(items))
        finally:
            for y in items:
                _release(y)
    elif isinstance(x, _late.Observable):
        return lib.rx_observable_value(x._src())
    elif t is Notification:
        return lib.rx_value_retain(x._v)
    elif isinstance(x, ffi.CData) and ffi.typeof(x).kind == "pointer":
        return [_PTR, _addr(x)]
    return lib.rx_object(_put(x), _free_cb)


def _release(v):
    if type(v) is not list:
        lib.rx_value_release(v)


class _Borrowed:
    """with _Borrowed(x) as v: passes an rx_value the callee borrows, released afterwards."""

    __slots__ = ("v",)

    def __init__(self, x):
        self.v = _from_py(x)

    def __enter__(self):
        return self.v

    def __exit__(self, *exc):
        _release(self.v)


def _caller():
    """The public function or method being called (for argument errors)."""
    f = sys._getframe(2)
    while f is not None:
        name = f.f_code.co_name
        if name == "__init__" and "self" in f.f_locals:
            return type(f.f_locals["self"]).__name__ + "()"
        if name[:1] not in ("_", "<"):
            return name + "()"
        f = f.f_back
    return "rxc"


def _ns(t, name="duration"):
    """Nanoseconds for a duration in seconds (int, float) or a datetime.timedelta; a
    TypeError / ValueError naming the parameter otherwise."""
    if isinstance(t, datetime.timedelta):
        t = t.total_seconds()
    elif type(t) is bool or not isinstance(t, (int, float)):
        raise TypeError("%s: %s must be a duration in seconds (int, float or datetime.timedelta), "
                        "not %s" % (_caller(), name, type(t).__name__))
    if not t >= 0 or t * 1e9 > _INT64_MAX:  # also NaN
        raise InvalidArgumentError(lib.RX_EINVAL, "%s: %s must be a duration in seconds, >= 0, not %r"
                                   % (_caller(), name, t))
    return int(round(t * 1e9))


def _count(n, name, low=0):
    """n, checked to be an int >= low; a TypeError / ValueError naming the parameter otherwise."""
    if type(n) is bool or not isinstance(n, int):
        raise TypeError("%s: %s must be an int, not %s" % (_caller(), name, type(n).__name__))
    if not low <= n <= _INT64_MAX:
        raise InvalidArgumentError(lib.RX_EINVAL, "%s: %s must be >= %d, not %d" % (_caller(), name, low, n))
    return n


def _label(label, name="label"):
    """UTF-8 bytes for an optional str label (NULL for None / "")."""
    if label is None or label == "":
        return NULL
    if not isinstance(label, str):
        raise TypeError("%s: %s must be a str or None, not %s" % (_caller(), name, type(label).__name__))
    return label.encode("utf-8", "surrogateescape")
