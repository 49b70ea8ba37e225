/* The catalog's timing, as Tests/perf/workloads.c's `--time MS` does it, for the programs
 * that time twins of its workloads (benchmarks/c/floor.c, benchmarks/cpp/catalog_rxcpp.cpp):
 * per workload, a warm-up of 1000 events, a second one of about MS/10 ms that sizes the run,
 * then one timed run of about MS ms; prints "RESULT name impl n=N min_ns=T median_ns=T".
 * run.py takes the minimum over its passes and joins the rows by name. C and C++. */
#ifndef RXC_BENCH_CATALOG_TIME_H
#define RXC_BENCH_CATALOG_TIME_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* One run of a workload over n events; returns what its subscriber received (0: broken). */
typedef long (*catalog_body)(long n);
typedef struct {
  const char *name;
  catalog_body run;
} catalog_workload;

static double catalog_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ns per event of one run of n events; exits if nothing arrived. */
static double catalog_time_one(const catalog_workload *w, long n) {
  double t0 = catalog_now_ns();
  long got = w->run(n);
  double ns = (catalog_now_ns() - t0) / (double)n;
  if (got == 0) {
    fprintf(stderr, "%s delivered nothing\n", w->name);
    exit(1);
  }
  return ns;
}

/* Events that fill about max_ms at ns_per_event, within [1000, 4M] (workloads.c's bounds). */
static long catalog_size_for(double max_ms, double ns_per_event) {
  double n = max_ms * 1e6 / (ns_per_event > 0.1 ? ns_per_event : 0.1);
  return n < 1000 ? 1000 : n > 4e6 ? 4000000 : (long)n;
}

/* `prog --list` prints the names; `prog --time MS [name ...]` times them (all without names);
   `prog --count N [name ...]` prints what each delivers for N events, as `workloads N` does
   (a twin delivers what its workload delivers). */
static int catalog_main(const char *impl, const catalog_workload *ws, size_t count, int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "--list")) {
    for (size_t w = 0; w < count; w++) printf("%s\n", ws[w].name);
    return 0;
  }
  int counting = argc >= 3 && !strcmp(argv[1], "--count");
  if (argc < 3 || (!counting && strcmp(argv[1], "--time"))) {
    fprintf(stderr, "usage: %s --list | --time MS [workload ...] | --count N [workload ...]\n", argv[0]);
    return 2;
  }
  double max_ms = atof(argv[2]);
  for (size_t w = 0; w < count; w++) {
    int picked = argc == 3;
    for (int a = 3; a < argc; a++) picked |= !strcmp(argv[a], ws[w].name);
    if (!picked) continue;
    if (counting) {
      printf("%s %ld\n", ws[w].name, ws[w].run(atol(argv[2])));
      continue;
    }
    long n = catalog_size_for(max_ms / 10, catalog_time_one(&ws[w], 1000));
    n = catalog_size_for(max_ms, catalog_time_one(&ws[w], n));
    double ns = catalog_time_one(&ws[w], n);
    printf("RESULT %s %s n=%ld min_ns=%.3f median_ns=%.3f\n", ws[w].name, impl, n, ns, ns);
    fflush(stdout);
  }
  return 0;
}

#endif
