/* One workload per operator of rxc.h in its natural shape (subject -> operator -> C
 * subscriber, or source -> operator -> subscriber), for the generic-metadata guard
 * (Tests/perf/metadata_guard.py). Run under callgrind, every workload's counters are dumped
 * under its own name (CALLGRIND_DUMP_STATS_AT), so one run gives per-workload call counts;
 * the guard runs it at two sizes and looks at what grows with the number of events.
 *
 * Usage: workloads N [name ...]     N events (or subscriptions) per workload
 * Prints the workloads' names; exits 1 if a workload misbehaves (no event arrived).
 *
 * `make bench` times the same workloads (its catalog table: one source for both):
 *   workloads --list                  name and shape of every workload
 *   workloads --time MS [name ...]    per workload: a warm-up that sizes the run to about
 *                                     MS ms, then one timed run; prints
 *                                     "RESULT name rxc n=N min_ns=T median_ns=T" */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <valgrind/callgrind.h>

#include "rxc.h"
#include "user_fns.h" /* the subscriber and the operators' functions */
#include "workloads_gen.h" /* build/gen: the workloads of operators with an @example */

static const rx_observer counter = {.on_next = count_next, .on_error = count_error, .on_completed = count_completed};

static rx_observable *to_just(void *ctx, rx_value v, rx_error **e) { (void)ctx; (void)e; return rx_just(v); }
static rx_observable *to_pair(void *ctx, rx_value v, rx_error **e) {
  (void)ctx; (void)e;
  rx_value two[2] = {v, v};
  return rx_of(two, 2);
}
static rx_observable *recover(void *ctx, const rx_error *err) { (void)ctx; (void)err; return rx_just(rx_int(0)); }

static rx_scheduler *test_sched;

/* The payload of event k: the integer k, or for the *_strings workloads one of two strings,
   alternately (so distinct_until_changed passes each), lent as a C caller lends them. */
static rx_value strings[2];
static int send_strings;
static rx_value payload(long k) { return send_strings ? strings[k & 1] : RX_INT(k); }

/* ---- shapes --------------------------------------------------------------------------- */

/* subject -> make(subject's observable) -> counter; n values sent into the subject. */
static void through_subject(rx_subject *s, rx_observable *(*make)(rx_observable *)) {
  rx_observable *o = make ? make(rx_subject_as_observable(s)) : rx_retain(rx_subject_as_observable(s));
  rx_disposable *d = rx_subscribe(o, counter);
  for (long k = 0; k < n_events; k++) rx_subject_on_next(s, payload(k));
  rx_subject_on_completed(s); /* reduce, last, to_array ... emit now */
  rx_dispose(d);
  rx_release(o);
  rx_release(s);
}
static void with_publish(rx_observable *(*make)(rx_observable *)) { through_subject(rx_publish_subject_new(), make); }

/* Two subjects -> make2 -> counter; each event goes into both. */
static void through_two(rx_observable *(*make2)(rx_observable *, rx_observable *)) {
  rx_subject *a = rx_publish_subject_new(), *b = rx_publish_subject_new();
  rx_observable *o = make2(rx_subject_as_observable(a), rx_subject_as_observable(b));
  rx_disposable *d = rx_subscribe(o, counter);
  for (long k = 0; k < n_events; k++) {
    rx_subject_on_next(a, payload(k));
    rx_subject_on_next(b, payload(k));
  }
  rx_dispose(d);
  rx_release(o);
  rx_release(a);
  rx_release(b);
}

/* A cold source of n elements -> counter. */
static void drain_source(rx_observable *o) {
  rx_disposable *d = rx_subscribe(o, counter);
  rx_dispose(d);
  rx_release(o);
}

/* subject -> make -> counter on the test scheduler: one event and one frame per event. */
static void timed(rx_observable *(*make)(rx_observable *)) {
  rx_subject *s = rx_publish_subject_new();
  rx_observable *o = make(rx_subject_as_observable(s));
  rx_disposable *d = rx_subscribe(o, counter);
  for (long k = 0; k < n_events; k++) {
    rx_subject_on_next(s, RX_INT(k));
    rx_test_scheduler_advance_by(test_sched, 1000);
  }
  rx_dispose(d);
  rx_release(o);
  rx_release(s);
}

/* ---- the operators, one maker each -------------------------------------------------- */
#define MAKER(name, expr) \
  static rx_observable *name(rx_observable *src) { return (expr); }
