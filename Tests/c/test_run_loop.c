/* Run loops (rxc.h section 8): rx_run_loop_new driven by a thread other than main,
 * work arriving from other threads, the fd, drain counts, run_for timing, stop, the thread
 * rule, bad handles, and what the last release does with pending work. */
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "rxtest.h"

/* The one place that reads an int out of an rx_value. */
#define VAL_I(v) ((v).i)

static bool fd_readable(int fd, int timeout_ms) {
  struct pollfd p = {.fd = fd, .events = POLLIN};
  return poll(&p, 1, timeout_ms) == 1 && (p.revents & POLLIN);
}

static bool wait_for(atomic_int *flag, int want, int timeout_ms) {
  int64_t deadline = rxtest_now_ns() + (int64_t)timeout_ms * 1000000;
  while (atomic_load(flag) < want) {
    if (rxtest_now_ns() > deadline) return false;
    rxtest_sleep_ms(1);
  }
  return true;
}

static void count_up(void *ctx) { atomic_fetch_add((atomic_int *)ctx, 1); }

/* ---- a loop on its own thread ---------------------------------------------------------- */

typedef struct loop_thread {
  rx_run_loop *loop;
  pthread_t thread;
  atomic_int started;
  rx_status status;
} loop_thread;

static void *run_loop_main(void *arg) {
  loop_thread *t = arg;
  /* The first drive binds the loop to this thread. */
  CHECK_EQ(rx_run_loop_drain(t->loop), 0);
  atomic_store(&t->started, 1);
  t->status = rx_run_loop_run(t->loop);
  return NULL;
}

static void loop_thread_start(loop_thread *t, rx_run_loop *loop) {
  t->loop = loop;
  atomic_store(&t->started, 0);
  t->status = RX_EINVAL;
  CHECK_EQ(pthread_create(&t->thread, NULL, run_loop_main, t), 0);
  CHECK(wait_for(&t->started, 1, 5000));
}

/* What the loop thread saw: counts, and whether everything ran there. */
typedef struct seen {
  pthread_t loop_thread;
  atomic_int ran;
  atomic_int off_thread;
  atomic_int values;
  atomic_llong sum;
  atomic_int completed;
  atomic_int disposed;
  atomic_int freed;
} seen;

static void seen_action(void *ctx) {
  seen *s = ctx;
  if (!pthread_equal(pthread_self(), s->loop_thread)) atomic_fetch_add(&s->off_thread, 1);
  atomic_fetch_add(&s->ran, 1);
}

static void seen_free(void *ctx) { atomic_fetch_add(&((seen *)ctx)->freed, 1); }

static void seen_next(void *ctx, rx_value v) {
  seen *s = ctx;
  if (!pthread_equal(pthread_self(), s->loop_thread)) atomic_fetch_add(&s->off_thread, 1);
  atomic_fetch_add(&s->values, 1);
  atomic_fetch_add(&s->sum, VAL_I(v));
}
static void seen_completed(void *ctx) {
  seen *s = ctx;
  if (!pthread_equal(pthread_self(), s->loop_thread)) atomic_fetch_add(&s->off_thread, 1);
  atomic_fetch_add(&s->completed, 1);
}
static void seen_disposed(void *ctx) { atomic_fetch_add(&((seen *)ctx)->disposed, 1); }

typedef struct producer {
  rx_scheduler *scheduler;
  rx_subject *subject; /* NULL: schedule only */
  seen *s;
  int n;
} producer;

static void *produce(void *arg) {
  producer *p = arg;
  for (int i = 0; i < p->n; i++) {
    if (p->subject) {
      CHECK_OK(rx_subject_on_next(p->subject, RX_INT(i)));
    } else {
      rx_disposable *d = (i % 4 == 3) ? rx_schedule_after(p->scheduler, 1000000, seen_action, p->s, seen_free)
                                      : rx_schedule(p->scheduler, seen_action, p->s, seen_free);
      CHECK(d != NULL);
      rx_release(d);
    }
  }
  return NULL;
}

