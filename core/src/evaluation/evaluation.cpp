// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/evaluation/evaluation.h"

#include "kvscope/engines/engine_module.h"
#include "kvscope/evaluation/expert_offload.h"
#include "kvscope/model/kv_cache.h"
#include "kvscope/model/roofline.h"
#include "kvscope/model/weights.h"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace kvscope {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * kMiB;
// Share of the model's layers each GPU holds (1 under tensor parallel, which splits heads).
double layerShare(const Scenario& s)
{
    return s.engine.layerSplit ? 1.0 / double(s.gpuCount) : 1.0;
}

double tensorTflops(const Scenario& s)
{
    // The matmuls run at the precision the weight format computes in, where the GPU has it.
    // (As string_views the few bytes are compared inline, without a call to memcmp.)
    if (std::string_view(s.weights.compute) == "fp8" && s.gpu.fp8Tflops > 0)
        return s.gpu.fp8Tflops;
    if (std::string_view(s.weights.compute) == "int8" && s.gpu.int8Tops > 0)
        return s.gpu.int8Tops;
    return s.gpu.fp16Tflops;
}

// What every part of one evaluation reads, worked out once: a planner's search evaluates
// millions of scenarios a second, and each part would otherwise look these up again.
struct Setup
{
    Setup(const Scenario& scenario)
        : s(scenario), engine(engineModule(scenario.engine)), shape(engine.kvShape(scenario)),
          variants(attentionVariants(scenario.model)),
          mha(variantShape(shape, scenario.model, variants.mha)),
          gqa(variantShape(shape, scenario.model, variants.gqa)),
          mqa(variantShape(shape, scenario.model, variants.mqa)), ways(tensorWays(scenario)),
          tflops(tensorTflops(scenario)), computesOnHost(engine.computesOnHost(scenario))
    {
    }
    const Scenario& s;
    const EngineModule& engine;
    const KvShape shape; // the model's own
    const AttentionVariants variants;
    const KvShape mha, gqa, mqa; // the same model with each attention kind's KV heads
    const int ways;              // tensorWays()
    const double tflops;         // tensorTflops()
    const bool computesOnHost;
};

// Achieved rate at which offloaded layers or KV are served: read by the CPU from host RAM where
// the engine computes there, otherwise copied over the host link.
double hostServeGBps(const Setup& x, double linkGBps)
{
    const Scenario& s = x.s;
    if (!x.computesOnHost)
        return linkGBps;
    if (s.gpu.unifiedMemory)
        return s.gpu.bandwidthGBps * s.efficiency.hbm;
    return s.hostBandwidthGBps() * s.efficiency.hostMemory;
}

// Peak transient activations on one GPU. The forward over `tokens` tokens holds the residual
// stream and its normed copy, plus the larger of the attention phase (q/k/v projections,
// attention output, its projection) and the MLP phase (gate and up projections, their product,
// the down projection's output), which are never alive together; then the FP32 logits of the
// sequences' last tokens. The sampler runs after the forward, on logits gathered over the whole
// vocabulary, and may peak higher. vLLM's logged peaks match this: Llama 3.1 8B profiled at
// 20,000 and 29,000 tokens peaks at 2.07 and 2.99 GiB, 110.6 KB per token from the forward
// (vllm-project/vllm#10517); Llama 3.2 3B at 2,048 tokens and 192 sequences peaks at 0.90 GiB,
// its sampler's (the Hugging Face cookbook log cited in resources/validation/capacity.json).
double activationPeakBytes(const Setup& x)
{
    const Scenario& s = x.s;
    const EngineModule& engine = x.engine;
    const int64_t tokens = engine.profiledTokens(s);
    const ModelSpec& m = s.model;
    const double n = double(x.ways);
    const double qDim = double(m.queryHeads) * double(m.isMla() ? m.vHeadDim : m.headDim);
    const double kvDim = m.isMla() ? double(m.kvLoraRank + m.qkRopeHeadDim)
                                   : 2.0 * double(m.kvHeads) * double(m.headDim);
    const int64_t denseWidth = m.intermediateSize > 0 ? m.intermediateSize : 4 * m.hiddenSize;
    double mlpWidth = double(denseWidth);
    if (m.isMoe()) {
        const int64_t expertWidth = m.expertIntermediate > 0 ? m.expertIntermediate : denseWidth;
        mlpWidth = double(expertWidth) * double(m.expertsPerToken + m.sharedExperts);
        if (m.denseLayers > 0)
            mlpWidth = std::max(mlpWidth, double(denseWidth));
    }
    const double attention = (qDim + kvDim) / n + qDim / n + double(m.hiddenSize);
    const double mlp = 3.0 * mlpWidth / n + double(m.hiddenSize);
    const double perToken = 2.0 * double(m.hiddenSize) + std::max(attention, mlp);
    const double forward = double(tokens) * perToken * s.efficiency.activationBytes;
    // vLLM's profiling run samples max_num_seqs rows of logits, whatever the real batch.
    const double logits = double(engine.sampledRows(s)) * double(m.vocabSize) * 4.0;
    return std::max(forward + logits, logits * engine.samplerLogitCopies(s));
}

