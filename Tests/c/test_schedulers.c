/* Schedulers (rxc.h section 8): the scheduler family, the main run loop and its fd,
 * the virtual-time test scheduler, disposal, periodic work. */
#include <poll.h>
#include <signal.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rxtest.h"

/* ---- helpers ----------------------------------------------------------------------- */

/* Waits (sleeping 1 ms at a time) until *flag >= want or timeout_ms passes. */
static bool wait_for(atomic_int *flag, int want, int timeout_ms) {
  int64_t deadline = rxtest_now_ns() + (int64_t)timeout_ms * 1000000;
  while (atomic_load(flag) < want) {
    if (rxtest_now_ns() > deadline) return false;
    rxtest_sleep_ms(1);
  }
  return true;
}

static bool fd_readable(int fd, int timeout_ms) {
  struct pollfd p = {.fd = fd, .events = POLLIN};
  return poll(&p, 1, timeout_ms) == 1 && (p.revents & POLLIN);
}

static void count_up(void *ctx) { atomic_fetch_add((atomic_int *)ctx, 1); }

/* An order log shared by the actions of one test. */
typedef struct order_log {
  char items[64];
  atomic_int n;
} order_log;

static void log_char(order_log *log, char c) { log->items[atomic_fetch_add(&log->n, 1)] = c; }

/* ---- immediate and current-thread ------------------------------------------------------ */

RX_TEST(sched_immediate_runs_inline) {
  atomic_int ran = 0;
  rx_disposable *d = rx_schedule(rx_scheduler_immediate(), count_up, &ran, NULL);
  CHECK(d != NULL);
  CHECK_EQ(atomic_load(&ran), 1); /* before rx_schedule returned */
  rx_release(d);
  int64_t t0 = rxtest_now_ns();
  d = rx_schedule_after(rx_scheduler_immediate(), 20 * 1000000, count_up, &ran, NULL);
  CHECK_EQ(atomic_load(&ran), 2);
  CHECK(rxtest_now_ns() - t0 >= 20 * 1000000);
  rx_release(d);
  CHECK(!rx_scheduler_is_serial(rx_scheduler_immediate()));
}

typedef struct tramp_ctx {
  order_log log;
  rx_disposable *tokens[8];
  int ntokens;
} tramp_ctx;

static tramp_ctx *g_tramp;

static void tramp_d(void *ctx) { log_char(&g_tramp->log, (char)(intptr_t)ctx); }
static void tramp_b(void *ctx) {
  log_char(&g_tramp->log, 'B');
  g_tramp->tokens[g_tramp->ntokens++] =
      rx_schedule(rx_scheduler_current_thread(), tramp_d, (void *)(intptr_t)'D', NULL);
  log_char(&g_tramp->log, 'b');
}
static void tramp_a(void *ctx) {
  log_char(&g_tramp->log, 'A');
  g_tramp->tokens[g_tramp->ntokens++] = rx_schedule(rx_scheduler_current_thread(), tramp_b, NULL, NULL);
  g_tramp->tokens[g_tramp->ntokens++] =
      rx_schedule(rx_scheduler_current_thread(), tramp_d, (void *)(intptr_t)'C', NULL);
  log_char(&g_tramp->log, 'a');
}

RX_TEST(sched_trampoline_order) {
  tramp_ctx t = {0};
  g_tramp = &t;
  rx_disposable *d = rx_schedule(rx_scheduler_current_thread(), tramp_a, NULL, NULL);
  CHECK(d != NULL);
  /* The first action runs at once; nested ones queue until the outer one returns. */
  CHECK_EQ(atomic_load(&t.log.n), 6);
  t.log.items[6] = 0;
  CHECK_STR(t.log.items, "AaBbCD");
  rx_release(d);
  for (int i = 0; i < t.ntokens; i++) rx_release(t.tokens[i]);
}

static void tramp_disposer(void *ctx) {
  atomic_int *ran = ctx;
  rx_disposable *nested = rx_schedule(rx_scheduler_current_thread(), count_up, ran, NULL);
  CHECK(nested != NULL);
  CHECK_OK(rx_dispose(nested)); /* queued, disposed before the outer action returns */
}

RX_TEST(sched_trampoline_dispose_cancels_queued) {
  atomic_int ran = 0;
  rx_disposable *d = rx_schedule(rx_scheduler_current_thread(), tramp_disposer, &ran, NULL);
  CHECK_EQ(atomic_load(&ran), 0);
  rx_release(d);
}

