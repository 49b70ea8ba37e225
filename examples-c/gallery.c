/*
 * gallery.c — why observe_on exists.
 *
 * A photo gallery makes thumbnails for 200 items; each takes ~20 ms of real CPU work
 * (hashing a 64 KiB buffer, calibrated at startup). A 5 ms rx_interval on the main
 * scheduler stands for the UI: as long as the main thread is free, it ticks every 5 ms.
 *
 * Run 1 does the work on the main scheduler: the UI stalls. Run 2 does it on a concurrent
 * scheduler and observes the results on main: the UI keeps ticking. Each run prints the
 * longest gap between two UI ticks.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "rxc.h"

#define ITEMS 200
#define BUFFER_SIZE (64 * 1024)
#define WORK_NS (20 * 1000000LL)

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---- the work: FNV-1a over a buffer, `rounds` times ---------------------------------- */

static uint8_t photo[BUFFER_SIZE];
static int rounds = 1;

static uint64_t make_thumbnail(int item) {
  uint64_t h = 1469598103934665603ULL ^ (uint64_t)item;
  for (int r = 0; r < rounds; r++)
    for (size_t i = 0; i < BUFFER_SIZE; i++) h = (h ^ photo[i]) * 1099511628211ULL;
  return h;
}

/* Calibrated on this thread's CPU clock, so a busy machine does not shorten the work. */
static int64_t cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void calibrate(void) {
  for (size_t i = 0; i < BUFFER_SIZE; i++) photo[i] = (uint8_t)(i * 7 + 3);
  rounds = 8;
  int64_t t0 = cpu_ns();
  volatile uint64_t sink = make_thumbnail(0);
  (void)sink;
  int64_t per_round = (cpu_ns() - t0) / rounds;
  rounds = (int)(WORK_NS / (per_round > 0 ? per_round : 1));
  if (rounds < 1) rounds = 1;
}

/* ---- the UI: a 5 ms interval on main, recording the longest gap between ticks ------- */

#define MAX_TICKS 20000

typedef struct ui {
  int64_t last;
  int64_t longest_gap;
  int ticks;
  int64_t gaps[MAX_TICKS];
} ui;

