/* Shared helpers for the operator tests (test_ops_*.c): a recording observer that writes a
 * compact event log, hot sources built on rx_create with a retained emitter, and context
 * counters for ctx_free checks.
 *
 * Log format: values separated by spaces; ints as digits, strings 'quoted', arrays [a,b],
 * events N(x)/E(code)/C; an error as #code(message); completed as |; on_disposed as '.'. */
#ifndef OPS_SUPPORT_H
#define OPS_SUPPORT_H

#include "rxtest.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct rec {
  char log[2048];
  int nexts, errors, completed, disposed;
  int32_t error_code;
} rec;

static inline void rec_append(rec *r, const char *s) {
  size_t n = strlen(r->log);
  if (n && s[0] != '.') strncat(r->log, " ", sizeof r->log - n - 1);
  strncat(r->log, s, sizeof r->log - strlen(r->log) - 1);
}

static inline void fmt_value(rx_value v, char *buf, size_t cap) {
  switch (v.kind) {
  case RX_NONE: snprintf(buf, cap, "none"); break;
  case RX_INT: snprintf(buf, cap, "%lld", (long long)v.i); break;
  case RX_DOUBLE: snprintf(buf, cap, "%g", RX_DOUBLE_OF(v)); break;
  case RX_BOOL: snprintf(buf, cap, "%s", RX_BOOL_OF(v) ? "T" : "F"); break;
  case RX_PTR: snprintf(buf, cap, "ptr"); break;
  case RX_STRING: snprintf(buf, cap, "'%s'", rx_value_string(v)); break;
  case RX_BYTES: snprintf(buf, cap, "bytes"); break;
  case RX_OBJECT: snprintf(buf, cap, "obj"); break;
  case RX_OBSERVABLE: snprintf(buf, cap, "obs"); break;
  case RX_ARRAY: {
    size_t n = rx_array_count(v), used = 0;
    used += snprintf(buf + used, cap - used, "[");
    for (size_t i = 0; i < n && used < cap; i++) {
      char item[256];
      fmt_value(rx_array_get(v, i), item, sizeof item);
      used += snprintf(buf + used, cap - used, "%s%s", i ? "," : "", item);
    }
    if (used < cap) snprintf(buf + used, cap - used, "]");
    break;
  }
  case RX_EVENT:
    switch (rx_value_event_kind(v)) {
    case RX_EVENT_NEXT: {
      char item[256];
      fmt_value(rx_value_event_value(v), item, sizeof item);
      snprintf(buf, cap, "N(%s)", item);
      break;
    }
    case RX_EVENT_ERROR: snprintf(buf, cap, "E(%d)", (int)rx_error_code(rx_value_event_error(v))); break;
    case RX_EVENT_COMPLETED: snprintf(buf, cap, "C"); break;
    default: snprintf(buf, cap, "E?"); break;
    }
    break;
  default: snprintf(buf, cap, "?"); break;
  }
}

static inline void rec_next(void *ctx, rx_value v) {
  rec *r = ctx;
  char buf[512];
  fmt_value(v, buf, sizeof buf);
  r->nexts++;
  rec_append(r, buf);
}
static inline void rec_error(void *ctx, const rx_error *e) {
  rec *r = ctx;
  char buf[300];
  snprintf(buf, sizeof buf, "#%d(%s)", (int)rx_error_code(e), rx_error_message(e));
  r->errors++;
  r->error_code = rx_error_code(e);
  rec_append(r, buf);
}
static inline void rec_completed(void *ctx) {
  rec *r = ctx;
  r->completed++;
  rec_append(r, "|");
}
static inline void rec_disposed(void *ctx) {
  rec *r = ctx;
  r->disposed++;
  rec_append(r, ".");
}
static inline rx_observer rec_observer(rec *r) {
  memset(r, 0, sizeof *r);
  rx_observer o = {rec_next, rec_error, rec_completed, rec_disposed, r};
  return o;
}

/* Sources made inline (INTS, THROW, EMPTY, NEVER) go to a pool that run_log (or pool_drain)
 * releases, so one-line tests need no bookkeeping. */
static rx_observable *rx_pool[256];
static int rx_pool_n;
static inline rx_observable *A(rx_observable *o) {
  rx_pool[rx_pool_n++] = o;
  return o;
}
static inline void pool_drain(void) {
  while (rx_pool_n) rx_release(rx_pool[--rx_pool_n]);
}
#define EMPTY() A(rx_empty())
#define THROW_BOOM() throw_code(RX_ERROR_USER)
/* 1, then error 1000 "boom" */
#define INTS_THEN_ERROR() ints_then_error()
#define NEVER() A(rx_never())

/* Subscribes a recorder, disposes, releases `o`, and returns the log (a rotating static buffer). */
static inline const char *run_log(rx_observable *o) {
  static char bufs[8][2048];
  static int next;
  rec r;
  rx_disposable *d = rx_subscribe(o, rec_observer(&r));
  rx_dispose(d);
  rx_release(o);
  pool_drain();
  char *out = bufs[next++ % 8];
  snprintf(out, 2048, "%s", r.log);
  return out;
}

static inline rx_observable *ints_owned_n(int n, const int64_t *v) {
  rx_value vals[64];
  for (int i = 0; i < n; i++) vals[i] = rx_int(v[i]);
  return rx_of(vals, (size_t)n);
}
static inline rx_observable *ints_n(int n, const int64_t *v) { return A(ints_owned_n(n, v)); }
#define INTS(...) ints_n((int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), (int64_t[]){__VA_ARGS__})
/* Not pooled: for callbacks that return an owned observable to the library. */
#define INTS_OWNED(...) \
  ints_owned_n((int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), (int64_t[]){__VA_ARGS__})

static inline rx_observable *throw_code(int32_t code) {
  rx_error *e = rx_error_new(code, "boom");
  rx_observable *o = rx_throw(e);
  rx_release(e);
  return A(o);
}

static inline rx_observable *ints_then_error(void) {
  rx_observable *parts[2] = {INTS(1), THROW_BOOM()};
  return A(rx_concat(parts, 2));
}

/* A hot source: rx_create whose emitter is kept; events are pushed by the test. */
typedef struct hot {
  rx_emitter *em;
  int subscribed, disposed;
} hot;
static inline void hot_on_dispose(void *ctx) { ((hot *)ctx)->disposed++; }
static inline rx_disposable *hot_subscribe(void *ctx, rx_emitter *e) {
  hot *h = ctx;
  if (h->em) rx_release(h->em);
  h->em = rx_retain(e);
  h->subscribed++;
  return rx_disposable_create(hot_on_dispose, h, NULL);
}
static inline rx_observable *hot_new(hot *h) {
  memset(h, 0, sizeof *h);
  return rx_create(hot_subscribe, h, NULL);
}
static inline void hot_next(hot *h, int64_t v) { rx_emitter_next(h->em, rx_int(v)); }
static inline void hot_completed(hot *h) { rx_emitter_completed(h->em); }
static inline void hot_error(hot *h, int32_t code) {
  rx_error *e = rx_error_new(code, "hot");
  rx_emitter_error(h->em, e);
  rx_release(e);
}
static inline void hot_end(hot *h) {
  rx_release(h->em);
  h->em = NULL;
}

/* A callback context that counts how often ctx_free ran and how often it was called. */
typedef struct counter {
  int freed, calls;
  int64_t arg;
} counter;
static inline void counter_free(void *ctx) { ((counter *)ctx)->freed++; }

static inline rx_error *user_error(const char *msg) { return rx_error_new(RX_ERROR_USER + 1, msg); }

#endif