RX_TEST(sched_trampoline_and_immediate_reject_periodic) {
  atomic_int ran = 0;
  CHECK(rx_schedule_periodic(rx_scheduler_immediate(), 0, 1000, count_up, &ran, NULL) == NULL);
  CHECK(strstr(rx_last_error(), "rx_schedule_periodic") != NULL);
  CHECK(rx_schedule_periodic(rx_scheduler_current_thread(), 0, 1000, count_up, &ran, NULL) == NULL);
  CHECK(rx_interval(1000, rx_scheduler_immediate()) == NULL);
  CHECK_EQ(atomic_load(&ran), 0);
}

/* ---- shared instances --------------------------------------------------------------- */

RX_TEST(sched_shared_retain_release_are_noops) {
  rx_scheduler *shared[3] = {rx_scheduler_immediate(), rx_scheduler_current_thread(),
                             rx_scheduler_main()};
  for (int i = 0; i < 3; i++) {
    CHECK(shared[i] != NULL);
    for (int k = 0; k < 5; k++) rx_release(shared[i]);
    CHECK(rx_retain(shared[i]) == shared[i]);
    CHECK(rx_scheduler_now_ns(shared[i]) > 0);
  }
  CHECK(rx_scheduler_immediate() == shared[0]);
  CHECK(rx_scheduler_main() == shared[2]);
  CHECK(rx_scheduler_is_serial(rx_scheduler_main()));
}

/* ---- serial, concurrent, operation queue, new thread ----------------------------------- */

typedef struct serial_ctx {
  atomic_int inside;
  atomic_int overlaps;
  atomic_int done;
  int order[1000];
} serial_ctx;

typedef struct serial_item {
  serial_ctx *s;
  int index;
} serial_item;

static void serial_action(void *ctx) {
  serial_item *it = ctx;
  if (atomic_fetch_add(&it->s->inside, 1) != 0) atomic_fetch_add(&it->s->overlaps, 1);
  for (volatile int spin = 0; spin < 200; spin++) {
  }
  it->s->order[atomic_load(&it->s->done)] = it->index;
  atomic_fetch_sub(&it->s->inside, 1);
  atomic_fetch_add(&it->s->done, 1);
}

RX_TEST(sched_serial_order_and_no_overlap) {
  static serial_ctx s;
  static serial_item items[1000];
  rx_scheduler *q = rx_scheduler_serial_new("test.serial");
  CHECK(q != NULL);
  CHECK(rx_scheduler_is_serial(q));
  for (int i = 0; i < 1000; i++) {
    items[i] = (serial_item){&s, i};
    rx_disposable *d = rx_schedule(q, serial_action, &items[i], NULL);
    CHECK(d != NULL);
    rx_release(d);
  }
  CHECK(wait_for(&s.done, 1000, 5000));
  CHECK_EQ(atomic_load(&s.overlaps), 0);
  for (int i = 0; i < 1000; i++) CHECK_EQ(s.order[i], i);
  rx_release(q);
}

typedef struct rendezvous {
  atomic_int started;
  atomic_int met;
} rendezvous;

static void meet(void *ctx) {
  rendezvous *r = ctx;
  atomic_fetch_add(&r->started, 1);
  int64_t deadline = rxtest_now_ns() + 3000LL * 1000000;
  while (atomic_load(&r->started) < 2 && rxtest_now_ns() < deadline) {
  }
  if (atomic_load(&r->started) >= 2) atomic_fetch_add(&r->met, 1);
}

RX_TEST(sched_concurrent_runs_at_once) {
  rendezvous r = {0};
  rx_scheduler *q = rx_scheduler_concurrent_new("test.concurrent");
  CHECK(!rx_scheduler_is_serial(q));
  rx_disposable *a = rx_schedule(q, meet, &r, NULL);
  rx_disposable *b = rx_schedule(q, meet, &r, NULL);
  /* Each action waits for the other to start: only concurrent execution lets both meet. */
  CHECK(wait_for(&r.met, 2, 5000));
  rx_release(a);
  rx_release(b);
  rx_release(q);
}

typedef struct opq_ctx {
  atomic_int running;
  atomic_int max_seen;
  atomic_int done;
} opq_ctx;

static void opq_action(void *ctx) {
  opq_ctx *o = ctx;
  int now = atomic_fetch_add(&o->running, 1) + 1;
  int seen = atomic_load(&o->max_seen);
  while (now > seen && !atomic_compare_exchange_weak(&o->max_seen, &seen, now)) {
  }
  rxtest_sleep_ms(5);
  atomic_fetch_sub(&o->running, 1);
  atomic_fetch_add(&o->done, 1);
}

