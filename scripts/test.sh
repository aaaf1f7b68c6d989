#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the dependencies, builds kvscope with its tests and runs every test (offscreen).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# CI builds with warnings as errors; a developer's newer compiler may warn where CI's does not.
cmake --preset dev ${CI:+-DKVSCOPE_WERROR=ON}
cmake --build --preset dev
ctest --preset dev
