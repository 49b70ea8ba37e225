/*
 * fuzz_api.c — libFuzzer target over the whole librxc API.
 *
 * The input bytes are a program: each instruction is an opcode byte and its argument bytes
 * (missing bytes read as 0). Programs create observables and subjects, chain operators,
 * subscribe recording observers, emit (also from a second thread), dispose, release,
 * drive a test scheduler and pass bad handles on purpose. Functions that are not exported
 * yet are looked up with dlsym and skipped, so the target grows with the API.
 *
 * After each program everything is disposed and released, and the target aborts unless:
 * every observer saw on_next* then at most one terminal event, then on_disposed exactly
 * once and last, with no two callbacks at once; every ctx_free ran exactly once; and
 * rx_debug_live_objects() is back to its starting value.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rxc.h"

#define FAILF(...)                                                   \
  do {                                                               \
    fprintf(stderr, "fuzz_api: invariant broken: " __VA_ARGS__);     \
    fprintf(stderr, "\n");                                           \
    abort();                                                         \
  } while (0)

/* ------------------------------------------------------------------ optional API */

/* OPTIONAL_API (every exported function, loaded with dlsym) and GENERATED_OPERATOR_CASES
   (a call per operator with an @example): build/gen/fuzz_gen.h, made from include/rxc.h. */
#include "fuzz_gen.h"

#define DECLARE(name) static __typeof__(&name) p_##name;
OPTIONAL_API(DECLARE)
#define LOAD(name) p_##name = (__typeof__(&name))dlsym(RTLD_DEFAULT, #name);

/* ------------------------------------------------------------------ program input */

typedef struct {
  const uint8_t *p;
  size_t n;
} Input;

static uint8_t u8(Input *in) {
  if (!in->n) return 0;
  in->n--;
  return *in->p++;
}

/* ------------------------------------------------------------------ tracked contexts */

/* Every ctx handed to the library with a ctx_free: ctx_free must run exactly once, and no
   callback may see the ctx after it. */
typedef struct Ctx {
  uint32_t magic;
  atomic_int freed;
  int param; /* behaviour knob for the callback */
  int depth; /* nesting of factories */
  struct Ctx *next;
} Ctx;
#define CTX_MAGIC 0xC7C7C7C7u

static Ctx *ctx_list;
static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;

static Ctx *ctx_new(int param, int depth) {
  Ctx *c = calloc(1, sizeof *c);
  c->magic = CTX_MAGIC;
  c->param = param;
  c->depth = depth;
  pthread_mutex_lock(&ctx_lock);
  c->next = ctx_list;
  ctx_list = c;
  pthread_mutex_unlock(&ctx_lock);
  return c;
}

static void ctx_free(void *p) {
  Ctx *c = p;
  if (c->magic != CTX_MAGIC) FAILF("ctx_free given a foreign pointer");
  if (atomic_fetch_add(&c->freed, 1) != 0) FAILF("ctx_free ran twice for one ctx");
}

static Ctx *ctx_use(void *p) {
  Ctx *c = p;
  if (!c || c->magic != CTX_MAGIC) FAILF("callback given a foreign ctx");
  if (atomic_load(&c->freed)) FAILF("callback ran after ctx_free");
  return c;
}

/* rx_observe_on_bounded's on_dropped. */
static void dropped_fn(void *ctx, rx_value v) {
  (void)v;
  ctx_use(ctx);
}

/* The result of a call taking rx_flow_options: refused with a message (then the ctx is
   ours to free), or an observable whose counters can be read and add up. */
static rx_observable *flow_checked(rx_observable *o, const rx_flow_options *fo) {
  if (!o) {
    if (!rx_last_error()[0]) FAILF("flow options refused without a message");
    ctx_free(fo->ctx); /* nothing was taken */
  } else if (p_rx_flow_stats_get) {
    rx_flow_stats st = {.struct_size = sizeof st};
    if (p_rx_flow_stats_get(o, &st) != RX_OK) FAILF("rx_flow_stats_get failed on a flow-control observable");
    if (st.delivered + st.dropped > st.received) FAILF("flow stats: more out than in");
  }
  return o;
}

/* ------------------------------------------------------------------ recording observers */

enum { ST_ACTIVE, ST_TERMINATED, ST_DISPOSED };

typedef struct Rec {
  rx_by_ref by; /* first: an observer whose on_next is rx_by_ref_on_next gets this Rec as ctx */
  atomic_int busy;
  atomic_int state;
  atomic_int nexts, terminals, disposed;
  struct Rec *next;
} Rec;

static Rec *rec_list;
static pthread_mutex_t rec_lock = PTHREAD_MUTEX_INITIALIZER;

static void rec_enter(Rec *r, const char *what) {
  if (atomic_exchange(&r->busy, 1)) FAILF("two callbacks of one observer at once (%s)", what);
  if (atomic_load(&r->state) == ST_DISPOSED) FAILF("%s after on_disposed", what);
}
static void rec_leave(Rec *r) { atomic_store(&r->busy, 0); }

/* Every reader of a boxed value, on a borrowed value (nested arrays and events too). */
static void inspect(rx_value v, int depth) {
  if (depth > 3) return;
  size_t len = 7;
  switch (v.kind) {
  case RX_ARRAY: {
    size_t n = rx_array_count(v);
    for (size_t i = 0; i < n && i < 4; i++) inspect(rx_array_get(v, i), depth + 1);
    if (rx_array_get(v, n).kind != RX_NONE) FAILF("rx_array_get out of range gave a value");
    break;
  }
  case RX_BYTES:
    if (!rx_value_bytes(v, &len) && len != 0) FAILF("rx_value_bytes gave NULL for %zu bytes", len);
    break;
  case RX_OBJECT: (void)rx_object_data(v); break;
  case RX_OBSERVABLE: {
    rx_observable *o = rx_value_observable(v);
    if (!o) FAILF("rx_value_observable gave NULL");
    if (p_rx_group_key) { /* a group's key, or RX_EINVAL for any other observable */
      rx_value key = rx_int(1);
      rx_status st = p_rx_group_key(o, &key);
      if (st == RX_OK) {
        if (key.kind == RX_NONE) FAILF("rx_group_key gave no key");
        inspect(key, depth + 1);
        rx_value_release(key);
      } else if (st != RX_EINVAL || key.kind != RX_NONE || !rx_last_error()[0]) {
        FAILF("rx_group_key on an observable value: %d", (int)st);
      }
    }
    break;
  }
  case RX_EVENT:
    switch (rx_value_event_kind(v)) {
    case RX_EVENT_NEXT: inspect(rx_value_event_value(v), depth + 1); break;
    case RX_EVENT_ERROR: {
      const rx_error *e = rx_value_event_error(v);
      if (!e || rx_error_code(e) == 0) FAILF("an error event without its error");
      break;
    }
    case RX_EVENT_COMPLETED: break;
    default: FAILF("an event value of no event kind");
    }
    break;
  default: break;
  }
}

