/* rx_window on virtual time (RxSwift's window(timeSpan:count:) tests and more): the log
 * shows each window as it opens ("200:W0") and what each one carries ("205:0.1": window 0,
 * value 1; "240:0|": window 0 completes), so empty windows and the order of closing and
 * opening are checked too. Then disposal (the source subscription lives while a window
 * does), late subscribers, arguments, and windows fed from several threads. */
#include "ops_vtime.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

typedef struct wlog wlog;
typedef struct wctx {
  wlog *w;
  int k;
} wctx;
struct wlog {
  vt *v;
  bool subscribe_windows;
  int n;
  wctx ctx[32];
  rx_disposable *tokens[32];
  rx_value windows[32];
  rx_observable *op;
  rx_disposable *outer;
};

static void win_next(void *ctx, rx_value val) {
  wctx *c = ctx;
  char b[32];
  snprintf(b, sizeof b, "%d.%lld", c->k, (long long)val.i);
  vt_log(c->w->v, b);
}
static void win_error(void *ctx, const rx_error *e) {
  wctx *c = ctx;
  char b[32];
  snprintf(b, sizeof b, "%d#%d", c->k, (int)rx_error_code(e));
  vt_log(c->w->v, b);
}
static void win_completed(void *ctx) {
  wctx *c = ctx;
  char b[32];
  snprintf(b, sizeof b, "%d|", c->k);
  vt_log(c->w->v, b);
}

static void outer_next(void *ctx, rx_value val) {
  wlog *w = ctx;
  CHECK_EQ(val.kind, RX_OBSERVABLE);
  int k = w->n++;
  char b[16];
  snprintf(b, sizeof b, "W%d", k);
  vt_log(w->v, b);
  w->windows[k] = rx_value_retain(val);
  w->ctx[k] = (wctx){w, k};
  if (!w->subscribe_windows) return;
  rx_observer o = {win_next, win_error, win_completed, NULL, &w->ctx[k]};
  w->tokens[k] = rx_subscribe(rx_value_observable(val), o);
}
static void do_dispose(void *ctx) {
  wlog *w = ctx;
  rx_dispose(w->outer);
  w->outer = NULL;
}

static void w_end(wlog *w) {
  for (int k = 0; k < w->n; k++) {
    if (w->tokens[k]) rx_dispose(w->tokens[k]);
    rx_value_release(w->windows[k]);
  }
}

/* The outer observer's other callbacks get the wlog as ctx. */
static void outer_error(void *ctx, const rx_error *e) { vt_on_error(((wlog *)ctx)->v, e); }
static void outer_completed(void *ctx) { vt_on_completed(((wlog *)ctx)->v); }
static void outer_disposed(void *ctx) { ((wlog *)ctx)->v->disposed++; }
static void do_subscribe_w(void *ctx) {
  wlog *w = ctx;
  rx_observer o = {outer_next, outer_error, outer_completed, outer_disposed, w};
  w->outer = rx_subscribe(w->op, o);
}

static const char *WINDOWS_SOURCE = "205:1 210:2 240:3 280:4 320:5 350:6 370:7 420:8 470:9";

/* Subscribes op (taken) at 200, each window as it opens; disposes the outer subscription at
 * `unsub` (window subscriptions are disposed by w_end). */
static const char *run_windows(vt *v, wlog *w, rx_observable *op, int64_t unsub) {
  w->v = v;
  w->op = op;
  CHECK_MSG(op != NULL, "%s", rx_last_error());
  rx_disposable *a = rx_schedule_after(v->s, 200, do_subscribe_w, w, NULL);
  rx_disposable *b = rx_schedule_after(v->s, unsub, do_dispose, w, NULL);
  rx_test_scheduler_run(v->s);
  rx_release(a), rx_release(b);
  if (w->outer) rx_dispose(w->outer);
  rx_release(op);
  return v->log;
}

/* RxSwift's source: window(70, 3) from 200 to `unsub`. */
static const char *windows_of(vt *v, wlog *w, const char *end, int64_t unsub) {
  char spec[160];
  snprintf(spec, sizeof spec, "%s %s", WINDOWS_SOURCE, end);
  vt_src *src = vt_hot(v, spec);
  return run_windows(v, w, rx_window(src->obs, 70, 3, v->s), unsub);
}

