// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A model file's weights by role, as scenario files keep them ("kvscope_file_weights"), so a
// scenario made from a GGUF file reopens with the same bytes without the file.

#include "kvscope/base/field_error.h"
#include "kvscope/model/model_spec.h"

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace kvscope {

inline constexpr const char* kFileWeightsKey = "kvscope_file_weights";

nlohmann::json fileWeightsToJson(const FileWeights& weights);
// Reads config[kFileWeightsKey] when present into `out`; errors name "<prefix>.<key>...".
std::optional<FieldError> fileWeightsFromJson(const nlohmann::json& config,
                                              const std::string& prefix, FileWeights& out);

} // namespace kvscope
