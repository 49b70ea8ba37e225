/* rx_value: the union-free layout every FFI can pass by value, the readers of plain values
 * (real functions, for FFIs) and their zero-cost C macros. */
#include <math.h>
#include <stddef.h>

#include "rxtest.h"

RX_TEST(values_layout_is_a_kind_and_64_bits) {
  /* What FFIs declare: 16 bytes, the kind at 0 (a C enum, int-sized), the payload at 8. */
  CHECK_EQ(sizeof(rx_value), 16);
  CHECK_EQ(offsetof(rx_value, kind), 0);
  CHECK_EQ(offsetof(rx_value, i), 8);
  CHECK_EQ(sizeof(rx_kind), 4);
  CHECK_EQ(_Alignof(rx_value), 8);
}

RX_TEST(values_constructors_and_macros_agree) {
  rx_value a = rx_double(-0.25), b = RX_DOUBLE(-0.25);
  CHECK_EQ(a.kind, RX_DOUBLE);
  CHECK_EQ(a.i, b.i);
  CHECK(RX_DOUBLE_OF(a) == -0.25);
  rx_value t = rx_bool(true), f = rx_bool(false), mt = RX_BOOL(7), mf = RX_BOOL(0);
  CHECK_EQ(t.i, 1);
  CHECK_EQ(f.i, 0);
  CHECK_EQ(mt.i, 1);
  CHECK_EQ(mf.i, 0);
  CHECK(RX_BOOL_OF(t) && !RX_BOOL_OF(f));
  static int cell;
  rx_value p = rx_ptr(&cell), mp = RX_PTR(&cell);
  CHECK_EQ(p.kind, RX_PTR);
  CHECK(RX_PTR_OF(p) == &cell);
  CHECK_EQ(p.i, mp.i);
  rx_value n = rx_none();
  CHECK_EQ(n.kind, RX_NONE);
  CHECK_EQ(n.i, 0);
  /* NaN and infinities keep their bits through the library. */
  rx_value nan = rx_double(NAN), inf = rx_double(-INFINITY);
  CHECK(isnan(rx_value_double(nan)));
  CHECK(rx_value_double(inf) == -INFINITY);
}

RX_TEST(values_readers_read_their_kind) {
  static int cell;
  CHECK_EQ(rx_value_int(RX_INT(INT64_MIN)), INT64_MIN);
  CHECK(rx_value_double(RX_DOUBLE(1e300)) == 1e300);
  CHECK(rx_value_bool(RX_BOOL(1)));
  CHECK(!rx_value_bool(RX_BOOL(0)));
  CHECK(rx_value_ptr(RX_PTR(&cell)) == &cell);
  CHECK(rx_value_ptr(RX_PTR(NULL)) == NULL);
}

RX_TEST(values_readers_reject_other_kinds_with_a_message) {
  rx_value s = rx_string("x");
  CHECK_EQ(rx_value_int(RX_DOUBLE(2.0)), -1);
  CHECK(strstr(rx_last_error(), "rx_value_int") != NULL);
  CHECK(rx_value_double(RX_INT(2)) == 0.0);
  CHECK(strstr(rx_last_error(), "rx_value_double") != NULL);
  CHECK(!rx_value_bool(RX_INT(1)));
  CHECK(strstr(rx_last_error(), "rx_value_bool") != NULL);
  CHECK(rx_value_ptr(s) == NULL);
  CHECK(strstr(rx_last_error(), "rx_value_ptr") != NULL);
  rx_value_release(s);
}

static int64_t got_bits[4];
static rx_kind got_kind[4];
static int got_n;
static void keep(void *ctx, rx_value v) {
  (void)ctx;
  if (got_n < 4) { got_kind[got_n] = v.kind; got_bits[got_n] = v.i; got_n++; }
}

