/* rxc._speedups: the compiled fast path of the rxc package (optional; built when a C compiler
 * is there at install time, see setup.py). Without it the package runs the same code through
 * cffi's ABI mode only.
 *
 * It holds C trampolines for the per-element callbacks (a subscriber's on_next, map, filter,
 * compact_map, scan/reduce accumulators) and a C `on_next` for subjects. A trampoline's ctx is
 * a PyObject *: the registry's cell, a tuple (object, callable) the package keeps alive until
 * the library frees the ctx. The trampoline converts the rx_value to a Python object in C
 * (int, float, bool, None, str; any other kind through the package's Python converter) and
 * calls the callable directly: no wrapper object, no handle lookup per event.
 *
 * librxc's symbols are resolved at import against the library the package loaded with
 * RTLD_GLOBAL (so $RXC_LIBRARY and the bundled library keep working); the declarations are
 * the package's generated _cdef.h. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "_cdef.h"

#if PY_VERSION_HEX < 0x030A0000
static inline PyObject *Py_NewRef(PyObject *o) {
  Py_INCREF(o);
  return o;
}
#endif

/* Taking the GIL for a callback. Most callbacks run on a thread that already holds it (a
 * subject's on_next called from Python keeps it across the library call), and there
 * PyGILState_Ensure/Release cost two thread-local lookups and a counter update per call,
 * for every subscriber. held() is one lookup and one load: this thread's state is the one
 * holding the GIL (it cannot become or stop being so under our feet: only this thread can
 * release it). Otherwise (a scheduler's thread, or a call made with the GIL released) the
 * callback takes it with PyGILState_Ensure as before. */
static inline int held(void) {
  PyThreadState *me = PyGILState_GetThisThreadState();
#if PY_VERSION_HEX >= 0x030D0000
  return me != NULL && me == PyThreadState_GetUnchecked();
#else
  return me != NULL && me == _PyThreadState_UncheckedGet();
#endif
}

typedef struct {
  int held;
  PyGILState_STATE state;
} gil_t;

static inline gil_t gil_enter(void) {
  gil_t g = {held(), PyGILState_LOCKED};
  if (!g.held)
    g.state = PyGILState_Ensure();
  return g;
}

static inline void gil_leave(gil_t g) {
  if (!g.held)
    PyGILState_Release(g.state);
}

/* The package's Python helpers (set once by init()):
 *   to_py(addr) -> object          the value at (rx_value *)addr, any kind
 *   from_py(obj, addr)             writes an owned rx_value for obj at (rx_value *)addr
 *   set_error(exc, addr)           writes an owned rx_error * for exc at (rx_error **)addr
 *   report(what, fn, exc)          reports exc raised by fn through sys.unraisablehook
 *   raise_status(status)           raises the package's exception for an rx_status */
static PyObject *h_to_py, *h_from_py, *h_set_error, *h_report, *h_raise_status;
/* The package's registry (_values._keep): ctx address -> cell (object, callable). */
static PyObject *keep;

/* The value cache (GIL-protected, like everything here). A subject's subscribers all receive
 * the same rx_value, and building a Python object for it per subscriber was an allocation and
 * a free per delivery (ints beyond the small-int cache, floats, str, and a Python call for an
 * RX_OBJECT). Two slots:
 *   sent  the value a subject's on_next is emitting and the object it was made from (x), for
 *         the duration of that call only: boxed values (str, RX_OBJECT) are compared by their
 *         box's address, which is only meaningful while the emitter holds the box. Subscribers
 *         get the emitted object itself, as they do in RxPY.
 *   last  the last RX_INT / RX_DOUBLE converted: equal bits are an equal immutable value, so
 *         reusing the object is right whatever its age (a map's output fanned out by share()).
 * sent belongs to the thread ts while its on_next runs; another thread's on_next may replace
 * it meanwhile (the GIL changes hands in a callback), and then it is that one's. An on_next
 * restores what it found only where the slot is still its thread's, so the slot never names
 * an object whose on_next has returned; reading it from any thread is right while it does. */
typedef struct {
  rx_value v;
  PyObject *obj; /* borrowed from the emitter's caller; NULL: empty */
  PyThreadState *ts;
} sent_t;
static sent_t sent;
static rx_value last_v;
static PyObject *last_obj; /* owned */

static PyObject *remember(rx_value v, PyObject *x) {
  if (x != NULL) {
    Py_INCREF(x);
    Py_XSETREF(last_obj, x);
    last_v = v;
  }
  return x;
}

