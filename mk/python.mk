# ---- the Python package (bindings/python) ---------------------------------------------------
#   make python-test     the cdef drift check, then the package's pytest suite against build/lib
#   make python-cdef     regenerates bindings/python/src/rxc/_cdef.h from include/rxc.h
#   make python-bench    bindings/python/bench.py: rxc against RxPY (installs reactivex if missing)
PYTHON ?= python3
PY_DIR := bindings/python
PYTEST_FLAGS ?= -q -rfEXx -p no:cacheprovider

.PHONY: python-deps python-cdef python-cdef-check python-test python-bench
python-deps:
	@PYTHON=$(PYTHON) bash $(PY_DIR)/ensure-deps.sh

## make python-cdef  regenerates the Python package's cdef from rxc.h
python-cdef:
	$(Q)$(PYTHON) $(PY_DIR)/gen_cdef.py --write

python-cdef-check:
	$(Q)$(PYTHON) $(PY_DIR)/gen_cdef.py --check

# The drift check and pytest both run; either failing fails the target. pytest's summary
# ("N passed, N failed, ...") is in build/logs/python-test.log for make test's count.
## make python-test  the Python package: cdef drift check, then its pytest suite
python-test: all python-deps
	@mkdir -p $(LOGS)
	$(Q)status=0; $(PYTHON) $(PY_DIR)/gen_cdef.py --check || status=1; \
	  set -o pipefail; RXC_LIBRARY=$(CURDIR)/$(LIB_LINK) timeout 900 $(PYTHON) -m pytest $(PYTEST_FLAGS) \
	    $(PY_DIR)/tests 2>&1 | tee $(LOGS)/python-test.log || status=1; exit $$status

## make python-bench  the Python package beside RxPY
python-bench: all
	@$(PYTHON) -c "import cffi" 2>/dev/null || PYTHON=$(PYTHON) bash $(PY_DIR)/ensure-deps.sh
	@$(PYTHON) -c "import reactivex" 2>/dev/null || $(PYTHON) -m pip install --quiet reactivex
	$(Q)RXC_LIBRARY=$(CURDIR)/$(LIB_LINK) PYTHONPATH=$(CURDIR)/$(PY_DIR)/src $(PYTHON) $(PY_DIR)/bench.py $(BENCH_ARGS)