KvFigures kvFigures(const Setup& x)
{
    const Scenario& s = x.s;
    KvFigures kv;
    const int n = x.ways;
    const double share = layerShare(s);
    kv.kvHeadsPerGpu = kvHeadsPerGpu(x.shape, n);
    kv.bytesPerTokenPerLayer = kvBytesPerTokenPerLayer(x.shape, s.kvDtype, n);
    kv.bytesPerToken = kvBytesPerToken(x.shape, s.kvDtype, n) * share;
    kv.totalBytes = kvBytesForContext(x.shape, s.kvDtype, n, s.context) * double(s.batch) * share;
    const int64_t allocated = roundUpToBlock(s.context, s.engine.kvBlockTokens);
    kv.allocatedBytes =
        kvBytesForContext(x.shape, s.kvDtype, n, allocated) * double(s.batch) * share;
    kv.windowedLayers = x.shape.windowedLayers;
    kv.stateBytesPerSequence = stateBytesPerSequence(x.shape, n) * share;
    kv.tokensHeldPerWindowedLayer =
        kv.windowedLayers > 0 ? std::min(s.context, x.shape.slidingWindow) : 0;
    auto total = [&](const KvShape& shape) {
        return kvBytesForContext(shape, s.kvDtype, n, s.context) * double(s.batch) * share;
    };
    kv.totalMhaBytes = total(x.mha);
    kv.totalGqaBytes = total(x.gqa);
    kv.totalMqaBytes = total(x.mqa);
    return kv;
}

VramSplit vramSplit(const Setup& x, const KvFigures& kv, double weightsPerGpu,
                    const ExpertOffload& experts)
{
    const Scenario& s = x.s;
    VramSplit v;
    v.capacityBytes = s.gpu.memoryGiB * kGiB * s.gpu.usableFraction;
    v.budgetBytes = v.capacityBytes * s.effectiveMemoryFraction();
    v.reservedBytes = v.capacityBytes - v.budgetBytes;
    const EngineModule& engine = x.engine;
    v.overheadBytes = engine.overheadMiB(s) * kMiB;
    v.activationBytes = activationPeakBytes(x);
    const double onGpu = gpuLayerShare(s);
    if (s.kvPlacement == KvPlacement::Gpu) {
        v.kvCacheBytes = kv.allocatedBytes * onGpu;
    } else {
        const int64_t resident = engine.gpuResidentKvLayers(s);
        const int64_t kvLayers = std::max<int64_t>(1, s.model.kvLayers());
        const double share = double(std::min(resident, kvLayers)) / double(kvLayers);
        v.kvCacheBytes = kv.allocatedBytes * share;
    }
    v.weightsBytes = weightsPerGpu * onGpu - experts.bytesPerGpu;
    v.expertsOffloadedBytes = experts.bytesPerGpu;
    if (s.offloadWeights) {
        const double room =
            std::max(0.0, v.budgetBytes - v.overheadBytes - v.activationBytes - v.kvCacheBytes);
        v.weightsBytes = std::min(v.weightsBytes, room);
    }
    v.weightsOffloadedBytes = weightsPerGpu - v.weightsBytes;
    v.freeBytes =
        v.budgetBytes - v.weightsBytes - v.kvCacheBytes - v.activationBytes - v.overheadBytes;
    v.fits = v.freeBytes >= 0;
    return v;
}

