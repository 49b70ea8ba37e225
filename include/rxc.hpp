/*
 * rxc.hpp — librxc for C++17: a header-only layer over rxc.h.
 *
 * What it gives a C++ program:
 *   - Handles that own one reference and release it on destruction (observable<T>,
 *     subject<T>, scheduler, run_loop, value, emitter<T>...). They are move-only; a copy is
 *     explicit: x.retain() returns a second owner of the same object.
 *   - Any callable (a lambda with captures, a std::function, a function object) wherever
 *     rxc.h takes a function pointer and a ctx. The callable is moved to the heap and freed
 *     through the library's ctx_free / on_disposed, exactly once.
 *   - Typed streams: observable<T> carries T, converted to and from rx_value by
 *     value_traits<T>: integers (RX_INT), float/double (RX_DOUBLE), bool (RX_BOOL),
 *     std::string (RX_STRING), std::vector<U> (RX_ARRAY of U), std::pair / std::tuple
 *     (RX_ARRAY of their items), std::shared_ptr<U> (RX_OBJECT holding the shared_ptr;
 *     read back as the same U only), U* (RX_PTR, never owned), observable<U>
 *     (RX_OBSERVABLE), and rx::value (any rx_value, untyped). A value of the wrong kind
 *     reaching a typed callback fails the stream with RX_ERROR_TYPE.
 *   - Errors: a failing call (a status other than RX_OK, or NULL where a handle was due)
 *     throws rx::error with the status and rx_last_error()'s message. A stream's error
 *     reaches on_error callbacks as an rx::error (status RX_ESTREAM, the rx_error's code and
 *     message). An exception thrown by a callback becomes the stream's error: an rx::error
 *     keeps its code, any other exception is RX_ERROR_UNKNOWN with what() as the message.
 *     An exception thrown by a subscriber's on_next goes to that subscriber's on_error and
 *     disposes its subscription. Where no stream can take an error (on_error and
 *     on_completed themselves, taps, scheduled actions, equality functions, on_dropped,
 *     debug sinks, disposal actions) an escaping exception calls std::terminate, as one
 *     escaping a std::thread does.
 *   - Operators as methods (src.map(f).filter(p)) and as pipes, as RxCpp writes them:
 *     `using namespace rx::operators; src | map(f) | filter(p)`.
 *   - subscription: the token of a subscription (or of scheduled work); it disposes on
 *     destruction unless detach()ed. composite_subscription, serial_subscription,
 *     single_assignment_subscription and dispose_bag hold several.
 *
 * Where things are (rxc.h's sections):
 *   values         rx::value, rx::value_traits<T>
 *   errors         rx::error
 *   subscriptions  observable<T>::subscribe(on_next[, on_error][, on_completed]) -> subscription;
 *                  composite_subscription, serial_subscription, single_assignment_subscription,
 *                  dispose_bag, subscription::create(f)
 *   creating       rx::create<T>(f(emitter<T>&)), just, of, from, range, empty, never,
 *                  throw_error, repeat, defer, interval, timer, generate, using_resource
 *   subjects       publish_subject<T>(), behavior_subject(v), replay_subject<T>(n), async_subject,
 *                  publish_relay, behavior_relay, replay_relay
 *   schedulers     scheduler::immediate/current_thread/main/serial/concurrent/operation_queue/
 *                  new_thread/test/custom; schedule, schedule_after, schedule_periodic,
 *                  schedule_recursive; run_loop; rx::main_loop::run/run_for/drain/stop/fd
 *   operators      observable<T> methods, and rx::operators for pipes
 *   traits         as_driver(v).drive(...), as_signal(v).emit(...), as_single / as_maybe /
 *                  as_completable, subscribe_single / _maybe / _completable
 *   blocking       to_vector(), first(), last(), single_value() (timeout_ns, default none)
 *   marbles        marble_cold, marble_hot, marble_expect
 *
 * Threads: exactly as rxc.h says; this layer adds no locks. Callbacks of one subscription
 * never run concurrently, so a lambda's captured state needs no lock of its own unless it is
 * shared with other threads. A Driver delivers on the main thread while it runs
 * rx::main_loop (or the program's own loop polls rx::main_loop::fd() and calls drain()).
 *
 * Cost: per event, a typed callback is one indirect call through a static thunk, plus a kind
 * check for the conversion (plain kinds are read inline; boxed kinds cost what rxc.h's
 * accessors cost). Per subscription, the observer's state is one allocation and the token is
 * retained once (so an on_next that throws can dispose its own subscription).
 *
 * Times are int64_t nanoseconds, as in rxc.h. Everything in rxc.h is reachable: handles
 * expose get() (borrowed raw pointer) and release() (the owned raw pointer), and
 * Tests/cpp/unwrapped.txt lists each rxc.h function this header does not call, and why.
 *
 *     #include <rxc.hpp>
 *     auto sub = rx::range(1, 10)
 *                    .map([](int64_t x) { return x * x; })
 *                    .filter([](int64_t x) { return x % 2 == 1; })
 *                    .subscribe([](int64_t x) { std::printf("%lld\n", (long long)x); });
 */
#ifndef RXC_HPP
#define RXC_HPP

#include <atomic>
#include <cstdint>
#include <cstring>
#include <exception>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "rxc.h"

#if __cplusplus < 201703L && !(defined(_MSVC_LANG) && _MSVC_LANG >= 201703L)
#error "rxc.hpp needs C++17"
#endif

namespace rx {

// ---------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------

/**
 * The exception of this API. status() is the rx_status of a failed call (RX_EINVAL,
 * RX_EHANDLE, RX_ESTATE, RX_EDISPOSED, RX_ETIMEOUT) or RX_ESTREAM for a stream's error;
 * code() is the stream error's code (RX_ERROR_*, or yours from RX_ERROR_USER on), 0 for a
 * failed call. Throw one from a callback to fail the stream with that code.
 */
class error : public std::exception {
 public:
  error(int32_t code, std::string message, rx_status status = RX_ESTREAM)
      : code_(code), status_(status), message_(std::move(message)) {}
  int32_t code() const noexcept { return code_; }
  rx_status status() const noexcept { return status_; }
  const char *what() const noexcept override { return message_.c_str(); }
  const std::string &message() const noexcept { return message_; }

  /** The error of a stream (borrowed rx_error) as an rx::error. */
  static error from(const rx_error *e) {
    const char *m = rx_error_message(e);
    return error(rx_error_code(e), m ? m : "", RX_ESTREAM);
  }
  /** A new owned rx_error with this code (RX_ERROR_UNKNOWN for a failed call's 0). */
  rx_error *make() const noexcept { return rx_error_new(code_ ? code_ : RX_ERROR_UNKNOWN, message_.c_str()); }
  /** The last failed call of this thread, as an exception to throw. */
  static error last(rx_status status) {
    return error(0, std::string(rx_status_string(status)) + ": " + rx_last_error(), status);
  }

 private:
  int32_t code_;
  rx_status status_;
  std::string message_;
};

namespace detail {

[[noreturn]] inline void throw_last(rx_status s = RX_EINVAL) { throw error::last(s); }
inline void check(rx_status s) {
  if (s != RX_OK) throw_last(s);
}
template <class P>
P *check_ptr(P *p) {
  if (!p) throw_last(RX_EINVAL);
  return p;
}

// The exception being handled (inside a catch block) as a new owned rx_error.
inline rx_error *current_error() noexcept {
  try {
    throw;
  } catch (const error &e) {
    return e.make();
  } catch (const std::exception &e) {
    return rx_error_new(RX_ERROR_UNKNOWN, e.what());
  } catch (...) {
    return rx_error_new(RX_ERROR_UNKNOWN, "unknown C++ exception");
  }
}

// Calls f, or std::terminate if it throws: for callbacks where no stream can take an error.
template <class F, class... A>
void call_noexcept(F &f, A &&...a) noexcept {
  f(std::forward<A>(a)...);
}

inline rx_value none() noexcept {
  rx_value v;
  v.kind = RX_NONE;
  v.i = 0;
  return v;
}
inline bool is_boxed(rx_value v) noexcept { return v.kind >= RX_STRING; }
inline void release_value(rx_value v) noexcept {
  if (is_boxed(v)) rx_value_release(v);
}
inline rx_value retain_value(rx_value v) noexcept {
  if (is_boxed(v)) rx_value_retain(v);
  return v;
}

// Frees a callable moved to the heap (every ctx_free of this header).
template <class F>
void free_box(void *p) noexcept {
  delete static_cast<F *>(p);
}

// Moves f to the heap; the pointer goes to the library (or is deleted if the call failed).
template <class F>
std::unique_ptr<std::decay_t<F>> box(F &&f) {
  return std::unique_ptr<std::decay_t<F>>(new std::decay_t<F>(std::forward<F>(f)));
}

[[noreturn]] inline void throw_type(rx_kind want, rx_kind got) {
  static const char *const names[] = {"none", "int", "double", "bool", "ptr", "string",
                                      "bytes", "array", "object", "observable", "event"};
  auto name = [](rx_kind k) { return (unsigned)k <= RX_EVENT ? names[k] : "?"; };
  throw error(RX_ERROR_TYPE, std::string("rx: expected a value of kind ") + name(want) + ", got " + name(got));
}
inline void expect(rx_value v, rx_kind k) {
  if (v.kind != k) throw_type(k, v.kind);
}

struct noop {
  template <class... A>
  void operator()(A &&...) const noexcept {}
};
template <class F>
constexpr bool is_noop = std::is_same<std::decay_t<F>, noop>::value;

}  // namespace detail

// ---------------------------------------------------------------------------------------
// Handles
// ---------------------------------------------------------------------------------------

namespace detail {
/** Owns one reference to a handle of type H; move-only. */
template <class H>
class handle {
 public:
  handle() noexcept = default;
  explicit handle(H *adopted) noexcept : p_(adopted) {}
  handle(handle &&o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  handle &operator=(handle &&o) noexcept {
    if (this != &o) {
      reset();
      p_ = o.p_;
      o.p_ = nullptr;
    }
    return *this;
  }
  handle(const handle &) = delete;
  handle &operator=(const handle &) = delete;
  ~handle() { reset(); }

  /** The raw handle, borrowed. */
  H *get() const noexcept { return p_; }
  /** Gives up ownership: the caller must rx_release the result. */
  H *release() noexcept {
    H *p = p_;
    p_ = nullptr;
    return p;
  }
  explicit operator bool() const noexcept { return p_ != nullptr; }
  void reset() noexcept {
    if (p_) rx_release(p_);
    p_ = nullptr;
  }

 protected:
  H *retained() const { return static_cast<H *>(check_ptr(rx_retain(p_))); }
  H *p_ = nullptr;
};
}  // namespace detail

template <class T>
class observable;
template <class T>
struct value_traits;

/** Any rx_value, owned: an untyped stream carries observable<value>. */
class value {
 public:
  value() noexcept : v_(detail::none()) {}
  /** Takes an owned rx_value. */
  static value adopt(rx_value v) noexcept { return value(v); }
  /** Retains a borrowed rx_value. */
  static value borrow(rx_value v) noexcept { return value(detail::retain_value(v)); }
  /** The value of x, through value_traits<T>. */
  template <class T>
  static value of(T &&x) {
    return value(value_traits<std::decay_t<T>>::to(std::forward<T>(x)));
  }
  static value bytes(const void *data, size_t len) { return value(rx_bytes(data, len)); }

  value(value &&o) noexcept : v_(o.v_) { o.v_ = detail::none(); }
  value &operator=(value &&o) noexcept {
    if (this != &o) {
      detail::release_value(v_);
      v_ = o.v_;
      o.v_ = detail::none();
    }
    return *this;
  }
  value(const value &) = delete;
  value &operator=(const value &) = delete;
  ~value() { detail::release_value(v_); }
  value retain() const noexcept { return borrow(v_); }

