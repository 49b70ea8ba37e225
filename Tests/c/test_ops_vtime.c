/* Operators at virtual times, through the C ABI, on the test scheduler: the cases of
 * RxSwift's Observable+Merge/FlatMap/Switch/Concat/CombineLatest/Zip/WithLatestFrom/
 * TakeUntil/SkipUntil/Amb/Retry/Catch/Take tests that depend on when things happen,
 * including which source is subscribed when, and disposal in the middle. */
#include "ops_vtime.h"

typedef struct inner_table {
  vt_src *inner[4];
} inner_table;
static rx_observable *pick_inner(void *ctx, rx_value v, rx_error **err) {
  inner_table *t = ctx;
  return rx_retain(t->inner[v.i]->obs);
}

RX_TEST(vt_merge_hot_sources) {
  vt v;
  vt_begin(&v);
  vt_src *a = vt_hot(&v, "150:0 210:1 230:3 250:|");
  vt_src *b = vt_hot(&v, "220:2 240:4 260:|");
  rx_observable *s[] = {a->obs, b->obs};
  CHECK_STR(VT_RUN(&v, rx_merge(s, 2)), "210:1 220:2 230:3 240:4 260:|");
  CHECK_STR(vt_subs(a), "200-250");
  CHECK_STR(vt_subs(b), "200-260");
  CHECK_EQ(v.disposed, 1);
  vt_end(&v);
}

RX_TEST(vt_merge_error_stops_all) {
  vt v;
  vt_begin(&v);
  vt_src *a = vt_hot(&v, "210:1 230:3 250:|");
  vt_src *b = vt_hot(&v, "220:2 235:#7");
  rx_observable *s[] = {a->obs, b->obs};
  CHECK_STR(VT_RUN(&v, rx_merge(s, 2)), "210:1 220:2 230:3 235:#7");
  CHECK_STR(vt_subs(a), "200-235");
  CHECK_STR(vt_subs(b), "200-235");
  vt_end(&v);
}

RX_TEST(vt_merge_disposed_in_the_middle) {
  vt v;
  vt_begin(&v);
  vt_src *a = vt_hot(&v, "210:1 230:3 250:|");
  vt_src *b = vt_hot(&v, "220:2 240:4 260:|");
  rx_observable *s[] = {a->obs, b->obs};
  CHECK_STR(vt_run(&v, rx_merge(s, 2), 200, 235), "210:1 220:2 230:3");
  CHECK_STR(vt_subs(a), "200-235");
  CHECK_STR(vt_subs(b), "200-235");
  CHECK_EQ(v.disposed, 1);
  vt_end(&v);
}

RX_TEST(vt_flat_map_cold_inners) {
  vt v;
  vt_begin(&v);
  vt_src *outer = vt_hot(&v, "210:0 240:1 290:|");
  inner_table t = {{vt_cold(&v, "10:1 20:2 30:|"), vt_cold(&v, "5:3 40:|")}};
  CHECK_STR(VT_RUN(&v, rx_flat_map(outer->obs, pick_inner, &t, NULL)), "220:1 230:2 245:3 290:|");
  CHECK_STR(vt_subs(outer), "200-290");
  CHECK_STR(vt_subs(t.inner[0]), "210-240");
  CHECK_STR(vt_subs(t.inner[1]), "240-280");
  vt_end(&v);
}

RX_TEST(vt_flat_map_inner_outlives_outer) {
  vt v;
  vt_begin(&v);
  vt_src *outer = vt_hot(&v, "210:0 220:|");
  inner_table t = {{vt_cold(&v, "10:1 50:|")}};
  CHECK_STR(VT_RUN(&v, rx_flat_map(outer->obs, pick_inner, &t, NULL)), "220:1 260:|");
  CHECK_STR(vt_subs(outer), "200-220");
  vt_end(&v);
}

RX_TEST(vt_flat_map_latest_switches_at_the_right_time) {
  vt v;
  vt_begin(&v);
  vt_src *outer = vt_hot(&v, "210:0 250:1 300:|");
  inner_table t = {{vt_cold(&v, "10:1 20:2 50:3 60:|"), vt_cold(&v, "10:4 20:|")}};
  CHECK_STR(VT_RUN(&v, rx_flat_map_latest(outer->obs, pick_inner, &t, NULL)), "220:1 230:2 260:4 300:|");
  CHECK_STR(vt_subs(t.inner[0]), "210-250");
  CHECK_STR(vt_subs(t.inner[1]), "250-270");
  vt_end(&v);
}

RX_TEST(vt_concat_map_queues_inners) {
  vt v;
  vt_begin(&v);
  vt_src *outer = vt_hot(&v, "210:0 220:1 230:|");
  inner_table t = {{vt_cold(&v, "10:1 30:|"), vt_cold(&v, "5:2 10:|")}};
  CHECK_STR(VT_RUN(&v, rx_concat_map(outer->obs, pick_inner, &t, NULL)), "220:1 245:2 250:|");
  CHECK_STR(vt_subs(t.inner[0]), "210-240");
  CHECK_STR(vt_subs(t.inner[1]), "240-250");
  vt_end(&v);
}

