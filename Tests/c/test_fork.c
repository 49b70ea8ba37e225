/* fork(): every scheduler kind works in a forked child (and in its child), after heavy use
 * in the parent. The queue schedulers and the timers run on the library's own threads
 * there (libdispatch cannot), started on first use. Each child runs under an alarm and
 * exits with a status the parent checks. */
#include <poll.h>
#include <sched.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rxtest.h"

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef VALGRIND_CLO_CHANGE
#define RUNNING_ON_VALGRIND 0
#define VALGRIND_CLO_CHANGE(option)
#endif

/* The one place that reads an int out of an rx_value. */
#define VAL_I(v) ((v).i)

static bool wait_for(atomic_int *flag, int want, int timeout_ms) {
  int64_t deadline = rxtest_now_ns() + (int64_t)timeout_ms * 1000000;
  while (atomic_load(flag) < want) {
    if (rxtest_now_ns() > deadline) return false;
    rxtest_sleep_ms(1);
  }
  return true;
}

static int wait_ms(void) { return rxtest_under_valgrind() ? 60000 : 10000; }

static void count_up(void *ctx) { atomic_fetch_add((atomic_int *)ctx, 1); }

/* ---- observe_on: n values through a subject, counted on the far side ------------------ */

typedef struct sink {
  atomic_int values;
  atomic_llong sum;
  atomic_int completed;
  atomic_int disposed;
} sink;

static void sink_next(void *ctx, rx_value v) {
  sink *s = ctx;
  atomic_fetch_add(&s->values, 1);
  atomic_fetch_add(&s->sum, VAL_I(v));
}
static void sink_completed(void *ctx) { atomic_fetch_add(&((sink *)ctx)->completed, 1); }
static void sink_disposed(void *ctx) { atomic_fetch_add(&((sink *)ctx)->disposed, 1); }

/* Pushes n values through observe_on(scheduler); true when all arrived, in one piece. */
static bool observe_on_delivers(rx_scheduler *scheduler, int n) {
  sink s = {0};
  rx_subject *subject = rx_publish_subject_new();
  rx_observable *o = rx_observe_on(rx_subject_as_observable(subject), scheduler);
  rx_observer obs = {.on_next = sink_next, .on_completed = sink_completed, .on_disposed = sink_disposed, .ctx = &s};
  rx_disposable *d = rx_subscribe(o, obs);
  if (!d) return false;
  for (int i = 0; i < n; i++) rx_subject_on_next(subject, RX_INT(i));
  rx_subject_on_completed(subject);
  bool ok = wait_for(&s.completed, 1, wait_ms()) && wait_for(&s.disposed, 1, wait_ms());
  ok = ok && atomic_load(&s.values) == n && atomic_load(&s.sum) == (long long)n * (n - 1) / 2;
  if (!ok)
    fprintf(stderr, "observe_on: %d of %d values, completed %d\n", atomic_load(&s.values), n,
            atomic_load(&s.completed));
  rx_release(d);
  rx_release(o);
  rx_release(subject);
  return ok;
}

/* n actions, n delayed actions and a few periodic ticks; true when all ran. */
static bool schedules_run(rx_scheduler *scheduler, int n) {
  atomic_int ran = 0, ticks = 0;
  for (int i = 0; i < n; i++) {
    rx_release(rx_schedule(scheduler, count_up, &ran, NULL));
    rx_release(rx_schedule_after(scheduler, 1000000 + i * 1000, count_up, &ran, NULL));
  }
  rx_disposable *periodic = rx_schedule_periodic(scheduler, 0, 2000000, count_up, &ticks, NULL);
  bool ok = wait_for(&ran, 2 * n, wait_ms()) && wait_for(&ticks, 3, wait_ms());
  rx_dispose(periodic);
  if (!ok) fprintf(stderr, "schedules: %d of %d ran, %d ticks\n", atomic_load(&ran), 2 * n, atomic_load(&ticks));
  return ok;
}

/* ---- concurrency -------------------------------------------------------------------- */

typedef struct overlap {
  atomic_int running;
  atomic_int most;
  atomic_int done;
} overlap;