RX_TEST(values_plain_kinds_cross_a_subject_bit_for_bit) {
  static int cell;
  rx_subject *s = rx_publish_subject_new();
  rx_observer o = {.on_next = keep};
  got_n = 0;
  rx_disposable *d = rx_subscribe(rx_subject_as_observable(s), o);
  rx_value sent[4] = {RX_INT(-1), RX_DOUBLE(-0.0), RX_BOOL(1), RX_PTR(&cell)};
  for (int k = 0; k < 4; k++) CHECK_EQ(rx_subject_on_next(s, sent[k]), RX_OK);
  CHECK_EQ(got_n, 4);
  for (int k = 0; k < 4; k++) {
    CHECK_EQ(got_kind[k], sent[k].kind);
    CHECK_EQ(got_bits[k], sent[k].i);
  }
  rx_dispose(d);
  rx_release(s);
}

static int freed_ctx;
static rx_value add_one(void *ctx, rx_value v, rx_error **err) {
  (void)ctx;
  (void)err;
  return RX_INT(v.i + 1);
}
static void count_free(void *ctx) { (void)ctx; freed_ctx++; }

/* A thread keeps the last observable box rx_value_release dropped for good and reuses it for
 * its next rx_observable_value: the handle it held is let go of at once (the map's ctx_free
 * runs when the last reference goes, as without reuse), and a box the caller still holds is
 * never the one reused. */
RX_TEST(values_observable_boxes_are_reused_only_when_nothing_holds_them) {
  freed_ctx = 0;
  rx_observable *j = rx_just(RX_INT(1));
  rx_observable *a = rx_map(j, add_one, NULL, count_free);
  rx_observable *b = rx_just(RX_INT(2));
  rx_release(j);
  CHECK(a != NULL && b != NULL);
  rx_value va = rx_observable_value(a);
  CHECK_EQ(va.kind, RX_OBSERVABLE);
  CHECK(rx_value_observable(va) == a);
  rx_release(a); /* the box's reference keeps it */
  CHECK_EQ(freed_ctx, 0);
  rx_value_release(va); /* the last reference: the map goes now, though its box is kept */
  CHECK_EQ(freed_ctx, 1);
  rx_value vb = rx_observable_value(b);
  CHECK(rx_value_observable(vb) == b);
  rx_value held = rx_value_retain(vb);
  rx_value_release(vb); /* not the last reference: not kept */
  rx_value vc = rx_observable_value(b);
  CHECK(rx_value_observable(held) == b); /* emptied, it would be dead (NULL) or hold nothing */
  CHECK(rx_value_observable(vc) == b);
  CHECK(rx_value_equal(held, vc)); /* same handle */
  rx_value_release(vc);
  rx_value_release(held);
  rx_release(b);
}

/* A boxed value emitted into a subject is lent to it for the call, not retained: a subject
   that must queue it (an emit from inside its own delivery) keeps a copy of its own, so the
   caller may release its value as soon as rx_subject_on_next returns. */
static rx_subject *reemit_into;
static char reemit_seen[2][16];
static int reemit_count;
static void reemit_once(void *ctx, rx_value v) {
  (void)ctx;
  if (reemit_count < 2) {
    const char *s = rx_value_string(v);
    snprintf(reemit_seen[reemit_count], sizeof reemit_seen[0], "%s", s ? s : "?");
  }
  if (reemit_count++ == 0) {
    rx_value inner = rx_string("second");
    CHECK_EQ(rx_subject_on_next(reemit_into, inner), RX_OK); /* queued until this call returns */
    rx_value_release(inner);
  }
}

RX_TEST(values_boxed_values_lent_to_a_subject_are_copied_when_queued) {
  reemit_into = rx_publish_subject_new();
  reemit_count = 0;
  rx_observer o = {.on_next = reemit_once};
  rx_disposable *d = rx_subscribe(rx_subject_as_observable(reemit_into), o);
  rx_value first = rx_string("first");
  CHECK_EQ(rx_subject_on_next(reemit_into, first), RX_OK);
  rx_value_release(first);
  CHECK_EQ(reemit_count, 2);
  CHECK_STR(reemit_seen[0], "first");
  CHECK_STR(reemit_seen[1], "second");
  rx_dispose(d);
  rx_release(reemit_into);
}

/* Boxed values through the paths that borrow them rather than copy (rx_value_retain, a
   mapped box moved on, distinct comparing boxes in place, share feeding its subject by
   pointer): what each subscriber keeps stays intact after everything else let go, the
   boxes are freed once it lets go too, and a bad box is refused. */
