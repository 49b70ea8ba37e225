"""The C callbacks into Python: observers and operator functions. No Python exception ever
unwinds into C: a callback with an `rx_error **` out parameter turns it into the stream's
error; the others report it through `sys.unraisablehook`. With the compiled fast path
(rxc._speedups), the per-element ones are C trampolines."""
from ._ffi import ffi, lib, speedups
from .errors import RxTimeoutError, _checkp, _error_from_exc, _error_to_py, _raise_status, _raising, _unraisable
from . import _late
from ._ffi import NULL, _addr
from ._values import _INT, _INT64_MAX, _INT64_MIN, _NONE, _Sub, _caller, _count, _drop, _free_cb, _from_ctx, _from_py, _keep, _ns, _put, _to_py
from .disposables import Disposable, _action_cb, _close_lock

@ffi.callback("void(void *)")
def _scheduled_free_cb(ctx):
    _untrack(_from_ctx(ctx))
    _keep.pop(_addr(ctx), None)



# --------------------------------------------------------------------------------------
# Observers
# --------------------------------------------------------------------------------------


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
        return _owned_observable(_from_ctx(ctx)(_late.Observable._own(lib.rx_retain(errors))))
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
    em = _late.Emitter(lib.rx_retain(emitter))
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
    o = _late.as_observable(x)
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
    obs = [_late.as_observable(o) for o in observables]
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
    if policy == "block" and speedups is not None:
        speedups.set_release_gil()  # its producer waits for a consumer that may need the GIL
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
    o = _late.BoundedObservable._own(p)
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
                  _set_error_at, _unraisable, _raise_status, _keep)



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


def _subscribe_trait(sub, subscribe):
    ctx = _put(sub)
    p = subscribe(ctx)
    if p == NULL:
        _drop(ctx)  # no callback will ever run
        _checkp(p)
    _track(sub, p)
    return Disposable(p)
