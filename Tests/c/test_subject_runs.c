/* A subject hands each value to its C subscribers in runs: the first C subscriber of a run
 * converts the value once and calls the others directly (SubjectRun), reading ints, doubles
 * and pointers straight out of Swift's enum layout (RxValue.c(at:)). These tests pin what
 * that must keep: every kind and payload arrives intact at every subscriber, whatever its
 * place in the list, also through a replay buffer; subscribers without on_next, Swift-side
 * subscribers and disposed ones in the middle of a run; and the list changing from inside a
 * run. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "rxtest.h"

enum { MAX_SEEN = 32, MAX_SUBS = 40 };

typedef struct seen {
  rx_value v[MAX_SEEN];  /* retained copies */
  int n, disposed, completed;
} seen;

static void seen_next(void *ctx, rx_value v) {
  seen *s = ctx;
  if (s->n < MAX_SEEN) s->v[s->n] = rx_value_retain(v);
  s->n++;
}
static void seen_completed(void *ctx) { ((seen *)ctx)->completed++; }
static void seen_disposed(void *ctx) { ((seen *)ctx)->disposed++; }
static rx_observer seen_observer(seen *s) {
  return (rx_observer){seen_next, NULL, seen_completed, seen_disposed, s};
}
static void seen_clear(seen *s) {
  for (int i = 0; i < s->n && i < MAX_SEEN; i++) rx_value_release(s->v[i]);
  s->n = 0;
}

static int marker; /* its address is an RX_PTR payload */

/* Every plain kind, with payloads whose bits would show a conversion slip (sign, -0.0, a
 * NaN's payload, NULL), and a boxed one. */
static int sample_values(rx_value *out) {
  double nan_payload;
  uint64_t bits = 0x7ff8000000001234ull;
  memcpy(&nan_payload, &bits, sizeof bits);
  int n = 0;
  out[n++] = rx_int(0);
  out[n++] = rx_int(-1);
  out[n++] = rx_int(INT64_MIN);
  out[n++] = rx_int(INT64_MAX);
  out[n++] = rx_double(-0.0);
  out[n++] = rx_double(1.5);
  out[n++] = rx_double(nan_payload);
  out[n++] = rx_bool(true);
  out[n++] = rx_bool(false);
  out[n++] = rx_ptr(&marker);
  out[n++] = rx_ptr(NULL);
  out[n++] = rx_none();
  out[n++] = rx_string("run");
  return n;
}

static void check_same(rx_value got, rx_value want) {
  CHECK_EQ(got.kind, want.kind);
  switch (want.kind) {
  case RX_INT: CHECK_EQ(got.i, want.i); break;
  case RX_DOUBLE: CHECK(got.i == want.i); break; /* the same bits */
  case RX_BOOL: CHECK_EQ(RX_BOOL_OF(got), RX_BOOL_OF(want)); break;
  case RX_PTR: CHECK(RX_PTR_OF(got) == RX_PTR_OF(want)); break;
  case RX_NONE: break;
  default: CHECK(rx_value_equal(got, want)); break;
  }
}

static void check_seen_all(seen *s, const rx_value *want, int n) {
  CHECK_EQ(s->n, n);
  for (int i = 0; i < n; i++) check_same(s->v[i], want[i]);
}

static void release_values(rx_value *v, int n) {
  for (int i = 0; i < n; i++) rx_value_release(v[i]);
}

/* 1, 2 and 7 subscribers: the plain call, a run of two, a long run. */
RX_TEST(runs_every_kind_reaches_every_subscriber) {
  static const int counts[] = {1, 2, 7};
  rx_value want[MAX_SEEN];
  int n = sample_values(want);
  for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
    rx_subject *subject = rx_publish_subject_new();
    rx_observable *o = rx_subject_as_observable(subject);
    seen s[MAX_SUBS];
    rx_disposable *d[MAX_SUBS];
    memset(s, 0, sizeof s);
    for (int k = 0; k < counts[c]; k++) d[k] = rx_subscribe(o, seen_observer(&s[k]));
    for (int i = 0; i < n; i++) CHECK_OK(rx_subject_on_next(subject, want[i]));
    for (int k = 0; k < counts[c]; k++) {
      check_seen_all(&s[k], want, n);
      CHECK_OK(rx_dispose(d[k]));  /* also releases the token */
      CHECK_EQ(s[k].disposed, 1);
      seen_clear(&s[k]);
    }
    rx_release(o);
    rx_release(subject);
  }
  release_values(want, n);
}

