/* Operator tests in marble form: the main cases of RxSwift's own operator tests
 * (Observable+MapTests, +FilterTests, +TakeTests, +MergeTests, +CombineLatestTests,
 * +ZipTests, +SwitchTests, +FlatMapTests, +CatchTests, +RetryTests, +DelayTests, ...) on
 * virtual time, errors and disposal in the middle included.
 *
 * Reading them: frame 0 is the start of every marble; hot sources are made at frame 0 and
 * emit at their own frames; cold sources start at their subscription; the expected marble's
 * '^' (default: frame 0) is where the test subscribes and '!' where it disposes. Where two
 * things happen in one frame the marbles avoid the tie, except where the tie is the point. */
#include "rxtest.h"

#include <string.h>

static rx_scheduler *ts;
static rx_observable *kept[64];
static int n_kept;
static rx_value kept_values[32];
static int n_kept_values;

static rx_observable *K(rx_observable *o) {
  CHECK_MSG(o != NULL, "%s", rx_last_error());
  kept[n_kept++] = o;
  return o;
}
static rx_value KV(rx_value v) {
  kept_values[n_kept_values++] = v;
  return v;
}
static rx_observable *hot(const char *m) { return K(rx_marble_hot(ts, m, NULL, 0, NULL)); }
static rx_observable *cold(const char *m) { return K(rx_marble_cold(ts, m, NULL, 0, NULL)); }
static void begin(void) { ts = rx_test_scheduler_new(); }
static void end(void) {
  while (n_kept) rx_release(kept[--n_kept]);
  while (n_kept_values) rx_value_release(kept_values[--n_kept_values]);
  rx_release(ts);
}

#define EXPECT(o, m) CHECK(rx_marble_expect(ts, (o), (m), NULL, 0, NULL))
#define EXPECT_E(o, m, err) CHECK(rx_marble_expect(ts, (o), (m), NULL, 0, (err)))
#define EXPECT_V(o, m, table) \
  CHECK(rx_marble_expect(ts, (o), (m), (table), sizeof(table) / sizeof((table)[0]), NULL))
#define EXPECT_VE(o, m, table, err) \
  CHECK(rx_marble_expect(ts, (o), (m), (table), sizeof(table) / sizeof((table)[0]), (err)))

static rx_value int_array(int n, const int64_t *v) {
  rx_value items[16];
  for (int i = 0; i < n; i++) items[i] = rx_int(v[i]);
  return KV(rx_array(items, (size_t)n));
}
#define ARR(...) int_array((int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), (int64_t[]){__VA_ARGS__})
#define ARR0() KV(rx_array(NULL, 0))

/* ---- callbacks ------------------------------------------------------------------------- */

static rx_value twice(void *ctx, rx_value v, rx_error **e) { return rx_int(v.i * 2); }
/* Fails on the value 3 (RxSwift's "selector throws" cases). */
static rx_value twice_fail_3(void *ctx, rx_value v, rx_error **e) {
  if (v.i == 3) {
    *e = rx_error_new(RX_ERROR_USER + 3, "three");
    return rx_none();
  }
  return rx_int(v.i * 2);
}
static bool odd(void *ctx, rx_value v, rx_error **e) { return v.i % 2 != 0; }
static bool odd_fail_4(void *ctx, rx_value v, rx_error **e) {
  if (v.i == 4) *e = rx_error_new(RX_ERROR_USER + 4, "four");
  return v.i % 2 != 0;
}
static bool below_3(void *ctx, rx_value v, rx_error **e) { return v.i < 3; }
static bool below_3_fail_2(void *ctx, rx_value v, rx_error **e) {
  if (v.i == 2) *e = rx_error_new(RX_ERROR_USER + 2, "two");
  return v.i < 3;
}
static rx_value sum(void *ctx, rx_value acc, rx_value v, rx_error **e) { return rx_int(acc.i + v.i); }
static rx_value sum_fail_3(void *ctx, rx_value acc, rx_value v, rx_error **e) {
  if (v.i == 3) *e = rx_error_new(RX_ERROR_USER + 3, "three");
  return rx_int(acc.i + v.i);
}
static rx_value add_all(void *ctx, const rx_value *vs, size_t n, rx_error **e) {
  int64_t s = 0;
  for (size_t i = 0; i < n; i++) s += vs[i].i;
  return rx_int(s);
}
static bool same_parity(void *ctx, rx_value a, rx_value b) { return a.i % 2 == b.i % 2; }

/* An error released by end() with the observables (rx_release takes any handle). */
static rx_error *err(int32_t code, const char *msg) {
  rx_error *e = rx_error_new(code, msg);
  kept[n_kept++] = (rx_observable *)e;
  return e;
}

/* ---- map ------------------------------------------------------------------------------- */

RX_TEST(marble_map_values_then_completed) {
  begin();
  rx_observable *src = cold("-1-2-3-|");
  EXPECT(K(rx_map(src, twice, NULL, NULL)), "-2-4-6-|");
  end();
}

RX_TEST(marble_map_forwards_source_error) {
  begin();
  rx_observable *src = hot("-1-2-#--3");
  EXPECT(K(rx_map(src, twice, NULL, NULL)), "-2-4-#");
  end();
}

RX_TEST(marble_map_dispose_in_the_middle) {
  begin();
  rx_observable *src = hot("-1-2--3-4-|");
  EXPECT(K(rx_map(src, twice, NULL, NULL)), "-2-4-!");
  end();
}

RX_TEST(marble_map_selector_error_ends_the_stream) {
  begin();
  rx_observable *src = hot("-1-2-3-4-|");
  EXPECT_E(K(rx_map(src, twice_fail_3, NULL, NULL)), "-2-4-#", err(RX_ERROR_USER + 3, "three"));
  end();
}

/* ---- filter ---------------------------------------------------------------------------- */

RX_TEST(marble_filter_keeps_matching_values) {
  begin();
  rx_observable *src = hot("-1-2-3-4-5-6-|");
  EXPECT(K(rx_filter(src, odd, NULL, NULL)), "-1---3---5---|");
  end();
}

RX_TEST(marble_filter_error_and_dispose) {
  begin();
  rx_observable *src = hot("-1-2-3-#");
  EXPECT(K(rx_filter(src, odd, NULL, NULL)), "-1---3-#");
  rx_observable *src2 = cold("-1-2-3-4-5-|");
  EXPECT(K(rx_filter(src2, odd, NULL, NULL)), "-1---3--!");
  end();
}

RX_TEST(marble_filter_predicate_error) {
  begin();
  rx_observable *src = hot("-1-2-3-4-5-|");
  EXPECT_E(K(rx_filter(src, odd_fail_4, NULL, NULL)), "-1---3-#", err(RX_ERROR_USER + 4, "four"));
  end();
}

/* ---- scan ------------------------------------------------------------------------------ */

RX_TEST(marble_scan_running_sum) {
  begin();
  rx_observable *src = cold("-1-2-3-|");
  EXPECT(K(rx_scan(src, rx_int(0), sum, NULL, NULL)), "-1-3-6-|");
  end();
}

RX_TEST(marble_scan_error_and_accumulator_error) {
  begin();
  rx_observable *src = hot("-1-2-#");
  EXPECT(K(rx_scan(src, rx_int(0), sum, NULL, NULL)), "-1-3-#");
  rx_observable *src2 = cold("-1-2-3-4-|");
  EXPECT_E(K(rx_scan(src2, rx_int(0), sum_fail_3, NULL, NULL)), "-1-3-#", err(RX_ERROR_USER + 3, "three"));
  end();
}

