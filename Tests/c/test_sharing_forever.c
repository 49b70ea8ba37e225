/* rx_share_forever, rx_replay_all, rx_multicast and the replay relay, at virtual times:
 * several subscribers, each with its own log, subscribed and disposed at given times, and
 * the source's subscription intervals (the cases of RxSwift's share-scope and multicast
 * tests). */
#include "ops_vtime.h"

/* A subscriber with a log of its own on the shared scheduler; with `again` set, it
 * subscribes `again` to the same observable when its stream terminates. */
typedef struct sub {
  vt log; /* only .s and .log are used */
  rx_observable *op;
  rx_disposable *token;
  struct sub *again;
  bool ended;
} sub;

static void sub_next(void *ctx, rx_value v) { vt_on_next(&((sub *)ctx)->log, v); }
static void sub_start(sub *s);
static void sub_terminal(sub *s) {
  s->ended = true;
  if (s->again) {
    if (s->token) rx_dispose(s->token);
    s->token = NULL;
    sub_start(s->again);
  }
}
static void sub_error(void *ctx, const rx_error *e) {
  vt_on_error(&((sub *)ctx)->log, e);
  sub_terminal(ctx);
}
static void sub_completed(void *ctx) {
  vt_on_completed(&((sub *)ctx)->log);
  sub_terminal(ctx);
}
static void sub_start(sub *s) {
  rx_observer o = {sub_next, sub_error, sub_completed, NULL, s};
  rx_disposable *t = rx_subscribe(s->op, o);
  if (s->ended) rx_dispose(t); /* ended during the subscribe */
  else s->token = t;
}
static void sub_start_action(void *ctx) { sub_start(ctx); }
static void sub_stop_action(void *ctx) {
  sub *s = ctx;
  if (s->token) rx_dispose(s->token);
  s->token = NULL;
}

static void sub_init(sub *s, vt *v, rx_observable *op) {
  memset(s, 0, sizeof *s);
  s->log.s = v->s;
  s->op = op;
}
static void at(vt *v, int64_t t, void (*fn)(void *), void *ctx) {
  rx_release(rx_schedule_after(v->s, t - rx_scheduler_now_ns(v->s), fn, ctx, NULL));
}
static void sub_between(vt *v, sub *s, int64_t from, int64_t to) {
  at(v, from, sub_start_action, s);
  at(v, to, sub_stop_action, s);
}
static void sub_end(sub *s) {
  if (s->token) rx_dispose(s->token);
}

/* "t:a t:b ..." for the last n of values[0..count) at time t. */
static const char *replayed(char *buf, size_t cap, int64_t t, const int64_t *values, int count, int n, const char *tail) {
  buf[0] = 0;
  for (int k = count - n; k < count; k++) {
    if (k < 0) continue;
    size_t len = strlen(buf);
    snprintf(buf + len, cap - len, "%s%lld:%lld", len ? " " : "", (long long)t, (long long)values[k]);
  }
  size_t len = strlen(buf);
  if (tail && *tail) snprintf(buf + len, cap - len, "%s%s", len ? " " : "", tail);
  return buf;
}

static const int64_t first_six[] = {1, 2, 3, 4, 5, 6};

RX_TEST(share_forever_replays_across_reconnection) {
  for (int n = 0; n < 5; n++) {
    vt v;
    vt_begin(&v);
    vt_src *xs = vt_hot(&v, "210:1 220:2 230:3 240:4 250:5 320:6 550:7");
    rx_observable *ys = rx_share_forever(xs->obs, (size_t)n);
    CHECK(ys != NULL);
    sub a, b, c;
    sub_init(&a, &v, ys), sub_init(&b, &v, ys), sub_init(&c, &v, ys);
    sub_between(&v, &a, 200, 350);
    sub_between(&v, &b, 300, 400);
    sub_between(&v, &c, 500, 600);
    rx_test_scheduler_run(v.s);
    CHECK_STR(a.log.log, "210:1 220:2 230:3 240:4 250:5 320:6");
    char want[256];
    CHECK_STR(b.log.log, replayed(want, sizeof want, 300, first_six, 5, n, "320:6"));
    /* the reconnection at 500 still replays what the first connection saw */
    CHECK_STR(c.log.log, replayed(want, sizeof want, 500, first_six, 6, n, "550:7"));
    CHECK_STR(vt_subs(xs), "200-400 500-600");
    sub_end(&a), sub_end(&b), sub_end(&c);
    rx_release(ys);
    vt_end(&v);
  }
}

