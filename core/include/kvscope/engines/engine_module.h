// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What differs between serving engines, behind one interface: how an engine budgets GPU memory,
// how it sizes its activation peak and sampler, where it computes what is left in host RAM, what
// it logs at start-up and the command that launches it. The shared evaluation asks the
// scenario's module and never tests an engine's id. One file per engine in core/src/engines/;
// the catalog's "family" picks it.

#include "kvscope/engines/launch_command.h"
#include "kvscope/model/kv_cache.h"
#include "kvscope/model/parameters.h"
#include "kvscope/scenario/figures.h"
#include "kvscope/scenario/parallel_layout.h"
#include "kvscope/scenario/scenario.h"

#include <cstdint>
#include <optional>
#include <string>

namespace kvscope {

// Where the engine keeps the model's weights, over all its GPUs: on the GPUs, and in host RAM,
// where some may be pinned (held whatever the split, and read by no decode step: llama.cpp's input
// embedding, whose rows are looked up). A tensor the engine holds twice counts twice.
struct WeightPlacement
{
    double gpuBytes = 0;
    double hostBytes = 0;       // all the host holds, the pinned bytes included
    double hostPinnedBytes = 0; // of those, what no decode step reads
};

class EngineModule
{
public:
    virtual ~EngineModule() = default;

