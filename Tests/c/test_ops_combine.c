/* Combining operators through the C ABI: merge, concat, combine_latest, zip,
 * with_latest_from, start_with, switch_latest, amb. Cases follow RxSwift's
 * Observable+Merge/Concat/CombineLatest/Zip/WithLatestFrom/StartWith/Switch/Amb tests. */
#include "ops_support.h"
#include <pthread.h>
#include <stdatomic.h>

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static rx_value sum_all(void *ctx, const rx_value *v, size_t n, rx_error **err) {
  (void)err;
  if (ctx) ((counter *)ctx)->calls++;
  int64_t s = 0;
  for (size_t i = 0; i < n; i++) s += v[i].i;
  return rx_int(s);
}
static rx_value fail_over_20(void *ctx, const rx_value *v, size_t n, rx_error **err) {
  (void)ctx;
  int64_t s = 0;
  for (size_t i = 0; i < n; i++) s += v[i].i;
  if (s > 20) *err = user_error("sum");
  return rx_int(s);
}

/* n hot sources combined by `make` */
typedef struct multi {
  hot h[4];
  rx_observable *src[4];
  rx_observable *op;
  rec r;
  rx_disposable *d;
  int n;
} multi;
static void multi_start(multi *m, int n) {
  m->n = n;
  for (int i = 0; i < n; i++) m->src[i] = hot_new(&m->h[i]);
}
static void multi_subscribe(multi *m, rx_observable *op) {
  m->op = op;
  m->d = rx_subscribe(op, rec_observer(&m->r));
}
static void multi_end(multi *m) {
  rx_dispose(m->d);
  for (int i = 0; i < m->n; i++) {
    hot_end(&m->h[i]);
    rx_release(m->src[i]);
  }
  rx_release(m->op);
}

/* ---- merge ---- */
RX_TEST(merge_zero_and_empties) {
  CHECK_STR(run_log(rx_merge(NULL, 0)), "|.");
  rx_observable *e[] = {EMPTY(), EMPTY()};
  CHECK_STR(run_log(rx_merge(e, 2)), "|.");
  rx_observable *ne[] = {NEVER(), EMPTY()};
  CHECK_STR(run_log(rx_merge(ne, 2)), ".");
  rx_observable *s[] = {INTS(1, 2), INTS(3)};
  CHECK_STR(run_log(rx_merge(s, 2)), "1 2 3 |.");
}

RX_TEST(merge_interleaves_hot_sources) {
  multi m;
  multi_start(&m, 2);
  multi_subscribe(&m, rx_merge(m.src, 2));
  hot_next(&m.h[0], 1);
  hot_next(&m.h[1], 2);
  hot_next(&m.h[0], 3);
  hot_completed(&m.h[0]);
  CHECK_STR(m.r.log, "1 2 3");
  hot_next(&m.h[1], 4);
  hot_completed(&m.h[1]);
  CHECK_STR(m.r.log, "1 2 3 4 |.");
  multi_end(&m);
}

RX_TEST(merge_error_disposes_others) {
  multi m;
  multi_start(&m, 3);
  multi_subscribe(&m, rx_merge(m.src, 3));
  hot_next(&m.h[0], 1);
  hot_error(&m.h[1], RX_ERROR_USER);
  hot_next(&m.h[2], 3);
  CHECK_STR(m.r.log, "1 #1000(hot).");
  CHECK_EQ(m.h[0].disposed, 1);
  CHECK_EQ(m.h[2].disposed, 1);
  multi_end(&m);
}

RX_TEST(merge_dispose_in_the_middle) {
  multi m;
  multi_start(&m, 2);
  multi_subscribe(&m, rx_merge(m.src, 2));
  hot_next(&m.h[0], 1);
  rx_dispose(m.d);
  m.d = NULL;
  hot_next(&m.h[1], 2);
  CHECK_STR(m.r.log, "1.");
  CHECK_EQ(m.h[0].disposed, 1);
  CHECK_EQ(m.h[1].disposed, 1);
  multi_end(&m);
}

RX_TEST(merge_bad_input) {
  CHECK(rx_merge(NULL, 2) == NULL);
  CHECK(strstr(rx_last_error(), "srcs is NULL") != NULL);
  rx_observable *s[] = {INTS(1), NULL};
  CHECK(rx_merge(s, 2) == NULL);
  CHECK(strstr(rx_last_error(), "rx_merge") != NULL);
  pool_drain();
}

