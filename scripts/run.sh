#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the dependencies, builds a release and starts kvscope on the seed's scenario
# (Llama 2 7B, FP16, RTX 4090, 2,048 tokens). Extra arguments go to kvscope.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset release
cmake --build --preset release
exec ./build/release/bin/kvscope --model llama-2-7b --weights fp16 --gpu rtx-4090 --context 2048 "$@"
