// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The core's JSON boundary: config.json import, GPU files and catalog entries.

#include "kvscope/base/field_error.h"
#include "kvscope/model/hardware.h"
#include "kvscope/model/model_spec.h"

#include <cstdint>
#include <filesystem>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace kvscope {

// Files larger than this are refused before parsing (a config.json is a few KiB).
inline constexpr std::uintmax_t maxInputFileBytes = 4u << 20;
// Deeper JSON nesting than this is refused before parsing (configs nest two or three levels).
inline constexpr int maxJsonDepth = 64;

// Reads a JSON text with the size and depth limits above; errors name `what` as the field.
Expected<nlohmann::json> parseJsonText(const std::string& text, const std::string& what);
Expected<nlohmann::json> readJsonFile(const std::filesystem::path& path, const std::string& what);

// A Hugging Face config.json, read generically (field aliases across model families, nested
// text_config, multi_query, layer_types or an alternating sliding-window pattern, MLA and MoE
// fields). `fallbackId` names the model when the file has no kvscope_id.
Expected<ModelSpec> modelFromConfig(const nlohmann::json& config, const std::string& fallbackId);
Expected<ModelSpec> modelFromConfigFile(const std::filesystem::path& path);
// The spec written back with config.json field names (for scenario files with a custom model).
nlohmann::json modelToConfig(const ModelSpec& model);

// A GPU in the catalog's schema (resources/gpus/<id>.json).
Expected<GpuSpec> gpuFromJson(const nlohmann::json& object, const std::string& fallbackId);
Expected<GpuSpec> gpuFromFile(const std::filesystem::path& path);
nlohmann::json gpuToJson(const GpuSpec& gpu);

} // namespace kvscope
