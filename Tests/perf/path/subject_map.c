#include <rxc.h>
#include <stdio.h>

/* One rx_subject_on_next -> rx_map -> C on_next, between two calls of marker (trace.py). */
static long sum;
static rx_value add_one(void *ctx, rx_value v, rx_error **err) { (void)ctx; (void)err; v.i += 1; return v; }
static void on_next(void *ctx, rx_value v) { (void)ctx; sum += v.i; }
__attribute__((noinline)) void marker(void) { __asm__ volatile(""); }
int main(void) {
  rx_subject *s = rx_publish_subject_new();
  rx_observable *o = rx_subject_as_observable(s);
  rx_observable *m = rx_map(o, add_one, NULL, NULL);
  rx_observer obs = {0};
  obs.on_next = on_next;
  rx_disposable *d = rx_subscribe(m, obs);
  for (int i = 0; i < 100; i++) rx_subject_on_next(s, rx_int(i));
  marker();
  rx_subject_on_next(s, rx_int(7));
  marker();
  rx_dispose(d); rx_release(d); rx_release(m); rx_release(o); rx_release(s);
  printf("%ld\n", sum);
  return 0;
}
