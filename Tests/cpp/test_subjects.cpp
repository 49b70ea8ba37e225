// Subjects and relays through rxc.hpp.
#include <string>
#include <vector>

#include "support.hpp"

RX_CASE("subjects: publish, behavior, replay and async") {
  auto pub = rx::publish_subject<std::string>();
  std::vector<std::string> a;
  pub.on_next("lost");
  auto s1 = pub.subscribe([&](const std::string &x) { a.push_back(x); });
  pub.on_next("x");
  pub.on_completed();
  CHECK(a == std::vector<std::string>{"x"});

  auto beh = rx::behavior_subject<int64_t>(10);
  CHECK(beh.value() == 10);
  std::vector<int64_t> b;
  auto s2 = beh.subscribe([&](int64_t x) { b.push_back(x); });
  beh.on_next(11);
  CHECK(beh.value() == 11);
  CHECK(b == std::vector<int64_t>{10, 11});
  beh.on_error(rx::error(RX_ERROR_USER, "gone"));
  CHECK_THROWS_AS(beh.value(), rx::error);

  auto rep = rx::replay_subject<double>(2);
  rep.on_next(1.0);
  rep.on_next(2.0);
  rep.on_next(3.0);
  CHECK(rep.as_observable().take(2).to_vector() == std::vector<double>{2.0, 3.0});
  auto all = rx::replay_subject<int>();
  for (int i = 0; i < 5; i++) all.on_next(i);
  all.on_completed();
  CHECK(all.as_observable().to_vector().size() == 5);

  auto as = rx::async_subject<int>();
  std::vector<int> c;
  auto s3 = as.subscribe([&](int x) { c.push_back(x); });
  as.on_next(1);
  as.on_next(2);
  CHECK(c.empty());
  as.on_completed();
  CHECK(c == std::vector<int>{2});
}

RX_CASE("subjects: relays never terminate") {
  auto br = rx::behavior_relay<bool>(false);
  auto pr = rx::publish_relay<int>();
  auto rr = rx::replay_relay<int>(1);
  auto rru = rx::replay_relay<int>();
  CHECK_FALSE(br.value());
  br.on_next(true);
  CHECK(br.value());
  for (auto *r : {&pr, &rr, &rru}) {
    r->on_next(1);
    CHECK_THROWS_AS(r->on_completed(), rx::error);
    CHECK_THROWS_AS(r->on_error(rx::error(RX_ERROR_USER, "no")), rx::error);
  }
  CHECK(rr.as_observable().first() == 1);
}

RX_CASE("subjects: an observable feeds a subject; multicast through one") {
  auto target = rx::replay_subject<int64_t>();
  {
    auto sub = rx::range(0, 4).subscribe(target);
  }
  CHECK(target.as_observable().to_vector() == std::vector<int64_t>{0, 1, 2, 3});

  auto s = rx::publish_subject<int64_t>();
  auto conn = rx::range(0, 3).multicast(s);
  std::vector<int64_t> got;
  auto sub = conn.subscribe([&](int64_t x) { got.push_back(x); });
  auto c = conn.connect();
  CHECK(got == std::vector<int64_t>{0, 1, 2});
}