RX_TEST(vt_concat_cold_sources) {
  vt v;
  vt_begin(&v);
  vt_src *a = vt_cold(&v, "10:1 20:|");
  vt_src *b = vt_cold(&v, "10:2 20:|");
  rx_observable *s[] = {a->obs, b->obs};
  CHECK_STR(VT_RUN(&v, rx_concat(s, 2)), "210:1 230:2 240:|");
  CHECK_STR(vt_subs(a), "200-220");
  CHECK_STR(vt_subs(b), "220-240");
  vt_end(&v);
}

RX_TEST(vt_concat_error_skips_the_rest) {
  vt v;
  vt_begin(&v);
  vt_src *a = vt_cold(&v, "10:1 20:#3");
  vt_src *b = vt_cold(&v, "10:2 20:|");
  rx_observable *s[] = {a->obs, b->obs};
  CHECK_STR(VT_RUN(&v, rx_concat(s, 2)), "210:1 220:#3");
  CHECK_STR(vt_subs(b), "");
  vt_end(&v);
}

RX_TEST(vt_combine_latest) {
  vt v;
  vt_begin(&v);
  vt_src *a = vt_hot(&v, "210:1 240:3 270:|");
  vt_src *b = vt_hot(&v, "220:10 250:20 280:|");
  rx_observable *s[] = {a->obs, b->obs};
  CHECK_STR(VT_RUN(&v, rx_combine_latest(s, 2, NULL, NULL, NULL)), "220:[1,10] 240:[3,10] 250:[3,20] 280:|");
  CHECK_STR(vt_subs(a), "200-270");
  CHECK_STR(vt_subs(b), "200-280");
  vt_end(&v);
}

RX_TEST(vt_combine_latest_error) {
  vt v;
  vt_begin(&v);
  vt_src *a = vt_hot(&v, "210:1 230:#4");
  vt_src *b = vt_hot(&v, "220:10 250:20 280:|");
  rx_observable *s[] = {a->obs, b->obs};
  CHECK_STR(VT_RUN(&v, rx_combine_latest(s, 2, NULL, NULL, NULL)), "220:[1,10] 230:#4");
  CHECK_STR(vt_subs(b), "200-230");
  vt_end(&v);
}

RX_TEST(vt_zip) {
  vt v;
  vt_begin(&v);
  vt_src *a = vt_hot(&v, "210:1 220:2 230:|");
  vt_src *b = vt_hot(&v, "215:10 240:20 250:30 260:|");
  rx_observable *s[] = {a->obs, b->obs};
  CHECK_STR(VT_RUN(&v, rx_zip(s, 2, NULL, NULL, NULL)), "215:[1,10] 240:[2,20] 250:|");
  CHECK_STR(vt_subs(a), "200-230");
  CHECK_STR(vt_subs(b), "200-250");
  vt_end(&v);
}

RX_TEST(vt_with_latest_from) {
  vt v;
  vt_begin(&v);
  vt_src *a = vt_hot(&v, "210:1 230:2 250:3 270:|");
  vt_src *b = vt_hot(&v, "220:10 240:20 260:|");
  CHECK_STR(VT_RUN(&v, rx_with_latest_from(a->obs, b->obs, NULL, NULL, NULL)), "230:10 250:20 270:|");
  CHECK_STR(vt_subs(b), "200-260");
  vt_end(&v);
}

RX_TEST(vt_take_until) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "210:1 220:2 230:3 240:4 250:|");
  vt_src *other = vt_hot(&v, "225:99 260:|");
  CHECK_STR(VT_RUN(&v, rx_take_until(src->obs, other->obs)), "210:1 220:2 225:|");
  CHECK_STR(vt_subs(src), "200-225");
  CHECK_STR(vt_subs(other), "200-225");
  vt_end(&v);
}

RX_TEST(vt_skip_until) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "210:1 220:2 230:3 240:4 250:|");
  vt_src *other = vt_hot(&v, "225:99 260:|");
  CHECK_STR(VT_RUN(&v, rx_skip_until(src->obs, other->obs)), "230:3 240:4 250:|");
  CHECK_STR(vt_subs(other), "200-225");
  vt_end(&v);
}

RX_TEST(vt_amb) {
  vt v;
  vt_begin(&v);
  vt_src *a = vt_hot(&v, "220:1 230:|");
  vt_src *b = vt_hot(&v, "210:2 240:|");
  rx_observable *s[] = {a->obs, b->obs};
  CHECK_STR(VT_RUN(&v, rx_amb(s, 2)), "210:2 240:|");
  CHECK_STR(vt_subs(a), "200-210");
  CHECK_STR(vt_subs(b), "200-240");
  vt_end(&v);
}

RX_TEST(vt_retry_resubscribes_cold_source) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_cold(&v, "10:1 20:2 30:#1");
  CHECK_STR(VT_RUN(&v, rx_retry(src->obs, 3)), "210:1 220:2 240:1 250:2 270:1 280:2 290:#1");
  CHECK_STR(vt_subs(src), "200-230 230-260 260-290");
  vt_end(&v);
}

RX_TEST(vt_retry_forever_disposed_at_1000) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_cold(&v, "100:1 150:#1");
  CHECK_STR(VT_RUN(&v, rx_retry(src->obs, 0)), "300:1 450:1 600:1 750:1 900:1");
  CHECK_STR(vt_subs(src), "200-350 350-500 500-650 650-800 800-950 950-1000");
  vt_end(&v);
}

