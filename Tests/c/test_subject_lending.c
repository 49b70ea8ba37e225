/* A subject lends itself to the tokens subscribed on one thread (its owner) without a
 * reference count per token (SubjectLender): the subject must outlive every such token's
 * last use of it, wherever the token ends and whoever releases the subject, and then go
 * (the harness checks live objects after each test). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "rxtest.h"

typedef struct counts {
  atomic_int nexts, completed, errors, disposed;
} counts;

static void c_next(void *ctx, rx_value v) {
  (void)v;
  atomic_fetch_add(&((counts *)ctx)->nexts, 1);
}
static void c_error(void *ctx, const rx_error *e) {
  (void)e;
  atomic_fetch_add(&((counts *)ctx)->errors, 1);
}
static void c_completed(void *ctx) { atomic_fetch_add(&((counts *)ctx)->completed, 1); }
static void c_disposed(void *ctx) { atomic_fetch_add(&((counts *)ctx)->disposed, 1); }
static rx_observer observer_of(counts *c) { return (rx_observer){c_next, c_error, c_completed, c_disposed, c}; }

enum { TOKENS = 8 };

typedef struct lent_tokens {
  rx_observable *source;
  counts *c;
  rx_disposable *d[TOKENS];
} lent_tokens;

static void *subscribe_tokens(void *arg) {
  lent_tokens *t = arg;
  for (int i = 0; i < TOKENS; i++) {
    t->d[i] = rx_subscribe(t->source, observer_of(t->c));
    CHECK(t->d[i] != NULL);
  }
  return NULL;
}

static void *dispose_tokens(void *arg) {
  lent_tokens *t = arg;
  for (int i = 0; i < TOKENS; i++) CHECK_OK(rx_dispose(t->d[i]));
  return NULL;
}

static void *release_tokens(void *arg) {
  lent_tokens *t = arg;
  for (int i = 0; i < TOKENS; i++) rx_release(t->d[i]);
  return NULL;
}

static void run_on_thread(void *(*fn)(void *), void *arg) {
  pthread_t t;
  CHECK_EQ(pthread_create(&t, NULL, fn, arg), 0);
  CHECK_EQ(pthread_join(t, NULL), 0);
}

/* The owner is the thread that subscribed first (gone by now); the subject goes here while
 * its tokens live; they are disposed afterwards, half on a new thread, half here. */
RX_TEST(lending_subject_released_elsewhere_before_its_tokens) {
  counts c = {0};
  rx_subject *s = rx_publish_subject_new();
  lent_tokens t = {rx_subject_as_observable(s), &c, {0}};
  run_on_thread(subscribe_tokens, &t);
  CHECK_OK(rx_subject_on_next(s, RX_INT(1)));
  CHECK_EQ(atomic_load(&c.nexts), TOKENS);
  rx_release(s); /* disposes the subject: every token is dropped (on_disposed) */
  CHECK_EQ(atomic_load(&c.disposed), TOKENS);
  lent_tokens half = {NULL, &c, {0}};
  for (int i = 0; i < TOKENS / 2; i++) half.d[i] = t.d[TOKENS / 2 + i];
  rx_observable *never = rx_never();
  for (int i = TOKENS / 2; i < TOKENS; i++) half.d[i] = rx_subscribe(never, observer_of(&c));
  rx_release(never);
  run_on_thread(dispose_tokens, &half);
  for (int i = 0; i < TOKENS / 2; i++) CHECK_OK(rx_dispose(t.d[i]));
  CHECK_EQ(atomic_load(&c.disposed), 2 * TOKENS - TOKENS / 2);
}

/* Tokens disposed on another thread than the owner, while the subject lives, then the
 * subject released by its owner. */
RX_TEST(lending_tokens_disposed_on_another_thread) {
  counts c = {0};
  rx_subject *s = rx_publish_subject_new();
  lent_tokens t = {rx_subject_as_observable(s), &c, {0}};
  subscribe_tokens(&t);
  run_on_thread(dispose_tokens, &t);
  CHECK_EQ(atomic_load(&c.disposed), TOKENS);
  CHECK(!rx_subject_has_observers(s));
  CHECK_OK(rx_subject_on_next(s, RX_INT(1)));
  CHECK_EQ(atomic_load(&c.nexts), 0);
  rx_release(s);
}

/* The subject completes and is released; its tokens, never disposed, are only released
 * later, on another thread: their loans end then. */
