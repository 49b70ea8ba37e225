/* rx_flat_map_first on virtual time: the cases of RxSwift's flatMapFirst tests (outer and
 * inner completion, errors of either, the selector failing, disposal in the middle), plus
 * what librxc promises beyond them: fn is not called for an element that is ignored. */
#include "ops_vtime.h"

typedef struct firsts {
  vt_src *inner[7];
  int calls;
  int fail_on; /* fn fails for this outer element (-1: never) */
} firsts;

static rx_observable *pick(void *ctx, rx_value v, rx_error **err) {
  firsts *t = ctx;
  t->calls++;
  if (v.i == t->fail_on) {
    *err = rx_error_new(RX_ERROR_USER + 9, "selector");
    return NULL;
  }
  return rx_retain(t->inner[v.i]->obs);
}

/* The outer hot source emits 0..6 (each picks that inner) at RxSwift's times; inner 2 ends
 * with `end2` after 460. */
static vt_src *scenario(vt *v, firsts *t, const char *outer_end, const char *inner2_end) {
  char outer[128], inner2[128];
  snprintf(outer, sizeof outer, "5:0 105:1 300:2 400:3 550:4 750:5 850:6 %s", outer_end);
  snprintf(inner2, sizeof inner2, "10:102 90:103 110:104 190:105 440:106 %s", inner2_end);
  vt_src *o = vt_hot(v, outer);
  t->inner[0] = vt_cold(v, "1:#1");
  t->inner[1] = vt_cold(v, "1:#1");
  t->inner[2] = vt_cold(v, inner2);
  t->inner[3] = vt_cold(v, "180:202 190:203 205:|");
  t->inner[4] = vt_cold(v, "10:301 50:302 70:303 260:304 310:305 410:|");
  t->inner[5] = vt_cold(v, "40:|");
  t->inner[6] = vt_cold(v, "80:401 90:402 100:|");
  t->fail_on = -1;
  return o;
}

RX_TEST(flat_map_first_ignores_elements_while_an_inner_is_active) {
  vt v;
  vt_begin(&v);
  firsts t = {0};
  vt_src *outer = scenario(&v, &t, "900:|", "460:|");
  CHECK_STR(VT_RUN(&v, rx_flat_map_first(outer->obs, pick, &t, NULL)),
            "310:102 390:103 410:104 490:105 740:106 930:401 940:402 950:|");
  CHECK_STR(vt_subs(outer), "200-900");
  CHECK_STR(vt_subs(t.inner[2]), "300-760");
  CHECK_STR(vt_subs(t.inner[3]), "");
  CHECK_STR(vt_subs(t.inner[4]), "");
  CHECK_STR(vt_subs(t.inner[5]), "");
  CHECK_STR(vt_subs(t.inner[6]), "850-950");
  /* fn ran for 2 and 6 only: 3, 4 and 5 arrived while an inner was active. */
  CHECK_EQ(t.calls, 2);
  CHECK_EQ(v.disposed, 1);
  vt_end(&v);
}

RX_TEST(flat_map_first_inner_not_complete) {
  vt v;
  vt_begin(&v);
  firsts t = {0};
  vt_src *outer = scenario(&v, &t, "900:|", "");
  CHECK_STR(VT_RUN(&v, rx_flat_map_first(outer->obs, pick, &t, NULL)),
            "310:102 390:103 410:104 490:105 740:106");
  CHECK_STR(vt_subs(outer), "200-900");
  CHECK_STR(vt_subs(t.inner[2]), "300-1000");
  CHECK_STR(vt_subs(t.inner[6]), "");
  CHECK_EQ(t.calls, 1);
  vt_end(&v);
}

RX_TEST(flat_map_first_outer_not_complete) {
  vt v;
  vt_begin(&v);
  firsts t = {0};
  vt_src *outer = scenario(&v, &t, "", "460:|");
  CHECK_STR(VT_RUN(&v, rx_flat_map_first(outer->obs, pick, &t, NULL)),
            "310:102 390:103 410:104 490:105 740:106 930:401 940:402");
  CHECK_STR(vt_subs(outer), "200-1000");
  CHECK_STR(vt_subs(t.inner[6]), "850-950");
  vt_end(&v);
}

RX_TEST(flat_map_first_outer_error) {
  vt v;
  vt_begin(&v);
  firsts t = {0};
  vt_src *outer = scenario(&v, &t, "900:#3", "460:|");
  CHECK_STR(VT_RUN(&v, rx_flat_map_first(outer->obs, pick, &t, NULL)),
            "310:102 390:103 410:104 490:105 740:106 900:#3");
  CHECK_STR(vt_subs(outer), "200-900");
  CHECK_STR(vt_subs(t.inner[2]), "300-760");
  CHECK_STR(vt_subs(t.inner[6]), "850-900");
  vt_end(&v);
}

RX_TEST(flat_map_first_inner_error) {
  vt v;
  vt_begin(&v);
  firsts t = {0};
  vt_src *outer = scenario(&v, &t, "900:|", "460:#4");
  CHECK_STR(VT_RUN(&v, rx_flat_map_first(outer->obs, pick, &t, NULL)),
            "310:102 390:103 410:104 490:105 740:106 760:#4");
  CHECK_STR(vt_subs(outer), "200-760");
  CHECK_STR(vt_subs(t.inner[2]), "300-760");
  CHECK_STR(vt_subs(t.inner[6]), "");
  vt_end(&v);
}

