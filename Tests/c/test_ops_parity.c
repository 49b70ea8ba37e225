/* The operators that complete RxSwift's set: default_if_empty, switch_if_empty, single,
 * enumerated, ... Marble cases follow RxSwift's own tests for each operator
 * (Observable+DefaultIfEmpty, +SwitchIfEmptyTests, +SingleTests, +EnumeratedTests, ...);
 * then errors, disposal, lifetimes and bad input.
 *
 * Frame 0 is the start of every marble; hot sources are made at frame 0, cold ones start at
 * their subscription; the expected marble's '!' is where the test disposes. */
#include "ops_support.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

static rx_scheduler *ts;
static rx_observable *kept[64];
static int n_kept;

static rx_observable *K(rx_observable *o) {
  CHECK_MSG(o != NULL, "%s", rx_last_error());
  kept[n_kept++] = o;
  return o;
}
static rx_observable *hotm(const char *m) { return K(rx_marble_hot(ts, m, NULL, 0, NULL)); }
static rx_observable *coldm(const char *m) { return K(rx_marble_cold(ts, m, NULL, 0, NULL)); }
static void begin(void) { ts = rx_test_scheduler_new(); }
static void end(void) {
  while (n_kept) rx_release(kept[--n_kept]);
  rx_release(ts);
}
/* An error released by end() with the observables (rx_release takes any handle). */
static rx_error *err(int32_t code, const char *msg) {
  rx_error *e = rx_error_new(code, msg);
  kept[n_kept++] = (rx_observable *)e;
  return e;
}

#define EXPECT(o, m) CHECK(rx_marble_expect(ts, (o), (m), NULL, 0, NULL))
#define EXPECT_E(o, m, e) CHECK(rx_marble_expect(ts, (o), (m), NULL, 0, (e)))
#define EXPECT_V(o, m, table) \
  CHECK(rx_marble_expect(ts, (o), (m), (table), sizeof(table) / sizeof((table)[0]), NULL))
#define EXPECT_VE(o, m, table, e) \
  CHECK(rx_marble_expect(ts, (o), (m), (table), sizeof(table) / sizeof((table)[0]), (e)))

/* A source that counts its subscriptions: defer around `inner`. */
typedef struct subscribe_count {
  rx_observable *inner;
  int subscriptions;
} subscribe_count;
static rx_observable *counted_factory(void *ctx) {
  subscribe_count *c = ctx;
  c->subscriptions++;
  return rx_retain(c->inner);
}
static rx_observable *counted(subscribe_count *c, rx_observable *inner) {
  c->inner = inner;
  c->subscriptions = 0;
  return K(rx_defer(counted_factory, c, NULL));
}

/* ---- default_if_empty ------------------------------------------------------------------ */

RX_TEST(marble_default_if_empty_of_an_empty_source) {
  begin();
  EXPECT(K(rx_default_if_empty(hotm("--|"), RX_INT(7))), "--(7|)");
  end();
}

RX_TEST(marble_default_if_empty_passes_elements_and_errors) {
  begin();
  EXPECT(K(rx_default_if_empty(hotm("-1-2-3-|"), RX_INT(7))), "-1-2-3-|");
  EXPECT(K(rx_default_if_empty(hotm("--#"), RX_INT(7))), "--#");
  EXPECT(K(rx_default_if_empty(hotm("-1-#"), RX_INT(7))), "-1-#");
  end();
}

RX_TEST(marble_default_if_empty_never_and_dispose) {
  begin();
  EXPECT(K(rx_default_if_empty(hotm("-----"), RX_INT(7))), "-----");
  EXPECT(K(rx_default_if_empty(coldm("----|"), RX_INT(7))), "--!");
  end();
}

RX_TEST(default_if_empty_boxed_value_lives_with_the_observable) {
  rx_value s = rx_string("fallback");
  rx_observable *o = rx_default_if_empty(EMPTY(), s);
  rx_value_release(s); /* the operator keeps its own reference */
  CHECK_STR(run_log(rx_retain(o)), "'fallback' |.");
  CHECK_STR(run_log(o), "'fallback' |.");
  CHECK_STR(run_log(rx_default_if_empty(INTS(1, 2), RX_INT(9))), "1 2 |.");
  CHECK_STR(run_log(rx_default_if_empty(THROW_BOOM(), RX_INT(9))), "#1000(boom).");
}

RX_TEST(default_if_empty_bad_input) {
  CHECK(rx_default_if_empty(NULL, RX_INT(1)) == NULL);
  CHECK(strstr(rx_last_error(), "rx_default_if_empty") != NULL);
  rx_subject *s = rx_publish_subject_new();
  CHECK(rx_default_if_empty((rx_observable *)s, RX_INT(1)) == NULL); /* a subject is no observable */
  CHECK(strstr(rx_last_error(), "rx_default_if_empty") != NULL);
  rx_value bad = {.kind = (rx_kind)99, .i = 0};
  CHECK(rx_default_if_empty(rx_subject_as_observable(s), bad) == NULL);
  CHECK(strstr(rx_last_error(), "rx_default_if_empty") != NULL);
  rx_release(s);
}

/* ---- switch_if_empty ------------------------------------------------------------------- */

/* switch_if_empty of the hot `src` into a counted cold "-7-8-|": `expected`, and how often
 * the fallback was subscribed. */
static void expect_switch(const char *src, const char *expected, int subscribed) {
  subscribe_count c;
  rx_observable *fallback = counted(&c, coldm("-7-8-|"));
  EXPECT(K(rx_switch_if_empty(hotm(src), fallback)), expected);
  CHECK_EQ(c.subscriptions, subscribed);
}

RX_TEST(marble_switch_if_empty_subscribes_the_fallback_only_when_empty) {
  begin();
  expect_switch("--1--|", "--1--|", 0);
  expect_switch("--1--#", "--1--#", 0);
  expect_switch("---#", "---#", 0);
  expect_switch("---|", "----7-8-|", 1);
  end();
}