RX_TEST(marble_scan_dispose_and_never) {
  begin();
  rx_observable *src = hot("-1-2---3");
  EXPECT(K(rx_scan(src, rx_int(1), sum, NULL, NULL)), "-2-4-!");
  rx_observable *nothing = hot("-----");
  EXPECT(K(rx_scan(nothing, rx_int(1), sum, NULL, NULL)), "");
  end();
}

/* ---- take / skip ----------------------------------------------------------------------- */

RX_TEST(marble_take_completes_with_the_nth_value) {
  begin();
  rx_observable *src = hot("-1-2-3-4-|");
  EXPECT(K(rx_take(src, 2)), "-1-(2|)");
  end();
}

RX_TEST(marble_take_zero_and_more_than_there_is) {
  begin();
  rx_observable *src = cold("-1-2-|");
  EXPECT(K(rx_take(src, 0)), "|");
  EXPECT(K(rx_take(src, 5)), "-1-2-|");
  end();
}

RX_TEST(marble_take_error_before_n_and_dispose_before_n) {
  begin();
  rx_observable *src = hot("-1-#");
  EXPECT(K(rx_take(src, 3)), "-1-#");
  rx_observable *src2 = cold("-1-2-3-4");
  EXPECT(K(rx_take(src2, 3)), "-1-2!");
  end();
}

RX_TEST(marble_skip_drops_the_first_n) {
  begin();
  rx_observable *src = hot("-1-2-3-4-|");
  EXPECT(K(rx_skip(src, 2)), "-----3-4-|");
  rx_observable *src2 = cold("-1-2-|");
  EXPECT(K(rx_skip(src2, 5)), "-----|");
  end();
}

RX_TEST(marble_skip_error_and_dispose) {
  begin();
  rx_observable *src = hot("-1-2-3-#");
  EXPECT(K(rx_skip(src, 1)), "---2-3-#");
  rx_observable *src2 = cold("-1-2-3-4-|");
  EXPECT(K(rx_skip(src2, 1)), "---2-3!");
  end();
}

/* ---- take_while / skip_while ----------------------------------------------------------- */

RX_TEST(marble_take_while_completes_at_the_first_false) {
  begin();
  rx_observable *src = hot("-1-2-3-1-|");
  EXPECT(K(rx_take_while(src, below_3, NULL, NULL)), "-1-2-|");
  end();
}

RX_TEST(marble_take_while_error_and_predicate_error) {
  begin();
  rx_observable *src = hot("-1-#");
  EXPECT(K(rx_take_while(src, below_3, NULL, NULL)), "-1-#");
  rx_observable *src2 = cold("-1-2-3-|");
  EXPECT_E(K(rx_take_while(src2, below_3_fail_2, NULL, NULL)), "-1-#", err(RX_ERROR_USER + 2, "two"));
  end();
}

RX_TEST(marble_skip_while_then_everything) {
  begin();
  rx_observable *src = hot("-1-2-3-1-4-|");
  EXPECT(K(rx_skip_while(src, below_3, NULL, NULL)), "-----3-1-4-|");
  end();
}

RX_TEST(marble_skip_while_error_predicate_error_and_dispose) {
  begin();
  rx_observable *src = hot("-1-2-#");
  EXPECT(K(rx_skip_while(src, below_3, NULL, NULL)), "-----#");
  rx_observable *src2 = cold("-1-2-3-|");
  EXPECT_E(K(rx_skip_while(src2, below_3_fail_2, NULL, NULL)), "---#", err(RX_ERROR_USER + 2, "two"));
  rx_observable *src3 = cold("-1-5-3-4");
  EXPECT(K(rx_skip_while(src3, below_3, NULL, NULL)), "---5-3!");
  end();
}

/* ---- take_until / skip_until ------------------------------------------------------------ */

RX_TEST(marble_take_until_other_emits) {
  begin();
  rx_observable *src = hot("-1-2-3-4-|");
  rx_observable *other = hot("----x-y");
  EXPECT(K(rx_take_until(src, other)), "-1-2|");
  end();
}

RX_TEST(marble_take_until_other_completes_empty) {
  begin();
  rx_observable *src = hot("-1-2-3-4-|");
  rx_observable *other = hot("--|");
  EXPECT(K(rx_take_until(src, other)), "-1-2-3-4-|");
  end();
}

RX_TEST(marble_take_until_other_error_and_source_error) {
  begin();
  rx_observable *src = hot("-1-2-3-4-|");
  rx_observable *other = hot("--#");
  EXPECT(K(rx_take_until(src, other)), "-1#");
  rx_observable *src2 = hot("-------------1-#");
  rx_observable *other2 = hot("-------------------x");
  EXPECT(K(rx_take_until(src2, other2)), "-------------1-#");
  end();
}

RX_TEST(marble_take_until_dispose_before_either) {
  begin();
  rx_observable *src = cold("-1-2-3-4-|");
  rx_observable *other = cold("------x");
  EXPECT(K(rx_take_until(src, other)), "-1-2!");
  end();
}

RX_TEST(marble_skip_until_other_emits) {
  begin();
  rx_observable *src = hot("-1-2-3-4-|");
  rx_observable *other = hot("----x-y-|");
  EXPECT(K(rx_skip_until(src, other)), "-----3-4-|");
  end();
}

RX_TEST(marble_skip_until_other_error) {
  begin();
  rx_observable *src = hot("-1-2-3-4-|");
  rx_observable *other = hot("---#");
  EXPECT(K(rx_skip_until(src, other)), "---#");
  end();
}

RX_TEST(marble_skip_until_source_ends_first_emits_nothing) {
  /* RxSwift: a source that completes before other fired ends the subscription silently. */
  begin();
  rx_observable *src = hot("-1-2-|");
  rx_observable *other = hot("---------x");
  EXPECT(K(rx_skip_until(src, other)), "");
  rx_observable *src2 = hot("-------1-#");
  rx_observable *other2 = hot("------------x");
  EXPECT(K(rx_skip_until(src2, other2)), "---------#");
  end();
}

/* ---- take_last ------------------------------------------------------------------------- */

RX_TEST(marble_take_last_on_completion) {
  begin();
  rx_observable *src = cold("-1-2-3-|");
  EXPECT(K(rx_take_last(src, 2)), "-------(23|)");
  EXPECT(K(rx_take_last(src, 5)), "-------(123|)");
  end();
}

RX_TEST(marble_take_last_error_and_dispose) {
  begin();
  rx_observable *src = hot("-1-2-#");
  EXPECT(K(rx_take_last(src, 2)), "-----#");
  rx_observable *src2 = cold("-1-2-3-|");
  EXPECT(K(rx_take_last(src2, 2)), "------!");
  end();
}

/* ---- distinct_until_changed ------------------------------------------------------------- */

RX_TEST(marble_distinct_until_changed_default_equality) {
  begin();
  rx_observable *src = hot("-1-1-2-2-1-1-|");
  EXPECT(K(rx_distinct_until_changed(src, NULL, NULL, NULL)), "-1---2---1---|");
  end();
}

RX_TEST(marble_distinct_until_changed_custom_equality_and_error) {
  begin();
  rx_observable *src = hot("-1-3-2-4-5-#");
  EXPECT(K(rx_distinct_until_changed(src, same_parity, NULL, NULL)), "-1---2---5-#");
  end();
}

RX_TEST(marble_distinct_until_changed_strings_and_dispose) {
  begin();
  rx_observable *src = cold("-a-a-b-a-b-b-|");
  EXPECT(K(rx_distinct_until_changed(src, NULL, NULL, NULL)), "-a---b-a-b!");
  end();
}

