/*
 * rxc.h — librxc: Reactive Extensions for C.
 *
 * Observables, subjects, schedulers, operators and disposables with explicit control over
 * which thread runs what. This header is the reference for the API.
 *
 * Ownership (the CoreFoundation "create rule"):
 *   - A function whose name contains _new or _create, or that returns a new rx_observable *
 *     or rx_disposable *, returns an OWNED reference: release it with rx_release (or, for a
 *     subscription token, rx_dispose).
 *   - Everything passed INTO the library is BORROWED: the library retains what it keeps.
 *   - Everything passed TO A CALLBACK is borrowed for the duration of that call.
 *   - Callbacks that RETURN a value or observable return an owned one.
 *
 * Threads: every function is thread-safe unless its documentation says otherwise. The
 * library never calls a user callback while holding one of its own locks. All time is
 * monotonic and measured in int64_t nanoseconds.
 *
 * Errors: a call given NULL, a handle of the wrong kind or memory that is not a handle
 * returns RX_EINVAL / RX_EHANDLE (or NULL, rx_none(), false, 0 or -1, as its return type
 * allows), sets rx_last_error() and changes nothing. Set RXC_DEBUG=1 in the environment to
 * keep released handles poisoned, so a double release or a use after release is reported.
 */
#ifndef RXC_H
#define RXC_H

#if !defined(RX_CDEF)
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------
 * Attributes
 * ------------------------------------------------------------------------------------- */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(RX_CDEF)
#define RX_EXPORT __attribute__((visibility("default")))
#define RX_WARN_UNUSED_RESULT __attribute__((warn_unused_result))
#else
#define RX_EXPORT
#define RX_WARN_UNUSED_RESULT
#endif

/* ---------------------------------------------------------------------------------------
 * 1. Conventions: handles and callback types
 * ------------------------------------------------------------------------------------- */

/** An observable sequence (cold or hot). Owned references are released with rx_release. */
typedef struct rx_observable rx_observable;
/** A subject: an observer and an observable at once. */
typedef struct rx_subject rx_subject;
/** A scheduler: decides on which thread, and when, work runs. */
typedef struct rx_scheduler rx_scheduler;
/** A disposable: a subscription token or a disposable container. */
typedef struct rx_disposable rx_disposable;
/** A dispose bag: disposes everything it holds when drained or released. */
typedef struct rx_dispose_bag rx_dispose_bag;
/** The emitter handed to an rx_create subscribe function. */
typedef struct rx_emitter rx_emitter;
/** An error carried by a stream (immutable, reference counted). */
typedef struct rx_error rx_error;

/** Frees a context pointer; called exactly once, after the last call that can use it. */
typedef void (*rx_free_fn)(void *ctx);
/** A plain action. */
typedef void (*rx_action_fn)(void *ctx);

/**
 * @abstract Retains any handle (observable, subject, scheduler, disposable, dispose bag,
 * emitter, error). Values are retained with rx_value_retain.
 * @param handle A live handle. NULL returns NULL and sets rx_last_error().
 * @result The handle itself, or NULL if it is not a live handle (RX_EHANDLE).
 */
RX_EXPORT void *rx_retain(const void *handle);

/**
 * @abstract Releases a reference to any handle. rx_release(NULL) is a silent no-op.
 * @discussion Releasing the last reference of an observable does not cancel its
 * subscriptions, and releasing a subscription token does not cancel the subscription:
 * rx_dispose does. Releasing the last reference of a subject disposes it; releasing the last
 * reference of a dispose bag disposes what it holds. A handle that is not live is reported
 * through rx_last_error() and otherwise ignored.
 */
RX_EXPORT void rx_release(const void *handle);

/* ---------------------------------------------------------------------------------------
 * 2. Status and misuse
 * ------------------------------------------------------------------------------------- */

typedef enum rx_status {
  RX_OK = 0,
  RX_EINVAL = -1,    /* NULL or out-of-range argument */
  RX_EHANDLE = -2,   /* not a live handle of the expected kind */
  RX_ESTATE = -3,    /* not allowed now (e.g. rx_main_run off the main thread, nested run) */
  RX_EDISPOSED = -4, /* the object is disposed */
  RX_ETIMEOUT = -5,  /* a blocking call ran out of time */
  RX_ESTREAM = -6    /* the stream ended with an error, returned in *out_error */
} rx_status;

/** @abstract A static English description of a status ("RX_EINVAL: invalid argument"). */
RX_EXPORT const char *rx_status_string(rx_status status);

/**
 * @abstract This thread's message for its last failed call.
 * @result "" before any failure; never NULL. A successful call does not clear it. The string
 * is owned by the library and valid until this thread's next failing call.
 */
RX_EXPORT const char *rx_last_error(void);

#define RX_VERSION_MAJOR 0
#define RX_VERSION_MINOR 5
#define RX_VERSION_PATCH 0
#define RX_VERSION_STRING "0.5.0"
/** @abstract The library's version, "MAJOR.MINOR.PATCH"; compare with RX_VERSION_STRING. */
RX_EXPORT const char *rx_version(void);

/* ---------------------------------------------------------------------------------------
 * 3. Values
 * ------------------------------------------------------------------------------------- */

typedef enum rx_kind {
  RX_NONE = 0,
  RX_INT,
  RX_DOUBLE,
  RX_BOOL,
  RX_PTR,
  RX_STRING,
  RX_BYTES,
  RX_ARRAY,
  RX_OBJECT,
  RX_OBSERVABLE,
  RX_EVENT
} rx_kind;

typedef enum rx_event_kind {
  RX_EVENT_NONE = 0,
  RX_EVENT_NEXT,
  RX_EVENT_ERROR,
  RX_EVENT_COMPLETED
} rx_event_kind;

/**
 * A value carried by a stream: a kind and 64 bits of payload. There is no union in it, so
 * every FFI can pass it by value (libffi, hence cffi's ABI mode and ctypes, has no union
 * type). On x86-64 (System V) and AArch64 it is passed and returned in two integer
 * registers, as the kind-plus-union layout of 0.1 was.
 *   RX_INT     i is the integer.
 *   RX_DOUBLE  i holds the double's bits: rx_value_double(v) or, in C, RX_DOUBLE_OF(v).
 *   RX_BOOL    i is 0 or 1 (any nonzero i reads as true).
 *   RX_PTR     i holds the pointer: rx_value_ptr(v) or RX_PTR_OF(v). Never freed by the library.
 *   RX_NONE    i is 0.
 *   the rest   i holds the address of an immutable, reference-counted box:
 *              rx_value_retain / rx_value_release manage it.
 * Make values with RX_INT(x) ... (C) or rx_int(x) ... (functions, for FFIs).
 */
typedef struct rx_value {
  rx_kind kind;
  int64_t i;
} rx_value;

/* Constructors of plain values: real functions, for FFI users (C has RX_INT(x)...). Plain
   values own nothing: no release needed. */
/** @abstract An RX_INT value holding i. */
RX_EXPORT rx_value rx_int(int64_t i);
/** @abstract An RX_DOUBLE value holding d's bits. */
RX_EXPORT rx_value rx_double(double d);
/** @abstract An RX_BOOL value: i is 1 for true, 0 for false. */
RX_EXPORT rx_value rx_bool(bool b);
/** @abstract An RX_PTR value holding p (never dereferenced or freed by the library; may be NULL). */
RX_EXPORT rx_value rx_ptr(void *p);
/** @abstract The RX_NONE value (i is 0). */
RX_EXPORT rx_value rx_none(void);

/*
 * Readers of plain values: real functions, for FFI users. A value of another kind gives -1,
 * 0.0, false or NULL (the library's error results for those types) and sets rx_last_error();
 * only an RX_INT reads as an int (v.i is the raw payload of any kind).
 */
/** @abstract The integer of an RX_INT value; -1 (and rx_last_error()) for another kind. */
RX_EXPORT int64_t rx_value_int(rx_value v);
/** @abstract The double of an RX_DOUBLE value; 0.0 (and rx_last_error()) for another kind. */
RX_EXPORT double rx_value_double(rx_value v);
/** @abstract The bool of an RX_BOOL value; false (and rx_last_error()) for another kind. */
RX_EXPORT bool rx_value_bool(rx_value v);
/** @abstract The pointer of an RX_PTR value; NULL (and rx_last_error()) for another kind. */
RX_EXPORT void *rx_value_ptr(rx_value v);

/*
 * Zero-cost C equivalents. The readers (RX_DOUBLE_OF, RX_BOOL_OF, RX_PTR_OF) do not check
 * the kind. Define RX_CDEF before including this header to leave them out: what remains
 * is plain declarations, for FFI declaration parsers (cffi's cdef, LuaJIT's ffi.cdef) fed
 * with the preprocessed header (cc -E -P -DRX_CDEF rxc.h).
 */
#if !defined(RX_CDEF)
static inline rx_value rx__make_double(double d) {
  union { double d; int64_t i; } bits;
  rx_value v;
  bits.d = d;
  v.kind = RX_DOUBLE;
  v.i = bits.i;
  return v;
}
static inline double rx__double_of(rx_value v) {
  union { double d; int64_t i; } bits;
  bits.i = v.i;
  return bits.d;
}
#define RX_DOUBLE_OF(v) rx__double_of(v)
#define RX_BOOL_OF(v) ((v).i != 0)
#define RX_PTR_OF(v) ((void *)(intptr_t)(v).i)
#if defined(__cplusplus)
#define RX_INT(x) rx_int((int64_t)(x))
#define RX_DOUBLE(x) rx_double((double)(x))
#define RX_BOOL(x) rx_bool((bool)(x))
#define RX_PTR(x) rx_ptr((void *)(x))
#else
#define RX_INT(x) ((rx_value){.kind = RX_INT, .i = (int64_t)(x)})
#define RX_DOUBLE(x) rx__make_double((double)(x))
#define RX_BOOL(x) ((rx_value){.kind = RX_BOOL, .i = (x) ? 1 : 0})
#define RX_PTR(x) ((rx_value){.kind = RX_PTR, .i = (int64_t)(intptr_t)(void *)(x)})
#endif
#endif /* !RX_CDEF */

/** @abstract A new string value; copies the NUL-terminated UTF-8 text. Owned. NULL: rx_none(). */
RX_EXPORT rx_value rx_string(const char *utf8);
/** @abstract A new bytes value; copies len bytes (data may be NULL when len is 0). Owned. */
RX_EXPORT rx_value rx_bytes(const void *data, size_t len);
/** @abstract A new array value; retains each of the n items (items may be NULL when n is 0). Owned. */
RX_EXPORT rx_value rx_array(const rx_value *items, size_t n);
/**
 * @abstract Wraps user data in a reference-counted value. Owned.
 * @param destroy Called once with data when the last reference goes (may be NULL).
 */
RX_EXPORT rx_value rx_object(void *data, rx_free_fn destroy);
/** @abstract A value that retains an observable (for streams of streams). Owned. */
RX_EXPORT rx_value rx_observable_value(rx_observable *observable);

/** @abstract Retains a boxed value (no-op on plain data); returns it. */
RX_EXPORT rx_value rx_value_retain(rx_value v);
/** @abstract Releases a boxed value (no-op on plain data). */
RX_EXPORT void rx_value_release(rx_value v);

/* Accessors. A value of another kind gives NULL / 0 / rx_none() / RX_EVENT_NONE and sets
   rx_last_error(). Results are borrowed from the value. */
/** @abstract The NUL-terminated UTF-8 text of an RX_STRING value (borrowed from the value). */
RX_EXPORT const char *rx_value_string(rx_value v);
/** @abstract The bytes of an RX_BYTES value (borrowed); *len (may be NULL) gets their count. */
RX_EXPORT const void *rx_value_bytes(rx_value v, size_t *len);
/** @abstract The number of items of an RX_ARRAY value. */
RX_EXPORT size_t rx_array_count(rx_value v);
/** @abstract Item i of an RX_ARRAY value, borrowed from the array; out of range: rx_none(). */
RX_EXPORT rx_value rx_array_get(rx_value v, size_t i);
/** @abstract The data pointer of an RX_OBJECT value. */
RX_EXPORT void *rx_object_data(rx_value v);
/** @abstract The observable of an RX_OBSERVABLE value, borrowed from the value. */
RX_EXPORT rx_observable *rx_value_observable(rx_value v);
/** @abstract The kind of an RX_EVENT value; RX_EVENT_NONE for any other value. */
RX_EXPORT rx_event_kind rx_value_event_kind(rx_value v);
/** @abstract The value of a next event, borrowed; rx_none() for other events and values. */
RX_EXPORT rx_value rx_value_event_value(rx_value v);
/** @abstract The error of an error event, borrowed; NULL for other events and values. */
RX_EXPORT const rx_error *rx_value_event_error(rx_value v);

/**
 * @abstract Structural equality: plain data by value, strings/bytes/arrays by content,
 * objects by data pointer, observables by identity, events by kind and content (error
 * events by the errors' codes and messages).
 */
RX_EXPORT bool rx_value_equal(rx_value a, rx_value b);

/* ---------------------------------------------------------------------------------------
 * 4. Errors carried by streams
 * ------------------------------------------------------------------------------------- */