/* Several threads emit into one merge: the subscriber's callbacks never overlap and
 * nothing is lost. */
typedef struct par {
  atomic_int inside;
  atomic_int overlaps;
  int64_t count, sum;
  int completed;
} par;
static void par_next(void *ctx, rx_value v) {
  par *p = ctx;
  if (atomic_fetch_add(&p->inside, 1) != 0) atomic_fetch_add(&p->overlaps, 1);
  p->count++;
  p->sum += v.i;
  atomic_fetch_sub(&p->inside, 1);
}
static void par_completed(void *ctx) { ((par *)ctx)->completed++; }
static void *emit_many(void *arg) {
  hot *h = arg;
  for (int i = 1; i <= 20000; i++) hot_next(h, i);
  hot_completed(h);
  return NULL;
}

RX_TEST(merge_from_several_threads_is_serialized) {
  multi m;
  multi_start(&m, 3);
  rx_observable *op = rx_merge(m.src, 3);
  par p = {0};
  rx_observer o = {par_next, NULL, par_completed, NULL, &p};
  rx_disposable *d = rx_subscribe(op, o);
  pthread_t t[3];
  for (int i = 0; i < 3; i++) pthread_create(&t[i], NULL, emit_many, &m.h[i]);
  for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
  CHECK_EQ(p.count, 60000);
  CHECK_EQ(p.sum, 3 * (20000LL * 20001 / 2));
  CHECK_EQ(atomic_load(&p.overlaps), 0);
  CHECK_EQ(p.completed, 1);
  m.d = d;
  m.op = op;
  multi_end(&m);
}

/* ---- concat ---- */
RX_TEST(concat_cases) {
  CHECK_STR(run_log(rx_concat(NULL, 0)), "|.");
  rx_observable *s[] = {INTS(1, 2), EMPTY(), INTS(3)};
  CHECK_STR(run_log(rx_concat(s, 3)), "1 2 3 |.");
  rx_observable *e[] = {INTS(1), THROW_BOOM(), INTS(3)};
  CHECK_STR(run_log(rx_concat(e, 3)), "1 #1000(boom).");
  rx_observable *nv[] = {NEVER(), INTS(3)};
  CHECK_STR(run_log(rx_concat(nv, 2)), ".");
}

RX_TEST(concat_subscribes_next_after_completion) {
  multi m;
  multi_start(&m, 2);
  multi_subscribe(&m, rx_concat(m.src, 2));
  CHECK_EQ(m.h[1].subscribed, 0);
  hot_next(&m.h[0], 1);
  hot_completed(&m.h[0]);
  CHECK_EQ(m.h[1].subscribed, 1);
  hot_next(&m.h[1], 2);
  rx_dispose(m.d);
  m.d = NULL;
  CHECK_EQ(m.h[1].disposed, 1);
  CHECK_STR(m.r.log, "1 2.");
  multi_end(&m);
}

RX_TEST(concat_many_synchronous_sources) {
  enum { MAX = 50000 };
  static rx_observable *s[MAX];
  int64_t n = rxtest_scale(MAX, 2);
  rx_observable *one = rx_just(rx_int(1));
  for (int i = 0; i < n; i++) s[i] = one;
  rx_observable *c = rx_concat(s, (size_t)n);
  rec r;
  rx_observer o = rec_observer(&r);
  o.on_next = NULL;
  rx_dispose(rx_subscribe(c, o));
  CHECK_STR(r.log, "|.");
  rx_release(c), rx_release(one);
}

/* ---- combine_latest ---- */
RX_TEST(combine_latest_never_and_empty) {
  rx_observable *nn[] = {NEVER(), NEVER()};
  CHECK_STR(run_log(rx_combine_latest(nn, 2, NULL, NULL, NULL)), ".");
  rx_observable *ne[] = {NEVER(), EMPTY()};
  CHECK_STR(run_log(rx_combine_latest(ne, 2, NULL, NULL, NULL)), ".");
  rx_observable *ee[] = {EMPTY(), EMPTY()};
  CHECK_STR(run_log(rx_combine_latest(ee, 2, NULL, NULL, NULL)), "|.");
}

RX_TEST(combine_latest_zero_sources_as_rxswift) {
  CHECK_STR(run_log(rx_combine_latest(NULL, 0, NULL, NULL, NULL)), "[] |.");
  CHECK_STR(run_log(rx_combine_latest(NULL, 0, sum_all, NULL, NULL)), "0 |.");
}

