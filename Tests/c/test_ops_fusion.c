/* Fused paths of the transform operators: consecutive rx_map/rx_filter run as one pipeline,
 * rx_just values go straight through map/filter/flat_map (scalar fusion), rx_range and rx_of
 * roots run as a loop, rx_of/rx_just inners of flat_map and concat_map run without a
 * subscription, flat_map inners join its group only if still running. Each must behave
 * exactly like the unfused operators. */
#include "ops_support.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

static rx_value plus1(void *ctx, rx_value v, rx_error **err) {
  (void)err;
  if (ctx) ((counter *)ctx)->calls++;
  return rx_int(v.i + 1);
}
static bool is_even(void *ctx, rx_value v, rx_error **err) {
  (void)err;
  if (ctx) ((counter *)ctx)->calls++;
  return v.i % 2 == 0;
}
static rx_value fail_on_4(void *ctx, rx_value v, rx_error **err) {
  if (ctx) ((counter *)ctx)->calls++;
  if (v.i == 4) {
    *err = user_error("four");
    return rx_none();
  }
  return v;
}
static bool pred_fails(void *ctx, rx_value v, rx_error **err) {
  (void)ctx, (void)v;
  *err = user_error("pred");
  return true;
}
static rx_value to_str(void *ctx, rx_value v, rx_error **err) {
  (void)ctx, (void)err;
  char b[32];
  snprintf(b, sizeof b, "s%lld", (long long)v.i);
  return rx_string(b);
}
static bool str_not_s2(void *ctx, rx_value v, rx_error **err) {
  (void)ctx, (void)err;
  return strcmp(rx_value_string(v), "s2") != 0;
}
static rx_value str_len(void *ctx, rx_value v, rx_error **err) {
  (void)ctx, (void)err;
  return rx_int((int64_t)strlen(rx_value_string(v)));
}
static rx_observable *to_just(void *ctx, rx_value v, rx_error **err) {
  (void)ctx, (void)err;
  return rx_just(v);
}
static rx_observable *just_str(void *ctx, rx_value v, rx_error **err) {
  (void)ctx, (void)err;
  rx_value s = to_str(NULL, v, NULL);
  rx_observable *o = rx_just(s);
  rx_value_release(s);
  return o;
}
static rx_observable *just_or_fail_on_2(void *ctx, rx_value v, rx_error **err) {
  (void)ctx;
  if (v.i == 2) {
    *err = user_error("fm");
    return rx_just(v); /* returned with an error: the library releases it */
  }
  return rx_just(v);
}

/* ---- map/filter pipelines ---- */
RX_TEST(fusion_map_filter_map_chain) {
  rx_observable *a = rx_map(INTS(1, 2, 3, 4), plus1, NULL, NULL);
  rx_observable *b = rx_filter(a, is_even, NULL, NULL);
  CHECK_STR(run_log(rx_map(b, plus1, NULL, NULL)), "3 5 |.");
  rx_release(b);
  rx_release(a);
}

RX_TEST(fusion_every_stage_is_still_its_own_observable) {
  rx_observable *src = INTS(1, 2, 3);
  rx_observable *a = rx_map(src, plus1, NULL, NULL);
  rx_observable *b = rx_filter(a, is_even, NULL, NULL);
  rx_observable *c = rx_map(b, plus1, NULL, NULL);
  rx_observable *d = rx_map(a, plus1, NULL, NULL); /* a second branch from the same stage */
  CHECK_STR(run_log(rx_retain(a)), "2 3 4 |.");
  CHECK_STR(run_log(rx_retain(b)), "2 4 |.");
  CHECK_STR(run_log(rx_retain(c)), "3 5 |.");
  CHECK_STR(run_log(rx_retain(d)), "3 4 5 |.");
  rx_release(d), rx_release(c), rx_release(b), rx_release(a);
}

RX_TEST(fusion_boxed_values_between_stages) {
  rx_observable *a = rx_map(INTS(1, 2, 3), to_str, NULL, NULL);
  rx_observable *b = rx_filter(a, str_not_s2, NULL, NULL);
  CHECK_STR(run_log(rx_retain(b)), "'s1' 's3' |.");
  rx_observable *c = rx_map(b, str_len, NULL, NULL);
  CHECK_STR(run_log(rx_map(c, plus1, NULL, NULL)), "3 3 |.");
  rx_release(c), rx_release(b), rx_release(a);
}

/* A box a stage made outlives a later plain result until the element is done: a box again
   after it, a drop, a plain or a boxed end each leave nothing behind. */