enum {
  RX_ERROR_DISPOSED = 1,
  RX_ERROR_TIMEOUT,
  RX_ERROR_NO_ELEMENTS,
  RX_ERROR_MORE_THAN_ONE_ELEMENT,
  RX_ERROR_ARGUMENT_OUT_OF_RANGE,
  RX_ERROR_OVERFLOW,
  RX_ERROR_UNKNOWN,
  RX_ERROR_TYPE, /* a value of the wrong kind, e.g. for switch_latest */
  RX_ERROR_UNEXPECTED_ELEMENT, /* an element where the grammar allows none (rx_as_completable) */
  RX_ERROR_USER = 1000 /* user codes start here */
};

/** @abstract A new error; copies message (NULL: ""). Owned: release with rx_release. */
RX_EXPORT rx_error *rx_error_new(int32_t code, const char *message);
/** @abstract The error's code; 0 (and rx_last_error()) for a bad handle. */
RX_EXPORT int32_t rx_error_code(const rx_error *error);
/** @abstract The error's message, borrowed from the error; NULL for a bad handle. */
RX_EXPORT const char *rx_error_message(const rx_error *error);

/* ---------------------------------------------------------------------------------------
 * 5. Observers and subscriptions
 * ------------------------------------------------------------------------------------- */

/**
 * The callbacks of one subscription. Each may be NULL. Grammar:
 * on_next* (on_error | on_completed)?, then on_disposed exactly once. Callbacks of one
 * subscription never run concurrently.
 */
typedef struct rx_observer {
  void (*on_next)(void *ctx, rx_value value);         /* value borrowed for the call */
  void (*on_error)(void *ctx, const rx_error *error); /* error borrowed for the call */
  void (*on_completed)(void *ctx);
  /* exactly once, after every other callback of this subscription: after a terminal event,
     after dispose, or when its source drops it (a subject disposed or destroyed). Free ctx
     here. */
  void (*on_disposed)(void *ctx);
  void *ctx;
} rx_observer;

/**
 * @abstract Subscribes an observer to an observable.
 * @param source Borrowed.
 * @param observer Copied. Its callbacks run on whatever thread the source emits on.
 * @result An owned subscription token: end the subscription with rx_dispose (which also
 * releases the token). NULL on a bad argument; then no callback is ever called.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_disposable *rx_subscribe(rx_observable *source,
                                                            rx_observer observer);

/**
 * @abstract Disposes a disposable and releases the caller's reference to it.
 * @discussion After it returns no on_next/on_error/on_completed of that subscription starts
 * (one already running on another thread may finish; on_disposed then follows on that
 * thread). Disposing again (through a retained reference) is a no-op.
 */
RX_EXPORT rx_status rx_dispose(rx_disposable *d);

/** @abstract Whether the disposable has been disposed; false (and rx_last_error()) if invalid. */
RX_EXPORT bool rx_disposable_is_disposed(rx_disposable *d);

/** @abstract A new, empty dispose bag. Owned; releasing it disposes what it holds. */
RX_EXPORT rx_dispose_bag *rx_dispose_bag_new(void);
/** @abstract Takes the caller's token into the bag. */
RX_EXPORT rx_status rx_dispose_bag_add(rx_dispose_bag *bag, rx_disposable *d);
/** @abstract Disposes everything in the bag; the bag stays usable. */
RX_EXPORT rx_status rx_dispose_bag_drain(rx_dispose_bag *bag);

/** @abstract A disposable that runs action(ctx) once, on first dispose. Owned. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_disposable *rx_disposable_create(rx_action_fn action,
                                                                    void *ctx,
                                                                    rx_free_fn ctx_free);
/** @abstract A serial disposable: setting a new inner disposable disposes the previous one. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_disposable *rx_serial_disposable_new(void);
/**
 * @abstract Takes the caller's token d into serial and disposes the previous one (outside
 * any lock). A disposed serial disposes d at once (RX_OK). A token that is not a serial
 * disposable: RX_EHANDLE; on any error nothing is taken.
 */
RX_EXPORT rx_status rx_serial_disposable_set(rx_disposable *serial, rx_disposable *d);
/** @abstract A single-assignment disposable: a second set is RX_ESTATE. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_disposable *rx_single_assignment_disposable_new(void);
/** @abstract Takes the caller's token d into sa. A second set is RX_ESTATE and takes
 * nothing; if sa is already disposed, d is disposed at once (RX_OK). */
RX_EXPORT rx_status rx_single_assignment_disposable_set(rx_disposable *sa, rx_disposable *d);
/** @abstract A composite disposable: disposes all it holds when disposed. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_disposable *rx_composite_disposable_new(void);
/** @abstract Takes the caller's token d into composite; a disposed composite disposes d
 * at once (RX_OK). Wrong sort of handle: RX_EHANDLE and nothing taken. */
RX_EXPORT rx_status rx_composite_disposable_add(rx_disposable *composite, rx_disposable *d);

/* ---------------------------------------------------------------------------------------
 * 6. Creating observables
 * ------------------------------------------------------------------------------------- */

/**
 * The subscribe function of rx_create: called once per subscription, on the subscribing
 * thread, with the subscription's emitter (borrowed: rx_retain it to emit after returning,
 * from any thread). May return an owned disposable, disposed when the subscription ends
 * (terminal event or dispose) — the place to stop timers or threads that emit. May be NULL.
 */
typedef rx_disposable *(*rx_subscribe_fn)(void *ctx, rx_emitter *emitter);

/**
 * @abstract An observable whose subscriptions are driven by fn (RxSwift's Observable.create).
 * @param fn Called once per subscription (see rx_subscribe_fn). NULL: RX_EINVAL.
 * @param ctx Passed to fn.
 * @param ctx_free Called once with ctx when the observable and every subscription to it
 * are gone (may be NULL).
 * @result An owned observable, or NULL (rx_last_error() set).
 * @discussion A subscription ends only with a terminal event or a dispose; releasing the
 * emitter does not end it.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_create(rx_subscribe_fn fn, void *ctx,
                                                         rx_free_fn ctx_free);

/**
 * @abstract Emits a value to the emitter's subscription.
 * @discussion Any thread; several threads at once are serialized (each event is delivered
 * whole, in one order), and a call made from inside a callback of the same subscription is
 * delivered after that callback returns. The observer's callback usually runs on the
 * calling thread before this returns, or on the thread delivering at that moment.
 * @param value Borrowed; the library retains what it keeps.
 * @result RX_OK (also after a terminal event: the value is dropped), RX_EDISPOSED after the
 * subscription was disposed, RX_EINVAL/RX_EHANDLE on bad arguments.
 */
RX_EXPORT rx_status rx_emitter_next(rx_emitter *emitter, rx_value value);
/** @abstract Ends the subscription with an error (borrowed). Statuses as rx_emitter_next. */
RX_EXPORT rx_status rx_emitter_error(rx_emitter *emitter, const rx_error *error);
/** @abstract Ends the subscription with completion. Statuses as rx_emitter_next. */
RX_EXPORT rx_status rx_emitter_completed(rx_emitter *emitter);
/** @abstract Whether the subscription has ended (terminal event or dispose): emitting
 * threads poll it to stop early. false (and rx_last_error()) for a bad handle. */
RX_EXPORT bool rx_emitter_is_disposed(rx_emitter *emitter);

/** @abstract Emits value (borrowed; retained by the observable), then completes. Owned. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_just(rx_value value);
/** @abstract Emits the n values (borrowed; retained) in order, then completes. values may be
 * NULL when n is 0. Owned. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_of(const rx_value *values, size_t n);
/** @abstract Emits RX_INT start, start+1, ... (count values) synchronously, then completes;
 * stops early when disposed. start + count beyond INT64_MAX: NULL + RX_EINVAL. Owned. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_range(int64_t start, size_t count);
/** @abstract Completes at once. Owned. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_empty(void);
/** @abstract Never emits; its subscriptions end only when disposed. Owned. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_never(void);
/** @abstract Fails at once with error (borrowed; retained). Owned. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_throw(const rx_error *error);
/**
 * @abstract Emits value (borrowed; retained) again and again, one value per action on
 * `scheduler` (NULL: the current-thread scheduler), until the subscription is disposed.
 * @discussion It never completes: stop it downstream (rx_take, rx_take_while...). Each
 * value is scheduled after the previous one was delivered, so other work on a serial
 * scheduler runs in between; on the immediate scheduler, or on the current-thread one
 * outside a trampoline, the values come in a loop inside rx_subscribe (as rx_range's). On a
 * test scheduler every value is due at the current virtual time. Owned.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_repeat_element(rx_value value, rx_scheduler *scheduler);
/**
 * @abstract Calls factory at each subscription and subscribes to the observable it returns
 * (owned by the library once returned). A NULL return fails that subscription with
 * RX_ERROR_UNKNOWN. ctx_free(ctx) runs once when the observable and its subscriptions are
 * gone. Owned.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_defer(rx_observable *(*factory)(void *ctx),
                                                        void *ctx, rx_free_fn ctx_free);
/**
 * @abstract Emits RX_INT 0, 1, 2, ... every period_ns on scheduler (borrowed; retained),
 * drift-free (the n-th value is due at subscription + (n+1)·period) and never overlapping.
 * period_ns <= 0, or the immediate / current-thread scheduler (periodic work would never
 * return): NULL + RX_EINVAL. Owned.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_interval(int64_t period_ns,
                                                           rx_scheduler *scheduler);
/**
 * @abstract Emits RX_INT 0 after due_ns (negative: 0), then, if period_ns > 0, 1, 2, ...
 * every period_ns; with period_ns < 0 it completes after the first value. period_ns == 0
 * (or periodic on the immediate / current-thread scheduler): NULL + RX_EINVAL. Owned.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_timer(int64_t due_ns, int64_t period_ns,
                                                        rx_scheduler *scheduler);

/* ---------------------------------------------------------------------------------------
 * 7. Subjects
 *
 * A subject is an observable you feed by hand. Semantics follow RxSwift:
 *   publish   each event goes to the observers subscribed at that moment;
 *   behavior  holds a current value, given first to every new subscriber;
 *   replay    gives each new subscriber the last buffer_size values (or all), then goes live;
 *   async     gives only the last value, with completed, once the subject completes;
 *   relays    a publish, behavior or replay subject that only takes values and never
 *             terminates.
 * A terminated subject gives late subscribers its stop event (replay: the buffer first;
 * async: the last value, then completed; behavior: the stop event only). A disposed subject
 * gives late subscribers an error with code RX_ERROR_DISPOSED. Events after a stop event
 * are ignored (RX_OK); after dispose they return RX_EDISPOSED.
 *
 * Threads: rx_subject_on_* may be called from several threads at once and from inside a
 * callback of the same subject. Each observer still sees a serialized stream, all observers
 * see the events in one order, and an event emitted from inside a callback is delivered
 * after that callback returns (never recursively, never dropped). Callbacks run on a
 * thread that is calling into the subject (rx_subject_on_*, rx_subscribe delivering a
 * replay or current value, rx_dispose, rx_subject_dispose): when calls overlap, one caller
 * also delivers what the others queued meanwhile. No callback runs while a library lock is
 * held.
 *
 * Lifetime: releasing the last reference of a subject disposes it (also from inside one of
 * its own callbacks). Disposing drops every observer without an event: each gets
 * on_disposed.
 * ------------------------------------------------------------------------------------- */

/**
 * @abstract A new publish subject.
 * @result Owned; release with rx_release (which disposes it).
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_subject *rx_publish_subject_new(void);

/**
 * @abstract A new behavior subject holding initial as its current value.
 * @param initial Borrowed; the subject retains it.
 * @result Owned. NULL (and rx_last_error()) if initial is not a valid value.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_subject *rx_behavior_subject_new(rx_value initial);

/**
 * @abstract A new replay subject that keeps the last buffer_size values.
 * @param buffer_size At least 1; 0 gives NULL and rx_last_error() (RX_EINVAL).
 * @result Owned. The buffer's values are released when the subject is disposed.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_subject *rx_replay_subject_new(size_t buffer_size);

/** @abstract A new replay subject that keeps every value. Owned. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_subject *rx_replay_subject_new_unbounded(void);

/** @abstract A new async subject: only the last value, on completion. Owned. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_subject *rx_async_subject_new(void);

/** @abstract A new publish relay: a publish subject that never terminates. Owned. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_subject *rx_publish_relay_new(void);

/**
 * @abstract A new behavior relay: a behavior subject that never terminates.
 * @param initial Borrowed; the relay retains it.
 * @result Owned. NULL (and rx_last_error()) if initial is not a valid value.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_subject *rx_behavior_relay_new(rx_value initial);

/**
 * @abstract A new replay relay: a replay subject of buffer_size that never terminates.
 * @param buffer_size At least 1; 0 gives NULL and rx_last_error() (RX_EINVAL).
 * @result Owned. rx_subject_on_error / rx_subject_on_completed on it return RX_ESTATE; the
 * buffer's values are released when the relay is disposed.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_subject *rx_replay_relay_new(size_t buffer_size);

/** @abstract A new replay relay that keeps every value (it never terminates). Owned. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_subject *rx_replay_relay_new_unbounded(void);

/**
 * @abstract Emits a value to the subject's observers.
 * @param value Borrowed; the subject retains what it keeps (behavior, replay, async).
 * @result RX_OK (also when ignored after a stop event); RX_EDISPOSED after dispose;
 * RX_EINVAL/RX_EHANDLE for a bad subject or value.
 */
