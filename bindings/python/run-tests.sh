#!/usr/bin/env bash
# run-tests.sh WHEEL: what `make python-test` runs (see mk/python.mk for the variables).
#   1. the cdef drift check (src/rxc/_cdef.h against include/rxc.h)
#   2. WHEEL installed into a fresh venv (pip only: no compiler), pytest against it in the
#      compiled mode (RXC_MODE=compiled: the fast path must load), its bundled librxc
#   3. pytest against the source tree in cffi's ABI mode (RXC_MODE=abi), build/lib's librxc
#   4. mypy --strict on the examples and the typed test file
# Ends with one line "N passed, N failed" adding up both pytest runs (and 1 failed for each
# other step that failed).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
wheel=$1
passed=0 failed=0 skipped=0

count() { # count WORD LINE
  local n
  n=$(grep -oE "[0-9]+ $1" <<<"$2" | head -n 1 | cut -d' ' -f1)
  echo "${n:-0}"
}
pytest_run() { # pytest_run NAME PYTHON ENV...: runs the suite, adds its counts
  local name=$1 py=$2 log line rc
  shift 2
  log=$(mktemp)
  echo "---- pytest: $name"
  (cd "$HERE" && env "$@" timeout 900 "$py" -m pytest $PYTEST_FLAGS tests) 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  line=$(grep -E '^=*[ ]*[0-9]+ (passed|failed|errors?|skipped)' "$log" | tail -n 1)
  rm -f "$log"
  passed=$((passed + $(count passed "$line") + $(count xfailed "$line")))
  failed=$((failed + $(count failed "$line") + $(count 'errors?' "$line")))
  skipped=$((skipped + $(count skipped "$line")))
  if [[ -z $line || ($rc -ne 0 && $(count failed "$line") -eq 0) ]]; then failed=$((failed + 1)); fi
}

"$PYTHON" "$HERE/gen_cdef.py" --check || failed=$((failed + 1))

rm -rf "$PY_WHEEL_VENV"
if "$PY" -m venv --without-pip "$PY_WHEEL_VENV" &&
  "$PY" -m pip --quiet --disable-pip-version-check --python "$PY_WHEEL_VENV/bin/python" install "$wheel" pytest; then
  pytest_run "the wheel ($(basename "$wheel")), compiled mode" "$PY_WHEEL_VENV/bin/python" \
    -u RXC_LIBRARY RXC_TEST_INSTALLED=1 RXC_MODE=compiled
else
  echo "python: cannot install $wheel into a fresh venv"
  failed=$((failed + 1))
fi

pytest_run "the source tree, ABI mode" "$PY" RXC_LIBRARY="$RXC_BUILT_LIBRARY" RXC_MODE=abi

if [[ -f $HERE/tests/typed_check.py ]]; then
  echo "---- mypy --strict"
  (cd "$HERE" && MYPYPATH=src "$PY" -m mypy --strict --no-incremental --cache-dir=/dev/null \
    examples tests/typed_check.py) || failed=$((failed + 1))
fi

echo "$passed passed, $failed failed, $skipped skipped (python: the wheel in compiled mode and the source in ABI mode)"
((failed == 0))