RX_TEST(window_time_or_count_basic) {
  vt v;
  vt_begin(&v);
  wlog w = {.subscribe_windows = true};
  CHECK_STR(windows_of(&v, &w, "600:|", 1000),
            "200:W0 205:0.1 210:0.2 240:0.3 240:0| 240:W1 280:1.4 310:1| 310:W2 320:2.5 350:2.6 370:2.7 "
            "370:2| 370:W3 420:3.8 440:3| 440:W4 470:4.9 510:4| 510:W5 580:5| 580:W6 600:6| 600:|");
  CHECK_STR(vt_subs(&v.src[0]), "200-600");
  CHECK_EQ(v.disposed, 1);
  w_end(&w);
  vt_end(&v);
}

RX_TEST(window_time_or_count_error) {
  vt v;
  vt_begin(&v);
  wlog w = {.subscribe_windows = true};
  CHECK_STR(windows_of(&v, &w, "600:#5", 1000),
            "200:W0 205:0.1 210:0.2 240:0.3 240:0| 240:W1 280:1.4 310:1| 310:W2 320:2.5 350:2.6 370:2.7 "
            "370:2| 370:W3 420:3.8 440:3| 440:W4 470:4.9 510:4| 510:W5 580:5| 580:W6 600:6#5 600:#5");
  CHECK_STR(vt_subs(&v.src[0]), "200-600");
  w_end(&w);
  vt_end(&v);
}

/* RxSwift's form: each window mapped to "index value" (here index * 100 + value) and merged. */
static rx_value plus_ctx(void *ctx, rx_value v, rx_error **err) { return rx_int(v.i + (int64_t)(intptr_t)ctx); }
static rx_observable *indexed_window(void *ctx, rx_value pair, rx_error **err) {
  int64_t i = rx_array_get(pair, 0).i;
  rx_observable *window = rx_value_observable(rx_array_get(pair, 1));
  return rx_map(window, plus_ctx, (void *)(intptr_t)(i * 100), NULL);
}
static rx_observable *merged_windows(rx_observable *windows) {
  rx_observable *indexed = rx_enumerated(windows);
  rx_observable *merged = rx_flat_map(indexed, indexed_window, NULL, NULL);
  rx_release(indexed), rx_release(windows);
  return merged;
}

RX_TEST(window_merged_like_rxswift) {
  vt v;
  vt_begin(&v);
  vt_src *xs = vt_hot(&v, "105:0 205:1 210:2 240:3 280:4 320:5 350:6 370:7 420:8 470:9 600:|");
  CHECK_STR(VT_RUN(&v, merged_windows(rx_window(xs->obs, 70, 3, v.s))),
            "205:1 210:2 240:3 280:104 320:205 350:206 370:207 420:308 470:409 600:|");
  CHECK_STR(vt_subs(xs), "200-600");
  vt_end(&v);
}

RX_TEST(window_merged_disposed_in_the_middle) {
  vt v;
  vt_begin(&v);
  vt_src *xs = vt_hot(&v, "105:0 205:1 210:2 240:3 280:4 320:5 350:6 370:7 420:8 470:9 600:|");
  CHECK_STR(vt_run(&v, merged_windows(rx_window(xs->obs, 70, 3, v.s)), 200, 360),
            "205:1 210:2 240:3 280:104 320:205 350:206");
  /* Disposing the merge disposes the window subscriptions with it: nothing holds the source. */
  CHECK_STR(vt_subs(xs), "200-360");
  CHECK_EQ(v.disposed, 1);
  vt_end(&v);
}

RX_TEST(window_count_only_needs_no_scheduler) {
  vt v;
  vt_begin(&v);
  vt_src *xs = vt_hot(&v, "210:1 220:2 230:3 240:4 250:|");
  wlog w = {.subscribe_windows = true};
  /* A full window opens the next at once, so completion finds an empty one (as RxSwift). */
  CHECK_STR(run_windows(&v, &w, rx_window(xs->obs, 0, 2, NULL), 1000),
            "200:W0 210:0.1 220:0.2 220:0| 220:W1 230:1.3 240:1.4 240:1| 240:W2 250:2| 250:|");
  CHECK_STR(vt_subs(xs), "200-250");
  w_end(&w);
  vt_end(&v);
}

RX_TEST(window_time_only) {
  vt v;
  vt_begin(&v);
  vt_src *xs = vt_hot(&v, "210:1 260:2 270:3 330:|");
  wlog w = {.subscribe_windows = true};
  CHECK_STR(run_windows(&v, &w, rx_window(xs->obs, 50, 0, v.s), 1000),
            "200:W0 210:0.1 250:0| 250:W1 260:1.2 270:1.3 300:1| 300:W2 330:2| 330:|");
  CHECK_STR(vt_subs(xs), "200-330");
  w_end(&w);
  vt_end(&v);
}

