/* rx_group_by and rx_group_key. The virtual-time cases follow RxSwift's groupBy tests: a
 * hot source of padded, mixed-case words grouped by their trimmed lower-case form, the outer
 * subscription made at 200 and disposed at 1000 (with every group subscription), groups
 * subscribed at once, later or never, and the source's subscription interval checked, which
 * shows that groups keep the source alive after the outer subscription is gone. Then marble
 * tests, key kinds, bad arguments, a synchronous source, and threads. */
#include "ops_vtime.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>

/* The source's words by index: a vt source emits the index, rx_map makes it the word. */
static const char *const words[] = {"abc",  "zoo",    " oof",   "  foo",  " FoO ",        "baR  ", "foO ", " Baz   ",
                                    "  qux ", "   bar", " BAR  ", "FOO ", "baz  ", " bAZ ", "    fOo    ", "error"};
/* RxSwift's script: three words before the subscription, twelve after it, then completion
 * (or an error), and events after the end that nobody may see. */
#define SCRIPT_HEAD "90:0 110:1 130:2 220:3 240:4 270:5 310:6 350:7 360:8 390:9 420:10 470:11 480:12 510:13 530:14 "
#define SCRIPT_COMPLETES SCRIPT_HEAD "570:| 580:15 600:| 650:#1"
#define SCRIPT_FAILS SCRIPT_HEAD "570:#7 580:15 600:| 650:#1"

static rx_value to_word(void *ctx, rx_value v, rx_error **e) { return rx_string(words[v.i]); }

typedef struct keyer {
  int invoked;
  int fail_at; /* the invocation that fails (0: none); "error" always fails */
} keyer;

/* The key: the word trimmed and in lower case. */
static rx_value trim_lower(void *ctx, rx_value v, rx_error **e) {
  keyer *k = ctx;
  k->invoked++;
  const char *s = rx_value_string(v);
  if (strcmp(s, "error") == 0 || k->invoked == k->fail_at) {
    *e = rx_error_new(RX_ERROR_USER + 9, "key");
    return rx_none();
  }
  while (*s == ' ') s++;
  char buf[64];
  size_t n = 0;
  while (s[n] && n < sizeof buf - 1) {
    buf[n] = (char)tolower((unsigned char)s[n]);
    n++;
  }
  while (n > 0 && buf[n - 1] == ' ') n--;
  buf[n] = 0;
  return rx_string(buf);
}

/* ---- the harness ------------------------------------------------------------------------ */

typedef struct gb gb;
typedef struct grp {
  gb *owner;
  char key[16];
  rx_value value; /* the group, retained */
  rx_disposable *token;
  char log[512];
  int disposed;
} grp;

struct gb {
  vt v;
  vt_src *src;
  rx_observable *words; /* the source as words */
  keyer keys;
  grp g[8];
  int n;
  int64_t subscribe_after; /* -1: groups are only kept; 0: subscribed in on_next; > 0: that much later */
  rx_disposable *outer;
  rx_disposable *scheduled[32];
  int n_scheduled;
};

static void at(gb *b, int64_t t, void (*fn)(void *), void *ctx) {
  b->scheduled[b->n_scheduled++] = rx_schedule_after(b->v.s, t - rx_scheduler_now_ns(b->v.s), fn, ctx, NULL);
}

static void grp_log(grp *g, const char *text) {
  size_t len = strlen(g->log);
  snprintf(g->log + len, sizeof g->log - len, "%s%lld:%s", len ? " " : "",
           (long long)rx_scheduler_now_ns(g->owner->v.s), text);
}
static void grp_next(void *ctx, rx_value v) {
  char b[64];
  fmt_value(v, b, sizeof b);
  grp_log(ctx, b);
}
static void grp_error(void *ctx, const rx_error *e) {
  char b[32];
  snprintf(b, sizeof b, "#%d", (int)rx_error_code(e));
  grp_log(ctx, b);
}
static void grp_completed(void *ctx) { grp_log(ctx, "|"); }
static void grp_disposed(void *ctx) { ((grp *)ctx)->disposed++; }

static void grp_subscribe(void *ctx) {
  grp *g = ctx;
  rx_observer o = {grp_next, grp_error, grp_completed, grp_disposed, g};
  g->token = rx_subscribe(rx_value_observable(g->value), o);
  CHECK(g->token != NULL);
}
static void grp_dispose(void *ctx) {
  grp *g = ctx;
  if (g->token) rx_dispose(g->token);
  g->token = NULL;
}

