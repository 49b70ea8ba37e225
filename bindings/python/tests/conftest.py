import gc
import os
import sys
import time
import types

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
# Test the source tree (set RXC_TEST_INSTALLED=1 to test an installed package instead).
# The source tree loads build/lib's librxc unless RXC_LIBRARY says otherwise; an installed
# package finds its own (a wheel's bundled one first).
if os.environ.get("RXC_TEST_INSTALLED") != "1":
    sys.path.insert(0, os.path.join(HERE, "..", "src"))
    _built = os.path.join(ROOT, "build", "lib", "librxc.so")
    if "RXC_LIBRARY" not in os.environ and os.path.exists(_built):
        os.environ["RXC_LIBRARY"] = _built

import rxc  # noqa: E402

# The shared schedulers may count as live objects from their first use on: use them before
# any test takes its baseline.
rxc.default_scheduler()
rxc.main_scheduler()
rxc.immediate_scheduler()
rxc.current_thread_scheduler()


def settle(pred, timeout=5.0):
    """Waits (collecting garbage) until pred() holds; returns its last result."""
    deadline = time.monotonic() + timeout
    while True:
        gc.collect()
        ok = pred()
        if ok or time.monotonic() > deadline:
            return ok
        time.sleep(0.005)


@pytest.fixture(autouse=True)
def no_leaks():
    """Every test leaves rx_debug_live_objects() and the callback registry as it found them."""
    gc.collect()
    objects, callbacks = rxc.live_objects(), rxc.live_callbacks()
    yield
    settle(lambda: rxc.live_objects() == objects and rxc.live_callbacks() == callbacks)
    assert (rxc.live_objects(), rxc.live_callbacks()) == (objects, callbacks), \
        "live objects / registered callbacks: before %r, after %r" % (
            (objects, callbacks), (rxc.live_objects(), rxc.live_callbacks()))


@pytest.fixture
def unraisable(monkeypatch):
    """The exceptions reported through sys.unraisablehook during the test."""
    seen = []

    def hook(args):  # keeps no traceback: its frames would keep handles alive
        if args.exc_value is not None:
            args.exc_value.__traceback__ = None
        seen.append(types.SimpleNamespace(exc_type=args.exc_type, exc_value=args.exc_value,
                                          err_msg=args.err_msg))
    monkeypatch.setattr(sys, "unraisablehook", hook)
    return seen


class Recorder:
    """An observer that records events: next values, ("error", e), ("completed",), ("disposed",)."""

    def __init__(self):
        self.events = []
        self.values = []
        self.error = None
        self.completed = False
        self.disposed = False

    def on_next(self, v):
        self.values.append(v)
        self.events.append(v)

    def on_error(self, e):
        self.error = e
        self.events.append(("error", e))

    def on_completed(self):
        self.completed = True
        self.events.append(("completed",))

    def on_disposed(self):
        self.disposed = True


@pytest.fixture
def rec():
    return Recorder()
