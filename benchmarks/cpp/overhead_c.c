/* overhead_c.c — the synchronous per-event chains of the C++ benchmark written against rxc.h
 * with C callbacks: the baseline of overhead.sh (rxc.hpp's own cost per event).
 * Usage: overhead_c WORKLOAD N
 *   range_map_filter | range_scan | subject_1_subscriber: N events
 *   subscribe_dispose_4_operators: N subscribe + dispose pairs on a 4-operator chain */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rxc.h"

static rx_value times_two(void *ctx, rx_value v, rx_error **error) { return RX_INT(v.i * 2); }
static bool third(void *ctx, rx_value v, rx_error **error) { return v.i % 3 == 0; }
static rx_value add(void *ctx, rx_value acc, rx_value v, rx_error **error) { return RX_INT(acc.i + v.i); }
static void sum_next(void *ctx, rx_value v) { *(int64_t *)ctx += v.i; }
static rx_value plus_one(void *ctx, rx_value v, rx_error **error) { return RX_INT(v.i + 1); }
static bool even(void *ctx, rx_value v, rx_error **error) { return v.i % 2 == 0; }
static rx_value times_three(void *ctx, rx_value v, rx_error **error) { return RX_INT(v.i * 3); }

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  const char *w = argv[1];
  int64_t n = atoll(argv[2]), sum = 0;
  rx_observer o = {.on_next = sum_next, .ctx = &sum};
  if (strcmp(w, "range_map_filter") == 0) {
    rx_observable *r = rx_range(0, (size_t)n);
    rx_observable *m = rx_map(r, times_two, NULL, NULL);
    rx_observable *f = rx_filter(m, third, NULL, NULL);
    rx_disposable *d = rx_subscribe(f, o);
    rx_dispose(d);
    rx_release(f);
    rx_release(m);
    rx_release(r);
  } else if (strcmp(w, "range_scan") == 0) {
    rx_observable *r = rx_range(0, (size_t)n);
    rx_observable *s = rx_scan(r, RX_INT(0), add, NULL, NULL);
    rx_disposable *d = rx_subscribe(s, o);
    rx_dispose(d);
    rx_release(s);
    rx_release(r);
  } else if (strcmp(w, "subject_1_subscriber") == 0) {
    rx_subject *s = rx_publish_subject_new();
    rx_disposable *d = rx_subscribe(rx_subject_as_observable(s), o);
    for (int64_t i = 0; i < n; i++) rx_subject_on_next(s, RX_INT(i));
    rx_dispose(d);
    rx_release(s);
  } else if (strcmp(w, "subscribe_dispose_4_operators") == 0) {
    rx_subject *s = rx_publish_subject_new();
    rx_observable *a = rx_map(rx_subject_as_observable(s), plus_one, NULL, NULL);
    rx_observable *b = rx_filter(a, even, NULL, NULL);
    rx_observable *c = rx_map(b, times_three, NULL, NULL);
    rx_observable *d = rx_skip(c, 1);
    for (int64_t i = 0; i < n; i++) rx_dispose(rx_subscribe(d, o));
    rx_release(d);
    rx_release(c);
    rx_release(b);
    rx_release(a);
    rx_release(s);
  } else {
    return 2;
  }
  printf("%lld\n", (long long)sum);
  return 0;
}
