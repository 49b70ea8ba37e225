/* The marble-test helpers (rx_marble_cold / rx_marble_hot / rx_marble_expect), and a share
 * of operator cases written with them. */
#include "ops_support.h"

static rx_value times_ten(void *ctx, rx_value v, rx_error **err) {
  (void)ctx;
  (void)err;
  return rx_int(v.i * 10);
}
static bool is_odd(void *ctx, rx_value v, rx_error **err) {
  (void)ctx;
  (void)err;
  return v.i % 2 != 0;
}

RX_TEST(marble_cold_map_and_filter) {
  rx_scheduler *ts = rx_test_scheduler_new();
  rx_observable *src = rx_marble_cold(ts, "-1-2-3-|", NULL, 0, NULL);
  CHECK(src != NULL);
  rx_observable *odd = rx_filter(src, is_odd, NULL, NULL);
  rx_observable *big = rx_map(odd, times_ten, NULL, NULL);
  rx_marble_value v[] = {{'a', RX_INT(10)}, {'b', RX_INT(30)}};
  CHECK(rx_marble_expect(ts, big, "-a---b-|", v, 2, NULL));
  rx_release(big);
  rx_release(odd);
  rx_release(src);
  rx_release(ts);
}

RX_TEST(marble_expect_reports_a_mismatch) {
  rx_scheduler *ts = rx_test_scheduler_new();
  rx_observable *src = rx_marble_cold(ts, "-1-2-|", NULL, 0, NULL);
  CHECK(!rx_marble_expect(ts, src, "-1--2-|", NULL, 0, NULL));
  CHECK(strstr(rx_last_error(), "differ") != NULL);
  CHECK(!rx_marble_expect(ts, src, "-1-3-|", NULL, 0, NULL));
  CHECK(!rx_marble_expect(ts, src, "-1-2-", NULL, 0, NULL));
  CHECK(rx_marble_expect(ts, src, "-1-2-|", NULL, 0, NULL));
  rx_release(src);
  rx_release(ts);
}

RX_TEST(marble_groups_errors_and_value_tables) {
  rx_scheduler *ts = rx_test_scheduler_new();
  rx_error *e = rx_error_new(RX_ERROR_USER + 7, "bad");
  rx_value s = rx_string("hello");
  rx_marble_value v[] = {{'h', s}};
  rx_observable *src = rx_marble_cold(ts, "-(h1)-#", v, 1, e);
  CHECK(rx_marble_expect(ts, src, "-(h1)-#", v, 1, e));
  /* a different error does not match */
  rx_error *other = rx_error_new(RX_ERROR_USER + 8, "bad");
  CHECK(!rx_marble_expect(ts, src, "-(h1)-#", v, 1, other));
  rx_release(other);
  rx_release(src);
  rx_value_release(s);
  rx_release(e);
  rx_release(ts);
}

RX_TEST(marble_hot_subscription_point_and_unsubscription) {
  rx_scheduler *ts = rx_test_scheduler_new();
  rx_observable *hot = rx_marble_hot(ts, "-1-^-2-3-4-|", NULL, 0, NULL);
  /* '^' of the hot marble is now; subscribe at frame 1, dispose at frame 5: sees 2 (frame 2)
     and 3 (frame 4), not 4 (frame 6); 1 happened before '^' and is never seen. */
  CHECK(rx_marble_expect(ts, hot, "-^2-3!", NULL, 0, NULL));
  rx_release(hot);
  rx_release(ts);
}

RX_TEST(marble_merge_of_two_hot_sources) {
  rx_scheduler *ts = rx_test_scheduler_new();
  rx_observable *a = rx_marble_hot(ts, "-1---3---|", NULL, 0, NULL);
  rx_observable *b = rx_marble_hot(ts, "---2---4-----|", NULL, 0, NULL);
  rx_observable *srcs[2] = {a, b};
  rx_observable *m = rx_merge(srcs, 2);
  CHECK(rx_marble_expect(ts, m, "-1-2-3-4-----|", NULL, 0, NULL));
  rx_release(m);
  rx_release(a);
  rx_release(b);
  rx_release(ts);
}

