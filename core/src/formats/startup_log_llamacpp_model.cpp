// SPDX-License-Identifier: GPL-3.0-or-later
// The model file's metadata as llama.cpp prints it at start-up: its loader's dump of the GGUF
// keys ("llama_model_loader: - kv  9: glm4.block_count u32 = 61") and print_info's shape lines
// ("print_info: n_head_kv = 2", llm_load_print_meta before 2025), the latter under the GGUF key
// llama.cpp read them from (src/llama-model.cpp load_hparams). Enough to know the KV cache of a
// model no catalog has.
#include "file_names.h"
#include "startup_log_lines.h"

#include "kvscope/model/parameters.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace kvscope::startup_log {

namespace {

struct ShapeLine
{
    std::string_view printed; // print_info's name, with the padding space after it
    std::string_view key;     // the GGUF key under the architecture ("" = a general key)
};

constexpr std::array<ShapeLine, 19> kShapeLines{{
    {"n_ctx_train ", "context_length"},
    {"n_embd ", "embedding_length"},
    {"n_layer ", "block_count"},
    {"n_head ", "attention.head_count"},
    {"n_head_kv ", "attention.head_count_kv"},
    {"n_rot ", "rope.dimension_count"},
    {"n_swa ", "attention.sliding_window"},
    {"n_swa_pattern ", "attention.sliding_window_pattern"},
    {"n_embd_head_k ", "attention.key_length"},
    {"n_embd_head_v ", "attention.value_length"},
    {"n_ff ", "feed_forward_length"},
    {"n_expert ", "expert_count"},
    {"n_expert_used ", "expert_used_count"},
    {"n_lora_q ", "attention.q_lora_rank"},
    {"n_lora_kv ", "attention.kv_lora_rank"},
    {"n_ff_exp ", "expert_feed_forward_length"},
    {"n_expert_shared ", "expert_shared_count"},
    {"n_layer_dense_lead ", "leading_dense_block_count"},
    {"n_vocab ", "vocab_size"},
}};

// "[0, 0, 1, 1]" as numbers; nothing when the print-out is cut ("[0, 0, ...]") or not numeric.
std::optional<std::vector<double>> wholeList(std::string_view text)
{
    if (!text.starts_with("[") || !text.ends_with("]") || text.find("...") != text.npos)
        return std::nullopt;
    std::vector<double> numbers;
    text = text.substr(1, text.size() - 2);
    while (!trimmed(text).empty() && numbers.size() < maxGgufKeptArray) {
        auto n = leadingNumber(text);
        if (!n)
            return std::nullopt;
        numbers.push_back(*n);
        const std::size_t comma = text.find(',');
        text = comma == text.npos ? std::string_view() : text.substr(comma + 1);
    }
    return numbers;
}

// One printed value as its GGUF type: "u32" "61", "str" "glm4", "arr[i32,61]" "[...]".
std::optional<GgufValue> printedValue(std::string_view type, std::string_view value)
{
    if (type == "str")
        return GgufValue(std::string(value.substr(0, maxGgufKeptString)));
    if (type == "bool")
        return GgufValue(value == "true");
    if (type.starts_with("arr[")) {
        GgufArray array;
        auto count = numberAfter(type, ",");
        if (!count || *count < 0)
            return std::nullopt;
        array.count = uint64_t(*count);
        if (auto numbers = wholeList(value); numbers && numbers->size() == array.count)
            array.numbers = std::move(*numbers);
        return GgufValue(std::move(array));
    }
    auto n = leadingNumber(value);
    if (!n)
        return std::nullopt;
    if (type.starts_with("f"))
        return GgufValue(*n);
    if (*n < 0 || *n != double(int64_t(*n)))
        return std::nullopt;
    return GgufValue(uint64_t(*n));
}

// Keys and text values are passed on into errors, JSON and the window: bytes that are not UTF-8
// are replaced.
void keep(LogState& state, std::string key, GgufValue value)
{
    StartupLog& log = state.log();
    if (log.modelMetadata.size() >= maxGgufKeys || key.size() > 256)
        return;
    key = utf8Text(key);
    if (auto* text = std::get_if<std::string>(&value))
        *text = utf8Text(*text);
    if (log.modelMetadata.emplace(std::move(key), std::move(value)).second &&
        log.modelMetadataLine == 0)
        log.modelMetadataLine = state.line;
}

// "llama_model_loader: - kv   9:   glm4.block_count u32   = 61"
void readLoaderKey(std::string_view line, LogState& state)
{
    auto rest = after(line, "- kv ");
    if (!rest)
        return;
    auto colon = after(*rest, ":");
    if (!colon)
        return;
    const std::string_view body = trimmed(*colon);
    const std::size_t keyEnd = body.find(' ');
    const std::size_t equals = body.find(" = ");
    if (keyEnd == body.npos || equals == body.npos || equals < keyEnd)
        return;
    const std::string_view key = body.substr(0, keyEnd);
    const std::string_view type = trimmed(body.substr(keyEnd, equals - keyEnd));
    if (auto value = printedValue(type, trimmed(body.substr(equals + 3))))
        keep(state, std::string(key), std::move(*value));
}

// "print_info: n_head_kv = 2": kept under the architecture's key unless the loader's dump
// already gave it (print_info comes after the dump and reads the same file).
void readPrintedShape(std::string_view line, LogState& state)
{
    auto rest = after(line, "print_info: ");
    if (!rest)
        rest = after(line, "llm_load_print_meta: ");
    if (!rest)
        return;
    const std::string_view body = trimmed(*rest);
    if (auto arch = after(body, "arch "); arch && body.starts_with("arch "))
        if (auto value = after(*arch, "= "))
            keep(state, "general.architecture", GgufValue(std::string(leadingWord(*value))));
    auto archValue = state.log().modelMetadata.find("general.architecture");
    const auto* arch = archValue == state.log().modelMetadata.end()
                           ? nullptr
                           : std::get_if<std::string>(&archValue->second);
    if (!arch)
        return;
    for (const ShapeLine& shape : kShapeLines) {
        if (!body.starts_with(shape.printed))
            continue;
        auto value = after(body, "= ");
        if (value && !trimmed(*value).starts_with("["))
            if (auto n = leadingNumber(*value); n && *n >= 0 && *n == double(int64_t(*n)))
                keep(state, *arch + "." + std::string(shape.key), GgufValue(uint64_t(*n)));
    }
}

} // namespace

