/* A process-wide memory barrier (Linux membarrier, private expedited): when it returns, every
 * thread of the process has executed a full fence. It lets a subscription's delivering side
 * run with plain loads and stores while a rare disposer on another thread still gets the
 * store-then-load ordering it needs (see CObserver.swift). Registered once, on first use. */
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "rxc_swift.h"

int rxc_process_barrier_ok;

/* At load time, so the hot path reads a plain global (a Swift global would go through
   swift_once on every access). */
__attribute__((constructor)) static void rxc_process_barrier_init(void) {
  long cmds = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  if (cmds < 0 || !(cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED)) return;
  rxc_process_barrier_ok = syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
}

void rxc_process_barrier(void) {
  syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
}
