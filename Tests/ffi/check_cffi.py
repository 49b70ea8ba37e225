#!/usr/bin/env python3
"""The header from an FFI with no compiler: cffi's ABI mode (libffi) against librxc.so.

Usage: check_cffi.py include/rxc.h build/lib/librxc.so

1. `cc -E -P -DRX_CDEF` of the header goes through `ffi.cdef` (a failure names the line).
2. Every function the header declares is called at least once through libffi, with
   arguments made from its C parameter types (RECIPES for what a type cannot say), and
   every callback type is created with `ffi.callback` and must be called back by the
   library at least once (values cross in both directions by value).
3. Plain results are checked (rx_int(5).i == 5, ...), owned results released, and the
   library's live-object count must come back to where it started.
Prints one line per problem, naming the function, then "N passed, N failed" (one per
function and callback type) and exits 1 on any failure.
"""
import os
import subprocess
import sys
import time

import cffi

header, library = sys.argv[1], sys.argv[2]
cc = os.environ.get("CC", "cc")
cdef = subprocess.run([cc, "-E", "-P", "-DRX_CDEF", "-x", "c", header],
                      check=True, capture_output=True, text=True).stdout
ffi = cffi.FFI()
ffi.cdef(cdef)
lib = ffi.dlopen(library)
NULL = ffi.NULL

problems = []
passed = 0


def problem(name, what):
    problems.append(f"check_cffi: {name}: {what}")


# ---- the functions the header declares, in order ------------------------------------------
decls = [name for (kind, name) in
         ((k.split(" ", 1)[0], k.split(" ", 1)[1]) for k in ffi._parser._declarations)
         if kind == "function"]
functions = {}
for name in decls:
    try:
        functions[name] = getattr(lib, name)
    except (AttributeError, NotImplementedError) as e:  # not exported, or not callable via libffi
        problem(name, f"cannot be bound: {e}")

# ---- callbacks: one Python function per callback type, counting its calls -----------------
called = {}
keep = []  # every cdata handed to the library stays alive until the end


def counted(tag, fn):
    def wrapper(*args):
        called[tag] = called.get(tag, 0) + 1
        return fn(*args)
    return wrapper


def on_next(ctx, v):
    lib.rx_value_release(lib.rx_value_retain(v))  # a live value, by value both ways


def map_fn(ctx, v, err):
    return lib.rx_int(v.i + 1) if v.kind == lib.RX_INT else lib.rx_value_retain(v)


def predicate_fn(ctx, v, err):
    return True


def compact_map_fn(ctx, v, out, err):
    out[0] = map_fn(ctx, v, err)
    return True


def accumulate_fn(ctx, acc, v, err):
    return lib.rx_int((acc.i if acc.kind == lib.RX_INT else 0) + (v.i if v.kind == lib.RX_INT else 0))


def flat_map_fn(ctx, v, err):
    return lib.rx_just(v)


def combine_fn(ctx, values, n, err):
    return lib.rx_int(sum(values[k].i for k in range(n)))


def equal_fn(ctx, a, b):
    return a.kind == b.kind and a.i == b.i


def resource_fn(ctx, err):
    return ffi.cast("void *", 0x10)


def using_fn(ctx, resource, err):
    return lib.rx_just(lib.rx_int(int(ffi.cast("intptr_t", resource))))


def catch_fn(ctx, error):
    return lib.rx_just(lib.rx_int(lib.rx_error_code(error)))


def retry_when_fn(ctx, errors, error):
    return lib.rx_take(errors, 1)


def subscribe_fn(ctx, emitter):
    # The emitter exists only here: the emitter functions are called through libffi here.
    call_emitter_functions(emitter)
    return NULL


def defer_factory(ctx):
    return lib.rx_just(lib.rx_int(7))


def vt_schedule(ctx, action, action_ctx):
    action(action_ctx)  # the library's own C function pointer, called from Python
    return NULL


