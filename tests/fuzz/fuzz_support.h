// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What every fuzz target shares: the catalog (loaded once from the build's staged data), and the
// check run on whatever loads, so the evaluation is fuzzed along with the importers.

#include "kvscope/catalog/catalog.h"
#include "kvscope/scenario/scenario.h"
#include "kvscope/settings/scenario_defaults.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace kvscope::fuzz {

// The build's staged copy of models/, resources/gpus/ and resources/catalog/ (never the user's).
const Catalog& catalog();

// Prints `what` and aborts, so libFuzzer records the input as a crash.
[[noreturn]] void fail(const std::string& what);

// The catalog's default scenario (Llama 2 7B, FP16, RTX 4090, 2,048 tokens), made once.
const Scenario& defaultScenario();

// A small hash of the input that picks a variant scenario, so every input explores one more
// corner (GPU count, batch, context, placement, engine) without slowing the run.
uint32_t selector(const uint8_t* data, size_t size);

// Evaluates `s` as loaded and one variant of it, and fails unless each evaluates, every number
// is finite and non-negative (signed fields aside), and the JSON and text outputs build.
void evaluateChecked(const Scenario& s, uint32_t selector);

} // namespace kvscope::fuzz
