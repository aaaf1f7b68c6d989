#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Checks that the core's layers include only downwards: a file in core/src/<layer>/ or
# core/include/kvscope/<layer>/ may include its own layer and the layers listed before it in
# core/CMakeLists.txt (KVSCOPE_CORE_LAYERS), never one after it, and no Qt header at all.
# Exits 1 and names each upward include; `--root DIR` checks another tree (the test plants one).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ "${1:-}" = "--root" ]; then root="$2"; fi
cd "$root"

mapfile -t layers < <(sed -n '/^set(KVSCOPE_CORE_LAYERS/,/^)/p' core/CMakeLists.txt |
  sed -n 's/^  \([a-z]*\).*/\1/p')
if [ "${#layers[@]}" -lt 2 ]; then
  echo "check-layers: no KVSCOPE_CORE_LAYERS list in core/CMakeLists.txt" >&2
  exit 2
fi
declare -A rank
for i in "${!layers[@]}"; do rank[${layers[$i]}]=$i; done

setLayer() { # sets `layer`: the core file's folder under core/src/ or core/include/kvscope/
  local rel="${1#core/src/}"
  rel="${rel#core/include/kvscope/}"
  layer="${rel%%/*}"
}

failures=0
checked=0
mapfile -t files < <(find core/src core/include/kvscope -type f \( -name '*.h' -o -name '*.cpp' \) |
  sort)
for file in "${files[@]}"; do
  setLayer "$file"
  if [ -z "${rank[$layer]+x}" ]; then
    echo "check-layers: $file is in no layer (put it in one of: ${layers[*]})"
    failures=$((failures + 1))
  else
    checked=$((checked + 1))
  fi
done

# Every include of every file in one grep (one process, not two a file): file:line:header.
while IFS=: read -r file line target; do
  setLayer "$file"
  [ -z "${rank[$layer]+x}" ] && continue # reported above
  if [[ "$target" == Q* ]]; then
    echo "check-layers: $file:$line includes the Qt header <$target>; core/ is Qt-free"
    failures=$((failures + 1))
    continue
  fi
  target="${target#kvscope/}"
  used="${target%%/*}"
  [ "$used" = "$target" ] && continue # a standard or same-folder header
  [ -z "${rank[$used]+x}" ] && continue # nlohmann/, not a layer
  if [ "${rank[$used]}" -gt "${rank[$layer]}" ]; then
    echo "check-layers: $file:$line ($layer) includes $target from $used, a layer above it"
    failures=$((failures + 1))
  fi
done < <(grep -n -H -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' "${files[@]}" |
  sed -E 's/^([^:]+):([0-9]+):[^<"]*[<"]([^>"]+)[>"].*/\1:\2:\3/')

if [ "$failures" -gt 0 ]; then
  echo "check-layers: $failures upward or misplaced includes (layers, bottom first: ${layers[*]})"
  exit 1
fi
echo "check-layers: $checked files include only downwards (${layers[*]})"
