/* The raw C baseline: an indirect call per event through a function pointer, in a
   translation unit of its own so nothing is inlined. */
#include "baseline.h"

void sink_on_next(void *ctx, rx_value v) {
  sum_sink *s = ctx;
  s->sum += v.i;
  s->count++;
}

void sink_on_completed(void *ctx) { ((sum_sink *)ctx)->completed++; }

/* The last callback of a subscription: only now may its owner free the sink. */
void sink_on_disposed(void *ctx) {
  sum_sink *s = ctx;
  s->disposed++;
  if (s->done) sem_post(s->done);
}

rx_value fn_add1(void *ctx, rx_value v, rx_error **error) {
  (void)ctx, (void)error;
  return RX_INT(v.i + 1);
}

rx_value fn_times2(void *ctx, rx_value v, rx_error **error) {
  (void)ctx, (void)error;
  return RX_INT(v.i * 2);
}

bool fn_even(void *ctx, rx_value v, rx_error **error) {
  (void)ctx, (void)error;
  return (v.i & 1) == 0;
}

void raw_publish(void (*on_next)(void *, rx_value), void *ctx, int64_t n) {
  for (int64_t i = 0; i < n; i++) on_next(ctx, RX_INT(i));
}

void raw_publish_many(void (*on_next)(void *, rx_value), void **ctxs, int subscribers,
                      int64_t n) {
  for (int64_t i = 0; i < n; i++)
    for (int k = 0; k < subscribers; k++) on_next(ctxs[k], RX_INT(i));
}

void raw_pipeline(rx_map_fn map1, rx_predicate_fn pred, rx_map_fn map2,
                  void (*on_next)(void *, rx_value), void *ctx, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    rx_value v = map1(NULL, RX_INT(i), NULL);
    if (!pred(NULL, v, NULL)) continue;
    on_next(ctx, map2(NULL, v, NULL));
  }
}