/* After the source terminated, late subscribers (also from inside the terminal callback)
 * get the replay and the terminal event; the source is not subscribed again. */
static void forever_terminated(const char *spec, const char *end_at_330, const char *end_at_500) {
  for (int n = 0; n < 5; n++) {
    vt v;
    vt_begin(&v);
    vt_src *xs = vt_hot(&v, spec);
    rx_observable *ys = rx_share_forever(xs->obs, (size_t)n);
    sub a, a2, b, b2, c;
    sub_init(&a, &v, ys), sub_init(&a2, &v, ys), sub_init(&b, &v, ys), sub_init(&b2, &v, ys);
    sub_init(&c, &v, ys);
    a.again = &a2, b.again = &b2;
    sub_between(&v, &a, 200, 350);
    sub_between(&v, &b, 300, 400);
    sub_between(&v, &c, 500, 600);
    rx_test_scheduler_run(v.s);
    char want[256], tail[64];
    snprintf(tail, sizeof tail, "320:6 %s", end_at_330);
    snprintf(want, sizeof want, "210:1 220:2 230:3 240:4 250:5 320:6 %s", end_at_330);
    CHECK_STR(a.log.log, want);
    CHECK_STR(b.log.log, replayed(want, sizeof want, 300, first_six, 5, n, tail));
    CHECK_STR(a2.log.log, replayed(want, sizeof want, 330, first_six, 6, n, end_at_330));
    CHECK_STR(b2.log.log, replayed(want, sizeof want, 330, first_six, 6, n, end_at_330));
    CHECK_STR(c.log.log, replayed(want, sizeof want, 500, first_six, 6, n, end_at_500));
    CHECK_STR(vt_subs(xs), "200-330");
    sub_end(&a), sub_end(&a2), sub_end(&b), sub_end(&b2), sub_end(&c);
    rx_release(ys);
    vt_end(&v);
  }
}

RX_TEST(share_forever_completed_is_replayed_to_late_subscribers) {
  forever_terminated("210:1 220:2 230:3 240:4 250:5 320:6 330:| 340:-1 550:7", "330:|", "500:|");
}

RX_TEST(share_forever_error_is_replayed_to_late_subscribers) {
  forever_terminated("210:1 220:2 230:3 240:4 250:5 320:6 330:#7 340:-1 550:7", "330:#7", "500:#7");
}

/* The contrast: rx_share_replay starts afresh after the source terminated. */
RX_TEST(share_replay_resubscribes_where_share_forever_does_not) {
  vt v;
  vt_begin(&v);
  vt_src *xs = vt_cold(&v, "10:1 20:2 30:|");
  rx_observable *whileConnected = rx_share_replay(xs->obs, 1);
  rx_observable *forever = rx_share_forever(xs->obs, 1);
  sub a, b, c, d;
  sub_init(&a, &v, whileConnected), sub_init(&b, &v, whileConnected);
  sub_init(&c, &v, forever), sub_init(&d, &v, forever);
  sub_between(&v, &a, 100, 1000);
  sub_between(&v, &b, 200, 1000);
  sub_between(&v, &c, 300, 1000);
  sub_between(&v, &d, 400, 1000);
  rx_test_scheduler_run(v.s);
  CHECK_STR(a.log.log, "110:1 120:2 130:|");
  CHECK_STR(b.log.log, "210:1 220:2 230:|");
  CHECK_STR(c.log.log, "310:1 320:2 330:|");
  CHECK_STR(d.log.log, "400:2 400:|");
  CHECK_STR(vt_subs(xs), "100-130 200-230 300-330");
  sub_end(&a), sub_end(&b), sub_end(&c), sub_end(&d);
  rx_release(whileConnected), rx_release(forever);
  vt_end(&v);
}