RX_TEST(fusion_box_then_plain_then_box_again) {
  rx_observable *a = rx_map(INTS(1, 10, 100), to_str, NULL, NULL); /* 's1' 's10' 's100' */
  rx_observable *b = rx_map(a, str_len, NULL, NULL);                 /* 2 3 4, plain */
  rx_observable *c = rx_map(b, to_str, NULL, NULL);                  /* 's2' 's3' 's4' */
  rx_observable *e = rx_filter(b, is_even, NULL, NULL);              /* drops 3 */
  CHECK_STR(run_log(rx_retain(c)), "'s2' 's3' 's4' |.");
  CHECK_STR(run_log(rx_retain(e)), "2 4 |.");
  rx_observable *f = rx_filter(c, str_not_s2, NULL, NULL);
  CHECK_STR(run_log(rx_map(f, str_len, NULL, NULL)), "2 2 |.");
  rx_release(f), rx_release(e), rx_release(c), rx_release(b), rx_release(a);
}

RX_TEST(fusion_error_in_a_middle_stage_stops_the_later_ones) {
  hot h;
  counter later = {0};
  rx_observable *src = hot_new(&h);
  rx_observable *a = rx_map(src, fail_on_4, NULL, NULL);
  rx_observable *b = rx_filter(a, is_even, &later, NULL);
  rec r;
  rx_disposable *d = rx_subscribe(b, rec_observer(&r));
  for (int i = 1; i <= 5; i++) hot_next(&h, i);
  CHECK_STR(r.log, "2 #1001(four).");
  CHECK_EQ(later.calls, 3);
  CHECK_EQ(h.disposed, 1);
  rx_dispose(d);
  hot_end(&h);
  rx_release(b), rx_release(a), rx_release(src);
}

RX_TEST(fusion_no_stage_runs_after_dispose) {
  hot h;
  counter c1 = {0}, c2 = {0};
  rx_observable *src = hot_new(&h);
  rx_observable *a = rx_map(src, plus1, &c1, NULL);
  rx_observable *b = rx_map(a, plus1, &c2, NULL);
  rec r;
  rx_disposable *d = rx_subscribe(b, rec_observer(&r));
  hot_next(&h, 1);
  rx_dispose(d);
  CHECK_EQ(rx_emitter_next(h.em, rx_int(2)), RX_EDISPOSED);
  CHECK_STR(r.log, "3.");
  CHECK_EQ(c1.calls, 1);
  CHECK_EQ(c2.calls, 1);
  hot_end(&h);
  rx_release(b), rx_release(a), rx_release(src);
}

RX_TEST(fusion_ctx_free_after_the_last_pipeline_using_the_stage) {
  counter c1 = {0}, c2 = {0};
  rx_observable *a = rx_map(INTS(1, 2), plus1, &c1, counter_free);
  rx_observable *b = rx_map(a, plus1, &c2, counter_free);
  rx_release(a); /* b still runs a's stage */
  CHECK_EQ(c1.freed, 0);
  CHECK_STR(run_log(b), "3 4 |.");
  CHECK_EQ(c1.freed, 1);
  CHECK_EQ(c2.freed, 1);
  CHECK_EQ(c1.calls, 2);
}

/* ---- rx_just (scalar fusion) ---- */
RX_TEST(fusion_just_through_map_and_filter) {
  CHECK_STR(run_log(rx_map(A(rx_just(rx_int(1))), plus1, NULL, NULL)), "2 |.");
  CHECK_STR(run_log(rx_filter(A(rx_just(rx_int(1))), is_even, NULL, NULL)), "|.");
  CHECK_STR(run_log(rx_filter(A(rx_just(rx_int(2))), is_even, NULL, NULL)), "2 |.");
  rx_observable *a = rx_map(A(rx_just(rx_int(3))), to_str, NULL, NULL);
  CHECK_STR(run_log(rx_map(a, str_len, NULL, NULL)), "2 |.");
  rx_release(a);
}

RX_TEST(fusion_just_errors_end_without_completed) {
  CHECK_STR(run_log(rx_map(A(rx_just(rx_int(4))), fail_on_4, NULL, NULL)), "#1001(four).");
  CHECK_STR(run_log(rx_filter(A(rx_just(rx_int(4))), pred_fails, NULL, NULL)), "#1001(pred).");
}

RX_TEST(fusion_just_is_an_observable_everywhere) {
  rx_value s = rx_string("abc");
  rx_observable *j = rx_just(s);
  rx_value_release(s);
  CHECK_STR(run_log(rx_retain(j)), "'abc' |.");
  CHECK_STR(run_log(rx_retain(j)), "'abc' |.");
  CHECK_STR(run_log(rx_take(j, 0)), "|.");
  rx_observable *srcs[2] = {j, j};
  CHECK_STR(run_log(rx_concat(srcs, 2)), "'abc' 'abc' |.");
  rx_release(j);
}

