# libFuzzer over the whole API (Tests/fuzz/fuzz_api.c). The library is rebuilt in its own
# scratch path with fuzzer coverage and ASan (-sanitize=fuzzer,address), so the fuzzer is
# guided by the Swift code's branches, not only the C target's.
#   make fuzz            FUZZ_SECONDS (default 600)
#   make fuzz-ci         FUZZ_CI_SECONDS (default 120), for CI
# New inputs go to build/fuzz/corpus; Tests/fuzz/corpus is the committed seed corpus.
# Crashes are written to build/fuzz/crash-*; replay one with build/fuzz/fuzz_api FILE.
FUZZ_SECONDS ?= 600
FUZZ_CI_SECONDS ?= 120
FUZZ_SCRATCH ?= .build-fuzz
FUZZ_CC ?= clang
# libFuzzer and ASan print the stack of a failure; the Swift backtracer would only slow it.
FUZZ_ENV ?= SWIFT_BACKTRACE=enable=no
FUZZ_FLAGS ?= -max_len=512 -timeout=30 -print_final_stats=1 -artifact_prefix=build/fuzz/

.PHONY: fuzz fuzz-ci fuzz-lib
fuzz-lib:
	swift build --product rxc --scratch-path $(FUZZ_SCRATCH) \
	  -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=address

build/fuzz/fuzz_api: Tests/fuzz/fuzz_api.c include/rxc.h build/gen/fuzz_gen.h fuzz-lib
	@mkdir -p build/fuzz/corpus
	$(FUZZ_CC) -g -O1 -Wall -Wextra -Wno-unused-parameter -fuse-ld=lld \
	  -fsanitize=fuzzer,address -Iinclude -Ibuild/gen $< -o $@ \
	  -L$(FUZZ_SCRATCH)/debug -lrxc -Wl,-rpath,$(abspath $(FUZZ_SCRATCH))/debug -ldl -lpthread

## make fuzz  libFuzzer over the whole API (FUZZ_SECONDS)
fuzz: build/fuzz/fuzz_api
	$(FUZZ_ENV) build/fuzz/fuzz_api $(FUZZ_FLAGS) -max_total_time=$(FUZZ_SECONDS) build/fuzz/corpus Tests/fuzz/corpus

## make fuzz-ci  the bounded fuzz run CI makes
fuzz-ci: build/fuzz/fuzz_api
	$(FUZZ_ENV) build/fuzz/fuzz_api $(FUZZ_FLAGS) -max_total_time=$(FUZZ_CI_SECONDS) build/fuzz/corpus Tests/fuzz/corpus