/* ---- element_at / first / last ---------------------------------------------------------- */

RX_TEST(marble_element_at_index) {
  begin();
  rx_observable *src = hot("-1-2-3-4-|");
  EXPECT(K(rx_element_at(src, 2)), "-----(3|)");
  end();
}

RX_TEST(marble_element_at_out_of_range_and_error) {
  begin();
  rx_observable *src = cold("-1-2-|");
  EXPECT_E(K(rx_element_at(src, 3)), "-----#", err(RX_ERROR_ARGUMENT_OUT_OF_RANGE, "argument out of range"));
  rx_observable *src2 = cold("-1-#");
  EXPECT(K(rx_element_at(src2, 3)), "---#");
  end();
}

RX_TEST(marble_first_and_first_of_empty) {
  begin();
  rx_observable *src = cold("--1-2-|");
  EXPECT(K(rx_first(src)), "--(1|)");
  rx_observable *empty = cold("---|");
  EXPECT_E(K(rx_first(empty)), "---#", err(RX_ERROR_NO_ELEMENTS, "sequence contains no elements"));
  rx_observable *failing = cold("--#");
  EXPECT(K(rx_first(failing)), "--#");
  end();
}

RX_TEST(marble_last_and_last_of_empty) {
  begin();
  rx_observable *src = cold("-1-2-|");
  EXPECT(K(rx_last(src)), "-----(2|)");
  rx_observable *empty = cold("---|");
  EXPECT_E(K(rx_last(empty)), "---#", err(RX_ERROR_NO_ELEMENTS, "sequence contains no elements"));
  rx_observable *failing = cold("-1-2#");
  EXPECT(K(rx_last(failing)), "----#");
  EXPECT(K(rx_last(src)), "---!");
  end();
}

/* ---- merge / concat --------------------------------------------------------------------- */

RX_TEST(marble_merge_error_in_the_middle) {
  begin();
  rx_observable *s[3] = {hot("-1----3-|"), hot("--2-#"), hot("---4----5|")};
  EXPECT(K(rx_merge(s, 3)), "-124#");
  end();
}

RX_TEST(marble_merge_waits_for_all_and_dispose) {
  begin();
  rx_observable *s[2] = {cold("-1-|"), cold("--2---3|")};
  EXPECT(K(rx_merge(s, 2)), "-12---3|");
  EXPECT(K(rx_merge(s, 2)), "-12-!");
  end();
}

RX_TEST(marble_concat_cold_sources_in_turn) {
  begin();
  rx_observable *s[3] = {cold("-1-2|"), cold("-3-|"), cold("4|")};
  EXPECT(K(rx_concat(s, 3)), "-1-2-3-4|");
  end();
}

RX_TEST(marble_concat_error_stops_and_hot_second_misses_early_values) {
  begin();
  rx_observable *s[2] = {cold("-1-#"), cold("-2|")};
  EXPECT(K(rx_concat(s, 2)), "-1-#");
  rx_observable *h[2] = {hot("-1--|"), hot("--2--3|")};
  EXPECT(K(rx_concat(h, 2)), "-1---3|");
  end();
}

RX_TEST(marble_concat_dispose_during_the_second) {
  begin();
  rx_observable *s[2] = {cold("-1|"), cold("-2-3-|")};
  EXPECT(K(rx_concat(s, 2)), "-1-2!");
  end();
}

/* ---- combine_latest / zip / with_latest_from -------------------------------------------- */

RX_TEST(marble_combine_latest_sums) {
  begin();
  rx_observable *s[2] = {hot("-1---3---|"), hot("---2---4-|")};
  EXPECT(K(rx_combine_latest(s, 2, add_all, NULL, NULL)), "---3-5-7-|");
  end();
}

RX_TEST(marble_combine_latest_arrays_and_error) {
  begin();
  rx_observable *s[2] = {hot("-1---3-#"), hot("---2----4")};
  rx_marble_value v[] = {{'a', ARR(1, 2)}, {'b', ARR(3, 2)}};
  EXPECT_V(K(rx_combine_latest(s, 2, NULL, NULL, NULL)), "---a-b-#", v);
  end();
}

RX_TEST(marble_combine_latest_completes_when_one_completes_empty) {
  /* RxSwift: an element arriving while every other source is done and one never emitted
     completes the stream. */
  begin();
  rx_observable *s[2] = {hot("-|"), hot("---1---2-|")};
  EXPECT(K(rx_combine_latest(s, 2, add_all, NULL, NULL)), "---|");
  end();
}

RX_TEST(marble_combine_latest_dispose) {
  begin();
  rx_observable *s[2] = {cold("-1---2---3"), cold("--4")};
  EXPECT(K(rx_combine_latest(s, 2, add_all, NULL, NULL)), "--5-!");
  end();
}

RX_TEST(marble_zip_pairs_in_order) {
  begin();
  rx_observable *s[2] = {hot("-1-2-3-|"), hot("--4---5-6|")};
  rx_marble_value v[] = {{'a', rx_int(5)}, {'b', rx_int(7)}, {'c', rx_int(9)}};
  EXPECT_V(K(rx_zip(s, 2, add_all, NULL, NULL)), "--a---b-c|", v);
  end();
}

RX_TEST(marble_zip_completes_when_the_other_side_is_done) {
  begin();
  rx_observable *s[2] = {hot("-1|"), hot("--2-3-|")};
  EXPECT(K(rx_zip(s, 2, add_all, NULL, NULL)), "--3-|");
  end();
}

RX_TEST(marble_zip_error_and_dispose) {
  begin();
  rx_observable *s[2] = {hot("-1-#"), hot("--2---3")};
  EXPECT(K(rx_zip(s, 2, add_all, NULL, NULL)), "--3#");
  rx_observable *c[2] = {cold("-1-2-3"), cold("--1--2--3")};
  rx_value pair = ARR(1, 1);
  rx_marble_value v[] = {{'p', pair}};
  EXPECT_V(K(rx_zip(c, 2, NULL, NULL, NULL)), "--p-!", v);
  end();
}

RX_TEST(marble_with_latest_from_other_latest) {
  begin();
  rx_observable *src = hot("-1---2---3-|");
  rx_observable *other = hot("---a---b----c");
  EXPECT(K(rx_with_latest_from(src, other, NULL, NULL, NULL)), "-----a---b-|");
  end();
}

RX_TEST(marble_with_latest_from_combine_and_errors) {
  begin();
  rx_observable *src = hot("-1---2---3-|");
  rx_observable *other = hot("--1-----4-#");
  EXPECT(K(rx_with_latest_from(src, other, add_all, NULL, NULL)), "-----3---7#");
  rx_observable *src2 = hot("-------------1-#");
  rx_observable *other2 = hot("------------2");
  EXPECT(K(rx_with_latest_from(src2, other2, add_all, NULL, NULL)), "-------------3-#");
  end();
}

RX_TEST(marble_start_with_values_first) {
  begin();
  rx_observable *src = cold("-----3|");
  rx_value pre[2] = {rx_int(1), rx_int(2)};
  EXPECT(K(rx_start_with(src, pre, 2)), "(12)-3|");
  rx_observable *failing = cold("--#");
  EXPECT(K(rx_start_with(failing, pre, 1)), "1-#");
  end();
}

/* ---- switch_latest / flat_map / flat_map_latest / concat_map ------------------------------ */

