// C++ twins of the catalog's workloads (Tests/perf/workloads.c, same names and shapes) through
// RxCpp, for `make bench`'s RxCpp column: int64_t payloads (std::string for the *_strings rows,
// the two strings alternately), the user functions of Tests/perf/user_fns.h as lambdas, a
// subscriber that counts values and terminal events. A workload whose operator RxCpp lacks is
// absent (run.py shows n/a). Built only when RXCPP_PATH names an RxCpp checkout (mk/cpp.mk).
//
// One translation unit per twin: g++ devirtualizes RxCpp's observer calls (subjects keep their
// subscribers behind a virtual on_next) only while a unit holds few observer types, and with
// all twins in one unit subject_publish took 19 ns instead of 10, map 25 instead of 12. So
// mk/cpp.mk compiles this file once per entry of the table (-DTWIN=k: entry k's body only,
// which registers itself) and once with -DTWIN_MAIN (the names and main), and links them:
// each twin runs as it would in a small program of its own. Without either, one program.
//
// Usage: catalog_rxcpp --list | catalog_rxcpp --time MS [name ...]   (benchmarks/c/catalog_time.h)
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "catalog_time.h"
#include "rxcpp/rx.hpp"

namespace {
namespace rxs = rxcpp::subjects;
using rxcpp::observable;

long delivered;
long n_events;

// The user functions (Tests/perf/user_fns.h), as lambdas RxCpp can inline.
const auto inc = [](int64_t x) { return x + 1; };
const auto keep_all = [](int64_t) { return true; };
const auto keep_none = [](int64_t) { return false; };
const auto add = [](int64_t acc, int64_t x) { return acc + x; };
const auto sum2 = [](int64_t a, int64_t b) { return a + b; };
const auto int_eq = [](int64_t a, int64_t b) { return a == b; };
const auto to_just = [](int64_t x) { return observable<>::just(x); };
const auto to_pair = [](int64_t x) { return observable<>::from(x, x); };

// The payload of event k: k, or one of two strings.
const std::string strings[2] = {"north", "south"};
template <class T> T payload(long k);
template <> int64_t payload<int64_t>(long k) { return k; }
template <> std::string payload<std::string>(long k) { return strings[k & 1]; }

template <class O> rxcpp::composite_subscription count_all(O o) {
  using T = typename O::value_type;
  return o.subscribe([](const T &) { delivered++; }, [](std::exception_ptr) { delivered++; }, [] { delivered++; });
}

// subject -> make(subject's observable) -> counter; n values, then the completion.
template <class T, class Subject, class Make> long through(Subject s, long n, Make make) {
  delivered = 0;
  n_events = n;
  auto sub = count_all(make(s.get_observable()));
  auto out = s.get_subscriber();
  for (long k = 0; k < n; k++) out.on_next(payload<T>(k));
  out.on_completed();
  sub.unsubscribe();
  return delivered;
}
template <class T, class Make> long with_publish(long n, Make make) { return through<T>(rxs::subject<T>(), n, make); }
// Two subjects -> make2 -> counter; each event goes into both.
template <class T, class Make2> long through_two(long n, Make2 make2) {
  delivered = 0;
  rxs::subject<T> a, b;
  auto sub = count_all(make2(a.get_observable(), b.get_observable()));
  auto oa = a.get_subscriber();
  auto ob = b.get_subscriber();
  for (long k = 0; k < n; k++) {
    oa.on_next(payload<T>(k));
    ob.on_next(payload<T>(k));
  }
  sub.unsubscribe();
  return delivered;
}
// A cold source -> counter.
template <class O> long drain(O o) {
  delivered = 0;
  count_all(o).unsubscribe();
  return delivered;
}

const auto same = [](auto o) { return o; };
template <class T> rxs::replay<T, rxcpp::identity_one_worker> replay(std::size_t count) {
  return rxs::replay<T, rxcpp::identity_one_worker>(count, rxcpp::identity_immediate());
}

// A subject of another shape, from the subject -> counter shape.
template <class = void> long subject_behavior(long n) { return through<int64_t>(rxs::behavior<int64_t>(0), n, same); }
template <class = void> long subject_replay(long n) { return through<int64_t>(replay<int64_t>(10), n, same); }
template <class = void> long subject_replay_all(long n) {
  return through<int64_t>(rxs::replay<int64_t, rxcpp::identity_one_worker>(rxcpp::identity_immediate()), n, same);
}

// Per subscription: subscribe, one event, unsubscribe.
template <class Make> long subscribe_dispose(long n, Make make) {
  delivered = 0;
  rxs::subject<int64_t> s;
  auto o = make(s.get_observable());
  auto out = s.get_subscriber();
  for (long k = 0; k < n; k++) {
    auto sub = count_all(o);
    out.on_next(k);
    sub.unsubscribe();
  }
  return delivered;
}

// rx_create's emitter: the subscribe function keeps the subscriber; events go in through it.
template <class T> long create(long n) {
  delivered = 0;
  std::vector<rxcpp::subscriber<T>> kept;
  auto sub = count_all(observable<>::create<T>([&](rxcpp::subscriber<T> s) { kept.push_back(s); }));
  for (long k = 0; k < n; k++) kept[0].on_next(payload<T>(k));
  kept[0].on_completed();
  sub.unsubscribe();
  return delivered;
}

// One window for the run (a count never reached), subscribed by the counter as it opens; the
// outer subscriber counts nothing (workloads.c's only subscribes).
template <class = void> long window(long n) {
  delivered = 0;
  rxs::subject<int64_t> s;
  std::vector<rxcpp::composite_subscription> inner;
  auto sub = s.get_observable().window(std::numeric_limits<int>::max()).subscribe([&](observable<int64_t> w) {
    inner.push_back(count_all(w));
  });
  auto out = s.get_subscriber();
  for (long k = 0; k < n; k++) out.on_next(k);
  out.on_completed();
  sub.unsubscribe();
  for (auto &d : inner) d.unsubscribe();
  return delivered;
}

// publish subject -> group_by (4 keys) -> a counter per group, subscribed as each arrives.
template <class Key> long group_by(long n, Key key) {
  delivered = 0;
  rxs::subject<int64_t> s;
  std::vector<rxcpp::composite_subscription> groups;
  auto sub = s.get_observable().group_by(key).subscribe([&](auto g) {
    (void)g.get_key();
    groups.push_back(count_all(g));
  });
  auto out = s.get_subscriber();
  for (long k = 0; k < n; k++) out.on_next(k);
  out.on_completed();
  sub.unsubscribe();
  for (auto &g : groups) g.unsubscribe();
  return delivered;
}

template <class = void> long switch_latest(long n) {
  delivered = 0;
  rxs::subject<observable<int64_t>> s;
  auto sub = count_all(s.get_observable().switch_on_next());
  auto out = s.get_subscriber();
  for (long k = 0; k < n; k++) out.on_next(observable<>::just(int64_t(k)));
  sub.unsubscribe();
  return delivered;
}

template <class = void> long share_10(long n) {
  delivered = 0;
  rxs::subject<int64_t> s;
  auto o = s.get_observable().publish().ref_count();
  std::vector<rxcpp::composite_subscription> subs;
  for (int i = 0; i < 10; i++) subs.push_back(count_all(o));
  auto out = s.get_subscriber();
  for (long k = 0; k < n; k++) out.on_next(k);
  out.on_completed();
  for (auto &d : subs) d.unsubscribe();
  return delivered;
}

template <class = void> long just_map_subscribe(long n) {
  delivered = 0;
  for (long k = 0; k < n; k++) count_all(observable<>::just(int64_t(k)).map(inc)).unsubscribe();
  return delivered;
}

template <class = void> long of(long n) {
  std::vector<int64_t> vs(static_cast<size_t>(n));
  for (long k = 0; k < n; k++) vs[static_cast<size_t>(k)] = k;
  return drain(observable<>::iterate(vs));
}

const std::runtime_error failure("fail");
}  // namespace