RX_EXPORT rx_status rx_subject_on_next(rx_subject *subject, rx_value value);

/**
 * @abstract Terminates the subject with an error.
 * @param error Borrowed; the subject retains it to give late subscribers.
 * @result RX_OK (also when ignored after a stop event); RX_EDISPOSED after dispose;
 * RX_ESTATE on a relay, in every state; RX_EINVAL/RX_EHANDLE for bad arguments.
 */
RX_EXPORT rx_status rx_subject_on_error(rx_subject *subject, const rx_error *error);

/**
 * @abstract Completes the subject.
 * @result RX_OK (also when ignored after a stop event); RX_EDISPOSED after dispose;
 * RX_ESTATE on a relay, in every state; RX_EINVAL/RX_EHANDLE for a bad subject.
 */
RX_EXPORT rx_status rx_subject_on_completed(rx_subject *subject);

/**
 * @abstract The subject as an observable, for rx_subscribe and operators.
 * @result Borrowed: the same pointer every time, valid as long as the subject. rx_retain it
 * to keep it longer; once the subject is gone it behaves as a disposed subject. NULL (and
 * rx_last_error()) for a bad subject.
 */
RX_EXPORT rx_observable *rx_subject_as_observable(rx_subject *subject);

/**
 * @abstract Reads the current value of a behavior subject or relay, from any thread.
 * @param out Receives an owned value (release with rx_value_release); rx_none() on failure.
 * Must not be NULL (RX_EINVAL).
 * @param out_error May be NULL. Receives an owned error on RX_ESTREAM, NULL otherwise.
 * @result RX_OK with the current value (also after completion); RX_ESTREAM after on_error;
 * RX_EDISPOSED after dispose; RX_EHANDLE for any other sort of subject.
 */
RX_EXPORT rx_status rx_subject_value(rx_subject *subject, rx_value *out, rx_error **out_error);

/** @abstract Whether the subject has subscribers now; false (and rx_last_error()) if invalid. */
RX_EXPORT bool rx_subject_has_observers(rx_subject *subject);

/**
 * @abstract Disposes the subject: its observers are dropped (each gets on_disposed, no
 * event), its values released, later subscribers get RX_ERROR_DISPOSED.
 * @discussion Does not release the caller's reference. Disposing twice is RX_OK.
 */
RX_EXPORT rx_status rx_subject_dispose(rx_subject *subject);

/* ---------------------------------------------------------------------------------------
 * 8. Schedulers
 * ------------------------------------------------------------------------------------- */

/*
 * A scheduler decides on which thread, and when, work runs. Scheduler handles are released
 * with rx_release (the three shared ones below ignore retain/release). Everything the
 * library schedules (operator timers, observe_on deliveries, subscribe_on subscriptions)
 * goes through these same schedulers. All times are CLOCK_MONOTONIC nanoseconds, or
 * virtual time for a test scheduler.
 *
 * Scheduling functions (rx_schedule, rx_schedule_after, rx_schedule_periodic) take
 * `ctx` and `ctx_free`: ctx_free(ctx) runs exactly once, after the action's last run, or as
 * soon as the action can no longer run (its token disposed before it started). They return
 * an OWNED rx_disposable: rx_dispose cancels work that has not started (it then never
 * runs) and releases the token; rx_release only releases it (the work still runs).
 * Rejected calls return NULL, set rx_last_error(), never run the action and do not call
 * ctx_free.
 *
 * Delayed work waits on the library's timer thread (one per process, started on first use
 * and ended when idle), which hands it to its scheduler when due. rx_dispose before then
 * takes it off the timer: its memory goes at once, not at its deadline.
 *
 * fork(): every scheduler works in a forked child. The serial, concurrent and
 * operation-queue schedulers run on Dispatch in the process that loaded the library and, in
 * a forked child, where Dispatch can no longer run anything, on threads of the library's
 * own, started on first use there and ended when idle, with the same ordering and
 * concurrency guarantees; the child starts its own timer thread. The new-thread
 * scheduler starts threads as usual; run loops, the main one included, get fresh pipes under
 * the same fd numbers (see the run-loop note below). Work queued, delayed or running in the
 * parent at the moment of the fork stays the parent's and never runs in the child (an
 * rx_observe_on delivery in flight then stalls that stream in the child); everything
 * scheduled in the child runs.
 */

/**
 * @abstract The immediate scheduler: runs each action at once, on the calling thread.
 * @discussion A shared instance (retain/release are no-ops). rx_schedule_after sleeps the
 * calling thread until the work is due. Periodic work is rejected (it would never return):
 * rx_schedule_periodic, rx_interval and a periodic rx_timer return NULL. Not serial.
 */
RX_EXPORT rx_scheduler *rx_scheduler_immediate(void);

/**
 * @abstract The current-thread scheduler (trampoline).
 * @discussion A shared instance. The first action scheduled on a thread runs at once;
 * actions scheduled while it runs (on the same thread) are queued, in due-time order, and
 * run after it returns, before the outermost rx_schedule call returns. Delayed work blocks
 * the thread until due; periodic work is rejected as for the immediate scheduler.
 */
RX_EXPORT rx_scheduler *rx_scheduler_current_thread(void);

/**
 * @abstract The main scheduler: runs work on the main thread (the process's initial thread).
 * @discussion A shared instance; serial. Work runs only while the main thread drives it:
 * rx_main_run, rx_main_run_for, rx_main_drain, or the program's own loop on rx_main_fd().
 * Called on the main thread while nothing is queued or running there, rx_schedule runs the
 * action at once (as RxSwift's MainScheduler); otherwise it enqueues, in FIFO order.
 * Delayed work joins the queue when it is due.
 */
RX_EXPORT rx_scheduler *rx_scheduler_main(void);

/**
 * @abstract A new serial scheduler: one action at a time, in submission order, on a
 * private queue served by library threads.
 * @param label A name for debugging (copied; may be NULL).
 * @result An owned scheduler; pending work keeps running after the last rx_release.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_scheduler *rx_scheduler_serial_new(const char *label);

/**
 * @abstract A new concurrent scheduler: actions may run at the same time on a pool of
 * library threads.
 * @param label A name for debugging (copied; may be NULL).
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_scheduler *rx_scheduler_concurrent_new(const char *label);

/**
 * @abstract A new operation-queue scheduler: FIFO, at most `max_concurrent` actions at once.
 * @param label A name for debugging (copied; may be NULL).
 * @param max_concurrent The limit, >= 1 (1 makes it serial); otherwise NULL and RX_EINVAL's
 * message in rx_last_error().
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_scheduler *rx_scheduler_operation_queue_new(const char *label,
                                                                               int max_concurrent);

/**
 * @abstract A new new-thread scheduler: each schedule call chain gets its own thread.
 * @discussion A schedule from outside starts a new thread; work that thread's actions
 * schedule on the same scheduler (recursion, periodic runs, operator timers) stays on it.
 * The thread ends when it has nothing left to run.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_scheduler *rx_scheduler_new_thread(void);

/**
 * @abstract A new virtual-time test scheduler, its clock at 0.
 * @discussion Work runs only inside rx_test_scheduler_advance_to/advance_by/run, on the
 * calling thread, with RxSwift's VirtualTimeScheduler semantics: items due at the same time
 * run in the order they were scheduled; inside an action rx_scheduler_now_ns is that item's
 * due time; zero-delay work runs at the current time on the next advance or run. Serial.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_scheduler *rx_test_scheduler_new(void);

/**
 * The functions of a custom scheduler. `schedule` must eventually call action(action_ctx)
 * exactly once, on any thread, unless the disposable it returned is disposed first; after
 * that dispose it must not start the call. The library owns action_ctx (never free it).
 * The returned disposable (owned; may be NULL when the work cannot be cancelled) is taken by
 * the library. `schedule_after` (may be NULL: the library then waits on its own timer and
 * calls `schedule` when the work is due) is the same with a delay >= 0. `now_ns` (may be NULL:
 * CLOCK_MONOTONIC) is the scheduler's clock. `serial` declares that actions never overlap
 * and run in order.
 */
typedef struct rx_scheduler_vtable {
  rx_disposable *(*schedule)(void *ctx, rx_action_fn action, void *action_ctx);
  rx_disposable *(*schedule_after)(void *ctx, int64_t delay_ns, rx_action_fn action,
                                   void *action_ctx); /* may be NULL */
  int64_t (*now_ns)(void *ctx);                       /* may be NULL */
  bool serial;
} rx_scheduler_vtable;

/**
 * @abstract A scheduler backed by your own functions.
 * @param vt The functions (copied; vt->schedule must not be NULL).
 * @param ctx Passed to every vtable function.
 * @param ctx_free Called once with ctx after the scheduler and everything scheduled on it
 * through the library are gone (may be NULL).
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_scheduler *rx_scheduler_custom_new(const rx_scheduler_vtable *vt,
                                                                      void *ctx,
                                                                      rx_free_fn ctx_free);

/**
 * @abstract Runs action(ctx) on the scheduler, as soon as it can.
 * @param scheduler Borrowed.
 * @param action Must not be NULL. Runs on the scheduler's thread.
 * @param ctx_free Called once with ctx after the run, or at once if disposed first.
 * @result An owned token (see the section note), NULL on bad arguments.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_disposable *rx_schedule(rx_scheduler *scheduler,
                                                           rx_action_fn action, void *ctx,
                                                           rx_free_fn ctx_free);

/**
 * @abstract Runs action(ctx) once, delay_ns from now (negative is zero).
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_disposable *rx_schedule_after(rx_scheduler *scheduler,
                                                                 int64_t delay_ns,
                                                                 rx_action_fn action, void *ctx,
                                                                 rx_free_fn ctx_free);

/**
 * @abstract Runs action(ctx) at start + n * period_ns (start = now + start_after_ns), until
 * the token is disposed.
 * @discussion Drift-free: every run is due on that grid, measured on the scheduler's clock.
 * Runs never overlap; a run that comes late runs once, as soon as it can, and the ticks it
 * missed are skipped, not queued. period_ns must be > 0; the immediate and current-thread
 * schedulers are rejected (RX_EINVAL message, NULL). ctx_free runs after the last run.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_disposable *rx_schedule_periodic(rx_scheduler *scheduler,
                                                                    int64_t start_after_ns,
                                                                    int64_t period_ns,
                                                                    rx_action_fn action,
                                                                    void *ctx,
                                                                    rx_free_fn ctx_free);

/* The action of rx_schedule_recursive. self is the chain's token (borrowed): pass it to
   rx_recurse / rx_recurse_after to run the action again. */
typedef void (*rx_recursive_fn)(void *ctx, rx_disposable *self);

/**
 * @abstract Runs action(ctx, self) on the scheduler, as soon as it can; the action runs again
 * each time it (or anyone holding the token) calls rx_recurse(self) or rx_recurse_after(self,
 * ns) (RxSwift's scheduleRecursive).
 * @discussion Each rx_recurse schedules one more run; runs follow the scheduler's rules
 * (on a serial scheduler, one at a time). The chain ends when no run is pending or running;
 * ctx_free(ctx) then runs, once. rx_dispose on the token cancels every run not yet started,
 * schedules no more, and runs ctx_free once a run in progress returns. self stays a live
 * handle while the chain lives, even after the caller released the token. On the immediate
 * scheduler a run scheduled by rx_recurse nests inside that call (use the current-thread
 * scheduler for an unbounded loop on the calling thread).
 * @param scheduler Borrowed (kept while the chain lives).
 * @param action Must not be NULL. Runs on the scheduler's thread.
 * @result An owned token (see the section note), NULL on bad arguments.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_disposable *rx_schedule_recursive(rx_scheduler *scheduler,
                                                                     rx_recursive_fn action,
                                                                     void *ctx,
                                                                     rx_free_fn ctx_free);
/**
 * @abstract Schedules one more run of the chain's action, as soon as its scheduler can.
 * @param self The token rx_schedule_recursive returned, or the self its action got.
 * @result RX_OK; RX_EDISPOSED once the chain was disposed (nothing is scheduled); RX_ESTATE
 * once it ended (no run pending or running); RX_EHANDLE for any other disposable.
 */
RX_EXPORT rx_status rx_recurse(rx_disposable *self);
/** @abstract As rx_recurse, the run due delay_ns from now (negative is zero). */
RX_EXPORT rx_status rx_recurse_after(rx_disposable *self, int64_t delay_ns);

/** @abstract The scheduler's clock in ns (virtual for a test scheduler); -1 on a bad handle. */
RX_EXPORT int64_t rx_scheduler_now_ns(rx_scheduler *scheduler);

/** @abstract True if the scheduler never runs two actions at once and runs them in order. */
RX_EXPORT bool rx_scheduler_is_serial(rx_scheduler *scheduler);

/**
 * @abstract Runs main-scheduler work on the main thread until rx_main_stop.
 * @result RX_OK after a stop (a stop requested while no loop ran ends the next run at
 * once); RX_ESTATE off the main thread or when called from inside main-scheduler work.
 */
RX_EXPORT rx_status rx_main_run(void);

/**
 * @abstract Runs pending and arriving main-scheduler work for at most timeout_ns (>= 0).
 * @discussion Work that falls due inside that time runs even when the thread wakes late
 * (a loaded machine); work due after it does not.
 * @result RX_OK when the time is up or on rx_main_stop; RX_EINVAL for a negative timeout;
 * RX_ESTATE off the main thread or nested. rx_main_run_for(0) is rx_main_drain.
 */