RX_TEST(sched_operation_queue_respects_max) {
  for (int max = 1; max <= 2; max++) {
    opq_ctx o = {0};
    rx_scheduler *q = rx_scheduler_operation_queue_new("test.opq", max);
    CHECK(q != NULL);
    CHECK_EQ(rx_scheduler_is_serial(q), max == 1);
    for (int i = 0; i < 24; i++) rx_release(rx_schedule(q, opq_action, &o, NULL));
    CHECK(wait_for(&o.done, 24, 5000));
    CHECK_MSG(atomic_load(&o.max_seen) <= max, "max %d, saw %d at once", max, atomic_load(&o.max_seen));
    CHECK_EQ(atomic_load(&o.max_seen), max); /* and it does use its width */
    rx_release(q);
  }
  CHECK(rx_scheduler_operation_queue_new("x", 0) == NULL);
  CHECK(strstr(rx_last_error(), "max_concurrent") != NULL);
}

typedef struct thread_ctx {
  rx_scheduler *sched;
  pthread_t first, second;
  rx_disposable *nested;
  atomic_int done;
} thread_ctx;

static void nt_second(void *ctx) {
  thread_ctx *t = ctx;
  t->second = pthread_self();
  atomic_fetch_add(&t->done, 1);
}

static void nt_first(void *ctx) {
  thread_ctx *t = ctx;
  t->first = pthread_self();
  t->nested = rx_schedule_after(t->sched, 1000000, nt_second, t, NULL);
}

RX_TEST(sched_new_thread_chain_stays_on_its_thread) {
  thread_ctx t = {0};
  t.sched = rx_scheduler_new_thread();
  rx_disposable *d = rx_schedule(t.sched, nt_first, &t, NULL);
  CHECK(wait_for(&t.done, 1, 5000));
  CHECK(!pthread_equal(t.first, pthread_self()));
  CHECK(pthread_equal(t.first, t.second)); /* the chain stays on its thread */
  rx_release(d);
  rx_release(t.nested);
  rx_release(t.sched);
}

/* ---- disposal and ctx_free -------------------------------------------------------------- */

typedef struct free_ctx {
  atomic_int ran;
  atomic_int freed;
} free_ctx;

static void fc_run(void *ctx) { atomic_fetch_add(&((free_ctx *)ctx)->ran, 1); }
static void fc_free(void *ctx) {
  free_ctx *f = ctx;
  CHECK_EQ(atomic_load(&f->freed), 0);
  atomic_fetch_add(&f->freed, 1);
}

RX_TEST(sched_dispose_cancels_and_frees_ctx) {
  rx_scheduler *all[5] = {rx_scheduler_serial_new("s"), rx_scheduler_concurrent_new("c"),
                          rx_scheduler_operation_queue_new("o", 1), rx_scheduler_new_thread(),
                          rx_scheduler_main()};
  /* Long enough that the dispose surely comes first, even under valgrind. */
  const int delay_ms = rxtest_under_valgrind() ? 3000 : 100;
  for (int i = 0; i < 5; i++) {
    free_ctx f = {0};
    rx_disposable *d = rx_schedule_after(all[i], delay_ms * 1000000LL, fc_run, &f, fc_free);
    CHECK(d != NULL);
    CHECK(!rx_disposable_is_disposed(d));
    CHECK_OK(rx_dispose(d));
    CHECK_EQ(atomic_load(&f.freed), 1); /* it can no longer run: freed at once */
    rxtest_sleep_ms(delay_ms + 100); /* past the due time */
    if (i == 4) CHECK_EQ(rx_main_drain(), 0);
    CHECK_EQ(atomic_load(&f.ran), 0);
    rx_release(all[i]);
  }
}

RX_TEST(sched_ctx_free_after_last_run) {
  free_ctx f = {0};
  rx_scheduler *q = rx_scheduler_serial_new("q");
  rx_disposable *d = rx_schedule(q, fc_run, &f, fc_free);
  CHECK(wait_for(&f.freed, 1, 2000));
  CHECK_EQ(atomic_load(&f.ran), 1);
  rx_release(d);
  /* disposed before it runs: freed at once, never run */
  free_ctx g = {0};
  d = rx_schedule_after(q, 1000LL * 1000000, fc_run, &g, fc_free);
  CHECK_OK(rx_dispose(d));
  CHECK_EQ(atomic_load(&g.freed), 1);
  CHECK_EQ(atomic_load(&g.ran), 0);
  rx_release(q);
}

/* ---- periodic --------------------------------------------------------------------------- */

typedef struct periodic_ctx {
  rx_scheduler *sched;
  int64_t times[64];
  atomic_int n;
  atomic_int inside;
  atomic_int overlaps;
  int slow_tick;
} periodic_ctx;

static void periodic_action(void *ctx) {
  periodic_ctx *p = ctx;
  if (atomic_fetch_add(&p->inside, 1) != 0) atomic_fetch_add(&p->overlaps, 1);
  int i = atomic_load(&p->n);
  if (i < 64) p->times[i] = rx_scheduler_now_ns(p->sched);
  if (i == p->slow_tick) rxtest_sleep_ms(35); /* longer than a period and a half */
  atomic_fetch_sub(&p->inside, 1);
  atomic_fetch_add(&p->n, 1);
}

