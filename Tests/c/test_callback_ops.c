/* The operators that call a C callback per element (scan, reduce, take_while and its kin,
 * skip_while, compact_map, distinct_until_changed): a callback's error fails the stream and
 * stops the calls, ctx_free runs once after the last subscription, and a callback that
 * disposes its own subscription gets no further call. One table, every operator. */
#include "ops_support.h"

typedef struct probe {
  int calls, late, freed;
  int64_t fail_at, dispose_at;
  rx_disposable *d;
} probe;

static void probe_free(void *ctx) { ((probe *)ctx)->freed++; }

static void probe_hit(void *ctx, rx_value v, rx_error **err) {
  probe *p = ctx;
  p->calls++;
  if ((p->fail_at >= 0 && v.i > p->fail_at) || (p->dispose_at >= 0 && v.i > p->dispose_at)) p->late++;
  if (v.i == p->fail_at) *err = user_error("cb");
  if (v.i == p->dispose_at) rx_dispose(p->d);
}
static bool probe_pred(void *ctx, rx_value v, rx_error **err) {
  probe_hit(ctx, v, err);
  return true;
}
static rx_value probe_acc(void *ctx, rx_value acc, rx_value v, rx_error **err) {
  probe_hit(ctx, v, err);
  return rx_int(acc.i + v.i);
}
static bool probe_compact(void *ctx, rx_value v, rx_value *out, rx_error **err) {
  probe_hit(ctx, v, err);
  *out = v;
  return true;
}
static bool probe_eq(void *ctx, rx_value a, rx_value b) {
  rx_error *none = NULL;
  probe_hit(ctx, b, &none);
  return a.i == b.i;
}

typedef rx_observable *(*maker)(rx_observable *src, probe *p);
static rx_observable *mk_scan(rx_observable *s, probe *p) { return rx_scan(s, rx_int(0), probe_acc, p, probe_free); }
static rx_observable *mk_reduce(rx_observable *s, probe *p) { return rx_reduce(s, rx_int(0), probe_acc, p, probe_free); }
static rx_observable *mk_take_while(rx_observable *s, probe *p) { return rx_take_while(s, probe_pred, p, probe_free); }
static rx_observable *mk_take_while_incl(rx_observable *s, probe *p) {
  return rx_take_while_inclusive(s, probe_pred, p, probe_free);
}
static rx_observable *mk_skip_while(rx_observable *s, probe *p) { return rx_skip_while(s, probe_pred, p, probe_free); }
static rx_observable *mk_compact_map(rx_observable *s, probe *p) { return rx_compact_map(s, probe_compact, p, probe_free); }
static rx_observable *mk_distinct(rx_observable *s, probe *p) { return rx_distinct_until_changed(s, probe_eq, p, probe_free); }

static const struct {
  const char *name;
  maker make;
  bool can_fail;
} ops[] = {
  {"scan", mk_scan, true},
  {"reduce", mk_reduce, true},
  {"take_while", mk_take_while, true},
  {"take_while_inclusive", mk_take_while_incl, true},
  {"skip_while", mk_skip_while, true},
  {"compact_map", mk_compact_map, true},
  {"distinct_until_changed", mk_distinct, false},
};

/* take_until_predicate's predicate must answer false to keep going: its own callback. */
static bool probe_not(void *ctx, rx_value v, rx_error **err) { return !probe_pred(ctx, v, err); }

static rx_observable *make_op(size_t k, rx_observable *src, probe *p) {
  if (k == sizeof ops / sizeof ops[0]) return rx_take_until_predicate(src, false, probe_not, p, probe_free);
  return ops[k].make(src, p);
}
static const char *op_name(size_t k) { return k == sizeof ops / sizeof ops[0] ? "take_until_predicate" : ops[k].name; }
static bool op_can_fail(size_t k) { return k == sizeof ops / sizeof ops[0] || ops[k].can_fail; }
#define N_OPS (sizeof ops / sizeof ops[0] + 1)

RX_TEST(callback_ops_callback_error_fails_and_stops_calls) {
  for (size_t k = 0; k < N_OPS; k++) {
    if (!op_can_fail(k)) continue;
    hot h;
    probe p = {.fail_at = 2, .dispose_at = -1};
    rx_observable *src = hot_new(&h);
    rx_observable *o = make_op(k, src, &p);
    rec r;
    rx_disposable *d = rx_subscribe(o, rec_observer(&r));
    hot_next(&h, 1);
    hot_next(&h, 2);
    hot_next(&h, 3);
    if (p.late || r.errors != 1 || r.error_code != RX_ERROR_USER + 1 || h.disposed != 1 || r.disposed != 1)
      fprintf(stderr, "  %s: late calls %d errors %d code %d source disposed %d log %s\n", op_name(k), p.late,
              r.errors, (int)r.error_code, h.disposed, r.log);
    CHECK_EQ(p.late, 0);
    CHECK_EQ(r.errors, 1);
    CHECK_EQ(r.error_code, RX_ERROR_USER + 1);
    CHECK_EQ(h.disposed, 1);
    CHECK_EQ(r.disposed, 1);
    rx_dispose(d);
    hot_end(&h);
    rx_release(src);
    rx_release(o);
    CHECK_EQ(p.freed, 1);
  }
}

RX_TEST(callback_ops_ctx_free_once_after_the_last_subscription) {
  for (size_t k = 0; k < N_OPS; k++) {
    hot h;
    probe p = {.fail_at = -1, .dispose_at = -1};
    rx_observable *src = hot_new(&h);
    rx_observable *o = make_op(k, src, &p);
    rec r;
    rx_disposable *d = rx_subscribe(o, rec_observer(&r));
    hot_next(&h, 1);
    rx_release(o);
    rx_release(src);
    hot_next(&h, 2);
    hot_next(&h, 3);
    if (p.freed != 0) fprintf(stderr, "  %s: ctx freed while subscribed\n", op_name(k));
    CHECK_EQ(p.freed, 0);
    CHECK(p.calls >= 2);
    rx_dispose(d);
    hot_end(&h);
    if (p.freed != 1) fprintf(stderr, "  %s: ctx freed %d times\n", op_name(k), p.freed);
    CHECK_EQ(p.freed, 1);
  }
}

RX_TEST(callback_ops_dispose_during_the_callback_stops_calls) {
  for (size_t k = 0; k < N_OPS; k++) {
    hot h;
    probe p = {.fail_at = -1, .dispose_at = 2};
    rx_observable *src = hot_new(&h);
    rx_observable *o = make_op(k, src, &p);
    rec r;
    p.d = rx_subscribe(o, rec_observer(&r));
    hot_next(&h, 1);
    hot_next(&h, 2);
    hot_next(&h, 3);
    if (p.late || h.disposed != 1 || r.disposed != 1 || r.errors || r.completed)
      fprintf(stderr, "  %s: late calls %d source disposed %d log %s\n", op_name(k), p.late, h.disposed, r.log);
    CHECK(p.calls >= 1);
    CHECK_EQ(p.late, 0);
    CHECK_EQ(h.disposed, 1);
    CHECK_EQ(r.disposed, 1);
    CHECK_EQ(r.errors, 0);
    CHECK_EQ(r.completed, 0);
    hot_end(&h);
    rx_release(src);
    rx_release(o);
    CHECK_EQ(p.freed, 1);
  }
}
