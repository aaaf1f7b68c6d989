// SPDX-License-Identifier: GPL-3.0-or-later
// evaluate()'s decode timing: one decode step with the KV cache at each tier (GPU, CPU RAM serial
// or pipelined, NVMe, SATA), from the GPU's reads and FLOPs and the work beside them.
#include "evaluation/evaluation_parts.h"

#include "kvscope/model/roofline.h"
#include "kvscope/model/weights.h"
#include "kvscope/scenario/parallel_layout.h"

#include <algorithm>
#include <cmath>

namespace kvscope::evaluation_parts {

namespace {

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

// Inside the GPUs' NVLink domain an all-reduce crosses NVLink; beyond it (more GPUs in a node
// than a bridge or baseboard joins, or no NVLink), PCIe. Tensor parallel stays inside a node.
bool allReduceOverNvlink(const Scenario& s)
{
    return s.gpu.nvlinkGBps > 0 && gpusPerNode(s) <= s.gpu.nvlinkGpus;
}

double allReduceLatencyUs(const Scenario& s)
{
    if (s.efficiency.allReduceLatencyUs > 0)
        return s.efficiency.allReduceLatencyUs; // the user's own figure
    if (!allReduceOverNvlink(s))
        return s.allReduce.pcie.us(gpusPerNode(s));
    // The engines' own all-reduce kernels work inside one node; across nodes NCCL runs it.
    const bool custom = s.engine.customAllReduce && !s.tensorAcrossNodes;
    return (custom ? s.allReduce.nvlinkCustom : s.allReduce.nvlinkNccl).us(gpusPerNode(s));
}

double gpuLinkGBps(const Scenario& s)
{
    return (allReduceOverNvlink(s) ? s.gpu.nvlinkGBps / 2.0 // datasheets sum both ways
                                   : s.pcie.laneGBps() * double(s.pcieLanes)) *
           s.efficiency.interconnect;
}

// The hidden state of `batch` tokens, and a ring all-reduce's share of it each GPU sends.
double hiddenStateBytes(const Scenario& s, int64_t batch)
{
    return double(batch) * double(s.model.hiddenSize) * s.efficiency.activationBytes;
}

// Inside a node, a ring over its GPUs of the tensor-parallel group.
double allReduceBytes(const Scenario& s, int64_t batch)
{
    const double n = double(std::min(tensorWays(s), gpusPerNode(s)));
    return hiddenStateBytes(s, batch) * 2.0 * (n - 1.0) / n;
}

// Tensor parallel across nodes reduces in two levels, as NCCL's hierarchical all-reduce does:
// inside each node (above), then between the nodes, where each GPU sends its node's share of
// the ring over its own network port and pays the network's all-reduce latency.
int64_t nodeAllReducesPerStep(const Scenario& s)
{
    return s.tensorAcrossNodes && s.nodes > 1 && tensorWays(s) > 1 ? 2 * s.model.layers : 0;
}

double nodeAllReduceBytes(const Scenario& s, int64_t batch)
{
    const double nodes = double(std::max(1, s.nodes));
    return hiddenStateBytes(s, batch) * 2.0 * (nodes - 1.0) / nodes / double(gpusPerNode(s));
}

// Each of a stage's GPUs sends its share of the hidden state and the residual to its peer on the
// next node (vLLM's IntermediateTensors, split over the tensor-parallel group and gathered again
// on arrival), over its own network port.
double nodeHandoverBytes(const Scenario& s, int64_t batch)
{
    return 2.0 * hiddenStateBytes(s, batch) / double(tensorWays(s));
}

double nodeLinkGBps(const Scenario& s)
{
    return s.nodeLink.gbPerS() * s.efficiency.interconnect;
}

// One hand-over between pipeline stages in a node, over the GPUs' link, and one between nodes,
// over the network.
double gpuHandoverMs(const Scenario& s, int64_t batch)
{
    return allReduceLatencyUs(s) / 1e3 + transferMs(hiddenStateBytes(s, batch), gpuLinkGBps(s));
}

double nodeHandoverMs(const Scenario& s, int64_t batch)
{
    return s.nodeLink.latencyUs / 1e3 + transferMs(nodeHandoverBytes(s, batch), nodeLinkGBps(s));
}

// Hand-overs per step between stages in one node, and between nodes.
int64_t handoversBetweenNodes(const Scenario& s)
{
    return pipelineWays(s) > 1 ? std::max(1, s.nodes) - 1 : 0;
}

int64_t handoversInNodes(const Scenario& s)
{
    return std::max(0, pipelineWays(s) - 1) - handoversBetweenNodes(s);
}

// Expert parallel exchanging by DeepEP (SGLang --moe-a2a-backend deepep): each MoE layer's MLP
// all-reduce becomes an all-to-all, dispatch then combine, at DeepEP's measured latency for the
// expert-parallel size and the tokens each GPU sends.
void deepEpAllToAll(const Scenario& s, DecodeTiming& d)
{
    if (!s.deepEp || !s.expertParallel || !s.deepEpAllToAll.present())
        return;
    const int64_t moeLayers = s.model.moeLayers();
    const int64_t tokens = (s.batch + attentionRanks(s) - 1) / attentionRanks(s);
    const double perAllReduceMs = d.allReduceMs / double(std::max<int64_t>(1, d.allReduces));
    d.allReduces -= moeLayers;
    d.allReduceMs = perAllReduceMs * double(d.allReduces);
    d.allToAlls = moeLayers;
    d.allToAllUs = s.deepEpAllToAll.us(expertWays(s), tokens);
    d.allToAllMs = double(moeLayers) * d.allToAllUs / 1e3;
}

// Multi-GPU traffic of one step, written into `d` part by part for the arithmetic text: the
// all-reduces of tensor parallel, and the hand-overs between pipeline stages inside a node and
// between nodes. Most scenarios have one GPU, and the search evaluates millions: they return at
// once.
void interconnect(const Scenario& s, DecodeTiming& d)
{
    d.interconnectMs = 0;
    if (s.gpuCount <= 1) [[likely]]
        return;
    d.allReduceOverNvlink = allReduceOverNvlink(s);
    d.allReduceGBps = gpuLinkGBps(s);
    if (tensorWays(s) > 1) {
        d.allReduces = 2 * s.model.layers;
        d.allReduceLatencyUs = allReduceLatencyUs(s);
        d.allReduceBytes = allReduceBytes(s, s.batch);
        d.allReduceMs = tensorParallelMs(s, s.batch);
        deepEpAllToAll(s, d);
    }
    if (const int64_t n = handoversInNodes(s); n > 0) {
        d.gpuHandovers = n;
        d.gpuHandoverLatencyUs = allReduceLatencyUs(s);
        d.gpuHandoverBytes = hiddenStateBytes(s, s.batch);
        d.gpuHandoverMs = double(n) * gpuHandoverMs(s, s.batch);
    }
    if (const int64_t n = handoversBetweenNodes(s); n > 0) {
        d.nodeHandovers = n;
        d.nodeHandoverLatencyUs = s.nodeLink.latencyUs;
        d.nodeHandoverBytes = nodeHandoverBytes(s, s.batch);
        d.nodeLinkGBps = nodeLinkGBps(s);
        d.nodeHandoverMs = double(n) * nodeHandoverMs(s, s.batch);
    }
    // DeepEP's all-to-all spans the nodes itself: those MoE layers reduce nothing between them.
    if (const int64_t n = nodeAllReducesPerStep(s) - d.allToAlls; n > 0) {
        d.nodeAllReduces = n;
        d.nodeAllReduceLatencyUs = s.nodeLink.latencyUs;
        d.nodeAllReduceBytes = nodeAllReduceBytes(s, s.batch);
        d.nodeLinkGBps = nodeLinkGBps(s);
        d.nodeAllReduceMs = double(n) * nodeAllReduceMs(s, s.batch);
    }
    d.interconnectMs =
        d.allReduceMs + d.allToAllMs + d.nodeAllReduceMs + d.gpuHandoverMs + d.nodeHandoverMs;
}

// The rates KV and offloaded figures cross at: the host link and each disk, each bounded by it.
void linkRates(const Scenario& s, const KvFigures& kv, DecodeTiming& d)
{
    d.pcieEffectiveGBps = hostLinkGBps(s);
    d.nvmeEffectiveGBps = diskGBps(s, s.nvme);
    d.sataEffectiveGBps = diskGBps(s, s.sata);
    d.kvTransferMs = transferMs(kv.totalBytes, d.pcieEffectiveGBps);
}

// The decode step with the KV on the GPU, and what the tiers' steps are built from.
struct DecodeStep
{
    GpuStep gpu;
    double residentShare = 1; // of the weights per GPU, those the GPU reads itself
    double onGpu = 1;         // gpuLayerShare()
    double hostRate = 0;      // hostServeGBps()
    double besideGpuMs = 0;   // offloaded weights, host experts, fixed cost, interconnect
};

// Work beside the GPU's own reads in every step, written into `d`; returns its sum.
double besideGpuMs(const Setup& x, const DecodeStep& step, const ExpertOffload& experts,
                   DecodeTiming& d)
{
    const Scenario& s = x.s;
    // Weights not on the GPU cross the host link every step before they compute (accelerate's
    // offload), or are computed by the CPU where they lie (llama.cpp's CPU layers).
    d.weightsOffloadMs =
        transferMs(step.gpu.weightsRead * (1.0 - step.residentShare), step.hostRate);
    d.hostLayersMs = transferMs(step.gpu.kvRead * (1.0 - step.onGpu), step.hostRate);
    d.hostExpertsGBps = experts.layers > 0 ? step.hostRate : 0.0;
    if (experts.layers > 0) {
        d.hostExpertsReadMs = transferMs(d.hostExpertsReadBytes, step.hostRate);
        d.hostExpertsHandoverMs =
            handoverMs(s, double(experts.layers), s.batch, d.pcieEffectiveGBps);
        d.hostExpertsMs = d.hostExpertsReadMs + d.hostExpertsHandoverMs;
    }
    d.layerOverheadUs = x.engine.layerOverheadUs(s);
    d.stepOverheadUs = x.engine.stepOverheadUs(s);
    d.moeLayerUs = x.engine.moeLayerUs(s);
    d.fixedMs = (double(s.model.layers) * d.layerOverheadUs + x.engine.forwardOverheadUs(s)) / 1e3;
    interconnect(s, d);
    return d.weightsOffloadMs + d.hostExpertsMs + d.fixedMs + d.interconnectMs;
}

DecodeStep gpuDecodeStep(const Setup& x, const ParameterCount& p, const VramSplit& v,
                         const ExpertOffload& experts, DecodeTiming& d)
{
    const Scenario& s = x.s;
    DecodeStep step;
    // What a step reads of the weights: not those pinned in host RAM (an embedding's rows are
    // looked up, not streamed).
    const double weightsPerGpu =
        v.weightsBytes + v.weightsOffloadedBytes - v.weightsPinnedOnHostBytes;
    // Offloaded experts are read apart below: only the experts a step routes to cross.
    step.residentShare =
        weightsPerGpu > 0 ? (v.weightsBytes + v.expertsOffloadedBytes) / weightsPerGpu : 1.0;
    step.onGpu = gpuLayerShare(s);
    step.hostRate = hostServeGBps(x, d.pcieEffectiveGBps);
    d.hostExpertsReadBytes = expertBytesReadOnHost(s, experts, p, s.batch, x.ways);
    step.gpu =
        gpuStep(x, p, step.residentShare, step.onGpu, s.batch, s.context, d.hostExpertsReadBytes);
    d.weightsReadBytes = step.gpu.weightsRead;
    d.gpuWeightsReadBytes = step.gpu.gpuWeightsRead;
    d.gpuKvReadBytes = step.gpu.gpuKvRead;
    d.memoryMs = step.gpu.memoryMs;
    d.computeMs = step.gpu.computeMs;
    d.computeBound = step.gpu.computeMs > step.gpu.memoryMs;
    step.besideGpuMs = besideGpuMs(x, step, experts, d);
    d.gpuMs = std::max(step.gpu.memoryMs, step.gpu.computeMs) + d.hostLayersMs + step.besideGpuMs;
    return step;
}

// A step with the KV in host RAM, at each tier: copied over the link (serial or pipelined
// with the GPU's work), or attended by the CPU where it lies.
void hostRamTierTimes(const Setup& x, const ParameterCount& p, const DecodeStep& step,
                      DecodeTiming& d)
{
    const Scenario& s = x.s;
    if (x.computesOnHost) {
        // KV in host RAM is attended by the CPU there (llama.cpp -nkvo): no copy, but the CPU's
        // read of every layer's KV alternates with the GPU's work instead of overlapping it, and
        // each GPU layer hands its attention to the CPU and takes the result back.
        const GpuStep noKv =
            gpuStep(x, p, step.residentShare, 0.0, s.batch, s.context, d.hostExpertsReadBytes);
        d.hostKvHandoverMs =
            handoverMs(s, step.onGpu * double(s.model.kvLayers()), s.batch, d.pcieEffectiveGBps);
        d.hostKvGpuMemoryMs = noKv.memoryMs;
        d.hostKvReadBytes = step.gpu.kvRead;
        d.hostKvGBps = step.hostRate;
        d.hostKvReadMs = transferMs(step.gpu.kvRead, step.hostRate);
        const double hostKvMs = std::max(noKv.memoryMs, noKv.computeMs) + d.hostKvReadMs +
                                d.hostKvHandoverMs + step.besideGpuMs;
        d.tierMs[size_t(Tier::CpuSerial)] = hostKvMs;
        d.tierMs[size_t(Tier::CpuPipelined)] = hostKvMs;
    } else {
        d.tierMs[size_t(Tier::CpuSerial)] = serialStepMs(d.gpuMs, d.kvTransferMs);
        d.tierMs[size_t(Tier::CpuPipelined)] =
            pipelinedStepMs(d.gpuMs, d.kvTransferMs, s.model.layers);
    }
}

Tier selectedTier(const Scenario& s)
{
    switch (s.kvPlacement) {
    case KvPlacement::Gpu:
        return Tier::Gpu;
    case KvPlacement::CpuRam:
        return s.prefetchKv ? Tier::CpuPipelined : Tier::CpuSerial;
    case KvPlacement::Nvme:
        return Tier::Nvme;
    case KvPlacement::Sata:
        return Tier::Sata;
    }
    return Tier::Gpu;
}

// One sequence's KV of the model's own layers: not the layers that draft tokens (MTP layers, a
// draft model), which a step without drafting does not read.
double modelKvBytes(const Setup& x, int64_t context)
{
    KvShape own = x.shape;
    own.layers -= x.engine.mtpLayersLoaded(x.s);
    own.draftLayers = 0;
    return kvBytesForContext(own, x.s.kvDtype, x.kvWays, context);
}

// The fixed cost of one draft pass beside its layers': a forward of its own, with its own
// sampling (vLLM's eagle.py runs each drafted token as a forward, compute_logits and argmax;
// SGLang's EAGLE worker runs its draft passes without the overlap scheduler), so the engine's
// per-step host cost. Drawn from the EAGLE runs of speculative-eagle.json (held out until they
// shaped this): drafts priced at their reads alone were 52 % too fast there.
double draftPassFixedMs(const Setup& x)
{
    return x.engine.stepOverheadUs(x.s) / 1e3;
}

// A drafter's forward pass over the scenario's batch, on the model's GPUs, as a decode step
// is timed (gpuStep): the slower of its reads and its FLOPs, its layers' fixed cost and the
// pass's own.
double drafterStepMs(const Setup& x, const ModelSpec& drafter, const ParameterCount& p,
                     double kvBytes, int64_t tokens)
{
    const Scenario& s = x.s;
    const double ways = double(x.ways);
    const double rate = s.gpu.bandwidthGBps * s.efficiency.hbm;
    const double memoryMs = transferMs(weightBytesReadPerStep(drafter, p, s.weights, tokens) / ways,
                                       rate * s.weights.kernelEfficiency) +
                            transferMs(kvBytes, rate);
    const double computeMs = decodeFlops(drafter, p, tokens, s.context) / ways /
                             (x.tflops * 1e12 * s.efficiency.compute) * 1e3;
    return std::max(memoryMs, computeMs) +
           double(drafter.layers) * x.engine.layerOverheadUs(s) / 1e3 + draftPassFixedMs(x);
}

// Under expert parallel a step waits for the GPU whose experts its tokens touch most: the
// experts it reads beyond an even share of those touched.
double expertImbalanceBytes(const Setup& x, const ParameterCount& p, int64_t batch)
{
    const int ways = expertWays(x.s);
    if (ways <= 1)
        return 0.0;
    const double touched = p.experts * expertShareTouched(x.s.model, batch) *
                           x.s.weights.bitsPerWeight / 8.0 / double(ways);
    return touched * (expertParallelImbalance(x.s.model, ways, batch) - 1.0);
}

// The LoRA slots a step reads: each adapter its sequences use, at most one per sequence.
double loraBytesReadPerStep(const Setup& x, int64_t batch)
{
    const int64_t slots = x.s.lora.maxLoras;
    if (slots <= 0)
        return 0.0;
    // The routed experts' slots are read only for the experts the batch's tokens reach.
    const double experts = x.engine.loraExpertBytesPerGpu(x.s);
    const double read =
        x.engine.loraBytesPerGpu(x.s) - experts + experts * expertShareTouched(x.s.model, batch);
    return read * double(std::min(batch, slots)) / double(slots);
}

// One token drafted by the MTP layers: a forward pass of them (the experts the batch touches,
// their KV) and of the lm_head they share with the model.
double mtpTokenMs(const Setup& x, const ParameterCount& p, int64_t mtp)
{
    const Scenario& s = x.s;
    ParameterCount drafter = mtpParameters(s.model);
    drafter.lmHead = p.lmHead > 0 ? p.lmHead : p.embedding;
    KvShape layers = x.shape;
    layers.layers = mtp;
    layers.windowedLayers = 0;
    layers.draftLayers = 0;
    layers.recurrentLayers = 0;
    const double kvBytes = kvBytesForContext(layers, s.kvDtype, x.kvWays, s.context) *
                           double(sequencesPerRank(x, s.batch));
    // SGLang's trees extend topk tokens a sequence each pass (1 in a chain).
    return drafterStepMs(x, mtpModel(s.model), drafter, kvBytes,
                         s.batch * std::max<int64_t>(1, s.speculative.eagleTopk));
}

// One token drafted by a draft model: its decode step on the same GPUs, with its two
// all-reduces a layer at the model's cost each when split tensor-parallel.
double draftModelTokenMs(const Setup& x, const ModelSpec& draft, const DecodeTiming& d)
{
    const Scenario& s = x.s;
    const double kvBytes = draftKvBytesPerToken(x.shape, s.kvDtype, x.kvWays) * double(s.context) *
                           double(sequencesPerRank(x, s.batch));
    const double perAllReduce =
        d.allReduces > 0 ? (d.allReduceMs + d.nodeAllReduceMs) / double(d.allReduces) : 0.0;
    return drafterStepMs(x, draft, countParameters(draft), kvBytes, s.batch) +
           double(draft.layers) * 2.0 * perAllReduce;
}

// One draft pass of an EAGLE head over the batch's topk tokens a sequence: its weights in 16
// bits (the layer and lm_head split tensor-parallel, fc whole; EAGLE reads the model's
// lm_head), its one layer's KV, the layer's and the pass's fixed costs and, split
// tensor-parallel, its two all-reduces at the model's cost each.
double eagleTokenMs(const Setup& x, const DecodeTiming& d)
{
    const Scenario& s = x.s;
    const EagleHead head = eagleHead(s.model, s.speculative.eagle);
    const double ways = double(x.ways);
    const double readBytes =
        ((head.read.total() - head.fc) / ways + head.fc) * s.weights.embeddingBits / 8.0;
    const double kvBytes = draftKvBytesPerToken(x.shape, s.kvDtype, x.kvWays) * double(s.context) *
                           double(sequencesPerRank(x, s.batch));
    const double rate = s.gpu.bandwidthGBps * s.efficiency.hbm;
    const double memoryMs = transferMs(readBytes, rate) + transferMs(kvBytes, rate);
    const int64_t tokens = s.batch * std::max<int64_t>(1, s.speculative.eagleTopk);
    const double computeMs = decodeFlops(head.layer, head.read, tokens, s.context) / ways /
                             (x.tflops * 1e12 * s.efficiency.compute) * 1e3;
    const double perAllReduce =
        d.allReduces > 0 ? (d.allReduceMs + d.nodeAllReduceMs) / double(d.allReduces) : 0.0;
    return std::max(memoryMs, computeMs) + x.engine.layerOverheadUs(s) / 1e3 + draftPassFixedMs(x) +
           2.0 * perAllReduce;
}

} // namespace

GpuStep gpuStep(const Setup& x, const ParameterCount& p, double residentShare, double kvOnGpuShare,
                int64_t batch, int64_t context, double hostExpertsRead)
{
    const Scenario& s = x.s;
    GpuStep step;
    const int ways = x.ways;
    step.weightsRead = weightBytesReadPerStep(s.model, p, s.weights, batch) / double(ways) +
                       x.attentionReplicaBytes + loraBytesReadPerStep(x, batch) +
                       expertImbalanceBytes(x, p, batch);
    step.kvRead = modelKvBytes(x, context) * double(sequencesPerRank(x, batch));
    const double rate = s.gpu.bandwidthGBps * s.efficiency.hbm;
    step.gpuWeightsRead = std::max(0.0, step.weightsRead * residentShare - hostExpertsRead);
    step.gpuKvRead = step.kvRead * kvOnGpuShare;
    // A MoE model's decode step on ROCm reads and multiplies at a share of CUDA's, the user's own
    // (efficiency.rocmMoe, 1 by default); the prefill's large GEMMs are left as they are.
    const double moeShare = s.moeKernelShare();
    step.memoryMs = transferMs(step.gpuWeightsRead, rate * s.weights.kernelEfficiency * moeShare) +
                    transferMs(step.gpuKvRead, rate);
    const double flops = decodeFlops(s.model, p, batch, context) / double(ways);
    step.computeMs = flops / (x.tflops * 1e12 * x.computeEfficiency * moeShare) * 1e3;
    return step;
}

double handoverMs(const Scenario& s, double layers, int64_t batch, double linkGBps)
{
    const double hidden = double(batch) * double(s.model.hiddenSize) * 4.0;
    return 2.0 * layers * (s.efficiency.hostHandoverUs / 1e3 + transferMs(hidden, linkGBps));
}

void decodeTiming(const Setup& x, const ParameterCount& p, const KvFigures& kv, const VramSplit& v,
                  const ExpertOffload& experts, DecodeTiming& d)
{
    const Scenario& s = x.s;
    linkRates(s, kv, d);
    const DecodeStep step = gpuDecodeStep(x, p, v, experts, d);
    const int64_t layers = s.model.layers;
    const double nvmeMs = transferMs(kv.totalBytes, d.nvmeEffectiveGBps);
    const double sataMs = transferMs(kv.totalBytes, d.sataEffectiveGBps);
    d.tierMs[size_t(Tier::Gpu)] = d.gpuMs;
    hostRamTierTimes(x, p, step, d);
    // Disks are read ahead as CPU RAM is, and only with prefetch (--prefetch off reads them
    // before the step, serially).
    auto fromDisk = [&](double diskMs) {
        return s.prefetchKv ? pipelinedStepMs(d.gpuMs, diskMs, layers)
                            : serialStepMs(d.gpuMs, diskMs);
    };
    d.tierMs[size_t(Tier::Nvme)] = fromDisk(nvmeMs);
    d.tierMs[size_t(Tier::Sata)] = fromDisk(sataMs);
    d.selectedMs = d.tierMs[size_t(selectedTier(s))];
    d.tokensPerS = d.selectedMs > 0 ? double(s.batch) * 1e3 / d.selectedMs : 0.0;
}

// The verify pass reads the weights its k + 1 tokens a sequence touch (more experts than one
// token's) and the KV once, and computes k + 1 times a step's FLOPs; its fixed costs and links
// are the step's. A drafted token reads the MTP layers (the experts its batch touches), the
// shared lm_head and those layers' KV, and pays their per-layer fixed cost.
void speculativeTiming(const Setup& x, const ParameterCount& p, const KvFigures& kv,
                       const DecodeTiming& d, SpeculativeTiming& out)
{
    const Scenario& s = x.s;
    const int64_t mtp = x.engine.mtpLayersLoaded(s);
    const ModelSpec* draft = x.engine.draftsWithModel() ? s.speculative.draft.get() : nullptr;
    const bool eagle = s.speculative.eagle != EagleMethod::Off && x.engine.draftsWithEagle();
    if ((mtp <= 0 && !draft && !eagle) || kv.layers <= 0)
        return;
    const int64_t k = s.speculative.draftTokens;
    // A chain checks its k drafted tokens and one of the model's; a tree (SGLang's EAGLE and
    // NEXTN) its best n.
    const int64_t verified = draft ? k + 1 : s.speculative.tokensVerified();
    const double a = s.speculative.acceptance;
    out.draftTokens = k;
    out.acceptance = a;
    out.tokensPerStep = (1.0 - std::pow(a, double(k + 1))) / (1.0 - a);
    const double ways = double(x.ways);
    const double rate = s.gpu.bandwidthGBps * s.efficiency.hbm;
    const double weightRate = rate * s.weights.kernelEfficiency * s.moeKernelShare();
    const double verifyRead =
        weightBytesReadPerStep(s.model, p, s.weights, s.batch * verified) / ways;
    const double verifyMemoryMs =
        transferMs(verifyRead, weightRate) + transferMs(d.gpuKvReadBytes, rate);
    const double besideMs = d.selectedMs - std::max(d.memoryMs, d.computeMs);
    out.verifyMs = std::max(verifyMemoryMs, d.computeMs * double(verified)) + besideMs;
    out.verifiedTokens = verified;
    out.draftMs = draft   ? draftModelTokenMs(x, *draft, d)
                  : eagle ? eagleTokenMs(x, d)
                          : mtpTokenMs(x, p, mtp);
    out.stepMs = out.verifyMs + double(k) * out.draftMs;
    out.tokensPerS = out.stepMs > 0 ? double(s.batch) * out.tokensPerStep * 1e3 / out.stepMs : 0.0;
    out.speedup = d.tokensPerS > 0 ? out.tokensPerS / d.tokensPerS : 0.0;
}

// Tensor parallel: a ring all-reduce of the hidden state after attention and after the MLP in
// every layer.
double tensorParallelMs(const Scenario& s, int64_t tokens)
{
    if (tensorWays(s) <= 1)
        return 0.0;
    return 2.0 * double(s.model.layers) *
           (allReduceLatencyUs(s) / 1e3 + transferMs(allReduceBytes(s, tokens), gpuLinkGBps(s)));
}

// One all-reduce between the nodes of a tensor-parallel group spanning them.
double nodeAllReduceMs(const Scenario& s, int64_t tokens)
{
    return s.nodeLink.latencyUs / 1e3 + transferMs(nodeAllReduceBytes(s, tokens), nodeLinkGBps(s));
}

double forwardAllReducesMs(const Scenario& s, int64_t tokens)
{
    return tensorParallelMs(s, tokens) +
           double(nodeAllReducesPerStep(s)) * nodeAllReduceMs(s, tokens);
}

} // namespace kvscope::evaluation_parts