RX_TEST(sched_periodic_virtual_exact) {
  periodic_ctx p = {.slow_tick = -1};
  p.sched = rx_test_scheduler_new();
  rx_disposable *d = rx_schedule_periodic(p.sched, 5, 10, periodic_action, &p, NULL);
  CHECK_OK(rx_test_scheduler_advance_to(p.sched, 1000));
  CHECK_EQ(atomic_load(&p.n), 100); /* 5, 15, ..., 995 */
  for (int i = 0; i < 64; i++) CHECK_EQ(p.times[i], 5 + 10 * i);
  CHECK_OK(rx_dispose(d));
  CHECK_OK(rx_test_scheduler_advance_to(p.sched, 2000));
  CHECK_EQ(atomic_load(&p.n), 100);
  CHECK(rx_schedule_periodic(p.sched, 0, 0, periodic_action, &p, NULL) == NULL);
  CHECK(rx_schedule_periodic(p.sched, 0, -5, periodic_action, &p, NULL) == NULL);
  rx_release(p.sched);
}

RX_TEST(sched_periodic_real_time_no_drift_no_overlap) {
  if (rxtest_under_valgrind()) return; /* millisecond timing means nothing under valgrind */
  periodic_ctx p = {.slow_tick = 3};
  const int64_t period = 20 * 1000000;
  p.sched = rx_scheduler_concurrent_new("periodic");
  int64_t start = rxtest_now_ns() + period;
  rx_disposable *d = rx_schedule_periodic(p.sched, period, period, periodic_action, &p, NULL);
  CHECK(wait_for(&p.n, 12, 5000));
  CHECK_OK(rx_dispose(d));
  CHECK_EQ(atomic_load(&p.overlaps), 0);
  int n = atomic_load(&p.n);
  /* Runs 0..3 are on the grid, never early. */
  for (int i = 0; i < 4; i++)
    CHECK_MSG(p.times[i] - start >= i * period - 1000000, "run %d at %lld us", i,
              (long long)((p.times[i] - start) / 1000));
  /* Run 3 took 35 ms (until ~4.75p): tick 4 runs once, late, right after it... */
  CHECK_MSG(p.times[4] - start >= 4 * period + 10 * 1000000, "late run at %lld us",
            (long long)((p.times[4] - start) / 1000));
  /* ...and the missed tick is not queued up: the next run waits for 5p. */
  CHECK_MSG(p.times[5] - start >= 5 * period - 1000000, "run after the late one at %lld us",
            (long long)((p.times[5] - start) / 1000));
  /* No drift: later runs are back on start + n*period. A scheduler that re-arms "period
     after the last run" would carry the 15 ms slip into every later offset. */
  int64_t best = period;
  for (int i = 6; i < n && i < 64; i++) {
    int64_t off = (p.times[i] - start) % period;
    if (off < best) best = off;
  }
  CHECK_MSG(best < 4 * 1000000, "smallest grid offset after the slow run: %lld us",
            (long long)(best / 1000));
  rxtest_sleep_ms(50);
  CHECK_EQ(atomic_load(&p.n), n); /* disposed: no more runs */
  rx_release(p.sched);
}

/* ---- main scheduler and run loop --------------------------------------------------------- */

static void *schedule_on_main_from_thread(void *ctx) {
  rx_disposable *d = rx_schedule(rx_scheduler_main(), count_up, ctx, NULL);
  return d;
}

typedef struct nested_main {
  atomic_int outer, inner;
  rx_disposable *nested;
  rx_status nested_run, nested_run_for;
  size_t nested_drain;
} nested_main;

static void main_outer(void *ctx) {
  nested_main *m = ctx;
  atomic_fetch_add(&m->outer, 1);
  m->nested = rx_schedule(rx_scheduler_main(), count_up, &m->inner, NULL);
  m->nested_run = rx_main_run();
  m->nested_run_for = rx_main_run_for(0);
  m->nested_drain = rx_main_drain();
}

