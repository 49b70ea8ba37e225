#!/bin/sh
# Fails unless Tests/sweep/api.txt lists exactly the rx_ functions the library exports.
# Usage: check_api.sh librxc.so Tests/sweep/api.txt
set -eu
lib=$1 api=$2
tmp=${TMPDIR:-/tmp}/rxc-api.$$
trap 'rm -f "$tmp".*' EXIT
nm -D --defined-only "$lib" | awk '$2 == "T" && $3 ~ /^rx_/ { sub(/@.*/, "", $3); print $3 }' | sort -u > "$tmp.lib"
grep -v '^#' "$api" | awk 'NF { print $2 }' | sort -u > "$tmp.api"
missing=$(comm -23 "$tmp.lib" "$tmp.api")
stale=$(comm -13 "$tmp.lib" "$tmp.api")
if [ -n "$missing$stale" ]; then
  [ -z "$missing" ] || echo "api.txt: exported but not listed: $missing" | tr '\n' ' '
  [ -z "$stale" ] || echo "api.txt: listed but not exported: $stale" | tr '\n' ' '
  echo
  echo "regenerate: make sweep-api   (then review and commit Tests/sweep/api.txt)"
  exit 1
fi
echo "api.txt: $(wc -l < "$tmp.api") functions, matches $lib"
