/* Time and threads (rxc.h sections 6, 8, 9, 12): interval/timer and the time
 * operators, each exact under the test scheduler (the (time, event) pairs are recorded
 * and compared), and subscribe_on/observe_on thread identity and order. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "rxtest.h"

/* ---- a virtual-time source and a recorder ------------------------------------------- */

/* One scripted event: at virtual time `at`, 'n' (next `value`), 'c' (completed) or 'e'
   (error with code `value`). Times are absolute, or relative to the subscription when the
   source is cold. */
typedef struct script_event {
  int64_t at;
  char kind;
  int64_t value;
} script_event;

typedef struct script {
  rx_scheduler *s;
  const script_event *events;
  int n;
  bool cold;
} script;

typedef struct emit_job {
  rx_emitter *em;
  script_event ev;
} emit_job;

static void emit_job_run(void *ctx) {
  emit_job *j = ctx;
  if (j->ev.kind == 'n') {
    rx_emitter_next(j->em, rx_int(j->ev.value));
  } else if (j->ev.kind == 'c') {
    rx_emitter_completed(j->em);
  } else {
    rx_error *e = rx_error_new((int32_t)j->ev.value, "scripted");
    rx_emitter_error(j->em, e);
    rx_release(e);
  }
}

static void emit_job_free(void *ctx) {
  emit_job *j = ctx;
  rx_release(j->em);
  free(j);
}

static rx_disposable *script_subscribe(void *ctx, rx_emitter *em) {
  script *sc = ctx;
  rx_disposable *all = rx_composite_disposable_new();
  int64_t now = rx_scheduler_now_ns(sc->s);
  for (int i = 0; i < sc->n; i++) {
    int64_t delay = sc->cold ? sc->events[i].at : sc->events[i].at - now;
    if (delay < 0) continue;
    emit_job *j = malloc(sizeof *j);
    j->em = rx_retain(em);
    j->ev = sc->events[i];
    CHECK_OK(rx_composite_disposable_add(all, rx_schedule_after(sc->s, delay, emit_job_run, j, emit_job_free)));
  }
  return all;
}

static rx_observable *scripted(script *sc) { return rx_create(script_subscribe, sc, NULL); }

/* Records "time:event" entries: "10:1" (next 1), "10:[1,2]" (next array), "30:C", "30:E2". */
typedef struct recorder {
  rx_scheduler *s;
  char log[2048];
  atomic_int disposed;
} recorder;

static void rec_append(recorder *r, const char *text) {
  size_t len = strlen(r->log);
  snprintf(r->log + len, sizeof r->log - len, "%s%lld:%s", len ? " " : "",
           (long long)rx_scheduler_now_ns(r->s), text);
}

static void rec_next(void *ctx, rx_value v) {
  char buf[512];
  if (v.kind == RX_INT) {
    snprintf(buf, sizeof buf, "%lld", (long long)v.i);
  } else if (v.kind == RX_ARRAY) {
    size_t n = rx_array_count(v), len = 0;
    buf[len++] = '[';
    for (size_t i = 0; i < n && len < sizeof buf - 32; i++)
      len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%lld", i ? "," : "",
                              (long long)rx_array_get(v, i).i);
    snprintf(buf + len, sizeof buf - len, "]");
  } else {
    snprintf(buf, sizeof buf, "?%d", (int)v.kind);
  }
  rec_append(ctx, buf);
}

static void rec_error(void *ctx, const rx_error *e) {
  char buf[32];
  snprintf(buf, sizeof buf, "E%d", (int)rx_error_code(e));
  rec_append(ctx, buf);
}

static void rec_completed(void *ctx) { rec_append(ctx, "C"); }
static void rec_disposed(void *ctx) { atomic_fetch_add(&((recorder *)ctx)->disposed, 1); }

static rx_disposable *record(rx_observable *o, recorder *r) {
  return rx_subscribe(o, (rx_observer){rec_next, rec_error, rec_completed, rec_disposed, r});
}

/* Subscribes `o` at virtual time 0 (already there), advances to `until`, disposes, and
   checks the recorded log. Releases `o`. */
static void expect_log(rx_scheduler *s, rx_observable *o, int64_t until, const char *want) {
  recorder r = {.s = s};
  CHECK(o != NULL);
  rx_disposable *d = record(o, &r);
  CHECK_OK(rx_test_scheduler_advance_to(s, until));
  CHECK_OK(rx_dispose(d));
  CHECK_EQ(atomic_load(&r.disposed), 1);
  CHECK_STR(r.log, want);
  rx_release(o);
}

/* ---- interval and timer --------------------------------------------------------------- */

RX_TEST(time_interval_virtual) {
  rx_scheduler *s = rx_test_scheduler_new();
  expect_log(s, rx_interval(10, s), 35, "10:0 20:1 30:2");
  CHECK(rx_interval(0, s) == NULL);
  CHECK(strstr(rx_last_error(), "rx_interval") != NULL);
  CHECK(rx_interval(-10, s) == NULL);
  CHECK(rx_interval(10, NULL) == NULL);
  rx_release(s);
}