RX_TEST(sched_main_immediate_vs_queued) {
  nested_main m = {0};
  /* On main with nothing queued: runs at once. Work it schedules is queued. */
  rx_disposable *d = rx_schedule(rx_scheduler_main(), main_outer, &m, NULL);
  CHECK_EQ(atomic_load(&m.outer), 1);
  CHECK_EQ(atomic_load(&m.inner), 0);
  CHECK_EQ(m.nested_run, RX_ESTATE);
  CHECK_EQ(m.nested_run_for, RX_ESTATE);
  CHECK_EQ(m.nested_drain, 0);
  CHECK_EQ(rx_main_drain(), 1);
  CHECK_EQ(atomic_load(&m.inner), 1);
  rx_release(d);
  rx_release(m.nested);

  /* From another thread: queued until main drains it. */
  atomic_int ran = 0;
  pthread_t th;
  void *token;
  pthread_create(&th, NULL, schedule_on_main_from_thread, &ran);
  pthread_join(th, &token);
  CHECK_EQ(atomic_load(&ran), 0);
  /* While something is queued, even main's own schedule call queues (keeps order). */
  rx_disposable *second = rx_schedule(rx_scheduler_main(), count_up, &ran, NULL);
  CHECK_EQ(atomic_load(&ran), 0);
  CHECK_EQ(rx_main_drain(), 2);
  CHECK_EQ(atomic_load(&ran), 2);
  CHECK_EQ(rx_main_drain(), 0);
  rx_release(token);
  rx_release(second);
}

typedef struct off_main {
  rx_status run, run_for;
  size_t drain;
  const char *err;
  char msg[256];
} off_main;

static void *call_main_loop_off_main(void *ctx) {
  off_main *o = ctx;
  o->run = rx_main_run();
  snprintf(o->msg, sizeof o->msg, "%s", rx_last_error());
  o->run_for = rx_main_run_for(1000000);
  o->drain = rx_main_drain();
  return NULL;
}

RX_TEST(sched_main_loop_off_main_thread_is_estate) {
  off_main o = {0};
  pthread_t th;
  pthread_create(&th, NULL, call_main_loop_off_main, &o);
  pthread_join(th, NULL);
  CHECK_EQ(o.run, RX_ESTATE);
  CHECK(strstr(o.msg, "rx_main_run") != NULL);
  CHECK_EQ(o.run_for, RX_ESTATE);
  CHECK_EQ(o.drain, 0);
  CHECK_OK(rx_main_stop()); /* any thread; consumed by the next run */
  CHECK_OK(rx_main_run());
  CHECK_EQ(rx_main_run_for(-1), RX_EINVAL);
}

RX_TEST(sched_main_fd_readable_exactly_while_pending) {
  int fd = rx_main_fd();
  CHECK(fd >= 0);
  CHECK(!fd_readable(fd, 0));
  atomic_int ran = 0;
  pthread_t th;
  void *token;
  pthread_create(&th, NULL, schedule_on_main_from_thread, &ran);
  pthread_join(th, &token);
  CHECK(fd_readable(fd, 0));
  CHECK(fd_readable(fd, 0)); /* level: still readable until drained */
  CHECK_EQ(rx_main_drain(), 1);
  CHECK(!fd_readable(fd, 0));
  rx_release(token);

  /* Disposing the only pending item makes it unreadable again. */
  pthread_create(&th, NULL, schedule_on_main_from_thread, &ran);
  pthread_join(th, &token);
  CHECK(fd_readable(fd, 0));
  CHECK_OK(rx_dispose(token));
  CHECK(!fd_readable(fd, 0));
  CHECK_EQ(rx_main_drain(), 0);

  /* Delayed work: pending (readable) once it is due, not before. */
  if (rxtest_under_valgrind()) return; /* millisecond timing means nothing under valgrind */
  int64_t t0 = rxtest_now_ns();
  rx_disposable *d = rx_schedule_after(rx_scheduler_main(), 200 * 1000000, count_up, &ran, NULL);
  CHECK(!fd_readable(fd, 10));
  CHECK_EQ(rx_main_drain(), 0);
  CHECK(fd_readable(fd, 2000));
  int64_t waited = rxtest_now_ns() - t0;
  CHECK_MSG(waited >= 200 * 1000000, "readable after %lld us", (long long)(waited / 1000));
  CHECK_EQ(rx_main_drain(), 1);
  CHECK_EQ(atomic_load(&ran), 2);
  CHECK(!fd_readable(fd, 0));
  rx_release(d);

  /* drain collects due delayed work even before the fd's timer noticed it */
  d = rx_schedule_after(rx_scheduler_main(), 5 * 1000000, count_up, &ran, NULL);
  rxtest_sleep_ms(6);
  CHECK_EQ(rx_main_drain(), 1);
  rx_release(d);
}

RX_TEST(sched_main_fd_is_private_after_fork) {
  int fd = rx_main_fd();
  CHECK(!fd_readable(fd, 0));
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    /* The child's only thread is its main thread; its fd is its own (same number). */
    atomic_int ran = 0;
    pthread_t th;
    void *token;
    pthread_create(&th, NULL, schedule_on_main_from_thread, &ran);
    pthread_join(th, &token);
    int ok = rx_main_fd() == fd && fd_readable(fd, 0);
    _exit(ok ? 0 : 1); /* leaving the work pending: it must not show in the parent */
  }
  int status = 0;
  CHECK_EQ(waitpid(pid, &status, 0), pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  CHECK(!fd_readable(fd, 0)); /* the child's work never showed up here */
  CHECK_EQ(rx_main_drain(), 0);
}