// Bytes of KV room, counted as if the whole model's KV had to fit there: a layer split holds only
// its share of the layers on each GPU, and layers left in host RAM keep their KV there.
double kvRoomForWholeModel(const Scenario& s, double freeBytes)
{
    const double onGpu = layerShare(s) * gpuLayerShare(s);
    if (onGpu <= 0)
        return 1e30; // nothing of the KV lives on the GPU: every count is capped
    return std::min(std::max(0.0, freeBytes) / onGpu, 1e30);
}

TokensFit tokensFit(const Setup& x, const VramSplit& v)
{
    const Scenario& s = x.s;
    TokensFit fit;
    fit.freeForKvBytes = v.budgetBytes - v.weightsBytes - v.activationBytes - v.overheadBytes;
    const double bytes = kvRoomForWholeModel(s, fit.freeForKvBytes);
    const int n = x.ways;
    const int64_t block = s.engine.kvBlockTokens;
    bool capped = false;
    auto fitting = [&](const KvShape& shape, double budget) {
        bool c = false;
        const int64_t t = longestContextFitting(shape, s.kvDtype, n, budget, block, &c);
        capped = capped || c;
        return t;
    };
    fit.gqaKvHeads = x.variants.gqa;
    const KvShape& model = x.shape;
    const KvShape& mha = x.mha;
    const KvShape& gqa = x.gqa;
    const KvShape& mqa = x.mqa;
    fit.model = fitting(model, bytes);
    fit.mha = fitting(mha, bytes);
    fit.gqa = fitting(gqa, bytes);
    fit.mqa = fitting(mqa, bytes);
    fit.mla = s.model.isMla() ? fit.model : -1;
    const double perSequenceBytes = bytes / double(s.batch);
    fit.perSequence = fitting(model, perSequenceBytes);
    fit.perSequenceMha = fitting(mha, perSequenceBytes);
    fit.perSequenceGqa = fitting(gqa, perSequenceBytes);
    fit.perSequenceMqa = fitting(mqa, perSequenceBytes);
    fit.capped = capped;
    const double perSequence =
        kvBytesForContext(model, s.kvDtype, n, roundUpToBlock(s.context, block));
    fit.maxConcurrency =
        perSequence > 0 ? int64_t(std::floor(std::min(bytes / perSequence, 1e15))) : 0;
    return fit;
}

// Achieved rate of the host link: PCIe payload after protocol overhead, bounded by host memory.
// Unified memory has no link: the "CPU RAM" is the GPU's own memory.
double hostLinkGBps(const Scenario& s)
{
    if (s.gpu.unifiedMemory)
        return s.gpu.bandwidthGBps * s.efficiency.hbm;
    const double link = s.pcie.laneGBps() * double(s.pcieLanes) * s.efficiency.pcieProtocol;
    return std::min(link, s.hostBandwidthGBps() * s.efficiency.hostMemory);
}

double diskGBps(const Scenario& s, const StorageTier& disk)
{
    return std::min(disk.readGBps * s.efficiency.disk, hostLinkGBps(s));
}

struct GpuStep
{
    double memoryMs = 0;
    double computeMs = 0;
    double weightsRead = 0;    // bytes of weights one step reads, per GPU working at a time
    double kvRead = 0;         // bytes of KV one step reads, the same way
    double gpuWeightsRead = 0; // the GPU's part of each
    double gpuKvRead = 0;
};

// One step on the GPU: weights read at the bandwidth the format's kernels reach, the share of
// the KV that is on the GPU at the plain rate, or the FLOPs if they take longer.
// `hostExpertsRead` bytes of the step's expert reads are the CPU's (experts in host RAM).
GpuStep gpuStep(const Setup& x, const ParameterCount& p, double residentShare, double kvOnGpuShare,
                int64_t batch, int64_t context, double hostExpertsRead = 0)
{
    const Scenario& s = x.s;
    GpuStep step;
    const int ways = x.ways;
    step.weightsRead = weightBytesReadPerStep(s.model, p, s.weights, batch) / double(ways);
    step.kvRead = kvBytesForContext(x.shape, s.kvDtype, ways, context) * double(batch);
    const double rate = s.gpu.bandwidthGBps * s.efficiency.hbm;
    step.gpuWeightsRead = std::max(0.0, step.weightsRead * residentShare - hostExpertsRead);
    step.gpuKvRead = step.kvRead * kvOnGpuShare;
    step.memoryMs = transferMs(step.gpuWeightsRead, rate * s.weights.kernelEfficiency) +
                    transferMs(step.gpuKvRead, rate);
    const double flops = decodeFlops(s.model, p, batch, context) / double(ways);
    step.computeMs = flops / (x.tflops * 1e12 * s.efficiency.compute) * 1e3;
    return step;
}

