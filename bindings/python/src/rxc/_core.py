"""The Pythonic layer over librxc's C API (see include/rxc.h for the semantics).

Lifetimes. Every Python object handed to the library (an on_next function, a map function,
an object carried by an RX_OBJECT value) is kept in `_keep`, keyed by the address of a cffi
handle passed as the C `void *ctx`, and dropped exactly when the library says it is done
with it: in `on_disposed` (subscriptions), in `ctx_free` (operators, rx_create, schedules,
disposables) or in the destroy function of an rx_object. Library handles are owned by
Python objects through `ffi.gc(ptr, lib.rx_release)`; `close()` releases early, once.

Callbacks. No Python exception ever unwinds into C: a callback with an `rx_error **` out
parameter turns it into the stream's error; the others report it through
`sys.unraisablehook`.
"""
import atexit
import collections
import datetime
import struct
import sys
import threading
import time
import traceback

from ._ffi import ffi, lib, speedups

NULL = ffi.NULL

# value kinds
_NONE, _INT, _DOUBLE, _BOOL, _PTR, _STRING, _BYTES, _ARRAY, _OBJECT, _OBSERVABLE, _EVENT = (
    lib.RX_NONE, lib.RX_INT, lib.RX_DOUBLE, lib.RX_BOOL, lib.RX_PTR, lib.RX_STRING, lib.RX_BYTES,
    lib.RX_ARRAY, lib.RX_OBJECT, lib.RX_OBSERVABLE, lib.RX_EVENT)

# stream error codes
ERROR_DISPOSED = lib.RX_ERROR_DISPOSED
ERROR_TIMEOUT = lib.RX_ERROR_TIMEOUT
ERROR_NO_ELEMENTS = lib.RX_ERROR_NO_ELEMENTS
ERROR_MORE_THAN_ONE_ELEMENT = lib.RX_ERROR_MORE_THAN_ONE_ELEMENT
ERROR_ARGUMENT_OUT_OF_RANGE = lib.RX_ERROR_ARGUMENT_OUT_OF_RANGE
ERROR_OVERFLOW = lib.RX_ERROR_OVERFLOW
ERROR_UNKNOWN = lib.RX_ERROR_UNKNOWN
ERROR_TYPE = lib.RX_ERROR_TYPE
ERROR_UNEXPECTED_ELEMENT = lib.RX_ERROR_UNEXPECTED_ELEMENT
ERROR_USER = lib.RX_ERROR_USER
#: The code of a stream error made from a Python exception that is not an RxError.
ERROR_PYTHON = lib.RX_ERROR_USER

_I64 = struct.Struct("=q")
_F64 = struct.Struct("=d")
_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1

# --------------------------------------------------------------------------------------
# The registry of Python objects the library holds a ctx for
# --------------------------------------------------------------------------------------

_keep = {}  # address of the cffi handle -> the handle (which keeps its object alive)


def _addr(p):
    return int(ffi.cast("uintptr_t", p))


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
# Exceptions
# --------------------------------------------------------------------------------------


def _unraisable_args_type():
    seen = []
    old = sys.unraisablehook
    sys.unraisablehook = lambda a: seen.append(type(a))

    class _Probe:
        def __del__(self):
            raise RuntimeError("probe")

    _Probe()
    sys.unraisablehook = old
    return seen[0] if seen else None


_UnraisableArgs = _unraisable_args_type()


def _unraisable(msg, obj=None, exc=None):
    """Reports exc (default: the exception being handled) through sys.unraisablehook."""
    if exc is None:
        exc = sys.exc_info()[1]
    try:
        if _UnraisableArgs is not None:
            sys.unraisablehook(_UnraisableArgs((type(exc), exc, exc.__traceback__, msg, obj)))
        else:  # pragma: no cover
            sys.stderr.write("%s: %r\n" % (msg, exc))
    except BaseException:  # the hook itself failed: never propagate into C
        pass


class RxError(Exception):
    """An error carried by a stream (an rx_error): `code` and `message`.

    Any exception a callback raises fails the stream, and reaches on_error (or is raised by
    blocking_* and `async for`) as itself: an RxError keeps its code; any other exception
    travels in the library as code ERROR_PYTHON with the message "TypeName: text". An
    RxError is what arrives for the library's own errors (timeouts, no elements, ...)."""

    def __init__(self, message="", code=ERROR_USER):
        super().__init__(message)
        self.message = message
        self.code = code

    def __str__(self):
        return "%s (code %d)" % (self.message, self.code)

    def __repr__(self):
        return "RxError(%r, code=%d)" % (self.message, self.code)


class RxStatusError(Exception):
    """A call into librxc failed: `status` (an rx_status, or None when the call returned
    NULL) and `message` (rx_last_error())."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message


class InvalidArgumentError(RxStatusError, ValueError):
    """RX_EINVAL"""


class HandleError(RxStatusError):
    """RX_EHANDLE: not a live handle of the expected kind"""


class InvalidStateError(RxStatusError):
    """RX_ESTATE: not allowed now (e.g. rx_main_run off the main thread, on_completed on a relay)"""


class DisposedError(RxStatusError):
    """RX_EDISPOSED"""


class RxTimeoutError(RxStatusError, TimeoutError):
    """RX_ETIMEOUT"""


_STATUS_CLASSES = {-1: InvalidArgumentError, -2: HandleError, -3: InvalidStateError,
                   -4: DisposedError, -5: RxTimeoutError}


def last_error():
    """This thread's rx_last_error() message."""
    return ffi.string(lib.rx_last_error()).decode("utf-8", "replace")


def _raise_status(status, what=None):
    msg = last_error() or what or ffi.string(lib.rx_status_string(status)).decode()
    raise _STATUS_CLASSES.get(status, RxStatusError)(status, msg)


def _check(status):
    if status != 0:
        _raise_status(status)
    return status


def _checkp(ptr, what=None):
    if ptr == NULL:
        raise RxStatusError(None, last_error() or what or "librxc returned NULL")
    return ptr