RX_TEST(lending_tokens_released_after_the_subject_completed) {
  counts c = {0};
  rx_subject *s = rx_publish_subject_new();
  lent_tokens t = {rx_subject_as_observable(s), &c, {0}};
  subscribe_tokens(&t);
  CHECK_OK(rx_subject_on_completed(s));
  CHECK_EQ(atomic_load(&c.completed), TOKENS);
  CHECK_EQ(atomic_load(&c.disposed), TOKENS);
  rx_release(s);
  run_on_thread(release_tokens, &t);
}

/* The same, with the tokens released before the subject completes: a listed token then
 * ends when the subject lets go of it (on the completing thread). */
RX_TEST(lending_tokens_released_while_listed) {
  counts c = {0};
  rx_subject *s = rx_publish_subject_new();
  lent_tokens t = {rx_subject_as_observable(s), &c, {0}};
  subscribe_tokens(&t);
  release_tokens(&t);
  CHECK_OK(rx_subject_on_next(s, RX_INT(1)));
  CHECK_EQ(atomic_load(&c.nexts), TOKENS);
  run_on_thread((void *(*)(void *))rx_subject_on_completed, s);
  CHECK_EQ(atomic_load(&c.completed), TOKENS);
  rx_release(s);
}

/* An observable handle kept past its subject: the owner's later subscriptions find the
 * subject disposed (on_error, on_disposed) and must still end cleanly. */
RX_TEST(lending_after_the_subject_handle_is_gone) {
  counts c = {0};
  rx_subject *s = rx_publish_subject_new();
  rx_observable *o = rx_subject_as_observable(s);
  rx_retain(o);
  rx_disposable *before = rx_subscribe(o, observer_of(&c));
  rx_release(s);
  CHECK_EQ(atomic_load(&c.disposed), 1);
  for (int i = 0; i < 3; i++) {
    rx_disposable *d = rx_subscribe(o, observer_of(&c));
    CHECK(d != NULL);
    CHECK_OK(rx_dispose(d));
  }
  CHECK_EQ(atomic_load(&c.errors), 3);
  CHECK_EQ(atomic_load(&c.disposed), 4);
  CHECK_OK(rx_dispose(before));
  rx_release(o);
}

/* The owner subscribes and disposes in a loop while another thread releases the subject (its
 * handle and then the observable handle the owner was given): the release may land at any
 * point of a subscription, and the subject must stay until the last token is done with it. */
typedef struct churn {
  rx_observable *o;
  atomic_int started;
  int rounds;
} churn;

static void *owner_churn(void *arg) {
  churn *ch = arg;
  counts c = {0};
  atomic_store(&ch->started, 1);
  for (int i = 0; i < ch->rounds; i++) {
    rx_disposable *d = rx_subscribe(ch->o, observer_of(&c));
    CHECK(d != NULL);
    if (i % 3 == 0) rx_subject_on_next(NULL, RX_INT(0)); /* (an error, nothing else: varies timing) */
    CHECK_OK(rx_dispose(d));
  }
  CHECK_EQ(atomic_load(&c.disposed), ch->rounds);
  rx_release(ch->o);
  return NULL;
}

RX_TEST(lending_subject_released_while_its_owner_churns) {
  /* Smaller under valgrind and the sanitizers (their debug builds run the core unspecialized). */
  int rounds = getenv("RXTEST_SANITIZER") != NULL ? 1000 : (int)rxtest_scale(20000, 200);
  for (int round = 0; round < 20; round++) {
    rx_subject *s = rx_publish_subject_new();
    churn ch = {rx_subject_as_observable(s), 0, rounds};
    rx_retain(ch.o);
    pthread_t t;
    CHECK_EQ(pthread_create(&t, NULL, owner_churn, &ch), 0);
    while (!atomic_load(&ch.started)) {}
    for (volatile int spin = 0; spin < round * 500; spin++) {}
    rx_release(s);
    CHECK_EQ(pthread_join(t, NULL), 0);
  }
}

/* Two threads subscribe to one subject: the first is its owner, the other's tokens hold a
 * reference of their own; each side disposes the other's tokens. */
RX_TEST(lending_owner_and_other_thread_tokens_mixed) {
  counts c = {0};
  rx_subject *s = rx_publish_subject_new();
  lent_tokens a = {rx_subject_as_observable(s), &c, {0}}, b = a;
  subscribe_tokens(&a);
  run_on_thread(subscribe_tokens, &b);
  CHECK_OK(rx_subject_on_next(s, RX_INT(1)));
  CHECK_EQ(atomic_load(&c.nexts), 2 * TOKENS);
  dispose_tokens(&b);
  run_on_thread(dispose_tokens, &a);
  CHECK_EQ(atomic_load(&c.disposed), 2 * TOKENS);
  rx_release(s);
}
