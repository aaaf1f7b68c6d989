// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/base/field_error.h"
#include "kvscope/base/limits.h"
#include "kvscope/model/parameters.h"
#include "kvscope/model/weights.h"
#include "kvscope/scenario/figures.h"
#include "kvscope/scenario/parallel_layout.h"
#include "kvscope/scenario/scenario.h"

#include <array>
#include <cstdint>

namespace kvscope {

// How one GPU's memory is spent. free < 0 means the scenario does not fit by -free bytes.
struct VramSplit
{
    double capacityBytes = 0;   // physical (usable) memory of one GPU
    double budgetBytes = 0;     // capacity x the engine's memory fraction
    double reservedBytes = 0;   // capacity - budget: held back by the engine's memory fraction
    double weightsBytes = 0;    // weights resident on this GPU
    double kvCacheBytes = 0;    // KV cache resident on this GPU
    double activationBytes = 0; // peak transient activations
    double overheadBytes = 0;   // runtime overhead (CUDA context, allocator) and CUDA graphs,
                                // and LoRA adapter slots
    double loraBytes = 0;       // of overheadBytes, the LoRA slots (Scenario::lora)
    double freeBytes = 0;       // budget - weights - KV - activations - overhead (may be < 0)
    bool fits = true;           // freeBytes >= 0
    double weightsOffloadedBytes = 0; // weights that did not fit and live in CPU RAM (per GPU)
    double expertsOffloadedBytes = 0; // of those, routed experts kept in host RAM (llama.cpp
                                      // --n-cpu-moe / --cpu-moe), per GPU
    double attentionReplicaBytes = 0; // of weightsBytes, the attention every GPU holds whole
    double expertSpreadBytes = 0;     // of weightsBytes, experts expert parallel cannot share
                                      // out evenly: the fullest GPU's beyond an even share
                                      // under data-parallel attention, beyond its share
    double drafterBytes = 0; // of weightsBytes, what drafts tokens: the MTP layers or a draft
                             // model (the last pipeline stage's GPUs, split tensor-parallel)
    double weightsPinnedOnHostBytes = 0; // of those, weights held in host RAM at any split that
                                         // no decode step reads (llama.cpp's input embedding)
};

// What limits the counts of TokensFit. Only GpuMemory makes them figures: otherwise a count sits
// at its ceiling, limits::maxContext, which orders it above every real count and is never shown
// (text and JSON say why instead: words and null).
enum class KvRoom {
    GpuMemory,    // the memory left for KV on the GPU holds the counts
    WindowCapped, // every layer keeps at most its sliding window (or a fixed recurrent state): the
                  // cache stops growing, so no context is too long (sequences stay counted)
    NotOnGpu,     // no layer's KV is in GPU memory (llama.cpp -ngl 0): the GPU limits no count;
                  // the KV cache is in host RAM
};
const char* kvRoomId(KvRoom room); // "gpu_memory", "window_capped", "not_on_gpu"

// Longest single-sequence context whose KV fits in the memory left after everything else,
// for the model as configured and for MHA / GQA / MQA variants of the same dimensions.
struct TokensFit
{
    double freeForKvBytes = 0; // budget - weights - activations - overhead
    int64_t model = 0;
    int64_t mha = 0;
    int64_t gqa = 0;
    int64_t mqa = 0;
    int64_t mla = -1;                // latent cache of an MLA model; -1 when the model has none
    int64_t gqaKvHeads = 0;          // KV heads used for the GQA variant
    KvRoom room = KvRoom::GpuMemory; // what limits the counts (see KvRoom)
    int64_t perSequence = 0;         // longest context each of the scenario's sequences can hold
    int64_t perSequenceMha = 0;      // the same for the variants (where their KV curves cross the
    int64_t perSequenceGqa = 0;      // free-for-KV line on a chart of total KV vs context)
    int64_t perSequenceMqa = 0;
    int64_t maxConcurrency = 0; // sequences of the scenario's context that fit at once