RX_TEST(combine_latest_interleaved) {
  multi m;
  multi_start(&m, 2);
  multi_subscribe(&m, rx_combine_latest(m.src, 2, NULL, NULL, NULL));
  hot_next(&m.h[0], 1);
  hot_next(&m.h[0], 2);
  hot_next(&m.h[1], 10);
  hot_next(&m.h[0], 3);
  hot_next(&m.h[1], 20);
  hot_completed(&m.h[0]);
  CHECK_EQ(m.h[0].disposed, 1);
  hot_next(&m.h[1], 30);
  CHECK_STR(m.r.log, "[2,10] [3,10] [3,20] [3,30]");
  hot_completed(&m.h[1]);
  CHECK_STR(m.r.log, "[2,10] [3,10] [3,20] [3,30] |.");
  multi_end(&m);
}

RX_TEST(combine_latest_empty_then_value_completes) {
  /* RxSwift's EmptyReturn: one source completed without a value, the other emits. */
  multi m;
  multi_start(&m, 2);
  multi_subscribe(&m, rx_combine_latest(m.src, 2, NULL, NULL, NULL));
  hot_completed(&m.h[0]);
  CHECK_STR(m.r.log, "");
  hot_next(&m.h[1], 5);
  CHECK_STR(m.r.log, "|.");
  CHECK_EQ(m.h[1].disposed, 1);
  multi_end(&m);
}

RX_TEST(combine_latest_selector_and_errors) {
  counter c = {0};
  multi m;
  multi_start(&m, 3);
  multi_subscribe(&m, rx_combine_latest(m.src, 3, sum_all, &c, counter_free));
  hot_next(&m.h[0], 1);
  hot_next(&m.h[1], 2);
  hot_next(&m.h[2], 3);
  hot_next(&m.h[2], 4);
  hot_error(&m.h[1], RX_ERROR_USER);
  hot_next(&m.h[0], 5);
  CHECK_STR(m.r.log, "6 7 #1000(hot).");
  CHECK_EQ(c.calls, 2);
  CHECK_EQ(m.h[0].disposed, 1);
  CHECK_EQ(m.h[2].disposed, 1);
  multi_end(&m);
  CHECK_EQ(c.freed, 1);

  rx_observable *s[] = {INTS(10), INTS(5, 20)};
  CHECK_STR(run_log(rx_combine_latest(s, 2, fail_over_20, NULL, NULL)), "15 #1001(sum).");
}

RX_TEST(combine_latest_bad_input) {
  counter c = {0};
  CHECK(rx_combine_latest(NULL, 1, sum_all, &c, counter_free) == NULL);
  CHECK_EQ(c.freed, 0);
}

/* ---- zip ---- */
RX_TEST(zip_pairs_in_order) {
  multi m;
  multi_start(&m, 2);
  multi_subscribe(&m, rx_zip(m.src, 2, NULL, NULL, NULL));
  hot_next(&m.h[0], 1);
  hot_next(&m.h[0], 2);
  hot_next(&m.h[0], 3);
  hot_next(&m.h[1], 10);
  hot_next(&m.h[1], 20);
  CHECK_STR(m.r.log, "[1,10] [2,20]");
  hot_completed(&m.h[1]);
  CHECK_EQ(m.h[1].disposed, 1);
  hot_next(&m.h[0], 4); /* every other source is done: nothing more can pair */
  CHECK_STR(m.r.log, "[1,10] [2,20] |.");
  multi_end(&m);
}

RX_TEST(zip_cases) {
  CHECK_STR(run_log(rx_zip(NULL, 0, NULL, NULL, NULL)), "|.");
  rx_observable *s[] = {INTS(1, 2, 3), INTS(10, 20)};
  CHECK_STR(run_log(rx_zip(s, 2, sum_all, NULL, NULL)), "11 22 |.");
  rx_observable *ne[] = {NEVER(), EMPTY()};
  CHECK_STR(run_log(rx_zip(ne, 2, NULL, NULL, NULL)), ".");
  rx_observable *ee[] = {EMPTY(), EMPTY()};
  CHECK_STR(run_log(rx_zip(ee, 2, NULL, NULL, NULL)), "|.");
  rx_observable *er[] = {INTS(1, 2), THROW_BOOM()};
  CHECK_STR(run_log(rx_zip(er, 2, NULL, NULL, NULL)), "#1000(boom).");
  rx_observable *f[] = {INTS(1, 20), INTS(1, 2)};
  CHECK_STR(run_log(rx_zip(f, 2, fail_over_20, NULL, NULL)), "2 #1001(sum).");
}