static void rec_next(void *ctx, rx_value v) {
  Rec *r = ctx;
  rec_enter(r, "on_next");
  if (atomic_load(&r->state) != ST_ACTIVE) FAILF("on_next after a terminal event");
  if (v.kind > RX_EVENT) FAILF("on_next with a value of kind %d", v.kind);
  rx_value_release(rx_value_retain(v)); /* the value must be live */
  /* The readers agree with the payload. */
  if (v.kind == RX_INT && rx_value_int(v) != v.i) FAILF("rx_value_int disagrees with i");
  if (v.kind == RX_DOUBLE && rx_value_double(v) != RX_DOUBLE_OF(v) && RX_DOUBLE_OF(v) == RX_DOUBLE_OF(v))
    FAILF("rx_value_double disagrees with the payload");
  if (v.kind == RX_BOOL && rx_value_bool(v) != RX_BOOL_OF(v)) FAILF("rx_value_bool disagrees with i");
  if (v.kind == RX_PTR && rx_value_ptr(v) != RX_PTR_OF(v)) FAILF("rx_value_ptr disagrees with i");
  inspect(v, 0);
  atomic_fetch_add(&r->nexts, 1);
  rec_leave(r);
}
static void rec_terminal(Rec *r, const char *what) {
  rec_enter(r, what);
  if (atomic_load(&r->state) != ST_ACTIVE) FAILF("%s after a terminal event", what);
  atomic_store(&r->state, ST_TERMINATED);
  atomic_fetch_add(&r->terminals, 1);
  rec_leave(r);
}
static void rec_error(void *ctx, const rx_error *e) {
  if (!e || rx_error_message(e) == NULL) FAILF("on_error with an invalid error");
  rec_terminal(ctx, "on_error");
}
static void rec_completed(void *ctx) { rec_terminal(ctx, "on_completed"); }
static void rec_disposed(void *ctx) {
  Rec *r = ctx;
  rec_enter(r, "on_disposed");
  atomic_store(&r->state, ST_DISPOSED);
  atomic_fetch_add(&r->disposed, 1);
  rec_leave(r);
}

static void rec_next_ref(void *ctx, const rx_value *v) { rec_next(ctx, *v); }

static rx_observer rec_observer(void) {
  static atomic_uint made;
  Rec *r = calloc(1, sizeof *r);
  r->by.ctx = r;
  r->by.on_next = rec_next_ref;
  pthread_mutex_lock(&rec_lock);
  r->next = rec_list;
  rec_list = r;
  pthread_mutex_unlock(&rec_lock);
  /* Every third observer takes its values by reference, through rx_by_ref_on_next. */
  void (*on_next)(void *, rx_value) = atomic_fetch_add(&made, 1) % 3 == 2 ? rx_by_ref_on_next : rec_next;
  return (rx_observer){on_next, rec_error, rec_completed, rec_disposed, r};
}

/* A tap for rx_do: shared by all subscriptions of the observable, so it only checks ctx. */
static void tap_next(void *ctx, rx_value v) { (void)v; ctx_use(ctx); }
static void tap_error(void *ctx, const rx_error *e) { (void)e; ctx_use(ctx); }
static void tap_plain(void *ctx) { ctx_use(ctx); }
static void debug_line(void *ctx, const char *line) { ctx_use(ctx); (void)strlen(line); }
/* rx_debug's lines go here (not to stderr, where the fuzzer reports). */
static FILE *debug_out;

/* ------------------------------------------------------------------ program state */

#define NOBS 16
#define NSUBJ 6
#define NSUBS 24
#define NEMIT 6

static rx_observable *obs[NOBS];
static int obs_connectable[NOBS];
static rx_subject *subj[NSUBJ];
static rx_disposable *subs[NSUBS];
static rx_emitter *emitters[NEMIT];
static rx_scheduler *test_sched;
static rx_dispose_bag *bag;

static rx_error *make_error(int code) { return rx_error_new(RX_ERROR_USER + code, "fuzz"); }

static rx_value make_value(uint8_t b) {
  static int cell;
  switch (b % 8) {
  case 0: return rx_int(b);
  case 1: return rx_string("v");
  case 2: return rx_double(b / 2.0);
  case 3: return rx_bool(b & 8);
  case 4: return rx_ptr(&test_sched);
  case 5: return rx_bytes("xy", b & 2);
  case 6: return rx_object(&cell, NULL);
  default: { rx_value items[2] = {rx_int(1), rx_int(b)}; return rx_array(items, 2); }
  }
}

/* About how many subscriptions one subscribe to the slot's observable makes: operators over
   several copies of one source (combine_latest of itself, nested) grow it exponentially, and
   a step may not build one that takes seconds to subscribe (fuzz-ci's per-input timeout). */
static uint64_t obs_cost[NOBS];
#define MAX_OBS_COST 4096

static void put_obs_costing(rx_observable *o, int connectable, uint8_t slot, uint64_t cost) {
  if (!o) return;
  slot %= NOBS;
  rx_release(obs[slot]);
  obs[slot] = o;
  obs_connectable[slot] = connectable;
  obs_cost[slot] = cost;
}

static void put_obs(rx_observable *o, int connectable, uint8_t slot) { put_obs_costing(o, connectable, slot, 1); }

static rx_observable *get_obs(uint8_t slot) { return obs[slot % NOBS]; }

static void put_sub(rx_disposable *d, uint8_t slot) {
  if (!d) return;
  slot %= NSUBS;
  if (subs[slot]) rx_dispose(subs[slot]);
  subs[slot] = d;
}

/* ------------------------------------------------------------------ callbacks */

static rx_disposable *create_fn(void *ctx, rx_emitter *e) {
  Ctx *c = ctx_use(ctx);
  int n = c->param & 3;
  for (int i = 0; i < n; i++) rx_emitter_next(e, rx_int(i));
  switch ((c->param >> 2) & 3) {
  case 0: rx_emitter_completed(e); break;
  case 1: { rx_error *err = make_error(1); rx_emitter_error(e, err); rx_release(err); break; }
  case 2: /* keep it for later emission */
    for (int i = 0; i < NEMIT; i++)
      if (!emitters[i]) { emitters[i] = rx_retain(e); break; }
    break;
  default: break; /* never ends by itself */
  }
  if (c->param & 16) {
    Ctx *dc = ctx_new(0, 0);
    return rx_disposable_create(tap_plain, dc, ctx_free);
  }
  return NULL;
}

static rx_observable *defer_fn(void *ctx) {
  Ctx *c = ctx_use(ctx);
  if (c->param & 1) return NULL;
  return rx_range(0, (size_t)(c->param & 3));
}

static rx_value map_fn(void *ctx, rx_value v, rx_error **error) {
  Ctx *c = ctx_use(ctx);
  if (c->param == 7 && v.kind == RX_INT && v.i == 1) {
    *error = make_error(2);
    return rx_none();
  }
  if (v.kind == RX_INT) return rx_int(v.i + c->param);
  return rx_value_retain(v);
}

/* rx_group_by's key: a few groups of ints; any other value is its own key (the kinds that
   cannot be keys fail the stream); param 7 fails at 1. */
static rx_value key_fn(void *ctx, rx_value v, rx_error **error) {
  Ctx *c = ctx_use(ctx);
  if (c->param == 7 && v.kind == RX_INT && v.i == 1) {
    *error = make_error(2);
    return rx_none();
  }
  if (v.kind == RX_INT) return rx_int(v.i % (1 + c->param % 3));
  return rx_value_retain(v);
}

static bool pred_fn(void *ctx, rx_value v, rx_error **error) {
  Ctx *c = ctx_use(ctx);
  if (c->param == 5) { *error = make_error(3); return false; }
  return v.kind != RX_INT || (v.i + c->param) % 2 == 0;
}

/* Keeps what pred_fn keeps, mapped by map_fn; param 6 stores a string before dropping. */
static bool compact_fn(void *ctx, rx_value v, rx_value *out, rx_error **error) {
  Ctx *c = ctx_use(ctx);
  if (c->param == 6) {
    *out = rx_string("dropped");
    return false;
  }
  if (!pred_fn(ctx, v, error)) return false;
  *out = map_fn(ctx, v, error);
  return true;
}

