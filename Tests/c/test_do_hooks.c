/* rx_do_with_hooks: every hook, in RxSwift's order, at virtual times (the cases of
 * RxSwift's do tests: each hook alone, the before/after pairs around the subscriber, the
 * subscribe hooks around the source's subscription, on_dispose after the source's
 * disposal however the subscription ends), its ctx_free, and bad arguments. */
#include "ops_vtime.h"

/* One log for the hooks and the subscriber, so their order shows. */
typedef struct trace {
  vt v;
  vt_src *xs;
  int subs_seen_at_subscribe, subs_seen_at_subscribed;
  bool src_disposed_at_dispose;
  int freed;
} trace;

static void t_log(trace *t, const char *what) { vt_log(&t->v, what); }
static void h_next(void *ctx, rx_value v) {
  char b[32];
  snprintf(b, sizeof b, "on(%lld)", (long long)v.i);
  t_log(ctx, b);
}
static void h_after_next(void *ctx, rx_value v) {
  char b[32];
  snprintf(b, sizeof b, "after(%lld)", (long long)v.i);
  t_log(ctx, b);
}
static void h_error(void *ctx, const rx_error *e) {
  char b[32];
  snprintf(b, sizeof b, "on(#%d)", (int)rx_error_code(e));
  t_log(ctx, b);
}
static void h_after_error(void *ctx, const rx_error *e) {
  char b[32];
  snprintf(b, sizeof b, "after(#%d)", (int)rx_error_code(e));
  t_log(ctx, b);
}
static void h_completed(void *ctx) { t_log(ctx, "on(|)"); }
static void h_after_completed(void *ctx) { t_log(ctx, "after(|)"); }
static void h_subscribe(void *ctx) {
  trace *t = ctx;
  t->subs_seen_at_subscribe = t->xs->nsubs;
  t_log(t, "subscribe");
}
static void h_subscribed(void *ctx) {
  trace *t = ctx;
  t->subs_seen_at_subscribed = t->xs->nsubs;
  t_log(t, "subscribed");
}
static void h_dispose(void *ctx) {
  trace *t = ctx;
  t->src_disposed_at_dispose = t->xs->nsubs > 0 && t->xs->unsub_at[t->xs->nsubs - 1] >= 0;
  t_log(t, "dispose");
}
static void h_free(void *ctx) { ((trace *)ctx)->freed++; }

static rx_do_hooks all_hooks(trace *t) {
  rx_do_hooks h = {sizeof h, t, h_next, h_after_next, h_error, h_after_error, h_completed, h_after_completed,
                   h_subscribe, h_subscribed, h_dispose};
  return h;
}

static void trace_begin(trace *t, const char *spec) {
  memset(t, 0, sizeof *t);
  vt_begin(&t->v);
  t->xs = vt_hot(&t->v, spec);
}

RX_TEST(do_hooks_order_around_values_and_completion) {
  trace t;
  trace_begin(&t, "150:0 210:1 220:2 250:| 260:9");
  rx_do_hooks h = all_hooks(&t);
  rx_observable *o = rx_do_with_hooks(t.xs->obs, &h, h_free);
  CHECK(o != NULL);
  CHECK_STR(VT_RUN(&t.v, o),
            "200:subscribe 200:subscribed 210:on(1) 210:1 210:after(1) 220:on(2) 220:2 220:after(2) "
            "250:on(|) 250:| 250:after(|) 250:dispose");
  CHECK_EQ(t.subs_seen_at_subscribe, 0);
  CHECK_EQ(t.subs_seen_at_subscribed, 1);
  CHECK(t.src_disposed_at_dispose);
  CHECK_STR(vt_subs(t.xs), "200-250");
  CHECK_EQ(t.freed, 1);
  vt_end(&t.v);
}

RX_TEST(do_hooks_order_around_an_error) {
  trace t;
  trace_begin(&t, "210:1 230:#7 240:2");
  rx_do_hooks h = all_hooks(&t);
  CHECK_STR(VT_RUN(&t.v, rx_do_with_hooks(t.xs->obs, &h, h_free)),
            "200:subscribe 200:subscribed 210:on(1) 210:1 210:after(1) 230:on(#7) 230:#7 230:after(#7) "
            "230:dispose");
  CHECK(t.src_disposed_at_dispose);
  CHECK_STR(vt_subs(t.xs), "200-230");
  CHECK_EQ(t.freed, 1);
  vt_end(&t.v);
}