/* The outer observer: logs each group's key, keeps the group and subscribes to it. */
static void outer_next(void *ctx, rx_value v) {
  gb *b = ctx;
  CHECK_EQ(v.kind, RX_OBSERVABLE);
  rx_value key;
  CHECK_OK(rx_group_key(rx_value_observable(v), &key));
  CHECK_EQ(key.kind, RX_STRING);
  grp *g = &b->g[b->n++];
  g->owner = b;
  snprintf(g->key, sizeof g->key, "%s", rx_value_string(key));
  g->value = rx_value_retain(v);
  vt_on_next(&b->v, key);
  rx_value_release(key);
  if (b->subscribe_after == 0) grp_subscribe(g);
  if (b->subscribe_after > 0) at(b, rx_scheduler_now_ns(b->v.s) + b->subscribe_after, grp_subscribe, g);
}
static void outer_subscribe(void *ctx) {
  gb *b = ctx;
  rx_observable *op = rx_group_by(b->words, trim_lower, &b->keys, NULL);
  CHECK(op != NULL);
  rx_observer o = {outer_next, vt_on_error, vt_on_completed, vt_on_disposed, &b->v};
  b->outer = rx_subscribe(op, o);
  rx_release(op);
}
static void outer_dispose(void *ctx) {
  gb *b = ctx;
  if (b->outer) rx_dispose(b->outer);
  b->outer = NULL;
}
/* RxSwift's Defaults.disposed: the outer subscription and every group subscription. */
static void dispose_all(void *ctx) {
  gb *b = ctx;
  outer_dispose(b);
  for (int i = 0; i < b->n; i++) grp_dispose(&b->g[i]);
}

static void gb_begin(gb *b, const char *script, int64_t subscribe_after) {
  memset(b, 0, sizeof *b);
  vt_begin(&b->v);
  b->src = vt_hot(&b->v, script);
  b->words = rx_map(b->src->obs, to_word, NULL, NULL);
  b->subscribe_after = subscribe_after;
}

/* Subscribes at 200, disposes everything at `end`, runs the clock to the end. */
static void gb_run(gb *b, int64_t end) {
  at(b, 200, outer_subscribe, b);
  at(b, end, dispose_all, b);
  rx_test_scheduler_run(b->v.s);
}

static grp *group(gb *b, const char *key) {
  for (int i = 0; i < b->n; i++)
    if (strcmp(b->g[i].key, key) == 0) return &b->g[i];
  FAIL("no group '%s'", key);
}

static void gb_end(gb *b) {
  dispose_all(b);
  for (int i = 0; i < b->n; i++) rx_value_release(b->g[i].value);
  for (int i = 0; i < b->n_scheduled; i++) rx_release(b->scheduled[i]);
  rx_release(b->words);
  vt_end(&b->v);
}

/* What each group saw (NULL: there is no such group; there are no others). */
static void expect_groups(gb *b, const char *foo, const char *bar, const char *baz, const char *qux) {
  const char *const keys[] = {"foo", "bar", "baz", "qux"};
  const char *const logs[] = {foo, bar, baz, qux};
  int n = 0;
  for (int i = 0; i < 4; i++) {
    if (!logs[i]) continue;
    n++;
    CHECK_STR(group(b, keys[i])->log, logs[i]);
  }
  CHECK_EQ(b->n, n);
}

/* ---- RxSwift's cases -------------------------------------------------------------------- */

/* The outer subscription alone (groups kept, never subscribed), disposed at `end`: what it
 * saw, the source's subscription interval, and how often the key function ran. */
static void outer_case(const char *script, int fail_at, int64_t end, const char *log, const char *subs, int invoked) {
  gb b;
  gb_begin(&b, script, -1);
  b.keys.fail_at = fail_at;
  gb_run(&b, end);
  CHECK_STR(b.v.log, log);
  CHECK_STR(vt_subs(b.src), subs);
  CHECK_EQ(b.keys.invoked, invoked);
  CHECK_EQ(b.v.disposed, 1);
  gb_end(&b);
}

RX_TEST(group_by_outer_complete) {
  outer_case(SCRIPT_COMPLETES, 0, 1000, "220:'foo' 270:'bar' 350:'baz' 360:'qux' 570:|", "200-570", 12);
}

RX_TEST(group_by_outer_error) {
  outer_case(SCRIPT_FAILS, 0, 1000, "220:'foo' 270:'bar' 350:'baz' 360:'qux' 570:#7", "200-570", 12);
}

/* No group subscribed: the source goes with the outer subscription. */
RX_TEST(group_by_outer_dispose) {
  outer_case(SCRIPT_COMPLETES, 0, 355, "220:'foo' 270:'bar' 350:'baz'", "200-355", 5);
}

RX_TEST(group_by_outer_key_selector_fails) {
  outer_case(SCRIPT_COMPLETES, 10, 1000, "220:'foo' 270:'bar' 350:'baz' 360:'qux' 480:#1009", "200-480", 10);
}

RX_TEST(group_by_inner_complete) {
  gb b;
  gb_begin(&b, SCRIPT_COMPLETES, 100); /* each group subscribed 100 after it appeared */
  gb_run(&b, 1000);
  expect_groups(&b,
                "470:'FOO ' 530:'    fOo    ' 570:|",
                "390:'   bar' 420:' BAR  ' 570:|",
                "480:'baz  ' 510:' bAZ ' 570:|",
                "570:|");
  CHECK_STR(vt_subs(b.src), "200-570");
  for (int i = 0; i < 4; i++) CHECK_EQ(b.g[i].disposed, 1);
  gb_end(&b);
}

RX_TEST(group_by_inner_complete_all) {
  gb b;
  gb_begin(&b, SCRIPT_COMPLETES, 0);
  gb_run(&b, 1000);
  expect_groups(&b,
                "220:'  foo' 240:' FoO ' 310:'foO ' 470:'FOO ' 530:'    fOo    ' 570:|",
                "270:'baR  ' 390:'   bar' 420:' BAR  ' 570:|",
                "350:' Baz   ' 480:'baz  ' 510:' bAZ ' 570:|",
                "360:'  qux ' 570:|");
  CHECK_STR(vt_subs(b.src), "200-570");
  gb_end(&b);
}

