# `make bench`: the issue-6 benchmark suite (benchmarks/run.py): builds the shipped library,
# the C and Swift benchmarks, runs W1-W9 and prints one table; writes benchmarks/RESULTS.md
# and benchmarks/chart.png. BENCH_QUICK=1 for a smoke run, BENCH_NO_CALLGRIND=1 to skip
# callgrind.
.PHONY: bench
bench:
	python3 benchmarks/run.py