  rx_kind kind() const noexcept { return v_.kind; }
  bool is_none() const noexcept { return v_.kind == RX_NONE; }
  /** Reads the value as T (throws rx::error RX_ERROR_TYPE for another kind). */
  template <class T>
  T as() const {
    return value_traits<T>::from(v_);
  }
  /** The bytes of an RX_BYTES value, borrowed from it. */
  std::pair<const void *, size_t> as_bytes() const {
    detail::expect(v_, RX_BYTES);
    size_t n = 0;
    const void *p = rx_value_bytes(v_, &n);
    return {p, n};
  }
  size_t array_count() const { return rx_array_count(v_); }
  value array_item(size_t i) const { return borrow(rx_array_get(v_, i)); }
  /** For RX_EVENT values (materialize, retry_when): the event's kind, value, error. */
  rx_event_kind event_kind() const noexcept { return rx_value_event_kind(v_); }
  value event_value() const { return borrow(rx_value_event_value(v_)); }
  error event_error() const {
    const rx_error *e = rx_value_event_error(v_);
    if (!e) detail::throw_last(RX_EINVAL);
    return error::from(e);
  }
  bool operator==(const value &o) const noexcept { return rx_value_equal(v_, o.v_); }
  bool operator!=(const value &o) const noexcept { return !rx_value_equal(v_, o.v_); }

  /** The rx_value, borrowed. */
  rx_value get() const noexcept { return v_; }
  /** Gives up ownership of the rx_value. */
  rx_value release() noexcept {
    rx_value v = v_;
    v_ = detail::none();
    return v;
  }

 private:
  explicit value(rx_value v) noexcept : v_(v) {}
  rx_value v_;
};

/**
 * A subscription token (or a scheduled action's token, or any rx_disposable): disposes on
 * destruction, unless detach()ed. Move-only.
 */
class [[nodiscard]] subscription : public detail::handle<rx_disposable> {
 public:
  subscription() noexcept = default;
  explicit subscription(rx_disposable *adopted) noexcept : handle(adopted) {}
  subscription(subscription &&) noexcept = default;
  subscription &operator=(subscription &&o) noexcept {
    if (this != &o) {
      dispose();
      p_ = o.p_;
      o.p_ = nullptr;
    }
    return *this;
  }
  ~subscription() { dispose(); }

  /** A disposable that runs f() once, on the first dispose. */
  template <class F>
  static subscription create(F &&f) {
    using B = std::decay_t<F>;
    auto b = detail::box(std::forward<F>(f));
    rx_disposable *d = rx_disposable_create([](void *c) noexcept { detail::call_noexcept(*static_cast<B *>(c)); },
                                            b.get(), &detail::free_box<B>);
    detail::check_ptr(d);
    b.release();
    return subscription(d);
  }
  /** Ends the subscription now (no-op when already disposed or empty). */
  void dispose() noexcept {
    if (p_) rx_dispose(p_);
    p_ = nullptr;
  }
  /** Lets the subscription run on: releases the token without disposing. */
  void detach() noexcept { reset(); }
  bool is_disposed() const noexcept { return !p_ || rx_disposable_is_disposed(p_); }
  /** A second token for the same subscription (disposing either ends it). */
  subscription retain() const { return subscription(retained()); }
};

namespace detail {
template <rx_disposable *(*Make)(), rx_status (*Set)(rx_disposable *, rx_disposable *)>
class container : public subscription {
 public:
  container() : subscription(check_ptr(Make())) {}
  /** Disposes what it holds; the container stays (what is added later is disposed at once). */
  void dispose() noexcept {
    if (p_ && rx_retain(p_)) rx_dispose(p_);
  }
  void put(subscription &&s) {
    rx_disposable *d = s.release();
    if (!d) return;
    rx_status st = Set(p_, d);
    if (st != RX_OK) {
      rx_dispose(d);
      throw_last(st);
    }
  }
};
}  // namespace detail

/** Disposes everything added, when disposed or destroyed; adding to a disposed one disposes. */
class composite_subscription
    : public detail::container<rx_composite_disposable_new, rx_composite_disposable_add> {
 public:
  void add(subscription &&s) { put(std::move(s)); }
};
/** Holds one subscription; setting another disposes the previous one. */
class serial_subscription : public detail::container<rx_serial_disposable_new, rx_serial_disposable_set> {
 public:
  void set(subscription &&s) { put(std::move(s)); }
};
/** Holds one subscription, set once (a second set throws RX_ESTATE). */
class single_assignment_subscription
    : public detail::container<rx_single_assignment_disposable_new, rx_single_assignment_disposable_set> {
 public:
  void set(subscription &&s) { put(std::move(s)); }
};

/** RxSwift's DisposeBag: drain() disposes what it holds and stays usable; so does destruction. */
class dispose_bag : public detail::handle<rx_dispose_bag> {
 public:
  dispose_bag() : handle(detail::check_ptr(rx_dispose_bag_new())) {}
  void add(subscription &&s) {
    rx_disposable *d = s.release();
    if (!d) return;
    rx_status st = rx_dispose_bag_add(p_, d);
    if (st != RX_OK) {
      rx_dispose(d);
      detail::throw_last(st);
    }
  }
  void drain() { detail::check(rx_dispose_bag_drain(p_)); }
};
inline dispose_bag &operator+=(dispose_bag &bag, subscription &&s) {
  bag.add(std::move(s));
  return bag;
}

// ---------------------------------------------------------------------------------------
// Schedulers and run loops
// ---------------------------------------------------------------------------------------

/** The token of a recursive action (schedule_recursive): run it again. */
class recursion {
 public:
  explicit recursion(rx_disposable *self) noexcept : self_(self) {}
  /** One more run, as soon as the scheduler can; false once the chain ended or was disposed. */
  bool recurse() const noexcept { return rx_recurse(self_) == RX_OK; }
  bool recurse_after(int64_t delay_ns) const noexcept { return rx_recurse_after(self_, delay_ns) == RX_OK; }
  rx_disposable *get() const noexcept { return self_; }

 private:
  rx_disposable *self_;
};

class scheduler : public detail::handle<rx_scheduler> {
 public:
  scheduler() noexcept = default;
  explicit scheduler(rx_scheduler *adopted) noexcept : handle(adopted) {}
  static scheduler borrow(rx_scheduler *s) { return scheduler(static_cast<rx_scheduler *>(detail::check_ptr(rx_retain(s)))); }
  scheduler retain() const { return scheduler(retained()); }

  /** The shared schedulers (retain/release are no-ops on them). */
  static scheduler immediate() noexcept { return scheduler(rx_scheduler_immediate()); }
  static scheduler current_thread() noexcept { return scheduler(rx_scheduler_current_thread()); }
  static scheduler main() noexcept { return scheduler(rx_scheduler_main()); }
  static scheduler serial(const char *label = nullptr) { return make(rx_scheduler_serial_new(label)); }
  static scheduler concurrent(const char *label = nullptr) { return make(rx_scheduler_concurrent_new(label)); }
  static scheduler operation_queue(const char *label, int max_concurrent) {
    return make(rx_scheduler_operation_queue_new(label, max_concurrent));
  }
  static scheduler new_thread() { return make(rx_scheduler_new_thread()); }
  /** A virtual-time test scheduler (advance_to, advance_by, run). */
  static scheduler test() { return make(rx_test_scheduler_new()); }
  /** A scheduler backed by your own functions (rxc.h's rx_scheduler_vtable, as is). */
  static scheduler custom(const rx_scheduler_vtable &vt, void *ctx, rx_free_fn ctx_free) {
    return make(rx_scheduler_custom_new(&vt, ctx, ctx_free));
  }

  /** Runs f() on the scheduler; destroying the token before it ran cancels it. */
  template <class F>
  subscription schedule(F &&f) const {
    return action(std::forward<F>(f), [this](rx_action_fn a, void *c, rx_free_fn fr) { return rx_schedule(p_, a, c, fr); });
  }
  template <class F>
  subscription schedule_after(int64_t delay_ns, F &&f) const {
    return action(std::forward<F>(f),
                  [&](rx_action_fn a, void *c, rx_free_fn fr) { return rx_schedule_after(p_, delay_ns, a, c, fr); });
  }
  template <class F>
  subscription schedule_periodic(int64_t start_after_ns, int64_t period_ns, F &&f) const {
    return action(std::forward<F>(f), [&](rx_action_fn a, void *c, rx_free_fn fr) {
      return rx_schedule_periodic(p_, start_after_ns, period_ns, a, c, fr);
    });
  }
  /** Runs f(recursion&) now, and again each time it calls recurse() / recurse_after(). */
  template <class F>
  subscription schedule_recursive(F &&f) const {
    using B = std::decay_t<F>;
    auto b = detail::box(std::forward<F>(f));
    rx_disposable *d = rx_schedule_recursive(
        p_,
        [](void *c, rx_disposable *self) noexcept {
          recursion r(self);
          detail::call_noexcept(*static_cast<B *>(c), r);
        },
        b.get(), &detail::free_box<B>);
    detail::check_ptr(d);
    b.release();
    return subscription(d);
  }

  int64_t now_ns() const noexcept { return rx_scheduler_now_ns(p_); }
  bool is_serial() const noexcept { return rx_scheduler_is_serial(p_); }
  /** Test schedulers only. */
  void advance_to(int64_t time_ns) const { detail::check(rx_test_scheduler_advance_to(p_, time_ns)); }
  void advance_by(int64_t delta_ns) const { detail::check(rx_test_scheduler_advance_by(p_, delta_ns)); }
  void run() const { detail::check(rx_test_scheduler_run(p_)); }

 private:
  static scheduler make(rx_scheduler *s) { return scheduler(detail::check_ptr(s)); }
  template <class F, class Call>
  static subscription action(F &&f, Call &&call) {
    using B = std::decay_t<F>;
    auto b = detail::box(std::forward<F>(f));
    rx_disposable *d =
        call([](void *c) noexcept { detail::call_noexcept(*static_cast<B *>(c)); }, b.get(), &detail::free_box<B>);
    detail::check_ptr(d);
    b.release();
    return subscription(d);
  }
};

/** A run loop: a serial scheduler whose work runs on the one thread that drives it. */
class run_loop : public detail::handle<rx_run_loop> {
 public:
  run_loop() : handle(detail::check_ptr(rx_run_loop_new())) {}
  /** The main thread's loop (shared; never released). */
  static run_loop main() noexcept { return run_loop(rx_run_loop_main()); }
  run_loop retain() const { return run_loop(retained()); }
  /** The loop's scheduler (a second owner of it). */
  rx::scheduler scheduler() const { return rx::scheduler::borrow(detail::check_ptr(rx_run_loop_scheduler(p_))); }
  int fd() const noexcept { return rx_run_loop_fd(p_); }
  size_t drain() const noexcept { return rx_run_loop_drain(p_); }
  void run() const { detail::check(rx_run_loop_run(p_)); }
  void run_for(int64_t timeout_ns) const { detail::check(rx_run_loop_run_for(p_, timeout_ns)); }
  void stop() const { detail::check(rx_run_loop_stop(p_)); }

