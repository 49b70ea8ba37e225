/*
 * flow_control.c — a fast sensor, a slow consumer, and rx_observe_on_bounded's policies.
 *
 * A sensor thread publishes 2,000 readings, one every 20 us, into a subject. The consumer
 * gets them on a serial scheduler through a bounded observe_on (16 values at most) and
 * spends 100 us on each: five times slower than the sensor. Each overflow policy handles
 * the surplus its own way; the table shows what reached the consumer, what was dropped
 * (on_dropped calls and the counters agree), how long the sensor took, and how the stream
 * ended. A plain rx_observe_on would queue all of it, without limit.
 */
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "rxc.h"

enum { READINGS = 2000, SENSOR_PERIOD_US = 20, CONSUMER_COST_US = 100, CAPACITY = 16 };

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void busy_us(int64_t us) {
  int64_t end = now_ns() + us * 1000;
  while (now_ns() < end) {
  }
}

typedef struct run {
  sem_t done;
  long delivered;
  int64_t first, last; /* readings seen by the consumer */
  atomic_long dropped; /* on_dropped calls */
  const char *ending;
} run;

static void on_next(void *ctx, rx_value v) {
  run *r = ctx;
  if (r->delivered++ == 0) r->first = v.i;
  r->last = v.i;
  busy_us(CONSUMER_COST_US);
}
static void on_error(void *ctx, const rx_error *e) {
  ((run *)ctx)->ending = rx_error_code(e) == RX_ERROR_OVERFLOW ? "failed: overflow" : "failed";
}
static void on_completed(void *ctx) { ((run *)ctx)->ending = "completed"; }
static void on_disposed(void *ctx) { sem_post(&((run *)ctx)->done); }
static void on_dropped(void *ctx, rx_value v) { atomic_fetch_add(&((run *)ctx)->dropped, 1); }

static void *sensor(void *subject) {
  int64_t next = now_ns();
  for (int i = 0; i < READINGS; i++) {
    while (now_ns() < next) sched_yield(); /* a core may be all the consumer has */
    next += SENSOR_PERIOD_US * 1000;
    rx_subject_on_next(subject, rx_int(i)); /* returns at once unless the policy blocks */
  }
  rx_subject_on_completed(subject);
  return NULL;
}

static void one(const char *name, int32_t policy, rx_scheduler *consumer) {
  run r = {.ending = "?"};
  sem_init(&r.done, 0, 0);
  rx_subject *subject = rx_publish_subject_new();
  rx_flow_options opts = {
    .struct_size = sizeof opts,
    .capacity = CAPACITY,
    .policy = policy,
    .block_timeout_ns = 1000000000, /* RX_OVERFLOW_BLOCK: wait up to 1 s for room */
    .on_dropped = on_dropped,
    .ctx = &r,
  };
  rx_observable *bounded = rx_observe_on_bounded(rx_subject_as_observable(subject), consumer, &opts);
  rx_observer obs = {on_next, on_error, on_completed, on_disposed, &r};
  rx_disposable *sub = rx_subscribe(bounded, obs);

  int64_t start = now_ns();
  pthread_t t;
  pthread_create(&t, NULL, sensor, subject);
  pthread_join(t, NULL);
  double sensor_ms = (double)(now_ns() - start) / 1e6;
  sem_wait(&r.done); /* the consumer has seen the end */

  rx_flow_stats stats = {.struct_size = sizeof stats};
  rx_flow_stats_get(bounded, &stats);
  printf("%-12s %9llu %9llu %9ld %8lld..%-5lld %9.1f  %s\n", name, (unsigned long long)stats.delivered,
         (unsigned long long)stats.dropped, atomic_load(&r.dropped), (long long)r.first, (long long)r.last,
         sensor_ms, r.ending);
  rx_dispose(sub);
  rx_release(bounded);
  rx_release(subject);
  sem_destroy(&r.done);
}

int main(void) {
  int64_t live_at_start = rx_debug_live_objects();
  rx_scheduler *consumer = rx_scheduler_serial_new("consumer");
  printf("%d readings every %d us, a consumer taking %d us each, capacity %d\n\n", READINGS, SENSOR_PERIOD_US,
         CONSUMER_COST_US, CAPACITY);
  printf("%-12s %9s %9s %9s %15s %9s  %s\n", "policy", "delivered", "dropped", "on_drop", "readings seen",
         "sensor ms", "ending");
  one("drop oldest", RX_OVERFLOW_DROP_OLDEST, consumer);
  one("drop newest", RX_OVERFLOW_DROP_NEWEST, consumer);
  one("keep latest", RX_OVERFLOW_KEEP_LATEST, consumer);
  one("fail", RX_OVERFLOW_FAIL, consumer);
  one("block", RX_OVERFLOW_BLOCK, consumer);
  printf("\ndrop oldest/keep latest end on the newest reading; drop newest keeps the first ones;\n"
         "fail stops at the first overflow; block delivers everything but slows the sensor down.\n");
  rx_release(consumer);
  /* The serial scheduler's thread lets go of its last references just after it finishes. */
  for (int i = 0; i < 100 && rx_debug_live_objects() != live_at_start; i++) {
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
  }
  if (rx_debug_live_objects() != live_at_start) {
    fprintf(stderr, "flow_control: %lld live objects left\n", (long long)(rx_debug_live_objects() - live_at_start));
    return 1;
  }
  return 0;
}