RX_TEST(fusion_flat_map_just_inners) {
  CHECK_STR(run_log(rx_flat_map(INTS(1, 2, 3), to_just, NULL, NULL)), "1 2 3 |.");
  CHECK_STR(run_log(rx_flat_map(INTS(1, 2), just_str, NULL, NULL)), "'s1' 's2' |.");
  CHECK_STR(run_log(rx_flat_map(INTS(1, 2, 3), just_or_fail_on_2, NULL, NULL)), "1 #1001(fm).");
  CHECK_STR(run_log(rx_flat_map(EMPTY(), to_just, NULL, NULL)), "|.");
}

RX_TEST(fusion_flat_map_just_waits_for_the_outer) {
  hot h;
  rx_observable *src = hot_new(&h);
  rx_observable *fm = rx_flat_map(src, to_just, NULL, NULL);
  rec r;
  rx_disposable *d = rx_subscribe(fm, rec_observer(&r));
  hot_next(&h, 1);
  hot_next(&h, 2);
  CHECK_STR(r.log, "1 2");
  hot_completed(&h);
  CHECK_STR(r.log, "1 2 |.");
  rx_dispose(d);
  hot_end(&h);
  rx_release(fm), rx_release(src);
}

/* ---- flat_map inners that outlive their subscribe call ---- */
static hot inner_hot[4];
static int inner_n;
static rx_observable *to_hot(void *ctx, rx_value v, rx_error **err) {
  (void)ctx, (void)v, (void)err;
  return hot_new(&inner_hot[inner_n++]);
}

RX_TEST(fusion_flat_map_async_inners_complete_after_the_outer) {
  inner_n = 0;
  rec r;
  rx_observable *fm = rx_flat_map(INTS(1, 2), to_hot, NULL, NULL);
  rx_disposable *d = rx_subscribe(fm, rec_observer(&r));
  CHECK_EQ(inner_n, 2);
  hot_next(&inner_hot[1], 20);
  hot_next(&inner_hot[0], 10);
  hot_completed(&inner_hot[0]);
  CHECK_STR(r.log, "20 10");
  CHECK_EQ(inner_hot[0].disposed, 1);
  hot_next(&inner_hot[1], 21);
  hot_completed(&inner_hot[1]);
  CHECK_STR(r.log, "20 10 21 |.");
  CHECK_EQ(inner_hot[1].disposed, 1);
  rx_dispose(d);
  hot_end(&inner_hot[0]), hot_end(&inner_hot[1]);
  rx_release(fm);
  pool_drain();
}

RX_TEST(fusion_flat_map_dispose_reaches_running_inners) {
  inner_n = 0;
  rec r;
  rx_observable *fm = rx_flat_map(INTS(1, 2), to_hot, NULL, NULL);
  rx_disposable *d = rx_subscribe(fm, rec_observer(&r));
  hot_next(&inner_hot[0], 1);
  hot_completed(&inner_hot[0]);
  rx_dispose(d);
  CHECK_EQ(inner_hot[0].disposed, 1);
  CHECK_EQ(inner_hot[1].disposed, 1);
  CHECK_EQ(rx_emitter_next(inner_hot[1].em, rx_int(5)), RX_EDISPOSED);
  CHECK_STR(r.log, "1.");
  hot_end(&inner_hot[0]), hot_end(&inner_hot[1]);
  rx_release(fm);
  pool_drain();
}

/* ---- rx_range under a pipeline or flat_map: its sink runs the range loop ---- */
static rx_value to_kind(void *ctx, rx_value v, rx_error **err) {
  (void)ctx, (void)err;
  switch (v.i) {
  case 0: return rx_none();
  case 1: return rx_double(1.5);
  case 2: return rx_bool(true);
  case 3: return rx_ptr(NULL);
  case 4: return rx_string("four");
  default: return v;
  }
}
static rx_observable *counted_just(void *ctx, rx_value v, rx_error **err) {
  (void)err;
  ((counter *)ctx)->calls++;
  return rx_just(v);
}
static rx_observable *range_of_two(void *ctx, rx_value v, rx_error **err) {
  (void)ctx, (void)err;
  return rx_range(v.i, 2);
}
static rx_value fail_on_3(void *ctx, rx_value v, rx_error **err) {
  if (ctx) ((counter *)ctx)->calls++;
  if (v.i == 3) *err = user_error("three");
  return v;
}

