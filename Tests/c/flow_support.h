/* What the flow-control tests share (rx_observe_on_bounded, rx_pausable_buffered,
 * rx_rate_limit): on_dropped counting into `drops`, options of a policy and capacity, the
 * counters read with a check, and the overflow error the policy fail ends a stream with. */
#ifndef FLOW_SUPPORT_H
#define FLOW_SUPPORT_H

#include "rxtest.h"

#include <stdatomic.h>

typedef struct drops {
  atomic_long n;
  atomic_llong sum;
} drops;

static inline void on_drop(void *ctx, rx_value v) {
  drops *d = ctx;
  atomic_fetch_add(&d->n, 1);
  if (v.kind == RX_INT) atomic_fetch_add(&d->sum, v.i);
}

/* Options with on_dropped counting into d (NULL: no on_dropped). */
static inline rx_flow_options opts_of(int32_t policy, size_t capacity, drops *d) {
  rx_flow_options o = {sizeof(rx_flow_options), capacity, policy, 0, d ? on_drop : NULL, d, NULL};
  return o;
}

static inline rx_flow_stats stats_of(rx_observable *bounded) {
  rx_flow_stats s = {.struct_size = sizeof s};
  CHECK_OK(rx_flow_stats_get(bounded, &s));
  return s;
}

static inline rx_error *overflow_error(void) {
  return rx_error_new(RX_ERROR_OVERFLOW, "overflow: a bounded queue was full");
}

#endif
