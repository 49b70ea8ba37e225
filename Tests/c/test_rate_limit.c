/* rx_rate_limit: the sliding window and every overflow policy in marble form on the test
 * scheduler (2 values per 5 frames throughout), terminal events behind a full queue,
 * dispose while full, the options' validation, and concurrent producers against the real
 * clock. Everywhere: delivered + dropped + still queued == received, on_dropped calls ==
 * stats.dropped, and no value the policy does not drop is lost. */
#include "ops_support.h"
#include "flow_support.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#define WINDOW (5 * RX_MARBLE_FRAME_NS)

/* One marble case: src through rx_rate_limit(2 per 5 frames) on the test scheduler; policy
 * < 0 is an unbounded queue (opts NULL). */
static void marble_case(const char *source, int32_t policy, size_t capacity, const char *expected,
                        long want_dropped, uint64_t want_overflows) {
  rx_scheduler *ts = rx_test_scheduler_new();
  drops d = {0};
  rx_observable *src = rx_marble_hot(ts, source, NULL, 0, NULL);
  CHECK(src != NULL);
  rx_flow_options o = opts_of(policy, capacity, &d);
  rx_observable *r = rx_rate_limit(src, 2, WINDOW, ts, policy < 0 ? NULL : &o);
  CHECK_MSG(r != NULL, "%s", rx_last_error());
  /* '#' is the overflow error, unless the source has its own. */
  rx_error *err = strchr(source, '#') ? NULL : overflow_error();
  CHECK(rx_marble_expect(ts, r, expected, NULL, 0, err));
  rx_release(err);
  rx_flow_stats s = stats_of(r);
  CHECK_EQ(atomic_load(&d.n), want_dropped);
  CHECK_EQ(s.dropped, want_dropped);
  CHECK_EQ(s.overflows, want_overflows);
  CHECK_EQ(s.received, s.delivered + s.dropped);
  rx_release(r);
  rx_release(src);
  rx_release(ts);
}

RX_TEST(rate_limit_sliding_window) {
  /* 3 waits for 1 to leave the window (frame 6, not the start of a fixed window); 4 arrives
   * when the window has room and passes at once. */
  marble_case("-1-2-3------4-|", -1, 0, "-1-2--3-----4-|", 0, 0);
  /* Within the rate: untouched. */
  marble_case("-1----2----3----|", -1, 0, "-1----2----3----|", 0, 0);
}

RX_TEST(rate_limit_unbounded_queue_loses_nothing) {
  marble_case("-(12345)--------|", -1, 0, "-(12)-(34)-5----|", 0, 0);
  marble_case("-(123456789)-------------------|", -1, 0, "-(12)-(34)-(56)-(78)-9---------|", 0, 0);
}

RX_TEST(rate_limit_drop_oldest) {
  marble_case("-(12345)--------|", RX_OVERFLOW_DROP_OLDEST, 2, "-(12)-(45)------|", 1, 0);
}

RX_TEST(rate_limit_drop_newest) {
  marble_case("-(12345)--------|", RX_OVERFLOW_DROP_NEWEST, 2, "-(12)-(34)------|", 1, 0);
}

RX_TEST(rate_limit_keep_latest) {
  /* capacity is ignored: one slot, each value replacing the one still waiting. */
  marble_case("-(12345)--------|", RX_OVERFLOW_KEEP_LATEST, 0, "-(12)-5---------|", 2, 0);
}

RX_TEST(rate_limit_fail) {
  /* The queued values are delivered, then the error; 5 is dropped. */
  marble_case("-(12345)--------|", RX_OVERFLOW_FAIL, 2, "-(12)-(34#)", 1, 1);
}

