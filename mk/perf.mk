# The generic-metadata guard (Tests/perf/metadata_guard.py): one workload per operator
# (Tests/perf/workloads.c) under callgrind at two sizes; fails when a workload's Swift
# runtime type lookups grow with its events (exact counts, no timing).
#   make check-metadata     ends with "N passed, N failed"; the table goes to build/perf/metadata.md
PERF_DIR := build/perf

$(PERF_DIR)/workloads: Tests/perf/workloads.c $(LIB_REAL) include/rxc.h
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) -std=gnu11 -O1 -g -Wall -Wextra -Iinclude $< -o $@ -Lbuild/lib -lrxc $(RPATH_FLAGS)

.PHONY: check-metadata
check-metadata: all
	@$(ENSURE) valgrind:valgrind
	$(Q)$(MAKE) --no-print-directory NO_SWIFT_BUILD=1 $(PERF_DIR)/workloads
	@mkdir -p $(LOGS)
	@echo "  GUARD   every Value observer takes .next by pointer (no store-forwarding stall per hop)"
	$(Q)python3 scripts/check-leaves.py Sources
	@echo "  GUARD   runtime type lookups per event, per operator (callgrind, $(PERF_DIR)/metadata.md)"
	$(Q)set -o pipefail; python3 Tests/perf/metadata_guard.py $(PERF_DIR)/workloads \
	    --table $(PERF_DIR)/metadata.md 2>&1 | tee $(LOGS)/check-metadata.log
