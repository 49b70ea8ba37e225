/* rx_debug and rx_debug_callback: the lines' format, order and threads, through a callback
 * and through a FILE * (tmpfile, and stderr for NULL). */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ops_support.h"

typedef struct lines {
  pthread_mutex_t lock;
  char line[16][256];
  int n;
  int freed;
} lines;

static void collect(void *ctx, const char *line) {
  lines *l = ctx;
  pthread_mutex_lock(&l->lock);
  if (l->n < 16) snprintf(l->line[l->n++], sizeof l->line[0], "%s", line);
  pthread_mutex_unlock(&l->lock);
}
static void lines_free(void *ctx) { ((lines *)ctx)->freed++; }
static void lines_init(lines *l) {
  memset(l, 0, sizeof *l);
  pthread_mutex_init(&l->lock, NULL);
}

static long my_tid(void) { return (long)syscall(SYS_gettid); }
static int64_t mono_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Splits "<s>.<us> tid <tid> <label> -> <what>"; false if the line is not of that form. */
static bool parse(const char *line, int64_t *us, long *tid, char *label, char *what) {
  long long s;
  int micros, used = 0;
  if (sscanf(line, "%lld.%6d tid %ld %n", &s, &micros, tid, &used) != 3 || used == 0) return false;
  if (line[strcspn(line, ".") + 7] != ' ') return false; /* exactly 6 decimals */
  const char *arrow = strstr(line + used, " -> ");
  if (!arrow) return false;
  memcpy(label, line + used, (size_t)(arrow - line - used));
  label[arrow - line - used] = 0;
  strcpy(what, arrow + 4);
  *us = s * 1000000 + micros;
  return true;
}

/* Checks every line: the format, `label`, times in order within [t0, now], and `tid`
 * (where expected_tid[k] is not 0); returns the <what>s joined by "|". */
static const char *whats(lines *l, const char *label, int64_t t0, const long *expected_tid, char *out, size_t cap) {
  out[0] = 0;
  int64_t prev = t0, now = mono_us();
  for (int k = 0; k < l->n; k++) {
    int64_t us;
    long tid;
    char lab[64], what[128];
    if (!parse(l->line[k], &us, &tid, lab, what)) return "malformed";
    if (strcmp(lab, label) != 0) return "wrong label";
    if (us < prev || us > now) return "time out of order";
    if (expected_tid && expected_tid[k] && tid != expected_tid[k]) return "wrong thread";
    prev = us;
    size_t len = strlen(out);
    snprintf(out + len, cap - len, "%s%s", k ? "|" : "", what);
  }
  return out;
}

RX_TEST(debug_callback_lines_in_order_on_the_calling_thread) {
  lines l;
  lines_init(&l);
  rx_value items[] = {rx_int(1), rx_string("a b"), rx_double(2.5), rx_bool(true), rx_none()};
  rx_observable *src = rx_of(items, 5);
  rx_value_release(items[1]);
  int64_t t0 = mono_us();
  rx_observable *d = rx_debug_callback(src, "my source", collect, &l, lines_free);
  CHECK(d != NULL);
  rx_release(src);
  rec r;
  rx_dispose(rx_subscribe(d, rec_observer(&r)));
  CHECK_STR(r.log, "1 'a b' 2.5 T none |.");
  long me = my_tid();
  long tids[16];
  for (int k = 0; k < 16; k++) tids[k] = me;
  char buf[512];
  CHECK_STR(whats(&l, "my source", t0, tids, buf, sizeof buf),
            "subscribed|next(1)|next(\"a b\")|next(2.5)|next(true)|next(none)|completed|disposed");
  CHECK_EQ(l.freed, 0);
  rx_release(d);
  CHECK_EQ(l.freed, 1);
}

RX_TEST(debug_error_and_early_dispose) {
  lines l;
  lines_init(&l);
  rx_error *e = rx_error_new(1001, "boom");
  rx_observable *failing = rx_throw(e), *d = rx_debug_callback(failing, NULL, collect, &l, NULL);
  rx_release(e), rx_release(failing);
  rec r;
  rx_dispose(rx_subscribe(d, rec_observer(&r)));
  rx_release(d);
  char buf[512];
  CHECK_STR(whats(&l, "rx_debug", 0, NULL, buf, sizeof buf), "subscribed|error(1001 boom)|disposed");

  lines_init(&l);
  rx_subject *s = rx_publish_subject_new();
  d = rx_debug_callback(rx_subject_as_observable(s), "s", collect, &l, NULL);
  rx_disposable *token = rx_subscribe(d, rec_observer(&r));
  rx_subject_on_next(s, rx_int(7));
  CHECK_OK(rx_dispose(token));
  rx_subject_on_next(s, rx_int(8)); /* after the dispose: no line */
  CHECK_STR(whats(&l, "s", 0, NULL, buf, sizeof buf), "subscribed|next(7)|disposed");
  rx_release(d), rx_release(s);
}