RX_TEST(marble_switch_if_empty_fallback_error_never_and_dispose) {
  begin();
  EXPECT_E(K(rx_switch_if_empty(hotm("---|"), coldm("-7-#"))), "----7-#", NULL);
  EXPECT(K(rx_switch_if_empty(hotm("------"), coldm("-7-|"))), "------");
  EXPECT(K(rx_switch_if_empty(hotm("--|"), coldm("-7-8-9-|"))), "---7-8!");
  rx_error *e = err(RX_ERROR_USER + 5, "five");
  rx_observable *failing = K(rx_throw(e));
  EXPECT_E(K(rx_switch_if_empty(hotm("-|"), failing)), "-#", e);
  end();
}

RX_TEST(switch_if_empty_disposes_the_fallback) {
  hot h;
  rx_observable *fb = hot_new(&h);
  rx_observable *o = rx_switch_if_empty(EMPTY(), fb);
  rec r;
  rx_disposable *d = rx_subscribe(o, rec_observer(&r));
  hot_next(&h, 4);
  CHECK_STR(r.log, "4");
  rx_dispose(d);
  hot_next(&h, 5);
  CHECK_STR(r.log, "4.");
  CHECK_EQ(h.disposed, 1);
  hot_end(&h);
  rx_release(fb);
  rx_release(o);
  pool_drain();
}

RX_TEST(switch_if_empty_synchronous_and_bad_input) {
  CHECK_STR(run_log(rx_switch_if_empty(EMPTY(), INTS(1, 2))), "1 2 |.");
  CHECK_STR(run_log(rx_switch_if_empty(INTS(3), INTS(1, 2))), "3 |.");
  CHECK_STR(run_log(rx_take(A(rx_switch_if_empty(EMPTY(), A(rx_range(0, 1000000)))), 2)), "0 1 |.");
  CHECK(rx_switch_if_empty(NULL, INTS(1)) == NULL);
  CHECK(strstr(rx_last_error(), "rx_switch_if_empty") != NULL);
  CHECK(rx_switch_if_empty(INTS(1), NULL) == NULL);
  CHECK(strstr(rx_last_error(), "rx_switch_if_empty") != NULL);
  CHECK(strstr(rx_last_error(), "fallback") != NULL);
  pool_drain();
}

/* ---- single ---------------------------------------------------------------------------- */

RX_TEST(marble_single_of_one_element) {
  begin();
  EXPECT(K(rx_single(hotm("--2---|"))), "--2---|");
  end();
}

RX_TEST(marble_single_of_none_and_of_many) {
  begin();
  EXPECT_E(K(rx_single(hotm("-----|"))), "-----#", err(RX_ERROR_NO_ELEMENTS, "sequence contains no elements"));
  EXPECT_E(K(rx_single(hotm("--2-3--4-|"))), "--2-#",
           err(RX_ERROR_MORE_THAN_ONE_ELEMENT, "sequence contains more than one element"));
  end();
}

RX_TEST(marble_single_error_never_and_dispose) {
  begin();
  EXPECT(K(rx_single(hotm("--#"))), "--#");
  EXPECT(K(rx_single(hotm("-2-#"))), "-2-#");
  EXPECT(K(rx_single(hotm("-2----"))), "-2----");
  EXPECT(K(rx_single(coldm("-2----|"))), "-2-!");
  end();
}

RX_TEST(single_disposes_the_source_at_the_second_element) {
  hot h;
  rx_observable *src = hot_new(&h);
  rx_observable *o = rx_single(src);
  rec r;
  rx_disposable *d = rx_subscribe(o, rec_observer(&r));
  hot_next(&h, 1);
  hot_next(&h, 2);
  CHECK_EQ(h.disposed, 1);
  hot_next(&h, 3);
  CHECK_EQ(r.error_code, RX_ERROR_MORE_THAN_ONE_ELEMENT);
  CHECK_EQ(r.nexts, 1);
  rx_dispose(d);
  hot_end(&h);
  rx_release(src);
  rx_release(o);
}

/* The observer's on_next sends the next element into the source: that one is the second. */
static rx_subject *reentrant_subject;
static void send_again(void *ctx, rx_value v) {
  rec_next(ctx, v);
  rx_subject_on_next(reentrant_subject, rx_int(v.i + 1));
}
RX_TEST(single_counts_before_forwarding) {
  reentrant_subject = rx_behavior_subject_new(rx_int(1));
  rx_observable *o = rx_single(rx_subject_as_observable(reentrant_subject));
  rec r;
  rx_observer obs = rec_observer(&r);
  obs.on_next = send_again;
  rx_disposable *d = rx_subscribe(o, obs);
  CHECK_STR(r.log, "1 #4(sequence contains more than one element).");
  rx_dispose(d);
  rx_release(o);
  rx_release(reentrant_subject);
}

RX_TEST(single_synchronous_and_bad_input) {
  CHECK_STR(run_log(rx_single(INTS(5))), "5 |.");
  CHECK_STR(run_log(rx_single(EMPTY())), "#3(sequence contains no elements).");
  CHECK_STR(run_log(rx_single(INTS(5, 6, 7))), "5 #4(sequence contains more than one element).");
  CHECK_STR(run_log(rx_single(THROW_BOOM())), "#1000(boom).");
  CHECK(rx_single(NULL) == NULL);
  CHECK(strstr(rx_last_error(), "rx_single") != NULL);
  rx_scheduler *s = rx_test_scheduler_new();
  CHECK(rx_single((rx_observable *)s) == NULL);
  CHECK(strstr(rx_last_error(), "rx_single") != NULL);
  rx_release(s);
}

/* ---- enumerated ------------------------------------------------------------------------ */

