/* Locks held across fork(): a prepare handler takes every registered mutex before fork()
 * and the parent and child handlers release them after it, so a child never inherits one
 * that a parent thread (absent there) held, nor the state it guards half changed. The
 * handler takes them in no particular order, so the rule that keeps it deadlock-free is:
 * no thread takes a registered lock, registers or unregisters one while holding one. */
#include <pthread.h>
#include <stdlib.h>
#include "rxc_core.h"

static pthread_mutex_t registry = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t **locks;
static size_t count, capacity;

static void take_all(void) {
  pthread_mutex_lock(&registry);
  for (size_t i = 0; i < count; i++) pthread_mutex_lock(locks[i]);
}

static void release_all(void) {
  for (size_t i = count; i-- > 0;) pthread_mutex_unlock(locks[i]);
  pthread_mutex_unlock(&registry);
}

__attribute__((constructor)) static void rxc_fork_locks_init(void) {
  pthread_atfork(take_all, release_all, release_all);
}

void rxc_fork_lock_register(pthread_mutex_t *lock) {
  pthread_mutex_lock(&registry);
  if (count == capacity) {
    size_t grown = capacity ? capacity * 2 : 16;
    pthread_mutex_t **bigger = realloc(locks, grown * sizeof *locks);
    if (!bigger) abort(); /* a lock the child could inherit held: not silently */
    locks = bigger;
    capacity = grown;
  }
  locks[count++] = lock;
  pthread_mutex_unlock(&registry);
}

void rxc_fork_lock_unregister(pthread_mutex_t *lock) {
  pthread_mutex_lock(&registry);
  for (size_t i = count; i-- > 0;) {
    if (locks[i] == lock) {
      locks[i] = locks[--count];
      break;
    }
  }
  pthread_mutex_unlock(&registry);
}
