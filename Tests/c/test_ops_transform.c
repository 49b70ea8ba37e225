/* Transform operators through the C ABI: map, scan, reduce, flat_map, flat_map_latest,
 * concat_map, to_array. Cases follow RxSwift's Observable+Map/Scan/Reduce/FlatMap/
 * Concat/ToArray tests, with hot sources pushed by hand. */
#include "ops_support.h"

/* ---- callbacks ---- */
static rx_value times2(void *ctx, rx_value v, rx_error **err) {
  (void)err;
  if (ctx) ((counter *)ctx)->calls++;
  return rx_int(v.i * 2);
}
static rx_value fail_on_3(void *ctx, rx_value v, rx_error **err) {
  (void)ctx;
  if (v.i == 3) {
    *err = user_error("bad");
    return rx_none();
  }
  return rx_int(v.i * 2);
}
static rx_value to_string(void *ctx, rx_value v, rx_error **err) {
  (void)ctx, (void)err;
  char b[32];
  snprintf(b, sizeof b, "s%lld", (long long)v.i);
  return rx_string(b);
}
static rx_value fail_with_owned_value(void *ctx, rx_value v, rx_error **err) {
  (void)ctx, (void)v;
  *err = user_error("both");
  return rx_string("must be freed by the library");
}
static rx_value bad_kind(void *ctx, rx_value v, rx_error **err) {
  (void)ctx, (void)v, (void)err;
  rx_value r;
  memset(&r, 0, sizeof r);
  r.kind = (rx_kind)99;
  return r;
}
static rx_value sum(void *ctx, rx_value acc, rx_value v, rx_error **err) {
  (void)ctx, (void)err;
  return rx_int(acc.i + v.i);
}
static rx_value sum_fail_on_3(void *ctx, rx_value acc, rx_value v, rx_error **err) {
  (void)ctx;
  if (v.i == 3) {
    *err = user_error("acc");
    return rx_none();
  }
  return rx_int(acc.i + v.i);
}
static rx_value concat_str(void *ctx, rx_value acc, rx_value v, rx_error **err) {
  (void)ctx, (void)err;
  char b[256];
  snprintf(b, sizeof b, "%s%lld", rx_value_string(acc), (long long)v.i);
  return rx_string(b);
}

/* ---- map ---- */
RX_TEST(map_completes) {
  CHECK_STR(run_log(rx_map(INTS(1, 2, 3), times2, NULL, NULL)), "2 4 6 |.");
}

RX_TEST(map_empty_and_never) {
  CHECK_STR(run_log(rx_map(EMPTY(), times2, NULL, NULL)), "|.");
  CHECK_STR(run_log(rx_map(NEVER(), times2, NULL, NULL)), ".");
}

RX_TEST(map_source_error) {
  hot h;
  rx_observable *src = hot_new(&h);
  rx_observable *m = rx_map(src, times2, NULL, NULL);
  rec r;
  rx_disposable *d = rx_subscribe(m, rec_observer(&r));
  hot_next(&h, 1);
  hot_error(&h, RX_ERROR_USER);
  hot_next(&h, 2);
  CHECK_STR(r.log, "2 #1000(hot).");
  CHECK_EQ(h.disposed, 1);
  rx_dispose(d);
  CHECK_EQ(r.disposed, 1);
  hot_end(&h);
  rx_release(m);
  rx_release(src);
}

RX_TEST(map_dispose_in_the_middle) {
  hot h;
  counter c = {0};
  rx_observable *src = hot_new(&h);
  rx_observable *m = rx_map(src, times2, &c, counter_free);
  rec r;
  rx_disposable *d = rx_subscribe(m, rec_observer(&r));
  hot_next(&h, 1);
  hot_next(&h, 2);
  rx_dispose(d);
  CHECK_EQ(rx_emitter_next(h.em, rx_int(3)), RX_EDISPOSED);
  CHECK_STR(r.log, "2 4.");
  CHECK_EQ(c.calls, 2);
  CHECK_EQ(h.disposed, 1);
  hot_end(&h);
  rx_release(src);
  CHECK_EQ(c.freed, 0);
  rx_release(m);
  CHECK_EQ(c.freed, 1);
}

RX_TEST(map_callback_error_fails_and_disposes_upstream) {
  hot h;
  rx_observable *src = hot_new(&h);
  rx_observable *m = rx_map(src, fail_on_3, NULL, NULL);
  rec r;
  rx_disposable *d = rx_subscribe(m, rec_observer(&r));
  for (int i = 1; i <= 4; i++) hot_next(&h, i);
  CHECK_STR(r.log, "2 4 #1001(bad).");
  CHECK_EQ(r.error_code, RX_ERROR_USER + 1);
  CHECK_EQ(h.disposed, 1);
  rx_dispose(d);
  hot_end(&h);
  rx_release(m);
  rx_release(src);
}

