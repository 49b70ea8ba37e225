"""Marble diagrams made by running each operator on the test scheduler of the built library.

Each diagram: input observables (rx_marble_hot / rx_marble_cold, or the library's own
creation operators), the operator applied to them, and recorders subscribed to the inputs
and to the result. The scheduler is advanced to the end and what the recorders saw (virtual
time, event) is drawn as an SVG in the RxJS marble style. Nothing is drawn from the marble
strings themselves: a diagram shows what the library did.
"""
import html
import re
import subprocess

import cffi

import rxc_header

ffi = cffi.FFI()
lib = None
NULL = ffi.NULL
FRAME = 1000000  # replaced by RX_MARBLE_FRAME_NS from the header once loaded
_keep = []  # callbacks and C arrays handed to the library live until the process ends


def load(header, library, cc="cc"):
    global lib, FRAME
    cdef = subprocess.run([cc, "-E", "-P", "-DRX_CDEF", "-x", "c", header],
                          check=True, capture_output=True, text=True).stdout
    ffi.cdef(cdef)
    lib = ffi.dlopen(library)
    # #defines do not survive cc -E: read the frame length from the header's text
    m = re.search(r"^#define RX_MARBLE_FRAME_NS (\d+)", open(header).read(), re.M)
    FRAME = int(m.group(1))
    for f in rxc_header.operators(header):
        if f.example and f.name not in DIAGRAMS and f.name not in NO_DIAGRAM:
            diagram(f.name, 14)(_example_diagram(f.example))
    return [k.split(" ", 1)[1] for k in ffi._parser._declarations if k.startswith("function ")]


def keep(x):
    _keep.append(x)
    return x


_libc = cffi.FFI()
_libc.cdef("void *fopen(const char *, const char *);")


def devnull():
    """A FILE * on /dev/null, for rx_debug (open until the process ends)."""
    f = _libc.dlopen(None).fopen(b"/dev/null", b"w")
    return ffi.cast("rx_file *", int(_libc.cast("uintptr_t", f)))


# ---- values as labels ----------------------------------------------------------------------
OBS_NAMES = {}  # address of an observable -> the name a diagram gave it


def addr(p):
    return int(ffi.cast("uintptr_t", p))


def label(v):
    k = v.kind
    if k == lib.RX_INT:
        return str(v.i)
    if k == lib.RX_STRING:
        return ffi.string(lib.rx_value_string(v)).decode()
    if k == lib.RX_BOOL:
        return "true" if v.i else "false"
    if k == lib.RX_DOUBLE:
        return f"{lib.rx_value_double(v):g}"
    if k == lib.RX_ARRAY:
        return "[" + ",".join(label(lib.rx_array_get(v, j)) for j in range(lib.rx_array_count(v))) + "]"
    if k == lib.RX_OBSERVABLE:
        return OBS_NAMES.get(addr(lib.rx_value_observable(v))) or group_label(lib.rx_value_observable(v))
    if k == lib.RX_EVENT:
        ek = lib.rx_value_event_kind(v)
        if ek == lib.RX_EVENT_NEXT:
            return f"N({label(lib.rx_value_event_value(v))})"
        return "E" if ek == lib.RX_EVENT_ERROR else "C"
    if k == lib.RX_NONE:
        return "none"
    return "?"


def group_label(o):
    """"g" and the key for a group of rx_group_by, else "obs"."""
    key = ffi.new("rx_value *")
    if lib.rx_group_key(o, key) != lib.RX_OK:
        return "obs"
    text = "g" + label(key[0])
    lib.rx_value_release(key[0])
    return text


def error_text(e):
    return f"error {lib.rx_error_code(e)}: {ffi.string(lib.rx_error_message(e)).decode()}"


# ---- recording -------------------------------------------------------------------------------
class Line:
    """One horizontal line of a diagram: an observable and what a subscription to it saw."""

    def __init__(self, name, obs, at=0, dispose_at=None):
        self.name, self.obs, self.at, self.dispose_at = name, obs, at, dispose_at
        self.events = []  # (frame, "N" | "E" | "C", label)
        self.token = None


class Run:
    """One diagram being run: a fresh test scheduler and the things to release after."""

    def __init__(self):
        self.ts = lib.rx_test_scheduler_new()
        self.owned = []

    def own(self, h):
        if h == NULL:
            raise RuntimeError("the library returned NULL: " + ffi.string(lib.rx_last_error()).decode())
        self.owned.append(h)
        return h

    def frame(self):
        return lib.rx_scheduler_now_ns(self.ts) / FRAME

    def values(self, table):
        """An rx_marble_value table from {char: rx_value}."""
        arr = keep(ffi.new(f"rx_marble_value[{max(len(table), 1)}]"))
        for j, (ch, v) in enumerate(table.items()):
            arr[j].key = ch.encode()
            arr[j].value = v
        return arr, len(table)

    def hot(self, marble, table=None):
        arr, n = self.values(table or {})
        return self.own(lib.rx_marble_hot(self.ts, marble.encode(), arr, n, NULL))

    def cold(self, marble, table=None):
        arr, n = self.values(table or {})
        return self.own(lib.rx_marble_cold(self.ts, marble.encode(), arr, n, NULL))

    def at(self, frame, fn):
        """Runs fn() at virtual frame `frame` (now when 0)."""
        if frame == 0:
            fn()
            return
        act = _cb("void(*)(void *)", lambda ctx: (fn(), None)[1])
        tok = lib.rx_schedule_after(self.ts, int(frame * FRAME), act, NULL, NULL)
        self.owned.append(tok)

    def watch(self, name, obs):
        """(line, observable): the observable to hand the operator in place of obs, and a
        line that records the operator's own subscription to it: subscription time (through
        rx_defer), events and an early dispose (through rx_do)."""
        line = Line(name, None, at=None)

        def factory(ctx):
            if line.at is None:
                line.at = self.frame()
            return ffi.cast("rx_observable *", lib.rx_retain(obs))

        def on_disposed(ctx):
            if not any(k != "N" for _, k, _ in line.events):
                line.dispose_at = self.frame()

        tap = keep(ffi.new("rx_observer *"))
        self.recorder(line, tap)
        tap.on_disposed = _cb("void(*)(void *)", on_disposed)
        deferred = self.own(lib.rx_defer(_cb("rx_observable *(*)(void *)", factory), NULL, NULL))
        return line, self.own(lib.rx_do(deferred, tap[0], NULL))

    def recorder(self, line, o):
        """Fills the rx_observer o with callbacks that record into line."""
        def on_next(ctx, v):
            line.events.append((self.frame(), "N", label(v)))

        def on_error(ctx, e):
            line.events.append((self.frame(), "E", error_text(e)))

        def on_completed(ctx):
            line.events.append((self.frame(), "C", ""))

        o.on_next = _cb("void(*)(void *, rx_value)", on_next)
        o.on_error = _cb("void(*)(void *, rx_error *)", on_error)
        o.on_completed = _cb("void(*)(void *)", on_completed)

    def subscribe(self, line):
        o = keep(ffi.new("rx_observer *"))
        self.recorder(line, o)

        def go():
            line.token = lib.rx_subscribe(line.obs, o[0])
            if line.token == NULL:
                raise RuntimeError(f"rx_subscribe failed for {line.name}")
        self.at(line.at, go)
        if line.dispose_at is not None:
            self.at(line.dispose_at, lambda: lib.rx_dispose(line.token))

    def finish(self, frames, lines):
        rc = lib.rx_test_scheduler_advance_to(self.ts, int(frames * FRAME))
        if rc != lib.RX_OK:
            raise RuntimeError(f"advance_to: status {rc}")
        for ln in lines:
            if ln.token is not None and ln.dispose_at is None:
                lib.rx_dispose(ln.token)
        for h in reversed(self.owned):
            if h != NULL:
                lib.rx_release(h)
        lib.rx_release(self.ts)


