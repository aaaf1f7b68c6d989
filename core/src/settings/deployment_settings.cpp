// SPDX-License-Identifier: GPL-3.0-or-later
// How a deployment spreads over machines (nodes, replicas, tensor parallel across nodes) and what
// it adds to the model it serves: LoRA adapters beside it (vLLM's --max-loras,
// --max-lora-rank, --fully-sharded-loras) and a drafter for speculative decoding (its MTP
// layers, the tokens drafted per step and their acceptance rate).
#include "scenario/field_access.h"
#include "settings/catalog_settings.h"

#include "kvscope/base/limits.h"
#include "kvscope/scenario/scenario.h"

#include <string>

namespace kvscope {

namespace {
using V = std::optional<SettingValue>;
using settings_detail::integerOf;
using settings_detail::textOf;

// Expert parallel, and the exchange SGLang runs it with.
std::vector<Setting> expertSettings()
{
    std::vector<Setting> r;
    {
        Setting s =
            makeSetting("expert_parallel", "expert-parallel", "on|off", SettingType::Switch);
        s.defaultText = "off";
        s.help = "expert parallel (vLLM --enable-expert-parallel, SGLang --ep-size): each "
                 "tensor-parallel GPU holds whole routed experts, ceil(E / GPUs) of them, and a "
                 "step waits for the GPU whose experts its tokens touch most";
        s.engineNames = {{"vllm", "enable_expert_parallel"}};
        s.apply = KVSCOPE_FIELD_SETTER(expertParallel, switchOf);
        s.current = [](const Scenario& sc) -> V { return SettingValue(sc.expertParallel); };
        s.place = ControlPlace::EngineDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Expert parallel");
        r.push_back(std::move(s));
    }
    {
        Setting s =
            makeSetting("moe_a2a_backend", "moe-a2a-backend", "none|deepep", SettingType::Choice);
        s.choices = {"none", "deepep"};
        s.defaultText = "none (tensor parallel's all-reduce)";
        s.help = "SGLang's exchange under expert parallel (--moe-a2a-backend): none, each MoE "
                 "layer all-reduced as under tensor parallel; deepep, an all-to-all at DeepEP's "
                 "measured latency";
        s.engineNames = {{"sglang", "moe_a2a_backend"}};
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog&) -> std::optional<FieldError> {
            sc.deepEp = textOf(v) == "deepep";
            return std::nullopt;
        };
        s.current = [](const Scenario& sc) -> V {
            return SettingValue(std::string(sc.deepEp ? "deepep" : "none"));
        };
        s.place = ControlPlace::EngineDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "MoE exchange");
        s.texts.choices = {KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "All-reduce"),
                           KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "DeepEP all-to-all")};
        r.push_back(std::move(s));
    }
    return r;
}

} // namespace

// Machines the GPUs sit in (the network between them is a catalog entry).
std::vector<Setting> nodeSettings()
{
    std::vector<Setting> r;
    {
        Setting s =
            makeSetting("nodes", "nodes", "N", SettingType::Integer, 1, double(limits::maxNodes));
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Nodes");
        s.unit = "nodes";
        s.defaultText = "1";
        s.help = "machines the GPUs are spread over evenly: tensor parallel inside each, one "
                 "pipeline stage per node (vLLM, SGLang)";
        s.engineNames = {{"vllm", "nnodes"}, {"sglang", "nnodes"}};
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog&) -> std::optional<FieldError> {
            sc.nodes = int(integerOf(v));
            return std::nullopt;
        };
        settings_detail::setNumber(s, KVSCOPE_FIELD_NUMBER(nodes));
        s.place = ControlPlace::EngineDrawer;
        r.push_back(std::move(s));
    }
    {
        Setting s = makeSetting("replicas", "replicas", "N", SettingType::Integer, 1, 1024);
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Replicas");
        s.unit = "replicas";
        s.defaultText = "1";
        s.help = "data-parallel copies of the deployment, each with its own GPUs and --users "
                 "users: GPUs, users, throughput and cost multiply (plan --rate sets them)";
        s.engineNames = {{"vllm", "data_parallel_size"}, {"sglang", "dp_size"}};
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog&) -> std::optional<FieldError> {
            sc.replicas = int(integerOf(v));
            return std::nullopt;
        };
        settings_detail::setNumber(s, KVSCOPE_FIELD_NUMBER(replicas));
        s.place = ControlPlace::EngineDrawer;
        r.push_back(std::move(s));
    }
    {
        Setting s = makeSetting("node_split", "node-split", "pipeline|tensor", SettingType::Choice);
        s.choices = {"pipeline", "tensor"};
        s.defaultText = "pipeline";
        s.help = "several nodes: a pipeline stage per node (vLLM's guide), or tensor parallel "
                 "over every GPU of every node (SGLang's --tp 16 on two nodes)";
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog&) -> std::optional<FieldError> {
            sc.tensorAcrossNodes = textOf(v) == "tensor";
            return std::nullopt;
        };
        s.current = [](const Scenario& sc) -> V {
            return SettingValue(std::string(sc.tensorAcrossNodes ? "tensor" : "pipeline"));
        };
        s.place = ControlPlace::EngineDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Across nodes");
        s.texts.choices = {
            KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "A pipeline stage per node"),
            KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Tensor parallel over all GPUs")};
        r.push_back(std::move(s));
    }
    {
        Setting s = makeSetting("dp_attention", "dp-attention", "on|off", SettingType::Switch);
        s.defaultText = "off";
        s.help = "data-parallel attention: each rank (a GPU, or --attention-ranks' share of "
                 "them) runs whole attention for its own share of the requests (whole attention "
                 "weights, every KV head of those requests only); the experts stay split over "
                 "all the GPUs. SGLang's --enable-dp-attention (its dense MLP split too); vLLM's "
                 "--data-parallel-size over a MoE model (its ranks hold the dense layers whole)";
        s.engineNames = {{"sglang", "enable_dp_attention"}};
        s.apply = KVSCOPE_FIELD_SETTER(dpAttention, switchOf);
        s.current = [](const Scenario& sc) -> V { return SettingValue(sc.dpAttention); };
        s.place = ControlPlace::EngineDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Data-parallel attention");
        r.push_back(std::move(s));
    }
    {
        Setting s =
            makeSetting("attention_ranks", "attention-ranks", "N", SettingType::Integer, 0, 1024);
        s.defaultText = "0 (a rank per GPU)";
        s.help = "with data-parallel attention, the ranks a stage's GPUs form: each runs whole "
                 "attention for its own share of the requests, tensor parallel over its GPUs "
                 "(SGLang's --dp-size under --enable-dp-attention, vLLM's --data-parallel-size "
                 "with --tensor-parallel-size GPUs / N)";
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog&) -> std::optional<FieldError> {
            sc.attentionRanksStated = int(integerOf(v));
            return std::nullopt;
        };
        settings_detail::setNumber(s, KVSCOPE_FIELD_NUMBER(attentionRanksStated));
        s.place = ControlPlace::EngineDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Attention ranks");
        r.push_back(std::move(s));
    }
    for (Setting& s : expertSettings())
        r.push_back(std::move(s));
    return r;
}