RX_TEST(time_timer_virtual) {
  rx_scheduler *s = rx_test_scheduler_new();
  expect_log(s, rx_timer(5, -1, s), 100, "5:0 5:C");
  expect_log(s, rx_timer(5, 10, s), 130, "105:0 115:1 125:2");
  expect_log(s, rx_timer(-7, -1, s), 130, "130:0 130:C"); /* negative due: now */
  CHECK(rx_timer(5, 0, s) == NULL);
  rx_release(s);
}

typedef struct tick_times {
  int64_t at[16];
  int n;
} tick_times;

static void tick_at(void *ctx, rx_value v) {
  tick_times *t = ctx;
  CHECK_EQ(v.i, t->n);
  if (t->n < 16) t->at[t->n++] = rxtest_now_ns();
}

RX_TEST(time_interval_on_main_loop) {
  /* Real time: 10 ms ticks on main for 55 ms: 5 ticks, none before its due time. */
  if (rxtest_under_valgrind()) return; /* millisecond timing means nothing under valgrind */
  rx_observable *o = rx_interval(10 * 1000000, rx_scheduler_main());
  tick_times t = {0};
  int64_t t0 = rxtest_now_ns();
  rx_disposable *d = rx_subscribe(o, (rx_observer){.on_next = tick_at, .ctx = &t});
  CHECK_OK(rx_main_run_for(t0 + 55 * 1000000 - rxtest_now_ns()));
  CHECK_OK(rx_dispose(d));
  CHECK_MSG(t.n >= 4 && t.n <= 5, "%d ticks", t.n); /* 4 if the machine is very busy */
  for (int k = 0; k < t.n; k++)
    CHECK_MSG(t.at[k] >= t0 + (k + 1) * 10 * 1000000, "tick %d at %lld us", k,
              (long long)((t.at[k] - t0) / 1000));
  rx_release(o);
}

/* ---- delay, delay_subscription ---------------------------------------------------------- */

RX_TEST(time_delay_virtual) {
  rx_scheduler *s = rx_test_scheduler_new();
  static const script_event ev[] = {{10, 'n', 1}, {20, 'n', 2}, {21, 'n', 3}, {40, 'c', 0}};
  script sc = {s, ev, 4, false};
  rx_observable *src = scripted(&sc);
  expect_log(s, rx_delay(src, 15, s), 100, "25:1 35:2 36:3 55:C");
  rx_release(src);

  /* An error is delivered at once and drops what is still delayed. */
  rx_scheduler *s2 = rx_test_scheduler_new();
  static const script_event ev2[] = {{10, 'n', 1}, {30, 'n', 2}, {35, 'e', 1234}};
  script sc2 = {s2, ev2, 3, false};
  src = scripted(&sc2);
  expect_log(s2, rx_delay(src, 10, s2), 100, "20:1 35:E1234");
  rx_release(src);

  /* Negative delay is zero: same time, after the next advance. */
  rx_scheduler *s3 = rx_test_scheduler_new();
  script sc3 = {s3, ev, 4, false};
  src = scripted(&sc3);
  expect_log(s3, rx_delay(src, -5, s3), 100, "10:1 20:2 21:3 40:C");
  rx_release(src);
  rx_release(s);
  rx_release(s2);
  rx_release(s3);
}

RX_TEST(time_delay_subscription_virtual) {
  rx_scheduler *s = rx_test_scheduler_new();
  static const script_event ev[] = {{0, 'n', 1}, {5, 'n', 2}, {6, 'c', 0}};
  script sc = {s, ev, 3, true}; /* cold: times from its own subscription */
  rx_observable *src = scripted(&sc);
  expect_log(s, rx_delay_subscription(src, 20, s), 100, "20:1 25:2 26:C");
  rx_release(src);
  rx_release(s);
}

/* ---- debounce, throttle ------------------------------------------------------------------ */

RX_TEST(time_debounce_virtual) {
  rx_scheduler *s = rx_test_scheduler_new();
  static const script_event ev[] = {{10, 'n', 1}, {15, 'n', 2}, {30, 'n', 3},
                                    {45, 'n', 4}, {50, 'c', 0}};
  script sc = {s, ev, 5, false};
  rx_observable *src = scripted(&sc);
  /* 1 is replaced by 2 within 10; 2 and 3 each get their quiet 10; 4 is flushed by completion */
  expect_log(s, rx_debounce(src, 10, s), 100, "25:2 40:3 50:4 50:C");
  rx_release(src);
  rx_release(s);
}

RX_TEST(time_throttle_virtual) {
  static const script_event ev[] = {{10, 'n', 1}, {12, 'n', 2}, {14, 'n', 3},
                                    {30, 'n', 4}, {33, 'n', 5}, {35, 'c', 0}};
  rx_scheduler *s = rx_test_scheduler_new();
  script sc = {s, ev, 6, false};
  rx_observable *src = scripted(&sc);
  /* latest: 1 at once, 3 when the window ends (20), 4 at once (30), 5 at 40, then completed */
  expect_log(s, rx_throttle(src, 10, true, s), 100, "10:1 20:3 30:4 40:5 40:C");
  rx_release(src);

  rx_scheduler *s2 = rx_test_scheduler_new();
  script sc2 = {s2, ev, 6, false};
  src = scripted(&sc2);
  expect_log(s2, rx_throttle(src, 10, false, s2), 100, "10:1 30:4 35:C");
  rx_release(src);
  rx_release(s);
  rx_release(s2);
}

