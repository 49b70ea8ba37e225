#include <malloc.h>
#include "bench_support.h"

size_t bench_heap_in_use(void) {
  struct mallinfo2 mi = mallinfo2();
  return mi.uordblks + mi.hblkhd;
}

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
void bench_callgrind_zero(void) { CALLGRIND_ZERO_STATS; }
void bench_callgrind_dump(const char *name) { CALLGRIND_DUMP_STATS_AT(name); }
#else
void bench_callgrind_zero(void) {}
void bench_callgrind_dump(const char *name) { (void)name; }
#endif
