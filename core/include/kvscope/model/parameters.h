// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/model/model_spec.h"

namespace kvscope {

// Parameter counts by role, computed from the dimensions. Embeddings and lm_head are apart
// because quantized formats often keep them at higher precision; experts are apart because
// all are resident but only the routed ones are read per token.
struct ParameterCount
{
    double embedding = 0;     // token embedding matrix
    double lmHead = 0;        // output projection (0 when tied to the embedding)
    double attention = 0;     // all layers' attention projections
    double denseMlp = 0;      // dense MLP layers (and shared experts)
    double experts = 0;       // all routed experts of all MoE layers
    double expertsActive = 0; // routed experts one token reads
    double other = 0;         // norms, router gates
    double vision = 0;        // a VLM's image encoder: resident, run once per image, not per token

    double total() const
    {
        return embedding + lmHead + attention + denseMlp + experts + other + vision;
    }
    double active() const
    {
        return embedding + lmHead + attention + denseMlp + expertsActive + other;
    }
    double body() const { return attention + denseMlp + experts + other; } // quantized part
};

// Counts for the model, from its dimensions alone, so a preset and the config.json it mirrors
// agree. A catalog's stated total (statedParameters) is only a cross-check, made by the tests.
ParameterCount countParameters(const ModelSpec& model);

} // namespace kvscope
