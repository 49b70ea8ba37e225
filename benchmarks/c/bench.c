/* librxc benchmark: workloads W1-W9 through the C ABI, plus the raw C baseline.
 *
 *   bench [--runs R] [--scale S] [--max-ms T] [--warm 1]
 *                                         every workload, R timed runs each (min, median);
 *                                         with --max-ms, n shrinks so a run takes about T ms;
 *                                         each workload warms up (and calibrates n) first
 *                                         when R > 1, or with --warm 1 (benchmarks/run.py
 *                                         runs the suite R times with --runs 1 --warm 1)
 *   bench --workload W1 [--n N] [--impl rxc|raw] [--runs R]
 *                                         one workload (for callgrind and the malloc counter)
 *
 * Output lines meant for benchmarks/run.sh start with "RESULT": workload, implementation,
 * units, min and median ns per unit, allocations in the measured region (when the
 * LD_PRELOAD malloc counter is loaded), and for W9 bytes per live subscription.
 * Every subscriber sums its values and each run checks the sum, so nothing is optimized away.
 * Functions of the library that are not exported yet are weak references: a workload that
 * needs one prints "n/a (not yet implemented)" instead of running. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <malloc.h>
#include <semaphore.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "baseline.h"
#include "rxc.h"

#pragma weak rx_publish_subject_new
#pragma weak rx_replay_subject_new
#pragma weak rx_subject_on_next
#pragma weak rx_subject_on_completed
#pragma weak rx_subject_as_observable
#pragma weak rx_subject_dispose
#pragma weak rx_map
#pragma weak rx_filter
#pragma weak rx_flat_map
#pragma weak rx_observe_on
#pragma weak rx_observe_on_bounded
#pragma weak rx_flow_stats_get
#pragma weak rx_scheduler_serial_new
#pragma weak rx_just
#pragma weak rx_range

#define HAVE(fn) ((void *)(fn) != NULL)

/* ---- measurement helpers ---- */

static uint64_t (*alloc_counter)(void); /* from malloc_count.so, when preloaded */

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static uint64_t allocs(void) { return alloc_counter ? alloc_counter() : 0; }

typedef struct measure {
  int64_t t0, t1;
  uint64_t a0, a1;
  double bytes_per_unit; /* W9 only */
} measure;

static void begin(measure *m) {
  m->a0 = allocs();
  m->t0 = now_ns();
}

static void end(measure *m) {
  m->t1 = now_ns();
  m->a1 = allocs();
}

static void check(const char *what, int64_t got, int64_t want) {
  if (got == want) return;
  fprintf(stderr, "bench: %s: got %lld, expected %lld\n", what, (long long)got, (long long)want);
  exit(2);
}

static void must(const void *p, const char *what) {
  if (p) return;
  fprintf(stderr, "bench: %s failed: %s\n", what, rx_last_error());
  exit(2);
}

static rx_observer observer_for(sum_sink *s) {
  return (rx_observer){.on_next = sink_on_next, .on_completed = sink_on_completed,
                       .on_disposed = sink_on_disposed, .ctx = s};
}

static int64_t sum_range(int64_t n) { return n * (n - 1) / 2; } /* 0 + 1 + ... + n-1 */

/* ---- raw C baselines ---- */

static void raw_w1(int64_t n, measure *m) {
  sum_sink s = {0};
  void (*volatile fn)(void *, rx_value) = sink_on_next;
  begin(m);
  raw_publish(fn, &s, n);
  end(m);
  check("raw W1 sum", s.sum, sum_range(n));
}

enum { W2_SUBSCRIBERS = 100 };

static void raw_w2(int64_t n, measure *m) {
  int64_t events = n / W2_SUBSCRIBERS;
  sum_sink s[W2_SUBSCRIBERS];
  void *ctxs[W2_SUBSCRIBERS];
  memset(s, 0, sizeof s);
  for (int k = 0; k < W2_SUBSCRIBERS; k++) ctxs[k] = &s[k];
  void (*volatile fn)(void *, rx_value) = sink_on_next;
  begin(m);
  raw_publish_many(fn, ctxs, W2_SUBSCRIBERS, events);
  end(m);
  for (int k = 0; k < W2_SUBSCRIBERS; k++) check("raw W2 sum", s[k].sum, sum_range(events));
}

/* Expected sum of W3: elements i in [0, n) with i+1 even contribute 2(i+1). */
static int64_t w3_expected(int64_t n) {
  int64_t sum = 0;
  for (int64_t i = 0; i < n; i++)
    if (((i + 1) & 1) == 0) sum += 2 * (i + 1);
  return sum;
}