// Multi-GPU traffic of one step: a ring all-reduce of the hidden state after attention and after
// the MLP in every layer (tensor parallel), or one hand-off per GPU boundary (layer split).
double interconnectMs(const Scenario& s, int64_t batch)
{
    const int n = s.gpuCount;
    if (n <= 1)
        return 0.0;
    const double link = (s.gpu.nvlinkGBps > 0 ? s.gpu.nvlinkGBps / 2.0 // datasheets sum both ways
                                              : s.pcie.laneGBps() * double(s.pcieLanes)) *
                        s.efficiency.interconnect;
    const double hidden = double(batch) * double(s.model.hiddenSize) * s.efficiency.activationBytes;
    const double latency = s.efficiency.allReduceLatencyUs / 1e3;
    if (s.engine.layerSplit)
        return double(n - 1) * (latency + transferMs(hidden, link));
    const double ring = 2.0 * double(n - 1) / double(n);
    return 2.0 * double(s.model.layers) * (latency + transferMs(hidden * ring, link));
}

// Two hand-overs per layer whose experts (or attention) the CPU computes: the hidden state goes
// to the CPU and the result comes back (llama.cpp's activations are FP32), each after a sync.
double handoverMs(const Scenario& s, double layers, int64_t batch, double linkGBps)
{
    const double hidden = double(batch) * double(s.model.hiddenSize) * 4.0;
    return 2.0 * layers * (s.efficiency.hostHandoverUs / 1e3 + transferMs(hidden, linkGBps));
}

