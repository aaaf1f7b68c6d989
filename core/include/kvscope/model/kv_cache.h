// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/base/limits.h"
#include "kvscope/model/model_spec.h"
#include "kvscope/model/storage_formats.h"

#include <cstdint>

namespace kvscope {

// What sizes a model's KV cache, read once from its ModelSpec. The functions below take it so that
// the MHA / GQA / MQA variants, built for every evaluation, need no copy of the model's names and
// layer list; each also takes the ModelSpec itself and reads its shape.
struct KvShape
{
    int64_t layers = 0;         // layers holding KV: num_hidden_layers, less a hybrid's
                                // recurrent-only layers
    int64_t windowedLayers = 0; // layers holding at most slidingWindow tokens
    int64_t slidingWindow = 0;  // window in tokens; 0 = no window
    int64_t kvHeads = 0;        // num_key_value_heads (plain attention)
    int64_t headDim = 0;        // head_dim (plain attention)
    int64_t kvLoraRank = 0;     // > 0: MLA, one latent of kvLoraRank + qkRopeHeadDim a token
    int64_t qkRopeHeadDim = 0;
    int64_t mlaValueWidth = 0;     // MLA: a separate V this wide per token beside the latent K
                                   // (llama.cpp before b7832); 0 = none
    int64_t recurrentLayers = 0;   // layers holding a fixed state per sequence (hybrid models)
    double stateBytesPerLayer = 0; // one such layer's state for one sequence, on one GPU alone
    // A draft model's layers in the same cache (speculative decoding): plain attention, every
    // layer holding every token.
    int64_t draftLayers = 0;
    int64_t draftKvHeads = 0;
    int64_t draftHeadDim = 0;