RX_EXPORT rx_status rx_main_run_for(int64_t timeout_ns);

/**
 * @abstract Runs the main-scheduler work pending now (including delayed work now due), not
 * what that work schedules; returns how many actions ran. Main thread only, not nested:
 * otherwise 0 and rx_last_error() is set.
 */
RX_EXPORT size_t rx_main_drain(void);

/** @abstract Ends the current (or next) rx_main_run / rx_main_run_for. Any thread. */
RX_EXPORT rx_status rx_main_stop(void);

/**
 * @abstract A file descriptor that is readable exactly while main-scheduler work is pending,
 * for programs with their own poll/epoll/libuv/GLib loop: when it polls readable, call
 * rx_main_drain() on the main thread. Level-triggered; never read from or close it. Delayed
 * work makes it readable once due. When work arrives from another thread just as main
 * drains, one spurious wakeup is possible (rx_main_drain then runs nothing and clears it);
 * a wakeup is never lost. Any thread; the same fd for the whole process (a forked child
 * gets its own pipe under the same number).
 */
RX_EXPORT int rx_main_fd(void);

/*
 * Run loops. A run loop runs scheduled work on the one thread that drives it: rx_run_loop_run,
 * rx_run_loop_run_for, rx_run_loop_drain, or the program's own poll/epoll/libuv/GLib loop on
 * rx_run_loop_fd. The main loop (rx_run_loop_main) is one of them, bound to the main thread;
 * the rx_main_* functions above are the rx_run_loop_* functions on it.
 *
 * Thread rule: a loop from rx_run_loop_new is bound to the first thread that calls
 * rx_run_loop_drain, rx_run_loop_run or rx_run_loop_run_for on it, for the rest of its life;
 * those three called on any other thread fail with RX_ESTATE (drain: 0) and a message in
 * rx_last_error(), as do calls from inside the loop's own work (nested). rx_blocking_to_array
 * and rx_blocking_last called on a loop's bound thread run that loop while they wait, as on
 * the main thread (from inside its work: RX_ESTATE). Work may be scheduled
 * on its scheduler from any thread at any time, before or after the loop is bound. On the
 * bound thread, while nothing is queued or running there, rx_schedule runs the action at once
 * (as on the main scheduler); elsewhere it enqueues, in FIFO order. rx_run_loop_fd and
 * rx_run_loop_stop work from any thread. In a forked child a loop is bound anew (to the
 * first thread that drives it there) and has its own pipes under the same fd numbers.
 */

/** A run loop: a serial scheduler whose work runs on the thread that drives the loop. */
typedef struct rx_run_loop rx_run_loop;

/**
 * @abstract A new run loop, not bound to a thread yet.
 * @result Owned: release with rx_release, once no call on it is in progress (stop a run
 * first). Releasing the last reference closes the loop: work still queued or delayed on it
 * never runs and its ctx_free runs at once (on the releasing thread), later rx_schedule calls
 * on its scheduler (if you retained it) return NULL with RX_ESTATE's message, and its fd is
 * closed once nothing refers to the loop any more (stop polling it before the release). NULL
 * with a message in rx_last_error() when no pipe can be made (file descriptors exhausted).
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_run_loop *rx_run_loop_new(void);

/**
 * @abstract The main thread's run loop.
 * @result Borrowed: a shared instance (retain/release are no-ops), never NULL.
 */
RX_EXPORT rx_run_loop *rx_run_loop_main(void);

/**
 * @abstract The loop's scheduler: work scheduled on it runs on the loop's thread.
 * @discussion Serial. For the main loop it is rx_scheduler_main().
 * @param loop Borrowed.
 * @result Borrowed: valid as long as the loop (rx_retain it to keep it longer); NULL and
 * RX_EHANDLE's message for a bad handle.
 */
RX_EXPORT rx_scheduler *rx_run_loop_scheduler(rx_run_loop *loop);

/**
 * @abstract A file descriptor that is readable exactly while work is due on the loop.
 * @discussion As rx_main_fd: level-triggered; when it polls readable, call rx_run_loop_drain
 * on the loop's thread. Never read from or close it. Delayed work makes it readable once due;
 * one spurious wakeup is possible, a lost one never. The same fd for the loop's life. Any
 * thread.
 * @result The fd; -1 and RX_EHANDLE's message for a bad handle.
 */
RX_EXPORT int rx_run_loop_fd(rx_run_loop *loop);

/**
 * @abstract Runs the loop's work pending now (including delayed work now due), not what that
 * work schedules.
 * @result How many actions ran. 0 with a message in rx_last_error() for a bad handle, on a
 * thread other than the loop's, or from inside the loop's own work.
 */
RX_EXPORT size_t rx_run_loop_drain(rx_run_loop *loop);

/**
 * @abstract Runs the loop's pending and arriving work until rx_run_loop_stop.
 * @result RX_OK after a stop (a stop requested while the loop did not run ends its next run at
 * once); RX_ESTATE on a thread other than
 * the loop's or nested; RX_EHANDLE for a bad handle.
 */
RX_EXPORT rx_status rx_run_loop_run(rx_run_loop *loop);

/**
 * @abstract Runs the loop's pending and arriving work for at most timeout_ns (>= 0).
 * @discussion Work that falls due inside that time runs even when the thread wakes late;
 * work due after it does not. rx_run_loop_run_for(loop, 0) drains.
 * @result RX_OK when the time is up or on a stop; RX_EINVAL for a negative timeout; otherwise
 * as rx_run_loop_run.
 */
RX_EXPORT rx_status rx_run_loop_run_for(rx_run_loop *loop, int64_t timeout_ns);

/**
 * @abstract Ends the loop's current (or next) run / run_for. Any thread.
 * @result RX_OK; RX_EINVAL for NULL, RX_EHANDLE for a bad handle.
 */
RX_EXPORT rx_status rx_run_loop_stop(rx_run_loop *loop);

/**
 * @abstract Advances a test scheduler's clock to time_ns, running (on the calling thread)
 * everything due at or before it, each at its own due time.
 * @result RX_OK; RX_EINVAL for a time in the past (the clock is left alone); RX_EHANDLE for
 * any scheduler that is not a test scheduler; RX_ESTATE when called from one of its actions.
 */
RX_EXPORT rx_status rx_test_scheduler_advance_to(rx_scheduler *scheduler, int64_t time_ns);

/** @abstract advance_to(now + delta_ns); delta_ns >= 0 (0 runs the work due now). */
RX_EXPORT rx_status rx_test_scheduler_advance_by(rx_scheduler *scheduler, int64_t delta_ns);

/**
 * @abstract Runs until no work is left; the clock ends at the last item's due time. Never
 * returns while periodic work (rx_interval...) is active: use advance_to for those.
 */
RX_EXPORT rx_status rx_test_scheduler_run(rx_scheduler *scheduler);

/* ---------------------------------------------------------------------------------------
 * 9. Operators. Each returns a new owned observable; sources are borrowed.
 *
 * Common rules for the operators below:
 *   - Sources and other handles passed in are BORROWED (the operator retains what it keeps);
 *     the result is OWNED: release it with rx_release. Releasing it does not end the
 *     subscriptions made to it.
 *   - A bad argument (NULL or invalid handle, NULL fn where one is required, NULL array with
 *     n > 0) returns NULL and sets rx_last_error(); nothing is taken then: ctx_free is not
 *     called and no callback ever runs.
 *   - Callbacks run on the thread that delivers the source's event, never two at once for
 *     one subscription, never while the library holds a lock. Values and errors passed to
 *     them are borrowed for the call.
 *   - A callback with an `rx_error **error` parameter fails the stream by storing an owned
 *     error there (rx_error_new); the library takes it (and frees a value the callback
 *     returned anyway). The subscription then ends with that error and the source is
 *     disposed.
 *   - Callbacks returning rx_value or rx_observable * return OWNED references. A returned
 *     value of an invalid kind fails the stream with RX_ERROR_TYPE.
 *   - ctx_free(ctx) (may be NULL) runs exactly once, after the operator's observable and every
 *     subscription to it are gone; also when the optional fn is NULL.
 *   - Multi-source operators serialize the events of all their sources: downstream sees one
 *     well-formed sequence even when the sources emit on several threads at once.
 * ------------------------------------------------------------------------------------- */

/* Returns the mapped value (owned). */
typedef rx_value (*rx_map_fn)(void *ctx, rx_value v, rx_error **error);
/* Stores v's mapped value (owned) in *out and returns true to emit it, or returns false to
   drop v. *out is rx_none() on entry; a value stored there when returning false is released. */
typedef bool (*rx_compact_map_fn)(void *ctx, rx_value v, rx_value *out, rx_error **error);
/* True to let v through (filter), to keep going (take_while), to keep skipping (skip_while)
   or to stop (take_until_predicate). */
typedef bool (*rx_predicate_fn)(void *ctx, rx_value v, rx_error **error);
/* Returns the next accumulation (owned); acc is borrowed. */
typedef rx_value (*rx_accumulate_fn)(void *ctx, rx_value acc, rx_value v, rx_error **error);
/* Returns an owned observable. NULL without setting *error fails the stream with
   RX_ERROR_UNKNOWN. */
typedef rx_observable *(*rx_flat_map_fn)(void *ctx, rx_value v, rx_error **error);
/* values[0..n) are borrowed, in source order. Returns the combined value (owned). */
typedef rx_value (*rx_combine_fn)(void *ctx, const rx_value *values, size_t n, rx_error **error);
/* True when a and b count as equal. */
typedef bool (*rx_equal_fn)(void *ctx, rx_value a, rx_value b);
/* rx_using: makes one subscription's resource and returns it (any pointer, or a handle or
   descriptor cast to one; NULL is a resource too). Storing an error in *error instead fails
   that subscription, and nothing is released. */
typedef void *(*rx_resource_fn)(void *ctx, rx_error **error);
/* rx_using: returns the observable (owned) that uses the resource. NULL without setting
   *error fails the stream with RX_ERROR_UNKNOWN. */
typedef rx_observable *(*rx_using_fn)(void *ctx, void *resource, rx_error **error);
/* rx_using: frees one subscription's resource. */
typedef void (*rx_resource_free_fn)(void *ctx, void *resource);
/* Returns an owned observable to continue with, or NULL to forward the error. */
typedef rx_observable *(*rx_catch_fn)(void *ctx, const rx_error *error);
/* rx_retry_when's notifier factory, called once per subscription. errors (borrowed for the
   call; rx_retain it to keep it) emits each error of the source as an RX_EVENT value of kind
   RX_EVENT_ERROR (rx_value_event_error reads it). Returns the notifier (owned), or NULL with
   *error set to fail the stream. */
typedef rx_observable *(*rx_retry_when_fn)(void *ctx, rx_observable *errors, rx_error **error);

/**
 * Callbacks by reference, for FFIs whose callbacks cannot take or return a struct by value
 * (LuaJIT): fill an rx_by_ref with the by-reference forms you need and hand the library the
 * matching rx_by_ref_* function as the callback, with the rx_by_ref's address as its ctx.
 * The trampoline calls your function with by_ref->ctx. The rx_by_ref must stay valid (and
 * unchanged) for as long as the library may call the callback: free it in ctx_free, or in
 * on_disposed for an observer (whose on_error, on_completed and on_disposed receive the
 * rx_by_ref's address as their ctx). Ownership is as for the by-value forms: *out receives
 * an owned value. A NULL rx_by_ref, or a NULL member that is called, fails the stream with
 * RX_ERROR_UNKNOWN (a NULL on_next drops the value; a NULL equal finds nothing equal).
 */
typedef struct rx_by_ref {
  void *ctx; /* passed to each function below */
  void (*on_next)(void *ctx, const rx_value *value);
  void (*map)(void *ctx, const rx_value *v, rx_value *out, rx_error **error);
  bool (*predicate)(void *ctx, const rx_value *v, rx_error **error);
  void (*accumulate)(void *ctx, const rx_value *acc, const rx_value *v, rx_value *out, rx_error **error);
  rx_observable *(*flat_map)(void *ctx, const rx_value *v, rx_error **error);
  void (*combine)(void *ctx, const rx_value *values, size_t n, rx_value *out, rx_error **error);
  bool (*equal)(void *ctx, const rx_value *a, const rx_value *b);
  bool (*compact_map)(void *ctx, const rx_value *v, rx_value *out, rx_error **error);
} rx_by_ref;

/* The trampolines: each is a callback of the by-value type it is named after, whose ctx is
   an rx_by_ref *. */