static void ui_tick(void *ctx, rx_value v) {
  ui *u = ctx;
  int64_t t = now_ns();
  if (t - u->last > u->longest_gap) u->longest_gap = t - u->last;
  if (u->ticks < MAX_TICKS) u->gaps[u->ticks] = t - u->last;
  u->last = t;
  u->ticks++;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* The gap 99% of the ticks stay under: shows whether a long gap was one hiccup of a busy
   machine or the UI being blocked. */
static double p99_ms(ui *u) {
  int n = u->ticks < MAX_TICKS ? u->ticks : MAX_TICKS;
  if (n == 0) return 0;
  qsort(u->gaps, (size_t)n, sizeof u->gaps[0], cmp_i64);
  return u->gaps[(n * 99) / 100 < n ? (n * 99) / 100 : n - 1] / 1e6;
}

/* ---- the gallery: one job per item on `work`, results emitted as they finish --------- */

typedef struct gallery {
  rx_scheduler *work;
  atomic_int finished;
  uint64_t checksum; /* touched on main only (observer) */
  int received;
} gallery;

typedef struct job {
  gallery *g;
  rx_emitter *emitter;
  int item;
} job;

/* Background work yields the CPU to the UI: on Linux, nice is per thread. (On main this is
   skipped: lowering the main thread would only slow the UI further.) */
static void lower_priority_off_main(void) {
  if (getpid() != (pid_t)syscall(SYS_gettid)) setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
}

static void run_job(void *ctx) {
  job *j = ctx;
  if (rx_emitter_is_disposed(j->emitter)) return;
  lower_priority_off_main();
  uint64_t thumb = make_thumbnail(j->item);
  rx_emitter_next(j->emitter, rx_int((int64_t)(thumb & INT64_MAX)));
  if (atomic_fetch_add(&j->g->finished, 1) + 1 == ITEMS) rx_emitter_completed(j->emitter);
}

static void free_job(void *ctx) {
  job *j = ctx;
  rx_release(j->emitter);
  free(j);
}

static rx_disposable *start_gallery(void *ctx, rx_emitter *emitter) {
  gallery *g = ctx;
  rx_disposable *jobs = rx_composite_disposable_new();
  for (int i = 0; i < ITEMS; i++) {
    job *j = malloc(sizeof *j);
    *j = (job){g, rx_retain(emitter), i};
    rx_composite_disposable_add(jobs, rx_schedule(g->work, run_job, j, free_job));
  }
  return jobs;
}

static void got_thumbnail(void *ctx, rx_value v) {
  gallery *g = ctx;
  g->checksum ^= (uint64_t)v.i;
  g->received++;
}

static void gallery_done(void *ctx) { rx_main_stop(); }

/* One run: returns the longest gap between UI ticks, in ns. */
static int64_t run(const char *title, rx_scheduler *work) {
  gallery g = {.work = work};
  static ui u;
  memset(&u, 0, sizeof u);
  u.last = now_ns();
  int64_t t0 = u.last;

  rx_observable *ticks = rx_interval(5 * 1000000, rx_scheduler_main());
  rx_disposable *ui_sub = rx_subscribe(ticks, (rx_observer){.on_next = ui_tick, .ctx = &u});

  rx_observable *thumbnails = rx_create(start_gallery, &g, NULL);
  rx_observable *on_main = rx_observe_on(thumbnails, rx_scheduler_main());
  rx_disposable *sub = rx_subscribe(
      on_main, (rx_observer){.on_next = got_thumbnail, .on_completed = gallery_done, .ctx = &g});
  rx_main_run();
  /* the gap still open when the work finished counts too */
  if (now_ns() - u.last > u.longest_gap) u.longest_gap = now_ns() - u.last;

  rx_dispose(ui_sub);
  rx_dispose(sub);
  rx_release(on_main);
  rx_release(thumbnails);
  rx_release(ticks);
  printf("%-48s %4d thumbnails in %5.0f ms, %4d UI ticks, longest gap between UI ticks %7.1f ms"
         " (99%% of gaps < %.1f ms)\n",
         title, g.received, (now_ns() - t0) / 1e6, u.ticks, u.longest_gap / 1e6, p99_ms(&u));
  return u.longest_gap;
}

int main(void) {
  int64_t live_at_start = rx_debug_live_objects();
  calibrate();
  printf("gallery: %d items, ~%lld ms of CPU each (%d rounds of FNV-1a over %d KiB)\n", ITEMS,
         WORK_NS / 1000000, rounds, BUFFER_SIZE / 1024);

  /* The baseline: how regular the UI ticks are on this machine with no work at all. */
  {
    static ui u;
    u.last = now_ns();
    rx_observable *ticks = rx_interval(5 * 1000000, rx_scheduler_main());
    rx_disposable *sub = rx_subscribe(ticks, (rx_observer){.on_next = ui_tick, .ctx = &u});
    rx_main_run_for(1000 * 1000000LL);
    rx_dispose(sub);
    rx_release(ticks);
    printf("%-48s %4d UI ticks in 1 s, longest gap between UI ticks %7.1f ms (99%% of gaps < %.1f ms)\n",
           "no work (baseline):", u.ticks, u.longest_gap / 1e6, p99_ms(&u));
  }
  int64_t on_main_gap = run("work on main:", rx_scheduler_main());
  rx_scheduler *pool = rx_scheduler_concurrent_new("gallery.work");
  int64_t off_main_gap = run("work on a concurrent scheduler, observe_on main:", pool);
  rx_release(pool);

  printf("UI responsive (longest gap < 20 ms): work on main: %s; work off main: %s\n",
         on_main_gap < 20 * 1000000 ? "yes" : "no", off_main_gap < 20 * 1000000 ? "yes" : "no");
  for (int i = 0; i < 1000 && rx_debug_live_objects() != live_at_start; i++) {
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
  }
  int64_t leaked = rx_debug_live_objects() - live_at_start;
  if (leaked != 0) printf("live objects left: %lld\n", (long long)leaked);
  return leaked == 0 ? 0 : 1;
}
