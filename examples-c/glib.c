/*
 * glib.c — hosting librxc run loops in GLib main loops, on the main thread and on another.
 *
 * rxc-glib.h's rx_glib_attach adds a GSource that drains a run loop whenever work is due.
 * Here the main thread runs GLib's default context, which hosts the main run loop (so
 * main-scheduler work and Drivers run there, as in a GTK program), and a worker thread runs
 * a context of its own, which hosts a run loop from rx_run_loop_new.
 *
 * A producer thread emits 1..10 into a subject; the values are observed on the worker's run
 * loop, squared there, and delivered to the main thread through a Driver (rx_as_driver /
 * rx_drive), next to a GLib timeout that ticks all along.
 *
 *     cc glib.c $(pkg-config --cflags --libs rxc glib-2.0)
 */
#include <stdio.h>

#include "rxc-glib.h"

enum { VALUES = 10 };

typedef struct worker {
  GMainContext *context;
  GMainLoop *loop;
  rx_run_loop *rx;
  GThread *thread;
  GMutex lock; /* with ready: tells main the worker's loop is up */
  GCond ready_cond;
  gboolean ready;
} worker;

static struct {
  GMainLoop *loop;
  worker w;
  int values, beats, off_thread;
  long long sum;
  gboolean completed;
} app;

/* ---- the worker thread: its own context, hosting a new run loop ---------------------- */

static gpointer worker_main(gpointer arg) {
  worker *w = arg;
  g_main_context_push_thread_default(w->context);
  GSource *host = rx_glib_attach(w->rx, w->context); /* the first drain binds w->rx here */
  g_mutex_lock(&w->lock);
  w->ready = TRUE;
  g_cond_signal(&w->ready_cond);
  g_mutex_unlock(&w->lock);
  g_main_loop_run(w->loop);
  rx_glib_detach(host);
  g_main_context_pop_thread_default(w->context);
  return NULL;
}

/* Runs on the worker thread, inside its run loop's drain. */
static rx_value square(void *ctx, rx_value v, rx_error **error) {
  if (g_thread_self() != app.w.thread) app.off_thread++;
  printf("  worker thread: %lld squared\n", (long long)v.i);
  return RX_INT(v.i * v.i);
}

/* ---- the main thread: GLib's default context, hosting the main run loop ------------- */

static void on_value(void *ctx, rx_value v) {
  if (!g_main_context_is_owner(NULL)) app.off_thread++;
  printf("  main thread: %lld\n", (long long)v.i);
  app.values++;
  app.sum += v.i;
}

static void on_completed(void *ctx) {
  printf("  main thread: completed\n");
  app.completed = TRUE;
  g_main_loop_quit(app.w.loop); /* any thread */
  g_main_loop_quit(app.loop);
}

static gboolean heartbeat(gpointer data) {
  app.beats++;
  return G_SOURCE_CONTINUE;
}

static gpointer producer(gpointer subject) {
  for (int i = 1; i <= VALUES; i++) {
    rx_subject_on_next(subject, RX_INT(i));
    g_usleep(2000);
  }
  rx_subject_on_completed(subject);
  return NULL;
}

int main(void) {
  int64_t live_at_start = rx_debug_live_objects();

  worker *w = &app.w;
  w->rx = rx_run_loop_new();
  if (!w->rx) {
    fprintf(stderr, "rx_run_loop_new: %s\n", rx_last_error());
    return 1;
  }
  w->context = g_main_context_new();
  w->loop = g_main_loop_new(w->context, FALSE);
  g_mutex_init(&w->lock);
  g_cond_init(&w->ready_cond);
  w->thread = g_thread_new("rx-worker", worker_main, w);
  g_mutex_lock(&w->lock);
  while (!w->ready) g_cond_wait(&w->ready_cond, &w->lock);
  g_mutex_unlock(&w->lock);

  app.loop = g_main_loop_new(NULL, FALSE);
  GSource *host = rx_glib_attach(rx_run_loop_main(), NULL);
  guint beat = g_timeout_add(5, heartbeat, NULL);

  rx_subject *subject = rx_publish_subject_new();
  rx_observable *on_worker = rx_observe_on(rx_subject_as_observable(subject), rx_run_loop_scheduler(w->rx));
  rx_observable *squares = rx_map(on_worker, square, NULL, NULL);
  rx_observable *driver = rx_as_driver(squares, RX_INT(-1));
  rx_disposable *sub = rx_drive(driver, (rx_observer){.on_next = on_value, .on_completed = on_completed});

  GThread *prod = g_thread_new("producer", producer, subject);
  g_main_loop_run(app.loop);
  g_thread_join(prod);
  g_thread_join(w->thread);

  printf("glib: %d values (sum %lld), completed %d, %d heartbeats, %d callbacks on the wrong thread\n",
         app.values, app.sum, app.completed, app.beats, app.off_thread);
  rx_dispose(sub);
  rx_release(driver);
  rx_release(squares);
  rx_release(on_worker);
  rx_release(subject);
  g_source_remove(beat);
  rx_glib_detach(host);
  rx_release(w->rx);
  g_main_loop_unref(w->loop);
  g_main_context_unref(w->context);
  g_mutex_clear(&w->lock);
  g_cond_clear(&w->ready_cond);
  g_main_loop_unref(app.loop);

  long long want = 0;
  for (int i = 1; i <= VALUES; i++) want += (long long)i * i;
  int ok = app.values == VALUES && app.sum == want && app.completed && !app.off_thread &&
           rx_debug_live_objects() == live_at_start;
  printf("glib: %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
