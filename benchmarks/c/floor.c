/* The catalog's floor: for each synchronous per-event workload of Tests/perf/workloads.c (same
 * name), a plain C loop that makes the same user calls per event as librxc makes for it (the
 * operators' functions and the C subscriber of Tests/perf/user_fns.h, the very same functions),
 * each through a volatile function pointer, so the compiler can neither inline nor hoist one.
 * Between the calls it keeps only the state that decides them (a count, an accumulator, the
 * latest value, a flag, the two values handed to a combining function on the stack): no
 * buffers, no locks, no retains of its own. librxc links only for the user functions'
 * rx_int / rx_value_retain and the string payloads, as the user's code does.
 * A workload with no loop here (inner observables, schedulers, lifecycles, buffers) is absent.
 *
 * Usage: floor --list | floor --time MS [name ...]   (benchmarks/c/catalog_time.h) */
#include <stdbool.h>
#include <stdint.h>

#include "catalog_time.h"
#include "rxc.h"
#include "user_fns.h"

/* The user calls, through pointers the compiler must reload before every call. */
static void (*volatile next_fp)(void *, rx_value) = count_next;
static void (*volatile completed_fp)(void *) = count_completed;
static void (*volatile error_fp)(void *, const rx_error *) = count_error;
static void (*volatile tap_fp)(void *, rx_value) = count_next; /* do's hooks */
static rx_map_fn volatile inc_fp = inc;
static rx_map_fn volatile mod4_fp = mod4;
static rx_map_fn volatile same_fp = same;
static rx_predicate_fn volatile keep_all_fp = keep_all;
static rx_predicate_fn volatile keep_none_fp = keep_none;
static rx_predicate_fn volatile below_n_fp = below_n;
static rx_accumulate_fn volatile add_fp = add;
static rx_accumulate_fn volatile latest_fp = latest;
static rx_combine_fn volatile sum2_fp = sum2;
static rx_combine_fn volatile first_of_fp = first_of;
static rx_compact_map_fn volatile keep_odd_inc_fp = keep_odd_inc;
static rx_equal_fn volatile int_eq_fp = int_eq;
static rx_dropped_fn volatile drop_fp = ignore_drop;
/* A store per event for the loops that call nothing per event (last, ignore, ...), so the
   compiler keeps the loop. */
static volatile int64_t sink;

/* The payload of event k, as workloads.c's: k, or one of two lent strings. */
static rx_value strings[2];
static int send_strings;
static rx_value payload(long k) { return send_strings ? strings[k & 1] : RX_INT(k); }

static rx_error *err; /* the user functions' error out-parameter (never set) */
#define NEXT(x) next_fp(NULL, (x))
#define EACH(...)                   \
  for (long k = 0; k < n; k++) {   \
    rx_value v = payload(k);       \
    __VA_ARGS__                    \
  }
/* The end of a run: the subscriber's completion, and what it received. */
static long done(void) {
  completed_fp(NULL);
  return delivered;
}
#define FLOOR(name) static long f_##name(long n)
#define BEGIN (delivered = 0, n_events = n)