 private:
  explicit run_loop(rx_run_loop *adopted) noexcept : handle(adopted) {}
};

/** The main loop (rx_main_*): run it on the main thread to receive main-scheduler work. */
namespace main_loop {
inline void run() { detail::check(rx_main_run()); }
inline void run_for(int64_t timeout_ns) { detail::check(rx_main_run_for(timeout_ns)); }
inline size_t drain() noexcept { return rx_main_drain(); }
inline void stop() noexcept { rx_main_stop(); }
inline int fd() noexcept { return rx_main_fd(); }
}  // namespace main_loop

inline const char *version() noexcept { return rx_version(); }
inline int64_t live_objects() noexcept { return rx_debug_live_objects(); }

// ---------------------------------------------------------------------------------------
// Value conversions: value_traits<T>::to (T -> owned rx_value), ::from (borrowed -> T)
// ---------------------------------------------------------------------------------------

template <class T>
struct value_traits {
  static_assert(sizeof(T) == 0, "rx: no value_traits for this type (use rx::value, std::shared_ptr<T> or specialize rx::value_traits)");
};

template <>
struct value_traits<value> {
  static rx_value to(value &&v) noexcept { return v.release(); }
  static rx_value to(const value &v) noexcept { return detail::retain_value(v.get()); }
  static value from(rx_value v) noexcept { return value::borrow(v); }
};

namespace detail {
template <class T>
struct int_traits {
  static constexpr rx_kind kind = RX_INT;
  static T unchecked(rx_value v) noexcept { return static_cast<T>(v.i); }
  static rx_value to(T x) noexcept {
    rx_value v;
    v.kind = RX_INT;
    v.i = static_cast<int64_t>(x);
    return v;
  }
  static T from(rx_value v) {
    if (v.kind != RX_INT) throw_type(RX_INT, v.kind);
    return static_cast<T>(v.i);
  }
};
template <class T>
struct float_traits {
  static constexpr rx_kind kind = RX_DOUBLE;
  static T unchecked(rx_value v) noexcept {
    double d;
    std::memcpy(&d, &v.i, sizeof d);
    return static_cast<T>(d);
  }
  static rx_value to(T x) noexcept {
    double d = static_cast<double>(x);
    rx_value v;
    v.kind = RX_DOUBLE;
    std::memcpy(&v.i, &d, sizeof d);
    return v;
  }
  static T from(rx_value v) {
    if (v.kind != RX_DOUBLE) throw_type(RX_DOUBLE, v.kind);
    double d;
    std::memcpy(&d, &v.i, sizeof d);
    return static_cast<T>(d);
  }
};
}  // namespace detail

template <>
struct value_traits<signed char> : detail::int_traits<signed char> {};
template <>
struct value_traits<unsigned char> : detail::int_traits<unsigned char> {};
template <>
struct value_traits<short> : detail::int_traits<short> {};
template <>
struct value_traits<unsigned short> : detail::int_traits<unsigned short> {};
template <>
struct value_traits<int> : detail::int_traits<int> {};
template <>
struct value_traits<unsigned> : detail::int_traits<unsigned> {};
template <>
struct value_traits<long> : detail::int_traits<long> {};
template <>
struct value_traits<unsigned long> : detail::int_traits<unsigned long> {};
template <>
struct value_traits<long long> : detail::int_traits<long long> {};
template <>
struct value_traits<unsigned long long> : detail::int_traits<unsigned long long> {};
template <>
struct value_traits<float> : detail::float_traits<float> {};
template <>
struct value_traits<double> : detail::float_traits<double> {};

template <>
struct value_traits<bool> {
  static constexpr rx_kind kind = RX_BOOL;
  static bool unchecked(rx_value v) noexcept { return v.i != 0; }
  static rx_value to(bool b) noexcept {
    rx_value v;
    v.kind = RX_BOOL;
    v.i = b ? 1 : 0;
    return v;
  }
  static bool from(rx_value v) {
    detail::expect(v, RX_BOOL);
    return v.i != 0;
  }
};

/** RX_STRING holds NUL-terminated UTF-8: a std::string travels up to its first NUL (binary
 * data: value::bytes). */
template <>
struct value_traits<std::string> {
  static rx_value to(const std::string &s) { return rx_string(s.c_str()); }
  static std::string from(rx_value v) {
    detail::expect(v, RX_STRING);
    return std::string(rx_value_string(v));
  }
};

/** C strings travel as RX_STRING (copied); read back, the text is borrowed for the call. */
template <>
struct value_traits<const char *> {
  static rx_value to(const char *s) { return rx_string(s); }
  static const char *from(rx_value v) {
    detail::expect(v, RX_STRING);
    return rx_value_string(v);
  }
};
template <>
struct value_traits<char *> : value_traits<const char *> {};

/** Raw pointers travel as RX_PTR: never owned, never freed by the library. */
template <class U>
struct value_traits<U *> {
  static constexpr rx_kind kind = RX_PTR;
  static U *unchecked(rx_value v) noexcept { return reinterpret_cast<U *>(static_cast<intptr_t>(v.i)); }
  static rx_value to(U *p) noexcept {
    rx_value v;
    v.kind = RX_PTR;
    v.i = static_cast<int64_t>(reinterpret_cast<intptr_t>(p));
    return v;
  }
  static U *from(rx_value v) {
    detail::expect(v, RX_PTR);
    return reinterpret_cast<U *>(static_cast<intptr_t>(v.i));
  }
};

namespace detail {
// An RX_OBJECT made by this header: the shared_ptr and the type it was made with.
struct object_holder {
  const std::type_info *type;
  std::shared_ptr<void> ptr;
};
}  // namespace detail

/** Any C++ object by std::shared_ptr: the RX_OBJECT holds a reference; read back as the same U. */
template <class U>
struct value_traits<std::shared_ptr<U>> {
  static rx_value to(std::shared_ptr<U> p) {
    auto *h = new detail::object_holder{&typeid(U), std::shared_ptr<void>(std::move(p))};
    rx_value v = rx_object(h, &detail::free_box<detail::object_holder>);
    if (v.kind != RX_OBJECT) {
      delete h;
      detail::throw_last(RX_EINVAL);
    }
    return v;
  }
  static std::shared_ptr<U> from(rx_value v) {
    detail::expect(v, RX_OBJECT);
    auto *h = static_cast<detail::object_holder *>(rx_object_data(v));
    if (!h || *h->type != typeid(U)) throw error(RX_ERROR_TYPE, "rx: an object of another type");
    return std::static_pointer_cast<U>(h->ptr);
  }
};

namespace detail {
// An array value built from converted items (rx_array retains them; ours are released).
struct array_builder {
  std::vector<rx_value> items;
  ~array_builder() {
    for (rx_value v : items) release_value(v);
  }
  rx_value make() const { return rx_array(items.data(), items.size()); }
};
}  // namespace detail

template <class U, class A>
struct value_traits<std::vector<U, A>> {
  static rx_value to(const std::vector<U, A> &xs) {
    detail::array_builder b;
    b.items.reserve(xs.size());
    for (const U &x : xs) b.items.push_back(value_traits<U>::to(x));
    return b.make();
  }
  static std::vector<U, A> from(rx_value v) {
    detail::expect(v, RX_ARRAY);
    size_t n = rx_array_count(v);
    std::vector<U, A> out;
    out.reserve(n);
    for (size_t i = 0; i < n; i++) out.push_back(value_traits<U>::from(rx_array_get(v, i)));
    return out;
  }
};

template <class... U>
struct value_traits<std::tuple<U...>> {
  static rx_value to(const std::tuple<U...> &t) {
    detail::array_builder b;
    b.items.reserve(sizeof...(U));
    std::apply([&](const U &...x) { (b.items.push_back(value_traits<U>::to(x)), ...); }, t);
    return b.make();
  }
  static std::tuple<U...> from(rx_value v) { return from_items(v, std::index_sequence_for<U...>{}); }
  template <size_t... I>
  static std::tuple<U...> from_items(rx_value v, std::index_sequence<I...>) {
    detail::expect(v, RX_ARRAY);
    if (rx_array_count(v) != sizeof...(U)) throw error(RX_ERROR_TYPE, "rx: an array of another length");
    return std::tuple<U...>(value_traits<U>::from(rx_array_get(v, I))...);
  }
};
template <class A, class B>
struct value_traits<std::pair<A, B>> {
  static rx_value to(const std::pair<A, B> &p) { return value_traits<std::tuple<A, B>>::to(std::tuple<A, B>(p.first, p.second)); }
  static std::pair<A, B> from(rx_value v) {
    auto t = value_traits<std::tuple<A, B>>::from(v);
    return {std::move(std::get<0>(t)), std::move(std::get<1>(t))};
  }
};

namespace detail {
template <class T>
rx_value to_value(T &&x) {
  return value_traits<std::decay_t<T>>::to(std::forward<T>(x));
}
template <class T>
T from_value(rx_value v) {
  return value_traits<T>::from(v);
}
// An owned rx_value released at scope exit (values handed to the library as borrowed).
struct temp_value {
  rx_value v;
  temp_value(rx_value x) noexcept : v(x) {}
  temp_value(temp_value &&o) noexcept : v(o.v) { o.v = none(); }
  temp_value(const temp_value &) = delete;
  temp_value &operator=(const temp_value &) = delete;
  ~temp_value() { release_value(v); }
};
template <class T>
temp_value temp(T &&x) {
  return temp_value{to_value(std::forward<T>(x))};
}

// The per-event path of a thunk: for plain kinds (value_traits with `kind` and `unchecked`)
// the kind is checked inline and a mismatch goes to an out-of-line function, so a thunk
// whose callable cannot throw needs no stack frame.
template <class T, class = void>
struct fast_read : std::false_type {};
template <class T>
struct fast_read<T, std::void_t<decltype(value_traits<T>::kind)>> : std::true_type {};
template <class T>
inline bool kind_ok(rx_value v) noexcept {
  if constexpr (fast_read<T>::value)
    return v.kind == value_traits<T>::kind;
  else
    return true;
}
template <class T>
inline T read(rx_value v) {
  if constexpr (fast_read<T>::value)
    return value_traits<T>::unchecked(v);
  else
    return value_traits<T>::from(v);
}
#if defined(__GNUC__) || defined(__clang__)
#define RXC_HPP_COLD __attribute__((noinline, cold))
#else
#define RXC_HPP_COLD
#endif
// A kind mismatch for T as a new owned rx_error (RX_ERROR_TYPE).
template <class T>
RXC_HPP_COLD rx_error *kind_error(rx_value v) noexcept {
  try {
    (void)value_traits<T>::from(v);
    return rx_error_new(RX_ERROR_TYPE, "rx: a value of another kind");
  } catch (...) {
    return current_error();
  }
}
}  // namespace detail

// ---------------------------------------------------------------------------------------
// Observers: the state behind one subscription
// ---------------------------------------------------------------------------------------

namespace detail {
inline rx_disposable *token_failed() noexcept { return reinterpret_cast<rx_disposable *>(uintptr_t(1)); }
inline rx_disposable *token_done() noexcept { return reinterpret_cast<rx_disposable *>(uintptr_t(2)); }
inline bool token_real(rx_disposable *t) noexcept { return reinterpret_cast<uintptr_t>(t) > 2; }

// The callbacks of one subscriber. Owned by two references: the library's (dropped in
// on_disposed) and subscribe()'s (dropped when it returns). `token` holds a retained
// token so an on_next that throws can dispose its own subscription.
template <class T, class N, class E, class C>
struct observer_state {
  N n;
  E e;
  C c;
  std::atomic<int> refs{2};
  std::atomic<rx_disposable *> token{nullptr};
  bool failed = false;  // written and read only inside this subscription's callbacks

  observer_state(N n_, E e_, C c_) : n(std::move(n_)), e(std::move(e_)), c(std::move(c_)) {}

