/* Smoke tests: the library loads, answers, and the harness itself works. */
#include <pthread.h>

#include "rxtest.h"

RX_TEST(smoke_version) {
  const char *v = rx_version();
  int major = -1, minor = -1, patch = -1;
  char tail = 0;
  CHECK(v != NULL);
  CHECK_STR(v, RX_VERSION_STRING);
  CHECK_EQ(sscanf(v, "%d.%d.%d%c", &major, &minor, &patch, &tail), 3);
  CHECK_EQ(major, RX_VERSION_MAJOR);
  CHECK_EQ(minor, RX_VERSION_MINOR);
  CHECK_EQ(patch, RX_VERSION_PATCH);
}

RX_TEST(smoke_status_strings) {
  static const rx_status all[] = {RX_OK,        RX_EINVAL,   RX_EHANDLE, RX_ESTATE,
                                  RX_EDISPOSED, RX_ETIMEOUT, RX_ESTREAM};
  const size_t n = sizeof all / sizeof all[0];
  for (size_t i = 0; i < n; i++) {
    const char *s = rx_status_string(all[i]);
    CHECK_MSG(s != NULL && s[0] != '\0', "rx_status_string(%d) is empty", (int)all[i]);
    for (size_t j = 0; j < i; j++)
      CHECK_MSG(strcmp(s, rx_status_string(all[j])) != 0,
                "statuses %d and %d share the description \"%s\"", (int)all[i], (int)all[j], s);
  }
  /* A status the library does not know still gets a string, never NULL. */
  CHECK(rx_status_string((rx_status)12345) != NULL);
}

static void *read_last_error(void *out) {
  *(const char **)out = rx_last_error();
  return NULL;
}

RX_TEST(smoke_last_error_starts_empty) {
  const char *main_msg = rx_last_error();
  const char *thread_msg = NULL;
  pthread_t th;
  CHECK(main_msg != NULL);
  CHECK_STR(main_msg, ""); /* nothing has failed in this fresh process */
  CHECK_EQ(pthread_create(&th, NULL, read_last_error, &thread_msg), 0);
  CHECK_EQ(pthread_join(th, NULL), 0);
  CHECK(thread_msg != NULL);
}

typedef struct last_error_thread {
  int64_t size;  /* the buffer size this thread passes to rx_replay_subject_new */
  bool own_message_kept;
} last_error_thread;

static void *fail_and_exit(void *p) {
  last_error_thread *t = p;
  t->own_message_kept = true;
  for (int k = 0; k < 200; k++) {
    const char *want = t->size == 0 ? "rx_replay_subject_new: buffer_size must be at least 1"
                                     : "rx_dispose: disposable is NULL";
    if (t->size == 0) {
      if (rx_replay_subject_new(0) != NULL) t->own_message_kept = false;
    } else if (rx_dispose(NULL) != RX_EINVAL) {
      t->own_message_kept = false;
    }
    if (strcmp(rx_last_error(), want) != 0) t->own_message_kept = false;
  }
  return NULL; /* the thread's message buffer is freed as it exits (valgrind, LSan check) */
}

RX_TEST(smoke_last_error_is_per_thread_and_freed_at_thread_exit) {
  CHECK_EQ(rx_subject_on_next(NULL, rx_int(1)), RX_EINVAL);
  CHECK_STR(rx_last_error(), "rx_subject_on_next: subject is NULL");
  for (int round = 0; round < 20; round++) {
    last_error_thread t[2] = {{.size = 0}, {.size = 1}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++) CHECK_EQ(pthread_create(&th[i], NULL, fail_and_exit, &t[i]), 0);
    for (int i = 0; i < 2; i++) CHECK_EQ(pthread_join(th[i], NULL), 0);
    for (int i = 0; i < 2; i++) CHECK_MSG(t[i].own_message_kept, "round %d, thread %d", round, i);
  }
  /* Other threads' failures leave this thread's message alone. */
  CHECK_STR(rx_last_error(), "rx_subject_on_next: subject is NULL");
}

RX_TEST(smoke_plain_values) {
  int64_t live = rx_debug_live_objects();
  rx_value a = rx_int(42);
  rx_value b = RX_INT(-7);
  rx_value big = rx_int(INT64_MIN);
  CHECK(live >= 0);
  CHECK_EQ(a.kind, RX_INT);
  CHECK_EQ(a.i, 42);
  CHECK_EQ(b.kind, RX_INT);
  CHECK_EQ(b.i, -7);
  CHECK_EQ(big.i, INT64_MIN);
  /* Plain data allocates nothing. */
  CHECK_EQ(rx_debug_live_objects(), live);
}

RX_TEST(smoke_harness_clock) {
  int64_t t0 = rxtest_now_ns();
  rxtest_sleep_ms(20);
  int64_t dt = rxtest_now_ns() - t0;
  CHECK_MSG(dt >= 20 * 1000000LL, "slept only %lld ns", (long long)dt);
  CHECK(rxtest_name() != NULL);
  CHECK_STR(rxtest_name(), "smoke_harness_clock");
}