/* A Python object for a borrowed rx_value (a new reference), NULL with an exception set. */
static PyObject *to_py(rx_value v) {
  if (sent.obj != NULL && v.i == sent.v.i && v.kind == sent.v.kind)
    return Py_NewRef(sent.obj);
  switch (v.kind) {
  case RX_INT:
    if (last_obj != NULL && last_v.kind == RX_INT && last_v.i == v.i)
      return Py_NewRef(last_obj);
    if ((uint64_t)v.i + 5 <= 261) /* CPython's small ints: nothing to allocate */
      return PyLong_FromLongLong(v.i);
    return remember(v, PyLong_FromLongLong(v.i));
  case RX_DOUBLE: {
    if (last_obj != NULL && last_v.kind == RX_DOUBLE && last_v.i == v.i)
      return Py_NewRef(last_obj);
    double d;
    memcpy(&d, &v.i, sizeof d);
    return remember(v, PyFloat_FromDouble(d));
  }
  case RX_BOOL:
    return PyBool_FromLong(v.i != 0);
  case RX_NONE:
    Py_RETURN_NONE;
  case RX_STRING: {
    const char *s = rx_value_string(v);
    if (s != NULL)
      return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "surrogateescape");
    break;
  }
  case RX_OBJECT: { /* the package's: its data is the address of a cell (object, ...) in keep */
    PyObject *key = keep != NULL ? PyLong_FromVoidPtr(rx_object_data(v)) : NULL;
    if (key == NULL)
      break;
    PyObject *cell = PyDict_GetItemWithError(keep, key); /* borrowed */
    Py_DECREF(key);
    if (cell != NULL && PyTuple_CheckExact(cell) && PyTuple_GET_SIZE(cell) > 0)
      return Py_NewRef(PyTuple_GET_ITEM(cell, 0));
    if (PyErr_Occurred())
      return NULL;
    break; /* another library's object: the Python converter gives its address */
  }
  default:
    break;
  }
  return PyObject_CallFunction(h_to_py, "K", (unsigned long long)(uintptr_t)&v);
}

/* Whether v holds a box (to release); the plain kinds have nothing to free. */
static inline int boxed(rx_value v) {
  return !(v.kind == RX_INT || v.kind == RX_DOUBLE || v.kind == RX_BOOL || v.kind == RX_NONE ||
           v.kind == RX_PTR);
}

/* Writes an owned rx_value for x into *out; -1 with an exception set. */
static int from_py(PyObject *x, rx_value *out) {
  PyTypeObject *t = Py_TYPE(x);
  if (t == &PyLong_Type) {
    int overflow = 0;
    long long i = PyLong_AsLongLongAndOverflow(x, &overflow);
    if (!overflow && !(i == -1 && PyErr_Occurred())) {
      out->kind = RX_INT;
      out->i = i;
      return 0;
    }
    PyErr_Clear(); /* outside int64: an RX_OBJECT, through the Python converter */
  } else if (t == &PyFloat_Type) {
    double d = PyFloat_AS_DOUBLE(x);
    out->kind = RX_DOUBLE;
    memcpy(&out->i, &d, sizeof d);
    return 0;
  } else if (t == &PyBool_Type) {
    out->kind = RX_BOOL;
    out->i = x == Py_True;
    return 0;
  } else if (x == Py_None) {
    out->kind = RX_NONE;
    out->i = 0;
    return 0;
  } else if (t == &PyUnicode_Type) {
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(x, &n);
    if (s != NULL && (size_t)n == strlen(s)) { /* no NUL inside: an RX_STRING */
      *out = rx_string(s);
      if (out->kind == RX_STRING)
        return 0;
    }
    PyErr_Clear(); /* surrogates or a NUL: the Python converter decides */
  }
  out->kind = RX_NONE;
  out->i = 0;
  PyObject *r = PyObject_CallFunction(h_from_py, "OK", x, (unsigned long long)(uintptr_t)out);
  if (r == NULL)
    return -1;
  Py_DECREF(r);
  return 0;
}

/* Reports the pending exception, raised by fn, through the package's report helper. */
static void report(const char *what, PyObject *fn) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  if (value != NULL && tb != NULL)
    PyException_SetTraceback(value, tb);
  PyObject *r = PyObject_CallFunction(h_report, "sOO", what, fn, value ? value : Py_None);
  if (r == NULL)
    PyErr_Clear(); /* never unwind into C */
  Py_XDECREF(r);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(tb);
}

