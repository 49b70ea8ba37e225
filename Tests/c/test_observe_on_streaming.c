/* observe_on on a serial queue streams during long bursts: the producer stops signalling
 * the drain, and the drain ends streaming with a process barrier before it gives up its
 * turn (ObserveOn.swift). Through the ABI: bursts long enough to stream, each followed by a
 * pause with nothing sent, must all arrive, once and in order, without a later event to
 * wake a drain for them. */
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>

#include "rxtest.h"

typedef struct ordered {
  atomic_llong next;  /* the value expected next */
  atomic_int out_of_order, completed, disposed;
} ordered;

static void ordered_next(void *ctx, rx_value v) {
  ordered *o = ctx;
  long long expected = atomic_load_explicit(&o->next, memory_order_relaxed);
  if (v.kind != RX_INT || v.i != expected) atomic_fetch_add(&o->out_of_order, 1);
  atomic_store_explicit(&o->next, expected + 1, memory_order_release);
}
static void ordered_completed(void *ctx) { atomic_store(&((ordered *)ctx)->completed, 1); }
static void ordered_disposed(void *ctx) { atomic_store(&((ordered *)ctx)->disposed, 1); }

static bool wait_for_count(ordered *o, long long count, int timeout_ms) {
  int64_t deadline = rxtest_now_ns() + (int64_t)timeout_ms * 1000000;
  while (atomic_load_explicit(&o->next, memory_order_acquire) < count) {
    if (rxtest_now_ns() > deadline) return false;
    rxtest_sleep_ms(1);
  }
  return true;
}

RX_TEST(observe_on_streaming_bursts_then_silence_lose_nothing) {
  rx_scheduler *q = rx_scheduler_serial_new("streaming");
  rx_subject *subject = rx_publish_subject_new();
  rx_observable *src = rx_subject_as_observable(subject);
  rx_observable *o = rx_observe_on(src, q);
  ordered rec = {0};
  rx_disposable *d =
      rx_subscribe(o, (rx_observer){ordered_next, NULL, ordered_completed, ordered_disposed, &rec});
  CHECK(d != NULL);
  uint64_t seed = 12345;
  long long sent = 0;
  int bursts = (int)rxtest_scale(24, 6);
  for (int b = 0; b < bursts; b++) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    long long size = 1 + (long long)((seed >> 33) % 20000); /* from a few to several streams' worth */
    for (long long i = 0; i < size; i++) CHECK_OK(rx_subject_on_next(subject, RX_INT(sent + i)));
    sent += size;
    /* Silence: whatever the drain has not delivered must come without another event. */
    CHECK_MSG(wait_for_count(&rec, sent, 10000), "burst %d: %lld of %lld delivered", b,
              (long long)atomic_load(&rec.next), sent);
  }
  CHECK_OK(rx_subject_on_completed(subject));
  int64_t deadline = rxtest_now_ns() + 10000000000;
  while (!atomic_load(&rec.disposed) && rxtest_now_ns() < deadline) rxtest_sleep_ms(1);
  CHECK(atomic_load(&rec.completed));
  CHECK(atomic_load(&rec.disposed));
  CHECK_EQ(atomic_load(&rec.next), sent);
  CHECK_EQ(atomic_load(&rec.out_of_order), 0);
  rx_release(d);
  rx_release(o);
  rx_release(src);
  rx_release(subject);
  rx_release(q);
}

/* observe_on copies plain values by their bits into its queue (RxValue.copy(at:)) and boxed
 * ones by a retaining copy: every kind arrives intact, and every box is freed (the harness
 * checks live objects). */
typedef struct kinds_rec {
  rx_value v[16];
  atomic_int n, disposed;
} kinds_rec;

static void kinds_next(void *ctx, rx_value v) {
  kinds_rec *r = ctx;
  int n = atomic_load_explicit(&r->n, memory_order_relaxed);
  if (n < 16) r->v[n] = rx_value_retain(v);
  atomic_store_explicit(&r->n, n + 1, memory_order_release);
}
static void kinds_disposed(void *ctx) { atomic_store(&((kinds_rec *)ctx)->disposed, 1); }

RX_TEST(observe_on_every_kind_arrives_intact) {
  static int marker;
  rx_value want[] = {rx_int(INT64_MIN), rx_double(-0.0), rx_bool(true), rx_bool(false),
                     rx_ptr(&marker), rx_ptr(NULL), rx_none(), rx_string("queued"),
                     rx_int(42)};
  enum { N = sizeof want / sizeof want[0] };
  rx_scheduler *q = rx_scheduler_serial_new("kinds");
  rx_subject *subject = rx_publish_subject_new();
  rx_observable *src = rx_subject_as_observable(subject);
  rx_observable *o = rx_observe_on(src, q);
  kinds_rec rec = {0};
  rx_disposable *d = rx_subscribe(o, (rx_observer){kinds_next, NULL, NULL, kinds_disposed, &rec});
  for (int i = 0; i < N; i++) CHECK_OK(rx_subject_on_next(subject, want[i]));
  int64_t deadline = rxtest_now_ns() + 10000000000;
  while (atomic_load(&rec.n) < N && rxtest_now_ns() < deadline) rxtest_sleep_ms(1);
  CHECK_EQ(atomic_load(&rec.n), N);
  for (int i = 0; i < N; i++) {
    CHECK_EQ(rec.v[i].kind, want[i].kind);
    CHECK(rx_value_equal(rec.v[i], want[i]));
    if (want[i].kind == RX_DOUBLE) CHECK(signbit(RX_DOUBLE_OF(rec.v[i])));
    rx_value_release(rec.v[i]);
    rx_value_release(want[i]);
  }
  CHECK_OK(rx_dispose(d));
  rx_release(o);
  rx_release(src);
  rx_release(subject);
  rx_release(q);
}