static void overlap_action(void *ctx) {
  overlap *o = ctx;
  int now = atomic_fetch_add(&o->running, 1) + 1;
  int most = atomic_load(&o->most);
  while (now > most && !atomic_compare_exchange_weak(&o->most, &most, now)) {}
  rxtest_sleep_ms(2);
  atomic_fetch_sub(&o->running, 1);
  atomic_fetch_add(&o->done, 1);
}

/* n sleeping actions: how many ran at once at most (0 when they did not all run). */
static int most_at_once(rx_scheduler *scheduler, int n) {
  overlap o = {0};
  for (int i = 0; i < n; i++) rx_release(rx_schedule(scheduler, overlap_action, &o, NULL));
  if (!wait_for(&o.done, n, wait_ms())) return 0;
  return atomic_load(&o.most);
}

/* ---- threads ------------------------------------------------------------------------- */

typedef struct thread_seen {
  pthread_t caller;
  atomic_int ran;
  atomic_int elsewhere;
} thread_seen;

static void note_thread(void *ctx) {
  thread_seen *t = ctx;
  if (!pthread_equal(pthread_self(), t->caller)) atomic_fetch_add(&t->elsewhere, 1);
  atomic_fetch_add(&t->ran, 1);
}

typedef struct loop_runner {
  rx_run_loop *loop;
  pthread_t thread;
  atomic_int bound;
  rx_status status;
} loop_runner;

static void *drive_loop(void *arg) {
  loop_runner *r = arg;
  rx_run_loop_drain(r->loop);
  atomic_store(&r->bound, 1);
  r->status = rx_run_loop_run(r->loop);
  return NULL;
}

static bool start_loop(loop_runner *r, rx_run_loop *loop) {
  r->loop = loop;
  r->status = RX_EINVAL;
  atomic_store(&r->bound, 0);
  return pthread_create(&r->thread, NULL, drive_loop, r) == 0 && wait_for(&r->bound, 1, wait_ms());
}

static bool stop_loop(loop_runner *r) {
  rx_run_loop_stop(r->loop);
  pthread_join(r->thread, NULL);
  return r->status == RX_OK;
}

static void *schedule_main_from_thread(void *ctx) {
  return rx_schedule(rx_scheduler_main(), count_up, ctx, NULL);
}

/* A custom scheduler without schedule_after (the library's timer hands delayed work to
   schedule) that runs actions at once. */
static rx_disposable *custom_schedule(void *ctx, rx_action_fn action, void *action_ctx) {
  action(action_ctx);
  return NULL;
}

/* A blocking call waiting for values delivered on `scheduler` (a semaphore off main, the
   main loop on main). */
static void *blocking_sum(void *arg) {
  rx_scheduler *scheduler = arg;
  rx_observable *src = rx_range(1, 10);
  rx_observable *moved = rx_observe_on(src, scheduler);
  rx_value out;
  rx_status st = rx_blocking_last(moved, (int64_t)wait_ms() * 1000000, &out, NULL);
  intptr_t last = st == RX_OK ? (intptr_t)VAL_I(out) : -1;
  rx_value_release(out);
  rx_release(moved);
  rx_release(src);
  return (void *)last;
}

/* ---- the schedulers of one process ------------------------------------------------------ */

typedef struct kinds {
  rx_scheduler *serial, *concurrent, *opqueue, *new_thread, *custom;
  rx_run_loop *loop;
} kinds;

static void kinds_make(kinds *k) {
  static const rx_scheduler_vtable vt = {.schedule = custom_schedule};
  k->serial = rx_scheduler_serial_new("fork.serial");
  k->concurrent = rx_scheduler_concurrent_new("fork.concurrent");
  k->opqueue = rx_scheduler_operation_queue_new("fork.opqueue", 2);
  k->new_thread = rx_scheduler_new_thread();
  k->custom = rx_scheduler_custom_new(&vt, NULL, NULL);
  k->loop = rx_run_loop_new();
  CHECK(k->serial && k->concurrent && k->opqueue && k->new_thread && k->custom && k->loop);
}

static void kinds_release(kinds *k) {
  rx_release(k->serial);
  rx_release(k->concurrent);
  rx_release(k->opqueue);
  rx_release(k->new_thread);
  rx_release(k->custom);
  rx_release(k->loop);
}

/* Every kind in turn; each CHECK names the kind that failed. `loop` must be undriven or
   bound to a thread of another process (it is driven here from a new thread). */