RX_TEST(window_outlives_the_outer_subscription) {
  vt v;
  vt_begin(&v);
  vt_src *xs = vt_hot(&v, "210:1 220:2 260:3 270:4 300:|");
  wlog w = {.subscribe_windows = true};
  /* The outer subscription ends at 230; window 0 still gets its values until it closes at
   * 260, and the source subscription ends with it. No new window is emitted. */
  CHECK_STR(run_windows(&v, &w, rx_window(xs->obs, 0, 3, NULL), 230),
            "200:W0 210:0.1 220:0.2 260:0.3 260:0|");
  CHECK_STR(vt_subs(xs), "200-260");
  CHECK_EQ(v.disposed, 1);
  w_end(&w);
  vt_end(&v);
}

RX_TEST(window_timed_outlives_the_outer_subscription) {
  vt v;
  vt_begin(&v);
  vt_src *xs = vt_hot(&v, "210:1 220:2 260:3 270:4 300:|");
  wlog w = {.subscribe_windows = true};
  CHECK_STR(run_windows(&v, &w, rx_window(xs->obs, 50, 0, v.s), 230), "200:W0 210:0.1 220:0.2 250:0|");
  CHECK_STR(vt_subs(xs), "200-250");
  w_end(&w);
  vt_end(&v);
}

RX_TEST(window_unsubscribed_windows_let_the_source_go_with_the_outer) {
  vt v;
  vt_begin(&v);
  vt_src *xs = vt_hot(&v, "210:1 220:2 260:3 270:4 300:|");
  wlog w = {.subscribe_windows = false};
  CHECK_STR(run_windows(&v, &w, rx_window(xs->obs, 0, 3, NULL), 230), "200:W0");
  CHECK_STR(vt_subs(xs), "200-230");
  /* Window 0 was open when its source went: it never ends. */
  rec r;
  rx_disposable *late = rx_subscribe(rx_value_observable(w.windows[0]), rec_observer(&r));
  rx_test_scheduler_run(v.s);
  CHECK_STR(r.log, "");
  rx_dispose(late);
  CHECK_STR(r.log, ".");
  w_end(&w);
  vt_end(&v);
}

RX_TEST(window_a_disposed_window_subscription_keeps_nothing_alive) {
  vt v;
  vt_begin(&v);
  vt_src *xs = vt_hot(&v, "210:1 220:2 260:3 270:4 300:|");
  wlog w = {.subscribe_windows = true};
  w.v = &v;
  w.op = rx_window(xs->obs, 0, 3, NULL);
  rx_disposable *a = rx_schedule_after(v.s, 200, do_subscribe_w, &w, NULL);
  rx_disposable *b = rx_schedule_after(v.s, 230, do_dispose, &w, NULL);
  rx_test_scheduler_advance_to(v.s, 240);
  /* The window's subscription ended too: the source goes at once. */
  rx_dispose(w.tokens[0]);
  w.tokens[0] = NULL;
  rx_test_scheduler_run(v.s);
  rx_release(a), rx_release(b), rx_release(w.op);
  CHECK_STR(v.log, "200:W0 210:0.1 220:0.2");
  CHECK_STR(vt_subs(xs), "200-240");
  w_end(&w);
  vt_end(&v);
}

RX_TEST(window_is_hot_and_a_closed_window_gives_its_end) {
  vt v;
  vt_begin(&v);
  vt_src *xs = vt_hot(&v, "210:1 220:2 230:3 240:#7");
  wlog w = {.subscribe_windows = false};
  CHECK_STR(run_windows(&v, &w, rx_window(xs->obs, 0, 2, NULL), 1000), "200:W0 220:W1 240:#7");
  CHECK_EQ(w.n, 2);
  /* Subscribed after the fact: a window has no memory, only its terminal event. */
  rec r0, r1;
  rx_disposable *d0 = rx_subscribe(rx_value_observable(w.windows[0]), rec_observer(&r0));
  rx_disposable *d1 = rx_subscribe(rx_value_observable(w.windows[1]), rec_observer(&r1));
  CHECK_STR(r0.log, "|.");
  CHECK_EQ(r1.nexts, 0);
  CHECK_EQ(r1.error_code, 7);
  rx_dispose(d0), rx_dispose(d1);
  w_end(&w);
  vt_end(&v);
}

