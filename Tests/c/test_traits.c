/* The primitive-sequence traits (rx_as_single / _maybe / _completable and their subscribe
 * functions) and the Signal trait. The marble cases follow RxSwift's
 * Observable+PrimitiveSequenceTest (asSingle, asMaybe, asCompletable): a hot source emitting
 * before the subscription, one element, many, an error before and after an element. */
#include "ops_support.h"

static rx_scheduler *ts;
static void *kept[32];
static int n_kept;

static void *keep(void *o) {
  CHECK_MSG(o != NULL, "%s", rx_last_error());
  kept[n_kept++] = o;
  return o;
}
static rx_observable *mhot(const char *m) { return keep(rx_marble_hot(ts, m, NULL, 0, NULL)); }
static rx_observable *mcold(const char *m) { return keep(rx_marble_cold(ts, m, NULL, 0, NULL)); }
static rx_error *merr(int32_t code, const char *msg) { return keep(rx_error_new(code, msg)); }
static void begin(void) { ts = rx_test_scheduler_new(); }
static void end(void) {
  while (n_kept) rx_release(kept[--n_kept]);
  rx_release(ts);
}
#define EXPECT(o, m) CHECK(rx_marble_expect(ts, (o), (m), NULL, 0, NULL))
#define EXPECT_E(o, m, e) CHECK(rx_marble_expect(ts, (o), (m), NULL, 0, (e)))
#define NO_ELEMENTS() merr(RX_ERROR_NO_ELEMENTS, "sequence contains no elements")
#define MORE_THAN_ONE() merr(RX_ERROR_MORE_THAN_ONE_ELEMENT, "sequence contains more than one element")
#define UNEXPECTED() merr(RX_ERROR_UNEXPECTED_ELEMENT, "a completable sequence emitted an element")

/* ---- rx_as_single ---------------------------------------------------------------------- */

RX_TEST(trait_single_empty_is_no_elements) {
  begin();
  rx_observable *xs = mhot("1-^---|-#");
  EXPECT_E(keep(rx_as_single(xs)), "^---#", NO_ELEMENTS());
  end();
}

RX_TEST(trait_single_one_element_comes_with_the_completion) {
  begin();
  rx_observable *xs = mhot("1-^-2-|-#");
  EXPECT(keep(rx_as_single(xs)), "^---(2|)");
  end();
}

RX_TEST(trait_single_second_element_fails_at_once_and_disposes_the_source) {
  begin();
  rx_observable *xs = mhot("1-^-2-3-|-#");
  EXPECT_E(keep(rx_as_single(xs)), "^---#", MORE_THAN_ONE());
  /* the source is disposed at the violation */
  hot h;
  rx_observable *src = keep(hot_new(&h));
  rec r;
  rx_disposable *d = rx_subscribe(keep(rx_as_single(src)), rec_observer(&r));
  hot_next(&h, 1);
  CHECK_EQ(h.disposed, 0);
  hot_next(&h, 2);
  CHECK_EQ(h.disposed, 1);
  CHECK_STR(r.log, "#4(sequence contains more than one element).");
  rx_dispose(d);
  hot_end(&h);
  end();
}

RX_TEST(trait_single_forwards_errors_before_and_after_an_element) {
  begin();
  EXPECT(keep(rx_as_single(mhot("1-^-#"))), "^-#");
  EXPECT(keep(rx_as_single(mhot("1-^2-#"))), "^--#");
  end();
}

RX_TEST(trait_single_dispose_before_completion_emits_nothing) {
  begin();
  EXPECT(keep(rx_as_single(mcold("-1---|"))), "---!");
  end();
}

/* ---- rx_as_maybe ----------------------------------------------------------------------- */

RX_TEST(trait_maybe_empty_completes) {
  begin();
  EXPECT(keep(rx_as_maybe(mhot("1-^---|-#"))), "^---|");
  end();
}

RX_TEST(trait_maybe_one_element_comes_with_the_completion) {
  begin();
  EXPECT(keep(rx_as_maybe(mhot("1-^-2-|-#"))), "^---(2|)");
  end();
}

RX_TEST(trait_maybe_second_element_fails_at_once) {
  begin();
  EXPECT_E(keep(rx_as_maybe(mhot("1-^-2-3-|-#"))), "^---#", MORE_THAN_ONE());
  end();
}

RX_TEST(trait_maybe_forwards_errors_before_and_after_an_element) {
  begin();
  EXPECT(keep(rx_as_maybe(mhot("1-^-#"))), "^-#");
  EXPECT(keep(rx_as_maybe(mhot("1-^2-#"))), "^--#");
  end();
}