/* rx_main_run_for when the main thread wakes late: a child process stops this whole
 * process (SIGSTOP) before the timer is due and lets it go on (SIGCONT) after the window has
 * ended. Work that fell due inside the window still runs before rx_main_run_for returns.
 * (Should the stop come late, the timer simply runs on time: the check holds either way.) */
RX_TEST(sched_main_run_for_runs_what_fell_due_when_woken_late) {
  atomic_int ran = 0;
  rx_disposable *d = rx_schedule_after(rx_scheduler_main(), 20 * 1000000, count_up, &ran, NULL);
  CHECK(d != NULL);
  pid_t parent = getpid();
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    usleep(2000);
    kill(parent, SIGSTOP);
    usleep(150 * 1000);
    kill(parent, SIGCONT);
    _exit(0);
  }
  CHECK_OK(rx_main_run_for(60 * 1000000));
  int status = 0;
  CHECK_EQ(waitpid(pid, &status, 0), pid);
  CHECK_EQ(atomic_load(&ran), 1);
  rx_release(d);
}

static void *stop_later(void *ctx) {
  rxtest_sleep_ms(50);
  rx_main_stop();
  return NULL;
}

RX_TEST(sched_main_run_until_stop_and_run_for) {
  pthread_t th;
  atomic_int ran = 0;
  rx_disposable *d = rx_schedule_after(rx_scheduler_main(), 10 * 1000000, count_up, &ran, NULL);
  int64_t t0 = rxtest_now_ns();
  pthread_create(&th, NULL, stop_later, NULL);
  CHECK_OK(rx_main_run());
  int64_t took = rxtest_now_ns() - t0;
  pthread_join(th, NULL);
  CHECK_EQ(atomic_load(&ran), 1);
  CHECK_MSG(took >= 45 * 1000000 && took < 1000LL * 1000000, "run took %lld ms", (long long)(took / 1000000));
  rx_release(d);

  t0 = rxtest_now_ns();
  d = rx_schedule_after(rx_scheduler_main(), 10 * 1000000, count_up, &ran, NULL);
  CHECK_OK(rx_main_run_for(40 * 1000000));
  took = rxtest_now_ns() - t0;
  CHECK_EQ(atomic_load(&ran), 2);
  CHECK_MSG(took >= 40 * 1000000 && took < 500LL * 1000000, "run_for took %lld ms", (long long)(took / 1000000));
  CHECK_OK(rx_main_run_for(0));
  rx_release(d);
}

/* ---- test scheduler ---------------------------------------------------------------- */

typedef struct vt_item {
  rx_scheduler *s;
  order_log *log;
  char tag;
  int64_t seen_now;
} vt_item;

static void vt_action(void *ctx) {
  vt_item *it = ctx;
  it->seen_now = rx_scheduler_now_ns(it->s);
  log_char(it->log, it->tag);
}

RX_TEST(sched_test_scheduler_semantics) {
  rx_scheduler *s = rx_test_scheduler_new();
  order_log log = {0};
  CHECK_EQ(rx_scheduler_now_ns(s), 0);
  CHECK(rx_scheduler_is_serial(s));
  vt_item a = {s, &log, 'a', -1}, b = {s, &log, 'b', -1}, c = {s, &log, 'c', -1}, z = {s, &log, 'z', -1},
          x = {s, &log, 'x', -1};
  rx_disposable *ds[5];
  ds[0] = rx_schedule_after(s, 20, vt_action, &b, NULL);
  ds[1] = rx_schedule_after(s, 10, vt_action, &a, NULL);
  ds[2] = rx_schedule_after(s, 20, vt_action, &c, NULL); /* same time as b: after b */
  ds[3] = rx_schedule(s, vt_action, &z, NULL);           /* zero delay: not run yet */
  ds[4] = rx_schedule_after(s, 15, vt_action, &x, NULL);
  CHECK_EQ(atomic_load(&log.n), 0);
  CHECK_OK(rx_dispose(ds[4])); /* disposed: never runs */
  CHECK_OK(rx_test_scheduler_advance_by(s, 0)); /* runs the zero-delay item at 0 */
  CHECK_EQ(atomic_load(&log.n), 1);
  CHECK_EQ(z.seen_now, 0);
  CHECK_OK(rx_test_scheduler_advance_to(s, 19));
  CHECK_EQ(atomic_load(&log.n), 2);
  CHECK_EQ(a.seen_now, 10);
  CHECK_EQ(rx_scheduler_now_ns(s), 19);
  CHECK_EQ(rx_test_scheduler_advance_to(s, 5), RX_EINVAL); /* the past */
  CHECK_EQ(rx_scheduler_now_ns(s), 19);
  CHECK_EQ(rx_test_scheduler_advance_by(s, -1), RX_EINVAL);
  CHECK_OK(rx_test_scheduler_advance_to(s, 20)); /* inclusive */
  CHECK_EQ(b.seen_now, 20);
  CHECK_EQ(c.seen_now, 20);
  log.items[atomic_load(&log.n)] = 0;
  CHECK_STR(log.items, "zabc");
  rx_disposable *late = rx_schedule_after(s, 1000, vt_action, &x, NULL);
  CHECK_OK(rx_test_scheduler_run(s));
  CHECK_EQ(x.seen_now, 1020);
  CHECK_EQ(rx_scheduler_now_ns(s), 1020);
  for (int i = 0; i < 4; i++) rx_release(ds[i]); /* ds[4] went with its rx_dispose */
  rx_release(late);
  rx_release(s);
}