def vt_schedule_after(ctx, delay, action, action_ctx):
    action(action_ctx)
    return NULL


def vt_now(ctx):
    return 42


CALLBACK_TYPES = {
    "void(*)(void *, rx_value)": ("on_next", on_next),
    "void(*)(void *, rx_error *)": ("on_error", lambda ctx, e: None),
    "void(*)(void *)": ("rx_free_fn/rx_action_fn/on_completed", lambda ctx: None),
    "rx_value(*)(void *, rx_value, rx_error * *)": ("rx_map_fn", map_fn),
    "_Bool(*)(void *, rx_value, rx_error * *)": ("rx_predicate_fn", predicate_fn),
    "_Bool(*)(void *, rx_value, rx_value *, rx_error * *)": ("rx_compact_map_fn", compact_map_fn),
    "rx_value(*)(void *, rx_value, rx_value, rx_error * *)": ("rx_accumulate_fn", accumulate_fn),
    "rx_observable *(*)(void *, rx_value, rx_error * *)": ("rx_flat_map_fn", flat_map_fn),
    "rx_value(*)(void *, rx_value *, size_t, rx_error * *)": ("rx_combine_fn", combine_fn),
    "_Bool(*)(void *, rx_value, rx_value)": ("rx_equal_fn", equal_fn),
    "rx_observable *(*)(void *, rx_error *)": ("rx_catch_fn", catch_fn),
    "void *(*)(void *, rx_error * *)": ("rx_resource_fn", resource_fn),
    "rx_observable *(*)(void *, void *, rx_error * *)": ("rx_using_fn", using_fn),
    "void(*)(void *, void *)": ("rx_resource_free_fn", lambda ctx, resource: None),
    "rx_observable *(*)(void *, rx_observable *, rx_error * *)": ("rx_retry_when_fn", retry_when_fn),
    "rx_disposable *(*)(void *, rx_emitter *)": ("rx_subscribe_fn", subscribe_fn),
    "rx_observable *(*)(void *)": ("defer factory", defer_factory),
    "rx_disposable *(*)(void *, void(*)(void *), void *)": ("vtable.schedule", vt_schedule),
    "rx_disposable *(*)(void *, int64_t, void(*)(void *), void *)": ("vtable.schedule_after", vt_schedule_after),
    "int64_t(*)(void *)": ("vtable.now_ns", vt_now),
    "void(*)(void *, rx_disposable *)": ("rx_recursive_fn", lambda ctx, me: None),
    "void(*)(void *, char *)": ("rx_debug_fn", lambda ctx, line: ffi.string(line) and None),  # reads the line; returns nothing
}
made_callbacks = {}


def callback(ctype):
    name = ctype.cname
    if name not in CALLBACK_TYPES:
        raise LookupError(f"no Python implementation for callback type {name}")
    tag, fn = CALLBACK_TYPES[name]
    cb = made_callbacks.get(name)
    if cb is None:
        cb = ffi.callback(ctype, counted(tag, fn))
        made_callbacks[name] = cb
    return cb


def observer():
    o = ffi.new("rx_observer *")
    for field, ctype in ffi.typeof("rx_observer").fields:
        if ctype.type.kind == "function":
            setattr(o, field, callback(ctype.type))
    return o[0]


# ---- arguments ----------------------------------------------------------------------------
start = lib.rx_debug_live_objects()
test_sched = lib.rx_test_scheduler_new()
error = lib.rx_error_new(1001, b"cffi")
owned = []  # (release function, cdata) to undo at the end


def fresh_observable():
    items = ffi.new("rx_value[3]", [lib.rx_int(1), lib.rx_int(2), lib.rx_int(3)])
    o = lib.rx_of(items, 3)
    owned.append((lib.rx_release, o))
    return o


