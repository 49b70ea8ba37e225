/* Filter operators through the C ABI: filter, take, skip, take_while, skip_while,
 * take_until, skip_until, take_last, distinct_until_changed, element_at, first, last,
 * ignore_elements. Cases follow RxSwift's Observable+Filter/Take/Skip/TakeWhile/
 * SkipWhile/TakeUntil/SkipUntil/TakeLast/DistinctUntilChanged/ElementAt tests. */
#include "ops_support.h"

static bool is_even(void *ctx, rx_value v, rx_error **err) {
  (void)err;
  if (ctx) ((counter *)ctx)->calls++;
  return v.i % 2 == 0;
}
static bool less_than_3(void *ctx, rx_value v, rx_error **err) {
  (void)ctx, (void)err;
  return v.i < 3;
}
static bool fails_on_3(void *ctx, rx_value v, rx_error **err) {
  (void)ctx;
  if (v.i == 3) {
    *err = user_error("pred");
    return true;
  }
  return v.i < 10;
}

/* ---- filter ---- */
RX_TEST(filter_complete) {
  CHECK_STR(run_log(rx_filter(INTS(1, 2, 3, 4, 5, 6), is_even, NULL, NULL)), "2 4 6 |.");
  CHECK_STR(run_log(rx_filter(EMPTY(), is_even, NULL, NULL)), "|.");
  CHECK_STR(run_log(rx_filter(THROW_BOOM(), is_even, NULL, NULL)), "#1000(boom).");
}

RX_TEST(filter_predicate_error) {
  CHECK_STR(run_log(rx_filter(INTS(1, 2, 3, 4), fails_on_3, NULL, NULL)), "1 2 #1001(pred).");
}

RX_TEST(filter_dispose_in_the_middle_and_ctx_free) {
  hot h;
  counter c = {0};
  rx_observable *src = hot_new(&h);
  rx_observable *f = rx_filter(src, is_even, &c, counter_free);
  rec r;
  rx_disposable *d = rx_subscribe(f, rec_observer(&r));
  hot_next(&h, 1);
  hot_next(&h, 2);
  rx_dispose(d);
  hot_next(&h, 4);
  CHECK_STR(r.log, "2.");
  CHECK_EQ(c.calls, 2);
  CHECK_EQ(h.disposed, 1);
  hot_end(&h);
  rx_release(src);
  CHECK_EQ(c.freed, 0);
  rx_release(f);
  CHECK_EQ(c.freed, 1);
}

RX_TEST(filter_bad_input) {
  counter c = {0};
  CHECK(rx_filter(NULL, is_even, &c, counter_free) == NULL);
  CHECK(rx_filter(INTS(1), NULL, &c, counter_free) == NULL);
  CHECK_STR(rx_last_error(), "rx_filter: fn is NULL");
  CHECK_EQ(c.freed, 0);
  pool_drain();
}

/* ---- take ---- */
RX_TEST(take_first_n_and_disposes_source) {
  hot h;
  rx_observable *src = hot_new(&h);
  rx_observable *t = rx_take(src, 2);
  rec r;
  rx_disposable *d = rx_subscribe(t, rec_observer(&r));
  hot_next(&h, 1);
  CHECK_EQ(h.disposed, 0);
  hot_next(&h, 2);
  CHECK_EQ(h.disposed, 1);
  CHECK_STR(r.log, "1 2 |.");
  rx_dispose(d);
  hot_end(&h);
  rx_release(t), rx_release(src);
}

RX_TEST(take_more_than_available_and_errors) {
  CHECK_STR(run_log(rx_take(INTS(1, 2, 3), 10)), "1 2 3 |.");
  CHECK_STR(run_log(rx_take(INTS(1, 2, 3), 3)), "1 2 3 |.");
  CHECK_STR(run_log(rx_take(THROW_BOOM(), 3)), "#1000(boom).");
  CHECK_STR(run_log(rx_take(NEVER(), 3)), ".");
}

RX_TEST(take_zero_completes_without_subscribing) {
  hot h;
  rx_observable *src = hot_new(&h);
  CHECK_STR(run_log(rx_take(src, 0)), "|.");
  CHECK_EQ(h.subscribed, 0);
  rx_release(src);
}

