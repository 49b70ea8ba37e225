/*
 * libuv.c — hosting librxc on a libuv loop that runs on a thread other than main.
 *
 * An rx_run_loop is a scheduler whose work runs on the thread that drives it. Its fd is
 * readable exactly while work is due, so a uv_poll on rx_run_loop_fd() tells the libuv
 * thread when to call rx_run_loop_drain(). A producer thread pushes values through
 * rx_observe_on(..., the loop's scheduler): every callback then runs on the libuv thread,
 * next to the program's other libuv handles (here a uv_timer).
 *
 *     cc libuv.c $(pkg-config --cflags --libs rxc) -luv
 */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <uv.h>

#include "rxc.h"

/* The one place that reads an int out of an rx_value. */
#define VAL_I(v) ((v).i)

enum { VALUES = 10 };

typedef struct host {
  rx_run_loop *rx;
  uv_loop_t uv;
  uv_poll_t rx_ready;
  uv_timer_t heartbeat;
  pthread_t thread;
  int values, drains, beats;
  long long sum;
  int completed, delayed_ran;
} host;

static host h;

static void close_all(void) {
  uv_poll_stop(&h.rx_ready);
  uv_close((uv_handle_t *)&h.rx_ready, NULL);
  uv_timer_stop(&h.heartbeat);
  uv_close((uv_handle_t *)&h.heartbeat, NULL);
}

/* rx callbacks: all on the libuv thread, inside rx_run_loop_drain. */
static void on_value(void *ctx, rx_value v) {
  printf("  uv thread: value %lld\n", (long long)VAL_I(v));
  h.values++;
  h.sum += VAL_I(v);
}

static void on_completed(void *ctx) {
  printf("  uv thread: completed\n");
  h.completed = 1;
  if (h.delayed_ran) close_all();
}

static void delayed(void *ctx) {
  printf("  uv thread: delayed action (scheduled 30 ms ahead from the producer)\n");
  h.delayed_ran = 1;
  if (h.completed) close_all();
}

/* libuv callbacks. */
static void rx_ready(uv_poll_t *poll, int status, int events) {
  h.drains++;
  rx_run_loop_drain(h.rx); /* the first drain binds the rx loop to this thread */
}

static void heartbeat(uv_timer_t *timer) { h.beats++; }

static void *uv_thread(void *arg) {
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
  uv_poll_init(&h.uv, &h.rx_ready, rx_run_loop_fd(h.rx));
  uv_poll_start(&h.rx_ready, UV_READABLE, rx_ready);
  uv_timer_init(&h.uv, &h.heartbeat);
  uv_timer_start(&h.heartbeat, heartbeat, 5, 5);

  rx_subject *subject = rx_publish_subject_new();
  rx_scheduler *on_uv = rx_run_loop_scheduler(h.rx); /* borrowed */
  rx_observable *delivered = rx_observe_on(rx_subject_as_observable(subject), on_uv);
  rx_disposable *sub = rx_subscribe(delivered, (rx_observer){.on_next = on_value, .on_completed = on_completed});

  pthread_create(&h.thread, NULL, uv_thread, NULL);
  producer_args args = {subject, on_uv};
  pthread_t prod;
  pthread_create(&prod, NULL, producer, &args);
  pthread_join(prod, NULL);
  pthread_join(h.thread, NULL);

  printf("libuv: %d values (sum %lld), completed %d, delayed %d, %d drains, %d heartbeats\n", h.values,
         h.sum, h.completed, h.delayed_ran, h.drains, h.beats);
  rx_dispose(sub);
  rx_release(delivered);
  rx_release(subject);
  rx_release(h.rx);
  uv_loop_close(&h.uv);
  long long want = 0;
  for (int i = 1; i <= VALUES; i++) want += (long long)i * i;
  int ok = h.values == VALUES && h.sum == want && h.completed && h.delayed_ran &&
           rx_debug_live_objects() == live_at_start;
  printf("libuv: %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