/** @abstract An rx_observer on_next: calls by_ref->on_next(by_ref->ctx, &value). */
RX_EXPORT void rx_by_ref_on_next(void *by_ref, rx_value value);
/** @abstract An rx_map_fn: by_ref->map(ctx, &v, &out, error); returns out (owned). */
RX_EXPORT rx_value rx_by_ref_map(void *by_ref, rx_value v, rx_error **error);
/** @abstract An rx_predicate_fn: returns by_ref->predicate(ctx, &v, error). */
RX_EXPORT bool rx_by_ref_predicate(void *by_ref, rx_value v, rx_error **error);
/** @abstract An rx_accumulate_fn: by_ref->accumulate(ctx, &acc, &v, &out, error); returns out (owned). */
RX_EXPORT rx_value rx_by_ref_accumulate(void *by_ref, rx_value acc, rx_value v, rx_error **error);
/** @abstract An rx_flat_map_fn: returns by_ref->flat_map(ctx, &v, error) (owned). */
RX_EXPORT rx_observable *rx_by_ref_flat_map(void *by_ref, rx_value v, rx_error **error);
/** @abstract An rx_combine_fn: by_ref->combine(ctx, values, n, &out, error); returns out (owned). */
RX_EXPORT rx_value rx_by_ref_combine(void *by_ref, const rx_value *values, size_t n, rx_error **error);
/** @abstract An rx_equal_fn: returns by_ref->equal(ctx, &a, &b). */
RX_EXPORT bool rx_by_ref_equal(void *by_ref, rx_value a, rx_value b);
/** @abstract An rx_compact_map_fn: returns by_ref->compact_map(ctx, &v, out, error). */
RX_EXPORT bool rx_by_ref_compact_map(void *by_ref, rx_value v, rx_value *out, rx_error **error);

/* creation, here for its callback types */
/**
 * @abstract RxSwift's generate, a for loop as a stream: emits initial (borrowed; retained),
 * iterate(initial), iterate(iterate(initial))... while condition holds for the state, then
 * completes at the first state for which it does not.
 * @discussion Each state is one action on `scheduler` (NULL: the current-thread scheduler),
 * scheduled as rx_repeat_element's are; the completion is a step of its own. iterate gets
 * the previous state (borrowed) and returns the next one (owned); condition and iterate run
 * on the scheduler, never two at once for one subscription, and each subscription starts
 * again from initial. An error stored by either fails the stream. ctx is passed to both;
 * ctx_free(ctx) runs once when the observable and its subscriptions are gone. condition or
 * iterate NULL: NULL + RX_EINVAL. Owned.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_generate(rx_value initial, rx_scheduler *scheduler,
                                                           rx_predicate_fn condition, rx_map_fn iterate,
                                                           void *ctx, rx_free_fn ctx_free);
/**
 * @abstract RxSwift's using: a resource tied to each subscription's life (a file
 * descriptor, a handle, a buffer).
 * @discussion Each subscription calls create(ctx) for its resource, then use(ctx, resource)
 * for the observable that reads it, and subscribes to that. When the subscription ends (the
 * terminal event, after it is delivered, or rx_dispose), the observable's subscription is
 * disposed first and then release(ctx, resource) runs, exactly once per resource create
 * made, on the thread that ended the subscription. An error from create fails the
 * subscription with nothing to release; an error (or NULL) from use fails it and releases
 * the resource. release may be NULL (nothing to free); create or use NULL: NULL +
 * RX_EINVAL. ctx_free(ctx) runs once, after the observable, its subscriptions and their
 * releases are gone. Owned.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_using(rx_resource_fn create, rx_using_fn use,
                                                        rx_resource_free_fn release, void *ctx,
                                                        rx_free_fn ctx_free);

/**
 * @abstract The options of rx_retry_backoff. Set struct_size to sizeof(rx_backoff_options)
 * (fields added later go at the end; bytes past the fields a library knows must be zero)
 * and zero what you do not use: `rx_backoff_options o = {sizeof o, ...};`.
 * @discussion Retry n (n = 1, 2, ...) waits d = min(initial_delay_ns * multiplier^(n-1),
 * max_delay_ns), shortened by the jitter to d - d * jitter * u (in doubles, then truncated
 * to whole ns), where u is uniform in [0, 1): the top 53 bits of the next output of
 * splitmix64, seeded with `seed` at each subscription, times 2^-53. So a seed gives the same
 * delays every time, and jitter 0 draws nothing.
 */
typedef struct rx_backoff_options {
  size_t struct_size;       /* sizeof(rx_backoff_options) as the caller was compiled */
  int64_t initial_delay_ns; /* the delay before the first resubscription; >= 0 */
  double multiplier;        /* each delay is the previous one times this; >= 1 */
  int64_t max_delay_ns;     /* the longest delay, before jitter; 0: no limit; >= 0 */
  size_t max_attempts;      /* subscriptions in all, the first included; 0: forever */
  double jitter;            /* 0..1: the share of a delay the jitter may take off */
  uint64_t seed;            /* the jitter generator's seed (any value, 0 included) */
  bool reset_on_next;       /* a value resets the delay, and the count to 1 (the running one) */
} rx_backoff_options;

/* scheduling */
/**
 * @abstract Subscribes to src on `scheduler`, and disposes that subscription there too.
 * @discussion src's subscribe work (an rx_create callback, for example) runs on the
 * scheduler; events arrive on whatever thread src emits them. Disposing the result returns
 * at once; the upstream dispose follows on the scheduler.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_subscribe_on(rx_observable *src, rx_scheduler *scheduler);
/**
 * @abstract Delivers src's events on `scheduler`, in order, completion after every value.
 * @discussion Events are queued (no allocation per event once warm) and drained by one
 * scheduled loop at a time; on a concurrent scheduler and on main the loop hands its thread
 * back every 1024 events (on main, other queued work and timers run in between). With the
 * main scheduler, callbacks run on the main thread while it runs the main loop. After rx_dispose returns, no further callback starts.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_observe_on(rx_observable *src, rx_scheduler *scheduler);

/* flow control: observe_on with a bounded queue */
/** What a value that finds a bounded queue full does (rx_flow_options.policy). */
typedef enum rx_overflow_policy {
  RX_OVERFLOW_DROP_OLDEST = 0, /* the oldest queued value is dropped to make room */
  RX_OVERFLOW_DROP_NEWEST,     /* the arriving value is dropped */
  RX_OVERFLOW_KEEP_LATEST,     /* one slot: each value replaces the one waiting (capacity ignored) */
  RX_OVERFLOW_FAIL,            /* the value is dropped, the stream fails with RX_ERROR_OVERFLOW
                                  after the queued values, and upstream is disposed */
  RX_OVERFLOW_BLOCK            /* the producer waits for room, up to block_timeout_ns, then as FAIL */
} rx_overflow_policy;

/* Told of a dropped value (borrowed for the call). */
typedef void (*rx_dropped_fn)(void *ctx, rx_value value);

/**
 * Options of rx_observe_on_bounded. Set struct_size to sizeof(rx_flow_options): fields may
 * be added at the end in later versions, and the library reads only what you declared.
 */
typedef struct rx_flow_options {
  size_t struct_size;       /* sizeof(rx_flow_options) */
  size_t capacity;          /* values the queue may hold, >= 1 (terminal events never count) */
  int32_t policy;           /* an rx_overflow_policy */
  int64_t block_timeout_ns; /* RX_OVERFLOW_BLOCK only: > 0 (INT64_MAX: wait for good) */
  rx_dropped_fn on_dropped; /* may be NULL */
  void *ctx;                /* passed to on_dropped */
  rx_free_fn ctx_free;      /* may be NULL */
} rx_flow_options;

/**
 * Counters of an rx_observe_on_bounded observable, summed over its subscriptions. A value
 * is received, then delivered, dropped, or still queued (or released unreported when its
 * subscription was disposed). Set struct_size to sizeof(rx_flow_stats) before reading.
 */
typedef struct rx_flow_stats {
  size_t struct_size; /* sizeof(rx_flow_stats) */
  uint64_t received;  /* values that reached the queue's producer side */
  uint64_t delivered; /* values handed to the subscriber (observe_on_bounded adds them after
                         each batch, so while values flow it may trail by a batch) */
  uint64_t dropped;   /* values the policy dropped: as many on_dropped calls */
  uint64_t overflows; /* streams failed with RX_ERROR_OVERFLOW */
} rx_flow_stats;

/**
 * @abstract rx_observe_on with a queue of at most opts->capacity values per subscription,
 * and opts->policy for a value that finds it full.
 * @discussion The bound is on the operator's own queue (no second buffer behind it). The
 * producer never waits, except under RX_OVERFLOW_BLOCK (which blocks the thread that
 * emits, for up to block_timeout_ns). Completion and errors are never dropped and never
 * counted: they are delivered after every queued value. on_dropped(ctx, value) runs on the
 * producer's thread, once per dropped value, with no lock held, never two at once for one
 * subscription; its count equals rx_flow_stats' `dropped`. Values still queued when a
 * subscription is disposed are released without a call. ctx_free runs once, after the
 * observable and its subscriptions are gone.
 * @param src Borrowed.
 * @param scheduler Borrowed; where the subscriber's callbacks run.
 * @param opts Copied. NULL, a struct_size below the first version's, capacity 0 (but for
 * KEEP_LATEST), an unknown policy or a BLOCK timeout <= 0: NULL and RX_EINVAL in
 * rx_last_error() (ctx_free is not called).
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_observe_on_bounded(rx_observable *src, rx_scheduler *scheduler,
                                                                     const rx_flow_options *opts);

/**
 * @abstract Reads the counters of an rx_observe_on_bounded, rx_pausable_buffered or
 * rx_rate_limit observable into *out.
 * @discussion Safe from any thread while events flow; each field is read atomically (the
 * fields are not one snapshot). out->struct_size must be set.
 * @param bounded Borrowed: a result of rx_observe_on_bounded, rx_pausable_buffered or
 * rx_rate_limit (else RX_EINVAL).
 * @param out Where the counters go.
 * @result RX_OK, RX_EINVAL (NULL out, a struct_size too small, not such an observable),
 * RX_EHANDLE (not a live observable).
 */
RX_EXPORT rx_status rx_flow_stats_get(rx_observable *bounded, rx_flow_stats *out);

/**
 * @abstract Forwards src's values only while pauser's latest value is RX_BOOL true.
 * @discussion It starts paused; values that arrive while paused are ignored. src's
 * completion or error, and pauser's error, end the stream; pauser completing keeps its last
 * state. A pauser value of another kind fails the stream with RX_ERROR_TYPE. Callbacks run
 * on the thread of src's or pauser's event (one at a time).
 * @param src Borrowed.
 * @param pauser Borrowed; subscribed first, so a pauser that replays (a behavior subject)
 * sets the state before src's first value.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_pausable(rx_observable *src, rx_observable *pauser);

/**
 * @abstract rx_pausable, but values that arrive while paused wait in a buffer of at most
 * opts->capacity values, delivered in order when pauser resumes.
 * @discussion A full buffer applies opts->policy: DROP_OLDEST, DROP_NEWEST, KEEP_LATEST as
 * for rx_observe_on_bounded; FAIL drops the value and the buffer (each reported to
 * on_dropped) and fails the stream with RX_ERROR_OVERFLOW, disposing src and pauser.
 * RX_OVERFLOW_BLOCK is rejected (RX_EINVAL): waiting for the pauser would hold the very
 * events that resume it. A terminal event delivers the buffer first (never dropped nor
 * counted). on_dropped runs with no lock held, on the thread whose event made the drop;
 * rx_flow_stats_get reads the counters (received, delivered, dropped, overflows).
 * @param src Borrowed.
 * @param pauser Borrowed, as for rx_pausable.
 * @param opts Copied; validated as for rx_observe_on_bounded (bad options: NULL, RX_EINVAL,
 * ctx_free not called).
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_pausable_buffered(rx_observable *src, rx_observable *pauser,
                                                                    const rx_flow_options *opts);

/**
 * @abstract At most n of src's values per sliding window of window_ns: the others wait in a
 * queue and are delivered, in order, on `scheduler` as soon as the window allows.
 * @discussion A value within the rate (fewer than n values delivered in the last window_ns
 * of the scheduler's clock, and none waiting) is delivered at once, on the thread that sent
 * it; a queued one on `scheduler`. Values are queued, never dropped, unless opts bounds the
 * queue: a full queue then applies opts->policy as for rx_observe_on_bounded (DROP_OLDEST,
 * DROP_NEWEST, KEEP_LATEST; FAIL drops the value, disposes src and fails the stream with
 * RX_ERROR_OVERFLOW after the queued values). RX_OVERFLOW_BLOCK is rejected (RX_EINVAL):
 * the queue empties only as the scheduler's clock moves. Completion and errors, as in
 * rx_observe_on_bounded, are never dropped nor counted and wait behind the queued values
 * (delivered at once when nothing is queued). on_dropped runs with no lock held, on the
 * thread whose value made the drop; rx_flow_stats_get reads the counters. Values still
 * queued when a subscription is disposed are released without a call.
 * @param src Borrowed.
 * @param n Values per window, >= 1 (0: NULL and RX_EINVAL).
 * @param window_ns The window, > 0 (else NULL and RX_EINVAL).
 * @param scheduler Borrowed; its clock measures the window, and queued values and the
 * terminal event behind them are delivered on it. NULL: RX_EINVAL.
 * @param opts Copied; NULL for an unbounded queue (nothing is ever dropped). Otherwise
 * validated as for rx_observe_on_bounded (bad options: NULL, RX_EINVAL, ctx_free not called).
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_rate_limit(rx_observable *src, size_t n, int64_t window_ns,
                                                             rx_scheduler *scheduler, const rx_flow_options *opts);

/* transform */
/** @abstract Emits fn(v) for each element v. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_map(rx_observable *src, rx_map_fn fn, void *ctx, rx_free_fn ctx_free);
/** @abstract Calls fn for each element v and emits what it stores in *out when it returns
 * true; elements for which it returns false are dropped (RxSwift's compactMap). */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_compact_map(rx_observable *src, rx_compact_map_fn fn, void *ctx, rx_free_fn ctx_free);
