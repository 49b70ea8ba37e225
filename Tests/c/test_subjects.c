/*
 * test_subjects.c — the subjects and relays through the C ABI (rxc.h section 7):
 * RxSwift's PublishSubjectTest, BehaviorSubjectTest, ReplaySubjectTest and AsyncSubjectTest
 * cases written out, relays, rx_subject_value, lifecycles (on_disposed exactly once and
 * last, ctx freed), bad input, and concurrent and re-entrant emission.
 */
#define _GNU_SOURCE
#include <sched.h>

#include "rxtest.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

/* ---- a recording observer ----------------------------------------------------------- */

/* Writes what it sees as text: "1 2 C D" (next 1, next 2, completed, disposed); an error is
   E<code>; a string value is 's'. Anything after on_disposed is counted as a violation. */
typedef struct rec {
  char log[2048];
  size_t len;
  int disposed;
  int after_disposed;
  rx_subject *emit_into; /* for re-entrant tests */
  rx_disposable *token;  /* for self-disposing tests */
  int dispose_at;        /* dispose `token` when this int arrives (0: never) */
  const char *name;      /* prefix for shared traces */
  struct rec *trace;     /* if set, also append to this shared log */
} rec;

static void rec_put(rec *r, const char *s) {
  if (r->disposed) r->after_disposed++;
  size_t n = strlen(s);
  if (r->len + n + 2 < sizeof r->log) {
    if (r->len) r->log[r->len++] = ' ';
    memcpy(r->log + r->len, s, n);
    r->len += n;
    r->log[r->len] = '\0';
  }
}

static void rec_on_next(void *ctx, rx_value v) {
  rec *r = ctx;
  char buf[128];
  if (v.kind == RX_INT) snprintf(buf, sizeof buf, "%" PRId64, v.i);
  else if (v.kind == RX_STRING) snprintf(buf, sizeof buf, "'%s'", rx_value_string(v));
  else snprintf(buf, sizeof buf, "kind%d", (int)v.kind);
  rec_put(r, buf);
  if (r->trace) {
    char t[160];
    snprintf(t, sizeof t, "%s%s", r->name, buf);
    rec_put(r->trace, t);
  }
  if (r->dispose_at != 0 && v.kind == RX_INT && v.i == r->dispose_at && r->token) {
    rx_disposable *t = r->token;
    r->token = NULL;
    CHECK_OK(rx_dispose(t));
  }
}

static void rec_on_error(void *ctx, const rx_error *e) {
  char buf[32];
  snprintf(buf, sizeof buf, "E%d", (int)rx_error_code(e));
  rec_put(ctx, buf);
}

static void rec_on_completed(void *ctx) { rec_put(ctx, "C"); }

static void rec_on_disposed(void *ctx) {
  rec *r = ctx;
  rec_put(r, "D");
  r->disposed++;
}

static rx_observer obs(rec *r) {
  rx_observer o = {rec_on_next, rec_on_error, rec_on_completed, rec_on_disposed, r};
  return o;
}

/* Subscribes r to subject s; the token is owned by the caller. */
static rx_disposable *sub(rx_subject *s, rec *r) {
  rx_observable *o = rx_subject_as_observable(s);
  CHECK(o != NULL);
  rx_disposable *d = rx_subscribe(o, obs(r));
  CHECK(d != NULL);
  return d;
}

static void next(rx_subject *s, int64_t v) { CHECK_OK(rx_subject_on_next(s, RX_INT(v))); }

/* Loop counts for the stress-like tests: smaller under valgrind (rxtest_scale) and under the
   sanitizers, whose debug builds run the core unspecialized (a metadata lookup per call). */
static int64_t subj_scale(int64_t n, int64_t divisor) {
  if (getenv("RXTEST_SANITIZER") != NULL) return n / 20 > 0 ? n / 20 : 1;
  return rxtest_scale(n, divisor);
}

static void check_last_error_set(void) {
  const char *m = rx_last_error();
  CHECK(m != NULL);
  CHECK_MSG(m[0] != '\0', "rx_last_error() is empty");
}

/* ---- publish subject (PublishSubjectTest) ------------------------------------------ */

RX_TEST(subject_publish_delivers_then_completes) {
  rx_subject *s = rx_publish_subject_new();
  CHECK(s != NULL);
  rec a = {0};
  rx_disposable *d = sub(s, &a);
  next(s, 1);
  next(s, 2);
  CHECK_OK(rx_subject_on_completed(s));
  CHECK_STR(a.log, "1 2 C D");
  CHECK_OK(rx_dispose(d));
  CHECK_STR(a.log, "1 2 C D");
  CHECK_EQ(a.disposed, 1);
  rx_release(s);
}

RX_TEST(subject_publish_subscribers_at_various_points) {
  rx_subject *s = rx_publish_subject_new();
  rec a = {0}, b = {0}, c = {0};
  next(s, 1); /* nobody listening */
  rx_disposable *da = sub(s, &a);
  next(s, 2);
  rx_disposable *db = sub(s, &b);
  next(s, 3);
  CHECK_OK(rx_dispose(da));
  next(s, 4);
  rx_disposable *dc = sub(s, &c);
  next(s, 5);
  CHECK_OK(rx_subject_on_completed(s));
  CHECK_STR(a.log, "2 3 D");
  CHECK_STR(b.log, "3 4 5 C D");
  CHECK_STR(c.log, "5 C D");
  CHECK_OK(rx_dispose(db));
  CHECK_OK(rx_dispose(dc));
  rx_release(s);
}

RX_TEST(subject_publish_error_reaches_observers_and_late_subscribers) {
  rx_subject *s = rx_publish_subject_new();
  rec a = {0}, late = {0};
  rx_disposable *da = sub(s, &a);
  next(s, 1);
  rx_error *e = rx_error_new(RX_ERROR_USER + 7, "boom");
  CHECK_OK(rx_subject_on_error(s, e));
  rx_release(e);
  rx_disposable *dl = sub(s, &late);
  CHECK_STR(a.log, "1 E1007 D");
  CHECK_STR(late.log, "E1007 D");
  CHECK_OK(rx_dispose(da));
  CHECK_OK(rx_dispose(dl));
  rx_release(s);
}

static void check_error_message(void *ctx, const rx_error *e) {
  CHECK_STR(rx_error_message(e), "kept message");
  (*(int *)ctx)++;
}

RX_TEST(subject_publish_late_subscriber_gets_the_same_error_object) {
  rx_subject *s = rx_publish_subject_new();
  rx_error *e = rx_error_new(RX_ERROR_USER, "kept message");
  CHECK_OK(rx_subject_on_error(s, e));
  rx_release(e); /* the subject keeps its own reference for late subscribers */
  int seen = 0;
  rx_observer o = {NULL, check_error_message, NULL, NULL, &seen};
  rx_disposable *d = rx_subscribe(rx_subject_as_observable(s), o);
  CHECK_EQ(seen, 1);
  CHECK_OK(rx_dispose(d));
  rx_release(s);
}

RX_TEST(subject_publish_late_subscriber_after_completion_gets_completed) {
  rx_subject *s = rx_publish_subject_new();
  next(s, 1);
  CHECK_OK(rx_subject_on_completed(s));
  rec late = {0};
  rx_disposable *d = sub(s, &late);
  CHECK_STR(late.log, "C D");
  CHECK_OK(rx_dispose(d));
  rx_release(s);
}

RX_TEST(subject_events_after_stop_are_ok_and_ignored) {
  rx_subject *s = rx_publish_subject_new();
  rec a = {0};
  rx_disposable *d = sub(s, &a);
  CHECK_OK(rx_subject_on_completed(s));
  CHECK_OK(rx_subject_on_next(s, RX_INT(9)));
  CHECK_OK(rx_subject_on_completed(s));
  rx_error *e = rx_error_new(1, "x");
  CHECK_OK(rx_subject_on_error(s, e));
  rx_release(e);
  CHECK_STR(a.log, "C D");
  CHECK_OK(rx_dispose(d));
  rx_release(s);
}

