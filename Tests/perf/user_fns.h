/* The user's functions of the catalog workloads: the C subscriber that counts and the
 * operators' functions. One copy for Tests/perf/workloads.c (through librxc) and
 * benchmarks/c/floor.c (the same calls through function pointers, no library between them),
 * so the floor column calls exactly what the library calls. */
#ifndef RXC_PERF_USER_FNS_H
#define RXC_PERF_USER_FNS_H

#include "rxc.h"

/* Not every includer uses every function. */
#define USER_FN static __attribute__((unused))

static long delivered;
USER_FN void count_next(void *ctx, rx_value v) { (void)ctx; (void)v; delivered++; }
USER_FN void count_error(void *ctx, const rx_error *e) { (void)ctx; (void)e; delivered++; }
USER_FN void count_completed(void *ctx) { (void)ctx; delivered++; }

USER_FN rx_value inc(void *ctx, rx_value v, rx_error **e) { (void)ctx; (void)e; return rx_int(v.i + 1); }
USER_FN bool keep_all(void *ctx, rx_value v, rx_error **e) { (void)ctx; (void)v; (void)e; return true; }
USER_FN bool keep_none(void *ctx, rx_value v, rx_error **e) { (void)ctx; (void)v; (void)e; return false; }
USER_FN rx_value add(void *ctx, rx_value acc, rx_value v, rx_error **e) { (void)ctx; (void)e; return rx_int(acc.i + v.i); }
USER_FN rx_value sum2(void *ctx, const rx_value *vs, size_t n, rx_error **e) {
  (void)ctx; (void)e;
  int64_t s = 0;
  for (size_t k = 0; k < n; k++) s += vs[k].i;
  return rx_int(s);
}
USER_FN bool keep_odd_inc(void *ctx, rx_value v, rx_value *out, rx_error **e) {
  (void)ctx; (void)e;
  *out = rx_int(v.i + 1);
  return v.i % 2;
}
USER_FN bool int_eq(void *ctx, rx_value a, rx_value b) { (void)ctx; return a.i == b.i; }
USER_FN rx_value mod4(void *ctx, rx_value v, rx_error **e) { (void)ctx; (void)e; return rx_int(v.i & 3); }
/* Events per run: generate's condition reads it. */
static long n_events;
USER_FN bool below_n(void *ctx, rx_value v, rx_error **e) { (void)ctx; (void)e; return v.i < n_events; }
USER_FN void ignore_drop(void *ctx, rx_value v) { (void)ctx; (void)v; }

/* The operators' functions for strings: each hands back a value it was lent. */
USER_FN rx_value same(void *ctx, rx_value v, rx_error **e) { (void)ctx; (void)e; return rx_value_retain(v); }
USER_FN rx_value latest(void *ctx, rx_value acc, rx_value v, rx_error **e) {
  (void)ctx; (void)acc; (void)e;
  return rx_value_retain(v);
}
USER_FN rx_value first_of(void *ctx, const rx_value *vs, size_t n, rx_error **e) {
  (void)ctx; (void)n; (void)e;
  return rx_value_retain(vs[0]);
}

#endif