RX_TEST(fusion_range_map_filter) {
  rx_observable *a = A(rx_map(A(rx_range(1, 6)), plus1, NULL, NULL));
  CHECK_STR(run_log(rx_filter(a, is_even, NULL, NULL)), "2 4 6 |.");
}

RX_TEST(fusion_range_every_value_kind) {
  CHECK_STR(run_log(rx_map(A(rx_range(0, 6)), to_kind, NULL, NULL)), "none 1.5 T ptr 'four' 5 |.");
}

RX_TEST(fusion_range_filter_only_and_empty) {
  CHECK_STR(run_log(rx_filter(A(rx_range(0, 5)), is_even, NULL, NULL)), "0 2 4 |.");
  CHECK_STR(run_log(rx_map(A(rx_range(7, 0)), plus1, NULL, NULL)), "|.");
}

RX_TEST(fusion_range_stops_when_downstream_is_done) {
  counter c = {0}, f = {0};
  rx_observable *m = A(rx_map(A(rx_range(0, 1000)), plus1, &c, NULL));
  CHECK_STR(run_log(rx_take(m, 2)), "1 2 |.");
  CHECK_EQ(c.calls, 2);
  rx_observable *fm = A(rx_flat_map(A(rx_range(0, 1000)), counted_just, &f, NULL));
  CHECK_STR(run_log(rx_take(fm, 2)), "0 1 |.");
  CHECK_EQ(f.calls, 2);
}

/* A synchronous loop asks its chain whether anyone still wants events only after something
   may have stopped; every way a chain stops must still end the loop at once: an operator
   completing, a user error, the subscriber disposing its own token, a blocking call. */
static rx_value sum_acc(void *ctx, rx_value acc, rx_value v, rx_error **err) {
  (void)ctx, (void)err;
  return rx_int(acc.i + v.i);
}
typedef struct disposing_sub {
  rx_disposable *token;
  int seen, stop_at;
  bool disposed_inside;
} disposing_sub;
static void dispose_at_next(void *ctx, rx_value v) {
  (void)v;
  disposing_sub *s = ctx;
  if (++s->seen == s->stop_at && s->token != NULL) {
    CHECK_OK(rx_dispose(s->token));
    s->disposed_inside = true;
  }
}

RX_TEST(sync_loops_stop_at_once_whoever_stops) {
  counter c = {0};
  /* take, element_at and take_while behind an operator that is not fused with the root */
  rx_observable *m = A(rx_map(A(rx_range(0, 1000000)), plus1, &c, NULL));
  CHECK_STR(run_log(rx_take(A(rx_scan(m, rx_int(0), sum_acc, NULL, NULL)), 3)), "1 3 6 |.");
  CHECK_EQ(c.calls, 3);
  c.calls = 0;
  m = A(rx_map(A(rx_range(0, 1000000)), plus1, &c, NULL));
  CHECK_STR(run_log(rx_element_at(A(rx_scan(m, rx_int(0), sum_acc, NULL, NULL)), 4)), "15 |.");
  CHECK_EQ(c.calls, 5);
  c.calls = 0;
  m = A(rx_map(A(rx_of((rx_value[]){rx_int(1), rx_int(2), rx_int(3), rx_int(4)}, 4)), plus1, &c, NULL));
  CHECK_STR(run_log(rx_take(A(rx_scan(m, rx_int(0), sum_acc, NULL, NULL)), 2)), "2 5 |.");
  CHECK_EQ(c.calls, 2);
  /* a user error further down */
  c.calls = 0;
  m = A(rx_map(A(rx_range(0, 1000000)), plus1, &c, NULL));
  CHECK_STR(run_log(rx_map(A(rx_scan(m, rx_int(0), sum_acc, NULL, NULL)), fail_on_3, NULL, NULL)),
            "1 #1001(three).");
  CHECK_EQ(c.calls, 2);
  /* a blocking first */
  c.calls = 0;
  m = A(rx_map(A(rx_range(0, 1000000)), plus1, &c, NULL));
  rx_value first = rx_none();
  rx_error *err = NULL;
  CHECK_OK(rx_blocking_first(A(rx_scan(m, rx_int(0), sum_acc, NULL, NULL)), -1, &first, &err));
  CHECK_EQ(first.i, 1);
  CHECK_EQ(c.calls, 1);
  pool_drain();
}

static rx_observable *the_chain(void *ctx, rx_value v, rx_error **err) {
  (void)v, (void)err;
  return rx_retain(ctx);
}

