# `make bench`: the benchmark suite (benchmarks/run.py): builds the shipped library,
# the C and Swift benchmarks, runs W1-W9 and prints their table, then the catalog (one row per
# workload of Tests/perf/workloads.c) and the contended workload; writes benchmarks/RESULTS.md
# and benchmarks/chart.png. BENCH_QUICK=1 for a smoke run, BENCH_NO_CALLGRIND=1 to skip
# callgrind, BENCH_NO_CATALOG=1 for the nine only, RXSWIFT_PATH=<RxSwift 6 checkout> to add
# RxSwift to the catalog (benchmarks/README.md). The C++ benchmark (make bench-cpp) runs first
# and its table joins RESULTS.md. The catalog has a floor column (benchmarks/c/floor.c, always)
# and, with RXCPP_PATH, an RxCpp column (bench-rxcpp-catalog, built first).
.PHONY: bench
## make bench  the benchmarks: the nine budgets and the operator catalog beside its raw-C floor and OpenCombine
##   (RXSWIFT_PATH adds RxSwift, RXCPP_PATH RxCpp), and bench-cpp; writes benchmarks/RESULTS.md
bench: bench-cpp $(if $(RXCPP_PATH),bench-rxcpp-catalog)
	RXCPP_PATH=$(RXCPP_PATH) RXCPP_CATALOG=$(if $(RXCPP_PATH),$(CURDIR)/$(RXCPP_CATALOG)) python3 benchmarks/run.py
