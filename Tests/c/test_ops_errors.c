/* Error-handling operators through the C ABI: catch, catch_and_return, retry. Cases follow
 * RxSwift's Observable+Catch and Observable+Retry tests. */
#include "ops_support.h"

typedef struct handler {
  rx_observable *next; /* returned (retained) for every error; NULL: forward the error */
  int calls;
  int32_t seen_code;
  int freed;
} handler;
static rx_observable *handle(void *ctx, const rx_error *e) {
  handler *h = ctx;
  h->calls++;
  h->seen_code = rx_error_code(e);
  return h->next ? rx_retain(h->next) : NULL;
}
static void handler_free(void *ctx) { ((handler *)ctx)->freed++; }

/* ---- catch ---- */
RX_TEST(catch_no_error_passes_through) {
  handler h = {INTS(9), 0, 0, 0};
  CHECK_STR(run_log(rx_catch(INTS(1, 2), handle, &h, NULL)), "1 2 |.");
  CHECK_STR(run_log(rx_catch(EMPTY(), handle, &h, NULL)), "|.");
  CHECK_STR(run_log(rx_catch(NEVER(), handle, &h, NULL)), ".");
  CHECK_EQ(h.calls, 0);
}

RX_TEST(catch_error_continues_with_handler_result) {
  hot src;
  rx_observable *s = hot_new(&src);
  handler h = {INTS(3, 4), 0, 0, 0};
  rx_observable *c = rx_catch(s, handle, &h, handler_free);
  rec r;
  rx_disposable *d = rx_subscribe(c, rec_observer(&r));
  hot_next(&src, 1);
  hot_next(&src, 2);
  hot_error(&src, RX_ERROR_USER + 7);
  CHECK_STR(r.log, "1 2 3 4 |.");
  CHECK_EQ(h.calls, 1);
  CHECK_EQ(h.seen_code, RX_ERROR_USER + 7);
  CHECK_EQ(src.disposed, 1);
  rx_dispose(d);
  hot_end(&src);
  rx_release(c), rx_release(s);
  CHECK_EQ(h.freed, 1);
  pool_drain();
}

RX_TEST(catch_handler_result_errors_or_never) {
  handler h = {throw_code(RX_ERROR_USER + 3), 0, 0, 0};
  CHECK_STR(run_log(rx_catch(INTS_THEN_ERROR(), handle, &h, NULL)), "1 #1003(boom).");
  handler n = {NEVER(), 0, 0, 0};
  CHECK_STR(run_log(rx_catch(INTS_THEN_ERROR(), handle, &n, NULL)), "1.");
}

RX_TEST(catch_null_forwards_original_error) {
  handler h = {NULL, 0, 0, 0};
  CHECK_STR(run_log(rx_catch(INTS_THEN_ERROR(), handle, &h, NULL)), "1 #1000(boom).");
  CHECK_EQ(h.calls, 1);
}

RX_TEST(catch_dispose_during_second_source) {
  hot first, second;
  rx_observable *s1 = hot_new(&first), *s2 = hot_new(&second);
  handler h = {s2, 0, 0, 0};
  rx_observable *c = rx_catch(s1, handle, &h, handler_free);
  rec r;
  rx_disposable *d = rx_subscribe(c, rec_observer(&r));
  hot_error(&first, RX_ERROR_USER);
  CHECK_EQ(second.subscribed, 1);
  hot_next(&second, 5);
  rx_dispose(d);
  hot_next(&second, 6);
  CHECK_STR(r.log, "5.");
  CHECK_EQ(second.disposed, 1);
  hot_end(&first), hot_end(&second);
  rx_release(s1), rx_release(s2);
  CHECK_EQ(h.freed, 0);
  rx_release(c);
  CHECK_EQ(h.freed, 1);
}

