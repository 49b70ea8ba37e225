/* Sharing (share, share_replay, publish, replay, connect, ref_count), the Driver trait and
 * the blocking calls, through the C ABI. */
#include <pthread.h>

#include "ops_support.h"

RX_TEST(share_subscribes_source_once_and_disconnects_after_last) {
  hot h;
  rx_observable *src = hot_new(&h);
  rx_observable *shared = rx_share(src);
  rec a, b;
  rx_disposable *da = rx_subscribe(shared, rec_observer(&a));
  rx_disposable *db = rx_subscribe(shared, rec_observer(&b));
  CHECK_EQ(h.subscribed, 1);
  hot_next(&h, 1);
  hot_next(&h, 2);
  CHECK_STR(a.log, "1 2");
  CHECK_STR(b.log, "1 2");
  CHECK_OK(rx_dispose(da));
  CHECK_EQ(h.disposed, 0);
  hot_next(&h, 3);
  CHECK_STR(b.log, "1 2 3");
  CHECK_OK(rx_dispose(db));
  CHECK_EQ(h.disposed, 1);
  CHECK_STR(a.log, "1 2.");
  /* a new subscriber connects again */
  rec c;
  rx_disposable *dc = rx_subscribe(shared, rec_observer(&c));
  CHECK_EQ(h.subscribed, 2);
  hot_next(&h, 4);
  CHECK_STR(c.log, "4");
  CHECK_OK(rx_dispose(dc));
  hot_end(&h);
  rx_release(shared);
  rx_release(src);
}

/* A shared subject hands elements to each subscriber directly (the ref-count sink only
 * counts): a subscriber disposed by another's on_next mid-event gets nothing more, the
 * others go on, and the source's completion still ends each subscription and the count. */
typedef struct {
  rec r;
  rx_disposable *victim;
} killer;
static void killer_next(void *ctx, rx_value v) {
  killer *k = ctx;
  rec_next(&k->r, v);
  if (v.i == 2 && k->victim) {
    CHECK_OK(rx_dispose(k->victim));
    k->victim = NULL;
  }
}
RX_TEST(share_subscriber_disposed_by_another_mid_event_gets_no_more) {
  hot h;
  rx_observable *src = hot_new(&h);
  rx_observable *shared = rx_share(src);
  killer k;
  rx_observer ko = rec_observer(&k.r);
  ko.on_next = killer_next;
  ko.ctx = &k;
  rec b, c;
  rx_disposable *dk = rx_subscribe(shared, ko);
  rx_disposable *db = rx_subscribe(shared, rec_observer(&b));
  rx_disposable *dc = rx_subscribe(shared, rec_observer(&c));
  k.victim = db;
  CHECK_EQ(h.subscribed, 1);
  hot_next(&h, 1);
  hot_next(&h, 2);  /* k disposes b before b's turn for 2 */
  hot_next(&h, 3);
  CHECK_STR(k.r.log, "1 2 3");
  CHECK_STR(b.log, "1.");
  CHECK_STR(c.log, "1 2 3");
  CHECK_EQ(h.disposed, 0);
  hot_completed(&h);  /* the terminal goes through each ref-count sink: the count ends */
  CHECK_STR(k.r.log, "1 2 3 |.");
  CHECK_STR(c.log, "1 2 3 |.");
  CHECK_EQ(h.disposed, 1);
  CHECK_OK(rx_dispose(dk));
  CHECK_OK(rx_dispose(dc));  /* b's token went with its dispose */
  hot_end(&h);
  rx_release(shared);
  rx_release(src);
}

/* One subject with members of every kind: C subscribers subscribed directly and behind
 * pass-through sinks (retry, subscribe_on), one without on_next, one behind a map. Each
 * element reaches each member once, in subscription order (one log for all) until one
 * leaves, however the subject groups them; one disposed by another mid-event is passed
 * over, as is one disposed between events. */
