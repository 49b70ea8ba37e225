/*
 * sweep.c — calls every function of librxc with bad arguments, through libffi.
 *
 * Usage: sweep LIBRXC.so API.txt [-v] [-only NAME]
 *
 * For each function listed in api.txt (see gen_api.py) and each of its parameters, in turn:
 * NULL, a live handle of every wrong kind or sort, a released (poisoned) handle, and a
 * pointer to random bytes; rx_value parameters get broken boxes and values of the wrong
 * kind; arrays get a bad element. Every other argument is valid. Each call runs in a forked
 * child (on a fresh thread, so rx_last_error() starts empty) with a timeout, and must not
 * crash, must return the error result its type allows and must set rx_last_error().
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <ffi.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rxc.h"

#define MAX_FUNCS 1024
#define MAX_PARAMS 8
#define MAX_POOL 32
#define TIMEOUT_MS 10000

/* ---------------------------------------------------------------- types of api.txt */

typedef enum {
  T_VOID, T_HANDLE, T_ANYHANDLE, T_DATA, T_OPAQUE, T_CSTR, T_VALUE, T_OBSERVER,
  T_VALUE_OUT, T_VALUE_ARRAY, T_MARBLE_TABLE, T_ERROR_OUT, T_SIZE_OUT, T_OBS_ARRAY, T_VTABLE, T_FN,
  T_FLOW_OPTIONS, T_FLOW_STATS, T_BACKOFF, T_DO_HOOKS, T_FILE,
  T_I64, T_I32, T_SIZE, T_INT, T_BOOL, T_DOUBLE, T_ENUM, T_PTR_RESULT
} TypeClass;

typedef enum { K_NONE = -1, K_OBSERVABLE, K_SUBJECT, K_SCHEDULER, K_DISPOSABLE, K_BAG,
               K_EMITTER, K_ERROR, K_VALUEBOX, K_RUN_LOOP, K_COUNT } Kind;
static const char *kind_names[] = {"observable", "subject", "scheduler", "disposable",
                                   "dispose_bag", "emitter", "error", "value_box", "run_loop"};

typedef struct {
  char name[64], type[64];
  TypeClass tc;
  Kind kind;
  int null_ok, null_silent, any;
  char sorts[128];  /* "|a|b|" or "" */
  char vkinds[128]; /* "|a|b|" or "" */
  char str[64];     /* valid text for a string parameter */
} Param;

typedef struct {
  char name[96], ret[64];
  TypeClass rtc;
  int nparams;
  Param p[MAX_PARAMS];
  void *fn;
} Func;

static Func funcs[MAX_FUNCS];
static int nfuncs;
static void *lib;

static Kind kind_of(const char *t) {
  if (!strcmp(t, "rx_observable*") || !strcmp(t, "const_rx_observable*")) return K_OBSERVABLE;
  if (!strcmp(t, "rx_subject*")) return K_SUBJECT;
  if (!strcmp(t, "rx_scheduler*")) return K_SCHEDULER;
  if (!strcmp(t, "rx_disposable*")) return K_DISPOSABLE;
  if (!strcmp(t, "rx_dispose_bag*")) return K_BAG;
  if (!strcmp(t, "rx_emitter*")) return K_EMITTER;
  if (!strcmp(t, "rx_run_loop*")) return K_RUN_LOOP;
  if (!strcmp(t, "rx_error*") || !strcmp(t, "const_rx_error*")) return K_ERROR;
  return K_NONE;
}

static int ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && !strcmp(s + a - b, suffix);
}

/* Classifies a parameter type; an unknown type stops the sweep so it gets taught. */
static TypeClass classify(const char *t, int is_result) {
  if (!strcmp(t, "void")) return T_VOID;
  if (kind_of(t) != K_NONE) return is_result ? T_PTR_RESULT : T_HANDLE;
  if (is_result && ends_with(t, "*")) return T_PTR_RESULT;
  if (!strcmp(t, "const_void*")) return T_DATA;
  if (!strcmp(t, "void*")) return T_OPAQUE;
  if (!strcmp(t, "const_char*")) return T_CSTR;
  if (!strcmp(t, "rx_value")) return T_VALUE;
  if (!strcmp(t, "rx_observer")) return T_OBSERVER;
  if (!strcmp(t, "rx_value*")) return T_VALUE_OUT;
  if (!strcmp(t, "const_rx_value*")) return T_VALUE_ARRAY;
  if (!strcmp(t, "const_rx_marble_value*")) return T_MARBLE_TABLE;
  if (!strcmp(t, "rx_error**")) return T_ERROR_OUT;
  if (!strcmp(t, "size_t*")) return T_SIZE_OUT;
  if (!strcmp(t, "rx_observable*const*")) return T_OBS_ARRAY;
  if (!strcmp(t, "const_rx_scheduler_vtable*")) return T_VTABLE;
  if (!strcmp(t, "const_rx_flow_options*")) return T_FLOW_OPTIONS;
  if (!strcmp(t, "rx_flow_stats*")) return T_FLOW_STATS;
  if (!strcmp(t, "const_rx_backoff_options*")) return T_BACKOFF;
  if (!strcmp(t, "const_rx_do_hooks*")) return T_DO_HOOKS;
  if (!strcmp(t, "rx_file*")) return T_FILE; /* a FILE *: NULL (stderr) is the valid one */
  if (!strcmp(t, "fnptr") || ends_with(t, "_fn")) return T_FN;
  if (!strcmp(t, "int64_t")) return T_I64;
  if (!strcmp(t, "int32_t")) return T_I32;
  if (!strcmp(t, "size_t")) return T_SIZE;
  if (!strcmp(t, "int")) return T_INT;
  if (!strcmp(t, "bool")) return T_BOOL;
  if (!strcmp(t, "double")) return T_DOUBLE;
  if (!strcmp(t, "rx_status") || !strcmp(t, "rx_event_kind") || !strcmp(t, "rx_kind"))
    return T_ENUM;
  fprintf(stderr, "sweep: unknown type '%s' in api.txt: teach Tests/sweep/sweep.c\n", t);
  exit(2);
}

