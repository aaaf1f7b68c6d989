#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# clang-tidy (14) over the Qt-free core and the command line, with the checks in .clang-tidy: likely
# bugs, needless copies, and no function over 100 lines. Reads the compile commands of a configured
# build (KVSCOPE_BUILD_DIR, build/dev by default), without its precompiled header, which clang
# cannot read from GCC.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${KVSCOPE_BUILD_DIR:-build/dev}"
if ! command -v clang-tidy-14 >/dev/null; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get install -y --no-install-recommends clang-tidy-14
fi
if [ ! -f "$build/compile_commands.json" ]; then
  echo "check-tidy: no $build/compile_commands.json; configure first (cmake --preset dev)" >&2
  exit 2
fi
commands="$(mktemp -d)"
trap 'rm -rf "$commands"' EXIT
# -Werror is dropped too: it is the compiler's gate (GCC's flags, some unknown to clang); clang-tidy's
# own gate is the checks in .clang-tidy.
sed -E 's# -include [^ ]*cmake_pch\.hxx##g; s# -Winvalid-pch##g; s# -W(no-)?error(=[a-z-]+)?##g' \
  "$build/compile_commands.json" \
  >"$commands/compile_commands.json"
mapfile -t files < <(git ls-files 'core/*.cpp' 'app/cli/*.cpp' | grep -v 'core/json_pch.cpp')
# xargs fails when any file has findings; the findings file below is what decides.
printf '%s\n' "${files[@]}" |
  xargs -P "${KVSCOPE_TIDY_JOBS:-2}" -n 4 clang-tidy-14 --quiet -p "$commands" 2>/dev/null |
  tee "$commands/findings.txt" || true
if grep -q -E ': (error|warning):' "$commands/findings.txt"; then
  echo "check-tidy: findings above ($(grep -c -E ': (error|warning):' "$commands/findings.txt"))"
  exit 1
fi
echo "check-tidy: ${#files[@]} files clean"