static rx_value pair(int64_t index, rx_value v) {
  rx_value items[2] = {rx_int(index), v};
  return rx_array(items, 2);
}

RX_TEST(marble_enumerated_pairs_index_and_element) {
  begin();
  rx_value a = rx_string("a"), b = rx_string("b"), c = rx_string("c");
  rx_marble_value table[] = {{'x', pair(0, a)}, {'y', pair(1, b)}, {'z', pair(2, c)}};
  EXPECT_V(K(rx_enumerated(hotm("-a-b-----c--|"))), "-x-y-----z--|", table);
  EXPECT_V(K(rx_enumerated(hotm("-a-b-----c"))), "-x-y-----z", table);
  EXPECT_VE(K(rx_enumerated(hotm("-a-b-----c--#"))), "-x-y-----z--#", table, NULL);
  /* each subscription counts from 0 */
  rx_observable *twice = K(rx_enumerated(coldm("-a-b|")));
  EXPECT_V(twice, "-x-y|", table);
  EXPECT_V(twice, "-x-y|", table);
  EXPECT_V(twice, "-x!", table);
  for (size_t i = 0; i < 3; i++) rx_value_release(table[i].value);
  rx_value_release(a), rx_value_release(b), rx_value_release(c);
  end();
}

RX_TEST(enumerated_synchronous_and_bad_input) {
  CHECK_STR(run_log(rx_enumerated(INTS(7, 8, 9))), "[0,7] [1,8] [2,9] |.");
  CHECK_STR(run_log(rx_enumerated(EMPTY())), "|.");
  CHECK_STR(run_log(rx_enumerated(INTS_THEN_ERROR())), "[0,1] #1000(boom).");
  CHECK_STR(run_log(rx_take(A(rx_enumerated(A(rx_range(10, 1000000)))), 2)), "[0,10] [1,11] |.");
  CHECK(rx_enumerated(NULL) == NULL);
  CHECK(strstr(rx_last_error(), "rx_enumerated") != NULL);
}

/* ---- compact_map ----------------------------------------------------------------------- */

static bool is_prime(int64_t n) {
  if (n < 2) return false;
  for (int64_t d = 2; d * d <= n; d++)
    if (n % d == 0) return false;
  return true;
}
/* Primes through, as themselves; the others dropped. Counts its calls in ctx. */
static bool primes(void *ctx, rx_value v, rx_value *out, rx_error **e) {
  if (ctx) ((counter *)ctx)->calls++;
  if (!is_prime(v.i)) return false;
  *out = v;
  return true;
}
/* Drops every value, but stores an owned string first: the library must release it. */
static bool drop_after_storing(void *ctx, rx_value v, rx_value *out, rx_error **e) {
  *out = rx_string("dropped");
  return false;
}
/* Odd values as strings; fails on 4 after storing an owned value. */
static bool odd_strings_fail_4(void *ctx, rx_value v, rx_value *out, rx_error **e) {
  char buf[16];
  snprintf(buf, sizeof buf, "s%lld", (long long)v.i);
  *out = rx_string(buf);
  if (v.i == 4) {
    *e = rx_error_new(RX_ERROR_USER + 4, "four");
    return true;
  }
  return v.i % 2 != 0;
}
/* Returns true with a value of no valid kind. */
static bool bad_kind(void *ctx, rx_value v, rx_value *out, rx_error **e) {
  out->kind = (rx_kind)77;
  return true;
}

RX_TEST(marble_compact_map_drops_what_fn_rejects) {
  begin();
  rx_observable *src = hotm("-1-2-3-4-5-6-7-8-9|");
  EXPECT(K(rx_compact_map(src, primes, NULL, NULL)), "---2-3---5---7----|");
  end();
}

RX_TEST(marble_compact_map_error_and_dispose) {
  begin();
  EXPECT(K(rx_compact_map(hotm("-1-2-3-4-#"), primes, NULL, NULL)), "---2-3---#");
  EXPECT(K(rx_compact_map(coldm("-1-2-3-4-5-6-7-|"), primes, NULL, NULL)), "---2-3---5-!");
  EXPECT(K(rx_compact_map(hotm("-1-4-6-8"), primes, NULL, NULL)), "--------");
  end();
}

RX_TEST(compact_map_ownership_errors_and_ctx_free) {
  counter c = {0};
  rx_observable *o = rx_compact_map(INTS(4, 5, 6, 7), primes, &c, counter_free);
  CHECK_STR(run_log(o), "5 7 |.");
  CHECK_EQ(c.calls, 4);
  CHECK_EQ(c.freed, 1);
  CHECK_STR(run_log(rx_compact_map(INTS(1, 2, 3), drop_after_storing, NULL, NULL)), "|.");
  CHECK_STR(run_log(rx_compact_map(INTS(1, 2, 3, 4, 5), odd_strings_fail_4, NULL, NULL)), "'s1' 's3' #1004(four).");
  CHECK_STR(run_log(rx_compact_map(INTS(1), bad_kind, NULL, NULL)),
            "#8(rx_compact_map: the callback returned an invalid value).");
  CHECK_STR(run_log(rx_compact_map(THROW_BOOM(), primes, NULL, NULL)), "#1000(boom).");
}

RX_TEST(compact_map_bad_input) {
  counter c = {0};
  CHECK(rx_compact_map(NULL, primes, &c, counter_free) == NULL);
  CHECK(strstr(rx_last_error(), "rx_compact_map") != NULL);
  CHECK(rx_compact_map(INTS(1), NULL, &c, counter_free) == NULL);
  CHECK_STR(rx_last_error(), "rx_compact_map: fn is NULL");
  CHECK_EQ(c.freed, 0); /* nothing taken */
  pool_drain();
}

/* ---- take_while_inclusive ---------------------------------------------------------------- */

