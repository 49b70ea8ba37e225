/* A thread keeps the last subscription token it let go of and reuses it for its next
 * subscription (CObserver.retire): each reuse must behave as a fresh token. */
#include <pthread.h>
#include <string.h>

#include "rxtest.h"

typedef struct tally {
  int64_t sum;
  int nexts, completed, disposed;
} tally;

static void t_next(void *ctx, rx_value v) {
  tally *t = ctx;
  t->sum += v.i;
  t->nexts++;
}
static void t_completed(void *ctx) { ((tally *)ctx)->completed++; }
static void t_disposed(void *ctx) { ((tally *)ctx)->disposed++; }
static rx_observer tally_observer(tally *t) { return (rx_observer){t_next, NULL, t_completed, t_disposed, t}; }

static void *reuse_on_subject(void *arg) {
  (void)arg;
  rx_subject *s = rx_publish_subject_new();
  tally a = {0}, b = {0};
  rx_disposable *da = rx_subscribe(rx_subject_as_observable(s), tally_observer(&a));
  CHECK(da != NULL);
  CHECK_OK(rx_subject_on_next(s, RX_INT(1)));
  CHECK_OK(rx_dispose(da));
  CHECK_EQ(a.disposed, 1);
  rx_disposable *db = rx_subscribe(rx_subject_as_observable(s), tally_observer(&b));
  CHECK(db == da); /* this thread's spare, revived: nothing of the first subscription is left */
  CHECK_EQ(rx_disposable_is_disposed(db), false);
  CHECK_OK(rx_subject_on_next(s, RX_INT(10)));
  CHECK_OK(rx_subject_on_completed(s));
  CHECK_EQ(a.nexts, 1);
  CHECK_EQ(a.sum, 1);
  CHECK_EQ(a.completed, 0);
  CHECK_EQ(a.disposed, 1);
  CHECK_EQ(b.nexts, 1);
  CHECK_EQ(b.sum, 10);
  CHECK_EQ(b.completed, 1);
  CHECK_EQ(b.disposed, 1);
  CHECK_EQ(rx_disposable_is_disposed(db), true);
  CHECK_OK(rx_dispose(db));
  CHECK_EQ(b.disposed, 1);
  rx_release(s);
  return NULL;
}

/* The spare is kept by the thread and released when it exits: the harness checks that live
 * objects are back to where they started. */
RX_TEST(token_reuse_on_a_subject_behaves_as_a_fresh_token) {
  pthread_t t;
  CHECK_EQ(pthread_create(&t, NULL, reuse_on_subject, NULL), 0);
  CHECK_EQ(pthread_join(t, NULL), 0);
}

/* Tokens of subscriptions that end inside rx_subscribe (rx_just) are reused too; a token
 * still referenced (retained by the caller) is not. */
RX_TEST(token_reuse_only_once_the_last_reference_is_gone) {
  int64_t start = rx_debug_live_objects();
  rx_observable *j = rx_just(RX_INT(7));
  tally a = {0}, b = {0}, c = {0};
  rx_disposable *da = rx_subscribe(j, tally_observer(&a));
  CHECK_EQ(a.sum, 7);
  CHECK_EQ(a.disposed, 1);
  rx_retain(da);
  rx_release(da); /* one reference left: not reusable */
  rx_disposable *db = rx_subscribe(j, tally_observer(&b));
  CHECK(db != da);
  CHECK_EQ(b.disposed, 1);
  rx_release(da);
  rx_disposable *dc = rx_subscribe(j, tally_observer(&c));
  CHECK(dc == da);
  CHECK_EQ(c.sum, 7);
  CHECK_EQ(c.completed, 1);
  CHECK_EQ(c.disposed, 1);
  CHECK_EQ(a.disposed, 1);
  rx_release(db);
  rx_release(dc);
  rx_release(j);
  CHECK_EQ(rx_debug_live_objects(), start);
}