RX_TEST(sync_loops_stop_when_the_subscriber_disposes_inside_a_callback) {
  /* The token exists once rx_subscribe returns, so the loop runs later: a flat_map on a
     subject subscribes the synchronous chain when the subject emits. */
  counter c = {0};
  rx_observable *m = A(rx_map(A(rx_range(0, 1000000)), plus1, &c, NULL));
  rx_observable *chain = A(rx_scan(m, rx_int(0), sum_acc, NULL, NULL));
  rx_subject *go = rx_publish_subject_new();
  rx_observable *started = A(rx_flat_map(rx_subject_as_observable(go), the_chain, chain, NULL));
  disposing_sub sub = {.stop_at = 3};
  sub.token = rx_subscribe(started, (rx_observer){.on_next = dispose_at_next, .ctx = &sub});
  CHECK(sub.token != NULL);
  CHECK_OK(rx_subject_on_next(go, rx_int(0)));
  CHECK(sub.disposed_inside);
  CHECK_EQ(sub.seen, 3);
  CHECK_EQ(c.calls, 3);
  rx_release(go); /* (rx_dispose released the token) */
  pool_drain();
}

/* A stop made on another thread (take_until's other source) ends a synchronous loop that
   would otherwise run for ever. */
typedef struct stopper {
  rx_subject *trigger;
  atomic_long *calls;
} stopper;
static void *stop_later(void *arg) {
  stopper *s = arg;
  while (atomic_load(s->calls) < 1000) sched_yield();
  CHECK_OK(rx_subject_on_next(s->trigger, rx_int(0)));
  return NULL;
}
static rx_value count_calls(void *ctx, rx_value v, rx_error **err) {
  (void)err;
  atomic_fetch_add((atomic_long *)ctx, 1);
  return v;
}

static void note_end(void *ctx) { (*(int *)ctx)++; }

RX_TEST(sync_loops_stop_when_another_thread_stops_them) {
  atomic_long calls = 0;
  rx_subject *trigger = rx_publish_subject_new();
  rx_observable *m = A(rx_map(A(rx_range(0, (size_t)INT64_MAX)), count_calls, &calls, NULL));
  rx_observable *chain = A(rx_scan(m, rx_int(0), sum_acc, NULL, NULL));
  rx_observable *until = A(rx_take_until(chain, rx_subject_as_observable(trigger)));
  stopper s = {trigger, &calls};
  pthread_t t;
  CHECK_EQ(pthread_create(&t, NULL, stop_later, &s), 0);
  int ends = 0;
  rx_disposable *d = rx_subscribe(until, (rx_observer){.on_completed = note_end, .on_disposed = note_end, .ctx = &ends});
  CHECK_EQ(pthread_join(t, NULL), 0);
  CHECK_EQ(ends, 2); /* completed, then disposed */
  CHECK(atomic_load(&calls) >= 1000);
  rx_release(d);
  rx_release(trigger);
  pool_drain();
}

RX_TEST(fusion_range_error_stops_the_loop) {
  counter c = {0}, later = {0};
  rx_observable *a = A(rx_map(A(rx_range(0, 10)), fail_on_3, &c, NULL));
  CHECK_STR(run_log(rx_filter(a, is_even, &later, NULL)), "0 2 #1001(three).");
  CHECK_EQ(c.calls, 4);
  CHECK_EQ(later.calls, 3);
}

RX_TEST(fusion_range_ctx_free_once_after_the_run) {
  counter c = {0};
  rx_observable *r = rx_range(0, 3);
  rx_observable *m = rx_map(r, plus1, &c, counter_free);
  rx_release(r);
  CHECK_STR(run_log(m), "1 2 3 |.");
  CHECK_EQ(c.calls, 3);
  CHECK_EQ(c.freed, 1);
}

/* The pipeline of a dropped handle is emptied at once (ctx_free runs at the release, as
 * before) and refilled by the next rx_map: each lifecycle sees only its own stage. */
RX_TEST(fusion_reused_pipeline_frees_each_ctx_at_its_release) {
  for (int i = 0; i < 5; i++) {
    counter c = {0};
    rx_observable *j = rx_just(rx_int(i));
    rx_observable *m = rx_map(j, plus1, &c, counter_free);
    rx_observable *f = rx_filter(m, is_even, NULL, NULL);
    rec r;
    rx_release(rx_subscribe(f, rec_observer(&r)));
    rx_release(j);
    CHECK_EQ(c.freed, 0);
    rx_release(f); /* the filter stage still runs m's stage */
    CHECK_EQ(c.freed, 0);
    rx_release(m);
    CHECK_EQ(c.freed, 1);
    CHECK_EQ(c.calls, 1);
    char want[16] = "|.";
    if (i % 2 == 1) snprintf(want, sizeof want, "%d |.", i + 1);
    CHECK_STR(r.log, want);
  }
}