static void load_api(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) { perror(path); exit(2); }
  char line[2048];
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    Func *fn = &funcs[nfuncs++];
    memset(fn, 0, sizeof *fn);
    char *save, *tok = strtok_r(line, " \n", &save);
    snprintf(fn->ret, sizeof fn->ret, "%s", tok);
    fn->rtc = classify(fn->ret, 1);
    snprintf(fn->name, sizeof fn->name, "%s", strtok_r(NULL, " \n", &save));
    while ((tok = strtok_r(NULL, " \n", &save))) {
      Param *p = &fn->p[fn->nparams++];
      char *s2, *pname = strtok_r(tok, ":", &s2), *ptype = strtok_r(NULL, ":", &s2),
                 *flags = strtok_r(NULL, ":", &s2);
      snprintf(p->name, sizeof p->name, "%s", pname);
      snprintf(p->type, sizeof p->type, "%s", ptype);
      p->tc = classify(ptype, 0);
      p->kind = kind_of(ptype);
      if (p->tc == T_DATA && flags && strstr(flags, "any")) p->tc = T_ANYHANDLE;
      for (char *s3, *fl = flags ? strtok_r(flags, ",", &s3) : NULL; fl; fl = strtok_r(NULL, ",", &s3)) {
        if (!strcmp(fl, "null_ok")) p->null_ok = 1;
        else if (!strcmp(fl, "null_silent")) p->null_silent = 1;
        else if (!strcmp(fl, "any")) p->any = 1;
        else if (!strncmp(fl, "sort=", 5)) snprintf(p->sorts, sizeof p->sorts, "|%s|", fl + 5);
        else if (!strncmp(fl, "vkind=", 6)) snprintf(p->vkinds, sizeof p->vkinds, "|%s|", fl + 6);
        else if (!strncmp(fl, "str=", 4)) snprintf(p->str, sizeof p->str, "%s", fl + 4);
        else { fprintf(stderr, "sweep: unknown flag '%s' of %s\n", fl, fn->name); exit(2); }
      }
    }
    fn->fn = dlsym(lib, fn->name);
    if (!fn->fn) { fprintf(stderr, "sweep: %s is in api.txt but not exported\n", fn->name); exit(2); }
  }
  fclose(f);
}

static int in_set(const char *set, const char *name) {
  char key[80];
  snprintf(key, sizeof key, "|%s|", name);
  return strstr(set, key) != NULL;
}

/* ---------------------------------------------------------------- live objects */

#define SYM(name) ((__typeof__(&name))dlsym(lib, #name))

static void stub_action(void *ctx) { (void)ctx; }
/* Never called by the sweep's calls; a zero return suits every callback type. */
static void *stub_fn(void) { return NULL; }
/* Zeroed memory for opaque pointers; the rx_by_ref trampolines read it as an rx_by_ref, so
   it holds one whole (all members NULL). */
static _Alignas(16) char dummy[sizeof(rx_by_ref) > 64 ? sizeof(rx_by_ref) : 64];

static rx_emitter *kept_emitter;
static rx_disposable *keep_emitter(void *ctx, rx_emitter *e) {
  (void)ctx;
  kept_emitter = SYM(rx_retain)(e);
  return NULL;
}

static rx_value captured;
static void capture_first(void *ctx, rx_value v) {
  (void)ctx;
  if (captured.kind == RX_NONE) captured = SYM(rx_value_retain)(v);
}

typedef struct {
  Kind kind;
  const char *sort;
  const char *needs[4];
  void *(*make)(void);
} PoolDef;

static void *mk_plain(void) { return SYM(rx_just)(SYM(rx_int)(1)); }
static void *mk_connectable(void) { return SYM(rx_publish)(mk_plain()); }
static void *mk_driver(void) { return SYM(rx_as_driver)(mk_plain(), SYM(rx_int)(0)); }
static const rx_flow_options good_flow = {sizeof(rx_flow_options), 1, RX_OVERFLOW_DROP_OLDEST, 0, NULL, NULL, NULL};
static void *mk_bounded(void) {
  return SYM(rx_observe_on_bounded)(mk_plain(), SYM(rx_scheduler_immediate)(), &good_flow);
}
static rx_value key_zero(void *ctx, rx_value v, rx_error **e) {
  (void)ctx, (void)v, (void)e;
  return SYM(rx_int)(0);
}
/* The group of just(1) by a constant key, kept past the subscription that emitted it: the
   returned reference is its only one. */