static rx_observable *catch_with(void *ctx, const rx_error *e) {
  return rx_retain(((vt_src *)ctx)->obs);
}

RX_TEST(vt_catch_continues_at_error_time) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_cold(&v, "10:1 20:#5");
  vt_src *next = vt_cold(&v, "10:2 20:|");
  CHECK_STR(VT_RUN(&v, rx_catch(src->obs, catch_with, next, NULL)), "210:1 230:2 240:|");
  CHECK_STR(vt_subs(src), "200-220");
  CHECK_STR(vt_subs(next), "220-240");
  vt_end(&v);
}

RX_TEST(vt_take_disposes_at_nth) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "210:1 220:2 230:3 240:|");
  CHECK_STR(VT_RUN(&v, rx_take(src->obs, 2)), "210:1 220:2 220:|");
  CHECK_STR(vt_subs(src), "200-220");
  vt_end(&v);
}

RX_TEST(vt_start_with_then_cold_source) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_cold(&v, "10:3 20:|");
  rx_value pre[] = {rx_int(1), rx_int(2)};
  CHECK_STR(VT_RUN(&v, rx_start_with(src->obs, pre, 2)), "200:1 200:2 210:3 220:|");
  vt_end(&v);
}

RX_TEST(vt_take_last_and_reduce_wait_for_completion) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "210:1 220:2 230:3 250:|");
  CHECK_STR(VT_RUN(&v, rx_take_last(src->obs, 2)), "250:2 250:3 250:|");
  vt_end(&v);
}

RX_TEST(vt_materialize_timing) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "210:1 230:#6");
  CHECK_STR(VT_RUN(&v, rx_materialize(src->obs)), "210:N(1) 230:E(6) 230:|");
  vt_end(&v);
}

RX_TEST(vt_amb_loser_error_is_ignored) {
  vt v;
  vt_begin(&v);
  vt_src *a = vt_hot(&v, "210:1 240:|");
  vt_src *b = vt_hot(&v, "220:#1");
  rx_observable *s[] = {a->obs, b->obs};
  CHECK_STR(VT_RUN(&v, rx_amb(s, 2)), "210:1 240:|");
  CHECK_STR(vt_subs(b), "200-210");
  vt_end(&v);
}

RX_TEST(vt_amb_never_and_empty) {
  vt v;
  vt_begin(&v);
  vt_src *a = vt_hot(&v, "");
  vt_src *b = vt_hot(&v, "225:|");
  rx_observable *s[] = {a->obs, b->obs};
  CHECK_STR(VT_RUN(&v, rx_amb(s, 2)), "225:|");
  CHECK_STR(vt_subs(a), "200-225");
  vt_end(&v);
}

RX_TEST(vt_flat_map_latest_outer_error) {
  vt v;
  vt_begin(&v);
  vt_src *outer = vt_hot(&v, "210:0 240:#2");
  inner_table t = {{vt_cold(&v, "10:1 20:2 50:3 60:|")}};
  CHECK_STR(VT_RUN(&v, rx_flat_map_latest(outer->obs, pick_inner, &t, NULL)), "220:1 230:2 240:#2");
  CHECK_STR(vt_subs(t.inner[0]), "210-240");
  vt_end(&v);
}

RX_TEST(vt_flat_map_inner_error) {
  vt v;
  vt_begin(&v);
  vt_src *outer = vt_hot(&v, "210:0 220:1 300:|");
  inner_table t = {{vt_cold(&v, "10:1 100:|"), vt_cold(&v, "15:#3")}};
  CHECK_STR(VT_RUN(&v, rx_flat_map(outer->obs, pick_inner, &t, NULL)), "220:1 235:#3");
  CHECK_STR(vt_subs(outer), "200-235");
  CHECK_STR(vt_subs(t.inner[0]), "210-235");
  vt_end(&v);
}

RX_TEST(vt_merge_never_and_empty_never_completes) {
  vt v;
  vt_begin(&v);
  vt_src *a = vt_hot(&v, "");
  vt_src *b = vt_hot(&v, "230:|");
  rx_observable *s[] = {a->obs, b->obs};
  CHECK_STR(VT_RUN(&v, rx_merge(s, 2)), "");
  CHECK_STR(vt_subs(a), "200-1000");
  CHECK_STR(vt_subs(b), "200-230");
  vt_end(&v);
}

RX_TEST(vt_combine_latest_never_empty) {
  vt v;
  vt_begin(&v);
  vt_src *a = vt_hot(&v, "");
  vt_src *b = vt_hot(&v, "210:|");
  rx_observable *s[] = {a->obs, b->obs};
  CHECK_STR(VT_RUN(&v, rx_combine_latest(s, 2, NULL, NULL, NULL)), "");
  CHECK_STR(vt_subs(b), "200-210");
  CHECK_STR(vt_subs(a), "200-1000");
  vt_end(&v);
}

RX_TEST(vt_zip_error_in_the_middle) {
  vt v;
  vt_begin(&v);
  vt_src *a = vt_hot(&v, "210:1 230:2 250:|");
  vt_src *b = vt_hot(&v, "220:10 225:#9");
  rx_observable *s[] = {a->obs, b->obs};
  CHECK_STR(VT_RUN(&v, rx_zip(s, 2, NULL, NULL, NULL)), "220:[1,10] 225:#9");
  CHECK_STR(vt_subs(a), "200-225");
  vt_end(&v);
}