typedef struct {
  char tag;
  rx_disposable *victim;
} orderer;
static char order_log[128];
static void order_next(void *ctx, rx_value v) {
  orderer *o = ctx;
  (void)v;
  size_t n = strlen(order_log);
  if (n + 2 < sizeof order_log) {
    order_log[n] = o->tag;
    order_log[n + 1] = 0;
  }
  if (o->victim) {
    CHECK_OK(rx_dispose(o->victim));
    o->victim = NULL;
  }
}
static const char *sorted(char *log) {
  size_t n = strlen(log);
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && log[j - 1] > log[j]; j--) {
      char t = log[j];
      log[j] = log[j - 1];
      log[j - 1] = t;
    }
  return log;
}
static void order_completed(void *ctx) { order_next(ctx, rx_none()); }
static rx_value order_same(void *ctx, rx_value v, rx_error **err) {
  (void)ctx;
  (void)err;
  return v;
}
RX_TEST(subject_members_of_every_kind_get_each_element_in_subscription_order) {
  int64_t live = rx_debug_live_objects();
  order_log[0] = 0;
  rx_subject *s = rx_publish_subject_new();
  rx_observable *o = rx_subject_as_observable(s);
  rx_observable *ways[7] = {rx_retain(o), rx_retry(o, 3), rx_retain(o), rx_subscribe_on(o, rx_scheduler_immediate()),
                            rx_retry(o, 3), rx_map(o, order_same, NULL, NULL), rx_subscribe_on(o, rx_scheduler_immediate())};
  orderer tags[7];
  rx_disposable *d[7];
  for (int i = 0; i < 7; i++) {
    tags[i] = (orderer){.tag = (char)('a' + i)};
    rx_observer ob = {order_next, NULL, order_completed, NULL, &tags[i]};
    if (i == 4) ob.on_next = NULL; /* e: completion only */
    d[i] = rx_subscribe(ways[i], ob);
    CHECK(d[i] != NULL);
  }
  tags[2].victim = d[3]; /* c disposes d, the next one, during the first element */
  CHECK_OK(rx_subject_on_next(s, RX_INT(1)));
  CHECK_STR(order_log, "abcfg");
  /* A member that leaves hands its slot to the last one: from here on, each once, in any order. */
  CHECK_OK(rx_dispose(d[1]));
  order_log[0] = 0;
  CHECK_OK(rx_subject_on_next(s, RX_INT(2)));
  CHECK_STR(sorted(order_log), "acfg");
  order_log[0] = 0;
  CHECK_OK(rx_subject_on_completed(s));
  CHECK_STR(sorted(order_log), "acefg");
  for (int i = 0; i < 7; i++) {
    if (i != 1 && i != 3) CHECK_OK(rx_dispose(d[i])); /* b's and d's tokens went with their dispose */
    rx_release(ways[i]);
  }
  rx_release(s);
  CHECK_EQ(rx_debug_live_objects(), live);
}

RX_TEST(share_reconnects_after_source_completes) {
  rx_observable *src = rx_range(1, 3);
  rx_observable *shared = rx_share(src);
  CHECK_STR(run_log(rx_retain(shared)), "1 2 3 |.");
  CHECK_STR(run_log(rx_retain(shared)), "1 2 3 |.");
  rx_release(shared);
  rx_release(src);
}

RX_TEST(share_replay_gives_late_subscribers_the_last_n) {
  hot h;
  rx_observable *src = hot_new(&h);
  rx_observable *shared = rx_share_replay(src, 2);
  rec a, b;
  rx_disposable *da = rx_subscribe(shared, rec_observer(&a));
  hot_next(&h, 1);
  hot_next(&h, 2);
  hot_next(&h, 3);
  rx_disposable *db = rx_subscribe(shared, rec_observer(&b));
  CHECK_STR(b.log, "2 3");
  hot_next(&h, 4);
  CHECK_STR(a.log, "1 2 3 4");
  CHECK_STR(b.log, "2 3 4");
  CHECK_EQ(h.subscribed, 1);
  CHECK_OK(rx_dispose(da));
  CHECK_OK(rx_dispose(db));
  CHECK_EQ(h.disposed, 1);
  hot_end(&h);
  rx_release(shared);
  rx_release(src);
}

RX_TEST(share_replay_zero_is_share) {
  hot h;
  rx_observable *src = hot_new(&h);
  rx_observable *shared = rx_share_replay(src, 0);
  rec a, b;
  rx_disposable *da = rx_subscribe(shared, rec_observer(&a));
  hot_next(&h, 1);
  rx_disposable *db = rx_subscribe(shared, rec_observer(&b));
  hot_next(&h, 2);
  CHECK_STR(a.log, "1 2");
  CHECK_STR(b.log, "2");
  rx_dispose(da);
  rx_dispose(db);
  hot_end(&h);
  rx_release(shared);
  rx_release(src);
}

