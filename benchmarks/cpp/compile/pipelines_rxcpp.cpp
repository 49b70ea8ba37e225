// pipelines_rxc_hpp.cpp's pipelines through RxCpp.
#include <cstdio>
#include <string>

#include "rxcpp/rx.hpp"

int main() {
  int64_t sum = 0;
  rxcpp::observable<>::range<int64_t>(0, 99).map([](int64_t x) { return x * 2; }).filter([](int64_t x) { return x % 3 == 0; }).subscribe([&](int64_t x) {
    sum += x;
  });
  rxcpp::subjects::subject<int64_t> s;
  s.get_observable().map([](int64_t x) { return std::to_string(x); }).subscribe([](const std::string &t) { std::puts(t.c_str()); });
  s.get_subscriber().on_next(1);
  rxcpp::observable<>::range<int64_t>(0, 9)
      .flat_map([](int64_t x) { return rxcpp::observable<>::just(x); })
      .merge(rxcpp::observable<>::range<int64_t>(0, 2))
      .subscribe([&](int64_t x) { sum += x; });
  rxcpp::observable<>::range<int64_t>(0, 9).observe_on(rxcpp::observe_on_new_thread()).take(3).as_blocking().subscribe([](int64_t) {});
  return sum < 0;
}
