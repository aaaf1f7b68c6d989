// SPDX-License-Identifier: GPL-3.0-or-later
// vLLM: a memory budget of gpu_memory_utilization, a profiling run that sizes the activation peak
// and the sampler, CUDA graphs counted in the budget as the release does it, and the rest of the
// budget preallocated as KV blocks. What changed by release is data (engines.json "releases").
#include "engines/engine_modules.h"
#include "engines/lora_slots.h"
#include "kvscope/model/weights.h"

#include "kvscope/scenario/engine_profile.h"
#include "kvscope/scenario/setting.h"

#include <algorithm>
#include <string>
#include <vector>

namespace kvscope::engines {

namespace {
class VllmEngine final : public EngineModule
{
public:
    double overheadMiB(const Scenario& s) const override
    {
        return s.engine.runtimeOverheadMiB + (graphsInBudget(s) ? s.engine.cudaGraphMiB : 0.0) +
               tensorParallelBufferMiB(s);
    }

    // Model Runner V2, the default for dense models since v0.25.0, profiles a greedy sampler;
    // MoE models still run the classic runner, whose profile samples with top-k and top-p.
    // FlashInfer samples top-k/top-p without sorting the logits, so it holds no more than them.
    double samplerLogitCopies(const Scenario& s) const override
    {
        if (s.flashinferSampler)
            return 1.0;
        const double classic = s.engine.classicSamplerLogitCopies;
        return s.model.isMoe() && classic > 0 ? classic : s.engine.samplerLogitCopies;
    }

