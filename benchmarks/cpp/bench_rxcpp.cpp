// The C++ benchmark through RxCpp (the same workloads as bench_rxc.cpp). Built only when
// RXCPP_PATH names an RxCpp checkout (its Rx/v2/src is the include path).
#include <mutex>
#include <thread>
#include <vector>

#include "bench.hpp"
#include "rxcpp/rx.hpp"

int main(int argc, char **argv) {
  bench::run("subject_1_subscriber", bench::scaled(1000000), [](int64_t n) {
    rxcpp::subjects::subject<int64_t> s;
    int64_t sum = 0;
    auto sub = s.get_observable().subscribe([&](int64_t x) { sum += x; });
    auto out = s.get_subscriber();
    for (int64_t i = 0; i < n; i++) out.on_next(i);
    sub.unsubscribe();
    bench::keep(sum);
  }, argc, argv);

  bench::run("subject_10_subscribers", bench::scaled(200000), [](int64_t n) {
    rxcpp::subjects::subject<int64_t> s;
    int64_t sum = 0;
    rxcpp::composite_subscription subs;
    for (int k = 0; k < 10; k++) subs.add(s.get_observable().subscribe([&](int64_t x) { sum += x; }));
    auto out = s.get_subscriber();
    for (int64_t i = 0; i < n; i++) out.on_next(i);
    subs.unsubscribe();
    bench::keep(sum);
  }, argc, argv);

  bench::run("range_map_filter", bench::scaled(1000000), [](int64_t n) {
    int64_t sum = 0;
    rxcpp::observable<>::range<int64_t>(0, n - 1)
        .map([](int64_t x) { return x * 2; })
        .filter([](int64_t x) { return x % 3 == 0; })
        .subscribe([&](int64_t x) { sum += x; });
    bench::keep(sum);
  }, argc, argv);

  bench::run("subscribe_dispose_4_operators", bench::scaled(100000), [](int64_t n) {
    rxcpp::subjects::subject<int64_t> s;
    auto chain = s.get_observable()
                     .map([](int64_t x) { return x + 1; })
                     .filter([](int64_t x) { return x % 2 == 0; })
                     .map([](int64_t x) { return x * 3; })
                     .skip(1);
    int64_t sum = 0;
    for (int64_t i = 0; i < n; i++) {
      auto sub = chain.subscribe([&](int64_t x) { sum += x; });
      sub.unsubscribe();
    }
    bench::keep(sum);
  }, argc, argv);

  bench::run("observe_on_thread", bench::scaled(1000000), [](int64_t n) {
    std::atomic<bool> done{false};
    int64_t sum = 0;
    rxcpp::observable<>::range<int64_t>(0, n - 1)
        .observe_on(rxcpp::observe_on_new_thread())
        .subscribe([&](int64_t x) { sum += x; }, [&] { done.store(true, std::memory_order_release); });
    bench::wait_for(done);
    bench::keep(sum);
  }, argc, argv);

  bench::run("merge_2_sources", bench::scaled(1000000), [](int64_t n) {
    int64_t sum = 0;
    rxcpp::observable<>::range<int64_t>(0, n / 2 - 1)
        .merge(rxcpp::observable<>::range<int64_t>(0, n - n / 2 - 1))
        .subscribe([&](int64_t x) { sum += x; });
    bench::keep(sum);
  }, argc, argv);

  bench::run("flat_map_sync_inners", bench::scaled(200000), [](int64_t n) {
    int64_t sum = 0;
    rxcpp::observable<>::range<int64_t>(0, n - 1)
        .flat_map([](int64_t x) { return rxcpp::observable<>::just(x); })
        .subscribe([&](int64_t x) { sum += x; });
    bench::keep(sum);
  }, argc, argv);

  // RxCpp's subjects leave serialization to the caller (the Rx contract): a mutex.
  bench::run("subject_4_threads", bench::scaled(1000000), [](int64_t n) {
    rxcpp::subjects::subject<int64_t> s;
    int64_t sum = 0;
    auto sub = s.get_observable().subscribe([&](int64_t x) { sum += x; });
    auto out = s.get_subscriber();
    std::mutex m;
    std::vector<std::thread> ts;
    for (int t = 0; t < 4; t++)
      ts.emplace_back([&, n] {
        for (int64_t i = 0; i < n / 4; i++) {
          std::lock_guard<std::mutex> g(m);
          out.on_next(i);
        }
      });
    for (auto &t : ts) t.join();
    sub.unsubscribe();
    bench::keep(sum);
  }, argc, argv);
  return 0;
}
