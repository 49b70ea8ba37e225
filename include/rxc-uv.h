/*
 * rxc-uv.h — hosts a librxc run loop in a libuv loop. Header-only; needs rxc.h and uv.h.
 *
 * An rx_run_loop runs its work on the thread that drives it, and its fd is readable exactly
 * while work is due. rx_uv_attach puts a uv_poll_t on that fd: whenever it polls readable,
 * the libuv thread calls rx_run_loop_drain. Every rx callback scheduled on the run loop then
 * runs on the libuv thread, between the program's other libuv callbacks.
 *
 *     uv_loop_t *uv = uv_default_loop();
 *     rx_uv_poll *rx = rx_uv_attach(uv, rx_run_loop_main());  // main-scheduler work, Drivers
 *     ...                                                      // rx_observe_on(.., rx_scheduler_main())
 *     uv_run(uv, UV_RUN_DEFAULT);
 *     // and when done, on the libuv thread (e.g. in a callback):
 *     rx_uv_detach(rx);
 *
 * Any thread: a libuv loop run on another thread hosts a loop from rx_run_loop_new (schedule
 * on rx_run_loop_scheduler(loop)). The thread that runs the libuv loop must be the run
 * loop's thread: the first drain binds a new run loop to it for good, and the main run loop
 * (rx_run_loop_main) belongs to the main thread. On any other thread the drain is refused:
 * the handle then stops polling (uv_is_active turns false) and says so on stderr.
 *
 * Ownership: rx_uv_attach retains the run loop; rx_uv_detach stops polling and closes the
 * handle, and libuv's close callback (in a later iteration of uv_run) releases the run loop
 * and frees the handle. So call rx_uv_detach on the libuv thread, and let uv_run run once
 * more afterwards (uv_run(UV_RUN_DEFAULT) does, since the closing handle keeps it alive)
 * before uv_loop_close. While attached, the poll handle keeps uv_run(UV_RUN_DEFAULT) from
 * returning; uv_unref(rx_uv_handle(rx)) if it should not.
 *
 *     cc prog.c $(pkg-config --cflags --libs rxc libuv)
 */
#ifndef RXC_UV_H
#define RXC_UV_H

#include <stdio.h>
#include <stdlib.h>
#include <uv.h>

#include "rxc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A poll handle on one run loop's fd. The uv_poll_t comes first: a rx_uv_poll * is a
   uv_handle_t * (see rx_uv_handle). */
typedef struct rx_uv_poll {
  uv_poll_t poll;
  rx_run_loop *loop; /* retained */
} rx_uv_poll;

static inline void rx_uv__ready(uv_poll_t *poll, int status, int events) {
  rx_run_loop *loop = ((rx_uv_poll *)poll)->loop;
  (void)status; /* on an error status the drain is harmless: it runs what is due, if any */
  (void)events;
  if (rx_run_loop_drain(loop) > 0) return;
  /* Nothing ran: a spurious wakeup, or a drain refused on this thread (not the loop's), which
     would leave the fd readable and spin. run_for(0) tells them apart by its status (and
     would end a pending rx_run_loop_stop, which a hosted loop has no use for). */
  if (rx_run_loop_run_for(loop, 0) == RX_ESTATE) {
    fprintf(stderr, "rxc-uv: stopped polling a run loop this thread may not drain: %s\n", rx_last_error());
    uv_poll_stop(poll);
  }
}

static inline void rx_uv__closed(uv_handle_t *handle) {
  rx_uv_poll *p = (rx_uv_poll *)handle;
  rx_release(p->loop); /* after libuv stopped polling its fd: the fd may close now */
  free(p);
}

/*
 * Starts draining `loop` (borrowed; retained) from the libuv loop `uv`. Call it on the
 * thread that runs `uv` (or before that thread runs it).
 * Returns the handle; NULL when loop is not a run loop (rx_last_error() says why) or libuv
 * refused the fd or memory ran out (nothing is left behind).
 */
static inline rx_uv_poll *rx_uv_attach(uv_loop_t *uv, rx_run_loop *loop) {
  int fd = uv ? rx_run_loop_fd(loop) : -1;
  rx_uv_poll *p;
  if (fd < 0) return NULL;
  p = (rx_uv_poll *)calloc(1, sizeof *p);
  if (!p) return NULL;
  if (uv_poll_init(uv, &p->poll, fd) != 0) {
    free(p); /* uv_poll_init failed before registering the handle */
    return NULL;
  }
  p->loop = (rx_run_loop *)rx_retain(loop);
  uv_poll_start(&p->poll, UV_READABLE, rx_uv__ready);
  return p;
}

/* The handle as a uv_handle_t, for uv_ref / uv_unref / uv_is_active. */
static inline uv_handle_t *rx_uv_handle(rx_uv_poll *p) { return (uv_handle_t *)&p->poll; }

/* Stops draining and closes the handle; the close callback releases the run loop and frees
   the handle. On the libuv thread; NULL is ignored. Work still queued on the run loop stays
   there (for another host, or for the run loop's release). */
static inline void rx_uv_detach(rx_uv_poll *p) {
  if (!p) return;
  uv_poll_stop(&p->poll);
  uv_close((uv_handle_t *)&p->poll, rx_uv__closed);
}

#ifdef __cplusplus
}
#endif

#endif /* RXC_UV_H */
