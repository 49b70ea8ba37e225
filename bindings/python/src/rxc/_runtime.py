"""The interpreter-exit handler and the library's version and counters."""
import atexit
import time

from ._ffi import ffi, lib
from ._values import _keep, _kept
from .disposables import _close_lock
from ._values import _Scheduled, _Sub

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
    """librxc's version string."""
    return ffi.string(lib.rx_version()).decode()


def live_objects():
    """rx_debug_live_objects(): the library's live objects (handles, sinks, boxes...)."""
    return lib.rx_debug_live_objects()
