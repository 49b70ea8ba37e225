/* Memory given back: a drained observe_on queue after a flood, and timers disposed before
 * their deadline (they must not hold their memory until it). Measured with the allocator's
 * own counts (mallinfo2: bytes in use) and the process's resident size. Under valgrind or a
 * sanitizer, whose allocators these do not measure, the flows still run (scaled down) and
 * their other checks hold; the memory bounds are checked only in plain runs. */
#include <malloc.h>
#include <pthread.h>
#include <sys/select.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "rxtest.h"

#define MB (1024L * 1024L)

static bool measuring(void) { return !rxtest_under_valgrind() && getenv("RXTEST_SANITIZER") == NULL; }

/* Time scale of the tests that check when timers fire: 10x under valgrind or a sanitizer. */
static int64_t slow(void) { return measuring() ? 1 : 10; }

/* Bytes the allocator has handed out and not had back. */
static long in_use(void) {
  struct mallinfo2 m = mallinfo2();
  return (long)(m.uordblks + m.hblkhd);
}

static long resident(void) {
  long pages = 0, rss = 0;
  FILE *f = fopen("/proc/self/statm", "r");
  if (f == NULL) return 0;
  if (fscanf(f, "%ld %ld", &pages, &rss) != 2) rss = 0;
  fclose(f);
  return rss * sysconf(_SC_PAGESIZE);
}

/* Waits up to 2 s for measure() to come within `bound` of `base`; returns its last value. */
static long settle(long (*measure)(void), long base, long bound) {
  int64_t deadline = rxtest_now_ns() + 2000000000LL;
  long now;
  while ((now = measure()) - base > bound && rxtest_now_ns() < deadline) usleep(2000);
  return now;
}

static void count_run(void *ctx) { atomic_fetch_add((atomic_long *)ctx, 1); }
static void count_free(void *ctx) { atomic_fetch_add((atomic_long *)ctx + 1, 1); }

/* ---- observe_on: a flood, then the drain ------------------------------------------- */

typedef struct flood {
  atomic_long got;
  atomic_int open;  /* the consumer waits while 0: the queue holds the whole flood */
} flood;

static void flood_next(void *ctx, rx_value v) {
  flood *f = ctx;
  while (!atomic_load(&f->open)) usleep(100);
  atomic_fetch_add(&f->got, 1);
}

RX_TEST(memory_observe_on_backlog_goes_back_to_the_system_once_drained) {
  long n = (long)rxtest_scale(3000000, 100);
  rx_scheduler *serial = rx_scheduler_serial_new("flood");
  rx_subject *s = rx_publish_subject_new();
  rx_observable *o = rx_observe_on(rx_subject_as_observable(s), serial);
  flood f = {.open = 1};
  rx_disposable *d = rx_subscribe(o, (rx_observer){flood_next, NULL, NULL, NULL, &f});
  for (int i = 0; i < 1000; i++) CHECK_OK(rx_subject_on_next(s, RX_INT(i)));  /* warm */
  while (atomic_load(&f.got) < 1000) usleep(100);
  long rss0 = resident(), used0 = in_use();
  atomic_store(&f.open, 0);
  for (long i = 0; i < n; i++) CHECK_OK(rx_subject_on_next(s, RX_INT(i)));
  long rss_peak = resident();
  atomic_store(&f.open, 1);
  int64_t deadline = rxtest_now_ns() + 20000000000LL;
  while (atomic_load(&f.got) < 1000 + n && rxtest_now_ns() < deadline) usleep(1000);
  CHECK_EQ(atomic_load(&f.got), 1000 + n);
  if (measuring()) {
    /* the queue really held the flood (16 B a value): the test measures a backlog */
    CHECK_MSG(rss_peak - rss0 > 24 * MB, "peak only %ld KB above the start", (rss_peak - rss0) / 1024);
    long rss = settle(resident, rss0, 8 * MB);
    CHECK_MSG(rss - rss0 <= 8 * MB, "resident %ld KB above the start after the drain (peak +%ld KB)",
              (rss - rss0) / 1024, (rss_peak - rss0) / 1024);
    long used = settle(in_use, used0, 4 * MB);
    CHECK_MSG(used - used0 <= 4 * MB, "%ld KB still allocated after the drain", (used - used0) / 1024);
  }
  CHECK_OK(rx_dispose(d));
  rx_release(o);
  rx_release(s);
  rx_release(serial);
}

/* ---- threads flooding one subject --------------------------------------------------- */

typedef struct subject_flood {
  rx_subject *s;
  long per_thread;
  long got, peak; /* written by the subscriber, whose calls never overlap */
  long last[4];
  int disorder;
} subject_flood;