    bool loadsOriginalAs(const WeightFormat& w) const override
    {
        return EngineModule::loadsOriginalAs(w) || w.id == "fp8" || w.family == "bnb";
    }
    LaunchCommand launchCommand(const Scenario& s) const override;
    bool spansNodes() const override { return true; }
    bool dataParallelRanksHoldDenseWhole() const override { return true; }
    // Its scheduler keeps as many batches in flight as there are pipeline stages (V1:
    // EngineCore.batch_queue, sized by the executor's max_concurrent_batches, which is
    // pipeline_parallel_size; V0 ran one virtual engine per stage).
    int batchesInFlight(const Scenario& s) const override { return pipelineWays(s); }
    bool servesLora() const override { return true; }
    bool draftsWithMtp() const override { return true; }
    bool draftsWithModel() const override { return true; }
    bool draftsWithEagle() const override { return true; }
    // The MTP layers' and a draft model's attention keep their KV in the same pool as the
    // model's layers (one KV cache config for the target and the drafter).
    KvShape kvShape(const Scenario& s) const override { return kvShapeWithDrafters(s); }
    // Every linear layer's slots, the embedding's and lm_head's, and the experts'
    // (lora_slots.h).
    double loraBytesPerGpu(const Scenario& s) const override
    {
        return loraLayerSlotBytes(s, LoraEnds::Included) + loraExpertSlotBytes(s);
    }
    double loraExpertBytesPerGpu(const Scenario& s) const override
    {
        return loraExpertSlotBytes(s);
    }

private:
    // Graphs the release captures before sizing the KV cache count in the budget; the others
    // are captured afterwards, in the headroom outside it. --enforce-eager captures none.
    static bool graphsInBudget(const Scenario& s)
    {
        if (s.enforceEager)
            return false;
        switch (s.engine.cudaGraphsInBudget) {
        case CudaGraphAccounting::All:
            return true;
        case CudaGraphAccounting::MoeOnly:
            return s.model.isMoe();
        case CudaGraphAccounting::None:
            return false;
        }
        return true;
    }
};

constexpr int64_t kDefaultBlockSize = 16; // engine_args: --block-size defaults to 16 on CUDA

std::string number(double value)
{
    return settingValueText(SettingValue(value));
}

// --dtype for float checkpoints, --quantization where vLLM quantizes while loading; formats it
// reads from a quantized checkpoint's quantization_config need the right checkpoint, not a flag.
void addWeightFlags(const Scenario& s, std::vector<std::string>& parts, LaunchCommand& c)
{
    const std::string& f = s.weights.id;
    if (f == "fp16" || f == "bf16" || f == "fp32")
        parts.push_back("--dtype " + std::string(f == "fp16"   ? "float16"
                                                 : f == "bf16" ? "bfloat16"
                                                               : "float32"));
    else if (f == "fp8")
        parts.push_back("--quantization fp8"); // FP8 weights quantized at load time
    else if (s.weights.family == "bnb")
        parts.push_back("--quantization bitsandbytes");
    else if (s.weights.family == "gguf" && !s.model.hfRepo.empty())
        parts.push_back("--tokenizer " + shellWord(s.model.hfRepo)); // GGUF's own is slow
    else if (s.weights.family != "gguf")
        c.notes.push_back("vLLM reads " + s.weights.name +
                          " from the checkpoint's quantization_config.");
}

// Several nodes: the command runs on the head of a Ray cluster that joins them, and vLLM places
// the pipeline stages on its nodes (docs/serving/parallelism_scaling.md).
void addNodeFlags(const Scenario& s, std::vector<std::string>& parts, LaunchCommand& c)
{
    if (s.nodes <= 1)
        return;
    parts.push_back("--distributed-executor-backend ray");
    c.notes.push_back("Run this on the head node of a Ray cluster of the " +
                      std::to_string(s.nodes) + " nodes: `ray start --head` there, `ray start " +
                      "--address=HEAD_IP:6379` on each other node, then check `ray status` " +
                      "lists " + std::to_string(s.gpuCount) + " GPUs.");
}

// Data-parallel attention: its ranks, each tensor parallel over its GPUs (one by default), the
// expert layers over all of them; over several nodes each runs its share of the ranks, the head
// node serving the API (docs/serving/data_parallel_deployment.md).
void addDataParallelAttentionFlags(const Scenario& s, std::vector<std::string>& parts,
                                   LaunchCommand& c)
{
    const int ranks = attentionRanks(s);
    if (const int perRank = tensorWays(s) / ranks; perRank > 1)
        parts.push_back("--tensor-parallel-size " + std::to_string(perRank));
    parts.push_back("--data-parallel-size " + std::to_string(ranks));
    if (s.nodes <= 1)
        return;
    const int local = ranks / s.nodes;
    parts.push_back("--data-parallel-size-local " + std::to_string(local) +
                    " --data-parallel-address HEAD_IP --data-parallel-rpc-port 13345");
    c.notes.push_back("On each other node run the same with --headless and "
                      "--data-parallel-start-rank " +
                      std::to_string(local) + ", " + std::to_string(2 * local) +
                      ", ... (its first rank); HEAD_IP is this node's address.");
}

// Tensor and pipeline parallel, expert parallel, and data-parallel ranks. vLLM's data parallel
// of a MoE model shares its expert layers over every rank, so copies of one run as separate
// servers, each whole (launch_command.cpp's note); a dense model's ranks are whole copies.
void addParallelFlags(const Scenario& s, std::vector<std::string>& parts, LaunchCommand& c)
{
    if (s.dpAttention)
        addDataParallelAttentionFlags(s, parts, c);
    else if (tensorWays(s) > 1)
        parts.push_back("--tensor-parallel-size " + std::to_string(tensorWays(s)));
    if (pipelineWays(s) > 1)
        parts.push_back("--pipeline-parallel-size " + std::to_string(pipelineWays(s)));
    if (s.expertParallel)
        parts.push_back("--enable-expert-parallel");
    // Copies in one node are vLLM's data parallel; across nodes they are separate servers.
    if (s.replicas > 1 && s.nodes == 1 && !s.model.isMoe())
        parts.push_back("--data-parallel-size " + std::to_string(s.replicas));
    else if (s.replicas > 1 && s.nodes == 1)
        c.notes.push_back("Not --data-parallel-size: vLLM's data-parallel ranks of a MoE model "
                          "share its experts (kvscope's --dp-attention on), where these copies "
                          "each hold all of them.");
    if (!s.dpAttention)
        addNodeFlags(s, parts, c);
}

// The checkpoint in the chosen weights; a GGUF repository as REPO:TYPE, which vLLM's GGUF loader
// fetches (vllm/model_executor/model_loader/gguf_loader.py: "<repo_id>:<quant_type>").
std::string servedModel(const Scenario& s, LaunchCommand& c)
{
    const CheckpointChoice checkpoint = chooseCheckpoint(s);
    if (!checkpoint.note.empty())
        c.notes.push_back(checkpoint.note);
    return shellWord(checkpoint.ggufType.empty() ? checkpoint.name
                                                 : checkpoint.name + ":" + checkpoint.ggufType);
}

LaunchCommand VllmEngine::launchCommand(const Scenario& s) const
{
    LaunchCommand c;
    c.language = "sh";
    c.source = "https://docs.vllm.ai/en/latest/configuration/engine_args.html";
    std::vector<std::string> parts;
    std::string env;
    if (s.vllmUseV1)
        env += std::string("VLLM_USE_V1=") + (*s.vllmUseV1 ? "1 " : "0 ");
    if (s.flashinferSampler)
        env += "VLLM_USE_FLASHINFER_SAMPLER=1 ";
    parts.push_back(env + "vllm serve " + servedModel(s, c));
    addParallelFlags(s, parts, c);
    parts.push_back("--max-model-len " + std::to_string(s.context));
    parts.push_back("--gpu-memory-utilization " + number(s.effectiveMemoryFraction()));
    addWeightFlags(s, parts, c);
    if (s.kvDtype.id == "fp8")
        parts.push_back("--kv-cache-dtype fp8");
    else if (s.kvDtype.id != "fp16" && s.kvDtype.id != "bf16")
        c.notes.push_back("vLLM's KV cache is the model's dtype or fp8; it has no " +
                          s.kvDtype.name + " cache.");
    // Batch limits only where they differ from what this release picks for this GPU.
    const bool large = takesLargeGpuDefaults(s.engine, s.gpu);
    const int64_t seqsDefault = large ? s.engine.largeGpuMaxNumSeqs : s.engine.baseMaxNumSeqs;
    if (s.engine.maxNumSeqs > 0 && s.engine.maxNumSeqs != seqsDefault)
        parts.push_back("--max-num-seqs " + std::to_string(s.engine.maxNumSeqs));
    const int64_t chunkDefault =
        large ? s.engine.largeGpuPrefillChunkTokens : s.engine.basePrefillChunkTokens;
    if (s.engine.prefillChunkTokens > 0 && s.engine.prefillChunkTokens != chunkDefault)
        parts.push_back("--max-num-batched-tokens " + std::to_string(s.engine.prefillChunkTokens));
    if (s.engine.kvBlockTokens != kDefaultBlockSize)
        parts.push_back("--block-size " + std::to_string(s.engine.kvBlockTokens));
    // vllm/config/speculative.py: method "mtp" (the models' own names, deepseek_mtp and the
    // like, are mapped to it).
    if (s.speculative.mtp)
        parts.push_back("--speculative-config '{\"method\": \"mtp\", "
                        "\"num_speculative_tokens\": " +
                        std::to_string(s.speculative.draftTokens) + "}'");
    if (const ModelSpec* draft = s.speculative.draft.get())
        parts.push_back(
            "--speculative-config '{\"method\": \"draft_model\", \"model\": \"" +
            (draft->hfRepo.empty() ? draft->id : draft->hfRepo) +
            "\", \"num_speculative_tokens\": " + std::to_string(s.speculative.draftTokens) + "}'");
    if (s.speculative.eagle != EagleMethod::Off) {
        parts.push_back("--speculative-config '{\"method\": \"" +
                        std::string(eagleMethodId(s.speculative.eagle)) +
                        "\", \"model\": \"EAGLE_HEAD\", \"num_speculative_tokens\": " +
                        std::to_string(s.speculative.draftTokens) + "}'");
        c.notes.push_back(eagleHeadNote(s));
    }
    if (s.lora.maxLoras > 0) {
        parts.push_back("--enable-lora --max-loras " + std::to_string(s.lora.maxLoras));
        if (s.lora.maxRank != LoraAdapters().maxRank)
            parts.push_back("--max-lora-rank " + std::to_string(s.lora.maxRank));
        if (s.lora.fullySharded)
            parts.push_back("--fully-sharded-loras");
        c.notes.push_back("Name the adapters with --lora-modules NAME=PATH (or load them at run "
                          "time); each must have a rank of at most " +
                          std::to_string(s.lora.maxRank) + ".");
    }
    if (s.enforceEager)
        parts.push_back("--enforce-eager");
    // Only where the choice differs from the release's default (on in V1, off in V0).
    if (s.prefixCaching && *s.prefixCaching != s.engine.prefixCache.onByDefault)
        parts.push_back(*s.prefixCaching ? "--enable-prefix-caching"
                                         : "--no-enable-prefix-caching");
    if (s.preemptBySwap)
        parts.push_back("--preemption-mode swap");
    if (s.preemptBySwap && s.swapSpaceGiB != Scenario().swapSpaceGiB)
        parts.push_back("--swap-space " + number(s.swapSpaceGiB));
    noteKvOnGpuOnly("vLLM", s, c);
    if (s.offloadWeights)
        c.notes.push_back("Add --cpu-offload-gb with the GiB of weights per GPU that do not "
                          "fit.");
    if (!s.engineVersion.empty())
        c.notes.push_back("Flags as vLLM " + s.engineVersion +
                          " names them; check `vllm serve --help` on older releases.");
    c.text = shellCommand(parts);
    return c;
}

} // namespace

const EngineModule& vllm()
{
    static const VllmEngine module;
    return module;
}

} // namespace kvscope::engines
