// The C++ benchmark's harness: each workload body runs `reps` times (BENCH_CPP_REPS, default
// 7) and the fastest run is kept (the machine is shared and noisy: the minimum is the run
// least disturbed), printed as "row <name> <ns per unit> <units>".
#ifndef RXC_BENCH_CPP_HPP
#define RXC_BENCH_CPP_HPP

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace bench {
inline int reps() {
  const char *r = std::getenv("BENCH_CPP_REPS");
  int n = r ? std::atoi(r) : 7;
  return n > 0 ? n : 1;
}
// BENCH_CPP_SCALE=0.1 for a smoke run.
inline int64_t scaled(int64_t n) {
  const char *s = std::getenv("BENCH_CPP_SCALE");
  double f = s ? std::atof(s) : 1.0;
  int64_t m = static_cast<int64_t>(static_cast<double>(n) * f);
  return m > 0 ? m : 1;
}
inline bool selected(const char *name, int argc, char **argv) {
  if (argc < 2) return true;
  for (int i = 1; i < argc; i++)
    if (std::strcmp(argv[i], name) == 0) return true;
  return false;
}
// body(units) runs the workload once; the row is the best ns per unit over reps() runs.
template <class F>
void run(const char *name, int64_t units, F body, int argc, char **argv) {
  if (!selected(name, argc, argv)) return;
  double best = 1e300;
  for (int r = 0; r < reps(); r++) {
    auto t0 = std::chrono::steady_clock::now();
    body(units);
    auto t1 = std::chrono::steady_clock::now();
    double ns = std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(units);
    if (ns < best) best = ns;
  }
  std::printf("row %s %.2f %lld\n", name, best, static_cast<long long>(units));
  std::fflush(stdout);
}
inline void wait_for(const std::atomic<bool> &flag) {
  while (!flag.load(std::memory_order_acquire)) std::this_thread::yield();
}
// Keeps a result alive so the compiler cannot drop the work.
inline void keep(int64_t x) {
  static std::atomic<int64_t> sink{0};
  sink.fetch_add(x, std::memory_order_relaxed);
}
}  // namespace bench

#endif