RX_TEST(group_by_inner_error) {
  gb b;
  gb_begin(&b, SCRIPT_FAILS, 100);
  gb_run(&b, 1000);
  expect_groups(&b,
                "470:'FOO ' 530:'    fOo    ' 570:#7",
                "390:'   bar' 420:' BAR  ' 570:#7",
                "480:'baz  ' 510:' bAZ ' 570:#7",
                "570:#7");
  CHECK_STR(b.v.log, "220:'foo' 270:'bar' 350:'baz' 360:'qux' 570:#7");
  CHECK_STR(vt_subs(b.src), "200-570");
  gb_end(&b);
}

RX_TEST(group_by_inner_dispose) {
  gb b;
  gb_begin(&b, SCRIPT_COMPLETES, 0);
  gb_run(&b, 400);
  expect_groups(&b,
                "220:'  foo' 240:' FoO ' 310:'foO '",
                "270:'baR  ' 390:'   bar'",
                "350:' Baz   '",
                "360:'  qux '");
  CHECK_STR(vt_subs(b.src), "200-400");
  gb_end(&b);
}

RX_TEST(group_by_inner_key_fails) {
  gb b;
  gb_begin(&b, SCRIPT_COMPLETES, 0);
  b.keys.fail_at = 6;
  gb_run(&b, 1000);
  expect_groups(&b,
                "220:'  foo' 240:' FoO ' 310:'foO ' 360:#1009",
                "270:'baR  ' 360:#1009",
                "350:' Baz   ' 360:#1009",
                NULL);
  CHECK_STR(b.v.log, "220:'foo' 270:'bar' 350:'baz' 360:#1009");
  CHECK_STR(vt_subs(b.src), "200-360");
  gb_end(&b);
}

RX_TEST(group_by_outer_independence) {
  gb b;
  gb_begin(&b, SCRIPT_COMPLETES, 0);
  at(&b, 320, outer_dispose, &b);
  gb_run(&b, 1000);
  CHECK_STR(b.v.log, "220:'foo' 270:'bar'");
  expect_groups(&b,
                "220:'  foo' 240:' FoO ' 310:'foO ' 470:'FOO ' 530:'    fOo    ' 570:|",
                "270:'baR  ' 390:'   bar' 420:' BAR  ' 570:|",
                NULL,
                NULL);
  CHECK_STR(vt_subs(b.src), "200-570"); /* kept by the groups' subscriptions */
  CHECK_EQ(b.keys.invoked, 12);         /* the key function still runs for them */
  gb_end(&b);
}

static void dispose_foo(void *ctx) { grp_dispose(group(ctx, "foo")); }
static void dispose_bar(void *ctx) { grp_dispose(group(ctx, "bar")); }
static void dispose_baz(void *ctx) { grp_dispose(group(ctx, "baz")); }
static void dispose_qux(void *ctx) { grp_dispose(group(ctx, "qux")); }

RX_TEST(group_by_inner_independence) {
  gb b;
  gb_begin(&b, SCRIPT_COMPLETES, 0);
  at(&b, 320, dispose_foo, &b);
  gb_run(&b, 1000);
  CHECK_STR(b.v.log, "220:'foo' 270:'bar' 350:'baz' 360:'qux' 570:|");
  expect_groups(&b,
                "220:'  foo' 240:' FoO ' 310:'foO '",
                "270:'baR  ' 390:'   bar' 420:' BAR  ' 570:|",
                "350:' Baz   ' 480:'baz  ' 510:' bAZ ' 570:|",
                "360:'  qux ' 570:|");
  CHECK_STR(vt_subs(b.src), "200-570");
  gb_end(&b);
}

RX_TEST(group_by_inner_multiple_independence) {
  gb b;
  gb_begin(&b, SCRIPT_COMPLETES, 0);
  at(&b, 320, dispose_foo, &b);
  at(&b, 280, dispose_bar, &b);
  at(&b, 355, dispose_baz, &b);
  at(&b, 400, dispose_qux, &b);
  gb_run(&b, 1000);
  expect_groups(&b, "220:'  foo' 240:' FoO ' 310:'foO '", "270:'baR  '", "350:' Baz   '", "360:'  qux '");
  CHECK_STR(b.v.log, "220:'foo' 270:'bar' 350:'baz' 360:'qux' 570:|");
  CHECK_STR(vt_subs(b.src), "200-570"); /* the outer subscription holds it */
  gb_end(&b);
}

#define SCRIPT_FOO "220:3 240:4 310:6 470:11 530:14 "

static void subscribe_first(void *ctx) { grp_subscribe(&((gb *)ctx)->g[0]); }

RX_TEST(group_by_inner_escape_complete) {
  gb b;
  gb_begin(&b, SCRIPT_FOO "570:|", -1);
  at(&b, 600, subscribe_first, &b);
  gb_run(&b, 1000);
  CHECK_EQ(b.n, 1);
  CHECK_STR(b.g[0].log, "600:|"); /* the end, at once */
  CHECK_STR(vt_subs(b.src), "200-570");
  gb_end(&b);
}

