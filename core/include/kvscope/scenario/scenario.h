// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/base/field_error.h"
#include "kvscope/base/limits.h"
#include "kvscope/model/eagle_head.h"
#include "kvscope/model/efficiency.h"
#include "kvscope/model/hardware.h"
#include "kvscope/model/machine_profile.h"
#include "kvscope/model/model_spec.h"
#include "kvscope/model/storage_formats.h"
#include "kvscope/scenario/engine_profile.h"
#include "kvscope/scenario/speed_band.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace kvscope {

// A figure the user measured for this scenario and the factor kvscope fitted to it (see
// kvscope/calibration.h); kept in the scenario file so the fitted value's origin stays known.
struct CalibrationRecord
{
    std::string kind;    // a figure factorFittedTo() knows
    double measured = 0; // in that figure's unit
    std::string factor;  // the factor it sets: factorFittedTo(kind)
    double fitted = 0;   // the factor's value after fitting
    double before = 0;   // the predicted figure before and after fitting
    double after = 0;
};

// What the user asks of the scenario beyond fitting; 0 = no target. The planner's verdict says
// which are missed and its remedies and search aim at them.
struct Targets
{
    double minTokensPerSUser = 0; // decode tokens per second each sequence must reach
    double maxTtftMs = 0;         // longest acceptable time to first token (full-context prompt)
};

// The requests a serving deployment sees, on average (the serving view, planning/serving.h): each
// user sends a prompt and reads the answer, then sends the next. The longest request is the
// scenario's context (max_model_len).
struct Workload
{
    int64_t promptTokens = 1024;
    int64_t outputTokens = 256;
    // Of the prompt, the tokens every request starts with (a system prompt, shared documents):
    // an engine caching prefixes finds their KV from an earlier request.
    int64_t sharedPrefixTokens = 0;
};

// LoRA adapters served beside the base model (vLLM --enable-lora): the engine keeps maxLoras
// slots of rank maxRank on every GPU, allocated before its KV cache is sized.
struct LoraAdapters
{
    int64_t maxLoras = 0;      // adapters a batch may use at once (--max-loras); 0 = no LoRA
    int64_t maxRank = 16;      // the largest rank an adapter may have (--max-lora-rank)
    bool fullySharded = false; // --fully-sharded-loras: tensor parallel splits every slot
};

// Speculative decoding: each step drafts tokens cheaply and the model checks them all in one
// forward pass, keeping those up to the first it would not have chosen.
struct Speculation
{
    bool drafts() const { return mtp || draft != nullptr || eagle != EagleMethod::Off; }
    bool mtp = false; // the model's own MTP layers draft (vLLM --speculative-config
                      // method "mtp"); needs ModelSpec::mtpLayers
    // A smaller model of the same vocabulary drafts instead (vLLM method "draft_model"): its
    // weights and KV are loaded beside the model's. Shared: scenarios are copied often.
    std::shared_ptr<const ModelSpec> draft;
    int64_t draftTokens = 1; // tokens drafted per step (num_speculative_tokens)
    double acceptance = 0.8; // the chance each drafted token is accepted, given the ones before
    EagleMethod eagle = EagleMethod::Off;
    // SGLang's EAGLE tree: each draft pass extends the topk likeliest tokens of a sequence, and
    // the model checks the verifyTokens best of the tree (--speculative-eagle-topk,
    // --speculative-num-draft-tokens). A chain (topk 1) checks draftTokens + 1.
    int64_t eagleTopk = 1;
    int64_t verifyTokens = 0; // 0: draftTokens + 1
    int64_t tokensVerified() const
    {
        return eagleTopk > 1 && verifyTokens > 0 ? verifyTokens : draftTokens + 1;
    }
};

// How prices become cost: a bought GPU is written off over amortizationYears of round-the-clock
// use; every price (US dollars in the catalog) is shown in `currency` at perUsd units a dollar.
struct CostSettings
{
    CostBasis basis = CostBasis::Rent;
    double amortizationYears = 3;
    std::string currency = "USD";
    double perUsd = 1;
    // Owning (CostBasis::Own), beside the GPUs' price: each defaults to gpu_prices.json's "owning".
    double electricityUsdPerKwh = 0; // tariff
    double pue = 1;                  // facility power / IT power
    double utilization = 1;          // average share of TDP drawn
    double hostUsdPerGpuServer = 0;  // a datacenter server's price without GPUs, per GPU slot
    double hostUsdPerGpuDesktop = 0; // a desktop PC's price without its GPU (consumer cards)
    double hostingUsdPerKwMonth = 0; // colocation: space, cooling, network, per kW of IT power
};

