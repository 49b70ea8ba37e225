/* A process-wide memory barrier: when rxc_process_barrier() returns, every thread of the
 * process has executed a full fence. It lets a subscription's delivering side run with plain
 * loads and stores while a rare disposer on another thread still gets the store-then-load
 * ordering it needs (see RxCore/Core/ObserverEnd.swift).
 *
 * Linux membarrier (private expedited), registered at load time. Where the kernel lacks it,
 * on x86 only, the classic fallback (as .NET's FlushProcessWriteBuffers): changing the
 * protection of a page this process has touched makes the kernel interrupt every CPU running
 * one of its threads to flush its TLB, and an interrupt is a full barrier. Elsewhere (AArch64
 * broadcasts TLB invalidations without interrupting the other CPUs) there is no fallback:
 * rxc_process_barrier_works() says 0 and callers fence on both sides (AsymmetricFence.swift).
 * RXC_PROCESS_BARRIER=mprotect forces the fallback (make ctest runs the dispose-race tests
 * with it too). docs/CONCURRENCY.md has the argument. */
#include <linux/membarrier.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "rxc_core.h"

#if defined(__x86_64__) || defined(__i386__)
#define RXC_TLB_FALLBACK 1
#else
#define RXC_TLB_FALLBACK 0
#endif

static int use_membarrier;
static int barrier_works = RXC_TLB_FALLBACK;
/* The fallback's page: static, so it exists without an mmap that could fail. */
static volatile char flush_page[1 << 16] __attribute__((aligned(1 << 16)));
static pthread_mutex_t flush_lock = PTHREAD_MUTEX_INITIALIZER;

__attribute__((constructor)) static void rxc_process_barrier_init(void) {
  const char *force = getenv("RXC_PROCESS_BARRIER");
  long cmds = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  if (!(force && strcmp(force, "mprotect") == 0) && cmds >= 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
      syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0)
    use_membarrier = 1;
  if (use_membarrier) barrier_works = 1;
  rxc_fork_lock_register(&flush_lock); /* a child that falls back must not find it held */
}

int rxc_process_barrier_works(void) { return barrier_works; }

void rxc_process_barrier(void) {
  /* A failure (say the registration did not carry over into a forked child) falls back to
   * the page-protection barrier rather than leaving callers without one. */
  if (use_membarrier && syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0) return;
#if RXC_TLB_FALLBACK
  size_t size = (size_t)sysconf(_SC_PAGESIZE);
  pthread_mutex_lock(&flush_lock);
  flush_page[0]++; /* dirty and present, so the protection change must shoot down TLBs */
  mprotect((void *)flush_page, size, PROT_READ);
  mprotect((void *)flush_page, size, PROT_READ | PROT_WRITE);
  pthread_mutex_unlock(&flush_lock);
#else
  /* No process barrier here (barrier_works is 0, so callers fenced both sides). */
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}