    bool isMla() const { return kvLoraRank > 0; }
};

// The state is kept as vLLM keeps it (conv state in the model's 16-bit dtype, the state matrix
// as RecurrentLayers::ssmBytes says) unless `stateInFloat32` (llama.cpp: both F32).
KvShape kvShapeKeepingState(const ModelSpec& model, bool stateInFloat32);
inline KvShape kvShape(const ModelSpec& model)
{
    return kvShapeKeepingState(model, false);
}
// The shape of withKvHeads(model, kvHeads), without copying the model.
KvShape kvShape(const ModelSpec& model, int64_t kvHeads);
// The same from the model's own shape, already read: plain attention at variantHeadDim(model).
inline KvShape variantShape(KvShape shape, const ModelSpec& model, int64_t kvHeads)
{
    shape.headDim = variantHeadDim(model);
    shape.kvLoraRank = 0;
    shape.qkRopeHeadDim = 0;
    shape.mlaValueWidth = 0;
    shape.kvHeads = kvHeads;
    return shape;
}

// KV heads one GPU holds under tensor parallelism over `gpus`: heads are split, and replicated
// when there are fewer KV heads than GPUs. An MLA latent is not split (every GPU holds it).
// (Inline, as the two below: the planner's search calls them millions of times a second.)
inline int64_t kvHeadsPerGpu(const KvShape& shape, int gpus)
{
    if (shape.isMla())
        return 1;  // one latent, replicated on every GPU
    if (gpus <= 1) // the common case, without a 64-bit division
        return shape.kvHeads > 1 ? shape.kvHeads : 1;
    const int64_t heads = (shape.kvHeads + gpus - 1) / gpus;
    return heads > 1 ? heads : 1;
}
int64_t kvHeadsPerGpu(const ModelSpec& model, int gpus);

// Bytes one token adds to one full-attention layer on one GPU:
// 2 (K and V) x KV heads x head_dim x bytes per element; MLA: (kv_lora_rank + qk_rope_head_dim
// + any separate V) x bytes per element.
inline double kvBytesPerTokenPerLayer(const KvShape& shape, const KvDtype& dtype, int gpus)
{
    if (shape.isMla())
        return double(shape.kvLoraRank + shape.qkRopeHeadDim + shape.mlaValueWidth) *
               dtype.bytesPerElement();
    return 2.0 * double(kvHeadsPerGpu(shape, gpus)) * double(shape.headDim) *
           dtype.bytesPerElement();
}
double kvBytesPerTokenPerLayer(const ModelSpec& model, const KvDtype& dtype, int gpus);

// Tokens a layer holds at `context`: windowed layers stop at their window.
int64_t tokensHeld(const ModelSpec& model, int64_t layer, int64_t context);

// Bytes one token adds to a draft model's layers on one GPU (its KV heads split as the model's).
inline double draftKvBytesPerToken(const KvShape& shape, const KvDtype& dtype, int gpus)
{
    if (shape.draftLayers <= 0)
        return 0.0;
    KvShape draft;
    draft.kvHeads = shape.draftKvHeads;
    draft.headDim = shape.draftHeadDim;
    return kvBytesPerTokenPerLayer(draft, dtype, gpus) * double(shape.draftLayers);
}

// Bytes of one sequence's recurrent state on one GPU: tensor parallel splits its heads.
inline double stateBytesPerSequence(const KvShape& shape, int gpus)
{
    return shape.recurrentLayers > 0
               ? shape.stateBytesPerLayer * double(shape.recurrentLayers) / double(gpus)
               : 0.0;
}

// Bytes of one sequence's KV cache at `context` tokens on one GPU, over all layers, with a hybrid
// model's recurrent state (a sequence holds it from its first token).
inline double kvBytesForContext(const KvShape& shape, const KvDtype& dtype, int gpus,
                                int64_t context)
{
    const int64_t windowed = shape.windowedLayers;
    const int64_t full = shape.layers - windowed;
    const int64_t held = context < shape.slidingWindow ? context : shape.slidingWindow;
    const double state = context > 0 ? stateBytesPerSequence(shape, gpus) : 0.0;
    return kvBytesPerTokenPerLayer(shape, dtype, gpus) *
               (double(full) * double(context) + double(windowed) * double(held)) +
           draftKvBytesPerToken(shape, dtype, gpus) * double(context) + state;
}
double kvBytesForContext(const ModelSpec& model, const KvDtype& dtype, int gpus, int64_t context);

// Bytes of one sequence's KV per token, summed over layers, before any window saturates.
double kvBytesPerToken(const KvShape& shape, const KvDtype& dtype, int gpus);
double kvBytesPerToken(const ModelSpec& model, const KvDtype& dtype, int gpus);

// The longest context whose single-sequence KV fits in `bytes`, rounded down to `blockTokens`.
// Capped at limits::maxContext (a fully windowed cache stops growing); *capped says so.
inline int64_t longestContextFitting(const KvShape& shape, const KvDtype& dtype, int gpus,
                                     double bytes, int64_t blockTokens, bool* capped = nullptr)
{
    if (capped)
        *capped = false;
    const double perLayer = kvBytesPerTokenPerLayer(shape, dtype, gpus);
    bytes -= stateBytesPerSequence(shape, gpus); // a sequence's state comes before its tokens
    if (!(bytes > 0) || !(perLayer > 0))
        return 0;
    if (shape.layers <= 0) { // a recurrent-only model: the state is all it holds
        if (capped)
            *capped = true;
        return limits::maxContext;
    }
    const int64_t windowed = shape.windowedLayers;
    const int64_t full = shape.layers - windowed;
    const double window = double(shape.slidingWindow);

    // KV(T) is piecewise linear: every layer grows until T reaches the window, then only the
    // full layers do. A draft model's layers (never windowed: validate()) grow with them.
    double tokens =
        bytes / (perLayer * double(shape.layers) + draftKvBytesPerToken(shape, dtype, gpus));
    if (windowed > 0 && tokens >= window) {
        const double atWindow = perLayer * double(shape.layers) * window;
        tokens = full > 0 ? window + (bytes - atWindow) / (perLayer * double(full))
                          : double(limits::maxContext);
    }
    // tokens >= 0 here, so the conversion's truncation is the floor.
    int64_t result = tokens >= double(limits::maxContext) ? limits::maxContext : int64_t(tokens);
    if (result >= limits::maxContext && capped)
        *capped = true;
    if (blockTokens > 1)
        result = result / blockTokens * blockTokens;
    return result;
}
int64_t longestContextFitting(const ModelSpec& model, const KvDtype& dtype, int gpus, double bytes,
                              int64_t blockTokens, bool* capped = nullptr);

// `tokens` rounded up to a multiple of `blockTokens` (paged allocation).
int64_t roundUpToBlock(int64_t tokens, int64_t blockTokens);

} // namespace kvscope
