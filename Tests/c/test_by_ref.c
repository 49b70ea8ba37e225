/* Callbacks by reference (rx_by_ref and its trampolines), for FFIs whose callbacks cannot
 * take or return a struct by value: each by-value callback type reached through its
 * trampoline, ownership of what *out returns, and NULL members and NULL rx_by_ref failing
 * the stream with RX_ERROR_UNKNOWN instead of crashing. */
#include "ops_support.h"

/* The rx_by_ref first, so an observer's other callbacks (given its address) reach the rest. */
typedef struct holder {
  rx_by_ref by;
  rec r;
  int calls;
} holder;

static void ref_next(void *ctx, const rx_value *v) { rec_next(&((holder *)ctx)->r, *v); }
static void h_error(void *ctx, const rx_error *e) { rec_error(&((holder *)ctx)->r, e); }
static void h_completed(void *ctx) { rec_completed(&((holder *)ctx)->r); }
static void h_disposed(void *ctx) { rec_disposed(&((holder *)ctx)->r); }

static rx_observer by_ref_observer(holder *h) {
  memset(&h->r, 0, sizeof h->r);
  h->by.ctx = h;
  h->by.on_next = ref_next;
  rx_observer o = {rx_by_ref_on_next, h_error, h_completed, h_disposed, h};
  return o;
}

static void ref_times10(void *ctx, const rx_value *v, rx_value *out, rx_error **e) {
  ((holder *)ctx)->calls++;
  *out = rx_int(v->i * 10);
}
static void ref_to_string(void *ctx, const rx_value *v, rx_value *out, rx_error **e) {
  char buf[32];
  snprintf(buf, sizeof buf, "s%lld", (long long)v->i);
  *out = rx_string(buf); /* owned: the library takes it */
}
static bool ref_odd(void *ctx, const rx_value *v, rx_error **e) { return v->i % 2; }
static void ref_sum(void *ctx, const rx_value *acc, const rx_value *v, rx_value *out, rx_error **e) {
  *out = rx_int(acc->i + v->i);
}
static rx_observable *ref_pair(void *ctx, const rx_value *v, rx_error **e) {
  rx_value two[2] = {*v, rx_int(-v->i)};
  return rx_of(two, 2);
}
static void ref_add_all(void *ctx, const rx_value *vs, size_t n, rx_value *out, rx_error **e) {
  int64_t s = 0;
  for (size_t k = 0; k < n; k++) s += vs[k].i;
  *out = rx_int(s);
}
static bool ref_same_parity(void *ctx, const rx_value *a, const rx_value *b) { return (a->i - b->i) % 2 == 0; }
static void ref_fail(void *ctx, const rx_value *v, rx_value *out, rx_error **e) {
  if (v->i == 2) *e = rx_error_new(RX_ERROR_USER + 2, "two");
  else *out = rx_value_retain(*v);
}

static void run_into(rx_observable *o, holder *sub) {
  rx_disposable *d = rx_subscribe(o, by_ref_observer(sub));
  rx_dispose(d);
  rx_release(o);
}

RX_TEST(by_ref_every_callback_kind_through_its_trampoline) {
  rx_observable *src = rx_range(1, 4);
  holder sub, fn;
  memset(&fn, 0, sizeof fn);
  fn.by.ctx = &fn;
  fn.by.map = ref_times10;
  fn.by.predicate = ref_odd;
  fn.by.accumulate = ref_sum;
  fn.by.flat_map = ref_pair;
  fn.by.combine = ref_add_all;
  fn.by.equal = ref_same_parity;

  run_into(rx_map(src, rx_by_ref_map, &fn, NULL), &sub);
  CHECK_STR(sub.r.log, "10 20 30 40 |.");
  CHECK_EQ(fn.calls, 4);
  run_into(rx_filter(src, rx_by_ref_predicate, &fn, NULL), &sub);
  CHECK_STR(sub.r.log, "1 3 |.");
  run_into(rx_scan(src, rx_int(100), rx_by_ref_accumulate, &fn, NULL), &sub);
  CHECK_STR(sub.r.log, "101 103 106 110 |.");
  run_into(rx_concat_map(src, rx_by_ref_flat_map, &fn, NULL), &sub);
  CHECK_STR(sub.r.log, "1 -1 2 -2 3 -3 4 -4 |.");
  run_into(rx_distinct_until_changed(src, rx_by_ref_equal, &fn, NULL), &sub);
  CHECK_STR(sub.r.log, "1 2 3 4 |.");
  rx_value same[4] = {rx_int(1), rx_int(3), rx_int(4), rx_int(6)};
  rx_observable *parity = rx_of(same, 4);
  run_into(rx_distinct_until_changed(parity, rx_by_ref_equal, &fn, NULL), &sub);
  CHECK_STR(sub.r.log, "1 4 |.");
  rx_release(parity);
  rx_observable *pair[2] = {src, src};
  run_into(rx_zip(pair, 2, rx_by_ref_combine, &fn, NULL), &sub);
  CHECK_STR(sub.r.log, "2 4 6 8 |.");
  rx_release(src);
}