static void vt_reenter(void *ctx) {
  rx_scheduler *s = ctx;
  CHECK_EQ(rx_test_scheduler_advance_by(s, 1), RX_ESTATE);
  CHECK_EQ(rx_test_scheduler_run(s), RX_ESTATE);
}

RX_TEST(sched_test_scheduler_misuse) {
  rx_scheduler *real = rx_scheduler_serial_new("real");
  CHECK_EQ(rx_test_scheduler_advance_to(real, 10), RX_EHANDLE);
  CHECK(strstr(rx_last_error(), "test scheduler") != NULL);
  CHECK_EQ(rx_test_scheduler_advance_by(real, 10), RX_EHANDLE);
  CHECK(strstr(rx_last_error(), "rx_test_scheduler_advance_by: scheduler is a rx_scheduler of the wrong sort, expected a test scheduler") != NULL);
  CHECK_EQ(rx_test_scheduler_advance_by(rx_scheduler_immediate(), 10), RX_EHANDLE);
  CHECK_EQ(rx_test_scheduler_run(rx_scheduler_main()), RX_EHANDLE);
  CHECK_EQ(rx_test_scheduler_advance_by(NULL, 1), RX_EINVAL);
  rx_value v = rx_string("not a scheduler");
  CHECK_EQ(rx_test_scheduler_run((rx_scheduler *)RX_PTR_OF(v)), RX_EHANDLE);
  rx_value_release(v);
  rx_scheduler *s = rx_test_scheduler_new();
  rx_disposable *d = rx_schedule(s, vt_reenter, s, NULL);
  CHECK_OK(rx_test_scheduler_run(s));
  rx_release(d);
  rx_release(s);
  rx_release(real);
}

RX_TEST(sched_bad_arguments) {
  atomic_int ran = 0;
  CHECK(rx_schedule(NULL, count_up, &ran, NULL) == NULL);
  CHECK(rx_schedule(rx_scheduler_immediate(), NULL, &ran, NULL) == NULL);
  CHECK(strstr(rx_last_error(), "action is NULL") != NULL);
  CHECK_EQ(rx_scheduler_now_ns(NULL), -1);
  CHECK(!rx_scheduler_is_serial(NULL));
  rx_observable *o = rx_empty();
  CHECK_EQ(rx_scheduler_now_ns((rx_scheduler *)o), -1);
  CHECK(strstr(rx_last_error(), "rx_observable") != NULL);
  rx_release(o);
  CHECK(rx_scheduler_custom_new(NULL, NULL, NULL) == NULL);
  rx_scheduler_vtable empty = {0};
  CHECK(rx_scheduler_custom_new(&empty, NULL, NULL) == NULL);
  CHECK_EQ(atomic_load(&ran), 0);
  /* negative delays are zero */
  rx_scheduler *s = rx_test_scheduler_new();
  rx_disposable *d = rx_schedule_after(s, -50, count_up, &ran, NULL);
  CHECK_OK(rx_test_scheduler_advance_by(s, 0));
  CHECK_EQ(atomic_load(&ran), 1);
  rx_release(d);
  rx_release(s);
}

/* ---- custom scheduler ---------------------------------------------------------------- */

typedef struct custom_queue {
  rx_action_fn actions[64];
  void *ctxs[64];
  rx_disposable *tokens[64];
  atomic_int cancelled[64];
  int n;
  int freed;
} custom_queue;

typedef struct custom_slot {
  custom_queue *q;
  int i;
} custom_slot;

static custom_slot g_slots[64];

static void custom_cancel(void *ctx) {
  custom_slot *slot = ctx;
  atomic_store(&slot->q->cancelled[slot->i], 1);
}

static rx_disposable *custom_schedule(void *ctx, rx_action_fn action, void *action_ctx) {
  custom_queue *q = ctx;
  int i = q->n++;
  q->actions[i] = action;
  q->ctxs[i] = action_ctx;
  g_slots[i] = (custom_slot){q, i};
  return rx_disposable_create(custom_cancel, &g_slots[i], NULL);
}