typedef struct reenter {
  rec r; /* first: the other recorder callbacks get the same ctx */
  hot *h;
} reenter;
static void reenter_next(void *ctx, rx_value v) {
  reenter *re = ctx;
  rec_next(&re->r, v);
  if (v.i == 1) hot_next(re->h, 2); /* re-entrant emission from inside on_next */
}

RX_TEST(take_one_with_reentrant_emission) {
  hot h;
  rx_observable *src = hot_new(&h);
  rx_observable *t = rx_take(src, 1);
  reenter re;
  memset(&re, 0, sizeof re);
  re.h = &h;
  rx_observer o = rec_observer(&re.r);
  o.on_next = reenter_next;
  o.ctx = &re;
  rx_disposable *d = rx_subscribe(t, o);
  hot_next(&h, 1);
  CHECK_STR(re.r.log, "1 |.");
  rx_dispose(d);
  hot_end(&h);
  rx_release(t), rx_release(src);
}

RX_TEST(take_dispose_before_end) {
  hot h;
  rx_observable *src = hot_new(&h);
  rx_observable *t = rx_take(src, 5);
  rec r;
  rx_disposable *d = rx_subscribe(t, rec_observer(&r));
  hot_next(&h, 1);
  rx_dispose(d);
  hot_next(&h, 2);
  CHECK_STR(r.log, "1.");
  CHECK_EQ(h.disposed, 1);
  hot_end(&h);
  rx_release(t), rx_release(src);
  CHECK(rx_take(NULL, 1) == NULL);
}

/* ---- skip ---- */
RX_TEST(skip_cases) {
  CHECK_STR(run_log(rx_skip(INTS(1, 2, 3, 4), 2)), "3 4 |.");
  CHECK_STR(run_log(rx_skip(INTS(1, 2, 3, 4), 0)), "1 2 3 4 |.");
  CHECK_STR(run_log(rx_skip(INTS(1, 2, 3, 4), 10)), "|.");
  CHECK_STR(run_log(rx_skip(THROW_BOOM(), 1)), "#1000(boom).");
  CHECK(rx_skip(NULL, 1) == NULL);
}

RX_TEST(skip_dispose_in_the_middle) {
  hot h;
  rx_observable *src = hot_new(&h);
  rx_observable *s = rx_skip(src, 1);
  rec r;
  rx_disposable *d = rx_subscribe(s, rec_observer(&r));
  hot_next(&h, 1);
  hot_next(&h, 2);
  rx_dispose(d);
  hot_next(&h, 3);
  CHECK_STR(r.log, "2.");
  hot_end(&h);
  rx_release(s), rx_release(src);
}

/* ---- take_while / skip_while ---- */
RX_TEST(take_while_cases) {
  CHECK_STR(run_log(rx_take_while(INTS(1, 2, 3, 1), less_than_3, NULL, NULL)), "1 2 |.");
  CHECK_STR(run_log(rx_take_while(INTS(1, 2), less_than_3, NULL, NULL)), "1 2 |.");
  CHECK_STR(run_log(rx_take_while(INTS(5, 1), less_than_3, NULL, NULL)), "|.");
  CHECK_STR(run_log(rx_take_while(INTS(1, 2, 3), fails_on_3, NULL, NULL)), "1 2 #1001(pred).");
  CHECK_STR(run_log(rx_take_while(THROW_BOOM(), less_than_3, NULL, NULL)), "#1000(boom).");
}

RX_TEST(take_while_stops_source) {
  hot h;
  counter c = {0};
  rx_observable *src = hot_new(&h);
  rx_observable *t = rx_take_while(src, is_even, &c, counter_free);
  rec r;
  rx_disposable *d = rx_subscribe(t, rec_observer(&r));
  hot_next(&h, 2);
  hot_next(&h, 3);
  hot_next(&h, 4);
  CHECK_STR(r.log, "2 |.");
  CHECK_EQ(c.calls, 2);
  CHECK_EQ(h.disposed, 1);
  rx_dispose(d);
  hot_end(&h);
  rx_release(t), rx_release(src);
  CHECK_EQ(c.freed, 1);
}

