// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A checkpoint's quantization_config, as the catalog weight format that stores it.

#include "kvscope/base/field_error.h"

#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace kvscope {

// The catalog format id of `config`'s quantization_config ("" when it has none): awq-int4,
// gptq-int4 / gptq-int8, nf4 / int8 (bitsandbytes), fp8, mxfp4-moe. A method or a bit width
// without a catalog format is an error naming the field, never a silent FP16.
std::optional<FieldError> checkpointFormatOf(const nlohmann::json& config, std::string& formatId);

} // namespace kvscope
