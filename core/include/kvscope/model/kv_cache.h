// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/model/storage_formats.h"
#include "kvscope/model/model_spec.h"

#include <cstdint>

namespace kvscope {

// KV heads one GPU holds under tensor parallelism over `gpus`: heads are split, and replicated
// when there are fewer KV heads than GPUs. An MLA latent is not split (every GPU holds it).
int64_t kvHeadsPerGpu(const ModelSpec& model, int gpus);

// Bytes one token adds to one full-attention layer on one GPU:
// 2 (K and V) x KV heads x head_dim x bytes per element; MLA: (kv_lora_rank + qk_rope_head_dim)
// x bytes per element.
double kvBytesPerTokenPerLayer(const ModelSpec& model, const KvDtype& dtype, int gpus);

// Tokens a layer holds at `context`: windowed layers stop at their window.
int64_t tokensHeld(const ModelSpec& model, int64_t layer, int64_t context);

// Bytes of one sequence's KV cache at `context` tokens on one GPU, over all layers.
double kvBytesForContext(const ModelSpec& model, const KvDtype& dtype, int gpus, int64_t context);

// Bytes of one sequence's KV per token, summed over layers, before any window saturates.
double kvBytesPerToken(const ModelSpec& model, const KvDtype& dtype, int gpus);

// The longest context whose single-sequence KV fits in `bytes`, rounded down to `blockTokens`.
// Capped at limits::maxContext (a fully windowed cache stops growing); *capped says so.
int64_t longestContextFitting(const ModelSpec& model, const KvDtype& dtype, int gpus, double bytes,
                              int64_t blockTokens, bool* capped = nullptr);

// `tokens` rounded up to a multiple of `blockTokens` (paged allocation).
int64_t roundUpToBlock(int64_t tokens, int64_t blockTokens);

} // namespace kvscope