RX_TEST(group_by_inner_escape_error) {
  gb b;
  gb_begin(&b, SCRIPT_FOO "570:#7", -1);
  at(&b, 600, subscribe_first, &b);
  gb_run(&b, 1000);
  CHECK_STR(b.g[0].log, "600:#7");
  CHECK_STR(vt_subs(b.src), "200-570");
  gb_end(&b);
}

RX_TEST(group_by_inner_escape_dispose) {
  gb b;
  gb_begin(&b, SCRIPT_FOO "570:#7", -1);
  at(&b, 400, outer_dispose, &b);
  at(&b, 600, subscribe_first, &b);
  gb_run(&b, 1000);
  CHECK_STR(b.g[0].log, ""); /* the source was gone before the group was subscribed */
  CHECK_EQ(b.g[0].disposed, 1);
  CHECK_STR(vt_subs(b.src), "200-400");
  gb_end(&b);
}

RX_TEST(group_by_source_lives_until_the_last_group_subscription) {
  gb b;
  gb_begin(&b, SCRIPT_COMPLETES, 0);
  at(&b, 300, outer_dispose, &b);
  at(&b, 320, dispose_foo, &b);
  at(&b, 450, dispose_bar, &b);
  gb_run(&b, 1000);
  CHECK_STR(b.v.log, "220:'foo' 270:'bar'");
  expect_groups(&b,
                "220:'  foo' 240:' FoO ' 310:'foO '",
                "270:'baR  ' 390:'   bar' 420:' BAR  '",
                NULL,
                NULL);
  CHECK_STR(vt_subs(b.src), "200-450");
  gb_end(&b);
}

/* ---- marbles ---------------------------------------------------------------------------- */

static rx_value parity(void *ctx, rx_value v, rx_error **e) { return rx_int(v.i % 2); }

typedef struct tagger {
  int64_t groups;
} tagger;
static rx_value add_tag(void *ctx, rx_value v, rx_error **e) { return rx_int((int64_t)(intptr_t)ctx * 10 + v.i); }
/* Each group's elements as 10 * (the group's index) + element. */
static rx_observable *tag_group(void *ctx, rx_value v, rx_error **e) {
  tagger *t = ctx;
  return rx_map(rx_value_observable(v), add_tag, (void *)(intptr_t)t->groups++, NULL);
}

RX_TEST(marble_group_by_two_groups) {
  rx_scheduler *ts = rx_test_scheduler_new();
  rx_observable *src = rx_marble_hot(ts, "-1-2-3-4-5-6-7-8-9--|", NULL, 0, NULL);
  rx_observable *groups = rx_group_by(src, parity, NULL, NULL);
  tagger t = {0};
  rx_observable *merged = rx_flat_map(groups, tag_group, &t, NULL);
  rx_marble_value v[] = {{'a', RX_INT(12)}, {'b', RX_INT(14)}, {'c', RX_INT(16)}, {'d', RX_INT(18)}};
  CHECK(rx_marble_expect(ts, merged, "-1-a-3-b-5-c-7-d-9--|", v, 4, NULL));
  CHECK_EQ(t.groups, 2);
  rx_release(merged), rx_release(groups), rx_release(src), rx_release(ts);
}

static rx_value key_of(void *ctx, rx_value v, rx_error **e) {
  rx_value key;
  if (rx_group_key(rx_value_observable(v), &key) != RX_OK) *e = rx_error_new(RX_ERROR_USER, rx_last_error());
  return key;
}
static rx_value first_letter(void *ctx, rx_value v, rx_error **e) {
  char s[2] = {rx_value_string(v)[0], 0};
  return rx_string(s);
}

RX_TEST(marble_group_by_keys_error_and_dispose) {
  rx_scheduler *ts = rx_test_scheduler_new();
  rx_marble_value w[] = {{'A', rx_string("ant")}, {'B', rx_string("bee")}, {'a', rx_string("ape")},
                         {'C', rx_string("cat")}};
  rx_observable *ok = rx_marble_cold(ts, "-A-B-a-C-|", w, 4, NULL);
  rx_observable *bad = rx_marble_cold(ts, "-A-B-a-#", w, 4, NULL);
  rx_observable *g1 = rx_group_by(ok, first_letter, NULL, NULL);
  rx_observable *g2 = rx_group_by(bad, first_letter, NULL, NULL);
  rx_observable *k1 = rx_map(g1, key_of, NULL, NULL);
  rx_observable *k2 = rx_map(g2, key_of, NULL, NULL);
  CHECK(rx_marble_expect(ts, k1, "-a-b---c-|", NULL, 0, NULL));
  CHECK(rx_marble_expect(ts, k2, "-a-b---#", NULL, 0, NULL));
  CHECK(rx_marble_expect(ts, k1, "-a-b!", NULL, 0, NULL));
  for (int i = 0; i < 4; i++) rx_value_release(w[i].value);
  rx_release(k1), rx_release(k2), rx_release(g1), rx_release(g2), rx_release(ok), rx_release(bad), rx_release(ts);
}

