/* pipeline.c — the chat-gallery pipeline of the RxSwift scheduler write-up, in C.
 *
 *   (url, name) items                      main thread (the subscriber's)
 *     -> distinct_until_changed on url     main thread
 *     -> observe_on(serial "cache")        a worker: the file cache has one writer
 *     -> cache step: url -> local file     worker (creates the file on a miss)
 *     -> observe_on(concurrent "thumbs")   a worker of the concurrent pool
 *     -> thumbnail step (hashes the file)  worker: real CPU work off the main thread
 *     -> rx_as_driver + rx_drive           main thread, through the main loop
 *
 * Each step prints the thread it ran on. The cache lives in a temp dir made with mkdtemp
 * and removed at the end; the program exits 0 only if every library object was released. */
#include <rxc.h>

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- threads: "main" or "worker-N" ---------------------------------------------------- */

static pthread_t main_thread;
static atomic_int workers_seen;
static _Thread_local int worker_id;

static const char *thread_name(void) {
  static _Thread_local char name[32];
  if (pthread_equal(pthread_self(), main_thread)) return "main";
  if (worker_id == 0) worker_id = atomic_fetch_add(&workers_seen, 1) + 1;
  snprintf(name, sizeof name, "worker-%d", worker_id);
  return name;
}

#define SAY(...)                                 \
  do {                                           \
    char line_[512];                             \
    snprintf(line_, sizeof line_, __VA_ARGS__);  \
    printf("[%-8s] %s\n", thread_name(), line_); \
    fflush(stdout);                              \
  } while (0)

/* ---- items: RX_ARRAY [url, name] ---------------------------------------------------- */

static rx_value item(const char *url, const char *name) {
  rx_value parts[2] = {rx_string(url), rx_string(name)};
  rx_value a = rx_array(parts, 2); /* retains the parts */
  rx_value_release(parts[0]);
  rx_value_release(parts[1]);
  return a;
}
static const char *item_url(rx_value v) { return rx_value_string(rx_array_get(v, 0)); }
static const char *item_name(rx_value v) { return rx_value_string(rx_array_get(v, 1)); }

static void tap_source(void *ctx, rx_value v) { SAY("source     %-6s %s", item_name(v), item_url(v)); }
static void tap_distinct(void *ctx, rx_value v) { SAY("distinct   %-6s passes", item_name(v)); }

static bool same_url(void *ctx, rx_value a, rx_value b) { return strcmp(item_url(a), item_url(b)) == 0; }

/* ---- the file cache ------------------------------------------------------------------- */

typedef struct cache {
  char dir[64];
  struct {
    char *url;
    char path[128];
  } entries[16];
  int n, hits, misses;
} cache;

/* Stands in for a download: deterministic bytes derived from the url. */
static int download_to(const char *url, const char *path) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  uint32_t x = 2166136261u;
  for (const char *p = url; *p; p++) x = (x ^ (uint8_t)*p) * 16777619u;
  for (int i = 0; i < 256 * 1024; i++) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    fputc((int)(x & 0xff), f);
  }
  return fclose(f);
}

/* Runs on the serial "cache" scheduler only, so the table needs no lock. Emits [path, name]. */
static rx_value cache_step(void *ctx, rx_value v, rx_error **error) {
  cache *c = ctx;
  const char *url = item_url(v);
  for (int i = 0; i < c->n; i++) {
    if (strcmp(c->entries[i].url, url) == 0) {
      c->hits++;
      SAY("cache hit  %-6s %s", item_name(v), c->entries[i].path);
      rx_value parts[2] = {rx_string(c->entries[i].path), rx_value_retain(rx_array_get(v, 1))};
      rx_value out = rx_array(parts, 2);
      rx_value_release(parts[0]);
      rx_value_release(parts[1]);
      return out;
    }
  }
  if (c->n == (int)(sizeof c->entries / sizeof c->entries[0])) {
    *error = rx_error_new(RX_ERROR_USER + 1, "cache full");
    return rx_none();
  }
  int k = c->n;
  char path[sizeof c->entries[k].path];
  snprintf(path, sizeof path, "%s/img-%d.bin", c->dir, k);
  memcpy(c->entries[k].path, path, sizeof path);
  if (download_to(url, c->entries[k].path) != 0) {
    *error = rx_error_new(RX_ERROR_USER + 2, strerror(errno));
    return rx_none();
  }
  c->entries[k].url = strdup(url);
  c->n++;
  c->misses++;
  SAY("cache miss %-6s %s (created)", item_name(v), c->entries[k].path);
  rx_value parts[2] = {rx_string(c->entries[k].path), rx_value_retain(rx_array_get(v, 1))};
  rx_value out = rx_array(parts, 2);
  rx_value_release(parts[0]);
  rx_value_release(parts[1]);
  return out;
}

/* ---- the thumbnail: CPU work on the concurrent scheduler ---------------------------------- */

static rx_value thumbnail_step(void *ctx, rx_value v, rx_error **error) {
  const char *path = rx_value_string(rx_array_get(v, 0));
  const char *name = rx_value_string(rx_array_get(v, 1));
  FILE *f = fopen(path, "rb");
  if (!f) {
    *error = rx_error_new(RX_ERROR_USER + 3, strerror(errno));
    return rx_none();
  }
  unsigned char *buf = malloc(256 * 1024);
  size_t len = buf ? fread(buf, 1, 256 * 1024, f) : 0;
  fclose(f);
  /* FNV-1a over the file, 16 rounds: a few ms of real work per image. */
  uint64_t h = 1469598103934665603ull;
  for (int round = 0; round < 16; round++)
    for (size_t i = 0; i < len; i++) h = (h ^ buf[i]) * 1099511628211ull;
  free(buf);
  SAY("thumbnail  %-6s %zu bytes -> %016llx", name, len, (unsigned long long)h);
  char text[128];
  snprintf(text, sizeof text, "%s: thumbnail %016llx", name, (unsigned long long)h);
  return rx_string(text);
}

