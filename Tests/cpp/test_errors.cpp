// Errors: failed calls throw rx::error; a stream's error reaches on_error as an rx::error;
// an exception thrown in a callback becomes the stream's error.
#include <stdexcept>
#include <string>

#include "support.hpp"

RX_CASE("errors: a failed call throws rx::error with the status and rx_last_error()") {
  try {
    (void)rx::scheduler::operation_queue("q", 0);
    FAIL("no exception");
  } catch (const rx::error &e) {
    CHECK(e.status() == RX_EINVAL);
    CHECK(e.code() == 0);
    CHECK(std::string(e.what()).find("RX_EINVAL") == 0);
  }
  rx::observable<int64_t> empty_handle;
  CHECK_THROWS_AS(empty_handle.map([](int64_t x) { return x; }), rx::error);
  CHECK_THROWS_AS(rx::range(0, 1).take_until(empty_handle), rx::error);
  auto s = rx::publish_subject<int>();
  s.dispose();
  try {
    s.on_next(1);
    FAIL("no exception");
  } catch (const rx::error &e) {
    CHECK(e.status() == RX_EDISPOSED);
  }
  auto relay = rx::publish_relay<int>();
  CHECK_THROWS_AS(relay.on_completed(), rx::error);
}

RX_CASE("errors: a stream's error reaches on_error with its code and message") {
  rx::error got(0, "");
  bool completed = false;
  auto sub = rx::throw_error<int64_t>(rx::error(RX_ERROR_USER + 7, "seven"))
                 .subscribe([](int64_t) {}, [&](const rx::error &e) { got = e; }, [&] { completed = true; });
  CHECK(got.code() == RX_ERROR_USER + 7);
  CHECK(got.message() == "seven");
  CHECK(got.status() == RX_ESTREAM);
  CHECK_FALSE(completed);
  // blocking calls throw it
  try {
    (void)rx::throw_error<int64_t>(rx::error(RX_ERROR_USER, "b")).last();
    FAIL("no exception");
  } catch (const rx::error &e) {
    CHECK(e.code() == RX_ERROR_USER);
  }
  try {
    (void)rx::empty<int64_t>().first();
    FAIL("no exception");
  } catch (const rx::error &e) {
    CHECK(e.code() == RX_ERROR_NO_ELEMENTS);
  }
  CHECK_THROWS_AS(rx::never<int>().first(20 * 1000 * 1000), rx::error);
}

RX_CASE("exceptions: thrown in an operator callback, they become the stream's error") {
  std::vector<int64_t> seen;
  rx::error got(0, "");
  auto sub = rx::range(0, 10)
                 .map([](int64_t x) {
                   if (x == 3) throw std::runtime_error("three");
                   return x;
                 })
                 .subscribe([&](int64_t x) { seen.push_back(x); }, [&](const rx::error &e) { got = e; });
  CHECK(seen == std::vector<int64_t>{0, 1, 2});
  CHECK(got.code() == RX_ERROR_UNKNOWN);
  CHECK(got.message() == "three");
  // an rx::error keeps its code, through filter, flat_map, scan, and a custom type
  auto code_of = [](rx::observable<int64_t> o) {
    int32_t code = 0;
    auto s = o.subscribe([](int64_t) {}, [&](const rx::error &e) { code = e.code(); });
    return code;
  };
  CHECK(code_of(rx::range(0, 3).filter([](int64_t) -> bool { throw rx::error(RX_ERROR_USER + 1, "f"); })) == RX_ERROR_USER + 1);
  CHECK(code_of(rx::range(0, 3).flat_map([](int64_t) -> rx::observable<int64_t> { throw rx::error(RX_ERROR_USER + 2, "fm"); })) ==
        RX_ERROR_USER + 2);
  CHECK(code_of(rx::range(0, 3).scan(int64_t(0), [](int64_t, int64_t) -> int64_t { throw rx::error(RX_ERROR_USER + 3, "s"); })) ==
        RX_ERROR_USER + 3);
  CHECK(code_of(rx::create<int64_t>([](rx::emitter<int64_t> &) { throw rx::error(RX_ERROR_USER + 4, "c"); })) == RX_ERROR_USER + 4);
  CHECK(code_of(rx::defer([]() -> rx::observable<int64_t> { throw rx::error(RX_ERROR_USER + 5, "d"); })) == RX_ERROR_USER + 5);
  CHECK(code_of(rx::throw_error<int64_t>(rx::error(1001, "x")).catch_error([](const rx::error &) -> rx::observable<int64_t> {
    throw rx::error(RX_ERROR_USER + 6, "catch");
  })) == RX_ERROR_USER + 6);
  CHECK(code_of(rx::range(0, 2).zip([](int64_t, int64_t) -> int64_t { throw 42; }, rx::range(0, 2))) == RX_ERROR_UNKNOWN);
}

RX_CASE("exceptions: thrown in a subscriber's on_next, on_error gets them and the subscription ends") {
  auto s = rx::publish_subject<int>();
  std::vector<int> seen;
  std::string message;
  auto sub = s.subscribe(
      [&](int x) {
        seen.push_back(x);
        if (x == 2) throw std::logic_error("two");
      },
      [&](const rx::error &e) { message = e.message(); });
  s.on_next(1);
  s.on_next(2);
  CHECK(message == "two");
  CHECK_FALSE(s.has_observers());  // disposed from inside its own callback
  s.on_next(3);
  CHECK(seen == std::vector<int>{1, 2});
  // synchronous source: the exception happens inside subscribe(), before the token exists
  int calls = 0, errors = 0;
  auto sub2 = rx::range(0, 1000).subscribe(
      [&](int64_t) {
        calls++;
        throw std::runtime_error("first");
      },
      [&](const rx::error &) { errors++; });
  CHECK(calls == 1);
  CHECK(errors == 1);
  CHECK(sub2.is_disposed());
}