RX_TEST(marble_switch_latest_follows_the_newest_inner) {
  begin();
  rx_observable *x = hot("-a-b-c-d-|");
  rx_observable *y = hot("-----e--f-g|");
  rx_marble_value outer[] = {{'X', KV(rx_observable_value(x))}, {'Y', KV(rx_observable_value(y))}};
  rx_observable *src = K(rx_marble_hot(ts, "--X---Y--|", outer, 2, NULL));
  EXPECT(K(rx_switch_latest(src)), "---b-c--f-g|");
  end();
}

RX_TEST(marble_switch_latest_inner_error_and_outer_error) {
  begin();
  rx_observable *x = hot("-a-b-#");
  rx_marble_value outer[] = {{'X', KV(rx_observable_value(x))}};
  rx_observable *src = K(rx_marble_hot(ts, "--X-------|", outer, 1, NULL));
  EXPECT(K(rx_switch_latest(src)), "---b-#");
  end();
  begin();
  rx_observable *x2 = hot("-a-b-c-d-|");
  rx_marble_value outer2[] = {{'X', KV(rx_observable_value(x2))}};
  rx_observable *src2 = K(rx_marble_hot(ts, "--X-#", outer2, 1, NULL));
  EXPECT(K(rx_switch_latest(src2)), "---b#");
  end();
}

RX_TEST(marble_switch_latest_outer_completion_waits_for_the_inner_and_dispose) {
  begin();
  rx_observable *x = hot("-a-b-c-d-|");
  rx_marble_value outer[] = {{'X', KV(rx_observable_value(x))}};
  rx_observable *src = K(rx_marble_hot(ts, "--X-|", outer, 1, NULL));
  EXPECT(K(rx_switch_latest(src)), "---b-c-d-|");
  end();
  begin();
  rx_observable *x2 = hot("-a-b-c-d-|");
  rx_marble_value outer2[] = {{'X', KV(rx_observable_value(x2))}};
  rx_observable *src2 = K(rx_marble_hot(ts, "--X-|", outer2, 1, NULL));
  EXPECT(K(rx_switch_latest(src2)), "---b-c!");
  end();
}

RX_TEST(marble_switch_latest_rejects_values_that_are_not_observables) {
  begin();
  rx_observable *src = hot("--1--");
  EXPECT_E(K(rx_switch_latest(src)), "--#", err(RX_ERROR_TYPE, "rx_switch_latest: the source emitted a value that is not an RX_OBSERVABLE"));
  end();
}

/* fn(v): a cold "-v--v|" (v at +1 and +4, completed at +5). */
static rx_observable *twice_later(void *ctx, rx_value v, rx_error **e) {
  rx_marble_value t[] = {{'v', v}};
  return rx_marble_cold(ts, "-v--v|", t, 1, NULL);
}
static rx_observable *twice_later_fail_3(void *ctx, rx_value v, rx_error **e) {
  if (v.i == 3) {
    *e = rx_error_new(RX_ERROR_USER + 3, "three");
    return NULL;
  }
  return twice_later(ctx, v, e);
}
static rx_observable *inner_fails(void *ctx, rx_value v, rx_error **e) {
  rx_marble_value t[] = {{'v', v}};
  return rx_marble_cold(ts, "-v#", t, 1, NULL);
}

RX_TEST(marble_flat_map_merges_inner_observables) {
  begin();
  rx_observable *src = hot("-1-2------|");
  EXPECT(K(rx_flat_map(src, twice_later, NULL, NULL)), "--1-21-2--|");
  end();
}

RX_TEST(marble_flat_map_waits_for_inner_completion) {
  begin();
  rx_observable *src = hot("-1-2-|");
  EXPECT(K(rx_flat_map(src, twice_later, NULL, NULL)), "--1-21-2|");
  end();
}

RX_TEST(marble_flat_map_inner_error_source_error_selector_error) {
  begin();
  rx_observable *src = hot("-1---2---|");
  EXPECT(K(rx_flat_map(src, inner_fails, NULL, NULL)), "--1#");
  rx_observable *src2 = hot("-1--#");
  EXPECT(K(rx_flat_map(src2, twice_later, NULL, NULL)), "--1-#");
  end();
  begin();
  rx_observable *src3 = hot("-1-3-----|");
  EXPECT_E(K(rx_flat_map(src3, twice_later_fail_3, NULL, NULL)), "--1#", err(RX_ERROR_USER + 3, "three"));
  end();
}

RX_TEST(marble_flat_map_dispose_ends_inner_subscriptions) {
  begin();
  rx_observable *src = hot("-1-2------|");
  EXPECT(K(rx_flat_map(src, twice_later, NULL, NULL)), "--1-21!");
  end();
}

RX_TEST(marble_flat_map_latest_drops_the_previous_inner) {
  begin();
  rx_observable *src = hot("-1-2------|");
  EXPECT(K(rx_flat_map_latest(src, twice_later, NULL, NULL)), "--1-2--2--|");
  rx_observable *src2 = hot("-------------1-|");
  EXPECT(K(rx_flat_map_latest(src2, twice_later, NULL, NULL)), "--------------1--1|");
  end();
}

RX_TEST(marble_flat_map_latest_errors_and_dispose) {
  begin();
  rx_observable *src = hot("-1-2-#");
  EXPECT(K(rx_flat_map_latest(src, twice_later, NULL, NULL)), "--1-2#");
  rx_observable *src2 = hot("---------1--2------");
  EXPECT(K(rx_flat_map_latest(src2, inner_fails, NULL, NULL)), "----------1#");
  rx_observable *src3 = hot("------------------------1-2-----|");
  EXPECT(K(rx_flat_map_latest(src3, twice_later, NULL, NULL)), "-------------------------1-2-!");
  end();
}

RX_TEST(marble_concat_map_runs_inners_in_turn) {
  begin();
  rx_observable *src = hot("-1-2------|");
  EXPECT(K(rx_concat_map(src, twice_later, NULL, NULL)), "--1--1-2--2|");
  end();
}

RX_TEST(marble_concat_map_error_and_dispose) {
  begin();
  rx_observable *src = hot("-1-2---#");
  EXPECT(K(rx_concat_map(src, twice_later, NULL, NULL)), "--1--1-#");
  rx_observable *src2 = hot("------------1-2----------|");
  EXPECT(K(rx_concat_map(src2, twice_later, NULL, NULL)), "-------------1--1-2!");
  end();
}

/* ---- catch / catch_and_return / retry ----------------------------------------------------- */

static rx_observable *recover_with_89(void *ctx, const rx_error *e) {
  return rx_marble_cold(ts, "-8-9|", NULL, 0, NULL);
}
static rx_observable *recover_failing(void *ctx, const rx_error *e) {
  return rx_marble_cold(ts, "-7-#", NULL, 0, (const rx_error *)ctx);
}
static rx_observable *no_recovery(void *ctx, const rx_error *e) { return NULL; }

RX_TEST(marble_catch_continues_with_the_handler) {
  begin();
  rx_observable *src = hot("-1-2-#-3");
  EXPECT(K(rx_catch(src, recover_with_89, NULL, NULL)), "-1-2--8-9|");
  end();
}

RX_TEST(marble_catch_no_error_passes_through) {
  begin();
  rx_observable *src = cold("-1-2-|");
  EXPECT(K(rx_catch(src, recover_with_89, NULL, NULL)), "-1-2-|");
  end();
}

RX_TEST(marble_catch_handler_null_or_failing) {
  begin();
  rx_observable *src = hot("-1-#");
  EXPECT(K(rx_catch(src, no_recovery, NULL, NULL)), "-1-#");
  end();
  begin();
  rx_error *second = err(RX_ERROR_USER + 2, "second");
  rx_observable *src2 = hot("-1-#");
  EXPECT_E(K(rx_catch(src2, recover_failing, second, NULL)), "-1--7-#", second);
  end();
}