/* An outer observer that subscribes a recorder to each group inside on_next (so it gets
 * the element that opened the group). Its other callbacks record into `outer`, the first
 * member, so the struct is their ctx too. */
typedef struct opener {
  rec outer;
  rx_disposable *tokens[8];
  rec logs[8];
  int n;
} opener;
static void opener_next(void *ctx, rx_value v) {
  opener *o = ctx;
  int i = o->n++;
  o->tokens[i] = rx_subscribe(rx_value_observable(v), rec_observer(&o->logs[i]));
}
static rx_observer opener_observer(opener *o) {
  memset(o, 0, sizeof *o);
  rx_observer ob = rec_observer(&o->outer);
  ob.on_next = opener_next;
  return ob;
}

RX_TEST(group_by_synchronous_source) {
  int64_t xs[] = {1, 2, 3, 4, 5, 6, 7};
  rx_value vs[7];
  for (int i = 0; i < 7; i++) vs[i] = RX_INT(xs[i]);
  rx_observable *src = rx_of(vs, 7);
  rx_observable *g = rx_group_by(src, parity, NULL, NULL);
  opener o;
  rx_observer ob = opener_observer(&o);
  rx_disposable *d = rx_subscribe(g, ob);
  CHECK_EQ(o.n, 2);
  CHECK_STR(o.logs[0].log, "1 3 5 7 |.");
  CHECK_STR(o.logs[1].log, "2 4 6 |.");
  rx_dispose(d);
  for (int i = 0; i < o.n; i++) rx_dispose(o.tokens[i]);
  rx_release(g), rx_release(src);
}

static void keep_value(void *ctx, rx_value v) { *(rx_value *)ctx = rx_value_retain(v); }

/* A synchronous source keeps going for a subscribed group after downstream is done (take),
 * and stops at once when no group is subscribed. */
static rx_value parity_counted(void *ctx, rx_value v, rx_error **e) {
  ++*(int64_t *)ctx;
  return rx_int(v.i % 2);
}

RX_TEST(group_by_synchronous_source_outlives_downstream_only_for_groups) {
  rx_observable *range = rx_range(0, 10);
  int64_t calls = 0;
  rx_observable *g = rx_group_by(range, parity_counted, &calls, NULL);
  rx_observable *first = rx_take(g, 1);
  opener o;
  rx_dispose(rx_subscribe(first, opener_observer(&o)));
  CHECK_STR(o.outer.log, "|.");
  CHECK_EQ(o.n, 1);
  CHECK_STR(o.logs[0].log, "0 2 4 6 8 |.");
  CHECK_EQ(calls, 10);
  rx_dispose(o.tokens[0]);
  rx_release(first), rx_release(g), rx_release(range);

  rx_observable *huge = rx_range(0, (size_t)1 << 40);
  calls = 0;
  g = rx_group_by(huge, parity_counted, &calls, NULL);
  first = rx_take(g, 1);
  rec r;
  rx_dispose(rx_subscribe(first, rec_observer(&r)));
  CHECK_STR(r.log, "obs |.");
  CHECK_EQ(calls, 1);
  rx_release(first), rx_release(g), rx_release(huge);
}

/* A source that drops its observers (a disposed subject) drops the groups' subscribers. */
RX_TEST(group_by_source_dropped) {
  rx_subject *s = rx_publish_subject_new();
  rx_observable *g = rx_group_by(rx_subject_as_observable(s), parity, NULL, NULL);
  opener o;
  rx_disposable *d = rx_subscribe(g, opener_observer(&o));
  rx_value group = rx_none();
  rx_observer keep = {keep_value, NULL, NULL, NULL, &group};
  rx_disposable *d2 = rx_subscribe(g, keep);
  CHECK_OK(rx_subject_on_next(s, RX_INT(1)));
  CHECK_OK(rx_subject_dispose(s));
  CHECK_STR(o.outer.log, "."); /* dropped: on_disposed only */
  CHECK_STR(o.logs[0].log, "1.");
  rec late;
  rx_disposable *d3 = rx_subscribe(rx_value_observable(group), rec_observer(&late));
  CHECK_EQ(late.error_code, RX_ERROR_DISPOSED);
  rx_dispose(d), rx_dispose(d2), rx_dispose(d3), rx_dispose(o.tokens[0]);
  rx_value_release(group);
  rx_release(g), rx_release(s);
}

/* ---- keys ------------------------------------------------------------------------------- */

static rx_value identity(void *ctx, rx_value v, rx_error **e) { return rx_value_retain(v); }

typedef struct collected {
  rec r; /* first: the ctx of rec's callbacks too */
  rx_value keys[16];
  int n;
} collected;
static void collect_key(void *ctx, rx_value v) {
  collected *c = ctx;
  CHECK_OK(rx_group_key(rx_value_observable(v), &c->keys[c->n++]));
}

