// A C++ translation unit with a few pipelines through rxc.hpp (pipelines_rxcpp.cpp: the same
// through RxCpp).
#include <cstdio>
#include <string>

#include "rxc.hpp"

int main() {
  int64_t sum = 0;
  auto a = rx::range(0, 100).map([](int64_t x) { return x * 2; }).filter([](int64_t x) { return x % 3 == 0; }).subscribe([&](int64_t x) {
    sum += x;
  });
  auto s = rx::publish_subject<int64_t>();
  auto b = s.as_observable().map([](int64_t x) { return std::to_string(x); }).subscribe([](const std::string &t) { std::puts(t.c_str()); });
  s.on_next(1);
  auto c = rx::range(0, 10).flat_map([](int64_t x) { return rx::just(x); }).merge(rx::range(0, 3)).subscribe([&](int64_t x) { sum += x; });
  auto d = rx::range(0, 10).observe_on(rx::scheduler::serial("tu")).take(3).subscribe([](int64_t) {});
  return sum < 0;
}
