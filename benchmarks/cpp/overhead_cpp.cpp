// overhead_cpp.cpp — overhead_c.c's chains through include/rxc.hpp with lambdas.
// Usage: overhead_cpp WORKLOAD N   (the workloads of overhead_c.c)
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "rxc.hpp"

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  const char *w = argv[1];
  int64_t n = std::atoll(argv[2]), sum = 0;
  if (std::strcmp(w, "range_map_filter") == 0) {
    auto sub = rx::range(0, static_cast<size_t>(n))
                   .map([](int64_t x) { return x * 2; })
                   .filter([](int64_t x) { return x % 3 == 0; })
                   .subscribe([&](int64_t x) { sum += x; });
  } else if (std::strcmp(w, "range_scan") == 0) {
    auto sub = rx::range(0, static_cast<size_t>(n))
                   .scan(int64_t(0), [](int64_t acc, int64_t x) { return acc + x; })
                   .subscribe([&](int64_t x) { sum += x; });
  } else if (std::strcmp(w, "subject_1_subscriber") == 0) {
    auto s = rx::publish_subject<int64_t>();
    auto sub = s.subscribe([&](int64_t x) { sum += x; });
    for (int64_t i = 0; i < n; i++) s.on_next(i);
  } else if (std::strcmp(w, "subscribe_dispose_4_operators") == 0) {
    auto s = rx::publish_subject<int64_t>();
    auto chain = s.as_observable()
                     .map([](int64_t x) { return x + 1; })
                     .filter([](int64_t x) { return x % 2 == 0; })
                     .map([](int64_t x) { return x * 3; })
                     .skip(1);
    for (int64_t i = 0; i < n; i++) {
      auto sub = chain.subscribe([&](int64_t x) { sum += x; });
    }
  } else {
    return 2;
  }
  std::printf("%lld\n", static_cast<long long>(sum));
  return 0;
}