RX_TEST(zip_error_and_dispose) {
  multi m;
  multi_start(&m, 2);
  multi_subscribe(&m, rx_zip(m.src, 2, NULL, NULL, NULL));
  hot_next(&m.h[0], 1);
  hot_error(&m.h[1], RX_ERROR_USER);
  CHECK_STR(m.r.log, "#1000(hot).");
  CHECK_EQ(m.h[0].disposed, 1);
  multi_end(&m);

  multi_start(&m, 2);
  multi_subscribe(&m, rx_zip(m.src, 2, NULL, NULL, NULL));
  hot_next(&m.h[0], 1);
  rx_dispose(m.d);
  m.d = NULL;
  hot_next(&m.h[1], 1);
  CHECK_STR(m.r.log, ".");
  multi_end(&m);
}

/* ---- with_latest_from ---- */
static rx_value diff_pair(void *ctx, const rx_value *v, size_t n, rx_error **err) {
  (void)ctx, (void)err;
  if (n != 2) return rx_int(-1);
  return rx_int(v[0].i * 100 + v[1].i);
}

RX_TEST(with_latest_from_cases) {
  multi m;
  multi_start(&m, 2);
  multi_subscribe(&m, rx_with_latest_from(m.src[0], m.src[1], diff_pair, NULL, NULL));
  hot_next(&m.h[0], 1); /* no value from other yet: dropped */
  hot_next(&m.h[1], 10);
  hot_next(&m.h[0], 2);
  hot_next(&m.h[1], 20);
  hot_next(&m.h[1], 30);
  hot_next(&m.h[0], 3);
  hot_completed(&m.h[1]);
  CHECK_EQ(m.h[1].disposed, 1);
  hot_next(&m.h[0], 4);
  hot_completed(&m.h[0]);
  CHECK_STR(m.r.log, "210 330 430 |.");
  multi_end(&m);
}

RX_TEST(with_latest_from_null_fn_and_errors) {
  multi m;
  multi_start(&m, 2);
  multi_subscribe(&m, rx_with_latest_from(m.src[0], m.src[1], NULL, NULL, NULL));
  hot_next(&m.h[1], 7);
  hot_next(&m.h[0], 1);
  hot_error(&m.h[1], RX_ERROR_USER);
  CHECK_STR(m.r.log, "7 #1000(hot).");
  CHECK_EQ(m.h[0].disposed, 1);
  multi_end(&m);
  CHECK(rx_with_latest_from(NULL, NULL, NULL, NULL, NULL) == NULL);
}

/* ---- the combining operators' C argument arrays ----
 * Each subscription keeps the array it hands the combine function and refreshes only the
 * slots whose element changed: these check that every call sees exactly the current
 * elements, boxed ones included (a stale view of a released string would be read after
 * free), at arity 3, through zip's queues, and from several threads. */
typedef struct seen {
  rec r;
  int calls;
} seen;
static void emit_value(hot *h, rx_value v) {
  rx_emitter_next(h->em, v);
  rx_value_release(v);
}
static void emit_str(hot *h, const char *s) { emit_value(h, rx_string(s)); }
/* Logs its arguments as "(a,b,c)" and returns that text as an owned string. */
static rx_value log_args(void *ctx, const rx_value *v, size_t n, rx_error **err) {
  (void)err;
  seen *s = ctx;
  char buf[512] = "(", item[256];
  for (size_t i = 0; i < n; i++) {
    fmt_value(v[i], item, sizeof item);
    if (i) strncat(buf, ",", sizeof buf - strlen(buf) - 1);
    strncat(buf, item, sizeof buf - strlen(buf) - 1);
  }
  strncat(buf, ")", sizeof buf - strlen(buf) - 1);
  rec_append(&s->r, buf);
  s->calls++;
  return rx_string(buf);
}