static void *mk_group(void) {
  captured = (rx_value){0};
  rx_observer o = {0};
  o.on_next = capture_first;
  rx_disposable *d = SYM(rx_subscribe)(SYM(rx_group_by)(mk_plain(), key_zero, NULL, NULL), o);
  (void)d;
  void *group = SYM(rx_retain)(SYM(rx_value_observable)(captured));
  SYM(rx_value_release)(captured);
  return group;
}
static void *mk_signal(void) { return SYM(rx_as_signal)(mk_plain(), SYM(rx_int)(0)); }
static void *mk_publish(void) { return SYM(rx_publish_subject_new)(); }
static void *mk_behavior(void) { return SYM(rx_behavior_subject_new)(SYM(rx_int)(0)); }
static void *mk_behavior_relay(void) { return SYM(rx_behavior_relay_new)(SYM(rx_int)(0)); }
static void *mk_replay(void) { return SYM(rx_replay_subject_new)(2); }
static void *mk_immediate(void) { return SYM(rx_scheduler_immediate)(); }
static void *mk_serial_sched(void) { return SYM(rx_scheduler_serial_new)("sweep"); }
static void *mk_test_sched(void) { return SYM(rx_test_scheduler_new)(); }
static void *mk_token(void) { return SYM(rx_disposable_create)(stub_action, NULL, NULL); }
static void *mk_serial(void) { return SYM(rx_serial_disposable_new)(); }
static void *mk_single(void) { return SYM(rx_single_assignment_disposable_new)(); }
static void *mk_composite(void) { return SYM(rx_composite_disposable_new)(); }
static void stub_recursive(void *ctx, rx_disposable *self) { (void)ctx, (void)self; }
/* On a test scheduler nobody advances: its first run stays pending, the chain live. */
static void *mk_recursive(void) {
  rx_scheduler *t = SYM(rx_test_scheduler_new)();
  rx_disposable *d = SYM(rx_schedule_recursive)(t, stub_recursive, NULL, NULL);
  SYM(rx_release)(t);
  return d;
}
static void *mk_subscription(void) {
  return SYM(rx_subscribe)(mk_plain(), (rx_observer){0});
}
static void *mk_bag(void) { return SYM(rx_dispose_bag_new)(); }
static void *mk_emitter(void) {
  rx_disposable *d = SYM(rx_subscribe)(SYM(rx_create)(keep_emitter, NULL, NULL), (rx_observer){0});
  (void)d;
  return kept_emitter;
}
static void *mk_error(void) { return SYM(rx_error_new)(1000, "sweep"); }
static void *mk_box(void) { return (void *)(intptr_t)SYM(rx_string)("sweep").i; }
/* Bound to the thread that builds the pool: the calls run on another thread, so a valid
   rx_run_loop_run returns RX_ESTATE at once instead of running forever. */
static void *mk_loop(void) {
  rx_run_loop *loop = SYM(rx_run_loop_new)();
  SYM(rx_run_loop_drain)(loop);
  return loop;
}

static const PoolDef pool_defs[] = {
  {K_OBSERVABLE, "plain", {"rx_just"}, mk_plain},
  {K_OBSERVABLE, "connectable", {"rx_just", "rx_publish"}, mk_connectable},
  {K_OBSERVABLE, "driver", {"rx_just", "rx_as_driver"}, mk_driver},
  {K_OBSERVABLE, "bounded", {"rx_just", "rx_scheduler_immediate", "rx_observe_on_bounded"}, mk_bounded},
  {K_OBSERVABLE, "signal", {"rx_just", "rx_as_signal"}, mk_signal},
  {K_OBSERVABLE, "group", {"rx_just", "rx_group_by", "rx_subscribe"}, mk_group},
  {K_SUBJECT, "publish", {"rx_publish_subject_new"}, mk_publish},
  {K_SUBJECT, "behavior", {"rx_behavior_subject_new"}, mk_behavior},
  {K_SUBJECT, "behavior_relay", {"rx_behavior_relay_new"}, mk_behavior_relay},
  {K_SUBJECT, "replay", {"rx_replay_subject_new"}, mk_replay},
  /* serial first: the default scheduler must take timed and periodic work */
  {K_SCHEDULER, "serial", {"rx_scheduler_serial_new"}, mk_serial_sched},
  {K_SCHEDULER, "immediate", {"rx_scheduler_immediate"}, mk_immediate},
  {K_SCHEDULER, "test", {"rx_test_scheduler_new"}, mk_test_sched},
  {K_DISPOSABLE, "token", {"rx_disposable_create"}, mk_token},
  {K_DISPOSABLE, "subscription", {"rx_just", "rx_subscribe"}, mk_subscription},
  {K_DISPOSABLE, "serial", {"rx_serial_disposable_new"}, mk_serial},
  {K_DISPOSABLE, "single_assignment", {"rx_single_assignment_disposable_new"}, mk_single},
  {K_DISPOSABLE, "composite", {"rx_composite_disposable_new"}, mk_composite},
  {K_DISPOSABLE, "recursive", {"rx_test_scheduler_new", "rx_schedule_recursive"}, mk_recursive},
  {K_BAG, "bag", {"rx_dispose_bag_new"}, mk_bag},
  {K_EMITTER, "emitter", {"rx_create", "rx_subscribe", "rx_retain"}, mk_emitter},
  {K_ERROR, "error", {"rx_error_new"}, mk_error},
  {K_VALUEBOX, "string_box", {"rx_string"}, mk_box},
  {K_RUN_LOOP, "loop", {"rx_run_loop_new", "rx_run_loop_drain"}, mk_loop},
};
#define NPOOL ((int)(sizeof pool_defs / sizeof pool_defs[0]))
static int pool_avail[NPOOL];
static void *pool[NPOOL];

