/*
 * gallery.c — seed 004's photo gallery as a GTK 4 program.
 *
 * A window with a grid of photos. Loading decodes each full-size JPEG or PNG and scales it
 * to a thumbnail with gdk-pixbuf, one photo per action on a scheduler; the thumbnails reach
 * the widgets through a Driver (rx_as_driver / rx_drive), which delivers on the main
 * scheduler, and rxc-glib.h hosts the main run loop in GTK's main loop. The pipeline:
 *
 *     rx_range(0, n) → rx_flat_map(i → rx_subscribe_on(rx_map(rx_just(i), decode), work))
 *                    → rx_as_driver → rx_drive(show the thumbnail)
 *
 * "Decode on the main thread" swaps `work` from a concurrent scheduler for the main
 * scheduler and changes nothing else: the same work then runs inside GTK's main loop, and
 * the window freezes (no thumbnail appears, nothing responds) until it is done. The status
 * line gives the longest gap between two frame-clock ticks during the load.
 *
 *     gtk-gallery IMAGE_DIR                       the window
 *     gtk-gallery --test IMAGE_DIR SHOT.png       headless check (run it under xvfb-run):
 *         loads every photo off the main thread, then on it, measures the longest gap
 *         between frame-clock ticks during each load, writes a screenshot of the window
 *         (and SHOT.png with -small before .png: 800 px wide), and prints one PASS/FAIL
 *         line per check, then "N passed, N failed".
 *
 * IMAGE_DIR holds photo-*.jpg and photo-*.png (make-images.c writes them).
 */
#define _GNU_SOURCE /* SCHED_IDLE */
#include <gtk/gtk.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "rxc-glib.h"

#define THUMB_W 200
#define THUMB_H 150
#define MAX_PHOTOS 1000
#define MAX_GAPS 20000

static gboolean on_main_thread(void) { return getpid() == (pid_t)syscall(SYS_gettid); }

static int64_t thread_cpu_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* ---- the work: one photo decoded and scaled, on whatever thread `work` runs it ------- */

typedef struct thumb {
  int index;
  cairo_surface_t *thumbnail; /* NULL when the photo could not be decoded */
  char *error;
  gboolean decoded_on_main;
  double luma; /* the thumbnail's mean luma, for the screenshot check (computed where decoded) */
} thumb;

static void thumb_free(void *p) {
  thumb *t = p;
  if (t->thumbnail) cairo_surface_destroy(t->thumbnail);
  g_free(t->error);
  g_free(t);
}

typedef struct gallery gallery;

static rx_value decode(void *ctx, rx_value v, rx_error **error);

/* ---- a photo's place in the grid ---------------------------------------------------------
 * A paintable of a fixed size showing a thumbnail once it has one. A thumbnail that arrives
 * only invalidates its contents, so the grid is redrawn, not laid out again: a new layout
 * of the window costs X server round trips (the monitor's work area), which a busy X server
 * answers late.
 *
 * The thumbnail is a cairo image surface, made off the main thread, drawn through a cairo
 * node, not a GdkTexture: GTK 4.8's cairo renderer culls nothing, and draws a texture by
 * converting it to a new cairo surface, so each redraw converted every thumbnail in the
 * grid, hidden ones too, and one redraw in 31 thumbnails spans the whole grid (its damage
 * diff gives up past 30 changes, and hidden changes add up): 10 ms a frame with 200. A cairo
 * node replays the surface, and cairo skips it wherever it is clipped away. */

#define TYPE_SLOT (slot_get_type())
G_DECLARE_FINAL_TYPE(Slot, slot, GALLERY, SLOT, GObject)

struct _Slot {
  GObject parent;
  cairo_surface_t *thumbnail; /* NULL: the placeholder */
};

