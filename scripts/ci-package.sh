#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CI for the .deb: builds it, installs it with apt as a user would, runs the installed programs
# from a directory outside the source tree (so only /usr/share/kvscope can supply the data),
# validates the desktop entry, the AppStream metainfo and the package (lintian: no errors), then
# removes it. Prints the seconds each step took. KVSCOPE_BUILD_DIR as in scripts/package.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive

timings=""
step() { # step NAME COMMAND...: runs one step, prints and records its time
  local name=$1 start end
  shift
  echo "== $name"
  start=$(date +%s.%N)
  "$@"
  end=$(date +%s.%N)
  timings+=$(awk -v s="$start" -v e="$end" -v n="$name" 'BEGIN { printf "%8.1f s  %s", e - s, n }')$'\n'
  echo "== $name: done"
}
fail() { echo "ci-package.sh: $*" >&2; exit 1; }

installed=0
cleanup() { # a failed check must not leave the package on the machine
  if [ "$installed" = 1 ]; then $SUDO apt-get remove -y kvscope >/dev/null || true; fi
  printf '%s' "$timings"
}
trap cleanup EXIT

tools() {
  # The package build needs the project's own dependencies when its build tree is missing.
  if [ ! -f "${KVSCOPE_BUILD_DIR:-build/dev}/CMakeCache.txt" ]; then bash scripts/install-deps.sh; fi
  $SUDO apt-get update -qq
  $SUDO apt-get install -y --no-install-recommends \
    lintian desktop-file-utils appstream dpkg-dev file
}

package() {
  deb=$root/$(bash scripts/package.sh | tail -n 1)
  [ -f "$deb" ] || fail "no .deb built"
  case $(basename "$deb") in kvscope_*_*.deb) ;; *) fail "unexpected name $deb" ;; esac
  # Only the programs, data and desktop files: no test suites, benchmarks or build helpers.
  if dpkg-deb --contents "$deb" | grep -E 'tst_|-tests$|bench|render-icon|\.a$|/include/'; then
    fail "build-only files in the package"
  fi
}

install_deb() {
  $SUDO apt-get install -y "$deb"
  installed=1
  [ "$(command -v kvscope-cli)" = /usr/bin/kvscope-cli ] || fail "kvscope-cli is not /usr/bin's"
  [ -x /usr/bin/kvscope ] || fail "/usr/bin/kvscope missing"
}

# The installed programs, started through PATH with no other catalog in reach: an empty HOME,
# no KVSCOPE_DATA_DIR or XDG_DATA_HOME.
run_installed() {
  env -u KVSCOPE_DATA_DIR -u XDG_DATA_HOME HOME="$work/home" "$@"
}

cli_checks() {
  run_installed kvscope-cli --version | tee version.txt
  grep -qx "kvscope-cli $(dpkg-query -W -f='${Version}' kvscope | cut -d- -f1)" version.txt ||
    fail "--version does not match the package"
  run_installed kvscope-cli calc --model llama-2-7b --gpu rtx-4090 --weights fp16 --context 2048 | tee calc.txt
  # The seed article's figure: 2 x 32 heads x 128 x 2 B x 32 layers = 512 KiB per token.
  grep -Eq '^  per token +512 KiB ' calc.txt || fail "calc does not show 512 KiB per token"
  run_installed kvscope-cli calc --json >calc.json
  grep -q '"bytes_per_token_per_gpu": 524288,' calc.json || fail "calc --json does not give 524,288 B per token"
  local shipped listed
  shipped=$(find "$root/models" -name '*.json' | wc -l)
  run_installed kvscope-cli list models --json >models.json
  listed=$(grep -c '"kvscope_id":' models.json)
  [ "$listed" -eq "$shipped" ] || fail "list models shows $listed of $shipped models"
  # The Japanese translation is compiled in: a Japanese chart title proves it loads.
  run_installed kvscope-cli export --chart vram --format svg --lang ja --out vram-ja.svg
  grep -q 'GPU ごとの VRAM 内訳' vram-ja.svg || fail "the Japanese chart title is missing"
}

png_ok() { # png_ok FILE: a real window screenshot, not an empty or tiny image
  local kind
  kind=$(file "$1")
  echo "$kind, $(stat -c %s "$1") bytes"
  [[ $kind == *"PNG image data, 1600 x 1000"* ]] || fail "$1 is not a 1600x1000 PNG"
  [ "$(stat -c %s "$1")" -gt 50000 ] || fail "$1 is only $(stat -c %s "$1") bytes"
}

gui_checks() {
  run_installed QT_QPA_PLATFORM=offscreen kvscope --screenshot shot.png
  run_installed QT_QPA_PLATFORM=offscreen kvscope --screenshot shot-ja.png --lang ja
  png_ok shot.png
  png_ok shot-ja.png
  ! cmp -s shot.png shot-ja.png || fail "the Japanese window looks the same as the English one"
  for size in 16 32 48 64 128 256; do
    file "/usr/share/icons/hicolor/${size}x${size}/apps/kvscope.png" |
      grep -q "PNG image data, $size x $size" || fail "no ${size}x${size} icon"
  done
}

validate_desktop() {
  desktop-file-validate /usr/share/applications/io.github.kvscope.kvscope.desktop
  appstreamcli validate --no-net /usr/share/metainfo/io.github.kvscope.kvscope.metainfo.xml
}

run_lintian() {
  # Errors fail the build; warnings and informational tags are printed for a person to read.
  lintian --fail-on error --display-info "$deb"
}

remove_deb() {
  $SUDO apt-get remove -y kvscope
  installed=0
  [ ! -e /usr/bin/kvscope ] && [ ! -e /usr/bin/kvscope-cli ] || fail "programs left after removal"
  [ ! -e /usr/share/kvscope ] || fail "/usr/share/kvscope left after removal"
}

step "install tools" tools
step "build the .deb" package
step "install the .deb" install_deb
work=$(mktemp -d)
mkdir "$work/home"
cd "$work"
step "kvscope-cli from /usr/bin" cli_checks
step "kvscope --screenshot from /usr/bin" gui_checks
step "desktop-file-validate, appstreamcli" validate_desktop
cd "$root"
step "lintian" run_lintian
step "remove the package" remove_deb
rm -rf "$work"

echo "== ci-package.sh: $(basename "$deb") passed; seconds per step:"