RX_TEST(marble_catch_dispose_in_the_handler_stream) {
  begin();
  rx_observable *src = hot("-1-#");
  EXPECT(K(rx_catch(src, recover_with_89, NULL, NULL)), "-1--8!");
  end();
}

RX_TEST(marble_catch_and_return) {
  begin();
  rx_observable *src = hot("-1-2-#");
  EXPECT(K(rx_catch_and_return(src, rx_int(9))), "-1-2-(9|)");
  rx_observable *fine = cold("-1-|");
  EXPECT(K(rx_catch_and_return(fine, rx_int(9))), "-1-|");
  end();
}

RX_TEST(marble_retry_resubscribes_a_cold_source) {
  begin();
  rx_observable *src = cold("-1-2-#");
  EXPECT(K(rx_retry(src, 3)), "-1-2--1-2--1-2-#");
  EXPECT(K(rx_retry(src, 1)), "-1-2-#");
  end();
}

RX_TEST(marble_retry_completes_without_retrying) {
  begin();
  rx_observable *src = cold("-1-|");
  EXPECT(K(rx_retry(src, 3)), "-1-|");
  end();
}

RX_TEST(marble_retry_forever_until_disposed) {
  begin();
  rx_observable *src = cold("-1#");
  EXPECT(K(rx_retry(src, 0)), "-1-1-1-!");
  end();
}

RX_TEST(marble_retry_of_a_terminated_hot_source_fails_at_once) {
  /* A hot marble is a subject: once it errored, every resubscription gets the error at once,
     so the attempts run out in the same frame and the last error is forwarded. */
  begin();
  rx_observable *src = hot("-1-2-#-3");
  EXPECT(K(rx_retry(src, 3)), "-1-2-#");
  end();
}

/* ---- amb -------------------------------------------------------------------------------- */

RX_TEST(marble_amb_mirrors_the_first_to_emit) {
  begin();
  rx_observable *s[3] = {hot("---1-2|"), hot("-3--4-|"), hot("--5-----|")};
  EXPECT(K(rx_amb(s, 3)), "-3--4-|");
  end();
}

RX_TEST(marble_amb_winner_error_and_first_terminal_wins) {
  begin();
  rx_observable *s[2] = {hot("--1-#"), hot("---2-3")};
  EXPECT(K(rx_amb(s, 2)), "--1-#");
  rx_observable *t[2] = {hot("------1-"), hot("-----|")};
  EXPECT(K(rx_amb(t, 2)), "-----|");
  end();
}

RX_TEST(marble_amb_dispose_before_a_winner) {
  begin();
  rx_observable *s[2] = {cold("---1"), cold("----2")};
  EXPECT(K(rx_amb(s, 2)), "--!");
  end();
}

/* ---- materialize / dematerialize ----------------------------------------------------------- */

/* The events of `src` as RX_EVENT values, by materializing it synchronously. */
static rx_value events_of(rx_observable *src) {
  rx_observable *m = rx_materialize(src);
  rx_value arr = rx_none();
  CHECK_OK(rx_blocking_to_array(m, -1, &arr, NULL));
  rx_release(m);
  return KV(arr);
}

RX_TEST(marble_materialize_values_and_completion) {
  begin();
  rx_value just[2] = {rx_int(1), rx_int(2)};
  rx_value evs = events_of(K(rx_of(just, 2)));
  CHECK_EQ(rx_array_count(evs), 3);
  rx_marble_value v[] = {{'a', rx_array_get(evs, 0)}, {'b', rx_array_get(evs, 1)}, {'c', rx_array_get(evs, 2)}};
  rx_observable *src = cold("-1-2-|");
  EXPECT_V(K(rx_materialize(src)), "-a-b-(c|)", v);
  end();
}

RX_TEST(marble_materialize_error_becomes_a_value) {
  begin();
  rx_error *e = err(RX_ERROR_USER, "marble error");
  rx_value evs = events_of(K(rx_throw(e)));
  rx_value one = rx_int(1);
  rx_value evs1 = events_of(K(rx_just(one)));
  rx_marble_value v[] = {{'a', rx_array_get(evs1, 0)}, {'e', rx_array_get(evs, 0)}};
  rx_observable *src = hot("-1-#-2");
  EXPECT_V(K(rx_materialize(src)), "-a-(e|)", v);
  end();
}

RX_TEST(marble_dematerialize_round_trip) {
  begin();
  rx_observable *src = hot("-1-2-#");
  rx_observable *m = K(rx_materialize(src));
  EXPECT(K(rx_dematerialize(m)), "-1-2-#");
  rx_observable *src2 = cold("-1-2-|");
  rx_observable *m2 = K(rx_materialize(src2));
  EXPECT(K(rx_dematerialize(m2)), "-1-2!");
  end();
}

/* ---- delay / debounce / throttle / sample / timeout ----------------------------------------- */

#define F(n) ((int64_t)(n) * RX_MARBLE_FRAME_NS)

RX_TEST(marble_delay_shifts_values_and_completion) {
  begin();
  rx_observable *src = hot("-1-2-3-|");
  EXPECT(K(rx_delay(src, F(2), ts)), "---1-2-3-|");
  end();
}

RX_TEST(marble_delay_error_is_not_delayed) {
  begin();
  rx_observable *src = hot("-1--#");
  EXPECT(K(rx_delay(src, F(2), ts)), "---1#");
  rx_observable *src2 = hot("-1#");
  EXPECT(K(rx_delay(src2, F(3), ts)), "--#");
  end();
}

RX_TEST(marble_delay_dispose_drops_pending_values) {
  begin();
  rx_observable *src = cold("-1-2-3-|");
  EXPECT(K(rx_delay(src, F(3), ts)), "----1!");
  end();
}

RX_TEST(marble_debounce_error_drops_the_pending_value) {
  begin();
  rx_observable *src = hot("-1---2#");
  EXPECT(K(rx_debounce(src, F(2), ts)), "---1--#");
  end();
}

RX_TEST(marble_debounce_completion_flushes_and_dispose) {
  begin();
  rx_observable *src = hot("-1-2|");
  EXPECT(K(rx_debounce(src, F(3), ts)), "----(2|)");
  rx_observable *src2 = cold("-1-2-3------|");
  EXPECT(K(rx_debounce(src2, F(3), ts)), "-------!");
  end();
}

RX_TEST(marble_throttle_latest) {
  begin();
  rx_observable *src = hot("-1-2-3------4-|");
  EXPECT(K(rx_throttle(src, F(5), true, ts)), "-1----3-----4-|");
  end();
}

RX_TEST(marble_throttle_first_only) {
  begin();
  rx_observable *src = hot("-1-2-3------4-|");
  EXPECT(K(rx_throttle(src, F(5), false, ts)), "-1----------4-|");
  end();
}

RX_TEST(marble_throttle_completion_waits_for_the_latest_and_error) {
  begin();
  rx_observable *src = hot("-1-2|");
  EXPECT(K(rx_throttle(src, F(5), true, ts)), "-1----(2|)");
  rx_observable *src2 = hot("--------1-2#");
  EXPECT(K(rx_throttle(src2, F(5), true, ts)), "--------1--#");
  end();
}