static void slot_snapshot(GdkPaintable *paintable, GdkSnapshot *snapshot, double w, double h) {
  Slot *self = (Slot *)paintable;
  gtk_snapshot_append_color(GTK_SNAPSHOT(snapshot), &(GdkRGBA){0.78, 0.78, 0.78, 1}, &GRAPHENE_RECT_INIT(0, 0, w, h));
  if (!self->thumbnail) return;
  /* centred, its aspect kept */
  double tw = cairo_image_surface_get_width(self->thumbnail), th = cairo_image_surface_get_height(self->thumbnail);
  double k = fmin(w / tw, h / th);
  graphene_rect_t at = GRAPHENE_RECT_INIT((w - tw * k) / 2, (h - th * k) / 2, tw * k, th * k);
  cairo_t *cr = gtk_snapshot_append_cairo(GTK_SNAPSHOT(snapshot), &at);
  cairo_translate(cr, at.origin.x, at.origin.y);
  cairo_scale(cr, k, k);
  cairo_set_source_surface(cr, self->thumbnail, 0, 0);
  cairo_paint(cr);
  cairo_destroy(cr);
}

static int slot_width(GdkPaintable *paintable) { return THUMB_W; }
static int slot_height(GdkPaintable *paintable) { return THUMB_H; }
static GdkPaintableFlags slot_flags(GdkPaintable *paintable) { return GDK_PAINTABLE_STATIC_SIZE; }

static void slot_paintable_init(GdkPaintableInterface *iface) {
  iface->snapshot = slot_snapshot;
  iface->get_intrinsic_width = slot_width;
  iface->get_intrinsic_height = slot_height;
  iface->get_flags = slot_flags;
}

G_DEFINE_TYPE_WITH_CODE(Slot, slot, G_TYPE_OBJECT, G_IMPLEMENT_INTERFACE(GDK_TYPE_PAINTABLE, slot_paintable_init))

static void slot_dispose(GObject *object) {
  g_clear_pointer(&((Slot *)object)->thumbnail, cairo_surface_destroy);
  G_OBJECT_CLASS(slot_parent_class)->dispose(object);
}

static void slot_class_init(SlotClass *klass) { G_OBJECT_CLASS(klass)->dispose = slot_dispose; }
static void slot_init(Slot *self) {}

/* thumbnail: borrowed (NULL: back to the placeholder). */
static void slot_set_thumbnail(Slot *self, cairo_surface_t *thumbnail) {
  if (thumbnail) cairo_surface_reference(thumbnail);
  g_clear_pointer(&self->thumbnail, cairo_surface_destroy);
  self->thumbnail = thumbnail;
  gdk_paintable_invalidate_contents(GDK_PAINTABLE(self));
}

/* ---- the window --------------------------------------------------------------------- */

typedef struct load_stats {
  int64_t started, finished; /* µs, monotonic */
  int64_t main_cpu;          /* µs of CPU the main thread used in between */
  int64_t longest_gap;
  int frames, received, failed, decoded_on_main, delivered_off_main;
  int64_t gaps[MAX_GAPS];
} load_stats;

struct gallery {
  char **paths;
  int count;
  rx_scheduler *pool; /* owned: the concurrent scheduler */
  GSource *rx_host;   /* rxc-glib.h: the main run loop in GTK's main loop */

  GtkWidget *window, *content, *toggle, *button, *status;
  GtkWidget *pictures[MAX_PHOTOS];
  Slot *slots[MAX_PHOTOS]; /* the pictures' paintables */
  double mean_luma[MAX_PHOTOS]; /* of each thumbnail shown, for the screenshot check */

  rx_disposable *load; /* the load in progress or done */
  gboolean measuring, done;
  int64_t last_tick;
  load_stats stats;

  /* --test */
  gboolean test;
  const char *shot;
  int stage, warmup_frames;
  load_stats baseline, off_main, on_main;
  int passed, failed;
};

