# ---- seed 004's gallery as a GTK 4 program: examples-c/gtk-gallery/ ------------------------
# make-images.c writes the photos (GTK_PHOTOS of 1600x1200, JPEG and PNG) into build/; the
# gallery decodes them off the main thread and delivers the thumbnails through a Driver and
# rxc-glib.h. gtk-test runs it headless under Xvfb (Tests/gtk/run.sh).
GTK_DIR    := build/gtk-gallery
GTK_IMAGES := $(GTK_DIR)/images
GTK_PHOTOS ?= 200
# package:probe; the test also builds the adapters' test and runs the glib and libuv
# examples; a font draws the photos' numbers and the window's labels.
GTK_PKGS := libgtk-4-dev:/usr/include/gtk-4.0/gtk/gtk.h libglib2.0-dev:/usr/include/glib-2.0/glib.h \
  libuv1-dev:/usr/include/uv.h pkg-config:pkg-config xvfb:xvfb-run xauth:xauth gcc:gcc g++:g++ \
  fonts-dejavu-core:/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
# Expanded when a recipe runs, after gtk-deps installed the packages.
GTK_CFLAGS     = $(shell $(PKG_CONFIG) --cflags gtk4)
GTK_LIBS       = $(shell $(PKG_CONFIG) --libs gtk4)
IMAGES_CFLAGS  = $(shell $(PKG_CONFIG) --cflags gdk-pixbuf-2.0 cairo)
IMAGES_LIBS    = $(shell $(PKG_CONFIG) --libs gdk-pixbuf-2.0 cairo)
ADAPTER_CFLAGS = $(shell $(PKG_CONFIG) --cflags glib-2.0 libuv)
ADAPTER_LIBS   = $(shell $(PKG_CONFIG) --libs glib-2.0 libuv)

.PHONY: gtk-deps gtk-gallery gtk-test
gtk-deps:
	@$(ENSURE) $(GTK_PKGS)

## make gtk-gallery  build the GTK 4 gallery and its photos (build/gtk-gallery/gtk-gallery build/gtk-gallery/images)
gtk-gallery: gtk-deps
	$(Q)$(MAKE) --no-print-directory $(GTK_DIR)/gtk-gallery $(GTK_IMAGES)/.$(GTK_PHOTOS)-photos

$(GTK_DIR)/make-images: examples-c/gtk-gallery/make-images.c
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(EXAMPLE_CFLAGS) $(IMAGES_CFLAGS) $< -o $@ $(IMAGES_LIBS) -lm

$(GTK_DIR)/gtk-gallery: examples-c/gtk-gallery/gallery.c $(LIB_REAL) $(HEADER_OUT) $(ADAPTER_OUT)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(EXAMPLE_CFLAGS) $(GTK_CFLAGS) -Ibuild/include $< -o $@ -Lbuild/lib -lrxc $(RPATH_FLAGS) \
	    $(GTK_LIBS) -lm

$(GTK_DIR)/adapters: Tests/gtk/adapters.c $(LIB_REAL) $(HEADER_OUT) $(ADAPTER_OUT)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(EXAMPLE_CFLAGS) $(ADAPTER_CFLAGS) -Ibuild/include $< -o $@ -Lbuild/lib -lrxc $(RPATH_FLAGS) \
	    $(ADAPTER_LIBS)

$(GTK_IMAGES)/.$(GTK_PHOTOS)-photos: $(GTK_DIR)/make-images
	@echo "  IMAGES  $(GTK_PHOTOS) photos into $(GTK_IMAGES)"
	$(Q)rm -rf $(GTK_IMAGES) && mkdir -p $(GTK_IMAGES)
	$(Q)$< $(GTK_IMAGES) $(GTK_PHOTOS) >/dev/null
	$(Q)touch $@

## make gtk-test  the adapters and the GTK gallery under Xvfb (200 photos, frame gaps, screenshot); N passed, N failed
gtk-test:
	@mkdir -p $(LOGS)
	$(Q)set -o pipefail; { \
	  if ! $(ENSURE) $(GTK_PKGS); then \
	    echo "gtk-test: SKIPPED: the packages it needs could not be installed ($(foreach p,$(GTK_PKGS),$(firstword $(subst :, ,$(p)))))"; \
	    echo "0 passed, 0 failed, 1 skipped"; \
	  else \
	    $(MAKE) --no-print-directory all build/examples/glib build/examples/libuv $(GTK_DIR)/adapters \
	      $(GTK_DIR)/gtk-gallery $(GTK_IMAGES)/.$(GTK_PHOTOS)-photos && \
	    CC="$(CC)" CXX="$(GXX)" PKG_CONFIG="$(PKG_CONFIG)" bash Tests/gtk/run.sh $(GTK_DIR) $(GTK_IMAGES); \
	  fi; } 2>&1 | tee $(LOGS)/gtk-test.log