RX_TEST(combining_args_combine_latest_three_sources_follow_each_slot) {
  seen s = {0};
  multi m;
  multi_start(&m, 3);
  multi_subscribe(&m, rx_combine_latest(m.src, 3, log_args, &s, NULL));
  hot_next(&m.h[0], 1);
  emit_str(&m.h[1], "a");
  CHECK_EQ(s.calls, 0);
  emit_value(&m.h[2], rx_double(2.5));
  emit_str(&m.h[1], "b");
  hot_next(&m.h[1], 7); /* a plain value replaces a boxed one */
  emit_str(&m.h[0], "c");
  emit_str(&m.h[2], "d");
  hot_completed(&m.h[0]);
  emit_value(&m.h[2], rx_bool(true));
  hot_completed(&m.h[1]);
  hot_completed(&m.h[2]);
  CHECK_STR(s.r.log, "(1,'a',2.5) (1,'b',2.5) (1,7,2.5) ('c',7,2.5) ('c',7,'d') ('c',7,T)");
  CHECK_EQ(m.r.nexts, 6);
  CHECK(strstr(m.r.log, "'('c',7,T)' |.") != NULL);
  multi_end(&m);
}

RX_TEST(combining_args_zip_three_sources_queues_grow_and_wrap) {
  seen s = {0};
  multi m;
  multi_start(&m, 3);
  multi_subscribe(&m, rx_zip(m.src, 3, log_args, &s, NULL));
  /* Ten waiting on source 0 (its queue grows twice), strings and ints alternating. */
  for (int i = 1; i <= 10; i++) {
    char t[8];
    snprintf(t, sizeof t, "s%d", i);
    if (i % 2) hot_next(&m.h[0], i);
    else emit_str(&m.h[0], t);
  }
  for (int i = 1; i <= 10; i++) hot_next(&m.h[1], 10 * i);
  CHECK_EQ(s.calls, 0);
  for (int i = 1; i <= 3; i++) emit_str(&m.h[2], i == 2 ? "y" : "x");
  CHECK_STR(s.r.log, "(1,10,'x') ('s2',20,'y') (3,30,'x')");
  /* The rings turn: sources 1 and 2 refill while source 0 drains. */
  for (int i = 4; i <= 10; i++) {
    hot_next(&m.h[2], i);
    hot_next(&m.h[1], 100 + i);
    hot_next(&m.h[0], 1000 + i);
  }
  CHECK_EQ(s.calls, 10);
  CHECK(strstr(s.r.log, "(9,90,9) ('s10',100,10)") != NULL);
  /* Elements still queued at dispose (strings among them) are freed with the sink. */
  emit_str(&m.h[0], "left");
  hot_next(&m.h[1], 5);
  multi_end(&m);
}

RX_TEST(combining_args_with_latest_from_follow_other) {
  seen s = {0};
  multi m;
  multi_start(&m, 2);
  multi_subscribe(&m, rx_with_latest_from(m.src[0], m.src[1], log_args, &s, NULL));
  emit_str(&m.h[1], "x");
  hot_next(&m.h[0], 1);
  hot_next(&m.h[0], 2); /* the latest unchanged: its view is kept */
  emit_str(&m.h[1], "y");
  emit_str(&m.h[1], "z");
  emit_str(&m.h[0], "w");
  hot_next(&m.h[1], 5);
  hot_next(&m.h[0], 3);
  CHECK_STR(s.r.log, "(1,'x') (2,'x') ('w','z') (3,5)");
  multi_end(&m);
}

/* Fails once the first argument exceeds 1, returning an owned string anyway (freed). */
static rx_value fail_with_string(void *ctx, const rx_value *v, size_t n, rx_error **err) {
  (void)ctx;
  if (n > 0 && v[0].kind == RX_INT && v[0].i > 1) *err = user_error("no");
  return rx_string("owned");
}

RX_TEST(combining_args_errors_from_the_combine_function) {
  rx_observable *(*make[])(rx_observable *const *, size_t, rx_combine_fn, void *, rx_free_fn) = {
      rx_combine_latest, rx_zip};
  for (int k = 0; k < 2; k++) {
    multi m;
    multi_start(&m, 3);
    multi_subscribe(&m, make[k](m.src, 3, fail_with_string, NULL, NULL));
    for (int i = 0; i < 3; i++) hot_next(&m.h[i], 1);
    for (int i = 0; i < 3; i++) hot_next(&m.h[i], 2);
    CHECK_STR(m.r.log, "'owned' #1001(no).");
    for (int i = 0; i < 3; i++) CHECK_EQ(m.h[i].disposed, 1);
    multi_end(&m);
  }
  multi m;
  multi_start(&m, 2);
  multi_subscribe(&m, rx_with_latest_from(m.src[0], m.src[1], fail_with_string, NULL, NULL));
  emit_str(&m.h[1], "kept");
  hot_next(&m.h[0], 1);
  hot_next(&m.h[0], 2);
  CHECK_STR(m.r.log, "'owned' #1001(no).");
  multi_end(&m);
}

