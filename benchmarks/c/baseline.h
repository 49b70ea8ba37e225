/* Callbacks shared by the raw C baseline and the librxc workloads. They live in their own
   translation unit (baseline.c) so the compiler cannot inline them into either loop: every
   call below is an indirect call through a function pointer, as the library's are. */
#ifndef BENCH_BASELINE_H
#define BENCH_BASELINE_H
#include <semaphore.h>
#include <stdint.h>
#include "rxc.h"

typedef struct sum_sink {
  int64_t sum;
  int64_t count;
  int64_t completed;
  int64_t disposed;
  sem_t *done; /* posted by on_disposed when set (observe_on workload) */
} sum_sink;

void sink_on_next(void *ctx, rx_value v);
void sink_on_completed(void *ctx);
void sink_on_disposed(void *ctx);
rx_value fn_add1(void *ctx, rx_value v, rx_error **error);
rx_value fn_times2(void *ctx, rx_value v, rx_error **error);
bool fn_even(void *ctx, rx_value v, rx_error **error);

/* The raw baselines: what a hand-written C callback loop costs. */
void raw_publish(void (*on_next)(void *, rx_value), void *ctx, int64_t n);
void raw_publish_many(void (*on_next)(void *, rx_value), void **ctxs, int subscribers,
                      int64_t n);
void raw_pipeline(rx_map_fn map1, rx_predicate_fn pred, rx_map_fn map2,
                  void (*on_next)(void *, rx_value), void *ctx, int64_t n);
#endif
