// Operators through methods and pipes, with typed callbacks.
#include <optional>
#include <string>
#include <vector>

#include "support.hpp"

using ints = std::vector<int64_t>;

// A vector of move-only observables (an initializer list would copy them).
template <class... O>
static std::vector<rx::observable<int64_t>> list(O &&...o) {
  std::vector<rx::observable<int64_t>> v;
  (v.push_back(std::move(o)), ...);
  return v;
}

RX_CASE("operators: methods and pipes give the same results") {
  auto by_methods = rx::range(1, 10).map([](int64_t x) { return x * 3; }).filter([](int64_t x) { return x % 2 == 0; }).take(2);
  CHECK(by_methods.to_vector() == ints{6, 12});
  using namespace rx::operators;
  auto by_pipes = rx::range(1, 10) | map([](int64_t x) { return x * 3; }) | filter([](int64_t x) { return x % 2 == 0; }) | take(2);
  CHECK(by_pipes.to_vector() == ints{6, 12});
  int64_t sum = 0;
  auto sub = rx::range(1, 4) | scan(int64_t(0), [](int64_t a, int64_t x) { return a + x; }) | subscribe([&](int64_t x) { sum = x; });
  CHECK(sum == 10);
  CHECK((rx::range(1, 4) | reduce(std::string(), [](std::string a, int64_t x) { return a + std::to_string(x); })).first() == "1234");
}

RX_CASE("operators: transform") {
  CHECK(rx::range(0, 5)
            .compact_map([](int64_t x) -> std::optional<std::string> {
              if (x % 2) return std::nullopt;
              return std::to_string(x);
            })
            .to_vector() == std::vector<std::string>{"0", "2", "4"});
  CHECK(rx::range(0, 3).flat_map([](int64_t x) { return rx::range(x * 10, 2); }).to_vector() == ints{0, 1, 10, 11, 20, 21});
  CHECK(rx::range(0, 3).concat_map([](int64_t x) { return rx::just(x); }).to_vector() == ints{0, 1, 2});
  CHECK(rx::range(0, 3).flat_map_max(1, [](int64_t x) { return rx::range(x, 1); }).to_vector() == ints{0, 1, 2});
  CHECK(rx::range(0, 3).flat_map_latest([](int64_t x) { return rx::just(x); }).to_vector() == ints{0, 1, 2});
  CHECK(rx::range(0, 3).flat_map_first([](int64_t x) { return rx::just(x); }).to_vector() == ints{0, 1, 2});
  CHECK(rx::range(0, 5).buffer(0, 2).to_vector() == std::vector<ints>{{0, 1}, {2, 3}, {4}});
  CHECK(rx::range(0, 3).to_array().first() == ints{0, 1, 2});
  auto pairs = rx::range(7, 2).enumerated().to_vector();
  CHECK(pairs == std::vector<std::pair<int64_t, int64_t>>{{0, 7}, {1, 8}});
  std::vector<std::string> keys;
  std::vector<int64_t> evens;
  std::vector<rx::subscription> inner;
  auto sub = rx::range(0, 6)
                 .group_by([](int64_t x) { return x % 2 ? std::string("odd") : std::string("even"); })
                 .subscribe([&](const rx::grouped_observable<std::string, int64_t> &g) {
                   keys.push_back(g.key());
                   if (g.key() == "even") inner.push_back(g.subscribe([&](int64_t x) { evens.push_back(x); }));
                 });
  CHECK(keys == std::vector<std::string>{"even", "odd"});
  CHECK(evens == ints{0, 2, 4});
  inner.clear();
  // windows are observables of observables
  int64_t windows = 0;
  ints in_windows;
  std::vector<rx::subscription> window_subs;
  auto wsub = rx::range(0, 4).window(0, 2).subscribe([&](const rx::observable<int64_t> &w) {
    windows++;
    window_subs.push_back(w.subscribe([&, n = windows](int64_t x) { in_windows.push_back(n * 100 + x); }));
  });
  CHECK(windows == 3);  // [0, 1], [2, 3], and the one open when the source completed
  CHECK(in_windows == ints{100, 101, 202, 203});
  window_subs.clear();
}

