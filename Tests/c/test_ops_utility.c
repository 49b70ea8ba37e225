/* Utility operators through the C ABI: do, materialize, dematerialize. Cases follow
 * RxSwift's Observable+DoOn, +Materialize and +Dematerialize tests, plus rxc.h's
 * rules for the tap: its callbacks run before the subscriber's, on_disposed included, for
 * every subscription, and ctx_free(tap.ctx) runs once at the very end. */
#include "ops_support.h"

/* The tap writes into the subscriber's log, so the order of both is visible. */
typedef struct tap_ctx {
  rec *log;
  int nexts, errors, completed, disposed, freed;
} tap_ctx;
static void tap_next(void *ctx, rx_value v) {
  tap_ctx *t = ctx;
  char b[64];
  snprintf(b, sizeof b, "t%lld", (long long)v.i);
  t->nexts++;
  if (t->log) rec_append(t->log, b);
}
static void tap_error(void *ctx, const rx_error *e) {
  tap_ctx *t = ctx;
  char b[64];
  snprintf(b, sizeof b, "t#%d", (int)rx_error_code(e));
  t->errors++;
  if (t->log) rec_append(t->log, b);
}
static void tap_completed(void *ctx) {
  tap_ctx *t = ctx;
  t->completed++;
  if (t->log) rec_append(t->log, "t|");
}
static void tap_disposed(void *ctx) {
  tap_ctx *t = ctx;
  t->disposed++;
  if (t->log) rec_append(t->log, "t.");
}
static void tap_free(void *ctx) { ((tap_ctx *)ctx)->freed++; }
static rx_observer tap_of(tap_ctx *t) {
  rx_observer o = {tap_next, tap_error, tap_completed, tap_disposed, t};
  return o;
}

RX_TEST(do_tap_runs_before_subscriber_on_completion) {
  rec r;
  tap_ctx t = {&r, 0, 0, 0, 0, 0};
  rx_observable *o = rx_do(INTS(1, 2), tap_of(&t), tap_free);
  rx_observer obs = rec_observer(&r);
  rx_disposable *d = rx_subscribe(o, obs);
  CHECK_STR(r.log, "t1 1 t2 2 t| t. |.");
  CHECK_EQ(t.disposed, 1);
  rx_dispose(d);
  CHECK_EQ(t.disposed, 1);
  CHECK_EQ(t.freed, 0);
  rx_release(o);
  CHECK_EQ(t.freed, 1);
  pool_drain();
}

RX_TEST(do_tap_on_error) {
  rec r;
  tap_ctx t = {&r, 0, 0, 0, 0, 0};
  rx_observable *o = rx_do(INTS_THEN_ERROR(), tap_of(&t), tap_free);
  rx_disposable *d = rx_subscribe(o, rec_observer(&r));
  CHECK_STR(r.log, "t1 1 t#1000 t. #1000(boom).");
  rx_dispose(d);
  rx_release(o);
  pool_drain();
  CHECK_EQ(t.freed, 1);
}

RX_TEST(do_tap_on_disposed_runs_before_subscribers_on_dispose) {
  hot h;
  rec r;
  tap_ctx t = {&r, 0, 0, 0, 0, 0};
  rx_observable *src = hot_new(&h);
  rx_observable *o = rx_do(src, tap_of(&t), tap_free);
  rx_disposable *d = rx_subscribe(o, rec_observer(&r));
  hot_next(&h, 1);
  rx_dispose(d);
  hot_next(&h, 2);
  CHECK_STR(r.log, "t1 1 t..");
  CHECK_EQ(t.disposed, 1);
  CHECK_EQ(h.disposed, 1);
  hot_end(&h);
  rx_release(src);
  rx_release(o);
  CHECK_EQ(t.freed, 1);
}