RX_TEST(do_hooks_dispose_runs_after_the_source_is_disposed) {
  trace t;
  trace_begin(&t, "210:1 220:2 300:|");
  rx_do_hooks h = all_hooks(&t);
  CHECK_STR(vt_run(&t.v, rx_do_with_hooks(t.xs->obs, &h, h_free), 200, 215),
            "200:subscribe 200:subscribed 210:on(1) 210:1 210:after(1) 215:dispose");
  CHECK(t.src_disposed_at_dispose);
  CHECK_STR(vt_subs(t.xs), "200-215");
  CHECK_EQ(t.v.disposed, 1);
  CHECK_EQ(t.freed, 1);
  vt_end(&t.v);
}

/* Each hook alone, the others NULL: only it runs (as RxSwift's one-hook tests). */
RX_TEST(do_hooks_each_alone) {
  for (int k = 0; k < 9; k++) {
    trace t;
    trace_begin(&t, "210:1 250:|");
    rx_do_hooks h = {sizeof h, &t};
    static const char *want[] = {
      "210:on(1) 210:1 250:|",       "210:1 210:after(1) 250:|", "210:1 250:|", "210:1 250:|",
      "210:1 250:on(|) 250:|",       "210:1 250:| 250:after(|)", "200:subscribe 210:1 250:|",
      "200:subscribed 210:1 250:|", "210:1 250:| 250:dispose"};
    switch (k) {
    case 0: h.on_next = h_next; break;
    case 1: h.after_next = h_after_next; break;
    case 2: h.on_error = h_error; break; /* no error here: never called */
    case 3: h.after_error = h_after_error; break;
    case 4: h.on_completed = h_completed; break;
    case 5: h.after_completed = h_after_completed; break;
    case 6: h.on_subscribe = h_subscribe; break;
    case 7: h.on_subscribed = h_subscribed; break;
    case 8: h.on_dispose = h_dispose; break;
    }
    CHECK_STR(VT_RUN(&t.v, rx_do_with_hooks(t.xs->obs, &h, h_free)), want[k]);
    CHECK_EQ(t.freed, 1);
    vt_end(&t.v);
  }
}

/* A synchronous source: its events come between on_subscribe and on_subscribed, and
 * on_dispose once its subscription is in place to be disposed. */
RX_TEST(do_hooks_synchronous_source_events_inside_the_subscribe_hooks) {
  trace t;
  trace_begin(&t, "");
  rx_do_hooks h = all_hooks(&t);
  rx_observable *src = rx_range(1, 2);
  rx_observable *o = rx_do_with_hooks(src, &h, NULL);
  rx_release(src);
  CHECK_STR(VT_RUN(&t.v, o), "200:subscribe 200:on(1) 200:1 200:after(1) 200:on(2) 200:2 200:after(2) "
                             "200:on(|) 200:| 200:after(|) 200:subscribed 200:dispose");
  CHECK_EQ(t.freed, 0); /* no ctx_free given */
  vt_end(&t.v);
}

RX_TEST(do_hooks_ctx_free_waits_for_the_last_subscription) {
  trace t;
  trace_begin(&t, "210:1");
  rx_do_hooks h = {sizeof h, &t, .on_next = h_next};
  rx_observable *o = rx_do_with_hooks(t.xs->obs, &h, h_free);
  rec r;
  rx_disposable *d = rx_subscribe(o, rec_observer(&r));
  rx_release(o);
  CHECK_EQ(t.freed, 0);
  rx_test_scheduler_advance_to(t.v.s, 220);
  CHECK_STR(t.v.log, "210:on(1)");
  CHECK_STR(r.log, "1");
  CHECK_OK(rx_dispose(d));
  CHECK_EQ(t.freed, 1);
  vt_end(&t.v);
}

RX_TEST(do_hooks_bad_arguments) {
  int freed = 0;
  rx_observable *src = rx_range(0, 1);
  rx_do_hooks h = {sizeof h};
  CHECK(rx_do_with_hooks(NULL, &h, NULL) == NULL);
  CHECK(strstr(rx_last_error(), "rx_do_with_hooks") != NULL);
  CHECK(rx_do_with_hooks(src, NULL, NULL) == NULL);
  CHECK(strstr(rx_last_error(), "hooks is NULL") != NULL);
  h.struct_size = sizeof h - 1;
  CHECK(rx_do_with_hooks(src, &h, NULL) == NULL);
  CHECK(strstr(rx_last_error(), "struct_size") != NULL);
  /* a newer caller's struct: zero tail accepted, a set unknown field refused */
  struct {
    rx_do_hooks h;
    void *later;
  } newer = {{sizeof newer}, NULL};
  rx_observable *ok = rx_do_with_hooks(src, &newer.h, NULL);
  CHECK(ok != NULL);
  rx_release(ok);
  newer.later = &freed;
  CHECK(rx_do_with_hooks(src, &newer.h, NULL) == NULL);
  CHECK(strstr(rx_last_error(), "does not know") != NULL);
  rx_release(src);
}