  void unref() noexcept {
    if (refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
  // The exception being handled ends the subscription: on_error, then dispose.
  void fail() noexcept {
    failed = true;
    rx_error *err = current_error();
    {
      struct guard {
        rx_error *e;
        ~guard() { rx_release(e); }
      } g{err};
      call_noexcept(e, error::from(err));
    }
    rx_disposable *t = token.exchange(token_failed(), std::memory_order_acq_rel);
    if (token_real(t)) rx_dispose(t);
  }
  void attach(rx_disposable *d) noexcept {
    rx_disposable *r = static_cast<rx_disposable *>(rx_retain(d));
    rx_disposable *expected = nullptr;
    if (!token.compare_exchange_strong(expected, r, std::memory_order_acq_rel)) {
      if (expected == token_failed())
        rx_dispose(r);
      else
        rx_release(r);
    }
  }

  static void on_next(void *ctx, rx_value v) noexcept {
    auto *s = static_cast<observer_state *>(ctx);
    if (s->failed) return;
    if (!kind_ok<T>(v)) return s->fail_kind(v);
    try {
      s->n(read<T>(v));
    } catch (...) {
      s->fail();
    }
  }
  RXC_HPP_COLD void fail_kind(rx_value v) noexcept {
    try {
      (void)value_traits<T>::from(v);
    } catch (...) {
      fail();
    }
  }
  static void on_error(void *ctx, const rx_error *err) noexcept {
    auto *s = static_cast<observer_state *>(ctx);
    if (!s->failed) call_noexcept(s->e, error::from(err));
  }
  static void on_completed(void *ctx) noexcept {
    auto *s = static_cast<observer_state *>(ctx);
    if (!s->failed) call_noexcept(s->c);
  }
  static void on_disposed(void *ctx) noexcept {
    auto *s = static_cast<observer_state *>(ctx);
    rx_disposable *t = s->token.exchange(token_done(), std::memory_order_acq_rel);
    if (token_real(t)) rx_release(t);
    s->unref();
  }
  rx_observer observer() noexcept {
    rx_observer o;
    o.on_next = is_noop<N> ? nullptr : &on_next;
    o.on_error = &on_error;
    o.on_completed = is_noop<C> ? nullptr : &on_completed;
    o.on_disposed = &on_disposed;
    o.ctx = this;
    return o;
  }
};

}  // namespace detail
template <class T>
class subject;
namespace detail {

// subscribe through `Sub` (rx_subscribe, rx_drive, rx_emit) with the three callables.
template <class T, class N, class E, class C>
subscription subscribe_with(rx_disposable *(*sub)(rx_observable *, rx_observer), rx_observable *src, N &&n, E &&e,
                            C &&c) {
  using S = observer_state<T, std::decay_t<N>, std::decay_t<E>, std::decay_t<C>>;
  auto *s = new S(std::forward<N>(n), std::forward<E>(e), std::forward<C>(c));
  rx_disposable *d = sub(src, s->observer());
  if (!d) {
    delete s;  // no callback ever runs after a NULL
    throw_last(RX_EINVAL);
  }
  s->attach(d);
  s->unref();
  return subscription(d);
}

// Picks (on_next, on_error, on_completed) from subscribe's arguments: the second callable
// is on_completed when it takes no argument.
template <class T, class N, class X>
subscription subscribe2(rx_disposable *(*sub)(rx_observable *, rx_observer), rx_observable *src, N &&n, X &&x) {
  if constexpr (std::is_invocable<X &>::value)
    return subscribe_with<T>(sub, src, std::forward<N>(n), noop{}, std::forward<X>(x));
  else
    return subscribe_with<T>(sub, src, std::forward<N>(n), std::forward<X>(x), noop{});
}

template <class T>
struct is_subject : std::false_type {};
template <class T>
struct is_subject<subject<T>> : std::true_type {};
template <class T>
struct is_observable : std::false_type {};
template <class T>
struct is_observable<observable<T>> : std::true_type {};
}  // namespace detail

template <class T>
class subject;
template <class T>
class connectable_observable;
template <class K, class T>
class grouped_observable;

/** Options of observe_on_bounded / pausable_buffered / rate_limit (rxc.h's rx_flow_options). */
struct flow_options {
  size_t capacity = 1;
  rx_overflow_policy policy = RX_OVERFLOW_DROP_OLDEST;
  int64_t block_timeout_ns = INT64_MAX;  // RX_OVERFLOW_BLOCK only
};


// ---------------------------------------------------------------------------------------
// observable<T>
// ---------------------------------------------------------------------------------------

template <class T>
class observable : public detail::handle<rx_observable> {
 public:
  using value_type = T;
  observable() noexcept = default;
  explicit observable(rx_observable *adopted) noexcept : handle(adopted) {}
  /** Takes an owned rx_observable * (throws for NULL: the call that made it failed). */
  static observable adopt(rx_observable *o) { return observable(detail::check_ptr(o)); }
  /** Retains a borrowed rx_observable *. */
  static observable borrow(rx_observable *o) {
    return observable(static_cast<rx_observable *>(detail::check_ptr(rx_retain(o))));
  }
  observable retain() const { return observable(retained()); }
  /** The same stream seen with another element type (no conversion happens here). */
  template <class U>
  observable<U> as() const {
    return observable<U>(retained());
  }

  // ---- subscribing ----
  /** on_next(T); on_next, on_error(const rx::error&); on_next, on_completed(); or all three. */
  template <class N, std::enable_if_t<!detail::is_subject<std::decay_t<N>>::value, int> = 0>
  subscription subscribe(N &&n) const {
    return detail::subscribe_with<T>(rx_subscribe, p_, std::forward<N>(n), detail::noop{}, detail::noop{});
  }
  template <class N, class X>
  subscription subscribe(N &&n, X &&x) const {
    return detail::subscribe2<T>(rx_subscribe, p_, std::forward<N>(n), std::forward<X>(x));
  }
  template <class N, class E, class C>
  subscription subscribe(N &&n, E &&e, C &&c) const {
    return detail::subscribe_with<T>(rx_subscribe, p_, std::forward<N>(n), std::forward<E>(e), std::forward<C>(c));
  }
  /** Feeds a subject (its on_next / on_error / on_completed). */
  subscription subscribe(const subject<T> &s) const;

  /** For as_driver() observables: subscribe, callbacks on the main thread. */
  template <class N, class... X>
  subscription drive(N &&n, X &&...x) const {
    return sub_via(rx_drive, std::forward<N>(n), std::forward<X>(x)...);
  }
  /** For as_signal() observables: subscribe, callbacks on the main thread. */
  template <class N, class... X>
  subscription emit(N &&n, X &&...x) const {
    return sub_via(rx_emit, std::forward<N>(n), std::forward<X>(x)...);
  }

  /** Subscribes as a Single: on_success(T) or on_error(const error&). */
  template <class S, class E = detail::noop>
  subscription subscribe_single(S &&on_success, E &&on_error = E{}) const {
    return traited<0>(std::forward<S>(on_success), std::forward<E>(on_error), detail::noop{});
  }
  /** Subscribes as a Maybe: on_success(T), on_completed() or on_error(const error&). */
  template <class S, class E = detail::noop, class C = detail::noop>
  subscription subscribe_maybe(S &&on_success, E &&on_error = E{}, C &&on_completed = C{}) const {
    return traited<1>(std::forward<S>(on_success), std::forward<E>(on_error), std::forward<C>(on_completed));
  }
  /** Subscribes as a Completable: on_completed() or on_error(const error&). */
  template <class C, class E = detail::noop>
  subscription subscribe_completable(C &&on_completed, E &&on_error = E{}) const {
    return traited<2>(detail::noop{}, std::forward<E>(on_error), std::forward<C>(on_completed));
  }

  // ---- blocking (programs and tests); timeout_ns < 0 waits for good ----
  std::vector<T> to_vector(int64_t timeout_ns = -1) const {
    rx_value out = detail::none();
    block(rx_blocking_to_array, timeout_ns, &out);
    detail::temp_value t{out};
    return value_traits<std::vector<T>>::from(out);
  }
  T first(int64_t timeout_ns = -1) const { return blocking_one(rx_blocking_first, timeout_ns); }
  T last(int64_t timeout_ns = -1) const { return blocking_one(rx_blocking_last, timeout_ns); }
  T single_value(int64_t timeout_ns = -1) const { return blocking_one(rx_blocking_single, timeout_ns); }

  // ---- scheduling ----
  observable subscribe_on(const scheduler &s) const { return adopt(rx_subscribe_on(p_, s.get())); }
  observable observe_on(const scheduler &s) const { return adopt(rx_observe_on(p_, s.get())); }
  observable observe_on_bounded(const scheduler &s, const flow_options &o) const {
    return flow(o, detail::noop{}, [&](const rx_flow_options *fo) { return rx_observe_on_bounded(p_, s.get(), fo); });
  }
  /** on_dropped(T) runs for each value the policy drops. */
  template <class D>
  observable observe_on_bounded(const scheduler &s, const flow_options &o, D &&on_dropped) const {
    return flow(o, std::forward<D>(on_dropped),
                [&](const rx_flow_options *fo) { return rx_observe_on_bounded(p_, s.get(), fo); });
  }
  observable pausable(const observable<bool> &pauser) const { return adopt(rx_pausable(p_, pauser.get())); }
  observable pausable_buffered(const observable<bool> &pauser, const flow_options &o) const {
    return flow(o, detail::noop{}, [&](const rx_flow_options *fo) { return rx_pausable_buffered(p_, pauser.get(), fo); });
  }
  template <class D>
  observable pausable_buffered(const observable<bool> &pauser, const flow_options &o, D &&on_dropped) const {
    return flow(o, std::forward<D>(on_dropped),
                [&](const rx_flow_options *fo) { return rx_pausable_buffered(p_, pauser.get(), fo); });
  }
  /** At most n values per window_ns; the rest wait (unbounded). */
  observable rate_limit(size_t n, int64_t window_ns, const scheduler &s) const {
    return adopt(rx_rate_limit(p_, n, window_ns, s.get(), nullptr));
  }
  template <class D = detail::noop>
  observable rate_limit(size_t n, int64_t window_ns, const scheduler &s, const flow_options &o, D &&on_dropped = D{}) const {
    return flow(o, std::forward<D>(on_dropped),
                [&](const rx_flow_options *fo) { return rx_rate_limit(p_, n, window_ns, s.get(), fo); });
  }
  /** The counters of an observe_on_bounded / pausable_buffered / rate_limit observable. */
  rx_flow_stats flow_stats() const {
    rx_flow_stats st{};
    st.struct_size = sizeof st;
    detail::check(rx_flow_stats_get(p_, &st));
    return st;
  }

  // ---- transform ----
  /** f(T) -> U */
  template <class F>
  auto map(F &&f) const {
    using U = std::decay_t<std::invoke_result_t<F &, T>>;
    return op<U>(std::forward<F>(f), [&](rx_map_fn fn, void *c, rx_free_fn fr) { return rx_map(p_, fn, c, fr); },
                 &map_thunk<U, std::decay_t<F>>);
  }
  /** f(T) -> std::optional<U>: the values for which it returns nullopt are dropped. */
  template <class F>
  auto compact_map(F &&f) const {
    using U = typename std::decay_t<std::invoke_result_t<F &, T>>::value_type;
    using B = std::decay_t<F>;
    rx_compact_map_fn fn = [](void *c, rx_value v, rx_value *out, rx_error **err) noexcept -> bool {
      try {
        std::optional<U> r = (*static_cast<B *>(c))(value_traits<T>::from(v));
        if (!r) return false;
        *out = detail::to_value(std::move(*r));
        return true;
      } catch (...) {
        *err = detail::current_error();
        return false;
      }
    };
    return op<U>(std::forward<F>(f),
                 [&](rx_compact_map_fn f2, void *c, rx_free_fn fr) { return rx_compact_map(p_, f2, c, fr); }, fn);
  }
  /** f(U acc, T) -> U, emitting every accumulation. */
  template <class U, class F>
  observable<U> scan(U seed, F &&f) const {
    auto s = detail::temp(std::move(seed));
    return op<U>(std::forward<F>(f),
                 [&](rx_accumulate_fn fn, void *c, rx_free_fn fr) { return rx_scan(p_, s.v, fn, c, fr); },
                 &acc_thunk<U, std::decay_t<F>>);
  }
  /** f(U acc, T) -> U, emitting the final accumulation. */
  template <class U, class F>
  observable<U> reduce(U seed, F &&f) const {
    auto s = detail::temp(std::move(seed));
    return op<U>(std::forward<F>(f),
                 [&](rx_accumulate_fn fn, void *c, rx_free_fn fr) { return rx_reduce(p_, s.v, fn, c, fr); },
                 &acc_thunk<U, std::decay_t<F>>);
  }
  /** f(T) -> observable<U>, merged. */
  template <class F>
  auto flat_map(F &&f) const {
    return flat<F>(std::forward<F>(f), [&](rx_flat_map_fn fn, void *c, rx_free_fn fr) { return rx_flat_map(p_, fn, c, fr); });
  }
  template <class F>
  auto flat_map_max(size_t max_concurrent, F &&f) const {
    return flat<F>(std::forward<F>(f), [&](rx_flat_map_fn fn, void *c, rx_free_fn fr) {
      return rx_flat_map_max(p_, max_concurrent, fn, c, fr);
    });
  }
  template <class F>
  auto flat_map_latest(F &&f) const {
    return flat<F>(std::forward<F>(f),
                   [&](rx_flat_map_fn fn, void *c, rx_free_fn fr) { return rx_flat_map_latest(p_, fn, c, fr); });
  }
  template <class F>
  auto flat_map_first(F &&f) const {
    return flat<F>(std::forward<F>(f),
                   [&](rx_flat_map_fn fn, void *c, rx_free_fn fr) { return rx_flat_map_first(p_, fn, c, fr); });
  }
  template <class F>
  auto concat_map(F &&f) const {
    return flat<F>(std::forward<F>(f), [&](rx_flat_map_fn fn, void *c, rx_free_fn fr) { return rx_concat_map(p_, fn, c, fr); });
  }
  observable<std::vector<T>> buffer(int64_t span_ns, size_t count, const scheduler &s = scheduler()) const {
    return observable<std::vector<T>>::adopt(rx_buffer(p_, span_ns, count, s.get()));
  }
  observable<observable<T>> window(int64_t span_ns, size_t count, const scheduler &s = scheduler()) const {
    return observable<observable<T>>::adopt(rx_window(p_, span_ns, count, s.get()));
  }
  observable<std::vector<T>> to_array() const { return observable<std::vector<T>>::adopt(rx_to_array(p_)); }
  observable<std::pair<int64_t, T>> enumerated() const {
    return observable<std::pair<int64_t, T>>::adopt(rx_enumerated(p_));
  }
  /** key(T) -> K; emits one grouped_observable<K, T> per new key. */
  template <class F>
  auto group_by(F &&key) const {
    using K = std::decay_t<std::invoke_result_t<F &, T>>;
    return op<grouped_observable<K, T>>(
        std::forward<F>(key), [&](rx_map_fn fn, void *c, rx_free_fn fr) { return rx_group_by(p_, fn, c, fr); },
        &map_thunk<K, std::decay_t<F>>);
  }

