# ---- event-loop adapters: include/rxc-uv.h (libuv), include/rxc-glib.h (GLib) ----------
# Header-only; installed with rxc.h (PUBLIC_HEADERS). Their examples, examples-c/libuv.c and
# examples-c/glib.c, run in `make demo`.
ADAPTER_HEADERS := include/rxc-uv.h include/rxc-glib.h
ADAPTER_OUT     := $(patsubst include/%,build/include/%,$(ADAPTER_HEADERS))

header: $(ADAPTER_OUT)
$(ADAPTER_OUT): build/include/%: include/%
	@mkdir -p $(@D)
	$(Q)cp $< $@
build/examples/libuv build/examples/glib: $(ADAPTER_OUT)

# Expanded when the example is built, after `make examples` installed the package.
EXAMPLE_PKGS += libglib2.0-dev:/usr/include/glib-2.0/glib.h pkg-config:pkg-config
EXAMPLE_CFLAGS_glib = $(shell $(PKG_CONFIG) --cflags glib-2.0)
EXAMPLE_LDLIBS_glib = $(shell $(PKG_CONFIG) --libs glib-2.0)