/* Slower than an rx_subject_on_next, so the other threads' elements queue up for this one. */
static void slow_next(void *ctx, rx_value v) {
  subject_flood *f = ctx;
  long t = v.i / f->per_thread, i = v.i % f->per_thread;
  if (i != f->last[t] + 1) f->disorder++;
  f->last[t] = i;
  if (++f->got % 4096 == 0) {
    long used = in_use();
    if (used > f->peak) f->peak = used;
  }
  for (volatile int k = 0; k < 100; k++) {}
}

static void *flood_subject(void *arg) {
  subject_flood *f = ((void **)arg)[0];
  long t = (long)((void **)arg)[1];
  for (long i = 0; i < f->per_thread; i++) rx_subject_on_next(f->s, RX_INT(t * f->per_thread + i));
  return NULL;
}

/* Four threads emitting into one subject faster than its subscriber takes the elements: the
   elements queued for the thread delivering stay a bounded backlog (the others wait for it
   to catch up), not the whole flood (without the wait: 15 MB at its peak here). */
RX_TEST(memory_threads_flooding_one_subject_keep_a_bounded_backlog) {
  subject_flood f = {.per_thread = (long)rxtest_scale(250000, 20), .last = {-1, -1, -1, -1}};
  f.s = rx_publish_subject_new();
  rx_disposable *d = rx_subscribe(rx_subject_as_observable(f.s), (rx_observer){slow_next, NULL, NULL, NULL, &f});
  long used0 = in_use();
  f.peak = used0;
  pthread_t threads[4];
  void *args[4][2];
  for (long t = 0; t < 4; t++) {
    args[t][0] = &f;
    args[t][1] = (void *)t;
    CHECK_EQ(pthread_create(&threads[t], NULL, flood_subject, args[t]), 0);
  }
  for (int t = 0; t < 4; t++) pthread_join(threads[t], NULL);
  CHECK_EQ(f.got, 4 * f.per_thread);
  CHECK_EQ(f.disorder, 0);
  if (measuring())
    CHECK_MSG(f.peak - used0 <= 2 * MB, "the backlog peaked at %ld KB", (f.peak - used0) / 1024);
  CHECK_OK(rx_dispose(d));
  rx_release(f.s);
}

/* ---- timers disposed long before their deadline ------------------------------------- */

static void mass_dispose_schedule_after(rx_scheduler *sched, long n) {
  atomic_long counts[2] = {0, 0}; /* runs, frees */
  rx_disposable **tokens = malloc(sizeof *tokens * (size_t)n);
  CHECK(tokens != NULL);
  long used0 = in_use();
  for (long i = 0; i < n; i++) {
    tokens[i] = rx_schedule_after(sched, 60000000000LL, count_run, counts, count_free);
    CHECK(tokens[i] != NULL);
  }
  long used_armed = in_use();
  for (long i = 0; i < n; i++) CHECK_OK(rx_dispose(tokens[i]));
  free(tokens);
  CHECK_EQ(atomic_load(&counts[1]), n); /* every ctx_free ran at the dispose */
  CHECK_EQ(atomic_load(&counts[0]), 0);
  if (measuring()) {
    long used = settle(in_use, used0, 2 * MB);
    CHECK_MSG(used - used0 <= 2 * MB, "%ld KB still allocated after disposing %ld timers (%ld KB armed)",
              (used - used0) / 1024, n, (used_armed - used0) / 1024);
  }
}

RX_TEST(memory_disposed_serial_timers_are_freed_at_once) {
  rx_scheduler *serial = rx_scheduler_serial_new("timers");
  mass_dispose_schedule_after(serial, (long)rxtest_scale(200000, 100));
  rx_release(serial);
}

RX_TEST(memory_disposed_concurrent_and_operation_queue_timers_are_freed_at_once) {
  rx_scheduler *concurrent = rx_scheduler_concurrent_new("timers");
  rx_scheduler *opq = rx_scheduler_operation_queue_new("timers", 2);
  mass_dispose_schedule_after(concurrent, (long)rxtest_scale(100000, 100));
  mass_dispose_schedule_after(opq, (long)rxtest_scale(100000, 100));
  rx_release(concurrent);
  rx_release(opq);
}

RX_TEST(memory_disposed_run_loop_timers_are_freed_at_once) {
  rx_run_loop *loop = rx_run_loop_new();
  mass_dispose_schedule_after(rx_run_loop_scheduler(loop), (long)rxtest_scale(100000, 100));
  rx_release(loop);
}

RX_TEST(memory_disposed_new_thread_timers_are_freed_at_once) {
  rx_scheduler *nt = rx_scheduler_new_thread();
  mass_dispose_schedule_after(nt, (long)rxtest_scale(1000, 10)); /* a thread each */
  rx_release(nt);
}

