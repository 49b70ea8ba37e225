// C++ twins of the catalog's workloads through include/rxc.hpp (the header-only C++ API over
// rxc.h), for `make bench`'s rxc.hpp column: what a C++ caller of librxc pays over the C ABI's
// row. Same names and shapes as Tests/perf/workloads.c, int64_t payloads, the user functions
// of Tests/perf/user_fns.h as lambdas (rxc.hpp turns each into one C callback), a subscriber
// that counts values and terminal events. The int rows only (rxc.hpp's std::string payloads
// are copied into boxed values, which is not the C rows' lending). g++ -std=c++17 -O2 -DNDEBUG.
//
// Usage: catalog_rxc --list | --time MS [name ...] | --count N [name ...]   (catalog_time.h)
#include <cstdint>
#include <string>
#include <vector>

#include "catalog_time.h"
#include "rxc.hpp"

namespace {
long delivered;
long n_events;

const auto inc = [](int64_t x) { return x + 1; };
const auto keep_all = [](int64_t) { return true; };
const auto keep_none = [](int64_t) { return false; };
const auto add = [](int64_t acc, int64_t x) { return acc + x; };
const auto sum2 = [](int64_t a, int64_t b) { return a + b; };
const auto int_eq = [](int64_t a, int64_t b) { return a == b; };
const auto to_just = [](int64_t x) { return rx::just(x); };
const auto same = [](auto o) { return o; };

template <class T> rx::subscription count_all(const rx::observable<T> &o) {
  return o.subscribe([](const T &) { delivered++; }, [](const rx::error &) { delivered++; }, [] { delivered++; });
}

// subject -> make(subject's observable) -> counter; n values, then the completion (a relay
// takes none).
template <class Make> long through(rx::subject<int64_t> s, long n, Make make, bool complete = true) {
  delivered = 0;
  n_events = n;
  {
    auto sub = count_all(make(s.as_observable()));
    for (long k = 0; k < n; k++) s.on_next(k);
    if (complete) s.on_completed();
  }
  return delivered;
}
template <class Make> long with_publish(long n, Make make) { return through(rx::publish_subject<int64_t>(), n, make); }
// Two subjects -> make2 -> counter; each event goes into both; no completion.
template <class Make2> long through_two(long n, Make2 make2) {
  delivered = 0;
  auto a = rx::publish_subject<int64_t>(), b = rx::publish_subject<int64_t>();
  {
    auto sub = count_all(make2(a.as_observable(), b.as_observable()));
    for (long k = 0; k < n; k++) {
      a.on_next(k);
      b.on_next(k);
    }
  }
  return delivered;
}
template <class T> long drain(const rx::observable<T> &o) {
  delivered = 0;
  count_all(o);  // runs to its end, then disposes
  return delivered;
}

long share_10(long n) {
  delivered = 0;
  auto s = rx::publish_subject<int64_t>();
  auto o = s.as_observable().share();
  {
    std::vector<rx::subscription> subs;
    for (int i = 0; i < 10; i++) subs.push_back(count_all(o));
    for (long k = 0; k < n; k++) s.on_next(k);
    s.on_completed();
  }
  return delivered;
}

long create(long n) {
  delivered = 0;
  std::vector<rx::emitter<int64_t>> kept;
  auto o = rx::create<int64_t>([&](rx::emitter<int64_t> &e) { kept.push_back(e.retain()); });
  {
    auto sub = count_all(o);
    for (long k = 0; k < n; k++) kept[0].on_next(k);
    kept[0].on_completed();
  }
  kept.clear();
  return delivered;
}

long of(long n) {
  std::vector<int64_t> vs(static_cast<size_t>(n));
  for (long k = 0; k < n; k++) vs[static_cast<size_t>(k)] = k;
  return drain(rx::from(vs));
}
}  // namespace

#define W(name, ...) {#name, [](long n) -> long { return __VA_ARGS__; }}
#define OP(name, ...) W(name, with_publish(n, [](auto o) { return o.__VA_ARGS__; }))
#define TWO(name, ...) W(name, through_two(n, [](auto a, auto b) { return a.__VA_ARGS__; }))
static const catalog_workload twins[] = {
  W(subject_publish, with_publish(n, same)),
  W(subject_behavior, through(rx::behavior_subject<int64_t>(0), n, same)),
  W(subject_replay, through(rx::replay_subject<int64_t>(10), n, same)),
  W(subject_replay_all, through(rx::replay_subject<int64_t>(), n, same)),
  W(subject_async, through(rx::async_subject<int64_t>(), n, same)),
  W(subject_publish_relay, through(rx::publish_relay<int64_t>(), n, same, false)),
  W(subject_behavior_relay, through(rx::behavior_relay<int64_t>(0), n, same, false)),
  W(subject_replay_relay, through(rx::replay_relay<int64_t>(10), n, same, false)),
  OP(map, map(inc)),
  OP(filter, filter(keep_all)),
  OP(map_filter_map, map(inc).filter(keep_all).map(inc)),
  OP(scan, scan(int64_t(0), add)),
  OP(reduce, reduce(int64_t(0), add)),
  OP(take, take(static_cast<size_t>(-1))),
  OP(skip, skip(1)),
  OP(take_while, take_while(keep_all)),
  OP(skip_while, skip_while(keep_none)),
  OP(distinct, distinct_until_changed()),
  OP(distinct_eq, distinct_until_changed(int_eq)),
  OP(element_at, element_at(static_cast<size_t>(-1))),
  OP(first, first_element()),
  OP(last, last_element()),
  OP(ignore, ignore_elements()),
  OP(take_last, take_last(1)),
  OP(skip_last, skip_last(2)),
  OP(default_if_empty, default_if_empty(0)),
  W(switch_if_empty, with_publish(n, [](auto o) { return rx::empty<int64_t>().switch_if_empty(o); })),
  OP(take_while_inclusive, take_while_inclusive(keep_all)),
  OP(take_until_predicate, take_until_predicate(true, keep_none)),
  OP(start_with, start_with(int64_t(1))),
  OP(flat_map, flat_map(to_just)),
  OP(do, tap([](int64_t) { delivered++; })),
  OP(share, share()),
  OP(share_replay, share_replay(1)),
  TWO(merge, merge(b)),
  TWO(combine, combine_latest(sum2, b)),
  TWO(zip, zip(sum2, b)),
  TWO(with_latest, with_latest_from(sum2, b)),
  TWO(sample, sample(b)),
  TWO(amb, amb(b)),
  TWO(concat, concat(b)),
  W(range_map_filter_scan, drain(rx::range(0, static_cast<size_t>(n)).map(inc).filter(keep_all).scan(int64_t(0), add))),
  W(range_map, drain(rx::range(0, static_cast<size_t>(n)).map(inc))),
  W(of, of(n)),
  W(create, create(n)),
  W(range_flat_map_just, drain(rx::range(0, static_cast<size_t>(n)).flat_map(to_just))),
  W(share_10, share_10(n)),
};

int main(int argc, char **argv) {
  const int64_t live = rx::live_objects();
  int rc = catalog_main("rxc_hpp", twins, sizeof twins / sizeof twins[0], argc, argv);
  if (rx::live_objects() != live) {
    std::fprintf(stderr, "catalog_rxc: %lld objects still live\n", static_cast<long long>(rx::live_objects() - live));
    rc = 1;
  }
  return rc;
}