def fresh(kind):
    makers = {
        "rx_subject *": lib.rx_publish_subject_new,
        "rx_disposable *": lib.rx_composite_disposable_new,
        "rx_dispose_bag *": lib.rx_dispose_bag_new,
    }
    h = makers[kind]()
    owned.append((lib.rx_release, h))
    return h


def vtable():
    vt = ffi.new("rx_scheduler_vtable *")
    vt.schedule = callback(ffi.typeof(vt.schedule))
    vt.schedule_after = callback(ffi.typeof(vt.schedule_after))
    vt.now_ns = callback(ffi.typeof(vt.now_ns))
    vt.serial = True
    keep.append(vt)
    return vt


def flow_options():
    # capacity 1, drop oldest: a source of three values overflows, so on_dropped is called.
    opts = ffi.new("rx_flow_options *")
    opts.struct_size = ffi.sizeof("rx_flow_options")
    opts.capacity = 1
    opts.policy = lib.RX_OVERFLOW_DROP_OLDEST
    opts.on_dropped = callback(ffi.typeof(opts.on_dropped))
    keep.append(opts)
    return opts


def marble_values():
    mv = ffi.new("rx_marble_value[1]")
    mv[0].key = b"a"
    mv[0].value = lib.rx_int(1)
    keep.append(mv)
    return mv


def arg_for(fname, index, ctype):
    """A valid argument of C type `ctype` for parameter `index` of `fname`."""
    name = ctype.cname
    if ctype.kind == "function" or (ctype.kind == "pointer" and ctype.item.kind == "function"):
        return callback(ctype)
    simple = {
        "int64_t": 1, "int32_t": 1, "int": 1, "size_t": 2, "double": 0.5, "_Bool": True,
        "rx_status": 0, "char": b"a",
    }
    if name in simple:
        return simple[name]
    if name == "rx_value":
        return lib.rx_int(1)
    if name == "rx_observer":
        return observer()
    if name in ("rx_observable *",):
        return fresh_observable()
    if name in ("rx_observable * const *", "rx_observable * *"):
        arr = ffi.new("rx_observable *[2]", [fresh_observable(), fresh_observable()])
        keep.append(arr)
        return arr
    if name in ("rx_subject *", "rx_disposable *", "rx_dispose_bag *"):
        return fresh(name)
    if name == "rx_scheduler *":
        return test_sched
    if name == "rx_run_loop *":
        return mk_owned(lib.rx_run_loop_new)
    if name in ("rx_error const *", "rx_error *"):
        return error
    if name in ("rx_value const *", "rx_value *"):
        # cffi drops const: two ints serve both an input array of 2 and an out value.
        arr = ffi.new("rx_value[2]", [lib.rx_int(1), lib.rx_int(2)])
        keep.append(arr)
        return arr
    if name == "rx_error * *":
        return out_error()
    if name == "size_t *":
        out = ffi.new(name)
        keep.append(out)
        return out
    if name in ("char const *", "char *"):
        return b"sweep"
    if name in ("void *", "void const *"):
        return NULL
    if name in ("rx_scheduler_vtable const *", "rx_scheduler_vtable *"):
        return vtable()
    if name in ("rx_marble_value const *", "rx_marble_value *"):
        return marble_values()
    if name in ("rx_flow_options const *", "rx_flow_options *"):
        return flow_options()
    if name == "rx_flow_stats *":
        out = ffi.new("rx_flow_stats *")
        out.struct_size = ffi.sizeof("rx_flow_stats")
        keep.append(out)
        return out
    if name == "rx_file *":
        return NULL  # stderr (rx_debug's recipe passes a real FILE *)
    if name in ("rx_do_hooks const *", "rx_do_hooks *"):
        h = ffi.new("rx_do_hooks *")
        h.struct_size = ffi.sizeof("rx_do_hooks")
        for field, ftype in ffi.typeof("rx_do_hooks").fields:
            if ftype.type.kind == "pointer" and ftype.type.item.kind == "function":
                setattr(h, field, callback(ftype.type))
        keep.append(h)
        return h
    if name in ("rx_backoff_options const *", "rx_backoff_options *"):
        o = ffi.new("rx_backoff_options *")
        o.struct_size = ffi.sizeof("rx_backoff_options")
        o.initial_delay_ns, o.multiplier, o.max_attempts = 1000, 2.0, 2
        keep.append(o)
        return o
    raise LookupError(f"no argument recipe for parameter {index} of type {name}")


