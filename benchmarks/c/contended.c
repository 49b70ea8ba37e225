/* The contended workload of `make bench`: four threads emit n/4 events each into one publish
 * subject with one subscriber, released together by a barrier; ns per event = wall time from
 * their creation to the last one's end / n (as SwiftBench measures it). The raw baseline is
 * the same loop calling the subscriber under a pthread mutex.
 *
 *   contended --time MS     a warm-up that sizes the run to about MS ms, then one timed run
 *                           per implementation; prints "RESULT contended rxc|raw n=N min_ns=T ..." */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "baseline.h"
#include "rxc.h"

enum { THREADS = 4 };

typedef struct run {
  rx_subject *subject; /* rxc */
  pthread_mutex_t lock; /* raw */
  sum_sink sink;
  int64_t per_thread;
  pthread_barrier_t start;
} run;

typedef struct job {
  run *r;
  int64_t base;
  bool raw;
} job;

static void *emit(void *p) {
  job *j = p;
  run *r = j->r;
  void (*volatile on_next)(void *, rx_value) = sink_on_next;
  pthread_barrier_wait(&r->start);
  for (int64_t k = 0; k < r->per_thread; k++) {
    if (j->raw) {
      pthread_mutex_lock(&r->lock);
      on_next(&r->sink, RX_INT(j->base + k));
      pthread_mutex_unlock(&r->lock);
    } else {
      rx_subject_on_next(r->subject, RX_INT(j->base + k));
    }
  }
  return NULL;
}

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ns per event of one run of n events (n rounded down to a multiple of THREADS). */
static double time_one(bool raw, int64_t n) {
  run r = {.per_thread = n / THREADS};
  pthread_mutex_init(&r.lock, NULL);
  pthread_barrier_init(&r.start, NULL, THREADS + 1);
  rx_disposable *d = NULL;
  if (!raw) {
    r.subject = rx_publish_subject_new();
    d = rx_subscribe(rx_subject_as_observable(r.subject),
                     (rx_observer){.on_next = sink_on_next, .ctx = &r.sink});
  }
  pthread_t th[THREADS];
  job jobs[THREADS];
  /* From before the threads exist, as SwiftBench measures (thread start-up is tens of us
     against runs of many ms): a clock read after the barrier could come after the whole
     run when this thread is descheduled there (5 threads on 2 cores). */
  double t0 = now_ns();
  for (int t = 0; t < THREADS; t++) {
    jobs[t] = (job){&r, t * r.per_thread, raw};
    pthread_create(&th[t], NULL, emit, &jobs[t]);
  }
  pthread_barrier_wait(&r.start);
  for (int t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
  double ns = (now_ns() - t0) / (double)(r.per_thread * THREADS);
  if (!raw) {
    rx_dispose(d);
    rx_release(r.subject);
  }
  int64_t total = r.per_thread * THREADS;
  if (r.sink.sum != total * (total - 1) / 2) {
    fprintf(stderr, "contended: %s sum %lld, expected %lld\n", raw ? "raw" : "rxc",
            (long long)r.sink.sum, (long long)(total * (total - 1) / 2));
    exit(2);
  }
  pthread_barrier_destroy(&r.start);
  pthread_mutex_destroy(&r.lock);
  return ns;
}

static int64_t size_for(double max_ms, double ns) {
  double n = max_ms * 1e6 / (ns > 0.1 ? ns : 0.1);
  return n < 1000 ? 1000 : n > 4e6 ? 4000000 : (int64_t)n;
}

int main(int argc, char **argv) {
  if (argc != 3 || strcmp(argv[1], "--time") != 0) {
    fprintf(stderr, "usage: contended --time MS\n");
    return 1;
  }
  double max_ms = atof(argv[2]);
  for (int raw = 1; raw >= 0; raw--) {
    int64_t n = size_for(max_ms / 10, time_one(raw, 1000));
    n = size_for(max_ms, time_one(raw, n));
    double ns = time_one(raw, n);
    printf("RESULT contended %s n=%lld min_ns=%.3f median_ns=%.3f   # %d threads into one publish subject, ns per event\n",
           raw ? "raw" : "rxc", (long long)n, ns, ns, THREADS);
  }
  return 0;
}