static void exercise(kinds *k, int n) {
  CHECK(observe_on_delivers(k->serial, n));
  CHECK(observe_on_delivers(k->concurrent, n));
  CHECK(observe_on_delivers(k->opqueue, n));
  CHECK(observe_on_delivers(k->new_thread, n));
  CHECK(observe_on_delivers(k->custom, n));
  int m = (int)rxtest_scale(200, 4);
  CHECK(schedules_run(k->serial, m));
  CHECK(schedules_run(k->concurrent, m));
  CHECK(schedules_run(k->opqueue, m));
  CHECK(schedules_run(k->new_thread, m));
  CHECK(schedules_run(k->custom, m));
  CHECK_EQ(most_at_once(k->serial, 8), 1);
  int most = most_at_once(k->opqueue, 8);
  CHECK_MSG(most >= 1 && most <= 2, "operation queue: %d at once (max 2)", most);
  CHECK_MSG(most_at_once(k->concurrent, 8) >= 2, "the concurrent scheduler never ran two at once");

  /* Blocking calls, on this (main) thread and on another. */
  CHECK_EQ((intptr_t)blocking_sum(k->serial), 10);
  pthread_t blocker;
  void *last;
  CHECK_EQ(pthread_create(&blocker, NULL, blocking_sum, k->concurrent), 0);
  pthread_join(blocker, &last);
  CHECK_EQ((intptr_t)last, 10);

  /* New thread: off the caller's thread. */
  thread_seen t = {.caller = pthread_self()};
  rx_release(rx_schedule(k->new_thread, note_thread, &t, NULL));
  CHECK(wait_for(&t.ran, 1, wait_ms()));
  CHECK_EQ(atomic_load(&t.elsewhere), 1);

  /* Immediate and current thread: inline. */
  atomic_int inline_ran = 0;
  rx_release(rx_schedule(rx_scheduler_immediate(), count_up, &inline_ran, NULL));
  rx_release(rx_schedule(rx_scheduler_current_thread(), count_up, &inline_ran, NULL));
  rx_release(rx_schedule_after(rx_scheduler_current_thread(), 1000000, count_up, &inline_ran, NULL));
  CHECK_EQ(atomic_load(&inline_ran), 3);

  /* The main loop: work from another thread and a timer, run by this (main) thread. */
  atomic_int main_ran = 0;
  pthread_t th;
  void *token;
  CHECK_EQ(pthread_create(&th, NULL, schedule_main_from_thread, &main_ran), 0);
  pthread_join(th, &token);
  struct pollfd p = {.fd = rx_main_fd(), .events = POLLIN};
  CHECK_EQ(poll(&p, 1, 0), 1);
  CHECK_EQ(rx_main_drain(), 1);
  rx_release(token);
  rx_disposable *later = rx_schedule_after(rx_scheduler_main(), 2000000, count_up, &main_ran, NULL);
  int64_t deadline = rxtest_now_ns() + (int64_t)wait_ms() * 1000000;
  while (atomic_load(&main_ran) < 2 && rxtest_now_ns() < deadline) CHECK_OK(rx_main_run_for(5000000));
  CHECK_EQ(atomic_load(&main_ran), 2);
  rx_release(later);

  /* A run loop on a thread of this process. */
  loop_runner r;
  CHECK(start_loop(&r, k->loop));
  rx_scheduler *ls = rx_run_loop_scheduler(k->loop);
  CHECK(observe_on_delivers(ls, n));
  CHECK(schedules_run(ls, m));
  CHECK(stop_loop(&r));
}

/* A child ends with _exit(status) and the parent checks the status. Under valgrind the
   child first turns the leak check off: memory that the parent's threads held at the fork
   (a delivery in flight, a queue's last reference) is unreachable in the child, which has
   none of those threads, and would be reported as lost. Valgrind's other errors still make
   the child exit with valgrind's error status. */
typedef struct child {
  pid_t pid;
} child;

static void child_start(child *c) {
  c->pid = fork();
  CHECK(c->pid >= 0);
  if (c->pid == 0) alarm(rxtest_under_valgrind() ? 300 : 60);
}

static void child_finish(child *c, int status) {
  if (RUNNING_ON_VALGRIND) VALGRIND_CLO_CHANGE("--leak-check=no");
  _exit(status);
}

