/* rx_schedule_recursive / rx_recurse / rx_recurse_after: an action that reschedules itself
 * through the chain's token, as RxSwift's scheduleRecursive. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "rxtest.h"

typedef struct chain {
  rx_scheduler *sched;
  rx_disposable *token;     /* for actions that dispose their own chain */
  int runs, limit, freed;
  int64_t at[16];           /* scheduler time of each run (first 16) */
  int64_t delay;            /* rx_recurse_after's delay; < 0: rx_recurse */
  int extra;                /* recurse calls in the first run beyond the one */
  int depth, max_depth;
  int dispose_at;           /* run that disposes the chain (0: none) */
  rx_status after_dispose;  /* what rx_recurse said after that */
  int freed_in_action;      /* ctx_free seen while an action ran */
} chain;

static void chain_free(void *ctx) {
  chain *c = ctx;
  if (c->depth) c->freed_in_action++;
  c->freed++;
}

static void step(void *ctx, rx_disposable *self) {
  chain *c = ctx;
  c->depth++;
  if (c->depth > c->max_depth) c->max_depth = c->depth;
  if (c->runs < 16) c->at[c->runs] = rx_scheduler_now_ns(c->sched);
  c->runs++;
  if (c->runs == 1)
    for (int k = 0; k < c->extra; k++) CHECK_OK(rx_recurse(self));
  if (c->dispose_at && c->runs == c->dispose_at) {
    CHECK_OK(rx_dispose(c->token));
    c->token = NULL;
    c->after_dispose = rx_recurse(self);
  } else if (c->runs < c->limit) {
    CHECK_OK(c->delay < 0 ? rx_recurse(self) : rx_recurse_after(self, c->delay));
  }
  c->depth--;
}

RX_TEST(recursive_reschedules_itself_after_a_delay_until_it_stops) {
  chain c = {.sched = rx_test_scheduler_new(), .limit = 5, .delay = 10 * RX_MARBLE_FRAME_NS};
  rx_disposable *d = rx_schedule_recursive(c.sched, step, &c, chain_free);
  CHECK(d != NULL);
  CHECK_EQ(c.runs, 0);
  CHECK_OK(rx_test_scheduler_run(c.sched));
  CHECK_EQ(c.runs, 5);
  for (int k = 0; k < 5; k++) CHECK_EQ(c.at[k], k * 10 * RX_MARBLE_FRAME_NS);
  CHECK_EQ(c.freed, 1);  /* the chain ended: no run pending or running */
  CHECK_EQ(rx_recurse(d), RX_ESTATE);
  CHECK_OK(rx_dispose(d));
  CHECK_EQ(c.freed, 1);
  rx_release(c.sched);
}

RX_TEST(recursive_dispose_cancels_the_whole_chain) {
  chain c = {.sched = rx_test_scheduler_new(), .limit = 1000, .delay = 10 * RX_MARBLE_FRAME_NS};
  rx_disposable *d = rx_schedule_recursive(c.sched, step, &c, chain_free);
  CHECK_OK(rx_test_scheduler_advance_by(c.sched, 35 * RX_MARBLE_FRAME_NS));
  CHECK_EQ(c.runs, 4);
  CHECK_EQ(c.freed, 0);
  rx_retain(d);
  CHECK_OK(rx_dispose(d));
  CHECK_EQ(c.freed, 1);
  CHECK_EQ(rx_recurse(d), RX_EDISPOSED);
  CHECK(rx_disposable_is_disposed(d));
  rx_release(d);
  CHECK_OK(rx_test_scheduler_advance_by(c.sched, 100 * RX_MARBLE_FRAME_NS));
  CHECK_EQ(c.runs, 4);
  rx_release(c.sched);
}

RX_TEST(recursive_dispose_from_inside_the_action_frees_after_it_returns) {
  chain c = {.sched = rx_test_scheduler_new(), .limit = 1000, .delay = 0, .dispose_at = 3};
  c.token = rx_schedule_recursive(c.sched, step, &c, chain_free);
  CHECK_OK(rx_test_scheduler_run(c.sched));
  CHECK_EQ(c.runs, 3);
  CHECK_EQ(c.after_dispose, RX_EDISPOSED);
  CHECK_EQ(c.freed, 1);
  CHECK_EQ(c.freed_in_action, 0);
  rx_release(c.sched);
}

