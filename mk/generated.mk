# Generated sources: the Value leaves of RxCore's operators (scripts/gen-value-leaves.py writes
# Sources/RxCore/Generated/*+Value.swift, and RxC's leaves in Sources/RxC/Generated, from the
# `// rx:value-leaf` and `// rx:value-overload` annotations beside each generic operator;
# docs/SPECIALIZATION.md says why they exist).

## make generate-leaves  rewrite Sources/RxCore/Generated and Sources/RxC/Generated from the annotations
.PHONY: generate-leaves
generate-leaves:
	$(Q)python3 scripts/gen-value-leaves.py

## make check-generated  fail when a Generated folder differs from a fresh generation
.PHONY: check-generated
check-generated:
	@mkdir -p $(LOGS)
	$(Q)set -o pipefail; python3 scripts/gen-value-leaves.py --check 2>&1 | tee $(LOGS)/check-generated.log