RX_TEST(share_forever_bad_arguments) {
  CHECK(rx_share_forever(NULL, 1) == NULL);
  CHECK(strstr(rx_last_error(), "rx_share_forever") != NULL);
  rx_observable *src = rx_range(0, 3);
  CHECK(rx_share_forever(src, (size_t)INT32_MAX + 1) == NULL);
  CHECK(strstr(rx_last_error(), "too large") != NULL);
  rx_release(src);
}

/* replayAll: every value of the connection, to subscribers arriving at any time. */
RX_TEST(replay_all_connect_then_late_subscribers) {
  vt v;
  vt_begin(&v);
  vt_src *xs = vt_hot(&v, "110:7 220:3 280:4 290:1 340:8 360:5 370:6 390:7 410:13 430:2 450:9 520:11 560:20");
  rx_observable *c = rx_replay_all(xs->obs);
  CHECK(c != NULL);
  rx_disposable *connection = NULL;
  sub a;
  sub_init(&a, &v, c);
  rx_test_scheduler_advance_to(v.s, 250);
  connection = rx_connect(c);
  sub_between(&v, &a, 450, 1000);
  rx_test_scheduler_advance_to(v.s, 400);
  rx_dispose(connection); /* disconnect at 400: the buffer belonged to that connection */
  rx_test_scheduler_run(v.s);
  CHECK_STR(a.log.log, "");
  CHECK_STR(vt_subs(xs), "250-400");
  sub_end(&a);
  rx_release(c);
  vt_end(&v);

  vt_begin(&v);
  xs = vt_hot(&v, "110:7 220:3 280:4 290:1 340:8 360:5 370:6 390:7 410:13 430:2 450:9 520:11 560:20 600:|");
  c = rx_replay_all(xs->obs);
  sub b;
  sub_init(&b, &v, c);
  rx_test_scheduler_advance_to(v.s, 250);
  connection = rx_connect(c);
  sub_between(&v, &b, 450, 1000);
  rx_test_scheduler_run(v.s);
  CHECK_STR(b.log.log, "450:4 450:1 450:8 450:5 450:6 450:7 450:13 450:2 450:9 520:11 560:20 600:|");
  CHECK_STR(vt_subs(xs), "250-600");
  rx_dispose(connection);
  sub_end(&b);
  rx_release(c);
  vt_end(&v);
}

RX_TEST(replay_all_with_ref_count_starts_afresh_per_connection) {
  rx_observable *src = rx_range(1, 3);
  rx_observable *c = rx_replay_all(src);
  rx_observable *shared = rx_ref_count(c);
  CHECK_STR(run_log(rx_retain(shared)), "1 2 3 |.");
  CHECK_STR(run_log(rx_retain(shared)), "1 2 3 |.");
  rx_release(shared), rx_release(c), rx_release(src);
  CHECK(rx_replay_all(NULL) == NULL);
  CHECK(strstr(rx_last_error(), "rx_replay_all") != NULL);
}

/* multicast through the caller's subject: it sees what the subject does, the same subject
 * across connections. */
RX_TEST(multicast_hot_connect_disconnect_reconnect) {
  vt v;
  vt_begin(&v);
  vt_src *xs = vt_hot(&v, "40:0 90:1 150:2 210:3 240:4 270:5 330:6 340:|");
  rx_subject *s = rx_publish_subject_new();
  rx_observable *c = rx_multicast(xs->obs, s);
  CHECK(c != NULL);
  rx_release(s); /* the connectable keeps the subject, undisposed */
  sub a;
  sub_init(&a, &v, c);
  sub_between(&v, &a, 100, 1000);
  rx_test_scheduler_advance_to(v.s, 200);
  rx_disposable *c1 = rx_connect(c);
  rx_test_scheduler_advance_to(v.s, 250);
  rx_dispose(c1);
  rx_test_scheduler_advance_to(v.s, 300);
  rx_disposable *c2 = rx_connect(c);
  rx_test_scheduler_run(v.s);
  CHECK_STR(a.log.log, "210:3 240:4 330:6 340:|");
  CHECK_STR(vt_subs(xs), "200-250 300-340");
  rx_dispose(c2);
  sub_end(&a);
  rx_release(c);
  vt_end(&v);
}

