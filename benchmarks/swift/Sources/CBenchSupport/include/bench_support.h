#include <stddef.h>
/* Heap bytes in use (mallinfo2: small blocks + mmapped blocks). */
size_t bench_heap_in_use(void);
/* Under callgrind: zero the counters; dump them under `name` (one dump per workload, as
   Tests/perf/workloads.c does). No-ops otherwise, and without valgrind's header. */
void bench_callgrind_zero(void);
void bench_callgrind_dump(const char *name);