# What a parameter's type cannot say: the argument list of a function, made at call time.
def string_value():
    v = lib.rx_string(b"cffi")
    owned.append((lib.rx_value_release, v))
    return v


def event_value(source):
    got = ffi.new("rx_value *")
    err = ffi.new("rx_error **")
    rc = lib.rx_blocking_last(lib_owned(lib.rx_materialize(source)), 1_000_000_000, got, err)
    assert rc == lib.RX_OK, rc
    owned.append((lib.rx_value_release, got[0]))
    return got[0]


def array_value():
    items = ffi.new("rx_value[2]", [lib.rx_int(4), lib.rx_int(5)])
    v = lib.rx_array(items, 2)
    owned.append((lib.rx_value_release, v))
    return v


def out_error():
    """An out parameter for an owned error, released at clean-up if one was written."""
    out = ffi.new("rx_error **")
    owned.append((lambda p: lib.rx_release(p[0]) if p[0] != NULL else None, out))
    return out


def out_value():
    """An out parameter for an owned value, released at clean-up."""
    out = ffi.new("rx_value *")
    owned.append((lambda p: lib.rx_value_release(p[0]), out))
    return out


def owned_value(v):
    owned.append((lib.rx_value_release, v))
    return v


RECIPES = {
    "rx_retain": lambda: [fresh("rx_subject *")],
    "rx_release": lambda: [lib.rx_retain(fresh("rx_subject *"))],
    "rx_value_string": lambda: [string_value()],
    "rx_value_bytes": lambda: [owned_value(lib.rx_bytes(b"ab", 2)), ffi.new("size_t *")],
    "rx_bytes": lambda: [b"ab", 2],
    "rx_array_count": lambda: [array_value()],
    "rx_array_get": lambda: [array_value(), 1],
    "rx_object_data": lambda: [owned_value(lib.rx_object(NULL, NULL))],
    "rx_value_observable": lambda: [owned_value(lib.rx_observable_value(fresh_observable()))],
    "rx_value_event_kind": lambda: [event_value(fresh_observable())],
    "rx_value_event_value": lambda: [event_value(fresh_observable())],
    "rx_value_event_error": lambda: [event_value(lib_owned(lib.rx_throw(error)))],
    "rx_value_double": lambda: [lib.rx_double(0.5)],
    "rx_value_bool": lambda: [lib.rx_bool(True)],
    "rx_value_ptr": lambda: [lib.rx_ptr(ffi.cast("void *", 0x1000))],
    "rx_dispose": lambda: [lib.rx_subscribe(fresh_observable(), observer())],
    "rx_serial_disposable_set": lambda: [mk_owned(lib.rx_serial_disposable_new), fresh("rx_disposable *")],
    "rx_single_assignment_disposable_set": lambda: [mk_owned(lib.rx_single_assignment_disposable_new),
                                                    fresh("rx_disposable *")],
    "rx_subject_value": lambda: [mk_owned(lambda: lib.rx_behavior_subject_new(lib.rx_int(3))),
                                 out_value(), out_error()],
    # endless: on a test scheduler of its own that never runs, so its subscription stays idle
    "rx_repeat_element": lambda: [lib.rx_int(1), mk_owned(lib.rx_test_scheduler_new)],
    "rx_generate": lambda: [lib.rx_int(1), mk_owned(lib.rx_test_scheduler_new),
                            callback(ffi.typeof("rx_predicate_fn")), callback(ffi.typeof("rx_map_fn")), NULL, NULL],
    "rx_connect": lambda: [mk_owned(lambda: lib.rx_publish(fresh_observable()))],
    "rx_ref_count": lambda: [mk_owned(lambda: lib.rx_publish(fresh_observable()))],
    "rx_drive": lambda: [mk_owned(lambda: lib.rx_as_driver(fresh_observable(), lib.rx_int(0))), observer()],
    "rx_emit": lambda: [mk_owned(lambda: lib.rx_as_signal(fresh_observable(), lib.rx_int(0))), observer()],
    "rx_schedule": lambda: [mk_owned(lambda: lib.rx_scheduler_custom_new(vtable(), NULL, NULL)),
                            callback(ffi.typeof("rx_action_fn")), NULL, callback(ffi.typeof("rx_free_fn"))],
    "rx_schedule_after": lambda: [mk_owned(lambda: lib.rx_scheduler_custom_new(vtable(), NULL, NULL)), 5,
                                  callback(ffi.typeof("rx_action_fn")), NULL, callback(ffi.typeof("rx_free_fn"))],
    "rx_recurse": lambda: [recursive_chain()],
    "rx_recurse_after": lambda: [recursive_chain(), 1_000_000],
    "rx_scheduler_now_ns": lambda: [mk_owned(lambda: lib.rx_scheduler_custom_new(vtable(), NULL, NULL))],
    "rx_debug": lambda: [fresh_observable(), b"cffi", devnull()],
    "rx_catch": lambda: [lib_owned(lib.rx_throw(error)), callback(ffi.typeof("rx_catch_fn")), NULL, NULL],
    "rx_marble_cold": lambda: [test_sched, b"-a-|", marble_values(), 1, NULL],
    "rx_marble_hot": lambda: [test_sched, b"-a-|", marble_values(), 1, NULL],
    "rx_marble_expect": lambda: [test_sched, mk_owned(lambda: lib.rx_marble_cold(test_sched, b"-a-|", marble_values(), 1, NULL)),
                                 b"-a-|", marble_values(), 1, NULL],
    "rx_flow_stats_get": lambda: [lib_owned(lib.rx_observe_on_bounded(fresh_observable(), test_sched, flow_options())),
                                  arg_for("rx_flow_stats_get", 1, ffi.typeof("rx_flow_stats *"))],
    "rx_dematerialize": lambda: [lib_owned(lib.rx_materialize(fresh_observable()))],
    "rx_switch_latest": lambda: [lib_owned(lib.rx_map(fresh_observable(), callback(ffi.typeof("rx_map_fn")), NULL, NULL))],
    "rx_main_run": lambda: (lib.rx_main_stop(), [])[1],  # a stop asked for first ends it at once
    "rx_main_run_for": lambda: [0],
    "rx_run_loop_run": lambda: [stopped_loop()],  # a stop asked for first ends it at once
    "rx_run_loop_run_for": lambda: [mk_owned(lib.rx_run_loop_new), 0],
    "rx_blocking_to_array": lambda: [fresh_observable(), 1_000_000_000, out_value(), out_error()],
    "rx_blocking_last": lambda: [fresh_observable(), 1_000_000_000, out_value(), out_error()],
    "rx_blocking_first": lambda: [fresh_observable(), 1_000_000_000, out_value(), out_error()],
    "rx_blocking_single": lambda: [fresh_observable(), 1_000_000_000, out_value(), out_error()],
    "rx_timeout": lambda: [fresh_observable(), 1_000_000, test_sched],
    "rx_interval": lambda: [1_000_000, test_sched],
    "rx_timer": lambda: [1_000_000, -1, test_sched],
    "rx_schedule_periodic": lambda: [test_sched, 0, 1_000_000, callback(ffi.typeof("rx_action_fn")), NULL, NULL],
    "rx_test_scheduler_advance_to": lambda: [test_sched, 10_000_000_000],
    "rx_test_scheduler_advance_by": lambda: [test_sched, 1_000_000],
}


