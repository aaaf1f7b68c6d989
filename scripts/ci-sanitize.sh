#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CI: one clang-14 build (the sanitize preset: ASan + UBSan, no window) gives both the Qt-free
# test suites and the seven libFuzzer targets, so CI compiles the sanitized code once, not twice.
# The GUI suites under ASan stay in scripts/ci-asan.sh, run by hand. The property sweep checks
# every third GPU and weight format here, as in ci-asan.sh (KVSCOPE_PROPERTY_THIN=3).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/install-fuzz-deps.sh
cmake --preset sanitize
cmake --build --preset sanitize --parallel "${KVSCOPE_BUILD_JOBS:-2}"
KVSCOPE_PROPERTY_THIN="${KVSCOPE_PROPERTY_THIN:-3}" ctest --preset sanitize
# The fuzzers from the same build (nothing left to compile), 30 s each, two at a time: a smoke
# run on every landing (CI stays under half an hour); the long runs are fuzz.sh by hand.
KVSCOPE_FUZZ_PRESET=sanitize KVSCOPE_FUZZ_PARALLEL=2 bash scripts/fuzz.sh 30
