#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Checks that the files in scripts/formatted-files.txt match .clang-format (clang-format 14).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang-format >/dev/null; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get install -y --no-install-recommends clang-format
fi
mapfile -t files < <(grep -v '^#' scripts/formatted-files.txt | grep -v '^$')
clang-format --dry-run --Werror "${files[@]}"
echo "check-format: ${#files[@]} files match .clang-format"
