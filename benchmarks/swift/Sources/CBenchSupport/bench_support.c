#include <malloc.h>
#include "bench_support.h"

size_t bench_heap_in_use(void) {
  struct mallinfo2 mi = mallinfo2();
  return mi.uordblks + mi.hblkhd;
}