/* Values of each kind, for vkind checks and defaults. */
typedef struct {
  const char *name;
  const char *needs[3];
} ValueDef;
static const ValueDef value_defs[] = {
  {"int", {"rx_int"}},
  {"double", {"rx_double"}},
  {"bool", {"rx_bool"}},
  {"ptr", {"rx_ptr"}},
  {"string", {"rx_string"}},
  {"bytes", {"rx_bytes"}},
  {"array", {"rx_array", "rx_int"}},
  {"object", {"rx_object"}},
  {"observable", {"rx_observable_value", "rx_just"}},
  {"event_next", {"rx_materialize", "rx_just", "rx_subscribe"}},
  {"event_error", {"rx_materialize", "rx_throw", "rx_subscribe"}},
};
#define NVALUES ((int)(sizeof value_defs / sizeof value_defs[0]))
static int value_avail[NVALUES];
static rx_value values[NVALUES];

static rx_value first_event_of(rx_observable *src) {
  captured = (rx_value){0};
  rx_observer o = {0};
  o.on_next = capture_first;
  rx_disposable *d = SYM(rx_subscribe)(SYM(rx_materialize)(src), o);
  (void)d;
  return captured;
}

static rx_value make_value(int i) {
  const char *n = value_defs[i].name;
  if (!strcmp(n, "int")) return SYM(rx_int)(1);
  if (!strcmp(n, "double")) return SYM(rx_double)(0.5);
  if (!strcmp(n, "bool")) return SYM(rx_bool)(true);
  if (!strcmp(n, "ptr")) return SYM(rx_ptr)(dummy);
  if (!strcmp(n, "string")) return SYM(rx_string)("sweep");
  if (!strcmp(n, "bytes")) return SYM(rx_bytes)("ab", 2);
  if (!strcmp(n, "array")) {
    rx_value two[2] = {SYM(rx_int)(1), SYM(rx_int)(2)}; /* index 1 (the size_t default) exists */
    return SYM(rx_array)(two, 2);
  }
  if (!strcmp(n, "object")) return SYM(rx_object)(dummy, NULL);
  if (!strcmp(n, "observable")) return SYM(rx_observable_value)(mk_plain());
  if (!strcmp(n, "event_next")) return first_event_of(mk_plain());
  if (!strcmp(n, "event_error")) return first_event_of(SYM(rx_throw)(mk_error()));
  return (rx_value){0};
}

static int needs_met(const char *const *needs, int n) {
  for (int i = 0; i < n && needs[i]; i++)
    if (!dlsym(lib, needs[i])) return 0;
  return 1;
}

static void scan_available(void) {
  for (int i = 0; i < NPOOL; i++) pool_avail[i] = needs_met(pool_defs[i].needs, 4);
  for (int i = 0; i < NVALUES; i++) value_avail[i] = needs_met(value_defs[i].needs, 3);
}

static void build_pool(void) {
  for (int i = 0; i < NPOOL; i++)
    if (pool_avail[i]) pool[i] = pool_defs[i].make();
  for (int i = 0; i < NVALUES; i++)
    if (value_avail[i]) values[i] = make_value(i);
}

static int value_index(const char *name) {
  for (int i = 0; i < NVALUES; i++)
    if (!strcmp(value_defs[i].name, name)) return i;
  return -1;
}

/* ---------------------------------------------------------------- cases */

typedef enum {
  C_NULL,       /* NULL pointer */
  C_WRONG,      /* live handle of another kind/sort: arg = pool index */
  C_GARBAGE,    /* malloc'd random bytes */
  C_RELEASED,   /* a released handle of the right kind (RXC_DEBUG=1 poisons it) */
  C_VBOX_NULL,  /* boxed kind, NULL box */
  C_VBOX_GARBAGE,
  C_VBOX_HANDLE, /* boxed kind, box = live observable handle */
  C_VKIND_BAD,   /* kind out of range */
  C_VBOX_MISMATCH, /* RX_STRING kind with a bytes box */
  C_VWRONG_KIND, /* a valid value of a kind the function does not take: arg = value index */
  C_ELEM,        /* array element broken: sub = one of the above, arg as for it */
  C_VTABLE_NULL_SCHEDULE,
  C_STRUCT_SIZE_SMALL, /* a struct whose struct_size is below the first version's */
  C_CONTROL, /* every argument valid: shows the defaults are valid, so the cases prove something */
} CaseKind;

static const char *case_names[] = {"NULL", "wrong kind", "garbage", "released",
  "value box NULL", "value box garbage", "value box is a handle", "value kind invalid",
  "value kind/box mismatch", "value of wrong kind", "array element", "vtable schedule NULL",
  "struct_size too small", "all valid (control)"};

typedef struct {
  int func, param;
  CaseKind ck;
  CaseKind sub; /* for C_ELEM */
  int arg;
} Case;

static Case *cases;
static int ncases, cap_cases;

static void add_case(int f, int p, CaseKind ck, CaseKind sub, int arg) {
  if (ncases == cap_cases) {
    cap_cases = cap_cases ? cap_cases * 2 : 1024;
    cases = realloc(cases, sizeof(Case) * cap_cases);
  }
  cases[ncases++] = (Case){f, p, ck, sub, arg};
}

