# Stress and soak (Tests/reliability/stress.c): 4 producers x STRESS_EVENTS into a subject
# with 8 observers (4 through observe_on hops, 4 churning), checked for loss, duplication,
# order, overlap, deadlock and leaks.
#   make stress                      one round of 4 x 1,000,000 events
#   make soak MINUTES=1              rounds of 4 x SOAK_EVENTS until MINUTES have passed (CI)
#   make soak MINUTES=60             a longer soak
STRESS_EVENTS ?= 1000000
SOAK_EVENTS ?= 250000
MINUTES ?= 1
STRESS_TIMEOUT ?= 600

build/reliability/stress: Tests/reliability/stress.c include/rxc.h $(RXC_LIB_DEP)
	@mkdir -p $(@D)
	$(RELIABILITY_CC) -O2 -g -Wall -Wextra -Iinclude $< -o $@ -L$(dir $(RXC_LIB)) -lrxc \
	  -Wl,-rpath,$(abspath $(dir $(RXC_LIB))) -lpthread

.PHONY: stress soak
## make stress  many threads, subjects, operators and schedulers at once
stress: build/reliability/stress
	build/reliability/stress -e $(STRESS_EVENTS) -t $(STRESS_TIMEOUT)

## make soak  a long run with live objects back to zero at the end (MINUTES)
soak: build/reliability/stress
	build/reliability/stress -e $(SOAK_EVENTS) -m $(MINUTES) -t $(STRESS_TIMEOUT)