_exc_lock = threading.Lock()
_exc_by_error = collections.OrderedDict()  # rx_error address -> (code, message, exception)
_EXC_CACHE = 256


def _error_from_exc(exc):
    """An owned rx_error * for a Python exception."""
    if isinstance(exc, RxError):
        code, msg = int(exc.code), str(exc.message)
    else:
        code, msg = ERROR_PYTHON, "%s: %s" % (type(exc).__name__, exc)
    err = lib.rx_error_new(code, msg.encode("utf-8", "surrogateescape"))
    if err == NULL:  # pragma: no cover (only on a bad code)
        err = lib.rx_error_new(ERROR_PYTHON, msg.encode("utf-8", "surrogateescape"))
    # Remembered so that the subscriber gets this very exception, without its traceback:
    # a traceback's frames keep their callers' frames, and so the handles in their locals,
    # alive. The formatted text is kept instead (rxc.error_traceback(exc)).
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    seen = set()
    e = exc
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        e.__traceback__ = None
        e = e.__cause__ or e.__context__
    with _exc_lock:
        key = _addr(err)
        _exc_by_error.pop(key, None)
        _exc_by_error[key] = (code, msg, exc, text)
        while len(_exc_by_error) > _EXC_CACHE:
            _exc_by_error.popitem(last=False)
    return err


def _error_to_py(err):
    """The exception for a (borrowed) rx_error *: the Python exception it was made from
    (while this process remembers it, the last 256 of them), else an RxError."""
    code = lib.rx_error_code(err)
    m = lib.rx_error_message(err)
    msg = ffi.string(m).decode("utf-8", "surrogateescape") if m != NULL else ""
    with _exc_lock:
        known = _exc_by_error.get(_addr(err))
    if known is not None and known[0] == code and known[1] == msg:
        return known[2]
    return RxError(msg, code)


def _raising(exc):
    """exc, forgotten by the error cache: it is about to be raised into the caller's frames,
    and the traceback it then gets would keep them alive from the cache."""
    with _exc_lock:
        for key in [k for k, entry in _exc_by_error.items() if entry[2] is exc]:
            del _exc_by_error[key]
    return exc


def error_traceback(exc):
    """The formatted traceback of an exception a callback raised and a stream carried (it
    travels without its traceback, whose frames would keep their locals alive), or None."""
    with _exc_lock:
        for code, msg, e, text in _exc_by_error.values():
            if e is exc:
                return text
    return None


class _ErrorRef:
    """An owned rx_error * made from a Python exception, released when collected."""

    __slots__ = ("ptr",)

    def __init__(self, exc):
        self.ptr = ffi.gc(_error_from_exc(exc), lib.rx_release)


# --------------------------------------------------------------------------------------
# Values
# --------------------------------------------------------------------------------------


@ffi.callback("void(void *)")
def _free_cb(ctx):
    _keep.pop(_addr(ctx), None)


@ffi.callback("void(void *)")
def _scheduled_free_cb(ctx):
    _untrack(_from_ctx(ctx))
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
        return Observable._own(lib.rx_retain(p))
    try:
        return GroupedObservable._group(lib.rx_retain(p), _to_py(key[0]))
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
    elif isinstance(x, Observable):
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
        h = self._take()
        if h is not None:
            self._disposed = True
            _check(lib.rx_dispose(h))

    @property
    def is_disposed(self):
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
        raise TypeError("use set()")

    def set(self, d):
        _give(self._hh(), d, lib.rx_serial_disposable_set)

    disposable = property(None, set)


class SingleAssignmentDisposable(SerialDisposable):
    """Can be set once; a second set raises InvalidStateError."""

    __slots__ = ()

    def __init__(self):
        Disposable.__init__(self, _checkp(lib.rx_single_assignment_disposable_new()))

    def set(self, d):
        _give(self._hh(), d, lib.rx_single_assignment_disposable_set)

    disposable = property(None, set)


class DisposeBag(_Handle):
    """Disposes what it holds when drained or closed (or collected)."""

    __slots__ = ()

    def __init__(self):
        super().__init__(_checkp(lib.rx_dispose_bag_new()))

    def add(self, d):
        _give(self.handle, d, lib.rx_dispose_bag_add)
        return self

    __iadd__ = add

    def drain(self):
        _check(lib.rx_dispose_bag_drain(self.handle))


# --------------------------------------------------------------------------------------
# Observers
# --------------------------------------------------------------------------------------


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


def _track(obj, token):
    """Keeps a reference to a live subscription's (or scheduled action's) token until its
    on_disposed (ctx_free), so that _shutdown can dispose it."""
    with _close_lock:
        if not obj.ended:
            obj.token = lib.rx_retain(token)


def _untrack(obj):
    with _close_lock:
        obj.ended = True
        t, obj.token = obj.token, None
    if t is not None:
        lib.rx_release(t)


@ffi.callback("void(void *, rx_value)")
def _obs_next(ctx, v, _INT=_INT):
    s = _from_ctx(ctx)
    try:
        s.on_next(v.i if v.kind == _INT else _to_py(v))
    except BaseException:
        _unraisable("Exception ignored in an rxc on_next callback", s.on_next)


@ffi.callback("void(void *, const rx_error *)")
def _obs_error(ctx, err):
    s = _from_ctx(ctx)
    e = _error_to_py(err)
    try:
        if s.on_error is None:
            raise e
        s.on_error(e)
    except BaseException:
        _unraisable("Exception ignored in an rxc on_error callback (or an unhandled stream "
                    "error: pass on_error)", s.on_error)


@ffi.callback("void(void *)")
def _obs_completed(ctx):
    s = _from_ctx(ctx)
    try:
        s.on_completed()
    except BaseException:
        _unraisable("Exception ignored in an rxc on_completed callback", s.on_completed)


@ffi.callback("void(void *)")
def _obs_disposed(ctx):
    s = _from_ctx(ctx)
    try:
        if s.on_disposed is not None:
            s.on_disposed()
    except BaseException:
        _unraisable("Exception ignored in an rxc on_disposed callback", s.on_disposed)
    finally:
        _untrack(s)
        _drop(ctx)  # the library's last use of this subscription's ctx


