// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/scenario/engine_profile.h"
#include "kvscope/scenario/engine_release.h"

#include <nlohmann/json_fwd.hpp>

namespace kvscope {

class JsonReader;

// Reads an engines.json entry's "releases" object into `out`; the first problem goes to
// `parent` under "releases...".
void readEngineReleases(const nlohmann::json& json, EngineReleases& out, JsonReader& parent);
// Reads an entry's "prefill_default" object ({"fallback_tokens", "gpu_f16_tflops": {id: TFLOP/s},
// "source"}) the same way.
void readPrefillDefault(const nlohmann::json& json, EngineProfile::PrefillDefault& out,
                        JsonReader& parent);
// Reads an entry's "reserved_memory" object (SGLang's default memory share: the reserve's terms
// in MiB and its "tiers" by GPU memory) the same way.
void readReservedMemory(const nlohmann::json& json, EngineProfile::ReservedMemory& out,
                        JsonReader& parent);
// Reads an entry's "serving" object ({"batching": "continuous"|"static", "kv_held":
// "grows"|"request"|"max_length", "max_requests", "source"}) the same way.
// engines.json "kv_layout": how the engine lays out windowed and MLA caches.
void readKvLayout(const nlohmann::json& json, EngineProfile::KvLayout& out, JsonReader& parent);
void readServingPolicy(const nlohmann::json& json, EngineProfile::Serving& out, JsonReader& parent);
// engines.json's "prefix_cache": how the engine reuses the KV of a prompt's known start.
void readPrefixCache(const nlohmann::json& json, EngineProfile::PrefixCache& out,
                     JsonReader& parent);

} // namespace kvscope