RX_TEST(subject_dispose_drops_observers_with_on_disposed_only) {
  rx_subject *s = rx_publish_subject_new();
  rec a = {0}, b = {0};
  rx_disposable *da = sub(s, &a);
  rx_disposable *db = sub(s, &b);
  next(s, 1);
  CHECK_OK(rx_subject_dispose(s));
  CHECK_STR(a.log, "1 D");
  CHECK_STR(b.log, "1 D");
  CHECK(!rx_subject_has_observers(s));
  CHECK_OK(rx_dispose(da));
  CHECK_OK(rx_dispose(db));
  CHECK_EQ(a.disposed, 1);
  CHECK_EQ(a.after_disposed, 0);
  rx_release(s);
}

RX_TEST(subject_calls_after_dispose_return_edisposed) {
  rx_subject *s = rx_publish_subject_new();
  CHECK_OK(rx_subject_dispose(s));
  CHECK_EQ(rx_subject_on_next(s, RX_INT(1)), RX_EDISPOSED);
  check_last_error_set();
  CHECK_EQ(rx_subject_on_completed(s), RX_EDISPOSED);
  rx_error *e = rx_error_new(1, "x");
  CHECK_EQ(rx_subject_on_error(s, e), RX_EDISPOSED);
  rx_release(e);
  rx_release(s);
}

RX_TEST(subject_dispose_twice_is_ok) {
  rx_subject *s = rx_publish_subject_new();
  rec a = {0};
  rx_disposable *d = sub(s, &a);
  CHECK_OK(rx_subject_dispose(s));
  CHECK_OK(rx_subject_dispose(s));
  CHECK_STR(a.log, "D");
  CHECK_OK(rx_dispose(d));
  rx_release(s);
}

RX_TEST(subject_late_subscriber_to_disposed_subject_gets_error_disposed) {
  rx_subject *kinds[6];
  kinds[0] = rx_publish_subject_new();
  kinds[1] = rx_behavior_subject_new(RX_INT(1));
  kinds[2] = rx_replay_subject_new(2);
  kinds[3] = rx_async_subject_new();
  kinds[4] = rx_publish_relay_new();
  kinds[5] = rx_behavior_relay_new(RX_INT(1));
  for (int i = 0; i < 6; i++) {
    rec late = {0};
    CHECK(kinds[i] != NULL);
    CHECK_OK(rx_subject_on_next(kinds[i], RX_INT(5)));
    CHECK_OK(rx_subject_dispose(kinds[i]));
    rx_disposable *d = sub(kinds[i], &late);
    CHECK_MSG(strcmp(late.log, "E1 D") == 0, "kind %d: \"%s\"", i, late.log);
    CHECK_EQ(RX_ERROR_DISPOSED, 1);
    CHECK_OK(rx_dispose(d));
    rx_release(kinds[i]);
  }
}

RX_TEST(subject_dispose_after_completion_gives_disposed_to_late_subscribers) {
  rx_subject *s = rx_publish_subject_new();
  CHECK_OK(rx_subject_on_completed(s));
  CHECK_OK(rx_subject_dispose(s));
  rec late = {0};
  rx_disposable *d = sub(s, &late);
  CHECK_STR(late.log, "E1 D");
  CHECK_OK(rx_dispose(d));
  rx_release(s);
}

RX_TEST(subject_unsubscribe_stops_delivery) {
  rx_subject *s = rx_publish_subject_new();
  rec a = {0}, b = {0};
  rx_disposable *da = sub(s, &a);
  rx_disposable *db = sub(s, &b);
  next(s, 1);
  CHECK_OK(rx_dispose(da));
  CHECK_STR(a.log, "1 D");
  next(s, 2);
  CHECK_OK(rx_subject_dispose(s)); /* a is already gone: nothing more for it */
  CHECK_STR(a.log, "1 D");
  CHECK_STR(b.log, "1 2 D");
  CHECK_OK(rx_dispose(db));
  rx_release(s);
}

RX_TEST(subject_has_observers_tracks_subscriptions) {
  rx_subject *s = rx_publish_subject_new();
  rec a = {0}, b = {0};
  CHECK(!rx_subject_has_observers(s));
  rx_disposable *da = sub(s, &a);
  CHECK(rx_subject_has_observers(s));
  rx_disposable *db = sub(s, &b);
  CHECK_OK(rx_dispose(da));
  CHECK(rx_subject_has_observers(s));
  CHECK_OK(rx_dispose(db));
  CHECK(!rx_subject_has_observers(s));
  rx_disposable *dc = sub(s, &a);
  CHECK_OK(rx_subject_on_completed(s));
  CHECK(!rx_subject_has_observers(s));
  CHECK_OK(rx_dispose(dc));
  rx_release(s);
}

RX_TEST(subject_release_of_last_reference_disposes_it) {
  rx_subject *s = rx_publish_subject_new();
  rec a = {0};
  rx_disposable *d = sub(s, &a);
  next(s, 1);
  rx_release(s);
  CHECK_STR(a.log, "1 D");
  CHECK(rx_disposable_is_disposed(d));
  CHECK_OK(rx_dispose(d)); /* the token outlives the subject */
  CHECK_EQ(a.disposed, 1);
}

RX_TEST(subject_retained_reference_keeps_it_alive) {
  rx_subject *s = rx_publish_subject_new();
  CHECK(rx_retain(s) == s);
  rec a = {0};
  rx_disposable *d = sub(s, &a);
  rx_release(s);
  next(s, 1);
  CHECK_STR(a.log, "1");
  rx_release(s);
  CHECK_STR(a.log, "1 D");
  CHECK_OK(rx_dispose(d));
}

/* ---- as_observable ------------------------------------------------------------------- */

RX_TEST(subject_as_observable_is_borrowed_and_stable) {
  rx_subject *s = rx_behavior_subject_new(RX_INT(3));
  rx_observable *o1 = rx_subject_as_observable(s);
  rx_observable *o2 = rx_subject_as_observable(s);
  CHECK(o1 != NULL);
  CHECK(o1 == o2);
  rec a = {0};
  rx_disposable *d = rx_subscribe(o1, obs(&a));
  CHECK_STR(a.log, "3");
  CHECK_OK(rx_dispose(d));
  rx_release(s); /* releases the borrowed observable too */
}

RX_TEST(subject_as_observable_retained_outlives_the_subject) {
  rx_subject *s = rx_replay_subject_new(4);
  next(s, 1);
  rx_observable *o = rx_retain(rx_subject_as_observable(s));
  CHECK(o != NULL);
  rx_release(s); /* disposes the subject */
  rec late = {0};
  rx_disposable *d = rx_subscribe(o, obs(&late));
  CHECK_STR(late.log, "E1 D");
  CHECK_OK(rx_dispose(d));
  rx_release(o);
}

/* ---- behavior subject (BehaviorSubjectTest) ----------------------------------------- */

RX_TEST(subject_behavior_initial_value_then_updates) {
  rx_subject *s = rx_behavior_subject_new(RX_INT(100));
  rec a = {0};
  rx_disposable *d = sub(s, &a);
  next(s, 1);
  next(s, 2);
  CHECK_STR(a.log, "100 1 2");
  CHECK_OK(rx_dispose(d));
  rx_release(s);
}

RX_TEST(subject_behavior_subscribers_at_various_points) {
  rx_subject *s = rx_behavior_subject_new(RX_INT(0));
  rec a = {0}, b = {0}, c = {0};
  rx_disposable *da = sub(s, &a);
  next(s, 1);
  rx_disposable *db = sub(s, &b);
  next(s, 2);
  CHECK_OK(rx_dispose(da));
  next(s, 3);
  CHECK_OK(rx_subject_on_completed(s));
  rx_disposable *dc = sub(s, &c);
  CHECK_STR(a.log, "0 1 2 D");
  CHECK_STR(b.log, "1 2 3 C D");
  CHECK_STR(c.log, "C D"); /* RxSwift: the stop event only */
  CHECK_OK(rx_dispose(db));
  CHECK_OK(rx_dispose(dc));
  rx_release(s);
}

