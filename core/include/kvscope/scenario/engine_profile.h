// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/model/hardware.h"
#include "kvscope/scenario/engine_release.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace kvscope {

enum class KvPlacement { Gpu, CpuRam, Nvme, Sata };

// The module that implements an engine (engines/engine_module.h). engines.json spells it
// "transformers", "vllm", "llamacpp", "tgi" or "sglang", read once by engineFamilyFromId(); any
// other spelling is Other and gets the shared behaviour. The code compares only these values, so a
// misspelt family is a compile error, not a silent mismatch ("llama.cpp" vs "llamacpp").
enum class EngineFamily { Transformers, Vllm, LlamaCpp, Tgi, Sglang, Other };
const char* engineFamilyId(EngineFamily family); // "transformers", ..., "other"
EngineFamily engineFamilyFromId(const std::string& id);

const char* kvPlacementId(KvPlacement placement); // "gpu", "cpu", "nvme", "sata"
bool parseKvPlacement(const std::string& id, KvPlacement* out);

// How a serving engine spends GPU memory (resources/catalog/engines.json).
struct EngineProfile
{
    std::string id; // "hf", "hf-static", "hf-offloaded", "vllm", "llamacpp"
    std::string name;
    std::string shortName;                     // for legends: "vLLM", "transformers (static)"
    EngineFamily family = EngineFamily::Other; // the module that implements it
    double memoryFraction = 1.0;               // share of GPU memory the engine allows itself
    double runtimeOverheadMiB = 0; // CUDA context, allocator reserve, library workspaces
    double cudaGraphMiB = 0;       // captured CUDA graphs
    // Host time per layer per forward pass that launching eagerly from Python adds to the
    // kernel launches themselves (transformers' generate(): each op dispatched by PyTorch).
    double pythonDispatchUsPerLayer = 0;
    bool compiled = false;          // the step is torch.compile'd and replayed as CUDA graphs
    double stepOverheadUs = 0;      // host time per decode step beside the layers: scheduling,
                                    // input preparation, sampling, output processing
    double moeLayerUs = 0;          // per MoE layer per step: routing, expert alignment and the
                                    // expert kernels' fixed cost at a few tokens
    double metalStepOverheadUs = 0; // per step on Apple silicon, beside stepOverheadUs: the
                                    // graph encoded anew for Metal every token
    double hbmLayerUs = 0;          // per layer on a GPU with HBM, beside the launches: what
                                    // its small kernels take beyond their reads
    double metalMoeLayerUs = 0;     // per MoE layer on Apple silicon, beside moeLayerUs: the
                                    // routing's small Metal kernels, each behind a barrier
    bool customAllReduce = false;   // small all-reduces inside an NVLink domain use the engine's
                                    // own kernel (vLLM's custom all-reduce), not NCCL's
    double tensorParallelOverheadMiB = 0; // per GPU when layers are split tensor-parallel:
                                          // communicator buffers (NCCL, custom all-reduce)
    CudaGraphAccounting cudaGraphsInBudget =
        CudaGraphAccounting::All;       // whose graphs the KV
                                        // budget counts; the others' are captured outside it
    int64_t kvBlockTokens = 1;          // KV allocation granularity in tokens (vLLM block_size)
    bool preallocatesKv = false;        // KV reserved for the whole configured context up front
    bool flashAttention = true;         // attention fused (no score matrix in memory); llama.cpp
                                        // before b6325 computed the scores unless -fa
    int64_t prefillChunkTokens = 0;     // tokens per prefill forward; 0 = the whole prompt at once
    int64_t profileTokensFloor = 0;     // with prefillChunkTokens 0: the profiling forward takes
                                        // max(context, this) tokens (vLLM V0 without chunked
                                        // prefill); 0 = context x batch (HF runs each prompt whole)
    int64_t chunkedAboveContext = 0;    // ... unless the context exceeds this: then the engine
    int64_t longContextChunkTokens = 0; // turns chunked prefill on, in chunks of this (vLLM V0)
    KvPlacement defaultKvPlacement = KvPlacement::Gpu;
    int64_t gpuResidentKvLayers = 0; // KV layers kept on the GPU when the cache is offloaded
    int64_t maxNumSeqs = 0;          // vLLM max_num_seqs: rows its profiling run samples logits
                                     // for; 0 = the scenario's batch
    double samplerLogitCopies = 1;   // FP32 logit-sized buffers alive at the sampler's peak
    double classicSamplerLogitCopies = 0; // the same in vLLM's classic model runner, which still
                                          // serves MoE models and served every model before
                                          // v0.25.0 (its sorted top-k/top-p holds several);
                                          // 0 = samplerLogitCopies
    // vLLM's larger batch defaults on big GPUs (EngineArgs.get_batch_defaults): max_num_seqs and
    // max_num_batched_tokens rise on GPUs whose CUDA-reported memory reaches largeGpuMinGiB,
    // unless the GPU's name holds largeGpuExcludedName. 0 = one set of defaults for every GPU.
    double largeGpuMinGiB = 0;
    std::string largeGpuExcludedName;
    int64_t largeGpuMaxNumSeqs = 0;
    int64_t largeGpuPrefillChunkTokens = 0;
    int64_t baseMaxNumSeqs = 0;         // the defaults elsewhere (the catalog's max_num_seqs
    int64_t basePrefillChunkTokens = 0; // and prefill_chunk_tokens)
    // TGI's default max_batch_prefill_tokens when prefillChunkTokens is 0 (engines.json
    // "prefill_default"): its own table of FP16 FLOP/s by GPU over the model's FLOPs per token,
    // else fallbackTokens (engines/tgi_engine.cpp).
    struct PrefillDefault
    {
        std::vector<std::pair<std::string, double>> gpuTflops; // catalog GPU id, TFLOP/s
        int64_t fallbackTokens = 0;
    } prefillDefault;
    // How the engine schedules concurrent requests (engines.json "serving"; planning/serving.h).
    enum class KvHeld {
        Grows,     // paged blocks follow each sequence's length: on average prompt + half
                   // the answer (vLLM)
        Request,   // each request holds prompt + its whole answer from the start (TGI reserves
                   // max_new_tokens; a dynamic cache ends the batch that long)
        MaxLength, // every sequence holds the maximum length (a static cache, llama.cpp slots)
    };
    struct Serving
    {
        bool continuousBatching = false; // a finished request's slot is refilled at once; else
                                         // a batch runs to its end before the next starts
        KvHeld kvHeld = KvHeld::Request;
        int64_t maxRequests = 0; // concurrent requests beyond which it refuses (TGI
                                 // --max-concurrent-requests); 0 = none
        // Past its KV capacity with requests waiting, vLLM admits prompts into the blocks it
        // has free and preempts the newest request when a running one needs a block; the
        // preempted request is recomputed (its prompt prefilled again), or, where the release
        // offers --preemption-mode swap, its blocks go to CPU RAM and come back over PCIe.
        bool preempts = false;
        bool swapPreemption = false; // --preemption-mode swap exists (vLLM's V0 engine)
        std::string source;
    } serving;
    // What the engine keeps of the prompts it has served for later requests that start the same
    // way (engines.json "prefix_cache"): a system prompt or shared documents are then neither
    // prefilled again nor, where blocks are shared, held again.
    struct PrefixCache
    {
        enum class Sharing {
            None,   // nothing is kept across requests (transformers' generate())
            Blocks, // full KV blocks are found by their tokens' hash and shared by every
                    // request that holds them: prefill skipped, memory held once (vLLM, TGI)
            Slot,   // each slot reuses the KV of its own last prompt: the prefill is skipped,
                    // the memory is not shared between slots (llama-server's cache_prompt)
        } sharing = Sharing::None;
        bool onByDefault = false; // release rules change it (vLLM: on in V1, off in V0)
        std::string source;
    } prefixCache;
    // SGLang's default --mem-fraction-static: the GPU's memory less a reserve for activations
    // and captured graphs that grows with the prefill chunk, the graphs' batch sizes and the
    // GPUs (engines.json "reserved_memory"; scenario/reserved_memory.h). Absent for the other
    // engines, whose default share is memoryFraction.
    struct ReservedMemory
    {
        double baseMiB = 0;
        double mibPerActivationToken = 0;
        int64_t minActivationTokens = 0;
        double mibPerEightGpus = 0; // times tensor x pipeline ways / 8
        double mibPerDecodeGraphBatch = 0;
        double mibPerPrefillGraphSize = 0;
        double mlaPrefillGraphMiB = 0;                  // instead, for an MLA model
        double mibPerDpAttentionGraphBatch = 0;         // data-parallel attention: per decode graph
        double mibPerDpAttentionGraphBatchAbove300 = 0; // batch and rank (more above 300)
        double floorMiB = 0; // the least reserve on a GPU larger than floorAboveMiB
        double floorAboveMiB = 0;
        // Added after the floor for speculative decoding: a draft model (STANDALONE), or the
        // other drafters (EAGLE, EAGLE3 and NEXTN, which SGLang runs as EAGLE).
        double draftModelMiB = 0;
        double eagleDraftMiB = 0;
        // By GPU memory: the default chunked prefill and largest decode graph batch.
        struct Tier
        {
            double belowMiB = 0; // 0 = any larger GPU
            int64_t chunkedPrefillTokens = 0;
            int64_t graphMaxBatch = 0;
            int64_t graphMaxBatchFromTp4 = 0; // with tensor parallel 4 or more
        };
        std::vector<Tier> tiers;
        std::string source;
        bool present() const { return !tiers.empty(); }
    } reservedMemory;
    bool layerSplit = false; // several GPUs hold whole layers and run in turn (llama.cpp
                             // --split-mode layer), instead of tensor parallel
    // How the engine lays out a sliding-window model's and an MLA model's cache (engines.json
    // "kv_layout", llama.cpp's; release rules change it). The defaults keep the model's shape:
    // windowed layers hold min(context, window) per sequence, MLA one latent per token.
    struct KvLayout
    {
        enum class Windows {
            Model,       // as the model says (vLLM, transformers)
            FullContext, // every layer holds the whole context; the window is only a mask
            OwnCache,    // windowed layers share one smaller cache (llama.cpp's iSWA) of
                         // window x sequences + a batch, padded, where the architecture is listed
        } windows = Windows::Model;
        std::vector<std::string> ownCacheArchitectures; // model architectures that get OwnCache;
                                                        // others get FullContext
        bool plusLogicalBatch = false; // the batch added is n_batch (else n_ubatch)
        int64_t padTokens = 1;         // the cache's cells are rounded up to this
        bool perSequence = false;      // one cache per sequence (llama.cpp -np N, no -kvu)
        int64_t loneSequenceSlots = 0; // slots a one-sequence server opens, sharing one cache
                                       // (llama-server's -np auto); 0 = one
        enum class Mla {
            Latent,         // kv_lora_rank + qk_rope_head_dim per token (K only)
            LatentAndValue, // that K plus a kv_lora_rank-wide V
            FullHeads,      // every query head's K (qk_nope + qk_rope) and V (v_head_dim)
        } mla = Mla::Latent;
        std::string source;
    } kvLayout;
    // What the engine runs (engines.json "supports"), in the planner's order of preference;
    // empty = anything.
    std::vector<std::string> supportedWeights;      // weight format ids
    std::vector<std::string> supportedKvDtypes;     // KV dtype ids
    std::vector<std::string> supportedKvPlacements; // where its decode reads the KV: gpu, cpu
    std::vector<std::string> supportedVendors;      // GPU vendors: NVIDIA, AMD, Apple
    bool supportsWeights(const std::string& id) const;
    bool supportsKvDtype(const std::string& id) const;
    bool supportsKvPlacement(const std::string& id) const;
    bool runsOn(const std::string& vendor) const;
    EngineReleases releases; // rules by release (engines.json "releases"); none for
                             // engines whose figures kvscope does not tie to a release
    std::string source;
};

// engines.json's names for KvLayout's choices ("model", "full_context", "own_cache"; "latent",
// "latent_and_value", "full_heads"); false for any other text.
bool parseSwaCache(const std::string& text, EngineProfile::KvLayout::Windows* out);
bool parseMlaCache(const std::string& text, EngineProfile::KvLayout::Mla* out);

// Sets vLLM's batch defaults for a large GPU (largeGpu*) or any other (base*).
void useBatchDefaults(EngineProfile& engine, bool largeGpu);

// Whether the engine raises its batch defaults on this GPU (vLLM on 70 GiB or more, not A100).
bool takesLargeGpuDefaults(const EngineProfile& engine, const GpuSpec& gpu);

} // namespace kvscope
