# The header from an FFI with no compiler (Tests/ffi/check_cffi.py): the preprocessed
# header through cffi's cdef, every function called through libffi (cffi ABI mode), every
# callback type created and called back. Installs cffi from PyPI when it is missing.
#   make check-ffi     ends with "N passed, N failed"
PYTHON ?= python3

.PHONY: check-ffi ensure-cffi
ensure-cffi:
	@$(PYTHON) -c 'import cffi' 2>/dev/null || { echo "  PIP     cffi"; \
	  $(PYTHON) -m pip install -q cffi >/dev/null || { echo "check-ffi: could not install cffi"; exit 1; }; }

check-ffi: all ensure-cffi
	@mkdir -p $(LOGS)
	@echo "  FFI     include/rxc.h through cffi's ABI mode against $(LIB_LINK)"
	$(Q)set -o pipefail; CC=$(CLANG) timeout 300 $(PYTHON) Tests/ffi/check_cffi.py include/rxc.h $(LIB_LINK) 2>&1 | tee $(LOGS)/check-ffi.log