// The parallel layout and the load on it: GPUs, context, batch and the host link.
std::vector<Setting> loraSettings()
{
    std::vector<Setting> r;
    {
        Setting s = makeSetting("max_loras", "max-loras", "N", SettingType::Integer, 0, 1024);
        s.unit = "adapters";
        s.defaultText = "0 (no LoRA)";
        s.help = "LoRA adapters a batch may use at once; vLLM --enable-lora --max-loras N and "
                 "SGLang --max-loras-per-batch N keep a slot for each on every GPU";
        s.engineNames = {{"vllm", "max_loras"}, {"sglang", "max_loras_per_batch"}};
        s.apply = KVSCOPE_FIELD_SETTER(lora.maxLoras, integerOf);
        settings_detail::setNumber(s, KVSCOPE_FIELD_NUMBER(lora.maxLoras));
        s.place = ControlPlace::EngineDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "LoRA adapters at once");
        r.push_back(s);
    }
    {
        Setting s = makeSetting("max_lora_rank", "max-lora-rank", "R", SettingType::Choice);
        s.choices = {"1", "8", "16", "32", "64", "128", "256", "320", "512"};
        s.defaultText = "16";
        s.help = "the largest rank of an adapter (vLLM --max-lora-rank): every slot is that wide";
        s.engineNames = {{"vllm", "max_lora_rank"}, {"sglang", "max_lora_rank"}};
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog&) -> std::optional<FieldError> {
            sc.lora.maxRank = std::stoll(settings_detail::textOf(v));
            return std::nullopt;
        };
        s.current = [](const Scenario& sc) -> V {
            return SettingValue(std::to_string(sc.lora.maxRank));
        };
        s.place = ControlPlace::EngineDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "LoRA rank, largest");
        r.push_back(s);
    }
    {
        Setting s = makeSetting("fully_sharded_loras", "fully-sharded-loras", "on|off",
                                SettingType::Switch);
        s.defaultText = "off";
        s.help = "vLLM --fully-sharded-loras: tensor parallel splits every half of each LoRA "
                 "slot, not only one";
        s.engineNames = {{"vllm", "fully_sharded_loras"}};
        s.apply = KVSCOPE_FIELD_SETTER(lora.fullySharded, switchOf);
        s.current = KVSCOPE_FIELD_GETTER(lora.fullySharded);
        s.place = ControlPlace::EngineDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Fully sharded LoRA");
        r.push_back(s);
    }
    return r;
}