RX_TEST(do_tap_per_subscription_and_ctx_free_once) {
  hot h;
  tap_ctx t = {NULL, 0, 0, 0, 0, 0};
  rx_observable *src = hot_new(&h);
  rx_observable *o = rx_do(src, tap_of(&t), tap_free);
  rec r1, r2;
  rx_disposable *d1 = rx_subscribe(o, rec_observer(&r1));
  rx_disposable *d2 = rx_subscribe(o, rec_observer(&r2));
  rx_release(o); /* the subscriptions keep the tap's context alive */
  hot_next(&h, 1); /* the hot helper keeps the last subscriber's emitter */
  CHECK_EQ(t.nexts, 1);
  rx_dispose(d1);
  CHECK_EQ(t.disposed, 1);
  CHECK_EQ(t.freed, 0);
  hot_completed(&h);
  CHECK_EQ(t.completed, 1);
  CHECK_EQ(t.disposed, 2);
  CHECK_STR(r2.log, "1 |.");
  rx_dispose(d2);
  CHECK_EQ(t.disposed, 2);
  hot_end(&h);
  rx_release(src);
  CHECK_EQ(t.freed, 1);
}

RX_TEST(do_null_callbacks_and_bad_input) {
  rx_observer none = {NULL, NULL, NULL, NULL, NULL};
  CHECK_STR(run_log(rx_do(INTS(1), none, NULL)), "1 |.");
  tap_ctx t = {NULL, 0, 0, 0, 0, 0};
  CHECK(rx_do(NULL, tap_of(&t), tap_free) == NULL);
  CHECK(strstr(rx_last_error(), "rx_do") != NULL);
  CHECK_EQ(t.freed, 0);
}

/* ---- materialize / dematerialize ---- */
RX_TEST(materialize_cases) {
  CHECK_STR(run_log(rx_materialize(INTS(1, 2))), "N(1) N(2) C |.");
  CHECK_STR(run_log(rx_materialize(INTS_THEN_ERROR())), "N(1) E(1000) |.");
  CHECK_STR(run_log(rx_materialize(EMPTY())), "C |.");
  CHECK_STR(run_log(rx_materialize(NEVER())), ".");
  CHECK(rx_materialize(NULL) == NULL);
}

static void keep_first(void *ctx, rx_value v) {
  rx_value *slot = ctx;
  if (slot->kind == RX_NONE) *slot = rx_value_retain(v);
}

RX_TEST(materialize_error_event_carries_the_error) {
  rx_value ev = rx_none();
  rx_observable *o = rx_materialize(A(rx_first(EMPTY())));
  rx_observer obs = {keep_first, NULL, NULL, NULL, &ev};
  rx_dispose(rx_subscribe(o, obs));
  CHECK_EQ(rx_value_event_kind(ev), RX_EVENT_ERROR);
  const rx_error *e = rx_value_event_error(ev);
  CHECK(e != NULL);
  CHECK_EQ(rx_error_code(e), RX_ERROR_NO_ELEMENTS);
  rx_value_release(ev);
  rx_release(o);
  pool_drain();
}

/* The operators that box each element refill the box they sent last only when the
   subscriber kept no reference to it: a box kept (retained) still holds its own element. */
typedef struct {
  rx_value kept[4];
  int count;
} keeper;

static void keep_all(void *ctx, rx_value v) {
  keeper *k = ctx;
  if (k->count < 4) k->kept[k->count++] = rx_value_retain(v);
}

/* Runs o to its end with on_next keeping values in k; releases o. */
static void run_keeping(rx_observable *o, void (*on_next)(void *, rx_value), keeper *k) {
  rx_observer obs = {on_next, NULL, NULL, NULL, k};
  rx_dispose(rx_subscribe(o, obs));
  rx_release(o);
  pool_drain();
}

RX_TEST(materialize_boxes_kept_by_the_subscriber_keep_their_event) {
  keeper k = {.count = 0};
  run_keeping(rx_materialize(INTS(1, 2, 3)), keep_all, &k);
  CHECK_EQ(k.count, 4);
  for (int i = 0; i < 3; i++) {
    CHECK_EQ(rx_value_event_kind(k.kept[i]), RX_EVENT_NEXT);
    CHECK_EQ(rx_value_int(rx_value_event_value(k.kept[i])), i + 1);
  }
  CHECK_EQ(rx_value_event_kind(k.kept[3]), RX_EVENT_COMPLETED);
  for (int i = 0; i < 4; i++) rx_value_release(k.kept[i]);
}