#define KEPT_MAX 8
typedef struct kept {
  rx_value v[KEPT_MAX];
  int n;
} kept;
static void keep_boxed(void *ctx, rx_value v) {
  kept *k = ctx;
  if (k->n < KEPT_MAX) k->v[k->n++] = rx_value_retain(v);
}
static rx_value retain_it(void *ctx, rx_value v, rx_error **err) {
  (void)ctx;
  (void)err;
  return rx_value_retain(v);
}

RX_TEST(values_boxed_values_through_map_distinct_and_share_stay_intact) {
  int64_t live = rx_debug_live_objects();
  rx_subject *s = rx_publish_subject_new();
  rx_observable *m = rx_map(rx_subject_as_observable(s), retain_it, NULL, NULL);
  rx_observable *dist = rx_distinct_until_changed(m, NULL, NULL, NULL);
  rx_observable *sh = rx_share(dist);
  kept a = {0}, b = {0};
  rx_disposable *da = rx_subscribe(sh, (rx_observer){.on_next = keep_boxed, .ctx = &a});
  rx_disposable *db = rx_subscribe(sh, (rx_observer){.on_next = keep_boxed, .ctx = &b});
  const char *in[] = {"alpha", "alpha", "beta", "beta", "alpha", "gamma"};
  for (int i = 0; i < 6; i++) {
    rx_value v = rx_string(in[i]); /* a fresh box each time: distinct compares contents */
    CHECK_OK(rx_subject_on_next(s, v));
    rx_value_release(v);
  }
  CHECK_OK(rx_dispose(da));
  CHECK_OK(rx_dispose(db));
  rx_release(sh);
  rx_release(dist);
  rx_release(m);
  rx_release(s);
  const char *want[] = {"alpha", "beta", "alpha", "gamma"};
  CHECK_EQ(a.n, 4);
  CHECK_EQ(b.n, 4);
  for (int i = 0; i < 4; i++) {
    CHECK_STR(rx_value_string(a.v[i]), want[i]);
    CHECK_STR(rx_value_string(b.v[i]), want[i]);
    CHECK(rx_value_equal(a.v[i], b.v[i]));
  }
  CHECK(!rx_value_equal(a.v[0], a.v[1]));
  CHECK(rx_value_equal(a.v[0], a.v[2]));
  for (int i = 0; i < 4; i++) {
    rx_value_release(a.v[i]);
    rx_value_release(b.v[i]);
  }
  /* A box of another kind than the value says: refused, with a message. */
  rx_value str = rx_string("x");
  rx_value lie = str;
  lie.kind = RX_BYTES;
  rx_value r = rx_value_retain(lie);
  CHECK_EQ(r.kind, RX_NONE);
  CHECK(strstr(rx_last_error(), "rx_value_retain") != NULL);
  rx_value_release(str);
  CHECK_EQ(rx_debug_live_objects(), live);
}

/* Subjects that keep a boxed value (behavior, replay, async, and share_replay's replay
   subject) copy it once where C lends it: a late subscriber still gets it intact after the
   emitter let go, and everything is freed at the end. */