MAKER(op_map, rx_map(src, inc, NULL, NULL))
MAKER(op_filter, rx_filter(src, keep_all, NULL, NULL))
/* map -> filter -> map: one fused stage chain */
static rx_observable *op_map_filter_map(rx_observable *src) {
  rx_observable *a = rx_map(src, inc, NULL, NULL), *b = rx_filter(a, keep_all, NULL, NULL);
  rx_observable *c = rx_map(b, inc, NULL, NULL);
  rx_release(b);
  rx_release(a);
  return c;
}
MAKER(op_scan, rx_scan(src, RX_INT(0), add, NULL, NULL))
MAKER(op_reduce, rx_reduce(src, RX_INT(0), add, NULL, NULL))
MAKER(op_take, rx_take(src, (size_t)-1))
MAKER(op_skip, rx_skip(src, 1))
MAKER(op_take_while, rx_take_while(src, keep_all, NULL, NULL))
MAKER(op_skip_while, rx_skip_while(src, keep_none, NULL, NULL))
MAKER(op_take_while_inclusive, rx_take_while_inclusive(src, keep_all, NULL, NULL))
MAKER(op_take_until_predicate, rx_take_until_predicate(src, true, keep_none, NULL, NULL))
MAKER(op_distinct, rx_distinct_until_changed(src, NULL, NULL, NULL))
MAKER(op_distinct_eq, rx_distinct_until_changed(src, int_eq, NULL, NULL))
MAKER(op_element_at, rx_element_at(src, (size_t)-1))
MAKER(op_first, rx_first(src))
MAKER(op_last, rx_last(src))
MAKER(op_ignore, rx_ignore_elements(src))
MAKER(op_default_if_empty, rx_default_if_empty(src, RX_INT(0)))
MAKER(op_single, rx_single(src))
MAKER(op_enumerated, rx_enumerated(src))
MAKER(op_compact_map, rx_compact_map(src, keep_odd_inc, NULL, NULL))
MAKER(op_take_last, rx_take_last(src, 1))
GENERATED_MAKERS
MAKER(op_to_array, rx_to_array(src))
MAKER(op_buffer, rx_buffer(src, 0, 10, NULL))
MAKER(op_materialize, rx_materialize(src))
MAKER(op_flat_map, rx_flat_map(src, to_just, NULL, NULL))
MAKER(op_flat_map_max, rx_flat_map_max(src, 2, to_pair, NULL, NULL))
MAKER(op_flat_map_max_just, rx_flat_map_max(src, 1, to_just, NULL, NULL))
MAKER(op_flat_map_latest, rx_flat_map_latest(src, to_just, NULL, NULL))
MAKER(op_flat_map_first, rx_flat_map_first(src, to_just, NULL, NULL))
MAKER(op_concat_map, rx_concat_map(src, to_pair, NULL, NULL))
MAKER(op_catch, rx_catch(src, recover, NULL, NULL))
MAKER(op_catch_return, rx_catch_and_return(src, RX_INT(0)))
MAKER(op_retry, rx_retry(src, 3))
MAKER(op_share, rx_share(src))
MAKER(op_map_same, rx_map(src, same, NULL, NULL))
MAKER(op_scan_latest, rx_scan(src, RX_INT(0), latest, NULL, NULL))
MAKER(op_share_replay, rx_share_replay(src, 1))
MAKER(op_share_forever, rx_share_forever(src, 1))
MAKER(op_driver, rx_as_driver(src, RX_INT(0)))
MAKER(op_signal, rx_as_signal(src, RX_INT(0)))
MAKER(op_as_single, rx_as_single(src))
MAKER(op_as_maybe, rx_as_maybe(src))
MAKER(op_as_completable, rx_as_completable(src))
MAKER(op_observe_on, rx_observe_on(src, rx_scheduler_current_thread()))
MAKER(op_subscribe_on, rx_subscribe_on(src, rx_scheduler_immediate()))
static const rx_flow_options roomy = {sizeof(rx_flow_options), 1 << 20, RX_OVERFLOW_DROP_OLDEST, 0, ignore_drop, NULL, NULL};
MAKER(op_observe_on_bounded, rx_observe_on_bounded(src, rx_scheduler_current_thread(), &roomy))

/* A source and a pauser subject: the pauser toggles every other event, so values pass, are
   ignored (pausable), or are held, dropped and flushed (pausable_buffered, 2 slots). */
static void pausing(bool buffered) {
  rx_subject *s = rx_publish_subject_new(), *p = rx_publish_subject_new();
  rx_flow_options opts = {sizeof opts, 2, RX_OVERFLOW_DROP_OLDEST, 0, ignore_drop, NULL, NULL};
  rx_observable *o = buffered ? rx_pausable_buffered(rx_subject_as_observable(s), rx_subject_as_observable(p), &opts)
                              : rx_pausable(rx_subject_as_observable(s), rx_subject_as_observable(p));
  rx_disposable *d = rx_subscribe(o, counter);
  for (long k = 0; k < n_events; k++) {
    if (k % 2 == 0) rx_subject_on_next(p, RX_BOOL(k % 8 < 4));
    rx_subject_on_next(s, RX_INT(k));
  }
  rx_dispose(d);
  rx_release(o);
  rx_release(s);
  rx_release(p);
}
static void w_pausable(void) { pausing(false); }
static void w_pausable_buffered(void) { pausing(true); }

/* A bounded observe_on whose queue is full for every event (the drain runs only at the end):
   each one takes the drop-oldest path. */