// Entry k of the table below is compiled into the unit built with TWIN=k (its body is a
// generic lambda, instantiated only there) and recorded in rxcpp_twin_bodies[k].
extern catalog_body rxcpp_twin_bodies[];
#if defined(TWIN_MAIN)
catalog_body rxcpp_twin_bodies[256];
#elif !defined(TWIN)
catalog_body rxcpp_twin_bodies[1];
#endif
enum { twin_base = __COUNTER__ + 1 };
template <int K, class F> catalog_body pick(F f) {
#if defined(TWIN)
  if constexpr (K == TWIN) {
    static F body = f;
    rxcpp_twin_bodies[K] = [](long n) -> long { return body(n); };
  }
  return nullptr;
#elif defined(TWIN_MAIN)
  (void)f;
  return nullptr;
#else
  static F body = f;
  return [](long n) -> long { return body(n); };
#endif
}
#define W(name, ...) {#name, pick<__COUNTER__ - twin_base>([](auto n) -> long { return __VA_ARGS__; })}
// publish subject -> o.<operator> -> counter; two subjects -> a.<operator>(b); the same with strings
#define OP(name, ...) W(name, with_publish<int64_t>(n, [](auto o) { return o.__VA_ARGS__; }))
#define TWO(name, ...) W(name, through_two<int64_t>(n, [](auto a, auto b) { return a.__VA_ARGS__; }))
#define STR(name, ...) W(name, with_publish<std::string>(n, [](auto o) { return o.__VA_ARGS__; }))
#define STR_TWO(name, ...) W(name, through_two<std::string>(n, [](auto a, auto b) { return a.__VA_ARGS__; }))
// One entry a line (mk/cpp.mk counts the lines that start with "  W(", "  OP(" ...).
static const catalog_workload twins[] = {
  W(subject_publish, with_publish<int64_t>(n, same)),
  W(subject_behavior, subject_behavior(n)),
  W(subject_replay, subject_replay(n)),
  W(subject_replay_all, subject_replay_all(n)),
  OP(map, map(inc)),
  OP(filter, filter(keep_all)),
  OP(map_filter_map, map(inc).filter(keep_all).map(inc)),
  OP(scan, scan(int64_t(0), add)),
  OP(reduce, reduce(int64_t(0), add)),
  OP(take, take(std::numeric_limits<int64_t>::max())),
  OP(skip, skip(1)),
  OP(take_while, take_while(keep_all)),
  OP(skip_while, skip_while(keep_none)),
  OP(distinct, distinct_until_changed()),
  OP(distinct_eq, distinct_until_changed(int_eq)),
  OP(element_at, element_at(std::numeric_limits<int>::max())),
  OP(first, first()),
  OP(last, last()),
  OP(ignore, ignore_elements()),
  OP(take_last, take_last(1)),
  OP(skip_last, skip_last(2)),
  OP(default_if_empty, default_if_empty(int64_t(0))),
  // the subject is the fallback of an empty source
  W(switch_if_empty, with_publish<int64_t>(n, [](auto o) { return observable<>::empty<int64_t>().switch_if_empty(o); })),
  // the subject is the fallback of a failed source
  W(catch_with, with_publish<int64_t>(n, [](auto o) {
      return observable<>::error<int64_t>(failure).on_error_resume_next([o](std::exception_ptr) { return o; });
    })),
  OP(start_with, start_with(int64_t(1))),
  OP(flat_map, flat_map(to_just)),
  OP(flat_map_latest, map(to_just).switch_on_next()),
  OP(concat_map, concat_map(to_pair)),
  OP(catch, on_error_resume_next([](std::exception_ptr) { return observable<>::just<int64_t>(0); })),
  OP(catch_return, on_error_resume_next([](std::exception_ptr) { return observable<>::just<int64_t>(0); })),
  OP(retry, retry(3)),
  OP(do, tap([](int64_t) { delivered++; })),
  OP(take_until, take_until(observable<>::never<int64_t>())),
  OP(skip_until, skip_until(observable<>::just<int64_t>(0))),
  OP(share, publish().ref_count()),
  OP(share_replay, replay(1).ref_count()),
  OP(publish_ref_count, publish().ref_count()),
  OP(replay_ref_count, replay(1).ref_count()),
  OP(replay_all_ref_count, replay().ref_count()),
  OP(multicast_ref_count, multicast(replay<int64_t>(2))
                              .ref_count()),
  OP(observe_on, observe_on(rxcpp::identity_current_thread())),
  OP(subscribe_on, subscribe_on(rxcpp::identity_immediate())),
  OP(buffer, buffer(10)),
  TWO(merge, merge(b)),
  TWO(combine, combine_latest(sum2, b)),
  TWO(zip, zip(sum2, b)),
  TWO(with_latest, with_latest_from(sum2, b)),
  TWO(amb, amb(b)),
  TWO(concat, concat(b)),
  W(switch_latest, switch_latest(n)),
  W(subscribe_dispose_subject, subscribe_dispose(n, same)),
  W(subscribe_dispose_map, subscribe_dispose(n, [](auto o) { return o.map(inc); })),
  W(just_map_subscribe, just_map_subscribe(n)),
  W(range_map_filter_scan, drain(observable<>::range<int64_t>(0, n - 1).map(inc).filter(keep_all).scan(int64_t(0), add))),
  W(range_map, drain(observable<>::range<int64_t>(0, n - 1).map(inc))),
  W(of, of(n)),
  W(create, create<int64_t>(n)),
  W(range_flat_map_just, drain(observable<>::range<int64_t>(0, n - 1).flat_map(to_just))),
  W(range_concat_map_of, drain(observable<>::range<int64_t>(0, n - 1).concat_map(to_pair))),
  W(share_10, share_10(n)),
  W(window, window(n)),
  W(group_by, group_by(n, [](int64_t x) { return x & 3; })),
  W(group_by_string_keys, group_by(n, [](int64_t x) {
      static const char *const names[] = {"north", "east", "south", "west"};
      return std::string(names[x & 3]);
    })),
  W(subject_publish_strings, with_publish<std::string>(n, same)),
  W(subject_behavior_strings, through<std::string>(rxs::behavior<std::string>(std::string()), n, same)),
  W(subject_replay_strings,
    through<std::string>(replay<std::string>(10), n, same)),
  STR(map_strings, map([](const std::string &s) { return s; })),
  STR(distinct_strings, distinct_until_changed()),
  STR(scan_strings, scan(std::string(), [](const std::string &, const std::string &s) { return s; })),
  STR(share_strings, publish().ref_count()),
  STR(share_replay_strings, replay(1).ref_count()),
  STR(flat_map_strings, flat_map([](const std::string &s) { return observable<>::just(s); })),
  STR(buffer_strings, buffer(10)),
  STR_TWO(combine_strings, combine_latest([](const std::string &x, const std::string &) { return x; }, b)),
  STR_TWO(zip_strings, zip([](const std::string &x, const std::string &) { return x; }, b)),
  STR_TWO(with_latest_strings, with_latest_from([](const std::string &x, const std::string &) { return x; }, b)),
  W(create_strings, create<std::string>(n)),
  // on the current thread's trampoline: repeat of an immediate just recurses until the stack ends
  W(repeat_element_take, drain(observable<>::just<int64_t>(1, rxcpp::identity_current_thread()).repeat().take(n))),
};

#if defined(TWIN)
static_assert(TWIN < static_cast<int>(sizeof twins / sizeof twins[0]), "TWIN past the table's end");
#else
int main(int argc, char **argv) {
  static_assert(sizeof twins / sizeof twins[0] <= 256, "rxcpp_twin_bodies is too small");
  std::vector<catalog_workload> ws;
  for (const catalog_workload &w : twins) {
#if defined(TWIN_MAIN)
    catalog_body run = rxcpp_twin_bodies[&w - twins];
#else
    catalog_body run = w.run;
#endif
    if (!run) {
      std::fprintf(stderr, "catalog_rxcpp: %s was not linked in (mk/cpp.mk counts the table's entries)\n", w.name);
      return 1;
    }
    ws.push_back({w.name, run});
  }
  return catalog_main("rxcpp", ws.data(), ws.size(), argc, argv);
}
#endif