RX_TEST(marble_sample_on_each_tick) {
  begin();
  rx_observable *src = hot("-1-2----3-4--|");
  rx_observable *sampler = hot("--x--x---x----x---x");
  EXPECT(K(rx_sample(src, sampler)), "--1--2---3----(4|)");
  end();
}

RX_TEST(marble_sample_no_new_value_no_sample_and_sampler_completion) {
  begin();
  rx_observable *src = hot("-1-----2-");
  rx_observable *sampler = hot("--x-x-x---|");
  EXPECT(K(rx_sample(src, sampler)), "--1-------2!");
  end();
}

RX_TEST(marble_sample_errors) {
  begin();
  rx_observable *src = hot("-1-2-#");
  rx_observable *sampler = hot("--x---x");
  EXPECT(K(rx_sample(src, sampler)), "--1--#");
  rx_observable *src2 = hot("-----------1-2");
  rx_observable *sampler2 = hot("--------------x-#");
  EXPECT(K(rx_sample(src2, sampler2)), "--------------2-#");
  end();
}

RX_TEST(marble_timeout_not_reached) {
  begin();
  rx_observable *src = hot("-1-2-3-|");
  EXPECT(K(rx_timeout(src, F(3), ts)), "-1-2-3-|");
  end();
}

RX_TEST(marble_timeout_between_values_and_before_the_first) {
  begin();
  rx_error *t = err(RX_ERROR_TIMEOUT, "sequence timeout");
  rx_observable *src = hot("-1-2------3|");
  EXPECT_E(K(rx_timeout(src, F(3), ts)), "-1-2--#", t);
  rx_observable *src2 = cold("-----1|");
  EXPECT_E(K(rx_timeout(src2, F(3), ts)), "---#", t);
  end();
}

RX_TEST(marble_timeout_source_error_and_dispose) {
  begin();
  rx_observable *src = hot("-1-#");
  EXPECT(K(rx_timeout(src, F(3), ts)), "-1-#");
  rx_observable *src2 = cold("-1-2--");
  EXPECT(K(rx_timeout(src2, F(3), ts)), "-1-2!");
  end();
}

RX_TEST(marble_skip_duration) {
  begin();
  rx_observable *src = hot("-1-2-3-4-|");
  EXPECT(K(rx_skip_duration(src, F(4), ts)), "-----3-4-|");
  rx_observable *src2 = cold("-1-2-#");
  EXPECT(K(rx_skip_duration(src2, F(2), ts)), "---2-#");
  end();
}

RX_TEST(marble_take_duration) {
  begin();
  rx_observable *src = hot("-1-2-3-4-|");
  EXPECT(K(rx_take_duration(src, F(4), ts)), "-1-2|");
  rx_observable *src2 = cold("-1-2-3-|");
  EXPECT(K(rx_take_duration(src2, F(9), ts)), "-1-2!");
  end();
}

RX_TEST(marble_timeout_to_fallback) {
  begin();
  rx_observable *src = hot("-1-2------3|");
  rx_observable *fb = cold("-7-8|");
  EXPECT(K(rx_timeout_to(src, F(3), fb, ts)), "-1-2---7-8|");
  rx_observable *src2 = hot("-1-2-3|");
  EXPECT(K(rx_timeout_to(src2, F(3), fb, ts)), "-1-2-3|");
  end();
}

/* ---- buffer ------------------------------------------------------------------------------- */

RX_TEST(marble_buffer_by_count) {
  begin();
  rx_observable *src = hot("-1-2-3-4-5-|");
  rx_marble_value v[] = {{'a', ARR(1, 2)}, {'b', ARR(3, 4)}, {'c', ARR(5)}};
  EXPECT_V(K(rx_buffer(src, 0, 2, ts)), "---a---b---(c|)", v);
  end();
}

RX_TEST(marble_buffer_by_time_emits_empty_windows_and_on_completion) {
  begin();
  rx_observable *src = hot("-1-2---3-|");
  rx_marble_value v[] = {{'a', ARR(1, 2)}, {'b', ARR(3)}, {'e', ARR0()}};
  EXPECT_V(K(rx_buffer(src, F(4), 0, ts)), "----a---b(e|)", v);
  end();
}

RX_TEST(marble_buffer_by_time_or_count) {
  begin();
  rx_observable *src = hot("-1-2-3----|");
  rx_marble_value v[] = {{'a', ARR(1, 2)}, {'b', ARR(3)}, {'e', ARR0()}};
  EXPECT_V(K(rx_buffer(src, F(5), 2, ts)), "---a----b-(e|)", v);
  end();
}

RX_TEST(marble_buffer_error_and_dispose) {
  begin();
  rx_observable *src = hot("-1-#");
  EXPECT(K(rx_buffer(src, 0, 3, ts)), "---#");
  rx_observable *src2 = cold("-1-2-3-4");
  rx_marble_value v[] = {{'a', ARR(1, 2)}};
  EXPECT_V(K(rx_buffer(src2, 0, 2, ts)), "---a-!", v);
  end();
}

/* ---- edge cases: synchronous others, empty source lists, exact windows ------------------- */

RX_TEST(marble_take_until_and_skip_until_with_a_synchronous_other) {
  begin();
  rx_observable *src = cold("-1-2|");
  rx_observable *now = K(rx_just(rx_int(0)));
  EXPECT(K(rx_take_until(src, now)), "|");
  EXPECT(K(rx_skip_until(src, now)), "-1-2|");
  end();
}

RX_TEST(marble_with_latest_from_keeps_the_latest_after_other_completes) {
  begin();
  rx_observable *src = hot("-1---2---3-|");
  rx_observable *other = hot("--a|");
  EXPECT(K(rx_with_latest_from(src, other, NULL, NULL, NULL)), "-----a---a-|");
  end();
}

RX_TEST(marble_combine_latest_three_sources) {
  begin();
  rx_observable *s[3] = {hot("-1-----4--|"), hot("--2------|"), hot("---3--5--|")};
  rx_marble_value v[] = {{'a', ARR(1, 2, 3)}, {'b', ARR(1, 2, 5)}, {'c', ARR(4, 2, 5)}};
  EXPECT_V(K(rx_combine_latest(s, 3, NULL, NULL, NULL)), "---a--bc--|", v);
  end();
}

RX_TEST(marble_combine_latest_error_from_a_silent_source) {
  begin();
  rx_observable *s[2] = {hot("---#"), hot("-1----2")};
  EXPECT(K(rx_combine_latest(s, 2, add_all, NULL, NULL)), "---#");
  end();
}

RX_TEST(marble_zip_three_sources_completes_when_no_pair_can_follow) {
  begin();
  rx_observable *s[3] = {hot("-1-2-3|"), hot("--4-5|"), hot("---6---7-8|")};
  rx_marble_value v[] = {{'x', ARR(1, 4, 6)}, {'y', ARR(2, 5, 7)}};
  EXPECT_V(K(rx_zip(s, 3, NULL, NULL, NULL)), "---x---y-|", v);
  end();
}

RX_TEST(marble_no_sources) {
  begin();
  EXPECT(K(rx_merge(NULL, 0)), "|");
  EXPECT(K(rx_concat(NULL, 0)), "|");
  EXPECT(K(rx_amb(NULL, 0)), "");
  EXPECT(K(rx_zip(NULL, 0, NULL, NULL, NULL)), "|");
  rx_marble_value v[] = {{'e', ARR0()}, {'z', rx_int(0)}};
  EXPECT_V(K(rx_combine_latest(NULL, 0, NULL, NULL, NULL)), "(e|)", v);
  EXPECT_V(K(rx_combine_latest(NULL, 0, add_all, NULL, NULL)), "(z|)", v);
  end();
}

