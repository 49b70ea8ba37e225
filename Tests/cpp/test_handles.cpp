// Ownership: move-only handles, explicit retains, subscriptions that dispose on
// destruction, the containers, and callables freed through ctx_free / on_disposed.
#include <memory>
#include <type_traits>

#include "support.hpp"

static_assert(!std::is_copy_constructible<rx::observable<int64_t>>::value, "move-only");
static_assert(!std::is_copy_assignable<rx::subscription>::value, "move-only");
static_assert(!std::is_copy_constructible<rx::subject<int>>::value, "move-only");
static_assert(!std::is_copy_constructible<rx::value>::value, "move-only");
static_assert(std::is_nothrow_move_constructible<rx::observable<int64_t>>::value, "cheap moves");

RX_CASE("ownership: a subscription disposes on destruction, detach lets it run") {
  auto s = rx::publish_subject<int64_t>();
  int got = 0;
  {
    auto sub = s.subscribe([&](int64_t) { got++; });
    CHECK(s.has_observers());
    s.on_next(1);
  }
  CHECK_FALSE(s.has_observers());
  s.on_next(2);
  CHECK(got == 1);
  {
    auto sub = s.subscribe([&](int64_t) { got++; });
    sub.detach();
  }
  s.on_next(3);
  CHECK(got == 2);
  s.dispose();  // drops the detached observer (its on_disposed frees its state)
  CHECK_FALSE(s.has_observers());
}

RX_CASE("ownership: moves transfer, retain() makes a second owner") {
  auto o = rx::range(0, 3);
  rx_observable *raw = o.get();
  auto moved = std::move(o);
  CHECK_FALSE(o);
  CHECK(moved.get() == raw);
  auto second = moved.retain();
  CHECK(second.get() == raw);
  moved.reset();
  CHECK(second.to_vector() == std::vector<int64_t>{0, 1, 2});
  auto live = rx::publish_subject<int>();
  auto sub = live.subscribe([](int) {});
  auto token2 = sub.retain();
  CHECK_FALSE(token2.is_disposed());
  sub.dispose();
  CHECK(token2.is_disposed());
}

RX_CASE("ownership: captured state is freed when the observable and subscriptions are gone") {
  auto tracker = std::make_shared<int>(0);
  {
    auto mapped = rx::range(0, 3).map([tracker](int64_t x) { return x + *tracker; });
    CHECK(tracker.use_count() == 2);
    {
      auto sub = mapped.subscribe([tracker](int64_t) {});
      CHECK(tracker.use_count() == 2);  // range completed synchronously: the subscriber's copy is gone
    }
    auto s = rx::publish_subject<int64_t>();
    auto sub = s.as_observable().subscribe([tracker](int64_t) {});
    CHECK(tracker.use_count() == 3);
    sub.dispose();
    CHECK(tracker.use_count() == 2);
  }
  CHECK(tracker.use_count() == 1);
}

RX_CASE("ownership: composite, serial, single-assignment subscriptions and the dispose bag") {
  auto s = rx::publish_subject<int>();
  int disposed = 0;
  {
    rx::composite_subscription c;
    c.add(s.subscribe([](int) {}));
    c.add(s.subscribe([](int) {}));
    c.add(rx::subscription::create([&] { disposed++; }));
    CHECK(s.has_observers());
    c.dispose();
    CHECK_FALSE(s.has_observers());
    CHECK(disposed == 1);
    c.add(rx::subscription::create([&] { disposed++; }));  // a disposed composite disposes at once
    CHECK(disposed == 2);
  }
  {
    rx::serial_subscription serial;
    serial.set(rx::subscription::create([&] { disposed++; }));
    serial.set(rx::subscription::create([&] { disposed++; }));
    CHECK(disposed == 3);
  }
  CHECK(disposed == 4);  // the serial's destruction disposed the second one
  {
    rx::single_assignment_subscription once;
    once.set(rx::subscription::create([&] { disposed++; }));
    try {
      once.set(rx::subscription::create([&] { disposed += 10; }));
      FAIL("a second set must throw");
    } catch (const rx::error &e) {
      CHECK(e.status() == RX_ESTATE);
    }
    CHECK(disposed == 14);  // the refused one was disposed, not leaked
  }
  CHECK(disposed == 15);
  {
    rx::dispose_bag bag;
    bag += s.subscribe([](int) {});
    bag.add(s.subscribe([](int) {}));
    CHECK(s.has_observers());
    bag.drain();
    CHECK_FALSE(s.has_observers());
    bag += s.subscribe([](int) {});
  }
  CHECK_FALSE(s.has_observers());
}

RX_CASE("ownership: a subject dies with its last handle; its observable lives on as a disposed one") {
  rx::observable<int> o;
  bool disposed_error = false;
  {
    auto s = rx::publish_subject<int>();
    o = s.as_observable();
  }
  auto sub = o.subscribe([](int) {}, [&](const rx::error &e) { disposed_error = e.code() == RX_ERROR_DISPOSED; });
  CHECK(disposed_error);
}