RX_TEST(subject_behavior_value_follows_and_survives_completion) {
  rx_subject *s = rx_behavior_subject_new(RX_INT(1));
  rx_value v = rx_none();
  rx_error *err = (rx_error *)0x1;
  CHECK_OK(rx_subject_value(s, &v, &err));
  CHECK_EQ(v.kind, RX_INT);
  CHECK_EQ(v.i, 1);
  CHECK(err == NULL);
  next(s, 2);
  CHECK_OK(rx_subject_value(s, &v, NULL));
  CHECK_EQ(v.i, 2);
  CHECK_OK(rx_subject_on_completed(s));
  CHECK_OK(rx_subject_value(s, &v, NULL));
  CHECK_EQ(v.i, 2);
  rx_release(s);
}

RX_TEST(subject_behavior_value_after_error_is_estream) {
  rx_subject *s = rx_behavior_subject_new(RX_INT(1));
  rx_error *e = rx_error_new(RX_ERROR_USER + 1, "failed");
  CHECK_OK(rx_subject_on_error(s, e));
  rx_release(e);
  rx_value v = RX_INT(5);
  rx_error *out = NULL;
  CHECK_EQ(rx_subject_value(s, &v, &out), RX_ESTREAM);
  check_last_error_set();
  CHECK_EQ(v.kind, RX_NONE);
  CHECK(out != NULL);
  CHECK_EQ(rx_error_code(out), RX_ERROR_USER + 1);
  CHECK_STR(rx_error_message(out), "failed");
  rx_release(out);
  CHECK_EQ(rx_subject_value(s, &v, NULL), RX_ESTREAM); /* out_error may be NULL */
  rx_release(s);
}

RX_TEST(subject_behavior_value_after_dispose_is_edisposed) {
  rx_subject *s = rx_behavior_subject_new(RX_INT(1));
  CHECK_OK(rx_subject_dispose(s));
  rx_value v = RX_INT(5);
  rx_error *out = (rx_error *)0x1;
  CHECK_EQ(rx_subject_value(s, &v, &out), RX_EDISPOSED);
  check_last_error_set();
  CHECK_EQ(v.kind, RX_NONE);
  CHECK(out == NULL);
  rx_release(s);
}

RX_TEST(subject_behavior_error_then_dispose_value_is_edisposed) {
  rx_subject *s = rx_behavior_subject_new(RX_INT(1));
  rx_error *e = rx_error_new(RX_ERROR_USER, "x");
  CHECK_OK(rx_subject_on_error(s, e));
  rx_release(e);
  CHECK_OK(rx_subject_dispose(s));
  rx_value v;
  CHECK_EQ(rx_subject_value(s, &v, NULL), RX_EDISPOSED);
  rx_release(s);
}

RX_TEST(subject_value_on_other_sorts_is_ehandle) {
  rx_subject *others[4] = {rx_publish_subject_new(), rx_replay_subject_new(1),
                           rx_async_subject_new(), rx_publish_relay_new()};
  for (int i = 0; i < 4; i++) {
    rx_value v;
    CHECK_EQ(rx_subject_value(others[i], &v, NULL), RX_EHANDLE);
    check_last_error_set();
    rx_release(others[i]);
  }
}

RX_TEST(subject_value_with_null_out_is_einval) {
  rx_subject *s = rx_behavior_subject_new(RX_INT(1));
  CHECK_EQ(rx_subject_value(s, NULL, NULL), RX_EINVAL);
  check_last_error_set();
  rx_value v;
  CHECK_EQ(rx_subject_value(NULL, &v, NULL), RX_EINVAL);
  rx_release(s);
}

RX_TEST(subject_behavior_string_values_are_owned_and_freed) {
  rx_value first = rx_string("first");
  rx_subject *s = rx_behavior_subject_new(first);
  rx_value_release(first); /* the subject retained its own reference */
  rec a = {0};
  rx_disposable *d = sub(s, &a);
  rx_value second = rx_string("second");
  CHECK_OK(rx_subject_on_next(s, second));
  rx_value_release(second);
  rx_value v;
  CHECK_OK(rx_subject_value(s, &v, NULL));
  CHECK_EQ(v.kind, RX_STRING);
  CHECK_STR(rx_value_string(v), "second");
  rx_value_release(v);
  CHECK_STR(a.log, "'first' 'second'");
  CHECK_OK(rx_dispose(d));
  rx_release(s);
}

RX_TEST(subject_behavior_new_with_bad_value_is_null) {
  rx_value bad = {.kind = RX_STRING, .i = 0};
  CHECK(rx_behavior_subject_new(bad) == NULL);
  check_last_error_set();
  rx_value badkind = {.kind = (rx_kind)77, .i = 0};
  CHECK(rx_behavior_relay_new(badkind) == NULL);
  check_last_error_set();
}

/* ---- replay subject (ReplaySubjectTest) --------------------------------------------- */

static void replay_case(rx_subject *s, int n, const char *expected) {
  for (int i = 1; i <= n; i++) next(s, i);
  rec a = {0};
  rx_disposable *d = sub(s, &a);
  CHECK_STR(a.log, expected);
  CHECK_OK(rx_dispose(d));
  rx_release(s);
}

RX_TEST(subject_replay_buffer_one) { replay_case(rx_replay_subject_new(1), 5, "5"); }
RX_TEST(subject_replay_buffer_three) { replay_case(rx_replay_subject_new(3), 5, "3 4 5"); }
RX_TEST(subject_replay_buffer_larger_than_count) {
  replay_case(rx_replay_subject_new(10), 3, "1 2 3");
}
RX_TEST(subject_replay_unbounded) {
  replay_case(rx_replay_subject_new_unbounded(), 12, "1 2 3 4 5 6 7 8 9 10 11 12");
}

RX_TEST(subject_replay_subscribers_at_various_points) {
  rx_subject *s = rx_replay_subject_new(3);
  rec a = {0}, b = {0}, c = {0};
  rx_disposable *da = sub(s, &a);
  for (int i = 1; i <= 4; i++) next(s, i);
  rx_disposable *db = sub(s, &b);
  next(s, 5);
  CHECK_OK(rx_dispose(da));
  next(s, 6);
  CHECK_OK(rx_subject_on_completed(s));
  rx_disposable *dc = sub(s, &c);
  CHECK_STR(a.log, "1 2 3 4 5 D");
  CHECK_STR(b.log, "2 3 4 5 6 C D");
  CHECK_STR(c.log, "4 5 6 C D");
  CHECK_OK(rx_dispose(db));
  CHECK_OK(rx_dispose(dc));
  rx_release(s);
}

RX_TEST(subject_replay_after_error_gives_buffer_then_error) {
  rx_subject *s = rx_replay_subject_new(2);
  for (int i = 1; i <= 3; i++) next(s, i);
  rx_error *e = rx_error_new(RX_ERROR_USER + 2, "e");
  CHECK_OK(rx_subject_on_error(s, e));
  rx_release(e);
  rec late = {0};
  rx_disposable *d = sub(s, &late);
  CHECK_STR(late.log, "2 3 E1002 D");
  CHECK_OK(rx_dispose(d));
  rx_release(s);
}

RX_TEST(subject_replay_new_zero_is_einval) {
  CHECK(rx_replay_subject_new(0) == NULL);
  check_last_error_set();
}

RX_TEST(subject_replay_boxed_values_freed_on_dispose) {
  int64_t before = rx_debug_live_objects();
  rx_subject *s = rx_replay_subject_new_unbounded();
  for (int i = 0; i < 10; i++) {
    rx_value v = rx_string("payload");
    CHECK_OK(rx_subject_on_next(s, v));
    rx_value_release(v);
  }
  CHECK(rx_debug_live_objects() >= before + 10); /* the buffer holds them */
  CHECK_OK(rx_subject_dispose(s));
  rx_release(s);
  CHECK_EQ(rx_debug_live_objects(), before);
}