RX_TEST(marble_take_until_and_skip) {
  rx_scheduler *ts = rx_test_scheduler_new();
  rx_observable *src = rx_marble_hot(ts, "-1-2-3-4-5-|", NULL, 0, NULL);
  rx_observable *stop = rx_marble_hot(ts, "--------x", NULL, 0, NULL);
  rx_observable *tu = rx_take_until(src, stop);
  rx_observable *sk = rx_skip(tu, 1);
  CHECK(rx_marble_expect(ts, sk, "---2-3-4|", NULL, 0, NULL));
  rx_release(sk);
  rx_release(tu);
  rx_release(stop);
  rx_release(src);
  rx_release(ts);
}

RX_TEST(marble_debounce_and_throttle_in_frames) {
  rx_scheduler *ts = rx_test_scheduler_new();
  rx_observable *src = rx_marble_hot(ts, "-1-2------3---|", NULL, 0, NULL);
  rx_observable *deb = rx_debounce(src, 3 * RX_MARBLE_FRAME_NS, ts);
  CHECK(rx_marble_expect(ts, deb, "------2------3|", NULL, 0, NULL));
  rx_release(deb);
  rx_release(src);
  rx_release(ts);
}

RX_TEST(marble_combine_latest_and_zip) {
  rx_scheduler *ts = rx_test_scheduler_new();
  rx_observable *a = rx_marble_hot(ts, "-1---2----|", NULL, 0, NULL);
  rx_observable *b = rx_marble_hot(ts, "---3---4--|", NULL, 0, NULL);
  rx_observable *srcs[2] = {a, b};
  rx_observable *z = rx_zip(srcs, 2, NULL, NULL, NULL);
  rx_value p13[2] = {rx_int(1), rx_int(3)}, p24[2] = {rx_int(2), rx_int(4)};
  rx_value x = rx_array(p13, 2), y = rx_array(p24, 2);
  rx_marble_value v[] = {{'x', x}, {'y', y}};
  CHECK(rx_marble_expect(ts, z, "---x---y--|", v, 2, NULL));
  rx_value_release(x);
  rx_value_release(y);
  rx_release(z);
  rx_release(a);
  rx_release(b);
  rx_release(ts);
}

RX_TEST(marble_bad_input) {
  rx_scheduler *ts = rx_test_scheduler_new();
  CHECK(rx_marble_cold(ts, "-a-(b", NULL, 0, NULL) == NULL);
  CHECK(strstr(rx_last_error(), "unclosed") != NULL);
  CHECK(rx_marble_cold(ts, "-a-?", NULL, 0, NULL) == NULL);
  CHECK(rx_marble_cold(ts, "^-a", NULL, 0, NULL) == NULL);
  CHECK(rx_marble_cold(ts, NULL, NULL, 0, NULL) == NULL);
  CHECK(rx_marble_cold(NULL, "-a", NULL, 0, NULL) == NULL);
  CHECK(rx_marble_cold(ts, "-a", NULL, 3, NULL) == NULL);
  rx_marble_value badkey[] = {{'-', RX_INT(1)}};
  CHECK(rx_marble_cold(ts, "-a", badkey, 1, NULL) == NULL);
  rx_scheduler *real = rx_scheduler_serial_new("real");
  CHECK(rx_marble_hot(real, "-a", NULL, 0, NULL) == NULL);
  CHECK(strstr(rx_last_error(), "test scheduler") != NULL);
  rx_observable *src = rx_marble_cold(ts, "-1|", NULL, 0, NULL);
  CHECK(!rx_marble_expect(real, src, "-1|", NULL, 0, NULL));
  CHECK(!rx_marble_expect(ts, NULL, "-1|", NULL, 0, NULL));
  CHECK(!rx_marble_expect(ts, src, NULL, NULL, 0, NULL));
  rx_release(src);
  rx_release(real);
  rx_release(ts);
}