RX_TEST(skip_while_cases) {
  CHECK_STR(run_log(rx_skip_while(INTS(1, 2, 3, 1), less_than_3, NULL, NULL)), "3 1 |.");
  CHECK_STR(run_log(rx_skip_while(INTS(1, 2), less_than_3, NULL, NULL)), "|.");
  CHECK_STR(run_log(rx_skip_while(INTS(5, 1), less_than_3, NULL, NULL)), "5 1 |.");
  CHECK_STR(run_log(rx_skip_while(INTS(1, 3, 4), fails_on_3, NULL, NULL)), "#1001(pred).");
  CHECK_STR(run_log(rx_skip_while(THROW_BOOM(), less_than_3, NULL, NULL)), "#1000(boom).");
  CHECK(rx_skip_while(INTS(1), NULL, NULL, NULL) == NULL);
  pool_drain();
}

/* ---- take_until ---- */
typedef struct pair_hot {
  hot s, o;
  rx_observable *src, *other, *op;
  rec r;
  rx_disposable *d;
} pair_hot;
static void pair_start(pair_hot *p, rx_observable *(*make)(rx_observable *, rx_observable *)) {
  p->src = hot_new(&p->s);
  p->other = hot_new(&p->o);
  p->op = make(p->src, p->other);
  p->d = rx_subscribe(p->op, rec_observer(&p->r));
}
static void pair_end(pair_hot *p) {
  rx_dispose(p->d);
  hot_end(&p->s), hot_end(&p->o);
  rx_release(p->op), rx_release(p->src), rx_release(p->other);
}

RX_TEST(take_until_other_fires) {
  pair_hot p;
  pair_start(&p, rx_take_until);
  hot_next(&p.s, 1);
  hot_next(&p.s, 2);
  hot_next(&p.o, 99);
  hot_next(&p.s, 3);
  CHECK_STR(p.r.log, "1 2 |.");
  CHECK_EQ(p.s.disposed, 1);
  CHECK_EQ(p.o.disposed, 1);
  pair_end(&p);
}

RX_TEST(take_until_other_errors) {
  pair_hot p;
  pair_start(&p, rx_take_until);
  hot_next(&p.s, 1);
  hot_error(&p.o, RX_ERROR_USER + 2);
  CHECK_STR(p.r.log, "1 #1002(hot).");
  CHECK_EQ(p.s.disposed, 1);
  pair_end(&p);
}

RX_TEST(take_until_other_completes_without_value) {
  pair_hot p;
  pair_start(&p, rx_take_until);
  hot_next(&p.s, 1);
  hot_completed(&p.o);
  CHECK_EQ(p.o.disposed, 1);
  hot_next(&p.s, 2);
  hot_completed(&p.s);
  CHECK_STR(p.r.log, "1 2 |.");
  pair_end(&p);
}

RX_TEST(take_until_source_ends_first) {
  pair_hot p;
  pair_start(&p, rx_take_until);
  hot_next(&p.s, 1);
  hot_error(&p.s, RX_ERROR_USER);
  CHECK_STR(p.r.log, "1 #1000(hot).");
  CHECK_EQ(p.o.disposed, 1);
  pair_end(&p);
}

RX_TEST(take_until_preempted_synchronously) {
  hot h;
  rx_observable *src = hot_new(&h);
  CHECK_STR(run_log(rx_take_until(src, INTS(1))), "|.");
  CHECK_EQ(h.subscribed, 0);
  rx_release(src);
  CHECK_STR(run_log(rx_take_until(INTS(1, 2), NEVER())), "1 2 |.");
  CHECK(rx_take_until(NULL, NULL) == NULL);
}

/* ---- skip_until ---- */
RX_TEST(skip_until_other_fires) {
  pair_hot p;
  pair_start(&p, rx_skip_until);
  hot_next(&p.s, 1);
  hot_next(&p.s, 2);
  hot_next(&p.o, 99);
  CHECK_EQ(p.o.disposed, 1);
  hot_next(&p.s, 3);
  hot_next(&p.s, 4);
  hot_completed(&p.s);
  CHECK_STR(p.r.log, "3 4 |.");
  pair_end(&p);
}

