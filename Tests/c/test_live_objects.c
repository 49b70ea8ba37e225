/* rx_debug_live_objects() counts per thread (Sources/CRxResources): objects made on one
 * thread and freed on another must net out, also after either thread has exited. */
#include <pthread.h>

#include "rxtest.h"

enum { LIVE_OBJECTS = 8 };

static void *make_objects(void *arg) {
  rx_observable **out = arg;
  for (int i = 0; i < LIVE_OBJECTS; i++) out[i] = rx_just(RX_INT(i));
  return NULL;
}

static void *release_objects(void *arg) {
  rx_observable **in = arg;
  for (int i = 0; i < LIVE_OBJECTS; i++) rx_release(in[i]);
  return NULL;
}

static void run_thread(void *(*body)(void *), void *arg) {
  pthread_t t;
  CHECK_EQ(pthread_create(&t, NULL, body, arg), 0);
  CHECK_EQ(pthread_join(t, NULL), 0);
}

RX_TEST(live_objects_made_on_an_exited_thread_freed_here) {
  int64_t start = rx_debug_live_objects();
  rx_observable *objects[LIVE_OBJECTS];
  run_thread(make_objects, objects);
  CHECK_EQ(rx_debug_live_objects(), start + LIVE_OBJECTS);
  release_objects(objects);
  CHECK_EQ(rx_debug_live_objects(), start);
}

RX_TEST(live_objects_made_here_freed_on_an_exited_thread) {
  int64_t start = rx_debug_live_objects();
  rx_observable *objects[LIVE_OBJECTS];
  make_objects(objects);
  CHECK_EQ(rx_debug_live_objects(), start + LIVE_OBJECTS);
  run_thread(release_objects, objects);
  CHECK_EQ(rx_debug_live_objects(), start);
}

RX_TEST(live_objects_across_many_short_threads) {
  int64_t start = rx_debug_live_objects();
  rx_observable *objects[LIVE_OBJECTS];
  for (int round = 0; round < 50; round++) {
    run_thread(make_objects, objects);
    CHECK_EQ(rx_debug_live_objects(), start + LIVE_OBJECTS);
    run_thread(release_objects, objects);
    CHECK_EQ(rx_debug_live_objects(), start);
  }
}