/* ---- subject -> (operator passing every value) -> subscriber: one on_next per event */
FLOOR(pass) {
  BEGIN;
  EACH(NEXT(v);)
  return done();
}
FLOOR(relay) { /* no completion: a relay, or the first of two subjects (amb, concat) */
  BEGIN;
  EACH(NEXT(v);)
  return delivered;
}
FLOOR(subject_behavior) { /* the initial value first */
  BEGIN;
  NEXT(RX_INT(0));
  EACH(NEXT(v);)
  return done();
}
FLOOR(behavior_relay) {
  BEGIN;
  NEXT(RX_INT(0));
  EACH(NEXT(v);)
  return delivered;
}
FLOOR(start_with) {
  BEGIN;
  NEXT(RX_INT(1));
  EACH(NEXT(v);)
  return done();
}
FLOOR(subject_async) { /* the last value, at the completion */
  BEGIN;
  rx_value last = RX_INT(0);
  EACH(last = v; sink = k;)
  NEXT(last);
  return done();
}
#define f_last f_subject_async
#define f_take_last f_subject_async
FLOOR(ignore) {
  BEGIN;
  EACH(sink = v.i;)
  return done();
}
FLOOR(first) { /* the first value ends the subscription; later events meet no subscriber */
  BEGIN;
  bool ended = false;
  EACH(if (!ended) {
    ended = true;
    NEXT(v);
    completed_fp(NULL);
  } sink = k;)
  return delivered;
}
FLOOR(element_at) { /* an index never reached: an error at the completion */
  BEGIN;
  size_t left = (size_t)-1;
  EACH(if (left-- == 0) NEXT(v); sink = k;)
  error_fp(NULL, NULL);
  return delivered;
}
FLOOR(map) {
  BEGIN;
  EACH(NEXT(inc_fp(NULL, v, &err));)
  return done();
}
FLOOR(filter) {
  BEGIN;
  EACH(if (keep_all_fp(NULL, v, &err)) NEXT(v);)
  return done();
}
FLOOR(map_filter_map) {
  BEGIN;
  EACH(rx_value a = inc_fp(NULL, v, &err); if (keep_all_fp(NULL, a, &err)) NEXT(inc_fp(NULL, a, &err));)
  return done();
}
FLOOR(scan) {
  BEGIN;
  rx_value acc = RX_INT(0);
  EACH(acc = add_fp(NULL, acc, v, &err); NEXT(acc);)
  return done();
}
FLOOR(reduce) {
  BEGIN;
  rx_value acc = RX_INT(0);
  EACH(acc = add_fp(NULL, acc, v, &err);)
  NEXT(acc);
  return done();
}
FLOOR(take) {
  BEGIN;
  size_t left = (size_t)-1;
  EACH(if (left) {
    left--;
    NEXT(v);
  })
  return done();
}
FLOOR(skip) {
  BEGIN;
  size_t skip = 1;
  EACH(if (skip) skip--; else NEXT(v);)
  return done();
}
FLOOR(skip_last) { /* rx_skip_last(src, 2): each value goes out two events later */
  BEGIN;
  rx_value held[2];
  EACH(if (k >= 2) NEXT(held[k & 1]); held[k & 1] = v;)
  return done();
}
FLOOR(take_while) {
  BEGIN;
  EACH(if (!keep_all_fp(NULL, v, &err)) break; NEXT(v);)
  return done();
}
FLOOR(take_while_inclusive) {
  BEGIN;
  EACH(bool more = keep_all_fp(NULL, v, &err); NEXT(v); if (!more) break;)
  return done();
}
FLOOR(take_until_predicate) {
  BEGIN;
  EACH(bool stop = keep_none_fp(NULL, v, &err); NEXT(v); if (stop) break;)
  return done();
}
FLOOR(skip_while) {
  BEGIN;
  bool skipping = true;
  EACH(if (skipping && keep_none_fp(NULL, v, &err)) continue; skipping = false; NEXT(v);)
  return done();
}
FLOOR(distinct) { /* ints, compared in place */
  BEGIN;
  bool have = false;
  rx_value last = RX_INT(0);
  EACH(if (!have || last.kind != v.kind || last.i != v.i) {
    have = true;
    last = v;
    NEXT(v);
  })
  return done();
}
FLOOR(distinct_eq) {
  BEGIN;
  bool have = false;
  rx_value last = RX_INT(0);
  EACH(if (!have || !int_eq_fp(NULL, last, v)) {
    have = true;
    last = v;
    NEXT(v);
  })
  return done();
}
FLOOR(default_if_empty) {
  BEGIN;
  bool any = false;
  EACH(any = true; NEXT(v);)
  if (!any) NEXT(RX_INT(0));
  return done();
}
FLOOR(compact_map) {
  BEGIN;
  EACH(rx_value out; if (keep_odd_inc_fp(NULL, v, &out, &err)) NEXT(out);)
  return done();
}
FLOOR(do) { /* the tap's on_next, then the subscriber's */
  BEGIN;
  EACH(tap_fp(NULL, v); NEXT(v);)
  return done();
}
FLOOR(do_with_hooks) { /* on_next, the subscriber, after_next */
  BEGIN;
  EACH(tap_fp(NULL, v); NEXT(v); tap_fp(NULL, v);)
  return done();
}

/* A value a user function handed over: delivered, then released (the strings rows' copies;
   an int owns nothing). */
static void emit(rx_value r) {
  NEXT(r);
  if (r.kind != RX_INT) rx_value_release(r);
}

/* ---- two subjects, each event into both (per event: the pair); no completion, as in
   workloads.c */
