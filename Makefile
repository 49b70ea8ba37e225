# librxc — build, check, test and ship.  `make help` lists the targets (from the
# `## make TARGET  what it does` lines above their rules, here and in mk/*.mk).
#
# Verbose output: make V=1.  The shipped library links the Swift runtime statically
# (RXC_STATIC_STDLIB=1, see Package.swift) and is built in its own scratch path.

SHELL := /bin/bash
.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
.SUFFIXES:
MAKEFLAGS += --no-builtin-rules

# ---- tools and places ------------------------------------------------------------------
SWIFT    ?= swift
CLANG    ?= clang
CLANGXX  ?= clang++
GCC      ?= gcc
GXX      ?= g++
VALGRIND ?= valgrind
PKG_CONFIG ?= pkg-config
# CC (make's default: cc) builds the C harness and the examples.

PREFIX       ?= /usr/local
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
DESTDIR      ?=

STATIC_SCRATCH ?= .build-static
# DWARF 4 for the C target (clang defaults to 5, which valgrind 3.19 cannot read).
SWIFT_BUILD_FLAGS ?= -Xcc -gdwarf-4
TSAN_SCRATCH   ?= .build-tsan
ASAN_SCRATCH   ?= .build-asan

VERSION := $(shell sed -n 's/^\#define RX_VERSION_STRING "\(.*\)"/\1/p' include/rxc.h)
ifeq ($(VERSION),)
$(error cannot read RX_VERSION_STRING from include/rxc.h)
endif
MAJOR := $(firstword $(subst ., ,$(VERSION)))

ifeq ($(V),1)
Q :=
SWIFT_LOG :=
else
Q := @
SWIFT_LOG = >$(1) 2>&1
endif

ENSURE := bash scripts/ensure-deps.sh
# package:probe (a command, or a file that the package installs)
TEST_PKGS := valgrind:valgrind gcc:gcc g++:g++ pkg-config:pkg-config

# ---- the library -----------------------------------------------------------------------
LIB_REAL   := build/lib/librxc.so.$(VERSION)
LIB_SONAME := build/lib/librxc.so.$(MAJOR)
LIB_LINK   := build/lib/librxc.so
HEADER_OUT := build/include/rxc.h
GEN_HEADER := build/gen/rxc-swift.h
LOGS       := build/logs

.PHONY: all lib header FORCE
## make  release build: build/lib/librxc.so.X.Y.Z (+ .so.X, .so) and build/include/rxc.h
all: lib header
lib: $(LIB_REAL)
header: $(HEADER_OUT)

# `swift build` decides what is stale, so this always asks it (a no-op build takes ~1 s);
# the copy happens only when the library changed. NO_SWIFT_BUILD=1 skips the swift step
# (make test's later steps use it after the first one built).
$(LIB_REAL): FORCE
	@mkdir -p build/lib $(LOGS)
ifneq ($(NO_SWIFT_BUILD),1)
	@echo "  SWIFT   librxc (release, static Swift runtime, $(STATIC_SCRATCH))"
	$(Q)RXC_STATIC_STDLIB=1 $(SWIFT) build -c release --product rxc \
	    --scratch-path $(STATIC_SCRATCH) $(SWIFT_BUILD_FLAGS) $(call SWIFT_LOG,$(LOGS)/swift-build.log) || { \
	  grep -E -A3 'error:|While running pass' $(LOGS)/swift-build.log | cut -c1-240 | head -n 80 || tail -n 40 $(LOGS)/swift-build.log; \
	  echo "make: swift build failed (full log: $(LOGS)/swift-build.log)"; exit 1; }
endif
	$(Q)src=$(STATIC_SCRATCH)/release/librxc.so; \
	  test -f $$src || { echo "make: $$src is missing (run make without NO_SWIFT_BUILD)"; exit 1; }; \
	  if ! cmp -s $$src $@; then cp $$src $@.tmp && mv -f $@.tmp $@ && echo "  LIB     $@"; fi
	$(Q)ln -sfn librxc.so.$(VERSION) $(LIB_SONAME)
	$(Q)ln -sfn librxc.so.$(MAJOR) $(LIB_LINK)

