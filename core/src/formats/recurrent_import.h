// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Hybrid checkpoints: which layers of a config.json hold a recurrent state instead of a KV cache,
// and how large that state and its mixer's weights are.

#include "kvscope/formats/checked_json.h"
#include "kvscope/model/model_spec.h"

#include <optional>

#include <nlohmann/json_fwd.hpp>

namespace kvscope {

// Fills m.recurrent (and the MLP layout it implies) for Qwen3-Next, Jamba, Nemotron-H,
// Granite 4.0-H and Falcon-H1 configs; kvscope's own key "kvscope_recurrent" (a saved scenario)
// wins. A config with recurrent layers of another family is refused by name.
std::optional<FieldError> readRecurrentLayers(const nlohmann::json& cfg, JsonReader& r,
                                              ModelSpec& m);

nlohmann::json recurrentToJson(const RecurrentLayers& recurrent);

} // namespace kvscope