static void w_observe_on_bounded_full(void) {
  rx_subject *s = rx_publish_subject_new();
  rx_flow_options opts = {sizeof opts, 4, RX_OVERFLOW_DROP_OLDEST, 0, ignore_drop, NULL, NULL};
  rx_observable *o = rx_observe_on_bounded(rx_subject_as_observable(s), test_sched, &opts);
  rx_disposable *d = rx_subscribe(o, counter);
  for (long k = 0; k < n_events; k++) rx_subject_on_next(s, RX_INT(k));
  rx_test_scheduler_advance_by(test_sched, 1000);
  rx_dispose(d);
  rx_release(o);
  rx_release(s);
}
/* One window for the whole run, subscribed by the counter as it opens. (Each new window
   costs two lookups in its subject's generic deinit: per window, not per event; see
   docs/SPECIALIZATION.md.) */
static rx_disposable *window_subs[4096];
static long n_window_subs;
static void subscribe_window(void *ctx, rx_value v) {
  (void)ctx;
  if (n_window_subs < 4096) window_subs[n_window_subs++] = rx_subscribe(rx_value_observable(v), counter);
}
static void w_window(void) {
  rx_subject *s = rx_publish_subject_new();
  rx_observable *o = rx_window(rx_subject_as_observable(s), 0, (size_t)1 << 40, NULL);
  rx_disposable *d = rx_subscribe(o, (rx_observer){.on_next = subscribe_window});
  for (long k = 0; k < n_events; k++) rx_subject_on_next(s, RX_INT(k));
  rx_subject_on_completed(s);
  rx_dispose(d);
  while (n_window_subs) rx_dispose(window_subs[--n_window_subs]);
  rx_release(o);
  rx_release(s);
}

/* One value per 1500 ns, one event per 1000 ns: every other value waits for the timer. */
MAKER(op_rate_limit, rx_rate_limit(src, 1, 1500, test_sched, &roomy))
/* A rate limit whose queue (4 slots) is full for every event: each one takes the drop path. */
static void w_rate_limit_full(void) {
  rx_subject *s = rx_publish_subject_new();
  rx_flow_options opts = {sizeof opts, 4, RX_OVERFLOW_DROP_OLDEST, 0, ignore_drop, NULL, NULL};
  rx_observable *o = rx_rate_limit(rx_subject_as_observable(s), 1, INT64_MAX, test_sched, &opts);
  rx_disposable *d = rx_subscribe(o, counter);
  for (long k = 0; k < n_events; k++) rx_subject_on_next(s, RX_INT(k));
  rx_dispose(d);
  rx_release(o);
  rx_release(s);
}
MAKER(op_debounce, rx_debounce(src, 500, test_sched))
MAKER(op_throttle, rx_throttle(src, 500, true, test_sched))
MAKER(op_delay, rx_delay(src, 500, test_sched))
MAKER(op_timeout, rx_timeout(src, 1000000, test_sched))
/* switches after the first event: the rest come through the fallback (the same subject) */
static rx_observable *op_retry_backoff(rx_observable *src) {
  rx_backoff_options o = {sizeof o, 1000, 2.0, 0, 3, 0.0, 0, false};
  return rx_retry_backoff(src, &o, test_sched);
}
static rx_observable *errors_identity(void *ctx, rx_observable *errors, rx_error **error) {
  return rx_retain(errors);
}
MAKER(op_retry_when, rx_retry_when(src, errors_identity, NULL, NULL))
MAKER(op_timeout_to, rx_timeout_to(src, 500, src, test_sched))
MAKER(op_buffer_time, rx_buffer(src, 500, 0, test_sched))
MAKER(op_skip_duration, rx_skip_duration(src, 500, test_sched))
/* A window longer than any run: every event is taken (1 ms would close it after 1000). */
MAKER(op_take_duration, rx_take_duration(src, 1000000000000000, test_sched))
MAKER(op_delay_subscription, rx_delay_subscription(src, 0, rx_scheduler_immediate()))

