/*
 * libuv.c — hosting librxc on a libuv loop that runs on a thread other than main.
 *
 * An rx_run_loop is a scheduler whose work runs on the thread that drives it. rxc-uv.h's
 * rx_uv_attach polls the run loop's fd from a libuv loop and drains the run loop whenever
 * work is due. A producer thread pushes values through rx_observe_on(..., the loop's
 * scheduler): every callback then runs on the libuv thread, next to the program's other
 * libuv handles (here a uv_timer).
 *
 *     cc libuv.c $(pkg-config --cflags --libs rxc libuv)
 */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <uv.h>

#include "rxc-uv.h"

/* The one place that reads an int out of an rx_value. */
#define VAL_I(v) ((v).i)

enum { VALUES = 10 };

typedef struct host {
  rx_run_loop *rx;
  uv_loop_t uv;
  rx_uv_poll *rx_host;
  uv_timer_t heartbeat;
  pthread_t uv_thread; /* set by the libuv thread itself */
  int values, beats, wrong_thread;
  long long sum;
  int completed, delayed_ran;
} host;

static host h;

/* On the libuv thread: uv_run returns once the closes are done. */
static void close_all(void) {
  rx_uv_detach(h.rx_host);
  uv_timer_stop(&h.heartbeat);
  uv_close((uv_handle_t *)&h.heartbeat, NULL);
}

/* rx callbacks: all on the libuv thread, inside rx_run_loop_drain. */
static void check_thread(void) {
  if (!pthread_equal(pthread_self(), h.uv_thread)) h.wrong_thread++;
}

static void on_value(void *ctx, rx_value v) {
  check_thread();
  printf("  uv thread: value %lld\n", (long long)VAL_I(v));
  h.values++;
  h.sum += VAL_I(v);
}

static void on_completed(void *ctx) {
  check_thread();
  printf("  uv thread: completed\n");
  h.completed = 1;
  if (h.delayed_ran) close_all();
}

static void delayed(void *ctx) {
  check_thread();
  printf("  uv thread: delayed action (scheduled 30 ms ahead from the producer)\n");
  h.delayed_ran = 1;
  if (h.completed) close_all();
}

static void heartbeat(uv_timer_t *timer) { h.beats++; }

static void *uv_thread(void *arg) {
  h.uv_thread = pthread_self();
  /* The first drain binds the rx loop to this thread. */
  uv_run(&h.uv, UV_RUN_DEFAULT); /* returns once close_all closed every handle */
  return NULL;
}

typedef struct producer_args {
  rx_subject *subject;
  rx_scheduler *target;
} producer_args;

static void *producer(void *arg) {
  producer_args *p = arg;
  rx_release(rx_schedule_after(p->target, 30 * 1000000, delayed, NULL, NULL));
  for (int i = 1; i <= VALUES; i++) {
    rx_subject_on_next(p->subject, RX_INT(i * i));
    struct timespec ms = {0, 2 * 1000000};
    nanosleep(&ms, NULL);
  }
  rx_subject_on_completed(p->subject);
  return NULL;
}

int main(void) {
  int64_t live_at_start = rx_debug_live_objects();
  h.rx = rx_run_loop_new();
  if (!h.rx) {
    fprintf(stderr, "rx_run_loop_new: %s\n", rx_last_error());
    return 1;
  }
  uv_loop_init(&h.uv);
  h.rx_host = rx_uv_attach(&h.uv, h.rx); /* retains h.rx until the handle is closed */
  if (!h.rx_host) {
    fprintf(stderr, "rx_uv_attach: %s\n", rx_last_error());
    return 1;
  }
  uv_timer_init(&h.uv, &h.heartbeat);
  uv_timer_start(&h.heartbeat, heartbeat, 5, 5);

  rx_subject *subject = rx_publish_subject_new();
  rx_scheduler *on_uv = rx_run_loop_scheduler(h.rx); /* borrowed */
  rx_observable *delivered = rx_observe_on(rx_subject_as_observable(subject), on_uv);
  rx_disposable *sub = rx_subscribe(delivered, (rx_observer){.on_next = on_value, .on_completed = on_completed});

  pthread_t uv;
  pthread_create(&uv, NULL, uv_thread, NULL);
  producer_args args = {subject, on_uv};
  pthread_t prod;
  pthread_create(&prod, NULL, producer, &args);
  pthread_join(prod, NULL);
  pthread_join(uv, NULL);

  printf("libuv: %d values (sum %lld), completed %d, delayed %d, %d heartbeats, %d callbacks off the uv thread\n",
         h.values, h.sum, h.completed, h.delayed_ran, h.beats, h.wrong_thread);
  rx_dispose(sub);
  rx_release(delivered);
  rx_release(subject);
  rx_release(h.rx);
  uv_loop_close(&h.uv);
  long long want = 0;
  for (int i = 1; i <= VALUES; i++) want += (long long)i * i;
  int ok = h.values == VALUES && h.sum == want && h.completed && h.delayed_ran && !h.wrong_thread &&
           rx_debug_live_objects() == live_at_start;
  printf("libuv: %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
