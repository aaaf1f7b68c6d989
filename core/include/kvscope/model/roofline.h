// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/model/model_spec.h"
#include "kvscope/model/parameters.h"

#include <cstdint>

namespace kvscope {

// FLOPs of attention for one new token at `context` (QK^T and AV over the held tokens):
// 2 x heads x (qk_dim + v_dim) per held token per layer. MLA attends in its latent space
// (weights absorbed), so qk_dim = kv_lora_rank + qk_rope_head_dim and v_dim = kv_lora_rank.
double attentionFlopsPerToken(const ModelSpec& model, int64_t context);

// FLOPs of a prefill of `tokens` (causal): 2 x active parameters per token, plus attention over
// each token's preceding (or windowed) tokens.
double prefillFlops(const ModelSpec& model, const ParameterCount& parameters, int64_t tokens);

// FLOPs of one decode step: 2 x active parameters x batch plus attention for each sequence.
double decodeFlops(const ModelSpec& model, const ParameterCount& parameters, int64_t batch,
                   int64_t context);

// Milliseconds to move `bytes` at `gbPerS` (SI GB/s); 0 bytes take 0 ms.
inline double transferMs(double bytes, double gbPerS)
{
    if (!(bytes > 0) || !(gbPerS > 0))
        return 0.0;
    return bytes / (gbPerS * 1e9) * 1e3;
}

// Decode step with the KV cache read from another tier: serially (transfer, then compute) or
// pipelined (layer N+1 crosses while layer N computes: max(gpu, transfer) plus one layer's share
// of the smaller, never more than serial).
double serialStepMs(double gpuMs, double transferMs);
double pipelinedStepMs(double gpuMs, double transferMs, int64_t layers);

} // namespace kvscope