namespace {

// An EAGLE head drafting, and SGLang's tree of drafts for it or for the MTP layers
// (--speculative-eagle-topk, --speculative-num-draft-tokens).
std::vector<Setting> eagleSettings()
{
    std::vector<Setting> r;
    {
        Setting s = makeSetting("eagle", "eagle", "off|eagle|eagle3", SettingType::Choice);
        s.choices = {"off", "eagle", "eagle3"};
        s.defaultText = "off";
        s.help = "speculative decoding with an EAGLE head trained for the model (vLLM "
                 "--speculative-config method eagle or eagle3, SGLang --speculative-algorithm): "
                 "one 16-bit decoder layer and its KV beside the model's";
        s.engineNames = {{"vllm", "method"}, {"sglang", "speculative_algorithm"}};
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog&) -> std::optional<FieldError> {
            const std::string id = textOf(v);
            sc.speculative.eagle = id == "eagle3"  ? EagleMethod::Eagle3
                                   : id == "eagle" ? EagleMethod::Eagle
                                                   : EagleMethod::Off;
            return std::nullopt;
        };
        s.current = [](const Scenario& sc) -> V {
            return SettingValue(std::string(eagleMethodId(sc.speculative.eagle)));
        };
        s.place = ControlPlace::EngineDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Draft with an EAGLE head");
        s.texts.choices = {KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Off"),
                           KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "EAGLE"),
                           KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "EAGLE-3")};
        r.push_back(std::move(s));
    }
    {
        Setting s = makeSetting("eagle_topk", "eagle-topk", "K", SettingType::Integer, 1, 16);
        s.defaultText = "1 (a chain)";
        s.help = "SGLang's tree of drafts (an EAGLE head, or NEXTN with --mtp on): tokens each "
                 "draft pass extends a sequence with (--speculative-eagle-topk)";
        s.engineNames = {{"sglang", "speculative_eagle_topk"}};
        s.apply = KVSCOPE_FIELD_SETTER(speculative.eagleTopk, integerOf);
        settings_detail::setNumber(s, KVSCOPE_FIELD_NUMBER(speculative.eagleTopk));
        s.place = ControlPlace::EngineDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "EAGLE tree width");
        r.push_back(std::move(s));
    }
    {
        Setting s =
            makeSetting("verify_tokens", "verify-tokens", "N", SettingType::Integer, 0, 1024);
        s.unit = "tokens";
        s.defaultText = "0 (speculative tokens + 1)";
        s.help = "SGLang's tree of drafts: tokens a sequence the model checks each step "
                 "(--speculative-num-draft-tokens); a chain checks its drafts and one more";
        s.engineNames = {{"sglang", "speculative_num_draft_tokens"}};
        s.apply = KVSCOPE_FIELD_SETTER(speculative.verifyTokens, integerOf);
        settings_detail::setNumber(s, KVSCOPE_FIELD_NUMBER(speculative.verifyTokens));
        s.place = ControlPlace::EngineDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Tokens checked per step");
        r.push_back(std::move(s));
    }
    return r;
}

} // namespace

// Speculative decoding with the model's own MTP layers (vLLM --speculative-config).
std::vector<Setting> speculativeSettings()
{
    std::vector<Setting> r;
    {
        Setting s = makeSetting("mtp", "mtp", "on|off", SettingType::Switch);
        s.defaultText = "off";
        s.help = "speculative decoding with the model's MTP layers (num_nextn_predict_layers; "
                 "vLLM --speculative-config method mtp): their weights and KV are loaded";
        s.apply = KVSCOPE_FIELD_SETTER(speculative.mtp, switchOf);
        s.current = KVSCOPE_FIELD_GETTER(speculative.mtp);
        s.place = ControlPlace::EngineDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Draft with MTP layers");
        r.push_back(s);
    }
    {
        Setting s = makeSetting("speculative_tokens", "speculative-tokens", "K",
                                SettingType::Integer, 1, 16);
        s.unit = "tokens";
        s.defaultText = "1";
        s.help = "speculative decoding: tokens drafted per step (num_speculative_tokens)";
        s.engineNames = {{"vllm", "num_speculative_tokens"}, {"sglang", "speculative_num_steps"}};
        s.apply = KVSCOPE_FIELD_SETTER(speculative.draftTokens, integerOf);
        settings_detail::setNumber(s, KVSCOPE_FIELD_NUMBER(speculative.draftTokens));
        s.place = ControlPlace::EngineDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Drafted tokens per step");
        r.push_back(s);
    }
    {
        Setting s =
            makeSetting("acceptance_rate", "acceptance-rate", "F", SettingType::Real, 0, 0.99);
        s.unit = "fraction";
        s.defaultText = "0.8 (an assumption: state your measured rate)";
        s.help = "speculative decoding: the chance each drafted token is accepted, given the "
                 "ones before it (DeepSeek-V3 reports 0.85 to 0.90 for its MTP layer)";
        s.apply = KVSCOPE_FIELD_SETTER(speculative.acceptance, realOf);
        settings_detail::setNumber(s, KVSCOPE_FIELD_NUMBER(speculative.acceptance));
        s.place = ControlPlace::EngineDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Draft acceptance rate");
        r.push_back(s);
    }
    for (Setting& s : eagleSettings())
        r.push_back(std::move(s));
    return r;
}

} // namespace kvscope