RX_TEST(publish_emits_nothing_before_connect_and_connect_twice_is_one_connection) {
  hot h;
  rx_observable *src = hot_new(&h);
  rx_observable *pub = rx_publish(src);
  rec a;
  rx_disposable *da = rx_subscribe(pub, rec_observer(&a));
  CHECK_EQ(h.subscribed, 0);
  rx_disposable *c1 = rx_connect(pub);
  rx_disposable *c2 = rx_connect(pub);
  CHECK(c1 != NULL && c2 != NULL);
  CHECK_EQ(h.subscribed, 1);
  hot_next(&h, 7);
  CHECK_STR(a.log, "7");
  CHECK_OK(rx_dispose(c2)); /* the same connection: disconnects */
  CHECK_EQ(h.disposed, 1);
  CHECK(rx_disposable_is_disposed(c1));
  CHECK_OK(rx_dispose(c1));
  CHECK_OK(rx_dispose(da));
  hot_end(&h);
  rx_release(pub);
  rx_release(src);
}

RX_TEST(publish_uses_a_fresh_subject_per_connection) {
  rx_observable *src = rx_range(1, 2);
  rx_observable *pub = rx_publish(src);
  rec a, b;
  rx_disposable *da = rx_subscribe(pub, rec_observer(&a));
  rx_dispose(rx_connect(pub));
  CHECK_STR(a.log, "1 2 |.");
  /* after the connection ended, a new subscriber waits for the next connect */
  rx_disposable *db = rx_subscribe(pub, rec_observer(&b));
  CHECK_STR(b.log, "");
  rx_dispose(rx_connect(pub));
  CHECK_STR(b.log, "1 2 |.");
  rx_dispose(da);
  rx_dispose(db);
  rx_release(pub);
  rx_release(src);
}

RX_TEST(replay_connectable_replays_to_late_subscribers_while_connected) {
  hot h;
  rx_observable *src = hot_new(&h);
  rx_observable *rep = rx_replay(src, 1);
  rx_disposable *conn = rx_connect(rep);
  hot_next(&h, 1);
  hot_next(&h, 2);
  rec a;
  rx_disposable *da = rx_subscribe(rep, rec_observer(&a));
  CHECK_STR(a.log, "2");
  hot_next(&h, 3);
  CHECK_STR(a.log, "2 3");
  rx_dispose(da);
  rx_dispose(conn);
  CHECK_EQ(h.disposed, 1);
  hot_end(&h);
  rx_release(rep);
  rx_release(src);
}

RX_TEST(ref_count_connects_on_first_and_disconnects_on_last) {
  hot h;
  rx_observable *src = hot_new(&h);
  rx_observable *pub = rx_publish(src);
  rx_observable *rc = rx_ref_count(pub);
  rec a, b;
  rx_disposable *da = rx_subscribe(rc, rec_observer(&a));
  rx_disposable *db = rx_subscribe(rc, rec_observer(&b));
  CHECK_EQ(h.subscribed, 1);
  hot_next(&h, 5);
  CHECK_STR(a.log, "5");
  CHECK_STR(b.log, "5");
  rx_dispose(da);
  CHECK_EQ(h.disposed, 0);
  rx_dispose(db);
  CHECK_EQ(h.disposed, 1);
  hot_end(&h);
  rx_release(rc);
  rx_release(pub);
  rx_release(src);
}

RX_TEST(connect_and_ref_count_reject_non_connectables) {
  rx_observable *src = rx_range(1, 2);
  CHECK(rx_connect(src) == NULL);
  CHECK(strstr(rx_last_error(), "rx_publish") != NULL);
  CHECK(rx_ref_count(src) == NULL);
  CHECK(rx_connect(NULL) == NULL);
  CHECK(rx_share(NULL) == NULL);
  CHECK(rx_share_replay((rx_observable *)((char *)src + 8), 1) == NULL);
  CHECK(strlen(rx_last_error()) > 0);
  rx_subject *s = rx_publish_subject_new();
  CHECK(rx_publish((rx_observable *)s) == NULL);
  rx_release(s);
  rx_release(src);
}

/* Four threads subscribe to a share at once; the source must be subscribed exactly once
 * while they all stay subscribed (RxSwift 6.10.0 crashed here, #2718). */
