/* How many forks separate this process from the one that loaded the library: 0 in the
 * original process, +1 in each child of a fork (counted by a fork handler). The core reads
 * it on its scheduling paths: libdispatch does not work in a forked child, so there the
 * schedulers run on threads of their own, started lazily. */
#include <pthread.h>
#include "rxc_core.h"

unsigned long rxc_fork_generation_value;

static void rxc_fork_child(void) {
  __atomic_store_n(&rxc_fork_generation_value, rxc_fork_generation_value + 1, __ATOMIC_RELAXED);
}

__attribute__((constructor)) static void rxc_fork_generation_init(void) {
  pthread_atfork(NULL, NULL, rxc_fork_child);
}
