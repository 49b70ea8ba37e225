/* The new sharing and utility operators in marble form on the test scheduler: what one
 * subscriber sees, and what a second one sees after the first finished (where the sharing
 * scope shows). */
#include "rxtest.h"

#include <string.h>

#define EXPECT(ts, o, m) CHECK(rx_marble_expect((ts), (o), (m), NULL, 0, NULL))

RX_TEST(marble_share_forever_late_subscriber_gets_replay_and_end) {
  rx_scheduler *ts = rx_test_scheduler_new();
  rx_observable *src = rx_marble_cold(ts, "-1-2-|", NULL, 0, NULL);
  rx_observable *forever = rx_share_forever(src, 1), *whileConnected = rx_share_replay(src, 1);
  EXPECT(ts, forever, "-1-2-|");
  EXPECT(ts, forever, "(2|)"); /* no new subscription of src */
  EXPECT(ts, whileConnected, "-1-2-|");
  EXPECT(ts, whileConnected, "-1-2-|"); /* subscribes src again */
  rx_release(forever), rx_release(whileConnected), rx_release(src), rx_release(ts);
}

RX_TEST(marble_share_forever_error_is_kept) {
  rx_scheduler *ts = rx_test_scheduler_new();
  rx_observable *src = rx_marble_cold(ts, "-1-#", NULL, 0, NULL);
  rx_observable *forever = rx_share_forever(src, 0);
  EXPECT(ts, forever, "-1-#");
  EXPECT(ts, forever, "#");
  rx_release(forever), rx_release(src), rx_release(ts);
}

RX_TEST(marble_replay_all_ref_count_starts_afresh) {
  rx_scheduler *ts = rx_test_scheduler_new();
  rx_observable *src = rx_marble_cold(ts, "-1-2-3-|", NULL, 0, NULL);
  rx_observable *c = rx_replay_all(src), *o = rx_ref_count(c);
  EXPECT(ts, o, "-1-2-3-|");
  EXPECT(ts, o, "-1-2-3-|");
  EXPECT(ts, o, "-1-2!");
  rx_release(o), rx_release(c), rx_release(src), rx_release(ts);
}

RX_TEST(marble_multicast_behavior_subject_ref_count) {
  rx_scheduler *ts = rx_test_scheduler_new();
  rx_observable *src = rx_marble_cold(ts, "-1-2-|", NULL, 0, NULL);
  rx_subject *s = rx_behavior_subject_new(rx_int(0));
  rx_observable *c = rx_multicast(src, s), *o = rx_ref_count(c);
  EXPECT(ts, o, "01-2-|");
  EXPECT(ts, o, "|"); /* the subject completed: its end, and no new subscription */
  rx_release(o), rx_release(c), rx_release(s), rx_release(src), rx_release(ts);
}

RX_TEST(marble_do_with_hooks_and_debug_pass_the_stream_unchanged) {
  rx_scheduler *ts = rx_test_scheduler_new();
  rx_observable *src = rx_marble_hot(ts, "-1-2-3-#", NULL, 0, NULL);
  rx_do_hooks h = {sizeof h};
  rx_observable *tapped = rx_do_with_hooks(src, &h, NULL);
  FILE *devnull = fopen("/dev/null", "w");
  rx_observable *logged = rx_debug(tapped, "m", devnull);
  CHECK(rx_marble_expect(ts, logged, "-1-2!", NULL, 0, NULL));
  rx_release(logged), rx_release(tapped), rx_release(src), rx_release(ts);

  ts = rx_test_scheduler_new();
  src = rx_marble_cold(ts, "-1-2-#", NULL, 0, NULL);
  tapped = rx_do_with_hooks(src, &h, NULL);
  logged = rx_debug(tapped, "m", devnull);
  CHECK(rx_marble_expect(ts, logged, "-1-2-#", NULL, 0, NULL)); /* the default error, as the source's */
  rx_release(logged), rx_release(tapped), rx_release(src), rx_release(ts);
  fclose(devnull);
}