# ---- callbacks, made once ------------------------------------------------------------------
FAILURES = []  # exceptions raised inside callbacks (cffi would only print them)


def _cb(ctype, fn):
    def safe(*args):
        try:
            return fn(*args)
        except Exception as e:  # noqa: BLE001 - reported by run()
            FAILURES.append(f"{type(e).__name__}: {e}")
            raise
    return keep(ffi.callback(ctype, safe))


MAP_FN = "rx_value(*)(void *, rx_value, rx_error * *)"
PRED_FN = "_Bool(*)(void *, rx_value, rx_error * *)"
ACC_FN = "rx_value(*)(void *, rx_value, rx_value, rx_error * *)"
FLAT_FN = "rx_observable *(*)(void *, rx_value, rx_error * *)"
COMBINE_FN = "rx_value(*)(void *, rx_value *, size_t, rx_error * *)"
CATCH_FN = "rx_observable *(*)(void *, rx_error *)"


def obs_array(*obs):
    return keep(ffi.new(f"rx_observable *[{len(obs)}]", list(obs))), len(obs)


def value_array(*vals):
    return keep(ffi.new(f"rx_value[{len(vals)}]", list(vals))), len(vals)


# ---- the diagrams ------------------------------------------------------------------------------
# Each returns (call text for the box, input lines, output lines, frames). `r` is the Run.
DIAGRAMS = {}


def diagram(name, frames):
    def reg(fn):
        DIAGRAMS[name] = (fn, frames)
        return fn
    return reg


def F(n):
    return int(n * FRAME)


def mapper(r, fn):
    return _cb(MAP_FN, lambda ctx, v, err: fn(v))


def inner_cold(r, marble):
    """A flat_map function: each value v becomes a cold marble whose 'x' stands for v."""
    def fn(ctx, v, err):
        arr, n = r.values({"x": v})
        return lib.rx_marble_cold(r.ts, marble.encode(), arr, n, NULL)  # owned by the library
    return _cb(FLAT_FN, fn)


def combine_labels(r):
    def fn(ctx, values, n, err):
        return lib.rx_string("".join(label(values[j]) for j in range(n)).encode())
    return _cb(COMBINE_FN, fn)


# creation (section 6)
@diagram("rx_just", 4)
def _(r):
    return "rx_just(7)", [], [Line("out", r.own(lib.rx_just(lib.rx_int(7))))]


@diagram("rx_of", 4)
def _(r):
    arr, n = value_array(lib.rx_int(1), lib.rx_int(2), lib.rx_int(3))
    return "rx_of({1, 2, 3}, 3)", [], [Line("out", r.own(lib.rx_of(arr, n)))]


@diagram("rx_range", 4)
def _(r):
    return "rx_range(3, 4)", [], [Line("out", r.own(lib.rx_range(3, 4)))]


@diagram("rx_empty", 4)
def _(r):
    return "rx_empty()", [], [Line("out", r.own(lib.rx_empty()))]


@diagram("rx_never", 6)
def _(r):
    return "rx_never()", [], [Line("out", r.own(lib.rx_never()))]


@diagram("rx_throw", 4)
def _(r):
    e = lib.rx_error_new(lib.RX_ERROR_USER, b"boom")
    out = r.own(lib.rx_throw(e))
    lib.rx_release(e)
    return "rx_throw(error)", [], [Line("out", out)]


@diagram("rx_repeat_element", 12)
def _(r):
    rep = r.own(lib.rx_repeat_element(lib.rx_int(7), r.ts))
    late = r.own(lib.rx_delay_subscription(rep, F(3), r.ts))
    return "rx_take(rx_delay_subscription(rx_repeat_element(7, test), 3 frames), 4)", [], \
        [Line("out", r.own(lib.rx_take(late, 4)))]


@diagram("rx_generate", 12)
def _(r):
    cond = _cb(PRED_FN, lambda ctx, v, err: v.i < 8)
    step = _cb(MAP_FN, lambda ctx, v, err: lib.rx_int(v.i * 2))
    gen = r.own(lib.rx_generate(lib.rx_int(1), r.ts, cond, step, NULL, NULL))
    return "rx_delay_subscription(rx_generate(1, test, x → x < 8, x → 2x), 2 frames)", [], \
        [Line("out", r.own(lib.rx_delay_subscription(gen, F(2), r.ts)))]


@diagram("rx_using", 12)
def _(r):
    lr, src = r.watch("use(resource) (cold)", r.cold("-1-2-3-|"))
    create = keep(ffi.callback("void *(void *, rx_error **)", lambda ctx, err: NULL))
    use = keep(ffi.callback("rx_observable *(void *, void *, rx_error **)",
                            lambda ctx, res, err: lib.rx_retain(src)))
    return "rx_using(create, use, release, ...): disposed at 4, so released at 4", [lr], \
        [Line("out", r.own(lib.rx_using(create, use, NULL, NULL, NULL)), dispose_at=4)]


@diagram("rx_interval", 12)
def _(r):
    return "rx_interval(2 frames, test)", [], [Line("out", r.own(lib.rx_interval(F(2), r.ts)))]


@diagram("rx_timer", 12)
def _(r):
    return "rx_timer(3 frames, 2 frames, test)", [], \
        [Line("out", r.own(lib.rx_timer(F(3), F(2), r.ts)))]


# scheduling
@diagram("rx_subscribe_on", 12)
def _(r):
    src = r.cold("-1-2-3|")
    return "rx_subscribe_on(src, test)", [Line("src", src)], \
        [Line("out", r.own(lib.rx_subscribe_on(src, r.ts)))]


