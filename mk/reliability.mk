# Reliability: shared settings and the aggregate targets. The pieces live in
# mk/sweep.mk, mk/fuzz.mk, mk/stress.mk and mk/sanitize.mk; README.md "Reliability" explains them.
#   make reliability      sweep + fuzz-ci + stress + soak (MINUTES=1)
#   make reliability-ci   what CI runs: sweep, fuzz-ci, soak MINUTES=1; ends "N passed, N failed"
#                         counting those steps
# They test the shipped library, build/lib/librxc.so (the main Makefile builds it).
RXC_LIB ?= build/lib/librxc.so
RXC_LIB_DEP ?= $(or $(LIB_REAL),$(RXC_LIB))
RELIABILITY_CC ?= $(or $(CLANG),clang)
RELIABILITY_STEPS ?= sweep fuzz-ci soak

.PHONY: reliability reliability-ci
## make reliability  sweep, fuzz-ci, stress and soak
reliability: sweep fuzz-ci stress soak

## make reliability-ci  what CI runs of them
reliability-ci: SHELL := /bin/bash
reliability-ci:
	@mkdir -p build/logs
	@passed=0; failed=0; for step in $(RELIABILITY_STEPS); do \
	  echo "==== make $$step"; \
	  if $(MAKE) --no-print-directory $$step MINUTES=1 2>&1 | tee build/logs/reliability-$$step.log; \
	     test $${PIPESTATUS[0]} -eq 0; then passed=$$((passed + 1)); \
	  else failed=$$((failed + 1)); echo "reliability: $$step FAILED (log: build/logs/reliability-$$step.log)"; fi; \
	done; echo "$$passed passed, $$failed failed"; test $$failed -eq 0