static bool below_3(void *ctx, rx_value v, rx_error **e) {
  if (ctx) ((counter *)ctx)->calls++;
  return v.i < 3;
}
static bool below_3_fail_2(void *ctx, rx_value v, rx_error **e) {
  if (v.i == 2) *e = rx_error_new(RX_ERROR_USER + 2, "two");
  return v.i < 3;
}

RX_TEST(marble_take_while_inclusive_forwards_the_last_element) {
  begin();
  EXPECT(K(rx_take_while_inclusive(hotm("-1-2-3-1-|"), below_3, NULL, NULL)), "-1-2-(3|)");
  /* the first element already fails: it alone, then completed */
  EXPECT(K(rx_take_while_inclusive(hotm("-5-1-|"), below_3, NULL, NULL)), "-(5|)");
  /* the source completes first */
  EXPECT(K(rx_take_while_inclusive(hotm("-1-2-|"), below_3, NULL, NULL)), "-1-2-|");
  end();
}

RX_TEST(marble_take_while_inclusive_errors_and_dispose) {
  begin();
  EXPECT(K(rx_take_while_inclusive(hotm("-1-2-#"), below_3, NULL, NULL)), "-1-2-#");
  EXPECT(K(rx_take_while_inclusive(hotm("-1-4-#"), below_3, NULL, NULL)), "-1-(4|)");
  EXPECT_E(K(rx_take_while_inclusive(coldm("-1-2-3-|"), below_3_fail_2, NULL, NULL)), "-1-#",
           err(RX_ERROR_USER + 2, "two"));
  EXPECT(K(rx_take_while_inclusive(coldm("-1-2-1-2-3|"), below_3, NULL, NULL)), "-1-2-!");
  end();
}

/* Subscribes make(a hot source, counter), sends 1, `stop` (the element that ends it) and 2:
 * the source is disposed at `stop`, the log is `expected`, fn ran twice, ctx_free once. */
static void check_stops_the_source(rx_observable *(*make)(rx_observable *, counter *), int64_t stop,
                                   const char *expected) {
  hot h;
  counter c = {0};
  rx_observable *src = hot_new(&h);
  rx_observable *o = make(src, &c);
  rec r;
  rx_disposable *d = rx_subscribe(o, rec_observer(&r));
  hot_next(&h, 1);
  hot_next(&h, stop);
  CHECK_EQ(h.disposed, 1);
  hot_next(&h, 2);
  CHECK_STR(r.log, expected);
  CHECK_EQ(c.calls, 2);
  rx_dispose(d);
  hot_end(&h);
  rx_release(src);
  rx_release(o);
  CHECK_EQ(c.freed, 1);
}

static rx_observable *take_while_inclusive_below_3(rx_observable *src, counter *c) {
  return rx_take_while_inclusive(src, below_3, c, counter_free);
}

RX_TEST(take_while_inclusive_stops_the_source_and_frees_ctx) {
  check_stops_the_source(take_while_inclusive_below_3, 7, "1 7 |.");
}

RX_TEST(take_while_inclusive_bad_input) {
  counter c = {0};
  CHECK(rx_take_while_inclusive(NULL, below_3, &c, counter_free) == NULL);
  CHECK(strstr(rx_last_error(), "rx_take_while_inclusive") != NULL);
  CHECK(rx_take_while_inclusive(INTS(1), NULL, &c, counter_free) == NULL);
  CHECK_STR(rx_last_error(), "rx_take_while_inclusive: fn is NULL");
  CHECK_EQ(c.freed, 0);
  pool_drain();
}

/* ---- take_until_predicate ---------------------------------------------------------------- */

static bool is_4(void *ctx, rx_value v, rx_error **e) {
  if (ctx) ((counter *)ctx)->calls++;
  return v.i == 4;
}
static bool always(void *ctx, rx_value v, rx_error **e) { return true; }
static bool never_true(void *ctx, rx_value v, rx_error **e) { return false; }
static bool is_4_fail_3(void *ctx, rx_value v, rx_error **e) {
  if (v.i == 3) *e = rx_error_new(RX_ERROR_USER + 3, "three");
  return v.i == 4;
}

RX_TEST(marble_take_until_predicate_exclusive) {
  begin();
  EXPECT(K(rx_take_until_predicate(hotm("-2-3-4-5-|"), false, is_4, NULL, NULL)), "-2-3-|");
  EXPECT(K(rx_take_until_predicate(hotm("-2-3-#"), false, is_4, NULL, NULL)), "-2-3-#");
  EXPECT(K(rx_take_until_predicate(hotm("-2-3-4-5-|"), false, never_true, NULL, NULL)), "-2-3-4-5-|");
  EXPECT(K(rx_take_until_predicate(hotm("-2-3-4-5-|"), false, always, NULL, NULL)), "-|");
  end();
}

RX_TEST(marble_take_until_predicate_inclusive) {
  begin();
  EXPECT(K(rx_take_until_predicate(hotm("-2-3-4-5-|"), true, is_4, NULL, NULL)), "-2-3-(4|)");
  EXPECT(K(rx_take_until_predicate(hotm("-2-3-#"), true, is_4, NULL, NULL)), "-2-3-#");
  EXPECT(K(rx_take_until_predicate(hotm("-2-3-4-5-|"), true, never_true, NULL, NULL)), "-2-3-4-5-|");
  EXPECT(K(rx_take_until_predicate(hotm("-2-3-4-5-|"), true, always, NULL, NULL)), "-(2|)");
  end();
}

RX_TEST(marble_take_until_predicate_fn_error_and_dispose) {
  begin();
  EXPECT_E(K(rx_take_until_predicate(coldm("-2-3-4-|"), true, is_4_fail_3, NULL, NULL)), "-2-#",
           err(RX_ERROR_USER + 3, "three"));
  EXPECT(K(rx_take_until_predicate(coldm("-2-3-5-4-|"), true, is_4, NULL, NULL)), "-2-3!");
  end();
}