@diagram("rx_observe_on", 12)
def _(r):
    src = r.hot("-1-2-3|")
    return "rx_observe_on(src, test)", [Line("src", src)], \
        [Line("out", r.own(lib.rx_observe_on(src, r.ts)))]


@diagram("rx_observe_on_bounded", 12)
def _(r):
    # A group reaches the queue in one frame, before the drain runs: capacity 2 keeps the newest two.
    src = r.hot("-1-(2345)-6-|")
    opts = keep(ffi.new("rx_flow_options *"))
    opts.struct_size = ffi.sizeof("rx_flow_options")
    opts.capacity = 2
    opts.policy = lib.RX_OVERFLOW_DROP_OLDEST
    return "rx_observe_on_bounded(src, test, capacity 2, drop oldest)", [Line("src", src)], \
        [Line("out", r.own(lib.rx_observe_on_bounded(src, r.ts, opts)))]


def _pauser(r):
    return r.hot("--t---f---t-----", {"t": lib.rx_bool(True), "f": lib.rx_bool(False)})


@diagram("rx_pausable", 17)
def _(r):
    src, pauser = r.hot("-1-2-3-4-5-6-7-|"), _pauser(r)
    return "rx_pausable(src, pauser)", [Line("src", src), Line("pauser", pauser)], \
        [Line("out", r.own(lib.rx_pausable(src, pauser)))]


@diagram("rx_pausable_buffered", 17)
def _(r):
    src, pauser = r.hot("-1-2-3-4-5-6-7-|"), _pauser(r)
    opts = keep(ffi.new("rx_flow_options *"))
    opts.struct_size = ffi.sizeof("rx_flow_options")
    opts.capacity = 1
    opts.policy = lib.RX_OVERFLOW_DROP_OLDEST
    return "rx_pausable_buffered(src, pauser, capacity 1, drop oldest)", \
        [Line("src", src), Line("pauser", pauser)], \
        [Line("out", r.own(lib.rx_pausable_buffered(src, pauser, opts)))]


@diagram("rx_rate_limit", 18)
def _(r):
    # 2 per 5 frames: the rest wait (unbounded queue), completion behind them.
    src = r.hot("-(12345)-|")
    return "rx_rate_limit(src, 2, 5 frames, test, NULL)", [Line("src", src)], \
        [Line("out", r.own(lib.rx_rate_limit(src, 2, F(5), r.ts, NULL)))]


# transform
@diagram("rx_map", 12)
def _(r):
    src = r.hot("-1-2-3-|")
    fn = mapper(r, lambda v: lib.rx_int(v.i * 10))
    return "rx_map(src, x → 10·x)", [Line("src", src)], \
        [Line("out", r.own(lib.rx_map(src, fn, NULL, NULL)))]


@diagram("rx_scan", 12)
def _(r):
    src = r.hot("-1-2-3-4-|")
    fn = _cb(ACC_FN, lambda ctx, acc, v, err: lib.rx_int(acc.i + v.i))
    return "rx_scan(src, 0, (acc, x) → acc + x)", [Line("src", src)], \
        [Line("out", r.own(lib.rx_scan(src, lib.rx_int(0), fn, NULL, NULL)))]


@diagram("rx_reduce", 12)
def _(r):
    src = r.hot("-1-2-3-4-|")
    fn = _cb(ACC_FN, lambda ctx, acc, v, err: lib.rx_int(acc.i + v.i))
    return "rx_reduce(src, 0, (acc, x) → acc + x)", [Line("src", src)], \
        [Line("out", r.own(lib.rx_reduce(src, lib.rx_int(0), fn, NULL, NULL)))]


@diagram("rx_flat_map", 16)
def _(r):
    src = r.hot("-1--2--3----|")
    return "rx_flat_map(src, x → cold \"x--x--x|\")", [Line("src", src)], \
        [Line("out", r.own(lib.rx_flat_map(src, inner_cold(r, "x--x--x|"), NULL, NULL)))]


@diagram("rx_group_by", 16)
def _(r):
    src = r.hot("-1-2-3-4--5-6-|")

    def parity(ctx, v, err):
        return lib.rx_int(v.i % 2)

    def tag_with_key(ctx, group, err):
        tag = group_label(lib.rx_value_observable(group))
        fn = _cb(MAP_FN, lambda ctx, v, err: lib.rx_string(f"{tag}:{label(v)}".encode()))
        return lib.rx_map(lib.rx_value_observable(group), fn, NULL, NULL)  # owned by the library
    groups = r.own(lib.rx_group_by(src, _cb(MAP_FN, parity), NULL, NULL))
    merged = r.own(lib.rx_flat_map(groups, _cb(FLAT_FN, tag_with_key), NULL, NULL))
    return "rx_group_by(src, x → x % 2): the groups, and their elements merged", [Line("src", src)], \
        [Line("out", groups), Line("flat_map(out, g → g's elements as key:x)", merged)]


@diagram("rx_flat_map_max", 22)
def _(r):
    src = r.hot("-1--2--3----|")
    return "rx_flat_map_max(src, 2, x → cold \"x--x--x|\")", [Line("src", src)], \
        [Line("out", r.own(lib.rx_flat_map_max(src, 2, inner_cold(r, "x--x--x|"), NULL, NULL)))]


@diagram("rx_flat_map_latest", 16)
def _(r):
    src = r.hot("-1--2--3----|")
    return "rx_flat_map_latest(src, x → cold \"x--x--x|\")", [Line("src", src)], \
        [Line("out", r.own(lib.rx_flat_map_latest(src, inner_cold(r, "x--x--x|"), NULL, NULL)))]


@diagram("rx_flat_map_first", 22)
def _(r):
    src = r.hot("-1--2------3----|")
    return "rx_flat_map_first(src, x → cold \"x--x--x|\")", [Line("src", src)], \
        [Line("out", r.own(lib.rx_flat_map_first(src, inner_cold(r, "x--x--x|"), NULL, NULL)))]


@diagram("rx_concat_map", 26)
def _(r):
    src = r.hot("-1--2--3----|")
    return "rx_concat_map(src, x → cold \"x--x--x|\")", [Line("src", src)], \
        [Line("out", r.own(lib.rx_concat_map(src, inner_cold(r, "x--x--x|"), NULL, NULL)))]


@diagram("rx_buffer", 16)
def _(r):
    src = r.hot("-1-2-3-4----5-|")
    return "rx_buffer(src, 5 frames, 3, test)", [Line("src", src)], \
        [Line("out", r.own(lib.rx_buffer(src, F(5), 3, r.ts)))]


