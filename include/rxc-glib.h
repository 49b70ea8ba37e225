/*
 * rxc-glib.h — hosts a librxc run loop in a GLib main context (GTK, GIO, GStreamer...).
 * Header-only; needs rxc.h and glib.h.
 *
 * An rx_run_loop runs its work on the thread that drives it, and its fd is readable exactly
 * while work is due. rx_glib_attach adds a GSource that polls that fd and calls
 * rx_run_loop_drain when it is readable, so every rx callback scheduled on the run loop runs
 * on the thread that iterates the context, between the program's other sources (its
 * widgets' events, its timeouts, GTK's frame clock).
 *
 *     // A GTK program: main-scheduler work and Drivers (rx_drive) run in GTK's main loop.
 *     GSource *rx = rx_glib_attach(rx_run_loop_main(), NULL);
 *     ...
 *     rx_glib_detach(rx);
 *
 * Any thread: a thread that runs its own GMainContext (g_main_context_push_thread_default,
 * g_main_loop_run) hosts a loop from rx_run_loop_new; pass that context. The thread that
 * iterates the context must be the run loop's thread: the first drain binds a new run loop to
 * it for good, and the main run loop (rx_run_loop_main) belongs to the main thread. On any
 * other thread the drain is refused: the source then removes itself (g_source_is_destroyed)
 * with a g_warning.
 *
 * Ownership: the source retains the run loop. rx_glib_detach destroys the source (GLib stops
 * polling the fd) and drops the reference rx_glib_attach returned; the run loop is released
 * when the source is finalized, which can only happen once nothing polls the fd. Call
 * rx_glib_detach from any thread; if it runs while the context's thread is dispatching the
 * source, GLib finalizes it after that dispatch returns.
 *
 * The source has G_PRIORITY_DEFAULT (GTK's input and redraw run at it and above); change it
 * with g_source_set_priority. rx_glib_source_new makes the source unattached, to set
 * things before g_source_attach.
 *
 *     cc prog.c $(pkg-config --cflags --libs rxc glib-2.0)
 */
#ifndef RXC_GLIB_H
#define RXC_GLIB_H

#include <glib.h>

#include "rxc.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rx_glib__source {
  GSource source;
  rx_run_loop *loop; /* retained */
} rx_glib__source;

/* No prepare or check: GLib dispatches a source whose unix fd polled ready. */
static inline gboolean rx_glib__dispatch(GSource *source, GSourceFunc callback, gpointer data) {
  rx_run_loop *loop = ((rx_glib__source *)source)->loop;
  (void)callback;
  (void)data;
  if (rx_run_loop_drain(loop) > 0) return G_SOURCE_CONTINUE;
  /* Nothing ran: a spurious wakeup, or a drain refused on this thread (not the loop's), which
     would leave the fd readable and spin. run_for(0) tells them apart by its status (and
     would end a pending rx_run_loop_stop, which a hosted loop has no use for). A nested
     iteration of the context never gets here: GLib does not dispatch a source inside its
     own dispatch. */
  if (rx_run_loop_run_for(loop, 0) != RX_ESTATE) return G_SOURCE_CONTINUE;
  g_warning("rxc-glib: stopped polling a run loop this thread may not drain: %s", rx_last_error());
  return G_SOURCE_REMOVE;
}

static inline void rx_glib__finalize(GSource *source) {
  rx_release(((rx_glib__source *)source)->loop); /* nothing polls the fd any more */
}

/*
 * A new, unattached source that drains `loop` (borrowed; retained) when its fd is readable.
 * Returns an owned reference (g_source_unref), or NULL when loop is not a run loop
 * (rx_last_error() says why).
 */
static inline GSource *rx_glib_source_new(rx_run_loop *loop) {
  static GSourceFuncs funcs = {NULL, NULL, rx_glib__dispatch, rx_glib__finalize, NULL, NULL};
  int fd = rx_run_loop_fd(loop);
  GSource *source;
  if (fd < 0) return NULL;
  source = g_source_new(&funcs, sizeof(rx_glib__source));
  ((rx_glib__source *)source)->loop = (rx_run_loop *)rx_retain(loop);
  g_source_set_name(source, "rxc run loop");
  g_source_add_unix_fd(source, fd, G_IO_IN);
  return source;
}

/*
 * Starts draining `loop` (borrowed; retained) from `context` (NULL: the global default
 * context, GTK's). Returns the attached source (an owned reference: end it with
 * rx_glib_detach), or NULL when loop is not a run loop (rx_last_error() says why).
 */
static inline GSource *rx_glib_attach(rx_run_loop *loop, GMainContext *context) {
  GSource *source = rx_glib_source_new(loop);
  if (source) g_source_attach(source, context);
  return source;
}

/* Stops draining: destroys the source and drops the caller's reference. NULL is ignored.
   Work still queued on the run loop stays there (for another host, or its release). */
static inline void rx_glib_detach(GSource *source) {
  if (!source) return;
  g_source_destroy(source);
  g_source_unref(source);
}

#ifdef __cplusplus
}
#endif

#endif /* RXC_GLIB_H */