/* Three threads emit 1..n each into one combining operator: calls never overlap, and each
 * call's arguments are the current elements (combine_latest: one slot moved by one since the
 * previous call; zip: the k-th of each). */
enum { ARGS_MAX = 3 };
typedef struct args_par {
  atomic_int inside, overlaps, bad;
  int zip, calls, completed;
  int64_t last[ARGS_MAX];
} args_par;
static rx_value check_args(void *ctx, const rx_value *v, size_t n, rx_error **err) {
  (void)err;
  args_par *p = ctx;
  if (atomic_fetch_add(&p->inside, 1) != 0) atomic_fetch_add(&p->overlaps, 1);
  int moved = 0;
  for (size_t i = 0; i < n; i++) {
    if (v[i].kind != RX_INT) atomic_fetch_add(&p->bad, 1);
    if (p->zip) {
      if (v[i].i != p->calls + 1) atomic_fetch_add(&p->bad, 1);
    } else if (p->calls > 0 && v[i].i != p->last[i]) {
      moved++;
      if (v[i].i != p->last[i] + 1) atomic_fetch_add(&p->bad, 1);
    }
    p->last[i] = v[i].i;
  }
  if (!p->zip && p->calls > 0 && moved != 1) atomic_fetch_add(&p->bad, 1);
  p->calls++;
  atomic_fetch_sub(&p->inside, 1);
  return rx_int(v[0].i);
}
static void args_completed(void *ctx) { ((args_par *)ctx)->completed++; }
static void *emit_subject(void *arg) {
  rx_subject *s = arg;
  int64_t n = rxtest_scale(20000, 4);
  for (int64_t i = 1; i <= n; i++) rx_subject_on_next(s, rx_int(i));
  rx_subject_on_completed(s);
  return NULL;
}

RX_TEST(combining_args_from_several_threads) {
  int64_t n = rxtest_scale(20000, 4);
  for (int zip = 0; zip < 2; zip++) {
    rx_subject *s[ARGS_MAX];
    rx_observable *src[ARGS_MAX];
    for (int i = 0; i < ARGS_MAX; i++) {
      s[i] = rx_publish_subject_new();
      src[i] = rx_subject_as_observable(s[i]);
    }
    args_par p = {0};
    p.zip = zip;
    rx_observable *op = (zip ? rx_zip : rx_combine_latest)(src, ARGS_MAX, check_args, &p, NULL);
    rx_observer o = {NULL, NULL, args_completed, NULL, &p};
    rx_disposable *d = rx_subscribe(op, o);
    pthread_t t[ARGS_MAX];
    for (int i = 0; i < ARGS_MAX; i++) pthread_create(&t[i], NULL, emit_subject, s[i]);
    for (int i = 0; i < ARGS_MAX; i++) pthread_join(t[i], NULL);
    CHECK_EQ(atomic_load(&p.overlaps), 0);
    CHECK_EQ(atomic_load(&p.bad), 0);
    CHECK_EQ(p.completed, 1);
    if (zip) CHECK_EQ(p.calls, n);
    for (int i = 0; i < ARGS_MAX; i++) CHECK_EQ(p.last[i], n);
    rx_dispose(d);
    rx_release(op);
    for (int i = 0; i < ARGS_MAX; i++) rx_release(s[i]); /* src[i]: borrowed */
  }
}

/* ---- start_with ---- */
RX_TEST(start_with_cases) {
  rx_value pre[] = {rx_int(1), rx_int(2)};
  CHECK_STR(run_log(rx_start_with(INTS(3, 4), pre, 2)), "1 2 3 4 |.");
  CHECK_STR(run_log(rx_start_with(INTS(3), NULL, 0)), "3 |.");
  CHECK_STR(run_log(rx_start_with(THROW_BOOM(), pre, 1)), "1 #1000(boom).");
  CHECK(rx_start_with(INTS(1), NULL, 2) == NULL);
  rx_value s = rx_string("x");
  rx_observable *o = rx_start_with(EMPTY(), &s, 1);
  rx_value_release(s);
  CHECK_STR(run_log(o), "'x' |.");
}

