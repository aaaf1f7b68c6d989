// SPDX-License-Identifier: GPL-3.0-or-later
// SGLang: weights and the KV pool share --mem-fraction-static of the memory free before loading;
// activations and CUDA graphs live in the rest, which the default share sizes by its own rule
// (scenario/reserved_memory.h). The pool takes every byte of the share the weights leave, token
// by token (page size 1), and its radix cache shares prompt prefixes between requests
// (model_runner_kv_cache_mixin.py profile_max_num_token; server_args.py).
#include "engines/engine_modules.h"
#include "engines/lora_slots.h"

#include "kvscope/scenario/parallel_layout.h"
#include "kvscope/scenario/reserved_memory.h"
#include "kvscope/scenario/setting.h"

#include <cmath>
#include <string>
#include <vector>

namespace kvscope::engines {

namespace {

class SglangEngine final : public EngineModule
{
public:
    // What the process holds before SGLang measures the free memory (the CUDA context, the
    // communicators) leaves that memory out of the share: the share of it is what it costs.
    double overheadMiB(const Scenario& s) const override
    {
        return (s.engine.runtimeOverheadMiB + tensorParallelBufferMiB(s)) *
               s.effectiveMemoryFraction();
    }
    // Activations and graphs are outside the share, in the reserve.
    std::optional<double> computeBufferBytes(const Scenario&, int) const override { return 0.0; }
    int64_t prefillChunkTokens(const Scenario& s) const override
    {
        return reservedMemoryDefaults(s).chunkedPrefillTokens;
    }
    bool loadsOriginalAs(const WeightFormat& w) const override
    {
        return EngineModule::loadsOriginalAs(w) || w.id == "fp8" || w.family == "bnb";
    }
    bool spansNodes() const override { return true; }
    // Its pipeline keeps a micro-batch in flight per stage (scheduler_pp_mixin.py).
    int batchesInFlight(const Scenario& s) const override { return pipelineWays(s); }
    // NEXTN (DeepSeek's MTP layers), STANDALONE (a draft model) and EAGLE heads keep their KV
    // beside the model's, as many tokens as its pool (pool_configurator.py scales the cell by
    // the draft's layers; eagle_worker.py: "Draft and target worker own their own KV cache
    // pools").
    bool draftsWithMtp() const override { return true; }
    bool draftsWithModel() const override { return true; }
    bool draftsWithEagle() const override { return true; }
    bool draftsEagleTrees() const override { return true; }
    KvShape kvShape(const Scenario& s) const override { return kvShapeWithDrafters(s); }
    // LoRAMemoryPool, allocated before the KV cache is sized, so it comes out of the share; its
    // target modules are the decoder's linear layers, the ends only when asked (lora_slots.h).
    bool servesLora() const override { return true; }
    double loraBytesPerGpu(const Scenario& s) const override
    {
        return loraLayerSlotBytes(s, LoraEnds::Left) + loraExpertSlotBytes(s);
    }
    double loraExpertBytesPerGpu(const Scenario& s) const override
    {
        return loraExpertSlotBytes(s);
    }
    LaunchCommand launchCommand(const Scenario& s) const override;
};

std::string number(double value)
{
    return settingValueText(SettingValue(std::round(value * 1000) / 1000));
}

// --dtype for float checkpoints, --quantization where SGLang quantizes while loading; the other
// formats are read from the checkpoint's quantization_config.
void addWeightFlags(const Scenario& s, std::vector<std::string>& parts, LaunchCommand& c)
{
    const std::string& f = s.weights.id;
    if (f == "fp16" || f == "bf16")
        parts.push_back("--dtype " + std::string(f == "fp16" ? "float16" : "bfloat16"));
    else if (f == "fp8")
        parts.push_back("--quantization fp8");
    else if (s.weights.family == "bnb")
        parts.push_back("--quantization bitsandbytes");
    else
        c.notes.push_back("SGLang reads " + s.weights.name +
                          " from the checkpoint's quantization_config.");
}

// Tensor parallel inside each node, a pipeline stage per node; the same command runs on every
// node with its own --node-rank (docs: multi-node deployment).
void addParallelFlags(const Scenario& s, std::vector<std::string>& parts, LaunchCommand& c)
{
    if (tensorWays(s) > 1)
        parts.push_back("--tp-size " + std::to_string(tensorWays(s)));
    if (pipelineWays(s) > 1)
        parts.push_back("--pp-size " + std::to_string(pipelineWays(s)));
    if (s.expertParallel) // its --enable-ep-moe became --ep-size (the tensor-parallel GPUs)
        parts.push_back("--ep-size " + std::to_string(expertWays(s)) +
                        (s.deepEp ? " --moe-a2a-backend deepep" : ""));
    if (s.dpAttention) // --dp-size counts the attention ranks, here every tensor-parallel GPU
        parts.push_back("--enable-dp-attention --dp-size " + std::to_string(attentionRanks(s)));
    else if (s.replicas > 1 && s.nodes == 1)
        parts.push_back("--dp-size " + std::to_string(s.replicas));
    if (s.nodes <= 1)
        return;
    parts.push_back("--nnodes " + std::to_string(s.nodes) +
                    " --node-rank 0 --dist-init-addr HEAD_IP:5000");
    c.notes.push_back("Run the same command on each of the " + std::to_string(s.nodes) +
                      " nodes with --node-rank 0 to " + std::to_string(s.nodes - 1) +
                      "; HEAD_IP is the address of the node with rank 0.");
}

// NEXTN drafts with the checkpoint's own MTP layers; STANDALONE with a smaller model; EAGLE
// and EAGLE3 with a head trained for the model, in a tree when topk is over 1 (a chain, topk 1,
// makes num_draft_tokens steps + 1).
void addSpeculativeFlags(const Scenario& s, std::vector<std::string>& parts,
                         std::vector<std::string>& notes)
{
    const int64_t k = s.speculative.draftTokens;
    const std::string steps =
        " --speculative-num-steps " + std::to_string(k) + " --speculative-eagle-topk " +
        std::to_string(s.speculative.eagleTopk) + " --speculative-num-draft-tokens " +
        std::to_string(s.speculative.tokensVerified());
    if (s.speculative.eagle != EagleMethod::Off) {
        parts.push_back(std::string("--speculative-algorithm ") +
                        (s.speculative.eagle == EagleMethod::Eagle3 ? "EAGLE3" : "EAGLE") +
                        " --speculative-draft-model-path EAGLE_HEAD" + steps);
        notes.push_back(eagleHeadNote(s));
    }
    if (s.speculative.mtp)
        parts.push_back("--speculative-algorithm NEXTN" + steps);
    if (const ModelSpec* draft = s.speculative.draft.get())
        parts.push_back("--speculative-algorithm STANDALONE --speculative-draft-model-path " +
                        shellWord(draft->hfRepo.empty() ? draft->id : draft->hfRepo) + steps);
}

LaunchCommand SglangEngine::launchCommand(const Scenario& s) const
{
    LaunchCommand c;
    c.language = "sh";
    c.source = "https://docs.sglang.ai/advanced_features/server_arguments.html";
    const CheckpointChoice checkpoint = chooseCheckpoint(s);
    if (!checkpoint.note.empty())
        c.notes.push_back(checkpoint.note);
    std::vector<std::string> parts{"python3 -m sglang.launch_server --model-path " +
                                   shellWord(checkpoint.name)};
    addParallelFlags(s, parts, c);
    parts.push_back("--context-length " + std::to_string(s.context));
    parts.push_back("--mem-fraction-static " + number(s.effectiveMemoryFraction()));
    addWeightFlags(s, parts, c);
    if (s.kvDtype.id == "fp8")
        parts.push_back("--kv-cache-dtype fp8_e4m3");
    else if (s.kvDtype.id != "fp16" && s.kvDtype.id != "bf16")
        c.notes.push_back("SGLang's KV cache is the model's dtype or FP8; it has no " +
                          s.kvDtype.name + " cache.");
    if (s.engine.prefillChunkTokens > 0)
        parts.push_back("--chunked-prefill-size " + std::to_string(s.engine.prefillChunkTokens));
    addSpeculativeFlags(s, parts, c.notes);
    if (s.lora.maxLoras > 0) {
        parts.push_back("--enable-lora --max-loras-per-batch " + std::to_string(s.lora.maxLoras) +
                        " --max-lora-rank " + std::to_string(s.lora.maxRank) +
                        " --lora-target-modules q_proj k_proj v_proj o_proj gate_proj up_proj "
                        "down_proj");
        c.notes.push_back("Name the adapters with --lora-paths NAME=PATH (or load them at run "
                          "time); each must have a rank of at most " +
                          std::to_string(s.lora.maxRank) +
                          ". SGLang counts the base model's requests in --max-loras-per-batch.");
    }
    if (s.prefixCaching && !*s.prefixCaching)
        parts.push_back("--disable-radix-cache");
    if (s.enforceEager)
        parts.push_back("--disable-cuda-graph");
    noteKvOnGpuOnly("SGLang", s, c);
    if (s.offloadWeights)
        c.notes.push_back("Add --cpu-offload-gb with the GiB of weights per GPU that do not "
                          "fit.");
    c.text = shellCommand(parts);
    return c;
}

} // namespace

const EngineModule& sglang()
{
    static const SglangEngine module;
    return module;
}

} // namespace kvscope::engines