static void check(gallery *g, gboolean ok, const char *what, const char *detail) {
  printf("%s %s%s%s\n", ok ? "PASS" : "FAIL", what, detail && *detail ? ": " : "", detail ? detail : "");
  fflush(stdout);
  if (ok) g->passed++;
  else g->failed++;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static double p99_ms(load_stats *s) {
  int n = s->frames < MAX_GAPS ? s->frames : MAX_GAPS;
  if (n == 0) return 0;
  qsort(s->gaps, (size_t)n, sizeof s->gaps[0], cmp_i64);
  return s->gaps[(n * 99) / 100 < n ? (n * 99) / 100 : n - 1] / 1e3;
}

static void set_status(gallery *g, const char *text) { gtk_inscription_set_text(GTK_INSCRIPTION(g->status), text); }

static void test_next(gallery *g);

/* The measurement ends at the first tick after the last thumbnail: that tick's gap is the
   one a stalled main loop makes. */
static void measurement_done(gallery *g) {
  load_stats *s = &g->stats;
  s->finished = g_get_monotonic_time();
  s->main_cpu += thread_cpu_us();
  g->measuring = FALSE;
  char text[256];
  snprintf(text, sizeof text, "%d photos in %.1f s, decoded %s; longest gap between frames %.0f ms%s", s->received,
           (s->finished - s->started) / 1e6,
           gtk_check_button_get_active(GTK_CHECK_BUTTON(g->toggle)) ? "on the main thread" : "off the main thread",
           s->longest_gap / 1e3, s->failed ? " (some failed)" : "");
  set_status(g, text);
  if (g->test) test_next(g);
}

static gboolean tick(GtkWidget *widget, GdkFrameClock *clock, gpointer data) {
  gallery *g = data;
  int64_t now = g_get_monotonic_time();
  if (g->measuring) {
    load_stats *s = &g->stats;
    int64_t gap = now - g->last_tick;
    if (gap > s->longest_gap) s->longest_gap = gap;
    if (s->frames < MAX_GAPS) s->gaps[s->frames] = gap;
    s->frames++;
  }
  g->last_tick = now;
  if (g->measuring && g->done) measurement_done(g);
  if (g->test && g->warmup_frames > 0 && --g->warmup_frames == 0) test_next(g);
  return G_SOURCE_CONTINUE;
}

static double mean_luma(GdkPixbuf *pb, int x0, int y0, int w, int h, double *stddev) {
  int n = gdk_pixbuf_get_n_channels(pb), stride = gdk_pixbuf_get_rowstride(pb);
  const guchar *px = gdk_pixbuf_read_pixels(pb);
  double sum = 0, sum2 = 0;
  for (int y = y0; y < y0 + h; y++)
    for (int x = x0; x < x0 + w; x++) {
      const guchar *p = px + (size_t)y * stride + (size_t)x * n;
      double l = 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
      sum += l;
      sum2 += l * l;
    }
  double mean = sum / ((double)w * h);
  if (stddev) *stddev = sqrt(fmax(0, sum2 / ((double)w * h) - mean * mean));
  return mean;
}

/* Driver callbacks: on the main thread, inside GTK's main loop. */
static void show_thumb(void *ctx, rx_value v) {
  gallery *g = ctx;
  thumb *t = rx_object_data(v);
  load_stats *s = &g->stats;
  if (!t) return;
  s->received++;
  if (t->decoded_on_main) s->decoded_on_main++;
  if (!on_main_thread()) s->delivered_off_main++;
  if (!t->thumbnail) {
    s->failed++;
    gtk_widget_set_tooltip_text(g->pictures[t->index], t->error);
  } else {
    slot_set_thumbnail(g->slots[t->index], t->thumbnail);
    g->mean_luma[t->index] = t->luma;
  }
  /* (no progress text: a widget that changes size or is allocated anew lays out the window
     again, and under X11 with no window manager each layout waits for X server replies) */
}

static void load_completed(void *ctx) {
  gallery *g = ctx;
  g->done = TRUE; /* the next tick ends the measurement */
}

static rx_observable *photo(void *ctx, rx_value index, rx_error **error) {
  gallery *g = ctx;
  rx_scheduler *work = gtk_check_button_get_active(GTK_CHECK_BUTTON(g->toggle)) ? rx_scheduler_main() : g->pool;
  rx_observable *one = rx_just(index);
  rx_observable *decoded = rx_map(one, decode, g, NULL);
  rx_observable *placed = rx_subscribe_on(decoded, work);
  rx_release(decoded);
  rx_release(one);
  return placed;
}

static void start_load(gallery *g) {
  if (g->load) rx_dispose(g->load); /* a reload: the old one's results stop coming */
  g->load = NULL;
  for (int i = 0; i < g->count; i++) {
    slot_set_thumbnail(g->slots[i], NULL);
    g->mean_luma[i] = -1;
  }
  memset(&g->stats, 0, sizeof g->stats);
  g->stats.started = g->last_tick = g_get_monotonic_time(); /* the load's gaps only */
  g->stats.main_cpu = -thread_cpu_us();
  g->measuring = TRUE;
  g->done = FALSE;
  /* The button stays sensitive (a click during a load starts it over): an insensitive button
     changes style and lays out the window again, X server round trips in the first frame. */
  set_status(g, "loading");

  rx_observable *indices = rx_range(0, (size_t)g->count);
  rx_observable *thumbs = rx_flat_map(indices, photo, g, NULL);
  rx_observable *driver = rx_as_driver(thumbs, rx_none());
  /* With work on main, this call already decodes: the stall starts here. */
  g->load = rx_drive(driver, (rx_observer){.on_next = show_thumb, .on_completed = load_completed, .ctx = g});
  rx_release(driver);
  rx_release(thumbs);
  rx_release(indices);
}

static void load_clicked(GtkButton *button, gpointer data) { start_load(data); }

/* Background work yields the CPU to the UI: a decode thread runs as SCHED_IDLE, which any
   runnable thread of normal priority preempts (nice 10 still let the scheduler give it the
   main thread's core for 90 ms on a loaded 2-core machine), or, where that is refused, 10
   below its nice. Per thread on Linux. (Not on main: that would only slow the UI further.) */
static rx_value decode(void *ctx, rx_value v, rx_error **error) {
  gallery *g = ctx;
  thumb *t = g_new0(thumb, 1);
  t->index = (int)v.i;
  t->decoded_on_main = on_main_thread();
  static __thread gboolean lowered; /* once per thread: 10 below where it started */
  if (!t->decoded_on_main && !lowered) {
    id_t tid = (id_t)syscall(SYS_gettid);
    struct sched_param idle = {0};
    if (sched_setscheduler((pid_t)tid, SCHED_IDLE, &idle) != 0)
      setpriority(PRIO_PROCESS, tid, MIN(19, getpriority(PRIO_PROCESS, tid) + 10));
    lowered = TRUE;
  }
  GError *err = NULL;
  GdkPixbuf *full = gdk_pixbuf_new_from_file(g->paths[t->index], &err);
  if (!full) {
    t->error = g_strdup(err->message);
    g_error_free(err);
  } else {
    int w = gdk_pixbuf_get_width(full), h = gdk_pixbuf_get_height(full);
    double scale = fmin((double)THUMB_W / w, (double)THUMB_H / h);
    GdkPixbuf *small = gdk_pixbuf_scale_simple(full, MAX(1, (int)(w * scale + 0.5)), MAX(1, (int)(h * scale + 0.5)),
                                               GDK_INTERP_BILINEAR);
    g_object_unref(full);
    /* The test's own measure, off the main thread too: the UI thread only shows. */
    t->luma = mean_luma(small, 0, 0, gdk_pixbuf_get_width(small), gdk_pixbuf_get_height(small), NULL);
    t->thumbnail = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, gdk_pixbuf_get_width(small),
                                              gdk_pixbuf_get_height(small));
    cairo_t *cr = cairo_create(t->thumbnail);
    gdk_cairo_set_source_pixbuf(cr, small, 0, 0);
    cairo_paint(cr);
    cairo_destroy(cr);
    g_object_unref(small);
  }
  return rx_object(t, thumb_free);
}