/* ---- timeout, sample, buffer ------------------------------------------------------------ */

RX_TEST(time_timeout_virtual) {
  static const script_event ok_ev[] = {{5, 'n', 1}, {14, 'n', 2}, {20, 'c', 0}};
  rx_scheduler *s = rx_test_scheduler_new();
  script sc = {s, ok_ev, 3, false};
  rx_observable *src = scripted(&sc);
  expect_log(s, rx_timeout(src, 10, s), 100, "5:1 14:2 20:C");
  rx_release(src);

  static const script_event late_ev[] = {{5, 'n', 1}, {16, 'n', 2}};
  rx_scheduler *s2 = rx_test_scheduler_new();
  script sc2 = {s2, late_ev, 2, false};
  src = scripted(&sc2);
  char want[64];
  snprintf(want, sizeof want, "5:1 15:E%d", RX_ERROR_TIMEOUT);
  expect_log(s2, rx_timeout(src, 10, s2), 100, want);
  rx_release(src);

  rx_scheduler *s3 = rx_test_scheduler_new();
  rx_observable *never = rx_never();
  snprintf(want, sizeof want, "10:E%d", RX_ERROR_TIMEOUT);
  expect_log(s3, rx_timeout(never, 10, s3), 100, want);
  rx_release(never);
  rx_release(s);
  rx_release(s2);
  rx_release(s3);
}

RX_TEST(time_sample_virtual) {
  rx_scheduler *s = rx_test_scheduler_new();
  static const script_event src_ev[] = {{5, 'n', 1}, {12, 'n', 2}, {14, 'n', 3}, {25, 'c', 0}};
  script sc = {s, src_ev, 4, false};
  rx_observable *src = scripted(&sc);
  rx_observable *ticks = rx_interval(10, s);
  /* 10: 1; 20: 3 (latest since 10); 30: nothing new, source ended -> completed */
  expect_log(s, rx_sample(src, ticks), 100, "10:1 20:3 30:C");
  CHECK(rx_sample(src, NULL) == NULL);
  rx_release(ticks);
  rx_release(src);
  rx_release(s);
}

RX_TEST(time_buffer_virtual) {
  rx_scheduler *s = rx_test_scheduler_new();
  static const script_event ev[] = {{1, 'n', 1}, {2, 'n', 2}, {3, 'n', 3},
                                    {5, 'n', 4}, {25, 'c', 0}};
  script sc = {s, ev, 5, false};
  rx_observable *src = scripted(&sc);
  /* count fills at 3 (new window to 13), [4] at 13, [] at 23, [] on completion at 25 */
  expect_log(s, rx_buffer(src, 10, 3, s), 100, "3:[1,2,3] 13:[4] 23:[] 25:[] 25:C");
  rx_release(src);

  rx_scheduler *s2 = rx_test_scheduler_new();
  script sc2 = {s2, ev, 5, false};
  src = scripted(&sc2);
  expect_log(s2, rx_buffer(src, 0, 2, NULL), 100, "2:[1,2] 5:[3,4] 25:C"); /* count only */
  rx_release(src);

  rx_scheduler *s3 = rx_test_scheduler_new();
  script sc3 = {s3, ev, 5, false};
  src = scripted(&sc3);
  expect_log(s3, rx_buffer(src, 0, 3, s3), 100, "3:[1,2,3] 25:[4] 25:C"); /* rest on completion */
  rx_release(src);

  rx_scheduler *s4 = rx_test_scheduler_new();
  script sc4 = {s4, ev, 5, false};
  src = scripted(&sc4);
  expect_log(s4, rx_buffer(src, 4, 0, s4), 100, "4:[1,2,3] 8:[4] 12:[] 16:[] 20:[] 24:[] 25:[] 25:C");
  CHECK(rx_buffer(src, 0, 0, s4) == NULL);
  CHECK(strstr(rx_last_error(), "both 0") != NULL);
  CHECK(rx_buffer(src, 10, 0, NULL) == NULL);
  rx_release(src);
  rx_release(s);
  rx_release(s2);
  rx_release(s3);
  rx_release(s4);
}

RX_TEST(time_operators_bad_arguments) {
  rx_scheduler *s = rx_test_scheduler_new();
  rx_observable *src = rx_never();
  CHECK(rx_delay(NULL, 1, s) == NULL);
  CHECK(rx_delay(src, 1, NULL) == NULL);
  CHECK(rx_debounce(src, 1, (rx_scheduler *)src) == NULL);
  CHECK(strstr(rx_last_error(), "rx_debounce") != NULL);
  CHECK(rx_throttle(NULL, 1, true, s) == NULL);
  CHECK(rx_timeout(src, 1, NULL) == NULL);
  CHECK(rx_delay_subscription(src, 1, NULL) == NULL);
  CHECK(rx_subscribe_on(src, NULL) == NULL);
  CHECK(rx_observe_on(NULL, s) == NULL);
  rx_release(src);
  rx_release(s);
}