static void raw_w3(int64_t n, measure *m) {
  sum_sink s = {0};
  rx_map_fn volatile add1 = fn_add1, times2 = fn_times2;
  rx_predicate_fn volatile even = fn_even;
  begin(m);
  raw_pipeline(add1, even, times2, sink_on_next, &s, n);
  end(m);
  check("raw W3 sum", s.sum, w3_expected(n));
}

/* ---- librxc workloads ---- */

static bool have_subjects(void) {
  return HAVE(rx_publish_subject_new) && HAVE(rx_subject_on_next) &&
         HAVE(rx_subject_on_completed) && HAVE(rx_subject_as_observable) &&
         HAVE(rx_subject_dispose);
}

/* W1: publish subject -> 1 subscriber, per on_next. */
static void rxc_w1(int64_t n, measure *m) {
  sum_sink s = {0};
  rx_subject *subject = rx_publish_subject_new();
  must(subject, "rx_publish_subject_new");
  rx_disposable *d = rx_subscribe(rx_subject_as_observable(subject), observer_for(&s));
  must(d, "rx_subscribe");
  begin(m);
  for (int64_t i = 0; i < n; i++) rx_subject_on_next(subject, RX_INT(i));
  end(m);
  rx_dispose(d);
  rx_release(subject);
  check("W1 sum", s.sum, sum_range(n));
  check("W1 on_disposed", s.disposed, 1);
}

/* W2: publish subject -> 100 subscribers, per delivery. */
static void rxc_w2(int64_t n, measure *m) {
  int64_t events = n / W2_SUBSCRIBERS;
  sum_sink s[W2_SUBSCRIBERS];
  rx_disposable *d[W2_SUBSCRIBERS];
  memset(s, 0, sizeof s);
  rx_subject *subject = rx_publish_subject_new();
  must(subject, "rx_publish_subject_new");
  for (int k = 0; k < W2_SUBSCRIBERS; k++) {
    d[k] = rx_subscribe(rx_subject_as_observable(subject), observer_for(&s[k]));
    must(d[k], "rx_subscribe");
  }
  begin(m);
  for (int64_t i = 0; i < events; i++) rx_subject_on_next(subject, RX_INT(i));
  end(m);
  for (int k = 0; k < W2_SUBSCRIBERS; k++) rx_dispose(d[k]);
  rx_release(subject);
  for (int k = 0; k < W2_SUBSCRIBERS; k++) check("W2 sum", s[k].sum, sum_range(events));
}

/* W3: range -> map(+1) -> filter(even) -> map(x2), per source element (subscription
   included: range is synchronous, so subscribe runs the whole stream). */
static void rxc_w3(int64_t n, measure *m) {
  sum_sink s = {0};
  rx_observable *range = rx_range(0, (size_t)n);
  rx_observable *a = rx_map(range, fn_add1, NULL, NULL);
  rx_observable *b = rx_filter(a, fn_even, NULL, NULL);
  rx_observable *c = rx_map(b, fn_times2, NULL, NULL);
  must(c, "rx_range/rx_map/rx_filter");
  begin(m);
  rx_disposable *d = rx_subscribe(c, observer_for(&s));
  end(m);
  must(d, "rx_subscribe");
  rx_dispose(d);
  rx_release(c), rx_release(b), rx_release(a), rx_release(range);
  check("W3 sum", s.sum, w3_expected(n));
  check("W3 completed", s.completed, 1);
}

/* W4: subscribe + dispose on a subject, per pair. */
static void rxc_w4(int64_t n, measure *m) {
  sum_sink s = {0};
  rx_subject *subject = rx_publish_subject_new();
  must(subject, "rx_publish_subject_new");
  rx_observable *o = rx_subject_as_observable(subject);
  rx_observer obs = observer_for(&s);
  begin(m);
  for (int64_t i = 0; i < n; i++) rx_dispose(rx_subscribe(o, obs));
  end(m);
  rx_subject_on_next(subject, RX_INT(1)); /* nobody listens any more */
  rx_release(subject);
  check("W4 on_disposed", s.disposed, n);
  check("W4 sum", s.sum, 0);
}