    // A context count at its ceiling is no figure: nothing on the GPU limits it.
    bool contextUnbounded(int64_t count) const
    {
        return room != KvRoom::GpuMemory && count >= limits::maxContext;
    }
    bool concurrencyUnbounded() const { return room == KvRoom::NotOnGpu; }
};

// Where the KV cache is read from while decoding.
enum class Tier { Gpu, CpuSerial, CpuPipelined, Nvme, Sata };
inline constexpr std::array<Tier, 5> allTiers{Tier::Gpu, Tier::CpuSerial, Tier::CpuPipelined,
                                              Tier::Nvme, Tier::Sata};
const char* tierId(Tier tier); // "gpu", "cpu_serial", "cpu_pipelined", "nvme", "sata"

// One decode step (one new token for each sequence), a roofline.
struct DecodeTiming
{
    double pcieEffectiveGBps = 0;     // lanes x lane rate x protocol efficiency
    double nvmeEffectiveGBps = 0;     // min(disk, PCIe) for the NVMe tier
    double sataEffectiveGBps = 0;     // min(disk, PCIe) for the SATA tier
    double kvTransferMs = 0;          // the whole KV cache once over PCIe
    double weightsReadBytes = 0;      // weights read per step (active experts only)
    double gpuWeightsReadBytes = 0;   // of those, what the GPU reads (not offloaded, not experts
                                      // the CPU computes)
    double gpuKvReadBytes = 0;        // KV the GPU reads per step (its layers' share)
    double memoryMs = 0;              // GPU bytes read / achieved bandwidth
    double computeMs = 0;             // step FLOPs / achieved FLOP/s
    double gpuMs = 0;                 // max(memory, compute): KV on the GPU
    double weightsOffloadMs = 0;      // offloaded weights crossing PCIe (or read by the CPU)
    double fixedMs = 0;               // per-step fixed cost: layers x layer overhead + the
                                      // step's own + MoE layers x their routing cost
    double layerOverheadUs = 0;       // its parts: per layer (launches, Python dispatch),
    double stepOverheadUs = 0;        // per step (scheduling, sampling),
    double moeLayerUs = 0;            // per MoE layer (routing, expert kernels)
    double interconnectMs = 0;        // multi-GPU traffic: tensor parallel all-reduces (two per
                                      // layer) and the hand-offs between pipeline stages
    int64_t allReduces = 0;           // tensor parallel: all-reduces per step (two per layer)
    double allReduceLatencyUs = 0;    // the fixed latency of each, by link and GPU count
    bool allReduceOverNvlink = false; // the GPUs' link inside a node: NVLink (else PCIe)
    double allReduceBytes = 0;        // each one's traffic per GPU (ring: 2(n-1)/n of the state)
    double allReduceGBps = 0;         // the GPUs' link's achieved rate
    double allReduceMs = 0;           // all of them
    int64_t allToAlls = 0;      // expert parallel by DeepEP: one per MoE layer, instead of its
                                // MLP's all-reduce
    double allToAllUs = 0;      // each: dispatch and combine (interconnects.json "all_to_all")
    double allToAllMs = 0;      // all of them
    int64_t nodeAllReduces = 0; // tensor parallel across nodes: the all-reduces' second
    double nodeAllReduceLatencyUs = 0; // level, between the nodes over the network (two per
    double nodeAllReduceBytes = 0;     // layer), each with the network's latency and what each
    double nodeAllReduceMs = 0;        // GPU sends over its port; all of them
    int64_t gpuHandovers = 0;          // layer split: hand-overs between GPUs of a node per step
    double gpuHandoverLatencyUs = 0;   // each one's latency (the link's all-reduce latency)
    double gpuHandoverBytes = 0;       // the hidden state each carries
    double gpuHandoverMs = 0;          // all of them
    int64_t nodeHandovers = 0;         // several nodes: hand-overs between them per step
    double nodeHandoverLatencyUs = 0;  // each one's network latency
    double nodeHandoverBytes = 0;      // what each GPU sends in one
    double nodeLinkGBps = 0;           // at this achieved network rate
    double nodeHandoverMs = 0;         // all of them
    double hostLayersMs = 0;           // KV of the layers left in host RAM (llama.cpp -ngl)
    double hostExpertsReadBytes = 0;   // routed experts in host RAM the CPU reads per step
    double hostExpertsGBps = 0;        // at this achieved rate (host memory x its efficiency)
    double hostExpertsReadMs = 0;      // that read at that rate
    double hostExpertsHandoverMs = 0;  // two GPU-CPU hand-overs per such layer
    double hostExpertsMs = 0;          // the two together
    double hostKvHandoverMs = 0;       // KV in host RAM (llama.cpp -nkvo): two hand-overs per GPU
                                       // layer, its attention computed by the CPU
    double hostKvGpuMemoryMs = 0;      // with it: the GPU's reads, none of them KV
    double hostKvReadBytes = 0;        // the KV the CPU reads per step
    double hostKvGBps = 0;             // at this achieved rate (host memory x its efficiency)
    double hostKvReadMs = 0;           // that read at that rate
    std::array<double, 5> tierMs{};    // decode ms per token per Tier, indexed by Tier
    double selectedMs = 0;             // at the scenario's KV placement (pipelined for CPU RAM)
    double tokensPerS = 0;             // batch / selectedMs, all sequences together
    bool computeBound = false;         // compute, not memory, sets the GPU step
};

// Reloading a saved KV cache (e.g. a long system prompt) vs recomputing it, both up to the first
// new token: recompute = prefill of N tokens; reload = the KV of N tokens over a tier plus one
// decode step. Tiers are indexed CPU RAM (PCIe), NVMe, SATA.
enum class ReloadTier { CpuRam, Nvme, Sata };
inline constexpr std::array<ReloadTier, 3> allReloadTiers{ReloadTier::CpuRam, ReloadTier::Nvme,
                                                          ReloadTier::Sata};
const char* reloadTierId(ReloadTier tier); // "cpu", "nvme", "sata"

struct Breakeven
{
    double recomputeMs = 0;      // prefill of the scenario's context
    double prefillComputeMs = 0; // of which its FLOPs alone: what the prompt adds to
                                 // a batch whose weight reads are paid already
    // The same prompt when the engine's prefix cache holds its first cachedPrefixTokens (the
    // workload's shared prefix as cached; 0 = none, and the figures equal the two above).
    int64_t cachedPrefixTokens = 0;
    double cachedRecomputeMs = 0;
    double cachedPrefillComputeMs = 0;
    std::array<double, 3> reloadMs{}; // reload of the scenario's context, per ReloadTier
    // Searched only when EvaluateOptions::breakevenCrossings asks; otherwise 0 and 0.
    std::array<int64_t, 3> crossTokens{}; // prompt length from which reload stays faster up to
                                          // searchedUpTo; -1 = recompute is faster there
    int64_t searchedUpTo = 0;             // the longest prompt considered for crossTokens
};

// Speculative decoding (Scenario::speculative): each step drafts k tokens and the model checks
// them in one forward pass of k + 1 tokens a sequence, keeping the drafted tokens up to the first
// it rejects and one of its own. With each drafted token accepted at rate a given the ones
// before, a step yields (1 - a^(k+1)) / (1 - a) tokens on average (Leviathan et al., 2023).
struct SpeculativeTiming
{
    int64_t draftTokens = 0;    // k; 0 = none
    double acceptance = 0;      // a
    double tokensPerStep = 0;   // expected tokens a step yields
    int64_t verifiedTokens = 0; // tokens a sequence the model checks: k + 1, or an EAGLE tree's
    double verifyMs = 0;        // the model's forward over them
    double draftMs = 0;         // one draft pass: the MTP layers and the shared lm_head, a draft
                                // model's step, or an EAGLE head's layer and lm_head
    double stepMs = 0;          // verifyMs + k x draftMs
    double tokensPerS = 0;      // batch x tokensPerStep / stepMs, all sequences
    double speedup = 0;         // over decoding without it (DecodeTiming::tokensPerS)
};

struct Evaluation
{
    ParameterCount parameters;
    ExpertStorage experts;        // the routed experts as the engine holds them on this GPU
    double weightsBytesTotal = 0; // all GPUs together, at the scenario's format
    KvFigures kv;
    VramSplit vram;
    TokensFit tokensFit;
    EngineFigures engine;
    DecodeTiming decode;
    Breakeven breakeven;
    SpeculativeTiming speculative;
};

struct EvaluateOptions
{
    // Search Breakeven::crossTokens (about 80 further reload-vs-recompute evaluations, most of
    // the cost of a full evaluation). Off by default: a planner or a sweep evaluates thousands
    // of scenarios and reads every other figure; what shows the crossings (calc --json, the
    // window's snapshot, its breakeven chart and the report) asks for them.
    bool breakevenCrossings = false;
};

// The one evaluation every front end calls. Validates first; never returns NaN or infinity.
Expected<Evaluation> evaluate(const Scenario& scenario, const EvaluateOptions& options = {});

} // namespace kvscope