RX_TEST(map_ctx_free_after_last_subscription) {
  counter c = {0};
  hot h;
  rx_observable *src = hot_new(&h);
  rx_observable *m = rx_map(src, times2, &c, counter_free);
  rec r1, r2;
  rx_disposable *d1 = rx_subscribe(m, rec_observer(&r1));
  rx_disposable *d2 = rx_subscribe(m, rec_observer(&r2));
  rx_release(m);  /* the observable is gone, two subscriptions remain */
  hot_next(&h, 5);
  CHECK_EQ(c.freed, 0);
  rx_dispose(d1);
  CHECK_EQ(c.freed, 0);
  hot_next(&h, 6);
  rx_dispose(d2);
  CHECK_STR(r1.log, ".");  /* hot keeps only the last emitter: r2's */
  CHECK_STR(r2.log, "10 12.");
  /* The retained emitter still references the (disposed) chain; releasing it is the end. */
  hot_end(&h);
  CHECK_EQ(c.freed, 1);
  rx_release(src);
  CHECK_EQ(c.freed, 1);
}

RX_TEST(map_owned_results_are_freed) {
  CHECK_STR(run_log(rx_map(INTS(1, 2), to_string, NULL, NULL)), "'s1' 's2' |.");
  CHECK_STR(run_log(rx_map(INTS(1, 2), fail_with_owned_value, NULL, NULL)), "#1001(both).");
}

RX_TEST(map_invalid_result_fails_with_type) {
  rec r;
  rx_observable *m = rx_map(INTS(1), bad_kind, NULL, NULL);
  rx_disposable *d = rx_subscribe(m, rec_observer(&r));
  CHECK_EQ(r.errors, 1);
  CHECK_EQ(r.error_code, RX_ERROR_TYPE);
  rx_dispose(d);
  rx_release(m);
  pool_drain();
}

RX_TEST(map_bad_input) {
  counter c = {0};
  CHECK(rx_map(NULL, times2, &c, counter_free) == NULL);
  CHECK(strstr(rx_last_error(), "rx_map") != NULL);
  rx_observable *src = INTS(1);
  CHECK(rx_map(src, NULL, &c, counter_free) == NULL);
  CHECK(strstr(rx_last_error(), "fn is NULL") != NULL);
  rx_disposable *not_obs = rx_serial_disposable_new();
  CHECK(rx_map((rx_observable *)not_obs, times2, &c, counter_free) == NULL);
  CHECK(strstr(rx_last_error(), "rx_observable") != NULL);
  CHECK_EQ(c.freed, 0); /* a rejected call takes nothing */
  rx_release(not_obs);
  pool_drain();
}

/* ---- scan ---- */
RX_TEST(scan_emits_each_accumulation) {
  CHECK_STR(run_log(rx_scan(INTS(1, 2, 3, 4), rx_int(0), sum, NULL, NULL)), "1 3 6 10 |.");
  CHECK_STR(run_log(rx_scan(EMPTY(), rx_int(42), sum, NULL, NULL)), "|.");
  CHECK_STR(run_log(rx_scan(NEVER(), rx_int(42), sum, NULL, NULL)), ".");
}

RX_TEST(scan_errors) {
  CHECK_STR(run_log(rx_scan(throw_code(RX_ERROR_USER), rx_int(0), sum, NULL, NULL)), "#1000(boom).");
  CHECK_STR(run_log(rx_scan(INTS(1, 2, 3, 4), rx_int(0), sum_fail_on_3, NULL, NULL)), "1 3 #1001(acc).");
}

RX_TEST(scan_boxed_seed_and_results) {
  rx_value seed = rx_string(">");
  rx_observable *s = rx_scan(INTS(1, 2, 3), seed, concat_str, NULL, NULL);
  rx_value_release(seed); /* the operator keeps its own reference */
  CHECK_STR(run_log(s), "'>1' '>12' '>123' |.");
}

RX_TEST(scan_bad_input) {
  rx_observable *src = INTS(1);
  CHECK(rx_scan(src, rx_int(0), NULL, NULL, NULL) == NULL);
  CHECK(rx_scan(NULL, rx_int(0), sum, NULL, NULL) == NULL);
  pool_drain();
}