RX_TEST(run_loop_on_a_thread_receives_work_from_other_threads) {
  rx_run_loop *loop = rx_run_loop_new();
  CHECK(loop != NULL);
  rx_scheduler *sched = rx_run_loop_scheduler(loop);
  CHECK(sched != NULL);
  CHECK(rx_scheduler_is_serial(sched));
  loop_thread lt;
  loop_thread_start(&lt, loop);

  seen s = {.loop_thread = lt.thread};
  rx_subject *subject = rx_publish_subject_new();
  rx_observable *on_loop = rx_observe_on(rx_subject_as_observable(subject), sched);
  CHECK(on_loop != NULL);
  rx_observer obs = {.on_next = seen_next, .on_completed = seen_completed, .on_disposed = seen_disposed, .ctx = &s};
  rx_disposable *sub = rx_subscribe(on_loop, obs);
  CHECK(sub != NULL);

  int n = (int)rxtest_scale(20000, 20);
  int actions = (int)rxtest_scale(2000, 10);
  producer values = {.subject = subject, .s = &s, .n = n};
  producer work[2] = {{.scheduler = sched, .s = &s, .n = actions}, {.scheduler = sched, .s = &s, .n = actions}};
  pthread_t th[3];
  CHECK_EQ(pthread_create(&th[0], NULL, produce, &values), 0);
  CHECK_EQ(pthread_create(&th[1], NULL, produce, &work[0]), 0);
  CHECK_EQ(pthread_create(&th[2], NULL, produce, &work[1]), 0);
  for (int i = 0; i < 3; i++) pthread_join(th[i], NULL);
  CHECK_OK(rx_subject_on_completed(subject));

  CHECK(wait_for(&s.completed, 1, 20000));
  CHECK(wait_for(&s.ran, 2 * actions, 20000));
  CHECK(wait_for(&s.disposed, 1, 5000));
  CHECK_EQ(atomic_load(&s.values), n);
  CHECK_EQ(atomic_load(&s.sum), (long long)n * (n - 1) / 2);
  CHECK_EQ(atomic_load(&s.ran), 2 * actions);
  CHECK_EQ(atomic_load(&s.freed), 2 * actions);
  CHECK_EQ(atomic_load(&s.off_thread), 0);

  CHECK_OK(rx_run_loop_stop(loop)); /* from this (another) thread */
  pthread_join(lt.thread, NULL);
  CHECK_EQ(lt.status, RX_OK);
  rx_release(sub);
  rx_release(on_loop);
  rx_release(subject);
  rx_release(loop);
}

/* ---- the fd and drain ---------------------------------------------------------------- */

typedef struct drive_once {
  rx_run_loop *loop;
  size_t drained;
} drive_once;

static void *drain_on_thread(void *arg) {
  drive_once *d = arg;
  d->drained = rx_run_loop_drain(d->loop);
  return NULL;
}

RX_TEST(run_loop_fd_readable_exactly_while_work_is_due) {
  rx_run_loop *loop = rx_run_loop_new();
  rx_scheduler *sched = rx_run_loop_scheduler(loop);
  int fd = rx_run_loop_fd(loop);
  CHECK(fd >= 0);
  CHECK(fd != rx_main_fd());
  CHECK(!fd_readable(fd, 0));

  /* Not bound yet: even this thread's schedule queues. */
  atomic_int ran = 0;
  rx_disposable *d = rx_schedule(sched, count_up, &ran, NULL);
  CHECK_EQ(atomic_load(&ran), 0);
  CHECK(fd_readable(fd, 0));
  CHECK(fd_readable(fd, 0)); /* level-triggered */
  CHECK_EQ(rx_run_loop_drain(loop), 1); /* binds the loop to this thread */
  CHECK_EQ(atomic_load(&ran), 1);
  CHECK(!fd_readable(fd, 0));
  rx_release(d);

  /* Disposing what is pending makes it unreadable again. */
  pthread_t th;
  drive_once other = {.loop = loop};
  rx_disposable *a = rx_schedule_after(sched, 0, count_up, &ran, NULL);
  rx_disposable *b = rx_schedule_after(sched, 0, count_up, &ran, NULL);
  CHECK(fd_readable(fd, 0));
  CHECK_OK(rx_dispose(a));
  CHECK(fd_readable(fd, 0));
  CHECK_OK(rx_dispose(b));
  CHECK(!fd_readable(fd, 0));
  CHECK_EQ(rx_run_loop_drain(loop), 0);
  CHECK_EQ(atomic_load(&ran), 1);

  /* Delayed work: readable once due, not before. */
  if (!rxtest_under_valgrind()) {
    int64_t t0 = rxtest_now_ns();
    d = rx_schedule_after(sched, 200 * 1000000, count_up, &ran, NULL);
    CHECK(!fd_readable(fd, 10));
    CHECK_EQ(rx_run_loop_drain(loop), 0);
    CHECK(fd_readable(fd, 2000));
    int64_t waited = rxtest_now_ns() - t0;
    CHECK_MSG(waited >= 200 * 1000000, "readable after %lld us", (long long)(waited / 1000));
    CHECK_EQ(rx_run_loop_drain(loop), 1);
    CHECK_EQ(atomic_load(&ran), 2);
    CHECK(!fd_readable(fd, 0));
    rx_release(d);
  }

  /* Another thread may not drain a bound loop. */
  CHECK_EQ(pthread_create(&th, NULL, drain_on_thread, &other), 0);
  pthread_join(th, NULL);
  CHECK_EQ(other.drained, 0);
  rx_release(loop);
}