// Written into `d` where it stands (in the result), as is the breakeven below: copying figures
// computed a moment before stalls on their pending stores.
void decodeTiming(const Setup& x, const ParameterCount& p, const KvFigures& kv, const VramSplit& v,
                  const ExpertOffload& experts, DecodeTiming& d)
{
    const Scenario& s = x.s;
    d.pcieEffectiveGBps = hostLinkGBps(s);
    d.nvmeEffectiveGBps = diskGBps(s, s.nvme);
    d.sataEffectiveGBps = diskGBps(s, s.sata);
    d.kvTransferMs = transferMs(kv.totalBytes, d.pcieEffectiveGBps);

    const double weightsPerGpu = v.weightsBytes + v.weightsOffloadedBytes;
    // Offloaded experts are read apart below: only the experts a step routes to cross.
    const double residentShare =
        weightsPerGpu > 0 ? (v.weightsBytes + v.expertsOffloadedBytes) / weightsPerGpu : 1.0;
    const double onGpu = gpuLayerShare(s);
    const double hostRate = hostServeGBps(x, d.pcieEffectiveGBps);
    d.hostExpertsReadBytes = expertBytesReadOnHost(s, experts, p, s.batch, x.ways);
    const GpuStep step =
        gpuStep(x, p, residentShare, onGpu, s.batch, s.context, d.hostExpertsReadBytes);
    d.weightsReadBytes = step.weightsRead;
    d.gpuWeightsReadBytes = step.gpuWeightsRead;
    d.gpuKvReadBytes = step.gpuKvRead;
    d.memoryMs = step.memoryMs;
    d.computeMs = step.computeMs;
    d.computeBound = step.computeMs > step.memoryMs;
    // Weights not on the GPU cross the host link every step before they compute (accelerate's
    // offload), or are computed by the CPU where they lie (llama.cpp's CPU layers).
    d.weightsOffloadMs = transferMs(step.weightsRead * (1.0 - residentShare), hostRate);
    d.hostLayersMs = transferMs(step.kvRead * (1.0 - onGpu), hostRate);
    d.hostExpertsGBps = experts.layers > 0 ? hostRate : 0.0;
    if (experts.layers > 0) {
        d.hostExpertsReadMs = transferMs(d.hostExpertsReadBytes, hostRate);
        d.hostExpertsHandoverMs =
            handoverMs(s, double(experts.layers), s.batch, d.pcieEffectiveGBps);
        d.hostExpertsMs = d.hostExpertsReadMs + d.hostExpertsHandoverMs;
    }
    d.fixedMs = double(s.model.layers) * x.engine.layerOverheadUs(s) / 1e3;
    d.interconnectMs = interconnectMs(s, s.batch);
    const double besideGpu = d.weightsOffloadMs + d.hostExpertsMs + d.fixedMs + d.interconnectMs;
    d.gpuMs = std::max(step.memoryMs, step.computeMs) + d.hostLayersMs + besideGpu;

    const int64_t layers = s.model.layers;
    const double nvmeMs = transferMs(kv.totalBytes, d.nvmeEffectiveGBps);
    const double sataMs = transferMs(kv.totalBytes, d.sataEffectiveGBps);
    d.tierMs[size_t(Tier::Gpu)] = d.gpuMs;
    if (x.computesOnHost) {
        // KV in host RAM is attended by the CPU there (llama.cpp -nkvo): no copy, but the CPU's
        // read of every layer's KV alternates with the GPU's work instead of overlapping it, and
        // each GPU layer hands its attention to the CPU and takes the result back.
        const GpuStep noKv =
            gpuStep(x, p, residentShare, 0.0, s.batch, s.context, d.hostExpertsReadBytes);
        d.hostKvHandoverMs =
            handoverMs(s, onGpu * double(s.model.kvLayers()), s.batch, d.pcieEffectiveGBps);
        const double hostKvMs = std::max(noKv.memoryMs, noKv.computeMs) +
                                transferMs(step.kvRead, hostRate) + d.hostKvHandoverMs + besideGpu;
        d.tierMs[size_t(Tier::CpuSerial)] = hostKvMs;
        d.tierMs[size_t(Tier::CpuPipelined)] = hostKvMs;
    } else {
        d.tierMs[size_t(Tier::CpuSerial)] = serialStepMs(d.gpuMs, d.kvTransferMs);
        d.tierMs[size_t(Tier::CpuPipelined)] = pipelinedStepMs(d.gpuMs, d.kvTransferMs, layers);
    }
    // Disks are read with prefetch too: a serial disk read would only be slower still.
    d.tierMs[size_t(Tier::Nvme)] = pipelinedStepMs(d.gpuMs, nvmeMs, layers);
    d.tierMs[size_t(Tier::Sata)] = pipelinedStepMs(d.gpuMs, sataMs, layers);

    Tier selected = Tier::Gpu;
    switch (s.kvPlacement) {
    case KvPlacement::Gpu:
        selected = Tier::Gpu;
        break;
    case KvPlacement::CpuRam:
        selected = s.prefetchKv ? Tier::CpuPipelined : Tier::CpuSerial;
        break;
    case KvPlacement::Nvme:
        selected = Tier::Nvme;
        break;
    case KvPlacement::Sata:
        selected = Tier::Sata;
        break;
    }
    d.selectedMs = d.tierMs[size_t(selected)];
    d.tokensPerS = d.selectedMs > 0 ? double(s.batch) * 1e3 / d.selectedMs : 0.0;
}

// Time to the first new token after a prompt of `tokens`, by recomputing its KV (prefill) and
// by reloading it over each tier (transfer, then one decode step).
struct ReloadRecompute
{
    double recomputeMs = 0;
    std::array<double, 3> reloadMs{};
};

// What experts in host RAM add to a forward of `tokens` tokens. From 32 tokens on, llama.cpp
// copies host-resident weights to the GPU to run the batch there (op offload, on by default:
// --no-op-offload in tools/server/README.md; ggml-cuda's min batch is 32), once per n_ubatch
// chunk; a shorter batch is computed by the CPU like a decode step.
double hostExpertsForwardMs(const Setup& x, const ParameterCount& p, const DecodeTiming& d,
                            const ExpertOffload& experts, int64_t tokens)
{
    const Scenario& s = x.s;
    if (experts.layers == 0)
        return 0.0;
    constexpr int64_t kOpOffloadMinBatch = 32;
    if (tokens < kOpOffloadMinBatch)
        return transferMs(expertBytesReadOnHost(s, experts, p, tokens, x.ways),
                          hostServeGBps(x, d.pcieEffectiveGBps)) +
               handoverMs(s, double(experts.layers), tokens, d.pcieEffectiveGBps);
    const int64_t chunk = s.engine.prefillChunkTokens > 0 ? s.engine.prefillChunkTokens : tokens;
    const double chunks = double((tokens + chunk - 1) / chunk);
    return chunks * transferMs(experts.bytesTotal / double(x.ways), d.pcieEffectiveGBps);
}

