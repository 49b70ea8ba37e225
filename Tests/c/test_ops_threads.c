/* Operators under concurrency: several threads push into the sources of one operator while
 * another switches, completes or disposes. Each subscriber checks the observer contract:
 * callbacks never overlap, at most one terminal event, on_disposed exactly once and last,
 * nothing after it; and every object is freed at the end. */
#include <pthread.h>
#include <stdatomic.h>

#include "ops_support.h"

typedef struct checker {
  atomic_int inside, overlaps, after_end, terminals, disposed;
  atomic_llong nexts;
} checker;

static void chk_enter(checker *c) {
  if (atomic_fetch_add(&c->inside, 1) != 0) atomic_fetch_add(&c->overlaps, 1);
  if (atomic_load(&c->disposed)) atomic_fetch_add(&c->after_end, 1);
}
static void chk_leave(checker *c) { atomic_fetch_sub(&c->inside, 1); }
static void chk_next(void *ctx, rx_value v) {
  checker *c = ctx;
  chk_enter(c);
  atomic_fetch_add(&c->nexts, 1);
  chk_leave(c);
}
static void chk_error(void *ctx, const rx_error *e) {
  checker *c = ctx;
  chk_enter(c);
  atomic_fetch_add(&c->terminals, 1);
  chk_leave(c);
}
static void chk_completed(void *ctx) {
  checker *c = ctx;
  chk_enter(c);
  atomic_fetch_add(&c->terminals, 1);
  chk_leave(c);
}
static void chk_disposed(void *ctx) {
  checker *c = ctx;
  chk_enter(c);
  atomic_fetch_add(&c->disposed, 1);
  chk_leave(c);
}
static rx_observer chk_observer(checker *c) {
  memset(c, 0, sizeof *c);
  rx_observer o = {chk_next, chk_error, chk_completed, chk_disposed, c};
  return o;
}
static void chk_verify(checker *c) {
  CHECK_EQ(atomic_load(&c->overlaps), 0);
  CHECK_EQ(atomic_load(&c->after_end), 0);
  CHECK(atomic_load(&c->terminals) <= 1);
  CHECK_EQ(atomic_load(&c->disposed), 1);
}

typedef struct pusher {
  rx_subject *s;
  int n;
  bool complete;
} pusher;
static void *push(void *arg) {
  pusher *p = arg;
  for (int i = 0; i < p->n; i++) rx_subject_on_next(p->s, rx_int(i));
  if (p->complete) rx_subject_on_completed(p->s);
  return NULL;
}

enum { K = 4 };

typedef struct subjects {
  rx_subject *s[K];
} subjects;
static rx_observable *to_subject(void *ctx, rx_value v, rx_error **err) {
  subjects *t = ctx;
  return rx_retain(rx_subject_as_observable(t->s[v.i % K]));
}

static void run_inner_storm(rx_observable *(*op)(rx_observable *, rx_flat_map_fn, void *, rx_free_fn),
                            bool dispose_early) {
  int n = (int)rxtest_scale(20000, 20);
  rx_subject *outer = rx_publish_subject_new();
  subjects t;
  for (int i = 0; i < K; i++) t.s[i] = rx_publish_subject_new();
  rx_observable *o = op(rx_subject_as_observable(outer), to_subject, &t, NULL);
  checker c;
  rx_disposable *d = rx_subscribe(o, chk_observer(&c));
  for (int i = 0; i < K; i++) rx_subject_on_next(outer, rx_int(i));
  pthread_t th[K + 1];
  pusher p[K];
  for (int i = 0; i < K; i++) {
    p[i] = (pusher){t.s[i], n, !dispose_early};
    pthread_create(&th[i], NULL, push, &p[i]);
  }
  pusher switcher = {outer, 16, false}; /* flat_map keeps every inner: keep them few */
  pthread_create(&th[K], NULL, push, &switcher);
  if (dispose_early) {
    rxtest_sleep_ms(2);
    rx_dispose(d);
    d = NULL;
  }
  for (int i = 0; i <= K; i++) pthread_join(th[i], NULL);
  rx_subject_on_completed(outer);
  if (d) rx_dispose(d);
  chk_verify(&c);
  rx_release(o), rx_release(outer);
  for (int i = 0; i < K; i++) rx_release(t.s[i]);
}

RX_TEST(threads_flat_map_inner_storm) { run_inner_storm(rx_flat_map, false); }
RX_TEST(threads_flat_map_inner_storm_disposed) { run_inner_storm(rx_flat_map, true); }
RX_TEST(threads_flat_map_latest_inner_storm) { run_inner_storm(rx_flat_map_latest, false); }
RX_TEST(threads_flat_map_latest_inner_storm_disposed) { run_inner_storm(rx_flat_map_latest, true); }
RX_TEST(threads_concat_map_inner_storm) { run_inner_storm(rx_concat_map, false); }
RX_TEST(threads_concat_map_inner_storm_disposed) { run_inner_storm(rx_concat_map, true); }