/* The child's exit status (0: it passed), or -1 when it was killed or timed out. */
/* ThreadSanitizer does not support threads started after a multi-threaded fork: it kills
   such a child, or with die_after_fork=0 crashes inside its own runtime there. The fork tests
   run in the plain harness, under valgrind and under AddressSanitizer instead. */
static int under_thread_sanitizer(void) {
  const char *s = getenv("RXTEST_SANITIZER");
  if (s == NULL || strcmp(s, "thread") != 0) return 0;
  printf("# not run under ThreadSanitizer (no threads after a multi-threaded fork there)\n");
  return 1;
}

/* AddressSanitizer runs against the library's debug build, whose unspecialized generic code
   takes the Swift runtime's metadata cache locks on its hot paths (a lock per lookup of some
   generic types). A parent that keeps threads on those paths across a fork leaves a child
   that may inherit one of those runtime locks held, and the child then hangs on its first
   lookup: a property of the runtime in debug builds, not of the library's own locks (which
   are held across fork). The test that forks under such churn runs against the shipped
   release build, in the plain harness and under valgrind. */
static int under_address_sanitizer(void) {
  const char *s = getenv("RXTEST_SANITIZER");
  if (s == NULL || strcmp(s, "address") != 0) return 0;
  printf("# not run against the debug build of AddressSanitizer (Swift runtime locks across fork)\n");
  return 1;
}