RX_TEST(fusion_range_flat_map) {
  CHECK_STR(run_log(rx_flat_map(A(rx_range(0, 4)), to_just, NULL, NULL)), "0 1 2 3 |.");
  CHECK_STR(run_log(rx_flat_map(A(rx_range(0, 3)), range_of_two, NULL, NULL)), "0 1 1 2 2 3 |.");
  CHECK_STR(run_log(rx_flat_map(A(rx_range(0, 4)), just_or_fail_on_2, NULL, NULL)), "0 1 #1001(fm).");
  CHECK_STR(run_log(rx_flat_map(A(rx_range(5, 0)), to_just, NULL, NULL)), "|.");
}

/* ---- rx_of roots, and rx_of/rx_just inners of flat_map and concat_map: run in place ---- */
static rx_observable *of_pair(void *ctx, rx_value v, rx_error **err) {
  (void)err;
  if (ctx) ((counter *)ctx)->calls++;
  rx_value two[2] = {v, rx_int(v.i * 10)};
  return rx_of(two, 2);
}
static rx_observable *of_str_pair(void *ctx, rx_value v, rx_error **err) {
  (void)ctx, (void)err;
  rx_value two[2] = {to_str(NULL, v, NULL), to_str(NULL, rx_int(v.i * 10), NULL)};
  rx_observable *o = rx_of(two, 2);
  rx_value_release(two[0]), rx_value_release(two[1]);
  return o;
}
static rx_observable *pair_or_hot(void *ctx, rx_value v, rx_error **err) {
  (void)ctx, (void)err;
  return v.i == 2 ? hot_new(&inner_hot[inner_n++]) : of_pair(NULL, v, NULL);
}

RX_TEST(fusion_of_root_stops_when_downstream_is_done) {
  counter c = {0};
  rx_observable *m = A(rx_map(INTS(1, 2, 3, 4, 5), plus1, &c, NULL));
  CHECK_STR(run_log(rx_take(m, 2)), "2 3 |.");
  CHECK_EQ(c.calls, 2);
}

RX_TEST(fusion_of_root_boxed_values_pass_filters_unchanged) {
  rx_value s[3] = {rx_string("s1"), rx_string("s2"), rx_string("s3")};
  rx_observable *o = A(rx_of(s, 3));
  for (int i = 0; i < 3; i++) rx_value_release(s[i]);
  CHECK_STR(run_log(rx_filter(o, str_not_s2, NULL, NULL)), "'s1' 's3' |.");
}

RX_TEST(fusion_flat_map_of_inners) {
  CHECK_STR(run_log(rx_flat_map(INTS(1, 2), of_pair, NULL, NULL)), "1 10 2 20 |.");
  CHECK_STR(run_log(rx_flat_map(A(rx_range(1, 2)), of_str_pair, NULL, NULL)), "'s1' 's10' 's2' 's20' |.");
  counter c = {0};
  rx_observable *fm = A(rx_flat_map(A(rx_range(1, 1000)), of_pair, &c, NULL));
  CHECK_STR(run_log(rx_take(fm, 3)), "1 10 2 |.");
  CHECK_EQ(c.calls, 2);
}

RX_TEST(fusion_concat_map_of_and_just_inners) {
  CHECK_STR(run_log(rx_concat_map(INTS(1, 2, 3), of_pair, NULL, NULL)), "1 10 2 20 3 30 |.");
  CHECK_STR(run_log(rx_concat_map(INTS(1, 2), to_just, NULL, NULL)), "1 2 |.");
  CHECK_STR(run_log(rx_concat_map(INTS(1, 2, 3), just_or_fail_on_2, NULL, NULL)), "1 #1001(fm).");
  counter c = {0};
  rx_observable *cm = A(rx_concat_map(A(rx_range(1, 1000)), of_pair, &c, NULL));
  CHECK_STR(run_log(rx_take(cm, 3)), "1 10 2 |.");
  CHECK_EQ(c.calls, 2);
}

/* A synchronous inner queued behind a running one runs when that one completes, in order. */
RX_TEST(fusion_concat_map_of_inner_waits_for_a_running_inner) {
  inner_n = 0;
  rec r;
  rx_observable *cm = rx_concat_map(INTS(1, 2, 3), pair_or_hot, NULL, NULL);
  rx_disposable *d = rx_subscribe(cm, rec_observer(&r));
  CHECK_STR(r.log, "1 10");
  CHECK_EQ(inner_n, 1);
  hot_next(&inner_hot[0], 7);
  CHECK_STR(r.log, "1 10 7");
  hot_completed(&inner_hot[0]);
  CHECK_STR(r.log, "1 10 7 3 30 |.");
  CHECK_EQ(inner_hot[0].disposed, 1);
  rx_dispose(d);
  hot_end(&inner_hot[0]);
  rx_release(cm);
  pool_drain();
}