// The whole input of one evaluation, already resolved against the catalog, so evaluation needs
// nothing else. Defaults are the seed article's case: Llama 2 7B, FP16, RTX 4090, 2,048 tokens
// (the catalog fills in the specs; see defaultScenario()).
struct Scenario
{
    ModelSpec model;                // architecture
    GpuSpec gpu;                    // one GPU; all GPUs of a deployment are alike
    int gpuCount = 1;               // GPUs in all, over every node: weights and KV split over them
    int nodes = 1;                  // machines the GPUs sit in, alike: tensor parallel inside each,
                                    // pipeline stages across them (parallel_layout.h)
    bool dpAttention = false;       // attention data parallel over the tensor-parallel GPUs
                                    // (SGLang's --enable-dp-attention): each holds whole
                                    // attention and only its own requests' KV
    int attentionRanksStated = 0;   // under dpAttention, the ranks the stage's GPUs form, each
                                    // tensor parallel over its share of them; 0: one per GPU
    bool tensorAcrossNodes = false; // tensor parallel over every GPU of every node (SGLang's
                                    // --tp 16 on two nodes) instead of a stage per node
    bool expertParallel = false;    // routed experts shared out whole over the tensor-parallel
                                    // GPUs (vLLM --enable-expert-parallel, SGLang --ep-size)
    bool deepEp = false;            // expert parallel's exchange by DeepEP's all-to-all (SGLang
                                    // --moe-a2a-backend deepep), not tensor parallel's all-reduce
    NodeLink nodeLink;              // the network between the nodes
    int replicas = 1;     // data-parallel copies of all of the above, each with its own GPUs and
                          // its own `batch` users: GPUs, users, throughput and cost multiply
    WeightFormat weights; // weight storage format
    KvDtype kvDtype;      // KV cache element type
    EngineProfile engine; // serving engine's memory policy, as of engineVersion
    // The validation set's decode error per speed class (the catalog's speed_bands.json);
    // null when none was loaded. Shared: every scenario of a catalog holds the same table.
    std::shared_ptr<const SpeedBands> speedBands;
    std::string engineVersion;          // the engine release whose rules apply ("0.6.4");
                                        // "" = the latest release kvscope models
    std::optional<bool> vllmUseV1;      // vLLM's VLLM_USE_V1; unset = the release's default
    std::string checkpoint;             // the user's checkpoint of the model in these weights: a
                                        // repository or a path; "" = a published one kvscope lists
    bool enforceEager = false;          // vLLM --enforce-eager: no CUDA graphs are captured
    bool flashinferSampler = false;     // vLLM samples top-k/top-p with FlashInfer (its log says
                                        // "Using FlashInfer for top-p & top-k sampling")
    std::optional<bool> prefixCaching;  // the engine's prefix cache; unset = its default
    std::optional<bool> flashAttention; // llama.cpp -fa; unset = the release's default
    bool preemptBySwap = false;         // vLLM --preemption-mode swap (V0): a preempted request's
                                        // KV goes to CPU RAM instead of being recomputed
    double swapSpaceGiB = 4;            // vLLM --swap-space: CPU RAM per GPU for swapped KV (its
                                        // default, V0 engine_args)
    int64_t context = 2048;             // tokens per sequence (prompt + generated)
    int64_t batch = 1;                  // concurrent sequences decoded together
    PcieGeneration pcie;                // host link generation (defaults to PCIe 4.0)
    int pcieLanes = 16;                 // host link width
    KvPlacement kvPlacement = KvPlacement::Gpu; // where the KV cache lives during decode
    std::optional<double> memoryFraction; // overrides the engine's (vLLM gpu_memory_utilization)
    bool prefetchKv = true;           // offloaded KV: prefetch layer N+1 while computing layer N
    bool offloadWeights = false;      // device_map="auto": weights that do not fit go to CPU RAM
    std::optional<int64_t> gpuLayers; // llama.cpp -ngl: layers on the GPU, the rest in host RAM;
                                      // unset = all of them
    int64_t cpuMoeLayers = 0;         // llama.cpp --n-cpu-moe N: the routed experts of the
                                      // first N layers stay in host RAM, computed by the CPU
    bool cpuMoeAll = false;           // llama.cpp --cpu-moe (-ot exps=CPU): every layer's
                                      // routed experts in host RAM
    StorageTier nvme;                 // disk tier used for "nvme"
    StorageTier sata;                 // disk tier used for "sata"
    HostMemory hostMemory;            // CPU RAM holding offloaded KV or weights
    std::optional<double> hostMemoryGBps; // its peak bandwidth when the user states it
    double hostRamGiB = 0;                // its size; 0 = not stated, so not checked
    LoraAdapters lora;
    Speculation speculative;
    Targets targets;
    Workload workload;
    CostSettings cost;
    Efficiency efficiency;                        // achieved share of every peak
    AllReduceLatencies allReduce;                 // one small all-reduce's latency by link
    MoeAllToAll deepEpAllToAll;                   // DeepEP's measured all-to-all by EP size
    std::optional<CalibrationRecord> calibration; // the last fit to a measurement, if any
    std::optional<MachineProfile> profile;        // the machine profile whose factors it uses

    // The stated share, else the engine's: its fixed one, or SGLang's rule for this GPU and
    // layout (reserved_memory.h).
    double effectiveMemoryFraction() const;
    double hostBandwidthGBps() const { return hostMemoryGBps.value_or(hostMemory.bandwidthGBps); }
    // The share of the CUDA path's speed a MoE model's decode step (weight reads, FLOPs,
    // per-MoE-layer cost) reaches on this GPU: efficiency.rocmMoe on an AMD GPU, else 1.
    double moeKernelShare() const
    {
        return model.moeLayers() > 0 && gpu.vendor == "AMD" ? efficiency.rocmMoe : 1.0;
    }
};

// The first problem with a scenario, or nothing: every field's range is checked here once.
std::optional<FieldError> validate(const Scenario& scenario);

// Whether a machine profile holds for the scenario: the GPU, engine and release it was fitted on.
bool profileHoldsFor(const MachineProfile& profile, const Scenario& scenario);
// The same checks for a model or a GPU alone (run when a file is imported).
std::optional<FieldError> validateModel(const ModelSpec& model);
std::optional<FieldError> validateGpu(const GpuSpec& gpu);
// A host link faster than the GPU's own (--pcie 5 on a PCIe 3.0 V100): checked where a user
// states both (the CLI's options, a scenario file), not in validate(), since a search that puts
// a GPU in keeps the link as it was (applyGpu).
std::optional<FieldError> validateHostLink(const Scenario& scenario);

} // namespace kvscope
