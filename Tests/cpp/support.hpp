// The C++ tests' helpers: RX_CASE is a doctest TEST_CASE that ends by checking that
// rx_debug_live_objects() came back to where it started (waiting a little for disposals
// that finish on other threads).
#ifndef RXC_CPP_TEST_SUPPORT_HPP
#define RXC_CPP_TEST_SUPPORT_HPP

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "rxc.hpp"

namespace rxtest {
inline int64_t settle(int64_t start) {
  for (int i = 0; i < 2000 && rx::live_objects() != start; i++)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return rx::live_objects();
}
// Waits until pred() holds (up to ~5 s); returns pred().
template <class P>
bool eventually(P pred) {
  for (int i = 0; i < 5000 && !pred(); i++) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return pred();
}
}  // namespace rxtest

#define RX_CAT2(a, b) a##b
#define RX_CAT(a, b) RX_CAT2(a, b)
#define RX_CASE_IMPL(name, body)                   \
  static void body();                              \
  TEST_CASE(name) {                                \
    int64_t rx_live_start = rx::live_objects();    \
    body();                                        \
    CHECK(rxtest::settle(rx_live_start) == rx_live_start); \
  }                                                \
  static void body()
#define RX_CASE(name) RX_CASE_IMPL(name, RX_CAT(rx_case_body_, __LINE__))

#endif