$(HEADER_OUT): include/rxc.h
	@mkdir -p $(@D)
	$(Q)cp $< $@

# ---- ABI checks ------------------------------------------------------------------------
ABI_DIR := build/abi
C99_FLAGS   := -std=c99 -pedantic -Wall -Wextra -Werror
CXX11_FLAGS := -x c++ -std=c++11 -Wall -Wextra -Werror
DRIFT_INC   := -ISources/CRxc/include -Iinclude -Ibuild/gen -I$(ABI_DIR)

.PHONY: check-abi
## make check-abi  swiftc's header of the exports against rxc.h; rxc.h alone as C99 -pedantic and C++11;
##   exported symbols, soname, nodelete; what follows from the header is current
check-abi: all build/sweep/api.txt
	@mkdir -p $(ABI_DIR)
	@echo "  ABI     $(GEN_HEADER) (swiftc's header of the @c exports) against include/rxc.h"
	$(Q)test -f $(GEN_HEADER) || { echo "check-abi: $(GEN_HEADER) is missing"; exit 1; }
	$(Q)$(CLANG) -std=c11 -fsyntax-only -Wall -Wextra -Werror $(DRIFT_INC) Tests/abi/drift.c
	$(Q)sed -E 's/ SWIFT_NOEXCEPT([ ;])/\1/' $(GEN_HEADER) >$(ABI_DIR)/rxc-swift-cxx.h
	$(Q)$(CLANGXX) -x c++ -std=c++17 -fsyntax-only -Wall -Wextra -Werror -DRXC_DRIFT_CXX \
	    $(DRIFT_INC) Tests/abi/drift.c
	@echo "  ABI     include/rxc.h alone: C99 pedantic (gcc, clang), C++11 (g++, clang++)"
	$(Q)$(GCC)     $(C99_FLAGS)   -fsyntax-only -Iinclude Tests/abi/header_alone.c
	$(Q)$(CLANG)   $(C99_FLAGS)   -fsyntax-only -Iinclude Tests/abi/header_alone.c
	$(Q)$(GXX)     $(CXX11_FLAGS) -fsyntax-only -Iinclude Tests/abi/header_alone.c
	$(Q)$(CLANGXX) $(CXX11_FLAGS) -fsyntax-only -Iinclude Tests/abi/header_alone.c
	@echo "  ABI     exports and dependencies of $(LIB_LINK)"
	$(Q)soname=$$(readelf -d $(LIB_REAL) | sed -n 's/.*Library soname: \[\(.*\)\].*/\1/p'); \
	  test "$$soname" = librxc.so.$(MAJOR) || { echo "check-abi: soname is '$$soname', not librxc.so.$(MAJOR)"; exit 1; }
	$(Q)readelf -d $(LIB_REAL) | grep -q 'FLAGS_1.*NODELETE' || { echo "check-abi: $(LIB_REAL) is not linked -z nodelete (an FFI's dlclose would unmap code the library's threads still run)"; exit 1; }
	$(Q)CLANG=$(CLANG) bash scripts/check-exports.sh include/rxc.h $(LIB_LINK) $(GEN_HEADER)
	$(Q)python3 scripts/check-lists.py include/rxc.h build/sweep/api.txt
	$(Q)python3 scripts/gen-from-header.py operators docs/OPERATORS.md --check
	$(Q)python3 scripts/make-targets.py readme README.md --check

# ---- the C test harness ----------------------------------------------------------------
TEST_DIR   := build/tests
RXTESTS    := $(TEST_DIR)/rxtests
TEST_SRCS  := $(sort $(wildcard Tests/c/test_*.c))
TEST_OBJS  := $(patsubst Tests/c/%.c,$(TEST_DIR)/obj/%.o,$(TEST_SRCS) Tests/c/runner.c)
TEST_CFLAGS ?= -std=gnu11 -g -O1 -pthread -Wall -Wextra -Wno-unused-parameter \
  -Wno-unused-function -Wno-missing-field-initializers \
  -Werror=implicit-function-declaration -Werror=incompatible-pointer-types \
  -Werror=int-conversion -Werror=return-type