/* W5: just(i) -> map(+1) -> subscribe, the whole lifecycle, per iteration. */
static void rxc_w5(int64_t n, measure *m) {
  sum_sink s = {0};
  rx_observer obs = observer_for(&s);
  begin(m);
  for (int64_t i = 0; i < n; i++) {
    rx_observable *j = rx_just(RX_INT(i));
    rx_observable *mapped = rx_map(j, fn_add1, NULL, NULL);
    rx_release(rx_subscribe(mapped, obs));
    rx_release(mapped);
    rx_release(j);
  }
  end(m);
  check("W5 sum", s.sum, sum_range(n) + n);
  check("W5 completed", s.completed, n);
  check("W5 on_disposed", s.disposed, n);
}

/* W6: subject -> observe_on(serial) -> subscriber, end to end, per event. W6b: the same
   through rx_observe_on_bounded (drop oldest) with room for every event: the cost of the
   bound's bookkeeping while nothing overflows (checked: no value dropped). */
static void observe_on_run(const char *w, int64_t n, measure *m, bool bounded) {
  sem_t done;
  sem_init(&done, 0, 0);
  sum_sink s = {.done = &done};
  rx_scheduler *serial = rx_scheduler_serial_new(w);
  rx_subject *subject = rx_publish_subject_new();
  must(serial, "rx_scheduler_serial_new");
  must(subject, "rx_publish_subject_new");
  rx_flow_options opts = {sizeof opts, (size_t)(n > 1024 ? n : 1024), RX_OVERFLOW_DROP_OLDEST, 0, NULL, NULL, NULL};
  rx_observable *o = bounded ? rx_observe_on_bounded(rx_subject_as_observable(subject), serial, &opts)
                             : rx_observe_on(rx_subject_as_observable(subject), serial);
  must(o, bounded ? "rx_observe_on_bounded" : "rx_observe_on");
  rx_disposable *d = rx_subscribe(o, observer_for(&s));
  must(d, "rx_subscribe");
  begin(m);
  for (int64_t i = 0; i < n; i++) rx_subject_on_next(subject, RX_INT(i));
  rx_subject_on_completed(subject);
  while (sem_wait(&done) != 0) {} /* on_disposed: after on_completed, on the serial queue */
  end(m);
  rx_flow_stats st = {.struct_size = sizeof st};
  if (bounded) rx_flow_stats_get(o, &st);
  rx_dispose(d);
  rx_release(o);
  rx_release(subject);
  rx_release(serial);
  char what[32];
  snprintf(what, sizeof what, "%s dropped", w);
  check(what, (int64_t)st.dropped, 0);
  snprintf(what, sizeof what, "%s sum", w);
  check(what, s.sum, sum_range(n));
  snprintf(what, sizeof what, "%s completed", w);
  check(what, s.completed, 1);
  snprintf(what, sizeof what, "%s on_disposed", w);
  check(what, s.disposed, 1);
  sem_destroy(&done);
}

static void rxc_w6(int64_t n, measure *m) { observe_on_run("W6", n, m, false); }
static void rxc_w6b(int64_t n, measure *m) { observe_on_run("W6b", n, m, true); }

/* W7: replay(100) subject holding 100 values; a late subscriber replays them. Per replayed
   value (subscribe and dispose included, amortized over the 100 values). */
enum { W7_BUFFER = 100 };

static void rxc_w7(int64_t n, measure *m) {
  int64_t subscriptions = n / W7_BUFFER;
  sum_sink s = {0};
  rx_subject *subject = rx_replay_subject_new(W7_BUFFER);
  must(subject, "rx_replay_subject_new");
  for (int64_t i = 0; i < W7_BUFFER; i++) rx_subject_on_next(subject, RX_INT(i));
  rx_observable *o = rx_subject_as_observable(subject);
  rx_observer obs = observer_for(&s);
  begin(m);
  for (int64_t k = 0; k < subscriptions; k++) rx_dispose(rx_subscribe(o, obs));
  end(m);
  rx_release(subject);
  check("W7 sum", s.sum, subscriptions * sum_range(W7_BUFFER));
}

/* W8: range -> flat_map(just), per element. */
static rx_observable *fn_to_just(void *ctx, rx_value v, rx_error **error) {
  (void)ctx, (void)error;
  return rx_just(v);
}

static void rxc_w8(int64_t n, measure *m) {
  sum_sink s = {0};
  rx_observable *range = rx_range(0, (size_t)n);
  rx_observable *fm = rx_flat_map(range, fn_to_just, NULL, NULL);
  must(fm, "rx_flat_map");
  begin(m);
  rx_disposable *d = rx_subscribe(fm, observer_for(&s));
  end(m);
  must(d, "rx_subscribe");
  rx_dispose(d);
  rx_release(fm), rx_release(range);
  check("W8 sum", s.sum, sum_range(n));
  check("W8 completed", s.completed, 1);
}