typedef struct racer {
  rx_observable *shared;
  rx_disposable *d;
  rec r;
} racer;
static void *race_subscribe(void *arg) {
  racer *x = arg;
  x->d = rx_subscribe(x->shared, rec_observer(&x->r));
  return NULL;
}
RX_TEST(share_concurrent_first_subscriptions_connect_once) {
  for (int round = 0; round < 50; round++) {
    hot h;
    rx_observable *src = hot_new(&h);
    rx_observable *shared = rx_share(src);
    racer rs[4];
    pthread_t t[4];
    for (int i = 0; i < 4; i++) {
      rs[i].shared = shared;
      pthread_create(&t[i], NULL, race_subscribe, &rs[i]);
    }
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    CHECK_EQ(h.subscribed, 1);
    hot_next(&h, 9);
    for (int i = 0; i < 4; i++) CHECK_STR(rs[i].r.log, "9");
    for (int i = 0; i < 4; i++) rx_dispose(rs[i].d);
    CHECK_EQ(h.disposed, 1);
    hot_end(&h);
    rx_release(shared);
    rx_release(src);
  }
}

static rx_value add_one(void *ctx, rx_value v, rx_error **err) {
  (void)ctx;
  (void)err;
  return rx_int(v.i + 1);
}

RX_TEST(driver_replaces_error_and_delivers_on_main) {
  rx_observable *src = INTS_THEN_ERROR();
  rx_observable *drv = rx_as_driver(src, rx_int(-1));
  rec a;
  rx_disposable *d = rx_drive(drv, rec_observer(&a));
  CHECK(d != NULL);
  rx_main_run_for(20 * 1000 * 1000);
  CHECK_STR(a.log, "1 -1 |.");
  rx_dispose(d);
  rx_release(drv);
  pool_drain();
}

static pthread_t driver_thread;
static int off_main_deliveries;
static void note_thread(void *ctx, rx_value v) {
  (void)ctx;
  (void)v;
  if (!pthread_equal(pthread_self(), driver_thread)) off_main_deliveries++;
}

RX_TEST(driver_delivers_on_main_even_when_the_source_emits_elsewhere) {
  driver_thread = pthread_self();
  rx_scheduler *bg = rx_scheduler_concurrent_new("bg");
  rx_observable *src = rx_range(1, 50);
  rx_observable *moved = rx_subscribe_on(src, bg);
  rx_observable *drv = rx_as_driver(moved, rx_int(0));
  rec a;
  rx_observer o = rec_observer(&a);
  o.on_next = note_thread;
  rx_disposable *d = rx_drive(drv, o);
  int64_t deadline = rxtest_now_ns() + 5000000000LL;
  while (a.completed == 0 && rxtest_now_ns() < deadline) rx_main_run_for(5 * 1000 * 1000);
  CHECK_EQ(a.completed, 1);
  CHECK_EQ(off_main_deliveries, 0);
  rx_dispose(d);
  rx_release(drv);
  rx_release(moved);
  rx_release(src);
  rx_release(bg);
}

RX_TEST(driver_replays_latest_to_late_drivers_and_rx_drive_rejects_plain_observables) {
  hot h;
  rx_observable *src = hot_new(&h);
  rx_observable *drv = rx_as_driver(src, rx_int(0));
  rec a, b;
  rx_disposable *da = rx_drive(drv, rec_observer(&a));
  hot_next(&h, 1);
  hot_next(&h, 2);
  rx_main_drain();
  rx_disposable *db = rx_drive(drv, rec_observer(&b));
  rx_main_drain();
  CHECK_STR(a.log, "1 2");
  CHECK_STR(b.log, "2");
  CHECK_EQ(h.subscribed, 1);
  CHECK(rx_drive(src, rec_observer(&a)) == NULL);
  CHECK(strstr(rx_last_error(), "rx_as_driver") != NULL);
  rx_dispose(da);
  rx_dispose(db);
  hot_end(&h);
  rx_release(drv);
  rx_release(src);
}

RX_TEST(blocking_to_array_collects_everything) {
  rx_observable *src = rx_range(1, 4);
  rx_observable *mapped = rx_map(src, add_one, NULL, NULL);
  rx_value arr = rx_none();
  rx_error *err = (rx_error *)1;
  CHECK_OK(rx_blocking_to_array(mapped, -1, &arr, &err));
  CHECK(err == NULL);
  CHECK_EQ(arr.kind, RX_ARRAY);
  CHECK_EQ(rx_array_count(arr), 4);
  CHECK_EQ(rx_array_get(arr, 0).i, 2);
  CHECK_EQ(rx_array_get(arr, 3).i, 5);
  rx_value_release(arr);
  rx_release(mapped);
  rx_release(src);
}