RX_TEST(skip_until_other_errors) {
  pair_hot p;
  pair_start(&p, rx_skip_until);
  hot_next(&p.s, 1);
  hot_error(&p.o, RX_ERROR_USER);
  CHECK_STR(p.r.log, "#1000(hot).");
  CHECK_EQ(p.s.disposed, 1);
  pair_end(&p);
}

RX_TEST(skip_until_source_error_first) {
  pair_hot p;
  pair_start(&p, rx_skip_until);
  hot_error(&p.s, RX_ERROR_USER);
  CHECK_STR(p.r.log, "#1000(hot).");
  CHECK_EQ(p.o.disposed, 1);
  pair_end(&p);
}

RX_TEST(skip_until_other_empty_swallows_completion) {
  /* RxSwift: SomeData_Empty gives no events; the subscription ends as dropped. */
  pair_hot p;
  pair_start(&p, rx_skip_until);
  hot_next(&p.s, 1);
  hot_completed(&p.o);
  hot_next(&p.s, 2);
  hot_completed(&p.s);
  CHECK_STR(p.r.log, ".");
  CHECK_EQ(p.r.disposed, 1);
  CHECK_EQ(p.o.disposed, 1);
  pair_end(&p);
  CHECK_EQ(p.r.disposed, 1);
}

RX_TEST(skip_until_never) {
  pair_hot p;
  pair_start(&p, rx_skip_until);
  hot_next(&p.s, 1);
  CHECK_STR(p.r.log, "");
  pair_end(&p);
  CHECK_STR(p.r.log, ".");
}

/* ---- take_last ---- */
RX_TEST(take_last_cases) {
  CHECK_STR(run_log(rx_take_last(INTS(1, 2, 3, 4, 5), 2)), "4 5 |.");
  CHECK_STR(run_log(rx_take_last(INTS(1, 2), 5)), "1 2 |.");
  CHECK_STR(run_log(rx_take_last(INTS(1, 2), 0)), "|.");
  CHECK_STR(run_log(rx_take_last(EMPTY(), 2)), "|.");
  CHECK_STR(run_log(rx_take_last(THROW_BOOM(), 2)), "#1000(boom).");
}

RX_TEST(take_last_waits_for_completion_and_dispose) {
  hot h;
  rx_observable *src = hot_new(&h);
  rx_observable *t = rx_take_last(src, 2);
  rec r;
  rx_disposable *d = rx_subscribe(t, rec_observer(&r));
  hot_next(&h, 1);
  hot_next(&h, 2);
  hot_next(&h, 3);
  CHECK_STR(r.log, "");
  rx_dispose(d);
  hot_completed(&h);
  CHECK_STR(r.log, ".");
  hot_end(&h);
  rx_release(t), rx_release(src);
}

/* ---- skip_last ---- */
RX_TEST(skip_last_cases) {
  CHECK_STR(run_log(rx_skip_last(INTS(1, 2, 3, 4, 5), 2)), "1 2 3 |.");
  CHECK_STR(run_log(rx_skip_last(INTS(1, 2), 5)), "|.");
  CHECK_STR(run_log(rx_skip_last(INTS(1, 2), 0)), "1 2 |.");
  CHECK_STR(run_log(rx_skip_last(EMPTY(), 2)), "|.");
  CHECK_STR(run_log(rx_skip_last(THROW_BOOM(), 2)), "#1000(boom).");
  CHECK_STR(run_log(rx_skip_last(INTS_THEN_ERROR(), 1)), "#1000(boom).");
  CHECK_STR(run_log(rx_skip_last(INTS_THEN_ERROR(), 0)), "1 #1000(boom).");
}

RX_TEST(skip_last_forwards_each_element_once_n_newer_arrived) {
  hot h;
  rx_observable *src = hot_new(&h);
  rx_observable *t = rx_skip_last(src, 2);
  rec r;
  rx_disposable *d = rx_subscribe(t, rec_observer(&r));
  hot_next(&h, 1);
  hot_next(&h, 2);
  CHECK_STR(r.log, "");
  hot_next(&h, 3);
  CHECK_STR(r.log, "1");
  hot_next(&h, 4);
  CHECK_STR(r.log, "1 2");
  rx_dispose(d);
  hot_next(&h, 5);
  CHECK_STR(r.log, "1 2.");
  hot_end(&h);
  rx_release(t), rx_release(src);
}