RX_TEST(recursive_each_recurse_call_schedules_one_run) {
  chain c = {.sched = rx_test_scheduler_new(), .limit = 1, .delay = -1, .extra = 2};
  rx_disposable *d = rx_schedule_recursive(c.sched, step, &c, chain_free);
  CHECK_OK(rx_test_scheduler_run(c.sched));
  CHECK_EQ(c.runs, 3);
  CHECK_EQ(c.freed, 1);
  rx_dispose(d);
  rx_release(c.sched);
}

RX_TEST(recursive_current_thread_loops_without_nesting) {
  chain c = {.sched = rx_scheduler_current_thread(), .limit = 10000, .delay = -1};
  rx_disposable *d = rx_schedule_recursive(c.sched, step, &c, chain_free);
  /* the trampoline ran the whole chain before the call returned, one run at a time */
  CHECK_EQ(c.runs, 10000);
  CHECK_EQ(c.max_depth, 1);
  CHECK_EQ(c.freed, 1);
  CHECK_EQ(rx_recurse(d), RX_ESTATE);
  rx_dispose(d);
}

RX_TEST(recursive_the_chain_outlives_a_released_token) {
  chain c = {.sched = rx_test_scheduler_new(), .limit = 3, .delay = RX_MARBLE_FRAME_NS};
  rx_release(rx_schedule_recursive(c.sched, step, &c, chain_free));
  CHECK_OK(rx_test_scheduler_run(c.sched));
  CHECK_EQ(c.runs, 3);
  CHECK_EQ(c.freed, 1);
  rx_release(c.sched);
}

typedef struct threaded {
  atomic_int runs, freed;
  int limit;
  pthread_t thread;
  atomic_int off_thread;
} threaded;
static void threaded_free(void *ctx) { atomic_fetch_add(&((threaded *)ctx)->freed, 1); }
static void threaded_step(void *ctx, rx_disposable *self) {
  threaded *t = ctx;
  if (atomic_fetch_add(&t->runs, 1) == 0) t->thread = pthread_self();
  else if (!pthread_equal(t->thread, pthread_self())) atomic_fetch_add(&t->off_thread, 1);
  if (atomic_load(&t->runs) < t->limit) CHECK_OK(rx_recurse(self));
}

RX_TEST(recursive_on_a_serial_scheduler_runs_one_at_a_time_on_its_thread) {
  rx_scheduler *serial = rx_scheduler_serial_new("recursive");
  threaded t = {.limit = 200};
  rx_disposable *d = rx_schedule_recursive(serial, threaded_step, &t, threaded_free);
  int64_t deadline = rxtest_now_ns() + 5000000000LL;
  while (atomic_load(&t.freed) == 0 && rxtest_now_ns() < deadline) usleep(1000);
  CHECK_EQ(atomic_load(&t.runs), 200);
  CHECK_EQ(atomic_load(&t.freed), 1);
  rx_dispose(d);
  rx_release(serial);
}

static void nothing(void *ctx, rx_disposable *self) { (void)ctx, (void)self; }

RX_TEST(recursive_bad_arguments) {
  rx_scheduler *ts = rx_test_scheduler_new();
  int freed = 0;
  CHECK(rx_schedule_recursive(NULL, nothing, NULL, NULL) == NULL);
  CHECK(strstr(rx_last_error(), "rx_schedule_recursive") != NULL);
  CHECK(rx_schedule_recursive(ts, NULL, &freed, NULL) == NULL);
  CHECK(strstr(rx_last_error(), "action is NULL") != NULL);
  CHECK_EQ(rx_recurse(NULL), RX_EINVAL);
  CHECK_EQ(rx_recurse_after(NULL, 5), RX_EINVAL);
  rx_disposable *other = rx_composite_disposable_new();
  CHECK_EQ(rx_recurse(other), RX_EHANDLE);
  CHECK(strstr(rx_last_error(), "rx_schedule_recursive") != NULL);
  CHECK_EQ(rx_recurse_after((rx_disposable *)ts, 5), RX_EHANDLE);
  rx_release(other);
  rx_release(ts);
}

/* ---- under RXC_DEBUG: released tokens stay allocated (poisoned), the count still returns -- */

/* RXC_DEBUG keeps released handles allocated for ever: keep them reachable, so valgrind
   does not count the intended leak as a lost block. */
static void *volatile debug_kept[2];

/* Read at the first release, which has not happened yet in this test's process. */
static void rxc_debug_on(void) { setenv("RXC_DEBUG", "1", 1); }