  // ---- filter ----
  template <class F>
  observable filter(F &&f) const {
    return pred(std::forward<F>(f), [&](rx_predicate_fn fn, void *c, rx_free_fn fr) { return rx_filter(p_, fn, c, fr); });
  }
  template <class F>
  observable take_while(F &&f) const {
    return pred(std::forward<F>(f), [&](rx_predicate_fn fn, void *c, rx_free_fn fr) { return rx_take_while(p_, fn, c, fr); });
  }
  template <class F>
  observable take_while_inclusive(F &&f) const {
    return pred(std::forward<F>(f),
                [&](rx_predicate_fn fn, void *c, rx_free_fn fr) { return rx_take_while_inclusive(p_, fn, c, fr); });
  }
  template <class F>
  observable skip_while(F &&f) const {
    return pred(std::forward<F>(f), [&](rx_predicate_fn fn, void *c, rx_free_fn fr) { return rx_skip_while(p_, fn, c, fr); });
  }
  template <class F>
  observable take_until_predicate(bool inclusive, F &&f) const {
    return pred(std::forward<F>(f), [&](rx_predicate_fn fn, void *c, rx_free_fn fr) {
      return rx_take_until_predicate(p_, inclusive, fn, c, fr);
    });
  }
  observable take(size_t n) const { return adopt(rx_take(p_, n)); }
  observable skip(size_t n) const { return adopt(rx_skip(p_, n)); }
  template <class U>
  observable take_until(const observable<U> &other) const {
    return adopt(rx_take_until(p_, other.get()));
  }
  template <class U>
  observable skip_until(const observable<U> &other) const {
    return adopt(rx_skip_until(p_, other.get()));
  }
  observable take_last(size_t n) const { return adopt(rx_take_last(p_, n)); }
  observable skip_last(size_t n) const { return adopt(rx_skip_last(p_, n)); }
  /** By rx_value_equal. */
  observable distinct_until_changed() const { return adopt(rx_distinct_until_changed(p_, nullptr, nullptr, nullptr)); }
  /** By eq(T, T) -> bool (it cannot fail the stream: an exception terminates). */
  template <class F>
  observable distinct_until_changed(F &&eq) const {
    using B = std::decay_t<F>;
    rx_equal_fn fn = [](void *c, rx_value a, rx_value b) noexcept -> bool {
      return (*static_cast<B *>(c))(value_traits<T>::from(a), value_traits<T>::from(b));
    };
    return op<T>(std::forward<F>(eq),
                 [&](rx_equal_fn f2, void *c, rx_free_fn fr) { return rx_distinct_until_changed(p_, f2, c, fr); }, fn);
  }
  observable element_at(size_t i) const { return adopt(rx_element_at(p_, i)); }
  observable first_element() const { return adopt(rx_first(p_)); }
  observable last_element() const { return adopt(rx_last(p_)); }
  observable single() const { return adopt(rx_single(p_)); }
  observable ignore_elements() const { return adopt(rx_ignore_elements(p_)); }
  observable default_if_empty(T v) const {
    auto t = detail::temp(std::move(v));
    return adopt(rx_default_if_empty(p_, t.v));
  }
  observable switch_if_empty(const observable &fallback) const { return adopt(rx_switch_if_empty(p_, fallback.get())); }
  observable debounce(int64_t ns, const scheduler &s) const { return adopt(rx_debounce(p_, ns, s.get())); }
  observable throttle(int64_t ns, bool latest, const scheduler &s) const { return adopt(rx_throttle(p_, ns, latest, s.get())); }
  observable skip_duration(int64_t ns, const scheduler &s) const { return adopt(rx_skip_duration(p_, ns, s.get())); }
  observable take_duration(int64_t ns, const scheduler &s) const { return adopt(rx_take_duration(p_, ns, s.get())); }
  template <class U>
  observable sample(const observable<U> &sampler) const {
    return adopt(rx_sample(p_, sampler.get()));
  }

  // ---- combine ----
  template <class... O>
  observable merge(const O &...others) const {
    rx_observable *srcs[] = {p_, others.get()...};
    return adopt(rx_merge(srcs, 1 + sizeof...(O)));
  }
  template <class... O>
  observable concat(const O &...others) const {
    rx_observable *srcs[] = {p_, others.get()...};
    return adopt(rx_concat(srcs, 1 + sizeof...(O)));
  }
  template <class... O>
  observable amb(const O &...others) const {
    rx_observable *srcs[] = {p_, others.get()...};
    return adopt(rx_amb(srcs, 1 + sizeof...(O)));
  }
  /** zip(others...) -> observable<std::tuple<T, U...>>; zip(f, others...) -> f(T, U...). */
  template <class A, class... O>
  auto zip(A &&a, const O &...others) const {
    return combine(rx_zip, std::forward<A>(a), others...);
  }
  template <class A, class... O>
  auto combine_latest(A &&a, const O &...others) const {
    return combine(rx_combine_latest, std::forward<A>(a), others...);
  }
  /** For each value, other's latest: with_latest_from(other) -> U; (f, other) -> f(T, U). */
  template <class U>
  observable<U> with_latest_from(const observable<U> &other) const {
    return observable<U>::adopt(rx_with_latest_from(p_, other.get(), nullptr, nullptr, nullptr));
  }
  template <class F, class U>
  auto with_latest_from(F &&f, const observable<U> &other) const {
    using R = std::decay_t<std::invoke_result_t<F &, T, U>>;
    return op<R>(std::forward<F>(f),
                 [&](rx_combine_fn fn, void *c, rx_free_fn fr) { return rx_with_latest_from(p_, other.get(), fn, c, fr); },
                 &combine_thunk<R, std::decay_t<F>, T, U>);
  }
  template <class... V>
  observable start_with(V &&...vs) const {
    detail::temp_value ts[] = {detail::temp(T(std::forward<V>(vs)))...};
    rx_value raw[sizeof...(V)];
    for (size_t i = 0; i < sizeof...(V); i++) raw[i] = ts[i].v;
    return adopt(rx_start_with(p_, raw, sizeof...(V)));
  }
  /** On observable<observable<U>>: mirrors the latest inner observable. */
  template <class O = T>
  auto switch_latest() const -> observable<typename O::value_type> {
    return observable<typename O::value_type>::adopt(rx_switch_latest(p_));
  }

  // ---- errors ----
  /** f(const error&) -> observable<T> to continue with (an empty observable<T>() forwards). */
  template <class F>
  observable catch_error(F &&f) const {
    using B = std::decay_t<F>;
    rx_catch_fn fn = [](void *c, const rx_error *e) noexcept -> rx_observable * {
      try {
        return (*static_cast<B *>(c))(error::from(e)).release();
      } catch (...) {
        rx_error *err = detail::current_error();
        rx_observable *o = rx_throw(err);
        rx_release(err);
        return o;
      }
    };
    return op<T>(std::forward<F>(f), [&](rx_catch_fn f2, void *c, rx_free_fn fr) { return rx_catch(p_, f2, c, fr); }, fn);
  }
  observable catch_with(const observable &fallback) const { return adopt(rx_catch_with(p_, fallback.get())); }
  observable catch_and_return(T v) const {
    auto t = detail::temp(std::move(v));
    return adopt(rx_catch_and_return(p_, t.v));
  }
  observable retry(size_t max_attempts = 0) const { return adopt(rx_retry(p_, max_attempts)); }
  /** f(observable<value> errors) -> observable<U> notifier (errors carry RX_EVENT values). */
  template <class F>
  observable retry_when(F &&f) const {
    using B = std::decay_t<F>;
    rx_retry_when_fn fn = [](void *c, rx_observable *errors, rx_error **err) noexcept -> rx_observable * {
      try {
        auto n = (*static_cast<B *>(c))(observable<value>::borrow(errors));
        return n.release();
      } catch (...) {
        *err = detail::current_error();
        return nullptr;
      }
    };
    return op<T>(std::forward<F>(f),
                 [&](rx_retry_when_fn f2, void *c, rx_free_fn fr) { return rx_retry_when(p_, f2, c, fr); }, fn);
  }
  observable timeout(int64_t ns, const scheduler &s) const { return adopt(rx_timeout(p_, ns, s.get())); }
  observable timeout_to(int64_t ns, const observable &fallback, const scheduler &s) const {
    return adopt(rx_timeout_to(p_, ns, fallback.get(), s.get()));
  }
  /** opts.struct_size is filled in here. */
  observable retry_backoff(rx_backoff_options opts, const scheduler &s) const {
    opts.struct_size = sizeof opts;
    return adopt(rx_retry_backoff(p_, &opts, s.get()));
  }

  // ---- utility ----
  /** Calls the tap's callables before the subscriber's: on_next(T), on_error(error), on_completed(). */
  template <class N, class E = detail::noop, class C = detail::noop>
  observable tap(N &&n, E &&e = E{}, C &&c = C{}) const {
    struct taps {
      std::decay_t<N> n;
      std::decay_t<E> e;
      std::decay_t<C> c;
    };
    auto b = std::unique_ptr<taps>(new taps{std::forward<N>(n), std::forward<E>(e), std::forward<C>(c)});
    rx_observer o{};
    if (!detail::is_noop<N>)
      o.on_next = [](void *ctx, rx_value v) noexcept { static_cast<taps *>(ctx)->n(value_traits<T>::from(v)); };
    if (!detail::is_noop<E>)
      o.on_error = [](void *ctx, const rx_error *err) noexcept { static_cast<taps *>(ctx)->e(error::from(err)); };
    if (!detail::is_noop<C>) o.on_completed = [](void *ctx) noexcept { static_cast<taps *>(ctx)->c(); };
    o.ctx = b.get();
    rx_observable *r = rx_do(p_, o, &detail::free_box<taps>);
    detail::check_ptr(r);
    b.release();
    return observable(r);
  }
  /** RxSwift's do(onSubscribe:), do(onSubscribed:), do(afterNext:), do(onDispose:). */
  template <class F>
  observable on_subscribe(F &&f) const {
    return hook(std::forward<F>(f), [](rx_do_hooks &h, rx_action_fn a) { h.on_subscribe = a; });
  }
  template <class F>
  observable on_subscribed(F &&f) const {
    return hook(std::forward<F>(f), [](rx_do_hooks &h, rx_action_fn a) { h.on_subscribed = a; });
  }
  template <class F>
  observable on_dispose(F &&f) const {
    return hook(std::forward<F>(f), [](rx_do_hooks &h, rx_action_fn a) { h.on_dispose = a; });
  }
  template <class F>
  observable after_completed(F &&f) const {
    return hook(std::forward<F>(f), [](rx_do_hooks &h, rx_action_fn a) { h.after_completed = a; });
  }
  template <class F>
  observable after_next(F &&f) const {
    using B = std::decay_t<F>;
    auto b = detail::box(std::forward<F>(f));
    rx_do_hooks h{};
    h.struct_size = sizeof h;
    h.ctx = b.get();
    h.after_next = [](void *c, rx_value v) noexcept { (*static_cast<B *>(c))(value_traits<T>::from(v)); };
    return hooked(std::move(b), h);
  }
  template <class F>
  observable after_error(F &&f) const {
    using B = std::decay_t<F>;
    auto b = detail::box(std::forward<F>(f));
    rx_do_hooks h{};
    h.struct_size = sizeof h;
    h.ctx = b.get();
    h.after_error = [](void *c, const rx_error *e) noexcept { (*static_cast<B *>(c))(error::from(e)); };
    return hooked(std::move(b), h);
  }
  /** A line per subscription, event and disposal to out (nullptr: stderr). */
  observable debug(const char *label = nullptr, FILE *out = nullptr) const { return adopt(rx_debug(p_, label, out)); }
  /** The same lines handed to f(const char *line). */
  template <class F, std::enable_if_t<std::is_invocable<F &, const char *>::value, int> = 0>
  observable debug(const char *label, F &&f) const {
    using B = std::decay_t<F>;
    rx_debug_fn fn = [](void *c, const char *line) noexcept { (*static_cast<B *>(c))(line); };
    return op<T>(std::forward<F>(f),
                 [&](rx_debug_fn f2, void *c, rx_free_fn fr) { return rx_debug_callback(p_, label, f2, c, fr); }, fn);
  }
  observable delay(int64_t ns, const scheduler &s) const { return adopt(rx_delay(p_, ns, s.get())); }
  observable delay_subscription(int64_t ns, const scheduler &s) const {
    return adopt(rx_delay_subscription(p_, ns, s.get()));
  }
  /** Each element with `s`'s clock (ns) when it arrived. */
  observable<std::pair<int64_t, T>> timestamp(const scheduler &s) const {
    return observable<std::pair<int64_t, T>>::adopt(rx_timestamp(p_, s.get()));
  }
  /** Each event as an RX_EVENT value (value::event_kind...). */
  observable<value> materialize() const { return observable<value>::adopt(rx_materialize(p_)); }
  /** On a stream of RX_EVENT values: the events, as a stream of U. */
  template <class U>
  observable<U> dematerialize() const {
    return observable<U>::adopt(rx_dematerialize(p_));
  }

