/* Operators over subjects (hot sources shared by several subscriptions): a disposed subject
 * drops its observers, and operators pass that on as on_disposed without an event;
 * re-entrant and multi-threaded pushes stay serialized. */
#include "ops_support.h"
#include <pthread.h>
#include <stdatomic.h>

static rx_value times10(void *ctx, rx_value v, rx_error **err) { return rx_int(v.i * 10); }

RX_TEST(subject_disposed_reaches_subscriber_through_map) {
  rx_subject *s = rx_publish_subject_new();
  counter c = {0};
  rx_observable *m = rx_map(rx_subject_as_observable(s), times10, &c, counter_free);
  rec r;
  rx_disposable *d = rx_subscribe(m, rec_observer(&r));
  rx_subject_on_next(s, rx_int(1));
  rx_subject_dispose(s);
  CHECK_STR(r.log, "10.");
  CHECK_EQ(r.disposed, 1);
  rx_dispose(d);
  CHECK_EQ(r.disposed, 1);
  rx_release(m);
  rx_release(s);
  CHECK_EQ(c.freed, 1);
}

RX_TEST(merge_continues_after_one_subject_is_disposed) {
  rx_subject *a = rx_publish_subject_new(), *b = rx_publish_subject_new();
  rx_observable *srcs[] = {rx_subject_as_observable(a), rx_subject_as_observable(b)};
  rx_observable *m = rx_merge(srcs, 2);
  rec r;
  rx_disposable *d = rx_subscribe(m, rec_observer(&r));
  rx_subject_on_next(a, rx_int(1));
  rx_subject_dispose(a);
  rx_subject_on_next(b, rx_int(2));
  rx_subject_on_completed(b);
  /* a dropped the merge without completing: as in RxSwift, the merge never completes */
  CHECK_STR(r.log, "1 2");
  rx_dispose(d);
  CHECK_STR(r.log, "1 2.");
  rx_release(m), rx_release(a), rx_release(b);
}

RX_TEST(combine_latest_of_one_subject_twice) {
  rx_subject *s = rx_publish_subject_new();
  rx_observable *o = rx_subject_as_observable(s);
  rx_observable *srcs[] = {o, o};
  rx_observable *c = rx_combine_latest(srcs, 2, NULL, NULL, NULL);
  rec r;
  rx_disposable *d = rx_subscribe(c, rec_observer(&r));
  rx_subject_on_next(s, rx_int(1));
  rx_subject_on_next(s, rx_int(2));
  rx_subject_on_completed(s);
  CHECK_STR(r.log, "[1,1] [2,1] [2,2] |.");
  rx_dispose(d);
  rx_release(c), rx_release(s);
}

typedef struct feedback {
  rec r; /* first: the recorder callbacks share the ctx */
  rx_subject *s;
} feedback;
static void feedback_next(void *ctx, rx_value v) {
  feedback *f = ctx;
  rec_next(&f->r, v);
  if (v.i < 5) rx_subject_on_next(f->s, rx_int(v.i + 1)); /* re-entrant push */
}

RX_TEST(take_with_reentrant_subject_pushes) {
  feedback f;
  memset(&f, 0, sizeof f);
  f.s = rx_publish_subject_new();
  rx_observable *t = rx_take(rx_subject_as_observable(f.s), 3);
  rx_observer o = rec_observer(&f.r);
  o.on_next = feedback_next;
  o.ctx = &f;
  rx_disposable *d = rx_subscribe(t, o);
  rx_subject_on_next(f.s, rx_int(1));
  CHECK_STR(f.r.log, "1 2 3 |.");
  rx_dispose(d);
  rx_release(t), rx_release(f.s);
}

typedef struct tap_log {
  rec *r;
  int disposed, freed;
} tap_log;
static void tap_disposed(void *ctx) {
  tap_log *t = ctx;
  t->disposed++;
  if (t->r) rec_append(t->r, "t.");
}
static void tap_free(void *ctx) { ((tap_log *)ctx)->freed++; }

RX_TEST(do_tap_hears_a_subject_drop_before_the_subscriber) {
  rx_subject *s = rx_publish_subject_new();
  rec r;
  rx_observer obs = rec_observer(&r);
  tap_log t = {&r, 0, 0};
  rx_observer tap = {NULL, NULL, NULL, tap_disposed, &t};
  rx_observable *o = rx_do(rx_subject_as_observable(s), tap, tap_free);
  rx_disposable *d = rx_subscribe(o, obs);
  rx_subject_on_next(s, rx_int(1));
  rx_subject_dispose(s);
  CHECK_STR(r.log, "1 t..");
  rx_dispose(d);
  CHECK_EQ(t.disposed, 1);
  rx_release(o), rx_release(s);
  CHECK_EQ(t.freed, 1);
}

RX_TEST(switch_latest_over_subjects) {
  rx_subject *outer = rx_publish_subject_new(), *x = rx_publish_subject_new(), *y = rx_publish_subject_new();
  rx_observable *sw = rx_switch_latest(rx_subject_as_observable(outer));
  rec r;
  rx_disposable *d = rx_subscribe(sw, rec_observer(&r));
  rx_value vx = rx_observable_value(rx_subject_as_observable(x));
  rx_value vy = rx_observable_value(rx_subject_as_observable(y));
  rx_subject_on_next(outer, vx);
  rx_subject_on_next(x, rx_int(1));
  rx_subject_on_next(outer, vy);
  CHECK(!rx_subject_has_observers(x));
  rx_subject_on_next(x, rx_int(2));
  rx_subject_on_next(y, rx_int(3));
  rx_subject_on_completed(outer);
  rx_subject_on_completed(y);
  CHECK_STR(r.log, "1 3 |.");
  rx_dispose(d);
  rx_value_release(vx), rx_value_release(vy);
  rx_release(sw), rx_release(outer), rx_release(x), rx_release(y);
}

/* Two threads push into the two sources of a zip: pairs stay aligned and callbacks never
 * overlap. */
typedef struct zpar {
  atomic_int inside, overlaps;
  int64_t pairs, bad;
} zpar;
static void zpar_next(void *ctx, rx_value v) {
  zpar *z = ctx;
  if (atomic_fetch_add(&z->inside, 1) != 0) atomic_fetch_add(&z->overlaps, 1);
  z->pairs++;
  if (rx_array_get(v, 0).i != rx_array_get(v, 1).i) z->bad++;
  atomic_fetch_sub(&z->inside, 1);
}
static void *push_many(void *arg) {
  rx_subject *s = arg;
  for (int i = 0; i < 20000; i++) rx_subject_on_next(s, rx_int(i));
  return NULL;
}

RX_TEST(zip_of_subjects_fed_from_two_threads) {
  rx_subject *a = rx_publish_subject_new(), *b = rx_publish_subject_new();
  rx_observable *srcs[] = {rx_subject_as_observable(a), rx_subject_as_observable(b)};
  rx_observable *z = rx_zip(srcs, 2, NULL, NULL, NULL);
  zpar p;
  memset(&p, 0, sizeof p);
  rx_observer o = {zpar_next, NULL, NULL, NULL, &p};
  rx_disposable *d = rx_subscribe(z, o);
  pthread_t ta, tb;
  pthread_create(&ta, NULL, push_many, a);
  pthread_create(&tb, NULL, push_many, b);
  pthread_join(ta, NULL);
  pthread_join(tb, NULL);
  CHECK_EQ(p.pairs, 20000);
  CHECK_EQ(p.bad, 0);
  CHECK_EQ(atomic_load(&p.overlaps), 0);
  rx_dispose(d);
  rx_release(z), rx_release(a), rx_release(b);
}