FLOOR(merge) {
  BEGIN;
  EACH(NEXT(v); NEXT(v);)
  return delivered;
}
/* combine_latest(a, b, f): from the second value on, each value makes one call of f with
   the two latest values (on the stack) and one on_next. */
static long combining(long n, rx_combine_fn volatile *f) {
  BEGIN;
  bool have_b = false;
  rx_value latest2[2];
  EACH(latest2[0] = v; /* a's event */
       if (have_b) emit((*f)(NULL, latest2, 2, &err));
       latest2[1] = v; /* b's event */
       have_b = true; emit((*f)(NULL, latest2, 2, &err));)
  return delivered;
}
FLOOR(combine) { return combining(n, &sum2_fp); }
FLOOR(combine_strings) { return combining(n, &first_of_fp); }
/* zip(a, b, f): one call of f per pair */
static long zipping(long n, rx_combine_fn volatile *f) {
  BEGIN;
  EACH(rx_value pair[2] = {v, v}; emit((*f)(NULL, pair, 2, &err));)
  return delivered;
}
FLOOR(zip) { return zipping(n, &sum2_fp); }
FLOOR(zip_strings) { return zipping(n, &first_of_fp); }
/* with_latest_from(a, b, f): a's value with b's latest, from the second event on */
static long with_latest(long n, rx_combine_fn volatile *f) {
  BEGIN;
  bool have_b = false;
  rx_value both[2];
  EACH(if (have_b) {
    both[0] = v;
    emit((*f)(NULL, both, 2, &err));
  } both[1] = v;
       have_b = true;)
  return delivered;
}
FLOOR(with_latest) { return with_latest(n, &sum2_fp); }
FLOOR(with_latest_strings) { return with_latest(n, &first_of_fp); }
FLOOR(sample) { /* a's latest value goes out at b's event */
  BEGIN;
  bool have = false;
  rx_value latest_a = RX_INT(0);
  EACH(latest_a = v; have = true; /* a's event */
       if (have) {                 /* b's */
         have = false;
         NEXT(latest_a);
       })
  return delivered;
}
/* amb, concat, merge_max(1): a's events go through, b's meet no subscriber */
#define f_amb f_relay
#define f_concat f_relay
#define f_merge_max f_relay

/* ---- the strings rows that copy what they are lent */
FLOOR(map_strings) {
  BEGIN;
  EACH(emit(same_fp(NULL, v, &err));)
  return done();
}
FLOOR(scan_strings) {
  BEGIN;
  rx_value acc = RX_INT(0);
  EACH(rx_value next = latest_fp(NULL, acc, v, &err); rx_value_release(acc); acc = next; NEXT(acc);)
  rx_value_release(acc);
  return done();
}

/* ---- cold sources and other shapes */
FLOOR(range_map_filter_scan) {
  BEGIN;
  rx_value acc = RX_INT(0);
  for (long k = 0; k < n; k++) {
    rx_value a = inc_fp(NULL, RX_INT(k), &err);
    if (keep_all_fp(NULL, a, &err)) {
      acc = add_fp(NULL, acc, a, &err);
      NEXT(acc);
    }
  }
  return done();
}
FLOOR(range_map) {
  BEGIN;
  for (long k = 0; k < n; k++) NEXT(inc_fp(NULL, RX_INT(k), &err));
  return done();
}
FLOOR(of) { /* the caller's array, made in the run as workloads.c's is */
  BEGIN;
  rx_value *vs = calloc((size_t)n, sizeof *vs);
  for (long k = 0; k < n; k++) vs[k] = RX_INT(k);
  for (long k = 0; k < n; k++) NEXT(vs[k]);
  free(vs);
  return done();
}
FLOOR(generate) { /* condition, value, iterate */
  BEGIN;
  for (rx_value s = RX_INT(0); below_n_fp(NULL, s, &err); s = inc_fp(NULL, s, &err)) NEXT(s);
  return done();
}
FLOOR(repeat_element_take) {
  BEGIN;
  for (long k = 0; k < n; k++) NEXT(RX_INT(1));
  return done();
}
FLOOR(share_10) { /* ten subscribers, one pointer each */
  static void (*volatile subs[10])(void *, rx_value) = {count_next, count_next, count_next, count_next, count_next,
                                                         count_next, count_next, count_next, count_next, count_next};
  BEGIN;
  EACH(for (int i = 0; i < 10; i++) subs[i](NULL, v);)
  for (int i = 0; i < 10; i++) completed_fp(NULL);
  return delivered;
}
FLOOR(observe_on_bounded_full) { /* 4 slots, drop oldest: each event past the fourth drops one */
  BEGIN;
  rx_value q[4];
  EACH(if (k >= 4) drop_fp(NULL, q[k & 3]); q[k & 3] = v;)
  for (long k = n > 4 ? n - 4 : 0; k < n; k++) NEXT(q[k & 3]);
  return delivered;
}
FLOOR(pausable) { /* the pauser opens at k % 8 < 4, every other event */
  BEGIN;
  bool open = false;
  EACH(if (k % 2 == 0) open = k % 8 < 4; if (open) NEXT(v);)
  return delivered;
}
FLOOR(group_by) { /* the key, a look-up among the groups, the group's subscriber */
  BEGIN;
  int64_t keys[4];
  int groups = 0;
  EACH(rx_value key = mod4_fp(NULL, v, &err); int g = 0; while (g < groups && keys[g] != key.i) g++;
       if (g == groups) keys[groups++] = key.i; NEXT(v);)
  for (int g = 0; g < groups; g++) completed_fp(NULL);
  return delivered;
}