/* Turns the pending exception into the stream's error (*err). */
static void fail(rx_error **err) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  if (value != NULL && tb != NULL)
    PyException_SetTraceback(value, tb);
  PyObject *r = PyObject_CallFunction(h_set_error, "OK", value ? value : Py_None,
                                      (unsigned long long)(uintptr_t)err);
  if (r == NULL) {
    PyErr_Clear();
    if (*err == NULL)
      *err = rx_error_new(RX_ERROR_USER, "a Python callback failed");
  }
  Py_XDECREF(r);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(tb);
}

#define FN(ctx) PyTuple_GET_ITEM((PyObject *)(ctx), 1)

/* One callable, one argument; NULL with an exception set. */
static PyObject *call1(PyObject *fn, rx_value v) {
  PyObject *x = to_py(v);
  if (x == NULL)
    return NULL;
  PyObject *r = PyObject_CallOneArg(fn, x);
  Py_DECREF(x);
  return r;
}

static void t_next(void *ctx, rx_value v, const char *what) {
  gil_t g = gil_enter();
  PyObject *fn = FN(ctx);
  PyObject *r = call1(fn, v);
  if (r != NULL)
    Py_DECREF(r);
  else
    report(what, fn);
  gil_leave(g);
}

static void t_on_next(void *ctx, rx_value v) {
  t_next(ctx, v, "Exception ignored in an rxc on_next callback");
}

static void t_dropped(void *ctx, rx_value v) {
  t_next(ctx, v, "Exception ignored in an rxc on_dropped callback");
}

static rx_value t_map(void *ctx, rx_value v, rx_error **err) {
  rx_value out = {RX_NONE, 0};
  gil_t g = gil_enter();
  PyObject *r = call1(FN(ctx), v);
  if (r == NULL || from_py(r, &out) != 0) {
    out.kind = RX_NONE;
    out.i = 0;
    fail(err);
  }
  Py_XDECREF(r);
  gil_leave(g);
  return out;
}

static bool t_pred(void *ctx, rx_value v, rx_error **err) {
  bool ok = false;
  gil_t g = gil_enter();
  PyObject *r = call1(FN(ctx), v);
  int truth = r != NULL ? PyObject_IsTrue(r) : -1;
  if (truth < 0)
    fail(err);
  else
    ok = truth != 0;
  Py_XDECREF(r);
  gil_leave(g);
  return ok;
}

static bool t_compact(void *ctx, rx_value v, rx_value *out, rx_error **err) {
  bool ok = false;
  gil_t g = gil_enter();
  PyObject *r = call1(FN(ctx), v);
  if (r == NULL)
    fail(err);
  else if (r != Py_None) {
    if (from_py(r, out) == 0)
      ok = true;
    else
      fail(err);
  }
  Py_XDECREF(r);
  gil_leave(g);
  return ok;
}

static rx_value t_acc(void *ctx, rx_value acc, rx_value v, rx_error **err) {
  rx_value out = {RX_NONE, 0};
  gil_t g = gil_enter();
  PyObject *a = to_py(acc), *x = a != NULL ? to_py(v) : NULL, *r = NULL;
  if (x != NULL) {
    PyObject *args[2] = {a, x};
    r = PyObject_Vectorcall(FN(ctx), args, 2, NULL);
  }
  if (r == NULL || from_py(r, &out) != 0) {
    out.kind = RX_NONE;
    out.i = 0;
    fail(err);
  }
  Py_XDECREF(a);
  Py_XDECREF(x);
  Py_XDECREF(r);
  gil_leave(g);
  return out;
}

/* ---- subjects: a C on_next ------------------------------------------------------------- */

/* Whether a subject's on_next releases the GIL around the library call. Keeping it saves
 * two GIL hand-offs per event (the subscribers' trampolines then find it held) and cannot
 * deadlock: the library never waits for a thread that runs a callback (its serialization
 * queues work for the running thread instead, and it holds no lock while calling back), so
 * nothing it does inside rx_subject_on_next waits for the GIL's holder, with one exception,
 * the RX_OVERFLOW_BLOCK policy, whose producer waits for room that a Python consumer on
 * another thread makes. The package sets this for good when it creates an operator with that
 * policy (set_release_gil). */
static int release_gil;

/* Emitter(subject_address): a subject's on_next in C. It borrows the subject: the package's
 * Subject owns the handle and calls close() before releasing it. */
typedef struct {
  PyObject_HEAD rx_subject *subject;
} Emitter;

static void emitter_dealloc(Emitter *self) { Py_TYPE(self)->tp_free((PyObject *)self); }