/* ---- rx_as_completable ----------------------------------------------------------------- */

RX_TEST(trait_completable_completes_and_forwards_errors) {
  begin();
  EXPECT(keep(rx_as_completable(mhot("--^---|-#"))), "^---|");
  EXPECT(keep(rx_as_completable(mhot("--^-#"))), "^-#");
  end();
}

RX_TEST(trait_completable_element_fails_at_once) {
  begin();
  EXPECT_E(keep(rx_as_completable(mhot("1-^--2-|"))), "^--#", UNEXPECTED());
  EXPECT(keep(rx_as_completable(mcold("---1-|"))), "--!");
  end();
}

/* ---- the subscribe functions ----------------------------------------------------------- */

static void rec_success(void *ctx, rx_value v) {
  char buf[64];
  fmt_value(v, buf, sizeof buf);
  rec *r = ctx;
  r->nexts++;
  rec_append(r, "ok:");
  rec_append(r, buf);
}

static rx_disposable *sub_single(rx_observable *o, rec *r) {
  memset(r, 0, sizeof *r);
  return rx_subscribe_single(o, rec_success, rec_error, r, rec_disposed);
}
static rx_disposable *sub_maybe(rx_observable *o, rec *r) {
  memset(r, 0, sizeof *r);
  return rx_subscribe_maybe(o, rec_success, rec_error, rec_completed, r, rec_disposed);
}
static rx_disposable *sub_completable(rx_observable *o, rec *r) {
  memset(r, 0, sizeof *r);
  return rx_subscribe_completable(o, rec_completed, rec_error, r, rec_disposed);
}

RX_TEST(trait_subscribe_single_success_error_and_violations) {
  rec r;
  rx_dispose(sub_single(INTS(7), &r));
  CHECK_STR(r.log, "ok: 7.");
  rx_dispose(sub_single(THROW_BOOM(), &r));
  CHECK_STR(r.log, "#1000(boom).");
  rx_dispose(sub_single(EMPTY(), &r));
  CHECK_STR(r.log, "#3(sequence contains no elements).");
  rx_dispose(sub_single(INTS(1, 2), &r));
  CHECK_STR(r.log, "#4(sequence contains more than one element).");
  /* an observable made by rx_as_single works the same */
  rx_observable *s = A(rx_as_single(INTS(5)));
  rx_dispose(sub_single(s, &r));
  CHECK_STR(r.log, "ok: 5.");
  pool_drain();
}

RX_TEST(trait_subscribe_maybe_success_completed_error) {
  rec r;
  rx_dispose(sub_maybe(INTS(7), &r));
  CHECK_STR(r.log, "ok: 7.");
  CHECK_EQ(r.completed, 0);
  rx_dispose(sub_maybe(EMPTY(), &r));
  CHECK_STR(r.log, "|.");
  rx_dispose(sub_maybe(THROW_BOOM(), &r));
  CHECK_STR(r.log, "#1000(boom).");
  rx_dispose(sub_maybe(INTS(1, 2), &r));
  CHECK_STR(r.log, "#4(sequence contains more than one element).");
  pool_drain();
}

RX_TEST(trait_subscribe_completable_completed_error_and_element) {
  rec r;
  rx_dispose(sub_completable(EMPTY(), &r));
  CHECK_STR(r.log, "|.");
  rx_dispose(sub_completable(THROW_BOOM(), &r));
  CHECK_STR(r.log, "#1000(boom).");
  rx_dispose(sub_completable(INTS(1), &r));
  CHECK_STR(r.log, "#9(a completable sequence emitted an element).");
  pool_drain();
}

RX_TEST(trait_subscribe_dispose_before_the_end_calls_only_on_disposed) {
  hot h;
  rx_observable *src = hot_new(&h);
  rec a, b, c;
  rx_disposable *da = sub_single(src, &a);
  rx_disposable *db = sub_maybe(src, &b);
  rx_disposable *dc = sub_completable(src, &c);
  CHECK_EQ(h.subscribed, 3);
  rx_dispose(da);
  rx_dispose(db);
  rx_dispose(dc);
  CHECK_EQ(h.disposed, 3);
  CHECK_STR(a.log, ".");
  CHECK_STR(b.log, ".");
  CHECK_STR(c.log, ".");
  hot_end(&h);
  rx_release(src);
}