/* A workload with strings for payloads. */
#define WITH_STRINGS(name, f)         \
  static long f_##name(long n) {      \
    send_strings = 1;                 \
    long got = f(n);                  \
    send_strings = 0;                 \
    return got;                       \
  }
WITH_STRINGS(subject_publish_strings, f_pass)
WITH_STRINGS(subject_behavior_strings, f_subject_behavior)
WITH_STRINGS(subject_replay_strings, f_pass)
WITH_STRINGS(share_strings, f_pass)
WITH_STRINGS(share_replay_strings, f_pass)
WITH_STRINGS(create_strings, f_pass)
WITH_STRINGS(sample_strings, f_sample)

#define AS(name, f) {#name, f}
#define W(name) {#name, f_##name}
static const catalog_workload floors[] = {
  AS(subject_publish, f_pass), W(subject_behavior), AS(subject_replay, f_pass),
  AS(subject_replay_all, f_pass), W(subject_async), AS(subject_publish_relay, f_relay),
  AS(subject_behavior_relay, f_behavior_relay), AS(subject_replay_relay, f_relay),
  W(map), W(filter), W(map_filter_map), W(scan), W(reduce), W(take), W(skip), W(take_while), W(skip_while),
  W(distinct), W(distinct_eq), W(element_at), W(first), W(last), W(ignore), W(take_last),
  W(default_if_empty), AS(switch_if_empty, f_pass), W(compact_map), W(take_while_inclusive),
  W(take_until_predicate), AS(using, f_pass), AS(catch_with, f_pass), W(start_with),
  AS(catch, f_pass), AS(catch_return, f_pass), AS(retry, f_pass), AS(retry_when, f_pass), W(do), W(do_with_hooks),
  AS(take_until, f_pass), AS(skip_until, f_pass), AS(share, f_pass), AS(share_replay, f_pass),
  AS(share_forever, f_pass), AS(publish_ref_count, f_pass), AS(replay_ref_count, f_pass),
  AS(replay_all_ref_count, f_pass), AS(multicast_ref_count, f_pass), AS(observe_on, f_pass),
  AS(observe_on_bounded, f_pass), AS(subscribe_on, f_pass), AS(delay_subscription, f_pass),
  W(merge), W(combine), W(zip), W(with_latest), W(sample), W(amb), W(concat), W(merge_max), W(skip_last),
  W(range_map_filter_scan), W(range_map), W(of), AS(create, f_pass), W(generate), W(repeat_element_take),
  W(share_10), W(observe_on_bounded_full), W(pausable), W(group_by),
  W(subject_publish_strings), W(subject_behavior_strings), W(subject_replay_strings), W(map_strings),
  W(scan_strings), W(share_strings), W(share_replay_strings), W(combine_strings), W(zip_strings),
  W(with_latest_strings), W(sample_strings), W(create_strings),
};

int main(int argc, char **argv) {
  strings[0] = rx_string("north");
  strings[1] = rx_string("south");
  int rc = catalog_main("floor", floors, sizeof floors / sizeof floors[0], argc, argv);
  rx_value_release(strings[0]);
  rx_value_release(strings[1]);
  return rc;
}