RX_CASE("operators: filter and conditions") {
  auto r = [] { return rx::range(0, 6); };
  CHECK(r().skip(4).to_vector() == ints{4, 5});
  CHECK(r().take_while([](int64_t x) { return x < 2; }).to_vector() == ints{0, 1});
  CHECK(r().take_while_inclusive([](int64_t x) { return x < 2; }).to_vector() == ints{0, 1, 2});
  CHECK(r().skip_while([](int64_t x) { return x < 4; }).to_vector() == ints{4, 5});
  CHECK(r().take_until_predicate(true, [](int64_t x) { return x == 1; }).to_vector() == ints{0, 1});
  CHECK(r().take_last(2).to_vector() == ints{4, 5});
  CHECK(r().skip_last(2).to_vector() == ints{0, 1, 2, 3});
  CHECK(rx::of<int64_t>({1, 1, 2, 2, 1}).distinct_until_changed().to_vector() == ints{1, 2, 1});
  CHECK(rx::of<int64_t>({1, 3, 2, 4}).distinct_until_changed([](int64_t a, int64_t b) { return a % 2 == b % 2; }).to_vector() ==
        ints{1, 2});
  CHECK(r().element_at(3).first() == 3);
  CHECK(r().first_element().single_value() == 0);
  CHECK(r().last_element().single_value() == 5);
  CHECK_THROWS_AS(r().single().last(), rx::error);
  CHECK(r().ignore_elements().to_vector().empty());
  CHECK(rx::empty<int64_t>().default_if_empty(9).to_vector() == ints{9});
  CHECK(rx::empty<int64_t>().switch_if_empty(rx::just(int64_t(8))).to_vector() == ints{8});
  auto stop = rx::publish_subject<int>();
  auto src = rx::publish_subject<int64_t>();
  ints got;
  auto sub = src.as_observable().take_until(stop.as_observable()).subscribe([&](int64_t x) { got.push_back(x); });
  src.on_next(1);
  stop.on_next(0);
  src.on_next(2);
  CHECK(got == ints{1});
  auto gate = rx::publish_subject<int>();
  ints got2;
  auto sub2 = src.as_observable().skip_until(gate.as_observable()).subscribe([&](int64_t x) { got2.push_back(x); });
  src.on_next(3);
  gate.on_next(0);
  src.on_next(4);
  CHECK(got2 == ints{4});
}

RX_CASE("operators: combine") {
  CHECK(rx::range(0, 2).merge(rx::range(10, 2)).to_vector() == ints{0, 1, 10, 11});
  CHECK(rx::range(0, 2).concat(rx::range(10, 1), rx::just(int64_t(20))).to_vector() == ints{0, 1, 10, 20});
  CHECK(rx::merge(list(rx::range(0, 1), rx::range(5, 1))).to_vector() == ints{0, 5});
  CHECK(rx::merge(list(rx::range(0, 1), rx::range(5, 1)), 1).to_vector() == ints{0, 5});
  CHECK(rx::merge(rx::range(0, 1), rx::range(5, 1), rx::range(7, 1)).to_vector() == ints{0, 5, 7});
  CHECK(rx::concat(list(rx::range(3, 1), rx::range(1, 1))).to_vector() == ints{3, 1});
  CHECK(rx::concat(rx::range(3, 1), rx::range(1, 1)).to_vector() == ints{3, 1});
  CHECK(rx::amb(list(rx::range(3, 1), rx::never<int64_t>())).to_vector() == ints{3});
  CHECK(rx::amb(rx::range(3, 1), rx::never<int64_t>()).to_vector() == ints{3});
  CHECK(rx::zip(rx::range(0, 2), rx::range(5, 2)).to_vector().size() == 2);
  CHECK(rx::range(0, 1).amb(rx::never<int64_t>()).to_vector() == ints{0});
  auto zipped = rx::range(0, 3).zip(rx::just(std::string("a")).concat(rx::just(std::string("b")))).to_vector();
  REQUIRE(zipped.size() == 2);
  CHECK(std::get<1>(zipped[1]) == "b");
  CHECK(rx::range(1, 3).zip([](int64_t a, double b) { return a * b; }, rx::of<double>({0.5, 1.5, 2.5})).to_vector() ==
        std::vector<double>{0.5, 3.0, 7.5});
  CHECK(rx::zip(list(rx::range(0, 2), rx::range(5, 2))).to_vector() ==
        std::vector<ints>{{0, 5}, {1, 6}});
  auto a = rx::publish_subject<int64_t>();
  auto b = rx::publish_subject<std::string>();
  std::vector<std::string> cl;
  auto sub = a.as_observable()
                 .combine_latest([](int64_t x, const std::string &s) { return s + std::to_string(x); }, b.as_observable())
                 .subscribe([&](const std::string &s) { cl.push_back(s); });
  a.on_next(1);
  b.on_next("x");
  a.on_next(2);
  CHECK(cl == std::vector<std::string>{"x1", "x2"});
  auto tuples = rx::combine_latest(list(rx::just(int64_t(1)), rx::just(int64_t(2)))).to_vector();
  CHECK(tuples == std::vector<ints>{{1, 2}});
  auto other = rx::behavior_subject<int64_t>(100);
  CHECK(rx::range(0, 2).with_latest_from(other.as_observable()).to_vector() == ints{100, 100});
  CHECK(rx::range(0, 2).with_latest_from([](int64_t x, int64_t y) { return x + y; }, other.as_observable()).to_vector() ==
        ints{100, 101});
  CHECK(rx::range(5, 1).start_with(1, 2).to_vector() == ints{1, 2, 5});
  auto outer = rx::just(rx::range(0, 2));
  CHECK(outer.switch_latest().to_vector() == ints{0, 1});
  CHECK(rx::range(0, 2).combine_latest(rx::just(std::string("z"))).to_vector().size() == 1);  // range is done before just is subscribed
}