libc_ffi = cffi.FFI()
libc_ffi.cdef("void *fopen(const char *, const char *); int fclose(void *);")
libc = libc_ffi.dlopen(None)


def devnull():
    """A FILE * from the C library (for rx_debug), closed at clean-up after the library let go."""
    f = libc.fopen(b"/dev/null", b"w")
    late_close.append(f)
    return ffi.cast("rx_file *", int(libc_ffi.cast("uintptr_t", f)))


late_close = []


def recursive_chain():
    """A chain whose first run is pending on the test scheduler: live for rx_recurse."""
    return mk_owned(lambda: lib.rx_schedule_recursive(test_sched, callback(ffi.typeof("rx_recursive_fn")), NULL, NULL))


def stopped_loop():
    loop = mk_owned(lib.rx_run_loop_new)
    lib.rx_run_loop_stop(loop)
    return loop


def mk_owned(make):
    h = make()
    owned.append((lib.rx_release, h))
    return h


def lib_owned(h):
    owned.append((lib.rx_release, h))
    return h


EMITTER_FUNCTIONS = [n for n in decls if n.startswith("rx_emitter_")]


def call_emitter_functions(emitter):
    for name in EMITTER_FUNCTIONS:
        fn = functions.get(name)
        if fn is None:
            continue
        args = [emitter]
        for i, t in enumerate(ffi.typeof(fn).args[1:], 1):
            args.append(lib.rx_int(9) if t.cname == "rx_value" else error)
        if name in ("rx_emitter_error",):
            continue  # after the completion below it would be ignored anyway; error ends it
        fn(*args)
        emitter_called.add(name)
    lib.rx_emitter_error(emitter, error)
    emitter_called.add("rx_emitter_error")


