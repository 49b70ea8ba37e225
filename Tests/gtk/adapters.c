/*
 * adapters.c — the event-loop adapters, rxc-glib.h and rxc-uv.h: bad input, work from other
 * threads run on the hosting thread, the main run loop hosted on the main thread, and the
 * run loop's reference held by the host until it is detached. One PASS/FAIL line per check,
 * then "N passed, N failed".
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <uv.h>

#include "rxc-glib.h"
#include "rxc-uv.h"

static int passed, failed;

static void check(int ok, const char *what) {
  printf("%s %s\n", ok ? "PASS" : "FAIL", what);
  if (ok) passed++;
  else failed++;
}

enum { ACTIONS = 50 };

/* Work scheduled from another thread; each action records whether it ran on `host`. */
typedef struct work {
  rx_scheduler *target;
  pthread_t host;
  int ran, off_host;
} work;

static void action(void *ctx) {
  work *w = ctx;
  if (!pthread_equal(pthread_self(), w->host)) w->off_host++;
  w->ran++;
}

static void *schedule_from_elsewhere(void *arg) {
  work *w = arg;
  for (int i = 0; i < ACTIONS; i++) {
    rx_release(rx_schedule(w->target, action, w, NULL));
    if (i % 10 == 0) {
      struct timespec ms = {0, 1000000};
      nanosleep(&ms, NULL);
    }
  }
  return NULL;
}

static void test_bad_input(void) {
  check(rx_glib_attach(NULL, NULL) == NULL && strlen(rx_last_error()) > 0,
        "rx_glib_attach(NULL): NULL, with a message in rx_last_error()");
  rx_observable *not_a_loop = rx_never();
  check(rx_glib_source_new((rx_run_loop *)not_a_loop) == NULL && strlen(rx_last_error()) > 0,
        "rx_glib_source_new(an observable): NULL, with a message");
  uv_loop_t uv;
  uv_loop_init(&uv);
  check(rx_uv_attach(&uv, NULL) == NULL && strlen(rx_last_error()) > 0,
        "rx_uv_attach(uv, NULL): NULL, with a message in rx_last_error()");
  check(rx_uv_attach(&uv, (rx_run_loop *)not_a_loop) == NULL, "rx_uv_attach(uv, an observable): NULL");
  check(rx_uv_attach(NULL, rx_run_loop_main()) == NULL, "rx_uv_attach(NULL, loop): NULL");
  rx_glib_detach(NULL);
  rx_uv_detach(NULL);
  check(uv_loop_close(&uv) == 0, "nothing left on the libuv loop after the refused attaches");
  rx_release(not_a_loop);
}

/* GLib: a new run loop in a fresh context, driven by this thread; the caller's reference is
   dropped at once (the source holds the loop). */
static void test_glib_new_loop(void) {
  GMainContext *context = g_main_context_new();
  rx_run_loop *loop = rx_run_loop_new();
  GSource *source = rx_glib_attach(loop, context);
  work w = {rx_run_loop_scheduler(loop), pthread_self(), 0, 0};
  rx_retain(w.target);
  rx_release(loop); /* the source keeps it */
  pthread_t t;
  pthread_create(&t, NULL, schedule_from_elsewhere, &w);
  gint64 deadline = g_get_monotonic_time() + 10 * G_USEC_PER_SEC;
  while (w.ran < ACTIONS && g_get_monotonic_time() < deadline) g_main_context_iteration(context, TRUE);
  pthread_join(t, NULL);
  check(w.ran == ACTIONS && w.off_host == 0,
        "rxc-glib.h: work scheduled from another thread runs on the thread iterating the context");
  rx_glib_detach(source);
  rx_release(w.target);
  g_main_context_unref(context);
}

/* GLib: the main run loop in the default context, on the main thread. */
static void test_glib_main_loop(void) {
  GSource *source = rx_glib_attach(rx_run_loop_main(), NULL);
  work w = {rx_scheduler_main(), pthread_self(), 0, 0};
  pthread_t t;
  pthread_create(&t, NULL, schedule_from_elsewhere, &w);
  gint64 deadline = g_get_monotonic_time() + 10 * G_USEC_PER_SEC;
  while (w.ran < ACTIONS && g_get_monotonic_time() < deadline) g_main_context_iteration(NULL, TRUE);
  pthread_join(t, NULL);
  check(w.ran == ACTIONS && w.off_host == 0, "rxc-glib.h: the main run loop hosted in GLib's default context");
  rx_glib_detach(source);
  /* detached: new main work waits for another host */
  int before = w.ran;
  rx_release(rx_schedule_after(rx_scheduler_main(), 0, action, &w, NULL)); /* queued, not run at once */
  for (int i = 0; i < 5; i++) g_main_context_iteration(NULL, FALSE);
  check(w.ran == before, "rxc-glib.h: after rx_glib_detach the context no longer drains the loop");
  rx_main_drain();
}