@ffi.callback("void(void *)")
def _tap_disposed(ctx):  # rx_do: on_disposed per subscription; ctx_free frees
    s = _from_ctx(ctx)
    try:
        if s.on_disposed is not None:
            s.on_disposed()
    except BaseException:
        _unraisable("Exception ignored in an rxc do(on_disposed=...) callback", s.on_disposed)


@ffi.callback("void(void *, const char *)")
def _debug_line_cb(ctx, line):
    fn = _from_ctx(ctx)
    try:
        fn(ffi.string(line).decode("utf-8", "replace"))
    except BaseException:
        _unraisable("Exception ignored in an rxc debug(fn=...) callback", fn)


_HOOK_NAMES = ("on_next", "after_next", "on_error", "after_error", "on_completed", "after_completed",
               "on_subscribe", "on_subscribed", "on_dispose")


def _hook_callback(i):
    """The C hook for do_hooks' i-th function (ctx: the tuple of the nine)."""
    what = "Exception ignored in an rxc do_hooks(%s=...) callback" % _HOOK_NAMES[i]

    def call(ctx, *args):
        fn = _from_ctx(ctx)[i]
        try:
            fn(*args)
        except BaseException:
            _unraisable(what, fn)
    if i < 2:
        return ffi.callback("void(void *, rx_value)",
                            lambda ctx, v: call(ctx, v.i if v.kind == _INT else _to_py(v)))
    if i < 4:
        return ffi.callback("void(void *, const rx_error *)", lambda ctx, e: call(ctx, _error_to_py(e)))
    return ffi.callback("void(void *)", lambda ctx: call(ctx))


_HOOK_CALLBACKS = tuple(_hook_callback(i) for i in range(len(_HOOK_NAMES)))


def _observer_parts(observer, on_next, on_error, on_completed, on_disposed):
    if observer is not None:
        if callable(observer) and not hasattr(observer, "on_next"):
            on_next = observer
        else:
            on_next = getattr(observer, "on_next", None)
            on_error = getattr(observer, "on_error", None)
            on_completed = getattr(observer, "on_completed", None)
            on_disposed = getattr(observer, "on_disposed", on_disposed)
    return _Sub(on_next, on_error, on_completed, on_disposed)


def _observer_struct(sub, ctx, tap=False):
    return ffi.new("rx_observer *", {
        "on_next": _obs_next if sub.on_next is not None else NULL,
        "on_error": _obs_error if (sub.on_error is not None or not tap) else NULL,
        "on_completed": _obs_completed if sub.on_completed is not None else NULL,
        "on_disposed": _tap_disposed if tap else _obs_disposed,
        "ctx": ctx})[0]


# --------------------------------------------------------------------------------------
# Operator callbacks
# --------------------------------------------------------------------------------------

_NONE_V = [_NONE, 0]


@ffi.callback("rx_value(void *, rx_value, rx_error **)")
def _map_cb(ctx, v, err, _INT=_INT):
    try:
        r = _from_ctx(ctx)(v.i if v.kind == _INT else _to_py(v))
        if type(r) is int and _INT64_MIN <= r <= _INT64_MAX:
            return [_INT, r]
        return _from_py(r)
    except BaseException as e:
        err[0] = _error_from_exc(e)
        return _NONE_V


@ffi.callback("bool(void *, rx_value, rx_error **)")
def _pred_cb(ctx, v, err, _INT=_INT):
    try:
        return bool(_from_ctx(ctx)(v.i if v.kind == _INT else _to_py(v)))
    except BaseException as e:
        err[0] = _error_from_exc(e)
        return False


@ffi.callback("bool(void *, rx_value, rx_value *, rx_error **)")
def _compact_cb(ctx, v, out, err, _INT=_INT):
    try:
        r = _from_ctx(ctx)(v.i if v.kind == _INT else _to_py(v))
        if r is None:
            return False
        out[0] = [_INT, r] if type(r) is int and _INT64_MIN <= r <= _INT64_MAX else _from_py(r)
        return True
    except BaseException as e:
        err[0] = _error_from_exc(e)
        return False


@ffi.callback("bool(void *, rx_value, rx_error **)")
def _gen_cond_cb(ctx, v, err):
    try:
        return bool(_from_ctx(ctx)[0](_to_py(v)))
    except BaseException as e:
        err[0] = _error_from_exc(e)
        return False


@ffi.callback("rx_value(void *, rx_value, rx_error **)")
def _gen_iter_cb(ctx, v, err):
    try:
        return _from_py(_from_ctx(ctx)[1](_to_py(v)))
    except BaseException as e:
        err[0] = _error_from_exc(e)
        return _NONE_V


@ffi.callback("void *(void *, rx_error **)")
def _using_create_cb(ctx, err):
    try:
        return _put(_from_ctx(ctx)[0]())  # the resource lives until its release
    except BaseException as e:
        err[0] = _error_from_exc(e)
        return NULL


@ffi.callback("rx_observable *(void *, void *, rx_error **)")
def _using_use_cb(ctx, resource, err):
    try:
        return _owned_observable(_from_ctx(ctx)[1](_from_ctx(resource)))
    except BaseException as e:
        err[0] = _error_from_exc(e)
        return NULL


@ffi.callback("void(void *, void *)")
def _using_release_cb(ctx, resource):
    release = _from_ctx(ctx)[2]
    try:
        if release is not None:
            release(_from_ctx(resource))
    except BaseException:
        _unraisable("Exception ignored in an rxc using release function", release)
    finally:
        _drop(resource)


@ffi.callback("rx_value(void *, rx_value, rx_value, rx_error **)")
def _acc_cb(ctx, acc, v, err):
    try:
        return _from_py(_from_ctx(ctx)(_to_py(acc), _to_py(v)))
    except BaseException as e:
        err[0] = _error_from_exc(e)
        return _NONE_V