RX_TEST(marble_switch_latest_inner_completes_before_the_next) {
  begin();
  rx_observable *x = cold("-a|");
  rx_observable *y = cold("-b-c|");
  rx_marble_value outer[] = {{'X', KV(rx_observable_value(x))}, {'Y', KV(rx_observable_value(y))}};
  rx_observable *src = K(rx_marble_hot(ts, "--X---Y--|", outer, 2, NULL));
  EXPECT(K(rx_switch_latest(src)), "---a---b-c|");
  rx_observable *src2 = K(rx_marble_hot(ts, "--X------|", outer, 2, NULL));
  EXPECT(K(rx_switch_latest(src2)), "---a-----|");
  end();
}

static rx_observable *just_twice(void *ctx, rx_value v, rx_error **e) { return rx_just(rx_int(v.i * 2)); }

RX_TEST(marble_flat_map_and_concat_map_synchronous_inners) {
  begin();
  rx_observable *src = hot("-1----2-|");
  EXPECT(K(rx_flat_map(src, just_twice, NULL, NULL)), "-2----4-|");
  end();
  begin();
  rx_observable *src2 = hot("-1----2-|");
  EXPECT(K(rx_concat_map(src2, just_twice, NULL, NULL)), "-2----4-|");
  end();
  begin();
  rx_observable *src3 = hot("-1----2-|");
  EXPECT(K(rx_flat_map_latest(src3, just_twice, NULL, NULL)), "-2----4-|");
  end();
}

static rx_observable *no_observable(void *ctx, rx_value v, rx_error **e) { return NULL; }

RX_TEST(marble_flat_map_null_without_error_fails_with_unknown) {
  begin();
  rx_observable *src = hot("--1--");
  EXPECT_E(K(rx_flat_map(src, no_observable, NULL, NULL)), "--#",
           err(RX_ERROR_UNKNOWN, "rx_flat_map: the callback returned no observable"));
  end();
}

/* Attempt 1 fails at +3, attempt 2 completes: RxSwift's retry-then-succeed case. */
static int attempts;
static rx_observable *flaky(void *ctx) {
  attempts++;
  return attempts == 1 ? rx_marble_cold(ts, "-1-#", NULL, 0, NULL) : rx_marble_cold(ts, "-2-|", NULL, 0, NULL);
}

RX_TEST(marble_retry_succeeds_on_a_later_attempt) {
  begin();
  rx_observable *src = K(rx_defer(flaky, NULL, NULL));
  EXPECT(K(rx_retry(src, 3)), "-1--2-|");
  CHECK_EQ(attempts, 2);
  end();
}

static rx_observable *recover_with_code(void *ctx, const rx_error *e) {
  return rx_just(rx_int(rx_error_code(e) - RX_ERROR_USER));
}

RX_TEST(marble_catch_handler_gets_the_error) {
  begin();
  rx_observable *src = K(rx_marble_hot(ts, "-1-#", NULL, 0, err(RX_ERROR_USER + 7, "seven")));
  EXPECT(K(rx_catch(src, recover_with_code, NULL, NULL)), "-1-(7|)");
  end();
}

RX_TEST(marble_reduce_final_value_empty_and_error) {
  begin();
  rx_observable *src = cold("-1-2-3-|");
  EXPECT(K(rx_reduce(src, rx_int(0), sum, NULL, NULL)), "-------(6|)");
  rx_observable *empty = cold("---|");
  EXPECT(K(rx_reduce(empty, rx_int(5), sum, NULL, NULL)), "---(5|)");
  rx_observable *failing = cold("-1-#");
  EXPECT(K(rx_reduce(failing, rx_int(0), sum, NULL, NULL)), "---#");
  end();
}

RX_TEST(marble_to_array_and_ignore_elements) {
  begin();
  rx_observable *src = cold("-1-2-|");
  rx_marble_value v[] = {{'a', ARR(1, 2)}};
  EXPECT_V(K(rx_to_array(src)), "-----(a|)", v);
  EXPECT(K(rx_ignore_elements(src)), "-----|");
  rx_observable *failing = cold("-1-#");
  EXPECT(K(rx_ignore_elements(failing)), "---#");
  EXPECT(K(rx_to_array(failing)), "---#");
  end();
}

RX_TEST(marble_delay_subscription_cold_and_hot) {
  begin();
  rx_observable *src = cold("-1-|");
  EXPECT(K(rx_delay_subscription(src, F(3), ts)), "----1-|");
  rx_observable *h = hot("-1-2-3-|");
  EXPECT(K(rx_delay_subscription(h, F(2), ts)), "---2-3-|");
  end();
}

RX_TEST(marble_delay_zero_keeps_frames) {
  begin();
  rx_observable *src = hot("-1-2|");
  EXPECT(K(rx_delay(src, 0, ts)), "-1-2|");
  end();
}

RX_TEST(marble_throttle_value_exactly_one_window_later_passes) {
  begin();
  rx_observable *src = hot("-1----2-|");
  EXPECT(K(rx_throttle(src, F(5), false, ts)), "-1----2-|");
  end();
}

RX_TEST(marble_debounce_a_value_at_the_due_frame_wins_the_tie) {
  /* Items due at one virtual time run in scheduling order: the hot source's events were
     scheduled first, so a value landing on the due frame cancels the pending one. */
  begin();
  rx_observable *src = hot("-1--2--3|");
  EXPECT(K(rx_debounce(src, F(3), ts)), "--------(3|)");
  end();
}

RX_TEST(marble_sample_ticks_before_any_value_emit_nothing) {
  begin();
  rx_observable *src = hot("----1--|");
  rx_observable *sampler = hot("-x-x--x-x");
  EXPECT(K(rx_sample(src, sampler)), "------1-|");
  end();
}

RX_TEST(marble_first_of_a_synchronous_group_and_take_last_zero) {
  begin();
  rx_observable *src = cold("(12|)");
  EXPECT(K(rx_first(src)), "(1|)");
  rx_observable *src2 = cold("-1-2-|");
  EXPECT(K(rx_take_last(src2, 0)), "-----|");
  EXPECT(K(rx_skip(src2, 0)), "-1-2-|");
  end();
}

RX_TEST(marble_dematerialize_rejects_values_that_are_not_events) {
  begin();
  rx_observable *src = hot("--1--");
  EXPECT_E(K(rx_dematerialize(src)), "--#",
           err(RX_ERROR_TYPE, "rx_dematerialize: the source emitted a value that is not an RX_EVENT"));
  end();
}

RX_TEST(marble_start_with_on_a_hot_source) {
  begin();
  rx_observable *src = hot("-1-2|");
  rx_value zero = rx_int(0);
  EXPECT(K(rx_start_with(src, &zero, 1)), "01-2|");
  end();
}

RX_TEST(marble_materialize_dispose) {
  begin();
  rx_value one = rx_int(1);
  rx_value evs = events_of(K(rx_just(one)));
  rx_marble_value v[] = {{'a', rx_array_get(evs, 0)}};
  rx_observable *src = cold("-1-2-|");
  EXPECT_V(K(rx_materialize(src)), "-a!", v);
  end();
}

/* ---- when sources are let go: a tap's on_disposed notes the virtual frame ----------------- */

typedef struct probe {
  int64_t frame;
  int count;
} probe;
static void probe_disposed(void *ctx) {
  probe *p = ctx;
  p->count++;
  p->frame = rx_scheduler_now_ns(ts) / RX_MARBLE_FRAME_NS;
}
static rx_observable *probed(rx_observable *src, probe *p) {
  p->frame = -1;
  p->count = 0;
  rx_observer tap = {.on_disposed = probe_disposed, .ctx = p};
  return K(rx_do(src, tap, NULL));
}

