// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The --n-cpu-moe a llama.cpp user should pass: the fewest layers whose routed experts must go to
// host RAM for the scenario to fit on its GPUs, i.e. the most MoE layers that keep their experts
// on the GPU at the chosen context and batch (what llama.cpp's --fit finds for -ngl).

#include "kvscope/scenario/scenario.h"

#include <cstdint>
#include <optional>

namespace kvscope {

struct ExpertFit
{
    int64_t nCpuMoe = 0;      // the --n-cpu-moe value (layers counted from 0, as llama.cpp)
    int64_t layersOnHost = 0; // MoE layers whose experts it moves to host RAM
    int64_t layersOnGpu = 0;  // MoE layers that keep theirs on the GPU
    // What the host RAM then lacks to hold the experts moved to it (and any KV there): the GPU
    // fits, the scenario still does not run. 0 when the host holds it or its size is unknown.
    double hostShortBytes = 0;
};

// Nothing when the engine cannot offload experts, the model has none, or the scenario does not
// fit even with every expert in host RAM. Searches from the scenario with --cpu-moe off.
std::optional<ExpertFit> fitExpertOffload(const Scenario& scenario);

} // namespace kvscope