@ffi.callback("rx_observable *(void *, rx_value, rx_error **)")
def _flat_cb(ctx, v, err):
    try:
        return _owned_observable(_from_ctx(ctx)(_to_py(v)))
    except BaseException as e:
        err[0] = _error_from_exc(e)
        return NULL


@ffi.callback("rx_value(void *, const rx_value *, size_t, rx_error **)")
def _combine_cb(ctx, values, n, err):
    try:
        return _from_py(_from_ctx(ctx)(*[_to_py(values[j]) for j in range(n)]))
    except BaseException as e:
        err[0] = _error_from_exc(e)
        return _NONE_V


@ffi.callback("bool(void *, rx_value, rx_value)")
def _equal_cb(ctx, a, b):
    f = _from_ctx(ctx)
    try:
        return bool(f(_to_py(a), _to_py(b)))
    except BaseException:
        _unraisable("Exception ignored in an rxc distinct_until_changed comparer "
                    "(the values count as different)", f)
        return False


@ffi.callback("rx_observable *(void *, const rx_error *)")
def _catch_cb(ctx, err):
    try:
        r = _from_ctx(ctx)(_error_to_py(err))
        return NULL if r is None else _owned_observable(r)
    except BaseException as e:  # the handler failed: the stream fails with its exception
        return _throw_ptr(e)


@ffi.callback("rx_observable *(void *, rx_observable *, rx_error **)")
def _retry_when_cb(ctx, errors, err):
    try:
        return _owned_observable(_from_ctx(ctx)(Observable._own(lib.rx_retain(errors))))
    except BaseException as e:  # the handler failed: the stream fails with its exception
        return _throw_ptr(e)


@ffi.callback("rx_observable *(void *)")
def _defer_cb(ctx):
    try:
        return _owned_observable(_from_ctx(ctx)())
    except BaseException as e:
        return _throw_ptr(e)


@ffi.callback("rx_disposable *(void *, rx_emitter *)")
def _create_cb(ctx, emitter):
    f = _from_ctx(ctx)
    em = Emitter(lib.rx_retain(emitter))
    try:
        r = f(em)
        return _disposable_out(r)
    except BaseException as e:
        em.on_error(e)
        return NULL


def _disposable_out(r):
    if r is None:
        return NULL
    if isinstance(r, Disposable):
        return r._take() or NULL
    if callable(r):
        ctx = _put(r)
        p = lib.rx_disposable_create(_action_cb, ctx, _free_cb)
        if p == NULL:
            _drop(ctx)
        return p
    raise TypeError("a create() subscribe function returns None, a Disposable or a callable, "
                    "not %r" % type(r).__name__)


def _throw_ptr(exc):
    err = _error_from_exc(exc)
    try:
        return lib.rx_throw(err)
    finally:
        lib.rx_release(err)


def _owned_observable(x):
    """An owned rx_observable * for an Observable (or anything as_observable takes)."""
    o = as_observable(x)
    return _checkp(lib.rx_retain(o._src()))


# --------------------------------------------------------------------------------------
# Observables
# --------------------------------------------------------------------------------------


def _with_fn(make, tramp, fn, *args):
    """make(*args, tramp, ctx, _free_cb) for an operator taking (fn, ctx, ctx_free), with
    the Python callable fn behind ctx."""
    if not callable(fn):
        raise TypeError("expected a callable, got %r" % type(fn).__name__)
    ctx = _put(fn)
    p = make(*args, tramp, ctx, _free_cb)
    if p == NULL:
        _drop(ctx)  # rejected: the library took nothing and will not call ctx_free
        _checkp(p)
    return p


def _array_of(observables):
    obs = [as_observable(o) for o in observables]
    return obs, (ffi.new("rx_observable *[]", [o._src() for o in obs]) if obs else NULL)


_FLOW_POLICIES = {
    "drop_oldest": lib.RX_OVERFLOW_DROP_OLDEST, "drop_newest": lib.RX_OVERFLOW_DROP_NEWEST,
    "keep_latest": lib.RX_OVERFLOW_KEEP_LATEST, "fail": lib.RX_OVERFLOW_FAIL,
    "block": lib.RX_OVERFLOW_BLOCK,
}


@ffi.callback("void(void *, rx_value)")
def _dropped_cb(ctx, v, _INT=_INT):
    fn = _from_ctx(ctx)
    try:
        fn(v.i if v.kind == _INT else _to_py(v))
    except BaseException:
        _unraisable("Exception ignored in an rxc on_dropped callback", fn)


def _flow(make, capacity, policy, on_dropped, block_timeout):
    """make(opts) with rx_flow_options built from the arguments, as a BoundedObservable."""
    if policy not in _FLOW_POLICIES:
        raise ValueError("policy must be one of %s" % ", ".join(sorted(_FLOW_POLICIES)))
    if on_dropped is not None and not callable(on_dropped):
        raise TypeError("on_dropped must be callable")
    opts = ffi.new("rx_flow_options *")
    opts.struct_size = ffi.sizeof("rx_flow_options")
    opts.capacity = _count(capacity, "capacity", 1)
    opts.policy = _FLOW_POLICIES[policy]
    opts.block_timeout_ns = _INT64_MAX if block_timeout is None else _ns(block_timeout, "block_timeout")
    ctx = NULL
    if on_dropped is not None:
        ctx = _put(on_dropped)
        opts.on_dropped = _dropped_cb
        opts.ctx = ctx
        opts.ctx_free = _free_cb
    p = make(opts)
    if p == NULL and ctx != NULL:
        _drop(ctx)  # rejected: the library took nothing and will not call ctx_free
    o = BoundedObservable._own(p)
    o.flow = (capacity, policy, on_dropped)
    return o


