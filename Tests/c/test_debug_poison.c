/* Under RXC_DEBUG=1 a released handle stays allocated and poisoned, so a later use is
 * reported (RX_EHANDLE, "released") instead of reading freed memory. It must still let go of
 * what it holds: the objects behind it end, the user's ctx_free runs and
 * rx_debug_live_objects() returns, as without RXC_DEBUG. Each test turns the mode on before
 * its first release (the library reads it then). */
#include "ops_support.h"
#include <stdlib.h>
#include <string.h>

/* Poisoned handles are kept for ever: keep them reachable, so valgrind does not count the
   intended leak as a lost block. */
static void *volatile kept[8];

static void debug_on(void) { setenv("RXC_DEBUG", "1", 1); }

static void check_reported_released(void) { CHECK(strstr(rx_last_error(), "released") != NULL); }

static rx_value times2(void *ctx, rx_value v, rx_error **err) {
  ((counter *)ctx)->calls++;
  return rx_int(v.i * 2);
}
static rx_value sum(void *ctx, rx_value acc, rx_value v, rx_error **err) { return rx_int(acc.i + v.i); }

RX_TEST(debug_released_operator_frees_its_ctx) {
  debug_on();
  int64_t start = rx_debug_live_objects();
  counter c = {0};
  rx_value payload = rx_string("payload");
  rx_observable *src = rx_just(payload); /* borrows the value, retains it */
  rx_value_release(payload);
  rx_observable *m = rx_map(src, times2, &c, counter_free);
  rx_observable *s = rx_scan(m, rx_int(0), sum, NULL, NULL);
  kept[0] = src, kept[1] = m, kept[2] = s;
  rx_release(src);
  rx_release(m);
  CHECK_EQ(c.freed, 0); /* the scan still holds the map */
  rx_release(s);
  CHECK_EQ(c.freed, 1);
  CHECK_EQ(c.calls, 0);
  CHECK(rx_map(m, times2, &c, NULL) == NULL);
  check_reported_released();
  CHECK_EQ(rx_debug_live_objects(), start);
}

/* rx_create: the subscriber keeps the emitter past the subscribe call and releases it later;
   the subscription's sink must end with it. */
static rx_emitter *kept_emitter;
static rx_disposable *keep_emitter(void *ctx, rx_emitter *em) {
  kept_emitter = rx_retain(em);
  return NULL;
}

RX_TEST(debug_released_emitter_lets_go_of_its_subscription) {
  debug_on();
  int64_t start = rx_debug_live_objects();
  rx_observable *o = rx_create(keep_emitter, NULL, NULL);
  rec r = {0};
  rx_disposable *d = rx_subscribe(o, rec_observer(&r));
  CHECK_OK(rx_emitter_next(kept_emitter, rx_int(7)));
  CHECK_OK(rx_dispose(d));
  kept[0] = o, kept[1] = kept_emitter, kept[2] = d;
  rx_release(o);
  rx_release(kept_emitter);
  CHECK_EQ(rx_emitter_next(kept_emitter, rx_int(8)), RX_EHANDLE);
  check_reported_released();
  CHECK_STR(r.log, "7.");
  CHECK_EQ(rx_debug_live_objects(), start);
}

/* A composite disposable released (not disposed) keeps nothing under RXC_DEBUG: the action
   it held is dropped with its scheduler (release is not dispose: it never ran), ctx and all. */
static void count_run(void *ctx) { ((counter *)ctx)->calls++; }

RX_TEST(debug_released_container_lets_go_of_its_children) {
  debug_on();
  int64_t start = rx_debug_live_objects();
  counter c = {0};
  rx_scheduler *test = rx_test_scheduler_new();
  rx_disposable *all = rx_composite_disposable_new();
  rx_disposable *action = rx_schedule_after(test, 1000, count_run, &c, counter_free);
  CHECK_OK(rx_composite_disposable_add(all, action));
  rx_release(all);
  rx_disposable *other = rx_disposable_create(count_run, &c, NULL);
  kept[0] = test, kept[1] = all, kept[2] = action, kept[3] = other;
  CHECK_EQ(rx_composite_disposable_add(all, other), RX_EHANDLE);
  check_reported_released();
  rx_release(other);
  rx_release(test);
  CHECK_EQ(c.calls, 0);
  CHECK_EQ(c.freed, 1);
  CHECK_EQ(rx_debug_live_objects(), start);
}

/* A custom scheduler's ctx_free runs when its released handle was the last thing holding it. */
static rx_disposable *run_now(void *ctx, rx_action_fn action, void *action_ctx) {
  action(action_ctx);
  return NULL;
}

RX_TEST(debug_released_scheduler_frees_its_ctx) {
  debug_on();
  int64_t start = rx_debug_live_objects();
  counter c = {0};
  rx_scheduler_vtable vt = {.schedule = run_now};
  rx_scheduler *s = rx_scheduler_custom_new(&vt, &c, counter_free);
  kept[0] = s;
  rx_release(s);
  CHECK_EQ(c.freed, 1);
  CHECK(rx_schedule(s, count_run, &c, NULL) == NULL);
  check_reported_released();
  CHECK_EQ(rx_debug_live_objects(), start);
}
