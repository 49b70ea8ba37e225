/* Disposing a subscription from one thread while another thread delivers to it (rxc.h
 * section 5): no callback starts once on_disposed has run, callbacks never overlap,
 * on_disposed runs exactly once. The delivering side of a subscription makes no atomic
 * read-modify-write; a cross-thread disposer uses a process-wide barrier instead (see
 * Sources/RxCore/Core/ObserverEnd.swift), which these tests exercise: for a subscription to a
 * subject (removed through the subject's drain) and to an operator chain (removed through
 * its sinks). */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "rxtest.h"

typedef struct race_obs {
  atomic_int in_next;   /* inside on_next now */
  atomic_int disposed;  /* on_disposed ran (count) */
  atomic_int late;      /* on_next calls that started after on_disposed */
  atomic_int overlaps;  /* on_next entered while another callback ran */
  atomic_long nexts;
} race_obs;

static void race_on_next(void *ctx, rx_value v) {
  (void)v;
  race_obs *o = ctx;
  if (atomic_load(&o->disposed) != 0) atomic_fetch_add(&o->late, 1);
  if (atomic_fetch_add(&o->in_next, 1) != 0) atomic_fetch_add(&o->overlaps, 1);
  atomic_fetch_add(&o->nexts, 1);
  atomic_fetch_sub(&o->in_next, 1);
}

static void race_on_disposed(void *ctx) {
  race_obs *o = ctx;
  if (atomic_load(&o->in_next) != 0) atomic_fetch_add(&o->overlaps, 1);
  atomic_fetch_add(&o->disposed, 1);
}

typedef struct emitter_thread {
  rx_subject *s;
  atomic_int stop;
  atomic_long sent;
} emitter_thread;

/* Emits in bursts with short pauses between them. Without pauses, whichever thread drains the
   subject (a subscriber's subscribe or dispose call, when it found the drain busy) would be
   kept delivering this thread's events for as long as it emits: the drain has no fairness
   bound (see the notes on drain starvation), which is not what these tests are about. */
static void *emit_until_stopped(void *arg) {
  emitter_thread *e = arg;
  int64_t i = 0;
  while (!atomic_load(&e->stop)) {
    for (int k = 0; k < 64; k++) {
      if (rx_subject_on_next(e->s, RX_INT(i++)) != RX_OK) FAIL("rx_subject_on_next failed");
    }
    atomic_fetch_add(&e->sent, 64);
    struct timespec pause = {0, 20000};
    nanosleep(&pause, NULL);
  }
  return NULL;
}

static int64_t race_rounds(void) {
  if (getenv("RXTEST_SANITIZER") != NULL) return 200;
  return rxtest_scale(3000, 30);
}

/* Subscribes `round` observers to `source` one after another while `e` emits on another
   thread; each is disposed from this thread after it has seen a few events (or a moment). */
static void race_rounds_against(rx_observable *source, emitter_thread *e) {
  int64_t rounds = race_rounds();
  for (int64_t r = 0; r < rounds; r++) {
    race_obs *o = calloc(1, sizeof *o);
    CHECK(o != NULL);
    rx_observer ob = {race_on_next, NULL, NULL, race_on_disposed, o};
    rx_disposable *d = rx_subscribe(source, ob);
    CHECK(d != NULL);
    long want = r % 3;  /* dispose before any, after 1 or after 2 events */
    int64_t until = rxtest_now_ns() + 200000000LL;
    while (atomic_load(&o->nexts) < want && rxtest_now_ns() < until) sched_yield();
    CHECK_OK(rx_dispose(d));
    /* on_disposed has run here, or runs on the delivering thread right after its callback */
    until = rxtest_now_ns() + 10000000000LL;
    while (atomic_load(&o->disposed) == 0 && rxtest_now_ns() < until) sched_yield();
    long before = atomic_load(&o->nexts);
    rxtest_yield_for_us(100); /* the emitter keeps going meanwhile */
    CHECK_EQ(atomic_load(&o->disposed), 1);
    CHECK_EQ(atomic_load(&o->late), 0);
    CHECK_EQ(atomic_load(&o->overlaps), 0);
    CHECK_EQ(atomic_load(&o->nexts), before);
    free(o);
  }
  CHECK(atomic_load(&e->sent) > 0);
}

