// SPDX-License-Identifier: GPL-3.0-or-later
// The behaviour every engine shares unless its module says otherwise, read from its catalog data.
#include "engines/engine_modules.h"

#include "kvscope/model/kv_cache.h"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace kvscope {

namespace {
// KV layers an offloading cache keeps on the GPU when the engine does not say: the layer being
// computed and the one being prefetched (transformers' OffloadedCache).
constexpr int64_t kDefaultResidentKvLayers = 2;
} // namespace

double EngineModule::overheadMiB(const Scenario& s) const
{
    return s.engine.runtimeOverheadMiB + s.engine.cudaGraphMiB + tensorParallelBufferMiB(s);
}

int64_t EngineModule::prefillChunkTokens(const Scenario& s) const
{
    const EngineProfile& e = s.engine;
    if (e.prefillChunkTokens > 0)
        return e.prefillChunkTokens;
    if (e.chunkedAboveContext > 0 && s.context > e.chunkedAboveContext &&
        e.longContextChunkTokens > 0)
        return e.longContextChunkTokens;
    return 0;
}

int64_t EngineModule::profiledTokens(const Scenario& s) const
{
    // Chunking engines size their buffers for the chunk (vLLM profiles max_num_batched_tokens,
    // llama.cpp reserves for n_ubatch); an engine without chunks runs each prompt whole.
    const EngineProfile& e = s.engine;
    if (const int64_t chunk = prefillChunkTokens(s); chunk > 0)
        return chunk;
    if (e.profileTokensFloor > 0)
        return std::max(s.context, e.profileTokensFloor);
    return s.context * s.batch;
}

int64_t EngineModule::sampledRows(const Scenario& s) const
{
    return s.engine.maxNumSeqs > 0 ? s.engine.maxNumSeqs : s.batch;
}

double EngineModule::samplerLogitCopies(const Scenario& s) const
{
    return s.engine.samplerLogitCopies;
}

int64_t EngineModule::gpuResidentKvLayers(const Scenario& s) const
{
    return s.engine.gpuResidentKvLayers > 0 ? s.engine.gpuResidentKvLayers
                                            : kDefaultResidentKvLayers;
}

// vLLM captures CUDA graphs unless --enforce-eager; llama.cpp has captured a decode step as one
// graph since April 2024 (ggml-org/llama.cpp#6766), and GGML_CUDA_DISABLE_GRAPHS=1 turns it off,
// which a scenario states as enforce_eager.
bool EngineModule::capturesCudaGraphs(const Scenario& s) const
{
    return !s.enforceEager;
}

// Launched eagerly, each layer also waits for whatever the host does per op: nothing more for
// llama.cpp's C++ or vLLM's --enforce-eager, PyTorch's Python dispatch for transformers (the
// engine's decode_step in engines.json).
bool EngineModule::cachesPrefixes(const Scenario& s) const
{
    return s.engine.prefixCache.sharing != EngineProfile::PrefixCache::Sharing::None &&
           s.prefixCaching.value_or(s.engine.prefixCache.onByDefault);
}

// vLLM and TGI hash whole blocks (vLLM: "only full blocks are cached"), and recompute the last
// prompt token even when all of it is cached, so that it has logits to sample from.
int64_t EngineModule::cachedPrefixTokens(const Scenario& s) const
{
    if (!cachesPrefixes(s))
        return 0;
    const int64_t shared = std::min(s.workload.sharedPrefixTokens, s.workload.promptTokens - 1);
    const int64_t block =
        s.engine.prefixCache.sharing == EngineProfile::PrefixCache::Sharing::Blocks
            ? std::max<int64_t>(1, s.engine.kvBlockTokens)
            : 1;
    return std::max<int64_t>(0, shared / block * block);
}

double EngineModule::layerOverheadUs(const Scenario& s) const
{
    const double launches = capturesCudaGraphs(s) ? s.efficiency.layerOverheadUs
                                                  : s.efficiency.layerOverheadEagerUs +
                                                        s.engine.pythonDispatchUsPerLayer;
    return launches + (s.gpu.hbm() ? s.engine.hbmLayerUs : 0.0);
}

double EngineModule::stepOverheadUs(const Scenario& s) const
{
    // Unified memory is Apple silicon in the catalog, where llama.cpp runs on Metal.
    return s.engine.stepOverheadUs + (s.gpu.unifiedMemory ? s.engine.metalStepOverheadUs : 0.0);
}