RX_TEST(by_ref_out_values_are_owned_by_the_library) {
  int64_t live = rx_debug_live_objects();
  rx_observable *src = rx_range(1, 3);
  holder sub, fn;
  memset(&fn, 0, sizeof fn);
  fn.by.map = ref_to_string;
  run_into(rx_map(src, rx_by_ref_map, &fn, NULL), &sub);
  CHECK_STR(sub.r.log, "'s1' 's2' 's3' |.");
  rx_release(src);
  CHECK_EQ(rx_debug_live_objects(), live); /* every string box freed */
}

RX_TEST(by_ref_errors_fail_the_stream) {
  rx_observable *src = rx_range(1, 3);
  holder sub, fn;
  memset(&fn, 0, sizeof fn);
  fn.by.map = ref_fail;
  run_into(rx_map(src, rx_by_ref_map, &fn, NULL), &sub);
  CHECK_STR(sub.r.log, "1 #1002(two).");
  rx_release(src);
}

RX_TEST(by_ref_null_members_and_null_by_ref_fail_with_unknown) {
  rx_observable *src = rx_range(1, 3);
  holder sub, empty;
  memset(&empty, 0, sizeof empty);
  run_into(rx_map(src, rx_by_ref_map, &empty, NULL), &sub);
  CHECK_EQ(sub.r.errors, 1);
  CHECK_EQ(sub.r.error_code, RX_ERROR_UNKNOWN);
  CHECK(strstr(sub.r.log, "rx_by_ref_map") != NULL);
  run_into(rx_filter(src, rx_by_ref_predicate, NULL, NULL), &sub);
  CHECK_EQ(sub.r.error_code, RX_ERROR_UNKNOWN);
  run_into(rx_flat_map(src, rx_by_ref_flat_map, NULL, NULL), &sub);
  CHECK_EQ(sub.r.error_code, RX_ERROR_UNKNOWN);
  /* A NULL on_next drops values; a NULL equal finds nothing equal. */
  holder quiet;
  memset(&quiet, 0, sizeof quiet);
  rx_observer o = {rx_by_ref_on_next, h_error, h_completed, h_disposed, &quiet};
  rx_dispose(rx_subscribe(src, o));
  CHECK_STR(quiet.r.log, "|.");
  CHECK(!rx_by_ref_equal(NULL, rx_int(1), rx_int(1)));
  CHECK(strstr(rx_last_error(), "rx_by_ref_equal") != NULL);
  rx_release(src);
}

static bool ref_even_halved(void *ctx, const rx_value *v, rx_value *out, rx_error **e) {
  if (v->i % 2) return false;
  *out = rx_int(v->i / 2);
  return true;
}

RX_TEST(by_ref_compact_map_through_its_trampoline) {
  rx_observable *src = rx_range(1, 6);
  holder sub, fn, empty;
  memset(&fn, 0, sizeof fn);
  memset(&empty, 0, sizeof empty);
  fn.by.compact_map = ref_even_halved;
  run_into(rx_compact_map(src, rx_by_ref_compact_map, &fn, NULL), &sub);
  CHECK_STR(sub.r.log, "1 2 3 |.");
  run_into(rx_compact_map(src, rx_by_ref_compact_map, &empty, NULL), &sub);
  CHECK_EQ(sub.r.error_code, RX_ERROR_UNKNOWN);
  CHECK(strstr(sub.r.log, "rx_by_ref_compact_map") != NULL);
  rx_release(src);
}
