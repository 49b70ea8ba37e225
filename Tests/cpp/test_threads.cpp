// The seed scenarios across threads: subscribe_on / observe_on, several threads into one
// subject, a Driver delivered on the main thread, create() with an emitter kept on a thread.
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "support.hpp"

RX_CASE("threads: subscribe_on runs the subscription there, observe_on delivers there") {
  auto background = rx::scheduler::concurrent("cpp.bg");
  auto serial = rx::scheduler::serial("cpp.serial");
  const auto me = std::this_thread::get_id();
  std::atomic<bool> produced_elsewhere{false}, delivered_elsewhere{false}, done{false};
  std::thread::id producer_thread, delivery_thread;
  std::vector<int> got;
  auto sub = rx::create<int>([&](rx::emitter<int> &e) {
               producer_thread = std::this_thread::get_id();
               produced_elsewhere = producer_thread != me;
               for (int i = 0; i < 100; i++) e.on_next(i);
               e.on_completed();
             })
                 .subscribe_on(background)
                 .observe_on(serial)
                 .subscribe(
                     [&](int x) {
                       delivery_thread = std::this_thread::get_id();
                       delivered_elsewhere = delivery_thread != me;
                       got.push_back(x);
                     },
                     [&] { done = true; });
  REQUIRE(rxtest::eventually([&] { return done.load(); }));
  CHECK(produced_elsewhere.load());
  CHECK(delivered_elsewhere.load());
  CHECK(got.size() == 100);
  CHECK(got.back() == 99);
}

RX_CASE("threads: four threads emit into one subject; every value arrives, serialized") {
  auto s = rx::publish_subject<int64_t>();
  std::atomic<int> inside{0};
  bool overlapped = false;
  int64_t count = 0, sum = 0;
  auto sub = s.subscribe([&](int64_t x) {
    if (inside.fetch_add(1) != 0) overlapped = true;
    count++;
    sum += x;
    inside.fetch_sub(1);
  });
  std::vector<std::thread> ts;
  for (int t = 0; t < 4; t++)
    ts.emplace_back([&s, t] {
      for (int64_t i = 0; i < 5000; i++) s.on_next(t * 5000 + i);
    });
  for (auto &t : ts) t.join();
  CHECK_FALSE(overlapped);
  CHECK(count == 20000);
  CHECK(sum == int64_t(20000) * 19999 / 2);
}

RX_CASE("threads: a Driver delivers on the main thread (rx_as_driver / rx_drive)") {
  // doctest runs cases on the process's main thread: the main loop is ours.
  auto work = rx::scheduler::concurrent("cpp.work");
  const auto me = std::this_thread::get_id();
  std::vector<std::string> got;
  bool all_on_main = true, completed = false;
  auto driver = rx::range(1, 5)
                    .subscribe_on(work)
                    .map([](int64_t x) -> std::string {
                      if (x == 4) throw rx::error(RX_ERROR_USER, "decode failed");
                      return "thumb" + std::to_string(x);
                    })
                    .as_driver(std::string("placeholder"));
  auto sub = driver.drive(
      [&](const std::string &s) {
        all_on_main = all_on_main && std::this_thread::get_id() == me;
        got.push_back(s);
      },
      [&] {
        completed = true;
        rx::main_loop::stop();
      });
  rx::main_loop::run_for(int64_t(5) * 1000 * 1000 * 1000);
  CHECK(completed);
  CHECK(all_on_main);
  CHECK(got == std::vector<std::string>{"thumb1", "thumb2", "thumb3", "placeholder"});
  // a plain observable is not a driver
  CHECK_THROWS_AS((void)rx::range(0, 1).drive([](int64_t) {}), rx::error);
}

RX_CASE("threads: a Signal emits on main; observe_on(main) with the main loop") {
  auto s = rx::publish_subject<int>();
  auto signal = s.as_observable().as_signal(-1);
  std::vector<int> got;
  auto sub = signal.emit([&](int x) { got.push_back(x); });
  std::thread t([&] {
    s.on_next(1);
    s.on_error(rx::error(RX_ERROR_USER, "x"));
  });
  t.join();
  rxtest::eventually([&] {
    rx::main_loop::drain();
    return got.size() == 2;
  });
  CHECK(got == std::vector<int>{1, -1});
  int64_t last = 0;
  auto sub2 = rx::range(0, 3).observe_on(rx::scheduler::main()).subscribe([&](int64_t x) { last = x; }, [] { rx::main_loop::stop(); });
  rx::main_loop::run();
  CHECK(last == 2);
}

RX_CASE("threads: an emitter retained and used on another thread") {
  std::thread producer;
  std::atomic<bool> done{false};
  std::vector<int64_t> got;
  {
    auto src = rx::create<int64_t>([&](rx::emitter<int64_t> &e) {
      producer = std::thread([kept = e.retain()] {
        for (int64_t i = 0; i < 10; i++) kept.on_next(i);
        kept.on_completed();
      });
    });
    auto sub = src.subscribe([&](int64_t x) { got.push_back(x); }, [&] { done = true; });
    REQUIRE(rxtest::eventually([&] { return done.load(); }));
    producer.join();
  }
  CHECK(got.size() == 10);
}

RX_CASE("threads: scheduling actions, recursion and a run loop of our own") {
  auto serial = rx::scheduler::serial("cpp.actions");
  std::atomic<int> runs{0};
  {
    auto t = serial.schedule([&] { runs++; });
    REQUIRE(rxtest::eventually([&] { return runs.load() == 1; }));
  }
  std::atomic<int> rec{0};
  auto chain = serial.schedule_recursive([&](const rx::recursion &self) {
    if (++rec < 5) self.recurse();
  });
  REQUIRE(rxtest::eventually([&] { return rec.load() == 5; }));
  {
    auto cancelled = serial.schedule_after(int64_t(60) * 1000 * 1000 * 1000, [&] { runs += 100; });
  }  // destroyed: cancelled before it ran
  CHECK(runs.load() == 1);

  std::thread loop_thread;
  {
    rx::run_loop loop;
    CHECK(loop.fd() >= 0);
    std::atomic<std::thread::id> ran_on{};
    auto token = loop.scheduler().schedule([&] {
      ran_on = std::this_thread::get_id();
      loop.stop();
    });
    loop_thread = std::thread([&] { loop.run(); });
    const auto loop_id = loop_thread.get_id();
    loop_thread.join();
    CHECK((ran_on.load() == loop_id));
  }
  auto test = rx::scheduler::test();
  int ticks = 0;
  auto periodic = test.schedule_periodic(0, 10, [&] { ticks++; });
  test.advance_to(35);
  CHECK(ticks == 4);
  CHECK(test.now_ns() == 35);
  CHECK(test.is_serial());
}
