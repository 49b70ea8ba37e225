# ---- the Python package (bindings/python) ---------------------------------------------------
# Everything runs in venvs under build/python (pip's cache makes the setup fast after the first
# time). The package is tested twice: its wheel (the compiled fast path, librxc bundled),
# installed into a fresh venv, and the source tree in cffi's ABI mode (RXC_MODE=abi).
PYTHON ?= python3
PY_DIR := bindings/python
PY_BUILD := build/python
PY_VENV := $(PY_BUILD)/venv
PY := $(PY_VENV)/bin/python
PY_WHEEL_VENV := $(PY_BUILD)/wheel-venv
PIP := $(PY) -m pip --quiet --disable-pip-version-check
PYTEST_FLAGS ?= -q -rfEXx -p no:cacheprovider

.PHONY: python-deps python-cdef python-cdef-check python-test python-bench bench-python wheel python-docs

$(PY_VENV)/.ready: $(PY_DIR)/requirements-dev.txt
	@rm -rf $(PY_VENV) && mkdir -p $(PY_BUILD)
	$(Q)$(PYTHON) -m venv $(PY_VENV) 2>/dev/null || { bash scripts/ensure-deps.sh python3-venv python3-dev && \
	  rm -rf $(PY_VENV) && $(PYTHON) -m venv $(PY_VENV); }  # Debian's python3 needs both
	$(Q)$(PIP) install -r $(PY_DIR)/requirements-dev.txt
	@touch $@

python-deps: $(PY_VENV)/.ready

## make python-cdef  regenerates bindings/python/src/rxc/_cdef.h from include/rxc.h
python-cdef:
	$(Q)$(PYTHON) $(PY_DIR)/gen_cdef.py --write

python-cdef-check:
	$(Q)$(PYTHON) $(PY_DIR)/gen_cdef.py --check

## make wheel  the Python package as a manylinux wheel carrying librxc.so (build/python/wheelhouse)
wheel: all python-deps
	$(Q)rm -rf $(PY_BUILD)/pkg $(PY_BUILD)/dist $(PY_BUILD)/wheelhouse && mkdir -p $(PY_BUILD)/pkg
	$(Q)cp -r $(PY_DIR)/setup.py $(PY_DIR)/pyproject.toml $(PY_DIR)/README.md $(PY_DIR)/src $(PY_BUILD)/pkg/
	$(Q)strip --strip-unneeded -o $(PY_BUILD)/librxc.so.0 $(LIB_LINK)  # the symbols the C ABI exports stay
	$(Q)cd $(PY_BUILD)/pkg && RXC_BUNDLE_LIBRARY=$(CURDIR)/$(PY_BUILD)/librxc.so.0 $(CURDIR)/$(PY) -m pip wheel \
	  --quiet --disable-pip-version-check --no-deps --no-build-isolation -w ../dist .
	$(Q)PATH=$(CURDIR)/$(PY_VENV)/bin:$$PATH auditwheel repair --only-plat -w $(PY_BUILD)/wheelhouse $(PY_BUILD)/dist/rxc-*.whl 2>&1 | tail -n 1
	@ls $(PY_BUILD)/wheelhouse/rxc-*manylinux*.whl

## make python-test  the Python package: cdef drift check, mypy, pytest on its wheel (compiled) and on the source (ABI mode)
python-test: wheel
	@mkdir -p $(LOGS)
	$(Q)PY=$(CURDIR)/$(PY) PYTHON=$(PYTHON) PY_WHEEL_VENV=$(CURDIR)/$(PY_WHEEL_VENV) RXC_BUILT_LIBRARY=$(CURDIR)/$(LIB_LINK) \
	  PYTEST_FLAGS="$(PYTEST_FLAGS)" bash $(PY_DIR)/run-tests.sh $(CURDIR)/$(PY_BUILD)/wheelhouse/rxc-*manylinux*.whl \
	  2>&1 | tee $(LOGS)/python-test.log; exit $${PIPESTATUS[0]}

## make bench-python  bindings/python/bench.py: rxc against RxPY (reactivex), same Python callables
bench-python: wheel
	$(Q)$(PIP) install --force-reinstall --no-deps $(PY_BUILD)/wheelhouse/rxc-*manylinux*.whl
	$(Q)cd $(PY_BUILD) && RXC_MODE=compiled $(CURDIR)/$(PY) $(CURDIR)/$(PY_DIR)/bench.py $(BENCH_ARGS)

python-bench: bench-python

# The package's reference: HTML from its docstrings and stubs (pdoc, from requirements-dev.txt),
# the source tree in ABI mode against build/lib's librxc. `make docs` runs it too, after its
# own pages (it starts by clearing build/docs), and links it from build/docs/index.html.
PY_DOCS_DIR := $(DOCS_DIR)/python
define python_docs
	$(Q)set -o pipefail; rm -rf $(PY_DOCS_DIR) && RXC_MODE=abi RXC_LIBRARY=$(CURDIR)/$(LIB_LINK) \
	  PYTHONPATH=$(CURDIR)/$(PY_DIR)/src $(PY) -m pdoc --docformat markdown --no-show-source -o $(PY_DOCS_DIR) rxc \
	  2>&1 | { grep -v 'rxc.library_path matches the .RXC_LIBRARY' || true; }  # it is hidden, as it should be
	@echo "  DOCS    $(PY_DOCS_DIR)/rxc.html: the Python package, $$(ls $(PY_DOCS_DIR)/rxc | wc -l) module pages"
endef

## make python-docs  the Python package's reference from its docstrings (pdoc): build/docs/python/rxc.html
python-docs: all python-deps
	$(python_docs)