static const char *css = ".status { font-feature-settings: 'tnum'; }";

static void build_window(gallery *g) {
  GtkCssProvider *provider = gtk_css_provider_new();
  gtk_css_provider_load_from_data(provider, css, -1);
  gtk_style_context_add_provider_for_display(gdk_display_get_default(), GTK_STYLE_PROVIDER(provider),
                                             GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_object_unref(provider);

  g->window = gtk_window_new();
  gtk_window_set_title(GTK_WINDOW(g->window), "librxc gallery");
  gtk_window_set_default_size(GTK_WINDOW(g->window), 1100, 720);

  g->content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *bar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_set_margin_start(bar, 8);
  gtk_widget_set_margin_end(bar, 8);
  gtk_widget_set_margin_top(bar, 8);
  g->button = gtk_button_new_with_label("Load photos");
  g_signal_connect(g->button, "clicked", G_CALLBACK(load_clicked), g);
  g->toggle = gtk_check_button_new_with_label("Decode on the main thread");
  /* An inscription, not a label: a new text only redraws it, where a label's would lay out
     the window again (X server round trips, see no_frame_sync) in the load's first frame. */
  g->status = gtk_inscription_new("");
  gtk_widget_add_css_class(g->status, "status");
  gtk_inscription_set_text_overflow(GTK_INSCRIPTION(g->status), GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
  gtk_widget_set_hexpand(g->status, TRUE);
  gtk_box_append(GTK_BOX(bar), g->button);
  gtk_box_append(GTK_BOX(bar), g->toggle);
  gtk_box_append(GTK_BOX(bar), g->status);

  GtkWidget *flow = gtk_flow_box_new();
  gtk_flow_box_set_selection_mode(GTK_FLOW_BOX(flow), GTK_SELECTION_NONE);
  gtk_flow_box_set_homogeneous(GTK_FLOW_BOX(flow), TRUE);
  gtk_flow_box_set_max_children_per_line(GTK_FLOW_BOX(flow), 20);
  gtk_flow_box_set_row_spacing(GTK_FLOW_BOX(flow), 6);
  gtk_flow_box_set_column_spacing(GTK_FLOW_BOX(flow), 6);
  gtk_widget_set_valign(flow, GTK_ALIGN_START);
  gtk_widget_set_margin_start(flow, 8);
  gtk_widget_set_margin_end(flow, 8);
  for (int i = 0; i < g->count; i++) {
    g->slots[i] = g_object_new(TYPE_SLOT, NULL);
    GtkWidget *pic = gtk_picture_new_for_paintable(GDK_PAINTABLE(g->slots[i]));
    gtk_picture_set_can_shrink(GTK_PICTURE(pic), FALSE);
    gtk_widget_set_tooltip_text(pic, g->paths[i]);
    gtk_flow_box_append(GTK_FLOW_BOX(flow), pic);
    g->pictures[i] = pic;
  }
  GtkWidget *scroll = gtk_scrolled_window_new();
  gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroll), flow);
  gtk_widget_set_vexpand(scroll, TRUE);

  gtk_box_append(GTK_BOX(g->content), bar);
  gtk_box_append(GTK_BOX(g->content), scroll);
  gtk_window_set_child(GTK_WINDOW(g->window), g->content);
  gtk_widget_add_tick_callback(g->window, tick, g, NULL);
}

