#!/usr/bin/env bash
# run.sh GTK_DIR IMAGE_DIR — the checks of `make gtk-test` (mk/gtk.mk builds what they use):
# the event-loop adapter headers compile alone, the adapters' test (adapters.c), the glib and
# libuv examples, and the GTK gallery's own test under Xvfb. One PASS/FAIL line per check;
# the last line is "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
gtk_dir=$1 images=$2
CC=${CC:-cc} CXX=${CXX:-g++} PKG_CONFIG=${PKG_CONFIG:-pkg-config}
passed=0 failed=0
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

check() { # check NAME COMMAND...: passes when COMMAND exits 0 (its output shown when it fails)
  local name=$1
  shift
  if "$@" >"$out/log" 2>&1; then
    echo "PASS $name"
    passed=$((passed + 1))
  else
    echo "FAIL $name"
    tail -n 20 "$out/log" | sed 's/^/    /'
    failed=$((failed + 1))
  fi
}

# Each header alone, warnings as errors, as C11 and as C++11 (uv.h needs POSIX types).
header_alone() { # header_alone HEADER PKG
  local flags
  flags=$($PKG_CONFIG --cflags "$2") || return 1
  printf '#include "%s"\nint main(void) { return 0; }\n' "$1" >"$out/alone.c"
  $CC -std=c11 -D_POSIX_C_SOURCE=200809L -pedantic -Wall -Wextra -Werror -fsyntax-only -Iinclude $flags "$out/alone.c" &&
    $CXX -x c++ -std=c++11 -pedantic -Wall -Wextra -Werror -fsyntax-only -Iinclude $flags "$out/alone.c"
}
check "rxc-uv.h compiles alone (C11 and C++11, -Wall -Wextra -pedantic -Werror)" header_alone rxc-uv.h libuv
check "rxc-glib.h compiles alone (C11 and C++11, -Wall -Wextra -pedantic -Werror)" header_alone rxc-glib.h glib-2.0
check "examples-c/glib.c: run loops in two GLib contexts, live objects back to start" timeout 60 build/examples/glib
check "examples-c/libuv.c: a run loop in a libuv loop on another thread, live objects back to start" \
  timeout 60 build/examples/libuv

# counts_of LOG STATUS NAME: adds the "N passed, N failed" a program printed.
counts_of() {
  local line p f
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
  if [[ -z $line ]]; then
    echo "FAIL $3 gave no result (exit status $2)"
    failed=$((failed + 1))
    return
  fi
  p=${line%% passed*}
  f=${line#*passed, }
  f=${f%% failed*}
  passed=$((passed + p))
  failed=$((failed + f))
  if (($2 != 0 && f == 0)); then
    echo "FAIL $3 exited with status $2"
    failed=$((failed + 1))
  fi
}

timeout 60 "$gtk_dir"/adapters 2>&1 | tee "$out/adapters.log"
counts_of "$out/adapters.log" $? "the adapters' test"

# The gallery: a window under Xvfb, software rendering, no accessibility bus.
echo "gtk-gallery: $(ls "$images" | grep -c '^photo-') photos in $images"
GSK_RENDERER=cairo GDK_BACKEND=x11 GTK_A11Y=none NO_AT_BRIDGE=1 \
  timeout 180 xvfb-run -a -s "-screen 0 1280x800x24" \
  "$gtk_dir"/gtk-gallery --test "$images" "$gtk_dir"/screenshot.png 2>&1 | tee "$out/gallery.log"
counts_of "$out/gallery.log" $? "gtk-gallery --test"
echo "$passed passed, $failed failed"
((failed == 0))