/* A replay buffer's late subscribers get each kind intact (the replay loop converts by
 * address too), and so do they for live values after the replay. */
RX_TEST(runs_every_kind_survives_a_replay) {
  rx_value want[MAX_SEEN];
  int n = sample_values(want);
  rx_subject *subject = rx_replay_subject_new(64);
  for (int i = 0; i < n; i++) CHECK_OK(rx_subject_on_next(subject, want[i]));
  rx_observable *o = rx_subject_as_observable(subject);
  seen s[3];
  rx_disposable *d[3];
  memset(s, 0, sizeof s);
  for (int k = 0; k < 3; k++) {
    d[k] = rx_subscribe(o, seen_observer(&s[k]));
    check_seen_all(&s[k], want, n);
    seen_clear(&s[k]);
  }
  for (int i = 0; i < n; i++) CHECK_OK(rx_subject_on_next(subject, want[i]));
  for (int k = 0; k < 3; k++) {
    check_seen_all(&s[k], want, n);
    CHECK_OK(rx_dispose(d[k]));
    seen_clear(&s[k]);
  }
  rx_release(o);
  rx_release(subject);
  release_values(want, n);
}

static rx_value identity(void *ctx, rx_value v, rx_error **error) {
  (void)ctx, (void)error;
  return rx_value_retain(v);
}

/* A run breaks at a subscriber without on_next and at a Swift-side one (an operator's sink)
 * and starts again after them; nobody is skipped and nobody gets a value twice. */
RX_TEST(runs_break_at_other_subscribers_and_resume) {
  rx_subject *subject = rx_publish_subject_new();
  rx_observable *o = rx_subject_as_observable(subject);
  rx_observable *mapped = rx_map(o, identity, NULL, NULL);
  seen s[8];
  rx_disposable *d[8];
  memset(s, 0, sizeof s);
  for (int k = 0; k < 8; k++) {
    if (k == 2) {
      d[k] = rx_subscribe(o, (rx_observer){NULL, NULL, seen_completed, seen_disposed, &s[k]});
    } else if (k == 4) {
      d[k] = rx_subscribe(mapped, seen_observer(&s[k]));
    } else {
      d[k] = rx_subscribe(o, seen_observer(&s[k]));
    }
    CHECK(d[k] != NULL);
  }
  rx_value want[3] = {rx_int(7), rx_double(2.25), rx_string("x")};
  for (int i = 0; i < 3; i++) CHECK_OK(rx_subject_on_next(subject, want[i]));
  CHECK_OK(rx_subject_on_completed(subject));
  for (int k = 0; k < 8; k++) {
    if (k == 2) {
      CHECK_EQ(s[k].n, 0);
    } else {
      check_seen_all(&s[k], want, 3);
    }
    CHECK_EQ(s[k].completed, 1);
    CHECK_EQ(s[k].disposed, 1);
    rx_release(d[k]);  /* ended by on_completed; the token is still the caller's */
    seen_clear(&s[k]);
  }
  release_values(want, 3);
  rx_release(mapped);
  rx_release(o);
  rx_release(subject);
}

/* Subscribers whose callbacks change the list while a run is under way. */
typedef struct meddler {
  seen s;
  rx_disposable **victim;  /* disposed on the first value */
  rx_observable *source;   /* subscribed to on the first value */
  seen *late;
  rx_disposable *late_token;
} meddler;

static void meddler_next(void *ctx, rx_value v) {
  meddler *m = ctx;
  seen_next(&m->s, v);
  if (m->s.n != 1) return;
  if (m->victim) CHECK_OK(rx_dispose(*m->victim));
  if (m->source) m->late_token = rx_subscribe(m->source, seen_observer(m->late));
}
static void meddler_disposed(void *ctx) { ((meddler *)ctx)->s.disposed++; }