/* X11 with no compositing window manager (Xvfb, a bare X server): every frame, GTK 4.8 asks
   the X server twice per shown surface whether a window manager runs (to sync frames with a
   compositor; its 15 s cache only keeps a yes), and waits for each answer, late when the
   server is short of CPU. Frame sync needs such a compositor, so where there is none it is
   turned off, on each native surface (the window, a tooltip) as it is realized. An emission
   hook of GtkWidget::realize, which runs after the class handler made the surface. */
static gboolean no_frame_sync(GSignalInvocationHint *hint, guint n_params, const GValue *params, gpointer data) {
#ifdef GDK_WINDOWING_X11
  GtkWidget *widget = g_value_get_object(&params[0]);
  GdkSurface *surface = GTK_IS_NATIVE(widget) ? gtk_native_get_surface(GTK_NATIVE(widget)) : NULL;
  if (surface && GDK_IS_X11_SURFACE(surface) &&
      !gdk_x11_screen_supports_net_wm_hint(gdk_x11_display_get_screen(gdk_surface_get_display(surface)),
                                           "_NET_WM_FRAME_DRAWN"))
    gdk_x11_surface_set_frame_sync_enabled(surface, FALSE);
#endif
  return TRUE; /* stays for the next surface */
}

/* ---- --test: the stages, each started by the end of the previous one ----------------- */

