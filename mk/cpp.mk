# C++: include/rxc.hpp (a header-only C++17 API over rxc.h), its doctest suite
# (Tests/cpp), its examples (examples-c/cpp) and its benchmark next to RxCpp
# (benchmarks/cpp; RXCPP_PATH=<an RxCpp checkout> adds RxCpp's side).
CPP_DIR       := build/cpp
CPP_TEST_SRCS := $(sort $(wildcard Tests/cpp/*.cpp))
CPP_TEST_OBJS := $(patsubst Tests/cpp/%.cpp,$(CPP_DIR)/obj/%.o,$(CPP_TEST_SRCS))
CPP_TESTS     := $(CPP_DIR)/rxcpp-tests
CPP_PKGS      := g++:g++ doctest-dev:/usr/include/doctest/doctest.h
CPP_CXXFLAGS  ?= -std=c++17 -g -O1 -pthread -Wall -Wextra -Werror
CPP_CPPFLAGS  := -Iinclude -ITests/cpp
CPP_TIMEOUT   ?= 300
# doctest's summary ("[doctest] test cases: 12 | 12 passed | 0 failed | 0 skipped") as
# make test counts it: "N passed, N failed".
CPP_SUMMARY = sed -n 's/^\[doctest\] test cases: *[0-9]* | *\([0-9]*\) passed | *\([0-9]*\) failed.*/\1 passed, \2 failed/p'

.PHONY: cpp-test check-cpp-api sanitize-cpp ensure-cpp cpp-examples

ensure-cpp:
	@$(ENSURE) $(CPP_PKGS)

$(CPP_DIR)/obj/%.o: Tests/cpp/%.cpp include/rxc.hpp include/rxc.h Tests/cpp/support.hpp | ensure-cpp
	@mkdir -p $(@D)
	@echo "  CXX     $<"
	$(Q)$(GXX) $(CPP_CPPFLAGS) $(CPP_CXXFLAGS) -c $< -o $@

$(CPP_TESTS): $(CPP_TEST_OBJS) $(LIB_REAL)
	@echo "  LINK    $@"
	$(Q)$(GXX) $(CPP_CXXFLAGS) $(CPP_TEST_OBJS) -o $@ -Lbuild/lib -lrxc $(RPATH_FLAGS)

## make cpp-test  the C++ API (include/rxc.hpp): its doctest suite and the check that every rxc.h function is wrapped or listed
cpp-test: $(CPP_TESTS) check-cpp-api
	@mkdir -p $(LOGS)
	$(Q)set -o pipefail; timeout $(CPP_TIMEOUT) $(CPP_TESTS) 2>&1 | tee $(LOGS)/cpp-test.log; rc=$$?; \
	  $(CPP_SUMMARY) $(LOGS)/cpp-test.log | tail -n 1 | tee -a $(LOGS)/cpp-test.log; exit $$rc

## make check-cpp-api  each rx_ function of rxc.h is called by rxc.hpp or listed, with the reason, in Tests/cpp/unwrapped.txt
check-cpp-api:
	$(Q)python3 scripts/check-cpp-api.py include/rxc.h include/rxc.hpp Tests/cpp/unwrapped.txt

# The suite under ASan and UBSan (clang++), against the ASan build of librxc (mk/sanitize.mk).
SAN_CPP_FLAGS ?= -std=c++17 -g -O1 -fno-omit-frame-pointer -pthread -fsanitize=address,undefined -fno-sanitize-recover=undefined
SAN_CPP_ENV   := ASAN_OPTIONS=exitcode=$(SAN_EXITCODE):detect_leaks=1:$(ASAN_OPTIONS) \
                 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=$(SAN_EXITCODE):$(UBSAN_OPTIONS)
## make sanitize-cpp  the C++ suite (Tests/cpp) built with -fsanitize=address,undefined against the ASan librxc
sanitize-cpp: sanitize-lib-address | ensure-cpp
	@mkdir -p $(LOGS) build/sanitize/cpp
	@echo "  CXX     Tests/cpp with -fsanitize=address,undefined"
	$(Q)$(CLANGXX) $(CPP_CPPFLAGS) $(SAN_CPP_FLAGS) $(SAN_LDFLAGS) $(CPP_TEST_SRCS) -o build/sanitize/cpp/rxcpp-tests \
	    -L$(SAN_SCRATCH_address)/$(SAN_CONFIG_address) -lrxc \
	    -Wl,-rpath,$(CURDIR)/$(SAN_SCRATCH_address)/$(SAN_CONFIG_address)
	$(Q)set -o pipefail; $(SAN_CPP_ENV) timeout $(CPP_TIMEOUT) build/sanitize/cpp/rxcpp-tests 2>&1 | tee $(LOGS)/cpp-sanitize.log; rc=$$?; \
	  $(CPP_SUMMARY) $(LOGS)/cpp-sanitize.log | tail -n 1 | tee -a $(LOGS)/cpp-sanitize.log; \
	  if [ $$rc -ne 0 ]; then echo "sanitize: the C++ suite failed under ASan/UBSan, exit status $$rc (log: $(LOGS)/cpp-sanitize.log)"; fi; exit $$rc


# examples-c/cpp/*.cpp, built into build/examples/cpp and run by `make demo`.
CPP_EXAMPLE_SRCS := $(sort $(wildcard examples-c/cpp/*.cpp))
CPP_EXAMPLES     := $(patsubst examples-c/cpp/%.cpp,build/examples/cpp/%,$(CPP_EXAMPLE_SRCS))
CPP_EXAMPLE_FLAGS ?= -std=c++17 -O2 -g -pthread -Wall -Wextra -Werror

build/examples/cpp/%: examples-c/cpp/%.cpp include/rxc.hpp $(HEADER_OUT) $(LIB_REAL) | ensure-cpp
	@mkdir -p $(@D)
	@echo "  CXX     $<"
	$(Q)$(GXX) $(CPP_EXAMPLE_FLAGS) -Ibuild/include -Iinclude $< -o $@ -Lbuild/lib -lrxc $(RPATH_FLAGS)
# (the rpath of build/examples/cpp is one level deeper: '$$ORIGIN/../lib' is build/examples/lib)
build/examples/cpp/%: RPATH_FLAGS := -Wl,-rpath,'$$ORIGIN/../../lib'

## make cpp-examples  build and run examples-c/cpp/*.cpp (make demo runs them first)
cpp-examples: $(CPP_EXAMPLES)
	$(Q)for e in $(CPP_EXAMPLES); do echo "==== $$e"; \
	  timeout $(DEMO_TIMEOUT) $$e || { echo "demo: $$e failed (exit status $$?)"; exit 1; }; done

demo: cpp-examples

# ---- the C++ benchmark -----------------------------------------------------------------
CPP_BENCH_DIR   := $(CPP_DIR)/bench
CPP_BENCH_FLAGS ?= -std=c++17 -O2 -DNDEBUG -g -pthread
CPP_BENCH_LIB   := -Lbuild/lib -lrxc -Wl,-rpath,$(CURDIR)/build/lib
RXCPP_INCLUDE    = $(RXCPP_PATH)/Rx/v2/src

$(CPP_BENCH_DIR)/bench_rxc: benchmarks/cpp/bench_rxc.cpp benchmarks/cpp/bench.hpp include/rxc.hpp $(LIB_REAL) | ensure-cpp
	@mkdir -p $(@D)
	$(Q)$(GXX) $(CPP_BENCH_FLAGS) -Iinclude -Ibenchmarks/cpp $< -o $@ $(CPP_BENCH_LIB)
$(CPP_BENCH_DIR)/overhead_cpp: benchmarks/cpp/overhead_cpp.cpp include/rxc.hpp $(LIB_REAL) | ensure-cpp
	@mkdir -p $(@D)
	$(Q)$(GXX) $(CPP_BENCH_FLAGS) -Iinclude $< -o $@ $(CPP_BENCH_LIB)
$(CPP_BENCH_DIR)/overhead_c: benchmarks/cpp/overhead_c.c include/rxc.h $(LIB_REAL)
	@mkdir -p $(@D)
	$(Q)$(CC) -std=gnu11 -O2 -g -Iinclude $< -o $@ $(CPP_BENCH_LIB)

# The catalog's RxCpp twins (benchmarks/cpp/catalog_rxcpp.cpp) for `make bench`: one object
# per entry of its table (-DTWIN=k; the file says why) and one for its main, linked into one
# program. About 4 s of g++ per entry (without -g, which only slows the build); `make bench`
# builds them with -j2.
RXCPP_CATALOG_FLAGS := $(filter-out -g,$(CPP_BENCH_FLAGS))
RXCPP_CATALOG_SRC  := benchmarks/cpp/catalog_rxcpp.cpp
RXCPP_CATALOG_DIR  := $(CPP_BENCH_DIR)/catalog_rxcpp
RXCPP_CATALOG      := $(RXCPP_CATALOG_DIR)/catalog_rxcpp
RXCPP_CATALOG_RE   := ^  (W|OP|TWO|STR|STR_TWO)[(]
RXCPP_CATALOG_N    := $(shell grep -cE '$(RXCPP_CATALOG_RE)' $(RXCPP_CATALOG_SRC) 2>/dev/null)
RXCPP_CATALOG_OBJS := $(patsubst %,$(RXCPP_CATALOG_DIR)/twin%.o,$(shell seq 0 $$(expr $(RXCPP_CATALOG_N) - 1)))
RXCPP_CATALOG_DEPS := $(RXCPP_CATALOG_SRC) benchmarks/c/catalog_time.h $(RXCPP_INCLUDE)/rxcpp/rx.hpp

$(RXCPP_CATALOG_DIR)/twin%.o: $(RXCPP_CATALOG_DEPS) | ensure-cpp
	@mkdir -p $(@D)
	@echo "  CXX     $(RXCPP_CATALOG_SRC) (twin $*)"
	$(Q)$(GXX) $(RXCPP_CATALOG_FLAGS) -DTWIN=$* -Ibenchmarks/c -I$(RXCPP_INCLUDE) -c $< -o $@
$(RXCPP_CATALOG_DIR)/main.o: $(RXCPP_CATALOG_DEPS) | ensure-cpp
	@mkdir -p $(@D)
	$(Q)$(GXX) $(RXCPP_CATALOG_FLAGS) -DTWIN_MAIN -Ibenchmarks/c -I$(RXCPP_INCLUDE) -c $< -o $@
$(RXCPP_CATALOG): $(RXCPP_CATALOG_DIR)/main.o $(RXCPP_CATALOG_OBJS)
	@echo "  LINK    $@"
	$(Q)$(GXX) $(RXCPP_CATALOG_FLAGS) $^ -o $@

.PHONY: bench-rxcpp-catalog
# make bench-rxcpp-catalog RXCPP_PATH=<RxCpp checkout>: build/cpp/bench/catalog_rxcpp/catalog_rxcpp (make bench runs it)
bench-rxcpp-catalog:
	@test -n "$(RXCPP_PATH)" || { echo "bench-rxcpp-catalog: set RXCPP_PATH to an RxCpp checkout"; exit 1; }
	@test -f $(RXCPP_INCLUDE)/rxcpp/rx.hpp || { echo "bench-rxcpp-catalog: RXCPP_PATH=$(RXCPP_PATH) has no Rx/v2/src/rxcpp/rx.hpp"; exit 1; }
	@echo "  CXX     $(RXCPP_CATALOG_N) RxCpp twins of the catalog (a few minutes)"
	$(Q)$(MAKE) --no-print-directory -j2 $(RXCPP_CATALOG)

## make bench-cpp  rxc.hpp's benchmark (RXCPP_PATH=<RxCpp checkout> adds RxCpp), callgrind overhead over the C ABI, compile times; writes benchmarks/cpp/RESULTS.md
bench-cpp: $(CPP_BENCH_DIR)/bench_rxc $(CPP_BENCH_DIR)/overhead_c $(CPP_BENCH_DIR)/overhead_cpp
	@$(ENSURE) valgrind:valgrind
	@rm -f $(CPP_BENCH_DIR)/rxcpp.txt
ifneq ($(RXCPP_PATH),)
	@test -f $(RXCPP_INCLUDE)/rxcpp/rx.hpp || { echo "bench-cpp: RXCPP_PATH=$(RXCPP_PATH) has no Rx/v2/src/rxcpp/rx.hpp"; exit 1; }
	@echo "  CXX     benchmarks/cpp/bench_rxcpp.cpp (RxCpp from $(RXCPP_PATH); a minute or more)"
	$(Q)$(GXX) $(CPP_BENCH_FLAGS) -Ibenchmarks/cpp -I$(RXCPP_INCLUDE) benchmarks/cpp/bench_rxcpp.cpp -o $(CPP_BENCH_DIR)/bench_rxcpp
endif
	@echo "  BENCH   rxc.hpp"
	$(Q)$(CPP_BENCH_DIR)/bench_rxc | tee $(CPP_BENCH_DIR)/rxc.txt
ifneq ($(RXCPP_PATH),)
	@echo "  BENCH   RxCpp"
	$(Q)$(CPP_BENCH_DIR)/bench_rxcpp | tee $(CPP_BENCH_DIR)/rxcpp.txt
endif
	@echo "  BENCH   rxc.hpp over the C ABI (callgrind)"
	$(Q)benchmarks/cpp/overhead.sh $(CPP_BENCH_DIR)/overhead_c $(CPP_BENCH_DIR)/overhead_cpp | tee $(CPP_BENCH_DIR)/overhead.md
	@echo "  BENCH   compile times"
	$(Q)benchmarks/cpp/compile_time.sh $(GXX) $(if $(RXCPP_PATH),$(RXCPP_INCLUDE)) | tee $(CPP_BENCH_DIR)/compile.md
	$(Q)RXCPP_DESC="$(or $(RXCPP_DESC),$(if $(RXCPP_PATH),$$(git -C $(RXCPP_PATH) log -1 --format="%h %cs" 2>/dev/null || echo $(RXCPP_PATH)),not measured (set RXCPP_PATH)))" \
	  python3 benchmarks/cpp/report.py $(CPP_BENCH_DIR)/rxc.txt $(CPP_BENCH_DIR)/rxcpp.txt \
	    $(CPP_BENCH_DIR)/overhead.md $(CPP_BENCH_DIR)/compile.md benchmarks/cpp/RESULTS.md
	@echo "  WROTE   benchmarks/cpp/RESULTS.md"