RX_TEST(skip_and_take_duration_bad_arguments) {
  rx_scheduler *s = rx_test_scheduler_new();
  rx_observable *src = rx_never();
  rx_observable *(*const ops[])(rx_observable *, int64_t, rx_scheduler *) = {rx_skip_duration, rx_take_duration};
  const char *names[] = {"rx_skip_duration", "rx_take_duration"};
  for (int i = 0; i < 2; i++) {
    CHECK(ops[i](NULL, 1, s) == NULL);
    CHECK(strstr(rx_last_error(), names[i]) != NULL);
    CHECK(ops[i](src, 1, NULL) == NULL);
    CHECK(strstr(rx_last_error(), names[i]) != NULL);
    CHECK(ops[i](src, 1, (rx_scheduler *)src) == NULL); /* a live handle of the wrong kind */
    CHECK(strstr(rx_last_error(), names[i]) != NULL);
    CHECK(ops[i]((rx_observable *)s, 1, s) == NULL);
    CHECK(strstr(rx_last_error(), names[i]) != NULL);
    rx_observable *ok = ops[i](src, -5, s); /* negative is 0 */
    CHECK(ok != NULL);
    rx_release(ok);
  }
  rx_release(src);
  rx_release(s);
}

RX_TEST(timeout_to_bad_arguments) {
  rx_scheduler *s = rx_test_scheduler_new();
  rx_observable *src = rx_never(), *fb = rx_empty();
  CHECK(rx_timeout_to(NULL, 1, fb, s) == NULL);
  CHECK(strstr(rx_last_error(), "rx_timeout_to") != NULL);
  CHECK(rx_timeout_to(src, 1, NULL, s) == NULL);
  CHECK(strstr(rx_last_error(), "fallback") != NULL);
  CHECK(rx_timeout_to(src, 1, fb, NULL) == NULL);
  CHECK(strstr(rx_last_error(), "rx_timeout_to") != NULL);
  CHECK(rx_timeout_to(src, 1, (rx_observable *)s, s) == NULL); /* a live handle of the wrong kind */
  CHECK(strstr(rx_last_error(), "fallback") != NULL);
  CHECK(rx_timeout_to(src, 1, fb, (rx_scheduler *)fb) == NULL);
  CHECK(strstr(rx_last_error(), "rx_timeout_to") != NULL);
  rx_observable *ok = rx_timeout_to(src, -1, fb, s);
  CHECK(ok != NULL);
  rx_release(ok);
  rx_release(fb);
  rx_release(src);
  rx_release(s);
}

RX_TEST(retry_backoff_bad_arguments) {
  rx_scheduler *s = rx_test_scheduler_new();
  rx_observable *src = rx_never();
  rx_backoff_options good = {sizeof good, 10, 2.0, 0, 3, 0.0, 0, false};
  CHECK(rx_retry_backoff(NULL, &good, s) == NULL);
  CHECK(strstr(rx_last_error(), "rx_retry_backoff") != NULL);
  CHECK(rx_retry_backoff(src, &good, NULL) == NULL);
  CHECK(rx_retry_backoff(src, &good, (rx_scheduler *)src) == NULL); /* a live handle of the wrong kind */
  CHECK(strstr(rx_last_error(), "rx_retry_backoff") != NULL);
  CHECK(rx_retry_backoff(src, NULL, s) == NULL);
  CHECK(strstr(rx_last_error(), "opts") != NULL);
  rx_backoff_options o = good;
  o.struct_size = 0;
  CHECK(rx_retry_backoff(src, &o, s) == NULL);
  CHECK(strstr(rx_last_error(), "struct_size") != NULL);
  o.struct_size = sizeof o - 1;
  CHECK(rx_retry_backoff(src, &o, s) == NULL);
  /* a newer caller's larger struct: accepted while the fields this library does not know are zero */
  struct {
    rx_backoff_options o;
    uint64_t later;
  } grown = {good, 0};
  grown.o.struct_size = sizeof grown;
  rx_observable *ok = rx_retry_backoff(src, &grown.o, s);
  CHECK(ok != NULL);
  rx_release(ok);
  grown.later = 1;
  CHECK(rx_retry_backoff(src, &grown.o, s) == NULL);
  CHECK(strstr(rx_last_error(), "does not know") != NULL);
  o = good, o.initial_delay_ns = -1;
  CHECK(rx_retry_backoff(src, &o, s) == NULL);
  CHECK(strstr(rx_last_error(), "initial_delay_ns") != NULL);
  o = good, o.multiplier = 0.5;
  CHECK(rx_retry_backoff(src, &o, s) == NULL);
  CHECK(strstr(rx_last_error(), "multiplier") != NULL);
  o = good, o.multiplier = 0.0 / 0.0;
  CHECK(rx_retry_backoff(src, &o, s) == NULL);
  o = good, o.max_delay_ns = -5;
  CHECK(rx_retry_backoff(src, &o, s) == NULL);
  CHECK(strstr(rx_last_error(), "max_delay_ns") != NULL);
  o = good, o.jitter = 1.5;
  CHECK(rx_retry_backoff(src, &o, s) == NULL);
  CHECK(strstr(rx_last_error(), "jitter") != NULL);
  o = good, o.jitter = -0.1;
  CHECK(rx_retry_backoff(src, &o, s) == NULL);
  o = good, o.jitter = 1.0, o.max_attempts = 0, o.seed = UINT64_MAX;
  ok = rx_retry_backoff(src, &o, s);
  CHECK(ok != NULL);
  rx_release(ok);
  rx_release(src);
  rx_release(s);
}