RX_TEST(multicast_subject_terminated_gives_late_subscribers_its_end) {
  rx_observable *src = rx_range(1, 3);
  rx_subject *s = rx_replay_subject_new(2);
  rx_observable *c = rx_multicast(src, s);
  rx_disposable *conn = rx_connect(c);
  CHECK_STR(run_log(rx_retain(c)), "2 3 |.");
  /* ref_count over it: the subject ended, so the source is not subscribed again */
  rx_observable *shared = rx_ref_count(c);
  CHECK_STR(run_log(rx_retain(shared)), "2 3 |.");
  rx_dispose(conn);
  rx_release(shared), rx_release(c), rx_release(s), rx_release(src);
}

RX_TEST(multicast_bad_arguments) {
  rx_observable *src = rx_range(0, 1);
  rx_subject *s = rx_publish_subject_new();
  CHECK(rx_multicast(NULL, s) == NULL);
  CHECK(strstr(rx_last_error(), "rx_multicast") != NULL);
  CHECK(rx_multicast(src, NULL) == NULL);
  CHECK(strstr(rx_last_error(), "rx_multicast") != NULL);
  CHECK(rx_multicast(src, (rx_subject *)src) == NULL);
  rx_subject *relay = rx_replay_relay_new(1);
  CHECK(rx_multicast(src, relay) == NULL);
  CHECK(strstr(rx_last_error(), "never terminates") != NULL);
  rx_release(relay), rx_release(s), rx_release(src);
}

/* The replay relay: a replay subject that never terminates. */
RX_TEST(replay_relay_replays_and_never_terminates) {
  rx_subject *r = rx_replay_relay_new(2);
  CHECK(r != NULL);
  for (int64_t i = 1; i <= 3; i++) CHECK_OK(rx_subject_on_next(r, rx_int(i)));
  rec a;
  rx_disposable *da = rx_subscribe(rx_subject_as_observable(r), rec_observer(&a));
  CHECK_STR(a.log, "2 3");
  CHECK_EQ(rx_subject_on_completed(r), RX_ESTATE);
  CHECK(strstr(rx_last_error(), "a replay relay never terminates") != NULL);
  rx_error *e = user_error("x");
  CHECK_EQ(rx_subject_on_error(r, e), RX_ESTATE);
  rx_release(e);
  rx_value four = rx_string("four");
  CHECK_OK(rx_subject_on_next(r, four));
  rx_value_release(four);
  CHECK_STR(a.log, "2 3 'four'");
  CHECK_EQ(rx_subject_has_observers(r), true);
  rx_value out;
  CHECK_EQ(rx_subject_value(r, &out, NULL), RX_EHANDLE);
  rx_dispose(da);
  rx_release(r);
  CHECK(rx_replay_relay_new(0) == NULL);
  CHECK(strstr(rx_last_error(), "at least 1") != NULL);
}

RX_TEST(replay_relay_unbounded_and_disposed) {
  rx_subject *r = rx_replay_relay_new_unbounded();
  for (int64_t i = 0; i < 100; i++) CHECK_OK(rx_subject_on_next(r, rx_int(i)));
  rec a;
  rx_dispose(rx_subscribe(rx_subject_as_observable(r), rec_observer(&a)));
  CHECK(strncmp(a.log, "0 1 2 3", 7) == 0);
  CHECK(strstr(a.log, " 99.") != NULL);
  CHECK_OK(rx_subject_dispose(r));
  CHECK_EQ(rx_subject_on_next(r, rx_int(1)), RX_EDISPOSED);
  rec b;
  rx_dispose(rx_subscribe(rx_subject_as_observable(r), rec_observer(&b)));
  CHECK(strstr(b.log, "#") != NULL);
  rx_release(r);
}
