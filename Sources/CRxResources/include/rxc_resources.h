/* Per-thread live-object counters behind RxCore's `Resources` (rx_debug_live_objects()).
 * Every object init/deinit counts itself; a shared atomic counter cost one locked RMW each
 * time. Here each thread owns a counter in its static TLS block and updates it with a plain
 * load and store; `rxc_resources_total` sums a global (the counts of exited threads) and
 * every live thread's counter under a mutex. An increment on one thread and a decrement on
 * another net out in the sum. */
#ifndef RXC_RESOURCES_H
#define RXC_RESOURCES_H
#include <stdint.h>

typedef struct rxc_resources_block {
  int64_t count;                      /* written only by the owner thread (atomic, relaxed) */
  int32_t state;                      /* 0 unregistered, 1 registered, 2 thread exiting */
  struct rxc_resources_block *prev, *next;  /* the registry list, under its mutex */
} rxc_resources_block;

/* initial-exec: one %fs-relative access, no __tls_get_addr call. The block is small enough for
 * glibc's static TLS surplus when the library is dlopen()ed (swift test's XCTest bundle). */
extern __thread rxc_resources_block rxc_resources_tls
    __attribute__((tls_model("initial-exec"), visibility("hidden")));

void rxc_resources_add_slow(int64_t delta);
int64_t rxc_resources_total(void);

static inline __attribute__((always_inline)) void rxc_resources_add(int64_t delta) {
  rxc_resources_block *b = &rxc_resources_tls;
  if (__builtin_expect(b->state != 1, 0)) {
    rxc_resources_add_slow(delta);
    return;
  }
  /* Only this thread writes `count`: no locked RMW; atomic so readers (and TSan) see a whole value. */
  __atomic_store_n(&b->count, __atomic_load_n(&b->count, __ATOMIC_RELAXED) + delta, __ATOMIC_RELAXED);
}
#endif
