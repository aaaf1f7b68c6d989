// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Figures of a scenario's KV cache that the engine modules size and report, below the rest of
// the evaluation so that engines and evaluation share them without including each other.

#include <cstdint>

namespace kvscope {

// KV cache of the scenario, per GPU. Bytes are exact (doubles hold integers up to 2^53).
struct KvFigures
{
    double bytesPerTokenPerLayer = 0; // one full-attention layer, one token, this GPU's heads
    double bytesPerToken = 0;         // all layers, one token (windowed layers included)
    double totalBytes = 0;            // all sequences at the scenario's context
    double allocatedBytes = 0;        // totalBytes rounded up to the engine's KV blocks
    double totalMhaBytes = 0;         // the same dimensions with MHA, GQA and MQA KV heads
    double totalGqaBytes = 0;
    double totalMqaBytes = 0;
    int64_t kvHeadsPerGpu = 0;        // KV heads this GPU holds (replicated when fewer than GPUs)
    int64_t sequencesPerGpu = 0;      // of the batch, those whose KV one GPU holds: all, or its
                                      // share under data-parallel attention
    int64_t layers = 0;               // layers holding KV as the engine lays them out: the
                                      // model's, and any MTP layers it loads
    double draftBytesPerToken = 0;    // of bytesPerToken, a draft model's layers
    int64_t windowedLayers = 0;       // layers holding at most slidingWindow tokens
    double stateBytesPerSequence = 0; // a hybrid model's recurrent state, one sequence (all of
                                      // its recurrent layers; in totalBytes, not bytesPerToken)
    int64_t tokensHeldPerWindowedLayer = 0; // min(context, window) for those layers
};

// What the engine itself reports about its KV cache at start-up, so a user can hold kvscope
// against the log: vLLM's "# GPU blocks", "GPU KV cache size: N tokens" and "Maximum concurrency
// for N tokens per request: Mx"; llama.cpp's "KV self size" / "KV buffer size" in MiB.
struct EngineFigures
{
    bool kvOnGpu = true;            // false: no layer's KV is in GPU memory (llama.cpp -ngl 0), so
                                    // the engine sizes no GPU KV pool: the next three are 0
    int64_t kvBlocks = 0;           // KV blocks the free memory holds (per GPU; all GPUs alike)
    int64_t kvCacheTokens = 0;      // kvBlocks x block size: tokens all sequences share
    double maxConcurrency = 0;      // kvCacheTokens / blocks of one sequence of the context
    double kvBufferBytes = 0;       // KV allocated for the configured context, all GPUs together
    int64_t gpuLayers = 0;          // layers on the GPUs (llama.cpp -ngl); the rest run on the CPU
    int64_t expertLayersOnHost = 0; // MoE layers whose routed experts are in host RAM
    int64_t moeLayers = 0;          // MoE layers of the model
};

} // namespace kvscope