RX_TEST(subject_replay_self_dispose_during_replay) {
  rx_subject *s = rx_replay_subject_new_unbounded();
  for (int i = 1; i <= 5; i++) next(s, i);
  CHECK_OK(rx_subject_on_completed(s));
  rec a = {0};
  /* The token only exists after the replay: a late subscriber sees it all. */
  rx_disposable *d = sub(s, &a);
  CHECK_STR(a.log, "1 2 3 4 5 C D");
  CHECK_OK(rx_dispose(d));
  rx_release(s);
}

/* ---- async subject (AsyncSubjectTest) ----------------------------------------------- */

RX_TEST(subject_async_last_value_on_completion) {
  rx_subject *s = rx_async_subject_new();
  rec a = {0}, b = {0}, late = {0};
  rx_disposable *da = sub(s, &a);
  next(s, 1);
  next(s, 2);
  rx_disposable *db = sub(s, &b);
  next(s, 3);
  CHECK_STR(a.log, "");
  CHECK_OK(rx_subject_on_completed(s));
  CHECK_STR(a.log, "3 C D");
  CHECK_STR(b.log, "3 C D");
  rx_disposable *dl = sub(s, &late);
  CHECK_STR(late.log, "3 C D");
  CHECK_OK(rx_dispose(da));
  CHECK_OK(rx_dispose(db));
  CHECK_OK(rx_dispose(dl));
  rx_release(s);
}

RX_TEST(subject_async_empty_gives_completed) {
  rx_subject *s = rx_async_subject_new();
  rec a = {0}, late = {0};
  rx_disposable *da = sub(s, &a);
  CHECK_OK(rx_subject_on_completed(s));
  rx_disposable *dl = sub(s, &late);
  CHECK_STR(a.log, "C D");
  CHECK_STR(late.log, "C D");
  CHECK_OK(rx_dispose(da));
  CHECK_OK(rx_dispose(dl));
  rx_release(s);
}

RX_TEST(subject_async_error_gives_error_only) {
  rx_subject *s = rx_async_subject_new();
  rec a = {0}, late = {0};
  rx_disposable *da = sub(s, &a);
  next(s, 1);
  rx_error *e = rx_error_new(RX_ERROR_USER + 3, "e");
  CHECK_OK(rx_subject_on_error(s, e));
  rx_release(e);
  rx_disposable *dl = sub(s, &late);
  CHECK_STR(a.log, "E1003 D");
  CHECK_STR(late.log, "E1003 D");
  CHECK_OK(rx_dispose(da));
  CHECK_OK(rx_dispose(dl));
  rx_release(s);
}

RX_TEST(subject_async_dispose_drops_observers) {
  rx_subject *s = rx_async_subject_new();
  rec a = {0};
  rx_disposable *da = sub(s, &a);
  next(s, 1);
  rx_release(s);
  CHECK_STR(a.log, "D");
  CHECK_OK(rx_dispose(da));
}

/* ---- relays -------------------------------------------------------------------------- */

RX_TEST(subject_publish_relay_forwards_and_never_terminates) {
  rx_subject *r = rx_publish_relay_new();
  CHECK(r != NULL);
  rec a = {0};
  rx_disposable *d = sub(r, &a);
  next(r, 1);
  rx_error *e = rx_error_new(1, "x");
  CHECK_EQ(rx_subject_on_error(r, e), RX_ESTATE);
  check_last_error_set();
  CHECK_EQ(rx_subject_on_completed(r), RX_ESTATE);
  check_last_error_set();
  next(r, 2);
  CHECK_STR(a.log, "1 2");
  CHECK_OK(rx_subject_dispose(r));
  CHECK_EQ(rx_subject_on_error(r, NULL), RX_EINVAL); /* bad input is still bad input */
  CHECK_EQ(rx_subject_on_error(r, e), RX_ESTATE); /* in every state */
  CHECK_EQ(rx_subject_on_completed(r), RX_ESTATE);
  CHECK_EQ(rx_subject_on_next(r, RX_INT(3)), RX_EDISPOSED);
  CHECK_STR(a.log, "1 2 D");
  rx_release(e);
  CHECK_OK(rx_dispose(d));
  rx_release(r);
}

RX_TEST(subject_behavior_relay_value_and_late_subscribers) {
  rx_subject *r = rx_behavior_relay_new(RX_INT(10));
  rec a = {0}, b = {0};
  rx_disposable *da = sub(r, &a);
  next(r, 11);
  rx_value v;
  CHECK_OK(rx_subject_value(r, &v, NULL));
  CHECK_EQ(v.i, 11);
  rx_disposable *db = sub(r, &b);
  next(r, 12);
  CHECK_EQ(rx_subject_on_completed(r), RX_ESTATE);
  CHECK_STR(a.log, "10 11 12");
  CHECK_STR(b.log, "11 12");
  CHECK_OK(rx_subject_dispose(r));
  CHECK_EQ(rx_subject_value(r, &v, NULL), RX_EDISPOSED);
  CHECK_STR(a.log, "10 11 12 D");
  CHECK_OK(rx_dispose(da));
  CHECK_OK(rx_dispose(db));
  rx_release(r);
}

/* ---- lifecycles ---------------------------------------------------------------------- */

typedef struct heap_ctx {
  int events;
  int *disposed_count; /* outlives the ctx */
} heap_ctx;

static void heap_on_next(void *ctx, rx_value v) {
  (void)v;
  ((heap_ctx *)ctx)->events++;
}
static void heap_on_disposed(void *ctx) {
  heap_ctx *c = ctx;
  (*c->disposed_count)++;
  free(c); /* a second call would be a double free (valgrind) */
}

RX_TEST(subject_on_disposed_frees_ctx_once_on_every_path) {
  int disposed = 0;
  /* 1: terminal event, then token dispose */
  rx_subject *s = rx_publish_subject_new();
  heap_ctx *c1 = calloc(1, sizeof *c1);
  c1->disposed_count = &disposed;
  rx_observer o1 = {heap_on_next, NULL, NULL, heap_on_disposed, c1};
  rx_disposable *d1 = rx_subscribe(rx_subject_as_observable(s), o1);
  next(s, 1);
  CHECK_OK(rx_subject_on_completed(s));
  CHECK_EQ(disposed, 1);
  CHECK_OK(rx_dispose(d1));
  CHECK_EQ(disposed, 1);
  rx_release(s);
  /* 2: token dispose, then subject dispose */
  s = rx_behavior_subject_new(RX_INT(1));
  heap_ctx *c2 = calloc(1, sizeof *c2);
  c2->disposed_count = &disposed;
  rx_observer o2 = {heap_on_next, NULL, NULL, heap_on_disposed, c2};
  rx_disposable *d2 = rx_subscribe(rx_subject_as_observable(s), o2);
  CHECK_OK(rx_dispose(d2));
  CHECK_EQ(disposed, 2);
  CHECK_OK(rx_subject_dispose(s));
  CHECK_EQ(disposed, 2);
  rx_release(s);
  /* 3: subject released, then token dispose */
  s = rx_replay_subject_new(1);
  heap_ctx *c3 = calloc(1, sizeof *c3);
  c3->disposed_count = &disposed;
  rx_observer o3 = {heap_on_next, NULL, NULL, heap_on_disposed, c3};
  rx_disposable *d3 = rx_subscribe(rx_subject_as_observable(s), o3);
  rx_release(s);
  CHECK_EQ(disposed, 3);
  CHECK_OK(rx_dispose(d3));
  CHECK_EQ(disposed, 3);
  /* 4: late subscriber of a disposed subject */
  s = rx_async_subject_new();
  CHECK_OK(rx_subject_dispose(s));
  heap_ctx *c4 = calloc(1, sizeof *c4);
  c4->disposed_count = &disposed;
  rx_observer o4 = {heap_on_next, NULL, NULL, heap_on_disposed, c4};
  rx_disposable *d4 = rx_subscribe(rx_subject_as_observable(s), o4);
  CHECK_EQ(disposed, 4);
  CHECK_OK(rx_dispose(d4));
  rx_release(s);
  CHECK_EQ(disposed, 4);
}

