# Bad-input sweep: every exported function, through libffi, with NULL / wrong-kind /
# released / garbage arguments, each call in a child process (Tests/sweep/sweep.c).
# Tests/sweep/api.txt must list exactly the library's rx_ exports: `make sweep-api`
# regenerates it from include/rxc.h when the API grows.

build/sweep/sweep: Tests/sweep/sweep.c include/rxc.h
	@mkdir -p $(@D)
	$(RELIABILITY_CC) -O1 -g -Wall -Wextra -Wno-unused-parameter -Iinclude $< -o $@ -lffi -ldl -lpthread

.PHONY: sweep sweep-check-api sweep-api
sweep-check-api: $(RXC_LIB_DEP)
	sh Tests/sweep/check_api.sh $(RXC_LIB) Tests/sweep/api.txt

## make sweep  every exported function with bad arguments, through libffi
sweep: sweep-check-api build/sweep/sweep
	build/sweep/sweep $(RXC_LIB) Tests/sweep/api.txt

sweep-api: $(RXC_LIB_DEP)
	@mkdir -p build/sweep
	nm -D --defined-only $(RXC_LIB) > build/sweep/exports.txt
	python3 Tests/sweep/gen_api.py include/rxc.h build/sweep/exports.txt > Tests/sweep/api.txt