/* ---- reduce ---- */
RX_TEST(reduce_emits_once_at_completion) {
  CHECK_STR(run_log(rx_reduce(INTS(1, 2, 3, 4), rx_int(0), sum, NULL, NULL)), "10 |.");
  CHECK_STR(run_log(rx_reduce(EMPTY(), rx_int(42), sum, NULL, NULL)), "42 |.");
  CHECK_STR(run_log(rx_reduce(NEVER(), rx_int(42), sum, NULL, NULL)), ".");
  CHECK_STR(run_log(rx_reduce(throw_code(RX_ERROR_USER), rx_int(0), sum, NULL, NULL)), "#1000(boom).");
  CHECK_STR(run_log(rx_reduce(INTS(1, 2, 3), rx_int(0), sum_fail_on_3, NULL, NULL)), "#1001(acc).");
}

RX_TEST(reduce_dispose_in_the_middle) {
  hot h;
  counter c = {0};
  rx_observable *src = hot_new(&h);
  rx_observable *o = rx_reduce(src, rx_int(0), sum, &c, counter_free);
  rec r;
  rx_disposable *d = rx_subscribe(o, rec_observer(&r));
  hot_next(&h, 1);
  rx_dispose(d);
  hot_completed(&h);
  CHECK_STR(r.log, ".");
  hot_end(&h);
  rx_release(src);
  rx_release(o);
  CHECK_EQ(c.freed, 1);
}

/* ---- flat_map ---- */
static rx_observable *pair_of(void *ctx, rx_value v, rx_error **err) {
  (void)ctx, (void)err;
  return INTS_OWNED(v.i, v.i * 10);
}
typedef struct inners {
  rx_observable *obs[4];
  int next;
  counter c;
} inners;
static rx_observable *next_inner(void *ctx, rx_value v, rx_error **err) {
  (void)v, (void)err;
  inners *in = ctx;
  return rx_retain(in->obs[in->next++]);
}
static rx_observable *selector_fails(void *ctx, rx_value v, rx_error **err) {
  (void)ctx;
  if (v.i == 2) {
    *err = user_error("sel");
    return NULL;
  }
  return rx_just(v);
}
static rx_observable *selector_null(void *ctx, rx_value v, rx_error **err) {
  (void)ctx, (void)v, (void)err;
  return NULL;
}

RX_TEST(flat_map_sync_inners) {
  CHECK_STR(run_log(rx_flat_map(INTS(1, 2, 3), pair_of, NULL, NULL)), "1 10 2 20 3 30 |.");
  CHECK_STR(run_log(rx_flat_map(EMPTY(), pair_of, NULL, NULL)), "|.");
}

RX_TEST(flat_map_interleaves_and_waits_for_all) {
  hot outer, a, b;
  rx_observable *o = hot_new(&outer);
  inners in = {{hot_new(&a), hot_new(&b)}, 0, {0}};
  rx_observable *fm = rx_flat_map(o, next_inner, &in, NULL);
  rec r;
  rx_disposable *d = rx_subscribe(fm, rec_observer(&r));
  hot_next(&outer, 0);
  hot_next(&a, 1);
  hot_next(&outer, 0);
  hot_next(&b, 2);
  hot_next(&a, 3);
  hot_completed(&outer);
  CHECK_EQ(outer.disposed, 1); /* RxSwift releases the outer subscription on completion */
  hot_completed(&a);
  CHECK_STR(r.log, "1 2 3");
  hot_next(&b, 4);
  hot_completed(&b);
  CHECK_STR(r.log, "1 2 3 4 |.");
  CHECK_EQ(a.disposed, 1);
  CHECK_EQ(b.disposed, 1);
  rx_dispose(d);
  hot_end(&outer), hot_end(&a), hot_end(&b);
  rx_release(fm), rx_release(o), rx_release(in.obs[0]), rx_release(in.obs[1]);
}

RX_TEST(flat_map_inner_error_disposes_everything) {
  hot outer, a, b;
  rx_observable *o = hot_new(&outer);
  inners in = {{hot_new(&a), hot_new(&b)}, 0, {0}};
  rx_observable *fm = rx_flat_map(o, next_inner, &in, NULL);
  rec r;
  rx_disposable *d = rx_subscribe(fm, rec_observer(&r));
  hot_next(&outer, 0);
  hot_next(&outer, 0);
  hot_next(&a, 1);
  hot_error(&b, RX_ERROR_USER);
  hot_next(&a, 2);
  CHECK_STR(r.log, "1 #1000(hot).");
  CHECK_EQ(outer.disposed, 1);
  CHECK_EQ(a.disposed, 1);
  CHECK_EQ(b.disposed, 1);
  rx_dispose(d);
  hot_end(&outer), hot_end(&a), hot_end(&b);
  rx_release(fm), rx_release(o), rx_release(in.obs[0]), rx_release(in.obs[1]);
}