if speedups is not None:
    # The compiled fast path: C trampolines call the callable in the ctx cell directly.
    _obs_next = ffi.cast("void(*)(void *, rx_value)", speedups.on_next)
    _dropped_cb = ffi.cast("void(*)(void *, rx_value)", speedups.dropped)
    _map_cb = ffi.cast("rx_value(*)(void *, rx_value, rx_error **)", speedups.map)
    _pred_cb = ffi.cast("bool(*)(void *, rx_value, rx_error **)", speedups.pred)
    _compact_cb = ffi.cast("bool(*)(void *, rx_value, rx_value *, rx_error **)", speedups.compact)
    _acc_cb = ffi.cast("rx_value(*)(void *, rx_value, rx_value, rx_error **)", speedups.acc)

    def _from_py_at(x, addr):
        ffi.cast("rx_value *", addr)[0] = _from_py(x)

    def _set_error_at(exc, addr):
        ffi.cast("rx_error **", addr)[0] = _error_from_exc(exc)

    speedups.init(lambda addr: _to_py(ffi.cast("rx_value *", addr)[0]), _from_py_at,
                  _set_error_at, _unraisable, _raise_status)


class Observable:
    """An rx_observable: subscribe to it, or chain operators (each a thin call into the
    library returning a new Observable). Sources and arguments are kept by the library as
    needed, so intermediate Observables may be dropped."""

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
        from . import aio
        return aio.aiter(self)

    # ---- scheduling ------------------------------------------------------------------
    def subscribe_on(self, scheduler):
        return self._wrap(lib.rx_subscribe_on(self._src(), scheduler.handle))

    def observe_on(self, scheduler):
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
            o = BoundedObservable._own(lib.rx_rate_limit(self._src(), n, _ns(window, "window"), scheduler.handle, NULL))
            o.flow = (None, policy, on_dropped)
            return o
        return _flow(lambda opts: lib.rx_rate_limit(self._src(), n, _ns(window, "window"), scheduler.handle, opts),
                     capacity, policy, on_dropped, None)

    # ---- transform -------------------------------------------------------------------
    def map(self, fn):
        return self._wrap(_with_fn(lib.rx_map, _map_cb, fn, self._src()))

    def compact_map(self, fn):
        """fn(x) for each value, dropping the values for which it returns None."""
        return self._wrap(_with_fn(lib.rx_compact_map, _compact_cb, fn, self._src()))

    def scan(self, fn, seed):
        with _Borrowed(seed) as s:
            return self._wrap(_with_fn(lib.rx_scan, _acc_cb, fn, self._src(), s))

    def reduce(self, fn, seed):
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
        return self._wrap(_with_fn(lib.rx_flat_map_latest, _flat_cb, fn, self._src()))

    def flat_map_first(self, fn):
        """Like flat_map, one inner observable at a time: values that arrive while it is
        active are ignored (fn is not called for them)."""
        return self._wrap(_with_fn(lib.rx_flat_map_first, _flat_cb, fn, self._src()))

    def concat_map(self, fn):
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
        return self._wrap(_with_fn(lib.rx_filter, _pred_cb, predicate, self._src()))

    def take(self, n):
        return self._wrap(lib.rx_take(self._src(), _count(n, "n")))

    def skip(self, n):
        return self._wrap(lib.rx_skip(self._src(), _count(n, "n")))

    def take_while(self, predicate, inclusive=False):
        """Values while predicate holds; inclusive: also the value that ends it."""
        make = lib.rx_take_while_inclusive if inclusive else lib.rx_take_while
        return self._wrap(_with_fn(make, _pred_cb, predicate, self._src()))

    def skip_while(self, predicate):
        return self._wrap(_with_fn(lib.rx_skip_while, _pred_cb, predicate, self._src()))

    def take_until(self, other):
        return self._wrap(lib.rx_take_until(self._src(), as_observable(other)._src()))

    def take_until_predicate(self, predicate, inclusive=False):
        """Values until predicate holds for one; inclusive: with that value."""
        make = lib.rx_take_until_predicate
        return self._wrap(_with_fn(make, _pred_cb, predicate, self._src(), bool(inclusive)))

    def skip_until(self, other):
        return self._wrap(lib.rx_skip_until(self._src(), as_observable(other)._src()))

    def skip_duration(self, duetime, scheduler=None):
        """Drops the elements of the first duetime (seconds or a timedelta) after subscribing."""
        return self._wrap(lib.rx_skip_duration(self._src(), _ns(duetime, "duetime"), _sched(scheduler)))

    def take_duration(self, duetime, scheduler=None):
        """Mirrors the source for duetime (seconds or a timedelta) after subscribing, then completes."""
        return self._wrap(lib.rx_take_duration(self._src(), _ns(duetime, "duetime"), _sched(scheduler)))

    def take_last(self, n):
        return self._wrap(lib.rx_take_last(self._src(), _count(n, "n")))

    def distinct_until_changed(self, comparer=None):
        if comparer is None:
            return self._wrap(lib.rx_distinct_until_changed(self._src(), NULL, NULL, NULL))
        return self._wrap(_with_fn(lib.rx_distinct_until_changed, _equal_cb, comparer, self._src()))

    def element_at(self, index):
        return self._wrap(lib.rx_element_at(self._src(), _count(index, "index")))

    def first(self):
        return self._wrap(lib.rx_first(self._src()))

    def last(self):
        return self._wrap(lib.rx_last(self._src()))

    def single(self):
        """The only value (RxError ERROR_NO_ELEMENTS if none, ERROR_MORE_THAN_ONE_ELEMENT at a
        second one)."""
        return self._wrap(lib.rx_single(self._src()))

    def ignore_elements(self):
        return self._wrap(lib.rx_ignore_elements(self._src()))

    def default_if_empty(self, value):
        """The source's values, or `value` alone if it completes empty."""
        with _Borrowed(value) as v:
            return self._wrap(lib.rx_default_if_empty(self._src(), v))

    def switch_if_empty(self, fallback):
        """The source's values, or `fallback`'s if it completes empty."""
        return self._wrap(lib.rx_switch_if_empty(self._src(), as_observable(fallback)._src()))

    def debounce(self, duetime, scheduler=None):
        return self._wrap(lib.rx_debounce(self._src(), _ns(duetime, "duetime"), _sched(scheduler)))

    def throttle(self, duetime, latest=True, scheduler=None):
        return self._wrap(lib.rx_throttle(self._src(), _ns(duetime, "duetime"), bool(latest), _sched(scheduler)))

    def sample(self, sampler):
        return self._wrap(lib.rx_sample(self._src(), as_observable(sampler)._src()))

    # ---- combine ---------------------------------------------------------------------
    def merge(self, *others):
        return merge(self, *others)

    def concat(self, *others):
        return concat(self, *others)

    def combine_latest(self, *others, selector=None):
        return combine_latest(self, *others, selector=selector)

    def zip(self, *others, selector=None):
        return zip_(self, *others, selector=selector)

    def with_latest_from(self, other, selector=None):
        o = as_observable(other)
        if selector is None:
            return self._wrap(lib.rx_with_latest_from(self._src(), o._src(), NULL, NULL, NULL))
        return self._wrap(_with_fn(lib.rx_with_latest_from, _combine_cb, selector, self._src(), o._src()))

    def start_with(self, *values):
        vals = [_from_py(x) for x in values]
        try:
            arr = ffi.new("rx_value[]", vals) if vals else NULL
            return self._wrap(lib.rx_start_with(self._src(), arr, len(vals)))
        finally:
            for v in vals:
                _release(v)

    def switch_latest(self):
        return self._wrap(lib.rx_switch_latest(self._src()))

    def amb(self, *others):
        return amb(self, *others)

    # ---- errors ----------------------------------------------------------------------
    def catch(self, handler):
        """On error, continues with handler(error) (an Observable; None keeps the error),
        or with handler itself when it is an Observable."""
        if isinstance(handler, Observable):
            return self._wrap(lib.rx_catch_with(self._src(), handler._src()))
        return self._wrap(_with_fn(lib.rx_catch, _catch_cb, handler, self._src()))

    def catch_and_return(self, value):
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
        return self._wrap(lib.rx_delay(self._src(), _ns(duetime, "duetime"), _sched(scheduler)))

    def delay_subscription(self, duetime, scheduler=None):
        return self._wrap(lib.rx_delay_subscription(self._src(), _ns(duetime, "duetime"), _sched(scheduler)))

    def materialize(self):
        return self._wrap(lib.rx_materialize(self._src()))

    def dematerialize(self):
        return self._wrap(lib.rx_dematerialize(self._src()))

    # ---- sharing ---------------------------------------------------------------------
    def share(self):
        return self._wrap(lib.rx_share(self._src()))

    def share_replay(self, n):
        return self._wrap(lib.rx_share_replay(self._src(), _count(n, "n")))

    def publish(self):
        return ConnectableObservable._own(lib.rx_publish(self._src()))

    def replay(self, n=0):
        return ConnectableObservable._own(lib.rx_replay(self._src(), _count(n, "n")))

    def replay_all(self):
        return ConnectableObservable._own(lib.rx_replay_all(self._src()))

    def multicast(self, subject):
        """Connectable through `subject` (a Subject, not a relay), the same for every connection."""
        return ConnectableObservable._own(lib.rx_multicast(self._src(), subject._subject()))

    def share_forever(self, n=0):
        """share_replay(n) whose subject outlives the connection: late subscribers after the
        end get the replay and the terminal event, without a new subscription of the source."""
        return self._wrap(lib.rx_share_forever(self._src(), n))

    # ---- traits ----------------------------------------------------------------------
    def as_driver(self, on_error_value=None):
        with _Borrowed(on_error_value) as v:
            return Driver._own(lib.rx_as_driver(self._src(), v))

    def as_signal(self, on_error_value=None):
        """A driver without the replay: late subscribers see only later values."""
        with _Borrowed(on_error_value) as v:
            return Signal._own(lib.rx_as_signal(self._src(), v))

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