RX_CASE("operators: errors, retry, catch") {
  auto failing = rx::throw_error<int64_t>(rx::error(RX_ERROR_USER, "f"));
  CHECK(failing.catch_and_return(-1).to_vector() == ints{-1});
  CHECK(failing.catch_with(rx::just(int64_t(5))).to_vector() == ints{5});
  CHECK(failing.catch_error([](const rx::error &e) { return rx::just(int64_t(e.code())); }).to_vector() == ints{RX_ERROR_USER});
  CHECK_THROWS_AS(failing.catch_error([](const rx::error &) { return rx::observable<int64_t>(); }).last(), rx::error);
  int attempts = 0;
  auto flaky = rx::create<int64_t>([&](rx::emitter<int64_t> &e) {
    if (++attempts < 3)
      e.on_error(rx::error(RX_ERROR_USER, "again"));
    else {
      e.on_next(attempts);
      e.on_completed();
    }
  });
  CHECK(flaky.retry(5).to_vector() == ints{3});
  attempts = 0;
  CHECK(flaky.retry_when([](rx::observable<rx::value> errors) { return errors; }).to_vector() == ints{3});
  attempts = 0;
  rx_backoff_options opts{};
  opts.initial_delay_ns = 1000;
  opts.multiplier = 1.0;
  opts.max_attempts = 5;
  CHECK(flaky.retry_backoff(opts, rx::scheduler::serial("cpp.backoff")).to_vector() == ints{3});
  auto test = rx::scheduler::test();
  try {
    (void)rx::never<int64_t>().timeout(1000 * 1000, rx::scheduler::serial("cpp.timeout")).last();
    FAIL("no timeout");
  } catch (const rx::error &e) {
    CHECK(e.code() == RX_ERROR_TIMEOUT);
  }
  auto src = rx::marble_cold<int64_t>(test, "--1|");
  CHECK(rx::marble_expect(test, src.timeout_to(RX_MARBLE_FRAME_NS, rx::just(int64_t(9)), test), "-(9|)"));
}