/* W9: memory per live subscription, n subscribers on one subject (heap in use before and
   after, from mallinfo2: the Swift runtime is linked into librxc and allocates with malloc). */
static size_t heap_in_use(void) {
  struct mallinfo2 mi = mallinfo2();
  return mi.uordblks + mi.hblkhd;
}

static void rxc_w9(int64_t n, measure *m) {
  sum_sink s = {0};
  rx_disposable **d = calloc((size_t)n, sizeof *d);
  must(d, "calloc");
  rx_subject *subject = rx_publish_subject_new();
  must(subject, "rx_publish_subject_new");
  rx_observable *o = rx_subject_as_observable(subject);
  rx_observer obs = observer_for(&s);
  size_t before = heap_in_use();
  begin(m);
  for (int64_t i = 0; i < n; i++) d[i] = rx_subscribe(o, obs);
  end(m);
  size_t after = heap_in_use();
  m->bytes_per_unit = (double)(after - before) / (double)n;
  rx_subject_on_next(subject, RX_INT(1));
  for (int64_t i = 0; i < n; i++) rx_dispose(d[i]);
  rx_release(subject);
  free(d);
  check("W9 sum", s.sum, n);
  check("W9 on_disposed", s.disposed, n);
}

/* ---- the workload table ---- */

typedef struct workload {
  const char *name, *title, *unit;
  int64_t n;     /* units per timed run at scale 1 */
  int64_t quantum; /* n is rounded to a multiple of this */
  bool (*available)(void);
  void (*rxc)(int64_t, measure *);
  void (*raw)(int64_t, measure *);
} workload;

static bool av_w1(void) { return have_subjects(); }
static bool av_w3(void) { return HAVE(rx_range) && HAVE(rx_map) && HAVE(rx_filter); }
static bool av_w5(void) { return HAVE(rx_just) && HAVE(rx_map); }
static bool av_w6(void) {
  return have_subjects() && HAVE(rx_observe_on) && HAVE(rx_scheduler_serial_new);
}
static bool av_w6b(void) { return av_w6() && HAVE(rx_observe_on_bounded) && HAVE(rx_flow_stats_get); }
static bool av_w7(void) { return have_subjects() && HAVE(rx_replay_subject_new); }
static bool av_w8(void) { return HAVE(rx_range) && HAVE(rx_flat_map) && HAVE(rx_just); }

static const workload workloads[] = {
  {"W1", "publish subject -> 1 subscriber", "event", 10000000, 1, av_w1, rxc_w1, raw_w1},
  {"W2", "publish subject -> 100 subscribers", "delivery", 10000000, W2_SUBSCRIBERS, av_w1,
   rxc_w2, raw_w2},
  {"W3", "range -> map -> filter -> map", "element", 10000000, 1, av_w3, rxc_w3, raw_w3},
  {"W4", "subscribe + dispose on a subject", "pair", 1000000, 1, av_w1, rxc_w4, NULL},
  {"W5", "just -> map -> subscribe lifecycle", "lifecycle", 1000000, 1, av_w5, rxc_w5, NULL},
  {"W6", "subject -> observe_on(serial) -> subscriber", "event", 1000000, 1, av_w6, rxc_w6,
   NULL},
  {"W6b", "subject -> observe_on_bounded(serial) -> subscriber", "event", 1000000, 1, av_w6b,
   rxc_w6b, NULL},
  {"W7", "replay(100), late subscriber", "replayed value", 10000000, W7_BUFFER, av_w7, rxc_w7,
   NULL},
  {"W8", "range -> flat_map(just)", "element", 1000000, 1, av_w8, rxc_w8, NULL},
  {"W9", "memory per live subscription", "subscription", 1000000, 1, av_w1, rxc_w9, NULL},
};
enum { WORKLOADS = sizeof workloads / sizeof workloads[0] };

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int64_t max_ms; /* --max-ms: shrink n so one timed run takes about this long */
static bool force_warm; /* --warm 1: warm up (and calibrate n) before a single run too */