static int sort_ok(const Param *p, int pool_index) {
  const PoolDef *d = &pool_defs[pool_index];
  if (d->kind != p->kind) return 0;
  return !p->sorts[0] || in_set(p->sorts, d->sort);
}

static int first_valid(const Param *p) {
  for (int i = 0; i < NPOOL; i++)
    if (pool_avail[i] && sort_ok(p, i)) return i;
  return -1;
}

static void add_handle_cases(int f, int p, const Param *pr, int elem) {
#define ADD(ck, arg) (elem ? add_case(f, p, C_ELEM, ck, arg) : add_case(f, p, ck, 0, arg))
  if (!pr->null_ok || elem) ADD(C_NULL, 0);
  for (int i = 0; i < NPOOL; i++)
    if (pool_avail[i] && !sort_ok(pr, i)) ADD(C_WRONG, i);
  ADD(C_GARBAGE, 0);
  /* Only handles with a C reference count can be poisoned: shared schedulers ignore
     release, errors are freed, an emitter is also held by its subscription and a recursive
     chain's token by its chain. */
  int v = first_valid(pr);
  if (v >= 0 && strcmp(pool_defs[v].sort, "immediate") && strcmp(pool_defs[v].sort, "recursive") &&
      pool_defs[v].kind != K_ERROR && pool_defs[v].kind != K_EMITTER)
    ADD(C_RELEASED, 0);
}

static void add_value_cases(int f, int p, const Param *pr, int elem) {
  CaseKind list[] = {C_VBOX_NULL, C_VBOX_GARBAGE, C_VBOX_HANDLE, C_VKIND_BAD, C_VBOX_MISMATCH};
  for (unsigned i = 0; i < sizeof list / sizeof list[0]; i++) {
    if (list[i] == C_VBOX_MISMATCH && !value_avail[value_index("bytes")]) continue;
    ADD(list[i], 0);
  }
  if (pr->vkinds[0] && !elem)
    for (int i = 0; i < NVALUES; i++)
      if (value_avail[i] && !in_set(pr->vkinds, value_defs[i].name)) ADD(C_VWRONG_KIND, i);
#undef ADD
}

static void enumerate(void) {
  for (int f = 0; f < nfuncs; f++) {
    Func *fn = &funcs[f];
    for (int p = 0; p < fn->nparams; p++) {
      Param *pr = &fn->p[p];
      switch (pr->tc) {
      case T_HANDLE: add_handle_cases(f, p, pr, 0); break;
      case T_ANYHANDLE:
        add_case(f, p, C_NULL, 0, 0);
        add_case(f, p, C_GARBAGE, 0, 0);
        add_case(f, p, C_RELEASED, 0, 0);
        break;
      case T_VALUE: add_value_cases(f, p, pr, 0); break;
      case T_OBS_ARRAY: {
        Param elem = *pr;
        elem.kind = K_OBSERVABLE;
        elem.null_ok = 0;
        add_case(f, p, C_NULL, 0, 0);
        add_handle_cases(f, p, &elem, 1);
        break;
      }
      case T_VALUE_ARRAY: case T_MARBLE_TABLE:
        add_case(f, p, C_NULL, 0, 0);
        add_value_cases(f, p, pr, 1);
        break;
      case T_VTABLE:
        add_case(f, p, C_NULL, 0, 0);
        add_case(f, p, C_VTABLE_NULL_SCHEDULE, 0, 0);
        break;
      case T_FLOW_OPTIONS: case T_FLOW_STATS: case T_BACKOFF: case T_DO_HOOKS:
        if (!pr->null_ok) add_case(f, p, C_NULL, 0, 0); /* rx_rate_limit: NULL options are unbounded */
        add_case(f, p, C_STRUCT_SIZE_SMALL, 0, 0);
        break;
      case T_DATA: case T_CSTR: case T_VALUE_OUT: case T_ERROR_OUT: case T_SIZE_OUT:
      case T_FN: case T_OPAQUE:
        if (!pr->null_ok) add_case(f, p, C_NULL, 0, 0);
        break;
      default: break;
      }
    }
    if (ncases && cases[ncases - 1].func == f) add_case(f, -1, C_CONTROL, 0, 0);
  }
}

/* ---------------------------------------------------------------- one call */

typedef union {
  void *p;
  int64_t i64;
  int32_t i32;
  uint64_t u64;
  int i;
  uint8_t b;
  double d;
  rx_value v;
  rx_observer o;
  char pad[64];
} Arg;

static ffi_type *value_elems[] = {&ffi_type_sint32, &ffi_type_sint64, NULL};
static ffi_type value_type = {0, 0, FFI_TYPE_STRUCT, value_elems};
static ffi_type *observer_elems[] = {&ffi_type_pointer, &ffi_type_pointer, &ffi_type_pointer,
                                     &ffi_type_pointer, &ffi_type_pointer, NULL};
static ffi_type observer_type = {0, 0, FFI_TYPE_STRUCT, observer_elems};

static ffi_type *ffi_of(TypeClass tc) {
  switch (tc) {
  case T_VOID: return &ffi_type_void;
  case T_VALUE: return &value_type;
  case T_OBSERVER: return &observer_type;
  case T_I64: return &ffi_type_sint64;
  case T_I32: case T_ENUM: case T_INT: return &ffi_type_sint32;
  case T_SIZE: return &ffi_type_uint64;
  case T_BOOL: return &ffi_type_uint8;
  case T_DOUBLE: return &ffi_type_double;
  default: return &ffi_type_pointer;
  }
}