def _blocking(fn, src, timeout):
    out = ffi.new("rx_value *")
    err = ffi.new("rx_error **")
    ns = -1 if timeout is None else _ns(timeout, "timeout")
    st = fn(src, ns, out, err)
    if st == lib.RX_ETIMEOUT:
        raise RxTimeoutError(st, "%s: no terminal event within %g s" % (_caller(), ns / 1e9))
    return _blocking_result(st, out, err)


def _blocking_result(st, out, err):
    """(True, the value) or (False, the stream's exception, to raise); raises for a failed
    call."""
    if st == 0:
        try:
            return True, _to_py(out[0])
        finally:
            lib.rx_value_release(out[0])
    if st == lib.RX_ESTREAM:
        try:
            return False, _raising(_error_to_py(err[0]))
        finally:
            lib.rx_release(err[0])
    _raise_status(st)


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
        return Disposable(_checkp(lib.rx_connect(self._src())))

    def ref_count(self):
        return Observable._own(lib.rx_ref_count(self._src()))


class Driver(Observable):
    """From as_driver(): never errors, delivers on the main scheduler, replays the latest."""

    __slots__ = ()

    def drive(self, observer=None, on_next=None, on_completed=None, on_disposed=None):
        sub = _observer_parts(observer, on_next, None, on_completed, on_disposed)
        return _subscribe_trait(sub, lambda ctx: lib.rx_drive(self._src(), _observer_struct(sub, ctx)))


def _subscribe_trait(sub, subscribe):
    ctx = _put(sub)
    p = subscribe(ctx)
    if p == NULL:
        _drop(ctx)  # no callback will ever run
        _checkp(p)
    _track(sub, p)
    return Disposable(p)


class Signal(Observable):
    """From as_signal(): never errors, delivers on the main scheduler, no replay."""

    __slots__ = ()

    def emit(self, observer=None, on_next=None, on_completed=None, on_disposed=None):
        sub = _observer_parts(observer, on_next, None, on_completed, on_disposed)
        return _subscribe_trait(sub, lambda ctx: lib.rx_emit(self._src(), _observer_struct(sub, ctx)))