RX_TEST(group_by_keys_compare_as_rx_value_equal) {
  char blob[3] = {1, 0, 2};
  int x;
  rx_value in[] = {RX_INT(1), RX_DOUBLE(1.0), RX_DOUBLE(0.0), RX_DOUBLE(-0.0), RX_BOOL(true), RX_BOOL(false),
                   RX_PTR(&x), RX_PTR(NULL), rx_string("k"), rx_string("k"), rx_bytes("k", 1), rx_bytes(blob, 3),
                   rx_bytes(blob, 3), rx_string(""), RX_INT(1), RX_BOOL(true)};
  rx_observable *src = rx_of(in, 16);
  rx_observable *g = rx_group_by(src, identity, NULL, NULL);
  collected c = {0};
  rx_observer o = rec_observer(&c.r);
  o.on_next = collect_key;
  rx_dispose(rx_subscribe(g, o));
  /* 1 | 1.0 | 0.0 = -0.0 | true | false | &x | NULL | "k" x2 | bytes "k" | blob x2 | "" */
  CHECK_EQ(c.n, 11);
  rx_value want[] = {in[0], in[1], in[2], in[4], in[5], in[6], in[7], in[8], in[10], in[11], in[13]};
  for (int i = 0; i < 11; i++) CHECK_MSG(rx_value_equal(c.keys[i], want[i]), "key %d", i);
  CHECK_EQ(c.keys[8].kind, RX_BYTES); /* a string and bytes of the same content are two keys */
  for (int i = 0; i < c.n; i++) rx_value_release(c.keys[i]);
  for (int i = 0; i < 16; i++) rx_value_release(in[i]);
  rx_release(g), rx_release(src);
}

static rx_value bad_key(void *ctx, rx_value v, rx_error **e) {
  switch (v.i) {
  case 0: return rx_none();
  case 1: return RX_DOUBLE(NAN);
  case 2: return rx_array(NULL, 0);
  case 3: return rx_object(NULL, NULL);
  case 4: { /* an observable */
    rx_observable *n = rx_never();
    rx_value o = rx_observable_value(n);
    rx_release(n);
    return o;
  }
  default: return v;
  }
}

RX_TEST(group_by_rejects_keys_that_cannot_be_keys) {
  static const char *const kinds[] = {"RX_NONE", "NaN", "RX_ARRAY", "RX_OBJECT", "RX_OBSERVABLE"};
  for (int64_t k = 0; k < 5; k++) {
    /* a group (key 7) is open when the bad key comes: it gets the error too */
    rx_subject *s = rx_publish_subject_new();
    rx_observable *g = rx_group_by(rx_subject_as_observable(s), bad_key, NULL, NULL);
    rec outer;
    rx_disposable *d = rx_subscribe(g, rec_observer(&outer));
    opener o;
    rx_disposable *d2 = rx_subscribe(g, opener_observer(&o));
    CHECK_OK(rx_subject_on_next(s, RX_INT(7)));
    CHECK_OK(rx_subject_on_next(s, RX_INT(k)));
    CHECK_EQ(outer.errors, 1);
    CHECK_EQ(outer.error_code, RX_ERROR_TYPE);
    CHECK_MSG(strstr(outer.log, kinds[k]) != NULL, "%s", outer.log);
    CHECK_EQ(o.logs[0].errors, 1);
    CHECK_EQ(o.logs[0].error_code, RX_ERROR_TYPE);
    CHECK_EQ(rx_subject_has_observers(s), false); /* the source subscriptions are gone */
    rx_dispose(d), rx_dispose(d2), rx_dispose(o.tokens[0]);
    rx_release(g), rx_release(s);
  }
}

/* ---- misuse and lifetimes --------------------------------------------------------------- */

static int freed;
static void count_free(void *ctx) { freed++; }

RX_TEST(group_by_bad_arguments) {
  rx_observable *src = rx_never();
  CHECK(rx_group_by(NULL, parity, NULL, count_free) == NULL);
  CHECK_MSG(strstr(rx_last_error(), "rx_group_by") != NULL, "%s", rx_last_error());
  CHECK(rx_group_by(src, NULL, NULL, count_free) == NULL);
  CHECK_MSG(strstr(rx_last_error(), "key_fn") != NULL, "%s", rx_last_error());
  rx_subject *s = rx_publish_subject_new();
  CHECK(rx_group_by((rx_observable *)s, parity, NULL, count_free) == NULL); /* a subject handle */
  CHECK_EQ(freed, 0);

  rx_value key = RX_INT(5);
  CHECK_EQ(rx_group_key(NULL, &key), RX_EINVAL);
  CHECK_EQ(key.kind, RX_NONE);
  CHECK_EQ(rx_group_key(src, &key), RX_EINVAL); /* an observable, not a group */
  CHECK_MSG(strstr(rx_last_error(), "not a group") != NULL, "%s", rx_last_error());
  CHECK_EQ(rx_group_key((rx_observable *)s, &key), RX_EHANDLE);
  int64_t junk[16] = {0};
  CHECK_EQ(rx_group_key((rx_observable *)junk, &key), RX_EHANDLE);

  rx_observable *g = rx_group_by(src, parity, NULL, count_free);
  CHECK_EQ(rx_group_key(g, &key), RX_EINVAL); /* the grouping itself is not a group */
  rx_release(g);
  CHECK_EQ(freed, 1);
  rx_release(s), rx_release(src);
}