static rx_scheduler_vtable good_vtable, bad_vtable;
static rx_backoff_options good_backoff, bad_backoff;
static rx_do_hooks do_hooks_arg;
static rx_value value_array[1];
static rx_marble_value marble_table[1];
static rx_observable *obs_array[1];
static rx_value out_value;
static rx_error *out_error;
static size_t out_size;
static rx_flow_options flow_options_arg;
static rx_flow_stats flow_stats_arg;

static void *garbage(void) {
  unsigned char *g = malloc(256);
  for (int i = 0; i < 256; i++) g[i] = (unsigned char)rand();
  return g;
}

static rx_value bad_value(CaseKind ck) {
  rx_value v = {0};
  v.kind = RX_STRING;
  switch (ck) {
  case C_VBOX_NULL: v.i = 0; break;
  case C_VBOX_GARBAGE: v.i = (int64_t)(intptr_t)garbage(); break;
  case C_VBOX_HANDLE: v.i = (int64_t)(intptr_t)pool[0]; break;
  case C_VKIND_BAD: v.kind = (rx_kind)77; v.i = (int64_t)(intptr_t)pool[0]; break;
  case C_VBOX_MISMATCH: v.i = values[value_index("bytes")].i; break;
  default: break;
  }
  return v;
}

static void *handle_for(CaseKind ck, int arg, const Param *pr) {
  switch (ck) {
  case C_NULL: return NULL;
  case C_WRONG: return pool[arg];
  case C_GARBAGE: return garbage();
  case C_RELEASED: {
    void *h;
    if (pr->tc == T_ANYHANDLE) h = mk_plain();
    else h = pool_defs[first_valid(pr)].make();
    SYM(rx_release)(h);
    return h;
  }
  default: return NULL;
  }
}

static rx_value default_value(const Param *pr) {
  if (pr->vkinds[0]) {
    for (int i = 0; i < NVALUES; i++)
      if (value_avail[i] && in_set(pr->vkinds, value_defs[i].name)) return values[i];
  }
  return SYM(rx_int)(1);
}

/* Fills a valid argument; returns 0 if none can be made (the case is skipped). */
static int valid_arg(const Param *pr, Arg *a) {
  memset(a, 0, sizeof *a);
  switch (pr->tc) {
  case T_HANDLE: {
    int i = first_valid(pr);
    if (i < 0) return 0;
    a->p = pool[i];
    return 1;
  }
  case T_ANYHANDLE: a->p = pool[0]; return 1;
  case T_DATA: a->p = dummy; return 1;
  case T_OPAQUE: a->p = dummy; return 1;
  case T_FILE: a->p = NULL; return 1;
  case T_CSTR: a->p = pr->str[0] ? (void *)pr->str : "sweep"; return 1;
  case T_VALUE: a->v = default_value(pr); return 1;
  case T_OBSERVER: return 1; /* all callbacks NULL */
  case T_VALUE_OUT: a->p = &out_value; return 1;
  case T_VALUE_ARRAY: value_array[0] = SYM(rx_int)(1); a->p = value_array; return 1;
  case T_MARBLE_TABLE:
    marble_table[0] = (rx_marble_value){'a', SYM(rx_int)(1)};
    a->p = marble_table;
    return 1;
  case T_ERROR_OUT: a->p = &out_error; return 1;
  case T_SIZE_OUT: a->p = &out_size; return 1;
  case T_OBS_ARRAY: obs_array[0] = pool[0]; a->p = obs_array; return 1;
  case T_VTABLE:
    good_vtable.schedule = (void *)stub_fn;
    a->p = &good_vtable;
    return 1;
  case T_BACKOFF:
    good_backoff = (rx_backoff_options){sizeof good_backoff, 1000000, 2.0, 0, 1, 0.0, 0, false};
    a->p = &good_backoff;
    return 1;
  case T_DO_HOOKS:
    do_hooks_arg = (rx_do_hooks){sizeof do_hooks_arg, NULL};
    a->p = &do_hooks_arg;
    return 1;
  case T_FN: a->p = (void *)stub_fn; return 1;
  case T_FLOW_OPTIONS:
    flow_options_arg = good_flow;
    a->p = &flow_options_arg;
    return 1;
  case T_FLOW_STATS:
    memset(&flow_stats_arg, 0, sizeof flow_stats_arg);
    flow_stats_arg.struct_size = sizeof flow_stats_arg;
    a->p = &flow_stats_arg;
    return 1;
  case T_I64: a->i64 = 1000000; return 1;  /* 1 ms: a valid period, delay and timeout */
  case T_I32: case T_INT: a->i = 1; return 1;
  case T_SIZE: a->u64 = 1; return 1;
  case T_BOOL: a->b = 1; return 1;
  case T_DOUBLE: a->d = 1.0; return 1;
  case T_ENUM: a->i = 0; return 1;
  default: return 0;
  }
}