RX_TEST(blocking_calls_report_stream_errors_and_empty_streams) {
  rx_value out;
  rx_error *err = NULL;
  CHECK_EQ(rx_blocking_to_array(INTS_THEN_ERROR(), 1000000000LL, &out, &err), RX_ESTREAM);
  CHECK(err != NULL);
  CHECK_EQ(rx_error_code(err), RX_ERROR_USER);
  CHECK_EQ(out.kind, RX_NONE);
  rx_release(err);
  err = NULL;
  CHECK_EQ(rx_blocking_last(EMPTY(), -1, &out, &err), RX_ESTREAM);
  CHECK_EQ(rx_error_code(err), RX_ERROR_NO_ELEMENTS);
  rx_release(err);
  /* a NULL out_error is allowed */
  CHECK_EQ(rx_blocking_last(EMPTY(), -1, &out, NULL), RX_ESTREAM);
  CHECK_OK(rx_blocking_last(INTS(4, 5, 6), -1, &out, NULL));
  CHECK_EQ(out.i, 6);
  pool_drain();
}

RX_TEST(blocking_times_out_and_rejects_bad_arguments) {
  rx_value out = rx_int(3);
  rx_error *err = (rx_error *)1;
  int64_t t0 = rxtest_now_ns();
  CHECK_EQ(rx_blocking_last(NEVER(), 20 * 1000 * 1000, &out, &err), RX_ETIMEOUT);
  CHECK(rxtest_now_ns() - t0 >= 20 * 1000 * 1000);
  CHECK(err == NULL);
  CHECK_EQ(out.kind, RX_NONE);
  CHECK_EQ(rx_blocking_last(NEVER(), 0, NULL, NULL), RX_EINVAL);
  CHECK_EQ(rx_blocking_to_array(NULL, 0, &out, NULL), RX_EINVAL);
  rx_subject *s = rx_publish_subject_new();
  CHECK_EQ(rx_blocking_to_array((rx_observable *)s, 0, &out, NULL), RX_EHANDLE);
  CHECK(strlen(rx_last_error()) > 0);
  rx_release(s);
  pool_drain();
}

typedef struct bg_block {
  rx_observable *src;
  rx_status st;
  rx_value out;
} bg_block;
static void *block_in_thread(void *arg) {
  bg_block *b = arg;
  b->st = rx_blocking_last(b->src, 5000000000LL, &b->out, NULL);
  return NULL;
}

RX_TEST(blocking_off_main_waits_for_work_on_other_threads) {
  rx_scheduler *bg = rx_scheduler_concurrent_new("bg");
  rx_observable *src = rx_range(1, 100);
  rx_observable *moved = rx_subscribe_on(src, bg);
  bg_block b = {moved, RX_EINVAL, {0}};
  pthread_t t;
  pthread_create(&t, NULL, block_in_thread, &b);
  pthread_join(t, NULL);
  CHECK_OK(b.st);
  CHECK_EQ(b.out.i, 100);
  rx_release(moved);
  rx_release(src);
  rx_release(bg);
}

RX_TEST(blocking_on_main_runs_the_main_loop_meanwhile) {
  rx_scheduler *bg = rx_scheduler_concurrent_new("bg");
  rx_observable *src = rx_range(1, 3);
  rx_observable *moved = rx_subscribe_on(src, bg);
  rx_observable *back = rx_observe_on(moved, rx_scheduler_main());
  rx_value arr;
  CHECK_OK(rx_blocking_to_array(back, 5000000000LL, &arr, NULL));
  CHECK_EQ(rx_array_count(arr), 3);
  rx_value_release(arr);
  rx_release(back);
  rx_release(moved);
  rx_release(src);
  rx_release(bg);
}

/* ---- rx_blocking_first / rx_blocking_single (RxBlocking's first() and single() cases) ---- */

static int pusher_disposed;
static void pusher_dispose(void *ctx) { (void)ctx; pusher_disposed++; }
/* Emits 7 on subscription and never completes. */
static rx_disposable *push_7(void *ctx, rx_emitter *e) {
  (void)ctx;
  rx_emitter_next(e, rx_int(7));
  return rx_disposable_create(pusher_dispose, NULL, NULL);
}

RX_TEST(blocking_first_returns_the_first_and_ends_the_subscription) {
  rx_value out = rx_none();
  CHECK_OK(rx_blocking_first(INTS(42, 43, 44), -1, &out, NULL));
  CHECK_EQ(out.i, 42);
  rx_observable *endless = A(rx_create(push_7, NULL, NULL));
  pusher_disposed = 0;
  CHECK_OK(rx_blocking_first(endless, 1000000000LL, &out, NULL));
  CHECK_EQ(out.i, 7);
  CHECK_EQ(pusher_disposed, 1);
  /* a real scheduler: interval never completes */
  rx_scheduler *bg = rx_scheduler_concurrent_new("bg");
  rx_observable *ticks = A(rx_interval(1000000, bg));
  CHECK_OK(rx_blocking_first(ticks, 5000000000LL, &out, NULL));
  CHECK_EQ(out.i, 0);
  pool_drain();
  rx_release(bg);
}