    // Memory held on each GPU besides weights, KV and activations, in MiB: the runtime (CUDA
    // context, allocator), captured CUDA graphs counted in the budget, communicator buffers.
    virtual double overheadMiB(const Scenario& scenario) const;
    // Tokens per prefill forward when the engine splits a prompt into chunks; 0 = it runs the
    // prompt whole.
    virtual int64_t prefillChunkTokens(const Scenario& scenario) const;
    // Tokens in flight when the engine's activation peak is sized (its profiling forward).
    virtual int64_t profiledTokens(const Scenario& scenario) const;
    // Rows of logits its sampler holds at its peak, and FP32 logit-sized copies per row.
    virtual int64_t sampledRows(const Scenario& scenario) const;
    virtual double samplerLogitCopies(const Scenario& scenario) const;
    // The transient memory one GPU reserves for a forward where the engine sizes it by a rule
    // of its own (llama.cpp's worst-case graph), in bytes; nullopt: the activation peak of a
    // profiling forward, from profiledTokens, sampledRows and samplerLogitCopies.
    virtual std::optional<double> computeBufferBytes(const Scenario&, int /*ways*/) const
    {
        return std::nullopt;
    }
    // Where the weights lie, `totalBytes` of them as the format stores them: by default the
    // share of the layers on the GPUs (gpuLayerShare: all of them unless -ngl says otherwise) on
    // the GPUs, the rest in host RAM.
    virtual WeightPlacement placeWeights(const Scenario& scenario, const ParameterCount& parameters,
                                         double totalBytes) const;
    // KV layers kept on the GPU when the cache is offloaded.
    virtual int64_t gpuResidentKvLayers(const Scenario& scenario) const;
    // Whether layers and KV left in host RAM are computed there by the CPU (not copied over).
    virtual bool computesOnHost(const Scenario& scenario) const;
    // Whether a decode step's kernels are replayed as captured CUDA graphs (vLLM and llama.cpp
    // unless --enforce-eager says otherwise) or launched one by one (eager PyTorch), and the
    // fixed cost per layer per decode step that follows from it (efficiency.json).
    virtual bool capturesCudaGraphs(const Scenario& scenario) const;
    double layerOverheadUs(const Scenario& scenario) const;
    // Fixed time of one forward pass beside the per-layer launches: the engine's step overhead
    // and its MoE layers' routing and expert kernels.
    double forwardOverheadUs(const Scenario& scenario) const;
    // One MoE layer's routing and expert kernels a step (0 for a dense model): the engine's, and
    // on Apple silicon its Metal routing's; slower on ROCm (Scenario::moeKernelShare).
    double moeLayerUs(const Scenario& scenario) const;
    // The host's time per forward pass beside its layers: the engine's step, and on Apple
    // silicon the Metal graph's encoding.
    double stepOverheadUs(const Scenario& scenario) const;
    // Whether the engine's prefix cache is on for the scenario (its setting, else the release's
    // default), and the tokens of each prompt found in it: the workload's shared prefix as the
    // cache holds it (whole KV blocks), short of the whole prompt, whose last token is always
    // computed for its logits. 0 when the cache is off or the engine has none.
    virtual bool cachesPrefixes(const Scenario& scenario) const;
    int64_t cachedPrefixTokens(const Scenario& scenario) const;
    // Whether the engine drafts with a model's MTP layers (vLLM's speculative method "mtp"), and
    // the MTP layers the scenario loads (their weights and KV, beside the model's).
    virtual bool draftsWithMtp() const { return false; }
    virtual bool draftsWithModel() const { return false; }
    // Whether it drafts with an EAGLE head (vLLM's methods "eagle" and "eagle3", SGLang's
    // EAGLE and EAGLE3), and whether it drafts a tree (SGLang's topk over 1) or a chain only.
    virtual bool draftsWithEagle() const { return false; }
    virtual bool draftsEagleTrees() const { return false; }
    int64_t mtpLayersLoaded(const Scenario& s) const
    {
        return draftsWithMtp() && s.speculative.mtp ? s.model.mtpLayers : 0;
    }
    // Bytes of LoRA adapter slots each GPU holds (Scenario::lora), and whether kvscope knows the
    // engine's layout of them (vLLM's); 0 without adapters.
    virtual bool servesLora() const { return false; }
    virtual double loraBytesPerGpu(const Scenario&) const { return 0; }
    // Of those, the routed experts' slots: a decode step reads only the experts its tokens reach.
    virtual double loraExpertBytesPerGpu(const Scenario&) const { return 0; }
    // Whether the engine can give each GPU whole layers (--split-mode layer): vLLM by pipeline
    // parallel, llama.cpp and transformers by their layer split. TGI cannot: its shards are
    // tensor parallel only (launcher --num-shard).
    virtual bool splitsLayers() const { return true; }
    // Whether the engine serves one model from GPUs in several machines (vLLM over Ray or its
    // own multi-node launcher); the others run in one.
    virtual bool spansNodes() const { return false; }
    // Under data-parallel attention (Scenario::dpAttention), whether each rank also holds the
    // dense layers, shared experts and embeddings whole (vLLM, whose data-parallel ranks run
    // tensor parallel 1) or only the attention (SGLang, whose dense layers stay split over its
    // tensor-parallel GPUs).
    virtual bool dataParallelRanksHoldDenseWhole() const { return false; }
    // Batches the engine keeps in flight at once: one, or under pipeline parallel one per stage
    // so that every stage has work (vLLM), which makes a step of B requests last as one of B /
    // stages does.
    virtual int batchesInFlight(const Scenario&) const { return 1; }
    // Whether the engine can keep routed experts in host RAM (--n-cpu-moe, --cpu-moe), and
    // how many MoE layers' experts the scenario keeps there.
    virtual bool offloadsExperts() const;
    virtual int64_t expertLayersOnHost(const Scenario& scenario) const;
    // Whether a hybrid model's recurrent state is kept in float32 whatever the model's dtype
    // (llama.cpp), rather than as vLLM and transformers keep it.
    virtual bool recurrentStateInFloat32() const { return false; }
    // The KV cache's shape as the engine lays it out for the scenario: the model's own (with its
    // state as recurrentStateInFloat32() says) unless the engine sizes windowed layers or an MLA
    // latent its own way (llama.cpp: EngineProfile::kvLayout).
    virtual KvShape kvShape(const Scenario& scenario) const;
    // That shape with the drafters' KV in the same pool: the MTP layers loaded, a draft
    // model's layers or an EAGLE head's (vLLM keeps one pool for the model and its drafter;
    // SGLang a pool of the drafter's beside the model's, as many tokens).
    KvShape kvShapeWithDrafters(const Scenario& scenario) const;
    // What the engine logs about its KV cache at start-up; `kvRoomBytes` is the memory left for
    // KV on each GPU, counted as if the whole model's KV were there; none when no layer's KV is
    // on the GPU (then the engine sizes no GPU KV pool).
    virtual EngineFigures startupFigures(const Scenario& scenario, const KvFigures& kv,
                                         std::optional<double> kvRoomBytes) const;
    // Whether the engine makes these weights from the model's own (float) checkpoint while
    // loading it: a dtype, or quantizing at load (vLLM --quantization fp8, bitsandbytes). Other
    // formats need a checkpoint already in them (chooseCheckpoint()).
    virtual bool loadsOriginalAs(const WeightFormat& weights) const;
    // Whether it fetches a GGUF repository's file by its type (llama.cpp -hf REPO:Q4_K_M, vLLM
    // REPO:Q4_K_M), or needs the file's name (transformers gguf_file=).
    virtual bool fetchesGgufByType() const { return true; }
    // Whether it loads GGUF files only (llama.cpp): a published safetensors checkpoint is no use.
    virtual bool readsOnlyGguf() const { return false; }
    // The command that runs the scenario on this engine (launch_command.h).
    virtual LaunchCommand launchCommand(const Scenario& scenario) const;
};

// The module of an engine profile's family ("transformers", "vllm", "llamacpp", "tgi"); engines
// of an unknown family get the data-driven defaults.
const EngineModule& engineModule(const EngineProfile& engine);

} // namespace kvscope