RX_CASE("operators: time on a test scheduler (marbles)") {
  auto t = rx::scheduler::test();
  auto src = rx::marble_cold(t, "-a-b---c|");
  CHECK(rx::marble_expect(t, src.debounce(2 * RX_MARBLE_FRAME_NS, t), "-----b--(c|)"));
  auto t2 = rx::scheduler::test();
  CHECK(rx::marble_expect(t2, rx::marble_cold(t2, "ab|").delay(2 * RX_MARBLE_FRAME_NS, t2), "--ab|"));
  auto t3 = rx::scheduler::test();
  CHECK(rx::marble_expect(t3, rx::marble_cold(t3, "abc|").throttle(5 * RX_MARBLE_FRAME_NS, false, t3), "a--|"));
  auto t4 = rx::scheduler::test();
  auto big = rx::value::of(int64_t(40));
  CHECK(rx::marble_expect(t4, rx::marble_cold<int64_t>(t4, "-1-2|").map([](int64_t x) { return x * 20; }), "-x-y|",
                          {{'x', rx::value::of(int64_t(20))}, {'y', std::move(big)}}));
  auto t5 = rx::scheduler::test();
  CHECK(rx::marble_expect(t5, rx::marble_hot(t5, "^a-b-c|").skip_duration(RX_MARBLE_FRAME_NS, t5).take_duration(4 * RX_MARBLE_FRAME_NS, t5), "---b|"));
  auto ts = rx::scheduler::test();
  auto stamped = rx::marble_cold<int64_t>(ts, "-1--2|").timestamp(ts).map([](std::pair<int64_t, int64_t> p) {
    return p.first / RX_MARBLE_FRAME_NS * 10 + p.second;
  });
  CHECK(rx::marble_expect(ts, stamped, "-x--y|", {{'x', rx::value::of(int64_t(11))}, {'y', rx::value::of(int64_t(42))}}));
  auto t6 = rx::scheduler::test();
  CHECK(rx::marble_expect(t6, rx::marble_cold(t6, "a|").delay_subscription(RX_MARBLE_FRAME_NS, t6), "-a|"));
  auto t7 = rx::scheduler::test();
  CHECK(rx::marble_expect(t7, rx::marble_cold(t7, "ab-c|").sample(rx::marble_cold(t7, "--x-y|")), "--b-c|"));
  auto t8 = rx::scheduler::test();
  CHECK(rx::marble_expect(t8, rx::interval(RX_MARBLE_FRAME_NS, t8).take(2).map([](int64_t x) { return x + 1; }), "-1(2|)"));
  auto t9 = rx::scheduler::test();
  CHECK(rx::marble_expect(t9, rx::timer(RX_MARBLE_FRAME_NS, -1, t9), "-(0|)"));
}

