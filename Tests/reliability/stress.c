/*
 * stress.c — many producers, many observers, observe_on hops, churn.
 *
 * Usage: stress [-e EVENTS_PER_PRODUCER] [-m MINUTES] [-t TIMEOUT_S]
 *
 * Each round: 4 producer threads emit EVENTS (default 1,000,000) values each into one
 * publish subject, concurrently. 4 steady observers subscribe before the producers start
 * (directly, through observe_on a serial scheduler, through two serial hops, and through
 * observe_on a concurrent scheduler); 4 churn threads keep subscribing and disposing
 * observers (directly and through hops) while the events flow. Checks:
 * - steady observers get every event exactly once, each producer's in order, then
 *   on_completed, then on_disposed;
 * - a churn subscription sees, per producer, consecutive events (a window of the stream:
 *   nothing lost or duplicated inside it), and gets on_disposed exactly once, last;
 * - no two callbacks of one observer ever overlap;
 * - the round ends within the timeout (no deadlock), and rx_debug_live_objects() returns to
 *   its starting value.
 * With -m, rounds repeat until MINUTES have passed (a soak). Exit status 0 only if all held.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rxc.h"

#define PRODUCERS 4
#define STEADY 4
#define CHURN 4
#define SEQ_BITS 40

static long events_per_producer = 1000000;
static double minutes = 0;
static int timeout_s = 600;

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "stress: FAIL: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  exit(1);
}

/* ------------------------------------------------------------------ observers */

typedef struct {
  const char *name;
  int steady;
  atomic_int busy;
  atomic_int disposed;   /* on_disposed count */
  atomic_int completed;  /* terminal count */
  atomic_long received;
  int64_t last_seq[PRODUCERS]; /* -1: none seen yet (in this subscription) */
  atomic_int errors;
} Rec;

static void rec_reset(Rec *r, const char *name, int steady) {
  memset(r, 0, sizeof *r);
  r->name = name;
  r->steady = steady;
  for (int p = 0; p < PRODUCERS; p++) r->last_seq[p] = -1;
}

static void enter(Rec *r, const char *what) {
  if (atomic_exchange(&r->busy, 1)) die("%s: two callbacks at once (%s)", r->name, what);
  if (atomic_load(&r->disposed)) die("%s: %s after on_disposed", r->name, what);
}
static void leave(Rec *r) { atomic_store(&r->busy, 0); }

static void on_next(void *ctx, rx_value v) {
  Rec *r = ctx;
  enter(r, "on_next");
  if (atomic_load(&r->completed)) die("%s: on_next after on_completed", r->name);
  if (v.kind != RX_INT) die("%s: value of kind %d", r->name, v.kind);
  int p = (int)(v.i >> SEQ_BITS);
  int64_t seq = v.i & ((INT64_C(1) << SEQ_BITS) - 1);
  if (p < 0 || p >= PRODUCERS) die("%s: bad producer %d", r->name, p);
  int64_t last = r->last_seq[p];
  /* steady: every event from 0; churn: consecutive once the window has started */
  if ((r->steady || last >= 0) && seq != last + 1)
    die("%s: producer %d: got seq %lld after %lld (lost, duplicated or reordered)", r->name, p,
        (long long)seq, (long long)last);
  r->last_seq[p] = seq;
  atomic_fetch_add_explicit(&r->received, 1, memory_order_relaxed);
  leave(r);
}

static void on_error(void *ctx, const rx_error *e) {
  Rec *r = ctx;
  die("%s: unexpected on_error: %s", r->name, rx_error_message(e));
}

static void on_completed(void *ctx) {
  Rec *r = ctx;
  enter(r, "on_completed");
  if (atomic_fetch_add(&r->completed, 1)) die("%s: second terminal event", r->name);
  leave(r);
}

static void on_disposed(void *ctx) {
  Rec *r = ctx;
  enter(r, "on_disposed");
  atomic_fetch_add(&r->disposed, 1);
  leave(r);
}

static rx_observer observer_of(Rec *r) {
  return (rx_observer){on_next, on_error, on_completed, on_disposed, r};
}

/* ------------------------------------------------------------------ one round */

typedef struct {
  rx_subject *subject;
  int index;
} Producer;