RX_TEST(vt_with_latest_from_other_error) {
  vt v;
  vt_begin(&v);
  vt_src *a = vt_hot(&v, "210:1 230:2 250:3 270:|");
  vt_src *b = vt_hot(&v, "220:10 240:#8");
  CHECK_STR(VT_RUN(&v, rx_with_latest_from(a->obs, b->obs, NULL, NULL, NULL)), "230:10 240:#8");
  CHECK_STR(vt_subs(a), "200-240");
  vt_end(&v);
}

RX_TEST(vt_take_until_source_completes_first) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "210:1 230:|");
  vt_src *other = vt_hot(&v, "250:1");
  CHECK_STR(VT_RUN(&v, rx_take_until(src->obs, other->obs)), "210:1 230:|");
  CHECK_STR(vt_subs(other), "200-230");
  vt_end(&v);
}

RX_TEST(vt_skip_until_other_never) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "210:1 230:2");
  vt_src *other = vt_hot(&v, "");
  CHECK_STR(VT_RUN(&v, rx_skip_until(src->obs, other->obs)), "");
  CHECK_STR(vt_subs(src), "200-1000");
  CHECK_STR(vt_subs(other), "200-1000");
  vt_end(&v);
}

RX_TEST(vt_retry_succeeds_after_failures) {
  vt v;
  vt_begin(&v);
  /* a cold source whose first run fails; retry forever; the hot-less cold replays, so use a
     take_until on a timed stop to end it */
  vt_src *src = vt_cold(&v, "10:1 20:#1");
  vt_src *stop = vt_hot(&v, "255:0");
  rx_observable *r = rx_retry(src->obs, 0);
  CHECK_STR(VT_RUN(&v, rx_take_until(A(r), stop->obs)), "210:1 230:1 250:1 255:|");
  CHECK_STR(vt_subs(src), "200-220 220-240 240-255");
  vt_end(&v);
}

/* ---- skip_duration / take_duration: RxSwift's skip(_:scheduler:) and take(for:) cases ---- */

RX_TEST(vt_skip_duration_zero_mirrors_everything) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "210:1 220:2 230:|");
  CHECK_STR(VT_RUN(&v, rx_skip_duration(src->obs, 0, v.s)), "210:1 220:2 230:|");
  CHECK_STR(vt_subs(src), "200-230");
  vt_end(&v);
}

RX_TEST(vt_skip_duration_drops_the_start) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "210:1 220:2 230:|");
  CHECK_STR(VT_RUN(&v, rx_skip_duration(src->obs, 15, v.s)), "220:2 230:|");
  CHECK_STR(vt_subs(src), "200-230");
  vt_end(&v);
}

RX_TEST(vt_skip_duration_longer_than_the_source) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "210:1 220:2 230:|");
  CHECK_STR(VT_RUN(&v, rx_skip_duration(src->obs, 50, v.s)), "230:|");
  CHECK_STR(vt_subs(src), "200-230");
  vt_end(&v);
}

RX_TEST(vt_skip_duration_error_inside_the_window) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "210:#5");
  CHECK_STR(VT_RUN(&v, rx_skip_duration(src->obs, 50, v.s)), "210:#5");
  CHECK_STR(vt_subs(src), "200-210");
  CHECK_EQ(v.disposed, 1);
  vt_end(&v);
}

RX_TEST(vt_skip_duration_never) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "");
  CHECK_STR(VT_RUN(&v, rx_skip_duration(src->obs, 50, v.s)), "");
  CHECK_STR(vt_subs(src), "200-1000");
  vt_end(&v);
}

RX_TEST(vt_skip_duration_disposed_before_and_after_the_window) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "210:1 230:2 250:3 270:|");
  CHECK_STR(vt_run(&v, rx_skip_duration(src->obs, 20, v.s), 200, 255), "230:2 250:3");
  CHECK_STR(vt_subs(src), "200-255");
  CHECK_EQ(v.disposed, 1);
  vt_end(&v);
  vt_begin(&v);
  src = vt_hot(&v, "210:1 230:2 250:3 270:|");
  /* disposed while the timer is pending: nothing comes later */
  CHECK_STR(vt_run(&v, rx_skip_duration(src->obs, 40, v.s), 200, 215), "");
  CHECK_STR(vt_subs(src), "200-215");
  vt_end(&v);
}

RX_TEST(vt_skip_duration_synchronous_source) {
  vt v;
  vt_begin(&v);
  rx_observable *r = rx_range(1, 3);
  CHECK_STR(VT_RUN(&v, rx_skip_duration(r, 0, v.s)), "200:1 200:2 200:3 200:|");
  vt_end(&v);
  vt_begin(&v);
  CHECK_STR(VT_RUN(&v, rx_skip_duration(r, 10, v.s)), "200:|");
  rx_release(r);
  vt_end(&v);
}

RX_TEST(vt_take_duration_zero_completes_at_once) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "210:1 220:2 230:|");
  CHECK_STR(VT_RUN(&v, rx_take_duration(src->obs, 0, v.s)), "200:|");
  CHECK_STR(vt_subs(src), "200-200");
  vt_end(&v);
}

