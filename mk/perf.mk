# The generic-metadata guard (Tests/perf/metadata_guard.py): one workload per operator
# (Tests/perf/workloads.c) under callgrind at two sizes; fails when a workload's Swift
# runtime type lookups grow with its events, or when its locked instructions per event
# (atomic reference counting, locks) move from their record, Tests/perf/locked-c.txt and
# locked-swift.txt (exact counts, no timing). After a change that moves a count on purpose:
#   python3 Tests/perf/metadata_guard.py build/perf/workloads --locked Tests/perf/locked-c.txt --write-locked
#   make check-metadata     ends with "N passed, N failed"; the table goes to build/perf/metadata.md
#   make check-metadata-swift  the same guard on the catalog's RxCore bodies (benchmarks/swift,
#                           `SwiftBench --catalog-dump`): Swift callers of `Observable<Value>`
#                           must run specialized code too; table build/perf/metadata-swift.md
PERF_DIR := build/perf

$(PERF_DIR)/workloads: Tests/perf/workloads.c Tests/perf/user_fns.h $(LIB_REAL) include/rxc.h build/gen/workloads_gen.h
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) -std=gnu11 -O1 -g -Wall -Wextra -Iinclude -Ibuild/gen $< -o $@ -Lbuild/lib -lrxc $(RPATH_FLAGS)

.PHONY: check-metadata
## make check-metadata  perf guard: per operator workload, Swift runtime type lookups and locked
##   instructions per event against Tests/perf/locked-c.txt (callgrind)
check-metadata: all
	@$(ENSURE) valgrind:valgrind
	$(Q)$(MAKE) --no-print-directory NO_SWIFT_BUILD=1 $(PERF_DIR)/workloads
	@mkdir -p $(LOGS)
	@echo "  GUARD   every Value observer takes .next by pointer (no store-forwarding stall per hop)"
	$(Q)python3 scripts/check-leaves.py Sources
	@echo "  GUARD   runtime type lookups per event, per operator (callgrind, $(PERF_DIR)/metadata.md)"
	$(Q)set -o pipefail; python3 Tests/perf/metadata_guard.py $(PERF_DIR)/workloads \
	    --locked Tests/perf/locked-c.txt --table $(PERF_DIR)/metadata.md 2>&1 | tee $(LOGS)/check-metadata.log

# The Swift bench built with RxCore alone (RXC_BENCH_RXCORE_ONLY=1: nothing to fetch), in its
# own scratch path; valgrind cannot read the DWARF 5 of a Swift build, so the guard runs a
# stripped copy.
SWIFT_GUARD_SCRATCH := build/.build-swift-guard
SWIFT_GUARD_BIN := $(PERF_DIR)/SwiftBench

.PHONY: check-metadata-swift
## make check-metadata-swift  the same guard on the catalog's RxCore bodies (Tests/perf/locked-swift.txt)
check-metadata-swift:
	@$(ENSURE) valgrind:valgrind binutils:objcopy
	@mkdir -p $(LOGS) $(PERF_DIR)
	@echo "  SWIFT   benchmarks/swift (RxCore only, release, cross-module optimization)"
	@# A path dependency's file list is cached in the build plan: a file added to or removed
	@# from RxCore since the last build would be missed. Planning again costs a second.
	$(Q)rm -f $(SWIFT_GUARD_SCRATCH)/release.yaml $(SWIFT_GUARD_SCRATCH)/release/description.json
	$(Q)cd benchmarks/swift && env -u RXC_STATIC_STDLIB RXC_BENCH_RXCORE_ONLY=1 swift build -c release \
	    --scratch-path ../../$(SWIFT_GUARD_SCRATCH) -Xswiftc -cross-module-optimization \
	    -Xswiftc -DRXCORE_SUBJECTS -Xswiftc -DRXCORE_REPLAY -Xswiftc -DRXCORE_OPERATORS \
	    -Xswiftc -DRXCORE_OBSERVE_ON >../../$(LOGS)/swift-guard-build.log 2>&1 || \
	  { tail -n 40 ../../$(LOGS)/swift-guard-build.log; echo "0 passed, 1 failed" | tee ../../$(LOGS)/check-metadata-swift.log; exit 1; }
	$(Q)objcopy --strip-debug $(SWIFT_GUARD_SCRATCH)/release/SwiftBench $(SWIFT_GUARD_BIN)
	@echo "  GUARD   runtime type lookups per event, per catalog workload on RxCore from Swift ($(PERF_DIR)/metadata-swift.md)"
	$(Q)set -o pipefail; python3 Tests/perf/metadata_guard.py $(SWIFT_GUARD_BIN) --catalog-dump rxcore \
	    --locked Tests/perf/locked-swift.txt --table $(PERF_DIR)/metadata-swift.md 2>&1 | tee $(LOGS)/check-metadata-swift.log

## make check-perf  the performance guards (check-metadata, check-metadata-swift): CI runs them
##   beside make test, which checks correctness only
.PHONY: check-perf
check-perf: check-metadata check-metadata-swift
