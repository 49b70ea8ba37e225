#!/usr/bin/env bash
# ensure-deps.sh: makes sure $PYTHON (python3) can import cffi and pytest, installing them
# from PyPI only when the import fails (pip; on an externally managed Python, pip with
# --break-system-packages; as root without pip, Debian's python3-cffi and python3-pytest).
set -uo pipefail
PYTHON=${PYTHON:-python3}
"$PYTHON" -c "import cffi, pytest" 2>/dev/null && exit 0
echo "python: installing cffi and pytest for $PYTHON" >&2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$PYTHON" -m pip install --quiet cffi pytest >"$log" 2>&1 ||
  "$PYTHON" -m pip install --quiet --break-system-packages cffi pytest >>"$log" 2>&1 ||
  { [[ $(id -u) -eq 0 ]] && bash "$(dirname "$0")/../../scripts/ensure-deps.sh" python3-cffi python3-pytest >>"$log" 2>&1; }
if ! "$PYTHON" -c "import cffi, pytest" 2>/dev/null; then
  tail -n 20 "$log" >&2
  echo "python: cannot install cffi and pytest for $PYTHON" >&2
  exit 1
fi