typedef struct chain {
  rx_scheduler *sched;
  atomic_int ran;
  rx_disposable *next;
} chain;

static void schedules_more(void *ctx) {
  chain *c = ctx;
  atomic_fetch_add(&c->ran, 1);
  c->next = rx_schedule(c->sched, count_up, &c->ran, NULL);
}

RX_TEST(run_loop_drain_counts_what_was_pending) {
  rx_run_loop *loop = rx_run_loop_new();
  chain c = {.sched = rx_run_loop_scheduler(loop)};
  CHECK_EQ(rx_run_loop_drain(loop), 0); /* binds */
  rx_disposable *d[3];
  /* Bound here and idle: the first runs at once; it schedules one, which queues. */
  d[0] = rx_schedule(c.sched, schedules_more, &c, NULL);
  CHECK_EQ(atomic_load(&c.ran), 1);
  rx_release(c.next);
  /* Something queued: these queue behind it, in order. */
  d[1] = rx_schedule(c.sched, count_up, &c.ran, NULL);
  d[2] = rx_schedule(c.sched, schedules_more, &c, NULL);
  CHECK_EQ(atomic_load(&c.ran), 1);
  CHECK_EQ(rx_run_loop_drain(loop), 3); /* not the one the third scheduled */
  CHECK_EQ(atomic_load(&c.ran), 4);
  CHECK_EQ(rx_run_loop_drain(loop), 1);
  CHECK_EQ(atomic_load(&c.ran), 5);
  CHECK_EQ(rx_run_loop_drain(loop), 0);
  CHECK_EQ(rx_run_loop_run_for(loop, 0), RX_OK);
  for (int i = 0; i < 3; i++) rx_release(d[i]);
  rx_release(c.next);
  rx_release(loop);
}

/* ---- run_for and stop ---------------------------------------------------------------- */

typedef struct timed_run {
  rx_run_loop *loop;
  int64_t timeout;
  int64_t took;
  rx_status status;
} timed_run;

static void *run_for_on_thread(void *arg) {
  timed_run *t = arg;
  int64_t t0 = rxtest_now_ns();
  t->status = t->timeout < 0 ? rx_run_loop_run(t->loop) : rx_run_loop_run_for(t->loop, t->timeout);
  t->took = rxtest_now_ns() - t0;
  return NULL;
}

RX_TEST(run_loop_run_for_timing_on_a_thread) {
  rx_run_loop *loop = rx_run_loop_new();
  atomic_int ran = 0;
  rx_disposable *d = rx_schedule_after(rx_run_loop_scheduler(loop), 10 * 1000000, count_up, &ran, NULL);
  timed_run t = {.loop = loop, .timeout = 40 * 1000000};
  pthread_t th;
  CHECK_EQ(pthread_create(&th, NULL, run_for_on_thread, &t), 0);
  pthread_join(th, NULL);
  CHECK_OK(t.status);
  CHECK_EQ(atomic_load(&ran), 1);
  CHECK_MSG(t.took >= 40 * 1000000 && t.took < 2000LL * 1000000, "run_for took %lld ms",
            (long long)(t.took / 1000000));
  CHECK_EQ(rx_run_loop_run_for(loop, -1), RX_EINVAL);
  rx_release(d);
  rx_release(loop);
}

static void *stop_later(void *arg) {
  rxtest_sleep_ms(50);
  CHECK_OK(rx_run_loop_stop(arg));
  return NULL;
}

