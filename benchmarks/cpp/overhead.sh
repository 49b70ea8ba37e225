#!/usr/bin/env bash
# overhead.sh C_BIN CPP_BIN — what rxc.hpp adds per event to the C ABI's own cost, in
# instructions (valgrind --tool=callgrind): each synchronous chain runs with N1 and N2
# events, through C callbacks (C_BIN) and through rxc.hpp lambdas (CPP_BIN); the cost per
# event is (Ir(N2) - Ir(N1)) / (N2 - N1), so setup and teardown cancel out. Prints a
# markdown table; exits 1 if rxc.hpp adds more than 10% on any per-event chain.
set -euo pipefail
c_bin=$1 cpp_bin=$2
N1=${OVERHEAD_N1:-20000}
N2=${OVERHEAD_N2:-120000}
ir() { # ir BIN WORKLOAD N -> total instructions
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" "$2" "$3" 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' | tail -n 1
}
per_event() { # per_event BIN WORKLOAD
  local a b
  a=$(ir "$1" "$2" "$N1")
  b=$(ir "$1" "$2" "$N2")
  echo $(((b - a) / (N2 - N1)))
}
echo "| chain (synchronous, per event) | C callbacks (Ir) | rxc.hpp lambdas (Ir) | rxc.hpp adds |"
echo "|---|---:|---:|---:|"
status=0
for w in range_map_filter range_scan subject_1_subscriber; do
  c=$(per_event "$c_bin" "$w")
  x=$(per_event "$cpp_bin" "$w")
  pct=$(awk -v c="$c" -v x="$x" 'BEGIN { printf "%+.1f%%", (x - c) * 100 / c }')
  echo "| $w | $c | $x | $pct |"
  awk -v c="$c" -v x="$x" 'BEGIN { exit !(x > c * 1.10) }' && status=1
done
# Not a per-event chain: one subscribe + dispose of a 4-operator chain (no 10% budget).
c=$(per_event "$c_bin" subscribe_dispose_4_operators)
x=$(per_event "$cpp_bin" subscribe_dispose_4_operators)
pct=$(awk -v c="$c" -v x="$x" 'BEGIN { printf "%+.1f%%", (x - c) * 100 / c }')
echo "| subscribe_dispose_4_operators (per subscribe + dispose; no budget) | $c | $x | $pct |"
exit $status