/* rx_using: the resource is a tracked Ctx of its own (its release must run exactly once);
   param 4 fails create, 3 fails use, else use returns just(param). */
static void *res_create(void *ctx, rx_error **error) {
  Ctx *c = ctx_use(ctx);
  if (c->param == 4) { *error = make_error(5); return NULL; }
  return ctx_new(c->param, 0);
}
static rx_observable *res_use(void *ctx, void *resource, rx_error **error) {
  Ctx *c = ctx_use(ctx);
  ctx_use(resource);
  if (c->param == 3) { *error = make_error(6); return NULL; }
  return rx_just(rx_int(c->param));
}
static void res_release(void *ctx, void *resource) {
  ctx_use(ctx);
  ctx_free(resource);
}

static rx_value acc_fn(void *ctx, rx_value acc, rx_value v, rx_error **error) {
  (void)error;
  ctx_use(ctx);
  int64_t a = acc.kind == RX_INT ? acc.i : 0, b = v.kind == RX_INT ? v.i : 1;
  return rx_int(a + b);
}

static rx_observable *flat_fn(void *ctx, rx_value v, rx_error **error) {
  Ctx *c = ctx_use(ctx);
  if (c->param == 3) { *error = make_error(4); return NULL; }
  if (c->param == 2 && v.kind == RX_INT) return rx_just(v);
  return rx_range(v.kind == RX_INT ? v.i : 0, (size_t)(c->param & 3));
}

static rx_value combine_fn(void *ctx, const rx_value *values, size_t n, rx_error **error) {
  (void)error;
  ctx_use(ctx);
  return rx_array(values, n);
}

static bool equal_fn(void *ctx, rx_value a, rx_value b) {
  ctx_use(ctx);
  return rx_value_equal(a, b);
}

/* The by-value callbacks above, by reference (rx_by_ref), for the rx_by_ref_* trampolines. */
static void br_map(void *ctx, const rx_value *v, rx_value *out, rx_error **e) { *out = map_fn(ctx, *v, e); }
static bool br_pred(void *ctx, const rx_value *v, rx_error **e) { return pred_fn(ctx, *v, e); }
static void br_acc(void *ctx, const rx_value *a, const rx_value *v, rx_value *out, rx_error **e) {
  *out = acc_fn(ctx, *a, *v, e);
}
static rx_observable *br_flat(void *ctx, const rx_value *v, rx_error **e) { return flat_fn(ctx, *v, e); }
static void br_combine(void *ctx, const rx_value *vs, size_t n, rx_value *out, rx_error **e) {
  *out = combine_fn(ctx, vs, n, e);
}
static bool br_equal(void *ctx, const rx_value *a, const rx_value *b) { return equal_fn(ctx, *a, *b); }
static bool br_compact(void *ctx, const rx_value *v, rx_value *out, rx_error **e) { return compact_fn(ctx, *v, out, e); }

static rx_by_ref *byref_new(uint8_t param) {
  rx_by_ref *b = calloc(1, sizeof *b);
  b->ctx = ctx_new(param % 8, 0);
  b->map = br_map;
  b->predicate = br_pred;
  b->accumulate = br_acc;
  b->flat_map = br_flat;
  b->combine = br_combine;
  b->equal = br_equal;
  b->compact_map = br_compact;
  return b;
}
/* Freed here: a trampoline called after its ctx_free reads freed memory (ASan reports it). */
static void byref_free(void *p) {
  rx_by_ref *b = p;
  ctx_free(b->ctx);
  free(b);
}

static rx_observable *catch_fn(void *ctx, const rx_error *e) {
  Ctx *c = ctx_use(ctx);
  (void)e;
  if (c->param & 1) return NULL;
  return rx_just(rx_int(-1));
}

static void action_fn(void *ctx) { ctx_use(ctx); }
/* Reschedules itself param times (now or after a delay), then lets its chain end. */
static void recursive_fn(void *ctx, rx_disposable *self) {
  Ctx *c = ctx_use(ctx);
  if (c->param <= 0) return;
  int left = --c->param; /* first: on the immediate scheduler the next run nests in rx_recurse */
  rx_status s = left % 2 ? p_rx_recurse(self) : p_rx_recurse_after(self, 1000000 * (left % 3));
  if (s != RX_OK) FAILF("rx_recurse refused a live chain: %s", rx_last_error());
}

/* ------------------------------------------------------------------ instructions */

static rx_scheduler *pick_scheduler(uint8_t b) {
  /* Only schedulers that run on this thread, so a program ends with nothing in flight. */
  if ((b & 1) && test_sched) return test_sched;
  if (p_rx_scheduler_current_thread && (b & 2)) return p_rx_scheduler_current_thread();
  if (p_rx_scheduler_immediate) return p_rx_scheduler_immediate();
  return test_sched;
}

static void op_source(Input *in) {
  uint8_t kind = u8(in), a = u8(in), slot = u8(in);
  rx_observable *o = NULL;
  switch (kind % 10) {
  case 0: { rx_value v = make_value(a); o = rx_just(v); rx_value_release(v); break; }
  case 1: {
    rx_value vs[3] = {make_value(a), make_value(a + 1), make_value(a + 2)};
    o = rx_of(vs, (size_t)(a % 4));
    for (int i = 0; i < 3; i++) rx_value_release(vs[i]);
    break;
  }
  case 2: o = rx_range(a, (size_t)(a % 6)); break;
  case 3: o = rx_empty(); break;
  case 4: o = rx_never(); break;
  case 5: { rx_error *e = make_error(a); o = rx_throw(e); rx_release(e); break; }
  case 6: o = rx_create(create_fn, ctx_new(a, 0), ctx_free); break;
  case 7: o = rx_defer(defer_fn, ctx_new(a, 0), ctx_free); break;
  case 8:
    if (p_rx_interval && test_sched) o = p_rx_interval(1000000 * (1 + a % 4), test_sched);
    break;
  case 9:
    if (p_rx_timer && test_sched)
      o = p_rx_timer(1000000 * (a % 4), (a & 4) ? -1 : 1000000 * (1 + a % 3), test_sched);
    break;
  }
  put_obs(o, 0, slot);
}

static void op_subject(Input *in) {
  uint8_t kind = u8(in), a = u8(in), slot = u8(in), oslot = u8(in);
  rx_subject *s = NULL;
  rx_value v = rx_int(a);
  switch (kind % 9) {
  case 0: if (p_rx_publish_subject_new) s = p_rx_publish_subject_new(); break;
  case 1: if (p_rx_behavior_subject_new) s = p_rx_behavior_subject_new(v); break;
  case 2: if (p_rx_replay_subject_new) s = p_rx_replay_subject_new(1 + a % 3); break;
  case 3: if (p_rx_replay_subject_new_unbounded) s = p_rx_replay_subject_new_unbounded(); break;
  case 4: if (p_rx_async_subject_new) s = p_rx_async_subject_new(); break;
  case 5: if (p_rx_publish_relay_new) s = p_rx_publish_relay_new(); break;
  case 6: if (p_rx_behavior_relay_new) s = p_rx_behavior_relay_new(v); break;
  case 7: if (p_rx_replay_relay_new) s = p_rx_replay_relay_new(1 + a % 3); break;
  case 8: if (p_rx_replay_relay_new_unbounded) s = p_rx_replay_relay_new_unbounded(); break;
  }
  if (!s) return;
  slot %= NSUBJ;
  rx_release(subj[slot]);
  subj[slot] = s;
  if (p_rx_subject_as_observable) put_obs(rx_retain(p_rx_subject_as_observable(s)), 0, oslot);
}

