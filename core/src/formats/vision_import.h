// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Vision-language checkpoints: the image encoder's weights and the tokens one image takes, from
// the config.json's vision_config alone.

#include "kvscope/base/field_error.h"
#include "kvscope/model/model_spec.h"

#include <optional>

#include <nlohmann/json_fwd.hpp>

namespace kvscope {

// Fills m.vision for Qwen2.5-VL, Qwen2-VL, Gemma 3, LLaVA 1.5 and Mistral 3 (Pixtral) configs;
// kvscope's own key "kvscope_vision" (a saved scenario) wins. m.hiddenSize must be read first
// (projectors end in the language model's width). Another vision tower is refused by name.
std::optional<FieldError> readVisionTower(const nlohmann::json& config, ModelSpec& m);

nlohmann::json visionToJson(const VisionTower& vision);

} // namespace kvscope
