// SPDX-License-Identifier: GPL-3.0-or-later
// Method names and keys as transformers' quantizer configs write them
// (src/transformers/utils/quantization_config.py) and vLLM reads them
// (vllm/model_executor/layers/quantization/{awq,gptq,fp8,bitsandbytes}.py).
#include "formats/quantization_import.h"

#include "kvscope/formats/checked_json.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace kvscope {

namespace {

constexpr const char* kField = "config.quantization_config";
constexpr const char* kMethods =
    "awq, gptq, bitsandbytes, fp8, fbgemm_fp8, modelopt, compressed-tensors or mxfp4 (or no "
    "quantization_config, and --weights)";

FieldError bitsError(const std::string& method, int64_t bits, const std::string& accepted)
{
    return FieldError{std::string(kField) + ".bits", std::to_string(bits),
                      accepted + " for " + method};
}

// compressed-tensors (llm-compressor): the first config group's weight scheme.
std::optional<FieldError> compressedTensors(const nlohmann::json& q, std::string& id)
{
    const auto groups = q.find("config_groups");
    if (groups == q.end() || !groups->is_object() || groups->empty())
        return FieldError{std::string(kField) + ".config_groups", "",
                          "at least one group with a weights scheme"};
    const nlohmann::json& group = groups->begin().value();
    const auto weights = group.is_object() ? group.find("weights") : group.end();
    if (!group.is_object() || weights == group.end() || !weights->is_object())
        return FieldError{std::string(kField) + ".config_groups", describeJson(group),
                          "a group with a weights scheme"};
    JsonReader w(*weights, std::string(kField) + ".config_groups.weights");
    const int64_t bits = w.integer({"num_bits"}, 1, 64, 0);
    const std::string type = w.text({"type"}, "int");
    if (w.error())
        return w.error();
    const auto inputs = group.find("input_activations");
    const bool quantizedInputs = inputs != group.end() && inputs->is_object();
    if (type == "float" && bits == 8)
        id = "fp8";
    else if (type == "int" && bits == 4)
        id = "gptq-int4"; // W4A16: 4-bit groups with 16-bit scales, GPTQ's storage
    else if (type == "int" && bits == 8)
        id = quantizedInputs ? "int8" : "gptq-int8"; // W8A8 or W8A16
    else
        return FieldError{std::string(kField) + ".config_groups.weights",
                          type + " " + std::to_string(bits) + "-bit",
                          "int 4-bit, int 8-bit or float 8-bit weights"};
    return std::nullopt;
}

} // namespace

std::optional<FieldError> checkpointFormatOf(const nlohmann::json& config, std::string& id)
{
    id.clear();
    const auto q = config.find("quantization_config");
    if (q == config.end() || q->is_null())
        return std::nullopt;
    if (!q->is_object())
        return FieldError{kField, describeJson(*q), "an object with quant_method"};
    JsonReader r(*q, kField);
    std::string method = r.text({"quant_method"}, "");
    if (r.error())
        return r.error();
    std::transform(method.begin(), method.end(), method.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    if (method == "awq") {
        const int64_t bits = r.integer({"bits", "w_bit"}, 1, 64, 4);
        if (bits != 4)
            return bitsError(method, bits, "4 bits");
        id = "awq-int4";
    } else if (method == "gptq") {
        const int64_t bits = r.integer({"bits"}, 1, 64, 4);
        if (bits != 4 && bits != 8)
            return bitsError(method, bits, "4 or 8 bits");
        id = bits == 4 ? "gptq-int4" : "gptq-int8";
    } else if (method == "bitsandbytes") {
        if (r.boolean({"load_in_4bit"}, false))
            id = "nf4"; // nf4 and fp4 store alike: 4 bits and a scale per 64 weights
        else if (r.boolean({"load_in_8bit"}, false))
            id = "int8";
        else
            return FieldError{std::string(kField) + ".load_in_4bit", "false",
                              "load_in_4bit or load_in_8bit set to true"};
    } else if (method == "fp8" || method == "fbgemm_fp8" || method == "modelopt") {
        id = "fp8";
    } else if (method == "compressed-tensors") {
        if (auto error = compressedTensors(*q, id))
            return error;
    } else if (method == "mxfp4") {
        id = "mxfp4-moe"; // gpt-oss: the experts in MXFP4, attention and embeddings in BF16
    } else {
        return FieldError{std::string(kField) + ".quant_method", method, kMethods};
    }
    if (r.error())
        return r.error();
    return std::nullopt;
}

} // namespace kvscope