/* ---- stateful stages: scan, take and skip join a fused chain ---------------------------- */

/* A chain of map/filter/scan/take/skip, run through librxc and through a plain C model of the
   same operators; the logs must agree, for every root (range, of, just, a subject) and for
   chains that end early (take) or drop the element a take let through last. */
typedef enum { S_MAP, S_FILTER, S_SCAN, S_TAKE, S_SKIP } stage_kind;
typedef struct chain_stage {
  stage_kind kind;
  int64_t n;
} chain_stage;

static rx_value add_n(void *ctx, rx_value v, rx_error **err) {
  (void)err;
  return rx_int(v.i + *(const int64_t *)ctx);
}
static bool not_multiple_of(void *ctx, rx_value v, rx_error **err) {
  (void)err;
  return v.i % *(const int64_t *)ctx != 0;
}

/* Each stage's observable goes to `made` (released by the caller). */
static rx_observable *made[16];
static int n_made;
static void release_made(void) {
  while (n_made) rx_release(made[--n_made]);
}

static rx_observable *build_chain(rx_observable *root, const chain_stage *st, int n) {
  rx_observable *o = root;
  for (int k = 0; k < n; k++) {
    rx_observable *next = NULL;
    switch (st[k].kind) {
    case S_MAP: next = rx_map(o, add_n, (void *)&st[k].n, NULL); break;
    case S_FILTER: next = rx_filter(o, not_multiple_of, (void *)&st[k].n, NULL); break;
    case S_SCAN: next = rx_scan(o, rx_int(st[k].n), sum_acc, NULL, NULL); break;
    case S_TAKE: next = rx_take(o, (size_t)st[k].n); break;
    case S_SKIP: next = rx_skip(o, (size_t)st[k].n); break;
    }
    CHECK(next != NULL);
    made[n_made++] = next;
    o = next;
  }
  return o;
}

/* The model: the expected log of the chain over inputs 0..count-1. */
static void model_chain(const chain_stage *st, int n, int count, char *out, size_t cap) {
  int64_t state[8];
  bool done = false;
  for (int k = 0; k < n; k++) state[k] = st[k].kind == S_SCAN ? st[k].n : st[k].n;
  out[0] = 0;
  for (int64_t i = 0; i < count && !done; i++) {
    int64_t v = i;
    bool pass = true, last = false;
    for (int k = 0; k < n && pass; k++) {
      switch (st[k].kind) {
      case S_MAP: v += st[k].n; break;
      case S_FILTER: pass = v % st[k].n != 0; break;
      case S_SCAN: state[k] += v; v = state[k]; break;
      case S_TAKE:
        if (state[k] <= 0) { pass = false; break; }
        if (--state[k] == 0) last = true;
        break;
      case S_SKIP:
        if (state[k] > 0) { state[k]--; pass = false; }
        break;
      }
    }
    if (pass) {
      char b[32];
      snprintf(b, sizeof b, "%s%lld", out[0] ? " " : "", (long long)v);
      strncat(out, b, cap - strlen(out) - 1);
    }
    if (last) done = true;
  }
  strncat(out, out[0] ? " |." : "|.", cap - strlen(out) - 1);
}

static void check_chain(const chain_stage *st, int n, int count, int root_kind) {
  char want[2048];
  if (root_kind == 2) count = 1; /* rx_just(0) */
  model_chain(st, n, count, want, sizeof want);
  rx_observable *root;
  rx_value vals[64];
  for (int i = 0; i < count && i < 64; i++) vals[i] = rx_int(i);
  if (root_kind == 0) root = rx_range(0, (size_t)count);
  else if (root_kind == 1) root = rx_of(vals, (size_t)count);
  else root = rx_just(rx_int(0));
  made[n_made++] = root;
  /* a map first, so that the chain is a pipeline the stateful stages join */
  chain_stage head = {S_MAP, 0};
  rx_observable *o = build_chain(build_chain(root, &head, 1), st, n);
  /* twice: a subscription's counts and accumulators are its own */
  for (int k = 0; k < 2; k++) {
    rec r;
    rx_disposable *d = rx_subscribe(o, rec_observer(&r));
    rx_dispose(d);
    CHECK_STR(r.log, want);
  }
  release_made();
}