static void race_with(rx_observable *(*wrap)(rx_observable *)) {
  int64_t live = rx_debug_live_objects();
  emitter_thread e = {rx_publish_subject_new(), 0, 0};
  CHECK(e.s != NULL);
  rx_observable *source = wrap(rx_subject_as_observable(e.s));
  CHECK(source != NULL);
  pthread_t t;
  CHECK_EQ(pthread_create(&t, NULL, emit_until_stopped, &e), 0);
  race_rounds_against(source, &e);
  atomic_store(&e.stop, 1);
  pthread_join(t, NULL);
  rx_release(source);
  rx_release(e.s);
  CHECK_EQ(rx_debug_live_objects(), live);
}

static rx_observable *as_is(rx_observable *o) { return rx_retain(o); }

static rx_value add_one(void *ctx, rx_value v, rx_error **error) {
  (void)ctx, (void)error;
  return RX_INT(v.i + 1);
}

static rx_observable *mapped(rx_observable *o) { return rx_map(o, add_one, NULL, NULL); }

RX_TEST(dispose_race_subject_subscription_from_another_thread) { race_with(as_is); }

RX_TEST(dispose_race_operator_chain_from_another_thread) { race_with(mapped); }

/* A subscription first fed by the thread that later disposes it: that thread is the only
   deliverer, so its dispose skips the process barrier, unless another thread has started
   delivering meanwhile. Here another thread starts emitting at once, so the dispose races
   with that thread's first deliveries (its claim to deliver) or follows them. */
RX_TEST(dispose_race_own_deliverer_disposes_while_another_thread_starts_emitting) {
  int64_t live = rx_debug_live_objects();
  int64_t rounds = race_rounds();
  for (int64_t r = 0; r < rounds; r++) {
    emitter_thread e = {rx_publish_subject_new(), 0, 0};
    rx_observable *m = mapped(rx_subject_as_observable(e.s));
    race_obs *o = calloc(1, sizeof *o);
    CHECK(o != NULL);
    rx_observer ob = {race_on_next, NULL, NULL, race_on_disposed, o};
    rx_disposable *d = rx_subscribe(m, ob);
    CHECK_OK(rx_subject_on_next(e.s, RX_INT(-1)));  /* this thread delivers first */
    CHECK_EQ(atomic_load(&o->nexts), 1);
    pthread_t t;
    CHECK_EQ(pthread_create(&t, NULL, emit_until_stopped, &e), 0);
    long want = 1 + r % 3;  /* dispose at once, or after the other thread's first events */
    int64_t until = rxtest_now_ns() + 200000000LL;
    while (want > 1 && atomic_load(&o->nexts) < want && rxtest_now_ns() < until) sched_yield();
    CHECK_OK(rx_dispose(d));
    until = rxtest_now_ns() + 10000000000LL;
    while (atomic_load(&o->disposed) == 0 && rxtest_now_ns() < until) sched_yield();
    long before = atomic_load(&o->nexts);
    rxtest_yield_for_us(50);
    atomic_store(&e.stop, 1);
    pthread_join(t, NULL);
    CHECK_EQ(atomic_load(&o->disposed), 1);
    CHECK_EQ(atomic_load(&o->late), 0);
    CHECK_EQ(atomic_load(&o->overlaps), 0);
    CHECK_EQ(atomic_load(&o->nexts), before);
    free(o);
    rx_release(m);
    rx_release(e.s);
  }
  CHECK_EQ(rx_debug_live_objects(), live);
}

/* A disposer inside the subscription's own callback, while another thread keeps emitting:
   on_disposed follows that callback on the same thread, and nothing after it. */
typedef struct self_dispose {
  race_obs obs;
  rx_disposable *token;
  atomic_int done;
} self_dispose;

static void self_dispose_on_next(void *ctx, rx_value v) {
  self_dispose *s = ctx;
  race_on_next(&s->obs, v);
  rx_disposable *d = atomic_exchange((_Atomic(rx_disposable *) *)&s->token, NULL);
  if (d != NULL) {
    if (rx_dispose(d) != RX_OK) FAIL("rx_dispose inside on_next failed");
    if (atomic_load(&s->obs.disposed) != 0) FAIL("on_disposed ran before the callback returned");
  }
}

static void self_dispose_on_disposed(void *ctx) {
  self_dispose *s = ctx;
  race_on_disposed(&s->obs);
  atomic_store(&s->done, 1);
}