/* The token was released (by rx_dispose or rx_release) and the chain has ended: under
   RXC_DEBUG it is still allocated and reported as released, which shows the mode is on. */
static void check_released_under_debug(rx_disposable *d) {
  debug_kept[0] = d;
  CHECK_EQ(rx_recurse(d), RX_EHANDLE);
  CHECK(strstr(rx_last_error(), "released") != NULL);
}

/* Live objects back to `start`, waiting up to a second for other threads' releases. */
static void check_live_back_to(int64_t start) {
  int64_t deadline = rxtest_now_ns() + 1000000000LL;
  while (rx_debug_live_objects() != start && rxtest_now_ns() < deadline) usleep(1000);
  CHECK_EQ(rx_debug_live_objects(), start);
}

RX_TEST(recursive_rxc_debug_finished_then_disposed_leaves_no_live_object) {
  rxc_debug_on();
  int64_t start = rx_debug_live_objects();
  chain c = {.sched = rx_test_scheduler_new(), .limit = 5, .delay = RX_MARBLE_FRAME_NS};
  debug_kept[1] = c.sched;
  rx_disposable *d = rx_schedule_recursive(c.sched, step, &c, chain_free);
  CHECK_OK(rx_test_scheduler_run(c.sched));
  CHECK_EQ(c.runs, 5);
  CHECK_EQ(c.freed, 1);
  CHECK_OK(rx_dispose(d));
  check_released_under_debug(d);
  rx_release(c.sched);
  check_live_back_to(start);
}

RX_TEST(recursive_rxc_debug_disposed_before_running_leaves_no_live_object) {
  rxc_debug_on();
  int64_t start = rx_debug_live_objects();
  chain c = {.sched = rx_test_scheduler_new(), .limit = 5, .delay = RX_MARBLE_FRAME_NS};
  debug_kept[1] = c.sched;
  rx_disposable *d = rx_schedule_recursive(c.sched, step, &c, chain_free);
  CHECK_OK(rx_dispose(d));
  CHECK_EQ(c.freed, 1);
  check_released_under_debug(d);
  CHECK_OK(rx_test_scheduler_run(c.sched));
  CHECK_EQ(c.runs, 0);
  rx_release(c.sched);
  check_live_back_to(start);
}

RX_TEST(recursive_rxc_debug_released_token_leaves_no_live_object) {
  rxc_debug_on();
  int64_t start = rx_debug_live_objects();
  chain c = {.sched = rx_test_scheduler_new(), .limit = 3, .delay = RX_MARBLE_FRAME_NS};
  debug_kept[1] = c.sched;
  rx_disposable *d = rx_schedule_recursive(c.sched, step, &c, chain_free);
  rx_release(d);
  CHECK_OK(rx_test_scheduler_run(c.sched));  /* the chain outlives the caller's reference */
  CHECK_EQ(c.runs, 3);
  CHECK_EQ(c.freed, 1);
  check_released_under_debug(d);
  rx_release(c.sched);
  check_live_back_to(start);
}

RX_TEST(recursive_rxc_debug_current_thread_leaves_no_live_object) {
  rxc_debug_on();
  int64_t start = rx_debug_live_objects();
  chain c = {.sched = rx_scheduler_current_thread(), .limit = 100, .delay = -1};
  rx_disposable *d = rx_schedule_recursive(c.sched, step, &c, chain_free);
  CHECK_EQ(c.runs, 100);
  CHECK_EQ(c.freed, 1);
  CHECK_OK(rx_dispose(d));
  check_released_under_debug(d);
  check_live_back_to(start);
}

RX_TEST(recursive_rxc_debug_serial_scheduler_leaves_no_live_object) {
  rxc_debug_on();
  int64_t start = rx_debug_live_objects();
  rx_scheduler *serial = rx_scheduler_serial_new("recursive-debug");
  debug_kept[1] = serial;
  threaded t = {.limit = 50};
  rx_disposable *d = rx_schedule_recursive(serial, threaded_step, &t, threaded_free);
  int64_t deadline = rxtest_now_ns() + 5000000000LL;
  while (atomic_load(&t.freed) == 0 && rxtest_now_ns() < deadline) usleep(1000);
  CHECK_EQ(atomic_load(&t.runs), 50);
  CHECK_OK(rx_dispose(d));
  check_released_under_debug(d);
  rx_release(serial);
  check_live_back_to(start);
}