/* The window's content as a PNG at `path` (through the window's own renderer); returns
   whether it was written. */
static gboolean save_screenshot(gallery *g, const char *path) {
  int w = gtk_widget_get_width(g->content), h = gtk_widget_get_height(g->content);
  GdkPaintable *paintable = gtk_widget_paintable_new(g->content);
  GtkSnapshot *snapshot = gtk_snapshot_new();
  gdk_paintable_snapshot(paintable, snapshot, w, h);
  GskRenderNode *node = gtk_snapshot_free_to_node(snapshot);
  gboolean ok = FALSE;
  if (node) {
    GskRenderer *renderer = gtk_native_get_renderer(GTK_NATIVE(g->window));
    GdkTexture *texture = gsk_renderer_render_texture(renderer, node, &GRAPHENE_RECT_INIT(0, 0, w, h));
    ok = gdk_texture_save_to_png(texture, path);
    g_object_unref(texture);
    gsk_render_node_unref(node);
  }
  g_object_unref(paintable);
  return ok;
}

/* The screenshot shows the thumbnails: every photo wholly in view has, in the PNG, the
   mean brightness of its thumbnail (within 8 of 255) and is not flat (a placeholder is). */
static void check_screenshot(gallery *g) {
  char detail[512];
  if (!save_screenshot(g, g->shot)) {
    check(g, FALSE, "screenshot", "could not render or write it");
    return;
  }
  GError *err = NULL;
  GdkPixbuf *shot = gdk_pixbuf_new_from_file(g->shot, &err);
  if (!shot) {
    snprintf(detail, sizeof detail, "cannot read %s back: %s", g->shot, err->message);
    g_error_free(err);
    check(g, FALSE, "screenshot", detail);
    return;
  }
  int sw = gdk_pixbuf_get_width(shot), sh = gdk_pixbuf_get_height(shot), in_view = 0, matching = 0;
  for (int i = 0; i < g->count; i++) {
    graphene_rect_t r;
    if (!gtk_widget_compute_bounds(g->pictures[i], g->content, &r)) continue;
    int x = (int)ceil(r.origin.x), y = (int)ceil(r.origin.y), w = (int)r.size.width - 1, h = (int)r.size.height - 1;
    if (x < 0 || y < 0 || x + w > sw || y + h > sh || w < 8 || h < 8) continue;
    /* skip partly hidden rows: the scrolled window clips them */
    graphene_rect_t view;
    GtkWidget *scroll = gtk_widget_get_ancestor(g->pictures[i], GTK_TYPE_SCROLLED_WINDOW);
    if (!gtk_widget_compute_bounds(scroll, g->content, &view) || y + h > view.origin.y + view.size.height) continue;
    in_view++;
    double sd, m = mean_luma(shot, x, y, w, h, &sd);
    if (g->mean_luma[i] >= 0 && fabs(m - g->mean_luma[i]) < 8 && sd > 8) matching++;
  }
  /* and the 800 px wide copy for the README */
  char *small = NULL;
  const char *dot = strrchr(g->shot, '.');
  if (dot) small = g_strdup_printf("%.*s-small%s", (int)(dot - g->shot), g->shot, dot);
  GdkPixbuf *scaled = small ? gdk_pixbuf_scale_simple(shot, 800, (int)(800.0 * sh / sw), GDK_INTERP_HYPER) : NULL;
  gboolean small_ok = scaled && gdk_pixbuf_save(scaled, small, "png", NULL, "compression", "9", NULL);
  if (scaled) g_object_unref(scaled);
  g_object_unref(shot);
  snprintf(detail, sizeof detail, "%s, %dx%d: %d of %d photos in view show their thumbnail%s%s", g->shot, sw, sh,
           matching, in_view, small_ok ? "; resized copy " : "", small_ok ? small : "");
  g_free(small);
  check(g, in_view >= 12 && matching == in_view && small_ok, "screenshot shows the thumbnails", detail);
}

