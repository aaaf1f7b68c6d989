// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/scenario/scenario.h"

#include "kvscope/base/number_format.h"
#include "kvscope/engines/engine_module.h"
#include "kvscope/scenario/parallel_layout.h"
#include "kvscope/settings/settings_registry.h"
#include "settings/number_ranges.h"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace kvscope {

namespace {

std::string show(double v)
{
    if (std::isnan(v))
        return "NaN";
    if (std::isinf(v))
        return v > 0 ? "infinity" : "-infinity";
    return formatPlain(v);
}

// validate() runs first in every evaluation, so its success path must cost next to nothing:
// field names stay C strings, the range test is inline, and the error (strings, formatting) is
// built out of line only when a value is refused.
[[gnu::cold, gnu::noinline]] FieldError intError(const char* field, int64_t v, int64_t lo,
                                                 int64_t hi)
{
    return FieldError{field, std::to_string(v),
                      "an integer from " + formatInteger(lo) + " to " + formatInteger(hi)};
}

[[gnu::cold, gnu::noinline]] FieldError realError(const char* field, double v, double lo, double hi,
                                                  bool openLow)
{
    return FieldError{field, show(v),
                      std::string("a number ") + (openLow ? "above " : "from ") + show(lo) +
                          (openLow ? " up to " : " to ") + show(hi)};
}

[[gnu::always_inline]] inline std::optional<FieldError> checkInt(const char* field, int64_t v,
                                                                 int64_t lo, int64_t hi)
{
    if (v >= lo && v <= hi) [[likely]]
        return std::nullopt;
    return intError(field, v, lo, hi);
}

[[gnu::always_inline]] inline std::optional<FieldError>
checkReal(const char* field, double v, double lo, double hi, bool openLow = true)
{
    const bool low = openLow ? v > lo : v >= lo;
    if (std::isfinite(v) && low && v <= hi) [[likely]]
        return std::nullopt;
    return realError(field, v, lo, hi, openLow);
}

[[gnu::cold, gnu::noinline]] FieldError registeredError(const Setting& s, const SettingValue& v)
{
    const std::string got =
        std::holds_alternative<double>(v) ? showNumber(std::get<double>(v)) : settingValueText(v);
    return FieldError{s.id, got, acceptedText(s)};
}

[[gnu::cold, gnu::noinline]] FieldError numberError(const Setting& s, const Scenario& scenario)
{
    return registeredError(s, currentValue(s, scenario).value_or(SettingValue(0.0)));
}

} // namespace