RX_TEST(subject_on_disposed_is_last_after_terminal_event) {
  rx_subject *s = rx_replay_subject_new(2);
  next(s, 1);
  rec a = {0};
  rx_disposable *d = sub(s, &a);
  rx_error *e = rx_error_new(RX_ERROR_USER, "x");
  CHECK_OK(rx_subject_on_error(s, e));
  rx_release(e);
  CHECK_OK(rx_subject_dispose(s));
  CHECK_OK(rx_dispose(d));
  CHECK_STR(a.log, "1 E1000 D");
  CHECK_EQ(a.disposed, 1);
  CHECK_EQ(a.after_disposed, 0);
  rx_release(s);
}

/* ---- bad input ----------------------------------------------------------------------- */

RX_TEST(subject_null_arguments) {
  rx_value v;
  CHECK_EQ(rx_subject_on_next(NULL, RX_INT(1)), RX_EINVAL);
  check_last_error_set();
  CHECK_EQ(rx_subject_on_completed(NULL), RX_EINVAL);
  CHECK_EQ(rx_subject_on_error(NULL, NULL), RX_EINVAL);
  CHECK(rx_subject_as_observable(NULL) == NULL);
  CHECK_EQ(rx_subject_value(NULL, &v, NULL), RX_EINVAL);
  CHECK(!rx_subject_has_observers(NULL));
  CHECK_EQ(rx_subject_dispose(NULL), RX_EINVAL);
  check_last_error_set();
  rx_subject *s = rx_publish_subject_new();
  CHECK_EQ(rx_subject_on_error(s, NULL), RX_EINVAL);
  check_last_error_set();
  rx_value bad = {.kind = RX_STRING, .i = 0};
  CHECK_EQ(rx_subject_on_next(s, bad), RX_EINVAL);
  check_last_error_set();
  rx_release(s);
}

RX_TEST(subject_wrong_handle_kind_is_ehandle) {
  rx_observable *o = rx_just(RX_INT(1));
  rx_subject *fake = (rx_subject *)o;
  rx_value v;
  CHECK_EQ(rx_subject_on_next(fake, RX_INT(1)), RX_EHANDLE);
  check_last_error_set();
  CHECK(strstr(rx_last_error(), "rx_subject_on_next") != NULL);
  CHECK_EQ(rx_subject_on_completed(fake), RX_EHANDLE);
  CHECK_EQ(rx_subject_value(fake, &v, NULL), RX_EHANDLE);
  CHECK(rx_subject_as_observable(fake) == NULL);
  CHECK(!rx_subject_has_observers(fake));
  CHECK_EQ(rx_subject_dispose(fake), RX_EHANDLE);
  rx_error *e = rx_error_new(1, "x");
  CHECK_EQ(rx_subject_on_error((rx_subject *)e, e), RX_EHANDLE);
  /* and a subject where an error is expected */
  rx_subject *s = rx_publish_subject_new();
  CHECK_EQ(rx_subject_on_error(s, (const rx_error *)s), RX_EHANDLE);
  check_last_error_set();
  CHECK(!rx_subject_has_observers(s)); /* no state change */
  rx_release(s);
  rx_release(e);
  rx_release(o);
}

RX_TEST(subject_garbage_memory_is_ehandle) {
  _Alignas(16) unsigned char zeros[64] = {0};
  _Alignas(16) unsigned char junk[64];
  for (size_t i = 0; i < sizeof junk; i++) junk[i] = (unsigned char)(i * 37 + 11);
  void *ptrs[3] = {zeros, junk, zeros + 1};
  for (int i = 0; i < 3; i++) {
    rx_subject *s = ptrs[i];
    rx_value v;
    CHECK_EQ(rx_subject_on_next(s, RX_INT(1)), RX_EHANDLE);
    check_last_error_set();
    CHECK_EQ(rx_subject_on_completed(s), RX_EHANDLE);
    CHECK_EQ(rx_subject_value(s, &v, NULL), RX_EHANDLE);
    CHECK(rx_subject_as_observable(s) == NULL);
    CHECK(!rx_subject_has_observers(s));
    CHECK_EQ(rx_subject_dispose(s), RX_EHANDLE);
  }
}

/* RXC_DEBUG keeps released handles allocated for ever: keep this one reachable, so
   valgrind does not count the intended leak as a lost block. */
static rx_subject *volatile poisoned_subject;

RX_TEST(subject_use_after_release_is_reported_under_rxc_debug) {
  setenv("RXC_DEBUG", "1", 1); /* read at the first release, which has not happened yet */
  rx_subject *s = rx_publish_subject_new();
  poisoned_subject = s;
  rx_release(s);
  CHECK_EQ(rx_subject_on_next(s, RX_INT(1)), RX_EHANDLE);
  CHECK(strstr(rx_last_error(), "released") != NULL);
  CHECK_EQ(rx_subject_dispose(s), RX_EHANDLE);
  rx_release(s); /* double release: reported, no crash */
  check_last_error_set();
}

/* ---- re-entrant emission ------------------------------------------------------------- */

static void reentrant_on_next(void *ctx, rx_value v) {
  rec *r = ctx;
  char buf[32];
  snprintf(buf, sizeof buf, "%s%" PRId64 "<", r->name, v.i);
  rec_put(r->trace, buf);
  if (v.i == 1) {
    CHECK_OK(rx_subject_on_next(r->emit_into, RX_INT(2)));
    CHECK_OK(rx_subject_on_next(r->emit_into, RX_INT(3)));
  }
  snprintf(buf, sizeof buf, ">%s%" PRId64, r->name, v.i);
  rec_put(r->trace, buf);
}

RX_TEST(subject_reentrant_emission_is_delivered_after_the_current_event) {
  rx_subject *s = rx_publish_subject_new();
  rec trace = {0};
  rec a = {.name = "a", .trace = &trace, .emit_into = s};
  rec b = {.name = "b", .trace = &trace};
  rx_observer oa = {reentrant_on_next, NULL, NULL, NULL, &a};
  rx_disposable *da = rx_subscribe(rx_subject_as_observable(s), oa);
  rx_disposable *db = sub(s, &b);
  next(s, 1);
  CHECK_STR(trace.log, "a1< >a1 b1 a2< >a2 b2 a3< >a3 b3");
  CHECK_OK(rx_dispose(da));
  CHECK_OK(rx_dispose(db));
  rx_release(s);
}

static void complete_on_one(void *ctx, rx_value v) {
  rec *r = ctx;
  rec_on_next(ctx, v);
  if (v.i == 1) {
    CHECK_OK(rx_subject_on_completed(r->emit_into));
    CHECK_OK(rx_subject_on_next(r->emit_into, RX_INT(99))); /* after the stop: ignored */
  }
}

RX_TEST(subject_reentrant_completion_is_ordered_after_current_event) {
  rx_subject *s = rx_behavior_subject_new(RX_INT(0));
  rec a = {.emit_into = s}, b = {0};
  rx_observer oa = {complete_on_one, rec_on_error, rec_on_completed, rec_on_disposed, &a};
  rx_disposable *da = rx_subscribe(rx_subject_as_observable(s), oa);
  rx_disposable *db = sub(s, &b);
  next(s, 1);
  CHECK_STR(a.log, "0 1 C D");
  CHECK_STR(b.log, "0 1 C D");
  CHECK_OK(rx_dispose(da));
  CHECK_OK(rx_dispose(db));
  rx_release(s);
}