RX_CASE("operators: utility, sharing, traits, sources") {
  std::vector<std::string> log;
  auto sub = rx::range(0, 2)
                 .on_subscribe([&] { log.push_back("subscribe"); })
                 .on_subscribed([&] { log.push_back("subscribed"); })
                 .tap([&](int64_t x) { log.push_back("tap" + std::to_string(x)); }, [&](const rx::error &) {}, [&] { log.push_back("tap-done"); })
                 .after_next([&](int64_t x) { log.push_back("after" + std::to_string(x)); })
                 .after_completed([&] { log.push_back("after-done"); })
                 .after_error([&](const rx::error &) { log.push_back("after-error"); })
                 .on_dispose([&] { log.push_back("dispose"); })
                 .subscribe([&](int64_t x) { log.push_back("next" + std::to_string(x)); });
  CHECK(log == std::vector<std::string>{"subscribe", "tap0", "next0", "after0", "tap1", "next1", "after1", "tap-done", "after-done",
                                        "subscribed", "dispose"});
  std::vector<std::string> lines;
  CHECK(rx::range(0, 1).debug("cpp", [&](const char *line) { lines.push_back(line); }).to_vector() == ints{0});
  CHECK(lines.size() == 4);  // subscribed, next, completed, disposed
  CHECK(lines[1].find("cpp -> next(0)") != std::string::npos);
  FILE *devnull = std::fopen("/dev/null", "w");
  CHECK(rx::range(0, 1).debug("f", devnull).to_vector() == ints{0});
  std::fclose(devnull);

  int subscriptions = 0;
  auto counted = rx::defer([&] {
    subscriptions++;
    return rx::range(0, 3);
  });
  auto pub = counted.publish();
  ints a, b;
  auto s1 = pub.subscribe([&](int64_t x) { a.push_back(x); });
  auto s2 = pub.subscribe([&](int64_t x) { b.push_back(x); });
  auto c = pub.connect();
  CHECK(a == ints{0, 1, 2});
  CHECK(b == a);
  CHECK(subscriptions == 1);
  CHECK(counted.replay(1).ref_count().to_vector() == ints{0, 1, 2});
  CHECK(counted.replay_all().ref_count().to_vector() == ints{0, 1, 2});
  CHECK(counted.share().to_vector() == ints{0, 1, 2});
  CHECK(counted.share_replay(1).to_vector() == ints{0, 1, 2});
  CHECK(counted.share_forever(1).to_vector() == ints{0, 1, 2});

  int64_t success = -1;
  auto s3 = rx::just(int64_t(4)).as_single().subscribe_single([&](int64_t x) { success = x; });
  CHECK(success == 4);
  int32_t err = 0;
  auto s4 = rx::range(0, 2).subscribe_single([](int64_t) {}, [&](const rx::error &e) { err = e.code(); });
  CHECK(err == RX_ERROR_MORE_THAN_ONE_ELEMENT);
  bool empty_maybe = false;
  auto s5 = rx::empty<int64_t>().as_maybe().subscribe_maybe([](int64_t) {}, [](const rx::error &) {}, [&] { empty_maybe = true; });
  CHECK(empty_maybe);
  bool completed = false;
  auto s6 = rx::range(0, 3).ignore_elements().as_completable().subscribe_completable([&] { completed = true; });
  CHECK(completed);

  CHECK(rx::generate(int64_t(1), [](int64_t x) { return x < 50; }, [](int64_t x) { return x * 3; }).to_vector() == ints{1, 3, 9, 27});
  CHECK(rx::repeat(int64_t(7)).take(3).to_vector() == ints{7, 7, 7});
  CHECK(rx::just("text").first() == "text");
  struct resource {
    int *closed;
    resource(int *c) : closed(c) {}
    resource(resource &&o) noexcept : closed(o.closed) { o.closed = nullptr; }
    ~resource() {
      if (closed) ++*closed;
    }
  };
  int closed = 0;
  auto used = rx::using_resource([&] { return resource(&closed); }, [](resource &) { return rx::range(0, 2); });
  CHECK(used.to_vector() == ints{0, 1});
  CHECK(closed == 1);
}

RX_CASE("operators: flow control") {
  auto s = rx::publish_subject<int64_t>();
  auto pauser = rx::behavior_subject<bool>(false);
  ints got;
  rx::flow_options opts;
  opts.capacity = 2;
  opts.policy = RX_OVERFLOW_DROP_OLDEST;
  ints dropped;
  auto buffered = s.as_observable().pausable_buffered(pauser.as_observable(), opts, [&](int64_t x) { dropped.push_back(x); });
  auto sub = buffered.subscribe([&](int64_t x) { got.push_back(x); });
  for (int64_t i = 0; i < 4; i++) s.on_next(i);
  pauser.on_next(true);
  CHECK(got == ints{2, 3});
  CHECK(dropped == ints{0, 1});
  CHECK(buffered.flow_stats().dropped == 2);
  ints got2;
  auto sub2 = s.as_observable().pausable(pauser.as_observable()).subscribe([&](int64_t x) { got2.push_back(x); });
  s.on_next(10);
  pauser.on_next(false);
  s.on_next(11);
  CHECK(got2 == ints{10});
  auto bg = rx::scheduler::serial("cpp.flow");
  std::atomic<bool> done{false};
  ints got3;
  auto bounded = rx::range(0, 100).observe_on_bounded(bg, opts);
  auto sub3 = bounded.subscribe([&](int64_t x) { got3.push_back(x); }, [&] { done = true; });
  REQUIRE(rxtest::eventually([&] { return done.load(); }));
  CHECK(bounded.flow_stats().received == 100);
  CHECK(got3.back() == 99);
  auto t = rx::scheduler::test();
  CHECK(rx::marble_expect(t, rx::marble_cold(t, "abc|").rate_limit(1, 2 * RX_MARBLE_FRAME_NS, t), "a-b-(c|)"));
  auto t2 = rx::scheduler::test();
  CHECK(rx::marble_expect(t2, rx::marble_cold(t2, "abc|").rate_limit(1, 2 * RX_MARBLE_FRAME_NS, t2, opts), "a-b-(c|)"));
}