static void report_load(gallery *g, load_stats *s, const char *mode, gboolean main_mode) {
  char what[128], detail[256];
  snprintf(detail, sizeof detail, "%d of %d received, %d failed, %d decoded on main, %d delivered off main", s->received,
           g->count, s->failed, s->decoded_on_main, s->delivered_off_main);
  snprintf(what, sizeof what, "%s: every photo decoded %s and shown from the main thread", mode,
           main_mode ? "on the main thread" : "off it");
  check(g,
        s->received == g->count && s->failed == 0 && s->delivered_off_main == 0 &&
            s->decoded_on_main == (main_mode ? g->count : 0),
        what, detail);
  printf("%s: %d photos in %.0f ms, main thread busy %.0f ms of it, %d frames, longest gap between frame-clock ticks"
         " %.1f ms (99%% of gaps < %.1f ms)\n",
         mode, s->received, (s->finished - s->started) / 1e3, s->main_cpu / 1e3, s->frames, s->longest_gap / 1e3,
         p99_ms(s));
}

static gboolean test_step(gpointer data);

static void test_next(gallery *g) { g_idle_add(test_step, g); }

static gboolean baseline_done(gpointer data) {
  gallery *g = data;
  g->measuring = FALSE;
  g->stats.finished = g_get_monotonic_time();
  g->stats.main_cpu += thread_cpu_us();
  g->baseline = g->stats;
  test_next(g);
  return G_SOURCE_REMOVE;
}

static gboolean test_step(gpointer data) {
  gallery *g = data;
  char detail[256];
  switch (g->stage++) {
  case 0: /* the window is up and has drawn a few frames: 1 s of ticks with no work */
    memset(&g->stats, 0, sizeof g->stats);
    g->stats.started = g->last_tick = g_get_monotonic_time();
    g->stats.main_cpu = -thread_cpu_us();
    g->measuring = TRUE;
    g->done = FALSE;
    g_timeout_add(1000, baseline_done, g);
    break;
  case 1:
    snprintf(detail, sizeof detail, "%d frames in 1 s with no work, main thread busy %.0f ms, longest gap %.1f ms"
             " (99%% < %.1f ms)", g->baseline.frames, g->baseline.main_cpu / 1e3, g->baseline.longest_gap / 1e3,
             p99_ms(&g->baseline));
    check(g, g->baseline.frames >= 20, "the window shows and its frame clock ticks", detail);
    gtk_check_button_set_active(GTK_CHECK_BUTTON(g->toggle), FALSE);
    start_load(g);
    break;
  case 2:
    g->off_main = g->stats;
    report_load(g, &g->off_main, "off main", FALSE);
    snprintf(detail, sizeof detail, "%.1f ms", g->off_main.longest_gap / 1e3);
    check(g, g->off_main.longest_gap < 50000, "off main: longest gap between frame-clock ticks under 50 ms", detail);
    check_screenshot(g);
    gtk_check_button_set_active(GTK_CHECK_BUTTON(g->toggle), TRUE);
    start_load(g);
    break;
  case 3:
    g->on_main = g->stats;
    report_load(g, &g->on_main, "on main", TRUE);
    snprintf(detail, sizeof detail, "longest gap %.1f ms on main, %.1f ms off main", g->on_main.longest_gap / 1e3,
             g->off_main.longest_gap / 1e3);
    check(g, g->on_main.longest_gap >= 250000 && g->on_main.longest_gap >= 4 * g->off_main.longest_gap,
          "on main: the load stalls the frame clock (a gap of 250 ms or more, 4x off main's)", detail);
    gtk_window_destroy(GTK_WINDOW(g->window));
    break;
  }
  return G_SOURCE_REMOVE;
}

static gboolean watchdog(gpointer data) {
  fprintf(stderr, "gtk-gallery: --test did not finish within 120 s (stage %d)\n", ((gallery *)data)->stage);
  exit(1);
}