typedef struct subscribing_ctx {
  rx_subject *subject;
  rec *late;
  rx_disposable *late_token;
} subscribing_ctx;

static void subscribe_on_one(void *ctx, rx_value v) {
  subscribing_ctx *c = ctx;
  if (v.i == 1) c->late_token = sub(c->subject, c->late);
}

RX_TEST(subject_subscribe_from_inside_callback_sees_later_events) {
  rx_subject *s = rx_publish_subject_new();
  rec late = {0};
  subscribing_ctx c = {s, &late, NULL};
  rx_observer o = {subscribe_on_one, NULL, NULL, NULL, &c};
  rx_disposable *d = rx_subscribe(rx_subject_as_observable(s), o);
  next(s, 1);
  next(s, 2);
  CHECK_STR(late.log, "2");
  CHECK(c.late_token != NULL);
  CHECK_OK(rx_dispose(c.late_token));
  CHECK_OK(rx_dispose(d));
  rx_release(s);
}

RX_TEST(subject_behavior_subscribe_from_inside_callback_gets_current_value) {
  rx_subject *s = rx_behavior_subject_new(RX_INT(0));
  rec late = {0};
  subscribing_ctx c = {s, &late, NULL};
  rx_observer o = {subscribe_on_one, NULL, NULL, NULL, &c};
  rx_disposable *d = rx_subscribe(rx_subject_as_observable(s), o);
  next(s, 1);
  next(s, 2);
  CHECK_STR(late.log, "1 2");
  CHECK_OK(rx_dispose(c.late_token));
  CHECK_OK(rx_dispose(d));
  rx_release(s);
}

RX_TEST(subject_dispose_own_token_inside_callback) {
  rx_subject *s = rx_publish_subject_new();
  rec a = {.dispose_at = 2};
  a.token = sub(s, &a);
  next(s, 1);
  next(s, 2);
  next(s, 3);
  CHECK_STR(a.log, "1 2 D");
  CHECK(a.token == NULL);
  CHECK(!rx_subject_has_observers(s));
  rx_release(s);
}

static void dispose_subject_on_one(void *ctx, rx_value v) {
  rec *r = ctx;
  rec_on_next(ctx, v);
  if (v.i == 1) {
    CHECK_OK(rx_subject_dispose(r->emit_into));
    CHECK_EQ(rx_subject_on_next(r->emit_into, RX_INT(5)), RX_EDISPOSED);
  }
}

RX_TEST(subject_dispose_subject_inside_callback) {
  rx_subject *s = rx_replay_subject_new(3);
  rec a = {.emit_into = s}, b = {0};
  rx_observer oa = {dispose_subject_on_one, rec_on_error, rec_on_completed, rec_on_disposed, &a};
  rx_disposable *da = rx_subscribe(rx_subject_as_observable(s), oa);
  rx_disposable *db = sub(s, &b);
  next(s, 1);
  CHECK_STR(a.log, "1 D");
  CHECK_STR(b.log, "1 D");
  CHECK_OK(rx_dispose(da));
  CHECK_OK(rx_dispose(db));
  rx_release(s);
}

static void release_subject_on_completed(void *ctx) {
  rec *r = ctx;
  rec_on_completed(ctx);
  rx_release(r->emit_into); /* the last reference, from inside the subject's own call */
}

RX_TEST(subject_release_last_reference_inside_its_own_callback) {
  rx_subject *s = rx_publish_subject_new();
  rec a = {.emit_into = s}, b = {0};
  rx_observer oa = {rec_on_next, rec_on_error, release_subject_on_completed, rec_on_disposed, &a};
  rx_disposable *da = rx_subscribe(rx_subject_as_observable(s), oa);
  rx_disposable *db = sub(s, &b);
  next(s, 1);
  CHECK_OK(rx_subject_on_completed(s)); /* s is released while this call runs */
  CHECK_STR(a.log, "1 C D");
  CHECK_STR(b.log, "1 C D");
  CHECK_OK(rx_dispose(da));
  CHECK_OK(rx_dispose(db));
}

/* ---- concurrency --------------------------------------------------------------------- */

/* Runs body on a new thread and joins it. For tests whose main thread contends locks with
   other threads: the harness forks each test, and in a forked child the main thread keeps
   its parent's cached thread id, which the Swift runtime's and Synchronization's PI-futex
   locks use as the owner, so a contended hand-off to or from it can hang. */
static void *fresh_thread_trampoline(void *body) {
  ((void (*)(void))body)();
  return NULL;
}

static void on_fresh_thread(void (*body)(void)) {
  pthread_t t;
  CHECK_EQ(pthread_create(&t, NULL, fresh_thread_trampoline, (void *)body), 0);
  pthread_join(t, NULL);
}

enum { PRODUCERS = 4 };

typedef struct conc_obs {
  atomic_int busy;
  atomic_int overlaps;
  int64_t count;
  int64_t last[PRODUCERS];
  int64_t order_errors;
  uint64_t hash; /* order-sensitive: equal hashes mean (almost surely) one order */
  int completed;
  int disposed;
} conc_obs;

static void conc_on_next(void *ctx, rx_value v) {
  conc_obs *c = ctx;
  if (atomic_exchange(&c->busy, 1)) atomic_fetch_add(&c->overlaps, 1);
  int64_t p = v.i / 100000000, i = v.i % 100000000;
  if (p < 0 || p >= PRODUCERS || i != c->last[p] + 1) c->order_errors++;
  else c->last[p] = i;
  c->count++;
  c->hash = (c->hash ^ (uint64_t)v.i) * 1099511628211ull;
  atomic_store(&c->busy, 0);
}
static void conc_on_completed(void *ctx) { ((conc_obs *)ctx)->completed++; }
static void conc_on_disposed(void *ctx) { __atomic_fetch_add(&((conc_obs *)ctx)->disposed, 1, __ATOMIC_RELEASE); }

typedef struct producer {
  rx_subject *s;
  int index;
  int64_t n;
} producer;

static void *produce(void *arg) {
  producer *p = arg;
  for (int64_t i = 0; i < p->n; i++) {
    rx_status st = rx_subject_on_next(p->s, RX_INT(p->index * 100000000LL + i));
    if (st != RX_OK) FAIL("rx_subject_on_next: %d", (int)st);
  }
  return NULL;
}

static void run_producers(rx_subject *s, int64_t n) {
  pthread_t t[PRODUCERS];
  producer p[PRODUCERS];
  for (int i = 0; i < PRODUCERS; i++) {
    p[i] = (producer){s, i, n};
    CHECK_EQ(pthread_create(&t[i], NULL, produce, &p[i]), 0);
  }
  for (int i = 0; i < PRODUCERS; i++) pthread_join(t[i], NULL);
}

static void conc_init(conc_obs *c) {
  memset(c, 0, sizeof *c);
  for (int i = 0; i < PRODUCERS; i++) c->last[i] = -1;
  c->hash = 1469598103934665603ull;
}

RX_TEST(subject_concurrent_emission_from_four_threads) {
  int64_t n = subj_scale(100000, 50);
  rx_subject *s = rx_publish_subject_new();
  conc_obs obs3[3];
  rx_disposable *d[3];
  for (int i = 0; i < 3; i++) {
    conc_init(&obs3[i]);
    rx_observer o = {conc_on_next, NULL, conc_on_completed, conc_on_disposed, &obs3[i]};
    d[i] = rx_subscribe(rx_subject_as_observable(s), o);
  }
  run_producers(s, n);
  CHECK_OK(rx_subject_on_completed(s));
  for (int i = 0; i < 3; i++) {
    CHECK_EQ(obs3[i].count, PRODUCERS * n);
    CHECK_EQ(atomic_load(&obs3[i].overlaps), 0);
    CHECK_EQ(obs3[i].order_errors, 0);
    CHECK_EQ(obs3[i].completed, 1);
    CHECK_EQ(obs3[i].disposed, 1);
    CHECK_MSG(obs3[i].hash == obs3[0].hash, "observer %d saw another order", i);
    CHECK_OK(rx_dispose(d[i]));
  }
  rx_release(s);
}

