# Generated sources, each checked against what it is made from:
# - the Value leaves of RxCore's operators: scripts/gen-value-leaves.py writes
#   Sources/RxCore/Generated/*+Value.swift, and RxC's leaves in Sources/RxC/Generated, from the
#   `// rx:value-leaf` and `// rx:value-overload` annotations beside each generic operator
#   (docs/SPECIALIZATION.md says why they exist);
# - the exports that only check their arguments and call the core: scripts/gen-exports.py
#   writes Sources/RxC/Generated/*+Exports.swift from the `// rx:export` lines of
#   Sources/RxC/Exports and the declarations of include/rxc.h.
GENERATORS := gen-value-leaves gen-exports

## make generate  rewrite Sources/RxCore/Generated and Sources/RxC/Generated from the annotations
.PHONY: generate
generate:
	$(Q)for g in $(GENERATORS); do python3 scripts/$$g.py || exit 1; done

## make check-generated  fail when a Generated folder differs from a fresh generation
.PHONY: check-generated
check-generated: SHELL := /bin/bash
check-generated:
	@mkdir -p $(LOGS)
	$(Q)set -o pipefail; { p=0; f=0; for g in $(GENERATORS); do \
	  out=$$(python3 scripts/$$g.py --check 2>&1); rc=$$?; \
	  line=$$(grep -E '^[0-9]+ passed, [0-9]+ failed$$' <<<"$$out" | tail -n 1); \
	  grep -vE '^[0-9]+ passed, [0-9]+ failed$$' <<<"$$out"; \
	  if [[ -n $$line ]]; then p=$$((p + $${line%% *})); n=$${line#*, }; f=$$((f + $${n%% *})); \
	  elif ((rc != 0)); then f=$$((f + 1)); fi; \
	done; echo "$$p passed, $$f failed"; test $$f -eq 0; } | tee $(LOGS)/check-generated.log