RX_TEST(skip_last_bad_source) {
  CHECK(rx_skip_last(NULL, 1) == NULL);
  CHECK(strstr(rx_last_error(), "rx_skip_last") != NULL);
}

/* ---- distinct_until_changed ---- */
static bool same_parity(void *ctx, rx_value a, rx_value b) {
  if (ctx) ((counter *)ctx)->calls++;
  return a.i % 2 == b.i % 2;
}

RX_TEST(distinct_until_changed_default_equality) {
  CHECK_STR(run_log(rx_distinct_until_changed(INTS(1, 1, 2, 2, 2, 1, 3, 3), NULL, NULL, NULL)), "1 2 1 3 |.");
  CHECK_STR(run_log(rx_distinct_until_changed(INTS(1, 2, 3), NULL, NULL, NULL)), "1 2 3 |.");
  CHECK_STR(run_log(rx_distinct_until_changed(INTS(7, 7, 7), NULL, NULL, NULL)), "7 |.");
  CHECK_STR(run_log(rx_distinct_until_changed(THROW_BOOM(), NULL, NULL, NULL)), "#1000(boom).");
}

RX_TEST(distinct_until_changed_strings_by_content) {
  rx_value v[4] = {rx_string("a"), rx_string("a"), rx_string("b"), rx_string("a")};
  rx_observable *src = rx_of(v, 4);
  for (int i = 0; i < 4; i++) rx_value_release(v[i]);
  CHECK_STR(run_log(rx_distinct_until_changed(src, NULL, NULL, NULL)), "'a' 'b' 'a' |.");
  rx_release(src);
}

RX_TEST(distinct_until_changed_custom_comparer) {
  counter c = {0};
  rx_observable *o = rx_distinct_until_changed(INTS(1, 3, 2, 4, 5), same_parity, &c, counter_free);
  CHECK_STR(run_log(o), "1 2 5 |.");
  CHECK_EQ(c.calls, 4);
  CHECK_EQ(c.freed, 1);
}

/* ---- element_at / first / last ---- */
RX_TEST(element_at_cases) {
  CHECK_STR(run_log(rx_element_at(INTS(10, 11, 12), 1)), "11 |.");
  CHECK_STR(run_log(rx_element_at(INTS(10, 11, 12), 0)), "10 |.");
  rec r;
  rx_observable *o = rx_element_at(INTS(10, 11), 2);
  rx_disposable *d = rx_subscribe(o, rec_observer(&r));
  CHECK_EQ(r.error_code, RX_ERROR_ARGUMENT_OUT_OF_RANGE);
  CHECK_EQ(r.nexts, 0);
  CHECK_EQ(r.disposed, 1);
  rx_dispose(d);
  rx_release(o);
  CHECK_STR(run_log(rx_element_at(THROW_BOOM(), 0)), "#1000(boom).");
}

RX_TEST(element_at_disposes_source_once_found) {
  hot h;
  rx_observable *src = hot_new(&h);
  rx_observable *o = rx_element_at(src, 1);
  rec r;
  rx_disposable *d = rx_subscribe(o, rec_observer(&r));
  hot_next(&h, 5);
  hot_next(&h, 6);
  CHECK_STR(r.log, "6 |.");
  CHECK_EQ(h.disposed, 1);
  rx_dispose(d);
  hot_end(&h);
  rx_release(o), rx_release(src);
}

RX_TEST(first_cases) {
  CHECK_STR(run_log(rx_first(INTS(4, 5, 6))), "4 |.");
  CHECK_STR(run_log(rx_first(THROW_BOOM())), "#1000(boom).");
  rec r;
  rx_observable *o = rx_first(EMPTY());
  rx_dispose(rx_subscribe(o, rec_observer(&r)));
  CHECK_EQ(r.error_code, RX_ERROR_NO_ELEMENTS);
  rx_release(o);
  pool_drain();
  CHECK(rx_first(NULL) == NULL);
}