static void *producer(void *arg) {
  Producer *p = arg;
  for (long i = 0; i < events_per_producer; i++) {
    rx_status s = rx_subject_on_next(p->subject, rx_int(((int64_t)p->index << SEQ_BITS) | i));
    if (s != RX_OK) die("producer %d: rx_subject_on_next: %s", p->index, rx_last_error());
  }
  return NULL;
}

typedef struct {
  rx_observable *sources[3];
  int index;
  atomic_int *stop;
  long subscriptions;
  long events;
} Churner;

static void *churner(void *arg) {
  Churner *c = arg;
  unsigned seed = (unsigned)c->index * 7919u + 1;
  char name[32];
  snprintf(name, sizeof name, "churn%d", c->index);
  while (!atomic_load(c->stop)) {
    Rec *r = malloc(sizeof *r);
    rec_reset(r, name, 0);
    rx_observable *src = c->sources[rand_r(&seed) % 3];
    rx_disposable *d = rx_subscribe(src, observer_of(r));
    if (!d) die("%s: rx_subscribe: %s", name, rx_last_error());
    usleep(rand_r(&seed) % 2000);
    if (rx_dispose(d) != RX_OK) die("%s: rx_dispose: %s", name, rx_last_error());
    /* on_disposed runs in rx_dispose, or right after a callback running elsewhere */
    int64_t deadline = now_ns() + 10 * INT64_C(1000000000);
    while (atomic_load(&r->disposed) == 0) {
      if (now_ns() > deadline) die("%s: no on_disposed 10 s after rx_dispose", name);
      usleep(100);
    }
    /* a callback that was already running may still be finishing: wait for it */
    while (atomic_load(&r->busy)) usleep(10);
    if (atomic_load(&r->disposed) != 1) die("%s: on_disposed %d times", name, atomic_load(&r->disposed));
    c->events += atomic_load(&r->received);
    c->subscriptions++;
    free(r);
  }
  return NULL;
}

static atomic_int round_done;

static void *watchdog(void *arg) {
  int64_t deadline = now_ns() + (int64_t)timeout_s * 1000000000;
  (void)arg;
  while (!atomic_load(&round_done)) {
    if (now_ns() > deadline) {
      fprintf(stderr, "stress: FAIL: round not finished after %d s (deadlock?)\n", timeout_s);
      _exit(1);
    }
    usleep(100000);
  }
  return NULL;
}