  // ---- sharing ----
  observable share() const { return adopt(rx_share(p_)); }
  observable share_replay(size_t n) const { return adopt(rx_share_replay(p_, n)); }
  observable share_forever(size_t n) const { return adopt(rx_share_forever(p_, n)); }
  connectable_observable<T> publish() const;
  connectable_observable<T> replay(size_t n) const;
  connectable_observable<T> replay_all() const;
  connectable_observable<T> multicast(const subject<T> &s) const;

  // ---- traits ----
  /** RxCocoa's Driver: errors become on_error_value, delivery on main, replay of one. drive() it. */
  observable as_driver(T on_error_value) const {
    auto t = detail::temp(std::move(on_error_value));
    return adopt(rx_as_driver(p_, t.v));
  }
  /** RxCocoa's Signal: as_driver without the replay. emit() it. */
  observable as_signal(T on_error_value) const {
    auto t = detail::temp(std::move(on_error_value));
    return adopt(rx_as_signal(p_, t.v));
  }
  observable as_single() const { return adopt(rx_as_single(p_)); }
  observable as_maybe() const { return adopt(rx_as_maybe(p_)); }
  observable as_completable() const { return adopt(rx_as_completable(p_)); }

  // ---- pipes: src | op ----
  template <class Op>
  auto operator|(Op &&o) const -> decltype(std::forward<Op>(o)(std::declval<const observable &>())) {
    return std::forward<Op>(o)(*this);
  }

 private:
  template <class U>
  friend class observable;

  template <class N, class... X>
  subscription sub_via(rx_disposable *(*sub)(rx_observable *, rx_observer), N &&n, X &&...x) const {
    if constexpr (sizeof...(X) == 0)
      return detail::subscribe_with<T>(sub, p_, std::forward<N>(n), detail::noop{}, detail::noop{});
    else if constexpr (sizeof...(X) == 1)
      return detail::subscribe2<T>(sub, p_, std::forward<N>(n), std::forward<X>(x)...);
    else
      return detail::subscribe_with<T>(sub, p_, std::forward<N>(n), std::forward<X>(x)...);
  }

  // A callable on the heap, handed to an rxc.h operator with the thunk `fn`.
  template <class R, class F, class Call, class Fn>
  static observable<R> op(F &&f, Call &&call, Fn fn) {
    auto b = detail::box(std::forward<F>(f));
    rx_observable *r = call(fn, b.get(), &detail::free_box<std::decay_t<F>>);
    detail::check_ptr(r);
    b.release();
    return observable<R>(r);
  }
  template <class U, class B>
  static rx_value map_thunk(void *c, rx_value v, rx_error **err) noexcept {
    if (!detail::kind_ok<T>(v)) {
      *err = detail::kind_error<T>(v);
      return detail::none();
    }
    try {
      return value_traits<U>::to((*static_cast<B *>(c))(detail::read<T>(v)));
    } catch (...) {
      *err = detail::current_error();
      return detail::none();
    }
  }
  template <class B>
  static bool pred_thunk(void *c, rx_value v, rx_error **err) noexcept {
    if (!detail::kind_ok<T>(v)) {
      *err = detail::kind_error<T>(v);
      return false;
    }
    try {
      return (*static_cast<B *>(c))(detail::read<T>(v));
    } catch (...) {
      *err = detail::current_error();
      return false;
    }
  }
  template <class U, class B>
  static rx_value acc_thunk(void *c, rx_value acc, rx_value v, rx_error **err) noexcept {
    if (!detail::kind_ok<U>(acc) || !detail::kind_ok<T>(v)) {
      *err = detail::kind_ok<U>(acc) ? detail::kind_error<T>(v) : detail::kind_error<U>(acc);
      return detail::none();
    }
    try {
      return value_traits<U>::to((*static_cast<B *>(c))(detail::read<U>(acc), detail::read<T>(v)));
    } catch (...) {
      *err = detail::current_error();
      return detail::none();
    }
  }
  template <class B>
  static rx_observable *flat_thunk(void *c, rx_value v, rx_error **err) noexcept {
    try {
      return (*static_cast<B *>(c))(value_traits<T>::from(v)).release();
    } catch (...) {
      *err = detail::current_error();
      return nullptr;
    }
  }
  template <class R, class B, class... U, size_t... I>
  static rx_value combine_call(void *c, const rx_value *values, std::index_sequence<I...>) {
    return value_traits<R>::to((*static_cast<B *>(c))(value_traits<U>::from(values[I])...));
  }
  template <class R, class B, class... U>
  static rx_value combine_thunk(void *c, const rx_value *values, size_t n, rx_error **err) noexcept {
    try {
      if (n != sizeof...(U)) throw error(RX_ERROR_TYPE, "rx: combine got another number of values");
      return combine_call<R, B, U...>(c, values, std::index_sequence_for<U...>{});
    } catch (...) {
      *err = detail::current_error();
      return detail::none();
    }
  }
  template <class F, class Call>
  observable pred(F &&f, Call &&call) const {
    return op<T>(std::forward<F>(f), std::forward<Call>(call), &pred_thunk<std::decay_t<F>>);
  }
  template <class F, class Call>
  auto flat(F &&f, Call &&call) const {
    using O = std::decay_t<std::invoke_result_t<F &, T>>;
    static_assert(detail::is_observable<O>::value, "rx: a flat_map function returns an observable<U>");
    return op<typename O::value_type>(std::forward<F>(f), std::forward<Call>(call), &flat_thunk<std::decay_t<F>>);
  }
  template <class A, class... O>
  auto combine(rx_observable *(*fn)(rx_observable *const *, size_t, rx_combine_fn, void *, rx_free_fn), A &&a,
               const O &...others) const {
    if constexpr (detail::is_observable<std::decay_t<A>>::value) {
      rx_observable *srcs[] = {p_, a.get(), others.get()...};
      using R = std::tuple<T, typename std::decay_t<A>::value_type, typename O::value_type...>;
      return observable<R>::adopt(fn(srcs, 2 + sizeof...(O), nullptr, nullptr, nullptr));
    } else {
      rx_observable *srcs[] = {p_, others.get()...};
      using R = std::decay_t<std::invoke_result_t<A &, T, typename O::value_type...>>;
      return op<R>(std::forward<A>(a),
                   [&](rx_combine_fn f2, void *c, rx_free_fn fr) { return fn(srcs, 1 + sizeof...(O), f2, c, fr); },
                   &combine_thunk<R, std::decay_t<A>, T, typename O::value_type...>);
    }
  }
  template <class D, class Call>
  static observable flow(const flow_options &o, D &&on_dropped, Call &&call) {
    rx_flow_options fo{};
    fo.struct_size = sizeof fo;
    fo.capacity = o.capacity;
    fo.policy = o.policy;
    fo.block_timeout_ns = o.block_timeout_ns;
    if constexpr (detail::is_noop<D>) {
      return adopt(call(&fo));
    } else {
      using B = std::decay_t<D>;
      auto b = detail::box(std::forward<D>(on_dropped));
      fo.on_dropped = [](void *c, rx_value v) noexcept { (*static_cast<B *>(c))(value_traits<T>::from(v)); };
      fo.ctx = b.get();
      fo.ctx_free = &detail::free_box<B>;
      rx_observable *r = call(&fo);
      detail::check_ptr(r);
      b.release();
      return observable(r);
    }
  }
  template <class F, class Set>
  observable hook(F &&f, Set set) const {
    using B = std::decay_t<F>;
    auto b = detail::box(std::forward<F>(f));
    rx_do_hooks h{};
    h.struct_size = sizeof h;
    h.ctx = b.get();
    set(h, [](void *c) noexcept { (*static_cast<B *>(c))(); });
    return hooked(std::move(b), h);
  }
  template <class B>
  observable hooked(std::unique_ptr<B> b, const rx_do_hooks &h) const {
    rx_observable *r = rx_do_with_hooks(p_, &h, &detail::free_box<B>);
    detail::check_ptr(r);
    b.release();
    return observable(r);
  }
  void block(rx_status (*fn)(rx_observable *, int64_t, rx_value *, rx_error **), int64_t timeout_ns, rx_value *out) const {
    rx_error *err = nullptr;
    rx_status st = fn(p_, timeout_ns, out, &err);
    if (st == RX_ESTREAM && err) {
      error e = error::from(err);
      rx_release(err);
      throw e;
    }
    detail::check(st);
  }
  T blocking_one(rx_status (*fn)(rx_observable *, int64_t, rx_value *, rx_error **), int64_t timeout_ns) const {
    rx_value out = detail::none();
    block(fn, timeout_ns, &out);
    detail::temp_value t{out};
    return value_traits<T>::from(out);
  }
  // subscribe_single / _maybe / _completable: which selects the rxc.h function.
  template <int Which, class S, class E, class C>
  subscription traited(S &&s, E &&e, C &&c) const {
    struct state {
      std::decay_t<S> s;
      std::decay_t<E> e;
      std::decay_t<C> c;
      static void success(void *ctx, rx_value v) noexcept {
        auto *st = static_cast<state *>(ctx);
        try {
          st->s(value_traits<T>::from(v));
        } catch (...) {
          rx_error *err = detail::current_error();
          detail::call_noexcept(st->e, error::from(err));
          rx_release(err);
        }
      }
      static void failure(void *ctx, const rx_error *err) noexcept { static_cast<state *>(ctx)->e(error::from(err)); }
      static void completed(void *ctx) noexcept { static_cast<state *>(ctx)->c(); }
      static void disposed(void *ctx) noexcept { delete static_cast<state *>(ctx); }
    };
    auto *st = new state{std::forward<S>(s), std::forward<E>(e), std::forward<C>(c)};
    rx_disposable *d;
    if constexpr (Which == 0)
      d = rx_subscribe_single(p_, &state::success, &state::failure, st, &state::disposed);
    else if constexpr (Which == 1)
      d = rx_subscribe_maybe(p_, &state::success, &state::failure, &state::completed, st, &state::disposed);
    else
      d = rx_subscribe_completable(p_, &state::completed, &state::failure, st, &state::disposed);
    if (!d) {
      delete st;
      detail::throw_last(RX_EINVAL);
    }
    return subscription(d);
  }
};

/** observable<U> travels as an RX_OBSERVABLE value (streams of streams, flat_map, window). */
template <class U>
struct value_traits<observable<U>> {
  static rx_value to(const observable<U> &o) { return rx_observable_value(o.get()); }
  static observable<U> from(rx_value v) {
    detail::expect(v, RX_OBSERVABLE);
    return observable<U>::borrow(rx_value_observable(v));
  }
};

/** A group of group_by: its elements, and key(). */
template <class K, class T>
class grouped_observable : public observable<T> {
 public:
  using observable<T>::observable;
  explicit grouped_observable(observable<T> &&o) noexcept : observable<T>(o.release()) {}
  K key() const {
    rx_value out = detail::none();
    detail::check(rx_group_key(this->get(), &out));
    detail::temp_value t{out};
    return value_traits<K>::from(out);
  }
};
template <class K, class T>
struct value_traits<grouped_observable<K, T>> {
  static grouped_observable<K, T> from(rx_value v) { return grouped_observable<K, T>(value_traits<observable<T>>::from(v)); }
  static rx_value to(const grouped_observable<K, T> &o) { return rx_observable_value(o.get()); }
};

/** publish / replay / replay_all / multicast: subscribes its source on connect(). */
template <class T>
class connectable_observable : public observable<T> {
 public:
  using observable<T>::observable;
  subscription connect() const { return subscription(detail::check_ptr(rx_connect(this->get()))); }
  observable<T> ref_count() const { return observable<T>::adopt(rx_ref_count(this->get())); }
};

// ---------------------------------------------------------------------------------------
// Subjects
// ---------------------------------------------------------------------------------------

/** An observable fed by hand. Destroying the last reference disposes it (rxc.h section 7). */
template <class T>
class subject : public detail::handle<rx_subject> {
 public:
  subject() noexcept = default;
  explicit subject(rx_subject *adopted) noexcept : handle(adopted) {}
  subject retain() const { return subject(retained()); }

