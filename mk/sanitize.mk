# Additions to the main Makefile's `make sanitize`: the stress test against the
# TSan and ASan builds of the library, and the bad-input sweep against the ASan build.
#   make sanitize-stress-thread / sanitize-stress-address / sanitize-sweep-address
# The main Makefile's sanitize-thread / sanitize-address run these too (prerequisites below).
#
# The core's locks are pthread mutexes, which TSan intercepts (Sources/RxCore/Core/Mutex.swift);
# -DRXC_TSAN leaves out what TSan cannot follow: every `swift test/build --sanitize=thread`
# passes SAN_SWIFT_FLAGS_thread (set in the Makefile).
SAN_SCRATCH_thread ?= .build-tsan
SAN_SCRATCH_address ?= .build-asan
SWIFT ?= swift
CLANG ?= clang
SAN_STRESS_EVENTS ?= 20000
# The TSan runtime intercepts libdispatch, so TSan programs link the toolchain's copy.
SWIFT_LIBDIR ?= $(abspath $(dir $(shell command -v $(SWIFT) 2>/dev/null))../lib/swift/linux)
SAN_LIBS_thread ?= -L$(SWIFT_LIBDIR) -ldispatch -lBlocksRuntime -Wl,-rpath,$(SWIFT_LIBDIR)
SAN_STRESS_ENV_thread ?= TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:$(TSAN_OPTIONS)
SAN_STRESS_ENV_address ?= ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:$(ASAN_OPTIONS)

sanitize-thread: sanitize-stress-thread
sanitize-address: sanitize-stress-address sanitize-sweep-address

.PHONY: sanitize-lib-thread sanitize-lib-address sanitize-stress-thread sanitize-stress-address \
        sanitize-sweep-address
sanitize-lib-thread sanitize-lib-address: sanitize-lib-%:
	$(SWIFT) build -c $(SAN_CONFIG_$*) --product rxc --sanitize=$* --scratch-path $(SAN_SCRATCH_$*) $(SAN_SWIFT_FLAGS_$*)

sanitize-stress-thread sanitize-stress-address: sanitize-stress-%: sanitize-lib-%
	@mkdir -p build/sanitize/$*
	$(CLANG) -g -O1 -fsanitize=$* -fuse-ld=lld -Iinclude Tests/reliability/stress.c \
	  -o build/sanitize/$*/stress -L$(SAN_SCRATCH_$*)/$(SAN_CONFIG_$*) -lrxc \
	  -Wl,-rpath,$(abspath $(SAN_SCRATCH_$*))/$(SAN_CONFIG_$*) $(SAN_LIBS_$*) -lpthread
	$(SAN_STRESS_ENV_$*) build/sanitize/$*/stress -e $(SAN_STRESS_EVENTS) -t 900

sanitize-sweep-address: sanitize-lib-address
	@mkdir -p build/sanitize/address
	$(CLANG) -O1 -g -fsanitize=address -fuse-ld=lld -Iinclude Tests/sweep/sweep.c -o build/sanitize/address/sweep \
	  -lffi -ldl -lpthread
	build/sanitize/address/sweep $(SAN_SCRATCH_address)/$(SAN_CONFIG_address)/librxc.so Tests/sweep/api.txt
