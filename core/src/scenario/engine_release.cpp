// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/scenario/engine_release.h"

#include "kvscope/scenario/engine_profile.h"

#include <algorithm>
#include <cctype>

namespace kvscope {

std::optional<Release> parseRelease(const std::string& text)
{
    size_t at = text.size() > 0 && (text[0] == 'v' || text[0] == 'V') ? 1 : 0;
    Release release{0, 0, 0};
    for (size_t part = 0; part < 3; ++part) {
        const size_t start = at;
        int value = 0;
        while (at < text.size() && std::isdigit((unsigned char)text[at]) && at - start < 4)
            value = value * 10 + (text[at++] - '0');
        if (at == start)
            return std::nullopt;
        release[part] = value;
        if (at == text.size())
            return part >= 1 ? std::optional(release) : std::nullopt;
        if (text[at] != '.')
            return std::nullopt;
        ++at;
        if (part == 2) { // a fourth number (0.10.1.1) names a post-release of the same rules
            while (at < text.size() && std::isdigit((unsigned char)text[at]))
                ++at;
            return at == text.size() ? std::optional(release) : std::nullopt;
        }
    }
    return std::nullopt;
}

std::string releaseText(const Release& r)
{
    return std::to_string(r[0]) + "." + std::to_string(r[1]) + "." + std::to_string(r[2]);
}

std::optional<Release> parseBuild(const std::string& text)
{
    const size_t at = !text.empty() && (text[0] == 'b' || text[0] == 'B') ? 1 : 0;
    if (text.size() == at || text.size() - at > 7)
        return std::nullopt;
    int value = 0;
    for (size_t i = at; i < text.size(); ++i) {
        if (!std::isdigit((unsigned char)text[i]))
            return std::nullopt;
        value = value * 10 + (text[i] - '0');
    }
    return value > 0 ? std::optional(Release{value, 0, 0}) : std::nullopt;
}

std::optional<Release> parseRelease(const EngineReleases& r, const std::string& text)
{
    return r.builds ? parseBuild(text) : parseRelease(text);
}

std::string releaseText(const EngineReleases& r, const Release& release)
{
    return r.builds ? "b" + std::to_string(release[0]) : releaseText(release);
}

bool isReleaseRuleKey(const std::string& key)
{
    return key == "runtime_overhead_mib" || key == "cuda_graphs_in_budget" ||
           key == "classic_sampler_for_every_model" || key == "large_gpu_batch_defaults" ||
           key == "prefill_chunk_tokens" || key == "profile_tokens_floor" ||
           key == "chunked_prefill_above_context" || key == "long_context_chunk_tokens" ||
           key == "swa_cache" || key == "swa_cache_plus" || key == "swa_cache_pad_tokens" ||
           key == "swa_cache_per_sequence" || key == "lone_sequence_slots" || key == "mla_cache" ||
           key == "swap_preemption" || key == "step_overhead_us" || key == "moe_layer_us" ||
           key == "prefix_caching" || key == "flash_attention";
}

bool isReleaseRuleValue(const std::string& key, const SettingValue& value)
{
    const std::string* text = std::get_if<std::string>(&value);
    if (key == "cuda_graphs_in_budget")
        return text && (*text == "all" || *text == "moe_only" || *text == "none");
    if (key == "swa_cache")
        return text && (*text == "model" || *text == "full_context" || *text == "own_cache");
    if (key == "swa_cache_plus")
        return text && (*text == "n_batch" || *text == "n_ubatch");
    if (key == "mla_cache")
        return text && (*text == "latent" || *text == "latent_and_value" || *text == "full_heads");
    if (key == "swa_cache_pad_tokens" || key == "lone_sequence_slots")
        return std::holds_alternative<int64_t>(value) && std::get<int64_t>(value) >= 0 &&
               std::get<int64_t>(value) <= 1 << 20;
    return !text && isReleaseRuleKey(key);
}

bool parseSwaCache(const std::string& text, EngineProfile::KvLayout::Windows* out)
{
    using W = EngineProfile::KvLayout::Windows;
    if (text == "model" || text == "full_context" || text == "own_cache") {
        *out = text == "model" ? W::Model : text == "full_context" ? W::FullContext : W::OwnCache;
        return true;
    }
    return false;
}

bool parseMlaCache(const std::string& text, EngineProfile::KvLayout::Mla* out)
{
    using M = EngineProfile::KvLayout::Mla;
    if (text == "latent" || text == "latent_and_value" || text == "full_heads") {
        *out = text == "latent"       ? M::Latent
               : text == "full_heads" ? M::FullHeads
                                      : M::LatentAndValue;
        return true;
    }
    return false;
}

namespace {

double number(const SettingValue& v)
{
    if (const auto* i = std::get_if<int64_t>(&v))
        return double(*i);
    if (const auto* d = std::get_if<double>(&v))
        return *d;
    return 0;
}

void applyKey(EngineProfile& e, const std::string& key, const SettingValue& value)
{
    if (key == "runtime_overhead_mib") {
        e.runtimeOverheadMiB = number(value);
    } else if (key == "cuda_graphs_in_budget") {
        const std::string* which = std::get_if<std::string>(&value);
        e.cudaGraphsInBudget = !which || *which == "all" ? CudaGraphAccounting::All
                               : *which == "moe_only"    ? CudaGraphAccounting::MoeOnly
                                                         : CudaGraphAccounting::None;
    } else if (key == "classic_sampler_for_every_model") {
        // Before Model Runner V2 every model ran the classic runner and its sampler.
        const bool* on = std::get_if<bool>(&value);
        if (on && *on && e.classicSamplerLogitCopies > 0)
            e.samplerLogitCopies = e.classicSamplerLogitCopies;
    } else if (key == "large_gpu_batch_defaults") {
        const bool* on = std::get_if<bool>(&value);
        if (on && !*on)
            e.largeGpuMinGiB = 0;
    } else if (key == "prefill_chunk_tokens") {
        e.prefillChunkTokens = e.basePrefillChunkTokens = e.largeGpuPrefillChunkTokens =
            int64_t(number(value));
    } else if (key == "profile_tokens_floor") {
        e.profileTokensFloor = int64_t(number(value));
    } else if (key == "chunked_prefill_above_context") {
        e.chunkedAboveContext = int64_t(number(value));
    } else if (key == "long_context_chunk_tokens") {
        e.longContextChunkTokens = int64_t(number(value));
    } else if (const std::string* text = std::get_if<std::string>(&value)) {
        if (key == "swa_cache")
            parseSwaCache(*text, &e.kvLayout.windows);
        else if (key == "swa_cache_plus")
            e.kvLayout.plusLogicalBatch = *text == "n_batch";
        else if (key == "mla_cache")
            parseMlaCache(*text, &e.kvLayout.mla);
    } else if (key == "swa_cache_pad_tokens") {
        e.kvLayout.padTokens = std::max<int64_t>(1, int64_t(number(value)));
    } else if (key == "swa_cache_per_sequence") {
        const bool* on = std::get_if<bool>(&value);
        e.kvLayout.perSequence = on && *on;
    } else if (key == "swap_preemption") {
        const bool* on = std::get_if<bool>(&value);
        e.serving.swapPreemption = on && *on;
    } else if (key == "prefix_caching") {
        const bool* on = std::get_if<bool>(&value);
        e.prefixCache.onByDefault = on && *on;
    } else if (key == "flash_attention") {
        const bool* on = std::get_if<bool>(&value);
        e.flashAttention = on && *on;
    } else if (key == "lone_sequence_slots") {
        e.kvLayout.loneSequenceSlots = int64_t(number(value));
    } else if (key == "step_overhead_us") {
        e.stepOverheadUs = std::max(0.0, number(value));
    } else if (key == "moe_layer_us") {
        e.moeLayerUs = std::max(0.0, number(value));
    }
}

} // namespace

void applyReleaseRules(EngineProfile& engine, const Release& release, bool v1Engine)
{
    for (const ReleaseRule& rule : engine.releases.rules) {
        if (rule.from && release < *rule.from)
            continue;
        if (rule.before && !(release < *rule.before))
            continue;
        if (!rule.generation.empty() && (rule.generation == "v1") != v1Engine)
            continue;
        for (const auto& [key, value] : rule.set)
            applyKey(engine, key, value);
    }
}

bool v1EngineByDefault(const EngineReleases& r, const Release& release)
{
    return r.v1DefaultFrom && !(release < *r.v1DefaultFrom);
}

std::optional<FieldError> checkEngineGeneration(const EngineReleases& r, const Release& release,
                                                bool v1)
{
    if (v1 && r.v1From && release < *r.v1From)
        return FieldError{"vllm_use_v1", "on",
                          "off before " + releaseText(*r.v1From) + " (no V1 engine in " +
                              releaseText(release) + ")"};
    if (!v1 && r.v0Until && !(release < *r.v0Until))
        return FieldError{"vllm_use_v1", "off",
                          "on from " + releaseText(*r.v0Until) + " (V0 was removed)"};
    return std::nullopt;
}

std::string acceptedReleases(const std::string& engineName, const EngineReleases& r)
{
    if (!r.modelled())
        return "nothing: kvscope ties no " + engineName + " figure to a release";
    std::string text = "a " + engineName + (r.builds ? " build" : " release") + " from " +
                       releaseText(r, r.first) + " to " + releaseText(r, r.latest);
    if (!r.boundaries.empty()) {
        text += " (its rules change at ";
        for (size_t i = 0; i < r.boundaries.size(); ++i)
            text += (i ? ", " : "") + releaseText(r, r.boundaries[i]);
        text += ")";
    }
    return text;
}

std::optional<Release> lastV0Release(const EngineReleases& releases)
{
    if (!releases.v0Until || (*releases.v0Until)[1] == 0)
        return std::nullopt;
    return Release{(*releases.v0Until)[0], (*releases.v0Until)[1] - 1, 0};
}

} // namespace kvscope
