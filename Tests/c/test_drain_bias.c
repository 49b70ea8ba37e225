/* A subject's drain that one thread keeps using is biased to it (entered and left with
 * plain stores); the first other thread revokes that. Through the C ABI: the revoker never
 * waits for an owner inside a callback, nothing is lost or reordered, and no two callbacks
 * of a subscription overlap while the two threads fight over the subject. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "rxtest.h"

enum { WARM = 200 };  /* enough on_next calls from one thread to bias the drain */

typedef struct log {
  int64_t values[WARM + 8];
  int count;
  atomic_int inside, overlaps, disposed;
  rx_subject *subject;
  pthread_t owner;
  int ran_elsewhere;
} log_t;

typedef struct foreign_args {
  rx_subject *subject;
  int64_t value;
  rx_status status;
} foreign_args;

static void *emit_from_another_thread(void *arg) {
  foreign_args *a = arg;
  a->status = rx_subject_on_next(a->subject, RX_INT(a->value));
  return NULL;
}

static void log_next(void *ctx, rx_value v) {
  log_t *l = ctx;
  if (atomic_fetch_add(&l->inside, 1) != 0) atomic_fetch_add(&l->overlaps, 1);
  if (!pthread_equal(pthread_self(), l->owner)) l->ran_elsewhere++;
  if (l->count < WARM + 8) l->values[l->count] = v.i;
  l->count++;
  if (v.i == WARM) {
    /* Inside the owner's callback: another thread emits, and this callback waits for that
     * call to return. A revoker that waited for the owner would deadlock here. */
    foreign_args a = {l->subject, 1000, RX_EINVAL};
    pthread_t t;
    CHECK_EQ(pthread_create(&t, NULL, emit_from_another_thread, &a), 0);
    CHECK_EQ(pthread_join(t, NULL), 0);
    CHECK_OK(a.status);
    CHECK_OK(rx_subject_on_next(l->subject, RX_INT(WARM + 1)));  /* re-entrant, queued */
  }
  atomic_fetch_sub(&l->inside, 1);
}
static void log_disposed(void *ctx) { atomic_fetch_add(&((log_t *)ctx)->disposed, 1); }

RX_TEST(drain_bias_revoked_while_the_owner_is_inside_a_callback) {
  static log_t l;
  l = (log_t){0};
  l.subject = rx_publish_subject_new();
  l.owner = pthread_self();
  rx_observable *o = rx_subject_as_observable(l.subject);
  rx_disposable *d = rx_subscribe(o, (rx_observer){log_next, NULL, NULL, log_disposed, &l});
  CHECK(d != NULL);
  for (int64_t i = 0; i <= WARM; i++) CHECK_OK(rx_subject_on_next(l.subject, RX_INT(i)));
  /* Everything ran on this thread, in order: the foreign value after the callback that
   * waited for it, then the re-entrant one. */
  CHECK_EQ(l.count, WARM + 3);
  for (int64_t i = 0; i <= WARM; i++) CHECK_EQ(l.values[i], i);
  CHECK_EQ(l.values[WARM + 1], 1000);
  CHECK_EQ(l.values[WARM + 2], WARM + 1);
  CHECK_EQ(l.ran_elsewhere, 0);
  CHECK_EQ(atomic_load(&l.overlaps), 0);
  /* And the subject works as before from either thread. */
  CHECK_OK(rx_subject_on_next(l.subject, RX_INT(7)));
  foreign_args a = {l.subject, 8, RX_EINVAL};
  pthread_t t;
  CHECK_EQ(pthread_create(&t, NULL, emit_from_another_thread, &a), 0);
  CHECK_EQ(pthread_join(t, NULL), 0);
  CHECK_OK(a.status);
  CHECK_EQ(l.count, WARM + 5);
  CHECK_OK(rx_dispose(d));
  CHECK_EQ(atomic_load(&l.disposed), 1);
  rx_release(d);
  rx_release(l.subject);
}

typedef struct race {
  rx_subject *subject;
  atomic_int inside, overlaps, go;
  atomic_long sum, count;
} race_t;

static void race_next(void *ctx, rx_value v) {
  race_t *r = ctx;
  if (atomic_fetch_add(&r->inside, 1) != 0) atomic_fetch_add(&r->overlaps, 1);
  atomic_fetch_add(&r->sum, v.i);
  atomic_fetch_add(&r->count, 1);
  atomic_fetch_sub(&r->inside, 1);
}

static void *race_emitter(void *arg) {
  race_t *r = arg;
  while (!atomic_load(&r->go)) {}
  for (int i = 0; i < 20000; i++) CHECK_OK(rx_subject_on_next(r->subject, RX_INT(2)));
  return NULL;
}

/* Fresh subjects, each biased to this thread, then fought over by a second thread while
 * this one keeps emitting: every value arrives once and callbacks never overlap. */
RX_TEST(drain_bias_revocation_races_the_owners_stream) {
  for (int round = 0; round < 20; round++) {
    static race_t r;
    r = (race_t){0};
    r.subject = rx_publish_subject_new();
    rx_disposable *d = rx_subscribe(rx_subject_as_observable(r.subject), (rx_observer){race_next, NULL, NULL, NULL, &r});
    for (int i = 0; i < WARM; i++) CHECK_OK(rx_subject_on_next(r.subject, RX_INT(1)));
    pthread_t t;
    CHECK_EQ(pthread_create(&t, NULL, race_emitter, &r), 0);
    atomic_store(&r.go, 1);
    for (int i = 0; i < 20000; i++) CHECK_OK(rx_subject_on_next(r.subject, RX_INT(1)));
    CHECK_EQ(pthread_join(t, NULL), 0);
    CHECK_EQ(atomic_load(&r.count), WARM + 40000);
    CHECK_EQ(atomic_load(&r.sum), WARM + 20000 + 40000);
    CHECK_EQ(atomic_load(&r.overlaps), 0);
    CHECK_OK(rx_dispose(d));
    rx_release(d);
    rx_release(r.subject);
  }
}