RX_TEST(group_key_null_out_and_plain_keys) {
  rx_subject *s = rx_publish_subject_new();
  rx_observable *g = rx_group_by(rx_subject_as_observable(s), parity, NULL, NULL);
  rx_value group = rx_none();
  rx_observer o = {keep_value, NULL, NULL, NULL, &group};
  rx_disposable *d = rx_subscribe(g, o);
  CHECK_OK(rx_subject_on_next(s, RX_INT(3)));
  CHECK_EQ(group.kind, RX_OBSERVABLE);
  CHECK_EQ(rx_group_key(rx_value_observable(group), NULL), RX_EINVAL);
  rx_value key;
  CHECK_OK(rx_group_key(rx_value_observable(group), &key));
  CHECK_EQ(key.kind, RX_INT);
  CHECK_EQ(key.i, 1);
  rx_dispose(d);
  rx_release(g), rx_release(s);
  /* the group outlives its grouping and its source; its key too */
  CHECK_OK(rx_group_key(rx_value_observable(group), &key));
  CHECK_EQ(key.i, 1);
  rx_value_release(group);
}

RX_TEST(group_by_ctx_free_waits_for_group_subscriptions) {
  rx_subject *s = rx_publish_subject_new();
  freed = 0;
  rx_observable *g = rx_group_by(rx_subject_as_observable(s), parity, NULL, count_free);
  opener o;
  rx_observer ob = opener_observer(&o);
  rx_disposable *d = rx_subscribe(g, ob);
  CHECK_OK(rx_subject_on_next(s, RX_INT(1)));
  rx_dispose(d);
  rx_release(g);
  CHECK_EQ(freed, 0); /* the group's subscription keeps the source, and with it key_fn */
  CHECK_EQ(rx_subject_has_observers(s), true);
  CHECK_OK(rx_subject_on_next(s, RX_INT(3)));
  CHECK_OK(rx_subject_on_next(s, RX_INT(2))); /* a new key: a group nobody sees */
  CHECK_STR(o.logs[0].log, "1 3");
  rx_dispose(o.tokens[0]);
  CHECK_EQ(rx_subject_has_observers(s), false);
  CHECK_EQ(freed, 1);
  rx_release(s);
}

/* ---- threads ---------------------------------------------------------------------------- */

/* One thread emits NKEYS interleaved counters; subscriber threads subscribe to each group as
 * it appears and dispose again, over and over, while the outer subscription is disposed in
 * the middle. Every group subscriber must see its key's values in increasing order, only
 * its key's, with the observer grammar; the key is readable from any thread; everything is
 * freed at the end. */
#define NKEYS 4
#define NVALUES 200000
#define NCHURN 2

typedef struct shared {
  _Atomic(rx_value *) groups[NKEYS];
  rx_value slots[NKEYS];
  atomic_int seen;
  atomic_bool done;
  atomic_llong delivered;
  atomic_int failures;
} shared;

typedef struct watcher {
  shared *sh;
  int64_t key, last;
  atomic_int inside, disposed, terminals;
} watcher;

static void w_next(void *ctx, rx_value v) {
  watcher *w = ctx;
  if (atomic_fetch_add(&w->inside, 1) != 0 || atomic_load(&w->disposed) || atomic_load(&w->terminals) ||
      v.i % NKEYS != w->key || (w->last >= 0 && v.i != w->last + NKEYS))
    atomic_fetch_add(&w->sh->failures, 1);
  w->last = v.i;
  atomic_fetch_add(&w->sh->delivered, 1);
  atomic_fetch_sub(&w->inside, 1);
}
static void w_completed(void *ctx) {
  watcher *w = ctx;
  if (atomic_fetch_add(&w->terminals, 1) != 0 || atomic_load(&w->disposed)) atomic_fetch_add(&w->sh->failures, 1);
}
static void w_error(void *ctx, const rx_error *e) { atomic_fetch_add(&((watcher *)ctx)->sh->failures, 1); }
static void w_disposed(void *ctx) {
  watcher *w = ctx;
  if (atomic_fetch_add(&w->disposed, 1) != 0) atomic_fetch_add(&w->sh->failures, 1);
}

static rx_value mod_keys(void *ctx, rx_value v, rx_error **e) { return rx_int(v.i % NKEYS); }
static void publish_group(void *ctx, rx_value v) {
  shared *sh = ctx;
  rx_value key;
  CHECK_OK(rx_group_key(rx_value_observable(v), &key));
  sh->slots[key.i] = rx_value_retain(v);
  atomic_store(&sh->groups[key.i], &sh->slots[key.i]);
  atomic_fetch_add(&sh->seen, 1);
}

/* Returns its watchers (freed by the test once no callback can reach them). */
static void *churn(void *arg) {
  shared *sh = arg;
  watcher *ws = calloc(4096, sizeof *ws);
  int n = 0;
  while (!atomic_load(&sh->done) && n < 4096) {
    for (int k = 0; k < NKEYS && n < 4096; k++) {
      rx_value *g = atomic_load(&sh->groups[k]);
      if (!g) continue;
      rx_value key;
      CHECK_OK(rx_group_key(rx_value_observable(*g), &key));
      CHECK_EQ(key.i, k);
      watcher *w = &ws[n++];
      w->sh = sh;
      w->key = k;
      w->last = -1;
      rx_observer o = {w_next, w_error, w_completed, w_disposed, w};
      rx_disposable *d = rx_subscribe(rx_value_observable(*g), o);
      CHECK(d != NULL);
      for (volatile int spin = 0; spin < 2000; spin++) {}
      rx_dispose(d); /* on_disposed may still come from the emitting thread */
    }
  }
  return ws;
}

