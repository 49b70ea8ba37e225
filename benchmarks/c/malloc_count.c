/* LD_PRELOAD allocation counter: counts malloc, calloc, realloc, posix_memalign,
 * aligned_alloc, memalign and valloc calls. The benchmark reads the count around its measured
 * region through malloc_count_total() (found with dlsym); with MALLOC_COUNT_FD=n set, the
 * total is also written to fd n at exit. Allocations per unit = difference of two sizes
 * divided by the size difference. */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static _Atomic unsigned long long count;

static inline void counted(void) { atomic_fetch_add_explicit(&count, 1, memory_order_relaxed); }

__attribute__((visibility("default"))) unsigned long long malloc_count_total(void) {
  return atomic_load_explicit(&count, memory_order_relaxed);
}

void *malloc(size_t n) { counted(); return __libc_malloc(n); }
void *calloc(size_t k, size_t n) { counted(); return __libc_calloc(k, n); }
void *realloc(void *p, size_t n) { counted(); return __libc_realloc(p, n); }
void *memalign(size_t a, size_t n) { counted(); return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { counted(); return __libc_memalign(a, n); }
void *valloc(size_t n) { counted(); return __libc_memalign((size_t)sysconf(_SC_PAGESIZE), n); }

int posix_memalign(void **out, size_t a, size_t n) {
  counted();
  if (a < sizeof(void *) || (a & (a - 1)) != 0) return 22; /* EINVAL */
  void *p = __libc_memalign(a, n);
  if (!p && n) return 12; /* ENOMEM */
  *out = p;
  return 0;
}

__attribute__((destructor)) static void report(void) {
  const char *fd = getenv("MALLOC_COUNT_FD");
  if (!fd) return;
  char line[64];
  int len = snprintf(line, sizeof line, "malloc_count %llu\n", malloc_count_total());
  if (write(atoi(fd), line, (size_t)len) < 0) {}
}
