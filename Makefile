# librxc — build, check, test and ship.  `make help` lists the targets.
#
#   make                 release build: build/lib/librxc.so.X.Y.Z (+ .so.X, .so), build/include
#   make test            check-abi, swift test, the C harness, the C harness under valgrind,
#                        check-metadata, check-metadata-swift, check-ffi, docs, install-check, the Python package
#                        (mk/python.mk); ends with the line "N passed, N failed"
#   make demo            builds and runs every examples-c/*.c
#   make install         PREFIX=/usr/local DESTDIR= (library, header, pkg-config file)
#   make sanitize        swift test and the C harness under TSan and ASan
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
check-abi: all
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
	$(Q)python3 scripts/check-lists.py include/rxc.h Tests/sweep/api.txt

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
ctest: $(RXTESTS)
	@mkdir -p $(LOGS)
	$(Q)set -o pipefail; RXTEST_TIMEOUT=$(RXTEST_TIMEOUT) $(RXTESTS) $(RXTEST_ARGS) 2>&1 | tee $(LOGS)/ctest.log
	@echo "  TEST    the dispose-race, drain-bias and lending tests again, with the mprotect fallback of the process barrier"
	$(Q)set -o pipefail; RXC_PROCESS_BARRIER=mprotect RXTEST_TIMEOUT=$(RXTEST_TIMEOUT) $(RXTESTS) \
	  $(DISPOSE_RACE_TESTS) 2>&1 | tee $(LOGS)/ctest-mprotect.log | grep -E '^FAIL|passed, [0-9]+ failed'

# The harness under valgrind memcheck: any error or definite leak in a test process makes
# that process exit with $(VALGRIND_EXITCODE), so the test fails; one in the runner fails
# the run. (Test processes are forked, not exec'd: valgrind follows them.)
ctest-valgrind: $(RXTESTS)
	@$(ENSURE) valgrind:valgrind
	@mkdir -p $(LOGS)
	$(Q)set -o pipefail; RXTEST_VALGRIND=1 RXTEST_VALGRIND_EXITCODE=$(VALGRIND_EXITCODE) \
	  RXTEST_TIMEOUT=$(VALGRIND_TIMEOUT) RXTEST_JOBS=$(VALGRIND_JOBS) $(VALGRIND) $(VALGRIND_FLAGS) \
	  $(RXTESTS) $(RXTEST_ARGS) 2>&1 | tee $(LOGS)/ctest-valgrind.log

# ---- XCTest ----------------------------------------------------------------------------
.PHONY: xctest
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
test:
	@$(ENSURE) $(TEST_PKGS)
	@MAKE="$(MAKE)" bash scripts/make-test.sh

# ---- install -----------------------------------------------------------------------------
# rxc.h, and the header-only event-loop adapters (mk/loops.mk).
PUBLIC_HEADERS := include/rxc.h include/rxc-uv.h include/rxc-glib.h
.PHONY: install uninstall install-check
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

uninstall:
	$(Q)rm -f "$(DESTDIR)$(LIBDIR)/librxc.so.$(VERSION)" "$(DESTDIR)$(LIBDIR)/librxc.so.$(MAJOR)" \
	    "$(DESTDIR)$(LIBDIR)/librxc.so" $(patsubst include/%,"$(DESTDIR)$(INCLUDEDIR)/%",$(PUBLIC_HEADERS)) \
	    "$(DESTDIR)$(PKGCONFIGDIR)/rxc.pc"

# Installs into a DESTDIR and into a private PREFIX, and builds and runs hello.c from each
# with nothing but `cc hello.c $(pkg-config --cflags --libs rxc)`.
INSTALL_CHECK := build/install-check
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
examples: | ensure-cc
	$(Q)$(MAKE) --no-print-directory $(EXAMPLES)

.PHONY: ensure-cc
ensure-cc:
	@$(ENSURE) gcc:$(firstword $(CC)) $(EXAMPLE_PKGS)

