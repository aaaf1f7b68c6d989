// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The parts of evaluate(), private to the evaluation layer: the Setup every part reads, then
// memory (evaluation_memory.cpp: VRAM split, KV figures, tokens that fit), decode timing
// (evaluation_decode.cpp) and prefill and break-even (evaluation_prefill.cpp). evaluate() in
// evaluation.cpp builds them in that order.

#include "kvscope/engines/engine_module.h"
#include "kvscope/evaluation/evaluation.h"
#include "kvscope/evaluation/expert_offload.h"
#include "kvscope/model/kv_cache.h"
#include "kvscope/scenario/parallel_layout.h"

#include <optional>
#include <string_view>

namespace kvscope::evaluation_parts {

// Share of the model's layers each GPU holds: one pipeline stage's (tensor parallel splits heads
// instead).
inline double layerShare(const Scenario& s)
{
    return 1.0 / double(pipelineWays(s));
}

inline double tensorTflops(const Scenario& s)
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
// Under data-parallel attention each rank holds the whole attention (and with vLLM the dense
// layers) over its GPUs: the bytes beyond their tensor-parallel share (0 without it).
double replicatedAttentionBytes(const Scenario& s, const EngineModule& engine, int ways, int ranks);

// Expert parallel shares a layer's experts out whole, ceil(E / ways) on the fullest GPU: what
// that GPU holds beyond an even share (0 without expert parallel, or when the ways divide E).
double unevenExpertBytes(const Scenario& s, const ExpertStorage& storage);

struct Setup
{
    Setup(const Scenario& scenario)
        : s(scenario), engine(engineModule(scenario.engine)), shape(engine.kvShape(scenario)),
          variants(attentionVariants(scenario.model)),
          mha(variantShape(shape, scenario.model, variants.mha)),
          gqa(variantShape(shape, scenario.model, variants.gqa)),
          mqa(variantShape(shape, scenario.model, variants.mqa)), ways(tensorWays(scenario)),
          kvWays(kvscope::kvWays(scenario)), ranks(attentionRanks(scenario)),
          attentionReplicaBytes(replicatedAttentionBytes(scenario, engine, ways, ranks)),
          tflops(tensorTflops(scenario)),
          computeEfficiency(scenario.model.moeLayers() > 0 ? scenario.efficiency.moeCompute
                                                           : scenario.efficiency.compute),
          computesOnHost(engine.computesOnHost(scenario))
    {
    }
    const Scenario& s;
    const EngineModule& engine;
    const KvShape shape; // the model's own
    const AttentionVariants variants;
    const KvShape mha, gqa, mqa;        // the same model with each attention kind's KV heads
    const int ways;                     // tensorWays()
    const int kvWays;                   // kvWays(): GPUs one sequence's KV heads are split over
    const int ranks;                    // attentionRanks(): GPUs the sequences are shared out over
    const double attentionReplicaBytes; // replicatedAttentionBytes(), read by every step
    const double tflops;                // tensorTflops()
    const double computeEfficiency;     // the model's share of them: a MoE's grouped GEMMs less
    const bool computesOnHost;
};

// Sequences of `batch` one GPU holds the KV of: all of them, or under data-parallel attention its
// own share, the ranks taking them in turn.
inline int64_t sequencesPerRank(const Setup& x, int64_t batch)
{
    return (batch + x.ranks - 1) / x.ranks;
}

// Achieved rate at which offloaded layers or KV are served: read by the CPU from host RAM where
// the engine computes there, otherwise copied over the host link.
inline double hostServeGBps(const Setup& x, double linkGBps)
{
    const Scenario& s = x.s;
    if (!x.computesOnHost)
        return linkGBps;
    if (s.gpu.unifiedMemory)
        return s.gpu.bandwidthGBps * s.efficiency.hbm;
    return s.hostBandwidthGBps() * s.efficiency.hostMemory;
}

// Memory (evaluation_memory.cpp).
KvFigures kvFigures(const Setup& x);
VramSplit vramSplit(const Setup& x, const KvFigures& kv, const WeightPlacement& weights,
                    const ExpertOffload& experts, double expertSpreadBytes);
// Bytes of KV room, counted as if the whole model's KV had to fit there: a layer split holds only
// its share of the layers on each GPU, and layers left in host RAM keep their KV there. None when
// no layer's KV is on the GPU: its memory then limits nothing.
std::optional<double> kvRoomForWholeModel(const Scenario& s, double freeBytes);
TokensFit tokensFit(const Setup& x, const VramSplit& v);

// Decode timing (evaluation_decode.cpp).
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
                int64_t batch, int64_t context, double hostExpertsRead = 0);
// Two hand-overs per layer whose experts (or attention) the CPU computes: the hidden state goes
// to the CPU and the result comes back (llama.cpp's activations are FP32), each after a sync.
double handoverMs(const Scenario& s, double layers, int64_t batch, double linkGBps);
// A forward pass's tensor-parallel all-reduces inside a node, for `tokens` tokens' hidden
// states: a decode step's batch, or a prefill chunk; one of those between nodes; and all of a
// forward pass's, inside the nodes and between them.
double tensorParallelMs(const Scenario& s, int64_t tokens);
double nodeAllReduceMs(const Scenario& s, int64_t tokens);
double forwardAllReducesMs(const Scenario& s, int64_t tokens);
// Written into `d` where it stands (in the result), as is the breakeven below: copying figures
// computed a moment before stalls on their pending stores.
void decodeTiming(const Setup& x, const ParameterCount& p, const KvFigures& kv, const VramSplit& v,
                  const ExpertOffload& experts, DecodeTiming& d);
// The same step with speculative decoding, when the scenario drafts with MTP layers.
void speculativeTiming(const Setup& x, const ParameterCount& p, const KvFigures& kv,
                       const DecodeTiming& d, SpeculativeTiming& out);

// Prefill and break-even (evaluation_prefill.cpp): recompute vs reload at the context, and the
// prompt lengths where reload starts to win when `withCrossings`.
void breakeven(const Setup& x, const ParameterCount& p, const DecodeTiming& d,
               const ExpertOffload& experts, bool withCrossings, Breakeven& b);

} // namespace kvscope::evaluation_parts