RX_TEST(run_loop_stop_from_another_thread) {
  rx_run_loop *loop = rx_run_loop_new();
  /* A stop requested while nothing runs ends the next run at once. */
  CHECK_OK(rx_run_loop_stop(loop));
  timed_run t = {.loop = loop, .timeout = -1};
  pthread_t th, stopper;
  int64_t t0;
  CHECK_EQ(pthread_create(&th, NULL, run_for_on_thread, &t), 0);
  pthread_join(th, NULL);
  CHECK_OK(t.status);
  CHECK_MSG(t.took < 1000LL * 1000000, "run took %lld ms", (long long)(t.took / 1000000));

  /* That thread drove it, so it is the loop's: this one is refused. */
  CHECK_EQ(rx_run_loop_run(loop), RX_ESTATE);
  CHECK(strstr(rx_last_error(), "rx_run_loop_run") != NULL);
  rx_release(loop);

  /* Another thread ends a run in progress. */
  loop = rx_run_loop_new();
  t0 = rxtest_now_ns(); /* before the stopper starts its 50 ms */
  CHECK_EQ(pthread_create(&stopper, NULL, stop_later, loop), 0);
  CHECK_OK(rx_run_loop_run(loop));
  int64_t took = rxtest_now_ns() - t0;
  pthread_join(stopper, NULL);
  CHECK_MSG(took >= 45 * 1000000 && took < 2000LL * 1000000, "run took %lld ms", (long long)(took / 1000000));
  rx_release(loop);
}

/* ---- the thread rule ------------------------------------------------------------------ */

typedef struct nested_calls {
  rx_run_loop *loop;
  atomic_int outer;
  rx_status run, run_for;
  size_t drain;
  char msg[256];
} nested_calls;

static void call_loop_from_inside(void *ctx) {
  nested_calls *n = ctx;
  atomic_fetch_add(&n->outer, 1);
  n->run = rx_run_loop_run(n->loop);
  snprintf(n->msg, sizeof n->msg, "%s", rx_last_error());
  n->run_for = rx_run_loop_run_for(n->loop, 0);
  n->drain = rx_run_loop_drain(n->loop);
}

typedef struct off_thread {
  rx_run_loop *loop;
  rx_status run, run_for;
  size_t drain;
  char msg[256];
} off_thread;

static void *call_loop_off_thread(void *arg) {
  off_thread *o = arg;
  o->drain = rx_run_loop_drain(o->loop);
  snprintf(o->msg, sizeof o->msg, "%s", rx_last_error());
  o->run = rx_run_loop_run(o->loop);
  o->run_for = rx_run_loop_run_for(o->loop, 1000000);
  return NULL;
}

RX_TEST(run_loop_wrong_thread_and_nested_calls_are_estate) {
  rx_run_loop *loop = rx_run_loop_new();
  rx_scheduler *sched = rx_run_loop_scheduler(loop);
  CHECK_OK(rx_run_loop_run_for(loop, 0)); /* binds to this thread */

  off_thread o = {.loop = loop};
  pthread_t th;
  CHECK_EQ(pthread_create(&th, NULL, call_loop_off_thread, &o), 0);
  pthread_join(th, NULL);
  CHECK_EQ(o.drain, 0);
  CHECK(strstr(o.msg, "rx_run_loop_drain") != NULL);
  CHECK(strstr(o.msg, "bound") != NULL);
  CHECK_EQ(o.run, RX_ESTATE);
  CHECK_EQ(o.run_for, RX_ESTATE);

  /* On the loop's thread with nothing queued, rx_schedule runs at once; nested drives fail. */
  nested_calls n = {.loop = loop};
  rx_disposable *d = rx_schedule(sched, call_loop_from_inside, &n, NULL);
  CHECK_EQ(atomic_load(&n.outer), 1);
  CHECK_EQ(n.run, RX_ESTATE);
  CHECK(strstr(n.msg, "nested") != NULL);
  CHECK_EQ(n.run_for, RX_ESTATE);
  CHECK_EQ(n.drain, 0);
  rx_release(d);

  /* The same from inside a drain. */
  n.outer = 0;
  n.run = n.run_for = RX_OK;
  d = rx_schedule_after(sched, 0, call_loop_from_inside, &n, NULL);
  CHECK_EQ(atomic_load(&n.outer), 0);
  CHECK_EQ(rx_run_loop_drain(loop), 1);
  CHECK_EQ(atomic_load(&n.outer), 1);
  CHECK_EQ(n.run, RX_ESTATE);
  CHECK_EQ(n.run_for, RX_ESTATE);
  rx_release(d);

  rx_release(loop);
}