TEST_CPPFLAGS := -Iinclude -ITests/c -I$(TEST_DIR)
RPATH_FLAGS := -Wl,-rpath,'$$ORIGIN/../lib'

RXTEST_TIMEOUT   ?= 30
VALGRIND_TIMEOUT ?= 600
# Tests run 2 at a time under valgrind (it runs each process's threads one at a time).
VALGRIND_JOBS    ?= 2
VALGRIND_EXITCODE := 99
VALGRIND_FLAGS ?= -q --tool=memcheck --leak-check=full --show-leak-kinds=definite \
  --errors-for-leak-kinds=definite --error-exitcode=$(VALGRIND_EXITCODE) \
  --trace-children=yes --child-silent-after-fork=no --fair-sched=try --num-callers=40 \
  $(if $(wildcard Tests/c/valgrind.supp),--suppressions=Tests/c/valgrind.supp)
RXTEST_ARGS ?=

# The test list: one RX_TEST_ENTRY(name, "file") per line starting with RX_TEST( in
# Tests/c/test_*.c. Rewritten only when it changes.
$(TEST_DIR)/test_list.h: $(TEST_SRCS) FORCE
	@mkdir -p $(@D)
	$(Q)awk 'FNR == 1 { f = FILENAME; sub(/.*\//, "", f) } \
	     /^RX_TEST\([ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*\)/ { \
	       s = $$0; sub(/^RX_TEST\([ \t]*/, "", s); sub(/[ \t]*\).*/, "", s); \
	       printf "RX_TEST_ENTRY(%s, \"%s\")\n", s, f }' $(TEST_SRCS) /dev/null >$@.tmp
	$(Q)if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi

$(TEST_DIR)/obj/%.o: Tests/c/%.c $(TEST_DIR)/test_list.h
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(TEST_CPPFLAGS) $(TEST_CFLAGS) -MMD -MP -c $< -o $@

# Linked against the library as any program is: a function the tests call and librxc.so
# does not export is a link error (-Wl,--no-undefined on the executable is the default).
$(RXTESTS): $(TEST_OBJS) $(LIB_REAL)
	@echo "  LINK    $@"
	$(Q)$(CC) $(TEST_CFLAGS) $(TEST_OBJS) -o $@ -Lbuild/lib -lrxc $(RPATH_FLAGS) -lm

