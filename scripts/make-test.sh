#!/usr/bin/env bash
# make-test.sh — the steps of `make test`, in order, each run even when an earlier one
# failed; exits 1 if any failed. The last line printed is always "N passed, N failed":
# the tests of both C harness runs, of XCTest and of the Python package's pytest suite
# (an xfailed test counts as passed), plus one failure for each other step that failed
# (a build, the ABI check, the install check, the Python cdef drift check) or a run that
# gave no count.
set -uo pipefail
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}
M=("$MAKE" --no-print-directory)
LOGS=build/logs
mkdir -p "$LOGS"
rm -f "$LOGS"/check-generated.log "$LOGS"/ctest.log "$LOGS"/ctest-valgrind.log "$LOGS"/cpp-test.log "$LOGS"/xctest.log "$LOGS"/python-test.log

failed_steps=()
notes=()
passed=0
failed=0

step() { # step NAME COMMAND...
  local name=$1 t0 rc
  shift
  t0=$(date +%s)
  echo "==== $name"
  "$@"
  rc=$?
  local dt=$(($(date +%s) - t0))
  if ((rc == 0)); then
    echo "==== $name: ok (${dt} s)"
  else
    echo "==== $name: FAILED (exit status $rc, ${dt} s)"
    failed_steps+=("$name")
  fi
  return $rc
}

# harness_count NAME LOG STATUS: adds the "N passed, N failed" of a harness run.
harness_count() {
  local name=$1 log=$2 rc=$3 line p f
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" 2>/dev/null | tail -n 1)
  if [[ -n $line ]]; then
    p=${line%% passed*}
    f=${line#*passed, }
    f=${f%% failed*}
    passed=$((passed + p))
    failed=$((failed + f))
    # A run that failed with every test passing (e.g. valgrind errors in the runner itself).
    if ((rc != 0 && f == 0)); then failed=$((failed + 1)); fi
    notes+=("$name $p/$f")
  else
    failed=$((failed + 1))
    notes+=("$name: no result")
  fi
}

step build "${M[@]}" all
build_rc=$?
((build_rc == 0)) || failed=$((failed + 1))

if ((build_rc == 0)); then
  step check-abi "${M[@]}" NO_SWIFT_BUILD=1 check-abi || { failed=$((failed + 1)); notes+=("check-abi FAILED"); }
else
  notes+=("build FAILED")
fi

step check-generated "${M[@]}" check-generated
harness_count check-generated "$LOGS"/check-generated.log $?

step xctest "${M[@]}" xctest
rc=$?
line=$(grep -E 'Executed [0-9]+ tests?, with [0-9]+ failures?' "$LOGS"/xctest.log 2>/dev/null | tail -n 1)
if [[ -n $line ]]; then
  n=$(sed -E 's/.*Executed ([0-9]+) tests?.*/\1/' <<<"$line")
  f=$(sed -E 's/.*with ([0-9]+) failures?.*/\1/' <<<"$line")
  passed=$((passed + n - f))
  failed=$((failed + f))
  ((rc != 0 && f == 0)) && failed=$((failed + 1))
  notes+=("xctest $((n - f))/$f")
else
  failed=$((failed + 1))
  notes+=("xctest: no result")
fi

if ((build_rc == 0)); then
  step c-harness "${M[@]}" NO_SWIFT_BUILD=1 ctest
  harness_count c-harness "$LOGS"/ctest.log $?
  step c-harness-valgrind "${M[@]}" NO_SWIFT_BUILD=1 ctest-valgrind
  harness_count c-harness-valgrind "$LOGS"/ctest-valgrind.log $?
  step check-ffi "${M[@]}" NO_SWIFT_BUILD=1 check-ffi
  harness_count check-ffi "$LOGS"/check-ffi.log $?
  step cpp "${M[@]}" NO_SWIFT_BUILD=1 cpp-test
  harness_count cpp "$LOGS"/cpp-test.log $?
  step docs "${M[@]}" NO_SWIFT_BUILD=1 docs || { failed=$((failed + 1)); notes+=("docs FAILED"); }
  step install-check "${M[@]}" NO_SWIFT_BUILD=1 install-check || { failed=$((failed + 1)); notes+=("install-check FAILED"); }
  # The Python package: the cdef drift check, then pytest (its summary line is counted).
  step python "${M[@]}" NO_SWIFT_BUILD=1 python-test
  rc=$?
  line=$(grep -E '^=*[ ]*[0-9]+ (passed|failed|xfailed|errors?|skipped)' "$LOGS"/python-test.log 2>/dev/null | tail -n 1)
  if [[ -n $line ]]; then
    count() { local n; n=$(grep -oE "[0-9]+ $1\b" <<<"$line" | head -n 1 | cut -d' ' -f1); echo "${n:-0}"; }
    p=$(($(count passed) + $(count xfailed)))
    f=$(($(count failed) + $(count 'errors?')))
    passed=$((passed + p))
    failed=$((failed + f))
    # a failure outside the tests (the drift check) or a non-zero pytest exit with none failed
    ((rc != 0 && f == 0)) && failed=$((failed + 1))
    xf=$(count xfailed)
    notes+=("python $p/$f$( ((xf > 0)) && echo " (of which $xf xfailed)")")
  else
    failed=$((failed + 1))
    notes+=("python: no result")
  fi
  # The event-loop adapters and the GTK 4 gallery under Xvfb (mk/gtk.mk); skipped, and said
  # so, only where its packages cannot be installed.
  step gtk-test "${M[@]}" NO_SWIFT_BUILD=1 gtk-test
  harness_count gtk-test "$LOGS"/gtk-test.log $?
  grep -q '^gtk-test: SKIPPED' "$LOGS"/gtk-test.log && notes+=("gtk-test SKIPPED (its packages could not be installed)")
else
  echo "==== check-abi, c-harness, c-harness-valgrind, check-ffi, cpp, docs, install-check, python, gtk-test: skipped (the library did not build)"
  failed=$((failed + 1))
  notes+=("c harness: not run")
fi

summary=$(IFS=';'; echo "${notes[*]:-}")
echo "# make test: ${summary//;/, }"
if ((${#failed_steps[@]})); then
  echo "# failed steps: ${failed_steps[*]}"
fi
echo "$passed passed, $failed failed"
((${#failed_steps[@]} == 0 && failed == 0))