/* ---- main ---------------------------------------------------------------------------- */

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int list_photos(gallery *g, const char *dir) {
  GError *err = NULL;
  GDir *d = g_dir_open(dir, 0, &err);
  if (!d) {
    fprintf(stderr, "gtk-gallery: %s\n", err->message);
    g_error_free(err);
    return -1;
  }
  g->paths = g_new0(char *, MAX_PHOTOS + 1);
  const char *name;
  while ((name = g_dir_read_name(d)) && g->count < MAX_PHOTOS)
    if (g_str_has_prefix(name, "photo-") && (g_str_has_suffix(name, ".jpg") || g_str_has_suffix(name, ".png")))
      g->paths[g->count++] = g_build_filename(dir, name, NULL);
  g_dir_close(d);
  qsort(g->paths, (size_t)g->count, sizeof *g->paths, by_name);
  return g->count;
}

static gallery app; /* large (the gap records): static, not on the stack */

static void window_destroyed(GtkWidget *w, gpointer loop) {
  gallery *g = &app;
  if (g->load) rx_dispose(g->load); /* no thumbnail may reach the widgets now gone */
  g->load = NULL;
  g_main_loop_quit(loop);
}

int main(int argc, char **argv) {
  gallery *g = &app;
  const char *dir = NULL;
  if (argc == 4 && strcmp(argv[1], "--test") == 0) {
    g->test = TRUE;
    dir = argv[2];
    g->shot = argv[3];
  } else if (argc == 2 && argv[1][0] != '-') {
    dir = argv[1];
  } else {
    fprintf(stderr, "usage: %s IMAGE_DIR | --test IMAGE_DIR SHOT.png\n", argv[0]);
    return 2;
  }
  int64_t live_at_start = rx_debug_live_objects();
  int listed = list_photos(g, dir);
  if (listed <= 0) {
    if (listed == 0) fprintf(stderr, "gtk-gallery: no photo-*.jpg or photo-*.png in %s\n", dir);
    return 1;
  }
  if (!gtk_init_check()) {
    fprintf(stderr, "gtk-gallery: cannot open a display (DISPLAY=%s)\n", g_getenv("DISPLAY") ? g_getenv("DISPLAY") : "");
    return 1;
  }

  g->pool = rx_scheduler_concurrent_new("gallery.decode");
  g->rx_host = rx_glib_attach(rx_run_loop_main(), NULL);
  build_window(g);
  g_signal_add_emission_hook(g_signal_lookup("realize", GTK_TYPE_WIDGET), 0, no_frame_sync, NULL, NULL);
  GMainLoop *loop = g_main_loop_new(NULL, FALSE);
  g_signal_connect(g->window, "destroy", G_CALLBACK(window_destroyed), loop);
  if (g->test) {
    g->warmup_frames = 10;
    g_timeout_add_seconds(120, watchdog, g);
    printf("gtk-gallery --test: %d photos from %s, renderer %s\n", g->count, dir,
           g_getenv("GSK_RENDERER") ? g_getenv("GSK_RENDERER") : "(default)");
  } else {
    set_status(g, "press Load photos");
  }
  gtk_window_present(GTK_WINDOW(g->window));
  g_main_loop_run(loop);
  g_main_loop_unref(loop);

  /* teardown: the load (if the window did not end it), the pool, what is still queued on
     main (the subscriptions' own disposal), then the host */
  if (g->load) rx_dispose(g->load);
  rx_release(g->pool);
  while (rx_main_drain() > 0) {}
  rx_glib_detach(g->rx_host);
  for (int i = 0; i < g->count; i++) {
    g_object_unref(g->slots[i]);
    g_free(g->paths[i]);
  }
  g_free(g->paths);
  /* the pool's threads let go of their last references a little after the work ends */
  for (int i = 0; i < 2000 && rx_debug_live_objects() != live_at_start; i++) g_usleep(1000);
  int64_t left = rx_debug_live_objects() - live_at_start;
  if (g->test) {
    char detail[64];
    snprintf(detail, sizeof detail, "%lld left", (long long)left);
    check(g, left == 0, "teardown: the live objects are back where they started", detail);
    printf("%d passed, %d failed\n", g->passed, g->failed);
    return g->failed == 0 && g->passed == 7 ? 0 : 1;
  }
  return left == 0 ? 0 : 1;
}
