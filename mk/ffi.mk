# The header from FFIs with no compiler: Tests/ffi/check_cffi.py (the preprocessed header
# through cffi's cdef, every function called through libffi in cffi's ABI mode, every
# callback type created and called back) and Tests/ffi/check_luajit.lua (the same header
# through LuaJIT's ffi.cdef, by-value calls, and callbacks through rx_by_ref). Installs cffi
# from PyPI and luajit from Debian when they are missing.
#   make check-ffi     ends with "N passed, N failed" (both checks together)
PYTHON ?= python3
FFI_CDEF := build/ffi/rxc-cdef.h

.PHONY: check-ffi ensure-cffi
ensure-cffi:
	@$(PYTHON) -c 'import cffi' 2>/dev/null || { echo "  PIP     cffi"; \
	  $(PYTHON) -m pip install -q cffi >/dev/null || { echo "check-ffi: could not install cffi"; exit 1; }; }

$(FFI_CDEF): include/rxc.h
	@mkdir -p $(@D)
	$(Q)$(CLANG) -E -P -DRX_CDEF -x c $< -o $@

## make check-ffi  the header through cffi's ABI mode and LuaJIT's FFI: every function called, every callback back
check-ffi: all ensure-cffi $(FFI_CDEF)
	@$(ENSURE) luajit:luajit
	@mkdir -p $(LOGS)
	@echo "  FFI     include/rxc.h through cffi's ABI mode and LuaJIT's FFI against $(LIB_LINK)"
	$(Q)set -o pipefail; rc=0; \
	  CC=$(CLANG) timeout 300 $(PYTHON) Tests/ffi/check_cffi.py include/rxc.h $(LIB_LINK) >$(LOGS)/check-ffi-cffi.log 2>&1 || rc=1; \
	  timeout 120 luajit Tests/ffi/check_luajit.lua $(FFI_CDEF) $(LIB_LINK) >$(LOGS)/check-ffi-luajit.log 2>&1 || rc=1; \
	  grep -v '^[0-9]* passed, [0-9]* failed' $(LOGS)/check-ffi-cffi.log $(LOGS)/check-ffi-luajit.log | sed 's/^[^:]*log://'; \
	  cat $(LOGS)/check-ffi-cffi.log $(LOGS)/check-ffi-luajit.log | grep -E '^[0-9]+ passed, [0-9]+ failed' | \
	    awk '{p += $$1; f += $$3; n++} END {if (n < 2) f += 2 - n; print p " passed, " f " failed"}' | tee $(LOGS)/check-ffi.log; \
	  exit $$rc
