"""TestScheduler: virtual time and RxJS marbles."""
from ._ffi import ffi, lib
from .errors import _ErrorRef, _check, _checkp
from ._values import NULL, _from_py, _ns, _release
from .schedulers import Scheduler
from .observable import Observable, as_observable

class TestScheduler(Scheduler):
    """Virtual time: work runs only inside advance_to / advance_by / start, on the calling
    thread. Marble helpers: cold(), hot(), expect() (RxJS syntax, one frame = 1 ms)."""

    __slots__ = ()
    __test__ = False  # not a pytest class

    FRAME = lib.RX_MARBLE_FRAME_NS / 1e9

    def __init__(self):
        super().__init__(_checkp(lib.rx_test_scheduler_new()))

    def advance_to(self, time):
        """Runs the virtual-time work due up to `time` seconds."""
        _check(lib.rx_test_scheduler_advance_to(self.handle, _ns(time, "time")))

    def advance_by(self, delta):
        """Runs the virtual-time work due within `delta` more seconds."""
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
        """A cold Observable from an RxJS marble string (each subscriber gets the
        timeline from its subscription)."""
        return self._marble(lib.rx_marble_cold, marble, values, error)

    def hot(self, marble, values=None, error=None):
        """A hot Observable from an RxJS marble string (one timeline, from time 0)."""
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
