# What follows from include/rxc.h (scripts/gen-from-header.py, through scripts/rxc_header.py
# on the header's one parser, scripts/docs/header.py, which make docs reads too): the
# fuzzer's function list and operator calls, the perf workloads of operators with an
# @example, the sweep's api.txt and docs/OPERATORS.md. Adding an operator edits none of them.
GEN_DIR := build/gen
HEADER_READ := scripts/rxc_header.py scripts/docs/header.py include/rxc.h
HEADER_GEN := scripts/gen-from-header.py $(HEADER_READ)

$(GEN_DIR)/fuzz_gen.h: $(HEADER_GEN)
	@mkdir -p $(@D)
	$(Q)python3 scripts/gen-from-header.py fuzz $@

$(GEN_DIR)/workloads_gen.h: $(HEADER_GEN)
	@mkdir -p $(@D)
	$(Q)python3 scripts/gen-from-header.py workloads $@

## make operators-doc  rewrites docs/OPERATORS.md, the operator table, from include/rxc.h
.PHONY: operators-doc check-operators-doc
operators-doc:
	$(Q)python3 scripts/gen-from-header.py operators docs/OPERATORS.md

check-operators-doc:
	$(Q)python3 scripts/gen-from-header.py operators docs/OPERATORS.md --check

# The sweep's list of functions and parameter flags (Tests/sweep/gen_api.py), from the header
# and the library's exports.
build/sweep/api.txt: $(HEADER_READ) Tests/sweep/gen_api.py $(LIB_REAL)
	@mkdir -p $(@D)
	$(Q)nm -D --defined-only $(LIB_REAL) > build/sweep/exports.txt
	$(Q)python3 Tests/sweep/gen_api.py include/rxc.h build/sweep/exports.txt > $@.tmp && mv -f $@.tmp $@
