# Every sanitizer setting and target (`make sanitize`): for each of thread and address,
# XCTest under the sanitizer; the C harness built with the toolchain's clang -fsanitize=...
# against a sanitizer build of librxc (Swift runtime shared: no RXC_STATIC_STDLIB), each in
# its own scratch path; the stress test against the same builds; and the bad-input sweep
# against the ASan build; the C++ suite under ASan and UBSan against it (sanitize-cpp,
# mk/cpp.mk). (The fuzzer's ASan build is its own: mk/fuzz.mk.)
#   make sanitize-thread / sanitize-address, or one part: sanitize-xctest-% / sanitize-ctest-% /
#   sanitize-stress-% / sanitize-sweep-address
#
# C tests run as in `make ctest`; a sanitizer report makes the test process exit with 66
# (TSan halts on the first report; LeakSanitizer runs at the end of each test).
# The core's locks are pthread mutexes, which TSan intercepts (Sources/RxCore/Core/Mutex.swift).
SAN_CFLAGS  ?= -std=gnu11 -g -O1 -fno-omit-frame-pointer -pthread -Wall -Wextra -Wno-unused-parameter
SAN_LDFLAGS ?= -fuse-ld=lld
SAN_TIMEOUT ?= 120
SAN_EXITCODE := 66
SAN_ENV_address := ASAN_OPTIONS=exitcode=$(SAN_EXITCODE):detect_leaks=1:abort_on_error=0:$(ASAN_OPTIONS)
SAN_ENV_thread  := TSAN_OPTIONS=exitcode=$(SAN_EXITCODE):halt_on_error=1:$(TSAN_OPTIONS)
# The toolchain's TSan runtime intercepts libdispatch, so the harness links it too.
SWIFT_LIBDIR := $(abspath $(dir $(shell command -v $(SWIFT) 2>/dev/null))../lib/swift/linux)
SAN_LIBS_thread  := -L$(SWIFT_LIBDIR) -ldispatch -lBlocksRuntime -Wl,-rpath,$(SWIFT_LIBDIR)
SAN_LIBS_address :=
# XCTest itself leaks on Linux (a weak reference in awaitUsingExpectation), so LeakSanitizer
# is off for swift test; leaks are the C harness's job (live objects, LSan, valgrind).
XCTEST_SAN_ENV_address := ASAN_OPTIONS=detect_leaks=0:$(ASAN_OPTIONS)
XCTEST_SAN_ENV_thread  :=
SAN_SCRATCH_address := $(ASAN_SCRATCH)
SAN_SCRATCH_thread  := $(TSAN_SCRATCH)
# RXC_TSAN: what TSan cannot follow is left out (spare-handle reuse, mayReuseUniqueObject in Sources/RxCore/Core/ThreadSpare.swift).
# One build per sanitizer serves the library and XCTest (sanitize-lib-% builds the tests too,
# swift test then skips the build); XCTest's @testable import needs -enable-testing in release.
SAN_SWIFT_FLAGS_thread  := -Xswiftc -DRXC_TSAN -Xswiftc -enable-testing
SAN_SWIFT_FLAGS_address :=
# TSan runs on a release build, XCTest and the C programs alike: in a debug build the core
# runs unspecialized, and under TSan the runtime's generic-metadata cache (swift_once)
# livelocks the most concurrent tests. ASan stays on the debug build (more checks, no such
# interaction); there too XCTest and the library share one build.
SAN_CONFIG_thread  := release
SAN_CONFIG_address := debug
# The sanitized C harness runs 2 tests at a time (each in its own process), as many as cores.
SAN_JOBS ?= 2

.PHONY: sanitize sanitize-thread sanitize-address sanitize-xctest-thread sanitize-xctest-address \
        sanitize-ctest-thread sanitize-ctest-address
## make sanitize  swift test, the C harness, the stress test and the sweep under TSan and ASan
##   (sanitize-thread, sanitize-address)
sanitize: sanitize-thread sanitize-address
sanitize-thread: sanitize-xctest-thread sanitize-ctest-thread
sanitize-address: sanitize-xctest-address sanitize-ctest-address