@diagram("rx_window", 16)
def _(r):
    src = r.hot("-1-2-3-4----5-|")
    by_frame = {}

    def name_window(ctx, v):
        # The windows that open at one frame (one per subscription) share a name.
        OBS_NAMES[addr(lib.rx_value_observable(v))] = by_frame.setdefault(r.frame(), f"w{len(by_frame)}")

    tap = keep(ffi.new("rx_observer *"))
    tap.on_next = _cb("void(*)(void *, rx_value)", name_window)
    out = r.own(lib.rx_do(r.own(lib.rx_window(src, F(5), 3, r.ts)), tap[0], NULL))
    # A second subscription (its own windows), each window subscribed as it opens and its
    # values labelled with its name.
    def contents(ctx, v, err):
        window = lib.rx_value_observable(v)
        name = OBS_NAMES[addr(window)]
        return lib.rx_map(window, mapper(r, lambda x: lib.rx_string(f"{name}:{x.i}".encode())), NULL, NULL)

    return "rx_window(src, 5 frames, 3, test)", [Line("src", src)], \
        [Line("out (windows)", out), Line("their values", r.own(lib.rx_flat_map(out, _cb(FLAT_FN, contents), NULL, NULL)))]


@diagram("rx_to_array", 12)
def _(r):
    src = r.hot("-1-2-3-|")
    return "rx_to_array(src)", [Line("src", src)], [Line("out", r.own(lib.rx_to_array(src)))]


# filter
def odd(ctx, v, err):
    return v.i % 2 == 1


