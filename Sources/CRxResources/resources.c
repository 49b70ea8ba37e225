/* Registry of the per-thread counters (see rxc_resources.h). A thread registers its block on
 * its first count; a pthread key destructor folds the count into `retired` and unregisters
 * it at thread exit. Counts made after that (other TLS destructors releasing objects) go to
 * `retired` directly. A fork()ed child folds the other threads' blocks into `retired` (see
 * child_after_fork), so the sum stays exact; the atfork handlers keep the mutex consistent
 * across fork. */
#include <pthread.h>
#include "rxc_resources.h"

__thread rxc_resources_block rxc_resources_tls __attribute__((tls_model("initial-exec")));

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static rxc_resources_block registry = {0, 1, &registry, &registry};  /* list head (sentinel) */
static int64_t retired;  /* counts of exited threads; atomic */
static pthread_key_t exit_key;
static pthread_once_t setup_once = PTHREAD_ONCE_INIT;

static void lock_registry(void) { pthread_mutex_lock(&registry_lock); }
static void unlock_registry(void) { pthread_mutex_unlock(&registry_lock); }

static void thread_exit(void *p) {
  rxc_resources_block *b = p;
  lock_registry();
  b->prev->next = b->next;
  b->next->prev = b->prev;
  __atomic_fetch_add(&retired, __atomic_load_n(&b->count, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
  __atomic_store_n(&b->count, 0, __ATOMIC_RELAXED);
  b->state = 2;
  unlock_registry();
}

/* In a forked child only the forking thread exists. The other threads' blocks lie in their
 * stacks' TLS, which the child reuses for its new threads (zeroing them) or unmaps: keep
 * them listed and the next unlink writes through a stale pointer. Their counts are folded
 * into `retired` now, while that memory is still the parent's copy. */
static void child_after_fork(void) {
  rxc_resources_block *self = &rxc_resources_tls;
  for (rxc_resources_block *b = registry.next; b != &registry; b = b->next)
    if (b != self) retired += __atomic_load_n(&b->count, __ATOMIC_RELAXED);
  registry.next = registry.prev = &registry;
  if (self->state == 1) {
    self->next = self->prev = &registry;
    registry.next = registry.prev = self;
  }
  unlock_registry();
}

static void setup(void) {
  pthread_key_create(&exit_key, thread_exit);
  pthread_atfork(lock_registry, unlock_registry, child_after_fork);
}

void rxc_resources_add_slow(int64_t delta) {
  rxc_resources_block *b = &rxc_resources_tls;
  if (b->state == 2) {  /* this thread is exiting: its block is gone from the registry */
    __atomic_fetch_add(&retired, delta, __ATOMIC_RELAXED);
    return;
  }
  pthread_once(&setup_once, setup);
  lock_registry();
  b->next = registry.next;
  b->prev = &registry;
  registry.next->prev = b;
  registry.next = b;
  __atomic_store_n(&b->count, delta, __ATOMIC_RELAXED);
  b->state = 1;
  unlock_registry();
  if (pthread_setspecific(exit_key, b) != 0) thread_exit(b);  /* no exit hook: never leave it listed */
}

int64_t rxc_resources_total(void) {
  pthread_once(&setup_once, setup);
  lock_registry();
  int64_t sum = __atomic_load_n(&retired, __ATOMIC_RELAXED);
  for (rxc_resources_block *b = registry.next; b != &registry; b = b->next)
    sum += __atomic_load_n(&b->count, __ATOMIC_RELAXED);
  unlock_registry();
  return sum;
}
