/* How many forks separate this process from the one that loaded the library: 0 in the
 * original process, +1 in each child of a fork (counted by a fork handler). The core reads
 * it on its scheduling paths: libdispatch does not work in a forked child, so there the
 * schedulers run on threads of their own, started lazily. */
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "rxc_core.h"

unsigned long rxc_fork_generation_value;

static void rxc_fork_child(void) {
  __atomic_store_n(&rxc_fork_generation_value, rxc_fork_generation_value + 1, __ATOMIC_RELAXED);
}

__attribute__((constructor)) static void rxc_fork_generation_init(void) {
  pthread_atfork(NULL, NULL, rxc_fork_child);
}

/* The kernel's test for the initial thread (its thread id is the process id), remembered
 * per thread: two system calls the first time a thread asks in each fork generation (a
 * forked child's only thread is its initial one), none after. */
static __thread unsigned long rxc_initial_checked_in; /* generation + 1; 0: never */
static __thread int rxc_initial;

int rxc_thread_is_initial(void) {
  unsigned long g = rxc_fork_generation() + 1;
  if (rxc_initial_checked_in != g) {
    rxc_initial = syscall(SYS_gettid) == getpid();
    rxc_initial_checked_in = g;
  }
  return rxc_initial;
}

/* This thread's kernel thread id, remembered per thread and fork generation (a system call
 * the first time a thread asks in each generation, none after). */
static __thread unsigned long rxc_tid_checked_in; /* generation + 1; 0: never */
static __thread long rxc_tid;

long rxc_thread_tid(void) {
  unsigned long g = rxc_fork_generation() + 1;
  if (rxc_tid_checked_in != g) {
    rxc_tid = syscall(SYS_gettid);
    rxc_tid_checked_in = g;
  }
  return rxc_tid;
}