/* Disposing a later member of the run from inside an earlier one's on_next: once rx_dispose
 * has returned, the victim gets nothing, not even the value being delivered; the members
 * after it still get everything. Subscribing from inside a run: the newcomer gets the
 * values after the current one. */
RX_TEST(runs_change_from_inside_a_run) {
  rx_subject *subject = rx_publish_subject_new();
  rx_observable *o = rx_subject_as_observable(subject);
  meddler m = {0};
  seen s[5], late = {0};
  rx_disposable *d[5];
  memset(s, 0, sizeof s);
  m.victim = &d[2];
  m.source = o;
  m.late = &late;
  rx_disposable *md = rx_subscribe(o, (rx_observer){meddler_next, NULL, NULL, meddler_disposed, &m});
  for (int k = 0; k < 5; k++) d[k] = rx_subscribe(o, seen_observer(&s[k]));
  for (int i = 0; i < 4; i++) CHECK_OK(rx_subject_on_next(subject, rx_int(i)));
  CHECK_EQ(m.s.n, 4);
  CHECK_EQ(s[2].n, 0);
  CHECK_EQ(s[2].disposed, 1);
  for (int k = 0; k < 5; k++) {
    if (k != 2) {
      CHECK_EQ(s[k].n, 4);
      for (int i = 0; i < 4; i++) CHECK_EQ(s[k].v[i].i, i);
    }
  }
  CHECK(m.late_token != NULL);
  CHECK_EQ(late.n, 3);
  for (int i = 0; i < 3; i++) CHECK_EQ(late.v[i].i, i + 1);
  CHECK_OK(rx_dispose(md));
  CHECK_OK(rx_dispose(m.late_token));
  for (int k = 0; k < 5; k++) {
    if (k != 2) CHECK_OK(rx_dispose(d[k]));  /* d[2] went in meddler_next */
    seen_clear(&s[k]);
  }
  CHECK_EQ(m.s.disposed, 1);
  seen_clear(&m.s);
  seen_clear(&late);
  rx_release(o);
  rx_release(subject);
}

/* The list grows and shrinks around a run (its end is a sentinel slot, which removal and
 * growth must keep): remove from the front, the middle and the end, grow past several
 * capacities, and check who gets each value. */
RX_TEST(runs_follow_a_list_that_grows_and_shrinks) {
  rx_subject *subject = rx_publish_subject_new();
  rx_observable *o = rx_subject_as_observable(subject);
  seen s[MAX_SUBS];
  rx_disposable *d[MAX_SUBS];
  bool live[MAX_SUBS] = {false};
  memset(s, 0, sizeof s);
  int64_t value = 0;
  int expected[MAX_SUBS] = {0};
  for (int round = 0; round < 6; round++) {
    int first = round * 6, last = first + 6 < MAX_SUBS ? first + 6 : MAX_SUBS;
    for (int k = first; k < last; k++) {
      d[k] = rx_subscribe(o, seen_observer(&s[k]));
      live[k] = true;
    }
    /* drop one near the front, one in the middle, the newest */
    int victims[3] = {round, first / 2, last - 1};
    for (int v = 0; v < 3; v++) {
      int k = victims[v];
      if (!live[k]) continue;
      CHECK_OK(rx_dispose(d[k]));
      live[k] = false;
    }
    CHECK_OK(rx_subject_on_next(subject, rx_int(++value)));
    for (int k = 0; k < MAX_SUBS; k++) {
      if (live[k]) expected[k]++;
      CHECK_EQ(s[k].n, expected[k]);
    }
  }
  for (int k = 0; k < MAX_SUBS; k++) {
    if (live[k]) CHECK_OK(rx_dispose(d[k]));
    CHECK_EQ(s[k].disposed, k < 36 ? 1 : 0);
    seen_clear(&s[k]);
  }
  rx_release(o);
  rx_release(subject);
}