RX_TEST(subject_concurrent_emission_into_behavior_and_replay) {
  int64_t n = subj_scale(20000, 20);
  rx_subject *subjects[2] = {rx_behavior_subject_new(RX_INT(-1)), rx_replay_subject_new(16)};
  for (int k = 0; k < 2; k++) {
    rx_subject *s = subjects[k];
    conc_obs a, b;
    conc_init(&a);
    conc_init(&b);
    rx_observer oa = {conc_on_next, NULL, conc_on_completed, conc_on_disposed, &a};
    rx_observer ob = {conc_on_next, NULL, conc_on_completed, conc_on_disposed, &b};
    rx_disposable *da = rx_subscribe(rx_subject_as_observable(s), oa);
    rx_disposable *db = rx_subscribe(rx_subject_as_observable(s), ob);
    /* Uncontended subscribe is synchronous: the behavior subject's initial value has
       arrived already; start counting from here. */
    conc_init(&a);
    conc_init(&b);
    run_producers(s, n);
    CHECK_OK(rx_subject_on_completed(s));
    CHECK_EQ(a.count, PRODUCERS * n);
    CHECK_EQ(b.count, PRODUCERS * n);
    CHECK_EQ(a.order_errors + b.order_errors, 0);
    CHECK_EQ(atomic_load(&a.overlaps) + atomic_load(&b.overlaps), 0);
    CHECK(a.hash == b.hash);
    CHECK_EQ(a.disposed + b.disposed, 2);
    CHECK_OK(rx_dispose(da));
    CHECK_OK(rx_dispose(db));
    rx_release(s);
  }
}

static void *complete_or_fail(void *arg) {
  producer *p = arg;
  rx_status st;
  if (p->index % 2 == 0) {
    st = rx_subject_on_completed(p->s);
  } else {
    rx_error *e = rx_error_new(RX_ERROR_USER, "race");
    st = rx_subject_on_error(p->s, e);
    rx_release(e);
  }
  if (st != RX_OK) FAIL("stop event: %d", (int)st);
  return NULL;
}

RX_TEST(subject_concurrent_stop_events_deliver_exactly_one) {
  for (int round = 0; round < 20; round++) {
    rx_subject *s = rx_replay_subject_new(1);
    rec a = {0};
    rx_disposable *d = sub(s, &a);
    pthread_t t[PRODUCERS];
    producer p[PRODUCERS];
    for (int i = 0; i < PRODUCERS; i++) {
      p[i] = (producer){s, i, 0};
      CHECK_EQ(pthread_create(&t[i], NULL, complete_or_fail, &p[i]), 0);
    }
    for (int i = 0; i < PRODUCERS; i++) pthread_join(t[i], NULL);
    CHECK_MSG(strcmp(a.log, "C D") == 0 || strcmp(a.log, "E1000 D") == 0, "got \"%s\"", a.log);
    CHECK_OK(rx_dispose(d));
    rx_release(s);
  }
}

typedef struct churn {
  rx_subject *s;
  atomic_int *stop;
  int rounds;
} churn;

static void *subscribe_churn(void *arg) {
  churn *c = arg;
  /* Bounded: a drainer delivers what others queue meanwhile, so churning "until the
     producer is done" could keep the producer draining churn forever on a slow machine. */
  while ((!atomic_load(c->stop) || c->rounds < 50) && c->rounds < subj_scale(20000, 50)) {
    conc_obs o;
    conc_init(&o);
    rx_observer ob = {NULL, NULL, conc_on_completed, conc_on_disposed, &o};
    rx_disposable *d = rx_subscribe(rx_subject_as_observable(c->s), ob);
    if (d == NULL) FAIL("rx_subscribe failed");
    rx_dispose(d);
    /* The contract lets on_disposed follow on the delivering thread when it was inside this
       subscription at that moment, so wait for it (o must outlive it), then count it. */
    int64_t until = rxtest_now_ns() + 10000000000LL;
    while (__atomic_load_n(&o.disposed, __ATOMIC_ACQUIRE) == 0 && rxtest_now_ns() < until) sched_yield();
    if (__atomic_load_n(&o.disposed, __ATOMIC_ACQUIRE) != 1) FAIL("on_disposed ran %d times", o.disposed);
    c->rounds++;
  }
  return NULL;
}

static void subject_concurrent_subscribe_dispose_while_emitting_body(void);
RX_TEST(subject_concurrent_subscribe_dispose_while_emitting) { on_fresh_thread(subject_concurrent_subscribe_dispose_while_emitting_body); }

static void subject_concurrent_subscribe_dispose_while_emitting_body(void) {
  int64_t n = subj_scale(50000, 50);
  rx_subject *s = rx_publish_subject_new();
  conc_obs steady;
  conc_init(&steady);
  rx_observer o = {conc_on_next, NULL, conc_on_completed, conc_on_disposed, &steady};
  rx_disposable *d = rx_subscribe(rx_subject_as_observable(s), o);
  atomic_int stop = 0;
  churn c[2] = {{s, &stop, 0}, {s, &stop, 0}};
  pthread_t t[2];
  for (int i = 0; i < 2; i++) CHECK_EQ(pthread_create(&t[i], NULL, subscribe_churn, &c[i]), 0);
  producer p = {s, 0, n};
  produce(&p);
  atomic_store(&stop, 1);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  CHECK_EQ(steady.count, n);
  CHECK_EQ(steady.order_errors, 0);
  CHECK_EQ(atomic_load(&steady.overlaps), 0);
  CHECK_OK(rx_dispose(d));
  CHECK_EQ(steady.disposed, 1);
  CHECK(!rx_subject_has_observers(s));
  rx_release(s);
}

static void *dispose_soon(void *arg) {
  rx_subject *s = arg;
  rxtest_sleep_ms(1);
  if (rx_subject_dispose(s) != RX_OK) FAIL("rx_subject_dispose failed");
  return NULL;
}

static void subject_concurrent_emission_and_dispose_body(void);
RX_TEST(subject_concurrent_emission_and_dispose) { on_fresh_thread(subject_concurrent_emission_and_dispose_body); }

static void subject_concurrent_emission_and_dispose_body(void) {
  for (int round = 0; round < 10; round++) {
    rx_subject *s = rx_behavior_subject_new(RX_INT(0));
    conc_obs a;
    conc_init(&a);
    a.last[0] = -1;
    rx_observer o = {NULL, NULL, conc_on_completed, conc_on_disposed, &a};
    rx_disposable *d = rx_subscribe(rx_subject_as_observable(s), o);
    pthread_t t;
    CHECK_EQ(pthread_create(&t, NULL, dispose_soon, s), 0);
    for (int i = 0; i < 1000000; i++) {
      rx_status st = rx_subject_on_next(s, RX_INT(i));
      if (st == RX_EDISPOSED) break;
      if (st != RX_OK) FAIL("unexpected status %d", (int)st);
    }
    pthread_join(t, NULL);
    CHECK_EQ(rx_subject_on_next(s, RX_INT(1)), RX_EDISPOSED);
    CHECK_EQ(a.disposed, 1);
    CHECK_EQ(a.completed, 0);
    CHECK_OK(rx_dispose(d));
    CHECK_EQ(a.disposed, 1);
    rx_release(s);
  }
}

static void release_subject_on_first_value(void *ctx, rx_value v) {
  rec *r = ctx;
  rec_on_next(ctx, v);
  if (r->emit_into) {
    rx_subject *s = r->emit_into;
    r->emit_into = NULL;
    rx_release(s); /* the last reference, while rx_subscribe delivers the current value */
  }
}