static rx_observable *when_identity(void *ctx, rx_observable *errors, rx_error **error) { return rx_retain(errors); }
static int when_freed;
static void when_count_free(void *ctx) { when_freed++; }

RX_TEST(retry_when_bad_arguments) {
  rx_scheduler *s = rx_test_scheduler_new();
  rx_observable *src = rx_never();
  when_freed = 0;
  CHECK(rx_retry_when(NULL, when_identity, NULL, when_count_free) == NULL);
  CHECK(strstr(rx_last_error(), "rx_retry_when") != NULL);
  CHECK(rx_retry_when(src, NULL, NULL, when_count_free) == NULL);
  CHECK(strstr(rx_last_error(), "fn") != NULL);
  CHECK(rx_retry_when((rx_observable *)s, when_identity, NULL, when_count_free) == NULL); /* wrong kind */
  CHECK(strstr(rx_last_error(), "rx_retry_when") != NULL);
  CHECK_EQ(when_freed, 0);
  rx_observable *ok = rx_retry_when(src, when_identity, NULL, when_count_free);
  CHECK(ok != NULL);
  rx_release(ok);
  CHECK_EQ(when_freed, 1);
  rx_release(src);
  rx_release(s);
}

/* ---- subscribe_on / observe_on: threads and order ----------------------------------- */

#define N_EVENTS ((int)rxtest_scale(100000, 20)) /* 5,000 under valgrind */

typedef struct thread_rec {
  pthread_t expect;      /* the thread every event must arrive on (if check_expect) */
  bool check_expect;
  bool must_not_be_main;
  pthread_t main;
  atomic_int inside;
  atomic_int overlaps;
  atomic_int wrong_thread;
  int64_t next_value;
  atomic_int out_of_order;
  atomic_int completed_at; /* count of values seen when completed arrived, +1 */
  atomic_int disposed;
  bool stop_main_on_complete;
} thread_rec;

static void tr_next(void *ctx, rx_value v) {
  thread_rec *t = ctx;
  if (atomic_fetch_add(&t->inside, 1) != 0) atomic_fetch_add(&t->overlaps, 1);
  if (t->check_expect && !pthread_equal(pthread_self(), t->expect)) atomic_fetch_add(&t->wrong_thread, 1);
  if (t->must_not_be_main && pthread_equal(pthread_self(), t->main)) atomic_fetch_add(&t->wrong_thread, 1);
  if (v.i != t->next_value) atomic_fetch_add(&t->out_of_order, 1);
  t->next_value++;
  atomic_fetch_sub(&t->inside, 1);
}

static void tr_completed(void *ctx) {
  thread_rec *t = ctx;
  atomic_store(&t->completed_at, (int)t->next_value + 1);
  if (t->stop_main_on_complete) rx_main_stop();
}

static void tr_disposed(void *ctx) { atomic_fetch_add(&((thread_rec *)ctx)->disposed, 1); }

static rx_disposable *subscribe_rec(rx_observable *o, thread_rec *t) {
  return rx_subscribe(o, (rx_observer){.on_next = tr_next, .on_completed = tr_completed,
                                       .on_disposed = tr_disposed, .ctx = t});
}

static bool wait_flag(atomic_int *flag, int timeout_ms) {
  int64_t deadline = rxtest_now_ns() + (int64_t)timeout_ms * 1000000;
  while (atomic_load(flag) == 0) {
    if (rxtest_now_ns() > deadline) return false;
    rxtest_sleep_ms(1);
  }
  return true;
}

RX_TEST(time_observe_on_serial_order_100k) {
  rx_scheduler *q = rx_scheduler_serial_new("observe");
  rx_observable *src = rx_range(0, N_EVENTS);
  rx_observable *o = rx_observe_on(src, q);
  thread_rec t = {.must_not_be_main = true, .main = pthread_self()};
  rx_disposable *d = subscribe_rec(o, &t);
  CHECK(wait_flag(&t.completed_at, 10000));
  CHECK_EQ(t.next_value, N_EVENTS);
  CHECK_EQ(atomic_load(&t.completed_at), N_EVENTS + 1); /* completion after every value */
  CHECK_EQ(atomic_load(&t.out_of_order), 0);
  CHECK_EQ(atomic_load(&t.overlaps), 0);
  CHECK_EQ(atomic_load(&t.wrong_thread), 0);
  CHECK(wait_flag(&t.disposed, 1000));
  rx_release(d);
  rx_release(o);
  rx_release(src);
  rx_release(q);
}