  void on_next(const T &v) const {
    rx_value x = value_traits<T>::to(v);
    rx_status st = rx_subject_on_next(p_, x);
    if constexpr (!detail::fast_read<T>::value) detail::release_value(x);
    if (st != RX_OK) detail::throw_last(st);
  }
  void on_error(const error &e) const {
    rx_error *err = e.make();
    rx_status st = rx_subject_on_error(p_, err);
    rx_release(err);
    detail::check(st);
  }
  void on_completed() const { detail::check(rx_subject_on_completed(p_)); }
  /** The subject as an observable (a second owner). */
  observable<T> as_observable() const { return observable<T>::borrow(detail::check_ptr(rx_subject_as_observable(p_))); }
  observable<T> get_observable() const { return as_observable(); }
  /** The current value of a behavior subject or relay (throws its error after on_error). */
  T value() const {
    rx_value out = detail::none();
    rx_error *err = nullptr;
    rx_status st = rx_subject_value(p_, &out, &err);
    if (st == RX_ESTREAM && err) {
      error e = error::from(err);
      rx_release(err);
      throw e;
    }
    detail::check(st);
    detail::temp_value t{out};
    return value_traits<T>::from(out);
  }
  bool has_observers() const noexcept { return rx_subject_has_observers(p_); }
  void dispose() const { detail::check(rx_subject_dispose(p_)); }

  template <class... A>
  subscription subscribe(A &&...a) const {
    return as_observable().subscribe(std::forward<A>(a)...);
  }
};

template <class T>
subject<T> publish_subject() {
  return subject<T>(detail::check_ptr(rx_publish_subject_new()));
}
template <class T>
subject<T> behavior_subject(T initial) {
  auto t = detail::temp(std::move(initial));
  return subject<T>(detail::check_ptr(rx_behavior_subject_new(t.v)));
}
/** buffer_size 0: every value. */
template <class T>
subject<T> replay_subject(size_t buffer_size = 0) {
  return subject<T>(
      detail::check_ptr(buffer_size ? rx_replay_subject_new(buffer_size) : rx_replay_subject_new_unbounded()));
}
template <class T>
subject<T> async_subject() {
  return subject<T>(detail::check_ptr(rx_async_subject_new()));
}
/** Relays never terminate (on_error / on_completed throw RX_ESTATE). */
template <class T>
subject<T> publish_relay() {
  return subject<T>(detail::check_ptr(rx_publish_relay_new()));
}
template <class T>
subject<T> behavior_relay(T initial) {
  auto t = detail::temp(std::move(initial));
  return subject<T>(detail::check_ptr(rx_behavior_relay_new(t.v)));
}
template <class T>
subject<T> replay_relay(size_t buffer_size = 0) {
  return subject<T>(detail::check_ptr(buffer_size ? rx_replay_relay_new(buffer_size) : rx_replay_relay_new_unbounded()));
}

// The subject's own functions as the observer: values pass as they are, no conversion.
template <class T>
subscription observable<T>::subscribe(const subject<T> &s) const {
  rx_subject *raw = static_cast<rx_subject *>(detail::check_ptr(rx_retain(s.get())));
  rx_observer o{};
  o.on_next = [](void *c, rx_value v) noexcept { rx_subject_on_next(static_cast<rx_subject *>(c), v); };
  o.on_error = [](void *c, const rx_error *e) noexcept { rx_subject_on_error(static_cast<rx_subject *>(c), e); };
  o.on_completed = [](void *c) noexcept { rx_subject_on_completed(static_cast<rx_subject *>(c)); };
  o.on_disposed = [](void *c) noexcept { rx_release(c); };
  o.ctx = raw;
  rx_disposable *d = rx_subscribe(p_, o);
  if (!d) {
    rx_release(raw);
    detail::throw_last(RX_EINVAL);
  }
  return subscription(d);
}

template <class T>
connectable_observable<T> observable<T>::publish() const {
  return connectable_observable<T>(detail::check_ptr(rx_publish(p_)));
}
template <class T>
connectable_observable<T> observable<T>::replay(size_t n) const {
  return connectable_observable<T>(detail::check_ptr(rx_replay(p_, n)));
}
template <class T>
connectable_observable<T> observable<T>::replay_all() const {
  return connectable_observable<T>(detail::check_ptr(rx_replay_all(p_)));
}
template <class T>
connectable_observable<T> observable<T>::multicast(const subject<T> &s) const {
  return connectable_observable<T>(detail::check_ptr(rx_multicast(p_, s.get())));
}

// ---------------------------------------------------------------------------------------
// Creating observables
// ---------------------------------------------------------------------------------------

/** The emitter of a create() subscription. The one handed to the function is borrowed for
 * the call; retain() it to emit later, from any thread. */
template <class T>
class emitter {
 public:
  explicit emitter(rx_emitter *e, bool owned) noexcept : e_(e), owned_(owned) {}
  emitter(emitter &&o) noexcept : e_(o.e_), owned_(o.owned_) { o.e_ = nullptr; }
  emitter &operator=(emitter &&o) noexcept {
    if (this != &o) {
      if (owned_ && e_) rx_release(e_);
      e_ = o.e_;
      owned_ = o.owned_;
      o.e_ = nullptr;
    }
    return *this;
  }
  emitter(const emitter &) = delete;
  emitter &operator=(const emitter &) = delete;
  ~emitter() {
    if (owned_ && e_) rx_release(e_);
  }
  emitter retain() const { return emitter(static_cast<rx_emitter *>(detail::check_ptr(rx_retain(e_))), true); }

  /** false once the subscription was disposed (RX_EDISPOSED); other failures throw. */
  bool on_next(const T &v) const {
    rx_value x = value_traits<T>::to(v);
    rx_status st = rx_emitter_next(e_, x);
    detail::release_value(x);
    return status(st);
  }
  bool on_error(const error &e) const {
    rx_error *err = e.make();
    rx_status st = rx_emitter_error(e_, err);
    rx_release(err);
    return status(st);
  }
  bool on_completed() const { return status(rx_emitter_completed(e_)); }
  bool is_disposed() const noexcept { return rx_emitter_is_disposed(e_); }
  rx_emitter *get() const noexcept { return e_; }

