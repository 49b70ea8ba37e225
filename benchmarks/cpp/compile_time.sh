#!/usr/bin/env bash
# compile_time.sh CXX [RXCPP_INCLUDE] — the compile time of the translation units in
# benchmarks/cpp/compile (CXX -std=c++17 -O2 -c): the compiler's CPU time (user + sys), the
# least of COMPILE_REPS (default 3) runs each, so a loaded machine does not inflate it as
# it does wall time. Prints a markdown table. RXCPP_INCLUDE (RxCpp's Rx/v2/src) adds
# RxCpp's TU.
set -euo pipefail
cxx=$1 rxcpp_inc=${2:-}
dir=$(dirname "$0")/compile
reps=${COMPILE_REPS:-3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
best() { # best FILE FLAGS... -> seconds
  local f=$1 b=
  shift
  for ((i = 0; i < reps; i++)); do
    local t
    t=$( { TIMEFORMAT='%3U %3S'; time "$cxx" -std=c++17 -O2 "$@" -c "$f" -o "$out/x.o"; } 2>&1 | tail -n 1)
    b=$(awk -v t="$t" -v b="$b" 'BEGIN { split(t, p, " "); s = p[1] + p[2]; if (b == "" || s < b) b = s; printf "%.2f", b }')
  done
  echo "$b"
}
base=$(best "$dir/include_rxc_h.cpp" -Iinclude)
std=$(best "$dir/include_std.cpp" -Iinclude)
hpp=$(best "$dir/include_rxc_hpp.cpp" -Iinclude)
pipes=$(best "$dir/pipelines_rxc_hpp.cpp" -Iinclude)
echo "| translation unit ($cxx -std=c++17 -O2 -c, least of $reps) | CPU seconds | over rxc.h alone |"
echo "|---|---:|---:|"
echo "| includes rxc.h only | $base | |"
echo "| rxc.h and the standard headers rxc.hpp includes | $std | $(awk -v a="$std" -v b="$base" 'BEGIN { printf "%+.2f s", a - b }') |"
echo "| includes rxc.hpp | $hpp | $(awk -v a="$hpp" -v b="$base" 'BEGIN { printf "%+.2f s", a - b }') |"
echo "| rxc.hpp and four pipelines | $pipes | $(awk -v a="$pipes" -v b="$base" 'BEGIN { printf "%+.2f s", a - b }') |"
if [[ -n $rxcpp_inc ]]; then
  rx=$(best "$dir/pipelines_rxcpp.cpp" -I"$rxcpp_inc")
  echo "| RxCpp and the same four pipelines | $rx | $(awk -v a="$rx" -v b="$base" 'BEGIN { printf "%+.2f s", a - b }') |"
fi