void readModelMetadata(std::string_view line, LogState& state)
{
    if (line.find("llama_model_loader:") != std::string_view::npos)
        readLoaderKey(line, state);
    else
        readPrintedShape(line, state);
}

} // namespace kvscope::startup_log

namespace kvscope {

namespace {

// The file's bytes over the shape's tensors, each role at the file's average bits per weight:
// the total is the file's (its metadata, a few MiB of vocabulary, counted in), the split by role
// an estimate, as a quantization mix keeps no role's bits in the log.
FileWeights weightsOfFileSize(const ModelSpec& shape, const StartupLog& log)
{
    FileWeights file;
    const ParameterCount p = countParameters(shape);
    file.elements = {p.embedding, p.lmHead, p.attention, p.denseMlp, p.experts, p.other};
    const double total = file.elements.total();
    if (!(total > 0))
        return {};
    const double perElement = log.modelFileBytes / total;
    const WeightRoles& n = file.elements;
    file.bytes = {n.embedding * perElement, n.lmHead * perElement,  n.attention * perElement,
                  n.denseMlp * perElement,  n.experts * perElement, n.other * perElement};
    const LoggedSetting* weights = log.setting("weights");
    file.fileType = weights ? weights->value : "GGUF";
    std::transform(file.fileType.begin(), file.fileType.end(), file.fileType.begin(),
                   [](unsigned char c) { return char(std::toupper(c)); });
    return file;
}

} // namespace

Expected<ModelSpec> modelFromStartupLog(const StartupLog& log)
{
    if (log.modelMetadata.empty())
        return FieldError{"log", "no model metadata",
                          "llama.cpp's print-out of the model (llama_model_loader or print_info "
                          "lines)"};
    GgufHeader header;
    header.metadata = log.modelMetadata;
    if (header.metadata.count("general.name") == 0 && !log.model.empty())
        header.metadata.emplace("general.name", log.model);
    auto model = modelFromGgufMetadata(header, "model-in-log");
    if (!model)
        return model.error();
    ModelSpec spec = std::move(model).value();
    spec.source = "start-up log, line " + std::to_string(log.modelMetadataLine);
    if (log.modelFileBytes > 0)
        spec.fileWeights = weightsOfFileSize(spec, log);
    return spec;
}

} // namespace kvscope