/* rx_retry_when's notifiers: retry up to 2 times, or wait forever. */
static rx_observable *retry_when_take(void *ctx, rx_observable *errors, rx_error **error) {
  return rx_take(errors, 2);
}
static rx_observable *retry_when_never(void *ctx, rx_observable *errors, rx_error **error) {
  return rx_never();
}

/* The operator cases are numbered by the compiler (OP_CASE), so one can be added anywhere. */
enum { OP_CASE_BASE = __COUNTER__ + 1 };
#define OP_CASE case __COUNTER__ - OP_CASE_BASE
static unsigned op_case_count(void);

static void op_operator(Input *in) {
  uint8_t which = u8(in), a = u8(in), b = u8(in), c = u8(in), slot = u8(in);
  rx_observable *src = get_obs(a), *other = get_obs(b), *o = NULL;
  int connectable = 0;
  if (!src) return;
  /* an operator subscribes to at most three of src, other and the c slot's observable (src
     standing in for a missing one) per subscription */
  uint64_t most = obs_cost[a % NOBS];
  if (obs_cost[b % NOBS] > most) most = obs_cost[b % NOBS];
  if (obs_cost[c % NOBS] > most) most = obs_cost[c % NOBS];
  uint64_t cost = 1 + 3 * most;
  if (cost > MAX_OBS_COST) return;
  rx_observable *srcs[3] = {src, other ? other : src, get_obs(c) ? get_obs(c) : src};
  size_t n = 1 + c % 3;
  int64_t ns = 1000000 * (c % 4);
  rx_scheduler *sched = pick_scheduler(c);
#define CTX ctx_new(c % 8, 0), ctx_free
  switch (which % op_case_count()) {
  OP_CASE: if (p_rx_map) o = p_rx_map(src, map_fn, CTX); break;
  OP_CASE: if (p_rx_filter) o = p_rx_filter(src, pred_fn, CTX); break;
  OP_CASE: if (p_rx_scan) o = p_rx_scan(src, rx_int(0), acc_fn, CTX); break;
  OP_CASE: if (p_rx_reduce) o = p_rx_reduce(src, rx_int(0), acc_fn, CTX); break;
  OP_CASE: if (p_rx_flat_map) o = p_rx_flat_map(src, flat_fn, CTX); break;
  OP_CASE: if (p_rx_flat_map_latest) o = p_rx_flat_map_latest(src, flat_fn, CTX); break;
  OP_CASE: if (p_rx_concat_map) o = p_rx_concat_map(src, flat_fn, CTX); break;
  OP_CASE: if (p_rx_buffer && sched) o = p_rx_buffer(src, (c & 1) ? ns : 0, c % 3, sched); break;
  OP_CASE: if (p_rx_to_array) o = p_rx_to_array(src); break;
  OP_CASE: if (p_rx_take) o = p_rx_take(src, c % 4); break;
  OP_CASE: if (p_rx_skip) o = p_rx_skip(src, c % 4); break;
  OP_CASE: if (p_rx_take_while) o = p_rx_take_while(src, pred_fn, CTX); break;
  OP_CASE: if (p_rx_skip_while) o = p_rx_skip_while(src, pred_fn, CTX); break;
  OP_CASE: if (p_rx_take_until && other) o = p_rx_take_until(src, other); break;
  OP_CASE: if (p_rx_skip_until && other) o = p_rx_skip_until(src, other); break;
  OP_CASE: if (p_rx_take_last) o = p_rx_take_last(src, c % 4); break;
  OP_CASE: if (p_rx_distinct_until_changed)
      o = (c & 1) ? p_rx_distinct_until_changed(src, equal_fn, CTX)
                  : p_rx_distinct_until_changed(src, NULL, NULL, NULL);
    break;
  OP_CASE: if (p_rx_element_at) o = p_rx_element_at(src, c % 3); break;
  OP_CASE: if (p_rx_first) o = p_rx_first(src); break;
  OP_CASE: if (p_rx_last) o = p_rx_last(src); break;
  OP_CASE: if (p_rx_ignore_elements) o = p_rx_ignore_elements(src); break;
  OP_CASE: if (p_rx_debounce && test_sched) o = p_rx_debounce(src, ns, test_sched); break;
  OP_CASE: if (p_rx_throttle && test_sched) o = p_rx_throttle(src, ns, c & 1, test_sched); break;
  OP_CASE: if (p_rx_sample && other) o = p_rx_sample(src, other); break;
  OP_CASE: if (p_rx_merge) o = p_rx_merge(srcs, n); break;
  OP_CASE: if (p_rx_concat) o = p_rx_concat(srcs, n); break;
  OP_CASE: if (p_rx_combine_latest)
      o = (c & 1) ? p_rx_combine_latest(srcs, n, combine_fn, CTX)
                  : p_rx_combine_latest(srcs, n, NULL, NULL, NULL);
    break;
  OP_CASE: if (p_rx_zip)
      o = (c & 1) ? p_rx_zip(srcs, n, combine_fn, CTX) : p_rx_zip(srcs, n, NULL, NULL, NULL);
    break;
  OP_CASE: if (p_rx_with_latest_from && other)
      o = (c & 1) ? p_rx_with_latest_from(src, other, combine_fn, CTX)
                  : p_rx_with_latest_from(src, other, NULL, NULL, NULL);
    break;
  OP_CASE: if (p_rx_start_with) {
      rx_value vs[2] = {rx_int(c), rx_int(c + 1)};
      o = p_rx_start_with(src, vs, c % 3);
    }
    break;
  OP_CASE: if (p_rx_switch_latest) o = p_rx_switch_latest(src); break;
  OP_CASE: if (p_rx_amb) o = p_rx_amb(srcs, n); break;
  OP_CASE: if (p_rx_catch) o = p_rx_catch(src, catch_fn, CTX); break;
  OP_CASE: if (p_rx_catch_and_return) o = p_rx_catch_and_return(src, rx_int(-2)); break;
  OP_CASE: if (p_rx_retry) o = p_rx_retry(src, 1 + c % 3); break;
  OP_CASE: if (p_rx_timeout && test_sched) o = p_rx_timeout(src, ns + 1, test_sched); break;
  OP_CASE: if (p_rx_do) {
      Ctx *t = ctx_new(0, 0);
      rx_observer tap = {tap_next, tap_error, tap_plain, tap_plain, t};
      o = p_rx_do(src, tap, ctx_free);
    }
    break;
  OP_CASE: if (p_rx_delay && test_sched) o = p_rx_delay(src, ns, test_sched); break;
  OP_CASE: if (p_rx_delay_subscription && test_sched) o = p_rx_delay_subscription(src, ns, test_sched); break;
  OP_CASE: if (p_rx_materialize) o = p_rx_materialize(src); break;
  OP_CASE: if (p_rx_dematerialize) o = p_rx_dematerialize(src); break;
  OP_CASE: if (p_rx_share) o = p_rx_share(src); break;
  OP_CASE: if (p_rx_share_replay) o = p_rx_share_replay(src, c % 3); break;
  OP_CASE: if (p_rx_publish) { o = p_rx_publish(src); connectable = 1; } break;
  OP_CASE: if (p_rx_replay) { o = p_rx_replay(src, c % 3); connectable = 1; } break;
  OP_CASE: if (p_rx_ref_count && obs_connectable[a % NOBS]) o = p_rx_ref_count(src); break;
  OP_CASE: if (p_rx_subscribe_on && sched) o = p_rx_subscribe_on(src, sched); break;
  OP_CASE: if (p_rx_observe_on && sched) o = p_rx_observe_on(src, sched); break;
  OP_CASE: if (p_rx_as_driver) o = p_rx_as_driver(src, rx_int(-9)); break;
  OP_CASE: {
    static const char *marbles[] = {"-a-b-|", "a^b-c-#", "--a--b--", "(ab)-c|", "-#", "^-a-b-c"};
    const char *m = marbles[c % 6];
    rx_marble_value table[2] = {{'a', rx_int(1)}, {'b', rx_string("b")}};
    int hot = (c & 8) != 0;
    if (test_sched && hot && p_rx_marble_hot) o = p_rx_marble_hot(test_sched, m, table, 2, NULL);
    if (test_sched && !hot && p_rx_marble_cold && !strchr(m, '^')) o = p_rx_marble_cold(test_sched, m, table, 2, NULL);
    rx_value_release(table[1].value);
    break;
  }
  OP_CASE: if (p_rx_map) o = p_rx_map(src, rx_by_ref_map, byref_new(c), byref_free); break;
  OP_CASE: if (p_rx_filter) o = p_rx_filter(src, rx_by_ref_predicate, byref_new(c), byref_free); break;
  OP_CASE: if (p_rx_scan) o = p_rx_scan(src, rx_int(0), rx_by_ref_accumulate, byref_new(c), byref_free); break;
  OP_CASE: if (p_rx_flat_map) o = p_rx_flat_map(src, rx_by_ref_flat_map, byref_new(c), byref_free); break;
  OP_CASE: if (p_rx_combine_latest) o = p_rx_combine_latest(srcs, n, rx_by_ref_combine, byref_new(c), byref_free); break;
  OP_CASE: if (p_rx_distinct_until_changed)
      o = p_rx_distinct_until_changed(src, rx_by_ref_equal, byref_new(c), byref_free);
    break;
  OP_CASE: if (p_rx_observe_on_bounded && sched) {
      /* every policy (and one past them), capacity 0 to 3, a BLOCK timeout of 0 or 1 ms */
      rx_flow_options fo = {sizeof fo, (size_t)(c % 4), (int32_t)(c / 4 % 6), (c & 64) ? 1000000 : 0,
                            dropped_fn, ctx_new(c % 8, 0), ctx_free};
      o = flow_checked(p_rx_observe_on_bounded(src, sched, &fo), &fo);
    }
    break;
  OP_CASE: if (p_rx_pausable) o = p_rx_pausable(src, other ? other : src); break;
  OP_CASE: if (p_rx_pausable_buffered) {
      /* pausers of any kind (a non-bool fails the stream); every policy, BLOCK rejected */
      rx_flow_options fo = {sizeof fo, (size_t)(c % 4), (int32_t)(c / 4 % 6), 1000000, dropped_fn,
                            ctx_new(c % 8, 0), ctx_free};
      o = flow_checked(p_rx_pausable_buffered(src, other ? other : src, &fo), &fo);
    }
    break;
  OP_CASE: if (p_rx_default_if_empty) o = p_rx_default_if_empty(src, rx_int(-3)); break;
  OP_CASE: if (p_rx_switch_if_empty && other) o = p_rx_switch_if_empty(src, other); break;
  OP_CASE: if (p_rx_single) o = p_rx_single(src); break;
  OP_CASE: if (p_rx_enumerated) o = p_rx_enumerated(src); break;
  OP_CASE: if (p_rx_compact_map) o = p_rx_compact_map(src, compact_fn, CTX); break;
  OP_CASE: if (p_rx_compact_map) o = p_rx_compact_map(src, rx_by_ref_compact_map, byref_new(c), byref_free); break;
  OP_CASE: if (p_rx_take_while_inclusive) o = p_rx_take_while_inclusive(src, pred_fn, CTX); break;
  OP_CASE: if (p_rx_take_until_predicate) o = p_rx_take_until_predicate(src, c & 1, pred_fn, CTX); break;
  OP_CASE: /* endless: always behind a take (n 0 never subscribes it) */
    if (p_rx_repeat_element && p_rx_take) {
      rx_observable *r = p_rx_repeat_element(rx_int(c), (c & 1) ? sched : NULL);
      if (r) o = p_rx_take(r, c % 4);
      rx_release(r);
    }
    break;
  OP_CASE: /* map_fn counts up, pred_fn may hold forever: behind a take too */
    if (p_rx_generate && p_rx_take) {
      rx_observable *g = p_rx_generate(rx_int(c), (c & 1) ? sched : NULL, pred_fn, map_fn, CTX);
      if (g) o = p_rx_take(g, c % 5);
      rx_release(g);
    }
    break;
  OP_CASE: if (p_rx_using) o = p_rx_using(res_create, res_use, res_release, CTX); break;
  OP_CASE: if (p_rx_catch_with && other) o = p_rx_catch_with(src, other); break;
  OP_CASE: if (p_rx_flat_map_max) o = p_rx_flat_map_max(src, c % 3, flat_fn, CTX); break;
  OP_CASE: if (p_rx_merge_max) o = p_rx_merge_max(srcs, n, c % 3); break;
  OP_CASE: if (p_rx_as_single) o = p_rx_as_single(src); break;
  OP_CASE: if (p_rx_as_maybe) o = p_rx_as_maybe(src); break;
  OP_CASE: if (p_rx_as_completable) o = p_rx_as_completable(src); break;
  OP_CASE: if (p_rx_as_signal) o = p_rx_as_signal(src, rx_int(-8)); break;
  OP_CASE: if (p_rx_skip_duration && test_sched) o = p_rx_skip_duration(src, ns, test_sched); break;
  OP_CASE: if (p_rx_take_duration && test_sched) o = p_rx_take_duration(src, ns, test_sched); break;
  OP_CASE: if (p_rx_timeout_to && test_sched) o = p_rx_timeout_to(src, ns + 1, srcs[1], test_sched); break;
  OP_CASE: if (p_rx_retry_backoff && test_sched) {
      rx_backoff_options bo = {sizeof bo, ns, 1.0 + c % 3, (c & 1) ? ns : 0, 1 + c % 4, (c & 4) ? 0.5 : 0.0, c,
                               (c & 8) != 0};
      o = p_rx_retry_backoff(src, &bo, test_sched);
    }
    break;
  OP_CASE: if (p_rx_retry_when) o = p_rx_retry_when(src, (c & 1) ? retry_when_take : retry_when_never, CTX); break;
  OP_CASE: if (p_rx_replay_all) { o = p_rx_replay_all(src); connectable = 1; } break;
  OP_CASE:
    /* A subject of its own (a slot's could be upstream of src: multicasting a subject into
       itself is a feedback loop that never ends, as in any Rx), a relay (refused) or NULL. */
    if (p_rx_multicast) {
      rx_subject *target = (c & 3) == 0 ? rx_publish_subject_new()
                           : (c & 3) == 1 ? rx_behavior_subject_new(rx_int(c))
                           : (c & 3) == 2 ? rx_publish_relay_new()
                                          : NULL;
      o = p_rx_multicast(src, target);
      connectable = o != NULL;
      rx_release(target);
    }
    break;
  OP_CASE: if (p_rx_share_forever) o = p_rx_share_forever(src, c % 3); break;
  OP_CASE: if (p_rx_do_with_hooks) {
      /* the hooks that c's bits pick, or a struct_size too small */
      Ctx *t = ctx_new(0, 0);
      rx_do_hooks h = {(c & 0x80) ? 1 : sizeof h, t};
      if (c & 1) h.on_next = tap_next, h.after_next = tap_next;
      if (c & 2) h.on_error = tap_error, h.after_error = tap_error;
      if (c & 4) h.on_completed = tap_plain, h.after_completed = tap_plain;
      if (c & 8) h.on_subscribe = tap_plain, h.on_subscribed = tap_plain;
      if (c & 16) h.on_dispose = tap_plain;
      o = p_rx_do_with_hooks(src, &h, ctx_free);
      if (!o) ctx_free(t);
    }
    break;
  OP_CASE: if (p_rx_debug && debug_out) o = p_rx_debug(src, (c & 1) ? "fuzz" : NULL, debug_out); break;
  OP_CASE: if (p_rx_debug_callback) {
      Ctx *t = ctx_new(0, 0);
      o = p_rx_debug_callback(src, (c & 1) ? "fuzz" : NULL, (c & 2) ? debug_line : NULL, t, ctx_free);
      if (!o) ctx_free(t);
    }
    break;
  OP_CASE: if (p_rx_group_by) o = p_rx_group_by(src, key_fn, CTX); break;
  /* a span of 0 to 3 ms or none, a count of 0 to 2 (both 0 refused), no scheduler now and then */
  OP_CASE: if (p_rx_window) o = p_rx_window(src, (c & 1) ? ns : 0, c % 3, (c & 2) ? sched : NULL); break;
  OP_CASE: if (p_rx_flat_map_first) o = p_rx_flat_map_first(src, flat_fn, CTX); break;
  OP_CASE: if (p_rx_rate_limit && sched) {
      /* n 0 to 2 and a window of 0 to 3 ms (0s refused); an unbounded queue, or every policy */
      if (c & 128) {
        o = p_rx_rate_limit(src, c % 3, ns, sched, NULL);
      } else {
        rx_flow_options fo = {sizeof fo, (size_t)(c % 4), (int32_t)(c / 4 % 6), 1000000, dropped_fn,
                              ctx_new(c % 8, 0), ctx_free};
        o = flow_checked(p_rx_rate_limit(src, c % 3, ns, sched, &fo), &fo);
      }
    }
    break;
  OP_CASE: {
    /* a stream of streams, for switch_latest / merge of inner observables */
    rx_value vs[2] = {rx_observable_value(src), rx_observable_value(srcs[1])};
    o = rx_of(vs, 2);
    rx_value_release(vs[0]);
    rx_value_release(vs[1]);
    break;
  }
  GENERATED_OPERATOR_CASES
  default: break;
  }
#undef CTX
  put_obs_costing(o, connectable, slot, cost);
}
enum { OP_CASE_END = __COUNTER__ };
static unsigned op_case_count(void) { return OP_CASE_END - OP_CASE_BASE; }