static void round_once(int round, long *delivered, long *churn_subs, long *churn_events) {
  int64_t live0 = rx_debug_live_objects();
  atomic_store(&round_done, 0);
  pthread_t wd;
  pthread_create(&wd, NULL, watchdog, NULL);

  rx_subject *subject = rx_publish_subject_new();
  rx_scheduler *serial_a = rx_scheduler_serial_new("stress.a");
  rx_scheduler *serial_b = rx_scheduler_serial_new("stress.b");
  rx_scheduler *conc = rx_scheduler_concurrent_new("stress.c");
  if (!subject || !serial_a || !serial_b || !conc) die("setup: %s", rx_last_error());
  rx_observable *direct = rx_subject_as_observable(subject);
  rx_observable *hop_a = rx_observe_on(direct, serial_a);
  rx_observable *hop_ab = rx_observe_on(hop_a, serial_b);
  rx_observable *hop_c = rx_observe_on(direct, conc);
  if (!direct || !hop_a || !hop_ab || !hop_c) die("setup: %s", rx_last_error());

  static const char *names[STEADY] = {"direct", "observe_on(serial)", "observe_on(serial)x2",
                                      "observe_on(concurrent)"};
  rx_observable *steady_src[STEADY] = {direct, hop_a, hop_ab, hop_c};
  Rec steady[STEADY];
  rx_disposable *steady_d[STEADY];
  for (int i = 0; i < STEADY; i++) {
    rec_reset(&steady[i], names[i], 1);
    steady_d[i] = rx_subscribe(steady_src[i], observer_of(&steady[i]));
    if (!steady_d[i]) die("subscribe %s: %s", names[i], rx_last_error());
  }

  atomic_int stop = 0;
  Churner churners[CHURN];
  pthread_t ct[CHURN], pt[PRODUCERS];
  for (int i = 0; i < CHURN; i++) {
    churners[i] = (Churner){{direct, hop_ab, hop_c}, i, &stop, 0, 0};
    pthread_create(&ct[i], NULL, churner, &churners[i]);
  }
  Producer producers[PRODUCERS];
  int64_t t0 = now_ns();
  for (int i = 0; i < PRODUCERS; i++) {
    producers[i] = (Producer){subject, i};
    pthread_create(&pt[i], NULL, producer, &producers[i]);
  }
  for (int i = 0; i < PRODUCERS; i++) pthread_join(pt[i], NULL);
  if (rx_subject_on_completed(subject) != RX_OK) die("on_completed: %s", rx_last_error());
  /* every steady observer ends with completed + on_disposed, hops included */
  long expected = events_per_producer * PRODUCERS;
  for (int i = 0; i < STEADY; i++) {
    while (atomic_load(&steady[i].disposed) == 0) usleep(1000);
    if (atomic_load(&steady[i].received) != expected)
      die("%s: received %ld of %ld", names[i], atomic_load(&steady[i].received), expected);
    if (atomic_load(&steady[i].completed) != 1) die("%s: no on_completed", names[i]);
    while (atomic_load(&steady[i].busy)) usleep(10);
    if (atomic_load(&steady[i].disposed) != 1) die("%s: on_disposed %d times", names[i], atomic_load(&steady[i].disposed));
  }
  int64_t t1 = now_ns();
  atomic_store(&stop, 1);
  for (int i = 0; i < CHURN; i++) pthread_join(ct[i], NULL);

  long subs = 0, cev = 0;
  for (int i = 0; i < CHURN; i++) {
    subs += churners[i].subscriptions;
    cev += churners[i].events;
  }
  for (int i = 0; i < STEADY; i++) rx_dispose(steady_d[i]); /* already ended: a no-op cancel */
  rx_release(hop_c);
  rx_release(hop_ab);
  rx_release(hop_a);
  rx_release(subject);
  rx_release(conc);
  rx_release(serial_b);
  rx_release(serial_a);

  /* scheduler threads let go of their last references asynchronously */
  int64_t deadline = now_ns() + 10 * INT64_C(1000000000);
  while (rx_debug_live_objects() != live0 && now_ns() < deadline) usleep(1000);
  if (rx_debug_live_objects() != live0)
    die("rx_debug_live_objects() is %lld after the round, %lld before",
        (long long)rx_debug_live_objects(), (long long)live0);
  atomic_store(&round_done, 1);
  pthread_join(wd, NULL);

  double secs = (t1 - t0) / 1e9;
  long through = expected * STEADY + cev;
  printf("round %d: %ld events in (%d producers x %ld), %ld deliveries to %d steady observers "
         "+ %ld to %ld churn subscriptions, %.2f s (%.2f M events/s in)\n",
         round, expected, PRODUCERS, events_per_producer, expected * STEADY, STEADY, cev, subs, secs,
         expected / secs / 1e6);
  fflush(stdout);
  *delivered += through;
  *churn_subs += subs;
  *churn_events += cev;
}

int main(int argc, char **argv) {
  int opt;
  while ((opt = getopt(argc, argv, "e:m:t:")) != -1) {
    switch (opt) {
    case 'e': events_per_producer = atol(optarg); break;
    case 'm': minutes = atof(optarg); break;
    case 't': timeout_s = atoi(optarg); break;
    default:
      fprintf(stderr, "usage: %s [-e events_per_producer] [-m minutes] [-t timeout_s]\n", argv[0]);
      return 2;
    }
  }
  if (events_per_producer < 1 || events_per_producer >= (INT64_C(1) << SEQ_BITS)) die("bad -e");
  /* the shared schedulers count from first use; none are used here, but be explicit */
  int64_t live0 = rx_debug_live_objects();
  int64_t start = now_ns(), end = start + (int64_t)(minutes * 60e9);
  long delivered = 0, churn_subs = 0, churn_events = 0, events_in = 0;
  int round = 0;
  do {
    round_once(++round, &delivered, &churn_subs, &churn_events);
    events_in += events_per_producer * PRODUCERS;
  } while (now_ns() < end);
  if (rx_debug_live_objects() != live0) die("live objects leaked across rounds");
  printf("stress: PASS: %d round(s) in %.1f s, %ld events in, %ld deliveries (%ld churn "
         "subscriptions), live objects back to %lld\n",
         round, (now_ns() - start) / 1e9, events_in, delivered, churn_subs, (long long)live0);
  return 0;
}