emitter_called = set()
# Functions whose result is borrowed (everything else that returns a handle is owned).
BORROWED = {"rx_scheduler_immediate", "rx_scheduler_current_thread", "rx_scheduler_main",
            "rx_subject_as_observable", "rx_value_observable", "rx_value_event_error",
            "rx_run_loop_main", "rx_run_loop_scheduler"}
# Functions whose rx_value result is borrowed from an argument.
BORROWED_VALUES = {"rx_array_get", "rx_value_event_value"}
HANDLE_RESULTS = {"rx_observable *", "rx_subject *", "rx_scheduler *", "rx_dispose_bag *", "rx_error *",
                  "rx_run_loop *",
                  "void *"}

def release_owned():
    while owned:
        release, h = owned.pop()
        release(h)


def live_back_to(count, seconds=2.0):
    """True once the live-object count is `count` (library threads may finish late)."""
    deadline = time.monotonic() + seconds
    while lib.rx_debug_live_objects() != count:
        if time.monotonic() > deadline:
            return False
        lib.rx_test_scheduler_run(test_sched)
        time.sleep(0.005)
    return True


def release_result(name, ctype, result):
    rname = ctype.result.cname
    if name in BORROWED or result is None:
        return
    if rname == "rx_observable *" and result != NULL:
        # Every observable made is subscribed to once, so operators call their callbacks.
        token = lib.rx_subscribe(result, observer())
        lib.rx_test_scheduler_advance_by(test_sched, 1_000_000_000)
        lib.rx_dispose(token)
    if rname == "rx_disposable *" and result != NULL:
        lib.rx_dispose(result)
    elif rname in HANDLE_RESULTS and result != NULL and name not in ("rx_value_ptr", "rx_object_data"):
        lib.rx_release(result)
    elif rname == "rx_value" and name not in BORROWED_VALUES:
        lib.rx_value_release(result)