RX_TEST(time_observe_on_concurrent_order_100k) {
  /* On a concurrent scheduler the drain hands its worker back every batch: order holds. */
  rx_scheduler *q = rx_scheduler_concurrent_new("observe-c");
  rx_observable *src = rx_range(0, N_EVENTS);
  rx_observable *o = rx_observe_on(src, q);
  thread_rec t = {.must_not_be_main = true, .main = pthread_self()};
  rx_disposable *d = subscribe_rec(o, &t);
  CHECK(wait_flag(&t.completed_at, 10000));
  CHECK_EQ(atomic_load(&t.completed_at), N_EVENTS + 1);
  CHECK_EQ(atomic_load(&t.out_of_order), 0);
  CHECK_EQ(atomic_load(&t.overlaps), 0);
  CHECK_EQ(atomic_load(&t.wrong_thread), 0);
  rx_release(d);
  rx_release(o);
  rx_release(src);
  rx_release(q);
}

typedef struct sub_on_ctx {
  pthread_t subscribe_thread;
  pthread_t dispose_thread;
  atomic_int subscribed;
  atomic_int dispose_ran;
  int count;
  bool complete;
} sub_on_ctx;

static void record_dispose_thread(void *ctx) {
  sub_on_ctx *c = ctx;
  c->dispose_thread = pthread_self();
  atomic_store(&c->dispose_ran, 1);
}

static rx_disposable *emit_many(void *ctx, rx_emitter *em) {
  sub_on_ctx *c = ctx;
  c->subscribe_thread = pthread_self();
  atomic_store(&c->subscribed, 1);
  for (int i = 0; i < c->count; i++) rx_emitter_next(em, rx_int(i));
  if (c->complete) rx_emitter_completed(em);
  return rx_disposable_create(record_dispose_thread, c, NULL);
}

RX_TEST(time_subscribe_on_thread_and_order_100k) {
  rx_scheduler *q = rx_scheduler_serial_new("subscribe");
  sub_on_ctx c = {.count = N_EVENTS, .complete = true};
  rx_observable *src = rx_create(emit_many, &c, NULL);
  rx_observable *o = rx_subscribe_on(src, q);
  thread_rec t = {.must_not_be_main = true, .main = pthread_self()};
  rx_disposable *d = subscribe_rec(o, &t);
  CHECK(wait_flag(&t.completed_at, 10000));
  CHECK(!pthread_equal(c.subscribe_thread, pthread_self())); /* the create callback ran on q */
  CHECK_EQ(atomic_load(&t.completed_at), N_EVENTS + 1);
  CHECK_EQ(atomic_load(&t.out_of_order), 0);
  CHECK_EQ(atomic_load(&t.wrong_thread), 0);
  CHECK(wait_flag(&c.dispose_ran, 1000));
  rx_release(d);
  rx_release(o);
  rx_release(src);
  rx_release(q);
}

RX_TEST(time_subscribe_on_disposes_on_the_scheduler) {
  rx_scheduler *q = rx_scheduler_serial_new("subscribe-dispose");
  sub_on_ctx c = {.count = 1, .complete = false};
  rx_observable *src = rx_create(emit_many, &c, NULL);
  rx_observable *o = rx_subscribe_on(src, q);
  thread_rec t = {.must_not_be_main = true, .main = pthread_self()};
  rx_disposable *d = subscribe_rec(o, &t);
  CHECK(wait_flag(&c.subscribed, 5000));
  rxtest_sleep_ms(5);
  CHECK_OK(rx_dispose(d)); /* from main */
  CHECK(wait_flag(&c.dispose_ran, 5000));
  CHECK(pthread_equal(c.dispose_thread, c.subscribe_thread) || !pthread_equal(c.dispose_thread, pthread_self()));
  CHECK(!pthread_equal(c.dispose_thread, pthread_self()));
  CHECK_EQ(atomic_load(&t.disposed), 1);
  rx_release(o);
  rx_release(src);
  rx_release(q);
}

RX_TEST(time_observe_on_hops_end_on_main_100k) {
  rx_scheduler *bg = rx_scheduler_concurrent_new("work");
  rx_scheduler *s1 = rx_scheduler_serial_new("hop1");
  rx_scheduler *s2 = rx_scheduler_operation_queue_new("hop2", 1);
  rx_scheduler *nt = rx_scheduler_new_thread();
  rx_observable *chain[6];
  chain[0] = rx_range(0, N_EVENTS);
  chain[1] = rx_subscribe_on(chain[0], bg);
  chain[2] = rx_observe_on(chain[1], s1);
  chain[3] = rx_observe_on(chain[2], s2);
  chain[4] = rx_observe_on(chain[3], nt);
  chain[5] = rx_observe_on(chain[4], rx_scheduler_main());
  thread_rec t = {.check_expect = true, .expect = pthread_self(), .stop_main_on_complete = true};
  rx_disposable *d = subscribe_rec(chain[5], &t);
  CHECK_OK(rx_main_run_for(120LL * 1000000000));
  CHECK_EQ(atomic_load(&t.completed_at), N_EVENTS + 1);
  CHECK_EQ(atomic_load(&t.out_of_order), 0);
  CHECK_EQ(atomic_load(&t.wrong_thread), 0); /* every event on main */
  CHECK_EQ(atomic_load(&t.disposed), 1);
  rx_release(d);
  for (int i = 5; i >= 0; i--) rx_release(chain[i]);
  rx_release(bg);
  rx_release(s1);
  rx_release(s2);
  rx_release(nt);
}