/* libuv: a new run loop polled from a libuv loop on this thread. */
static work uv_work;
static rx_uv_poll *uv_host;

static void uv_check_done(uv_timer_t *timer) {
  if (uv_work.ran == ACTIONS) {
    rx_uv_detach(uv_host);
    uv_close((uv_handle_t *)timer, NULL);
  }
}

static void test_uv(rx_run_loop *loop, const char *what) {
  uv_loop_t uv;
  uv_loop_init(&uv);
  uv_host = rx_uv_attach(&uv, loop);
  uv_work = (work){rx_run_loop_scheduler(loop), pthread_self(), 0, 0};
  rx_retain(uv_work.target);
  rx_release(loop); /* the handle keeps it (a no-op for the main loop) */
  uv_timer_t done;
  uv_timer_init(&uv, &done);
  uv_timer_start(&done, uv_check_done, 1, 1);
  pthread_t t;
  pthread_create(&t, NULL, schedule_from_elsewhere, &uv_work);
  uv_run(&uv, UV_RUN_DEFAULT); /* returns once the timer and the poll handle are closed */
  pthread_join(t, NULL);
  check(uv_host && uv_work.ran == ACTIONS && uv_work.off_host == 0 && uv_loop_close(&uv) == 0, what);
  rx_release(uv_work.target);
}

/* A drain refused on the hosting thread (not the run loop's) must not spin: the host stops
   polling and the work waits for the right thread. */
static void *bind_here(void *loop) {
  rx_run_loop_drain(loop); /* binds the loop to this thread */
  return NULL;
}

static void test_glib_wrong_thread(void) {
  rx_run_loop *loop = rx_run_loop_new();
  pthread_t t;
  pthread_create(&t, NULL, bind_here, loop);
  pthread_join(t, NULL);
  GMainContext *context = g_main_context_new();
  GSource *source = rx_glib_attach(loop, context);
  work w = {rx_run_loop_scheduler(loop), pthread_self(), 0, 0};
  rx_release(rx_schedule(w.target, action, &w, NULL));
  for (int i = 0; i < 100 && !g_source_is_destroyed(source); i++) g_main_context_iteration(context, FALSE);
  check(g_source_is_destroyed(source) && w.ran == 0,
        "rxc-glib.h: a context on a thread other than the run loop's: the source removes itself, no spin");
  rx_glib_detach(source);
  rx_release(loop); /* the queued action is dropped */
  g_main_context_unref(context);
}

static void *run_uv(void *uv) {
  uv_run(uv, UV_RUN_DEFAULT); /* returns once nothing is active */
  return NULL;
}

static void test_uv_wrong_thread(void) {
  uv_loop_t uv;
  uv_loop_init(&uv);
  rx_uv_poll *p = rx_uv_attach(&uv, rx_run_loop_main()); /* the main loop, run on another thread */
  work w = {rx_scheduler_main(), pthread_self(), 0, 0};
  rx_release(rx_schedule_after(w.target, 0, action, &w, NULL));
  pthread_t t;
  pthread_create(&t, NULL, run_uv, &uv);
  pthread_join(t, NULL); /* returns only if the handle stopped polling */
  int stopped = !uv_is_active(rx_uv_handle(p));
  rx_uv_detach(p);
  uv_run(&uv, UV_RUN_DEFAULT);
  check(stopped && w.ran == 0 && uv_loop_close(&uv) == 0,
        "rxc-uv.h: a libuv loop on a thread other than the run loop's: the handle stops polling, no spin");
  rx_main_drain(); /* the action, on its own thread */
  check(w.ran == 1 && w.off_host == 0, "rxc-uv.h: that work then runs on the run loop's own thread");
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  int64_t live_at_start = rx_debug_live_objects();
  test_bad_input();
  test_glib_new_loop();
  test_glib_main_loop();
  test_uv(rx_run_loop_new(), "rxc-uv.h: work from another thread runs on the libuv thread; detach closes the handle");
  test_uv(rx_run_loop_main(), "rxc-uv.h: the main run loop hosted in a libuv loop on the main thread");
  test_glib_wrong_thread();
  test_uv_wrong_thread();
  for (int i = 0; i < 1000 && rx_debug_live_objects() != live_at_start; i++) g_usleep(1000);
  check(rx_debug_live_objects() == live_at_start, "adapters: the live objects are back where they started");
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
