// hello.cpp — librxc from C++ (include/rxc.hpp): a pipeline of lambdas, a subject, an error
// thrown in a callback, and no manual release anywhere.
#include <cstdio>
#include <stdexcept>
#include <string>

#include "rxc.hpp"

int main() {
  const int64_t live_at_start = rx::live_objects();
  {
    // Operators by method chaining; the lambdas may capture anything.
    int64_t total = 0;
    auto sub = rx::range(1, 10)
                   .map([](int64_t x) { return x * x; })
                   .filter([](int64_t x) { return x % 2 == 1; })
                   .subscribe([&](int64_t x) { total += x; }, [&] { std::printf("odd squares of 1..10 add up to %lld\n", (long long)total); });

    // ... and by pipes, as RxCpp writes them; values are typed (here std::string).
    using namespace rx::operators;
    auto words = rx::range(1, 3) | map([](int64_t n) { return std::string(n, '*'); }) | to_array();
    for (const auto &w : words.first()) std::printf("  %s\n", w.c_str());

    // A subject; the subscription ends when `greetings` goes out of scope.
    auto names = rx::publish_subject<std::string>();
    auto greetings = names.subscribe([](const std::string &n) { std::printf("hello, %s\n", n.c_str()); });
    names.on_next("world");
    names.on_next("C++");

    // An exception thrown in a callback becomes the stream's error.
    auto parsed = rx::of<std::string>({"1", "2", "three"})
                      .map([](const std::string &s) -> int64_t {
                        if (s == "three") throw std::invalid_argument("not a number: " + s);
                        return std::stoll(s);
                      })
                      .subscribe([](int64_t n) { std::printf("parsed %lld\n", (long long)n); },
                                 [](const rx::error &e) { std::printf("failed: %s (code %d)\n", e.what(), e.code()); });
  }
  const int64_t leaked = rx::live_objects() - live_at_start;
  std::printf("live objects left: %lld\n", (long long)leaked);
  return leaked == 0 ? 0 : 1;
}