static void check_chain_on_subject(const chain_stage *st, int n, int count) {
  char want[2048];
  model_chain(st, n, count, want, sizeof want);
  rx_subject *s = rx_publish_subject_new();
  chain_stage head = {S_MAP, 0};
  rx_observable *o = build_chain(build_chain(rx_subject_as_observable(s), &head, 1), st, n); /* borrowed */
  rec r1, r2;
  rx_disposable *d1 = rx_subscribe(o, rec_observer(&r1));
  rx_disposable *d2 = rx_subscribe(o, rec_observer(&r2));
  for (int i = 0; i < count; i++) rx_subject_on_next(s, rx_int(i));
  rx_subject_on_completed(s);
  CHECK_STR(r1.log, want);
  CHECK_STR(r2.log, want);
  rx_release(d1);
  rx_release(d2);
  rx_release(s);
  release_made();
}

RX_TEST(fusion_stateful_stages_agree_with_the_model) {
  uint32_t seed = 12345;
  for (int round = 0; round < 300; round++) {
    chain_stage st[6];
    int n = 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 6;
    for (int k = 0; k < n; k++) {
      uint32_t r = (seed = seed * 1103515245u + 12345u) >> 16;
      st[k].kind = (stage_kind)(r % 5);
      st[k].n = st[k].kind == S_FILTER ? 2 + (int64_t)(r / 5 % 3) : (int64_t)(r / 5 % 5);
      if (st[k].kind == S_TAKE && st[k].n == 0) st[k].n = 1;
    }
    int count = 1 + (int)(((seed = seed * 1103515245u + 12345u) >> 16) % 20);
    check_chain(st, n, count, round % 3);
    check_chain_on_subject(st, n, count);
  }
}

RX_TEST(fusion_take_stage_completes_at_once_and_lets_go_of_its_source) {
  rx_subject *s = rx_publish_subject_new();
  rx_observable *o = A(rx_take(A(rx_map(rx_subject_as_observable(s), plus1, NULL, NULL)), 2));
  rec r;
  rx_disposable *d = rx_subscribe(o, rec_observer(&r));
  CHECK_EQ(rx_subject_has_observers(s), true);
  rx_subject_on_next(s, rx_int(1));
  rx_subject_on_next(s, rx_int(2)); /* the last: completes with no further element */
  CHECK_STR(r.log, "2 3 |.");
  CHECK_EQ(rx_subject_has_observers(s), false);
  rx_release(d);
  rx_release(s);
  pool_drain();
}

static int counted_frees;
static void count_free(void *ctx) { (void)ctx; counted_frees++; }
RX_TEST(fusion_scan_stage_frees_its_ctx_once_after_the_last_subscription) {
  counted_frees = 0;
  rx_subject *s = rx_publish_subject_new();
  rx_observable *o = A(rx_scan(A(rx_map(rx_subject_as_observable(s), plus1, NULL, NULL)), rx_int(0), sum_acc,
                               &counted_frees, count_free));
  rec r;
  rx_disposable *d = rx_subscribe(o, rec_observer(&r));
  rx_release(o);
  rx_subject_on_next(s, rx_int(1));
  rx_subject_on_next(s, rx_int(2));
  CHECK_STR(r.log, "2 5");
  CHECK_EQ(counted_frees, 0);
  rx_dispose(d);
  CHECK_EQ(counted_frees, 1);
  rx_release(s);
  pool_drain();
  CHECK_EQ(counted_frees, 1);
}

static rx_value concat_acc(void *ctx, rx_value acc, rx_value v, rx_error **err) {
  (void)ctx, (void)err;
  char b[256];
  snprintf(b, sizeof b, "%s%lld", rx_value_string(acc), (long long)v.i);
  return rx_string(b);
}
static rx_value fail_acc_at_3(void *ctx, rx_value acc, rx_value v, rx_error **err) {
  (void)ctx;
  if (v.i == 3) {
    *err = user_error("acc");
    return rx_none();
  }
  return rx_int(acc.i + v.i);
}

RX_TEST(fusion_scan_stage_boxed_accumulator_and_errors) {
  rx_value seed = rx_string("s");
  rx_observable *m = A(rx_map(A(rx_range(0, 4)), plus1, NULL, NULL));
  rx_observable *sc = A(rx_scan(m, seed, concat_acc, NULL, NULL));
  rx_value_release(seed);
  rx_retain(sc);
  CHECK_STR(run_log(rx_take(sc, 3)), "'s1' 's12' 's123' |.");
  CHECK_STR(run_log(sc), "'s1' 's12' 's123' 's1234' |.");
  m = A(rx_map(A(rx_range(0, 10)), plus1, NULL, NULL));
  CHECK_STR(run_log(rx_scan(m, rx_int(0), fail_acc_at_3, NULL, NULL)), "1 3 #1001(acc).");
}