double EngineModule::moeLayerUs(const Scenario& s) const
{
    if (s.model.moeLayers() == 0)
        return 0.0;
    const double metal = s.gpu.unifiedMemory ? s.engine.metalMoeLayerUs : 0.0;
    return (s.engine.moeLayerUs + metal) / s.moeKernelShare();
}

double EngineModule::forwardOverheadUs(const Scenario& s) const
{
    return stepOverheadUs(s) + double(s.model.moeLayers()) * moeLayerUs(s);
}

KvShape EngineModule::kvShape(const Scenario& s) const
{
    return kvShapeKeepingState(s.model, recurrentStateInFloat32());
}

KvShape EngineModule::kvShapeWithDrafters(const Scenario& s) const
{
    KvShape shape = EngineModule::kvShape(s); // the model's own, not an override's
    shape.layers += mtpLayersLoaded(s);
    if (const ModelSpec* draft = s.speculative.draft.get()) {
        shape.draftLayers = draft->layers;
        shape.draftKvHeads = draft->kvHeads;
        shape.draftHeadDim = draft->headDim;
    } else if (s.speculative.eagle != EagleMethod::Off && draftsWithEagle()) {
        // The head's one layer attends as the model's layers do (its KV heads and head_dim).
        shape.draftLayers = 1;
        shape.draftKvHeads = s.model.kvHeads;
        shape.draftHeadDim = s.model.headDim;
    }
    return shape;
}

bool EngineModule::computesOnHost(const Scenario&) const
{
    return false; // what stays in host RAM is copied over the host link to be computed
}

bool EngineModule::offloadsExperts() const
{
    return false; // vLLM and transformers keep every expert on the GPU (or offload whole weights)
}

int64_t EngineModule::expertLayersOnHost(const Scenario&) const
{
    return 0;
}

WeightPlacement EngineModule::placeWeights(const Scenario& s, const ParameterCount&,
                                           double totalBytes) const
{
    WeightPlacement placed;
    placed.gpuBytes = totalBytes * gpuLayerShare(s);
    placed.hostBytes = totalBytes - placed.gpuBytes;
    return placed;
}

// vLLM splits all free memory into blocks of block_size tokens of every layer's KV; llama.cpp
// allocates n_ctx (padded to its block) up front. Both are reported for every engine, so a user
// can hold either log against the plan.
EngineFigures EngineModule::startupFigures(const Scenario& s, const KvFigures& kv,
                                           std::optional<double> kvRoom) const
{
    EngineFigures f;
    f.kvBufferBytes = kv.allocatedBytes * double(s.gpuCount);
    f.gpuLayers = int64_t(std::llround(gpuLayerShare(s) * double(s.model.layers)));
    if (!kvRoom) {
        f.kvOnGpu = false;
        return f;
    }
    const double room = *kvRoom;
    const int64_t block = s.engine.kvBlockTokens;
    // One block of every layer's KV (kv's per-layer figure is already this GPU's heads).
    const double blockBytes = kv.bytesPerTokenPerLayer * double(kv.layers) * double(block);
    f.kvBlocks = blockBytes > 0 ? int64_t(std::floor(std::min(room / blockBytes, 1e15))) : 0;
    f.kvCacheTokens = int64_t(std::min(double(f.kvBlocks) * double(block), 1e15));
    f.maxConcurrency = double(f.kvCacheTokens) / double(s.context);
    if (kv.stateBytesPerSequence > 0) {
        // A hybrid model's sequences each hold their state besides their tokens' KV.
        const double perSequence =
            blockBytes / double(block) * double(roundUpToBlock(s.context, block)) +
            kv.stateBytesPerSequence;
        f.maxConcurrency = std::min(room / perSequence, 1e15);
    }
    return f;
}

bool EngineModule::loadsOriginalAs(const WeightFormat& weights) const
{
    return weights.id == "fp16" || weights.id == "bf16" || weights.id == "fp32";
}

LaunchCommand EngineModule::launchCommand(const Scenario& s) const
{
    LaunchCommand c;
    c.notes.push_back("kvscope knows no launch command for the engine \"" + s.engine.name + "\".");
    return c;
}

const EngineModule& engineModule(const EngineProfile& engine)
{
    switch (engine.family) {
    case EngineFamily::Vllm:
        return engines::vllm();
    case EngineFamily::LlamaCpp:
        return engines::llamaCpp();
    case EngineFamily::Tgi:
        return engines::tgi();
    case EngineFamily::Sglang:
        return engines::sglang();
    case EngineFamily::Transformers:
    case EngineFamily::Other:
        break;
    }
    return engines::transformers();
}

} // namespace kvscope
