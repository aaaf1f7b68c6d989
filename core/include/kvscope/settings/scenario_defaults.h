// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The default scenario and the catalog entries that bring defaults with them (an engine, a GPU, a
// release): how every door puts them into a scenario, so they agree on every figure.

#include "kvscope/base/field_error.h"
#include "kvscope/catalog/catalog.h"
#include "kvscope/scenario/scenario.h"

#include <optional>

namespace kvscope {

// The seed article's scenario (Llama 2 7B, FP16, RTX 4090, 2,048 tokens, PCIe 4.0 x16, HF
// dynamic cache, KV on the GPU), or an error naming the catalog entry that is missing.
Expected<Scenario> defaultScenario(const Catalog& catalog);

// Puts an engine into a scenario along with the defaults it implies (its KV placement, its batch
// defaults for the scenario's GPU, its latest release).
void applyEngine(Scenario& scenario, const EngineProfile& engine);

// Re-derives the scenario's engine from the catalog as its release (engineVersion) and vLLM
// engine generation (vllmUseV1) have it, with the batch defaults for its GPU; an error names a
// release or generation the engine does not have. The KV placement and other settings stay.
std::optional<FieldError> applyEngineRelease(Scenario& scenario, const Catalog& catalog);

// Puts a GPU into a scenario; batch settings still at the engine's defaults for the old GPU
// follow to the new one's, settings the user changed stay.
void applyGpu(Scenario& scenario, GpuSpec gpu);
// The same, and the host link follows the GPU's own (an H100 SXM's platform is PCIe 5.0) unless
// it had been set apart from the old GPU's: how --gpu, the window, the planner and the matrix
// put a GPU in, so they agree on every figure.
void applyGpu(Scenario& scenario, GpuSpec gpu, const Catalog& catalog);

// A machine profile's fitted factors, and the profile itself so files and reports name it.
// Choosing another GPU, engine or release forgets the profile (its factors stay until reset).
void applyProfile(Scenario& scenario, const MachineProfile& profile);

} // namespace kvscope