static rx_observable *op_start_with(rx_observable *src) {
  rx_value one = RX_INT(1);
  return rx_start_with(src, &one, 1);
}
static rx_observable *op_dematerialize(rx_observable *src) {
  rx_observable *m = rx_materialize(src), *o = rx_dematerialize(m);
  rx_release(m);
  return o;
}
static rx_observable *op_do(rx_observable *src) {
  rx_observer tap = {.on_next = count_next};
  return rx_do(src, tap, NULL);
}
static rx_observable *op_do_with_hooks(rx_observable *src) {
  rx_do_hooks h = {sizeof h, .on_next = count_next, .after_next = count_next};
  return rx_do_with_hooks(src, &h, NULL);
}
static void ignore_line(void *ctx, const char *line) { (void)ctx, (void)line; }
static rx_observable *op_debug_callback(rx_observable *src) { return rx_debug_callback(src, "w", ignore_line, NULL, NULL); }
static rx_observable *op_debug(rx_observable *src) {
  static FILE *devnull;
  if (!devnull) devnull = fopen("/dev/null", "w");
  return rx_debug(src, "w", devnull);
}
static rx_observable *op_take_until(rx_observable *src) {
  rx_observable *never = rx_never(), *o = rx_take_until(src, never);
  rx_release(never);
  return o;
}
static rx_observable *op_skip_until(rx_observable *src) {
  rx_observable *now = rx_just(RX_INT(0)), *o = rx_skip_until(src, now);
  rx_release(now);
  return o;
}
/* The subject is the fallback of an empty source: events go through the fallback's path. */
static rx_observable *op_switch_if_empty(rx_observable *src) {
  rx_observable *empty = rx_empty(), *o = rx_switch_if_empty(empty, src);
  rx_release(empty);
  return o;
}
/* rx_using whose observable is the subject's (ctx): events through the using sink. */
static void *no_resource(void *ctx, rx_error **e) { (void)ctx; (void)e; return NULL; }
static rx_observable *use_ctx(void *ctx, void *resource, rx_error **e) { (void)resource; (void)e; return rx_retain(ctx); }
static void no_release(void *ctx, void *resource) { (void)ctx; (void)resource; }
static rx_observable *op_using(rx_observable *src) { return rx_using(no_resource, use_ctx, no_release, src, NULL); }
/* The subject is the fallback of a failed source: events through the fallback's path. */
static rx_observable *op_catch_with(rx_observable *src) {
  rx_error *e = rx_error_new(RX_ERROR_USER, "fail");
  rx_observable *failed = rx_throw(e), *o = rx_catch_with(failed, src);
  rx_release(failed);
  rx_release(e);
  return o;
}
static rx_observable *op_publish_ref_count(rx_observable *src) {
  rx_observable *p = rx_publish(src), *o = rx_ref_count(p);
  rx_release(p);
  return o;
}
static rx_observable *op_replay_ref_count(rx_observable *src) {
  rx_observable *p = rx_replay(src, 1), *o = rx_ref_count(p);
  rx_release(p);
  return o;
}
static rx_observable *op_replay_all_ref_count(rx_observable *src) {
  rx_observable *p = rx_replay_all(src), *o = rx_ref_count(p);
  rx_release(p);
  return o;
}
/* through the caller's subject, kept by the connectable (a replay subject: the buffered path) */
static rx_observable *op_multicast_ref_count(rx_observable *src) {
  rx_subject *s = rx_replay_subject_new(2);
  rx_observable *p = rx_multicast(src, s), *o = rx_ref_count(p);
  rx_release(s);
  rx_release(p);
  return o;
}

static rx_observable *two_merge(rx_observable *a, rx_observable *b) {
  rx_observable *v[2] = {a, b};
  return rx_merge(v, 2);
}
static rx_observable *two_combine(rx_observable *a, rx_observable *b) {
  rx_observable *v[2] = {a, b};
  return rx_combine_latest(v, 2, sum2, NULL, NULL);
}
static rx_observable *two_zip(rx_observable *a, rx_observable *b) {
  rx_observable *v[2] = {a, b};
  return rx_zip(v, 2, sum2, NULL, NULL);
}
static rx_observable *two_with_latest(rx_observable *a, rx_observable *b) {
  return rx_with_latest_from(a, b, sum2, NULL, NULL);
}
static rx_observable *two_sample(rx_observable *a, rx_observable *b) { return rx_sample(a, b); }
static rx_observable *two_combine_first(rx_observable *a, rx_observable *b) {
  rx_observable *v[2] = {a, b};
  return rx_combine_latest(v, 2, first_of, NULL, NULL);
}
static rx_observable *two_with_latest_first(rx_observable *a, rx_observable *b) {
  return rx_with_latest_from(a, b, first_of, NULL, NULL);
}
static rx_observable *two_zip_first(rx_observable *a, rx_observable *b) {
  rx_observable *v[2] = {a, b};
  return rx_zip(v, 2, first_of, NULL, NULL);
}
static rx_observable *two_amb(rx_observable *a, rx_observable *b) {
  rx_observable *v[2] = {a, b};
  return rx_amb(v, 2);
}
static rx_observable *two_merge_max(rx_observable *a, rx_observable *b) {
  rx_observable *both[2] = {a, b};
  return rx_merge_max(both, 2, 1);
}
static rx_observable *two_concat(rx_observable *a, rx_observable *b) {
  rx_observable *v[2] = {a, b};
  return rx_concat(v, 2);
}