static void bad_arg(const Case *c, const Param *pr, Arg *a) {
  memset(a, 0, sizeof *a);
  if (c->ck == C_ELEM) {
    if (pr->tc == T_OBS_ARRAY) {
      Param elem = *pr;
      elem.kind = K_OBSERVABLE;
      obs_array[0] = handle_for(c->sub, c->arg, &elem);
      a->p = obs_array;
    } else if (pr->tc == T_MARBLE_TABLE) {
      marble_table[0] = (rx_marble_value){'a', bad_value(c->sub)};
      a->p = marble_table;
    } else {
      value_array[0] = bad_value(c->sub);
      a->p = value_array;
    }
    return;
  }
  switch (c->ck) {
  case C_VBOX_NULL: case C_VBOX_GARBAGE: case C_VBOX_HANDLE: case C_VKIND_BAD:
  case C_VBOX_MISMATCH:
    a->v = bad_value(c->ck);
    return;
  case C_VWRONG_KIND: a->v = values[c->arg]; return;
  case C_VTABLE_NULL_SCHEDULE:
    bad_vtable.schedule = NULL;
    a->p = &bad_vtable;
    return;
  case C_STRUCT_SIZE_SMALL:
    if (pr->tc == T_FLOW_OPTIONS) {
      flow_options_arg = good_flow;
      flow_options_arg.struct_size = sizeof(size_t);
      a->p = &flow_options_arg;
    } else if (pr->tc == T_DO_HOOKS) {
      do_hooks_arg = (rx_do_hooks){sizeof(size_t), NULL};
      a->p = &do_hooks_arg;
    } else if (pr->tc == T_BACKOFF) {
      bad_backoff = (rx_backoff_options){0, 1000000, 2.0, 0, 1, 0.0, 0, false};
      a->p = &bad_backoff;
    } else {
      memset(&flow_stats_arg, 0, sizeof flow_stats_arg);
      flow_stats_arg.struct_size = 1;
      a->p = &flow_stats_arg;
    }
    return;
  default: break;
  }
  if (pr->tc == T_HANDLE || pr->tc == T_ANYHANDLE) a->p = handle_for(c->ck, c->arg, pr);
  else a->p = NULL;
}

typedef struct {
  Func *fn;
  ffi_cif cif;
  void *avalues[MAX_PARAMS];
  union { char buf[64]; ffi_arg r; rx_value v; } ret;
  char last_error[512];
} Call;

static void *call_thread(void *arg) {
  Call *c = arg;
  ffi_call(&c->cif, FFI_FN(c->fn->fn), &c->ret, c->avalues);
  snprintf(c->last_error, sizeof c->last_error, "%s", SYM(rx_last_error)());
  return NULL;
}

static void describe(const Case *c, char *out, size_t n) {
  const Func *fn = &funcs[c->func];
  if (c->ck == C_CONTROL) {
    snprintf(out, n, "%s(all arguments valid)", fn->name);
    return;
  }
  const Param *pr = &fn->p[c->param];
  char what[160];
  if (c->ck == C_WRONG) snprintf(what, sizeof what, "wrong kind %s/%s",
                                 kind_names[pool_defs[c->arg].kind], pool_defs[c->arg].sort);
  else if (c->ck == C_VWRONG_KIND) snprintf(what, sizeof what, "value of kind %s", value_defs[c->arg].name);
  else if (c->ck == C_ELEM) {
    if (c->sub == C_WRONG) snprintf(what, sizeof what, "element: wrong kind %s/%s",
                                    kind_names[pool_defs[c->arg].kind], pool_defs[c->arg].sort);
    else snprintf(what, sizeof what, "element: %s", case_names[c->sub]);
  } else snprintf(what, sizeof what, "%s", case_names[c->ck]);
  snprintf(out, n, "%s(%s = %s)", fn->name, pr->name, what);
}

/* Why the result is not the error result of its type ("" if it is one). */
static void error_result(const Func *fn, const void *ret, char *why, size_t n) {
  const union { char buf[64]; ffi_arg r; rx_value v; } *res = ret;
  why[0] = 0;
  switch (fn->rtc) {
  case T_VOID: break;
  case T_PTR_RESULT:
    if (*(void *const *)res->buf) snprintf(why, n, "returned non-NULL %p", *(void *const *)res->buf);
    break;
  case T_ENUM:
    if (!strcmp(fn->ret, "rx_status")) {
      int s = (int)(int32_t)res->r;
      if (s != RX_EINVAL && s != RX_EHANDLE) snprintf(why, n, "returned status %d", s);
    } else if ((int32_t)res->r != 0) snprintf(why, n, "returned %d", (int)(int32_t)res->r);
    break;
  case T_BOOL:
    if ((uint8_t)res->r) snprintf(why, n, "returned true");
    break;
  case T_SIZE: case T_I32:
    if ((fn->rtc == T_SIZE ? (int64_t)res->r : (int32_t)res->r) != 0)
      snprintf(why, n, "returned %lld, expected 0", (long long)res->r);
    break;
  case T_I64: case T_INT:
    if ((fn->rtc == T_I64 ? (int64_t)res->r : (int32_t)res->r) != -1)
      snprintf(why, n, "returned %lld, expected -1", (long long)res->r);
    break;
  case T_VALUE:
    if (res->v.kind != RX_NONE) snprintf(why, n, "returned a value of kind %d", res->v.kind);
    break;
  default: break;
  }
}

/* Runs in the child: 0 pass, 1 fail (reason printed), 3 skipped, 4 control call gave the
   error result (the defaults of this function may not be valid). */