RX_TEST(rate_limit_terminal_events_behind_a_full_queue) {
  marble_case("-(12345|)", -1, 0, "-(12)-(34)-(5|)", 0, 0);
  marble_case("-(12345#)", -1, 0, "-(12)-(34)-(5#)", 0, 0);
  marble_case("-(12345|)", RX_OVERFLOW_DROP_OLDEST, 2, "-(12)-(45|)", 1, 0);
  marble_case("-(12345#)", RX_OVERFLOW_DROP_NEWEST, 2, "-(12)-(34#)", 1, 0);
  marble_case("-(12345|)", RX_OVERFLOW_KEEP_LATEST, 1, "-(12)-(5|)", 2, 0);
  /* Nothing queued: at once. */
  marble_case("-1-|", -1, 0, "-1-|", 0, 0);
  marble_case("-1-#", RX_OVERFLOW_DROP_OLDEST, 1, "-1-#", 0, 0);
}

/* The policy fail disposes upstream at once, inside the overflowing value. */
static rx_scheduler *clock_of;
static void note_disposed(void *ctx) { *(int64_t *)ctx = rx_scheduler_now_ns(clock_of); }

RX_TEST(rate_limit_fail_disposes_upstream) {
  rx_scheduler *ts = clock_of = rx_test_scheduler_new();
  rx_observable *hot = rx_marble_hot(ts, "-(12345)-6-|", NULL, 0, NULL);
  int64_t disposed_at = -1;
  rx_observer tap = {NULL, NULL, NULL, note_disposed, &disposed_at};
  rx_observable *src = rx_do(hot, tap, NULL);
  rx_flow_options o = opts_of(RX_OVERFLOW_FAIL, 2, NULL);
  rx_observable *r = rx_rate_limit(src, 2, WINDOW, ts, &o);
  rx_error *err = overflow_error();
  CHECK(rx_marble_expect(ts, r, "-(12)-(34#)", NULL, 0, err));
  CHECK_EQ(disposed_at, 1 * RX_MARBLE_FRAME_NS);
  rx_flow_stats s = stats_of(r);
  CHECK_EQ(s.received, 5); /* 6 never came */
  CHECK_EQ(s.delivered, 4);
  rx_release(err), rx_release(r), rx_release(src), rx_release(hot), rx_release(ts);
}

RX_TEST(rate_limit_dispose_while_queued_releases_the_queue) {
  rx_scheduler *ts = rx_test_scheduler_new();
  rx_subject *subject = rx_publish_subject_new();
  drops d = {0};
  rx_flow_options o = opts_of(RX_OVERFLOW_DROP_OLDEST, 8, &d);
  rx_observable *r = rx_rate_limit(rx_subject_as_observable(subject), 2, WINDOW, ts, &o);
  rec log;
  rx_disposable *sub = rx_subscribe(r, rec_observer(&log));
  for (int i = 0; i < 100; i++) {
    rx_value v = rx_string("waiting"); /* boxed: a leak shows in the live objects */
    rx_subject_on_next(subject, v);
    rx_value_release(v);
  }
  CHECK_EQ(log.nexts, 2);
  rx_dispose(sub); /* the 8 queued values go with the subscription, unreported */
  rx_test_scheduler_run(ts);
  CHECK_EQ(log.nexts, 2);
  rx_flow_stats s = stats_of(r);
  CHECK_EQ(s.received, 100);
  CHECK_EQ(s.delivered, 2);
  CHECK_EQ(s.dropped, 90);
  CHECK_EQ(atomic_load(&d.n), 90);
  rx_release(r), rx_release(subject), rx_release(ts);
}

static int freed;
static void count_free(void *ctx) { freed++; }