/** @abstract Emits each accumulation fn(acc, v), starting from seed (borrowed; retained). */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_scan(rx_observable *src, rx_value seed, rx_accumulate_fn fn, void *ctx, rx_free_fn ctx_free);
/** @abstract Accumulates like rx_scan; emits only the final accumulation (seed for an empty
 * source) when the source completes, then completes. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_reduce(rx_observable *src, rx_value seed, rx_accumulate_fn fn, void *ctx, rx_free_fn ctx_free);
/** @abstract Subscribes to fn(v) for each element and merges all of them. Completes when the
 * source and every inner observable completed; the first error ends all. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_flat_map(rx_observable *src, rx_flat_map_fn fn, void *ctx, rx_free_fn ctx_free);
/** @abstract Like rx_flat_map, with at most max_concurrent inner subscriptions at once
 * (0: no limit): the observables fn returns beyond it wait, in order, and each is subscribed
 * when a running one completes, on the thread that delivered that completion. fn is still
 * called as elements arrive. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_flat_map_max(rx_observable *src, size_t max_concurrent, rx_flat_map_fn fn, void *ctx, rx_free_fn ctx_free);
/** @abstract Like rx_flat_map, but only the latest inner observable is followed: a new
 * element disposes the previous inner subscription. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_flat_map_latest(rx_observable *src, rx_flat_map_fn fn, void *ctx, rx_free_fn ctx_free);
/** @abstract Like rx_flat_map, but only one inner observable at a time (RxSwift's
 * flatMapFirst): an element that arrives while an inner subscription is active is ignored,
 * and fn is not called for it. The next element after the inner completes is mapped again.
 * An element racing the inner's completion on another thread may be ignored either way. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_flat_map_first(rx_observable *src, rx_flat_map_fn fn, void *ctx, rx_free_fn ctx_free);
/** @abstract Like rx_flat_map, but inner observables run one after another, in order (fn is
 * called as elements arrive; the results wait their turn). */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_concat_map(rx_observable *src, rx_flat_map_fn fn, void *ctx, rx_free_fn ctx_free);
/**
 * @abstract Emits RX_ARRAY buffers of src's values (RxSwift's buffer(timeSpan:count:scheduler:)).
 * @discussion A buffer is emitted when it holds `count` values or span_ns after its window
 * opened, whichever comes first; then a new window opens. count 0: time only; span_ns 0 (or
 * negative): count only, and `scheduler` may be NULL; both 0 is rejected. On completion a
 * timed buffer emits its current contents even when empty, a count-only one only if
 * non-empty. Errors are forwarded at once.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_buffer(rx_observable *src, int64_t span_ns, size_t count, rx_scheduler *scheduler);
/**
 * @abstract Emits windows of src's values, each an RX_OBSERVABLE value (RxSwift's
 * window(timeSpan:count:scheduler:)).
 * @discussion The first window is emitted on subscription; a window closes (completes)
 * when it has had `count` values or span_ns after it opened, whichever comes first, and the
 * next one is emitted at once. count 0: time only; span_ns 0 (or negative): count only, and
 * `scheduler` may be NULL; both 0 is rejected (NULL, RX_EINVAL). src's error or completion
 * goes to the open window, then downstream. Read a window with rx_value_observable (borrowed
 * from the value) and subscribe to it: it is hot (a publish subject), so a subscriber gets
 * only the values that arrive after it subscribed, and a window that has closed gives just
 * its terminal event. Window callbacks run on the thread of src's event, or of the timer
 * (on `scheduler`) for a window closed by time. src's subscription lives while the outer
 * subscription or any window subscription does: disposing the outer one lets subscribed
 * windows run to their end (no new windows are emitted), and src is disposed when the last
 * of them ends. A window still open when that happens never ends: a later subscriber to it
 * gets nothing.
 * @param src Borrowed.
 * @param scheduler Borrowed; runs the timers. May be NULL for count only.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_window(rx_observable *src, int64_t span_ns, size_t count, rx_scheduler *scheduler);
/** @abstract Emits one RX_ARRAY with every element when the source completes. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_to_array(rx_observable *src);

/** @abstract Each element v as the pair [index, v]: an RX_ARRAY of two items, an
 * RX_INT index counting from 0 per subscription and v itself (as rx_zip and
 * rx_combine_latest pack their values). Read them with rx_array_get(pair, 0) and
 * rx_array_get(pair, 1). */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_enumerated(rx_observable *src);

/**
 * @abstract Groups src's elements by key (RxSwift's groupBy(keySelector:)): emits one
 * RX_OBSERVABLE value per new key, the group, then passes each element to its key's group.
 * @discussion key_fn(ctx, v, error) returns v's key (owned). Keys compare as
 * rx_value_equal does, and may be RX_INT, RX_DOUBLE (but NaN), RX_BOOL, RX_PTR, RX_STRING
 * or RX_BYTES (by content; 1 and 1.0 are different keys, 0.0 and -0.0 one). Any other key
 * (RX_NONE, NaN, an array, object, observable or event) fails the stream with
 * RX_ERROR_TYPE, as an error stored in *error fails it with that error.
 *
 * A group is a hot observable of its key's elements: a subscriber gets those that arrive
 * while it is subscribed (the element that opened the group arrives right after the group
 * value's on_next returns, so subscribe there to get it), then src's terminal event; one
 * that subscribes after src ended gets that event at once. Groups are never closed before
 * src ends: every key seen stays, with its group, for the life of the subscription.
 * rx_group_key reads a group's key. The group value is borrowed for on_next: rx_value_retain
 * it (or rx_retain rx_value_observable(v)) to subscribe later.
 *
 * Ending: src's completion or error, and a key_fn failure, go to every group first, then
 * downstream, and end the source subscription. Disposing the subscription to rx_group_by
 * stops the group values (downstream), but src stays subscribed while any group has a
 * subscriber, and key_fn keeps running for them; src is disposed when the last of those
 * subscriptions ends (at once when there is none). A group subscribed after that gets no
 * element and no terminal event. A src that drops its subscribers without ending (a
 * disposed subject) drops the groups' subscribers too (on_disposed only; a later
 * subscriber gets RX_ERROR_DISPOSED).
 *
 * Threads: key_fn and the groups' callbacks run on the thread that delivers src's event,
 * never two key_fn calls at once for one subscription. Groups may be subscribed and
 * disposed from any thread at any time.
 * @param src Borrowed.
 * @param key_fn Required (NULL: NULL + RX_EINVAL, ctx_free not called).
 * @param ctx_free Runs once, when the observable and every subscription to it (the source
 * subscription kept by groups included) are gone.
 * @result An owned observable, or NULL (RX_EINVAL / RX_EHANDLE).
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_group_by(rx_observable *src, rx_map_fn key_fn, void *ctx,
                                                           rx_free_fn ctx_free);

/**
 * @abstract The key of a group emitted by rx_group_by, in *out (owned: rx_value_release it;
 * a plain key owns nothing).
 * @discussion Safe from any thread; the key never changes.
 * @param group Borrowed: rx_value_observable of a group value.
 * @param out Required; rx_none() on failure.
 * @result RX_OK; RX_EINVAL for a NULL argument or an observable that is not a group;
 * RX_EHANDLE for a pointer that is not a live observable.
 */
RX_EXPORT rx_status rx_group_key(const rx_observable *group, rx_value *out);

/* filter */
/** @abstract Forwards the elements for which fn returns true. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_filter(rx_observable *src, rx_predicate_fn fn, void *ctx, rx_free_fn ctx_free);
/** @abstract The first n elements, then completed (disposing the source). n == 0 completes at
 * once without subscribing. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_take(rx_observable *src, size_t n);
/** @abstract Drops the first n elements. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_skip(rx_observable *src, size_t n);
/** @abstract Forwards elements while fn returns true; completes at the first false. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_take_while(rx_observable *src, rx_predicate_fn fn, void *ctx, rx_free_fn ctx_free);
/** @abstract Like rx_take_while, but the element for which fn returns false is forwarded
 * before the completion (RxSwift's take(while:behavior: .inclusive)). */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_take_while_inclusive(rx_observable *src, rx_predicate_fn fn, void *ctx, rx_free_fn ctx_free);
/** @abstract Drops elements while fn returns true, then forwards all the rest. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_skip_while(rx_observable *src, rx_predicate_fn fn, void *ctx, rx_free_fn ctx_free);
/** @abstract Forwards src until `other` emits an element, then completes. An error of other
 * fails the stream; other completing without an element changes nothing. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_take_until(rx_observable *src, rx_observable *other);
/** @abstract Forwards src until fn returns true for an element, then completes (RxSwift's
 * take(until:behavior:) with a predicate): `inclusive` forwards that element first, otherwise
 * it is dropped. fn sees each element once, the last one included. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_take_until_predicate(rx_observable *src, bool inclusive, rx_predicate_fn fn, void *ctx, rx_free_fn ctx_free);
/** @abstract Drops src's elements until `other` emits one. An error of other fails the stream.
 * If src completes before other emitted, the subscription ends with only on_disposed (as
 * RxSwift, which emits nothing). */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_skip_until(rx_observable *src, rx_observable *other);
/** @abstract The last n elements, emitted when the source completes. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_take_last(rx_observable *src, size_t n);
/**
 * @abstract All but the last n elements: each element is forwarded once n newer ones have
 * arrived, so the last n are never emitted; the terminal event is forwarded at once.
 * n == 0 mirrors the source.
 * @example rx_skip_last(src, 2)
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_skip_last(rx_observable *src, size_t n);
/** @abstract Drops elements equal to the previous one: by eq, or by rx_value_equal when eq
 * is NULL. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_distinct_until_changed(rx_observable *src, rx_equal_fn eq, void *ctx, rx_free_fn ctx_free);
/** @abstract The element at index i, then completed; RX_ERROR_ARGUMENT_OUT_OF_RANGE if the
 * source completes first. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_element_at(rx_observable *src, size_t i);
/** @abstract The first element, then completed; RX_ERROR_NO_ELEMENTS for an empty source. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_first(rx_observable *src);
/** @abstract The last element once the source completes; RX_ERROR_NO_ELEMENTS if empty. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_last(rx_observable *src);
/** @abstract The source's only element, forwarded when it arrives, then completed when the
 * source completes. An empty source fails with RX_ERROR_NO_ELEMENTS; a second element
 * fails the stream with RX_ERROR_MORE_THAN_ONE_ELEMENT at once and disposes the source. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_single(rx_observable *src);
/** @abstract Only the source's terminal event. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_ignore_elements(rx_observable *src);
/** @abstract Mirrors src; if src completes without an element, emits `value` (borrowed;
 * retained) and then completes. Errors are forwarded as they are. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_default_if_empty(rx_observable *src, rx_value value);
/** @abstract Mirrors src; if src completes without an element, continues with `fallback`
 * (borrowed; retained), subscribed only then, on the thread that delivered the completion.
 * An error of src is forwarded and fallback is never subscribed. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_switch_if_empty(rx_observable *src, rx_observable *fallback);
/**
 * @abstract Emits a value only once `ns` passed without a newer one; completion first emits
 * the pending value. Timers run on `scheduler` (negative ns is 0).
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_debounce(rx_observable *src, int64_t ns, rx_scheduler *scheduler);
/**
 * @abstract Emits the first value, then at most one value per `ns` window.
 * @param latest true: the last value seen during a window is emitted when it ends (and
 * completion waits for it); false: values inside a window are dropped.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_throttle(rx_observable *src, int64_t ns, bool latest, rx_scheduler *scheduler);
/**
 * @abstract Drops src's elements until `ns` has passed since the subscription, then mirrors
 * it (RxSwift's skip(_:scheduler:)). Terminal events pass at any time.
 * @discussion The timer runs on `scheduler`. Callbacks run on the thread delivering src's
 * event (or the scheduler's, for an event that arrives while the timer is being handled),
 * never two at once. ns <= 0 arms no timer and mirrors src from the start. src and scheduler are borrowed (retained by the result); NULL or a
 * wrong handle for either: NULL and rx_last_error().
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_skip_duration(rx_observable *src, int64_t ns, rx_scheduler *scheduler);
/**
 * @abstract Mirrors src until `ns` has passed since the subscription, then completes and
 * disposes src (RxSwift's take(for:scheduler:)).
 * @discussion The completion at the end of the window is delivered on `scheduler`'s thread,
 * everything else on src's. ns <= 0 still arms a timer of 0, so elements a source emits while
 * being subscribed pass first. src and scheduler are borrowed (retained by the result); NULL
 * or a wrong handle for either: NULL and rx_last_error().
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_take_duration(rx_observable *src, int64_t ns, rx_scheduler *scheduler);
/**
 * @abstract Each time `sampler` emits (or completes), emits src's latest value if a new
 * one arrived since the last sample. src completing ends the result at the next sample;
 * an error from either side is forwarded. Both are borrowed.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_sample(rx_observable *src, rx_observable *sampler);

/* combine */
/** @abstract The elements of all srcs[0..n) as they come. Completes when all completed (at
 * once for n == 0); the first error ends all. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_merge(rx_observable *const *srcs, size_t n);
/** @abstract rx_merge with at most max_concurrent sources subscribed at once (0: no limit):
 * srcs[0..max_concurrent) first, then each next one when a subscribed one completes, on the
 * thread that delivered that completion. max_concurrent 1 is rx_concat. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_merge_max(rx_observable *const *srcs, size_t n, size_t max_concurrent);
/** @abstract The elements of srcs[0], then srcs[1]... each subscribed after the previous one
 * completed. n == 0 completes at once. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_concat(rx_observable *const *srcs, size_t n);
/** @abstract Once every source emitted, fn(latest values) each time any emits (an RX_ARRAY of
 * them when fn is NULL). Completes when all completed, or when an element arrives while all
 * other sources are done and one never emitted. n == 0 emits fn() / [] and completes. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_combine_latest(rx_observable *const *srcs, size_t n, rx_combine_fn fn, void *ctx, rx_free_fn ctx_free);
/** @abstract fn(k-th elements of all sources) for each k (an RX_ARRAY when fn is NULL).
 * Completes when all completed, or when an element arrives while all other sources are done
 * (RxSwift's rule). n == 0 completes at once. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_zip(rx_observable *const *srcs, size_t n, rx_combine_fn fn, void *ctx, rx_free_fn ctx_free);
/** @abstract For each element of src, fn([element, latest of other]) (n == 2), or other's
 * latest value when fn is NULL; elements before other's first are dropped. Completes with src;
 * an error of either fails the stream. other is subscribed first. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_with_latest_from(rx_observable *src, rx_observable *other, rx_combine_fn fn, void *ctx, rx_free_fn ctx_free);
/** @abstract values[0..n) (borrowed; retained), then the source's events. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_start_with(rx_observable *src, const rx_value *values, size_t n);
/** @abstract src emits RX_OBSERVABLE values (rx_observable_value); mirrors the latest one.
 * Any other kind fails the stream with RX_ERROR_TYPE. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_switch_latest(rx_observable *src);
/** @abstract Mirrors whichever source emits first (any event) and disposes the others.
 * n == 0 never emits. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_amb(rx_observable *const *srcs, size_t n);

/* errors */
/** @abstract On error, continues with the observable fn returns for it (fn returning NULL
 * forwards the original error). */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_catch(rx_observable *src, rx_catch_fn fn, void *ctx, rx_free_fn ctx_free);
