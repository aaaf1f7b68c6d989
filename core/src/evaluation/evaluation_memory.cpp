// SPDX-License-Identifier: GPL-3.0-or-later
// evaluate()'s memory parts: the KV cache's figures, how one GPU's memory is spent, and the
// tokens that fit in what is left.
#include "evaluation/evaluation_parts.h"

#include "kvscope/model/roofline.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace kvscope::evaluation_parts {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * kMiB;

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
    if (const std::optional<double> buffers = engine.computeBufferBytes(s, x.ways))
        return *buffers;
    const int64_t tokens = engine.profiledTokens(s);
    const ModelSpec& m = s.model;
    const double n = double(x.ways);
    const double qDim = double(m.queryHeads) * double(m.isMla() ? m.vHeadDim : m.headDim);
    const double kvDim = m.isMla() ? double(m.kvLoraRank + m.qkRopeHeadDim)
                                   : 2.0 * double(m.kvHeads) * double(m.headDim);
    const double mlpWidth = activeMlpWidth(m);
    const double attention = (qDim + kvDim) / n + qDim / n + double(m.hiddenSize);
    const double mlp = 3.0 * mlpWidth / n + double(m.hiddenSize);
    const double perToken = 2.0 * double(m.hiddenSize) + std::max(attention, mlp);
    const double forward = double(tokens) * perToken * s.efficiency.activationBytes;
    // vLLM's profiling run samples max_num_seqs rows of logits, whatever the real batch.
    const double logits = double(engine.sampledRows(s)) * double(m.vocabSize) * 4.0;
    return std::max(forward + logits, logits * engine.samplerLogitCopies(s));
}

// An EAGLE head's weights on each GPU, in 16 bits whatever the model's format (its checkpoint
// names no quantization, and vLLM and SGLang load it by its own config): the layer and lm_head
// split tensor-parallel, fc whole on every GPU.
double eagleHeadBytesPerGpu(const Scenario& s, int ways)
{
    const EagleHead head = eagleHead(s.model, s.speculative.eagle);
    const double perParameter = s.weights.embeddingBits / 8.0;
    return ((head.held.total() - head.fc) / double(std::max(1, ways)) + head.fc) * perParameter;
}

// The weights that draft tokens for speculative decoding, per GPU: the MTP layers vLLM loads,
// or a draft model, at the scenario's format, split tensor-parallel; or an EAGLE head.
double drafterBytesPerGpu(const Setup& x)
{
    const Scenario& s = x.s;
    auto bytesOf = [&](const ModelSpec& model, const ParameterCount& p) {
        return weightBytes(p, s.weights,
                           expertStorage(model, p, s.weights, s.gpu.computeCapability, x.ways)) /
               double(x.ways);
    };
    if (x.engine.mtpLayersLoaded(s) > 0)
        return bytesOf(mtpModel(s.model), mtpParameters(s.model));
    if (s.speculative.draft && x.engine.draftsWithModel())
        return bytesOf(*s.speculative.draft, countParameters(*s.speculative.draft));
    if (s.speculative.eagle != EagleMethod::Off && x.engine.draftsWithEagle())
        return eagleHeadBytesPerGpu(s, x.ways);
    return 0.0;
}

} // namespace

double unevenExpertBytes(const Scenario& s, const ExpertStorage& storage)
{
    const int ways = expertWays(s);
    if (ways <= 1)
        return 0.0;
    const double stage = storage.parameters * storage.bitsPerWeight / 8.0 / double(pipelineWays(s));
    return stage * (expertParallelHeldShare(s.model, ways) - 1.0 / double(ways));
}

double replicatedAttentionBytes(const Scenario& s, const EngineModule& engine, int ways, int ranks)
{
    if (ranks <= 1) [[likely]]
        return 0.0;
    const ParameterCount all = countParameters(s.model);
    ParameterCount whole;
    whole.attention = all.attention;
    if (engine.dataParallelRanksHoldDenseWhole()) {
        whole.embedding = all.embedding;
        whole.lmHead = all.lmHead;
        whole.denseMlp = all.denseMlp;
        whole.other = all.other;
    }
    // Each rank's GPUs split what it holds whole: ways / ranks of them, so each holds
    // ranks / ways of it where an even share is 1 / ways.
    return weightBytes(whole, s.weights) * (double(ranks) - 1.0) / double(ways);
}

KvFigures kvFigures(const Setup& x)
{
    const Scenario& s = x.s;
    KvFigures kv;
    const int n = x.kvWays;
    const double sequences = double(sequencesPerRank(x, s.batch));
    const double share = layerShare(s);
    kv.kvHeadsPerGpu = kvHeadsPerGpu(x.shape, n);
    kv.bytesPerTokenPerLayer = kvBytesPerTokenPerLayer(x.shape, s.kvDtype, n);
    kv.bytesPerToken = kvBytesPerToken(x.shape, s.kvDtype, n) * share;
    kv.totalBytes = kvBytesForContext(x.shape, s.kvDtype, n, s.context) * sequences * share;
    const int64_t allocated = roundUpToBlock(s.context, s.engine.kvBlockTokens);
    kv.allocatedBytes = kvBytesForContext(x.shape, s.kvDtype, n, allocated) * sequences * share;
    kv.layers = x.shape.layers;
    kv.sequencesPerGpu = sequencesPerRank(x, s.batch);
    kv.draftBytesPerToken = draftKvBytesPerToken(x.shape, s.kvDtype, n) * share;
    kv.windowedLayers = x.shape.windowedLayers;
    kv.stateBytesPerSequence = stateBytesPerSequence(x.shape, n) * share;
    kv.tokensHeldPerWindowedLayer =
        kv.windowedLayers > 0 ? std::min(s.context, x.shape.slidingWindow) : 0;
    auto total = [&](const KvShape& shape) {
        return kvBytesForContext(shape, s.kvDtype, n, s.context) * sequences * share;
    };
    kv.totalMhaBytes = total(x.mha);
    kv.totalGqaBytes = total(x.gqa);
    kv.totalMqaBytes = total(x.mqa);
    return kv;
}

