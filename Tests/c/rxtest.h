/*
 * rxtest.h — the C test harness of librxc (modeled on libuv's test runner).
 *
 * Write tests in any file Tests/c/test_*.c:
 *
 *     #include "rxtest.h"
 *
 *     RX_TEST(subject_emits_in_order) {
 *       rx_subject *s = rx_publish_subject_new();
 *       CHECK(s != NULL);
 *       CHECK_EQ(rx_subject_on_next(s, RX_INT(1)), RX_OK);
 *       rx_release(s);
 *     }
 *
 * Nothing else needs editing: the Makefile finds every line starting with RX_TEST( in
 * Tests/c/test_*.c and builds them all into build/tests/rxtests. Test names are C
 * identifiers and must be unique across all files (a duplicate fails at link time).
 *
 * Each test runs in its own forked process, with a timeout (30 s, or RXTEST_TIMEOUT
 * seconds). A failing CHECK prints file:line, the expression and the values, and ends the
 * process with status 1 — from any thread. After the body returns, the runner checks that
 * rx_debug_live_objects() is back to where it was before the body started (waiting up to
 * RXTEST_SETTLE_MS, default 1000 ms, for objects released asynchronously by other threads),
 * so every test ends with the live-objects check for free.
 *
 *     build/tests/rxtests                 run every test
 *     build/tests/rxtests NAME|GLOB...    run the named tests (shell-style globs allowed)
 *     build/tests/rxtests --list          list the tests
 *     build/tests/rxtests --no-fork NAME  run one test in this process (for gdb)
 *     build/tests/rxtests -j N            run N tests at a time (or RXTEST_JOBS=N)
 *     build/tests/rxtests -v              print each test's output, not only on failure
 */
#ifndef RXTEST_H
#define RXTEST_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rxc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Defines a test: RX_TEST(name) { body }. */
#define RX_TEST(name)                  \
  void rxtest_fn_##name(void);         \
  void rxtest_fn_##name(void)

/* Fails the test unless cond is true. */
#define CHECK(cond)                                                      \
  do {                                                                   \
    if (!(cond)) rxtest_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);    \
  } while (0)

/* Fails unless a == b, both compared as int64_t; prints both values. */
#define CHECK_EQ(a, b)                                                                  \
  do {                                                                                  \
    int64_t rxtest_a_ = (int64_t)(a);                                                   \
    int64_t rxtest_b_ = (int64_t)(b);                                                   \
    if (rxtest_a_ != rxtest_b_)                                                         \
      rxtest_fail(__FILE__, __LINE__, "CHECK_EQ(%s, %s): %" PRId64 " != %" PRId64, #a, \
                  #b, rxtest_a_, rxtest_b_);                                            \
  } while (0)

/* Fails unless a != b, both compared as int64_t. */
#define CHECK_NE(a, b)                                                                  \
  do {                                                                                  \
    int64_t rxtest_a_ = (int64_t)(a);                                                   \
    int64_t rxtest_b_ = (int64_t)(b);                                                   \
    if (rxtest_a_ == rxtest_b_)                                                         \
      rxtest_fail(__FILE__, __LINE__, "CHECK_NE(%s, %s): both %" PRId64, #a, #b,       \
                  rxtest_a_);                                                           \
  } while (0)

/* Fails unless the two strings are equal (strcmp); NULL equals only NULL. Prints both. */
#define CHECK_STR(a, b)                                                                 \
  do {                                                                                  \
    const char *rxtest_sa_ = (a);                                                       \
    const char *rxtest_sb_ = (b);                                                       \
    if (!rxtest_str_equal(rxtest_sa_, rxtest_sb_))                                      \
      rxtest_fail(__FILE__, __LINE__, "CHECK_STR(%s, %s): \"%s\" != \"%s\"", #a, #b,   \
                  rxtest_sa_ ? rxtest_sa_ : "(null)", rxtest_sb_ ? rxtest_sb_ : "(null)"); \
  } while (0)

/* Fails unless cond is true, printing a printf-style message: CHECK_MSG(c, "x=%d", x). */
#define CHECK_MSG(cond, ...)                                                  \
  do {                                                                        \
    if (!(cond)) rxtest_fail_msg(__FILE__, __LINE__, #cond, __VA_ARGS__);     \
  } while (0)

/* Fails unless the rx_status expression is RX_OK; prints the status and rx_last_error(). */
#define CHECK_OK(expr)                                                                  \
  do {                                                                                  \
    rx_status rxtest_st_ = (expr);                                                      \
    if (rxtest_st_ != RX_OK)                                                            \
      rxtest_fail(__FILE__, __LINE__, "CHECK_OK(%s): %s (%d), rx_last_error: \"%s\"",  \
                  #expr, rx_status_string(rxtest_st_), (int)rxtest_st_, rx_last_error()); \
  } while (0)

/* Fails the test unconditionally. */
#define FAIL(...) rxtest_fail(__FILE__, __LINE__, __VA_ARGS__)

#if defined(__GNUC__) || defined(__clang__)
#define RXTEST_NORETURN __attribute__((noreturn))
#define RXTEST_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define RXTEST_NORETURN
#define RXTEST_PRINTF(f, a)
#endif

/* Prints "file:line: test NAME: <message>" to stderr and ends the test process with
   status 1. Safe from any thread (uses _exit after flushing stdio). */
RXTEST_NORETURN void rxtest_fail(const char *file, int line, const char *fmt, ...)
    RXTEST_PRINTF(3, 4);
RXTEST_NORETURN void rxtest_fail_msg(const char *file, int line, const char *expr,
                                     const char *fmt, ...) RXTEST_PRINTF(4, 5);
bool rxtest_str_equal(const char *a, const char *b);

/* Sleeps at least ms milliseconds (restarts on EINTR). */
void rxtest_sleep_ms(int ms);
/* CLOCK_MONOTONIC in nanoseconds. */
int64_t rxtest_now_ns(void);
/* Yields the CPU at least once and until us microseconds have passed: lets other threads
   run for a while. (A fixed count of sched_yield calls is a moment on an idle machine but
   a timeslice each on a loaded one: thousands of them outlast the test timeout.) */
void rxtest_yield_for_us(int64_t us);
/* The name of the running test. */
const char *rxtest_name(void);
/* True when the runner was started under valgrind (RXTEST_VALGRIND=1): scale loops down. */
bool rxtest_under_valgrind(void);
/* n, or n / divisor (at least 1) under valgrind: for loop counts of stress-like tests. */
int64_t rxtest_scale(int64_t n, int64_t divisor);

#ifdef __cplusplus
}
#endif

#endif /* RXTEST_H */