/* ---- the workloads ------------------------------------------------------------------ */
static void w_subject(const char *kind) {
  rx_subject *s = !strcmp(kind, "behavior")         ? rx_behavior_subject_new(RX_INT(0))
                  : !strcmp(kind, "replay")         ? rx_replay_subject_new(10)
                  : !strcmp(kind, "replay_all")     ? rx_replay_subject_new_unbounded()
                  : !strcmp(kind, "async")          ? rx_async_subject_new()
                  : !strcmp(kind, "publish_relay")  ? rx_publish_relay_new()
                  : !strcmp(kind, "behavior_relay") ? rx_behavior_relay_new(RX_INT(0))
                  : !strcmp(kind, "replay_relay")   ? rx_replay_relay_new(10)
                                                    : rx_publish_subject_new();
  through_subject(s, NULL);
}
static void w_switch_latest(void) {
  rx_subject *s = rx_publish_subject_new();
  rx_observable *o = rx_switch_latest(rx_subject_as_observable(s));
  rx_disposable *d = rx_subscribe(o, counter);
  for (long k = 0; k < n_events; k++) {
    rx_observable *inner = rx_just(RX_INT(k));
    rx_value v = rx_observable_value(inner);
    rx_subject_on_next(s, v);
    rx_value_release(v);
    rx_release(inner);
  }
  rx_dispose(d);
  rx_release(o);
  rx_release(s);
}
static void w_subscribe_dispose(rx_observable *(*make)(rx_observable *)) {
  rx_subject *s = rx_publish_subject_new();
  rx_observable *o = make ? make(rx_subject_as_observable(s)) : rx_retain(rx_subject_as_observable(s));
  for (long k = 0; k < n_events; k++) {
    rx_disposable *d = rx_subscribe(o, counter);
    rx_subject_on_next(s, RX_INT(k));
    rx_dispose(d);
  }
  rx_release(o);
  rx_release(s);
}
static void w_just_map(void) {
  for (long k = 0; k < n_events; k++) {
    rx_observable *j = rx_just(RX_INT(k)), *m = rx_map(j, inc, NULL, NULL);
    rx_disposable *d = rx_subscribe(m, counter);
    rx_dispose(d);
    rx_release(m);
    rx_release(j);
  }
}
static void w_repeat_element(void) {
  rx_observable *r = rx_repeat_element(RX_INT(1), NULL), *t = rx_take(r, (size_t)n_events);
  drain_source(t);
  rx_release(r);
}
static void w_generate(void) { drain_source(rx_generate(RX_INT(0), NULL, below_n, inc, NULL, NULL)); }
/* just(i) -> make -> subscribe + dispose, per lifecycle: for operators that end a
   subscription at a second element. */
static void w_just_then(rx_observable *(*make)(rx_observable *)) {
  for (long k = 0; k < n_events; k++) {
    rx_observable *j = rx_just(RX_INT(k)), *o = make(j);
    rx_dispose(rx_subscribe(o, counter));
    rx_release(o);
    rx_release(j);
  }
}
/* The trait subscribe functions, per lifecycle: just(i) (-> ignore_elements) -> subscribe + dispose. */
static void w_just_subscribe_single(void) {
  for (long k = 0; k < n_events; k++) {
    rx_observable *j = rx_just(RX_INT(k));
    rx_dispose(rx_subscribe_single(j, count_next, count_error, NULL, NULL));
    rx_release(j);
  }
}
static void w_just_subscribe_maybe(void) {
  for (long k = 0; k < n_events; k++) {
    rx_observable *j = rx_just(RX_INT(k));
    rx_dispose(rx_subscribe_maybe(j, count_next, count_error, count_completed, NULL, NULL));
    rx_release(j);
  }
}
static void w_ignore_subscribe_completable(void) {
  for (long k = 0; k < n_events; k++) {
    rx_observable *j = rx_just(RX_INT(k)), *e = rx_ignore_elements(j);
    rx_dispose(rx_subscribe_completable(e, count_completed, count_error, NULL, NULL));
    rx_release(e);
    rx_release(j);
  }
}
static void w_range_chain(void) {
  rx_observable *r = rx_range(0, (size_t)n_events), *a = rx_map(r, inc, NULL, NULL);
  rx_observable *b = rx_filter(a, keep_all, NULL, NULL), *c = rx_scan(b, RX_INT(0), add, NULL, NULL);
  drain_source(rx_retain(c));
  rx_release(c);
  rx_release(b);
  rx_release(a);
  rx_release(r);
}
static void w_range_map(void) {
  rx_observable *r = rx_range(0, (size_t)n_events);
  drain_source(rx_map(r, inc, NULL, NULL));
  rx_release(r);
}
static void w_of(void) {
  rx_value *vs = calloc((size_t)n_events, sizeof *vs);
  for (long k = 0; k < n_events; k++) vs[k] = RX_INT(k);
  drain_source(rx_of(vs, (size_t)n_events));
  free(vs);
}
/* rx_create: the subscribe function keeps the emitter; each event goes in through
   rx_emitter_next. */
