// The C++ benchmark through include/rxc.hpp (the same workloads as bench_rxcpp.cpp).
#include <mutex>
#include <thread>
#include <vector>

#include "bench.hpp"
#include "rxc.hpp"

int main(int argc, char **argv) {
  const int64_t live_at_start = rx::live_objects();
  {
    bench::run("subject_1_subscriber", bench::scaled(1000000), [](int64_t n) {
      auto s = rx::publish_subject<int64_t>();
      int64_t sum = 0;
      auto sub = s.subscribe([&](int64_t x) { sum += x; });
      for (int64_t i = 0; i < n; i++) s.on_next(i);
      bench::keep(sum);
    }, argc, argv);

    bench::run("subject_10_subscribers", bench::scaled(200000), [](int64_t n) {
      auto s = rx::publish_subject<int64_t>();
      int64_t sum = 0;
      std::vector<rx::subscription> subs;
      for (int k = 0; k < 10; k++) subs.push_back(s.subscribe([&](int64_t x) { sum += x; }));
      for (int64_t i = 0; i < n; i++) s.on_next(i);
      bench::keep(sum);
    }, argc, argv);

    bench::run("range_map_filter", bench::scaled(1000000), [](int64_t n) {
      int64_t sum = 0;
      auto sub = rx::range(0, static_cast<size_t>(n))
                     .map([](int64_t x) { return x * 2; })
                     .filter([](int64_t x) { return x % 3 == 0; })
                     .subscribe([&](int64_t x) { sum += x; });
      bench::keep(sum);
    }, argc, argv);

    bench::run("subscribe_dispose_4_operators", bench::scaled(100000), [](int64_t n) {
      auto s = rx::publish_subject<int64_t>();
      auto chain = s.as_observable()
                       .map([](int64_t x) { return x + 1; })
                       .filter([](int64_t x) { return x % 2 == 0; })
                       .map([](int64_t x) { return x * 3; })
                       .skip(1);
      int64_t sum = 0;
      for (int64_t i = 0; i < n; i++) {
        auto sub = chain.subscribe([&](int64_t x) { sum += x; });
      }  // disposed here
      bench::keep(sum);
    }, argc, argv);

    bench::run("observe_on_thread", bench::scaled(1000000), [](int64_t n) {
      auto other = rx::scheduler::serial("bench.observe_on");
      std::atomic<bool> done{false};
      int64_t sum = 0;
      auto sub = rx::range(0, static_cast<size_t>(n)).observe_on(other).subscribe([&](int64_t x) { sum += x; }, [&] {
        done.store(true, std::memory_order_release);
      });
      bench::wait_for(done);
      bench::keep(sum);
    }, argc, argv);

    bench::run("merge_2_sources", bench::scaled(1000000), [](int64_t n) {
      int64_t sum = 0;
      auto sub = rx::range(0, static_cast<size_t>(n / 2)).merge(rx::range(0, static_cast<size_t>(n - n / 2))).subscribe([&](int64_t x) {
        sum += x;
      });
      bench::keep(sum);
    }, argc, argv);

    bench::run("flat_map_sync_inners", bench::scaled(200000), [](int64_t n) {
      int64_t sum = 0;
      auto sub = rx::range(0, static_cast<size_t>(n)).flat_map([](int64_t x) { return rx::just(x); }).subscribe([&](int64_t x) {
        sum += x;
      });
      bench::keep(sum);
    }, argc, argv);

    bench::run("subject_4_threads", bench::scaled(1000000), [](int64_t n) {
      auto s = rx::publish_subject<int64_t>();
      int64_t sum = 0;
      auto sub = s.subscribe([&](int64_t x) { sum += x; });
      std::vector<std::thread> ts;
      for (int t = 0; t < 4; t++)
        ts.emplace_back([&s, n] {
          for (int64_t i = 0; i < n / 4; i++) s.on_next(i);
        });
      for (auto &t : ts) t.join();
      bench::keep(sum);
    }, argc, argv);

    // The same, with the callers serializing under a mutex as RxCpp's side must: rxc's
    // subject then never sees two callers at once (where its cross-thread cost lies).
    bench::run("subject_4_threads_caller_mutex", bench::scaled(1000000), [](int64_t n) {
      auto s = rx::publish_subject<int64_t>();
      int64_t sum = 0;
      auto sub = s.subscribe([&](int64_t x) { sum += x; });
      std::mutex m;
      std::vector<std::thread> ts;
      for (int t = 0; t < 4; t++)
        ts.emplace_back([&s, &m, n] {
          for (int64_t i = 0; i < n / 4; i++) {
            std::lock_guard<std::mutex> g(m);
            s.on_next(i);
          }
        });
      for (auto &t : ts) t.join();
      bench::keep(sum);
    }, argc, argv);
  }
  for (int i = 0; i < 2000 && rx::live_objects() != live_at_start; i++)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (rx::live_objects() != live_at_start) {
    std::fprintf(stderr, "bench_rxc: %lld live objects left\n", (long long)(rx::live_objects() - live_at_start));
    return 1;
  }
  return 0;
}
