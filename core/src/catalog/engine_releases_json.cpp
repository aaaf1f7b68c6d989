// SPDX-License-Identifier: GPL-3.0-or-later
// engines.json "releases": an engine's rules by release, each checked before it is used.
#include "kvscope/catalog/engine_releases_json.h"

#include "kvscope/base/limits.h"
#include "kvscope/formats/checked_json.h"

#include <algorithm>
#include <optional>

#include <nlohmann/json.hpp>

namespace kvscope {

namespace {

std::optional<Release> releaseAt(JsonReader& r, const char* key, bool required, bool builds)
{
    if (!r.has(key)) {
        if (required)
            r.require({key});
        return std::nullopt;
    }
    const std::string text = r.text({key}, "");
    auto release = builds ? parseBuild(text) : parseRelease(text);
    if (!release && !r.error())
        r.fail(key, "\"" + text + "\"",
               builds ? "a build such as \"b5429\"" : "a release such as \"0.6.5\"");
    return release;
}

std::optional<SettingValue> ruleValue(const nlohmann::json& v)
{
    if (v.is_boolean())
        return SettingValue(v.get<bool>());
    if (v.is_number_integer())
        return SettingValue(v.get<int64_t>());
    if (v.is_number())
        return SettingValue(v.get<double>());
    if (v.is_string())
        return SettingValue(v.get<std::string>());
    return std::nullopt;
}

void readRule(const nlohmann::json& j, size_t index, EngineReleases& out, JsonReader& parent)
{
    const std::string where = "releases.rules[" + std::to_string(index) + "]";
    if (!j.is_object()) {
        parent.fail(where, describeJson(j), "an object");
        return;
    }
    JsonReader r(j, "");
    ReleaseRule rule;
    rule.from = releaseAt(r, "from", false, out.builds);
    rule.before = releaseAt(r, "before", false, out.builds);
    rule.generation = r.text({"generation"}, "");
    if (!rule.generation.empty() && rule.generation != "v0" && rule.generation != "v1")
        r.fail("generation", "\"" + rule.generation + "\"", "v0 or v1");
    r.require({"source"});
    rule.source = r.text({"source"}, "");
    r.text({"why"}, "");
    const nlohmann::json* set = r.find({"set"});
    if (!set || !set->is_object() || set->empty()) {
        r.fail("set", set ? describeJson(*set) : "", "an object of engine profile values");
    } else {
        for (const auto& [key, value] : set->items()) {
            const auto v = ruleValue(value);
            if (!v || !isReleaseRuleValue(key, *v)) {
                r.fail("set." + key, describeJson(value), "a known engine profile key and value");
                break;
            }
            rule.set.emplace_back(key, *v);
        }
    }
    if (const auto& e = r.error()) {
        parent.fail(where + "." + e->field, e->value, e->accepted);
        return;
    }
    for (const auto& bound : {rule.from, rule.before})
        if (bound &&
            std::find(out.boundaries.begin(), out.boundaries.end(), *bound) == out.boundaries.end())
            out.boundaries.push_back(*bound);
    out.rules.push_back(std::move(rule));
}

} // namespace

void readEngineReleases(const nlohmann::json& j, EngineReleases& out, JsonReader& parent)
{
    if (!j.is_object()) {
        parent.fail("releases", describeJson(j), "an object");
        return;
    }
    JsonReader r(j, "");
    const std::string numbering = r.text({"numbering"}, "release");
    if (numbering != "release" && numbering != "build")
        r.fail("numbering", "\"" + numbering + "\"", "release or build");
    const bool builds = out.builds = numbering == "build";
    out.first = releaseAt(r, "first", true, builds).value_or(Release{});
    out.latest = releaseAt(r, "latest", true, builds).value_or(Release{});
    out.v1From = releaseAt(r, "v1_from", false, builds);
    out.v1DefaultFrom = releaseAt(r, "v1_default_from", false, builds);
    out.v0Until = releaseAt(r, "v0_until", false, builds);
    r.require({"source"});
    out.source = r.text({"source"}, "");
    if (!r.error() && out.latest < out.first)
        r.fail("latest", releaseText(out, out.latest), "a release no older than \"first\"");
    if (const auto& e = r.error()) {
        parent.fail("releases." + e->field, e->value, e->accepted);
        return;
    }
    const nlohmann::json* rules = r.find({"rules"});
    if (!rules || !rules->is_array()) {
        parent.fail("releases.rules", rules ? describeJson(*rules) : "", "an array of rules");
        return;
    }
    for (size_t i = 0; i < rules->size() && !parent.error(); ++i)
        readRule((*rules)[i], i, out, parent);
    std::sort(out.boundaries.begin(), out.boundaries.end());
}

void readPrefillDefault(const nlohmann::json& j, EngineProfile::PrefillDefault& out,
                        JsonReader& parent)
{
    if (!j.is_object()) {
        parent.fail("prefill_default", describeJson(j), "an object");
        return;
    }
    JsonReader r(j, "");
    r.require({"fallback_tokens"});
    r.require({"source"});
    out.fallbackTokens = r.integer({"fallback_tokens"}, 1, limits::maxContext, 0);
    const nlohmann::json* table = r.find({"gpu_f16_tflops"});
    if (!table || !table->is_object())
        r.fail("gpu_f16_tflops", table ? describeJson(*table) : "",
               "an object of GPU id to FP16 TFLOP/s");
    else
        for (const auto& [gpu, tflops] : table->items()) {
            if (!tflops.is_number() || tflops.get<double>() <= 0 ||
                tflops.get<double>() > limits::maxTflops) {
                r.fail("gpu_f16_tflops." + gpu, describeJson(tflops),
                       "a number of TFLOP/s above 0");
                break;
            }
            out.gpuTflops.emplace_back(gpu, tflops.get<double>());
        }
    if (const auto& e = r.error())
        parent.fail("prefill_default." + e->field, e->value, e->accepted);
}

namespace {

std::optional<EngineProfile::ReservedMemory::Tier> reservedTier(const nlohmann::json& j,
                                                                size_t index, JsonReader& parent)
{
    const std::string field = "tiers[" + std::to_string(index) + "]";
    if (!j.is_object()) {
        parent.fail(field, describeJson(j), "an object");
        return std::nullopt;
    }
    JsonReader r(j, "");
    EngineProfile::ReservedMemory::Tier t;
    t.belowMiB = r.number({"below_mib"}, 0, 1e8, 0);
    t.chunkedPrefillTokens = r.integer({"chunked_prefill_size"}, 1, limits::maxContext, 2048);
    t.graphMaxBatch = r.integer({"cuda_graph_max_bs"}, 1, limits::maxBatch, 8);
    t.graphMaxBatchFromTp4 =
        r.integer({"cuda_graph_max_bs_tp4"}, 1, limits::maxBatch, t.graphMaxBatch);
    if (const auto& e = r.error()) {
        parent.fail(field + "." + e->field, e->value, e->accepted);
        return std::nullopt;
    }
    return t;
}

} // namespace

void readReservedMemory(const nlohmann::json& j, EngineProfile::ReservedMemory& out,
                        JsonReader& parent)
{
    if (!j.is_object()) {
        parent.fail("reserved_memory", describeJson(j), "an object");
        return;
    }
    JsonReader r(j, "");
    r.require({"source"});
    out.baseMiB = r.number({"base_mib"}, 0, 1e6, 0);
    out.mibPerActivationToken = r.number({"mib_per_activation_token"}, 0, 1e3, 0);
    out.minActivationTokens = r.integer({"min_activation_tokens"}, 0, limits::maxContext, 0);
    out.mibPerEightGpus = r.number({"mib_per_8_gpus"}, 0, 1e6, 0);
    out.mibPerDecodeGraphBatch = r.number({"mib_per_decode_graph_batch"}, 0, 1e3, 0);
    out.mibPerPrefillGraphSize = r.number({"mib_per_prefill_graph_size"}, 0, 1e3, 0);
    out.mlaPrefillGraphMiB = r.number({"mla_prefill_graph_mib"}, 0, 1e6, 0);
    out.mibPerDpAttentionGraphBatch = r.number({"mib_per_dp_attention_graph_batch"}, 0, 1e3, 0);
    out.mibPerDpAttentionGraphBatchAbove300 =
        r.number({"mib_per_dp_attention_graph_batch_above_300"}, 0, 1e3, 0);
    out.floorMiB = r.number({"floor_mib"}, 0, 1e6, 0);
    out.floorAboveMiB = r.number({"floor_above_mib"}, 0, 1e8, 0);
    out.draftModelMiB = r.number({"draft_model_mib"}, 0, 1e6, 0);
    out.eagleDraftMiB = r.number({"eagle_draft_mib"}, 0, 1e6, 0);
    out.source = r.text({"source"}, "");
    r.text({"notes"}, "");
    const nlohmann::json* tiers = r.find({"tiers"});
    if (!tiers || !tiers->is_array() || tiers->empty())
        r.fail("tiers", tiers ? describeJson(*tiers) : "", "a list of tiers by GPU memory");
    else
        for (size_t i = 0; i < tiers->size() && !r.error(); ++i)
            if (auto tier = reservedTier((*tiers)[i], i, r))
                out.tiers.push_back(*tier);
    if (const auto& e = r.error()) {
        out.tiers.clear();
        parent.fail("reserved_memory." + e->field, e->value, e->accepted);
    }
}

void readKvLayout(const nlohmann::json& j, EngineProfile::KvLayout& out, JsonReader& parent)
{
    if (!j.is_object()) {
        parent.fail("kv_layout", describeJson(j), "an object");
        return;
    }
    JsonReader r(j, "");
    r.require({"source"});
    out.source = r.text({"source"}, "");
    r.text({"notes"}, "");
    if (!parseSwaCache(r.text({"swa_cache"}, "model"), &out.windows))
        r.fail("swa_cache", r.text({"swa_cache"}, ""), "model, full_context or own_cache");
    if (const nlohmann::json* a = r.find({"own_cache_architectures"})) {
        for (const auto& name : a->is_array() ? *a : nlohmann::json::array({nullptr})) {
            if (!name.is_string() || name.get<std::string>().empty()) {
                r.fail("own_cache_architectures", describeJson(name), "architecture names");
                break;
            }
            out.ownCacheArchitectures.push_back(name.get<std::string>());
        }
    }
    const std::string plus = r.text({"swa_cache_plus"}, "n_ubatch");
    if (plus != "n_ubatch" && plus != "n_batch")
        r.fail("swa_cache_plus", plus, "n_ubatch or n_batch");
    out.plusLogicalBatch = plus == "n_batch";
    out.padTokens = r.integer({"swa_cache_pad_tokens"}, 1, 1 << 20, 1);
    out.perSequence = r.boolean({"swa_cache_per_sequence"}, false);
    out.loneSequenceSlots = r.integer({"lone_sequence_slots"}, 0, limits::maxBatch, 0);
    if (!parseMlaCache(r.text({"mla_cache"}, "latent"), &out.mla))
        r.fail("mla_cache", r.text({"mla_cache"}, ""), "latent, latent_and_value or full_heads");
    if (const auto& e = r.error())
        parent.fail("kv_layout." + e->field, e->value, e->accepted);
}

void readServingPolicy(const nlohmann::json& j, EngineProfile::Serving& out, JsonReader& parent)
{
    if (!j.is_object()) {
        parent.fail("serving", describeJson(j), "an object");
        return;
    }
    JsonReader r(j, "");
    r.require({"batching"});
    r.require({"kv_held"});
    r.require({"source"});
    const std::string batching = r.text({"batching"}, "");
    if (batching != "continuous" && batching != "static")
        r.fail("batching", batching, "continuous or static");
    out.continuousBatching = batching == "continuous";
    const std::string held = r.text({"kv_held"}, "");
    using H = EngineProfile::KvHeld;
    if (held == "grows")
        out.kvHeld = H::Grows;
    else if (held == "request")
        out.kvHeld = H::Request;
    else if (held == "max_length")
        out.kvHeld = H::MaxLength;
    else
        r.fail("kv_held", held, "grows, request or max_length");
    out.maxRequests = r.integer({"max_requests"}, 0, limits::maxBatch, 0);
    const std::string preemption = r.text({"preemption"}, "none");
    if (preemption != "none" && preemption != "recompute")
        r.fail("preemption", preemption, "none or recompute");
    out.preempts = preemption == "recompute";
    out.source = r.text({"source"}, "");
    if (const auto& e = r.error())
        parent.fail("serving." + e->field, e->value, e->accepted);
}

void readPrefixCache(const nlohmann::json& j, EngineProfile::PrefixCache& out, JsonReader& parent)
{
    if (!j.is_object()) {
        parent.fail("prefix_cache", describeJson(j), "an object");
        return;
    }
    JsonReader r(j, "");
    r.require({"sharing"});
    r.require({"source"});
    const std::string sharing = r.text({"sharing"}, "");
    using S = EngineProfile::PrefixCache::Sharing;
    if (sharing == "none")
        out.sharing = S::None;
    else if (sharing == "blocks")
        out.sharing = S::Blocks;
    else if (sharing == "slot")
        out.sharing = S::Slot;
    else
        r.fail("sharing", sharing, "none, blocks or slot");
    out.onByDefault = r.boolean({"on_by_default"}, false);
    out.source = r.text({"source"}, "");
    if (const auto& e = r.error())
        parent.fail("prefix_cache." + e->field, e->value, e->accepted);
}

} // namespace kvscope