RX_TEST(values_boxed_values_kept_by_subjects_reach_late_subscribers_intact) {
  int64_t live = rx_debug_live_objects();
  rx_subject *subjects[3] = {rx_behavior_subject_new(rx_int(0)), rx_replay_subject_new(1), rx_async_subject_new()};
  rx_subject *src = rx_publish_subject_new();
  rx_observable *sr = rx_share_replay(rx_subject_as_observable(src), 1);
  kept early = {0};
  rx_disposable *de = rx_subscribe(sr, (rx_observer){.on_next = keep_boxed, .ctx = &early});
  const char *in[] = {"one", "two", "three"};
  for (int i = 0; i < 3; i++) {
    rx_value v = rx_string(in[i]);
    for (int k = 0; k < 3; k++) CHECK_OK(rx_subject_on_next(subjects[k], v));
    CHECK_OK(rx_subject_on_next(src, v));
    rx_value_release(v);
  }
  CHECK_OK(rx_subject_on_completed(subjects[2])); /* the async subject emits its last now */
  for (int k = 0; k < 3; k++) {
    kept late = {0};
    rx_disposable *d = rx_subscribe(rx_subject_as_observable(subjects[k]), (rx_observer){.on_next = keep_boxed, .ctx = &late});
    CHECK_EQ(late.n, 1);
    CHECK_STR(rx_value_string(late.v[0]), "three");
    rx_value_release(late.v[0]);
    CHECK_OK(rx_dispose(d));
    rx_release(subjects[k]);
  }
  kept late = {0};
  rx_disposable *dl = rx_subscribe(sr, (rx_observer){.on_next = keep_boxed, .ctx = &late});
  CHECK_EQ(late.n, 1);
  CHECK_STR(rx_value_string(late.v[0]), "three");
  CHECK_EQ(early.n, 3);
  for (int i = 0; i < 3; i++) {
    CHECK_STR(rx_value_string(early.v[i]), in[i]);
    rx_value_release(early.v[i]);
  }
  rx_value_release(late.v[0]);
  CHECK_OK(rx_dispose(dl));
  CHECK_OK(rx_dispose(de));
  rx_release(sr);
  rx_release(src);
  CHECK_EQ(rx_debug_live_objects(), live);
}

/* Boxed values through the operators that hand a fresh result on (combine_latest, zip,
   with_latest_from) or move a kept element out (sample), and flat_map over rx_just: each
   result reaches the subscriber intact, and nothing is left behind. */
static rx_value first_value(void *ctx, const rx_value *vs, size_t n, rx_error **err) {
  (void)ctx;
  (void)err;
  return n > 0 ? rx_value_retain(vs[0]) : rx_none();
}
static rx_observable *just_of(void *ctx, rx_value v, rx_error **err) {
  (void)ctx;
  (void)err;
  return rx_just(v);
}

RX_TEST(values_boxed_values_through_combining_operators_stay_intact) {
  int64_t live = rx_debug_live_objects();
  for (int op = 0; op < 5; op++) {
    rx_subject *a = rx_publish_subject_new(), *b = rx_publish_subject_new();
    rx_observable *srcs[2] = {rx_subject_as_observable(a), rx_subject_as_observable(b)};
    rx_observable *o = op == 0 ? rx_combine_latest(srcs, 2, first_value, NULL, NULL)
                       : op == 1 ? rx_zip(srcs, 2, first_value, NULL, NULL)
                       : op == 2 ? rx_with_latest_from(srcs[0], srcs[1], first_value, NULL, NULL)
                       : op == 3 ? rx_sample(srcs[0], srcs[1])
                                 : rx_flat_map(srcs[0], just_of, NULL, NULL);
    kept k = {0};
    rx_disposable *d = rx_subscribe(o, (rx_observer){.on_next = keep_boxed, .ctx = &k});
    const char *in[] = {"red", "green", "blue"};
    for (int i = 0; i < 3; i++) {
      rx_value v = rx_string(in[i]), w = rx_string("other");
      if (op == 2) CHECK_OK(rx_subject_on_next(b, w)); /* with_latest_from needs the other first */
      CHECK_OK(rx_subject_on_next(a, v));
      if (op != 2) CHECK_OK(rx_subject_on_next(b, w)); /* sample: a tick after each element */
      rx_value_release(v);
      rx_value_release(w);
    }
    CHECK_OK(rx_dispose(d));
    rx_release(o);
    rx_release(a);
    rx_release(b);
    /* combine_latest combines again on each of b's elements too */
    const char *combined[] = {"red", "green", "green", "blue", "blue"};
    const char **want = op == 0 ? combined : in;
    int n = op == 0 ? 5 : 3;
    CHECK_MSG(k.n == n, "operator %d delivered %d", op, k.n);
    for (int i = 0; i < k.n; i++) {
      CHECK_STR(rx_value_string(k.v[i]), want[i]);
      rx_value_release(k.v[i]);
    }
  }
  CHECK_EQ(rx_debug_live_objects(), live);
}

/* rx_emitter_next lends a boxed value to the subscription for the call: delivered where it
   lies, copied only when it must wait (an emit from inside the subscriber's own callback),
   and refused (RX_EINVAL) when its box does not match; after a dispose, RX_EDISPOSED. */