/* ---- switch_latest ---- */
static void emit_obs(hot *outer, rx_observable *inner) {
  rx_value v = rx_observable_value(inner);
  rx_emitter_next(outer->em, v);
  rx_value_release(v);
}

RX_TEST(switch_latest_follows_latest_inner) {
  hot outer, a, b;
  rx_observable *o = hot_new(&outer), *ia = hot_new(&a), *ib = hot_new(&b);
  rx_observable *sw = rx_switch_latest(o);
  rec r;
  rx_disposable *d = rx_subscribe(sw, rec_observer(&r));
  emit_obs(&outer, ia);
  hot_next(&a, 1);
  emit_obs(&outer, ib);
  CHECK_EQ(a.disposed, 1);
  hot_next(&a, 2);
  hot_next(&b, 3);
  hot_completed(&outer);
  hot_next(&b, 4);
  hot_completed(&b);
  CHECK_STR(r.log, "1 3 4 |.");
  rx_dispose(d);
  hot_end(&outer), hot_end(&a), hot_end(&b);
  rx_release(sw), rx_release(o), rx_release(ia), rx_release(ib);
}

RX_TEST(switch_latest_wrong_kind_fails_with_type) {
  rec r;
  rx_observable *sw = rx_switch_latest(INTS(1));
  rx_disposable *d = rx_subscribe(sw, rec_observer(&r));
  CHECK_EQ(r.error_code, RX_ERROR_TYPE);
  CHECK_EQ(r.disposed, 1);
  rx_dispose(d);
  rx_release(sw);
  pool_drain();
}

RX_TEST(switch_latest_sync_values) {
  rx_observable *x = INTS(1, 2), *y = INTS(3);
  rx_value v[2] = {rx_observable_value(x), rx_observable_value(y)};
  rx_observable *outer = rx_of(v, 2);
  rx_value_release(v[0]), rx_value_release(v[1]);
  CHECK_STR(run_log(rx_switch_latest(outer)), "1 2 3 |.");
  rx_release(outer);
}

/* ---- amb ---- */
RX_TEST(amb_first_wins) {
  multi m;
  multi_start(&m, 3);
  multi_subscribe(&m, rx_amb(m.src, 3));
  hot_next(&m.h[1], 2);
  CHECK_EQ(m.h[0].disposed, 1);
  CHECK_EQ(m.h[2].disposed, 1);
  hot_next(&m.h[0], 1);
  hot_next(&m.h[1], 3);
  hot_completed(&m.h[1]);
  CHECK_STR(m.r.log, "2 3 |.");
  multi_end(&m);
}

RX_TEST(amb_error_first_wins_and_edge_counts) {
  multi m;
  multi_start(&m, 2);
  multi_subscribe(&m, rx_amb(m.src, 2));
  hot_error(&m.h[0], RX_ERROR_USER);
  hot_next(&m.h[1], 1);
  CHECK_STR(m.r.log, "#1000(hot).");
  multi_end(&m);
  CHECK_STR(run_log(rx_amb(NULL, 0)), ".");
  rx_observable *one[] = {INTS(1, 2)};
  CHECK_STR(run_log(rx_amb(one, 1)), "1 2 |.");
  rx_observable *two[] = {NEVER(), INTS(5)};
  CHECK_STR(run_log(rx_amb(two, 2)), "5 |.");
}

RX_TEST(null_fn_still_frees_ctx_once) {
  counter c = {0};
  rx_observable *s[] = {INTS(1), INTS(2)};
  CHECK_STR(run_log(rx_zip(s, 2, NULL, &c, counter_free)), "[1,2] |.");
  CHECK_EQ(c.freed, 1);
  rx_observable *t[] = {INTS(1), INTS(2)};
  CHECK_STR(run_log(rx_combine_latest(t, 2, NULL, &c, counter_free)), "[1,2] |.");
  CHECK_EQ(c.freed, 2);
  /* other is subscribed first (as in RxSwift), so its value is there already */
  CHECK_STR(run_log(rx_with_latest_from(INTS(1), INTS(2), NULL, &c, counter_free)), "2 |.");
  CHECK_EQ(c.freed, 3);
}

RX_TEST(amb_does_not_subscribe_losers_after_a_synchronous_winner) {
  hot h;
  rx_observable *late = hot_new(&h);
  rx_observable *s[] = {INTS(1), late};
  CHECK_STR(run_log(rx_amb(s, 2)), "1 |.");
  CHECK_EQ(h.subscribed, 0);
  rx_release(late);
}