RX_TEST(vt_take_duration_cuts_the_source) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "210:1 220:2 230:3 240:|");
  CHECK_STR(VT_RUN(&v, rx_take_duration(src->obs, 25, v.s)), "210:1 220:2 225:|");
  CHECK_STR(vt_subs(src), "200-225");
  CHECK_EQ(v.disposed, 1);
  vt_end(&v);
}

RX_TEST(vt_take_duration_longer_than_the_source) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "210:1 220:2 230:|");
  CHECK_STR(VT_RUN(&v, rx_take_duration(src->obs, 50, v.s)), "210:1 220:2 230:|");
  CHECK_STR(vt_subs(src), "200-230");
  vt_end(&v);
}

RX_TEST(vt_take_duration_error) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "0:0 210:#5");
  CHECK_STR(VT_RUN(&v, rx_take_duration(src->obs, 50, v.s)), "210:#5");
  CHECK_STR(vt_subs(src), "200-210");
  vt_end(&v);
}

RX_TEST(vt_take_duration_never) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "0:0");
  CHECK_STR(VT_RUN(&v, rx_take_duration(src->obs, 50, v.s)), "250:|");
  CHECK_STR(vt_subs(src), "200-250");
  vt_end(&v);
}

RX_TEST(vt_take_duration_twice_the_shorter_wins) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "210:1 220:2 230:3 240:4 250:5 260:6 270:|");
  rx_observable *inner = rx_take_duration(src->obs, 55, v.s);
  CHECK_STR(VT_RUN(&v, rx_take_duration(A(inner), 35, v.s)), "210:1 220:2 230:3 235:|");
  CHECK_STR(vt_subs(src), "200-235");
  vt_end(&v);
}

RX_TEST(vt_take_duration_disposed_in_the_window) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "210:1 220:2 230:3 240:|");
  CHECK_STR(vt_run(&v, rx_take_duration(src->obs, 50, v.s), 200, 225), "210:1 220:2");
  CHECK_STR(vt_subs(src), "200-225");
  CHECK_EQ(v.disposed, 1);
  vt_end(&v);
}

RX_TEST(vt_take_duration_synchronous_source_passes_before_a_zero_window) {
  vt v;
  vt_begin(&v);
  rx_observable *r = rx_range(1, 3);
  CHECK_STR(VT_RUN(&v, rx_take_duration(r, 0, v.s)), "200:1 200:2 200:3 200:|");
  rx_release(r);
  vt_end(&v);
}

/* ---- timeout_to: RxSwift's timeout(_:other:scheduler:) cases ---------------------------- */

RX_TEST(vt_timeout_to_switches_before_the_first_value) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "70:1 130:2 310:3 400:4 500:|");
  vt_src *fb = vt_cold(&v, "50:11 200:12 310:13 320:|");
  CHECK_STR(VT_RUN(&v, rx_timeout_to(src->obs, 100, fb->obs, v.s)), "350:11 500:12 610:13 620:|");
  CHECK_STR(vt_subs(src), "200-300");
  CHECK_STR(vt_subs(fb), "300-620");
  CHECK_EQ(v.disposed, 1);
  vt_end(&v);
}

RX_TEST(vt_timeout_to_switches_between_values) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "70:1 130:2 240:3 310:4 430:5 500:|");
  vt_src *fb = vt_cold(&v, "50:11 200:12 310:13 320:|");
  CHECK_STR(VT_RUN(&v, rx_timeout_to(src->obs, 100, fb->obs, v.s)), "240:3 310:4 460:11 610:12 720:13 730:|");
  CHECK_STR(vt_subs(src), "200-410");
  CHECK_STR(vt_subs(fb), "410-730");
  vt_end(&v);
}

RX_TEST(vt_timeout_to_fallback_never) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "240:3 310:4 430:5 500:|");
  vt_src *fb = vt_cold(&v, "");
  CHECK_STR(VT_RUN(&v, rx_timeout_to(src->obs, 100, fb->obs, v.s)), "240:3 310:4");
  CHECK_STR(vt_subs(src), "200-410");
  CHECK_STR(vt_subs(fb), "410-1000");
  vt_end(&v);
}

RX_TEST(vt_timeout_to_source_terminal_after_the_switch_is_ignored) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "500:|");
  vt_src *fb = vt_cold(&v, "100:11");
  CHECK_STR(VT_RUN(&v, rx_timeout_to(src->obs, 100, fb->obs, v.s)), "400:11");
  CHECK_STR(vt_subs(src), "200-300");
  CHECK_STR(vt_subs(fb), "300-1000");
  vt_end(&v);
  vt_begin(&v);
  src = vt_hot(&v, "500:#4");
  fb = vt_cold(&v, "100:11");
  CHECK_STR(VT_RUN(&v, rx_timeout_to(src->obs, 100, fb->obs, v.s)), "400:11");
  CHECK_STR(vt_subs(src), "200-300");
  vt_end(&v);
}