RX_TEST(trait_subscribe_with_null_callbacks_still_ends) {
  counter k = {0};
  rx_dispose(rx_subscribe_single(INTS(1), NULL, NULL, &k, counter_free));
  rx_dispose(rx_subscribe_maybe(INTS(1), NULL, NULL, NULL, &k, counter_free));
  rx_dispose(rx_subscribe_maybe(EMPTY(), NULL, NULL, NULL, &k, counter_free));
  rx_dispose(rx_subscribe_completable(EMPTY(), NULL, NULL, &k, counter_free));
  rx_dispose(rx_subscribe_single(INTS(1), NULL, NULL, NULL, NULL));
  CHECK_EQ(k.freed, 4);
  pool_drain();
}

RX_TEST(trait_bad_arguments) {
  rec r;
  CHECK(rx_as_single(NULL) == NULL);
  CHECK(strstr(rx_last_error(), "rx_as_single") != NULL);
  CHECK(rx_as_maybe(NULL) == NULL);
  CHECK(strstr(rx_last_error(), "rx_as_maybe") != NULL);
  CHECK(rx_as_completable(NULL) == NULL);
  CHECK(strstr(rx_last_error(), "rx_as_completable") != NULL);
  CHECK(sub_single(NULL, &r) == NULL);
  CHECK(strstr(rx_last_error(), "rx_subscribe_single") != NULL);
  CHECK(sub_maybe(NULL, &r) == NULL);
  CHECK(strstr(rx_last_error(), "rx_subscribe_maybe") != NULL);
  CHECK(sub_completable(NULL, &r) == NULL);
  CHECK(strstr(rx_last_error(), "rx_subscribe_completable") != NULL);
  CHECK_EQ(r.disposed, 0);
  /* a handle of another kind */
  rx_scheduler *s = rx_test_scheduler_new();
  CHECK(rx_as_single((rx_observable *)s) == NULL);
  CHECK(sub_maybe((rx_observable *)s, &r) == NULL);
  CHECK(rx_last_error() != NULL);
  rx_release(s);
}

/* ---- Signal ---------------------------------------------------------------------------- */

RX_TEST(signal_replaces_error_and_delivers_on_main) {
  rx_observable *src = INTS_THEN_ERROR();
  rx_observable *sig = rx_as_signal(src, rx_int(-1));
  rec a;
  rx_disposable *d = rx_emit(sig, rec_observer(&a));
  CHECK(d != NULL);
  rx_main_run_for(20 * 1000 * 1000);
  CHECK_STR(a.log, "1 -1 |.");
  rx_dispose(d);
  rx_release(sig);
  pool_drain();
}

RX_TEST(signal_does_not_replay_to_late_subscribers_and_shares_the_source) {
  hot h;
  rx_observable *src = hot_new(&h);
  rx_observable *sig = rx_as_signal(src, rx_int(0));
  rec a, b;
  rx_disposable *da = rx_emit(sig, rec_observer(&a));
  hot_next(&h, 1);
  hot_next(&h, 2);
  rx_main_drain();
  rx_disposable *db = rx_emit(sig, rec_observer(&b));
  rx_main_drain();
  hot_next(&h, 3);
  rx_main_drain();
  CHECK_STR(a.log, "1 2 3");
  CHECK_STR(b.log, "3");
  CHECK_EQ(h.subscribed, 1);
  rx_dispose(da);
  rx_dispose(db);
  CHECK_EQ(h.disposed, 1);
  hot_end(&h);
  rx_release(sig);
  rx_release(src);
}

RX_TEST(signal_bad_arguments_and_emit_rejects_other_observables) {
  rec a;
  CHECK(rx_as_signal(NULL, rx_int(0)) == NULL);
  CHECK(strstr(rx_last_error(), "rx_as_signal") != NULL);
  CHECK(rx_emit(NULL, rec_observer(&a)) == NULL);
  CHECK(strstr(rx_last_error(), "rx_emit") != NULL);
  rx_observable *src = EMPTY();
  CHECK(rx_emit(src, rec_observer(&a)) == NULL);
  CHECK(strstr(rx_last_error(), "rx_as_signal") != NULL);
  rx_observable *drv = A(rx_as_driver(src, rx_int(0)));
  CHECK(rx_emit(drv, rec_observer(&a)) == NULL);
  rx_observable *sig = A(rx_as_signal(src, rx_int(0)));
  CHECK(rx_drive(sig, rec_observer(&a)) == NULL);
  CHECK_EQ(a.disposed, 0);
  pool_drain();
}