static int child_status(child *c) {
  int status = 0;
  int64_t deadline = rxtest_now_ns() + (int64_t)(wait_ms() * 6) * 1000000;
  while (waitpid(c->pid, &status, WNOHANG) == 0) {
    if (rxtest_now_ns() > deadline) {
      kill(c->pid, SIGKILL);
      waitpid(c->pid, &status, 0);
      fprintf(stderr, "child %d timed out\n", (int)c->pid);
      return -1;
    }
    rxtest_sleep_ms(5);
  }
  if (WIFSIGNALED(status)) fprintf(stderr, "child %d: signal %d\n", (int)c->pid, WTERMSIG(status));
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

RX_TEST(fork_child_every_scheduler_kind_works_after_heavy_use) {
  if (under_thread_sanitizer()) return;
  int n = (int)rxtest_scale(20000, 20);
  kinds parent;
  kinds_make(&parent);
  exercise(&parent, n);
  /* Leave the parent's threads busy across the fork: a serial stream in flight. */
  sink busy = {0};
  rx_subject *subject = rx_publish_subject_new();
  rx_observable *o = rx_observe_on(rx_subject_as_observable(subject), parent.serial);
  rx_observer obs = {.on_next = sink_next, .on_completed = sink_completed, .on_disposed = sink_disposed, .ctx = &busy};
  rx_disposable *d = rx_subscribe(o, obs);
  for (int i = 0; i < 1000; i++) rx_subject_on_next(subject, RX_INT(i));

  child c;
  child_start(&c);
  if (c.pid == 0) {
    int m = (int)rxtest_scale(2000, 4);
    /* The parent's schedulers (their loop was bound to a parent thread), then new ones. */
    exercise(&parent, m);
    kinds fresh;
    kinds_make(&fresh);
    exercise(&fresh, m);
    /* And one generation further. */
    child g;
    child_start(&g);
    if (g.pid == 0) {
      exercise(&fresh, m);
      child_finish(&g, 0);
    }
    CHECK_EQ(child_status(&g), 0);
    kinds_release(&fresh);
    child_finish(&c, 0);
  }
  CHECK_EQ(child_status(&c), 0);

  /* The parent is unaffected. */
  rx_subject_on_completed(subject);
  CHECK(wait_for(&busy.completed, 1, wait_ms()));
  CHECK(wait_for(&busy.disposed, 1, wait_ms()));
  CHECK_EQ(atomic_load(&busy.values), 1000);
  rx_release(d);
  rx_release(o);
  rx_release(subject);
  /* The parent's loop is bound to a thread that has ended: a new one. */
  rx_release(parent.loop);
  parent.loop = rx_run_loop_new();
  exercise(&parent, n);
  kinds_release(&parent);
}

RX_TEST(fork_child_new_serial_scheduler_delivers_every_value) {
  if (under_thread_sanitizer()) return;
  /* Dispatch in use before the fork. */
  rx_scheduler *warm = rx_scheduler_serial_new("fork.warm");
  CHECK(observe_on_delivers(warm, 1000));
  rx_release(warm);
  child c;
  child_start(&c);
  if (c.pid == 0) {
    rx_scheduler *serial = rx_scheduler_serial_new("fork.child");
    bool ok = observe_on_delivers(serial, 1000);
    rx_release(serial);
    child_finish(&c, ok ? 0 : 1);
  }
  CHECK_EQ(child_status(&c), 0);
}

/* ---- locks held by parent threads at the fork ------------------------------------------ */

/* Parent threads keep taking the locks of a run loop, of the main loop and of their timers
   (scheduling and disposing work, delayed work that timers hand over) while this thread
   forks: a child that inherited one of them held by a thread it does not have would hang
   on its first drain. Each child drives both loops under an alarm. */
typedef struct lock_churn {
  rx_run_loop *loop;
  atomic_int stop;
  atomic_int ran;
} lock_churn;

static void *churn_loop_locks(void *arg) {
  lock_churn *c = arg;
  rx_scheduler *schedulers[2] = {rx_run_loop_scheduler(c->loop), rx_scheduler_main()};
  for (unsigned i = 0; !atomic_load(&c->stop); i++) {
    rx_scheduler *s = schedulers[i & 1];
    rx_dispose(rx_schedule(s, count_up, &c->ran, NULL));
    rx_dispose(rx_schedule_after(s, 1000, count_up, &c->ran, NULL));
    if (i % 64 == 0) rx_release(rx_schedule_after(s, 10000, count_up, &c->ran, NULL));
    if (i % 8 == 0) sched_yield();  /* lets the loop's thread keep up (no backlog for the children) */
  }
  return NULL;
}

/* The parent's loop thread may have been inside a run or an action at the fork: that was
   the parent's thread, not this one, so the child's drive must not be refused as nested. */
static void *drain_once(void *arg) {
  return (void *)(intptr_t)(rx_run_loop_run_for(arg, 0) == RX_OK);
}

RX_TEST(fork_child_drives_loops_that_parent_threads_kept_locking) {
  if (under_thread_sanitizer() || under_address_sanitizer()) return;
  lock_churn churn = {.loop = rx_run_loop_new()};
  CHECK(churn.loop != NULL);
  pthread_t driver, churners[3];
  loop_runner r;
  CHECK(start_loop(&r, churn.loop));
  for (int i = 0; i < 3; i++) CHECK_EQ(pthread_create(&churners[i], NULL, churn_loop_locks, &churn), 0);
  int forks = (int)rxtest_scale(150, 15), hung = 0;
  for (int i = 0; i < forks && hung == 0; i++) {
    rxtest_sleep_ms(2);
    rx_main_drain();
    child c = {.pid = fork()};
    CHECK(c.pid >= 0);
    if (c.pid == 0) {
      alarm(rxtest_under_valgrind() ? 60 : 5);  /* a hang shows here, not after child_status's minute */
      /* The parent's loop, bound anew to a thread of the child, and the main loop. */
      void *drained = NULL;
      pthread_create(&driver, NULL, drain_once, churn.loop);
      pthread_join(driver, &drained);
      if (!drained) child_finish(&c, 2);
      atomic_int ran = 0;
      rx_release(rx_schedule_after(rx_scheduler_main(), 1000, count_up, &ran, NULL));
      int64_t deadline = rxtest_now_ns() + (int64_t)wait_ms() * 1000000;
      while (atomic_load(&ran) < 1 && rxtest_now_ns() < deadline) rx_main_run_for(1000000);
      rx_release(churn.loop);  /* closed here, on the child's own pipes */
      child_finish(&c, atomic_load(&ran) == 1 ? 0 : 1);
    }
    int status = 0;
    waitpid(c.pid, &status, 0);
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) hung++;
    else CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child %d: status %d", i, status);
  }
  atomic_store(&churn.stop, 1);
  for (int i = 0; i < 3; i++) pthread_join(churners[i], NULL);
  CHECK(stop_loop(&r));
  rx_release(churn.loop);
  rx_main_run_for(20000000);  /* the main loop's share of the delayed work */
  CHECK_MSG(hung == 0, "a child hung on a lock a parent thread held at the fork");
}