RX_TEST(marble_amb_disposes_the_losers_when_the_winner_emits) {
  begin();
  probe pa, pc;
  rx_observable *s[3] = {probed(hot("---1-2|"), &pa), hot("-3--4-|"), probed(hot("--5-----|"), &pc)};
  EXPECT(K(rx_amb(s, 3)), "-3--4-|");
  CHECK_EQ(pa.count, 1);
  CHECK_EQ(pa.frame, 1);
  CHECK_EQ(pc.count, 1);
  CHECK_EQ(pc.frame, 1);
  end();
}

RX_TEST(marble_take_and_first_dispose_the_source_when_done) {
  begin();
  probe p;
  rx_observable *src = probed(hot("-1-2-3-4-|"), &p);
  EXPECT(K(rx_take(src, 2)), "-1-(2|)");
  CHECK_EQ(p.count, 1);
  CHECK_EQ(p.frame, 3);
  end();
  begin();
  probe q;
  rx_observable *src2 = probed(hot("--1-2-3-|"), &q);
  EXPECT(K(rx_first(src2)), "--(1|)");
  CHECK_EQ(q.frame, 2);
  end();
}

RX_TEST(marble_take_until_disposes_source_and_other) {
  begin();
  probe ps, po;
  rx_observable *src = probed(hot("-1-2-3-4-|"), &ps);
  rx_observable *other = probed(hot("----x-y"), &po);
  EXPECT(K(rx_take_until(src, other)), "-1-2|");
  CHECK_EQ(ps.frame, 4);
  CHECK_EQ(po.frame, 4);
  end();
}

RX_TEST(marble_skip_until_lets_other_go_after_its_first_value) {
  begin();
  probe po;
  rx_observable *src = hot("-1-2-3-4-|");
  rx_observable *other = probed(hot("----x-y-----"), &po);
  EXPECT(K(rx_skip_until(src, other)), "-----3-4-|");
  CHECK_EQ(po.count, 1);
  CHECK_EQ(po.frame, 4);
  end();
}

RX_TEST(marble_timeout_disposes_the_source) {
  begin();
  probe p;
  rx_observable *src = probed(hot("-1-2------3|"), &p);
  EXPECT_E(K(rx_timeout(src, F(3), ts)), "-1-2--#", err(RX_ERROR_TIMEOUT, "sequence timeout"));
  CHECK_EQ(p.frame, 6);
  end();
}

RX_TEST(marble_switch_latest_disposes_the_previous_inner_at_the_switch) {
  begin();
  probe px;
  rx_observable *x = probed(hot("-a-b-c-d-|"), &px);
  rx_observable *y = hot("-----e--f-g|");
  rx_marble_value outer[] = {{'X', KV(rx_observable_value(x))}, {'Y', KV(rx_observable_value(y))}};
  rx_observable *src = K(rx_marble_hot(ts, "--X---Y--|", outer, 2, NULL));
  EXPECT(K(rx_switch_latest(src)), "---b-c--f-g|");
  CHECK_EQ(px.count, 1);
  CHECK_EQ(px.frame, 6);
  end();
}

RX_TEST(marble_merge_error_disposes_the_other_sources) {
  begin();
  probe pa, pc;
  rx_observable *s[3] = {probed(hot("-1----3-|"), &pa), hot("--2-#"), probed(hot("---4----5|"), &pc)};
  EXPECT(K(rx_merge(s, 3)), "-124#");
  CHECK_EQ(pa.frame, 4);
  CHECK_EQ(pc.frame, 4);
  end();
}

RX_TEST(marble_sample_source_completion_disposes_the_source_at_once) {
  begin();
  probe ps, pt;
  rx_observable *src = probed(hot("-1-|"), &ps);
  rx_observable *sampler = probed(hot("-----x---"), &pt);
  EXPECT(K(rx_sample(src, sampler)), "-----(1|)");
  CHECK_EQ(ps.frame, 3);
  CHECK_EQ(pt.frame, 5);
  end();
}

/* ---- more RxSwift cases: comparison base, subscription order, synchronous sources --------- */

static bool close_enough(void *ctx, rx_value a, rx_value b) { return a.i - b.i <= 1 && b.i - a.i <= 1; }

RX_TEST(marble_distinct_until_changed_compares_with_the_last_emitted_value) {
  /* RxSwift keeps the key of the last value it emitted, not of the last one it saw. */
  begin();
  rx_observable *src = hot("-1-2-3-4-5-|");
  EXPECT(K(rx_distinct_until_changed(src, close_enough, NULL, NULL)), "-1---3---5-|");
  end();
}

RX_TEST(marble_with_latest_from_subscribes_other_first) {
  begin();
  rx_observable *src = hot("-1-2|");
  rx_observable *other = K(rx_just(rx_int(7)));
  EXPECT(K(rx_with_latest_from(src, other, NULL, NULL, NULL)), "-7-7|");
  end();
}

RX_TEST(marble_combine_latest_and_zip_of_synchronous_sources) {
  begin();
  rx_value one_two[2] = {rx_int(1), rx_int(2)}, three[1] = {rx_int(3)};
  rx_observable *s[2] = {K(rx_of(one_two, 2)), K(rx_of(three, 1))};
  rx_marble_value v[] = {{'a', ARR(2, 3)}};
  EXPECT_V(K(rx_combine_latest(s, 2, NULL, NULL, NULL)), "(a|)", v);
  rx_value four_five[2] = {rx_int(4), rx_int(5)};
  rx_observable *z[2] = {K(rx_of(one_two, 2)), K(rx_of(four_five, 2))};
  rx_marble_value w[] = {{'x', ARR(1, 4)}, {'y', ARR(2, 5)}};
  EXPECT_V(K(rx_zip(z, 2, NULL, NULL, NULL)), "(xy|)", w);
  end();
}

RX_TEST(marble_zero_time_debounce_and_delay_keep_order) {
  begin();
  rx_observable *src = hot("-1-2|");
  EXPECT(K(rx_debounce(src, 0, ts)), "-1-2|");
  end();
  begin();
  rx_observable *src2 = hot("-(12)-3|");
  EXPECT(K(rx_delay(src2, F(2), ts)), "---(12)-3|");
  end();
}

RX_TEST(marble_buffer_count_only_emits_no_empty_rest) {
  begin();
  rx_observable *src = cold("-1-2-|");
  rx_marble_value v[] = {{'a', ARR(1, 2)}};
  EXPECT_V(K(rx_buffer(src, 0, 2, ts)), "---a-|", v);
  end();
}

RX_TEST(marble_take_while_false_at_once) {
  begin();
  rx_observable *src = hot("-5-1|");
  EXPECT(K(rx_take_while(src, below_3, NULL, NULL)), "-|");
  end();
}

RX_TEST(marble_creation_interval_timer_range) {
  begin();
  rx_observable *iv = K(rx_interval(F(2), ts));
  EXPECT(K(rx_take(iv, 3)), "--0-1-(2|)");
  EXPECT(K(rx_timer(F(3), -1, ts)), "---(0|)");
  rx_observable *tm = K(rx_timer(F(1), F(3), ts));
  EXPECT(K(rx_take(tm, 3)), "-0--1--(2|)");
  EXPECT(K(rx_range(1, 3)), "(123|)");
  EXPECT(K(rx_empty()), "|");
  EXPECT(K(rx_never()), "");
  end();
}