# Results that must come out exactly so (by-value returns through libffi).
EXPECT = {
    "rx_int": lambda r: r.kind == lib.RX_INT and r.i == 1,
    "rx_double": lambda r: r.kind == lib.RX_DOUBLE and lib.rx_value_double(r) == 0.5,
    "rx_bool": lambda r: r.kind == lib.RX_BOOL and r.i == 1,
    "rx_none": lambda r: r.kind == lib.RX_NONE,
    "rx_value_int": lambda r: r == 1,
    "rx_value_double": lambda r: r == 0.5,
    "rx_value_bool": lambda r: r is True,
    "rx_value_ptr": lambda r: int(ffi.cast("intptr_t", r)) == 0x1000,
    "rx_value_string": lambda r: ffi.string(r) == b"cffi",
    "rx_array_count": lambda r: r == 2,
    "rx_array_get": lambda r: r.kind == lib.RX_INT and r.i == 5,
    "rx_value_event_kind": lambda r: r in (lib.RX_EVENT_NEXT, lib.RX_EVENT_COMPLETED),
    "rx_value_event_error": lambda r: r != NULL and lib.rx_error_code(r) == 1001,
    "rx_error_code": lambda r: r == 1001,
    "rx_version": lambda r: ffi.string(r).startswith(b"0."),
    "rx_scheduler_now_ns": lambda r: r == 42,
    "rx_blocking_last": lambda r: r == lib.RX_OK,
    "rx_blocking_to_array": lambda r: r == lib.RX_OK,
    "rx_marble_expect": lambda r: r is True,
}

for name in decls:
    fn = functions.get(name)
    if fn is None or name in EMITTER_FUNCTIONS:
        continue
    ctype = ffi.typeof(fn)
    before = lib.rx_debug_live_objects()
    try:
        if name in RECIPES:
            args = RECIPES[name]()
        else:
            args = [arg_for(name, i, t) for i, t in enumerate(ctype.args)]
        result = fn(*args)
        if name in EXPECT and not EXPECT[name](result):
            problem(name, f"unexpected result {result!r} ({lib.rx_status_string(result) if ctype.result.cname == 'rx_status' else ''}); "
                          f"last error: {ffi.string(lib.rx_last_error()).decode()}")
            continue
        release_result(name, ctype, result)
        release_owned()
        if not live_back_to(before):
            problem(name, f"{lib.rx_debug_live_objects() - before} objects still live after the call and its clean-up")
            continue
        passed += 1
    except Exception as e:  # noqa: BLE001 - every failure is reported with its function
        problem(name, f"{type(e).__name__}: {e}")

# Subscriptions that exercise every callback type with real events.
lib.rx_dispose(lib.rx_subscribe(lib_owned(lib.rx_create(callback(ffi.typeof("rx_subscribe_fn")), NULL, NULL)), observer()))
lib.rx_dispose(lib.rx_subscribe(lib_owned(lib.rx_defer(callback(ffi.typeof("rx_observable *(*)(void *)")), NULL, NULL)), observer()))
lib.rx_test_scheduler_run(test_sched)
for name in EMITTER_FUNCTIONS:
    if name in emitter_called:
        passed += 1
    else:
        problem(name, "never called (rx_create's subscribe function did not run)")

for cname, (tag, _) in CALLBACK_TYPES.items():
    if cname not in made_callbacks:
        problem(tag, f"callback type {cname} was never created")
    elif not called.get(tag):
        problem(tag, f"callback type {cname} was created but never called by the library")
    else:
        passed += 1

release_owned()
lib.rx_release(test_sched)
lib.rx_release(error)
if not live_back_to(start):
    live = lib.rx_debug_live_objects()
    problem("rx_debug_live_objects", f"{live - start} objects still live at the end (started at {start})")
for f in late_close:
    libc.fclose(f)

for p in problems:
    print(p)
print(f"check_cffi: {len(decls)} functions declared in {header}, {len(made_callbacks)} callback types")
print(f"{passed} passed, {len(problems)} failed")
sys.exit(1 if problems else 0)
