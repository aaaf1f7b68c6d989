#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the kvscope .deb from the dev preset's build (CPack strips the binaries), so CI packages
# what scripts/test.sh just built instead of compiling a second time. Configures and builds that
# tree first when it is missing. KVSCOPE_BUILD_DIR=build/other packages another build tree.
# Needs dpkg-shlibdeps (dpkg-dev) to work out Depends. Prints the path of the .deb.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${KVSCOPE_BUILD_DIR:-build/dev}

command -v dpkg-shlibdeps >/dev/null ||
  { echo "package.sh: dpkg-shlibdeps not found: apt-get install dpkg-dev" >&2; exit 1; }
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake --preset dev -B "$build" >&2
fi
# A no-op after test.sh; otherwise brings the tree (and the generated icons and man pages) up to date.
cmake --build "$build" >&2

rm -f "$build"/package/kvscope_*.deb
cpack --config "$build/CPackConfig.cmake" -B "$build/package" >&2
deb=$(ls "$build"/package/kvscope_*.deb)
dpkg-deb --info "$deb" >&2
echo "$deb"