static rx_emitter *create_emitter;
static rx_disposable *keep_emitter(void *ctx, rx_emitter *e) {
  (void)ctx;
  create_emitter = rx_retain(e);
  return NULL;
}
static void w_create(void) {
  rx_observable *o = rx_create(keep_emitter, NULL, NULL);
  rx_disposable *d = rx_subscribe(o, counter);
  for (long k = 0; k < n_events; k++) rx_emitter_next(create_emitter, payload(k));
  rx_emitter_completed(create_emitter);
  rx_dispose(d);
  rx_release(create_emitter);
  rx_release(o);
}
static void w_interval(void) {
  rx_observable *o = rx_interval(1000, test_sched);
  rx_disposable *d = rx_subscribe(o, counter);
  for (long k = 0; k < n_events; k++) rx_test_scheduler_advance_by(test_sched, 1000);
  rx_dispose(d);
  rx_release(o);
}
static void w_range_flat_map(void) {
  rx_observable *r = rx_range(0, (size_t)n_events);
  drain_source(rx_flat_map(r, to_just, NULL, NULL));
  rx_release(r);
}
/* publish subject -> share -> 10 C subscribers: each event is 10 deliveries. */
static void w_share_10(void) {
  rx_subject *s = rx_publish_subject_new();
  rx_observable *o = rx_share(rx_subject_as_observable(s));
  rx_disposable *d[10];
  for (int i = 0; i < 10; i++) d[i] = rx_subscribe(o, counter);
  for (long k = 0; k < n_events; k++) rx_subject_on_next(s, RX_INT(k));
  rx_subject_on_completed(s);
  for (int i = 0; i < 10; i++) rx_dispose(d[i]);
  rx_release(o);
  rx_release(s);
}
static void w_range_concat_map(void) {
  rx_observable *r = rx_range(0, (size_t)n_events);
  drain_source(rx_concat_map(r, to_pair, NULL, NULL));
  rx_release(r);
}

/* publish subject -> group_by (4 keys) -> a C subscriber per group, subscribed in on_next
   (which reads the group's key): per event one key, one lookup, one group delivery. */
typedef struct {
  rx_disposable *d[4];
  int n;
} group_subs;
static void subscribe_group(void *ctx, rx_value v) {
  group_subs *g = ctx;
  rx_value key;
  if (g->n == 4 || rx_group_key(rx_value_observable(v), &key) != RX_OK) {
    fprintf(stderr, "workloads: group_by: a fifth group, or no key\n");
    exit(1);
  }
  rx_value_release(key);
  g->d[g->n++] = rx_subscribe(rx_value_observable(v), counter);
}
static rx_value mod4_name(void *ctx, rx_value v, rx_error **e) {
  static const char *const names[] = {"north", "east", "south", "west"};
  (void)ctx; (void)e;
  return rx_string(names[v.i & 3]);
}
static void group_by_with(rx_map_fn key) {
  rx_subject *s = rx_publish_subject_new();
  rx_observable *o = rx_group_by(rx_subject_as_observable(s), key, NULL, NULL);
  group_subs g = {{NULL}, 0};
  rx_observer outer = {.on_next = subscribe_group, .ctx = &g};
  rx_disposable *d = rx_subscribe(o, outer);
  for (long k = 0; k < n_events; k++) rx_subject_on_next(s, RX_INT(k));
  rx_subject_on_completed(s);
  rx_dispose(d);
  for (int i = 0; i < g.n; i++) rx_dispose(g.d[i]);
  rx_release(o);
  rx_release(s);
}
static void w_group_by(void) { group_by_with(mod4); }
static void w_group_by_strings(void) { group_by_with(mod4_name); }

typedef struct {
  const char *name;
  void (*run)(const void *arg);
  const void *arg;
} Workload;

static void run_subject(const void *a) { w_subject(a); }
static void run_publish(const void *a) { with_publish((rx_observable * (*)(rx_observable *)) a); }
static void run_two(const void *a) { through_two((rx_observable * (*)(rx_observable *, rx_observable *)) a); }
static void run_timed(const void *a) { timed((rx_observable * (*)(rx_observable *)) a); }
static void run_sub_dispose(const void *a) { w_subscribe_dispose((rx_observable * (*)(rx_observable *)) a); }
static void run_just(const void *a) { w_just_then((rx_observable * (*)(rx_observable *)) a); }
static void run_plain(const void *a) { ((void (*)(void))a)(); }
/* Another workload's shape with strings for payloads (see `payload`). */
static void run_strings(const void *a) {
  const Workload *w = a;
  send_strings = 1;
  w->run(w->arg);
  send_strings = 0;
}