static rx_observable *take_until_4(rx_observable *src, counter *c) {
  return rx_take_until_predicate(src, false, is_4, c, counter_free);
}

RX_TEST(take_until_predicate_stops_the_source_and_frees_ctx) { check_stops_the_source(take_until_4, 4, "1 |."); }

RX_TEST(take_until_predicate_bad_input) {
  counter c = {0};
  CHECK(rx_take_until_predicate(NULL, false, is_4, &c, counter_free) == NULL);
  CHECK(strstr(rx_last_error(), "rx_take_until_predicate") != NULL);
  CHECK(rx_take_until_predicate(INTS(1), true, NULL, &c, counter_free) == NULL);
  CHECK_STR(rx_last_error(), "rx_take_until_predicate: fn is NULL");
  CHECK_EQ(c.freed, 0);
  pool_drain();
}

/* ---- repeat_element ---------------------------------------------------------------------- */

RX_TEST(marble_repeat_element_until_taken) {
  begin();
  rx_observable *fours = K(rx_repeat_element(RX_INT(4), ts));
  EXPECT(K(rx_take(fours, 3)), "(444|)");
  /* after the first value, at the frame it is subscribed */
  EXPECT(K(rx_take(K(rx_delay_subscription(fours, 2 * RX_MARBLE_FRAME_NS, ts)), 2)), "--(44|)");
  end();
}

/* Disposes the subscription in *ctx: scheduled behind the first value. */
static void dispose_token(void *ctx) { rx_dispose(*(rx_disposable **)ctx); }

RX_TEST(repeat_element_lets_other_work_run_between_values) {
  rx_scheduler *s = rx_test_scheduler_new();
  rx_value x = rx_string("x");
  rx_observable *o = rx_repeat_element(x, s);
  rx_value_release(x); /* retained by the observable */
  rec r;
  rx_disposable *d = rx_subscribe(o, rec_observer(&r));
  CHECK_STR(r.log, ""); /* nothing before the scheduler runs */
  rx_disposable *work = rx_schedule(s, dispose_token, &d, NULL);
  CHECK_OK(rx_test_scheduler_advance_by(s, 0));
  CHECK_STR(r.log, "'x'."); /* one value, then the queued work disposed it */
  CHECK_OK(rx_test_scheduler_advance_by(s, 1000));
  CHECK_STR(r.log, "'x'.");
  rx_dispose(work);
  rx_release(o);
  rx_release(s);
}

RX_TEST(repeat_element_disposed_before_it_runs) {
  rx_scheduler *s = rx_test_scheduler_new();
  rx_observable *o = rx_repeat_element(RX_INT(1), s);
  rec r;
  rx_dispose(rx_subscribe(o, rec_observer(&r)));
  CHECK_OK(rx_test_scheduler_advance_by(s, 1000));
  CHECK_STR(r.log, ".");
  rx_release(o);
  rx_release(s);
}

RX_TEST(repeat_element_synchronous_schedulers_loop_without_recursion) {
  CHECK_STR(run_log(rx_take(A(rx_repeat_element(RX_INT(7), NULL)), 3)), "7 7 7 |.");
  /* far more values than a recursion could take on the stack */
  int64_t n = rxtest_scale(200000, 20);
  rx_observable *many = A(rx_take(A(rx_repeat_element(RX_INT(1), rx_scheduler_immediate())), (size_t)n));
  rec r;
  rx_dispose(rx_subscribe(many, rec_observer(&r)));
  CHECK_EQ(r.nexts, n);
  CHECK_EQ(r.completed, 1);
  pool_drain();
}

RX_TEST(repeat_element_on_a_serial_queue) {
  rx_scheduler *q = rx_scheduler_serial_new("repeat");
  rx_observable *o = rx_take(A(rx_repeat_element(RX_INT(3), q)), 1000);
  rx_value all;
  rx_error *e = NULL;
  CHECK_OK(rx_blocking_to_array(o, 10 * 1000000000LL, &all, &e));
  CHECK_EQ(rx_array_count(all), 1000);
  CHECK_EQ(rx_array_get(all, 999).i, 3);
  rx_value_release(all);
  rx_release(o);
  rx_release(q);
  pool_drain();
}

RX_TEST(repeat_element_bad_input) {
  rx_value bad = {.kind = (rx_kind)99, .i = 0};
  CHECK(rx_repeat_element(bad, NULL) == NULL);
  CHECK(strstr(rx_last_error(), "rx_repeat_element") != NULL);
  rx_subject *s = rx_publish_subject_new();
  CHECK(rx_repeat_element(RX_INT(1), (rx_scheduler *)s) == NULL);
  CHECK(strstr(rx_last_error(), "rx_repeat_element") != NULL);
  rx_release(s);
}

/* ---- generate ---------------------------------------------------------------------------- */

static bool at_most_3(void *ctx, rx_value v, rx_error **e) {
  if (ctx) ((counter *)ctx)->calls++;
  return v.i <= 3;
}
static bool forever(void *ctx, rx_value v, rx_error **e) { return true; }
static bool condition_fails(void *ctx, rx_value v, rx_error **e) {
  *e = rx_error_new(RX_ERROR_USER + 6, "condition");
  return true;
}
static rx_value plus_1(void *ctx, rx_value v, rx_error **e) { return rx_int(v.i + 1); }
static rx_value iterate_fails(void *ctx, rx_value v, rx_error **e) {
  *e = rx_error_new(RX_ERROR_USER + 7, "iterate");
  return rx_none();
}
/* "a", "aa", "aaa": owned strings, each built from the previous state. */
static rx_value longer(void *ctx, rx_value v, rx_error **e) {
  char buf[16];
  snprintf(buf, sizeof buf, "%sa", rx_value_string(v));
  return rx_string(buf);
}
static bool shorter_than_4(void *ctx, rx_value v, rx_error **e) { return strlen(rx_value_string(v)) < 4; }

