#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the libFuzzer targets (the `fuzz` preset: clang-14, ASan + UBSan) and runs each for
# SECONDS (default 60) on a temporary copy of its seed corpus in tests/fuzz/corpus, so nothing is
# written into the source tree. Prints every target's executions; fails if any target crashes.
#
#   bash scripts/fuzz.sh [SECONDS] [TARGET...]     # default: all nine targets, one after another
#   KVSCOPE_FUZZ_PARALLEL=2 nice -n 10 bash scripts/fuzz.sh 3600   # an hour each, two at a time
#   KVSCOPE_FUZZ_ARGS="-max_len=512" bash scripts/fuzz.sh         # more libFuzzer flags
#   KVSCOPE_FUZZ_PRESET=sanitize bash scripts/fuzz.sh             # build/sanitize's targets
#
# A crashing input is kept in build/fuzz/artifacts/; replay it with build/fuzz/bin/TARGET FILE
# (build/sanitize/ with KVSCOPE_FUZZ_PRESET=sanitize).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
shift || true
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
  targets=(fuzz_model_config fuzz_scenario fuzz_gpu fuzz_cli_args fuzz_gguf fuzz_startup_log
           fuzz_speed_bands fuzz_validation_cases fuzz_node_links)
fi
parallel="${KVSCOPE_FUZZ_PARALLEL:-1}"
jobs="${KVSCOPE_BUILD_JOBS:-2}"
# Any preset with KVSCOPE_BUILD_FUZZERS on; CI passes `sanitize`, whose build it has just tested.
preset="${KVSCOPE_FUZZ_PRESET:-fuzz}"
build="build/$preset"

bash scripts/install-fuzz-deps.sh

cmake --preset "$preset"
cmake --build --preset "$preset" --parallel "$jobs" --target "${targets[@]}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
artifacts="$build/artifacts"
mkdir -p "$artifacts"

run_target() {
  local target="$1"
  local corpus="$work/$target"
  cp -r "tests/fuzz/corpus/$target" "$corpus"
  local dict=()
  if [ -f "tests/fuzz/$target.dict" ]; then dict=("-dict=tests/fuzz/$target.dict"); fi
  # -timeout: one input taking 30 s is a hang worth a failure, not a slow unit.
  "$build/bin/$target" -max_total_time="$seconds" -print_final_stats=1 -timeout=30 \
    -artifact_prefix="$artifacts/$target-" "${dict[@]}" ${KVSCOPE_FUZZ_ARGS:-} "$corpus" \
    >"$work/$target.log" 2>&1
}

pids=()
names=()
for target in "${targets[@]}"; do
  echo "fuzzing $target for ${seconds} s"
  run_target "$target" &
  pids+=("$!")
  names+=("$target")
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do sleep 1; done
done

failed=0
total=0
printf '\n%-20s %15s %10s %s\n' target executions "exec/s" result
for i in "${!pids[@]}"; do
  target="${names[$i]}"
  status=0
  wait "${pids[$i]}" || status=$?
  log="$work/$target.log"
  runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
  speed="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)"
  result="ok"
  if [ "$status" -ne 0 ]; then
    result="FAILED (exit $status, log in $artifacts/$target.log)"
    cp "$log" "$artifacts/$target.log"
    grep -E '^(==[0-9]+==ERROR|SUMMARY|kvscope fuzz check failed|.*runtime error)' "$log" | head -5 || true
    failed=1
  fi
  printf '%-20s %15s %10s %s\n' "$target" "${runs:-?}" "${speed:-?}" "$result"
  total=$((total + ${runs:-0}))
done
printf '%-20s %15s\n' total "$total"
exit "$failed"