// FLOPs a prefill achieves per millisecond, all tensor-parallel GPUs together.
double prefillFlopsPerMs(const Setup& x)
{
    return x.tflops * 1e12 * x.s.efficiency.compute / 1e3 * double(x.ways);
}

// A prefill of `tokens`, in the engine's chunks (vLLM's max_num_batched_tokens, llama.cpp's
// n_ubatch, TGI's prefill budget; transformers runs the prompt whole). Each chunk reads the
// weights again and computes its tokens against all before them, so a chunk takes
// max(weights read, its FLOPs): early chunks can be memory-bound, later ones compute-bound, and
// the chunk where that turns is found by bisection (chunk FLOPs only grow along the prompt).
double prefillMs(const Setup& x, const ParameterCount& p, int64_t tokens)
{
    const Scenario& s = x.s;
    const double n = double(x.ways);
    const double flopsPerMs = prefillFlopsPerMs(x);
    const double bandwidth = s.gpu.bandwidthGBps * s.efficiency.hbm;
    // A chunk reads the same weights a decode step does, with every token's experts touched.
    auto readMs = [&](int64_t chunkTokens) {
        return transferMs(weightBytesReadPerStep(s.model, p, s.weights, chunkTokens) / n,
                          bandwidth);
    };
    auto flopsUpTo = [&](int64_t t) { return prefillFlops(s.model, p, t); };
    tokens = std::max<int64_t>(tokens, 1);
    const int64_t engineChunk = x.engine.prefillChunkTokens(s);
    const int64_t chunk = engineChunk > 0 ? std::min(engineChunk, tokens) : tokens;
    const int64_t full = tokens / chunk;        // chunks of `chunk` tokens
    const int64_t rest = tokens - full * chunk; // and a last, shorter one
    const double fullReadMs = readMs(chunk);
    auto chunkComputeMs = [&](int64_t i) {
        return (flopsUpTo((i + 1) * chunk) - flopsUpTo(i * chunk)) / flopsPerMs;
    };
    int64_t lo = 0, hi = full; // the first full chunk whose compute outlasts its read
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (chunkComputeMs(mid) >= fullReadMs)
            hi = mid;
        else
            lo = mid + 1;
    }
    double ms =
        double(lo) * fullReadMs + (flopsUpTo(full * chunk) - flopsUpTo(lo * chunk)) / flopsPerMs;
    if (rest > 0)
        ms += std::max(readMs(rest), (flopsUpTo(tokens) - flopsUpTo(full * chunk)) / flopsPerMs);
    return ms;
}

ReloadRecompute reloadRecompute(const Setup& x, const ParameterCount& p, const DecodeTiming& d,
                                const ExpertOffload& experts, int64_t tokens)
{
    const Scenario& s = x.s;
    ReloadRecompute r;
    r.recomputeMs = prefillMs(x, p, tokens) + hostExpertsForwardMs(x, p, d, experts, tokens);

    const double hostRead = expertBytesReadOnHost(s, experts, p, 1, x.ways);
    const GpuStep step = gpuStep(x, p, 1.0, 1.0, 1, tokens, hostRead);
    const double stepMs = std::max(step.memoryMs, step.computeMs) + d.fixedMs + d.interconnectMs +
                          hostExpertsForwardMs(x, p, d, experts, 1);
    const double kvBytes = kvBytesForContext(x.shape, s.kvDtype, x.ways, tokens) * layerShare(s);
    const double rates[] = {d.pcieEffectiveGBps, d.nvmeEffectiveGBps, d.sataEffectiveGBps};
    for (size_t i = 0; i < 3; ++i)
        r.reloadMs[i] = transferMs(kvBytes, rates[i]) + stepMs;
    return r;
}