RX_TEST(marble_generate_a_finite_loop) {
  begin();
  /* one state per step, the completion a step of its own; all due at the current time */
  EXPECT(K(rx_generate(RX_INT(0), ts, at_most_3, plus_1, NULL, NULL)), "(0123|)");
  EXPECT(K(rx_generate(RX_INT(5), ts, at_most_3, plus_1, NULL, NULL)), "|");
  end();
}

RX_TEST(marble_generate_errors_and_take) {
  begin();
  EXPECT_E(K(rx_generate(RX_INT(0), ts, condition_fails, plus_1, NULL, NULL)), "#",
           err(RX_ERROR_USER + 6, "condition"));
  EXPECT_E(K(rx_generate(RX_INT(0), ts, forever, iterate_fails, NULL, NULL)), "(0#)",
           err(RX_ERROR_USER + 7, "iterate"));
  EXPECT(K(rx_take(K(rx_generate(RX_INT(0), ts, forever, plus_1, NULL, NULL)), 3)), "(012|)");
  end();
}

RX_TEST(generate_dispose_between_steps) {
  rx_scheduler *s = rx_test_scheduler_new();
  rx_observable *o = rx_generate(RX_INT(0), s, forever, plus_1, NULL, NULL);
  rec r;
  rx_disposable *d = rx_subscribe(o, rec_observer(&r));
  rx_disposable *work = rx_schedule(s, dispose_token, &d, NULL);
  CHECK_OK(rx_test_scheduler_advance_by(s, 0));
  CHECK_STR(r.log, "0.");
  rx_dispose(work);
  rx_release(o);
  rx_release(s);
}

RX_TEST(generate_states_are_owned_and_ctx_freed_once) {
  counter c = {0};
  rx_observable *o = rx_generate(RX_INT(1), NULL, at_most_3, plus_1, &c, counter_free);
  CHECK_STR(run_log(rx_retain(o)), "1 2 3 |.");
  CHECK_STR(run_log(rx_retain(o)), "1 2 3 |."); /* each subscription from the initial state */
  CHECK_EQ(c.calls, 8);
  CHECK_EQ(c.freed, 0);
  rx_release(o);
  CHECK_EQ(c.freed, 1);
  rx_value a = rx_string("a");
  CHECK_STR(run_log(rx_generate(a, rx_scheduler_immediate(), shorter_than_4, longer, NULL, NULL)),
            "'a' 'aa' 'aaa' |.");
  rx_value_release(a);
  int64_t n = rxtest_scale(100000, 20);
  rx_observable *many = A(rx_take(A(rx_generate(RX_INT(0), rx_scheduler_immediate(), forever, plus_1, NULL, NULL)),
                                  (size_t)n));
  rec r;
  rx_dispose(rx_subscribe(many, rec_observer(&r)));
  CHECK_EQ(r.nexts, n);
  pool_drain();
}

RX_TEST(generate_bad_input) {
  counter c = {0};
  CHECK(rx_generate(RX_INT(0), NULL, NULL, plus_1, &c, counter_free) == NULL);
  CHECK_STR(rx_last_error(), "rx_generate: condition is NULL");
  CHECK(rx_generate(RX_INT(0), NULL, forever, NULL, &c, counter_free) == NULL);
  CHECK_STR(rx_last_error(), "rx_generate: iterate is NULL");
  rx_value bad = {.kind = (rx_kind)99, .i = 0};
  CHECK(rx_generate(bad, NULL, forever, plus_1, &c, counter_free) == NULL);
  CHECK(strstr(rx_last_error(), "rx_generate") != NULL);
  rx_subject *s = rx_publish_subject_new();
  CHECK(rx_generate(RX_INT(0), (rx_scheduler *)s, forever, plus_1, &c, counter_free) == NULL);
  CHECK(strstr(rx_last_error(), "rx_generate") != NULL);
  rx_release(s);
  CHECK_EQ(c.freed, 0);
}

/* ---- using ------------------------------------------------------------------------------- */

/* One resource kind for the using tests: the log itself is the resource (create checks it
 * comes back), and release records when it ran and whether the source was already gone. */
typedef struct res_log {
  int created, released, freed;
  int64_t created_at, released_at;
  int source_disposed_at_release;
  rx_observable *inner;
  hot *source;
  rx_scheduler *clock;
  bool fail_create, fail_use, use_returns_null;
} res_log;
static void *res_create(void *ctx, rx_error **e) {
  res_log *l = ctx;
  if (l->fail_create) {
    *e = rx_error_new(RX_ERROR_USER + 8, "create");
    return NULL;
  }
  l->created++;
  l->created_at = l->clock ? rx_scheduler_now_ns(l->clock) : -1;
  return l;
}
static rx_observable *res_use(void *ctx, void *resource, rx_error **e) {
  res_log *l = ctx;
  CHECK(resource == l);
  if (l->fail_use) {
    *e = rx_error_new(RX_ERROR_USER + 9, "use");
    return NULL;
  }
  if (l->use_returns_null) return NULL;
  return rx_retain(l->inner);
}
static void res_release(void *ctx, void *resource) {
  res_log *l = ctx;
  CHECK(resource == l);
  l->released++;
  l->released_at = l->clock ? rx_scheduler_now_ns(l->clock) : -1;
  l->source_disposed_at_release = l->source ? l->source->disposed : -1;
}
static void res_ctx_free(void *ctx) { ((res_log *)ctx)->freed++; }

#define FRAMES(n) ((int64_t)(n) * RX_MARBLE_FRAME_NS)

/* Subscribes rx_using over the cold `inner`, expects `expected`, and checks the resource was
 * released (the released-th time) `frames` after it was made. */