@diagram("rx_compact_map", 14)
def _(r):
    src = r.hot("-1-2-3-4-5-6-|")

    def halve_even(ctx, v, out, err):
        if v.i % 2:
            return False
        out[0] = lib.rx_int(v.i // 2)
        return True
    fn = keep(ffi.callback("bool(void *, rx_value, rx_value *, rx_error **)", halve_even))
    return "rx_compact_map(src, x → x even ? x / 2 : drop)", [Line("src", src)], \
        [Line("out", r.own(lib.rx_compact_map(src, fn, NULL, NULL)))]


@diagram("rx_enumerated", 12)
def _(r):
    src = r.hot("-a-b--c-|")
    return "rx_enumerated(src)", [Line("src", src)], [Line("out", r.own(lib.rx_enumerated(src)))]


@diagram("rx_filter", 14)
def _(r):
    src = r.hot("-1-2-3-4-5-|")
    return "rx_filter(src, x → x is odd)", [Line("src", src)], \
        [Line("out", r.own(lib.rx_filter(src, _cb(PRED_FN, odd), NULL, NULL)))]


@diagram("rx_take", 14)
def _(r):
    src = r.hot("-1-2-3-4-5-|")
    return "rx_take(src, 2)", [Line("src", src)], [Line("out", r.own(lib.rx_take(src, 2)))]


@diagram("rx_skip", 14)
def _(r):
    src = r.hot("-1-2-3-4-5-|")
    return "rx_skip(src, 2)", [Line("src", src)], [Line("out", r.own(lib.rx_skip(src, 2)))]


@diagram("rx_take_while", 14)
def _(r):
    src = r.hot("-1-2-3-4-1-|")
    fn = _cb(PRED_FN, lambda ctx, v, err: v.i < 3)
    return "rx_take_while(src, x → x < 3)", [Line("src", src)], \
        [Line("out", r.own(lib.rx_take_while(src, fn, NULL, NULL)))]


@diagram("rx_take_while_inclusive", 14)
def _(r):
    src = r.hot("-1-2-3-4-1-|")
    fn = _cb(PRED_FN, lambda ctx, v, err: v.i < 3)
    return "rx_take_while_inclusive(src, x → x < 3)", [Line("src", src)], \
        [Line("out", r.own(lib.rx_take_while_inclusive(src, fn, NULL, NULL)))]


@diagram("rx_skip_while", 14)
def _(r):
    src = r.hot("-1-2-3-4-1-|")
    fn = _cb(PRED_FN, lambda ctx, v, err: v.i < 3)
    return "rx_skip_while(src, x → x < 3)", [Line("src", src)], \
        [Line("out", r.own(lib.rx_skip_while(src, fn, NULL, NULL)))]


@diagram("rx_take_until", 14)
def _(r):
    src = r.hot("-1-2-3-4-5-|")
    other = r.hot("------x--|")
    return "rx_take_until(src, other)", [Line("src", src), Line("other", other)], \
        [Line("out", r.own(lib.rx_take_until(src, other)))]


@diagram("rx_take_until_predicate", 14)
def _(r):
    src = r.hot("-1-2-3-4-1-|")
    fn = _cb(PRED_FN, lambda ctx, v, err: v.i >= 3)
    return "rx_take_until_predicate(src, x → x ≥ 3, inclusive)", [Line("src", src)], \
        [Line("out", r.own(lib.rx_take_until_predicate(src, True, fn, NULL, NULL)))]


@diagram("rx_skip_until", 14)
def _(r):
    src = r.hot("-1-2-3-4-5-|")
    other = r.hot("------x--|")
    return "rx_skip_until(src, other)", [Line("src", src), Line("other", other)], \
        [Line("out", r.own(lib.rx_skip_until(src, other)))]


@diagram("rx_take_last", 14)
def _(r):
    src = r.hot("-1-2-3-4-5-|")
    return "rx_take_last(src, 2)", [Line("src", src)], [Line("out", r.own(lib.rx_take_last(src, 2)))]


@diagram("rx_skip_duration", 14)
def _(r):
    src = r.hot("-1-2-3-4-5-|")
    return "rx_skip_duration(src, 4 frames, test)", [Line("src", src)], \
        [Line("out", r.own(lib.rx_skip_duration(src, F(4), r.ts)))]


@diagram("rx_take_duration", 14)
def _(r):
    src = r.hot("-1-2-3-4-5-|")
    return "rx_take_duration(src, 6 frames, test)", [Line("src", src)], \
        [Line("out", r.own(lib.rx_take_duration(src, F(6), r.ts)))]


@diagram("rx_distinct_until_changed", 14)
def _(r):
    src = r.hot("-1-1-2-2-1-3-|")
    return "rx_distinct_until_changed(src, NULL)", [Line("src", src)], \
        [Line("out", r.own(lib.rx_distinct_until_changed(src, NULL, NULL, NULL)))]


@diagram("rx_element_at", 14)
def _(r):
    src = r.hot("-a-b-c-d-|")
    return "rx_element_at(src, 2)", [Line("src", src)], [Line("out", r.own(lib.rx_element_at(src, 2)))]


@diagram("rx_first", 12)
def _(r):
    src = r.hot("--a-b-c-|")
    return "rx_first(src)", [Line("src", src)], [Line("out", r.own(lib.rx_first(src)))]


@diagram("rx_last", 12)
def _(r):
    src = r.hot("--a-b-c-|")
    return "rx_last(src)", [Line("src", src)], [Line("out", r.own(lib.rx_last(src)))]


@diagram("rx_as_single", 12)
def _(r):
    one, two = r.hot("--a-----|"), r.hot("--a-b---|")
    return "rx_as_single(src)", [Line("src", one), Line("src2", two)], \
        [Line("out", r.own(lib.rx_as_single(one))), Line("out2", r.own(lib.rx_as_single(two)))]


@diagram("rx_as_maybe", 12)
def _(r):
    one, none = r.hot("--a-----|"), r.hot("--------|")
    return "rx_as_maybe(src)", [Line("src", one), Line("src2", none)], \
        [Line("out", r.own(lib.rx_as_maybe(one))), Line("out2", r.own(lib.rx_as_maybe(none)))]


@diagram("rx_as_completable", 12)
def _(r):
    none, one = r.hot("--------|"), r.hot("----a---|")
    return "rx_as_completable(src)", [Line("src", none), Line("src2", one)], \
        [Line("out", r.own(lib.rx_as_completable(none))), Line("out2", r.own(lib.rx_as_completable(one)))]


@diagram("rx_ignore_elements", 12)
def _(r):
    src = r.hot("--a-b-c-|")
    return "rx_ignore_elements(src)", [Line("src", src)], [Line("out", r.own(lib.rx_ignore_elements(src)))]


@diagram("rx_single", 12)
def _(r):
    a, b = r.hot("--a-----|"), r.hot("--a-b---|")
    return "rx_single(src)", [Line("a", a), Line("b", b)], \
        [Line("a → out", r.own(lib.rx_single(a))), Line("b → out", r.own(lib.rx_single(b)))]


@diagram("rx_default_if_empty", 12)
def _(r):
    a, b = r.hot("--a-b-|"), r.hot("------|")
    return "rx_default_if_empty(src, 0)", [Line("a", a), Line("b", b)], \
        [Line("a → out", r.own(lib.rx_default_if_empty(a, lib.rx_int(0)))),
         Line("b → out", r.own(lib.rx_default_if_empty(b, lib.rx_int(0))))]


@diagram("rx_switch_if_empty", 14)
def _(r):
    src = r.hot("-----|")
    lf, fallback = r.watch("fallback (cold)", r.cold("-7-8-|"))
    return "rx_switch_if_empty(src, fallback)", [Line("src", src), lf], \
        [Line("out", r.own(lib.rx_switch_if_empty(src, fallback)))]


@diagram("rx_debounce", 20)
def _(r):
    src = r.hot("-1-2-----3-4-5-----6|")
    return "rx_debounce(src, 3 frames, test)", [Line("src", src)], \
        [Line("out", r.own(lib.rx_debounce(src, F(3), r.ts)))]


@diagram("rx_throttle", 20)
def _(r):
    src = r.hot("-1-2-3-------4-5-6-|")
    return "rx_throttle(src, 5 frames, latest, test)", [Line("src", src)], \
        [Line("latest: true", r.own(lib.rx_throttle(src, F(5), True, r.ts))),
         Line("latest: false", r.own(lib.rx_throttle(src, F(5), False, r.ts)))]


@diagram("rx_sample", 16)
def _(r):
    src = r.hot("-1-2-----3-4---|")
    sampler = r.hot("----x---x---x---x|")
    return "rx_sample(src, sampler)", [Line("src", src), Line("sampler", sampler)], \
        [Line("out", r.own(lib.rx_sample(src, sampler)))]


# combine
@diagram("rx_merge", 16)
def _(r):
    a, b = r.hot("-1---2---3-|"), r.hot("---a---b---c|")
    arr, n = obs_array(a, b)
    return "rx_merge({a, b}, 2)", [Line("a", a), Line("b", b)], [Line("out", r.own(lib.rx_merge(arr, n)))]


@diagram("rx_merge_max", 16)
def _(r):
    la, a = r.watch("a (cold)", r.cold("-1-1-|"))
    lb, b = r.watch("b (cold)", r.cold("-2-2-|"))
    lc, c = r.watch("c (cold)", r.cold("-3|"))
    arr, n = obs_array(a, b, c)
    return "rx_merge_max({a, b, c}, 3, 2)", [la, lb, lc], [Line("out", r.own(lib.rx_merge_max(arr, n, 2)))]


@diagram("rx_concat", 16)
def _(r):
    la, a = r.watch("a (cold)", r.cold("-1-2-3|"))
    lb, b = r.watch("b (cold)", r.cold("-a-b|"))
    arr, n = obs_array(a, b)
    return "rx_concat({a, b}, 2)", [la, lb], [Line("out", r.own(lib.rx_concat(arr, n)))]


@diagram("rx_combine_latest", 16)
def _(r):
    a, b = r.hot("-1---2-----3--|"), r.hot("---a---b-c---|")
    arr, n = obs_array(a, b)
    return "rx_combine_latest({a, b}, 2, (x, y) → \"xy\")", [Line("a", a), Line("b", b)], \
        [Line("out", r.own(lib.rx_combine_latest(arr, n, combine_labels(r), NULL, NULL)))]


@diagram("rx_zip", 16)
def _(r):
    a, b = r.hot("-1---2-3-4--|"), r.hot("---a---b----c-d|")
    arr, n = obs_array(a, b)
    return "rx_zip({a, b}, 2, (x, y) → \"xy\")", [Line("a", a), Line("b", b)], \
        [Line("out", r.own(lib.rx_zip(arr, n, combine_labels(r), NULL, NULL)))]


@diagram("rx_with_latest_from", 16)
def _(r):
    src, other = r.hot("-1---2-3---4-|"), r.hot("---a-----b---|")
    return "rx_with_latest_from(src, other, (x, y) → \"xy\")", [Line("src", src), Line("other", other)], \
        [Line("out", r.own(lib.rx_with_latest_from(src, other, combine_labels(r), NULL, NULL)))]


@diagram("rx_start_with", 12)
def _(r):
    src = r.cold("---1-2-|")
    arr, n = value_array(lib.rx_int(0))
    return "rx_start_with(src, {0}, 1)", [Line("src (cold)", src)], \
        [Line("out", r.own(lib.rx_start_with(src, arr, n)))]


@diagram("rx_switch_latest", 18)
def _(r):
    la, A = r.watch("A (cold)", r.cold("1--2--3|"))
    lb, B = r.watch("B (cold)", r.cold("a--b--c|"))
    OBS_NAMES[addr(A)], OBS_NAMES[addr(B)] = "A", "B"
    va, vb = lib.rx_observable_value(A), lib.rx_observable_value(B)
    src = r.hot("-A----B--------|", {"A": va, "B": vb})
    lib.rx_value_release(va)
    lib.rx_value_release(vb)
    return "rx_switch_latest(src)", [Line("src", src), la, lb], \
        [Line("out", r.own(lib.rx_switch_latest(src)))]


@diagram("rx_amb", 14)
def _(r):
    a, b = r.hot("---1-2-3-|"), r.hot("-a-b-c-|")
    arr, n = obs_array(a, b)
    return "rx_amb({a, b}, 2)", [Line("a", a), Line("b", b)], [Line("out", r.own(lib.rx_amb(arr, n)))]


# errors
@diagram("rx_catch", 16)
def _(r):
    src = r.hot("-1-2-#")
    lf, fallback = r.watch("fallback (cold)", r.cold("-7-8-|"))
    fn = _cb(CATCH_FN, lambda ctx, e: ffi.cast("rx_observable *", lib.rx_retain(fallback)))
    return "rx_catch(src, e → fallback)", [Line("src", src), lf], \
        [Line("out", r.own(lib.rx_catch(src, fn, NULL, NULL)))]


@diagram("rx_catch_with", 16)
def _(r):
    src = r.hot("-1-2-#")
    lf, fallback = r.watch("fallback (cold)", r.cold("-7-8-|"))
    return "rx_catch_with(src, fallback)", [Line("src", src), lf], \
        [Line("out", r.own(lib.rx_catch_with(src, fallback)))]


@diagram("rx_catch_and_return", 12)
def _(r):
    src = r.hot("-1-2-#")
    return "rx_catch_and_return(src, 9)", [Line("src", src)], \
        [Line("out", r.own(lib.rx_catch_and_return(src, lib.rx_int(9))))]


@diagram("rx_retry", 18)
def _(r):
    src = r.cold("-1-2-#")
    return "rx_retry(src, 3)", [Line("src (cold)", src)], [Line("out", r.own(lib.rx_retry(src, 3)))]


@diagram("rx_retry_when", 18)
def _(r):
    src = r.cold("-1-#")
    def notifier(ctx, errors, err):
        delayed = lib.rx_delay(errors, F(2), r.ts)
        try:
            return lib.rx_take(delayed, 2)
        finally:
            lib.rx_release(delayed)
    fn = keep(ffi.callback("rx_observable *(void *, rx_observable *, rx_error **)", notifier))
    return "rx_retry_when(src, errors → take(delay(errors, 2 frames), 2))", [Line("src (cold)", src)], \
        [Line("out", r.own(lib.rx_retry_when(src, fn, NULL, NULL)))]


@diagram("rx_timeout", 14)
def _(r):
    src = r.hot("-1--2------3-|")
    return "rx_timeout(src, 4 frames, test)", [Line("src", src)], \
        [Line("out", r.own(lib.rx_timeout(src, F(4), r.ts)))]


@diagram("rx_timeout_to", 16)
def _(r):
    src = r.hot("-1--2------3-|")
    fallback = r.cold("-7-8|")
    return "rx_timeout_to(src, 4 frames, fallback, test)", [Line("src", src), Line("fallback (cold)", fallback)], \
        [Line("out", r.own(lib.rx_timeout_to(src, F(4), fallback, r.ts)))]


@diagram("rx_retry_backoff", 16)
def _(r):
    src = r.cold("-1-#")
    o = ffi.new("rx_backoff_options *")
    o.struct_size = ffi.sizeof("rx_backoff_options")
    o.initial_delay_ns = F(1)
    o.multiplier = 2.0
    o.max_attempts = 3
    return "rx_retry_backoff(src, {1 frame, ×2, 3 attempts}, test)", [Line("src (cold)", src)], \
        [Line("out", r.own(lib.rx_retry_backoff(src, o, r.ts)))]


# utility
@diagram("rx_do", 12)
def _(r):
    src = r.hot("-1-2-3-|")
    tap = keep(ffi.new("rx_observer *"))
    return "rx_do(src, tap, NULL)", [Line("src", src)], [Line("out", r.own(lib.rx_do(src, tap[0], NULL)))]


@diagram("rx_do_with_hooks", 12)
def _(r):
    src = r.hot("-1-2-3-|")
    hooks = keep(ffi.new("rx_do_hooks *", {"struct_size": ffi.sizeof("rx_do_hooks")}))
    return "rx_do_with_hooks(src, &hooks, NULL)", [Line("src", src)], \
        [Line("out", r.own(lib.rx_do_with_hooks(src, hooks, NULL)))]


@diagram("rx_debug", 12)
def _(r):
    src = r.hot("-1-2-3-|")
    return "rx_debug(src, \"src\", a FILE *): lines beside an unchanged stream", [Line("src", src)], \
        [Line("out", r.own(lib.rx_debug(src, b"src", devnull())))]


@diagram("rx_debug_callback", 12)
def _(r):
    src = r.hot("-1-2-#")
    line_fn = keep(ffi.callback("rx_debug_fn", lambda ctx, line: None))
    return "rx_debug_callback(src, \"src\", fn, NULL, NULL)", [Line("src", src)], \
        [Line("out", r.own(lib.rx_debug_callback(src, b"src", line_fn, NULL, NULL)))]


@diagram("rx_delay", 14)
def _(r):
    src = r.hot("-1-2--3-|")
    return "rx_delay(src, 3 frames, test)", [Line("src", src)], \
        [Line("out", r.own(lib.rx_delay(src, F(3), r.ts)))]


@diagram("rx_delay_subscription", 14)
def _(r):
    line, src = r.watch("src (cold)", r.cold("-1-2-3|"))
    return "rx_delay_subscription(src, 4 frames, test)", [line], \
        [Line("out", r.own(lib.rx_delay_subscription(src, F(4), r.ts)))]


@diagram("rx_materialize", 12)
def _(r):
    src = r.hot("-1-2-#")
    return "rx_materialize(src)", [Line("src", src)], [Line("out", r.own(lib.rx_materialize(src)))]


@diagram("rx_dematerialize", 12)
def _(r):
    src = r.own(lib.rx_materialize(r.hot("-1-2-3-|")))
    return "rx_dematerialize(src)", [Line("src", src)], [Line("out", r.own(lib.rx_dematerialize(src)))]


# sharing: two subscribers, the second one late, show what is shared
@diagram("rx_share", 14)
def _(r):
    line, src = r.watch("src (cold)", r.cold("-1-2-3-4-5-|"))
    out = r.own(lib.rx_share(src))
    return "rx_share(src)", [line], \
        [Line("out, 1st", out), Line("out, 2nd", out, at=4)]


@diagram("rx_share_replay", 14)
def _(r):
    line, src = r.watch("src (cold)", r.cold("-1-2-3-4-5-|"))
    out = r.own(lib.rx_share_replay(src, 1))
    return "rx_share_replay(src, 1)", [line], \
        [Line("out, 1st", out), Line("out, 2nd", out, at=4)]


@diagram("rx_publish", 14)
def _(r):
    line, src = r.watch("src (cold)", r.cold("-1-2-3-4-|"))
    out = r.own(lib.rx_publish(src))
    r.at(3, lambda: r.owned.append(lib.rx_connect(out)))
    return "rx_publish(src), rx_connect at frame 3", [line], \
        [Line("out, 1st", out), Line("out, 2nd", out, at=7)]


@diagram("rx_replay", 14)
def _(r):
    line, src = r.watch("src (cold)", r.cold("-1-2-3-4-|"))
    out = r.own(lib.rx_replay(src, 2))
    r.at(1, lambda: r.owned.append(lib.rx_connect(out)))
    return "rx_replay(src, 2), rx_connect at frame 1", [line], \
        [Line("out, 1st", out), Line("out, 2nd", out, at=7)]


@diagram("rx_share_forever", 14)
def _(r):
    line, src = r.watch("src (cold)", r.cold("-1-2-3-|"))
    out = r.own(lib.rx_share_forever(src, 2))
    return "rx_share_forever(src, 2): the 2nd, after the end, gets the replay without a resubscription", [line], \
        [Line("out, 1st", out), Line("out, 2nd", out, at=10)]


@diagram("rx_replay_all", 14)
def _(r):
    line, src = r.watch("src (cold)", r.cold("-1-2-3-4-|"))
    out = r.own(lib.rx_replay_all(src))
    r.at(1, lambda: r.owned.append(lib.rx_connect(out)))
    return "rx_replay_all(src), rx_connect at frame 1", [line], \
        [Line("out, 1st", out), Line("out, 2nd", out, at=7)]


@diagram("rx_multicast", 14)
def _(r):
    line, src = r.watch("src (cold)", r.cold("-1-2-3-4-|"))
    subject = r.own(lib.rx_behavior_subject_new(lib.rx_int(0)))
    out = r.own(lib.rx_multicast(src, subject))
    r.at(3, lambda: r.owned.append(lib.rx_connect(out)))
    return "rx_multicast(src, a behavior subject of 0), rx_connect at frame 3", [line], \
        [Line("out, 1st", out), Line("out, 2nd", out, at=6)]


@diagram("rx_ref_count", 16)
def _(r):
    line, src = r.watch("src (cold)", r.cold("-1-2-3-4-5-6-|"))
    out = r.own(lib.rx_ref_count(r.own(lib.rx_publish(src))))
    return "rx_ref_count(rx_publish(src))", [line], \
        [Line("out, 1st", out, at=2, dispose_at=8), Line("out, 2nd", out, at=6, dispose_at=11)]


NO_DIAGRAM = {
    "rx_connect": "not an operator of its own: it connects a connectable observable; the "
                  "diagrams of rx_publish and rx_replay show it at work",
    "rx_as_driver": "delivers on the main scheduler, which runs only inside the main loop, "
                    "not on a test scheduler's virtual time",
    "rx_drive": "subscribes on the main scheduler (see rx_as_driver); not an operator",
    "rx_group_key": "reads the key of a group of rx_group_by (the diagram of rx_group_by labels "
                    "each group with it); not an operator",
    "rx_flow_stats_get": "reads the counters of an rx_observe_on_bounded, rx_pausable_buffered or "
                         "rx_rate_limit observable; not an operator",
    "rx_as_signal": "delivers on the main scheduler, which runs only inside the main loop, "
                    "not on a test scheduler's virtual time",
    "rx_emit": "subscribes on the main scheduler (see rx_as_signal); not an operator",
    "rx_subscribe_single": "subscribes with callbacks (see rx_as_single for the stream); not an operator",
    "rx_subscribe_maybe": "subscribes with callbacks (see rx_as_maybe for the stream); not an operator",
    "rx_subscribe_completable": "subscribes with callbacks (see rx_as_completable for the stream); not an "
                                "operator",
}
NOT_OPERATORS = "callback trampolines, not operators: each forwards a by-value callback to the by-reference function in an rx_by_ref"


def _example_diagram(example):
    """The diagram of an operator's @example call: `src` a hot source of five values, `other`
    a second one, `scheduler` the test scheduler."""
    def fn(r):
        src = r.hot("-1-2-3-4-5-|")
        names = {"src": src, "scheduler": r.ts, "NULL": NULL, "true": True, "false": False}
        inputs = [Line("src", src)]
        if re.search(r"\bother\b", example):
            names["other"] = r.hot("----0----0-|")
            inputs.append(Line("other", names["other"]))
        call = re.sub(r"\b(rx_[a-z0-9_]+)\(", r"lib.\1(", example)
        out = eval(call, {"lib": lib}, names)  # noqa: S307 - the header's own example
        return example, inputs, [Line("out", r.own(out))]
    return fn


def run(name):
    """Runs one diagram: (call, [(Line, role)], frames)."""
    fn, frames = DIAGRAMS[name]
    r = Run()
    call, inputs, outputs = fn(r)
    lines = inputs + outputs
    for ln in lines:
        if ln.obs is not None:  # watched lines record the operator's own subscription
            r.subscribe(ln)
    r.finish(frames, lines)
    if FAILURES:
        raise RuntimeError("; ".join(FAILURES))
    return call, inputs, outputs, frames


# ---- SVG ---------------------------------------------------------------------------------------
FW = 32        # pixels per frame
R = 13         # marble radius
LEFT = 80      # least room for line names
RIGHT = 28
PAD = 22       # from the axis' start to frame 0
LINE_H = 58
BOX_H = 40
CHAR_W = 7.6   # monospace 13px
PALETTE = ["#f7c948", "#6fcf97", "#56ccf2", "#f2994a", "#bb6bd9", "#eb5757",
           "#9ad0ec", "#c3e88d", "#ffcb6b", "#f78c6c"]


def color(text):
    h = 0
    for ch in text:
        h = (h * 31 + ord(ch)) & 0xFFFF
    return PALETTE[h % len(PALETTE)]


def esc(s):
    return html.escape(s, quote=True)


STACK = 2 * R + 6  # vertical step between values that share a frame


def layout(events, x_of):
    """(frame, kind, text, x, cx, level, w) per event. Values at the same frame stack
    downwards (level 0 on the line); a column that would overlap the previous one is pushed
    right (x keeps the true time); a terminal event sits right after its frame's values."""
    placed = []
    right = -1e9
    k = 0
    while k < len(events):
        fr = events[k][0]
        col = []
        while k < len(events) and events[k][0] == fr:
            col.append(events[k])
            k += 1
        x = x_of(fr)
        values = [e for e in col if e[1] == "N"]
        widths = [max(2 * R, len(t) * CHAR_W + 12) for _, _, t in values]
        if values:
            cw = max(widths)
            cx = max(x, right + 4 + cw / 2)
            for level, ((f, kind, t), w) in enumerate(zip(values, widths)):
                placed.append((f, kind, t, x, cx, level, w))
            right = cx + widths[0] / 2 if len(values) == 1 else cx + cw / 2
        for f, kind, t in col:
            if kind != "N":
                tx = max(x, right + 6)
                placed.append((f, kind, t, x, tx, 0, 0))
                right = tx + 6
    return placed


def depth(line):
    return max([lv for *_, lv, _ in layout(line.events, lambda f: f)] + [0])


def draw_line(out, y, line, x_of, left, width):
    x0, x1 = left, width - RIGHT
    out.append(f'<text class="name" x="{left - 12}" y="{y + 4}" text-anchor="end">{esc(line.name)}</text>')
    # before the subscription (or all of it, never subscribed) the line is dashed
    start = x1 if line.at is None else x_of(line.at) if line.at else x0
    if start > x0:
        out.append(f'<line class="before" x1="{x0}" y1="{y}" x2="{start}" y2="{y}"/>')
    end = x1
    out.append(f'<line class="axis" x1="{start}" y1="{y}" x2="{end}" y2="{y}"/>')
    out.append(f'<path class="arrow" d="M{end} {y - 5} L{end + 9} {y} L{end} {y + 5} Z"/>')
    # above the line, where nothing else is drawn: ^ a late subscription, ! a dispose
    if line.at and start < x1:
        out.append(f'<text class="sub" x="{start}" y="{y - 19}" text-anchor="middle">^'
                   f'<title>subscribed at frame {line.at:g}</title></text>')
    if line.dispose_at is not None:
        dx = x_of(line.dispose_at)
        out.append(f'<text class="unsub" x="{dx}" y="{y - 19}" text-anchor="middle">!'
                   f'<title>disposed at frame {line.dispose_at:g}</title></text>')
    placed = layout(line.events, x_of)
    # behind the marbles: ticks at the true time of pushed columns, stems of stacked ones
    for fr, kind, text, x, cx, level, w in placed:
        if kind == "N" and level == 0 and abs(cx - x) > 0.5:
            out.append(f'<line class="tick" x1="{x}" y1="{y - 7}" x2="{x}" y2="{y + 7}"/>')
        if kind == "N" and level > 0:
            out.append(f'<line class="stem" x1="{cx}" y1="{y}" x2="{cx}" y2="{y + level * STACK}"/>')
    for fr, kind, text, x, cx, level, w in placed:
        cy = y + level * STACK
        if kind == "N":
            tip = f"<title>next {esc(text)} at frame {fr:g}</title>"
            if w <= 2 * R:
                shape = f'<circle cx="{cx}" cy="{cy}" r="{R}" fill="{color(text)}"/>'
            else:
                shape = (f'<rect x="{cx - w / 2}" y="{cy - R}" width="{w}" height="{2 * R}" '
                         f'rx="{R}" fill="{color(text)}"/>')
            out.append(f'<g class="marble">{tip}{shape}'
                       f'<text x="{cx}" y="{cy + 4.5}" text-anchor="middle">{esc(text)}</text></g>')
        elif kind == "C":
            out.append(f'<line class="complete" x1="{cx}" y1="{y - 14}" x2="{cx}" y2="{y + 14}">'
                       f'<title>completed at frame {fr:g}</title></line>')
        else:
            out.append(f'<g class="error"><title>{esc(text)} at frame {fr:g}</title>'
                       f'<line x1="{cx - 9}" y1="{y - 9}" x2="{cx + 9}" y2="{y + 9}"/>'
                       f'<line x1="{cx - 9}" y1="{y + 9}" x2="{cx + 9}" y2="{y - 9}"/></g>')


STYLE = """
text { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; fill: #222; }
text.name { fill: #666; font-size: 12px; }
text.call { font-size: 14px; }
line.axis { stroke: #333; stroke-width: 2; }
line.before { stroke: #bbb; stroke-width: 2; stroke-dasharray: 3 4; }
path.arrow { fill: #333; }
text.sub { fill: #555; font-weight: bold; }
text.unsub { fill: #c00; font-weight: bold; }
line.tick { stroke: #333; stroke-width: 1.5; }
line.stem { stroke: #999; stroke-width: 1; stroke-dasharray: 2 2; }
.marble circle, .marble rect { stroke: #333; stroke-width: 1.5; }
line.complete { stroke: #333; stroke-width: 3; }
.error line { stroke: #d33; stroke-width: 3; }
rect.op { fill: #fff; stroke: #333; stroke-width: 1.5; }
"""


def svg(name, call, inputs, outputs, frames):
    # room on the left for the longest line name (12px font: about 7.3px a character)
    left = max(LEFT, int(max([len(ln.name) for ln in inputs + outputs] + [0]) * 7.3 + 24))

    def x_of(fr):  # frame 0 sits a little right of the axis' start, clear of the name
        return left + PAD + fr * FW

    # wide enough for the axis, for pushed-right marbles and for the call's text
    width = left + PAD + frames * FW + RIGHT + 16
    for ln in inputs + outputs:
        for fr, kind, text, x, cx, level, w in layout(ln.events, x_of):
            width = max(width, cx + max(w / 2, 8) + RIGHT + 16)
    width = int(max(width, left + len(call) * 8.4 + 40))
    y = 40
    ys_in = []
    for ln in inputs:
        ys_in.append(y)
        y += LINE_H + depth(ln) * STACK
    box_y = y - 12 if inputs else 12
    y = box_y + BOX_H + 44
    ys_out = []
    for ln in outputs:
        ys_out.append(y)
        y += LINE_H + depth(ln) * STACK
    height = int(y - LINE_H + 34)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label="{esc(name)} marble diagram">',
           f'<title>{esc(call)}</title>', f"<style>{STYLE}</style>"]
    for ln, ly in zip(inputs, ys_in):
        draw_line(out, ly, ln, x_of, left, width)
    bx0, bx1 = left - 8, width - 12
    out.append(f'<rect class="op" x="{bx0}" y="{box_y}" width="{bx1 - bx0}" height="{BOX_H}" rx="4"/>')
    out.append(f'<text class="call" x="{(bx0 + bx1) / 2}" y="{box_y + BOX_H / 2 + 5}" '
               f'text-anchor="middle">{esc(call)}</text>')
    for ln, ly in zip(outputs, ys_out):
        draw_line(out, ly, ln, x_of, left, width)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def events_text(line):
    """The events of a line as text, for the page (next to the picture)."""
    parts = []
    for fr, kind, text in line.events:
        parts.append(f"{fr:g}:{text}" if kind == "N" else f"{fr:g}:{'|' if kind == 'C' else '#'}")
    return " ".join(parts) if parts else "(nothing)"