RX_TEST(first_disposes_source) {
  hot h;
  rx_observable *src = hot_new(&h);
  rx_observable *o = rx_first(src);
  rec r;
  rx_disposable *d = rx_subscribe(o, rec_observer(&r));
  hot_next(&h, 5);
  CHECK_STR(r.log, "5 |.");
  CHECK_EQ(h.disposed, 1);
  rx_dispose(d);
  hot_end(&h);
  rx_release(o), rx_release(src);
}

RX_TEST(last_cases) {
  CHECK_STR(run_log(rx_last(INTS(4, 5, 6))), "6 |.");
  CHECK_STR(run_log(rx_last(THROW_BOOM())), "#1000(boom).");
  rec r;
  rx_observable *o = rx_last(EMPTY());
  rx_dispose(rx_subscribe(o, rec_observer(&r)));
  CHECK_EQ(r.error_code, RX_ERROR_NO_ELEMENTS);
  CHECK_EQ(r.disposed, 1);
  rx_release(o);
  pool_drain();
}

/* ---- ignore_elements ---- */
RX_TEST(ignore_elements_cases) {
  CHECK_STR(run_log(rx_ignore_elements(INTS(1, 2, 3))), "|.");
  CHECK_STR(run_log(rx_ignore_elements(THROW_BOOM())), "#1000(boom).");
  CHECK_STR(run_log(rx_ignore_elements(NEVER())), ".");
}

RX_TEST(distinct_until_changed_null_eq_still_frees_ctx) {
  counter c = {0};
  CHECK_STR(run_log(rx_distinct_until_changed(INTS(1, 1, 2), NULL, &c, counter_free)), "1 2 |.");
  CHECK_EQ(c.freed, 1);
}

/* A downstream that is done stops synchronous sources at once, even while the subscription
 * is still being set up (no 10^9-element loop behind take(1)). */
static rx_value count_calls(void *ctx, rx_value v, rx_error **err) {
  ((counter *)ctx)->calls++;
  return v;
}

RX_TEST(take_stops_a_synchronous_source_at_once) {
  counter c = {0};
  rx_observable *m = rx_map(A(rx_range(0, 1000000000)), count_calls, &c, NULL);
  CHECK_STR(run_log(rx_take(m, 2)), "0 1 |.");
  CHECK_EQ(c.calls, 2);
  rx_release(m);
}

RX_TEST(first_element_at_take_while_stop_early) {
  counter c = {0};
  rx_observable *m = rx_map(A(rx_range(0, 1000000000)), count_calls, &c, NULL);
  CHECK_STR(run_log(rx_first(m)), "0 |.");
  CHECK_STR(run_log(rx_element_at(m, 3)), "3 |.");
  CHECK_STR(run_log(rx_take_while(m, less_than_3, NULL, NULL)), "0 1 2 |.");
  CHECK_EQ(c.calls, 1 + 4 + 4);
  rx_release(m);
}

static rx_observable *big_range(void *ctx, rx_value v, rx_error **err) {
  return rx_map(A(rx_range(0, 1000000000)), count_calls, ctx, NULL);
}

RX_TEST(take_stops_synchronous_inner_sources) {
  counter c = {0};
  CHECK_STR(run_log(rx_take(A(rx_flat_map(INTS(1), big_range, &c, NULL)), 1)), "0 |.");
  CHECK_STR(run_log(rx_take(A(rx_concat_map(INTS(1), big_range, &c, NULL)), 1)), "0 |.");
  CHECK_STR(run_log(rx_take(A(rx_flat_map_latest(INTS(1), big_range, &c, NULL)), 1)), "0 |.");
  CHECK_EQ(c.calls, 3);
}

RX_TEST(take_stops_retry_forever_of_a_synchronous_source) {
  rx_observable *parts[] = {INTS(7), THROW_BOOM()};
  rx_observable *r = A(rx_retry(A(rx_concat(parts, 2)), 0));
  CHECK_STR(run_log(rx_take(r, 1)), "7 |.");
}
