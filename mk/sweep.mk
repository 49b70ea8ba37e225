# Bad-input sweep: every exported function, through libffi, with NULL / wrong-kind /
# released / garbage arguments, each call in a child process (Tests/sweep/sweep.c). Its list
# of functions, build/sweep/api.txt, is made from include/rxc.h and the exports
# (mk/header-gen.mk).

build/sweep/sweep: Tests/sweep/sweep.c include/rxc.h
	@mkdir -p $(@D)
	$(RELIABILITY_CC) -O1 -g -Wall -Wextra -Wno-unused-parameter -Iinclude $< -o $@ -lffi -ldl -lpthread

.PHONY: sweep
## make sweep  every exported function with bad arguments, through libffi
sweep: build/sweep/api.txt build/sweep/sweep
	build/sweep/sweep $(RXC_LIB) build/sweep/api.txt
