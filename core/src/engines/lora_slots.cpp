// SPDX-License-Identifier: GPL-3.0-or-later
#include "engines/lora_slots.h"

#include "kvscope/model/kv_cache.h"
#include "kvscope/scenario/parallel_layout.h"

namespace kvscope::engines {

namespace {

// vLLM's LoRA slots (vllm/lora/layers, at 9aaf83ef): every linear layer of every decoder layer,
// the input embedding and lm_head get an A [max_loras, rank, in] and a B [max_loras, out, rank]
// in the model's 16-bit dtype, whatever the adapters target. SGLang's LoRAMemoryPool
// (python/sglang/srt/lora/mem_pool.py at 00639c4d) lays out its target modules alike: qkv's A
// [3r, hidden] and gate_up's [2r, hidden] whole, B split by tensor parallel (qkv's KV heads
// repeated where fewer than the GPUs), o and down's A split and B whole, a routed expert's per
// expert as vLLM's FusedMoEWithLoRA; the ends only with --lora-target-modules all. Tensor parallel:
// a column layer (qkv, gate_up) splits B and repeats A, a row layer (o, down) splits A and repeats
// B; the embedding's and lm_head's slots are whole on every GPU. --fully-sharded-loras splits the
// repeated ones too. KV heads fewer than the GPUs are repeated, one per GPU. A MoE layer has no
// dense MLP here (its shared experts are one, as wide as they are together); its routed experts'
// slots are loraExpertBytesPerGpu's.
constexpr double kLoraDtypeBytes = 2; // lora_dtype "auto": the model's dtype, 16-bit

} // namespace

double loraLayerSlotBytes(const Scenario& s, LoraEnds endsHeld)
{
    const LoraAdapters& lora = s.lora;
    if (lora.maxLoras <= 0)
        return 0.0;
    const ModelSpec& m = s.model;
    const double t = double(tensorWays(s));
    const double repeated = lora.fullySharded ? t : 1.0; // what the repeated halves divide by
    const double h = double(m.hiddenSize);
    const double q = double(m.queryHeads * m.headDim);
    const double kvPerGpu = double(kvHeadsPerGpu(m, tensorWays(s)) * m.headDim);
    const double upSlices = m.gatedMlp ? 2.0 : 1.0;
    auto layer = [&](double mlp) { // one decoder layer's slots with an MLP this wide (0: none)
        const double gateUp = mlp > 0 ? upSlices : 0.0;
        const double columnA = (3.0 + gateUp) * h / repeated; // qkv's 3 slices, gate_up's 2
        const double columnB = q / t + 2.0 * kvPerGpu + gateUp * mlp / t;
        const double rowA = q / t + mlp / t; // o_proj, down_proj
        const double rowB = (mlp > 0 ? 2.0 : 1.0) * h / repeated;
        return columnA + columnB + rowA + rowB;
    };
    const double stages = double(pipelineWays(s));
    const double moe = double(m.moeLayers());
    const double shared =
        double(m.sharedExperts) *
        double(m.expertIntermediate > 0 ? m.expertIntermediate : m.intermediateSize);
    const double layers =
        ((double(m.layers) - moe) * layer(double(m.intermediateSize)) + moe * layer(shared)) /
        stages;
    // The embedding sits on the first pipeline stage, lm_head on the last.
    const double ends = endsHeld == LoraEnds::Included
                            ? double(m.vocabSize + m.hiddenSize) * (stages > 1 ? 1.0 : 2.0)
                            : 0.0;
    return double(lora.maxLoras) * double(lora.maxRank) * kLoraDtypeBytes * (layers + ends);
}

// FusedMoEWithLoRA (vllm/lora/layers/fused_moe.py at 0002540c): per MoE layer, for every expert,
// w13's A [rank, hidden] and B [intermediate / tp, rank] for gate and up each, w2's A
// [rank, intermediate / tp] and B [hidden, rank]; --fully-sharded-loras splits w13's A by rank
// and w2's B by hidden.
double loraExpertSlotBytes(const Scenario& s)
{
    const LoraAdapters& lora = s.lora;
    const ModelSpec& m = s.model;
    if (lora.maxLoras <= 0 || !m.isMoe())
        return 0.0;
    const double t = double(tensorWays(s));
    const double repeated = lora.fullySharded ? t : 1.0;
    const double h = double(m.hiddenSize);
    const double width =
        double(m.expertIntermediate > 0 ? m.expertIntermediate : m.intermediateSize);
    const double perExpert = 2.0 * h / repeated + 3.0 * width / t + h / repeated;
    const double layers = double(m.moeLayers()) / double(pipelineWays(s));
    return double(lora.maxLoras) * double(lora.maxRank) * kLoraDtypeBytes * double(m.experts) *
           perExpert * layers;
}

} // namespace kvscope::engines