RX_TEST(rate_limit_arguments_are_validated) {
  rx_scheduler *ts = rx_test_scheduler_new();
  rx_observable *src = rx_range(0, 3);
  rx_flow_options o = opts_of(RX_OVERFLOW_DROP_OLDEST, 4, NULL);
  o.ctx_free = count_free;
  CHECK(rx_rate_limit(NULL, 1, WINDOW, ts, NULL) == NULL);
  CHECK(strstr(rx_last_error(), "rx_rate_limit") != NULL);
  CHECK(rx_rate_limit(src, 0, WINDOW, ts, &o) == NULL);
  CHECK(strstr(rx_last_error(), "n must be >= 1") != NULL);
  CHECK(rx_rate_limit(src, 1, 0, ts, &o) == NULL);
  CHECK(strstr(rx_last_error(), "window_ns must be > 0") != NULL);
  CHECK(rx_rate_limit(src, 1, -3, ts, &o) == NULL);
  CHECK(rx_rate_limit(src, 1, WINDOW, NULL, &o) == NULL);
  rx_flow_options bad = o;
  bad.policy = RX_OVERFLOW_BLOCK;
  bad.block_timeout_ns = 1000;
  CHECK(rx_rate_limit(src, 1, WINDOW, ts, &bad) == NULL);
  CHECK(strstr(rx_last_error(), "RX_OVERFLOW_BLOCK is not supported") != NULL);
  bad = o;
  bad.capacity = 0;
  CHECK(rx_rate_limit(src, 1, WINDOW, ts, &bad) == NULL);
  bad = o;
  bad.policy = 42;
  CHECK(rx_rate_limit(src, 1, WINDOW, ts, &bad) == NULL);
  bad = o;
  bad.struct_size = 1;
  CHECK(rx_rate_limit(src, 1, WINDOW, ts, &bad) == NULL);
  CHECK_EQ(freed, 0); /* nothing was taken */
  rx_observable *r = rx_rate_limit(src, 1, WINDOW, ts, &o);
  CHECK(r != NULL);
  rx_flow_stats s = stats_of(r);
  CHECK_EQ(s.received, 0);
  rx_release(r);
  CHECK_EQ(freed, 1);
  /* Unbounded ones count too. */
  r = rx_rate_limit(src, 1, WINDOW, ts, NULL);
  rx_disposable *sub = rx_subscribe(r, (rx_observer){0});
  rx_test_scheduler_run(ts);
  s = stats_of(r);
  CHECK_EQ(s.received, 3);
  CHECK_EQ(s.delivered, 3);
  rx_dispose(sub);
  rx_release(r), rx_release(src), rx_release(ts);
}

/* ---- real threads, real clock ------------------------------------------------------- */

enum { PRODUCERS = 4, RATE = 40, MAX_SEEN = 1 << 14 };
#define REAL_WINDOW 2000000 /* 2 ms */

typedef struct consumer {
  rx_scheduler *clock;
  atomic_int done;
  int64_t last[PRODUCERS];
  bool out_of_order;
  long n;
  int64_t at[MAX_SEEN];
} consumer;

static void consume(void *ctx, rx_value v) {
  consumer *c = ctx;
  if (c->n < MAX_SEEN) c->at[c->n] = rx_scheduler_now_ns(c->clock);
  c->n++;
  int p = (int)(v.i >> 32);
  int64_t seq = v.i & 0xffffffff;
  if (p < 0 || p >= PRODUCERS || seq <= c->last[p]) c->out_of_order = true;
  if (p >= 0 && p < PRODUCERS) c->last[p] = seq;
}
static void consume_end(void *ctx) { atomic_store(&((consumer *)ctx)->done, 1); }
static void consume_error(void *ctx, const rx_error *e) { atomic_store(&((consumer *)ctx)->done, 2); }

typedef struct producer_arg {
  rx_subject *subject;
  int id, n;
} producer_arg;

static void *produce(void *p) {
  producer_arg *a = p;
  for (int i = 0; i < a->n; i++) rx_subject_on_next(a->subject, RX_INT(((int64_t)a->id << 32) | i));
  return NULL;
}

/* Four threads feed one subject into rx_rate_limit on a serial scheduler: each thread's
 * values stay in order, nothing is lost unreported, completion comes after the queue, and
 * the rate holds: of any RATE + 2 consecutive deliveries, the first and the last are at
 * least a window apart (the operator stamps a delivery with the clock as it returns). */