RX_TEST(flat_map_outer_error) {
  hot outer, a;
  rx_observable *o = hot_new(&outer);
  inners in = {{hot_new(&a)}, 0, {0}};
  rx_observable *fm = rx_flat_map(o, next_inner, &in, NULL);
  rec r;
  rx_disposable *d = rx_subscribe(fm, rec_observer(&r));
  hot_next(&outer, 0);
  hot_next(&a, 7);
  hot_error(&outer, RX_ERROR_USER + 5);
  CHECK_STR(r.log, "7 #1005(hot).");
  CHECK_EQ(a.disposed, 1);
  rx_dispose(d);
  hot_end(&outer), hot_end(&a);
  rx_release(fm), rx_release(o), rx_release(in.obs[0]);
}

RX_TEST(flat_map_dispose_in_the_middle) {
  hot outer, a, b;
  rx_observable *o = hot_new(&outer);
  inners in = {{hot_new(&a), hot_new(&b)}, 0, {0}};
  rx_observable *fm2 = rx_flat_map(o, next_inner, &in, NULL);
  rec r;
  rx_disposable *d = rx_subscribe(fm2, rec_observer(&r));
  hot_next(&outer, 0);
  hot_next(&outer, 0);
  hot_next(&a, 1);
  hot_next(&b, 2);
  rx_dispose(d);
  hot_next(&a, 3);
  CHECK_STR(r.log, "1 2.");
  CHECK_EQ(outer.disposed, 1);
  CHECK_EQ(a.disposed, 1);
  CHECK_EQ(b.disposed, 1);
  hot_end(&outer), hot_end(&a), hot_end(&b);
  rx_release(fm2), rx_release(o), rx_release(in.obs[0]), rx_release(in.obs[1]);
}

RX_TEST(flat_map_selector_error_and_null) {
  CHECK_STR(run_log(rx_flat_map(INTS(1, 2, 3), selector_fails, NULL, NULL)), "1 #1001(sel).");
  rec r;
  rx_observable *o = rx_flat_map(INTS(1), selector_null, NULL, NULL);
  rx_disposable *d = rx_subscribe(o, rec_observer(&r));
  CHECK_EQ(r.errors, 1);
  CHECK_EQ(r.error_code, RX_ERROR_UNKNOWN);
  rx_dispose(d);
  rx_release(o);
  pool_drain();
}

RX_TEST(flat_map_ctx_free_once) {
  counter c = {0};
  rx_observable *o = rx_flat_map(INTS(1, 2), pair_of, &c, counter_free);
  rec r;
  rx_disposable *d = rx_subscribe(o, rec_observer(&r));
  CHECK_EQ(c.freed, 0);
  rx_dispose(d);
  rx_release(o);
  pool_drain();
  CHECK_EQ(c.freed, 1);
  CHECK(rx_flat_map(NULL, pair_of, &c, counter_free) == NULL);
  CHECK(rx_flat_map(INTS(1), NULL, &c, counter_free) == NULL);
  pool_drain();
  CHECK_EQ(c.freed, 1);
}

/* ---- flat_map_latest ---- */
RX_TEST(flat_map_latest_switches) {
  hot outer, a, b;
  rx_observable *o = hot_new(&outer);
  inners in = {{hot_new(&a), hot_new(&b)}, 0, {0}};
  rx_observable *fm = rx_flat_map_latest(o, next_inner, &in, NULL);
  rec r;
  rx_disposable *d = rx_subscribe(fm, rec_observer(&r));
  hot_next(&outer, 0);
  hot_next(&a, 1);
  hot_next(&a, 2);
  hot_next(&outer, 0);
  CHECK_EQ(a.disposed, 1); /* the previous inner is unsubscribed at once */
  hot_next(&b, 3);
  hot_completed(&outer);
  CHECK_STR(r.log, "1 2 3");
  hot_next(&b, 4);
  hot_completed(&b);
  CHECK_STR(r.log, "1 2 3 4 |.");
  rx_dispose(d);
  hot_end(&outer), hot_end(&a), hot_end(&b);
  rx_release(fm), rx_release(o), rx_release(in.obs[0]), rx_release(in.obs[1]);
}

RX_TEST(flat_map_latest_completes_when_outer_completes_without_inner) {
  CHECK_STR(run_log(rx_flat_map_latest(INTS(1, 2, 3), pair_of, NULL, NULL)), "1 10 2 20 3 30 |.");
  CHECK_STR(run_log(rx_flat_map_latest(EMPTY(), pair_of, NULL, NULL)), "|.");
}