typedef struct stopper {
  rx_disposable *token;
  atomic_int seen;
  atomic_int after_dispose;
  atomic_int disposed_flag;
} stopper;

/* Value 100 waits until main's rx_dispose has returned: any call after it started after the
   dispose, and rxc.h allows none. */
static void stop_next(void *ctx, rx_value v) {
  stopper *s = ctx;
  if (v.i > 100 && atomic_load(&s->disposed_flag)) atomic_fetch_add(&s->after_dispose, 1);
  atomic_fetch_add(&s->seen, 1);
  if (v.i == 100) {
    int64_t deadline = rxtest_now_ns() + 60000LL * 1000000;
    while (!atomic_load(&s->disposed_flag) && rxtest_now_ns() < deadline) rxtest_sleep_ms(1);
  }
}

RX_TEST(time_observe_on_dispose_stops_delivery) {
  rx_scheduler *q = rx_scheduler_serial_new("stop");
  rx_observable *src = rx_range(0, N_EVENTS);
  rx_observable *o = rx_observe_on(src, q);
  stopper st = {0};
  rx_disposable *d = rx_subscribe(o, (rx_observer){.on_next = stop_next, .ctx = &st});
  while (atomic_load(&st.seen) < 101) rxtest_sleep_ms(1);
  CHECK_OK(rx_dispose(d));
  atomic_store(&st.disposed_flag, 1);
  rxtest_sleep_ms(50);
  CHECK_EQ(atomic_load(&st.after_dispose), 0);
  CHECK_EQ(atomic_load(&st.seen), 101);
  rx_release(o);
  rx_release(src);
  rx_release(q);
}

/* Values queued behind a blocked observer when it is disposed are released with the
   subscription (rx_object destructors count them), across many queue chunks. */
typedef struct held {
  atomic_int seen;
  atomic_int release;
  atomic_int destroyed;
} held;

static void held_next(void *ctx, rx_value v) {
  held *h = ctx;
  if (atomic_fetch_add(&h->seen, 1) == 0)
    while (!atomic_load(&h->release)) rxtest_sleep_ms(1);
}

static void held_destroy(void *data) { atomic_fetch_add(&((held *)data)->destroyed, 1); }

RX_TEST(time_observe_on_dispose_releases_queued_values) {
  enum { VALUES = 10000 };
  rx_scheduler *q = rx_scheduler_serial_new("held");
  rx_subject *subject = rx_publish_subject_new();
  rx_observable *o = rx_observe_on(rx_subject_as_observable(subject), q);
  held h = {0};
  rx_disposable *d = rx_subscribe(o, (rx_observer){.on_next = held_next, .ctx = &h});
  for (int i = 0; i < VALUES; i++) {
    rx_value v = rx_object(&h, held_destroy);
    CHECK_OK(rx_subject_on_next(subject, v));
    rx_value_release(v);
  }
  CHECK(wait_flag(&h.seen, 5000));
  CHECK_OK(rx_dispose(d));
  atomic_store(&h.release, 1);
  int64_t deadline = rxtest_now_ns() + 5000LL * 1000000;
  while (atomic_load(&h.destroyed) < VALUES && rxtest_now_ns() < deadline) rxtest_sleep_ms(1);
  CHECK_EQ(atomic_load(&h.destroyed), VALUES);
  CHECK_EQ(atomic_load(&h.seen), 1);
  rx_release(o);
  rx_release(subject);
  rx_release(q);
}

typedef struct burst {
  atomic_int delivered;
  int delivered_when_x_ran;
} burst;

static void burst_next(void *ctx, rx_value v) { atomic_fetch_add(&((burst *)ctx)->delivered, 1); }
static void burst_x(void *ctx) {
  burst *b = ctx;
  b->delivered_when_x_ran = atomic_load(&b->delivered);
}

