#include <stddef.h>
/* Heap bytes in use (mallinfo2: small blocks + mmapped blocks). */
size_t bench_heap_in_use(void);