/* ---- the main loop is one of them ------------------------------------------------------ */

RX_TEST(run_loop_main_is_the_main_scheduler_loop) {
  rx_run_loop *main_loop = rx_run_loop_main();
  CHECK(main_loop != NULL);
  CHECK(main_loop == rx_run_loop_main());
  CHECK(rx_run_loop_scheduler(main_loop) == rx_scheduler_main());
  CHECK_EQ(rx_run_loop_fd(main_loop), rx_main_fd());
  CHECK(rx_retain(main_loop) == main_loop);
  rx_release(main_loop);
  rx_release(main_loop); /* shared: never ends */
  atomic_int ran = 0;
  pthread_t th;
  off_thread o = {.loop = main_loop};
  CHECK_EQ(pthread_create(&th, NULL, call_loop_off_thread, &o), 0);
  pthread_join(th, NULL);
  CHECK_EQ(o.drain, 0);
  CHECK(strstr(o.msg, "main thread") != NULL);
  CHECK_EQ(o.run, RX_ESTATE);
  rx_disposable *d = rx_schedule_after(rx_scheduler_main(), 0, count_up, &ran, NULL);
  CHECK(fd_readable(rx_run_loop_fd(main_loop), 0));
  CHECK_EQ(rx_run_loop_drain(main_loop), 1);
  CHECK_EQ(atomic_load(&ran), 1);
  CHECK_OK(rx_run_loop_stop(main_loop));
  CHECK_OK(rx_main_run()); /* the same stop flag */
  CHECK_OK(rx_run_loop_run_for(main_loop, 1000000));
  rx_release(d);
}

/* ---- bad handles ------------------------------------------------------------------------ */

RX_TEST(run_loop_bad_handles) {
  CHECK(rx_run_loop_scheduler(NULL) == NULL);
  CHECK(strstr(rx_last_error(), "rx_run_loop_scheduler") != NULL);
  CHECK_EQ(rx_run_loop_fd(NULL), -1);
  CHECK_EQ(rx_run_loop_drain(NULL), 0);
  CHECK(strstr(rx_last_error(), "loop is NULL") != NULL);
  CHECK_EQ(rx_run_loop_run(NULL), RX_EINVAL);
  CHECK_EQ(rx_run_loop_run_for(NULL, 0), RX_EINVAL);
  CHECK_EQ(rx_run_loop_stop(NULL), RX_EINVAL);

  /* A handle of another kind, and memory that is no handle at all. */
  rx_scheduler *serial = rx_scheduler_serial_new("not a loop");
  rx_run_loop *wrong = (rx_run_loop *)serial;
  CHECK(rx_run_loop_scheduler(wrong) == NULL);
  CHECK(strstr(rx_last_error(), "expected rx_run_loop") != NULL);
  CHECK_EQ(rx_run_loop_fd(wrong), -1);
  CHECK_EQ(rx_run_loop_drain(wrong), 0);
  CHECK_EQ(rx_run_loop_run(wrong), RX_EHANDLE);
  CHECK_EQ(rx_run_loop_run_for(wrong, 0), RX_EHANDLE);
  CHECK_EQ(rx_run_loop_stop(wrong), RX_EHANDLE);
  static _Alignas(16) char junk[64];
  memset(junk, 0x5a, sizeof junk);
  CHECK_EQ(rx_run_loop_run((rx_run_loop *)junk), RX_EHANDLE);
  CHECK(strstr(rx_last_error(), "not a librxc handle") != NULL);
  CHECK_EQ(rx_run_loop_stop((rx_run_loop *)(junk + 1)), RX_EHANDLE);
  rx_release(serial);

  /* A loop is not a scheduler. */
  rx_run_loop *loop = rx_run_loop_new();
  CHECK(rx_schedule((rx_scheduler *)loop, count_up, NULL, NULL) == NULL);
  CHECK(strstr(rx_last_error(), "rx_run_loop") != NULL);
  rx_release(loop);
}

/* ---- the last release ------------------------------------------------------------------- */