static int emitter_init(Emitter *self, PyObject *args, PyObject *kw) {
  unsigned long long addr;
  if (!PyArg_ParseTuple(args, "K", &addr))
    return -1;
  self->subject = (rx_subject *)(uintptr_t)addr;
  return 0;
}

static PyObject *emitter_on_next(Emitter *self, PyObject *x) {
  rx_subject *s = self->subject;
  if (s == NULL) {
    PyErr_SetString(PyExc_ValueError, "the Subject is closed");
    return NULL;
  }
  rx_value v;
  if (from_py(x, &v) != 0)
    return NULL;
  rx_status st;
  PyThreadState *me = PyThreadState_Get();
  sent_t saved = sent;
  int prime = 0;
  switch (v.kind) { /* the kinds whose to_py gives back x itself, or an equal immutable */
  case RX_INT: case RX_DOUBLE: case RX_BOOL: case RX_NONE: case RX_STRING: case RX_OBJECT:
    prime = 1;
    if (saved.ts != me)
      saved.obj = NULL, saved.ts = NULL;
    sent.v = v, sent.obj = x, sent.ts = me;
    break;
  default:
    break;
  }
  if (release_gil) {
    Py_BEGIN_ALLOW_THREADS
    st = rx_subject_on_next(s, v);
    Py_END_ALLOW_THREADS
  } else { /* see release_gil */
    st = rx_subject_on_next(s, v);
  }
  if (prime && sent.ts == me) /* before the release: a box's address means nothing after it */
    sent = saved;
  if (boxed(v))
    rx_value_release(v);
  if (st != RX_OK)
    return PyObject_CallFunction(h_raise_status, "i", (int)st);
  Py_RETURN_NONE;
}

static PyObject *emitter_close(Emitter *self, PyObject *unused) {
  self->subject = NULL;
  Py_RETURN_NONE;
}

static PyMethodDef emitter_methods[] = {
    {"on_next", (PyCFunction)emitter_on_next, METH_O, "Emits a value (rx_subject_on_next)."},
    {"close", (PyCFunction)emitter_close, METH_NOARGS, "Forgets the subject."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EmitterType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "rxc._speedups.Emitter",
    .tp_basicsize = sizeof(Emitter),
    .tp_dealloc = (destructor)emitter_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A subject's on_next in C.",
    .tp_methods = emitter_methods,
    .tp_init = (initproc)emitter_init,
    .tp_new = PyType_GenericNew,
};

/* ---- the module ----------------------------------------------------------------------- */

static PyObject *init(PyObject *self, PyObject *args) {
  PyObject *a, *b, *c, *d, *e, *k = NULL;
  if (!PyArg_ParseTuple(args, "OOOOO|O!", &a, &b, &c, &d, &e, &PyDict_Type, &k))
    return NULL;
  Py_XINCREF(k);
  Py_XSETREF(keep, k);
  Py_INCREF(a), Py_INCREF(b), Py_INCREF(c), Py_INCREF(d), Py_INCREF(e);
  Py_XSETREF(h_to_py, a);
  Py_XSETREF(h_from_py, b);
  Py_XSETREF(h_set_error, c);
  Py_XSETREF(h_report, d);
  Py_XSETREF(h_raise_status, e);
  Py_RETURN_NONE;
}

static PyObject *set_release_gil(PyObject *self, PyObject *unused) {
  release_gil = 1;
  Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"init", init, METH_VARARGS, "init(to_py, from_py, set_error, report, raise_status, keep=None)"},
    {"set_release_gil", set_release_gil, METH_NOARGS,
     "From now on, a subject's on_next releases the GIL around the library call."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "rxc._speedups",
                                    "The compiled fast path of rxc.", -1, methods};

static int add_addr(PyObject *m, const char *name, void *fn) {
  return PyModule_AddObject(m, name, PyLong_FromUnsignedLongLong((uintptr_t)fn));
}

PyMODINIT_FUNC PyInit__speedups(void) {
  if (PyType_Ready(&EmitterType) < 0)
    return NULL;
  PyObject *m = PyModule_Create(&module);
  if (m == NULL)
    return NULL;
  Py_INCREF(&EmitterType);
  if (PyModule_AddObject(m, "Emitter", (PyObject *)&EmitterType) < 0 ||
      add_addr(m, "on_next", (void *)t_on_next) < 0 || add_addr(m, "dropped", (void *)t_dropped) < 0 ||
      add_addr(m, "map", (void *)t_map) < 0 || add_addr(m, "pred", (void *)t_pred) < 0 ||
      add_addr(m, "compact", (void *)t_compact) < 0 || add_addr(m, "acc", (void *)t_acc) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