std::optional<FieldError> validateModel(const ModelSpec& m)
{
    using limits::maxDimension;
    if (auto e = checkInt("model.num_hidden_layers", m.layers, 1, 100'000))
        return e;
    if (auto e = checkInt("model.hidden_size", m.hiddenSize, 1, maxDimension))
        return e;
    if (auto e = checkInt("model.num_attention_heads", m.queryHeads, 1, maxDimension))
        return e;
    if (auto e = checkInt("model.head_dim", m.headDim, 1, 65'536))
        return e;
    if (auto e = checkInt("model.vocab_size", m.vocabSize, 1, limits::maxVocab))
        return e;
    if (auto e = checkInt("model.intermediate_size", m.intermediateSize, 0, maxDimension))
        return e;
    if (m.isMla()) {
        if (auto e = checkInt("model.kv_lora_rank", m.kvLoraRank, 1, maxDimension))
            return e;
        if (auto e = checkInt("model.qk_rope_head_dim", m.qkRopeHeadDim, 0, maxDimension))
            return e;
        if (auto e = checkInt("model.v_head_dim", m.vHeadDim, 1, maxDimension))
            return e;
        if (auto e = checkInt("model.qk_nope_head_dim", m.qkNopeHeadDim, 0, maxDimension))
            return e;
    } else {
        if (auto e = checkInt("model.num_key_value_heads", m.kvHeads, 1, m.queryHeads))
            return e;
        if (m.queryHeads % m.kvHeads != 0)
            return FieldError{"model.num_key_value_heads", std::to_string(m.kvHeads),
                              "a divisor of num_attention_heads (" + std::to_string(m.queryHeads) +
                                  ")"};
    }
    if (auto e = checkInt("model.sliding_window", m.slidingWindow, 0, limits::maxContext))
        return e;
    if (m.slidingWindow > 0 && int64_t(m.windowedLayers.size()) != m.layers)
        return FieldError{"model.layer_types", std::to_string(m.windowedLayers.size()) + " entries",
                          "one entry per layer (" + std::to_string(m.layers) + ")"};
    if (m.experts > 0 || m.expertsPerToken > 0) {
        if (auto e = checkInt("model.num_experts", m.experts, 1, 100'000))
            return e;
        if (auto e = checkInt("model.num_experts_per_tok", m.expertsPerToken, 1, m.experts))
            return e;
        if (auto e = checkInt("model.moe_intermediate_size", m.expertIntermediate, 0, maxDimension))
            return e;
        if (auto e = checkInt("model.first_k_dense_replace", m.denseLayers, 0, m.layers))
            return e;
        if (auto e = checkInt("model.n_shared_experts", m.sharedExperts, 0, 100'000))
            return e;
    }
    return std::nullopt;
}

std::optional<FieldError> validateGpu(const GpuSpec& g)
{
    if (auto e = checkReal("gpu.memory_gib", g.memoryGiB, 0, limits::maxMemoryGiB))
        return e;
    if (auto e =
            checkReal("gpu.memory_bandwidth_gb_per_s", g.bandwidthGBps, 0, limits::maxRateGBps))
        return e;
    if (auto e = checkReal("gpu.fp16_tensor_tflops", g.fp16Tflops, 0, limits::maxTflops))
        return e;
    if (auto e = checkReal("gpu.fp8_tensor_tflops", g.fp8Tflops, 0, limits::maxTflops, false))
        return e;
    if (auto e = checkReal("gpu.int8_tensor_tops", g.int8Tops, 0, limits::maxTflops, false))
        return e;
    if (auto e = checkReal("gpu.gpu_usable_fraction", g.usableFraction, 0, 1))
        return e;
    return std::nullopt;
}

namespace {

// The figures a scenario takes from catalog entries (weights, KV dtype, link, engine, disks).
std::optional<FieldError> validateEntryFigures(const Scenario& s)
{
    if (auto e = checkReal("weights.bits_per_weight", s.weights.bitsPerWeight, 0, 64))
        return e;
    if (auto e = checkReal("weights.embedding_bits", s.weights.embeddingBits, 0, 64))
        return e;
    if (auto e = checkReal("kv_dtype.bits_per_element", s.kvDtype.bitsPerElement, 0, 64))
        return e;
    if (auto e = checkReal("pcie.gt_per_s", s.pcie.gtPerS, 0, 10'000))
        return e;
    if (auto e = checkReal("pcie.encoding_efficiency", s.pcie.encodingEfficiency, 0, 1))
        return e;
    if (auto e = checkReal("engine.memory_fraction", s.engine.memoryFraction, 0, 1))
        return e;
    if (auto e = checkReal("engine.cuda_graph_mib", s.engine.cudaGraphMiB, 0, 1e7, false))
        return e;
    if (auto e = checkReal("engine.decode_step.python_dispatch_us_per_layer",
                           s.engine.pythonDispatchUsPerLayer, 0, 1e5, false))
        return e;
    if (auto e = checkReal("engine.decode_step.step_overhead_us", s.engine.stepOverheadUs, 0, 1e6,
                           false))
        return e;
    if (auto e = checkReal("engine.decode_step.moe_layer_us", s.engine.moeLayerUs, 0, 1e5, false))
        return e;
    if (auto e = checkReal("engine.decode_step.metal_step_overhead_us",
                           s.engine.metalStepOverheadUs, 0, 1e6, false))
        return e;
    if (auto e = checkReal("engine.decode_step.hbm_layer_us", s.engine.hbmLayerUs, 0, 1e5, false))
        return e;
    if (auto e = checkReal("engine.decode_step.metal_moe_layer_us", s.engine.metalMoeLayerUs, 0,
                           1e5, false))
        return e;
    if (auto e = checkReal("engine.tensor_parallel_overhead_mib",
                           s.engine.tensorParallelOverheadMiB, 0, 1e7, false))
        return e;
    if (auto e = checkReal("weights.kernel_efficiency", s.weights.kernelEfficiency, 0, 1))
        return e;
    if (auto e = checkReal("nvme.read_gb_per_s", s.nvme.readGBps, 0, limits::maxRateGBps))
        return e;
    if (auto e = checkReal("sata.read_gb_per_s", s.sata.readGBps, 0, limits::maxRateGBps))
        return e;
    if (auto e = checkReal("host_memory.bandwidth_gb_per_s", s.hostMemory.bandwidthGBps, 0,
                           limits::maxRateGBps))
        return e;
    return std::nullopt;
}

// Every registry number and the lanes, a choice the scenario holds as an integer.
std::optional<FieldError> validateRegistryValues(const Scenario& s)
{
    // Every registry number; a setting added to the registry is checked here without a line.
    // Choices are checked where a door parses them; the lanes, an integer here, are below.
    if (!registryNumbersInRange(s)) [[unlikely]]
        if (const Setting* refused = firstNumberOutOfRange(s))
            return numberError(*refused, s);
    static const Setting* const lanes = settingById("lanes");
    static const std::vector<int> laneChoices = [] {
        std::vector<int> choices;
        for (const std::string& c : lanes->choices)
            choices.push_back(std::stoi(c));
        return choices;
    }();
    if (std::find(laneChoices.begin(), laneChoices.end(), s.pcieLanes) == laneChoices.end())
        [[unlikely]]
        return registeredError(*lanes, SettingValue(std::to_string(s.pcieLanes)));
    return std::nullopt;
}

// Several nodes: alike, each with a share of the GPUs, under an engine that spans machines.
std::optional<FieldError> validateNodes(const Scenario& s)
{
    if (s.nodes <= 1) [[likely]]
        return std::nullopt;
    const std::string nodes = std::to_string(s.nodes);
    if (s.gpuCount % s.nodes != 0 || s.gpuCount < s.nodes)
        return FieldError{"nodes", nodes,
                          "a count that divides the " + std::to_string(s.gpuCount) +
                              " GPUs evenly: every node holds as many"};
    if (!engineModule(s.engine).spansNodes())
        return FieldError{"nodes", nodes,
                          "1 with the " + s.engine.name +
                              " engine: it serves from one machine (vLLM and SGLang span several)"};
    if (s.gpu.unifiedMemory)
        return FieldError{"nodes", nodes, "1 with " + s.gpu.name + ": one machine"};
    if (s.nodeLink.gbitPerS <= 0 || s.nodeLink.latencyUs <= 0)
        return FieldError{"node_link", s.nodeLink.id.empty() ? "none" : s.nodeLink.id,
                          "a network between the nodes from the catalog's node_links"};
    return std::nullopt;
}

// Stated ranks divide the stage's GPUs, each rank's share whole (and, with vLLM over several
// nodes, each node's GPUs whole ranks: its --data-parallel-size-local).
std::optional<FieldError> validateAttentionRanks(const Scenario& s)
{
    const int ranks = s.attentionRanksStated;
    if (ranks == 0)
        return std::nullopt;
    const int ways = tensorWays(s);
    const int perNode = s.engine.family == EngineFamily::Vllm ? std::max(1, s.nodes) : 1;
    if (ranks < 2 || ranks > ways || ways % ranks != 0 || ranks % perNode != 0)
        return FieldError{"attention_ranks", std::to_string(ranks),
                          "0 (a rank per GPU) or a divisor of the stage's " + std::to_string(ways) +
                              " GPUs from 2 up" +
                              (perNode > 1 ? ", whole ranks on each node" : "")};
    return std::nullopt;
}

// SGLang's --enable-dp-attention shares the requests over its tensor-parallel GPUs; its --dp-size
// is then those GPUs, so replicas are separate servers and one GPU has nothing to share. vLLM's
// --data-parallel-size does the same for a MoE model, whose expert layers then span every rank
// (docs/serving/data_parallel_deployment.md); its ranks of a dense model are whole copies, and
// each rank runs every layer, so there is no pipeline stage per node.
std::optional<FieldError> validateDpAttention(const Scenario& s)
{
    if (!s.dpAttention) [[likely]] {
        if (s.attentionRanksStated != 0)
            return FieldError{"attention_ranks", std::to_string(s.attentionRanksStated),
                              "0 without data-parallel attention (--dp-attention on)"};
        return std::nullopt;
    }
    const bool vllm = s.engine.family == EngineFamily::Vllm;
    if (s.engine.family != EngineFamily::Sglang && !vllm)
        return FieldError{"dp_attention", "on",
                          "off with the " + s.engine.name +
                              " engine: kvscope models SGLang's --enable-dp-attention and vLLM's "
                              "--data-parallel-size over a MoE model"};
    if (vllm && !s.model.isMoe())
        return FieldError{"dp_attention", "on",
                          "off with a dense model under vLLM: its data-parallel ranks are then "
                          "whole copies (--replicas)"};
    if (vllm && pipelineWays(s) > 1)
        return FieldError{"node_split", "pipeline",
                          "tensor with vLLM's data-parallel attention: each rank runs every layer"};
    if (tensorWays(s) <= 1)
        return FieldError{"dp_attention", "on", "off on one GPU: nothing to share out"};
    if (auto error = validateAttentionRanks(s))
        return error;
    if (s.replicas > 1)
        return FieldError{"replicas", std::to_string(s.replicas),
                          "1 with data-parallel attention: the engine's data-parallel size then "
                          "counts the attention ranks"};
    return std::nullopt;
}

// Expert parallel shares a MoE model's experts over the tensor-parallel GPUs of vLLM or SGLang;
// their data-parallel ranks would share them wider (vLLM's EP group is DP x TP), which replicas,
// copies with GPUs of their own, are not.
std::optional<FieldError> validateExpertParallel(const Scenario& s)
{
    // DeepEP exchanges SGLang's experts, which its expert parallel shares (ep_size = tp_size).
    if (s.deepEp && (s.engine.family != EngineFamily::Sglang || !s.expertParallel)) [[unlikely]]
        return FieldError{"moe_a2a_backend", "deepep",
                          "none unless SGLang runs expert parallel (--expert-parallel on): "
                          "kvscope models DeepEP as SGLang's --moe-a2a-backend"};
    if (!s.expertParallel) [[likely]]
        return std::nullopt;
    auto refuse = [](const std::string& accepted) {
        return FieldError{"expert_parallel", "on", accepted};
    };
    if (s.engine.family != EngineFamily::Vllm && s.engine.family != EngineFamily::Sglang)
        return refuse("off with the " + s.engine.name +
                      " engine: kvscope models expert parallel as vLLM and SGLang run it");
    if (!s.model.isMoe())
        return refuse("off for " + s.model.name + ": it has no routed experts");
    if (tensorWays(s) <= 1)
        return refuse("off on one GPU a stage: nothing to share the experts over");
    if (s.replicas > 1)
        return FieldError{"replicas", std::to_string(s.replicas),
                          "1 with expert parallel: data-parallel ranks would share the experts "
                          "(vLLM's EP group is DP x TP), which kvscope does not model"};
    return std::nullopt;
}

// The shared prefix is part of the prompt; a cache the engine does not have cannot be turned on.
std::optional<FieldError> validatePrefixCache(const Scenario& s)
{
    const Workload& w = s.workload;
    if (w.sharedPrefixTokens > w.promptTokens) [[unlikely]]
        return FieldError{"shared_prefix_tokens", std::to_string(w.sharedPrefixTokens),
                          "at most the prompt's " + std::to_string(w.promptTokens) +
                              " tokens (prompt_tokens): the shared prefix is part of the prompt"};
    if (s.prefixCaching.value_or(false) &&
        s.engine.prefixCache.sharing == EngineProfile::PrefixCache::Sharing::None) [[unlikely]]
        return FieldError{"prefix_caching", "on",
                          "off with the " + s.engine.name +
                              " engine: it keeps no prompt's KV from one request to the next"};
    return std::nullopt;
}

// Flash attention is a switch of llama.cpp's alone: the other engines pick their attention
// kernels themselves and never hold the score matrix.
std::optional<FieldError> validateFlashAttention(const Scenario& s)
{
    if (s.flashAttention && s.engine.family != EngineFamily::LlamaCpp) [[unlikely]]
        return FieldError{"flash_attention", *s.flashAttention ? "on" : "off",
                          "unset with the " + s.engine.name +
                              " engine: only llama.cpp has the switch (-fa)"};
    if (s.flashAttention == false && s.kvDtype.bitsPerElement < 16) [[unlikely]]
        return FieldError{"flash_attention", "off",
                          "on with a " + s.kvDtype.name +
                              " KV cache: llama.cpp quantizes the V cache only with flash "
                              "attention"};
    return std::nullopt;
}

// LoRA slots as vLLM and SGLang allocate them (vllm/lora/layers, vllm/config/lora.py; SGLang's
// lora/mem_pool.py).
std::optional<FieldError> validateLora(const Scenario& s)
{
    const LoraAdapters& lora = s.lora;
    if (lora.maxLoras <= 0)
        return std::nullopt;
    const std::string count = std::to_string(lora.maxLoras);
    if (!engineModule(s.engine).servesLora()) [[unlikely]]
        return FieldError{"max_loras", count,
                          "0 with the " + s.engine.name +
                              " engine: kvscope models LoRA adapters' memory as vLLM and "
                              "SGLang hold it"};
    if (s.model.isMla()) [[unlikely]]
        return FieldError{"max_loras", count,
                          "0 for an MLA model: the slots for its latent projections are not "
                          "modelled"};
    if (lora.fullySharded && s.engine.family != EngineFamily::Vllm) [[unlikely]]
        return FieldError{"fully_sharded_loras", "on",
                          "off with the " + s.engine.name + " engine: the flag is vLLM's"};
    // LogitsProcessorWithLoRA: "When using LoRA, vocab size must be <= 258048".
    if (s.engine.family == EngineFamily::Vllm && s.model.vocabSize > 258048) [[unlikely]]
        return FieldError{"max_loras", count,
                          "0 for a vocabulary over 258,048 tokens: vLLM refuses LoRA there"};
    const int ways = tensorWays(s);
    if (lora.fullySharded && lora.maxRank % ways != 0) [[unlikely]]
        return FieldError{"max_lora_rank", std::to_string(lora.maxRank),
                          "a multiple of the " + std::to_string(ways) +
                              " tensor-parallel GPUs with --fully-sharded-loras (each holds a "
                              "share of the rank)"};
    return std::nullopt;
}

// A draft model shares the model's vocabulary and drafts with plain attention; kvscope holds its
// KV beside the model's layers, which it does not do for a windowed model.
std::optional<FieldError> validateDraftModel(const Scenario& s)
{
    const ModelSpec& draft = *s.speculative.draft;
    auto refuse = [&](const std::string& accepted) {
        return FieldError{"draft_model", draft.id, accepted};
    };
    if (!engineModule(s.engine).draftsWithModel()) [[unlikely]]
        return refuse("none with the " + s.engine.name +
                      " engine: kvscope models draft models as vLLM runs them");
    if (s.speculative.mtp) [[unlikely]]
        return refuse("none with --mtp on: one drafter at a time");
    if (draft.vocabSize != s.model.vocabSize) [[unlikely]]
        return refuse("a model of the same vocabulary as " + s.model.name + " (" +
                      std::to_string(s.model.vocabSize) + " tokens; " + draft.name + " has " +
                      std::to_string(draft.vocabSize) + ")");
    if (pipelineWays(s) > 1) [[unlikely]]
        return refuse("none under pipeline parallel or a layer split: kvscope models a draft "
                      "model beside one stage's layers only");
    if (draft.isMla() || draft.slidingWindow > 0 || draft.recurrent.present() ||
        s.model.slidingWindow > 0) [[unlikely]]
        return refuse("a draft model and a model of plain attention without sliding windows");
    return std::nullopt;
}

// SGLang's tree of drafts: topk tokens a pass and the best verifyTokens of the tree checked,
// at most the tree's candidates (topk, then topk x topk a later pass: organize_draft_results)
// and the model's own token; a chain checks its drafts and one more (SGLang sets it so).
std::optional<FieldError> validateEagleTree(const Scenario& s)
{
    const Speculation& sp = s.speculative;
    if (sp.eagleTopk > 1 && !engineModule(s.engine).draftsEagleTrees()) [[unlikely]]
        return FieldError{"eagle_topk", std::to_string(sp.eagleTopk),
                          "1 with the " + s.engine.name +
                              " engine: kvscope models its drafts as a chain (SGLang's "
                              "--speculative-eagle-topk drafts trees)"};
    const int64_t chain = sp.draftTokens + 1;
    if (sp.eagleTopk == 1) {
        if (sp.verifyTokens != 0 && sp.verifyTokens != chain) [[unlikely]]
            return FieldError{"verify_tokens", std::to_string(sp.verifyTokens),
                              "0 or " + std::to_string(chain) +
                                  " with --eagle-topk 1: a chain checks its drafts and one more"};
        return std::nullopt;
    }
    const int64_t candidates =
        sp.eagleTopk + (sp.draftTokens - 1) * sp.eagleTopk * sp.eagleTopk + 1;
    if (sp.verifyTokens < 2 || sp.verifyTokens > candidates) [[unlikely]]
        return FieldError{"verify_tokens", std::to_string(sp.verifyTokens),
                          "2 to " + std::to_string(candidates) + " with --eagle-topk " +
                              std::to_string(sp.eagleTopk) + " and " +
                              std::to_string(sp.draftTokens) +
                              " speculative tokens: the tree's candidates and the model's token"};
    return std::nullopt;
}

// An EAGLE head drafts for a model of plain attention (an MLA model drafts with its MTP
// layers), alone, on an engine that runs it, in one pipeline stage.
std::optional<FieldError> validateEagle(const Scenario& s)
{
    const Speculation& sp = s.speculative;
    if (sp.eagle == EagleMethod::Off) {
        // SGLang drafts with MTP layers (NEXTN) as it drafts with an EAGLE head, trees and all.
        if (sp.mtp)
            return validateEagleTree(s);
        if (sp.eagleTopk != 1 || sp.verifyTokens != 0) [[unlikely]]
            return FieldError{sp.eagleTopk != 1 ? "eagle_topk" : "verify_tokens",
                              std::to_string(sp.eagleTopk != 1 ? sp.eagleTopk : sp.verifyTokens),
                              "the default without --eagle or --mtp: they shape a tree of "
                              "drafts"};
        return std::nullopt;
    }
    const std::string method = eagleMethodId(sp.eagle);
    auto refuse = [&](const std::string& accepted) {
        return FieldError{"eagle", method, accepted};
    };
    if (!engineModule(s.engine).draftsWithEagle()) [[unlikely]]
        return refuse("off with the " + s.engine.name +
                      " engine: kvscope models EAGLE heads as vLLM and SGLang run them");
    if (sp.mtp || sp.draft) [[unlikely]]
        return refuse("off with --mtp on or a draft model: one drafter at a time");
    if (s.model.isMla()) [[unlikely]]
        return refuse("off for " + s.model.name +
                      ": an MLA model drafts with its MTP layers (--mtp on)");
    if (s.model.slidingWindow > 0 || s.model.recurrent.present()) [[unlikely]]
        return refuse("off for " + s.model.name +
                      ": kvscope models EAGLE heads for models of plain attention without "
                      "sliding windows");
    if (pipelineWays(s) > 1) [[unlikely]]
        return refuse("off under pipeline parallel or a layer split: the head drafts beside the "
                      "last stage only");
    return validateEagleTree(s);
}

// Drafting with MTP layers needs a model that has them and an engine that runs them.
std::optional<FieldError> validateSpeculation(const Scenario& s)
{
    if (auto e = validateEagle(s))
        return e;
    if (s.speculative.draft)
        return validateDraftModel(s);
    if (!s.speculative.mtp)
        return std::nullopt;
    if (!engineModule(s.engine).draftsWithMtp()) [[unlikely]]
        return FieldError{"mtp", "on",
                          "off with the " + s.engine.name +
                              " engine: kvscope models MTP drafting as vLLM runs it"};
    if (s.model.mtpLayers <= 0) [[unlikely]]
        return FieldError{"mtp", "on",
                          "off for " + s.model.name +
                              ": its config.json has no MTP layers (num_nextn_predict_layers)"};
    return std::nullopt;
}

// Settings each valid alone that do not go together.
std::optional<FieldError> validateCombinations(const Scenario& s)
{
    if (auto e = validateNodes(s))
        return e;
    if ((s.cpuMoeLayers > 0 || s.cpuMoeAll) && !engineModule(s.engine).offloadsExperts())
        [[unlikely]]
        return FieldError{s.cpuMoeAll ? "cpu_moe" : "n_cpu_moe",
                          s.cpuMoeAll ? "on" : std::to_string(s.cpuMoeLayers),
                          "0 or off with the " + s.engine.name +
                              " engine: only llama.cpp keeps experts in host RAM"};
    // TGI shards tensor parallel only: a layer split would launch --num-shard as tensor parallel.
    if (s.engine.layerSplit && s.gpuCount > 1 && !engineModule(s.engine).splitsLayers())
        [[unlikely]]
        return FieldError{"split_mode", "layer",
                          "tensor with the " + s.engine.name +
                              " engine: its shards split every layer, it has no layer split"};
    // Only vLLM's V0 engine swaps preempted KV; V1 recomputes (and falls back to V0 on the flag).
    if (s.preemptBySwap && !s.engine.serving.swapPreemption) [[unlikely]]
        return FieldError{"preemption_mode", "swap",
                          "recompute with the " + s.engine.name +
                              " engine as set: only vLLM's V0 engine swaps preempted KV to CPU "
                              "RAM (releases before 0.8.0, or 0.8-0.10 with vllm_use_v1 off)"};
    if (auto e = validateFlashAttention(s))
        return e;
    if (auto e = validateDpAttention(s))
        return e;
    if (auto e = validatePrefixCache(s))
        return e;
    if (auto e = validateLora(s))
        return e;
    if (auto e = validateExpertParallel(s))
        return e;
    if (auto e = validateSpeculation(s))
        return e;
    // Prices are in US dollars; another currency without its rate would show dollars as yen.
    if (s.cost.perUsd == 1.0 && std::string_view(s.cost.currency) != "USD") [[unlikely]]
        return FieldError{"usd_rate", "1",
                          "how many " + s.cost.currency + " one US dollar buys (--usd-rate)"};
    return std::nullopt;
}

} // namespace

std::optional<FieldError> validateHostLink(const Scenario& s)
{
    // A link trains to the slower side: the GPU's generation is all its entry can reach.
    if (s.gpu.unifiedMemory || s.gpu.pcieGen <= 0 || s.pcie.gen <= s.gpu.pcieGen)
        return std::nullopt;
    return FieldError{"pcie", std::to_string(s.pcie.gen),
                      "at most " + std::to_string(s.gpu.pcieGen) + ": the " + s.gpu.name +
                          "'s host link is PCIe " + std::to_string(s.gpu.pcieGen) + ".0"};
}

// A machine profile holds for the GPU, engine and release it was fitted on, no other: the
// engine's memory rules change between releases (engines.json "releases").
bool profileHoldsFor(const MachineProfile& p, const Scenario& s)
{
    return p.gpu == s.gpu.id && p.engine == s.engine.id && p.release == s.engineVersion;
}

std::optional<FieldError> validateProfile(const Scenario& s)
{
    if (!s.profile)
        return std::nullopt;
    const MachineProfile& p = *s.profile;
    const std::string release = p.release.empty() ? "" : " " + p.release;
    if (profileHoldsFor(p, s))
        return std::nullopt;
    return FieldError{
        "profile", p.id + " (fitted on " + p.gpu + " with " + p.engine + release + ")",
        "a scenario on the GPU, engine and release the profile was fitted on (--gpu " + p.gpu +
            " --engine " + p.engine +
            (p.release.empty() ? std::string() : " --engine-version " + p.release) + "), here " +
            s.gpu.id + " with " + s.engine.id +
            (s.engineVersion.empty() ? "" : " " + s.engineVersion)};
}

std::optional<FieldError> validate(const Scenario& s)
{
    if (auto e = validateProfile(s))
        return e;
    if (auto e = validateModel(s.model))
        return e;
    if (auto e = validateGpu(s.gpu))
        return e;
    if (auto e = validateEntryFigures(s))
        return e;
    if (auto e = validateRegistryValues(s))
        return e;
    return validateCombinations(s);
}

} // namespace kvscope