RX_TEST(flat_map_latest_inner_error_and_dispose) {
  hot outer, a, b;
  rx_observable *o = hot_new(&outer);
  inners in = {{hot_new(&a), hot_new(&b)}, 0, {0}};
  rx_observable *fm = rx_flat_map_latest(o, next_inner, &in, NULL);
  rec r;
  rx_disposable *d = rx_subscribe(fm, rec_observer(&r));
  hot_next(&outer, 0);
  hot_next(&outer, 0);
  hot_next(&b, 5);
  hot_error(&b, RX_ERROR_USER);
  CHECK_STR(r.log, "5 #1000(hot).");
  CHECK_EQ(outer.disposed, 1);
  rx_dispose(d);
  hot_end(&outer), hot_end(&a), hot_end(&b);
  rx_release(fm), rx_release(o), rx_release(in.obs[0]), rx_release(in.obs[1]);

  CHECK_STR(run_log(rx_flat_map_latest(INTS(1, 2, 3), selector_fails, NULL, NULL)), "1 #1001(sel).");
}

/* ---- concat_map ---- */
RX_TEST(concat_map_in_order) {
  CHECK_STR(run_log(rx_concat_map(INTS(1, 2, 3), pair_of, NULL, NULL)), "1 10 2 20 3 30 |.");
  CHECK_STR(run_log(rx_concat_map(EMPTY(), pair_of, NULL, NULL)), "|.");
}

RX_TEST(concat_map_waits_for_previous_inner) {
  hot outer, a, b;
  rx_observable *o = hot_new(&outer);
  inners in = {{hot_new(&a), hot_new(&b)}, 0, {0}};
  rx_observable *cm = rx_concat_map(o, next_inner, &in, NULL);
  rec r;
  rx_disposable *d = rx_subscribe(cm, rec_observer(&r));
  hot_next(&outer, 0);
  hot_next(&outer, 0);
  CHECK_EQ(a.subscribed, 1);
  CHECK_EQ(b.subscribed, 0);
  hot_next(&a, 1);
  hot_completed(&outer);
  hot_completed(&a);
  CHECK_EQ(b.subscribed, 1);
  hot_next(&b, 2);
  CHECK_STR(r.log, "1 2");
  hot_completed(&b);
  CHECK_STR(r.log, "1 2 |.");
  rx_dispose(d);
  hot_end(&outer), hot_end(&a), hot_end(&b);
  rx_release(cm), rx_release(o), rx_release(in.obs[0]), rx_release(in.obs[1]);
}

static rx_observable *just_it(void *ctx, rx_value v, rx_error **err) {
  (void)ctx, (void)err;
  return rx_just(v);
}
static void count_next(void *ctx, rx_value v) {
  (void)v;
  ++*(int *)ctx;
}

RX_TEST(concat_map_many_synchronous_inners_do_not_recurse) {
  int64_t total = rxtest_scale(200000, 4); /* recursion would overflow the stack either way */
  rx_observable *o = rx_concat_map(A(rx_range(0, (size_t)total)), just_it, NULL, NULL);
  int n = 0;
  rx_observer obs = {count_next, NULL, NULL, NULL, &n};
  rx_dispose(rx_subscribe(o, obs));
  CHECK_EQ(n, total);
  rx_release(o);
  pool_drain();
}

RX_TEST(concat_map_errors) {
  CHECK_STR(run_log(rx_concat_map(INTS(1, 2, 3), selector_fails, NULL, NULL)), "1 #1001(sel).");
  CHECK_STR(run_log(rx_concat_map(throw_code(RX_ERROR_USER), pair_of, NULL, NULL)), "#1000(boom).");
}

/* ---- to_array ---- */
RX_TEST(to_array_collects) {
  CHECK_STR(run_log(rx_to_array(INTS(1, 2, 3))), "[1,2,3] |.");
  CHECK_STR(run_log(rx_to_array(EMPTY())), "[] |.");
  CHECK_STR(run_log(rx_to_array(NEVER())), ".");
  CHECK_STR(run_log(rx_to_array(throw_code(RX_ERROR_USER))), "#1000(boom).");
  CHECK(rx_to_array(NULL) == NULL);
}

RX_TEST(to_array_dispose_in_the_middle) {
  hot h;
  rx_observable *src = hot_new(&h);
  rx_observable *o = rx_to_array(src);
  rec r;
  rx_disposable *d = rx_subscribe(o, rec_observer(&r));
  hot_next(&h, 1);
  rx_dispose(d);
  hot_next(&h, 2);
  CHECK_STR(r.log, ".");
  CHECK_EQ(h.disposed, 1);
  hot_end(&h);
  rx_release(o), rx_release(src);
}