static void op_subscribe(Input *in) {
  uint8_t a = u8(in), slot = u8(in);
  rx_observable *o = get_obs(a);
  if (!o) return;
  if (obs_connectable[a % NOBS] && p_rx_connect && (slot & 1)) {
    put_sub(p_rx_connect(o), slot);
    return;
  }
  if (p_rx_drive && (slot & 2)) {
    /* rx_drive takes only observables made by rx_as_driver: anything else is RX_EHANDLE */
    rx_observer ob = rec_observer();
    rx_disposable *d = p_rx_drive(o, ob);
    if (!d) {
      if (!rx_last_error()[0]) FAILF("rx_drive refused without a message");
      atomic_store(&rec_list->disposed, 1); /* never subscribed: no callbacks at all */
    }
    put_sub(d, slot);
    return;
  }
  if (p_rx_emit && (slot & 4)) {
    /* rx_emit takes only observables made by rx_as_signal: anything else is RX_EHANDLE */
    rx_disposable *d = p_rx_emit(o, rec_observer());
    if (!d) {
      if (!rx_last_error()[0]) FAILF("rx_emit refused without a message");
      atomic_store(&rec_list->disposed, 1); /* never subscribed: no callbacks at all */
    }
    put_sub(d, slot);
    return;
  }
  if (slot & 8) {
    /* the trait subscribe functions take any observable and enforce their grammar */
    rx_observer ob = rec_observer();
    rx_disposable *d = NULL;
    switch ((slot >> 4) % 3) {
    case 0: if (p_rx_subscribe_single) d = p_rx_subscribe_single(o, ob.on_next, ob.on_error, ob.ctx, ob.on_disposed); break;
    case 1: if (p_rx_subscribe_maybe)
        d = p_rx_subscribe_maybe(o, ob.on_next, ob.on_error, ob.on_completed, ob.ctx, ob.on_disposed);
      break;
    default: if (p_rx_subscribe_completable)
        d = p_rx_subscribe_completable(o, ob.on_completed, ob.on_error, ob.ctx, ob.on_disposed);
      break;
    }
    if (!d) FAILF("a trait subscribe refused a live observable: %s", rx_last_error());
    put_sub(d, slot);
    return;
  }
  put_sub(rx_subscribe(o, rec_observer()), slot);
}