void breakeven(const Setup& x, const ParameterCount& p, const DecodeTiming& d,
               const ExpertOffload& experts, bool withCrossings, Breakeven& b)
{
    const Scenario& s = x.s;
    const ReloadRecompute at = reloadRecompute(x, p, d, experts, s.context);
    b.recomputeMs = at.recomputeMs;
    b.reloadMs = at.reloadMs;
    b.prefillComputeMs = prefillFlops(s.model, p, s.context) / prefillFlopsPerMs(x);

    if (!withCrossings)
        return;

    // The prompt length from which reload stays faster up to the search bound: after the last
    // grid point where recompute still wins, refined by bisection. (Reload can win briefly at a
    // few tokens and lose again, e.g. when a MoE prefill touches more experts as it grows.)
    const int64_t upTo =
        std::max<int64_t>(s.context, s.model.maxContext > 0 ? s.model.maxContext : 131'072);
    b.searchedUpTo = upTo;
    constexpr int kGrid = 64;
    std::array<int64_t, 3> lastLoss{0, 0, 0}; // 0: reload never lost on the grid
    std::array<int64_t, 3> winAfterLoss{-1, -1, -1};
    int64_t previous = 0;
    for (int i = 0; i <= kGrid; ++i) {
        const auto t = int64_t(std::llround(std::pow(double(upTo), double(i) / kGrid)));
        if (t <= previous)
            continue;
        const ReloadRecompute r = reloadRecompute(x, p, d, experts, t);
        for (size_t tier = 0; tier < 3; ++tier) {
            if (r.reloadMs[tier] < r.recomputeMs) {
                if (winAfterLoss[tier] < 0)
                    winAfterLoss[tier] = t;
            } else {
                lastLoss[tier] = t;
                winAfterLoss[tier] = -1;
            }
        }
        previous = t;
    }
    for (size_t tier = 0; tier < 3; ++tier) {
        if (winAfterLoss[tier] < 0) {
            b.crossTokens[tier] = -1; // recompute wins at the longest prompt considered
            continue;
        }
        int64_t lo = lastLoss[tier], hi = winAfterLoss[tier]; // reload loses at lo, wins at hi
        while (hi - lo > 1) {
            const int64_t mid = lo + (hi - lo) / 2;
            const ReloadRecompute m = reloadRecompute(x, p, d, experts, mid);
            (m.reloadMs[tier] < m.recomputeMs ? hi : lo) = mid;
        }
        b.crossTokens[tier] = hi;
    }
}

} // namespace

const char* tierId(Tier tier)
{
    switch (tier) {
    case Tier::Gpu:
        return "gpu";
    case Tier::CpuSerial:
        return "cpu_serial";
    case Tier::CpuPipelined:
        return "cpu_pipelined";
    case Tier::Nvme:
        return "nvme";
    case Tier::Sata:
        return "sata";
    }
    return "gpu";
}

const char* reloadTierId(ReloadTier tier)
{
    switch (tier) {
    case ReloadTier::CpuRam:
        return "cpu";
    case ReloadTier::Nvme:
        return "nvme";
    case ReloadTier::Sata:
        return "sata";
    }
    return "cpu";
}

Expected<Evaluation> evaluate(const Scenario& s, const EvaluateOptions& options)
{
    if (auto error = validate(s)) [[unlikely]]
        return std::move(*error);
    // The parts are built in order, each from the ones before, and the result is made once from
    // them: an Evaluation is a large struct, and the planner's search evaluates millions a
    // second, so it is not cleared and then filled, and the last two parts are written in place.
    const Setup x(s);
    const ParameterCount parameters = countParameters(s.model);
    const ExpertStorage storage =
        expertStorage(s.model, parameters, s.weights, s.gpu.computeCapability, x.ways);
    const double weightsBytesTotal = weightBytes(parameters, s.weights, storage);
    const KvFigures kv = kvFigures(x);
    const ExpertOffload experts = expertOffload(s, x.engine.expertLayersOnHost(s), storage);
    const VramSplit vram = vramSplit(x, kv, weightsBytesTotal / double(s.gpuCount), experts);
    const TokensFit fit = tokensFit(x, vram);
    EngineFigures engine =
        x.engine.startupFigures(s, kv, kvRoomForWholeModel(s, fit.freeForKvBytes));
    engine.expertLayersOnHost = experts.layers;
    engine.moeLayers = experts.moeLayers;
    Expected<Evaluation> result(std::in_place, parameters, storage, weightsBytesTotal, kv, vram,
                                fit, engine, DecodeTiming{}, Breakeven{});
    Evaluation& e = result.value();
    decodeTiming(x, parameters, kv, vram, experts, e.decode);
    breakeven(x, parameters, e.decode, experts, options.breakevenCrossings, e.breakeven);
    return result;
}

} // namespace kvscope