 private:
  static bool status(rx_status st) {
    if (st == RX_EDISPOSED) return false;
    detail::check(st);
    return true;
  }
  rx_emitter *e_;
  bool owned_;
};

/**
 * An observable whose subscriptions run f(emitter<T>&). f may return void, or a
 * subscription to dispose when the subscription ends (the place to stop what emits). An
 * exception thrown by f fails that subscription.
 */
template <class T, class F>
observable<T> create(F &&f) {
  using B = std::decay_t<F>;
  rx_subscribe_fn fn = [](void *c, rx_emitter *e) noexcept -> rx_disposable * {
    emitter<T> em(e, false);
    try {
      if constexpr (std::is_void<std::invoke_result_t<B &, emitter<T> &>>::value) {
        (*static_cast<B *>(c))(em);
        return nullptr;
      } else {
        return (*static_cast<B *>(c))(em).release();
      }
    } catch (...) {
      rx_error *err = detail::current_error();
      rx_emitter_error(e, err);
      rx_release(err);
      return nullptr;
    }
  };
  auto b = detail::box(std::forward<F>(f));
  rx_observable *r = rx_create(fn, b.get(), &detail::free_box<B>);
  detail::check_ptr(r);
  b.release();
  return observable<T>(r);
}

namespace detail {
// The element type of a stream made from a value: C strings become std::string.
template <class T, class D = std::decay_t<T>>
using element_t = std::conditional_t<std::is_same<D, const char *>::value || std::is_same<D, char *>::value, std::string, D>;
}  // namespace detail

template <class T>
observable<detail::element_t<T>> just(T &&v) {
  auto t = detail::temp(std::forward<T>(v));
  return observable<detail::element_t<T>>::adopt(rx_just(t.v));
}
template <class T>
observable<T> from(const std::vector<T> &vs) {
  std::vector<detail::temp_value> ts;
  std::vector<rx_value> raw;
  ts.reserve(vs.size());
  raw.reserve(vs.size());
  for (const T &v : vs) {
    ts.push_back(detail::temp(v));
    raw.push_back(ts.back().v);
  }
  return observable<T>::adopt(rx_of(raw.data(), raw.size()));
}
template <class T>
observable<T> of(std::initializer_list<T> vs) {
  return from(std::vector<T>(vs));
}
inline observable<int64_t> range(int64_t start, size_t count) { return observable<int64_t>::adopt(rx_range(start, count)); }
template <class T>
observable<T> empty() {
  return observable<T>::adopt(rx_empty());
}
template <class T>
observable<T> never() {
  return observable<T>::adopt(rx_never());
}
template <class T>
observable<T> throw_error(const error &e) {
  rx_error *err = e.make();
  rx_observable *r = rx_throw(err);
  rx_release(err);
  return observable<T>::adopt(r);
}
/** v again and again, one per action on s (default: current thread), until disposed. */
template <class T>
observable<detail::element_t<T>> repeat(T &&v, const scheduler &s = scheduler()) {
  auto t = detail::temp(std::forward<T>(v));
  return observable<detail::element_t<T>>::adopt(rx_repeat_element(t.v, s.get()));
}
/** f() -> observable<T>, called at each subscription. */
template <class F>
auto defer(F &&f) {
  using O = std::decay_t<std::invoke_result_t<F &>>;
  using B = std::decay_t<F>;
  auto b = detail::box(std::forward<F>(f));
  rx_observable *r = rx_defer(
      [](void *c) noexcept -> rx_observable * {
        try {
          return (*static_cast<B *>(c))().release();
        } catch (...) {
          rx_error *err = detail::current_error();
          rx_observable *o = rx_throw(err);
          rx_release(err);
          return o;
        }
      },
      b.get(), &detail::free_box<B>);
  detail::check_ptr(r);
  b.release();
  return O(r);
}
inline observable<int64_t> interval(int64_t period_ns, const scheduler &s) {
  return observable<int64_t>::adopt(rx_interval(period_ns, s.get()));
}
inline observable<int64_t> timer(int64_t due_ns, int64_t period_ns, const scheduler &s) {
  return observable<int64_t>::adopt(rx_timer(due_ns, period_ns, s.get()));
}
/** A for loop as a stream: initial, iterate(initial)... while condition(state). */
template <class T, class C, class I>
observable<T> generate(T initial, C &&condition, I &&iterate, const scheduler &s = scheduler()) {
  struct both {
    std::decay_t<C> c;
    std::decay_t<I> i;
  };
  auto b = std::unique_ptr<both>(new both{std::forward<C>(condition), std::forward<I>(iterate)});
  auto t = detail::temp(std::move(initial));
  rx_observable *r = rx_generate(
      t.v, s.get(),
      [](void *c, rx_value v, rx_error **err) noexcept -> bool {
        try {
          return static_cast<both *>(c)->c(value_traits<T>::from(v));
        } catch (...) {
          *err = detail::current_error();
          return false;
        }
      },
      [](void *c, rx_value v, rx_error **err) noexcept -> rx_value {
        try {
          return value_traits<T>::to(static_cast<both *>(c)->i(value_traits<T>::from(v)));
        } catch (...) {
          *err = detail::current_error();
          return detail::none();
        }
      },
      b.get(), &detail::free_box<both>);
  detail::check_ptr(r);
  b.release();
  return observable<T>(r);
}
/**
 * A resource per subscription: make() -> R (any movable type, destroyed when the
 * subscription ends), use(R&) -> observable<T>.
 */
template <class M, class U>
auto using_resource(M &&make, U &&use) {
  using R = std::decay_t<std::invoke_result_t<M &>>;
  using O = std::decay_t<std::invoke_result_t<U &, R &>>;
  struct both {
    std::decay_t<M> m;
    std::decay_t<U> u;
  };
  auto b = std::unique_ptr<both>(new both{std::forward<M>(make), std::forward<U>(use)});
  rx_observable *r = rx_using(
      [](void *c, rx_error **err) noexcept -> void * {
        try {
          return new R(static_cast<both *>(c)->m());
        } catch (...) {
          *err = detail::current_error();
          return nullptr;
        }
      },
      [](void *c, void *res, rx_error **err) noexcept -> rx_observable * {
        try {
          return static_cast<both *>(c)->u(*static_cast<R *>(res)).release();
        } catch (...) {
          *err = detail::current_error();
          return nullptr;
        }
      },
      [](void *, void *res) noexcept { delete static_cast<R *>(res); }, b.get(), &detail::free_box<both>);
  detail::check_ptr(r);
  b.release();
  return O(r);
}

namespace detail {
template <class T>
std::vector<rx_observable *> raw_list(const std::vector<observable<T>> &srcs) {
  std::vector<rx_observable *> raw;
  raw.reserve(srcs.size());
  for (const auto &s : srcs) raw.push_back(s.get());
  return raw;
}
}  // namespace detail

/** rx::merge(a, b, ...) is a.merge(b, ...); the same for concat, amb, zip, combine_latest. */
template <class T, class... O>
observable<T> merge(const observable<T> &first, const O &...rest) {
  return first.merge(rest...);
}
template <class T, class... O>
observable<T> concat(const observable<T> &first, const O &...rest) {
  return first.concat(rest...);
}
template <class T, class... O>
observable<T> amb(const observable<T> &first, const O &...rest) {
  return first.amb(rest...);
}
template <class T, class A, class... O>
auto zip(const observable<T> &first, A &&a, const O &...rest) {
  return first.zip(std::forward<A>(a), rest...);
}
template <class T, class A, class... O>
auto combine_latest(const observable<T> &first, A &&a, const O &...rest) {
  return first.combine_latest(std::forward<A>(a), rest...);
}

/** n-ary forms over a vector of sources of one type. */
template <class T>
observable<T> merge(const std::vector<observable<T>> &srcs, size_t max_concurrent = 0) {
  auto raw = detail::raw_list(srcs);
  return observable<T>::adopt(max_concurrent ? rx_merge_max(raw.data(), raw.size(), max_concurrent)
                                             : rx_merge(raw.data(), raw.size()));
}
template <class T>
observable<T> concat(const std::vector<observable<T>> &srcs) {
  auto raw = detail::raw_list(srcs);
  return observable<T>::adopt(rx_concat(raw.data(), raw.size()));
}
template <class T>
observable<T> amb(const std::vector<observable<T>> &srcs) {
  auto raw = detail::raw_list(srcs);
  return observable<T>::adopt(rx_amb(raw.data(), raw.size()));
}
template <class T>
observable<std::vector<T>> zip(const std::vector<observable<T>> &srcs) {
  auto raw = detail::raw_list(srcs);
  return observable<std::vector<T>>::adopt(rx_zip(raw.data(), raw.size(), nullptr, nullptr, nullptr));
}
template <class T>
observable<std::vector<T>> combine_latest(const std::vector<observable<T>> &srcs) {
  auto raw = detail::raw_list(srcs);
  return observable<std::vector<T>>::adopt(rx_combine_latest(raw.data(), raw.size(), nullptr, nullptr, nullptr));
}

// ---------------------------------------------------------------------------------------
// Marble tests (rxc.h section 12)
// ---------------------------------------------------------------------------------------

/** One marble table entry: a character and the value it stands for. */
struct marble_entry {
  char key;
  value v;
};
namespace detail {
inline std::vector<rx_marble_value> marble_table(std::initializer_list<marble_entry> values) {
  std::vector<rx_marble_value> t;
  t.reserve(values.size());
  for (const auto &e : values) t.push_back(rx_marble_value{e.key, e.v.get()});
  return t;
}
template <class F>
auto with_error(const error *e, F &&f) {
  rx_error *err = e ? e->make() : nullptr;
  struct guard {
    rx_error *e;
    ~guard() {
      if (e) rx_release(e);
    }
  } g{err};
  return f(err);
}
}  // namespace detail
template <class T = value>
observable<T> marble_cold(const scheduler &test, const char *marble, std::initializer_list<marble_entry> values = {},
                          const error *err = nullptr) {
  auto t = detail::marble_table(values);
  return observable<T>::adopt(
      detail::with_error(err, [&](rx_error *e) { return rx_marble_cold(test.get(), marble, t.data(), t.size(), e); }));
}
template <class T = value>
observable<T> marble_hot(const scheduler &test, const char *marble, std::initializer_list<marble_entry> values = {},
                         const error *err = nullptr) {
  auto t = detail::marble_table(values);
  return observable<T>::adopt(
      detail::with_error(err, [&](rx_error *e) { return rx_marble_hot(test.get(), marble, t.data(), t.size(), e); }));
}
/** Runs test and compares what source emits with expected (prints a diff on a mismatch). */
template <class T>
bool marble_expect(const scheduler &test, const observable<T> &source, const char *expected,
                   std::initializer_list<marble_entry> values = {}, const error *err = nullptr) {
  auto t = detail::marble_table(values);
  return detail::with_error(err, [&](rx_error *e) {
    return rx_marble_expect(test.get(), source.get(), expected, t.data(), t.size(), e);
  });
}

// ---------------------------------------------------------------------------------------
// Pipes: `using namespace rx::operators; src | map(f) | filter(p)`
// ---------------------------------------------------------------------------------------

namespace operators {
#define RXC_HPP_PIPE(name)                                                                                      \
  template <class... A>                                                                                       \
  auto name(A &&...a) {                                                                                       \
    return [args = std::make_tuple(std::forward<A>(a)...)](const auto &src) mutable {                         \
      return std::apply([&](auto &&...x) { return src.name(std::forward<decltype(x)>(x)...); }, std::move(args)); \
    };                                                                                                        \
  }
RXC_HPP_PIPE(subscribe_on)
RXC_HPP_PIPE(observe_on)
RXC_HPP_PIPE(observe_on_bounded)
RXC_HPP_PIPE(pausable)
RXC_HPP_PIPE(pausable_buffered)
RXC_HPP_PIPE(rate_limit)
RXC_HPP_PIPE(map)
RXC_HPP_PIPE(compact_map)
RXC_HPP_PIPE(flat_map)
RXC_HPP_PIPE(flat_map_max)
RXC_HPP_PIPE(flat_map_latest)
RXC_HPP_PIPE(flat_map_first)
RXC_HPP_PIPE(concat_map)
RXC_HPP_PIPE(buffer)
RXC_HPP_PIPE(window)
RXC_HPP_PIPE(to_array)
RXC_HPP_PIPE(enumerated)
RXC_HPP_PIPE(group_by)
RXC_HPP_PIPE(filter)
RXC_HPP_PIPE(take)
RXC_HPP_PIPE(skip)
RXC_HPP_PIPE(take_while)
RXC_HPP_PIPE(take_while_inclusive)
RXC_HPP_PIPE(skip_while)
RXC_HPP_PIPE(take_until)
RXC_HPP_PIPE(take_until_predicate)
RXC_HPP_PIPE(skip_until)
RXC_HPP_PIPE(take_last)
RXC_HPP_PIPE(skip_last)
RXC_HPP_PIPE(distinct_until_changed)
RXC_HPP_PIPE(element_at)
RXC_HPP_PIPE(first_element)
RXC_HPP_PIPE(last_element)
RXC_HPP_PIPE(single)
RXC_HPP_PIPE(ignore_elements)
RXC_HPP_PIPE(default_if_empty)
RXC_HPP_PIPE(switch_if_empty)
RXC_HPP_PIPE(debounce)
RXC_HPP_PIPE(throttle)
RXC_HPP_PIPE(skip_duration)
RXC_HPP_PIPE(take_duration)
RXC_HPP_PIPE(sample)
RXC_HPP_PIPE(merge)
RXC_HPP_PIPE(concat)
RXC_HPP_PIPE(amb)
RXC_HPP_PIPE(zip)
RXC_HPP_PIPE(combine_latest)
RXC_HPP_PIPE(with_latest_from)
RXC_HPP_PIPE(start_with)
RXC_HPP_PIPE(switch_latest)
RXC_HPP_PIPE(catch_error)
RXC_HPP_PIPE(catch_with)
RXC_HPP_PIPE(catch_and_return)
RXC_HPP_PIPE(retry)
RXC_HPP_PIPE(retry_when)
RXC_HPP_PIPE(timeout)
RXC_HPP_PIPE(timeout_to)
RXC_HPP_PIPE(retry_backoff)
RXC_HPP_PIPE(tap)
RXC_HPP_PIPE(on_subscribe)
RXC_HPP_PIPE(on_subscribed)
RXC_HPP_PIPE(on_dispose)
RXC_HPP_PIPE(after_next)
RXC_HPP_PIPE(after_error)
RXC_HPP_PIPE(after_completed)
RXC_HPP_PIPE(debug)
RXC_HPP_PIPE(delay)
RXC_HPP_PIPE(delay_subscription)
RXC_HPP_PIPE(timestamp)
RXC_HPP_PIPE(materialize)
RXC_HPP_PIPE(share)
RXC_HPP_PIPE(share_replay)
RXC_HPP_PIPE(share_forever)
RXC_HPP_PIPE(publish)
RXC_HPP_PIPE(replay)
RXC_HPP_PIPE(replay_all)
RXC_HPP_PIPE(multicast)
RXC_HPP_PIPE(as_driver)
RXC_HPP_PIPE(as_signal)
RXC_HPP_PIPE(as_single)
RXC_HPP_PIPE(as_maybe)
RXC_HPP_PIPE(as_completable)
#undef RXC_HPP_PIPE
/** `src | scan(seed, f)` and `src | reduce(seed, f)`: the seed's type is the result's. */
template <class U, class F>
auto scan(U seed, F f) {
  return [seed = std::move(seed), f = std::move(f)](const auto &src) mutable { return src.scan(std::move(seed), std::move(f)); };
}
template <class U, class F>
auto reduce(U seed, F f) {
  return [seed = std::move(seed), f = std::move(f)](const auto &src) mutable { return src.reduce(std::move(seed), std::move(f)); };
}
/** `src | subscribe<T>(on_next, ...)` ends a pipe with a subscription. */
template <class... A>
auto subscribe(A &&...a) {
  return [args = std::make_tuple(std::forward<A>(a)...)](const auto &src) mutable {
    return std::apply([&](auto &&...x) { return src.subscribe(std::forward<decltype(x)>(x)...); }, std::move(args));
  };
}
}  // namespace operators

}  // namespace rx

#endif /* RXC_HPP */
