#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs kvscope's build and test dependencies from Debian 12 packages (nothing else).
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends \
  ca-certificates cmake ninja-build g++ pkg-config \
  qt6-base-dev qt6-svg-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-translations-l10n \
  libqcustomplot-dev nlohmann-json3-dev libgl-dev \
  fonts-noto-cjk fonts-dejavu-core locales-all poppler-utils clang-format