static void nop_next(void *ctx, rx_value v) { (void)ctx, (void)v; }

RX_TEST(memory_disposed_timeout_subscriptions_are_freed_at_once) {
  long n = (long)rxtest_scale(200000, 100);
  rx_scheduler *serial = rx_scheduler_serial_new("timeouts");
  rx_subject *s = rx_publish_subject_new();
  rx_observable *o = rx_timeout(rx_subject_as_observable(s), 60000000000LL, serial);
  rx_disposable **subs = malloc(sizeof *subs * (size_t)n);
  CHECK(subs != NULL);
  long used0 = in_use();
  for (long i = 0; i < n; i++) subs[i] = rx_subscribe(o, (rx_observer){nop_next, NULL, NULL, NULL, NULL});
  long used_armed = in_use();
  for (long i = 0; i < n; i++) CHECK_OK(rx_dispose(subs[i]));
  free(subs);
  CHECK(!rx_subject_has_observers(s));
  if (measuring()) {
    long used = settle(in_use, used0, 2 * MB);
    CHECK_MSG(used - used0 <= 2 * MB, "%ld KB still allocated after disposing %ld subscriptions (%ld KB subscribed)",
              (used - used0) / 1024, n, (used_armed - used0) / 1024);
  }
  rx_release(o);
  rx_release(s);
  rx_release(serial);
}

/* ---- timers still fire: in order, on their queue, and never once disposed ------------- */

typedef struct fired {
  atomic_int next;       /* runs started */
  atomic_int done;       /* runs whose order[] entry is written */
  int order[64];         /* the timer index of each run */
  atomic_int inside;     /* runs in progress at once (a serial queue: at most 1) */
  atomic_int overlap;
  pthread_t loop_thread; /* a run loop's: every run there */
  atomic_int off_thread;
} fired;

typedef struct timer_ctx {
  fired *f;
  int index;
} timer_ctx;

static timer_ctx ctxs[64];

static void timer_run(void *ctx) {
  timer_ctx *t = ctx;
  fired *f = t->f;
  if (atomic_fetch_add(&f->inside, 1) != 0) atomic_fetch_add(&f->overlap, 1);
  if (f->loop_thread && !pthread_equal(f->loop_thread, pthread_self())) atomic_fetch_add(&f->off_thread, 1);
  int k = atomic_fetch_add(&f->next, 1);
  if (k < 64) f->order[k] = t->index;
  usleep(200);
  atomic_fetch_sub(&f->inside, 1);
  atomic_fetch_add(&f->done, 1);
}

/* 40 timers, due in a shuffled order (2 ms apart, pairs due together), the odd-numbered
   ones of the second half disposed before they are due. */
static void arm_timers(rx_scheduler *sched, fired *f, rx_disposable **tokens) {
  for (int i = 0; i < 40; i++) {
    int slot = (i * 7) % 20; /* a permutation of 0..19: two timers per slot */
    ctxs[i] = (timer_ctx){f, i};
    tokens[i] = rx_schedule_after(sched, (20000000LL + slot * 2000000LL) * slow(), timer_run, &ctxs[i], NULL);
    CHECK(tokens[i] != NULL);
  }
  for (int i = 21; i < 40; i += 2) CHECK_OK(rx_dispose(tokens[i]));
}

/* Runs in due order; timers due together run in the order they were scheduled. */
static void check_order(fired *f) {
  CHECK_EQ(atomic_load(&f->done), 30);
  CHECK_EQ(atomic_load(&f->next), 30);
  int seen = 0;
  for (int slot = 0; slot < 20; slot++)
    for (int i = 0; i < 40; i++) {
      if ((i * 7) % 20 != slot || (i > 20 && i % 2 == 1)) continue;
      CHECK_MSG(f->order[seen] == i, "run %d was timer %d, expected %d", seen, f->order[seen], i);
      seen++;
    }
  CHECK_EQ(seen, 30);
  CHECK_EQ(atomic_load(&f->overlap), 0);
  CHECK_EQ(atomic_load(&f->off_thread), 0);
}

RX_TEST(timers_on_a_serial_queue_fire_in_due_order_never_once_disposed) {
  rx_scheduler *serial = rx_scheduler_serial_new("order");
  fired f = {0};
  rx_disposable *tokens[40];
  arm_timers(serial, &f, tokens);
  int64_t deadline = rxtest_now_ns() + 5000000000LL * slow();
  while (atomic_load(&f.done) < 30 && rxtest_now_ns() < deadline) usleep(1000);
  usleep(100000 * slow()); /* a disposed timer would have fired by now */
  check_order(&f);
  for (int i = 0; i < 40; i++)
    if (!(i > 20 && i % 2 == 1)) rx_release(tokens[i]);
  rx_release(serial);
}