RX_TEST(blocking_first_reports_errors_empty_streams_time_outs_and_bad_arguments) {
  rx_value out = rx_int(3);
  rx_error *err = NULL;
  CHECK_EQ(rx_blocking_first(THROW_BOOM(), -1, &out, &err), RX_ESTREAM);
  CHECK_EQ(rx_error_code(err), RX_ERROR_USER);
  CHECK_EQ(out.kind, RX_NONE);
  rx_release(err);
  CHECK_EQ(rx_blocking_first(EMPTY(), -1, &out, &err), RX_ESTREAM);
  CHECK_EQ(rx_error_code(err), RX_ERROR_NO_ELEMENTS);
  rx_release(err);
  err = (rx_error *)1;
  CHECK_EQ(rx_blocking_first(NEVER(), 20 * 1000 * 1000, &out, &err), RX_ETIMEOUT);
  CHECK(err == NULL);
  CHECK_EQ(rx_blocking_first(NEVER(), 0, NULL, NULL), RX_EINVAL);
  CHECK(strstr(rx_last_error(), "rx_blocking_first") != NULL);
  CHECK_EQ(rx_blocking_first(NULL, 0, &out, NULL), RX_EINVAL);
  rx_subject *s = rx_publish_subject_new();
  CHECK_EQ(rx_blocking_first((rx_observable *)s, 0, &out, NULL), RX_EHANDLE);
  rx_release(s);
  pool_drain();
}

RX_TEST(blocking_single_returns_the_only_value_or_names_the_violation) {
  rx_value out = rx_none();
  rx_error *err = NULL;
  CHECK_OK(rx_blocking_single(INTS(42), -1, &out, &err));
  CHECK_EQ(out.i, 42);
  CHECK(err == NULL);
  CHECK_EQ(rx_blocking_single(EMPTY(), -1, &out, &err), RX_ESTREAM);
  CHECK_EQ(rx_error_code(err), RX_ERROR_NO_ELEMENTS);
  rx_release(err);
  CHECK_EQ(rx_blocking_single(INTS(42, 43, 44), -1, &out, &err), RX_ESTREAM);
  CHECK_EQ(rx_error_code(err), RX_ERROR_MORE_THAN_ONE_ELEMENT);
  CHECK_STR(rx_error_message(err), "sequence contains more than one element");
  CHECK_EQ(out.kind, RX_NONE);
  rx_release(err);
  CHECK_EQ(rx_blocking_single(THROW_BOOM(), -1, &out, NULL), RX_ESTREAM);
  CHECK_EQ(rx_blocking_single(NEVER(), 20 * 1000 * 1000, &out, NULL), RX_ETIMEOUT);
  CHECK_EQ(rx_blocking_single(NEVER(), 0, NULL, NULL), RX_EINVAL);
  CHECK(strstr(rx_last_error(), "rx_blocking_single") != NULL);
  CHECK_EQ(rx_blocking_single(NULL, 0, &out, NULL), RX_EINVAL);
  pool_drain();
}

RX_TEST(blocking_single_independent_calls_off_and_on_main) {
  rx_scheduler *bg = rx_scheduler_concurrent_new("bg");
  rx_observable *one = A(rx_just(rx_int(1)));
  rx_observable *moved = A(rx_subscribe_on(one, bg));
  for (int k = 0; k < 10; k++) {
    rx_value out = rx_none();
    CHECK_OK(rx_blocking_single(moved, 5000000000LL, &out, NULL));
    CHECK_EQ(out.i, 1);
  }
  /* delivered on main: the main loop runs while the main thread waits */
  rx_observable *back = A(rx_observe_on(moved, rx_scheduler_main()));
  rx_value out = rx_none();
  CHECK_OK(rx_blocking_first(back, 5000000000LL, &out, NULL));
  CHECK_EQ(out.i, 1);
  CHECK_OK(rx_blocking_single(back, 5000000000LL, &out, NULL));
  CHECK_EQ(out.i, 1);
  pool_drain();
  rx_release(bg);
}
