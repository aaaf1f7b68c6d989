#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs clang-14 and libFuzzer from Debian 12 packages if they are missing: the `fuzz` and
# `sanitize` presets build with them (scripts/fuzz.sh, scripts/ci-sanitize.sh).
set -euo pipefail
missing=()
for package in clang-14 libfuzzer-14-dev; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get -o DPkg::Lock::Timeout=600 update
  $SUDO apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "${missing[@]}"
fi