RX_TEST(timers_on_a_run_loop_fire_in_due_order_on_its_thread_never_once_disposed) {
  rx_run_loop *loop = rx_run_loop_new();
  fired f = {.loop_thread = pthread_self()};
  rx_disposable *tokens[40];
  (void)rx_run_loop_drain(loop); /* binds the loop to this thread */
  arm_timers(rx_run_loop_scheduler(loop), &f, tokens);
  int64_t deadline = rxtest_now_ns() + 5000000000LL * slow();
  while (atomic_load(&f.done) < 30 && rxtest_now_ns() < deadline) CHECK_OK(rx_run_loop_run_for(loop, 10000000LL));
  CHECK_OK(rx_run_loop_run_for(loop, 100000000LL * slow())); /* a disposed timer would have fired by now */
  check_order(&f);
  for (int i = 0; i < 40; i++)
    if (!(i > 20 && i % 2 == 1)) rx_release(tokens[i]);
  rx_release(loop);
}

/* The run loop's wake-up timer: a program polling the loop's fd (not running it) sees it
   readable once delayed work is due, also after the earlier timer was disposed. */
RX_TEST(timers_on_a_run_loop_make_its_fd_readable_when_due) {
  rx_run_loop *loop = rx_run_loop_new();
  rx_scheduler *sched = rx_run_loop_scheduler(loop);
  (void)rx_run_loop_drain(loop);
  atomic_long counts[2] = {0, 0};
  int64_t late_due = rxtest_now_ns() + 30000000LL * slow();
  rx_disposable *early = rx_schedule_after(sched, 5000000LL * slow(), count_run, counts, count_free);
  rx_disposable *late = rx_schedule_after(sched, 30000000LL * slow(), count_run, counts, count_free);
  CHECK_OK(rx_dispose(early));
  int fd = rx_run_loop_fd(loop);
  CHECK(fd >= 0);
  struct timeval tv = {0, 15000 * slow()};
  fd_set set;
  FD_ZERO(&set);
  FD_SET(fd, &set);
  /* Nothing due in the first 15 ms: the disposed timer's due time passes without a wakeup.
     A thread kept off the CPU past the late timer's due time (a loaded machine, valgrind)
     rightly finds the fd readable then, and only then. */
  if (select(fd + 1, &set, NULL, NULL, &tv) != 0) {
    CHECK(rxtest_now_ns() >= late_due);
  } else {
    tv = (struct timeval){2, 0};
    FD_ZERO(&set);
    FD_SET(fd, &set);
    CHECK_EQ(select(fd + 1, &set, NULL, NULL, &tv), 1);
  }
  CHECK_EQ(rx_run_loop_drain(loop), 1);
  CHECK_EQ(atomic_load(&counts[0]), 1);
  CHECK_EQ(atomic_load(&counts[1]), 2);
  rx_release(late);
  rx_release(loop);
}

/* A custom scheduler without schedule_after: the library's timer hands the work to its
   schedule when due; disposed before, it never does. */
static rx_disposable *custom_schedule(void *ctx, rx_action_fn action, void *action_ctx) {
  atomic_fetch_add((atomic_int *)ctx, 1);
  action(action_ctx);
  return NULL;
}

RX_TEST(timers_of_a_custom_scheduler_without_schedule_after_are_cancelled_by_dispose) {
  atomic_int scheduled = 0;
  rx_scheduler_vtable vt = {.schedule = custom_schedule};
  rx_scheduler *sched = rx_scheduler_custom_new(&vt, &scheduled, NULL);
  atomic_long counts[2] = {0, 0};
  rx_disposable *gone = rx_schedule_after(sched, 60000000000LL, count_run, counts, count_free);
  CHECK_OK(rx_dispose(gone));
  CHECK_EQ(atomic_load(&counts[0]), 0);
  CHECK_EQ(atomic_load(&counts[1]), 1); /* ctx_free at the dispose, not at the deadline */
  rx_disposable *kept = rx_schedule_after(sched, 10000000LL * slow(), count_run, counts, count_free);
  int64_t deadline = rxtest_now_ns() + 2000000000LL * slow();
  while (atomic_load(&counts[0]) < 1 && rxtest_now_ns() < deadline) usleep(1000);
  usleep(50000 * slow());
  CHECK_EQ(atomic_load(&counts[0]), 1);
  CHECK_EQ(atomic_load(&scheduled), 1);
  CHECK_EQ(atomic_load(&counts[1]), 2);
  rx_release(kept);
  rx_release(sched);
}