build/examples/%: examples-c/%.c $(LIB_REAL) $(HEADER_OUT)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(EXAMPLE_CFLAGS) $(EXAMPLE_CFLAGS_$*) -Ibuild/include $< -o $@ -Lbuild/lib -lrxc $(RPATH_FLAGS) $(EXAMPLE_LDLIBS_$*) -lm

demo: examples
	$(Q)for e in $(DEMO_ORDER); do \
	  echo "==== $$e"; \
	  timeout $(DEMO_TIMEOUT) build/examples/$$e || { echo "demo: $$e failed (exit status $$?)"; exit 1; }; \
	done; echo "demo: ran $(words $(DEMO_ORDER)) example(s): $(strip $(DEMO_ORDER))"

# ---- sanitizers: mk/sanitize.mk (every sanitizer setting and target) -----------------------

# ---- housekeeping ------------------------------------------------------------------------
.PHONY: clean distclean help
clean:
	rm -rf build $(STATIC_SCRATCH) $(TSAN_SCRATCH) $(ASAN_SCRATCH)

# Also the default SwiftPM scratch path (.build), shared with plain `swift build`.
distclean: clean
	rm -rf .build

help:
	@echo "make                build build/lib/librxc.so (release, static Swift runtime) and build/include"
	@echo "make test           check-abi, xctest, ctest, ctest-valgrind, check-metadata, check-metadata-swift, check-ffi, docs,"
	@echo "                    install-check, python-test; ends with N passed, N failed"
	@echo "make check-abi      header vs. Swift exports, C99/C++ header checks, exported symbols, ldd, nodelete"
	@echo "make xctest         swift test"
	@echo "make ctest          C harness only (RXTEST_ARGS='name...' to pick tests)"
	@echo "make ctest-valgrind C harness under valgrind memcheck"
	@echo "make check-metadata the generic-metadata guard: Swift runtime type lookups per event, per operator (callgrind)"
	@echo "make check-metadata-swift  the same guard on the catalog's RxCore bodies (Swift callers of Observable<Value>)"
	@echo "make check-ffi      the header through cffi's ABI mode and LuaJIT's FFI: every function called, every callback back"
	@echo "make docs           the HTML API reference from rxc.h, a marble diagram per operator (build/docs/index.html)"
	@echo "make python-test    the Python package: cdef drift check and pytest (python-cdef, python-cdef-check, python-bench)"
	@echo "make install-check  install into build/install-check and build hello.c with pkg-config"
	@echo "make examples       build examples-c/*.c into build/examples"
	@echo "make demo           build and run every example"
	@echo "make install        PREFIX=$(PREFIX) DESTDIR=  (library, rxc.h, rxc.pc); make uninstall"
	@echo "make sanitize       swift test, the C harness, the stress test and the sweep under TSan and ASan"
	@echo "                    (sanitize-thread, sanitize-address; one part: sanitize-xctest-, sanitize-ctest-,"
	@echo "                    sanitize-stress- + thread|address, sanitize-sweep-address)"
	@echo "make sweep          every exported function with bad arguments, through libffi (sweep-api regenerates its list, sweep-check-api compares it with the exports)"
	@echo "make fuzz           libFuzzer over the whole API (FUZZ_SECONDS; fuzz-ci: the bounded CI run)"
	@echo "make stress         many threads, subjects, operators and schedulers at once (also under the sanitizers)"
	@echo "make soak           a long run with live objects back to zero at the end (MINUTES)"
	@echo "make reliability    sweep, fuzz-ci, stress and soak (reliability-ci: what CI runs)"
	@echo "make bench          the benchmarks: the nine budgets and the operator catalog (RXSWIFT_PATH adds RxSwift)"
	@echo "make clean          remove build/ and make's scratch paths (distclean: also .build)"

# Fragments of other areas (reliability, benchmarks): mk/*.mk.
-include $(sort $(wildcard mk/*.mk))