RX_TEST(enumerated_boxes_kept_by_the_subscriber_keep_their_pair) {
  keeper k = {.count = 0};
  run_keeping(rx_enumerated(INTS(10, 20, 30)), keep_all, &k);
  CHECK_EQ(k.count, 3);
  for (int i = 0; i < 3; i++) {
    CHECK_EQ(rx_array_count(k.kept[i]), 2u);
    CHECK_EQ(rx_value_int(rx_array_get(k.kept[i], 0)), i);
    CHECK_EQ(rx_value_int(rx_array_get(k.kept[i], 1)), 10 * (i + 1));
  }
  for (int i = 0; i < 3; i++) rx_value_release(k.kept[i]);
}

/* Kept every other element: the boxes not kept are refilled, the kept ones are not. */
static void keep_odd_index(void *ctx, rx_value v) {
  keeper *k = ctx;
  if (rx_value_int(rx_array_get(v, 0)) % 2 == 1 && k->count < 4) k->kept[k->count++] = rx_value_retain(v);
}

RX_TEST(enumerated_refills_only_boxes_nobody_kept) {
  keeper k = {.count = 0};
  run_keeping(rx_enumerated(INTS(10, 20, 30, 40, 50)), keep_odd_index, &k);
  CHECK_EQ(k.count, 2);
  CHECK_EQ(rx_value_int(rx_array_get(k.kept[0], 0)), 1);
  CHECK_EQ(rx_value_int(rx_array_get(k.kept[0], 1)), 20);
  CHECK_EQ(rx_value_int(rx_array_get(k.kept[1], 0)), 3);
  CHECK_EQ(rx_value_int(rx_array_get(k.kept[1], 1)), 40);
  for (int i = 0; i < 2; i++) rx_value_release(k.kept[i]);
}

/* rx_timestamp packs like rx_enumerated (the clock's time in place of the index): a pair the
 * subscriber kept keeps its time and element; the others' box is refilled. */
static void keep_twenty_and_forty(void *ctx, rx_value v) {
  keeper *k = ctx;
  int64_t e = rx_value_int(rx_array_get(v, 1));
  if ((e == 20 || e == 40) && k->count < 4) k->kept[k->count++] = rx_value_retain(v);
}

RX_TEST(timestamp_refills_only_boxes_nobody_kept) {
  int64_t live = rx_debug_live_objects();
  keeper k = {.count = 0};
  int64_t before = rx_scheduler_now_ns(rx_scheduler_immediate());
  run_keeping(rx_timestamp(INTS(10, 20, 30, 40, 50), rx_scheduler_immediate()), keep_twenty_and_forty, &k);
  int64_t after = rx_scheduler_now_ns(rx_scheduler_immediate());
  CHECK_EQ(k.count, 2);
  CHECK_EQ(rx_value_int(rx_array_get(k.kept[0], 1)), 20);
  CHECK_EQ(rx_value_int(rx_array_get(k.kept[1], 1)), 40);
  int64_t t0 = rx_value_int(rx_array_get(k.kept[0], 0)), t1 = rx_value_int(rx_array_get(k.kept[1], 0));
  CHECK(before <= t0 && t0 <= t1 && t1 <= after);
  for (int i = 0; i < 2; i++) rx_value_release(k.kept[i]);
  CHECK_EQ(rx_debug_live_objects(), live);
}

RX_TEST(dematerialize_round_trip) {
  CHECK_STR(run_log(rx_dematerialize(A(rx_materialize(INTS(1, 2))))), "1 2 |.");
  CHECK_STR(run_log(rx_dematerialize(A(rx_materialize(INTS_THEN_ERROR())))), "1 #1000(boom).");
  CHECK_STR(run_log(rx_dematerialize(A(rx_materialize(EMPTY())))), "|.");
  CHECK_STR(run_log(rx_dematerialize(THROW_BOOM())), "#1000(boom).");
}