typedef struct pending_ctx {
  atomic_int ran;
  atomic_int freed;
} pending_ctx;

static void pending_run(void *ctx) { atomic_fetch_add(&((pending_ctx *)ctx)->ran, 1); }
static void pending_free(void *ctx) { atomic_fetch_add(&((pending_ctx *)ctx)->freed, 1); }

RX_TEST(run_loop_release_with_pending_work_frees_its_ctx) {
  rx_run_loop *loop = rx_run_loop_new();
  rx_scheduler *sched = rx_retain(rx_run_loop_scheduler(loop));
  CHECK(sched != NULL);
  pending_ctx p = {0};
  rx_disposable *tokens[5];
  for (int i = 0; i < 3; i++) tokens[i] = rx_schedule(sched, pending_run, &p, pending_free);
  tokens[3] = rx_schedule_after(sched, 50 * 1000000, pending_run, &p, pending_free);
  tokens[4] = rx_schedule_periodic(sched, 1000000, 1000000, pending_run, &p, pending_free);
  for (int i = 0; i < 5; i++) CHECK(tokens[i] != NULL);
  CHECK(fd_readable(rx_run_loop_fd(loop), 0));
  CHECK_EQ(atomic_load(&p.freed), 0);
  rx_release(loop);
  CHECK_EQ(atomic_load(&p.freed), 5);
  CHECK_EQ(atomic_load(&p.ran), 0);
  /* The retained scheduler refuses new work; nothing ran later either. */
  CHECK(rx_schedule(sched, pending_run, &p, pending_free) == NULL);
  CHECK(strstr(rx_last_error(), "closed") != NULL);
  rxtest_sleep_ms(rxtest_under_valgrind() ? 200 : 80);
  CHECK_EQ(atomic_load(&p.ran), 0);
  CHECK_EQ(atomic_load(&p.freed), 5);
  for (int i = 0; i < 5; i++) rx_release(tokens[i]);
  rx_release(sched);
}

/* ---- blocking calls on a loop's thread ------------------------------------------------ */

typedef struct blocking_on_loop {
  rx_run_loop *loop;
  rx_status status, nested_status;
  size_t count;
  int64_t last;
  char nested_msg[256];
} blocking_on_loop;

static void block_from_inside(void *ctx) {
  blocking_on_loop *b = ctx;
  rx_value out;
  rx_observable *src = rx_never(); /* it would have to wait */
  b->nested_status = rx_blocking_to_array(src, 1000000000, &out, NULL);
  snprintf(b->nested_msg, sizeof b->nested_msg, "%s", rx_last_error());
  rx_value_release(out);
  rx_release(src);
}

static void *block_on_loop_thread(void *arg) {
  blocking_on_loop *b = arg;
  rx_scheduler *sched = rx_run_loop_scheduler(b->loop);
  CHECK_EQ(rx_run_loop_drain(b->loop), 0); /* binds */
  /* Values delivered on this very loop: the wait must run it, or it never ends. */
  rx_observable *src = rx_range(1, 5);
  rx_observable *on_loop = rx_observe_on(src, sched);
  rx_observable *late = rx_delay(on_loop, 5 * 1000000, sched);
  rx_value out;
  b->status = rx_blocking_last(late, 10LL * 1000000000, &out, NULL);
  if (b->status == RX_OK) b->last = VAL_I(out);
  rx_value_release(out);
  /* From inside the loop's work it cannot run the loop: RX_ESTATE (at once, not after the
     second it would wait). */
  rx_release(rx_schedule_after(sched, 0, block_from_inside, b, NULL));
  b->count = rx_run_loop_drain(b->loop);
  rx_release(late);
  rx_release(on_loop);
  rx_release(src);
  return NULL;
}

RX_TEST(run_loop_blocking_call_on_its_thread_runs_the_loop) {
  blocking_on_loop b = {.loop = rx_run_loop_new()};
  pthread_t th;
  CHECK_EQ(pthread_create(&th, NULL, block_on_loop_thread, &b), 0);
  pthread_join(th, NULL);
  CHECK_OK(b.status);
  CHECK_EQ(b.last, 5);
  CHECK_EQ(b.count, 1);
  CHECK_EQ(b.nested_status, RX_ESTATE);
  CHECK(strstr(b.nested_msg, "run loop") != NULL);
  rx_release(b.loop);
}