/* Blocking calls on this (the main) thread run the main loop while they wait. */
static void op_blocking(Input *in) {
  uint8_t a = u8(in), how = u8(in);
  rx_observable *o = get_obs(a);
  if (!o) return;
  rx_value out = rx_none();
  rx_error *err = NULL;
  rx_status s = RX_OK;
  int checks_err = 1; /* the calls below that always ask for the error */
  if ((how & 4) && p_rx_blocking_first) s = p_rx_blocking_first(o, 1000000, &out, &err);
  else if ((how & 8) && p_rx_blocking_single) s = p_rx_blocking_single(o, 1000000, &out, &err);
  else if ((how & 1) && p_rx_blocking_last) s = p_rx_blocking_last(o, 1000000, &out, &err);
  else if (p_rx_blocking_to_array) {
    checks_err = 0;
    s = p_rx_blocking_to_array(o, 1000000, &out, (how & 2) ? &err : NULL);
  } else return;
  if (s != RX_OK && out.kind != RX_NONE) FAILF("blocking call failed (%d) but set *out", s);
  if (s == RX_ESTREAM && checks_err && !err) FAILF("RX_ESTREAM without an error");
  if (s == RX_ETIMEOUT && err) FAILF("RX_ETIMEOUT with an error");
  rx_value_release(out);
  rx_release(err);
}

static void main_drain(void) {
  for (int i = 0; p_rx_main_drain && i < 100; i++)
    if (p_rx_main_drain() == 0) break;
}

static void op_main_drain(Input *in) {
  (void)in;
  main_drain();
}

static void op_dispose(Input *in) {
  uint8_t slot = u8(in) % NSUBS, how = u8(in);
  if (!subs[slot]) return;
  switch (how % 3) {
  case 0: rx_dispose(subs[slot]); break;
  case 1: /* a retained token: dispose twice, then release */
    rx_retain(subs[slot]);
    if (rx_dispose(subs[slot]) != RX_OK) FAILF("rx_dispose of a live token failed");
    if (!rx_disposable_is_disposed(subs[slot])) FAILF("disposed token not disposed");
    rx_dispose(subs[slot]);
    break;
  case 2: rx_dispose_bag_add(bag, subs[slot]); break;
  }
  subs[slot] = NULL;
}

