// value_traits: every supported C++ type to rx_value and back, and wrong kinds.
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "support.hpp"

template <class T>
static T roundtrip(const T &x) {
  return rx::value::of(x).template as<T>();
}

RX_CASE("values: plain kinds round-trip and carry the rx_value kind") {
  CHECK(roundtrip<int64_t>(-5) == -5);
  CHECK(roundtrip<int>(7) == 7);
  CHECK(roundtrip<double>(0.25) == 0.25);
  CHECK(roundtrip<bool>(true));
  CHECK_FALSE(roundtrip<bool>(false));
  CHECK(rx::value::of(int64_t(3)).kind() == RX_INT);
  CHECK(rx::value::of(1.5).kind() == RX_DOUBLE);
  CHECK(rx::value::of(true).kind() == RX_BOOL);
  // the same bits as rxc.h's own constructors
  CHECK(rx::value::of(2.5).get().i == rx_double(2.5).i);
  int cell = 0;
  CHECK(roundtrip<int *>(&cell) == &cell);
  CHECK(rx::value::of(&cell).kind() == RX_PTR);
}

RX_CASE("values: strings, vectors, tuples, pairs") {
  CHECK(roundtrip<std::string>("héllo") == "héllo");
  CHECK(rx::value::of(std::string("x")).kind() == RX_STRING);
  std::vector<std::string> vs{"a", "bb", "ccc"};
  CHECK(roundtrip(vs) == vs);
  std::vector<std::vector<int64_t>> nested{{1, 2}, {}, {3}};
  CHECK(roundtrip(nested) == nested);
  auto t = std::make_tuple(int64_t(1), std::string("two"), 3.0);
  CHECK(roundtrip(t) == t);
  auto p = std::make_pair(int64_t(4), true);
  CHECK(roundtrip(p) == p);
  rx::value arr = rx::value::of(vs);
  CHECK(arr.kind() == RX_ARRAY);
  CHECK(arr.array_count() == 3);
  CHECK(arr.array_item(1).as<std::string>() == "bb");
  CHECK(rx::value::of(std::string("abc")) == rx::value::of(std::string("abc")));
  CHECK(rx::value::of(std::string("abc")) != rx::value::of(std::string("abd")));
  rx::value b = rx::value::bytes("xyz", 3);
  CHECK(b.as_bytes().second == 3);
  CHECK(std::memcmp(b.as_bytes().first, "xyz", 3) == 0);
}

struct widget {
  explicit widget(int n, std::atomic<int> *dead) : n(n), dead(dead) {}
  ~widget() { dead->fetch_add(1); }
  int n;
  std::atomic<int> *dead;
};

RX_CASE("values: any C++ object by shared_ptr, freed with its last reference") {
  std::atomic<int> dead{0};
  {
    auto w = std::make_shared<widget>(42, &dead);
    rx::value v = rx::value::of(w);
    CHECK(v.kind() == RX_OBJECT);
    CHECK(w.use_count() == 2);
    auto back = v.as<std::shared_ptr<widget>>();
    CHECK(back.get() == w.get());
    CHECK(back->n == 42);
    // another type is refused, not reinterpreted
    CHECK_THROWS_AS(v.as<std::shared_ptr<int>>(), rx::error);
    // through a stream: the subscriber gets the same object
    std::shared_ptr<widget> seen;
    auto sub = rx::just(w).subscribe([&](std::shared_ptr<widget> x) { seen = x; });
    CHECK(seen.get() == w.get());
  }
  CHECK(dead.load() == 1);
}

RX_CASE("values: a wrong kind is rx::error RX_ERROR_TYPE") {
  rx::value s = rx::value::of(std::string("s"));
  try {
    (void)s.as<int64_t>();
    FAIL("no exception");
  } catch (const rx::error &e) {
    CHECK(e.code() == RX_ERROR_TYPE);
    CHECK(e.status() == RX_ESTREAM);
  }
  CHECK_THROWS_AS(rx::value::of(int64_t(1)).as<double>(), rx::error);
  using triple = std::tuple<int, int, int>;
  CHECK_THROWS_AS(rx::value::of(std::make_tuple(1, 2)).as<triple>(), rx::error);
  // a typed subscriber of a stream of another kind gets the type error
  int32_t code = 0;
  auto sub = rx::just(std::string("text")).as<int64_t>().subscribe([](int64_t) {}, [&](const rx::error &e) { code = e.code(); });
  CHECK(code == RX_ERROR_TYPE);
}

RX_CASE("values: sources of boxed values keep them alive (of, from, just, start_with)") {
  std::vector<std::string> words{"alpha", "beta", "gamma", "delta", "epsilon"};
  CHECK(rx::from(words).to_vector() == words);
  CHECK(rx::of<std::string>({"x", "y"}).to_vector() == std::vector<std::string>{"x", "y"});
  CHECK(rx::just(words).first() == words);
  CHECK(rx::just(std::string("z")).start_with("a", "b").to_vector() == std::vector<std::string>{"a", "b", "z"});
}

RX_CASE("values: untyped streams of rx::value") {
  std::vector<rx::value> in;
  in.push_back(rx::value::of(int64_t(1)));
  in.push_back(rx::value::of(std::string("two")));
  std::vector<rx_kind> kinds;
  auto sub = rx::from(std::vector<int64_t>{1, 2}).as<rx::value>().subscribe([&](const rx::value &v) { kinds.push_back(v.kind()); });
  CHECK(kinds == std::vector<rx_kind>{RX_INT, RX_INT});
  auto mat = rx::range(5, 1).materialize().to_vector();
  REQUIRE(mat.size() == 2);
  CHECK(mat[0].event_kind() == RX_EVENT_NEXT);
  CHECK(mat[0].event_value().as<int64_t>() == 5);
  CHECK(mat[1].event_kind() == RX_EVENT_COMPLETED);
  CHECK(rx::range(5, 2).materialize().dematerialize<int64_t>().to_vector() == std::vector<int64_t>{5, 6});
}