static int custom_run_all(custom_queue *q, int from) {
  int ran = 0;
  for (int i = from; i < q->n; i++) {
    if (atomic_load(&q->cancelled[i]) || q->actions[i] == NULL) continue;
    rx_action_fn f = q->actions[i];
    q->actions[i] = NULL;
    f(q->ctxs[i]);
    ran++;
  }
  return ran;
}

static void custom_free(void *ctx) { ((custom_queue *)ctx)->freed++; }
static int64_t custom_now(void *ctx) { return 4242; }

static void cnt_next(void *ctx, rx_value v) { atomic_fetch_add((atomic_int *)ctx, 1); }

RX_TEST(sched_custom_vtable_is_used) {
  custom_queue q = {0};
  rx_scheduler_vtable vt = {.schedule = custom_schedule, .now_ns = custom_now, .serial = true};
  rx_scheduler *s = rx_scheduler_custom_new(&vt, &q, custom_free);
  CHECK(s != NULL);
  CHECK(rx_scheduler_is_serial(s));
  CHECK_EQ(rx_scheduler_now_ns(s), 4242);

  free_ctx f = {0};
  rx_disposable *d = rx_schedule(s, fc_run, &f, fc_free);
  CHECK_EQ(q.n, 1);
  CHECK_EQ(atomic_load(&f.ran), 0);
  CHECK_EQ(custom_run_all(&q, 0), 1);
  CHECK_EQ(atomic_load(&f.ran), 1);
  CHECK_EQ(atomic_load(&f.freed), 1);
  rx_release(d);

  /* Disposed before the scheduler ran it: its token is disposed, its ctx freed. */
  free_ctx g = {0};
  d = rx_schedule(s, fc_run, &g, fc_free);
  CHECK_OK(rx_dispose(d));
  CHECK_EQ(atomic_load(&q.cancelled[1]), 1);
  CHECK_EQ(atomic_load(&g.freed), 1);
  CHECK_EQ(custom_run_all(&q, 1), 0);

  /* Operators schedule through it too. */
  atomic_int seen = 0;
  rx_observable *src = rx_range(0, 5);
  rx_observable *obs = rx_observe_on(src, s);
  rx_disposable *sub = rx_subscribe(obs, (rx_observer){.on_next = cnt_next, .ctx = &seen});
  CHECK_EQ(atomic_load(&seen), 0);
  CHECK(custom_run_all(&q, 2) >= 1);
  CHECK_EQ(atomic_load(&seen), 5);
  CHECK_OK(rx_dispose(sub));
  rx_release(obs);
  rx_release(src);
  CHECK_EQ(q.freed, 0);
  rx_release(s);
  CHECK_EQ(q.freed, 1);
}

RX_TEST(sched_main_stop_is_not_eaten_by_blocking_calls) {
  /* A stop the program requested belongs to its next rx_main_run, even if a blocking call
     runs the main loop meanwhile. */
  CHECK_OK(rx_main_stop());
  rx_scheduler *bg = rx_scheduler_serial_new("bg");
  rx_observable *five = rx_just(rx_int(5));
  rx_observable *off_main = rx_subscribe_on(five, bg); /* so delivery needs the main loop */
  rx_observable *o = rx_observe_on(off_main, rx_scheduler_main());
  rx_value out = rx_none();
  CHECK_OK(rx_blocking_last(o, 1000LL * 1000000, &out, NULL));
  CHECK_EQ(out.i, 5);
  int64_t t0 = rxtest_now_ns();
  CHECK_OK(rx_main_run()); /* returns at once: the stop is still pending */
  CHECK(rxtest_now_ns() - t0 < 500LL * 1000000);
  rx_release(o);
  rx_release(off_main);
  rx_release(five);
  rx_release(bg);
}

/* Work that a scheduler ran at once (the main loop on its own thread while idle, the
   immediate scheduler) still hands back a token that reads as disposed once disposed. */
RX_TEST(sched_token_of_work_run_at_once_reads_disposed_after_dispose) {
  rx_scheduler *scheds[2] = {rx_scheduler_main(), rx_scheduler_immediate()};
  for (int i = 0; i < 2; i++) {
    atomic_int ran = 0;
    rx_disposable *d = rx_schedule(scheds[i], count_up, &ran, NULL);
    CHECK(d != NULL);
    CHECK_EQ(atomic_load(&ran), 1);
    rx_retain(d);
    CHECK_OK(rx_dispose(d));
    CHECK(rx_disposable_is_disposed(d));
    CHECK_OK(rx_dispose(d)); /* again: a no-op, and the last reference */
  }
}
