"""Run loops (rxc.h's rx_run_loop_*): work scheduled on a loop runs on the one thread that
drives it, through run(), run_for(), drain(), or the program's own poll loop on fd."""
from ._ffi import ffi, lib
from .errors import _check, _checkp
from ._values import _ns
from .disposables import _Handle
from .schedulers import Scheduler


class RunLoop(_Handle):
    """A run loop of the program's own, bound to the first thread that drives it (run,
    run_for or drain); any thread may schedule on it through .scheduler. Closing it (or
    its collection) drops the work still queued. RunLoop.main() is the main thread's loop.

    The C calls release the GIL: a run() blocks only its own thread, and the loop's work
    (Python callables) takes the GIL while it runs."""

    __slots__ = ()

    def __init__(self):
        super().__init__(_checkp(lib.rx_run_loop_new(), "rx_run_loop_new"))

    @classmethod
    def main(cls):
        """The main thread's loop (a shared instance; closing it does nothing)."""
        loop = cls.__new__(cls)
        _Handle.__init__(loop, _checkp(lib.rx_run_loop_main(), "rx_run_loop_main"))
        return loop

    @property
    def scheduler(self):
        """A Scheduler whose work runs on this loop."""
        return Scheduler._own(lib.rx_retain(lib.rx_run_loop_scheduler(self.handle)))

    @property
    def fd(self):
        """Readable exactly while work is pending: poll it, then call drain()."""
        fd = lib.rx_run_loop_fd(self.handle)
        if fd < 0:
            _checkp(ffi.NULL, "rx_run_loop_fd")
        return fd

    def run(self):
        """Runs the loop's work until stop() (InvalidStateError on a thread the loop is not
        bound to, or from inside its own work)."""
        _check(lib.rx_run_loop_run(self.handle))

    def run_for(self, timeout):
        """run() for at most timeout seconds (or until stop())."""
        _check(lib.rx_run_loop_run_for(self.handle, _ns(timeout, "timeout")))

    def drain(self):
        """Runs the work ready now, without waiting; returns how many actions ran (0 also on
        a thread the loop is not bound to: see last_error())."""
        return lib.rx_run_loop_drain(self.handle)

    def stop(self):
        """Makes the current (or next) run() return; from any thread."""
        _check(lib.rx_run_loop_stop(self.handle))