static void expect_using(res_log *l, const char *inner, const char *expected, int released, int frames) {
  l->inner = coldm(inner);
  EXPECT(K(rx_using(res_create, res_use, res_release, l, NULL)), expected);
  CHECK_EQ(l->created, released);
  CHECK_EQ(l->released, released);
  CHECK_EQ(l->released_at - l->created_at, FRAMES(frames));
}

RX_TEST(marble_using_releases_at_completion_error_and_dispose) {
  begin();
  res_log l = {.clock = ts};
  expect_using(&l, "-1-2-|", "-1-2-|", 1, 5);
  expect_using(&l, "-1-#", "-1-#", 2, 3);
  expect_using(&l, "-1-2-3-|", "-1-!", 3, 3);
  end();
}

RX_TEST(marble_using_factory_errors) {
  begin();
  res_log l = {.fail_create = true};
  l.inner = coldm("-1-|");
  EXPECT_E(K(rx_using(res_create, res_use, res_release, &l, NULL)), "#", err(RX_ERROR_USER + 8, "create"));
  CHECK_EQ(l.created, 0);
  CHECK_EQ(l.released, 0); /* nothing was made */
  l.fail_create = false;
  l.fail_use = true;
  EXPECT_E(K(rx_using(res_create, res_use, res_release, &l, NULL)), "#", err(RX_ERROR_USER + 9, "use"));
  CHECK_EQ(l.created, 1);
  CHECK_EQ(l.released, 1);
  l.fail_use = false;
  l.use_returns_null = true;
  EXPECT_E(K(rx_using(res_create, res_use, res_release, &l, NULL)), "#",
           err(RX_ERROR_UNKNOWN, "rx_using: the callback returned no observable"));
  CHECK_EQ(l.released, 2);
  end();
}

RX_TEST(using_releases_after_the_source_subscription_and_once_per_subscription) {
  hot h;
  res_log l = {.source = &h};
  l.inner = hot_new(&h);
  rx_observable *o = rx_using(res_create, res_use, res_release, &l, res_ctx_free);
  rec r1, r2;
  rx_disposable *d1 = rx_subscribe(o, rec_observer(&r1));
  hot_next(&h, 5);
  rx_dispose(d1);
  CHECK_STR(r1.log, "5.");
  CHECK_EQ(l.released, 1);
  CHECK_EQ(l.source_disposed_at_release, 1); /* the reader stopped before its resource went */
  rx_disposable *d2 = rx_subscribe(o, rec_observer(&r2));
  CHECK_EQ(l.created, 2);
  hot_completed(&h);
  CHECK_STR(r2.log, "|.");
  CHECK_EQ(l.released, 2);
  rx_dispose(d2);
  CHECK_EQ(l.released, 2);
  hot_end(&h);
  rx_release(l.inner);
  CHECK_EQ(l.freed, 0);
  rx_release(o);
  CHECK_EQ(l.freed, 1);
}

/* The point of using in C: a file descriptor that lives exactly as long as its reader. */
static void *open_pipe_with_data(void *ctx, rx_error **e) {
  int fds[2];
  if (pipe(fds) != 0) {
    *e = rx_error_new(RX_ERROR_USER + 10, "pipe");
    return NULL;
  }
  CHECK_EQ(write(fds[1], "\x03\x01\x04", 3), 3);
  close(fds[1]);
  *(int *)ctx = fds[0];
  return (void *)(intptr_t)fds[0];
}
static rx_observable *read_bytes(void *ctx, void *resource, rx_error **e) {
  unsigned char buf[8];
  ssize_t n = read((int)(intptr_t)resource, buf, sizeof buf);
  rx_value vs[8];
  for (ssize_t i = 0; i < n; i++) vs[i] = rx_int(buf[i]);
  return rx_of(vs, (size_t)(n > 0 ? n : 0));
}
static void close_fd(void *ctx, void *resource) { close((int)(intptr_t)resource); }

RX_TEST(using_closes_a_file_descriptor) {
  int fd = -1;
  CHECK_STR(run_log(rx_using(open_pipe_with_data, read_bytes, close_fd, &fd, NULL)), "3 1 4 |.");
  CHECK(fd >= 0);
  CHECK(fcntl(fd, F_GETFD) == -1 && errno == EBADF); /* closed by release */
}

RX_TEST(using_bad_input) {
  res_log l = {0};
  CHECK(rx_using(NULL, res_use, res_release, &l, res_ctx_free) == NULL);
  CHECK_STR(rx_last_error(), "rx_using: create is NULL");
  CHECK(rx_using(res_create, NULL, res_release, &l, res_ctx_free) == NULL);
  CHECK_STR(rx_last_error(), "rx_using: use is NULL");
  CHECK_EQ(l.freed, 0);
  l.inner = INTS(1, 2);
  CHECK_STR(run_log(rx_using(res_create, res_use, NULL, &l, res_ctx_free)), "1 2 |."); /* release optional */
  CHECK_EQ(l.freed, 1);
}

/* ---- catch_with -------------------------------------------------------------------------- */

RX_TEST(marble_catch_with_switches_at_the_error) {
  begin();
  subscribe_count c;
  rx_observable *fallback = counted(&c, coldm("-7-8-|"));
  EXPECT(K(rx_catch_with(hotm("-1-2-#"), fallback)), "-1-2--7-8-|");
  CHECK_EQ(c.subscriptions, 1);
  EXPECT(K(rx_catch_with(hotm("-1-2-|"), fallback)), "-1-2-|");
  EXPECT(K(rx_catch_with(hotm("-1-2---"), fallback)), "-1-2---");
  CHECK_EQ(c.subscriptions, 1); /* no error: never subscribed */
  end();
}

RX_TEST(marble_catch_with_fallback_error_and_dispose) {
  begin();
  rx_error *e = err(RX_ERROR_USER + 11, "fallback");
  rx_observable *failing = K(rx_throw(e));
  EXPECT_E(K(rx_catch_with(hotm("-1-#"), failing)), "-1-#", e);
  EXPECT(K(rx_catch_with(hotm("-1-#"), coldm("-7-8-9-|"))), "-1--7-8!");
  end();
}