RX_TEST(threads_flat_map_all_complete_gives_one_completion) {
  int n = (int)rxtest_scale(20000, 20);
  rx_subject *outer = rx_publish_subject_new();
  subjects t;
  for (int i = 0; i < K; i++) t.s[i] = rx_publish_subject_new();
  rx_observable *o = rx_flat_map(rx_subject_as_observable(outer), to_subject, &t, NULL);
  checker c;
  rx_disposable *d = rx_subscribe(o, chk_observer(&c));
  for (int i = 0; i < K; i++) rx_subject_on_next(outer, rx_int(i));
  rx_subject_on_completed(outer);
  pthread_t th[K];
  pusher p[K];
  for (int i = 0; i < K; i++) {
    p[i] = (pusher){t.s[i], n, true};
    pthread_create(&th[i], NULL, push, &p[i]);
  }
  for (int i = 0; i < K; i++) pthread_join(th[i], NULL);
  CHECK_EQ(atomic_load(&c.nexts), (int64_t)K * n);
  CHECK_EQ(atomic_load(&c.terminals), 1);
  chk_verify(&c);
  rx_dispose(d);
  rx_release(o), rx_release(outer);
  for (int i = 0; i < K; i++) rx_release(t.s[i]);
}

/* Multi-source operators: K threads push into K sources (each completes), the main thread
 * disposes in the middle or waits for the end. */
typedef rx_observable *(*multi_op)(rx_observable *const *, size_t);
static rx_observable *op_merge(rx_observable *const *s, size_t n) { return rx_merge(s, n); }
static rx_observable *op_amb(rx_observable *const *s, size_t n) { return rx_amb(s, n); }
static rx_observable *op_zip(rx_observable *const *s, size_t n) { return rx_zip(s, n, NULL, NULL, NULL); }
static rx_observable *op_combine(rx_observable *const *s, size_t n) {
  return rx_combine_latest(s, n, NULL, NULL, NULL);
}
static rx_observable *op_with_latest(rx_observable *const *s, size_t n) {
  return rx_with_latest_from(s[0], s[1], NULL, NULL, NULL);
}
static rx_observable *op_take_until(rx_observable *const *s, size_t n) { return rx_take_until(s[0], s[1]); }
static rx_observable *op_skip_until(rx_observable *const *s, size_t n) { return rx_skip_until(s[0], s[1]); }

static void run_multi(multi_op make, bool dispose_early) {
  int n = (int)rxtest_scale(20000, 20);
  rx_subject *s[K];
  rx_observable *srcs[K];
  for (int i = 0; i < K; i++) {
    s[i] = rx_publish_subject_new();
    srcs[i] = rx_subject_as_observable(s[i]);
  }
  rx_observable *o = make(srcs, K);
  checker c;
  rx_disposable *d = rx_subscribe(o, chk_observer(&c));
  pthread_t th[K];
  pusher p[K];
  for (int i = 0; i < K; i++) {
    p[i] = (pusher){s[i], n, true};
    pthread_create(&th[i], NULL, push, &p[i]);
  }
  if (dispose_early) {
    rxtest_sleep_ms(1);
    rx_dispose(d);
    d = NULL;
  }
  for (int i = 0; i < K; i++) pthread_join(th[i], NULL);
  if (d) {
    CHECK_EQ(atomic_load(&c.terminals), 1);
    rx_dispose(d);
  }
  chk_verify(&c);
  rx_release(o);
  for (int i = 0; i < K; i++) rx_release(s[i]);
}

RX_TEST(threads_merge) { run_multi(op_merge, false); }
RX_TEST(threads_merge_disposed) { run_multi(op_merge, true); }
RX_TEST(threads_amb) { run_multi(op_amb, false); }
RX_TEST(threads_amb_disposed) { run_multi(op_amb, true); }
RX_TEST(threads_zip) { run_multi(op_zip, false); }
RX_TEST(threads_zip_disposed) { run_multi(op_zip, true); }
RX_TEST(threads_combine_latest) { run_multi(op_combine, false); }
RX_TEST(threads_combine_latest_disposed) { run_multi(op_combine, true); }
RX_TEST(threads_with_latest_from) { run_multi(op_with_latest, false); }
RX_TEST(threads_with_latest_from_disposed) { run_multi(op_with_latest, true); }
RX_TEST(threads_take_until) { run_multi(op_take_until, false); }
RX_TEST(threads_skip_until_disposed) { run_multi(op_skip_until, true); }