class Emitter(_Handle):
    """The emitter of a create() subscription; usable from any thread, also after the
    subscribe function returned. on_next returns False once the subscription is disposed."""

    __slots__ = ()

    def on_next(self, value):
        with _Borrowed(value) as v:
            st = lib.rx_emitter_next(self.handle, v)
        return _emit_status(st)

    def on_error(self, error):
        e = _ErrorRef(error if isinstance(error, BaseException) else RxError(str(error)))
        return _emit_status(lib.rx_emitter_error(self.handle, e.ptr))

    def on_completed(self):
        return _emit_status(lib.rx_emitter_completed(self.handle))

    @property
    def is_disposed(self):
        return bool(lib.rx_emitter_is_disposed(self.handle))


def _emit_status(st):
    if st == 0:
        return True
    if st == lib.RX_EDISPOSED:
        return False
    _raise_status(st)


# ---- creation --------------------------------------------------------------------------


def as_observable(x):
    """x itself if an Observable, a Subject's observable, else of(*x) for an iterable."""
    if isinstance(x, Observable):
        return x
    if isinstance(x, (list, tuple)):
        return of(*x)
    raise TypeError("expected an Observable, got %r" % type(x).__name__)


def create(subscribe):
    """An observable whose subscriptions run subscribe(emitter) (RxSwift's create). It may
    return None, a Disposable or a callable, disposed / called when the subscription ends."""
    return Observable._own(_with_fn(lib.rx_create, _create_cb, subscribe))


def just(value):
    with _Borrowed(value) as v:
        return Observable._own(lib.rx_just(v))


return_value = just


def of(*values):
    vals = [_from_py(x) for x in values]
    try:
        return Observable._own(lib.rx_of(ffi.new("rx_value[]", vals) if vals else NULL, len(vals)))
    finally:
        for v in vals:
            _release(v)


def from_iterable(iterable):
    """The values of a finite iterable, taken now (rx_of)."""
    return of(*iterable)


def range_(start, count=None):
    """range(count) or range(start, count): count ints from start (rx_range's arguments)."""
    if count is None:
        start, count = 0, start
    return Observable._own(lib.rx_range(_count(start, "start", _INT64_MIN), _count(count, "count")))


def empty():
    return Observable._own(lib.rx_empty())


def never():
    return Observable._own(lib.rx_never())


def throw(error):
    e = _ErrorRef(error if isinstance(error, BaseException) else RxError(str(error)))
    return Observable._own(lib.rx_throw(e.ptr))


def defer(factory):
    return Observable._own(_with_fn(lib.rx_defer, _defer_cb, factory))


def repeat_element(value, scheduler=None):
    """value again and again, one per action on scheduler (None: the current-thread
    scheduler); it never ends by itself: stop it with take(...) or the like."""
    with _Borrowed(value) as v:
        return Observable._own(lib.rx_repeat_element(v, scheduler.handle if scheduler is not None else NULL))


def generate(initial, condition, iterate, scheduler=None):
    """initial, iterate(initial), ... while condition(state) holds, one per action on
    scheduler (None: the current-thread scheduler)."""
    ctx = _put((condition, iterate))
    with _Borrowed(initial) as v:
        p = lib.rx_generate(v, scheduler.handle if scheduler is not None else NULL, _gen_cond_cb,
                            _gen_iter_cb, ctx, _free_cb)
    if p == NULL:
        _drop(ctx)
    return Observable._own(p)


def using(create, use, release=None):
    """A resource per subscription: create() makes it, use(resource) gives the Observable
    that reads it, and release(resource) runs once when that subscription ends."""
    ctx = _put((create, use, release))
    p = lib.rx_using(_using_create_cb, _using_use_cb, _using_release_cb, ctx, _free_cb)
    if p == NULL:
        _drop(ctx)
    return Observable._own(p)


def interval(period, scheduler=None):
    return Observable._own(lib.rx_interval(_ns(period, "period"), _sched(scheduler)))


def timer(duetime, period=None, scheduler=None):
    return Observable._own(lib.rx_timer(_ns(duetime, "duetime"), -1 if period is None else _ns(period, "period"),
                                        _sched(scheduler)))


def merge(*sources, max_concurrent=0):
    """The values of all sources as they come; max_concurrent > 0: that many subscribed at
    once at most, the next when one completes."""
    keep, arr = _array_of(sources)
    if max_concurrent:
        return Observable._own(lib.rx_merge_max(arr, len(keep), max_concurrent))
    return Observable._own(lib.rx_merge(arr, len(keep)))


def concat(*sources):
    keep, arr = _array_of(sources)
    return Observable._own(lib.rx_concat(arr, len(keep)))


def amb(*sources):
    keep, arr = _array_of(sources)
    return Observable._own(lib.rx_amb(arr, len(keep)))


def combine_latest(*sources, selector=None):
    """selector(*latest) whenever any emits (a list of the latest values without one)."""
    keep, arr = _array_of(sources)
    if selector is None:
        return Observable._own(lib.rx_combine_latest(arr, len(keep), NULL, NULL, NULL))
    return Observable._own(_with_fn(lib.rx_combine_latest, _combine_cb, selector, arr, len(keep)))


def zip_(*sources, selector=None):
    """selector(*k-th values) for each k (a list without one)."""
    keep, arr = _array_of(sources)
    if selector is None:
        return Observable._own(lib.rx_zip(arr, len(keep), NULL, NULL, NULL))
    return Observable._own(_with_fn(lib.rx_zip, _combine_cb, selector, arr, len(keep)))


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
        with _close_lock:
            s, self._s = self._s, None
            em = self.__dict__.get("_emitter")
            if em is not None:
                em.close()
        if s is not None:
            ffi.release(s)

    def on_next(self, value):
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
        e = _ErrorRef(error if isinstance(error, BaseException) else RxError(str(error)))
        _check(lib.rx_subject_on_error(self._subject(), e.ptr))

    def on_completed(self):
        _check(lib.rx_subject_on_completed(self._subject()))

    @property
    def has_observers(self):
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
    __slots__ = ()

    def __init__(self):
        super().__init__(lib.rx_publish_subject_new())


