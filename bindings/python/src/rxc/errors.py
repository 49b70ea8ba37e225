"""Errors: the exceptions rxc raises, the library's error codes, and how a Python exception
becomes a stream's rx_error and back (it travels as itself)."""
import collections
import sys
import threading
import traceback

from ._ffi import NULL, _addr, ffi, lib

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