RX_TEST(time_observe_on_main_interleaves_other_main_work) {
  /* A burst observed on main is delivered in batches: main work queued meanwhile (a UI
     timer, say) runs between them instead of after the whole burst. */
  rx_scheduler *bg = rx_scheduler_serial_new("burst");
  rx_observable *src = rx_range(0, 5000);
  rx_observable *sub_bg = rx_subscribe_on(src, bg);
  rx_observable *o = rx_observe_on(sub_bg, rx_scheduler_main());
  burst b = {.delivered_when_x_ran = -1};
  rx_disposable *d = rx_subscribe(o, (rx_observer){.on_next = burst_next, .ctx = &b});
  rxtest_sleep_ms(rxtest_under_valgrind() ? 2000 : 200); /* the burst is queued for main */
  rx_disposable *x = rx_schedule(rx_scheduler_main(), burst_x, &b, NULL);
  CHECK_EQ(atomic_load(&b.delivered), 0);
  rx_main_drain(); /* the drain (one batch), then x */
  CHECK_MSG(b.delivered_when_x_ran > 0 && b.delivered_when_x_ran < 5000,
            "x ran after %d of 5000 events", b.delivered_when_x_ran);
  while (atomic_load(&b.delivered) < 5000 && rx_main_drain() > 0) {
  }
  CHECK_EQ(atomic_load(&b.delivered), 5000);
  CHECK_OK(rx_dispose(d));
  rx_release(x);
  rx_release(o);
  rx_release(sub_bg);
  rx_release(src);
  rx_release(bg);
}

static rx_disposable *count_subscribe(void *ctx, rx_emitter *em) {
  atomic_fetch_add((atomic_int *)ctx, 1);
  rx_emitter_next(em, rx_int(7));
  rx_emitter_completed(em);
  return NULL;
}

RX_TEST(time_subscribe_on_and_observe_on_virtual) {
  rx_scheduler *s = rx_test_scheduler_new();
  atomic_int subscribed = 0;
  rx_observable *src = rx_create(count_subscribe, &subscribed, NULL);

  /* subscribe_on: the subscription itself waits for the scheduler. */
  rx_observable *on = rx_subscribe_on(src, s);
  recorder r = {.s = s};
  rx_disposable *d = record(on, &r);
  CHECK_EQ(atomic_load(&subscribed), 0);
  CHECK_OK(rx_test_scheduler_advance_to(s, 5));
  CHECK_EQ(atomic_load(&subscribed), 1);
  CHECK_STR(r.log, "0:7 0:C");
  rx_release(d);

  /* disposed before the scheduler ran it: the source is never subscribed */
  recorder r2 = {.s = s};
  d = record(on, &r2);
  CHECK_OK(rx_dispose(d));
  CHECK_OK(rx_test_scheduler_advance_by(s, 10));
  CHECK_EQ(atomic_load(&subscribed), 1);
  CHECK_STR(r2.log, "");
  CHECK_EQ(atomic_load(&r2.disposed), 1);

  /* observe_on: the events wait for the scheduler, in order. */
  rx_observable *obs = rx_observe_on(src, s);
  recorder r3 = {.s = s};
  d = record(obs, &r3);
  CHECK_EQ(atomic_load(&subscribed), 2);
  CHECK_STR(r3.log, "");
  CHECK_OK(rx_test_scheduler_advance_by(s, 0));
  CHECK_STR(r3.log, "15:7 15:C");
  rx_release(d);
  rx_release(obs);
  rx_release(on);
  rx_release(src);
  rx_release(s);
}

/* ---- a pending timer goes with its subscription ------------------------------------ */

static void count_disposed(void *ctx) { (*(int *)ctx)++; }
static void ignore_next(void *ctx, rx_value v) { (void)ctx, (void)v; }

/* Each time operator, subscribed and given an element that arms its timer, then disposed
   before the timer is due: the subscription's objects are gone at once, without the clock
   moving (a timer left pending would hold the operator's sink until it fired). */
RX_TEST(time_operators_drop_a_pending_timer_on_dispose) {
  rx_scheduler *ts = rx_test_scheduler_new();
  rx_subject *s = rx_publish_subject_new();
  rx_observable *src = rx_subject_as_observable(s);
  const int64_t live = rx_debug_live_objects();
  for (int which = 0; which < 10; which++) {
    rx_observable *op = NULL;
    switch (which) {
    case 0: op = rx_delay(src, 1000, ts); break;
    case 1: op = rx_debounce(src, 1000, ts); break;
    case 2: op = rx_throttle(src, 1000, true, ts); break;
    case 3: op = rx_throttle(src, 1000, false, ts); break;
    case 4: op = rx_timeout(src, 1000, ts); break;
    case 5: op = rx_buffer(src, 1000, 10, ts); break;
    case 6: op = rx_window(src, 1000, 10, ts); break;
    case 7: op = rx_take_duration(src, 1000, ts); break;
    case 8: op = rx_skip_duration(src, 1000, ts); break;
    case 9: op = rx_delay_subscription(src, 1000, ts); break;
    }
    CHECK_MSG(op != NULL, "operator %d", which);
    int disposed = 0;
    rx_observer o = {ignore_next, NULL, NULL, count_disposed, &disposed};
    rx_disposable *d = rx_subscribe(op, o);
    CHECK_OK(rx_subject_on_next(s, RX_INT(1)));
    CHECK_OK(rx_dispose(d));
    CHECK_EQ(disposed, 1);
    rx_release(op);
    CHECK_MSG(rx_debug_live_objects() == live, "operator %d left %lld objects behind", which,
              (long long)(rx_debug_live_objects() - live));
  }
  rx_release(src);
  rx_release(s);
  rx_release(ts);
}