/* ---- the UI end, on the main loop -------------------------------------------------------- */

typedef struct ui {
  int shown, completed;
} ui;

static void ui_next(void *ctx, rx_value v) {
  ((ui *)ctx)->shown++;
  SAY("drive      show %s", rx_value_string(v));
}
static void ui_completed(void *ctx) {
  ((ui *)ctx)->completed = 1;
  SAY("drive      completed");
  rx_main_stop();
}
static void ui_disposed(void *ctx) { SAY("drive      disposed"); }

static void watchdog(void *ctx) {
  fprintf(stderr, "pipeline: timed out\n");
  rx_main_stop();
}

int main(void) {
  main_thread = pthread_self();
  /* The shared main scheduler may be counted from its first use on: use it before the
     baseline. */
  (void)rx_scheduler_main();
  rx_main_drain();
  int64_t live_at_start = rx_debug_live_objects();

  cache c = {.dir = "/tmp/rxc-pipeline-XXXXXX"};
  if (!mkdtemp(c.dir)) {
    perror("mkdtemp");
    return 1;
  }
  printf("cache dir: %s\n", c.dir);

  rx_value items[] = {
      item("https://chat.example/img/a.png", "alice"), item("https://chat.example/img/a.png", "alice"),
      item("https://chat.example/img/b.png", "bob"),   item("https://chat.example/img/a.png", "alice"),
      item("https://chat.example/img/c.png", "carol"), item("https://chat.example/img/c.png", "carol"),
      item("https://chat.example/img/b.png", "bob"),
  };
  size_t n_items = sizeof items / sizeof items[0];

  rx_scheduler *cache_queue = rx_scheduler_serial_new("cache");
  rx_scheduler *thumbs = rx_scheduler_concurrent_new("thumbs");

  /* Each operator borrows its source, so the chain is built, then every link released. */
  rx_observable *source = rx_of(items, n_items);
  for (size_t i = 0; i < n_items; i++) rx_value_release(items[i]);
  rx_observer tap = {.on_next = tap_source};
  rx_observable *tapped = rx_do(source, tap, NULL);
  rx_observable *distinct = rx_distinct_until_changed(tapped, same_url, NULL, NULL);
  rx_observer tap2 = {.on_next = tap_distinct};
  rx_observable *passed = rx_do(distinct, tap2, NULL);
  rx_observable *on_cache = rx_observe_on(passed, cache_queue);
  rx_observable *cached = rx_map(on_cache, cache_step, &c, NULL);
  rx_observable *on_thumbs = rx_observe_on(cached, thumbs);
  rx_observable *thumbnails = rx_map(on_thumbs, thumbnail_step, NULL, NULL);
  rx_value fallback = rx_string("(thumbnail failed)");
  rx_observable *driver = rx_as_driver(thumbnails, fallback);
  rx_value_release(fallback);
  rx_observable *chain[] = {source, tapped, distinct, passed, on_cache, cached, on_thumbs, thumbnails, driver};
  for (size_t i = 0; i < sizeof chain / sizeof chain[0]; i++) {
    if (!chain[i]) {
      fprintf(stderr, "pipeline: building step %zu failed: %s\n", i, rx_last_error());
      return 1;
    }
  }

  ui u = {0};
  rx_observer screen = {.on_next = ui_next, .on_completed = ui_completed, .on_disposed = ui_disposed, .ctx = &u};
  rx_disposable *dog = rx_schedule_after(rx_scheduler_main(), 10 * 1000000000LL, watchdog, NULL, NULL);
  rx_disposable *sub = rx_drive(driver, screen);
  if (!sub) {
    fprintf(stderr, "pipeline: rx_drive: %s\n", rx_last_error());
    return 1;
  }
  rx_main_run(); /* until ui_completed (or the watchdog) calls rx_main_stop */

  rx_dispose(sub);
  rx_dispose(dog);
  for (size_t i = sizeof chain / sizeof chain[0]; i-- > 0;) rx_release(chain[i]);
  rx_release(thumbs);
  rx_release(cache_queue);

  for (int i = 0; i < c.n; i++) {
    unlink(c.entries[i].path);
    free(c.entries[i].url);
  }
  int dir_removed = rmdir(c.dir) == 0;
  printf("shown %d thumbnails; cache: %d misses, %d hits; %d worker thread(s); temp dir %s\n", u.shown,
         c.misses, c.hits, atomic_load(&workers_seen), dir_removed ? "removed" : "NOT removed");

  /* Worker threads may still be dropping their last references: give them a moment. */
  int64_t live = rx_debug_live_objects();
  for (int i = 0; i < 100 && live != live_at_start; i++) {
    rx_main_run_for(10 * 1000000LL);
    live = rx_debug_live_objects();
  }
  printf("live objects: %lld (at start: %lld)\n", (long long)live, (long long)live_at_start);
  int ok = u.completed && u.shown == 5 && c.misses == 3 && c.hits == 2 && dir_removed && live == live_at_start;
  return ok ? 0 : 1;
}
