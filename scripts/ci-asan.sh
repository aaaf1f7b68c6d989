#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CI: the whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer (the asan preset).
# The property sweep checks every third GPU and weight format here (KVSCOPE_PROPERTY_THIN=3):
# still every model, context, batch and placement, at a ninth of the full sweep's cost.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset asan
cmake --build --preset asan --parallel "${KVSCOPE_BUILD_JOBS:-2}"
KVSCOPE_PROPERTY_THIN="${KVSCOPE_PROPERTY_THIN:-3}" ctest --preset asan