static void op_release_obs(Input *in) {
  uint8_t slot = u8(in) % NOBS;
  rx_release(obs[slot]);
  obs[slot] = NULL;
}

static void op_subject_event(Input *in) {
  uint8_t slot = u8(in) % NSUBJ, what = u8(in);
  rx_subject *s = subj[slot];
  if (!s) return;
  switch (what % 8) {
  case 0: case 1: case 2: {
    rx_value v = make_value(what);
    if (p_rx_subject_on_next) p_rx_subject_on_next(s, v);
    rx_value_release(v);
    break;
  }
  case 3: if (p_rx_subject_on_completed) p_rx_subject_on_completed(s); break;
  case 4: if (p_rx_subject_on_error) {
      rx_error *e = make_error(5);
      p_rx_subject_on_error(s, e);
      rx_release(e);
    }
    break;
  case 5: if (p_rx_subject_dispose) p_rx_subject_dispose(s); break;
  case 6: if (p_rx_subject_value) {
      rx_value v = rx_none();
      rx_error *e = NULL;
      if (p_rx_subject_value(s, &v, &e) == RX_OK) rx_value_release(v);
      rx_release(e);
    }
    if (p_rx_subject_has_observers) p_rx_subject_has_observers(s);
    break;
  case 7: rx_release(s); subj[slot] = NULL; break;
  }
}

static void op_emitter(Input *in) {
  uint8_t slot = u8(in) % NEMIT, what = u8(in);
  rx_emitter *e = emitters[slot];
  if (!e) return;
  switch (what % 8) {
  case 0: case 1: rx_emitter_next(e, rx_int(what)); break;
  case 2: rx_emitter_completed(e); break;
  case 3: { rx_error *err = make_error(6); rx_emitter_error(e, err); rx_release(err); break; }
  case 4: rx_emitter_is_disposed(e); rx_release(e); emitters[slot] = NULL; break;
  }
}

typedef struct {
  rx_subject *subject;
  rx_emitter *emitter;
  int n;
} ThreadJob;

static void *emit_thread(void *arg) {
  ThreadJob *j = arg;
  for (int i = 0; i < j->n; i++) {
    if (j->subject) p_rx_subject_on_next(j->subject, rx_int(1000 + i));
    if (j->emitter) rx_emitter_next(j->emitter, rx_int(2000 + i));
  }
  return NULL;
}

/* Emits from a second thread while this one emits too; joined before the next step. */
static void op_two_threads(Input *in) {
  uint8_t s = u8(in) % NSUBJ, e = u8(in) % NEMIT, n = u8(in);
  ThreadJob job = {p_rx_subject_on_next ? subj[s] : NULL, emitters[e], 1 + n % 16};
  if (!job.subject && !job.emitter) return;
  pthread_t t;
  if (pthread_create(&t, NULL, emit_thread, &job)) return;
  emit_thread(&job);
  pthread_join(t, NULL);
}

static void op_scheduler(Input *in) {
  uint8_t what = u8(in), a = u8(in), slot = u8(in);
  if (!test_sched) return;
  switch (what % 8) {
  case 0: if (p_rx_test_scheduler_advance_by) p_rx_test_scheduler_advance_by(test_sched, 1000000 * (a % 8)); break;
  case 1: if (p_rx_test_scheduler_advance_to && p_rx_scheduler_now_ns)
      p_rx_test_scheduler_advance_to(test_sched, p_rx_scheduler_now_ns(test_sched) + 500000 * (a % 8));
    break;
  case 2:
    if ((a & 8) && p_rx_schedule_recursive && p_rx_recurse && p_rx_recurse_after)
      put_sub(p_rx_schedule_recursive(pick_scheduler(a), recursive_fn, ctx_new(a % 6, 0), ctx_free), slot);
    else if (p_rx_schedule)
      put_sub(p_rx_schedule(test_sched, action_fn, ctx_new(0, 0), ctx_free), slot);
    break;
  case 3: if (p_rx_schedule_after)
      put_sub(p_rx_schedule_after(test_sched, 1000000 * (a % 5), action_fn, ctx_new(0, 0), ctx_free), slot);
    break;
  case 4: if (p_rx_schedule_periodic)
      put_sub(p_rx_schedule_periodic(test_sched, 0, 1000000 * (1 + a % 3), action_fn, ctx_new(0, 0), ctx_free), slot);
    break;
  case 5: (void)rx_scheduler_is_serial(pick_scheduler(a)); break;
  case 6: /* main-scheduler work: op_main_drain (or the end of the program) runs it */
    if (p_rx_schedule) put_sub(p_rx_schedule(rx_scheduler_main(), action_fn, ctx_new(0, 0), ctx_free), slot);
    break;
  case 7:
    if (rx_main_fd() < 0) FAILF("rx_main_fd failed: %s", rx_last_error());
    if (a & 1) rx_main_stop(); /* ends the next run at once */
    if (rx_main_run_for(0) != RX_OK) FAILF("rx_main_run_for(0) failed: %s", rx_last_error());
    break;
  }
}

/* Misuse on purpose: every call must be rejected, with a message, and change nothing. */
static void op_misuse(Input *in) {
  uint8_t what = u8(in), a = u8(in);
  static uint64_t junk[16];
  for (int i = 0; i < 16; i++) junk[i] = 0x9E3779B97F4A7C15ull * (uint64_t)(a + i);
  void *wrong = obs[a % NOBS] ? (void *)obs[a % NOBS] : (void *)junk;
  rx_status s = RX_OK;
  const char *name = "";
  switch (what % 9) {
  case 0: name = "rx_dispose(observable)"; s = rx_dispose((rx_disposable *)wrong); break;
  case 1: name = "rx_subscribe(junk)";
    if (rx_subscribe((rx_observable *)junk, rec_observer()) != NULL) FAILF("rx_subscribe(junk) succeeded");
    s = RX_EHANDLE;
    /* that observer never gets a callback: mark it as finished for the end check */
    atomic_store(&rec_list->disposed, 1);
    break;
  case 2: name = "rx_emitter_next(observable)"; s = rx_emitter_next((rx_emitter *)wrong, rx_int(1)); break;
  case 3: name = "rx_dispose_bag_add(subscription-less)";
    s = rx_dispose_bag_add((rx_dispose_bag *)wrong, NULL);
    break;
  case 4: if (p_rx_subject_on_next) {
      name = "rx_subject_on_next(observable)";
      s = p_rx_subject_on_next((rx_subject *)wrong, rx_int(1));
    } else s = RX_EINVAL;
    break;
  case 5: if (p_rx_test_scheduler_run) {
      name = "rx_test_scheduler_run(immediate)";
      s = p_rx_scheduler_immediate ? p_rx_test_scheduler_run(p_rx_scheduler_immediate()) : RX_EINVAL;
    } else s = RX_EINVAL;
    break;
  case 6: { name = "rx_value_string(bad box)";
    rx_value v = {.kind = RX_STRING, .i = (int64_t)(intptr_t)junk};
    if (rx_value_string(v) != NULL) FAILF("rx_value_string(junk box) succeeded");
    s = RX_EINVAL;
    break;
  }
  case 7: name = "rx_retain(junk)";
    if (rx_retain(junk) != NULL) FAILF("rx_retain(junk) succeeded");
    s = RX_EHANDLE;
    break;
  case 8: if (p_rx_run_loop_run) {
      name = "rx_run_loop_run(observable)";
      s = p_rx_run_loop_run((rx_run_loop *)wrong);
    } else s = RX_EINVAL;
    break;
  }
  if (s != RX_EINVAL && s != RX_EHANDLE) FAILF("%s returned %d", name, s);
  if (!rx_last_error()[0]) FAILF("%s left rx_last_error() empty", name);
}

