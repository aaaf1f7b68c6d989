// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// An engine's behaviour by release, as data (resources/catalog/engines.json "releases"): each rule
// names the releases it covers, what it sets in the engine profile, and its source. `calc`, the
// window, `validate` and `calibrate` apply the same rules through the engine_version setting.

#include "kvscope/base/field_error.h"
#include "kvscope/scenario/setting.h"

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kvscope {

struct EngineProfile;

// Which models' captured CUDA graphs an engine counts inside its memory budget; the others are
// captured after the KV cache was sized, in the headroom outside it.
enum class CudaGraphAccounting { All, MoeOnly, None };

using Release = std::array<int, 3>; // major, minor, patch

// "0.6.4", "v0.6.4", "0.8" (patch 0), "0.10.1.1" (the fourth number ignored); nothing for
// anything else.
std::optional<Release> parseRelease(const std::string& text);
std::string releaseText(const Release& release); // "0.6.4"
// A build number as llama.cpp numbers its releases: "b5429" (or "5429") gives {5429, 0, 0}.
std::optional<Release> parseBuild(const std::string& text);

struct ReleaseRule
{
    std::optional<Release> from;   // first release it covers (none: every earlier one)
    std::optional<Release> before; // first release it no longer covers (none: every later one)
    std::string generation;        // "v0" or "v1": only under that vLLM engine; "" = either
    std::vector<std::pair<std::string, SettingValue>> set; // engine profile keys and values
    std::string source;
};

struct EngineReleases
{
    Release first{};                      // oldest release the rules describe
    Release latest{};                     // newest release modelled: the default
    std::vector<Release> boundaries;      // releases where some rule starts or stops (for messages)
    std::optional<Release> v1From;        // vLLM's V1 engine: first release that has it,
    std::optional<Release> v1DefaultFrom; // first where it is the default,
    std::optional<Release> v0Until;       // first release without V0
    std::vector<ReleaseRule> rules;
    std::string source;
    bool builds = false; // numbered by build, "b5429" (llama.cpp; "numbering": "build")

    bool modelled() const { return latest != Release{}; }
};

// A release as the engine numbers them: "0.6.4", or "b5429" where it counts builds.
std::optional<Release> parseRelease(const EngineReleases& releases, const std::string& text);
std::string releaseText(const EngineReleases& releases, const Release& release);

// The engine profile keys a rule may set, and whether `value` suits the key.
bool isReleaseRuleKey(const std::string& key);
bool isReleaseRuleValue(const std::string& key, const SettingValue& value);

// Sets the profile as `release` of the engine has it: every rule covering the release (and the
// engine generation, V1 or V0) applied in order. The profile must be the catalog's, unchanged.
void applyReleaseRules(EngineProfile& engine, const Release& release, bool v1Engine);

// Whether the release runs the V1 engine when VLLM_USE_V1 is not set, and whether `v1` can be
// chosen there; nothing when the engine has a single generation.
bool v1EngineByDefault(const EngineReleases& releases, const Release& release);
std::optional<FieldError> checkEngineGeneration(const EngineReleases& releases,
                                                const Release& release, bool v1);

// The last minor release that still had vLLM's V0 engine (0.10.0 when V0 left in 0.11.0): what
// a log or a measurement of V0 that names no release is read as.
std::optional<Release> lastV0Release(const EngineReleases& releases);

// "a vLLM release from 0.2.0 to 0.28.0 (its rules change at 0.6.5, 0.8.0, ...)"
std::string acceptedReleases(const std::string& engineName, const EngineReleases& releases);

} // namespace kvscope