#define SUBJ(kind) {"subject_" kind, run_subject, kind}
#define OP(name) {#name, run_publish, (const void *)op_##name}
#define TWO(name) {#name, run_two, (const void *)two_##name}
#define TIMED(name) {#name, run_timed, (const void *)op_##name}
#define PLAIN(name, fn) {name, run_plain, (const void *)fn}
#define STRINGS(name, ...) {name, run_strings, &(const Workload)__VA_ARGS__}
static const Workload workloads[] = {
  SUBJ("publish"), SUBJ("behavior"), SUBJ("replay"), SUBJ("replay_all"), SUBJ("async"),
  SUBJ("publish_relay"), SUBJ("behavior_relay"), SUBJ("replay_relay"),
  OP(map), OP(filter), OP(map_filter_map), OP(scan), OP(reduce), OP(take), OP(skip), OP(take_while), OP(skip_while),
  OP(distinct), OP(distinct_eq), OP(element_at), OP(first), OP(last), OP(ignore), OP(take_last),
  OP(default_if_empty), OP(switch_if_empty), OP(enumerated), OP(compact_map), OP(take_while_inclusive),
  OP(take_until_predicate), OP(using), OP(catch_with), OP(flat_map_max), OP(flat_map_max_just),
  OP(to_array), OP(buffer), OP(materialize), OP(dematerialize), OP(start_with), OP(flat_map),
  OP(flat_map_latest), OP(flat_map_first), OP(concat_map), OP(catch), OP(catch_return), OP(retry), OP(retry_when), OP(do), OP(do_with_hooks), OP(debug), OP(debug_callback),
  OP(take_until), OP(skip_until), OP(share), OP(share_replay), OP(share_forever), OP(publish_ref_count),
  OP(replay_ref_count), OP(replay_all_ref_count), OP(multicast_ref_count), OP(driver), OP(signal), OP(observe_on), OP(observe_on_bounded), OP(subscribe_on), OP(delay_subscription),
  TWO(merge), TWO(combine), TWO(zip), TWO(with_latest), TWO(sample), TWO(amb), TWO(concat), TWO(merge_max),
  GENERATED_WORKLOADS
  TIMED(debounce), TIMED(throttle), TIMED(delay), TIMED(timeout), TIMED(buffer_time),
  TIMED(skip_duration), TIMED(take_duration), TIMED(timeout_to),
  TIMED(retry_backoff), TIMED(rate_limit),
  PLAIN("switch_latest", w_switch_latest),
  {"subscribe_dispose_subject", run_sub_dispose, NULL},
  {"subscribe_dispose_map", run_sub_dispose, (const void *)op_map},
  /* single ends a subscription at its second element: measured per subscription */
  {"subscribe_dispose_single", run_sub_dispose, (const void *)op_single},
  /* using makes and releases a resource per subscription */
  {"subscribe_dispose_using", run_sub_dispose, (const void *)op_using},
  /* single, maybe and completable end a subscription at a second (or any) element: measured
     per subscription */
  {"just_as_single", run_just, (const void *)op_as_single},
  {"just_as_maybe", run_just, (const void *)op_as_maybe},
  {"subscribe_dispose_as_completable", run_sub_dispose, (const void *)op_as_completable},
  PLAIN("just_subscribe_single", w_just_subscribe_single), PLAIN("just_subscribe_maybe", w_just_subscribe_maybe),
  PLAIN("ignore_subscribe_completable", w_ignore_subscribe_completable),
  PLAIN("just_map_subscribe", w_just_map), PLAIN("range_map_filter_scan", w_range_chain),
  PLAIN("range_map", w_range_map),
  PLAIN("of", w_of), PLAIN("create", w_create), PLAIN("interval", w_interval), PLAIN("range_flat_map_just", w_range_flat_map),
  PLAIN("range_concat_map_of", w_range_concat_map), PLAIN("share_10", w_share_10),
  PLAIN("observe_on_bounded_full", w_observe_on_bounded_full),
  PLAIN("pausable", w_pausable), PLAIN("pausable_buffered", w_pausable_buffered),
  PLAIN("window", w_window), PLAIN("rate_limit_full", w_rate_limit_full),
  PLAIN("repeat_element_take", w_repeat_element),
  PLAIN("generate", w_generate),
  PLAIN("group_by", w_group_by), PLAIN("group_by_string_keys", w_group_by_strings),
  /* strings through the paths that lend, keep, compare or hand over a boxed value */
  STRINGS("subject_publish_strings", SUBJ("publish")), STRINGS("subject_behavior_strings", SUBJ("behavior")),
  STRINGS("subject_replay_strings", SUBJ("replay")), STRINGS("map_strings", OP(map_same)),
  STRINGS("distinct_strings", OP(distinct)), STRINGS("scan_strings", OP(scan_latest)),
  STRINGS("share_strings", OP(share)), STRINGS("share_replay_strings", OP(share_replay)),
  STRINGS("flat_map_strings", OP(flat_map)), STRINGS("buffer_strings", OP(buffer)),
  STRINGS("combine_strings", TWO(combine_first)), STRINGS("zip_strings", TWO(zip_first)),
  STRINGS("with_latest_strings", TWO(with_latest_first)), STRINGS("sample_strings", TWO(sample)),
  STRINGS("create_strings", PLAIN("create", w_create)),
};