sanitize-xctest-thread sanitize-xctest-address: sanitize-xctest-%: sanitize-lib-%
	@mkdir -p $(LOGS)
	@echo "  SWIFT   swift test --sanitize=$* ($(SAN_SCRATCH_$*), $(SAN_CONFIG_$*))"
	$(Q)$(XCTEST_SAN_ENV_$*) $(SWIFT) test --skip-build -c $(SAN_CONFIG_$*) --sanitize=$* --scratch-path $(SAN_SCRATCH_$*) $(SAN_SWIFT_FLAGS_$*) \
	    >$(LOGS)/xctest-$*.log 2>&1; rc=$$?; \
	  grep -E "error:|: failed|WARNING: ThreadSanitizer|ERROR: (Address|Leak)Sanitizer|SUMMARY: " $(LOGS)/xctest-$*.log | uniq -c | head -n 40; \
	  grep -E "Executed [0-9]+ tests?, with" $(LOGS)/xctest-$*.log | tail -n 1; \
	  if [ $$rc -ne 0 ]; then echo "sanitize: swift test --sanitize=$* failed, exit status $$rc (log: $(LOGS)/xctest-$*.log)"; fi; \
	  exit $$rc

sanitize-ctest-thread sanitize-ctest-address: sanitize-ctest-%: $(RXTESTS) sanitize-lib-%
	@mkdir -p $(LOGS) build/sanitize/$*
	@echo "  CC      C harness with -fsanitize=$*"
	$(Q)rm -f build/sanitize/$*/*.o && for f in $(TEST_SRCS) Tests/c/runner.c; do \
	  $(CLANG) $(TEST_CPPFLAGS) $(SAN_CFLAGS) -fsanitize=$* -c $$f -o build/sanitize/$*/$$(basename $$f .c).o || exit 1; \
	done
	$(Q)$(CLANG) -fsanitize=$* $(SAN_LDFLAGS) build/sanitize/$*/*.o -o build/sanitize/$*/rxtests \
	    -L$(SAN_SCRATCH_$*)/$(SAN_CONFIG_$*) -lrxc -Wl,-rpath,$(CURDIR)/$(SAN_SCRATCH_$*)/$(SAN_CONFIG_$*) $(SAN_LIBS_$*) -lm
	$(Q)set -o pipefail; $(SAN_ENV_$*) RXTEST_SANITIZER=$* RXTEST_SANITIZER_EXITCODE=$(SAN_EXITCODE) \
	  RXTEST_TIMEOUT=$(SAN_TIMEOUT) RXTEST_JOBS=$(SAN_JOBS) build/sanitize/$*/rxtests $(RXTEST_ARGS) 2>&1 | tee $(LOGS)/ctest-$*.log

SAN_STRESS_EVENTS ?= 20000
SAN_STRESS_ENV_thread ?= TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:$(TSAN_OPTIONS)
SAN_STRESS_ENV_address ?= ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:$(ASAN_OPTIONS)

sanitize-thread: sanitize-stress-thread
sanitize-address: sanitize-stress-address sanitize-sweep-address sanitize-cpp

.PHONY: sanitize-lib-thread sanitize-lib-address sanitize-stress-thread sanitize-stress-address \
        sanitize-sweep-address
sanitize-lib-thread sanitize-lib-address: sanitize-lib-%:
	@mkdir -p $(LOGS)
	@echo "  SWIFT   librxc and the XCTest suite with --sanitize=$* ($(SAN_SCRATCH_$*), $(SAN_CONFIG_$*))"
	$(Q)$(SWIFT) build -c $(SAN_CONFIG_$*) --build-tests --sanitize=$* --scratch-path $(SAN_SCRATCH_$*) $(SAN_SWIFT_FLAGS_$*) \
	    $(call SWIFT_LOG,$(LOGS)/swift-build-$*.log) || { tail -n 40 $(LOGS)/swift-build-$*.log; exit 1; }

sanitize-stress-thread sanitize-stress-address: sanitize-stress-%: sanitize-lib-%
	@mkdir -p build/sanitize/$*
	$(CLANG) -g -O1 -fsanitize=$* -fuse-ld=lld -Iinclude Tests/reliability/stress.c \
	  -o build/sanitize/$*/stress -L$(SAN_SCRATCH_$*)/$(SAN_CONFIG_$*) -lrxc \
	  -Wl,-rpath,$(abspath $(SAN_SCRATCH_$*))/$(SAN_CONFIG_$*) $(SAN_LIBS_$*) -lpthread
	$(SAN_STRESS_ENV_$*) build/sanitize/$*/stress -e $(SAN_STRESS_EVENTS) -t 900

sanitize-sweep-address: sanitize-lib-address build/sweep/api.txt
	@mkdir -p build/sanitize/address
	$(CLANG) -O1 -g -fsanitize=address -fuse-ld=lld -Iinclude Tests/sweep/sweep.c -o build/sanitize/address/sweep \
	  -lffi -ldl -lpthread
	build/sanitize/address/sweep $(SAN_SCRATCH_address)/$(SAN_CONFIG_address)/librxc.so build/sweep/api.txt
