/* A process-wide memory barrier: when rxc_process_barrier() returns, every thread of the
 * process has executed a full fence. It lets a subscription's delivering side run with plain
 * loads and stores while a rare disposer on another thread still gets the store-then-load
 * ordering it needs (see CObserver.swift).
 *
 * Linux membarrier (private expedited), registered at load time. Where the kernel lacks it,
 * the classic fallback (as .NET's FlushProcessWriteBuffers): changing the protection of a
 * page this process has touched makes the kernel interrupt every CPU running one of its
 * threads to flush its TLB, and an interrupt is a full barrier. RXC_PROCESS_BARRIER=mprotect
 * forces the fallback (make ctest runs the dispose-race tests with it too). */
#include <linux/membarrier.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "rxc_core.h"

static int use_membarrier;
static int barrier_works = 1;
static volatile char *flush_page;
static pthread_mutex_t flush_lock = PTHREAD_MUTEX_INITIALIZER;

__attribute__((constructor)) static void rxc_process_barrier_init(void) {
  const char *force = getenv("RXC_PROCESS_BARRIER");
  long cmds = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  if (!(force && strcmp(force, "mprotect") == 0) && cmds >= 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
      syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0)
    use_membarrier = 1;
  /* Mapped either way: it is also membarrier's fallback. */
  void *p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p != MAP_FAILED) flush_page = p;
  else if (!use_membarrier) barrier_works = 0;
}

int rxc_process_barrier_works(void) { return barrier_works; }

void rxc_process_barrier(void) {
  /* A failure (say the registration did not carry over into a forked child) falls back to
   * the page-protection barrier rather than leaving callers without one. */
  if (use_membarrier && syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0) return;
  size_t size = (size_t)sysconf(_SC_PAGESIZE);
  pthread_mutex_lock(&flush_lock);
  if (flush_page) {
    flush_page[0]++;  /* dirty and present, so the protection change must shoot down TLBs */
    mprotect((void *)flush_page, size, PROT_READ);
    mprotect((void *)flush_page, size, PROT_READ | PROT_WRITE);
  } else {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
  }
  pthread_mutex_unlock(&flush_lock);
}