RX_TEST(catch_bad_input) {
  handler h = {NULL, 0, 0, 0};
  CHECK(rx_catch(NULL, handle, &h, handler_free) == NULL);
  CHECK(rx_catch(INTS(1), NULL, &h, handler_free) == NULL);
  CHECK_STR(rx_last_error(), "rx_catch: fn is NULL");
  CHECK_EQ(h.freed, 0);
  pool_drain();
}

RX_TEST(catch_and_return_cases) {
  CHECK_STR(run_log(rx_catch_and_return(INTS_THEN_ERROR(), rx_int(42))), "1 42 |.");
  CHECK_STR(run_log(rx_catch_and_return(INTS(1, 2), rx_int(42))), "1 2 |.");
  rx_value s = rx_string("fallback");
  rx_observable *o = rx_catch_and_return(THROW_BOOM(), s);
  rx_value_release(s);
  CHECK_STR(run_log(o), "'fallback' |.");
  CHECK(rx_catch_and_return(NULL, rx_int(1)) == NULL);
}

/* ---- retry ---- */
typedef struct flaky {
  int subscriptions;
  int fail_times; /* the first fail_times subscriptions fail after emitting their number */
} flaky;
static rx_disposable *flaky_subscribe(void *ctx, rx_emitter *e) {
  flaky *f = ctx;
  f->subscriptions++;
  rx_emitter_next(e, rx_int(f->subscriptions));
  if (f->subscriptions <= f->fail_times) {
    rx_error *err = rx_error_new(RX_ERROR_USER, "flaky");
    rx_emitter_error(e, err);
    rx_release(err);
  } else {
    rx_emitter_completed(e);
  }
  return NULL;
}

RX_TEST(retry_no_error_subscribes_once) {
  flaky f = {0, 0};
  CHECK_STR(run_log(rx_retry(A(rx_create(flaky_subscribe, &f, NULL)), 3)), "1 |.");
  CHECK_EQ(f.subscriptions, 1);
}

RX_TEST(retry_until_success) {
  flaky f = {0, 2};
  CHECK_STR(run_log(rx_retry(A(rx_create(flaky_subscribe, &f, NULL)), 0)), "1 2 3 |.");
  CHECK_EQ(f.subscriptions, 3);
}

RX_TEST(retry_count_limits_attempts) {
  flaky f = {0, 100};
  CHECK_STR(run_log(rx_retry(A(rx_create(flaky_subscribe, &f, NULL)), 3)), "1 2 3 #1000(flaky).");
  CHECK_EQ(f.subscriptions, 3);
  flaky g = {0, 100};
  CHECK_STR(run_log(rx_retry(A(rx_create(flaky_subscribe, &g, NULL)), 1)), "1 #1000(flaky).");
  CHECK_EQ(g.subscriptions, 1);
}

RX_TEST(retry_many_synchronous_failures_do_not_recurse) {
  flaky f = {0, 1000000};
  rec r;
  int64_t attempts = rxtest_scale(100000, 4);
  rx_observable *o = rx_retry(A(rx_create(flaky_subscribe, &f, NULL)), (size_t)attempts);
  rx_observer obs = rec_observer(&r);
  obs.on_next = NULL;
  rx_dispose(rx_subscribe(o, obs));
  CHECK_EQ(f.subscriptions, attempts);
  CHECK_STR(r.log, "#1000(flaky).");
  rx_release(o);
  pool_drain();
}

RX_TEST(retry_dispose_in_the_middle) {
  hot h;
  rx_observable *src = hot_new(&h);
  rx_observable *o = rx_retry(src, 0);
  rec r;
  rx_disposable *d = rx_subscribe(o, rec_observer(&r));
  hot_next(&h, 1);
  hot_error(&h, RX_ERROR_USER);
  CHECK_EQ(h.subscribed, 2);
  CHECK_EQ(h.disposed, 1);
  hot_next(&h, 2);
  rx_dispose(d);
  CHECK_EQ(h.disposed, 2);
  CHECK_STR(r.log, "1 2.");
  hot_end(&h);
  rx_release(o), rx_release(src);
  CHECK(rx_retry(NULL, 1) == NULL);
}