/** @abstract On error, continues with `fallback` (borrowed; retained), subscribed only
 * then, on the thread that delivered the error; the error itself is dropped. The observable
 * form of rx_catch (RxSwift's catch { _ in fallback }). */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_catch_with(rx_observable *src, rx_observable *fallback);
/** @abstract On error, emits value (borrowed; retained) and completes. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_catch_and_return(rx_observable *src, rx_value value);
/** @abstract Resubscribes after an error: at most max_attempts subscriptions in all, the
 * first included (0: forever); the last error is forwarded. Synchronous failures loop, they
 * do not recurse. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_retry(rx_observable *src, size_t max_attempts);
/**
 * @abstract Resubscribes to src when a notifier says so (RxSwift's retry(when:)): fn builds
 * the notifier from the stream of src's errors (see rx_retry_when_fn), once per subscription.
 * @discussion The notifier is subscribed first, then src. After each error of src, the
 * notifier's next element resubscribes src; its completion or error ends the stream, at once
 * if an error waits for it, else at src's next error (as RxSwift). Elements the notifier emits
 * while no error waits are ignored. Callbacks run on the thread delivering src's or the
 * notifier's event, never two at once; a resubscription is made on the thread delivering the
 * notifier's element (src's own, when the notifier reacts synchronously to an error).
 * src is borrowed (retained by the result). NULL or a wrong handle for src, or NULL fn: NULL
 * and rx_last_error() (ctx_free is not called then).
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_retry_when(rx_observable *src, rx_retry_when_fn fn, void *ctx, rx_free_fn ctx_free);
/**
 * @abstract Fails with RX_ERROR_TIMEOUT when the first value does not arrive within `ns` of
 * the subscription, or a next one within `ns` of its predecessor.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_timeout(rx_observable *src, int64_t ns, rx_scheduler *scheduler);
/**
 * @abstract rx_timeout, but where rx_timeout fails, disposes src and mirrors `fallback`
 * instead (RxSwift's timeout(_:other:scheduler:)).
 * @discussion The deadline is `ns` after the subscription for the first value, `ns` after
 * each value for the next one (negative ns is 0); a terminal event of src before it passes
 * ends the stream as usual and fallback is never subscribed. Once switched, src's events are
 * ignored and fallback's pass as they come, on fallback's thread (its subscription is made on
 * the scheduler's thread, when the deadline passes). src, fallback and scheduler are
 * borrowed (retained by the result); NULL or a wrong handle for any: NULL and
 * rx_last_error().
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_timeout_to(rx_observable *src, int64_t ns, rx_observable *fallback, rx_scheduler *scheduler);
/**
 * @abstract Resubscribes to src after an error, each time after a growing delay on
 * `scheduler` (exponential backoff, see rx_backoff_options); when max_attempts
 * subscriptions have failed, the last error is forwarded. Completion ends the stream.
 * @discussion opts is read during the call only. src's events are forwarded on the thread
 * delivering them; a resubscription is made on the scheduler's thread (and src's synchronous
 * events with it). Disposing cancels a pending delay. src and scheduler are borrowed
 * (retained by the result). NULL or a wrong handle for src or scheduler, NULL opts, a
 * struct_size below sizeof(rx_backoff_options), unknown trailing fields not zero, or a field
 * out of its range: NULL and rx_last_error().
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_retry_backoff(rx_observable *src, const rx_backoff_options *opts, rx_scheduler *scheduler);

/* utility */
/** @abstract Calls the tap's callbacks (each may be NULL) for every subscription, each before
 * the subscriber's own, with the same guarantees as a subscriber's (no overlap; on_disposed
 * exactly once, after the tap's other callbacks, before the subscriber's on_disposed).
 * ctx_free(tap.ctx) runs once when the observable and all its subscriptions are gone. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_do(rx_observable *src, rx_observer tap, rx_free_fn ctx_free);
/**
 * @abstract The hooks of rx_do_with_hooks (RxSwift's do(onNext:afterNext:onError:afterError:
 * onCompleted:afterCompleted:onSubscribe:onSubscribed:onDispose:)). Set struct_size to
 * sizeof(rx_do_hooks) (fields added later go at the end; bytes past the fields a library
 * knows must be zero) and leave NULL the hooks you do not use:
 * `rx_do_hooks h = {sizeof h, .ctx = me, .on_next = log_value};`.
 */
typedef struct rx_do_hooks {
  size_t struct_size;                                    /* sizeof(rx_do_hooks) */
  void *ctx;                                             /* passed to every hook */
  void (*on_next)(void *ctx, rx_value value);            /* before the value goes downstream */
  void (*after_next)(void *ctx, rx_value value);         /* after the subscriber had it */
  void (*on_error)(void *ctx, const rx_error *error);    /* before the error goes downstream */
  void (*after_error)(void *ctx, const rx_error *error); /* after the subscriber had it */
  void (*on_completed)(void *ctx);                       /* before completion goes downstream */
  void (*after_completed)(void *ctx);                    /* after the subscriber had it */
  void (*on_subscribe)(void *ctx);                       /* before src is subscribed */
  void (*on_subscribed)(void *ctx);                      /* after src's subscribe returned */
  void (*on_dispose)(void *ctx);                         /* after src's subscription was disposed */
} rx_do_hooks;

/**
 * @abstract Calls hooks (each may be NULL) around every subscription and event, in RxSwift's
 * order: on_subscribe, src subscribed (events it emits synchronously come here), on_subscribed;
 * for each event its on_ hook, then the subscriber's callback, then its after_ hook; after a
 * terminal event's after_ hook the subscription ends, and on_dispose runs once per
 * subscription, after src's subscription was disposed, however it ended (terminal event,
 * rx_dispose, or a source dropping it).
 * @discussion Values and errors are borrowed for the call. Event hooks run on the thread
 * delivering the event, never two at once for one subscription; on_subscribe and
 * on_subscribed on the subscribing thread; on_dispose on the thread that ends the
 * subscription, which may overlap an event hook running on another thread when you dispose
 * from there. Hooks cannot fail the stream. hooks is read during the call only;
 * ctx_free(hooks->ctx) runs once when the observable and all its subscriptions are gone.
 * NULL or a wrong handle for src, NULL hooks, a struct_size below sizeof(rx_do_hooks), or
 * unknown trailing fields not zero: NULL and rx_last_error().
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_do_with_hooks(rx_observable *src, const rx_do_hooks *hooks, rx_free_fn ctx_free);
/** The C library's FILE, as rx_debug takes it. Under RX_CDEF (FFI declarations) an opaque
 * struct: pass NULL (stderr) or a FILE * obtained from C (fopen, fdopen...). */
#if defined(RX_CDEF)
typedef struct rx_file rx_file;
#else
typedef FILE rx_file;
#endif
/** Receives one rx_debug line: NUL-terminated, without a newline, borrowed for the call. */
typedef void (*rx_debug_fn)(void *ctx, const char *line);

/**
 * @abstract RxSwift's debug: writes a line for every subscription, event and disposal, and
 * passes everything on unchanged.
 * @discussion Each line is
 *   `<seconds>.<microseconds> tid <thread id> <label> -> <what>`
 * with the CLOCK_MONOTONIC time (6 decimals), the kernel thread id (gettid) of the thread
 * the line is written on, and <what> one of: `subscribed` (written on the subscribing
 * thread, before src is subscribed), `next(<value>)`, `error(<code> <message>)`,
 * `completed` (each written on the thread delivering the event, before the subscriber gets
 * it), `disposed` (once per subscription, after src's subscription was disposed, on the
 * thread that ended it; also after a terminal event). Values are written as numbers, true /
 * false, none, 0x<hex> for a pointer, "text" for a string, [a, b] for an array, bytes[<n>],
 * object, observable, event(<event>). Lines of concurrent subscriptions may interleave,
 * never mix. `label` is copied; NULL is "rx_debug". `out` is borrowed and must stay open
 * while the result or a subscription to it lives; NULL is stderr. Each line is written with
 * one fputs (a newline appended), then fflush(out). src is borrowed (retained by the
 * result). NULL or a wrong handle for src: NULL and rx_last_error(). Owned.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_debug(rx_observable *src, const char *label, rx_file *out);
/**
 * @abstract rx_debug, handing each line to fn(ctx, line) instead of a FILE (for FFIs).
 * @discussion The same lines (without the newline), on the same threads, as rx_debug;
 * calls for one subscription never overlap, except `disposed` when you dispose from another
 * thread while an event is being delivered. ctx_free(ctx) runs once when the observable and
 * all its subscriptions are gone. NULL or a wrong handle for src, or NULL fn: NULL and
 * rx_last_error(). Owned.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_debug_callback(rx_observable *src, const char *label, rx_debug_fn fn, void *ctx, rx_free_fn ctx_free);
/**
 * @abstract Delivers each value and the completion `ns` later, on `scheduler`; an error is
 * delivered at once and drops what is still delayed (as RxSwift). Negative ns is 0.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_delay(rx_observable *src, int64_t ns, rx_scheduler *scheduler);
/** @abstract Subscribes to src `ns` after the subscription (timer on `scheduler`). */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_delay_subscription(rx_observable *src, int64_t ns, rx_scheduler *scheduler);
/**
 * @abstract Each element v as the pair [time, v]: an RX_ARRAY of two items, `scheduler`'s
 * clock (rx_scheduler_now_ns, an RX_INT) read when v arrives, and v itself.
 * Read them with rx_array_get(pair, 0) and rx_array_get(pair, 1). Nothing is scheduled.
 * @example rx_timestamp(src, scheduler)
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_timestamp(rx_observable *src, rx_scheduler *scheduler);
/** @abstract Each event as an RX_EVENT value (rx_value_event_kind...); after the source's
 * terminal event (emitted as a value) completes. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_materialize(rx_observable *src);
/** @abstract The inverse of rx_materialize; a value that is not an RX_EVENT fails the stream
 * with RX_ERROR_TYPE. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_dematerialize(rx_observable *src);

/* sharing
 * A connectable observable (rx_publish, rx_replay, rx_replay_all, rx_multicast) subscribes
 * its source only on rx_connect; subscribers subscribe to its subject. rx_publish, rx_replay
 * and rx_replay_all make a fresh subject per connection; rx_multicast uses the caller's
 * subject for every connection. rx_ref_count connects on the first subscriber and disconnects when the last one
 * leaves (dispose or terminal event). Concurrent first subscriptions are safe, and the
 * source is never subscribed while a library lock is held. */