RX_TEST(vt_timeout_to_fallback_error) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "500:42");
  vt_src *fb = vt_cold(&v, "100:#6");
  CHECK_STR(VT_RUN(&v, rx_timeout_to(src->obs, 100, fb->obs, v.s)), "400:#6");
  CHECK_STR(vt_subs(src), "200-300");
  CHECK_STR(vt_subs(fb), "300-400");
  CHECK_EQ(v.disposed, 1);
  vt_end(&v);
}

RX_TEST(vt_timeout_to_not_reached) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "70:1 130:2 240:3 320:4 410:5 500:|");
  vt_src *fb = vt_cold(&v, "50:11 320:|");
  CHECK_STR(VT_RUN(&v, rx_timeout_to(src->obs, 100, fb->obs, v.s)), "240:3 320:4 410:5 500:|");
  CHECK_STR(vt_subs(src), "200-500");
  CHECK_STR(vt_subs(fb), "");
  vt_end(&v);
  vt_begin(&v);
  src = vt_hot(&v, "250:#4");
  fb = vt_cold(&v, "100:11");
  CHECK_STR(VT_RUN(&v, rx_timeout_to(src->obs, 100, fb->obs, v.s)), "250:#4");
  CHECK_STR(vt_subs(fb), "");
  vt_end(&v);
}

RX_TEST(vt_timeout_to_disposed_before_and_after_the_switch) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "240:3 500:|");
  vt_src *fb = vt_cold(&v, "50:11 100:12 200:|");
  CHECK_STR(vt_run(&v, rx_timeout_to(src->obs, 100, fb->obs, v.s), 200, 300), "240:3");
  CHECK_STR(vt_subs(src), "200-300");
  CHECK_STR(vt_subs(fb), "");
  CHECK_EQ(v.disposed, 1);
  vt_end(&v);
  vt_begin(&v);
  src = vt_hot(&v, "240:3 500:|");
  fb = vt_cold(&v, "50:11 100:12 200:|");
  CHECK_STR(vt_run(&v, rx_timeout_to(src->obs, 100, fb->obs, v.s), 200, 420), "240:3 390:11");
  CHECK_STR(vt_subs(src), "200-340");
  CHECK_STR(vt_subs(fb), "340-420");
  CHECK_EQ(v.disposed, 1);
  vt_end(&v);
}

RX_TEST(vt_timeout_to_synchronous_fallback_and_zero_due_time) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "210:1");
  rx_observable *fb = rx_range(7, 2);
  CHECK_STR(VT_RUN(&v, rx_timeout_to(src->obs, 0, fb, v.s)), "200:7 200:8 200:|");
  CHECK_STR(vt_subs(src), "200-200");
  rx_release(fb);
  vt_end(&v);
}

/* ---- retry_backoff: delays on virtual time ------------------------------------------------ */

static rx_backoff_options backoff(int64_t initial, double multiplier, int64_t max_delay, size_t max_attempts) {
  rx_backoff_options o = {sizeof o, initial, multiplier, max_delay, max_attempts, 0.0, 0, false};
  return o;
}

RX_TEST(vt_retry_backoff_doubles_the_delay_then_gives_up) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_cold(&v, "10:1 20:#1");
  rx_backoff_options o = backoff(10, 2.0, 0, 4);
  CHECK_STR(VT_RUN(&v, rx_retry_backoff(src->obs, &o, v.s)), "210:1 240:1 280:1 340:1 350:#1");
  CHECK_STR(vt_subs(src), "200-220 230-250 270-290 330-350");
  CHECK_EQ(v.disposed, 1);
  vt_end(&v);
}

RX_TEST(vt_retry_backoff_max_delay_caps_the_growth) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_cold(&v, "10:1 20:#1");
  rx_backoff_options o = backoff(10, 3.0, 15, 4);
  CHECK_STR(VT_RUN(&v, rx_retry_backoff(src->obs, &o, v.s)), "210:1 240:1 275:1 310:1 320:#1");
  CHECK_STR(vt_subs(src), "200-220 230-250 265-285 300-320");
  vt_end(&v);
}

RX_TEST(vt_retry_backoff_completion_and_values_pass) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_cold(&v, "10:1 20:2 30:|");
  rx_backoff_options o = backoff(10, 2.0, 0, 0);
  CHECK_STR(VT_RUN(&v, rx_retry_backoff(src->obs, &o, v.s)), "210:1 220:2 230:|");
  CHECK_STR(vt_subs(src), "200-230");
  vt_end(&v);
}

RX_TEST(vt_retry_backoff_one_attempt_forwards_the_first_error) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_cold(&v, "10:1 20:#7");
  rx_backoff_options o = backoff(10, 2.0, 0, 1);
  CHECK_STR(VT_RUN(&v, rx_retry_backoff(src->obs, &o, v.s)), "210:1 220:#7");
  CHECK_STR(vt_subs(src), "200-220");
  vt_end(&v);
}

RX_TEST(vt_retry_backoff_forever_until_stopped) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_cold(&v, "5:#1");
  vt_src *stop = vt_hot(&v, "300:0");
  rx_backoff_options o = backoff(10, 2.0, 0, 0);
  rx_observable *r = rx_retry_backoff(src->obs, &o, v.s);
  CHECK_STR(VT_RUN(&v, rx_take_until(A(r), stop->obs)), "300:|");
  /* failures at 205, 220, 245, 290; the retry due at 370 is cancelled */
  CHECK_STR(vt_subs(src), "200-205 215-220 240-245 285-290");
  vt_end(&v);
}