static rx_emitter *boxed_emitter;
static rx_disposable *keep_boxed_emitter(void *ctx, rx_emitter *e) {
  (void)ctx;
  boxed_emitter = rx_retain(e);
  return NULL;
}
static void keep_and_reemit(void *ctx, rx_value v) {
  kept *k = ctx;
  keep_boxed(ctx, v);
  if (k->n == 1) {
    rx_value inner = rx_string("queued");
    CHECK_OK(rx_emitter_next(boxed_emitter, inner)); /* waits until this callback returns */
    rx_value_release(inner);
  }
}

RX_TEST(values_boxed_values_through_an_emitter_are_lent_and_copied_only_when_queued) {
  int64_t live = rx_debug_live_objects();
  rx_observable *o = rx_create(keep_boxed_emitter, NULL, NULL);
  kept k = {0};
  rx_disposable *d = rx_subscribe(o, (rx_observer){.on_next = keep_and_reemit, .ctx = &k});
  rx_value first = rx_string("first"), last = rx_string("last");
  CHECK_OK(rx_emitter_next(boxed_emitter, first));
  CHECK_EQ(k.n, 2);
  rx_value lie = first;
  lie.kind = RX_ARRAY;
  CHECK_EQ(rx_emitter_next(boxed_emitter, lie), RX_EINVAL);
  CHECK(strstr(rx_last_error(), "rx_emitter_next") != NULL);
  CHECK_OK(rx_emitter_next(boxed_emitter, last));
  rx_value_release(first);
  rx_value_release(last);
  CHECK_OK(rx_dispose(d));
  rx_value after = rx_string("after");
  CHECK_EQ(rx_emitter_next(boxed_emitter, after), RX_EDISPOSED);
  rx_value_release(after);
  CHECK_EQ(k.n, 3);
  const char *want[] = {"first", "queued", "last"};
  for (int i = 0; i < 3; i++) {
    CHECK_STR(rx_value_string(k.v[i]), want[i]);
    rx_value_release(k.v[i]);
  }
  rx_release(boxed_emitter);
  rx_release(o);
  CHECK_EQ(rx_debug_live_objects(), live);
}

/* rx_value_equal over plain values, boxes of each kind, a box against a plain value, and a
   bad box (false, with a message naming the function). */
RX_TEST(values_equal_compares_plain_values_and_boxes_by_content) {
  int64_t live = rx_debug_live_objects();
  CHECK(rx_value_equal(RX_INT(7), RX_INT(7)));
  CHECK(!rx_value_equal(RX_INT(7), RX_INT(8)));
  CHECK(!rx_value_equal(RX_INT(1), rx_double(1.0)));
  CHECK(rx_value_equal(rx_none(), rx_none()));
  rx_value s1 = rx_string("abc"), s2 = rx_string("abc"), s3 = rx_string("abd");
  rx_value b1 = rx_bytes("abc", 3);
  rx_value items1[2] = {RX_INT(1), s1}, items2[2] = {RX_INT(1), s2}, items3[2] = {RX_INT(1), s3};
  rx_value a1 = rx_array(items1, 2), a2 = rx_array(items2, 2), a3 = rx_array(items3, 2);
  CHECK(rx_value_equal(s1, s2));
  CHECK(!rx_value_equal(s1, s3));
  CHECK(!rx_value_equal(s1, b1)); /* same bytes, another kind */
  CHECK(rx_value_equal(a1, a2));
  CHECK(!rx_value_equal(a1, a3));
  CHECK(!rx_value_equal(s1, RX_INT(3)));
  CHECK(!rx_value_equal(RX_INT(3), s1));
  rx_value lie = s1;
  lie.kind = RX_BYTES;
  CHECK(!rx_value_equal(lie, b1));
  CHECK(strstr(rx_last_error(), "rx_value_equal") != NULL);
  CHECK(!rx_value_equal(b1, lie));
  rx_value vals[] = {s1, s2, s3, b1, a1, a2, a3};
  for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) rx_value_release(vals[i]);
  CHECK_EQ(rx_debug_live_objects(), live);
}