static void run(const workload *w, const char *impl, void (*fn)(int64_t, measure *), int64_t n,
                int runs) {
  double ns[64];
  measure m = {0};
  if (runs > 64) runs = 64;
  /* Warm-up, not counted; calibrates n. */
  if ((runs > 1 || force_warm) && strcmp(w->name, "W9") != 0) {
    /* A lone timed run (--warm 1) gets a longer warm-up: after a short one it measured
       slower than the best of a series in a row (W7: 3.8 against 3.65 ns). */
    int64_t warm = (runs > 1 ? n / 100 : n / 10) / w->quantum * w->quantum;
    if (warm < w->quantum) warm = w->quantum;
    fn(warm, &m);
    double per_unit = (double)(m.t1 - m.t0) / (double)warm;
    if (max_ms > 0 && per_unit > 0 && per_unit * (double)n > (double)max_ms * 1e6) {
      n = (int64_t)((double)max_ms * 1e6 / per_unit) / w->quantum * w->quantum;
      if (n < 100 * w->quantum) n = 100 * w->quantum;
    }
  }
  for (int r = 0; r < runs; r++) {
    fn(n, &m);
    ns[r] = (double)(m.t1 - m.t0) / (double)n;
  }
  double min = ns[0];
  for (int r = 1; r < runs; r++) min = ns[r] < min ? ns[r] : min;
  qsort(ns, (size_t)runs, sizeof ns[0], cmp_double);
  double median = runs % 2 ? ns[runs / 2] : (ns[runs / 2 - 1] + ns[runs / 2]) / 2;
  printf("RESULT %s %s n=%lld min_ns=%.3f median_ns=%.3f allocs=%llu", w->name, impl,
         (long long)n, min, median, (unsigned long long)(m.a1 - m.a0));
  if (m.bytes_per_unit > 0) printf(" bytes_per_unit=%.1f", m.bytes_per_unit);
  printf("   # %s, ns per %s\n", w->title, w->unit);
  fflush(stdout);
}

static void run_workload(const workload *w, const char *impl, int64_t n, int runs) {
  n = n / w->quantum * w->quantum;
  if (n < w->quantum) n = w->quantum;
  bool want_raw = !impl || strcmp(impl, "raw") == 0;
  bool want_rxc = !impl || strcmp(impl, "rxc") == 0;
  if (want_raw && w->raw) run(w, "raw", w->raw, n, runs);
  if (!want_rxc) return;
  if (!w->available()) {
    printf("RESULT %s rxc n/a (not yet implemented)   # %s\n", w->name, w->title);
    fflush(stdout);
    return;
  }
  run(w, "rxc", w->rxc, n, runs);
}

static void usage(void) {
  fprintf(stderr, "usage: bench [--runs R] [--scale S] [--max-ms T] [--warm 1]\n"
                  "       bench --workload W1..W9 [--n N] [--impl rxc|raw] [--runs R]\n");
  exit(1);
}

int main(int argc, char **argv) {
  const char *only = NULL, *impl = NULL;
  int64_t n = 0;
  int runs = 0; /* default: 5, or 1 for one workload at a given --n */
  double scale = 1;
  for (int i = 1; i < argc; i++) {
    if (i + 1 >= argc) usage();
    if (strcmp(argv[i], "--workload") == 0) only = argv[++i];
    else if (strcmp(argv[i], "--n") == 0) n = atoll(argv[++i]);
    else if (strcmp(argv[i], "--impl") == 0) impl = argv[++i];
    else if (strcmp(argv[i], "--runs") == 0) runs = atoi(argv[++i]);
    else if (strcmp(argv[i], "--scale") == 0) scale = atof(argv[++i]);
    else if (strcmp(argv[i], "--max-ms") == 0) max_ms = atoll(argv[++i]);
    else if (strcmp(argv[i], "--warm") == 0) force_warm = atoi(argv[++i]) != 0;
    else usage();
  }
  if (runs < 0) usage();
  if (runs == 0) runs = only && n > 0 ? 1 : 5;
  alloc_counter = (uint64_t(*)(void))dlsym(RTLD_DEFAULT, "malloc_count_total");
  int64_t live0 = rx_debug_live_objects();
  bool found = false;
  for (int k = 0; k < WORKLOADS; k++) {
    const workload *w = &workloads[k];
    if (only && strcmp(only, w->name) != 0) continue;
    found = true;
    int64_t size = n > 0 ? n : (int64_t)((double)w->n * scale);
    run_workload(w, impl, size, runs);
  }
  if (!found) usage();
  /* A scheduler's thread may drop its last references just after on_disposed returned (W6):
     let it settle for up to a second, as the C test runner does. */
  for (int i = 0; i < 1000 && rx_debug_live_objects() != live0; i++) usleep(1000);
  int64_t leaked = rx_debug_live_objects() - live0;
  if (leaked != 0) {
    fprintf(stderr, "bench: %lld library objects still live at exit\n", (long long)leaked);
    return 3;
  }
  return 0;
}
