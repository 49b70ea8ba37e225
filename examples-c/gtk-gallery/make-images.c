/*
 * make-images.c — writes the gallery's photos: COUNT pictures of WIDTHxHEIGHT, even ones as
 * JPEG, odd ones as PNG, named photo-NNN.jpg / photo-NNN.png, into DIR.
 *
 *     make-images DIR [COUNT [WIDTH HEIGHT]]      (defaults: 200 1600 1200)
 *
 * Each is a landscape drawn with cairo (a sky, a sun, hills, its number) in colours of its
 * own, with a little grain so that a JPEG decodes as a photo does, then encoded with
 * gdk-pixbuf. Deterministic: the same arguments write the same files.
 */
#include <cairo.h>
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static double frand(unsigned *seed) {
  *seed = *seed * 1103515245u + 12345u;
  return ((*seed >> 8) & 0xffffff) / (double)0x1000000;
}

static void hsv(double h, double s, double v, double *r, double *g, double *b) {
  h = fmod(h, 1.0) * 6;
  int i = (int)h;
  double f = h - i, p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
  double c[6][3] = {{v, t, p}, {q, v, p}, {p, v, t}, {p, q, v}, {t, p, v}, {v, p, q}};
  *r = c[i % 6][0], *g = c[i % 6][1], *b = c[i % 6][2];
}

static void draw(cairo_t *cr, int n, int w, int h) {
  unsigned seed = 7919u * (unsigned)n + 1;
  double hue = frand(&seed), r, g, b;

  cairo_pattern_t *sky = cairo_pattern_create_linear(0, 0, 0, h * 0.7);
  hsv(hue, 0.55, 0.95, &r, &g, &b);
  cairo_pattern_add_color_stop_rgb(sky, 0, r * 0.5, g * 0.5, b * 0.8);
  hsv(hue + 0.08, 0.25, 1.0, &r, &g, &b);
  cairo_pattern_add_color_stop_rgb(sky, 1, r, g, b);
  cairo_set_source(cr, sky);
  cairo_paint(cr);
  cairo_pattern_destroy(sky);

  double sx = w * (0.15 + 0.7 * frand(&seed)), sy = h * (0.15 + 0.3 * frand(&seed)), sr = h * 0.09;
  cairo_pattern_t *sun = cairo_pattern_create_radial(sx, sy, 0, sx, sy, sr * 3);
  cairo_pattern_add_color_stop_rgba(sun, 0, 1, 1, 0.85, 1);
  cairo_pattern_add_color_stop_rgba(sun, 0.33, 1, 0.9, 0.5, 0.9);
  cairo_pattern_add_color_stop_rgba(sun, 1, 1, 0.8, 0.4, 0);
  cairo_set_source(cr, sun);
  cairo_arc(cr, sx, sy, sr * 3, 0, 2 * M_PI);
  cairo_fill(cr);
  cairo_pattern_destroy(sun);

  for (int layer = 0; layer < 4; layer++) {
    double base = h * (0.45 + 0.13 * layer);
    cairo_move_to(cr, 0, h);
    cairo_line_to(cr, 0, base);
    for (int k = 1; k <= 6; k++) {
      double x = w * k / 6.0, y = base - h * 0.12 * frand(&seed);
      cairo_curve_to(cr, x - w / 9.0, base - h * 0.15 * frand(&seed), x - w / 18.0, y, x, y);
    }
    cairo_line_to(cr, w, h);
    cairo_close_path(cr);
    hsv(hue + 0.3 + 0.05 * layer, 0.6, 0.75 - 0.15 * layer, &r, &g, &b);
    cairo_pattern_t *hill = cairo_pattern_create_linear(0, base - h * 0.15, 0, h);
    cairo_pattern_add_color_stop_rgb(hill, 0, r, g, b);
    cairo_pattern_add_color_stop_rgb(hill, 1, r * 0.4, g * 0.4, b * 0.4);
    cairo_set_source(cr, hill);
    cairo_fill(cr);
    cairo_pattern_destroy(hill);
  }

  char label[16];
  snprintf(label, sizeof label, "%03d", n);
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  cairo_set_font_size(cr, h * 0.3);
  cairo_move_to(cr, w * 0.06, h * 0.93);
  cairo_text_path(cr, label);
  cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
  cairo_fill_preserve(cr);
  cairo_set_line_width(cr, h * 0.006);
  cairo_set_source_rgba(cr, 0, 0, 0, 0.6);
  cairo_stroke(cr);
}

/* cairo's premultiplied native-endian ARGB (opaque here) to a pixbuf's RGB bytes, with
   grain. */
static GdkPixbuf *to_pixbuf(cairo_surface_t *s, int n, int w, int h, int grain) {
  GdkPixbuf *pb = gdk_pixbuf_new(GDK_COLORSPACE_RGB, FALSE, 8, w, h);
  const unsigned char *src = cairo_image_surface_get_data(s);
  int src_stride = cairo_image_surface_get_stride(s), dst_stride = gdk_pixbuf_get_rowstride(pb);
  guchar *dst = gdk_pixbuf_get_pixels(pb);
  unsigned seed = 31u * (unsigned)n + 17;
  for (int y = 0; y < h; y++) {
    const uint32_t *in = (const uint32_t *)(src + (size_t)y * src_stride);
    guchar *out = dst + (size_t)y * dst_stride;
    for (int x = 0; x < w; x++) {
      int noise = grain ? (int)((seed = seed * 1664525u + 1013904223u) >> 29) - 4 : 0;
      for (int c = 0; c < 3; c++) {
        int v = (int)((in[x] >> (16 - 8 * c)) & 0xff) + noise;
        out[3 * x + c] = (guchar)(v < 0 ? 0 : v > 255 ? 255 : v);
      }
    }
  }
  return pb;
}

int main(int argc, char **argv) {
  if (argc < 2 || argc == 4 || argc > 5) {
    fprintf(stderr, "usage: %s DIR [COUNT [WIDTH HEIGHT]]\n", argv[0]);
    return 2;
  }
  const char *dir = argv[1];
  int count = argc > 2 ? atoi(argv[2]) : 200;
  int w = argc > 3 ? atoi(argv[3]) : 1600, h = argc > 4 ? atoi(argv[4]) : 1200;
  if (count < 1 || w < 16 || h < 16) {
    fprintf(stderr, "make-images: COUNT must be >= 1 and the size at least 16x16\n");
    return 2;
  }
  cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
  for (int n = 0; n < count; n++) {
    cairo_t *cr = cairo_create(s);
    draw(cr, n, w, h);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    int jpeg = n % 2 == 0;
    /* PNG keeps the drawing smooth (a grainy PNG would be ~5 MB); JPEG gets the grain. */
    GdkPixbuf *pb = to_pixbuf(s, n, w, h, jpeg);
    char path[4096];
    snprintf(path, sizeof path, "%s/photo-%03d.%s", dir, n, jpeg ? "jpg" : "png");
    GError *err = NULL;
    gboolean ok = jpeg ? gdk_pixbuf_save(pb, path, "jpeg", &err, "quality", "88", NULL)
                       : gdk_pixbuf_save(pb, path, "png", &err, "compression", "3", NULL);
    g_object_unref(pb);
    if (!ok) {
      fprintf(stderr, "make-images: %s: %s\n", path, err->message);
      g_error_free(err);
      cairo_surface_destroy(s);
      return 1;
    }
  }
  cairo_surface_destroy(s);
  printf("make-images: %d photos of %dx%d (JPEG and PNG) in %s\n", count, w, h, dir);
  return 0;
}
