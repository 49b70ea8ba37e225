/* hello.c — a publish subject, one observer, three values. */
#include <rxc.h>
#include <stdio.h>

static void print_next(void *ctx, rx_value v) { printf("%s: %lld\n", (char *)ctx, (long long)v.i); }
static void print_done(void *ctx) { printf("%s: completed\n", (char *)ctx); }
static void print_disposed(void *ctx) { printf("%s: disposed\n", (char *)ctx); }

int main(void) {
  rx_subject *subject = rx_publish_subject_new();                     /* owned */
  rx_observer printer = {.on_next = print_next, .on_completed = print_done,
                         .on_disposed = print_disposed, .ctx = "hello"};
  rx_disposable *sub = rx_subscribe(rx_subject_as_observable(subject), printer);
  for (int64_t i = 1; i <= 3; i++) rx_subject_on_next(subject, rx_int(i));
  rx_subject_on_completed(subject);
  rx_dispose(sub);          /* ends the subscription (a no-op now) and releases the token */
  rx_release(subject);
  printf("live objects: %lld\n", (long long)rx_debug_live_objects());
  return rx_debug_live_objects() == 0 ? 0 : 1;
}
