#!/usr/bin/env bash
# ensure-deps.sh PKG[:COMMAND_OR_FILE]...
#
# Makes sure the named Debian packages are installed. Each argument is a package name,
# optionally followed by ":probe", where probe is a command name or an absolute file path
# whose presence means the package is there (checked before asking dpkg, so a tool that came
# from elsewhere is accepted too). Missing packages are installed with one `apt-get update`
# and one `apt-get install -y` when running as root; otherwise the script prints a one-line
# message naming them and exits 1.
set -euo pipefail

missing=()
for spec in "$@"; do
  pkg=${spec%%:*}
  probe=
  [[ $spec == *:* ]] && probe=${spec#*:}
  if [[ -n $probe ]]; then
    if [[ $probe == /* ]]; then [[ -e $probe ]] && continue
    else command -v "$probe" >/dev/null 2>&1 && continue
    fi
  fi
  if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    continue
  fi
  missing+=("$pkg")
done

((${#missing[@]} == 0)) && exit 0

if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
  echo "librxc: missing system packages: ${missing[*]} (install them with: sudo apt-get install -y ${missing[*]})" >&2
  exit 1
fi

echo "librxc: installing ${missing[*]} with apt-get" >&2
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
  tail -n 20 "$log" >&2
  rm -f "$log"
  echo "librxc: apt-get could not install: ${missing[*]}" >&2
  exit 1
fi
rm -f "$log"
