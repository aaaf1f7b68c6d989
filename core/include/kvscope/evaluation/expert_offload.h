// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// llama.cpp's expert offload (--n-cpu-moe N, --cpu-moe, -ot exps=CPU): the routed experts of
// some layers stay in host RAM and the CPU computes them, while attention, the shared experts,
// the router, norms, embeddings, the output layer and the KV cache stay on the GPU. Memory moves
// by the experts' stored bytes; a decode step reads only the experts its tokens route to, at host
// memory speed, handing the hidden state to the CPU and back in every such layer.

#include "kvscope/model/parameters.h"
#include "kvscope/model/weights.h"
#include "kvscope/scenario/scenario.h"

#include <cstdint>

namespace kvscope {

struct ExpertOffload
{
    int64_t layers = 0;     // MoE layers whose routed experts are in host RAM
    int64_t moeLayers = 0;  // MoE layers of the model (layers after first_k_dense_replace)
    double bytesPerGpu = 0; // the stored bytes of those experts, per GPU (all GPUs alike)
    double bytesTotal = 0;  // the same, all GPUs together
};

// The offload of `layers` MoE layers' experts, stored as `experts` says.
ExpertOffload expertOffload(const Scenario& scenario, int64_t layers, const ExpertStorage& experts);

// Routed-expert bytes the CPU reads in one forward of `tokens` tokens (one decode step of a
// batch), per GPU working at a time: the experts those tokens touch in the offloaded layers.
double expertBytesReadOnHost(const Scenario& scenario, const ExpertOffload& offload,
                             const ParameterCount& parameters, int64_t tokens, int tensorWays);

} // namespace kvscope
