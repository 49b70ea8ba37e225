# `make bench`: the benchmark suite (benchmarks/run.py): builds the shipped library,
# the C and Swift benchmarks, runs W1-W9 and prints their table, then the catalog (one row per
# workload of Tests/perf/workloads.c) and the contended workload; writes benchmarks/RESULTS.md
# and benchmarks/chart.png. BENCH_QUICK=1 for a smoke run, BENCH_NO_CALLGRIND=1 to skip
# callgrind, BENCH_NO_CATALOG=1 for the nine only, RXSWIFT_PATH=<RxSwift 6 checkout> to add
# RxSwift to the catalog (benchmarks/README.md). The C++ benchmark (make bench-cpp) runs first
# and its table joins RESULTS.md.
.PHONY: bench
## make bench  the benchmarks: the nine budgets and the operator catalog beside OpenCombine
##   (RXSWIFT_PATH adds RxSwift), and bench-cpp (RXCPP_PATH adds RxCpp); writes benchmarks/RESULTS.md
bench: bench-cpp
	python3 benchmarks/run.py