static void concurrent_case(int32_t policy) {
  static consumer c;
  memset(&c, 0, sizeof c);
  rx_scheduler *serial = rx_scheduler_serial_new("rate-limit");
  c.clock = serial;
  for (int i = 0; i < PRODUCERS; i++) c.last[i] = -1;
  rx_subject *subject = rx_publish_subject_new();
  drops d = {0};
  rx_flow_options o = opts_of(policy, 64, &d);
  rx_observable *r = rx_rate_limit(rx_subject_as_observable(subject), RATE, REAL_WINDOW, serial, policy < 0 ? NULL : &o);
  CHECK_MSG(r != NULL, "%s", rx_last_error());
  rx_disposable *sub = rx_subscribe(r, (rx_observer){consume, consume_error, consume_end, NULL, &c});
  int n = (int)rxtest_scale(500, 5);
  pthread_t t[PRODUCERS];
  producer_arg args[PRODUCERS];
  for (int i = 0; i < PRODUCERS; i++) {
    args[i] = (producer_arg){subject, i, n};
    pthread_create(&t[i], NULL, produce, &args[i]);
  }
  for (int i = 0; i < PRODUCERS; i++) pthread_join(t[i], NULL);
  rx_subject_on_completed(subject);
  for (int i = 0; i < 20000 && atomic_load(&c.done) == 0; i++) usleep(500);
  CHECK_EQ(atomic_load(&c.done), 1);
  CHECK(!c.out_of_order);
  rx_flow_stats s = stats_of(r);
  CHECK_EQ(s.received, PRODUCERS * n);
  CHECK_EQ(s.delivered, c.n);
  CHECK_EQ(s.dropped, atomic_load(&d.n));
  CHECK_EQ(s.delivered + s.dropped, PRODUCERS * n);
  if (policy < 0) CHECK_EQ(s.dropped, 0);
  long seen = c.n < MAX_SEEN ? c.n : MAX_SEEN;
  for (long k = 0; k + RATE + 1 < seen; k++)
    CHECK_MSG(c.at[k + RATE + 1] - c.at[k] >= REAL_WINDOW, "deliveries %ld..%ld within %lld ns", k, k + RATE + 1,
              (long long)(c.at[k + RATE + 1] - c.at[k]));
  rx_dispose(sub);
  rx_release(r), rx_release(subject), rx_release(serial);
}

RX_TEST(rate_limit_concurrent_producers_unbounded) { concurrent_case(-1); }
RX_TEST(rate_limit_concurrent_producers_drop_oldest) { concurrent_case(RX_OVERFLOW_DROP_OLDEST); }
RX_TEST(rate_limit_concurrent_producers_drop_newest) { concurrent_case(RX_OVERFLOW_DROP_NEWEST); }
RX_TEST(rate_limit_concurrent_producers_keep_latest) { concurrent_case(RX_OVERFLOW_KEEP_LATEST); }

/* A window near INT64_MAX: the timer is armed for the far future (its due time must not
 * wrap into the past and fire over and over at the same instant). */
RX_TEST(rate_limit_huge_window_waits) {
  rx_scheduler *ts = rx_test_scheduler_new();
  rx_subject *subject = rx_publish_subject_new();
  rx_observable *r = rx_rate_limit(rx_subject_as_observable(subject), 1, INT64_MAX, ts, NULL);
  rec log;
  rx_disposable *sub = rx_subscribe(r, rec_observer(&log));
  rx_test_scheduler_advance_by(ts, 1000);
  for (int i = 1; i <= 3; i++) rx_subject_on_next(subject, RX_INT(i));
  CHECK_OK(rx_test_scheduler_advance_by(ts, 1000000000));
  CHECK_STR(log.log, "1");
  rx_subject_on_completed(subject);
  CHECK_OK(rx_test_scheduler_advance_by(ts, 1000000000));
  CHECK_STR(log.log, "1"); /* completion waits behind 2 and 3 */
  rx_flow_stats s = stats_of(r);
  CHECK_EQ(s.received, 3);
  CHECK_EQ(s.delivered, 1);
  rx_dispose(sub);
  rx_release(r), rx_release(subject), rx_release(ts);
}
