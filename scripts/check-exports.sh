#!/usr/bin/env bash
# check-exports.sh HEADER LIBRARY [GENERATED_HEADER]
#
# The shipping checks of `make check-abi`:
#   1. every function declared in HEADER is exported by LIBRARY, and every exported symbol
#      is declared in HEADER;
#   2. LIBRARY exports nothing but rx_ functions (no Swift symbol, no data, no other name);
#   3. LIBRARY depends only on system libraries (no libswift*, libdispatch, libFoundation);
#   4. with GENERATED_HEADER (the header swiftc emits for the @c exports), every function of
#      HEADER is declared there too, so the compile check of HEADER against it covers it.
# Prints one line per problem and exits 1 if there is any.
set -euo pipefail

header=$1 lib=$2 gen=${3:-}
CLANG=${CLANG:-clang}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
problem() { echo "check-exports: $*" >&2; fail=1; }

# Functions the header declares, from clang's AST (not a regex over the text); static inline
# helpers are the header's own code, not exports.
printf '#include "%s"\n' "$(realpath "$header")" >"$tmp/h.c"
"$CLANG" -fsyntax-only -fno-color-diagnostics -Xclang -ast-dump "$tmp/h.c" >"$tmp/ast" 2>"$tmp/ast.err" ||
  { cat "$tmp/ast.err" >&2; echo "check-exports: $header does not compile" >&2; exit 1; }
grep -v "FunctionDecl .*' static\( inline\)\?$" "$tmp/ast" |
  sed -n "s/^[|\` -]*FunctionDecl .* \(rx_[A-Za-z0-9_]*\) '.*/\1/p" | sort -u >"$tmp/declared"
ndecl=$(wc -l <"$tmp/declared")
((ndecl > 0)) || problem "found no rx_ function in $header"

# Everything the library defines in its dynamic symbol table.
nm -D --defined-only "$lib" >"$tmp/nm" || { echo "check-exports: nm failed on $lib" >&2; exit 1; }
# Symbol-version definition nodes (type A, e.g. LIBRXC_0) are not symbols of the API.
awk '$2 != "A" { n = $3; sub(/@.*/, "", n); print $2, n }' "$tmp/nm" | sort -u >"$tmp/defined"
awk '{ print $2 }' "$tmp/defined" | sort -u >"$tmp/exported"
nexp=$(wc -l <"$tmp/exported")

while read -r type name; do
  if [[ $name != rx_* ]]; then
    problem "$lib exports a symbol outside rx_: $name ($type)"
  elif [[ $type != T ]]; then
    problem "$lib exports $name as '$type', not as a function (T)"
  fi
done <"$tmp/defined"

comm -23 "$tmp/declared" "$tmp/exported" >"$tmp/unexported"
comm -13 "$tmp/declared" "$tmp/exported" >"$tmp/undeclared"
if [[ -s $tmp/unexported ]]; then
  problem "declared in $header but not exported by $lib ($(wc -l <"$tmp/unexported")):"
  sed 's/^/    /' "$tmp/unexported" >&2
fi
if [[ -s $tmp/undeclared ]]; then
  problem "exported by $lib but not declared in $header ($(wc -l <"$tmp/undeclared")):"
  sed 's/^/    /' "$tmp/undeclared" >&2
fi

# The generated header must declare every exported function, or the drift check misses it.
if [[ -n $gen ]]; then
  if [[ ! -f $gen ]]; then
    problem "$gen is missing (the RxC target emits it with -emit-clang-header-path)"
  else
    grep -o '\brx_[A-Za-z0-9_]*[[:space:]]*(' "$gen" | sed 's/[[:space:]]*($//' | sort -u >"$tmp/generated"
    comm -12 "$tmp/declared" "$tmp/exported" | comm -23 - "$tmp/generated" >"$tmp/ungenerated"
    if [[ -s $tmp/ungenerated ]]; then
      problem "exported but missing from $gen, so not checked against the Swift signature ($(wc -l <"$tmp/ungenerated")):"
      sed 's/^/    /' "$tmp/ungenerated" >&2
    fi
  fi
fi

# Only system libraries.
ldd "$lib" >"$tmp/ldd" 2>&1 || { cat "$tmp/ldd" >&2; problem "ldd failed on $lib"; }
allowed='^(linux-vdso\.so|linux-gate\.so|ld-linux[^ ]*\.so|/lib[^ ]*/ld-linux[^ ]*\.so|libc\.so|libm\.so|libstdc\+\+\.so|libgcc_s\.so|libpthread\.so|libdl\.so|librt\.so|libutil\.so|libatomic\.so)'
while read -r dep _; do
  [[ -z $dep ]] && continue
  [[ $dep =~ $allowed ]] || problem "$lib depends on a non-system library: $dep"
done < <(sed 's/^[[:space:]]*//' "$tmp/ldd")
if grep -q 'not found' "$tmp/ldd"; then problem "$lib has unresolved dependencies: $(grep 'not found' "$tmp/ldd" | tr -s ' \t' ' ')"; fi

if ((fail)); then exit 1; fi
echo "check-exports: $ndecl functions declared, $nexp exported, all rx_, only system libraries"