RX_TEST(dispose_race_inside_own_callback_while_another_thread_emits) {
  int64_t live = rx_debug_live_objects();
  emitter_thread e = {rx_publish_subject_new(), 0, 0};
  pthread_t t;
  CHECK_EQ(pthread_create(&t, NULL, emit_until_stopped, &e), 0);
  int64_t rounds = race_rounds() / 3;
  for (int64_t r = 0; r < rounds; r++) {
    self_dispose *s = calloc(1, sizeof *s);
    CHECK(s != NULL);
    rx_observer ob = {self_dispose_on_next, NULL, NULL, self_dispose_on_disposed, s};
    rx_disposable *d = rx_subscribe(rx_subject_as_observable(e.s), ob);
    CHECK(d != NULL);
    atomic_store((_Atomic(rx_disposable *) *)&s->token, d);
    int64_t until = rxtest_now_ns() + 10000000000LL;
    while (!atomic_load(&s->done) && rxtest_now_ns() < until) sched_yield();
    CHECK_EQ(atomic_load(&s->obs.disposed), 1);
    CHECK_EQ(atomic_load(&s->obs.late), 0);
    CHECK_EQ(atomic_load(&s->obs.overlaps), 0);
    free(s);
  }
  atomic_store(&e.stop, 1);
  pthread_join(t, NULL);
  rx_release(e.s);
  CHECK_EQ(rx_debug_live_objects(), live);
}

/* Drain fairness: while another thread emits without pause, subscribe and dispose calls
   still return (the thread that drains hands its role to the emitter after its share). */
static void *emit_without_pause(void *arg) {
  emitter_thread *e = arg;
  int64_t i = 0;
  while (!atomic_load(&e->stop)) {
    if (rx_subject_on_next(e->s, RX_INT(i++)) != RX_OK) FAIL("rx_subject_on_next failed");
    atomic_fetch_add(&e->sent, 1);
  }
  return NULL;
}

typedef struct counting_obs {
  atomic_long nexts;
  atomic_int disposed;
} counting_obs;

static void counting_on_next(void *ctx, rx_value v) {
  (void)v;
  atomic_fetch_add(&((counting_obs *)ctx)->nexts, 1);
}

static void counting_on_disposed(void *ctx) { atomic_fetch_add(&((counting_obs *)ctx)->disposed, 1); }

RX_TEST(drain_fairness_subscribe_and_dispose_return_while_another_thread_emits_nonstop) {
  int64_t live = rx_debug_live_objects();
  emitter_thread e = {rx_publish_subject_new(), 0, 0};
  CHECK(e.s != NULL);
  /* A few steady subscribers make each event cost something to deliver. */
  counting_obs steady[4] = {0};
  rx_disposable *sd[4];
  for (int k = 0; k < 4; k++) {
    rx_observer ob = {counting_on_next, NULL, NULL, counting_on_disposed, &steady[k]};
    sd[k] = rx_subscribe(rx_subject_as_observable(e.s), ob);
    CHECK(sd[k] != NULL);
  }
  pthread_t t;
  CHECK_EQ(pthread_create(&t, NULL, emit_without_pause, &e), 0);
  int64_t rounds = race_rounds();
  int64_t started = rxtest_now_ns();
  for (int64_t r = 0; r < rounds; r++) {
    counting_obs *o = calloc(1, sizeof *o);
    CHECK(o != NULL);
    rx_observer ob = {counting_on_next, NULL, NULL, counting_on_disposed, o};
    rx_disposable *d = rx_subscribe(rx_subject_as_observable(e.s), ob);
    CHECK(d != NULL);
    CHECK_OK(rx_dispose(d));
    int64_t until = rxtest_now_ns() + 10000000000LL;
    while (atomic_load(&o->disposed) == 0 && rxtest_now_ns() < until) sched_yield();
    CHECK_EQ(atomic_load(&o->disposed), 1);
    free(o);
  }
  int64_t elapsed_ms = (rxtest_now_ns() - started) / 1000000;
  atomic_store(&e.stop, 1);
  pthread_join(t, NULL);
  for (int k = 0; k < 4; k++) {
    CHECK_OK(rx_dispose(sd[k]));
    CHECK_EQ(atomic_load(&steady[k].nexts), atomic_load(&e.sent));
    CHECK_EQ(atomic_load(&steady[k].disposed), 1);
  }
  printf("# %lld subscribe/dispose rounds in %lld ms while %ld events were emitted\n",
         (long long)rounds, (long long)elapsed_ms, (long)atomic_load(&e.sent));
  rx_release(e.s);
  CHECK_EQ(rx_debug_live_objects(), live);
}