static const char *shape(const Workload *wl) {
  if (wl->run == run_strings) {
    static char text[160];
    snprintf(text, sizeof text, "%s, two strings alternately", shape(wl->arg));
    return text;
  }
  if (wl->run == run_plain) {
    return !strcmp(wl->name, "switch_latest")        ? "publish subject of just(i) -> switch_latest -> C subscriber"
           : !strcmp(wl->name, "just_map_subscribe") ? "just(i) -> map -> subscribe + dispose, per lifecycle"
           : !strcmp(wl->name, "just_subscribe_single") ? "just(i) -> rx_subscribe_single + dispose, per lifecycle"
           : !strcmp(wl->name, "just_subscribe_maybe") ? "just(i) -> rx_subscribe_maybe + dispose, per lifecycle"
           : !strcmp(wl->name, "ignore_subscribe_completable") ? "just(i) -> ignore_elements -> rx_subscribe_completable + dispose, per lifecycle"
           : !strcmp(wl->name, "create")             ? "rx_create's emitter -> C subscriber, per event"
           : !strcmp(wl->name, "interval")           ? "interval on the test scheduler, advanced per tick"
           : !strcmp(wl->name, "share_10")           ? "publish subject -> share -> 10 C subscribers, per event (10 deliveries)"
           : !strncmp(wl->name, "group_by", 8)       ? "publish subject -> group_by (4 keys) -> a C subscriber per group"
                                                     : "cold source -> C subscriber, per element";
  }
  return wl->run == run_subject       ? "subject -> C subscriber"
         : wl->run == run_publish     ? "publish subject -> operator -> C subscriber"
         : wl->run == run_two         ? "two publish subjects -> operator -> C subscriber"
         : wl->run == run_timed       ? "publish subject -> operator (test scheduler, advanced per event)"
         : wl->run == run_sub_dispose ? "subscribe + one event + dispose, per subscription"
         : wl->run == run_just        ? "just(i) -> operator -> subscribe + dispose, per lifecycle"
                                      : "?";
}

static void make_strings(void) {
  strings[0] = rx_string("north");
  strings[1] = rx_string("south");
}
static void release_strings(void) {
  rx_value_release(strings[0]);
  rx_value_release(strings[1]);
}

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ns per event of one run of n events. */
static double time_one(const Workload *wl, long n) {
  n_events = n;
  delivered = 0;
  double t0 = now_ns();
  wl->run(wl->arg);
  double ns = (now_ns() - t0) / (double)n;
  if (delivered == 0) {
    fprintf(stderr, "workloads: %s delivered nothing\n", wl->name);
    exit(1);
  }
  return ns;
}

/* Events that fill about max_ms at ns_per_event, within [1000, 4M] (the unbounded replay
   subject and to_array keep every event). */
static long size_for(double max_ms, double ns_per_event) {
  double n = max_ms * 1e6 / (ns_per_event > 0.1 ? ns_per_event : 0.1);
  return n < 1000 ? 1000 : n > 4e6 ? 4000000 : (long)n;
}

static int time_workloads(double max_ms, int argc, char **argv) {
  for (size_t w = 0; w < sizeof workloads / sizeof workloads[0]; w++) {
    const Workload *wl = &workloads[w];
    int picked = argc == 0;
    for (int a = 0; a < argc; a++) picked |= !strcmp(argv[a], wl->name);
    if (!picked) continue;
    /* Two warm-ups: the first (1000 events) pays first-use costs, the second (a tenth of
       the run) sizes it. */
    long n = size_for(max_ms / 10, time_one(wl, 1000));
    n = size_for(max_ms, time_one(wl, n));
    double ns = time_one(wl, n);
    printf("RESULT %s rxc n=%ld min_ns=%.3f median_ns=%.3f   # %s\n", wl->name, n, ns, ns, shape(wl));
    fflush(stdout);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "--list")) {
    for (size_t w = 0; w < sizeof workloads / sizeof workloads[0]; w++)
      printf("%s\t%s\n", workloads[w].name, shape(&workloads[w]));
    return 0;
  }
  if (argc >= 3 && !strcmp(argv[1], "--time")) {
    int64_t live0 = rx_debug_live_objects();
    test_sched = rx_test_scheduler_new();
    make_strings();
    int rc = time_workloads(atof(argv[2]), argc - 3, argv + 3);
    release_strings();
    rx_release(test_sched);
    if (rx_debug_live_objects() != live0) {
      fprintf(stderr, "workloads: %lld objects still live\n", (long long)(rx_debug_live_objects() - live0));
      rc = 1;
    }
    return rc;
  }
  if (argc < 2 || (n_events = atol(argv[1])) <= 0) {
    fprintf(stderr, "usage: %s N [workload ...]\n", argv[0]);
    return 2;
  }
  int failed = 0;
  int64_t live0 = rx_debug_live_objects();
  test_sched = rx_test_scheduler_new();
  make_strings();
  CALLGRIND_ZERO_STATS;
  for (size_t w = 0; w < sizeof workloads / sizeof workloads[0]; w++) {
    const Workload *wl = &workloads[w];
    int picked = argc == 2;
    for (int a = 2; a < argc; a++) picked |= !strcmp(argv[a], wl->name);
    if (!picked) continue;
    delivered = 0;
    wl->run(wl->arg);
    CALLGRIND_DUMP_STATS_AT(wl->name);
    /* Every workload delivers something (some only their terminal event). */
    if (delivered == 0) {
      fprintf(stderr, "workloads: %s delivered nothing\n", wl->name);
      failed = 1;
    }
    printf("%s %ld\n", wl->name, delivered);
  }
  release_strings();
  rx_release(test_sched);
  if (rx_debug_live_objects() != live0) {
    fprintf(stderr, "workloads: %lld objects still live\n", (long long)(rx_debug_live_objects() - live0));
    failed = 1;
  }
  return failed;
}