RX_TEST(dematerialize_non_event_fails_with_type) {
  rec r;
  rx_observable *o = rx_dematerialize(INTS(1));
  rx_disposable *d = rx_subscribe(o, rec_observer(&r));
  CHECK_EQ(r.error_code, RX_ERROR_TYPE);
  rx_dispose(d);
  rx_release(o);
  pool_drain();
}

RX_TEST(dematerialize_dispose_in_the_middle) {
  hot h;
  rx_observable *src = hot_new(&h);
  rx_observable *m = rx_materialize(src);
  rx_observable *o = rx_dematerialize(m);
  rec r;
  rx_disposable *d = rx_subscribe(o, rec_observer(&r));
  hot_next(&h, 1);
  rx_dispose(d);
  hot_next(&h, 2);
  CHECK_STR(r.log, "1.");
  CHECK_EQ(h.disposed, 1);
  hot_end(&h);
  rx_release(o), rx_release(m), rx_release(src);
}

/* A subscriber that emits into its own source from inside a delivery: the box it is reading
   (lent to it, unretained) still holds its own event when that call returns, and every event
   arrives in order. */
typedef struct {
  rx_emitter *emitter;
  int64_t seen[4];
  int count;
  bool intact;
} reentrant_log;

static rx_disposable *keep_emitter(void *ctx, rx_emitter *e) {
  reentrant_log *l = ctx;
  l->emitter = e;
  rx_emitter_next(e, RX_INT(1));
  rx_emitter_completed(e);
  return NULL;
}

static void log_and_reenter(void *ctx, rx_value v) {
  reentrant_log *l = ctx;
  rx_value inner = rx_value_event_kind(v) == RX_EVENT_NEXT ? rx_value_event_value(v) : rx_int(-1);
  if (l->count < 4) l->seen[l->count++] = inner.i;
  if (inner.i == 1) {
    rx_emitter_next(l->emitter, RX_INT(2)); /* delivered after this call returns */
    l->intact = rx_value_event_kind(v) == RX_EVENT_NEXT && rx_value_event_value(v).i == 1;
  }
}

RX_TEST(materialize_reentrant_emit_leaves_the_lent_box_alone) {
  reentrant_log l = {0};
  rx_observable *src = rx_create(keep_emitter, &l, NULL);
  rx_observable *o = rx_materialize(src);
  rx_observer obs = {log_and_reenter, NULL, NULL, NULL, &l};
  rx_dispose(rx_subscribe(o, obs));
  CHECK(l.intact);
  CHECK_EQ(l.count, 3); /* N(1), N(2), C */
  CHECK_EQ(l.seen[0], 1);
  CHECK_EQ(l.seen[1], 2);
  CHECK_EQ(l.seen[2], -1);
  rx_release(o);
  rx_release(src);
}

/* rx_buffer refills the array it sent last, storage and all, only when the subscriber kept
   no reference to it: the kept buffers hold their own elements. */
static void keep_buffers_starting_odd(void *ctx, rx_value v) {
  keeper *k = ctx;
  if (rx_value_int(rx_array_get(v, 0)) % 4 == 1 && k->count < 4) k->kept[k->count++] = rx_value_retain(v);
}

RX_TEST(buffer_refills_only_arrays_nobody_kept) {
  keeper k = {.count = 0};
  run_keeping(rx_buffer(INTS(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 0, 2, NULL), keep_buffers_starting_odd, &k);
  CHECK_EQ(k.count, 3); /* [1,2] [5,6] [9,10] */
  for (int i = 0; i < 3; i++) {
    CHECK_EQ(rx_array_count(k.kept[i]), 2u);
    CHECK_EQ(rx_value_int(rx_array_get(k.kept[i], 0)), 4 * i + 1);
    CHECK_EQ(rx_value_int(rx_array_get(k.kept[i], 1)), 4 * i + 2);
  }
  for (int i = 0; i < 3; i++) rx_value_release(k.kept[i]);
}