RX_TEST(window_bad_arguments) {
  rx_scheduler *s = rx_test_scheduler_new();
  rx_observable *src = rx_range(0, 3);
  CHECK(rx_window(NULL, 10, 2, s) == NULL);
  CHECK(strstr(rx_last_error(), "rx_window") != NULL);
  CHECK(rx_window(src, 0, 0, s) == NULL);
  CHECK(strstr(rx_last_error(), "span_ns and count are both 0") != NULL);
  CHECK(rx_window(src, -5, 0, s) == NULL);
  CHECK(rx_window(src, 10, 0, NULL) == NULL);
  CHECK(strstr(rx_last_error(), "rx_window") != NULL);
  CHECK(rx_window(src, 10, (size_t)-1, s) == NULL);
  CHECK(strstr(rx_last_error(), "too large") != NULL);
  CHECK(rx_window(src, 0, 2, (rx_scheduler *)src) == NULL); /* not a scheduler */
  rx_release(src), rx_release(s);
}

/* ---- several threads ---------------------------------------------------------------- */

typedef struct tally {
  atomic_long values, sum, windows, completed;
} tally;
typedef struct tally_sub {
  tally *t;
  atomic_int done;
  rx_disposable *tokens[4096];
  atomic_int n;
} tally_sub;

static void tally_value(void *ctx, rx_value v) {
  tally *t = ctx;
  atomic_fetch_add(&t->values, 1);
  atomic_fetch_add(&t->sum, v.i);
}
static void tally_completed(void *ctx) { atomic_fetch_add(&((tally *)ctx)->completed, 1); }
static void tally_window(void *ctx, rx_value v) {
  tally_sub *ts = ctx;
  atomic_fetch_add(&ts->t->windows, 1);
  rx_observer o = {.on_next = tally_value, .on_completed = tally_completed, .ctx = ts->t};
  int k = atomic_fetch_add(&ts->n, 1);
  CHECK(k < 4096);
  ts->tokens[k] = rx_subscribe(rx_value_observable(v), o);
}
static void tally_done(void *ctx) { atomic_store(&((tally_sub *)ctx)->done, 1); }

typedef struct feeder {
  rx_subject *s;
  int64_t from, n;
} feeder;
static void *feed(void *p) {
  feeder *f = p;
  for (int64_t i = 0; i < f->n; i++) rx_subject_on_next(f->s, rx_int(f->from + i));
  return NULL;
}

static void threads_case(int64_t span_ns, size_t count, rx_scheduler *sched) {
  rx_subject *s = rx_publish_subject_new();
  rx_observable *op = rx_window(rx_subject_as_observable(s), span_ns, count, sched);
  CHECK(op != NULL);
  static tally t;
  static tally_sub ts;
  memset(&t, 0, sizeof t);
  memset(&ts, 0, sizeof ts);
  ts.t = &t;
  rx_observer o = {.on_next = tally_window, .on_completed = tally_done, .ctx = &ts};
  rx_disposable *outer = rx_subscribe(op, o);
  enum { PER = 5000 };
  feeder f[2] = {{s, 1, PER}, {s, 1 + PER, PER}};
  pthread_t th[2];
  for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, feed, &f[i]);
  for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
  rx_subject_on_completed(s);
  /* A timer's thread may be delivering when completion arrives: it then delivers it. */
  for (int i = 0; i < 5000 && !atomic_load(&ts.done); i++) usleep(1000);
  CHECK(atomic_load(&ts.done));
  /* Every value reached the window open when it arrived, and every window completed. */
  CHECK_EQ(atomic_load(&t.values), 2 * PER);
  CHECK_EQ(atomic_load(&t.sum), (int64_t)(2 * PER) * (2 * PER + 1) / 2);
  CHECK_EQ(atomic_load(&t.completed), atomic_load(&t.windows));
  if (count) CHECK(atomic_load(&t.windows) >= (long)(2 * PER / count));
  rx_dispose(outer);
  int n = atomic_load(&ts.n);
  for (int k = 0; k < n; k++) rx_dispose(ts.tokens[k]);
  rx_release(op), rx_release(s);
}

RX_TEST(window_count_from_two_threads) { threads_case(0, 7, NULL); }

RX_TEST(window_time_and_count_from_two_threads) {
  rx_scheduler *sched = rx_scheduler_serial_new("window");
  threads_case(200000, 50, sched);
  rx_release(sched);
}