RX_TEST(subject_release_last_reference_inside_subscribe_callback) {
  rx_subject *s = rx_behavior_subject_new(RX_INT(42));
  rec a = {.emit_into = s};
  rx_observer o = {release_subject_on_first_value, rec_on_error, rec_on_completed,
                   rec_on_disposed, &a};
  rx_disposable *d = rx_subscribe(rx_subject_as_observable(s), o);
  CHECK(d != NULL);
  CHECK_STR(a.log, "42 D");
  CHECK_OK(rx_dispose(d));
  CHECK_EQ(a.disposed, 1);
}

typedef struct value_reader {
  rx_subject *s;
  atomic_int done;
  atomic_int started; /* the reader has read once: emission may start (overlap, also under valgrind) */
  int64_t reads;
  int64_t regressions;
} value_reader;

static void *read_values(void *arg) {
  value_reader *r = arg;
  int64_t last = -1;
  while (!atomic_load(&r->done)) {
    rx_value v;
    if (rx_subject_value(r->s, &v, NULL) != RX_OK) FAIL("rx_subject_value failed");
    if (v.kind != RX_INT) FAIL("kind %d", (int)v.kind);
    if (v.i < last) r->regressions++;
    last = v.i;
    r->reads++;
    atomic_store(&r->started, 1);
  }
  return NULL;
}

static void subject_behavior_value_read_from_another_thread_while_emitting_body(void);
RX_TEST(subject_behavior_value_read_from_another_thread_while_emitting) { on_fresh_thread(subject_behavior_value_read_from_another_thread_while_emitting_body); }

static void subject_behavior_value_read_from_another_thread_while_emitting_body(void) {
  int64_t n = subj_scale(200000, 50);
  rx_subject *s = rx_behavior_subject_new(RX_INT(0));
  value_reader r = {.s = s};
  pthread_t t;
  CHECK_EQ(pthread_create(&t, NULL, read_values, &r), 0);
  while (!atomic_load(&r.started)) sched_yield();
  for (int64_t i = 1; i <= n; i++) next(s, i);
  atomic_store(&r.done, 1);
  pthread_join(t, NULL);
  CHECK(r.reads > 0);
  CHECK_EQ(r.regressions, 0);
  rx_value v;
  CHECK_OK(rx_subject_value(s, &v, NULL));
  CHECK_EQ(v.i, n);
  rx_release(s);
}

/* A reader that starts while the subject is already emitting: its first rx_subject_value
   switches the subject's swaps from lock-free to locked (a handshake with the emitting
   thread). Every value it reads must be whole: one of the two that were sent. */
typedef struct late_reader {
  rx_subject *s;
  rx_value boxed;
  atomic_int go, done;
  int64_t reads, bad;
} late_reader;

static void *read_values_late(void *arg) {
  late_reader *r = arg;
  while (!atomic_load(&r->go)) sched_yield();
  while (!atomic_load(&r->done) || r->reads == 0) {
    rx_value v;
    if (rx_subject_value(r->s, &v, NULL) != RX_OK) FAIL("rx_subject_value failed");
    if (v.kind == RX_STRING) {
      if (v.i != r->boxed.i || strcmp(rx_value_string(v), "boxed") != 0) r->bad++;
    } else if (v.kind != RX_INT || v.i < 0) {
      r->bad++;
    }
    rx_value_release(v);
    r->reads++;
  }
  return NULL;
}

RX_TEST(subject_behavior_first_value_read_while_emitting_plain_and_boxed) {
  int64_t before = rx_debug_live_objects();
  rx_value boxed = rx_string("boxed");
  int64_t rounds = subj_scale(40, 10), n = subj_scale(20000, 100);
  for (int64_t round = 0; round < rounds; round++) {
    rx_subject *s = rx_behavior_subject_new(RX_INT(0));
    late_reader r = {.s = s, .boxed = boxed};
    pthread_t t;
    CHECK_EQ(pthread_create(&t, NULL, read_values_late, &r), 0);
    for (int64_t i = 1; i <= n; i++) {
      if (i == n / 4) atomic_store(&r.go, 1);
      CHECK_OK(rx_subject_on_next(s, (i & 1) ? boxed : RX_INT(i)));
    }
    atomic_store(&r.done, 1);
    pthread_join(t, NULL);
    CHECK(r.reads > 0);
    CHECK_EQ(r.bad, 0);
    rx_value v;
    CHECK_OK(rx_subject_value(s, &v, NULL));
    CHECK_EQ((int)v.kind, (int)RX_INT);
    CHECK_EQ(v.i, n);
    rx_release(s);
  }
  rx_value_release(boxed);
  CHECK_EQ(rx_debug_live_objects(), before);
}

static void string_payload_next(void *ctx, rx_value v) {
  if (v.kind != RX_STRING || strcmp(rx_value_string(v), "payload") != 0) FAIL("bad payload");
  atomic_fetch_add((atomic_long *)ctx, 1);
}

typedef struct boxed_producer {
  rx_subject *s;
  rx_value v;
  int64_t n;
} boxed_producer;

static void *produce_boxed(void *arg) {
  boxed_producer *p = arg;
  for (int64_t i = 0; i < p->n; i++)
    if (rx_subject_on_next(p->s, p->v) != RX_OK) FAIL("rx_subject_on_next failed");
  return NULL;
}

RX_TEST(subject_boxed_values_from_several_threads_are_freed_once) {
  int64_t before = rx_debug_live_objects();
  rx_subject *s = rx_replay_subject_new(8);
  atomic_long seen = 0;
  rx_observer o = {string_payload_next, NULL, NULL, NULL, &seen};
  rx_disposable *d = rx_subscribe(rx_subject_as_observable(s), o);
  /* every producer sends the same box: retained by each buffer slot, released once each */
  boxed_producer p = {s, rx_string("payload"), subj_scale(20000, 50)};
  pthread_t t[PRODUCERS];
  for (int i = 0; i < PRODUCERS; i++) CHECK_EQ(pthread_create(&t[i], NULL, produce_boxed, &p), 0);
  for (int i = 0; i < PRODUCERS; i++) pthread_join(t[i], NULL);
  rx_value_release(p.v);
  CHECK_EQ(atomic_load(&seen), PRODUCERS * p.n);
  rec late = {0};
  rx_disposable *dl = sub(s, &late);
  CHECK_STR(late.log, "'payload' 'payload' 'payload' 'payload' 'payload' 'payload' 'payload' 'payload'");
  CHECK_OK(rx_dispose(dl));
  CHECK_OK(rx_dispose(d));
  rx_release(s);
  CHECK_EQ(rx_debug_live_objects(), before);
}

static void release_subject_on_next(void *ctx, rx_value v) {
  rec *r = ctx;
  rec_on_next(ctx, v);
  if (r->emit_into) {
    rx_subject *s = r->emit_into;
    r->emit_into = NULL;
    rx_release(s); /* the last reference, inside rx_subject_on_next's own delivery */
  }
}

RX_TEST(subject_release_last_reference_inside_on_next_callback) {
  rx_subject *subjects[3] = {rx_publish_subject_new(), rx_replay_subject_new(2),
                             rx_behavior_relay_new(RX_INT(0))};
  for (int k = 0; k < 3; k++) {
    rx_subject *s = subjects[k];
    rec a = {.emit_into = s}, b = {0};
    rx_observer oa = {release_subject_on_next, rec_on_error, rec_on_completed, rec_on_disposed, &a};
    rx_disposable *db = sub(s, &b);
    rx_disposable *da = rx_subscribe(rx_subject_as_observable(s), oa);
    if (k == 2) { /* the relay delivered its value (and released itself) on subscribe */
      CHECK_STR(a.log, "0 D");
    } else {
      CHECK_OK(rx_subject_on_next(s, RX_INT(1))); /* s is released while this call runs */
      CHECK_STR(a.log, "1 D");
      CHECK_STR(b.log, "1 D");
    }
    CHECK_OK(rx_dispose(da));
    CHECK_OK(rx_dispose(db));
  }
}