/** @abstract rx_publish + rx_ref_count: one source subscription shared by all current
 * subscribers. Owned. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_share(rx_observable *src);
/** @abstract As rx_share, and late subscribers first get the last n values while
 * connected (n == 0 is rx_share). Owned. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_share_replay(rx_observable *src, size_t n);
/**
 * @abstract As rx_share_replay(src, n), but the subject lives as long as the result
 * (RxSwift's share(replay:scope: .forever)), not one connection.
 * @discussion Differences from rx_share / rx_share_replay: after every subscriber left and a
 * new one reconnects, the new one first gets the last n values of the earlier connections;
 * once src has terminated, late subscribers get those values and the terminal event at once,
 * and src is not subscribed again (rx_share resubscribes it for them). n == 0 keeps a publish
 * subject: late subscribers after the end get only the terminal event. src is borrowed
 * (retained by the result). NULL or a wrong handle for src, or n above INT32_MAX: NULL and
 * rx_last_error(). Owned.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_share_forever(rx_observable *src, size_t n);
/** @abstract A connectable observable multicasting through a fresh publish subject per
 * connection. Owned. Use with rx_connect / rx_ref_count. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_publish(rx_observable *src);
/** @abstract A connectable observable multicasting through a fresh replay subject of n
 * (n == 0: publish) per connection. Owned. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_replay(rx_observable *src, size_t n);
/** @abstract A connectable observable multicasting through a fresh unbounded replay subject
 * per connection (RxSwift's replayAll): late subscribers get every value of the current
 * connection. Owned. NULL or a wrong handle for src: NULL and rx_last_error(). */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_replay_all(rx_observable *src);
/**
 * @abstract A connectable observable multicasting through `subject`, the same subject for
 * every connection (RxSwift's multicast(_:)). Use with rx_connect / rx_ref_count.
 * @discussion src and subject are borrowed: the result retains both (releasing your
 * subject reference does not dispose the subject while the result lives). Subscribers
 * subscribe to the subject, so they get what it gives (a replay subject's buffer, a behavior
 * subject's value); once the subject terminated, subscribers get its terminal event, and after
 * src itself terminated it through a connection, rx_connect no longer subscribes src (it
 * returns a token that is already disposed). Events reach subscribers on the thread src
 * delivers them. You may also feed the subject yourself. NULL or a wrong handle for src or
 * subject, or a relay (it cannot take src's terminal event): NULL and rx_last_error().
 * Owned.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_multicast(rx_observable *src, rx_subject *subject);
/**
 * @abstract Subscribes a connectable observable's source. While connected, a second connect
 * returns a token for the same connection (disposing either disconnects).
 * @result An owned token: rx_dispose disconnects. NULL + RX_EHANDLE-style message for an
 * observable not made by rx_publish / rx_replay / rx_replay_all / rx_multicast.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_disposable *rx_connect(rx_observable *connectable);
/** @abstract Connects on the first subscriber, disconnects after the last. connectable must
 * come from rx_publish / rx_replay / rx_replay_all / rx_multicast (else NULL). Owned. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_ref_count(rx_observable *connectable);

/* traits */
/**
 * @abstract RxCocoa's Driver: never errors (an error becomes on_error_value (borrowed;
 * retained), then completion), delivers on the main scheduler, and shares with a replay of
 * one while connected. Run the main loop (rx_main_run...) to receive. Owned.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_as_driver(rx_observable *src, rx_value on_error_value);
/** @abstract rx_subscribe for observables made by rx_as_driver; callbacks run on the main
 * thread. Any other observable: NULL + message (the RX_EHANDLE case). Owned token. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_disposable *rx_drive(rx_observable *driver, rx_observer observer);
/**
 * @abstract RxCocoa's Signal: rx_as_driver without the replay. Never errors (an error becomes
 * on_error_value (borrowed; retained), then completion), delivers on the main scheduler, and
 * shares one source subscription among its current subscribers; a late subscriber sees only
 * what comes after it subscribed. Run the main loop (rx_main_run...) to receive. Owned.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_as_signal(rx_observable *src, rx_value on_error_value);
/** @abstract rx_subscribe for observables made by rx_as_signal; callbacks run on the main
 * thread. Any other observable: NULL + message (the RX_EHANDLE case). Owned token. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_disposable *rx_emit(rx_observable *signal, rx_observer observer);

/*
 * RxSwift's Single, Maybe and Completable as runtime contracts. rx_as_* returns an
 * observable that forwards what the trait's grammar allows and fails with the violation
 * otherwise (the source is then disposed):
 *   single:      exactly one element. It is emitted when the source completes, followed by
 *                completion; completing without one is RX_ERROR_NO_ELEMENTS, a second
 *                element RX_ERROR_MORE_THAN_ONE_ELEMENT (at once).
 *   maybe:       at most one element, emitted with the completion; a second element is
 *                RX_ERROR_MORE_THAN_ONE_ELEMENT (at once). Completing empty is allowed.
 *   completable: no element; one is RX_ERROR_UNEXPECTED_ELEMENT (at once).
 * The source's own errors pass through. rx_subscribe_single/_maybe/_completable subscribe
 * with the trait's callbacks, enforcing its contract on any observable (src need not come
 * from rx_as_*). Their callbacks may each be NULL, get ctx, run on the thread that delivers
 * the source's terminal event, never concurrently; at most one of on_success, on_completed
 * and on_error runs, then on_disposed(ctx) exactly once, last (after dispose too): free ctx
 * there. Values and errors are borrowed for the call. They return an owned token (end the
 * subscription with rx_dispose), or NULL for a bad src (no callback ever runs then).
 */
/** @abstract Exactly one element (see above); RX_ERROR_NO_ELEMENTS or
 * RX_ERROR_MORE_THAN_ONE_ELEMENT otherwise. Owned. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_as_single(rx_observable *src);
/** @abstract At most one element (see above); RX_ERROR_MORE_THAN_ONE_ELEMENT otherwise. Owned. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_as_maybe(rx_observable *src);
/** @abstract Only the terminal event (see above); an element is RX_ERROR_UNEXPECTED_ELEMENT.
 * Owned. */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_as_completable(rx_observable *src);
/**
 * @abstract Subscribes as a Single: on_success(ctx, value) with the only element, or
 * on_error(ctx, error), then on_disposed(ctx).
 * @param on_success May be NULL, as may on_error, on_disposed and ctx.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_disposable *rx_subscribe_single(
    rx_observable *src, void (*on_success)(void *ctx, rx_value value),
    void (*on_error)(void *ctx, const rx_error *error), void *ctx, void (*on_disposed)(void *ctx));
/**
 * @abstract Subscribes as a Maybe: on_success(ctx, value) with the only element, or
 * on_completed(ctx) when there is none, or on_error(ctx, error); then on_disposed(ctx).
 * @param on_success May be NULL, as may on_error, on_completed, on_disposed and ctx.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_disposable *rx_subscribe_maybe(
    rx_observable *src, void (*on_success)(void *ctx, rx_value value),
    void (*on_error)(void *ctx, const rx_error *error), void (*on_completed)(void *ctx), void *ctx,
    void (*on_disposed)(void *ctx));
/**
 * @abstract Subscribes as a Completable: on_completed(ctx) or on_error(ctx, error), then
 * on_disposed(ctx).
 * @param on_completed May be NULL, as may on_error, on_disposed and ctx.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_disposable *rx_subscribe_completable(
    rx_observable *src, void (*on_completed)(void *ctx), void (*on_error)(void *ctx, const rx_error *error),
    void *ctx, void (*on_disposed)(void *ctx));

/* ---------------------------------------------------------------------------------------
 * 10. Blocking (for programs and tests)
 * ------------------------------------------------------------------------------------- */

/**
 * @abstract Subscribes to source, waits for its terminal event and returns every value as
 * one owned RX_ARRAY in *out_array.
 * @discussion On the main thread the main loop runs while waiting (so work observed on
 * main still happens); elsewhere the calling thread sleeps. Called on the main thread from
 * inside main-scheduler work: RX_ESTATE. On time-out the subscription is disposed.
 * @param timeout_ns Negative: wait without limit.
 * @param out_array Required. rx_none() on failure.
 * @param out_error May be NULL. On RX_ESTREAM the stream's error (owned); NULL otherwise.
 * @result RX_OK, RX_ETIMEOUT, RX_ESTREAM, RX_ESTATE, or RX_EINVAL/RX_EHANDLE.
 */
RX_EXPORT rx_status rx_blocking_to_array(rx_observable *source, int64_t timeout_ns,
                                         rx_value *out_array, rx_error **out_error);
/** @abstract As rx_blocking_to_array, returning only the last value (owned) in *out. An
 * empty stream is RX_ESTREAM with an RX_ERROR_NO_ELEMENTS error. */
RX_EXPORT rx_status rx_blocking_last(rx_observable *source, int64_t timeout_ns, rx_value *out,
                                     rx_error **out_error);
/** @abstract As rx_blocking_last, returning the first value (owned) in *out: the subscription
 * ends at it, so a source that never completes returns too. An empty stream is RX_ESTREAM
 * with an RX_ERROR_NO_ELEMENTS error (RxBlocking's first() returns nil there). */
RX_EXPORT rx_status rx_blocking_first(rx_observable *source, int64_t timeout_ns, rx_value *out,
                                      rx_error **out_error);
/** @abstract As rx_blocking_last, returning the only value (owned) in *out, with the contract
 * of rx_as_single: no value is RX_ESTREAM with an RX_ERROR_NO_ELEMENTS error, a second one
 * RX_ESTREAM with RX_ERROR_MORE_THAN_ONE_ELEMENT as soon as it arrives (the subscription then
 * ends). */
RX_EXPORT rx_status rx_blocking_single(rx_observable *source, int64_t timeout_ns, rx_value *out,
                                       rx_error **out_error);

/* ---------------------------------------------------------------------------------------
 * 11. Resource accounting
 * ------------------------------------------------------------------------------------- */

/**
 * @abstract The number of live library objects (handles, sinks, subscriptions, boxes).
 * @discussion Always available. The shared schedulers may be counted from their first use
 * on. A program that releases everything it made sees it return to its starting value.
 */
RX_EXPORT int64_t rx_debug_live_objects(void);


/* ---------------------------------------------------------------------------------------
 * 12. Marble tests (RxJS syntax) on a test scheduler
 *
 * Marble syntax: '-' one frame (RX_MARBLE_FRAME_NS of virtual time), 'a'-'z', 'A'-'Z',
 * '0'-'9' a value, '|' completed, '#' error, '^' the subscription point, '!' the
 * unsubscription point (expected marbles), '(' ')' a group: its events share the frame of
 * the '(' and, as in RxJS, every character of the group still advances time; spaces are
 * ignored. A value character is looked up in the values table; one that is not there stands
 * for itself: a digit is its RX_INT, a letter a one-letter RX_STRING. '#' stands for the
 * given error (NULL: code RX_ERROR_USER, message "marble error").
 *
 *     rx_scheduler *ts = rx_test_scheduler_new();
 *     rx_observable *src = rx_marble_cold(ts, "-1-2-|", NULL, 0, NULL);
 *     rx_observable *out = rx_map(src, double_it, NULL, NULL);
 *     rx_marble_value big[] = {{'x', RX_INT(40)}};
 *     assert(rx_marble_expect(ts, out, "-2-4-|", NULL, 0, NULL));
 *     assert(!rx_marble_expect(ts, out, "-2-x-|", big, 1, NULL));  (prints a diff)
 * ------------------------------------------------------------------------------------- */

/** Virtual nanoseconds per marble frame (one virtual millisecond, as in RxJS). */
#define RX_MARBLE_FRAME_NS 1000000

/** One entry of a marble value table: the character and the value it stands for. */
typedef struct rx_marble_value {
  char key;
  rx_value value; /* borrowed; the observable keeps its own reference */
} rx_marble_value;

/**
 * @abstract A cold test observable: each subscriber sees the marble's events at their frame
 * offsets from its own subscription time, on the test scheduler.
 * @param test A scheduler made by rx_test_scheduler_new (another scheduler: RX_EHANDLE).
 * @param marble The diagram; '^' and '!' are rejected here.
 * @param values Borrowed table of n_values entries (may be NULL when n_values is 0).
 * @param error Borrowed; what '#' emits (NULL: a default error).
 * @result An owned observable, or NULL (rx_last_error() says why, e.g. a parse error).
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_marble_cold(rx_scheduler *test, const char *marble,
                                                              const rx_marble_value *values,
                                                              size_t n_values,
                                                              const rx_error *error);

/**
 * @abstract A hot test observable: the marble's events happen at fixed virtual times, '^'
 * (or the first character) being the scheduler's current time; subscribers see what
 * happens while they are subscribed. Events before '^' are never seen.
 * @result An owned observable, or NULL. Arguments as for rx_marble_cold.
 */
RX_EXPORT RX_WARN_UNUSED_RESULT rx_observable *rx_marble_hot(rx_scheduler *test, const char *marble,
                                                             const rx_marble_value *values,
                                                             size_t n_values,
                                                             const rx_error *error);

/**
 * @abstract Subscribes to source on the test scheduler, runs the scheduler, and compares
 * what the subscription saw with an expected marble.
 * @discussion Frames of `expected` count from the scheduler's current time. The
 * subscription is made at '^' (default: frame 0) and disposed at '!' (default: after the
 * run). The scheduler is advanced 750 frames past the last expected frame, so extra events
 * are caught. Values compare with rx_value_equal; '#' matches an error with the same code
 * and message as `error` (NULL: the default error). On a mismatch a readable diff (both
 * diagrams and both event lists with their frames) is printed to stderr.
 * @result true if they match; false on a mismatch or a bad argument (see rx_last_error()).
 */
RX_EXPORT bool rx_marble_expect(rx_scheduler *test, rx_observable *source, const char *expected,
                                const rx_marble_value *values, size_t n_values,
                                const rx_error *error);

#ifdef __cplusplus
}
#endif

#endif /* RXC_H */