RX_TEST(vt_retry_backoff_disposed_during_a_delay) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_cold(&v, "10:1 20:#1");
  rx_backoff_options o = backoff(10, 2.0, 0, 0);
  CHECK_STR(vt_run(&v, rx_retry_backoff(src->obs, &o, v.s), 200, 225), "210:1");
  CHECK_STR(vt_subs(src), "200-220");
  CHECK_EQ(v.disposed, 1);
  vt_end(&v);
}

RX_TEST(vt_retry_backoff_reset_on_next_keeps_the_first_delay) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_cold(&v, "10:1 20:#1");
  vt_src *stop = vt_hot(&v, "300:0");
  rx_backoff_options o = backoff(10, 2.0, 0, 2);
  o.reset_on_next = true;
  rx_observable *r = rx_retry_backoff(src->obs, &o, v.s);
  CHECK_STR(VT_RUN(&v, rx_take_until(A(r), stop->obs)), "210:1 240:1 270:1 300:|");
  CHECK_STR(vt_subs(src), "200-220 230-250 260-280 290-300");
  vt_end(&v);
}

static rx_disposable *fail_at_once(void *ctx, rx_emitter *em) {
  rx_error *e = rx_error_new(RX_ERROR_USER, "sync");
  rx_emitter_error(em, e);
  rx_release(e);
  return NULL;
}

RX_TEST(vt_retry_backoff_synchronous_failures_do_not_recurse) {
  vt v;
  vt_begin(&v);
  rx_observable *fail = rx_create(fail_at_once, NULL, NULL);
  rx_backoff_options o = backoff(0, 1.0, 0, 1000);
  CHECK_STR(VT_RUN(&v, rx_retry_backoff(fail, &o, v.s)), "200:#1000");
  rx_release(fail);
  vt_end(&v);
}

/* The documented jitter: splitmix64 from the seed, u = top 53 bits * 2^-53. */
static uint64_t splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

RX_TEST(vt_retry_backoff_jitter_is_the_documented_draw) {
  const uint64_t seed = 42;
  char want[256] = "";
  uint64_t state = seed;
  double d = 1000;
  int64_t at = 200, delays[3];
  /* the source fails 5 after each subscription */
  for (int n = 0; n < 3; n++) {
    double u = (double)(splitmix64(&state) >> 11) * 0x1p-53;
    delays[n] = (int64_t)(d - d * 0.5 * u);
    CHECK(delays[n] > (int64_t)(d / 2) - 1 && delays[n] <= (int64_t)d);
    d *= 2;
  }
  size_t len = 0;
  for (int n = 0; n < 4; n++) {
    len += (size_t)snprintf(want + len, sizeof want - len, "%s%lld-%lld", n ? " " : "", (long long)at,
                            (long long)(at + 5));
    if (n < 3) at += 5 + delays[n];
  }
  for (int run = 0; run < 2; run++) { /* the same seed, the same delays */
    vt v;
    vt_begin(&v);
    vt_src *src = vt_cold(&v, "5:#1");
    rx_backoff_options o = backoff(1000, 2.0, 0, 4);
    o.jitter = 0.5;
    o.seed = seed;
    char log[32];
    snprintf(log, sizeof log, "%lld:#1", (long long)(at + 5));
    CHECK_STR(vt_run(&v, rx_retry_backoff(src->obs, &o, v.s), 200, 100000), log);
    CHECK_STR(vt_subs(src), want);
    vt_end(&v);
  }
}

/* ---- retry_when: the notifier decides each retry --------------------------------------- */

typedef struct when_ctx {
  vt *v;
  int calls, freed, bad_kind;
  int mode; /* 0: take(errors, 2); 1: delay(errors, 10); 2: empty; 3: throw 9; 4: never;
               5: NULL + error 5; 6: errors filtered by their code */
} when_ctx;
static void when_free(void *ctx) { ((when_ctx *)ctx)->freed++; }
static bool code_is_1(void *ctx, rx_value v, rx_error **error) {
  when_ctx *w = ctx;
  if (rx_value_event_kind(v) != RX_EVENT_ERROR) w->bad_kind++;
  return rx_error_code(rx_value_event_error(v)) == 1;
}
static rx_observable *notifier(void *ctx, rx_observable *errors, rx_error **error) {
  when_ctx *w = ctx;
  w->calls++;
  switch (w->mode) {
  case 0: return rx_take(errors, 2);
  case 1: return rx_delay(errors, 10, w->v->s);
  case 2: return rx_empty();
  case 3: {
    rx_error *e = rx_error_new(9, "notifier");
    rx_observable *o = rx_throw(e);
    rx_release(e);
    return o;
  }
  case 4: return rx_never();
  case 5: *error = rx_error_new(5, "no notifier"); return NULL;
  default: return rx_take_while(errors, code_is_1, w, NULL);
  }
}

static const char *when_run(vt *v, vt_src *src, when_ctx *w, int64_t unsub) {
  w->v = v;
  return vt_run(v, rx_retry_when(src->obs, notifier, w, when_free), 200, unsub);
}