class BehaviorSubject(Subject):
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
    __slots__ = ()

    def __init__(self, initial):
        with _Borrowed(initial) as v:
            super().__init__(lib.rx_behavior_relay_new(v))

    accept = Subject.on_next


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
        return self._schedule(lib.rx_schedule_after, action, _ns(delay, "delay"))

    def schedule_recursive(self, action):
        """Runs action(recursion) on the scheduler; recursion.recurse() or
        recursion.recurse_after(delay) runs it again. Dispose the result to cancel the chain."""
        return self._schedule(lib.rx_schedule_recursive, action, cb=_recursive_cb)

    def schedule_periodic(self, period, action, start_after=None):
        return self._schedule(lib.rx_schedule_periodic, action,
                              _ns(period if start_after is None else start_after, "start_after"), _ns(period, "period"))

    def now_ns(self):
        return lib.rx_scheduler_now_ns(self.handle)

    def now(self):
        """The scheduler's clock in seconds (monotonic, or virtual for a test scheduler)."""
        return self.now_ns() / 1e9

    @property
    def is_serial(self):
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
    return Scheduler._own(lib.rx_scheduler_immediate())


def current_thread_scheduler():
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
    __slots__ = ()

    def __init__(self, label=None):
        super().__init__(_checkp(lib.rx_scheduler_concurrent_new(_label(label))))


class OperationQueueScheduler(Scheduler):
    __slots__ = ()

    def __init__(self, max_concurrent=1, label=None):
        super().__init__(_checkp(lib.rx_scheduler_operation_queue_new(
            _label(label), max_concurrent)))


class NewThreadScheduler(Scheduler):
    __slots__ = ()

    def __init__(self):
        super().__init__(_checkp(lib.rx_scheduler_new_thread()))


class TestScheduler(Scheduler):
    """Virtual time: work runs only inside advance_to / advance_by / start, on the calling
    thread. Marble helpers: cold(), hot(), expect() (RxJS syntax, one frame = 1 ms)."""

    __slots__ = ()
    __test__ = False  # not a pytest class

    FRAME = lib.RX_MARBLE_FRAME_NS / 1e9

    def __init__(self):
        super().__init__(_checkp(lib.rx_test_scheduler_new()))

    def advance_to(self, time):
        _check(lib.rx_test_scheduler_advance_to(self.handle, _ns(time, "time")))

    def advance_by(self, delta):
        _check(lib.rx_test_scheduler_advance_by(self.handle, _ns(delta, "delta")))

    def start(self):
        """Runs until no work is left (never returns while periodic work is active)."""
        _check(lib.rx_test_scheduler_run(self.handle))

    def _marble_args(self, values, error):
        items = [(k, _from_py(v)) for k, v in (values or {}).items()]
        table = ffi.new("rx_marble_value[]", [{"key": k.encode(), "value": v} for k, v in items]) \
            if items else NULL
        err = _ErrorRef(error) if error is not None else None
        return items, table, err

    def _marble(self, make, marble, values, error):
        items, table, err = self._marble_args(values, error)
        try:
            return Observable._own(make(self.handle, marble.encode(), table, len(items),
                                        err.ptr if err else NULL))
        finally:
            for _k, v in items:
                _release(v)

    def cold(self, marble, values=None, error=None):
        return self._marble(lib.rx_marble_cold, marble, values, error)

    def hot(self, marble, values=None, error=None):
        return self._marble(lib.rx_marble_hot, marble, values, error)

    def expect(self, observable, expected, values=None, error=None):
        """Subscribes, runs the clock, compares (a mismatch prints a diff to stderr)."""
        items, table, err = self._marble_args(values, error)
        try:
            return bool(lib.rx_marble_expect(self.handle, as_observable(observable)._src(),
                                             expected.encode(), table, len(items),
                                             err.ptr if err else NULL))
        finally:
            for _k, v in items:
                _release(v)


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
    _check(lib.rx_main_run_for(_ns(timeout, "timeout")))


def main_drain():
    """Runs the main-scheduler work pending now; returns how many actions ran."""
    return lib.rx_main_drain()


def main_stop():
    _check(lib.rx_main_stop())


def main_fd():
    return lib.rx_main_fd()


# ---- interpreter exit ----------------------------------------------------------------------


def _shutdown(timeout=3.0, settle=0.05):
    """At interpreter exit: dispose every live subscription and pending scheduled action,
    then wait, the GIL released, until their last callbacks ran and the library is still:
    no Python object handed to it and no library object has come or gone for `settle`
    seconds (at most `timeout` seconds in all).

    Why: once the interpreter finalizes, a library thread that calls into Python cannot
    take the GIL, and CPython (3.11 to 3.13) ends such a thread with pthread_exit, inside
    libdispatch's worker, which then traps (SIGILL in _libdispatch_tsd_cleanup). The
    callbacks that still come after a subscription's on_disposed (an operator's ctx_free,
    an object's destroy function, when they are the last to go) have no event to wait for,
    hence the settle time."""
    deadline = time.monotonic() + timeout
    for h in list(_keep.values()):
        o = _kept(h)
        if type(o) is _Sub or type(o) is _Scheduled:
            with _close_lock:
                t, o.token = o.token, None
            if t is not None:
                lib.rx_dispose(t)  # disposes, and releases our reference
    last, since = None, time.monotonic()
    while time.monotonic() < deadline:
        live = [_kept(h) for h in list(_keep.values())]
        pending = any(type(o) is _Sub or type(o) is _Scheduled for o in live)
        state = (len(live), lib.rx_debug_live_objects())
        now = time.monotonic()
        if state != last:
            last, since = state, now
        elif not pending and now - since >= settle:
            return
        time.sleep(0.002)


atexit.register(_shutdown)


# ---- misc ------------------------------------------------------------------------------


def version():
    return ffi.string(lib.rx_version()).decode()


def live_objects():
    """rx_debug_live_objects(): the library's live objects (handles, sinks, boxes...)."""
    return lib.rx_debug_live_objects()
