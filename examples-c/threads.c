/*
 * threads.c — the scenario of the RxSwift scheduler documentation, in C.
 *
 * An observable made with rx_create produces 42. rx_subscribe_on moves its subscribe
 * callback to a background concurrent scheduler; rx_observe_on moves what the observer sees
 * to the main scheduler, which this program drives with rx_main_run. Each step prints the
 * thread it runs on.
 */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include "rxc.h"

static pthread_t main_thread;

static const char *where(void) {
  return pthread_equal(pthread_self(), main_thread) ? "main thread      " : "background thread";
}

static void step(const char *what) {
  printf("[%s %#lx] %s\n", where(), (unsigned long)pthread_self(), what);
}

static void say_disposed(void *ctx) { step("producer: subscription disposed"); }

static rx_disposable *produce(void *ctx, rx_emitter *emitter) {
  step("producer: subscribe callback runs, emitting 42");
  rx_emitter_next(emitter, rx_int(42));
  rx_emitter_completed(emitter);
  return rx_disposable_create(say_disposed, NULL, NULL);
}

static void on_next(void *ctx, rx_value v) {
  char line[64];
  snprintf(line, sizeof line, "observer: received %lld", (long long)v.i);
  step(line);
}

static void on_completed(void *ctx) {
  step("observer: completed, stopping the main loop");
  rx_main_stop();
}

static void on_disposed(void *ctx) { step("observer: on_disposed"); }

int main(void) {
  main_thread = pthread_self();
  int64_t live_at_start = rx_debug_live_objects();

  rx_scheduler *background = rx_scheduler_concurrent_new("example.background");
  rx_observable *source = rx_create(produce, NULL, NULL);
  rx_observable *subscribed_in_background = rx_subscribe_on(source, background);
  rx_observable *observed_on_main = rx_observe_on(subscribed_in_background, rx_scheduler_main());

  step("subscribing");
  rx_disposable *subscription = rx_subscribe(
      observed_on_main,
      (rx_observer){.on_next = on_next, .on_completed = on_completed, .on_disposed = on_disposed});
  step("running the main loop");
  rx_status status = rx_main_run();
  step("main loop returned");

  rx_release(subscription); /* the stream completed: the token only needs releasing */
  rx_release(observed_on_main);
  rx_release(subscribed_in_background);
  rx_release(source);
  rx_release(background);

  /* subscribe_on disposes on its scheduler: give that a moment, then check nothing leaked. */
  for (int i = 0; i < 1000 && rx_debug_live_objects() != live_at_start; i++) {
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
  }
  int64_t leaked = rx_debug_live_objects() - live_at_start;
  printf("live objects left: %lld\n", (long long)leaked);
  return status == RX_OK && leaked == 0 ? 0 : 1;
}