RX_TEST(vt_retry_when_notifier_completes_after_two_retries) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_cold(&v, "10:1 20:#1");
  when_ctx w = {.mode = 0};
  /* the second retry's element completes take(2) too: the third error then completes */
  CHECK_STR(when_run(&v, src, &w, 1000), "210:1 230:1 250:1 260:|");
  CHECK_STR(vt_subs(src), "200-220 220-240 240-260");
  CHECK_EQ(w.calls, 1);
  CHECK_EQ(w.freed, 1);
  CHECK_EQ(v.disposed, 1);
  vt_end(&v);
}

RX_TEST(vt_retry_when_delayed_notifier_retries_later) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_cold(&v, "10:1 20:#1");
  when_ctx w = {.mode = 1};
  CHECK_STR(when_run(&v, src, &w, 285), "210:1 240:1 270:1");
  CHECK_STR(vt_subs(src), "200-220 230-250 260-280");
  CHECK_EQ(v.disposed, 1);
  vt_end(&v);
}

RX_TEST(vt_retry_when_empty_notifier_completes_at_the_first_error) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_cold(&v, "10:1 20:#1");
  when_ctx w = {.mode = 2};
  CHECK_STR(when_run(&v, src, &w, 1000), "210:1 220:|");
  CHECK_STR(vt_subs(src), "200-220");
  vt_end(&v);
}

RX_TEST(vt_retry_when_failed_notifier_fails_at_the_first_error) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_cold(&v, "10:1 20:#1");
  when_ctx w = {.mode = 3};
  CHECK_STR(when_run(&v, src, &w, 1000), "210:1 220:#9");
  CHECK_STR(vt_subs(src), "200-220");
  vt_end(&v);
}

RX_TEST(vt_retry_when_silent_notifier_waits_until_disposed) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_cold(&v, "10:1 20:#1");
  when_ctx w = {.mode = 4};
  CHECK_STR(when_run(&v, src, &w, 500), "210:1");
  CHECK_STR(vt_subs(src), "200-220");
  CHECK_EQ(v.disposed, 1);
  vt_end(&v);
}

RX_TEST(vt_retry_when_completion_and_values_pass) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_cold(&v, "10:1 20:2 30:|");
  when_ctx w = {.mode = 0};
  CHECK_STR(when_run(&v, src, &w, 1000), "210:1 220:2 230:|");
  CHECK_STR(vt_subs(src), "200-230");
  vt_end(&v);
}

RX_TEST(vt_retry_when_fn_fails) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_cold(&v, "10:1 20:#1");
  when_ctx w = {.mode = 5};
  CHECK_STR(when_run(&v, src, &w, 1000), "200:#5");
  CHECK_STR(vt_subs(src), "");
  CHECK_EQ(w.freed, 1);
  vt_end(&v);
}

RX_TEST(vt_retry_when_errors_are_event_values) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_cold(&v, "10:1 20:#1");
  when_ctx w = {.mode = 6};
  vt_src *stop = vt_hot(&v, "275:0");
  w.v = &v;
  rx_observable *r = rx_retry_when(src->obs, notifier, &w, when_free);
  CHECK_STR(VT_RUN(&v, rx_take_until(A(r), stop->obs)), "210:1 230:1 250:1 270:1 275:|");
  CHECK_EQ(w.bad_kind, 0);
  vt_end(&v);
}

RX_TEST(vt_retry_when_synchronous_failures_do_not_recurse) {
  vt v;
  vt_begin(&v);
  rx_observable *fail = rx_create(fail_at_once, NULL, NULL);
  when_ctx w = {.mode = 0, .v = &v};
  CHECK_STR(VT_RUN(&v, rx_retry_when(fail, notifier, &w, when_free)), "200:|");
  rx_release(fail);
  CHECK_EQ(w.freed, 1);
  vt_end(&v);
}

RX_TEST(vt_timestamp_pairs_each_element_with_the_clock) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "150:0 210:1 240:2 290:|");
  CHECK_STR(VT_RUN(&v, rx_timestamp(src->obs, v.s)), "210:[210,1] 240:[240,2] 290:|");
  CHECK_STR(vt_subs(src), "200-290");
  vt_end(&v);
}

RX_TEST(vt_timestamp_forwards_errors_and_disposes) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "210:1 220:#7");
  CHECK_STR(VT_RUN(&v, rx_timestamp(src->obs, v.s)), "210:[210,1] 220:#7");
  CHECK_STR(vt_subs(src), "200-220");
  vt_end(&v);
  vt_begin(&v);
  vt_src *late = vt_hot(&v, "210:1 260:2 300:3");
  CHECK_STR(vt_run(&v, rx_timestamp(late->obs, v.s), 200, 270), "210:[210,1] 260:[260,2]");
  CHECK_STR(vt_subs(late), "200-270");
  CHECK_EQ(v.disposed, 1);
  vt_end(&v);
}

RX_TEST(vt_timestamp_bad_arguments) {
  vt v;
  vt_begin(&v);
  vt_src *src = vt_hot(&v, "210:1");
  CHECK(rx_timestamp(NULL, v.s) == NULL);
  CHECK(strstr(rx_last_error(), "rx_timestamp") != NULL);
  CHECK(rx_timestamp(src->obs, NULL) == NULL);
  CHECK(strstr(rx_last_error(), "rx_timestamp") != NULL);
  vt_end(&v);
}