/* A long-lived subscriber per group, made on another thread, that must see every value of
 * its key from its first one on, through the outer subscription's disposal. */
typedef struct keeper {
  shared *sh;
  watcher w[NKEYS];
  rx_disposable *d[NKEYS];
} keeper;
static void *keep_all(void *arg) {
  keeper *kp = arg;
  for (int k = 0; k < NKEYS; k++) {
    rx_value *g;
    while (!(g = atomic_load(&kp->sh->groups[k]))) sched_yield();
    kp->w[k].sh = kp->sh;
    kp->w[k].key = k;
    kp->w[k].last = -1;
    rx_observer o = {w_next, w_error, w_completed, w_disposed, &kp->w[k]};
    kp->d[k] = rx_subscribe(rx_value_observable(*g), o);
  }
  return NULL;
}

RX_TEST(group_by_groups_subscribed_on_other_threads) {
  shared sh;
  memset(&sh, 0, sizeof sh);
  rx_subject *s = rx_publish_subject_new();
  freed = 0;
  rx_observable *g = rx_group_by(rx_subject_as_observable(s), mod_keys, NULL, count_free);
  rx_observer o = {publish_group, NULL, NULL, NULL, &sh};
  rx_disposable *outer = rx_subscribe(g, o);
  rx_release(g);
  keeper kp = {.sh = &sh};
  pthread_t t[NCHURN + 1];
  for (int i = 0; i < NCHURN; i++) pthread_create(&t[i], NULL, churn, &sh);
  pthread_create(&t[NCHURN], NULL, keep_all, &kp);
  for (int64_t i = 0; i < NVALUES; i++) {
    CHECK_OK(rx_subject_on_next(s, RX_INT(i)));
    if (i == NVALUES / 2) {
      pthread_join(t[NCHURN], NULL); /* every keeper is subscribed by now, and stays */
      rx_dispose(outer);             /* the source goes on for the groups */
    }
  }
  CHECK_EQ(rx_subject_has_observers(s), true);
  CHECK_OK(rx_subject_on_completed(s));
  atomic_store(&sh.done, true);
  for (int i = 0; i < NCHURN; i++) {
    void *ws;
    pthread_join(t[i], &ws);
    for (watcher *w = ws; w < (watcher *)ws + 4096 && w->sh; w++) CHECK_EQ(atomic_load(&w->disposed), 1);
    free(ws);
  }
  CHECK_EQ(atomic_load(&sh.failures), 0);
  CHECK_EQ(atomic_load(&sh.seen), NKEYS);
  for (int k = 0; k < NKEYS; k++) {
    CHECK_EQ(kp.w[k].terminals, 1);
    CHECK_EQ(kp.w[k].disposed, 1);
    CHECK(kp.w[k].last >= NVALUES - NKEYS); /* it saw the end of its key's values */
    rx_dispose(kp.d[k]);
    rx_value_release(sh.slots[k]);
  }
  CHECK(atomic_load(&sh.delivered) > 0);
  rx_release(s);
  CHECK_EQ(freed, 1);
}

/* The outer subscription and the last group subscription are disposed on two threads at
 * once, while the source emits on a third: the source is disposed exactly once, after both. */
typedef struct racer {
  rx_disposable *d;
  atomic_int *go;
} racer;
static void *dispose_when_told(void *arg) {
  racer *r = arg;
  while (!atomic_load(r->go)) {}
  rx_dispose(r->d);
  return NULL;
}
/* Odd values only: the one group stays the only one. */
static void *emit_until_quiet(void *arg) {
  rx_subject *s = arg;
  for (int64_t i = 0; rx_subject_has_observers(s) && i < 10000000; i++) rx_subject_on_next(s, RX_INT(2 * i + 1));
  return NULL;
}

RX_TEST(group_by_disposal_races) {
  for (int round = 0; round < 200; round++) {
    rx_subject *s = rx_publish_subject_new();
    freed = 0;
    rx_observable *g = rx_group_by(rx_subject_as_observable(s), parity, NULL, count_free);
    opener o;
    rx_observer ob = opener_observer(&o);
    rx_disposable *d = rx_subscribe(g, ob);
    rx_release(g);
    CHECK_OK(rx_subject_on_next(s, RX_INT(1)));
    CHECK_EQ(o.n, 1);
    atomic_int go = 0;
    racer a = {d, &go}, b = {o.tokens[0], &go};
    pthread_t ta, tb, te;
    pthread_create(&te, NULL, emit_until_quiet, s);
    pthread_create(&ta, NULL, dispose_when_told, &a);
    pthread_create(&tb, NULL, dispose_when_told, &b);
    atomic_store(&go, 1);
    pthread_join(ta, NULL), pthread_join(tb, NULL), pthread_join(te, NULL);
    CHECK_EQ(rx_subject_has_observers(s), false);
    CHECK_EQ(freed, 1);
    CHECK_EQ(o.outer.disposed, 1);
    CHECK_EQ(o.n, 1);
    CHECK_EQ(o.logs[0].disposed, 1);
    rx_release(s);
  }
}