VramSplit vramSplit(const Setup& x, const KvFigures& kv, const WeightPlacement& weights,
                    const ExpertOffload& experts, double expertSpreadBytes)
{
    const Scenario& s = x.s;
    VramSplit v;
    v.capacityBytes = s.gpu.memoryGiB * kGiB * s.gpu.usableFraction;
    v.budgetBytes = v.capacityBytes * s.effectiveMemoryFraction();
    v.reservedBytes = v.capacityBytes - v.budgetBytes;
    const EngineModule& engine = x.engine;
    v.loraBytes = engine.loraBytesPerGpu(s);
    v.overheadBytes = engine.overheadMiB(s) * kMiB + v.loraBytes;
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
    const double gpus = double(s.gpuCount);
    v.weightsBytes = weights.gpuBytes / gpus - experts.bytesPerGpu;
    v.expertsOffloadedBytes = experts.bytesPerGpu;
    if (s.offloadWeights) {
        const double room =
            std::max(0.0, v.budgetBytes - v.overheadBytes - v.activationBytes - v.kvCacheBytes);
        v.weightsBytes = std::min(v.weightsBytes, room);
    }
    v.weightsOffloadedBytes = (weights.gpuBytes + weights.hostBytes) / gpus - v.weightsBytes;
    v.weightsPinnedOnHostBytes = weights.hostPinnedBytes / gpus;
    v.attentionReplicaBytes = x.attentionReplicaBytes;
    v.weightsBytes += v.attentionReplicaBytes;
    v.expertSpreadBytes = expertSpreadBytes;
    v.weightsBytes += v.expertSpreadBytes;
    v.drafterBytes = drafterBytesPerGpu(x);
    v.weightsBytes += v.drafterBytes;
    v.freeBytes =
        v.budgetBytes - v.weightsBytes - v.kvCacheBytes - v.activationBytes - v.overheadBytes;
    v.fits = v.freeBytes >= 0;
    return v;
}

std::optional<double> kvRoomForWholeModel(const Scenario& s, double freeBytes)
{
    const double onGpu = layerShare(s) * gpuLayerShare(s);
    if (onGpu <= 0)
        return std::nullopt; // nothing of the KV lives on the GPU: its memory limits no count
    return std::max(0.0, freeBytes) / onGpu;
}

namespace {

// Counts that GPU memory does not limit sit at their ceiling, which KvRoom names.
TokensFit unboundedFit(const Setup& x, double freeForKvBytes)
{
    TokensFit fit;
    fit.freeForKvBytes = freeForKvBytes;
    fit.room = KvRoom::NotOnGpu;
    fit.gqaKvHeads = x.variants.gqa;
    fit.model = fit.mha = fit.gqa = fit.mqa = limits::maxContext;
    fit.mla = x.s.model.isMla() ? fit.model : -1;
    fit.perSequence = fit.perSequenceMha = fit.perSequenceGqa = fit.perSequenceMqa =
        limits::maxContext;
    fit.maxConcurrency = limits::maxContext;
    return fit;
}

} // namespace

TokensFit tokensFit(const Setup& x, const VramSplit& v)
{
    const Scenario& s = x.s;
    const double freeForKv = v.budgetBytes - v.weightsBytes - v.activationBytes - v.overheadBytes;
    const std::optional<double> room = kvRoomForWholeModel(s, freeForKv);
    if (!room)
        return unboundedFit(x, freeForKv);
    const double bytes = *room;
    TokensFit fit;
    fit.freeForKvBytes = freeForKv;
    const int n = x.kvWays;
    const int64_t block = s.engine.kvBlockTokens;
    bool capped = false;
    auto fitting = [&](const KvShape& shape, double budget) {
        bool c = false;
        const int64_t t = longestContextFitting(shape, s.kvDtype, n, budget, block, &c);
        capped = capped || c;
        return t;
    };
    fit.gqaKvHeads = x.variants.gqa;
    fit.model = fitting(x.shape, bytes);
    fit.mha = fitting(x.mha, bytes);
    fit.gqa = fitting(x.gqa, bytes);
    fit.mqa = fitting(x.mqa, bytes);
    fit.mla = s.model.isMla() ? fit.model : -1;
    const double perSequenceBytes = bytes / double(sequencesPerRank(x, s.batch));
    fit.perSequence = fitting(x.shape, perSequenceBytes);
    fit.perSequenceMha = fitting(x.mha, perSequenceBytes);
    fit.perSequenceGqa = fitting(x.gqa, perSequenceBytes);
    fit.perSequenceMqa = fitting(x.mqa, perSequenceBytes);
    fit.room = capped ? KvRoom::WindowCapped : KvRoom::GpuMemory;
    const double perSequence =
        kvBytesForContext(x.shape, s.kvDtype, n, roundUpToBlock(s.context, block));
    // Each attention rank fills its own pool with its own requests.
    fit.maxConcurrency =
        perSequence > 0
            ? int64_t(std::floor(std::min(bytes / perSequence, 1e15))) * int64_t(x.ranks)
            : 0;
    return fit;
}

} // namespace kvscope::evaluation_parts
