/* Virtual-time sources and recording for the operator tests, in the style of RxSwift's
 * TestScheduler tests: hot and cold sources scripted as "210:1 230:#5 250:|" (next 1 at 210,
 * error code 5 at 230, completed at 250; cold times are relative to the subscription), a
 * subscription made at one virtual time and disposed at another, a "time:event" log, and each
 * source's subscription intervals ("200-250 260-1000"). */
#ifndef OPS_VTIME_H
#define OPS_VTIME_H

#include "ops_support.h"
#include <stdlib.h>

typedef struct vt_ev {
  int64_t at;
  char kind; /* 'n', 'c', 'e' */
  int64_t value;
} vt_ev;

typedef struct vt vt;
typedef struct vt_src {
  vt *v;
  rx_observable *obs;
  vt_ev ev[32];
  int n;
  bool cold;
  int64_t sub_at[16], unsub_at[16];
  int nsubs;
} vt_src;

struct vt {
  rx_scheduler *s;
  vt_src src[8];
  int nsrc;
  char log[2048];
  char subs[256];
  int disposed;
};

typedef struct vt_job {
  rx_emitter *em;
  vt_ev ev;
} vt_job;

static inline void vt_job_run(void *ctx) {
  vt_job *j = ctx;
  if (j->ev.kind == 'n') {
    rx_emitter_next(j->em, rx_int(j->ev.value));
  } else if (j->ev.kind == 'c') {
    rx_emitter_completed(j->em);
  } else {
    rx_error *e = rx_error_new((int32_t)j->ev.value, "vt");
    rx_emitter_error(j->em, e);
    rx_release(e);
  }
}
static inline void vt_job_free(void *ctx) {
  vt_job *j = ctx;
  rx_release(j->em);
  free(j);
}

typedef struct vt_unsub {
  vt_src *src;
  int k;
} vt_unsub;
static inline void vt_unsub_run(void *ctx) {
  vt_unsub *u = ctx;
  u->src->unsub_at[u->k] = rx_scheduler_now_ns(u->src->v->s);
}

static inline rx_disposable *vt_subscribe(void *ctx, rx_emitter *em) {
  vt_src *src = ctx;
  int64_t now = rx_scheduler_now_ns(src->v->s);
  int k = src->nsubs++;
  src->sub_at[k] = now;
  src->unsub_at[k] = -1;
  rx_disposable *all = rx_composite_disposable_new();
  for (int i = 0; i < src->n; i++) {
    int64_t delay = src->cold ? src->ev[i].at : src->ev[i].at - now;
    if (delay < 0) continue; /* a hot source's past */
    vt_job *j = malloc(sizeof *j);
    j->em = rx_retain(em);
    j->ev = src->ev[i];
    rx_composite_disposable_add(all, rx_schedule_after(src->v->s, delay, vt_job_run, j, vt_job_free));
  }
  vt_unsub *u = malloc(sizeof *u);
  u->src = src;
  u->k = k;
  rx_composite_disposable_add(all, rx_disposable_create(vt_unsub_run, u, free));
  return all;
}

static inline void vt_begin(vt *v) {
  memset(v, 0, sizeof *v);
  v->s = rx_test_scheduler_new();
}

static inline vt_src *vt_source(vt *v, bool cold, const char *spec) {
  vt_src *src = &v->src[v->nsrc++];
  src->v = v;
  src->cold = cold;
  const char *p = spec;
  while (*p) {
    while (*p == ' ') p++;
    if (!*p) break;
    vt_ev *e = &src->ev[src->n++];
    e->at = strtoll(p, (char **)&p, 10);
    p++; /* ':' */
    if (*p == '|') {
      e->kind = 'c';
      p++;
    } else if (*p == '#') {
      e->kind = 'e';
      e->value = strtoll(p + 1, (char **)&p, 10);
    } else {
      e->kind = 'n';
      e->value = strtoll(p, (char **)&p, 10);
    }
  }
  src->obs = rx_create(vt_subscribe, src, NULL);
  return src;
}
static inline vt_src *vt_hot(vt *v, const char *spec) { return vt_source(v, false, spec); }
static inline vt_src *vt_cold(vt *v, const char *spec) { return vt_source(v, true, spec); }

static inline void vt_log(vt *v, const char *text) {
  size_t len = strlen(v->log);
  snprintf(v->log + len, sizeof v->log - len, "%s%lld:%s", len ? " " : "",
           (long long)rx_scheduler_now_ns(v->s), text);
}
static inline void vt_on_next(void *ctx, rx_value val) {
  char b[256];
  fmt_value(val, b, sizeof b);
  vt_log(ctx, b);
}
static inline void vt_on_error(void *ctx, const rx_error *e) {
  char b[32];
  snprintf(b, sizeof b, "#%d", (int)rx_error_code(e));
  vt_log(ctx, b);
}
static inline void vt_on_completed(void *ctx) { vt_log(ctx, "|"); }
static inline void vt_on_disposed(void *ctx) { ((vt *)ctx)->disposed++; }

typedef struct vt_sub {
  vt *v;
  rx_observable *op;
  rx_disposable *token;
} vt_sub;
static inline void vt_do_subscribe(void *ctx) {
  vt_sub *s = ctx;
  rx_observer o = {vt_on_next, vt_on_error, vt_on_completed, vt_on_disposed, s->v};
  s->token = rx_subscribe(s->op, o);
}
static inline void vt_do_dispose(void *ctx) {
  vt_sub *s = ctx;
  rx_dispose(s->token);
  s->token = NULL;
}

/* Subscribes `op` (taken) at virtual time `sub`, disposes at `unsub`, runs the scheduler to
 * the end, and returns the log. */
static inline const char *vt_run(vt *v, rx_observable *op, int64_t sub, int64_t unsub) {
  vt_sub s = {v, op, NULL};
  rx_disposable *a = rx_schedule_after(v->s, sub, vt_do_subscribe, &s, NULL);
  rx_disposable *b = rx_schedule_after(v->s, unsub, vt_do_dispose, &s, NULL);
  rx_test_scheduler_run(v->s);
  rx_release(a), rx_release(b);
  if (s.token) rx_dispose(s.token);
  rx_release(op);
  return v->log;
}
/* RxSwift's defaults: subscribe at 200, dispose at 1000. */
#define VT_RUN(v, op) vt_run((v), (op), 200, 1000)

/* "200-250 260-1000": when each subscription to `src` started and ended. */
static inline const char *vt_subs(vt_src *src) {
  char *out = src->v->subs;
  out[0] = 0;
  for (int k = 0; k < src->nsubs; k++) {
    size_t len = strlen(out);
    if (src->unsub_at[k] < 0)
      snprintf(out + len, sizeof src->v->subs - len, "%s%lld-", k ? " " : "", (long long)src->sub_at[k]);
    else
      snprintf(out + len, sizeof src->v->subs - len, "%s%lld-%lld", k ? " " : "", (long long)src->sub_at[k],
               (long long)src->unsub_at[k]);
  }
  return out;
}

static inline void vt_end(vt *v) {
  for (int i = 0; i < v->nsrc; i++) rx_release(v->src[i].obs);
  rx_release(v->s);
  pool_drain();
}

#endif