static int run_case(const Case *c) {
  Func *fn = &funcs[c->func];
  const Param *pr = c->param >= 0 ? &fn->p[c->param] : NULL;
  build_pool();
  Call call;
  memset(&call, 0, sizeof call);
  call.fn = fn;
  Arg args[MAX_PARAMS];
  ffi_type *types[MAX_PARAMS];
  for (int i = 0; i < fn->nparams; i++) {
    types[i] = ffi_of(fn->p[i].tc);
    call.avalues[i] = &args[i];
    if (i == c->param && pr) bad_arg(c, pr, &args[i]);
    else if (!valid_arg(&fn->p[i], &args[i])) return 3;
  }
  if (ffi_prep_cif(&call.cif, FFI_DEFAULT_ABI, (unsigned)fn->nparams, ffi_of(fn->rtc), types) != FFI_OK) {
    printf("ffi_prep_cif failed for %s\n", fn->name);
    return 1;
  }
  pthread_t t;
  pthread_create(&t, NULL, call_thread, &call);
  pthread_join(t, NULL);

  char desc[256], why[256] = "";
  describe(c, desc, sizeof desc);
  if (c->ck == C_CONTROL) {
    error_result(fn, &call.ret, why, sizeof why);
    /* false / 0 with no message is a valid answer (rx_disposable_is_disposed...) */
    if (fn->rtc != T_VOID && !why[0] && call.last_error[0]) {
      if (getenv("SWEEP_VERBOSE")) printf("note %s: returned the error result (%s)\n", desc, call.last_error);
      return 4;
    }
    return 0;
  }
  int silent = (c->ck == C_NULL && pr->null_silent);
  if (!silent) {
    error_result(fn, &call.ret, why, sizeof why);
    if (!why[0] && !call.last_error[0]) snprintf(why, sizeof why, "rx_last_error() is empty");
  }
  if (why[0]) {
    printf("FAIL %s: %s\n", desc, why);
    return 1;
  }
  if (getenv("SWEEP_VERBOSE")) printf("ok   %s: %s\n", desc, call.last_error);
  return 0;
}

static long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s librxc.so api.txt [only-function]\n", argv[0]);
    return 2;
  }
  /* Released handles stay poisoned, so the "released" cases are defined behaviour. */
  setenv("RXC_DEBUG", "1", 1);
  /* A crashing child should die at once, not spend seconds in the Swift backtracer. */
  setenv("SWIFT_BACKTRACE", "enable=no", 0);
  lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) { fprintf(stderr, "sweep: %s\n", dlerror()); return 2; }
  load_api(argv[2]);
  const char *only = argc > 3 ? argv[3] : NULL;
  scan_available();
  enumerate();

  int per_kind[16] = {0}, covered = 0, no_ptr = 0, passed = 0, failed = 0, skipped = 0;
  int controls = 0, weak = 0;
  char weak_names[4096] = "";
  for (int f = 0; f < nfuncs; f++) {
    int any = 0;
    for (int i = 0; i < ncases; i++) any |= cases[i].func == f;
    if (any) covered++; else no_ptr++;
  }
  for (int i = 0; i < NPOOL; i++)
    if (!pool_avail[i]) printf("note: no live %s/%s yet (not exported): its cases are skipped\n",
                               kind_names[pool_defs[i].kind], pool_defs[i].sort);
  fflush(stdout);
  long start = now_ms();
  for (int i = 0; i < ncases; i++) {
    const Case *c = &cases[i];
    if (only && strcmp(funcs[c->func].name, only)) continue;
    srand((unsigned)i + 1);
    pid_t pid = fork();
    if (pid == 0) {
      alarm(TIMEOUT_MS / 1000 + 1);
      int rc = run_case(c);
      fflush(stdout);
      _exit(rc);
    }
    int status = 0;
    long deadline = now_ms() + TIMEOUT_MS;
    pid_t w;
    while ((w = waitpid(pid, &status, WNOHANG)) == 0 && now_ms() < deadline) usleep(200);
    char desc[256];
    describe(c, desc, sizeof desc);
    if (w == 0) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      printf("FAIL %s: no result after %d ms (hang)\n", desc, TIMEOUT_MS);
      failed++;
    } else if (WIFSIGNALED(status)) {
      printf("FAIL %s: crashed with signal %d (%s)\n", desc, WTERMSIG(status), strsignal(WTERMSIG(status)));
      failed++;
    } else if (WEXITSTATUS(status) == 0) {
      passed++;
      per_kind[c->ck]++;
    } else if (WEXITSTATUS(status) == 3) {
      skipped++;
    } else if (WEXITSTATUS(status) == 4) {
      weak++;
      size_t used = strlen(weak_names);
      snprintf(weak_names + used, sizeof weak_names - used, " %s", funcs[c->func].name);
    } else {
      if (WEXITSTATUS(status) != 1) printf("FAIL %s: child exited with %d\n", desc, WEXITSTATUS(status));
      failed++;
    }
    fflush(stdout);
  }
  for (int i = 0; i < ncases; i++) controls += cases[i].ck == C_CONTROL;
  printf("sweep: %d functions (%d with pointer arguments, %d without), %d argument cases "
         "+ %d all-valid control calls in %.1f s\n",
         nfuncs, covered, no_ptr, ncases - controls, controls, (now_ms() - start) / 1000.0);
  if (weak)
    printf("sweep: %d control calls returned the error result as well (a valid call may fail "
           "for these, so their cases prove less):%s\n", weak, weak_names);
  printf("sweep: passed cases by kind:");
  for (int k = 0; k <= C_CONTROL; k++)
    if (per_kind[k]) printf(" %s %d;", case_names[k], per_kind[k]);
  printf("\n");
  if (skipped) printf("sweep: %d cases skipped (no valid value for another argument)\n", skipped);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