RX_TEST(flat_map_first_disposed_in_the_middle) {
  vt v;
  vt_begin(&v);
  firsts t = {0};
  vt_src *outer = scenario(&v, &t, "900:|", "460:|");
  CHECK_STR(vt_run(&v, rx_flat_map_first(outer->obs, pick, &t, NULL), 200, 700),
            "310:102 390:103 410:104 490:105");
  CHECK_STR(vt_subs(outer), "200-700");
  CHECK_STR(vt_subs(t.inner[2]), "300-700");
  CHECK_STR(vt_subs(t.inner[3]), "");
  CHECK_EQ(v.disposed, 1);
  vt_end(&v);
}

RX_TEST(flat_map_first_selector_fails) {
  vt v;
  vt_begin(&v);
  firsts t = {0};
  vt_src *outer = scenario(&v, &t, "900:|", "460:|");
  t.fail_on = 6; /* the first element mapped after inner 2 completed */
  CHECK_STR(VT_RUN(&v, rx_flat_map_first(outer->obs, pick, &t, NULL)),
            "310:102 390:103 410:104 490:105 740:106 850:#1009");
  CHECK_STR(vt_subs(outer), "200-850");
  CHECK_STR(vt_subs(t.inner[2]), "300-760");
  CHECK_STR(vt_subs(t.inner[6]), "");
  vt_end(&v);
}

static rx_observable *just_tenfold(void *ctx, rx_value v, rx_error **err) {
  (*(int *)ctx)++;
  return rx_just(rx_int(v.i * 10));
}

/* An inner that completes while being subscribed never blocks the next element. */
RX_TEST(flat_map_first_synchronous_inners_take_every_element) {
  int calls = 0;
  rx_observable *src = rx_range(1, 4);
  rx_observable *op = rx_flat_map_first(src, just_tenfold, &calls, NULL);
  CHECK(op != NULL);
  rx_value all;
  CHECK_OK(rx_blocking_to_array(op, -1, &all, NULL));
  CHECK_EQ(rx_array_count(all), 4);
  for (size_t i = 0; i < 4; i++) CHECK_EQ(rx_array_get(all, i).i, (int64_t)(i + 1) * 10);
  rx_value_release(all);
  CHECK_EQ(calls, 4);
  rx_release(op), rx_release(src);
}

static int freed;
static void count_free(void *ctx) { freed++; }

RX_TEST(flat_map_first_bad_arguments) {
  rx_observable *src = rx_range(0, 3);
  CHECK(rx_flat_map_first(NULL, just_tenfold, NULL, NULL) == NULL);
  CHECK(strstr(rx_last_error(), "rx_flat_map_first") != NULL);
  CHECK(rx_flat_map_first(src, NULL, NULL, count_free) == NULL);
  CHECK(strstr(rx_last_error(), "fn is NULL") != NULL);
  CHECK_EQ(freed, 0); /* nothing is taken from a call that fails */
  /* ctx_free runs once, when the observable is gone. */
  int calls = 0;
  rx_observable *op = rx_flat_map_first(src, just_tenfold, &calls, count_free);
  CHECK(op != NULL);
  rx_release(op);
  CHECK_EQ(freed, 1);
  rx_release(src);
}

static rx_observable *no_observable(void *ctx, rx_value v, rx_error **err) { return NULL; }

RX_TEST(flat_map_first_null_without_error_fails_with_unknown) {
  rx_observable *src = rx_range(1, 3);
  rx_observable *op = rx_flat_map_first(src, no_observable, NULL, NULL);
  rx_value all;
  rx_error *e = NULL;
  CHECK_EQ(rx_blocking_to_array(op, -1, &all, &e), RX_ESTREAM);
  CHECK_EQ(rx_error_code(e), RX_ERROR_UNKNOWN);
  CHECK_STR(rx_error_message(e), "rx_flat_map_first: the callback returned no observable");
  rx_release(e), rx_release(op), rx_release(src);
}

/* ---- in marble form --------------------------------------------------------------------- */

static rx_scheduler *mts;
/* fn(v): a cold "-v--v|" (v at +1 and +4, completed at +5). */
static rx_observable *twice_later(void *ctx, rx_value v, rx_error **e) {
  rx_marble_value t[] = {{'v', v}};
  return rx_marble_cold(mts, "-v--v|", t, 1, NULL);
}

RX_TEST(marble_flat_map_first_ignores_while_busy) {
  mts = rx_test_scheduler_new();
  /* 2 and 3 arrive while 1's inner runs (frames 1-6); 4 arrives after it completed. */
  rx_observable *src = rx_marble_hot(mts, "-1-2-3---4-----|", NULL, 0, NULL);
  rx_observable *op = rx_flat_map_first(src, twice_later, NULL, NULL);
  CHECK(rx_marble_expect(mts, op, "--1--1----4--4-|", NULL, 0, NULL));
  rx_release(op), rx_release(src), rx_release(mts);
}

RX_TEST(marble_flat_map_first_errors_and_dispose) {
  mts = rx_test_scheduler_new();
  rx_observable *src = rx_marble_hot(mts, "-1-2#", NULL, 0, NULL);
  rx_observable *op = rx_flat_map_first(src, twice_later, NULL, NULL);
  CHECK(rx_marble_expect(mts, op, "--1-#", NULL, 0, NULL)); /* the outer error ends the inner too */
  rx_release(op), rx_release(src);
  src = rx_marble_hot(mts, "-1-2-3---4-----|", NULL, 0, NULL);
  op = rx_flat_map_first(src, twice_later, NULL, NULL);
  CHECK(rx_marble_expect(mts, op, "--1-!", NULL, 0, NULL)); /* disposed while an inner runs */
  rx_release(op), rx_release(src), rx_release(mts);
}