/* A run loop of its own, driven by this thread: work scheduled on it, driven or not, then
   released (what is still pending is dropped, its ctx freed). */
static void op_run_loop(Input *in) {
  uint8_t what = u8(in), a = u8(in);
  if (p_rx_run_loop_main) { /* shared: never NULL, retain and release are no-ops */
    rx_run_loop *main_loop = p_rx_run_loop_main();
    if (!main_loop) FAILF("rx_run_loop_main returned NULL");
    rx_release(rx_retain(main_loop));
  }
  if (!p_rx_run_loop_new || !p_rx_run_loop_scheduler || !p_rx_run_loop_fd || !p_rx_run_loop_drain ||
      !p_rx_run_loop_run || !p_rx_run_loop_run_for || !p_rx_run_loop_stop || !p_rx_schedule || !p_rx_schedule_after)
    return;
  rx_run_loop *loop = p_rx_run_loop_new();
  if (!loop) FAILF("rx_run_loop_new failed: %s", rx_last_error());
  rx_scheduler *s = p_rx_run_loop_scheduler(loop);
  if (!s || p_rx_run_loop_fd(loop) < 0) FAILF("a new run loop has no scheduler or fd");
  rx_disposable *d[4] = {0};
  int n = a % 5;
  for (int i = 0; i < n && i < 4; i++)
    d[i] = (what >> i) & 1 ? p_rx_schedule_after(s, 1000 * (a % 3), action_fn, ctx_new(0, 0), ctx_free)
                           : p_rx_schedule(s, action_fn, ctx_new(0, 0), ctx_free);
  switch ((what >> 4) % 4) {
  case 0: p_rx_run_loop_drain(loop); break;
  case 1: if (p_rx_run_loop_run_for(loop, (a & 1) ? 100000 : 0) != RX_OK) FAILF("rx_run_loop_run_for failed"); break;
  case 2: /* a stop first: run returns at once */
    p_rx_run_loop_stop(loop);
    if (p_rx_run_loop_run(loop) != RX_OK) FAILF("rx_run_loop_run after a stop failed");
    break;
  case 3: break; /* released with its work pending */
  }
  for (int i = 0; i < 4; i++)
    if (d[i]) { if (what & 0x40) rx_dispose(d[i]); else rx_release(d[i]); }
  rx_release(loop);
}

/* Disposable containers: a token moved from its slot into a composite, serial or
   single-assignment disposable, which takes the slot's place. */
static void op_containers(Input *in) {
  uint8_t what = u8(in), a = u8(in), slot = u8(in);
  rx_disposable *d = subs[a % NSUBS];
  subs[a % NSUBS] = NULL;
  rx_disposable *c = NULL;
  switch (what % 3) {
  case 0:
    c = rx_composite_disposable_new();
    if (d && rx_composite_disposable_add(c, d) != RX_OK) FAILF("composite add failed: %s", rx_last_error());
    break;
  case 1:
    c = rx_serial_disposable_new();
    if (d && rx_serial_disposable_set(c, d) != RX_OK) FAILF("serial set failed: %s", rx_last_error());
    break;
  case 2:
    c = rx_single_assignment_disposable_new();
    if (d && rx_single_assignment_disposable_set(c, d) != RX_OK) FAILF("single-assignment set failed: %s", rx_last_error());
    if (rx_single_assignment_disposable_set(c, NULL) == RX_OK) FAILF("single-assignment set NULL succeeded");
    break;
  }
  put_sub(c, slot);
}

static void op_bag(Input *in) {
  (void)in;
  rx_dispose_bag_drain(bag);
}

static void op_retain_release(Input *in) {
  uint8_t slot = u8(in);
  rx_observable *o = get_obs(slot);
  if (o) rx_release(rx_retain(o));
}

typedef void (*OpFn)(Input *);
static const OpFn ops[] = {op_source, op_source, op_subject, op_operator, op_operator,
                           op_operator, op_subscribe, op_subscribe, op_dispose, op_release_obs,
                           op_subject_event, op_subject_event, op_emitter, op_two_threads,
                           op_scheduler, op_misuse, op_bag, op_retain_release, op_blocking,
                           op_main_drain, op_run_loop, op_containers};
#define NOPS (sizeof ops / sizeof ops[0])

/* ------------------------------------------------------------------ the target */

static int64_t live_at_start;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  OPTIONAL_API(LOAD)
  debug_out = fopen("/dev/null", "w");
  /* The shared schedulers count from their first use: use them before the baseline. */
  if (p_rx_scheduler_immediate) p_rx_scheduler_immediate();
  if (p_rx_scheduler_current_thread) p_rx_scheduler_current_thread();
  return 0;
}

static void check_and_free_records(void) {
  static int trace = -1;
  if (trace < 0) trace = getenv("FUZZ_API_TRACE") != NULL;
  for (Rec *r = rec_list, *next; r; r = next) {
    next = r->next;
    if (trace)
      fprintf(stderr, "observer: %d next, %d terminal, %d disposed\n", atomic_load(&r->nexts),
              atomic_load(&r->terminals), atomic_load(&r->disposed));
    if (atomic_load(&r->disposed) != 1)
      FAILF("an observer got on_disposed %d times (nexts %d, terminals %d)",
            atomic_load(&r->disposed), atomic_load(&r->nexts), atomic_load(&r->terminals));
    if (atomic_load(&r->terminals) > 1) FAILF("an observer got %d terminal events", atomic_load(&r->terminals));
    free(r);
  }
  rec_list = NULL;
  for (Ctx *c = ctx_list, *next; c; c = next) {
    next = c->next;
    if (atomic_load(&c->freed) != 1) FAILF("ctx_free ran %d times for one ctx (param %d)", atomic_load(&c->freed), c->param);
    free(c);
  }
  ctx_list = NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Input in = {data, size};
  live_at_start = rx_debug_live_objects();
  test_sched = p_rx_test_scheduler_new ? p_rx_test_scheduler_new() : NULL;
  bag = rx_dispose_bag_new();
  int steps = 0;
  while (in.n && steps++ < 256) ops[u8(&in) % NOPS](&in);

  /* Tear down: subscriptions first, then what feeds them, then let scheduled work drain. */
  for (int i = 0; i < NSUBS; i++) {
    if (subs[i]) rx_dispose(subs[i]);
    subs[i] = NULL;
  }
  rx_release(bag);
  bag = NULL;
  for (int i = 0; i < NEMIT; i++) {
    rx_release(emitters[i]);
    emitters[i] = NULL;
  }
  for (int i = 0; i < NOBS; i++) {
    rx_release(obs[i]);
    obs[i] = NULL;
    obs_connectable[i] = 0;
    obs_cost[i] = 0;
  }
  for (int i = 0; i < NSUBJ; i++) {
    rx_release(subj[i]);
    subj[i] = NULL;
  }
  main_drain();
  if (test_sched) {
    if (p_rx_test_scheduler_run && p_rx_test_scheduler_run(test_sched) != RX_OK)
      FAILF("rx_test_scheduler_run failed: %s", rx_last_error());
    rx_release(test_sched);
    test_sched = NULL;
  }
  main_drain();
  check_and_free_records();
  int64_t live = rx_debug_live_objects();
  if (live != live_at_start)
    FAILF("rx_debug_live_objects() is %lld after the program, %lld before",
          (long long)live, (long long)live_at_start);
  return 0;
}
