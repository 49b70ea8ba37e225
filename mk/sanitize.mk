# Sanitizers: the XCTest suite and the C programs against a sanitizer build of the library.
#   make sanitize            = sanitize-thread + sanitize-address
#   make sanitize-thread     XCTest under TSan, then the C harness and a short stress run
#                            against the TSan library
#   make sanitize-address    the same under ASan (+ the bad-input sweep)
# Each sanitizer builds in its own scratch path (.build-tsan, .build-asan); `swift test`
# builds librxc.so there too, and the C programs link that instrumented library, with the
# sanitizer runtime in the executable.
RELIABILITY_CC ?= clang
SAN_STRESS_EVENTS ?= 20000
SAN_C_TESTS ?= $(wildcard Tests/c/test_*.c)
SAN_C_RUNNER ?= $(wildcard Tests/c/rxtest_main.c Tests/c/runner.c)
SAN_SWIFT_thread = thread
SAN_SWIFT_address = address
SAN_SCRATCH_thread = .build-tsan
SAN_SCRATCH_address = .build-asan
# TSan cannot see Synchronization.Mutex's kernel hand-off: RXC_TSAN swaps in a pthread
# lock (Sources/RxCore/Core/TSanMutex.swift) so only real races are reported.
SAN_FLAGS_thread = -Xswiftc -DRXC_TSAN
SAN_FLAGS_address =
export TSAN_OPTIONS ?= halt_on_error=1 second_deadlock_stack=1
export ASAN_OPTIONS ?= halt_on_error=1
export LSAN_OPTIONS ?= suppressions=$(abspath Tests/reliability/lsan.supp)

.PHONY: sanitize sanitize-thread sanitize-address
sanitize: sanitize-thread sanitize-address

sanitize-%: sanitize-xctest-% sanitize-c-% sanitize-stress-%
	@echo "sanitize-$*: clean"

sanitize-xctest-%:
	swift test --sanitize=$(SAN_SWIFT_$*) --scratch-path $(SAN_SCRATCH_$*) $(SAN_FLAGS_$*)

# The library alone (XCTest already built it; this keeps the target usable on its own).
sanitize-lib-%:
	swift build --product rxc --sanitize=$(SAN_SWIFT_$*) --scratch-path $(SAN_SCRATCH_$*) $(SAN_FLAGS_$*)

SAN_LINK = -fsanitize=$* -Iinclude -L$(SAN_SCRATCH_$*)/debug -lrxc \
  -Wl,-rpath,$(abspath $(SAN_SCRATCH_$*))/debug -ldl -lpthread

sanitize-c-%: sanitize-lib-%
	@mkdir -p build/san-$*
	@set -e; for t in $(SAN_C_TESTS); do \
	  n=$$(basename $$t .c); \
	  $(RELIABILITY_CC) -g -O1 -ITests/c $$t $(SAN_C_RUNNER) -o build/san-$*/$$n $(SAN_LINK); \
	  echo "== $$n ($*)"; build/san-$*/$$n; \
	done

sanitize-stress-%: sanitize-lib-%
	@mkdir -p build/san-$*
	$(RELIABILITY_CC) -g -O1 Tests/reliability/stress.c -o build/san-$*/stress $(SAN_LINK)
	build/san-$*/stress -e $(SAN_STRESS_EVENTS) -t 900

sanitize-sweep-address: sanitize-lib-address build/sweep/sweep.asan
	build/sweep/sweep.asan $(SAN_SCRATCH_address)/debug/librxc.so Tests/sweep/api.txt

build/sweep/sweep.asan: Tests/sweep/sweep.c include/rxc.h
	@mkdir -p $(@D)
	$(RELIABILITY_CC) -O1 -g -fsanitize=address -Iinclude $< -o $@ -lffi -ldl -lpthread

sanitize-address: sanitize-sweep-address