RX_TEST(catch_with_synchronous_and_bad_input) {
  CHECK_STR(run_log(rx_catch_with(INTS_THEN_ERROR(), INTS(5, 6))), "1 5 6 |.");
  CHECK_STR(run_log(rx_catch_with(THROW_BOOM(), THROW_BOOM())), "#1000(boom).");
  CHECK(rx_catch_with(NULL, INTS(1)) == NULL);
  CHECK(strstr(rx_last_error(), "rx_catch_with") != NULL);
  CHECK(rx_catch_with(INTS(1), NULL) == NULL);
  CHECK(strstr(rx_last_error(), "fallback") != NULL);
  pool_drain();
}

/* ---- flat_map_max / merge_max ------------------------------------------------------------ */

/* fn for flat_map_max: every element maps to the observable in ctx; counts its calls. */
typedef struct inner_of {
  rx_observable *inner;
  int calls;
} inner_of;
static rx_observable *to_inner(void *ctx, rx_value v, rx_error **e) {
  inner_of *c = ctx;
  c->calls++;
  return rx_retain(c->inner);
}

RX_TEST(marble_flat_map_max_waits_for_a_free_slot) {
  begin();
  inner_of c = {.inner = coldm("--1|")};
  rx_observable *src = hotm("-12-----3---|");
  EXPECT(K(rx_flat_map_max(src, 1, to_inner, &c, NULL)), "---1--1---1-|");
  CHECK_EQ(c.calls, 3); /* fn runs as elements arrive, waiting or not */
  EXPECT(K(rx_flat_map_max(hotm("-12-----3---|"), 0, to_inner, &c, NULL)), "---11-----1-|"); /* no limit */
  end();
}

RX_TEST(marble_merge_max_subscribes_the_next_source_when_one_completes) {
  begin();
  subscribe_count counts[3];
  rx_observable *srcs[3] = {counted(&counts[0], coldm("-1---2|")), counted(&counts[1], coldm("--3-4|")),
                            counted(&counts[2], coldm("-5|"))};
  EXPECT(K(rx_merge_max(srcs, 3, 2)), "-13-425|");
  EXPECT(K(rx_merge_max(srcs, 3, 1)), "-1---2--3-4-5|"); /* one at a time: concat */
  CHECK_EQ(counts[2].subscriptions, 2);
  end();
}

RX_TEST(marble_merge_max_error_drops_the_waiting_and_dispose) {
  begin();
  subscribe_count waiting;
  rx_observable *srcs[3] = {coldm("-1-#"), coldm("--2---|"), counted(&waiting, coldm("-3|"))};
  EXPECT(K(rx_merge_max(srcs, 3, 2)), "-12#");
  CHECK_EQ(waiting.subscriptions, 0);
  EXPECT(K(rx_merge_max(srcs, 3, 1)), "-1-#");
  rx_observable *slow[2] = {coldm("-1-2-3-|"), counted(&waiting, coldm("-3|"))};
  EXPECT(K(rx_merge_max(slow, 2, 1)), "-1-2!");
  CHECK_EQ(waiting.subscriptions, 0);
  end();
}

RX_TEST(merge_max_of_synchronous_sources_and_bad_input) {
  rx_observable *three[3] = {INTS(1, 2), INTS(3), INTS(4, 5)};
  CHECK_STR(run_log(rx_merge_max(three, 3, 1)), "1 2 3 4 5 |.");
  rx_observable *again[3] = {INTS(1, 2), INTS(3), INTS(4, 5)};
  CHECK_STR(run_log(rx_merge_max(again, 3, 2)), "1 2 3 4 5 |.");
  CHECK_STR(run_log(rx_merge_max(NULL, 0, 1)), "|.");
  CHECK(rx_merge_max(NULL, 2, 1) == NULL);
  CHECK(strstr(rx_last_error(), "rx_merge_max") != NULL);
  pool_drain();
}

/* Many inners that complete while being subscribed, all waiting behind a slow one: started
 * one after another, without a recursion per inner. */
RX_TEST(flat_map_max_starts_a_long_queue_without_recursion) {
  hot h;
  rx_observable *slow = hot_new(&h), *quick = rx_just(RX_INT(1));
  rx_subject *outer = rx_publish_subject_new();
  inner_of c = {.inner = slow};
  rx_observable *m = rx_flat_map_max(rx_subject_as_observable(outer), 1, to_inner, &c, NULL);
  rec r;
  rx_disposable *d = rx_subscribe(m, rec_observer(&r));
  rx_subject_on_next(outer, RX_INT(0)); /* the slow inner takes the slot */
  c.inner = quick;
  int64_t n = rxtest_scale(100000, 20);
  for (int64_t k = 0; k < n; k++) rx_subject_on_next(outer, RX_INT(k));
  rx_subject_on_completed(outer);
  CHECK_EQ(r.nexts, 0);
  hot_completed(&h); /* frees the slot: the n waiting start, one after another */
  CHECK_EQ(r.nexts, n);
  CHECK_EQ(r.completed, 1);
  rx_dispose(d);
  hot_end(&h);
  rx_release(m), rx_release(slow), rx_release(quick), rx_release(outer);
}

RX_TEST(flat_map_max_bad_input) {
  counter k = {0};
  CHECK(rx_flat_map_max(NULL, 1, to_inner, &k, counter_free) == NULL);
  CHECK(strstr(rx_last_error(), "rx_flat_map_max") != NULL);
  CHECK(rx_flat_map_max(INTS(1), 1, NULL, &k, counter_free) == NULL);
  CHECK_STR(rx_last_error(), "rx_flat_map_max: fn is NULL");
  CHECK_EQ(k.freed, 0);
  pool_drain();
}
