#!/usr/bin/env python3
"""What the header's operators need beside it, checked (part of `make check-abi`).

Usage: check-lists.py include/rxc.h build/sweep/api.txt

- The fuzzer (Tests/fuzz/fuzz_api.c) calls every declared function, or FUZZ_EXEMPT says why
  not; an operator with an @example is called by its generated case.
- The metadata guard's catalog (Tests/perf/workloads.c) runs every operator of section 9, or
  WORKLOAD_EXEMPT says why not; an operator with an @example has a generated workload.
- Every parameter api.txt (generated) marks `null_ok` (the sweep then passes NULL as a valid
  argument) is documented as NULL-able in the header: its function's comment, or a comment it
  refers to with "as for rx_...", mentions NULL with the parameter in the same sentence. (ctx,
  ctx_free, destroy, out_error and label are NULL-able everywhere, as the header says.)
Prints one line per problem and exits 1 if there is any.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rxc_header  # noqa: E402

# Functions the fuzzer does not call, and why.
FUZZ_EXEMPT = {
    "rx_main_run": "blocks until rx_main_stop",
    "rx_scheduler_new_thread": "a thread per schedule: too slow for a fuzz step",
    "rx_scheduler_concurrent_new": "real threads; the stress test covers them",
    "rx_scheduler_serial_new": "real threads; the stress test covers them",
    "rx_scheduler_operation_queue_new": "real threads; the stress test covers them",
    "rx_scheduler_custom_new": "needs a scheduler implementation; the C tests cover it",
    "rx_marble_expect": "prints diffs; the marble tests cover it",
    "rx_version": "constant",
    "rx_status_string": "constant",
}

# Operators of section 9 with no workload of their own in Tests/perf/workloads.c, and why.
WORKLOAD_EXEMPT = {
    "rx_connect": "connects a connectable; per event it is the publish/replay workloads' path",
    "rx_drive": "subscribes to a driver; the driver workload measures its events",
    "rx_flow_stats_get": "reads a bounded observable's counters; not an operator on a stream",
    "rx_emit": "subscribes to a signal; the signal workload measures its events",
}

header, api = sys.argv[1], sys.argv[2]
declared = sorted({f.name for f in rxc_header.functions(header)})
problems = []

operator_fns = rxc_header.operators(header)
operators = sorted(f.name for f in operator_fns)
examples = {f.name for f in operator_fns if f.example}

fuzz = open("Tests/fuzz/fuzz_api.c").read()
for name in declared:
    if name in FUZZ_EXEMPT:
        if re.search(r"\b(?:p_)?%s\b" % name, fuzz) or name in examples:
            problems.append(f"Tests/fuzz/fuzz_api.c calls {name}: remove it from FUZZ_EXEMPT in {sys.argv[0]}")
    elif not re.search(r"\b(?:p_)?%s\b" % name, fuzz) and name not in examples:
        problems.append(f"Tests/fuzz/fuzz_api.c never calls {name} (give it an @example in the header, "
                        "call it, or say why not in FUZZ_EXEMPT)")

workloads = open("Tests/perf/workloads.c").read()
for name in operators:
    if name in WORKLOAD_EXEMPT:
        if re.search(r"\b%s\b" % name, workloads):
            problems.append(f"Tests/perf/workloads.c runs {name}: remove it from WORKLOAD_EXEMPT in {sys.argv[0]}")
    elif not re.search(r"\b%s\b" % name, workloads) and name not in examples:
        problems.append(f"Tests/perf/workloads.c has no workload for {name} (add one, or say why not in "
                        f"WORKLOAD_EXEMPT)")

NULLABLE_EVERYWHERE = {"ctx", "ctx_free", "destroy", "out_error", "label"}


FUNCTIONS = {f.name: f for f in rxc_header.functions(header)}


def doc_of(name):
    """name's doc comment and its parameter list as declared."""
    f = FUNCTIONS.get(name)
    return (f.doc, f.params_text) if f else ("", "")


def says_nullable(name, param, seen=()):
    doc, params = doc_of(name)
    sentence = r"\b%s\b[^.]*\bNULL\b|\bNULL\b[^.]*\b%s\b" % (param, param)
    if re.search(sentence, doc) or re.search(r"\b%s\b[^,]*/\*[^*]*NULL" % param, params):
        return True
    return any(says_nullable(other, param, seen + (name,))
               for other in re.findall(r"as for (rx_[a-z0-9_]+)", doc) if other not in seen)


for line in open(api):
    fields = line.split()
    if not fields or line.startswith("#"):
        continue
    for param in fields[2:]:
        parts = param.split(":")
        if len(parts) > 2 and "null_ok" in parts[2].split(",") and parts[0] not in NULLABLE_EVERYWHERE:
            if not says_nullable(fields[1], parts[0]):
                problems.append(f"{api}: {fields[1]}'s {parts[0]} is null_ok, but {header} does not say "
                                f"it may be NULL (document it, or drop the override in Tests/sweep/gen_api.py)")

for p in problems:
    print("check-lists: " + p, file=sys.stderr)
if problems:
    sys.exit(1)
print(f"check-lists: {len(declared)} functions: the fuzzer ({len(FUZZ_EXEMPT)} exempt), the workloads "
      f"({len(operators)} operators, {len(examples)} by @example) and the NULL-able parameters agree with {header}")