-include $(wildcard $(TEST_DIR)/obj/*.d)

.PHONY: rxtests ctest ctest-valgrind
rxtests: $(RXTESTS)

# The harness, each test in its own process. Output also goes to build/logs/.
DISPOSE_RACE_TESTS := dispose_race_subject_subscription_from_another_thread \
  dispose_race_own_deliverer_disposes_while_another_thread_starts_emitting \
  dispose_race_operator_chain_from_another_thread dispose_race_inside_own_callback_while_another_thread_emits \
  drain_fairness_subscribe_and_dispose_return_while_another_thread_emits_nonstop \
  drain_bias_revoked_while_the_owner_is_inside_a_callback drain_bias_revocation_races_the_owners_stream \
  lending_subject_released_elsewhere_before_its_tokens lending_tokens_disposed_on_another_thread \
  lending_subject_released_while_its_owner_churns lending_owner_and_other_thread_tokens_mixed \
  observe_on_streaming_bursts_then_silence_lose_nothing
## make ctest  the C harness, each test in its own process (RXTEST_ARGS='name glob*' picks tests)
ctest: $(RXTESTS)
	@mkdir -p $(LOGS)
	$(Q)set -o pipefail; RXTEST_TIMEOUT=$(RXTEST_TIMEOUT) $(RXTESTS) $(RXTEST_ARGS) 2>&1 | tee $(LOGS)/ctest.log
	@echo "  TEST    the dispose-race, drain-bias and lending tests again, with the mprotect fallback of the process barrier"
	$(Q)set -o pipefail; RXC_PROCESS_BARRIER=mprotect RXTEST_TIMEOUT=$(RXTEST_TIMEOUT) $(RXTESTS) \
	  $(DISPOSE_RACE_TESTS) 2>&1 | tee $(LOGS)/ctest-mprotect.log | grep -E '^FAIL|passed, [0-9]+ failed'

# The harness under valgrind memcheck: any error or definite leak in a test process makes
# that process exit with $(VALGRIND_EXITCODE), so the test fails; one in the runner fails
# the run. (Test processes are forked, not exec'd: valgrind follows them.)
## make ctest-valgrind  the C harness under valgrind memcheck: no error, no definite leak
ctest-valgrind: $(RXTESTS)
	@$(ENSURE) valgrind:valgrind
	@mkdir -p $(LOGS)
	$(Q)set -o pipefail; RXTEST_VALGRIND=1 RXTEST_VALGRIND_EXITCODE=$(VALGRIND_EXITCODE) \
	  RXTEST_TIMEOUT=$(VALGRIND_TIMEOUT) RXTEST_JOBS=$(VALGRIND_JOBS) $(VALGRIND) $(VALGRIND_FLAGS) \
	  $(RXTESTS) $(RXTEST_ARGS) 2>&1 | tee $(LOGS)/ctest-valgrind.log

# ---- XCTest ----------------------------------------------------------------------------
.PHONY: xctest
## make xctest  swift test (the XCTest suite of the Swift core)
xctest:
	@mkdir -p $(LOGS)
	@echo "  SWIFT   swift test (debug, .build)"
	$(Q)set -o pipefail; if [ "$(V)" = 1 ]; then $(SWIFT) test 2>&1 | tee $(LOGS)/xctest.log; \
	  else $(SWIFT) test >$(LOGS)/xctest.log 2>&1; fi; rc=$$?; \
	  grep -E "error:|: failed|[Ff]atal error" $(LOGS)/xctest.log | head -n 60; \
	  grep -E "Executed [0-9]+ tests?, with" $(LOGS)/xctest.log | tail -n 1; \
	  if [ $$rc -ne 0 ]; then tail -n 20 $(LOGS)/xctest.log; echo "xctest: swift test failed (log: $(LOGS)/xctest.log)"; fi; \
	  exit $$rc

# ---- make test ---------------------------------------------------------------------------
.PHONY: test
## make test  the correctness checks: check-abi, xctest, ctest, ctest-valgrind, check-ffi, docs,
##   install-check, the Python package, C++ and GUI tests; ends with the line N passed, N failed
test:
	@$(ENSURE) $(TEST_PKGS)
	@MAKE="$(MAKE)" bash scripts/make-test.sh

# ---- install -----------------------------------------------------------------------------
# rxc.h, the header-only C++ API (mk/cpp.mk) and event-loop adapters (mk/loops.mk).
PUBLIC_HEADERS := include/rxc.h include/rxc.hpp include/rxc-uv.h include/rxc-glib.h
.PHONY: install uninstall install-check
## make install  PREFIX=/usr/local DESTDIR=  (library, headers, rxc.pc; runs ldconfig for a system prefix)
install: all
	$(Q)install -d "$(DESTDIR)$(LIBDIR)" "$(DESTDIR)$(INCLUDEDIR)" "$(DESTDIR)$(PKGCONFIGDIR)"
	$(Q)install -m 0755 $(LIB_REAL) "$(DESTDIR)$(LIBDIR)/librxc.so.$(VERSION)"
	$(Q)ln -sfn librxc.so.$(VERSION) "$(DESTDIR)$(LIBDIR)/librxc.so.$(MAJOR)"
	$(Q)ln -sfn librxc.so.$(MAJOR) "$(DESTDIR)$(LIBDIR)/librxc.so"
	$(Q)install -m 0644 $(PUBLIC_HEADERS) "$(DESTDIR)$(INCLUDEDIR)/"
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
	    rxc.pc.in >"$(DESTDIR)$(PKGCONFIGDIR)/rxc.pc"
	@echo "  INSTALL $(DESTDIR)$(LIBDIR)/librxc.so.$(VERSION), $(addprefix $(DESTDIR)$(INCLUDEDIR)/,$(notdir $(PUBLIC_HEADERS))), $(DESTDIR)$(PKGCONFIGDIR)/rxc.pc"
	$(Q)$(call INSTALL_LDCONFIG)

## make uninstall  removes what make install put there (same PREFIX and DESTDIR)
uninstall:
	$(Q)rm -f "$(DESTDIR)$(LIBDIR)/librxc.so.$(VERSION)" "$(DESTDIR)$(LIBDIR)/librxc.so.$(MAJOR)" \
	    "$(DESTDIR)$(LIBDIR)/librxc.so" $(patsubst include/%,"$(DESTDIR)$(INCLUDEDIR)/%",$(PUBLIC_HEADERS)) \
	    "$(DESTDIR)$(PKGCONFIGDIR)/rxc.pc"
	$(Q)$(call INSTALL_LDCONFIG)

# A real install (no DESTDIR) by root refreshes the dynamic linker's cache, or programs
# linked with -lrxc fail to find librxc.so.$(MAJOR) until someone runs ldconfig; a LIBDIR the
# linker does not search gets a hint instead.
define INSTALL_LDCONFIG
if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null 2>&1; then \
  ldconfig; \
  if ! ldconfig -p | grep -q "librxc.so.$(MAJOR) .*=> $(LIBDIR)/"; then \
    test ! -e "$(LIBDIR)/librxc.so.$(MAJOR)" || \
      echo "  NOTE    $(LIBDIR) is not searched by the dynamic linker: link with -Wl,-rpath,$(LIBDIR) or set LD_LIBRARY_PATH"; \
  fi; \
elif [ -z "$(DESTDIR)" ]; then \
  echo "  NOTE    run ldconfig as root if $(LIBDIR) is a system library directory"; \
fi
endef

# Installs into a DESTDIR and into a private PREFIX, and builds and runs hello.c from each
# with nothing but `cc hello.c $(pkg-config --cflags --libs rxc)`.
INSTALL_CHECK := build/install-check
## make install-check  installs into build/install-check and builds and runs hello.c with pkg-config's flags
install-check: all
	@$(ENSURE) pkg-config:pkg-config
	$(Q)rm -rf $(INSTALL_CHECK) && mkdir -p $(INSTALL_CHECK)
	$(Q)$(MAKE) --no-print-directory NO_SWIFT_BUILD=1 install \
	    DESTDIR=$(CURDIR)/$(INSTALL_CHECK)/destdir PREFIX=/usr/local >/dev/null
	$(Q)D=$(CURDIR)/$(INSTALL_CHECK)/destdir; \
	  flags=$$(PKG_CONFIG_PATH=$$D/usr/local/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$$D \
	           $(PKG_CONFIG) --cflags --libs rxc) || exit 1; \
	  echo "  CHECK   DESTDIR install: cc hello.c $$flags"; \
	  $(CC) examples-c/hello.c $$flags -o $(INSTALL_CHECK)/hello-destdir && \
	  LD_LIBRARY_PATH=$$D/usr/local/lib $(INSTALL_CHECK)/hello-destdir >$(INSTALL_CHECK)/hello-destdir.out
	$(Q)P=$(CURDIR)/$(INSTALL_CHECK)/prefix; \
	  $(MAKE) --no-print-directory NO_SWIFT_BUILD=1 install PREFIX=$$P DESTDIR= >/dev/null && \
	  flags=$$(PKG_CONFIG_PATH=$$P/lib/pkgconfig $(PKG_CONFIG) --cflags --libs rxc) || exit 1; \
	  echo "  CHECK   PREFIX install: cc hello.c $$flags"; \
	  $(CC) examples-c/hello.c $$flags -o $(INSTALL_CHECK)/hello-prefix && \
	  LD_LIBRARY_PATH=$$P/lib $(INSTALL_CHECK)/hello-prefix >$(INSTALL_CHECK)/hello-prefix.out
	$(Q)readelf -d $(INSTALL_CHECK)/hello-prefix | grep -q 'NEEDED.*\[librxc\.so\.$(MAJOR)\]' || \
	  { echo "install-check: hello does not link librxc.so.$(MAJOR) by soname"; exit 1; }
	@echo "  CHECK   install ok"

# ---- examples ----------------------------------------------------------------------------
EXAMPLE_SRCS  := $(sort $(wildcard examples-c/*.c))
EXAMPLE_NAMES := $(notdir $(basename $(EXAMPLE_SRCS)))
EXAMPLES      := $(addprefix build/examples/,$(EXAMPLE_NAMES))
DEMO_ORDER    := $(filter hello,$(EXAMPLE_NAMES)) $(filter subjects,$(EXAMPLE_NAMES)) \
                 $(filter-out hello subjects,$(EXAMPLE_NAMES))
EXAMPLE_CFLAGS ?= -std=gnu11 -O2 -g -pthread -Wall -Wextra -Wno-unused-parameter \
  -Werror=implicit-function-declaration -Werror=incompatible-pointer-types
DEMO_TIMEOUT ?= 120
# Flags and libraries one example needs beyond librxc (EXAMPLE_CFLAGS_<name>,
# EXAMPLE_LDLIBS_<name>), and the packages that provide them (package:probe, installed by
# `make examples`).
EXAMPLE_LDLIBS_libuv := -luv
EXAMPLE_PKGS := libuv1-dev:/usr/include/uv.h

.PHONY: examples demo
## make examples  builds examples-c/*.c into build/examples
examples: | ensure-cc
	$(Q)$(MAKE) --no-print-directory $(EXAMPLES)

.PHONY: ensure-cc
ensure-cc:
	@$(ENSURE) gcc:$(firstword $(CC)) $(EXAMPLE_PKGS)

build/examples/%: examples-c/%.c $(LIB_REAL) $(HEADER_OUT)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(EXAMPLE_CFLAGS) $(EXAMPLE_CFLAGS_$*) -Ibuild/include $< -o $@ -Lbuild/lib -lrxc $(RPATH_FLAGS) $(EXAMPLE_LDLIBS_$*) -lm

## make demo  builds and runs every example
demo: examples
	$(Q)for e in $(DEMO_ORDER); do \
	  echo "==== $$e"; \
	  timeout $(DEMO_TIMEOUT) build/examples/$$e || { echo "demo: $$e failed (exit status $$?)"; exit 1; }; \
	done; echo "demo: ran $(words $(DEMO_ORDER)) example(s): $(strip $(DEMO_ORDER))"

# ---- sanitizers: mk/sanitize.mk (every sanitizer setting and target) -----------------------

# ---- housekeeping ------------------------------------------------------------------------
.PHONY: clean distclean help readme-tables
## make clean  removes build/ and make's scratch paths
clean:
	rm -rf build $(STATIC_SCRATCH) $(TSAN_SCRATCH) $(ASAN_SCRATCH)

# Also the default SwiftPM scratch path (.build), shared with plain `swift build`.
## make distclean  clean, and the default SwiftPM scratch path .build too
distclean: clean
	rm -rf .build

## make help  this list
help:
	@python3 scripts/make-targets.py help

## make readme-tables  rewrites README.md's target table from the ## make lines
readme-tables:
	$(Q)python3 scripts/make-targets.py readme README.md

# Fragments of other areas (reliability, benchmarks): mk/*.mk.
-include $(sort $(wildcard mk/*.mk))