typedef struct emitter_job {
  rx_subject *s;
  long tid;
} emitter_job;
static void *emit_from_thread(void *p) {
  emitter_job *j = p;
  j->tid = my_tid();
  rx_subject_on_next(j->s, rx_int(1));
  rx_subject_on_completed(j->s);
  return NULL;
}

RX_TEST(debug_lines_name_the_thread_that_delivers) {
  lines l;
  lines_init(&l);
  rx_subject *s = rx_publish_subject_new();
  rx_observable *d = rx_debug_callback(rx_subject_as_observable(s), "hop", collect, &l, NULL);
  rec r;
  rx_disposable *token = rx_subscribe(d, rec_observer(&r));
  emitter_job j = {s, 0};
  pthread_t t;
  pthread_create(&t, NULL, emit_from_thread, &j);
  pthread_join(t, NULL);
  CHECK(j.tid != my_tid());
  long tids[] = {my_tid(), j.tid, j.tid, j.tid};
  char buf[512];
  CHECK_STR(whats(&l, "hop", 0, tids, buf, sizeof buf), "subscribed|next(1)|completed|disposed");
  rx_dispose(token);
  rx_release(d), rx_release(s);
}

static void read_lines(FILE *f, lines *l) {
  rewind(f);
  char buf[256];
  while (l->n < 16 && fgets(buf, sizeof buf, f)) {
    size_t n = strlen(buf);
    CHECK(n > 0 && buf[n - 1] == '\n'); /* one line each */
    buf[n - 1] = 0;
    snprintf(l->line[l->n++], sizeof l->line[0], "%s", buf);
  }
}

RX_TEST(debug_to_a_file) {
  FILE *f = tmpfile();
  CHECK(f != NULL);
  rx_value items[] = {rx_int(1), rx_int(2)};
  rx_observable *src = rx_of(items, 2), *d = rx_debug(src, "file", f);
  rx_release(src);
  CHECK_STR(run_log(d), "1 2 |.");
  lines l;
  lines_init(&l);
  read_lines(f, &l);
  char buf[512];
  CHECK_STR(whats(&l, "file", 0, NULL, buf, sizeof buf), "subscribed|next(1)|next(2)|completed|disposed");
  fclose(f);
}

RX_TEST(debug_null_file_is_stderr) {
  FILE *f = tmpfile();
  fflush(stderr);
  int saved = dup(2);
  dup2(fileno(f), 2);
  rx_observable *src = rx_just(rx_int(5)), *d = rx_debug(src, NULL, NULL);
  rx_release(src);
  CHECK_STR(run_log(d), "5 |.");
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  lines l;
  lines_init(&l);
  read_lines(f, &l);
  char buf[512];
  CHECK_STR(whats(&l, "rx_debug", 0, NULL, buf, sizeof buf), "subscribed|next(5)|completed|disposed");
  fclose(f);
}

RX_TEST(debug_values_of_every_kind) {
  lines l;
  lines_init(&l);
  rx_value inner[] = {rx_int(1), rx_int(2)};
  rx_observable *obs = rx_never();
  rx_value items[] = {rx_array(inner, 2), rx_bytes("xyz", 3), rx_ptr((void *)0x1f), rx_observable_value(obs),
                      rx_object(NULL, NULL)};
  rx_release(obs);
  rx_observable *src = rx_of(items, 5), *d = rx_debug_callback(src, "k", collect, &l, NULL);
  for (int k = 0; k < 5; k++) rx_value_release(items[k]);
  rx_release(src);
  rec r;
  rx_dispose(rx_subscribe(d, rec_observer(&r)));
  rx_release(d);
  char buf[512];
  CHECK_STR(whats(&l, "k", 0, NULL, buf, sizeof buf),
            "subscribed|next([1, 2])|next(bytes[3])|next(0x1f)|next(observable)|next(object)|completed|disposed");
}

RX_TEST(debug_bad_arguments) {
  lines l;
  lines_init(&l);
  rx_observable *src = rx_empty();
  CHECK(rx_debug(NULL, "x", NULL) == NULL);
  CHECK(strstr(rx_last_error(), "rx_debug") != NULL);
  CHECK(rx_debug_callback(NULL, "x", collect, &l, lines_free) == NULL);
  CHECK(strstr(rx_last_error(), "rx_debug_callback") != NULL);
  CHECK(rx_debug_callback(src, "x", NULL, &l, lines_free) == NULL);
  CHECK(strstr(rx_last_error(), "fn is NULL") != NULL);
  CHECK_EQ(l.freed, 0); /* refused: the caller keeps its ctx */
  CHECK(rx_debug((rx_observable *)&l, "x", NULL) == NULL);
  rx_release(src);
}
