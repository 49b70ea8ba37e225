/* subjects.c — the four subjects and the two relays side by side.
 *
 * Each one goes through the same script: an early subscriber, the values 1 2 3, a late
 * subscriber, the value 4, then completion (relays cannot complete: they refuse with
 * RX_ESTATE and are disposed instead), then a subscriber that comes after the end.
 * The behavior subject and relay start with the value 0. */
#include <rxc.h>
#include <stdio.h>
#include <string.h>

/* What one subscriber saw, as text. */
typedef struct seen {
  char text[160];
} seen;

static void add(seen *s, const char *word) {
  size_t n = strlen(s->text);
  snprintf(s->text + n, sizeof s->text - n, "%s%s", n ? " " : "", word);
}

static void on_next(void *ctx, rx_value v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%lld", (long long)v.i);
  add(ctx, buf);
}
static void on_error(void *ctx, const rx_error *e) {
  char buf[64];
  snprintf(buf, sizeof buf, "error(%d: %s)", (int)rx_error_code(e), rx_error_message(e));
  add(ctx, buf);
}
static void on_completed(void *ctx) { add(ctx, "completed"); }
static void on_disposed(void *ctx) { add(ctx, "|"); } /* the subscription's end */

static rx_disposable *subscribe(rx_subject *subject, seen *s) {
  rx_observer o = {on_next, on_error, on_completed, on_disposed, s};
  return rx_subscribe(rx_subject_as_observable(subject), o);
}

static int run(const char *name, rx_subject *subject, int is_relay) {
  seen early = {{0}}, late = {{0}}, after = {{0}};
  rx_disposable *d_early = subscribe(subject, &early);
  for (int64_t i = 1; i <= 3; i++) rx_subject_on_next(subject, rx_int(i));
  rx_disposable *d_late = subscribe(subject, &late);
  rx_subject_on_next(subject, rx_int(4));
  rx_status st = rx_subject_on_completed(subject);
  if (is_relay) {
    if (st != RX_ESTATE) return 1;
    rx_subject_dispose(subject); /* what ends a relay */
  } else if (st != RX_OK) {
    return 1;
  }
  rx_disposable *d_after = subscribe(subject, &after);
  printf("%-17s early: %-22s late: %-18s after the end: %s\n", name, early.text, late.text,
         after.text);
  rx_dispose(d_early);
  rx_dispose(d_late);
  rx_dispose(d_after);
  rx_release(subject);
  return 0;
}

int main(void) {
  int failed = 0;
  printf("script: early subscriber, on_next 1 2 3, late subscriber, on_next 4, end,\n"
         "        subscriber after the end (\"|\" marks on_disposed)\n\n");
  failed |= run("publish subject", rx_publish_subject_new(), 0);
  failed |= run("behavior subject", rx_behavior_subject_new(rx_int(0)), 0);
  failed |= run("replay subject(2)", rx_replay_subject_new(2), 0);
  failed |= run("async subject", rx_async_subject_new(), 0);
  failed |= run("publish relay", rx_publish_relay_new(), 1);
  failed |= run("behavior relay", rx_behavior_relay_new(rx_int(0)), 1);

  /* A behavior subject's current value can be read at any time. */
  rx_subject *b = rx_behavior_subject_new(rx_int(7));
  rx_subject_on_next(b, rx_int(8));
  rx_value v;
  if (rx_subject_value(b, &v, NULL) == RX_OK)
    printf("\nbehavior subject value: %lld\n", (long long)v.i);
  rx_release(b);

  long long live = (long long)rx_debug_live_objects();
  printf("live objects: %lld\n", live);
  return failed || live != 0 ? 1 : 0;
}
