// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/formats/config_import.h"
#include "formats/file_names.h"
#include "formats/file_weights_json.h"
#include "formats/quantization_import.h"
#include "formats/recurrent_import.h"
#include "formats/vision_import.h"

#include "kvscope/formats/gpu_price_json.h"

#include "kvscope/base/number_format.h"
#include "kvscope/formats/checked_json.h"
#include "kvscope/scenario/scenario.h"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace kvscope {

namespace {

// Deepest nesting of objects and arrays, outside strings; stops counting at `limit` + 1.
int nestingDepth(const std::string& text, int limit)
{
    int depth = 0;
    int deepest = 0;
    bool inString = false;
    bool escaped = false;
    for (char c : text) {
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"')
            inString = true;
        else if (c == '{' || c == '[') {
            deepest = std::max(deepest, ++depth);
            if (deepest > limit)
                return deepest;
        } else if (c == '}' || c == ']')
            --depth;
    }
    return deepest;
}

// Which layers hold only a sliding window, from whichever convention the file uses.
void readWindowing(const nlohmann::json& cfg, JsonReader& r, ModelSpec& m)
{
    m.slidingWindow = 0;
    m.windowedLayers.clear();
    const int64_t window = r.integer({"sliding_window"}, 0, limits::maxContext, 0);
    if (window <= 0 || !r.boolean({"use_sliding_window"}, true))
        return;
    m.slidingWindow = window;
    m.windowedLayers.assign(size_t(m.layers), true);

    if (const nlohmann::json* types = r.find({"layer_types"})) {
        if (!types->is_array() || int64_t(types->size()) != m.layers) {
            r.fail("layer_types", describeJson(*types),
                   "an array with one entry per layer (" + std::to_string(m.layers) + ")");
            return;
        }
        for (size_t i = 0; i < types->size(); ++i) {
            const auto& t = (*types)[i];
            if (!t.is_string()) {
                r.fail("layer_types", describeJson(t),
                       "\"sliding_attention\" or \"full_attention\"");
                return;
            }
            m.windowedLayers[i] = t.get<std::string>() == "sliding_attention";
        }
        return;
    }
    if (const int64_t pattern = r.integer({"sliding_window_pattern"}, 1, 100'000, 0); pattern > 0) {
        // Every pattern-th layer is global, the others are windowed (Gemma 3 style).
        for (int64_t i = 0; i < m.layers; ++i)
            m.windowedLayers[size_t(i)] = (i + 1) % pattern != 0;
        return;
    }
    if (r.text({"cache_implementation"}, "") == "hybrid") {
        // A hybrid cache with no layer list alternates windowed and global layers, starting
        // windowed (transformers' Gemma 2: sliding on even layer indices).
        for (int64_t i = 0; i < m.layers; ++i)
            m.windowedLayers[size_t(i)] = i % 2 == 0;
        return;
    }
    if (r.has("max_window_layers") && cfg.contains("use_sliding_window")) {
        // Qwen2 style: layers from max_window_layers on use the window.
        const int64_t from = r.integer({"max_window_layers"}, 0, m.layers, 0);
        for (int64_t i = 0; i < m.layers; ++i)
            m.windowedLayers[size_t(i)] = i >= from;
    }
}

} // namespace

Expected<nlohmann::json> parseJsonText(const std::string& text, const std::string& what)
{
    if (text.size() > maxInputFileBytes)
        return FieldError{what, formatBytes(double(text.size()), ByteUnits::Binary),
                          "a JSON file of at most " +
                              formatBytes(double(maxInputFileBytes), ByteUnits::Binary)};
    if (text.size() >= 2 && ((unsigned char)text[0] == 0xFF || (unsigned char)text[0] == 0xFE))
        return FieldError{what, "UTF-16 text", "JSON encoded as UTF-8"};
    if (const int depth = nestingDepth(text, maxJsonDepth); depth > maxJsonDepth)
        return FieldError{what, "JSON nested more than " + std::to_string(maxJsonDepth) + " levels",
                          "at most " + std::to_string(maxJsonDepth) + " levels of nesting"};
    nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
    if (parsed.is_discarded())
        return FieldError{what, "text that is not valid JSON", "a JSON object"};
    if (!parsed.is_object())
        return FieldError{what, describeJson(parsed), "a JSON object"};
    return parsed;
}

Expected<nlohmann::json> readJsonFile(const std::filesystem::path& path, const std::string& what)
{
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec)
        return FieldError{what, path.string(), "a readable file (" + ec.message() + ")"};
    if (size > maxInputFileBytes)
        return FieldError{
            what, path.string() + " (" + formatBytes(double(size), ByteUnits::Binary) + ")",
            "a JSON file of at most " + formatBytes(double(maxInputFileBytes), ByteUnits::Binary)};
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return FieldError{what, path.string(), "a readable file"};
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return parseJsonText(buffer.str(), what);
}

namespace {

// Multimodal configs keep the language model in text_config; its keys win.
nlohmann::json languageConfig(const nlohmann::json& file)
{
    nlohmann::json cfg = file;
    if (auto it = file.find("text_config"); it != file.end() && it->is_object())
        for (const auto& [key, value] : it->items())
            cfg[key] = value;
    return cfg;
}

// Names, source and the three sizes every model states: layers, hidden size, query heads.
void readIdentityAndSize(JsonReader& r, const std::string& fallbackId, ModelSpec& m)
{
    m.id = r.text({"kvscope_id"}, utf8Text(fallbackId));
    m.name = r.text({"display_name"}, m.id);
    m.family = r.text({"family"}, r.text({"model_type"}, "Imported"));
    m.source = r.text({"source"}, "");
    m.hfRepo = r.text({"hf_repo", "_name_or_path"}, "");
    if (const nlohmann::json* a = r.find({"architectures"});
        a && a->is_array() && !a->empty() && a->front().is_string())
        m.architecture = a->front().get<std::string>();
    m.statedParameters = r.number({"num_parameters"}, 0, 1e16, 0);

    const int64_t dim = limits::maxDimension;
    r.require({"num_hidden_layers", "n_layer", "num_layers", "n_layers"});
    r.require({"hidden_size", "n_embd", "d_model", "dim"});
    r.require({"num_attention_heads", "n_head", "n_heads", "num_heads"});
    m.layers = r.integer({"num_hidden_layers", "n_layer", "num_layers", "n_layers"}, 1, 100'000, 0);
    m.hiddenSize = r.integer({"hidden_size", "n_embd", "d_model", "dim"}, 1, dim, 0);
    m.queryHeads = r.integer({"num_attention_heads", "n_head", "n_heads", "num_heads"}, 1, dim, 0);
}

// KV heads, head size, the MLP's width, the vocabulary and the context.
void readDenseShape(JsonReader& r, ModelSpec& m)
{
    const int64_t dim = limits::maxDimension;
    if (r.boolean({"multi_query"}, false))
        m.kvHeads = 1; // Falcon-7B: one K/V head shared by every query head
    else
        m.kvHeads = r.integer({"num_key_value_heads", "num_kv_heads", "n_head_kv", "n_kv_heads"}, 1,
                              dim, m.queryHeads);
    m.headDim = r.integer({"head_dim"}, 1, 65'536, 0);
    if (m.headDim == 0) {
        if (m.hiddenSize % m.queryHeads != 0)
            r.fail("head_dim", "",
                   "a head_dim, since hidden_size (" + std::to_string(m.hiddenSize) +
                       ") is not a multiple of num_attention_heads (" +
                       std::to_string(m.queryHeads) + ")");
        m.headDim = m.hiddenSize / m.queryHeads;
    }
    // GPT-style names for the MLP width mean an ungated up/down pair; intermediate_size means
    // the gated (SwiGLU / GeGLU) triple that Llama-style models use. No width at all: 4 x hidden.
    const char* widthKey = nullptr;
    if (r.find({"intermediate_size", "ffn_hidden_size", "n_inner", "ffn_dim"}, &widthKey)) {
        m.intermediateSize =
            r.integer({"intermediate_size", "ffn_hidden_size", "n_inner", "ffn_dim"}, 0, dim, 0);
        m.gatedMlp = std::string(widthKey) == "intermediate_size";
    } else {
        m.intermediateSize = 4 * m.hiddenSize;
        m.gatedMlp = false;
    }
    m.vocabSize = r.integer({"vocab_size", "padded_vocab_size", "n_vocab"}, 1, limits::maxVocab, 0);
    if (m.vocabSize == 0)
        r.require({"vocab_size"});
    m.tiedEmbeddings = r.boolean({"tie_word_embeddings"}, true); // transformers' default
    m.attentionBias = r.boolean({"attention_bias", "qkv_bias"}, false);
    m.maxContext = r.integer({"max_position_embeddings", "n_positions", "max_seq_len", "seq_length",
                              "max_sequence_length"},
                             0, limits::maxContext, 0);
}

// Multi-head latent attention (DeepSeek's compressed KV) and routed experts.
void readMlaAndExperts(JsonReader& r, ModelSpec& m)
{
    const int64_t dim = limits::maxDimension;
    m.kvLoraRank = r.integer({"kv_lora_rank"}, 0, dim, 0);
    if (m.kvLoraRank > 0) {
        m.qLoraRank = r.integer({"q_lora_rank"}, 0, dim, 0);
        m.qkRopeHeadDim = r.integer({"qk_rope_head_dim"}, 0, dim, 0);
        m.qkNopeHeadDim = r.integer({"qk_nope_head_dim"}, 0, dim, m.headDim);
        m.vHeadDim = r.integer({"v_head_dim"}, 1, dim, m.headDim);
    }

    m.experts = r.integer(
        {"num_local_experts", "n_routed_experts", "num_experts", "moe_num_experts"}, 0, 100'000, 0);
    if (m.experts > 0) {
        m.expertsPerToken = r.integer(
            {"num_experts_per_tok", "experts_per_token", "num_experts_per_token", "moe_top_k"}, 1,
            m.experts, 0);
        if (m.expertsPerToken == 0)
            r.require({"num_experts_per_tok"});
        m.expertIntermediate = r.integer({"moe_intermediate_size"}, 0, dim, 0);
        m.sharedExperts = r.integer({"n_shared_experts", "num_shared_experts"}, 0, 100'000, 0);
        m.denseLayers = r.integer({"first_k_dense_replace"}, 0, m.layers, 0);
    }
    m.mtpLayers = r.integer({"num_nextn_predict_layers"}, 0, std::max<int64_t>(m.layers, 1), 0);
}

// Layers that are not plain attention: sliding windows, recurrent layers, a vision tower.
std::optional<FieldError> readLayerKinds(const nlohmann::json& file, const nlohmann::json& cfg,
                                         JsonReader& r, ModelSpec& m)
{
    readWindowing(cfg, r, m);
    if (r.error())
        return r.error();
    if (auto error = readRecurrentLayers(cfg, r, m))
        return error;
    // No hybrid published windows its attention layers, and the window's per-layer list would
    // count recurrent layers as windowed KV layers.
    if (m.recurrent.present() && m.slidingWindow > 0)
        return FieldError{"config.sliding_window", std::to_string(m.slidingWindow),
                          "null, or use_sliding_window false, for a hybrid model with "
                          "recurrent layers"};
    return readVisionTower(file, m);
}

// How the weights are stored: as the file holds them, or the checkpoint's quantization method.
std::optional<FieldError> readWeightStorage(const nlohmann::json& cfg, JsonReader& r, ModelSpec& m)
{
    if (auto error = fileWeightsFromJson(cfg, "config", m.fileWeights))
        return error;
    // Scenario files keep the format id itself; a checkpoint's config names its method.
    m.checkpointWeights = r.text({"kvscope_checkpoint_weights"}, "");
    if (m.checkpointWeights.empty())
        if (auto error = checkpointFormatOf(cfg, m.checkpointWeights))
            return error;
    return std::nullopt;
}

} // namespace

Expected<ModelSpec> modelFromConfig(const nlohmann::json& file, const std::string& fallbackId)
{
    const nlohmann::json cfg = languageConfig(file);
    JsonReader r(cfg, "config");
    ModelSpec m;
    readIdentityAndSize(r, fallbackId, m);
    if (r.error())
        return *r.error();
    readDenseShape(r, m);
    readMlaAndExperts(r, m);
    if (auto error = readLayerKinds(file, cfg, r, m))
        return *error;
    if (r.error())
        return *r.error();
    if (auto error = readWeightStorage(cfg, r, m))
        return *error;
    if (r.error())
        return *r.error();
    if (auto error = validateModel(m))
        return *error;
    return m;
}

namespace {

// A model or GPU read from its own JSON file; an entry that names no source is sourced by its
// file.
template <typename Parse>
auto entryFromFile(const std::filesystem::path& path, const char* what, Parse parse)
    -> decltype(parse(nlohmann::json()))
{
    auto json = readJsonFile(path, what);
    if (!json)
        return json.error();
    auto entry = parse(*json);
    if (entry && entry.value().source.empty())
        entry.value().source = utf8Text(path.string());
    return entry;
}

} // namespace

Expected<ModelSpec> modelFromConfigFile(const std::filesystem::path& path)
{
    return entryFromFile(path, "config", [&](const nlohmann::json& j) {
        return modelFromConfig(j, basenameStem(path));
    });
}

nlohmann::json modelToConfig(const ModelSpec& m)
{
    nlohmann::json j;
    j["kvscope_id"] = m.id;
    j["display_name"] = m.name;
    j["family"] = m.family;
    j["source"] = m.source;
    if (!m.hfRepo.empty())
        j["hf_repo"] = m.hfRepo;
    if (!m.architecture.empty())
        j["architectures"] = nlohmann::json::array({m.architecture});
    if (m.statedParameters > 0)
        j["num_parameters"] = m.statedParameters;
    j["num_hidden_layers"] = m.layers;
    j["hidden_size"] = m.hiddenSize;
    j["num_attention_heads"] = m.queryHeads;
    j["num_key_value_heads"] = m.kvHeads;
    j["head_dim"] = m.headDim;
    j[m.gatedMlp ? "intermediate_size" : "ffn_hidden_size"] = m.intermediateSize;
    j["vocab_size"] = m.vocabSize;
    j["tie_word_embeddings"] = m.tiedEmbeddings;
    j["attention_bias"] = m.attentionBias;
    if (m.maxContext > 0)
        j["max_position_embeddings"] = m.maxContext;
    if (m.slidingWindow > 0) {
        j["sliding_window"] = m.slidingWindow;
        nlohmann::json types = nlohmann::json::array();
        for (bool windowed : m.windowedLayers)
            types.push_back(windowed ? "sliding_attention" : "full_attention");
        j["layer_types"] = types;
    }
    if (m.isMla()) {
        j["kv_lora_rank"] = m.kvLoraRank;
        j["q_lora_rank"] = m.qLoraRank;
        j["qk_rope_head_dim"] = m.qkRopeHeadDim;
        j["qk_nope_head_dim"] = m.qkNopeHeadDim;
        j["v_head_dim"] = m.vHeadDim;
    }
    if (m.experts > 0) {
        j["num_local_experts"] = m.experts;
        j["num_experts_per_tok"] = m.expertsPerToken;
        j["moe_intermediate_size"] = m.expertIntermediate;
        j["n_shared_experts"] = m.sharedExperts;
        j["first_k_dense_replace"] = m.denseLayers;
    }
    if (m.mtpLayers > 0)
        j["num_nextn_predict_layers"] = m.mtpLayers;
    if (m.recurrent.present())
        j["kvscope_recurrent"] = recurrentToJson(m.recurrent);
    if (m.vision.present())
        j["kvscope_vision"] = visionToJson(m.vision);
    if (m.fileWeights.present())
        j[kFileWeightsKey] = fileWeightsToJson(m.fileWeights);
    if (!m.checkpointWeights.empty())
        j["kvscope_checkpoint_weights"] = m.checkpointWeights;
    return j;
}

Expected<GpuSpec> gpuFromJson(const nlohmann::json& object, const std::string& fallbackId)
{
    JsonReader r(object, "gpu");
    GpuSpec g;
    g.id = r.text({"id"}, utf8Text(fallbackId));
    g.name = r.text({"name"}, g.id);
    g.vendor = r.text({"vendor"}, "");
    g.group = r.text({"group"}, "Custom");
    g.source = r.text({"source"}, "");
    r.require({"memory_gib"});
    r.require({"memory_bandwidth_gb_per_s"});
    r.require({"fp16_tensor_tflops"});
    g.memoryGiB = r.number({"memory_gib"}, 0, limits::maxMemoryGiB, 0);
    g.memoryType = r.text({"memory_type"}, "");
    g.bandwidthGBps = r.number({"memory_bandwidth_gb_per_s"}, 0, limits::maxRateGBps, 0);
    g.fp16Tflops = r.number({"fp16_tensor_tflops"}, 0, limits::maxTflops, 0);
    g.fp8Tflops = r.number({"fp8_tensor_tflops"}, 0, limits::maxTflops, 0);
    g.int8Tops = r.number({"int8_tensor_tops"}, 0, limits::maxTflops, 0);
    g.pcieGen = int(r.integer({"pcie_gen"}, 1, 7, 0));
    g.pcieLanes = int(r.integer({"pcie_lanes"}, 1, 16, 0));
    g.nvlinkGBps = r.number({"nvlink_gb_per_s"}, 0, limits::maxRateGBps, 0);
    // A GPU with NVLink and no stated domain sits on an 8-GPU baseboard (HGX, OAM).
    g.nvlinkGpus = int(r.integer({"nvlink_gpus"}, 2, 576, g.nvlinkGBps > 0 ? 8 : 0));
    g.unifiedMemory = r.boolean({"unified_memory"}, false);
    g.usableFraction = r.number({"gpu_usable_fraction"}, 0.01, 1.0, 1.0);
    g.computeCapability = r.number({"compute_capability"}, 0, 20, 0);
    g.hostRamGiBPerGpu = r.number({"host_ram_gib_per_gpu"}, 0, limits::maxMemoryGiB, 0);
    g.hostRamSource = r.text({"host_ram_source"}, "");
    g.tdpW = r.number({"tdp_w"}, 0, 100'000, 0);
    if (auto error = readGpuPrices(r, g.prices))
        return *error;
    if (r.error())
        return *r.error();
    if (auto error = validateGpu(g))
        return *error;
    return g;
}

Expected<GpuSpec> gpuFromFile(const std::filesystem::path& path)
{
    return entryFromFile(
        path, "gpu", [&](const nlohmann::json& j) { return gpuFromJson(j, path.stem().string()); });
}

nlohmann::json gpuToJson(const GpuSpec& g)
{
    nlohmann::json j;
    j["id"] = g.id;
    j["name"] = g.name;
    j["vendor"] = g.vendor;
    j["group"] = g.group;
    j["memory_gib"] = g.memoryGiB;
    if (!g.memoryType.empty())
        j["memory_type"] = g.memoryType;
    j["memory_bandwidth_gb_per_s"] = g.bandwidthGBps;
    j["fp16_tensor_tflops"] = g.fp16Tflops;
    j["fp8_tensor_tflops"] = g.fp8Tflops;
    j["int8_tensor_tops"] = g.int8Tops;
    j["pcie_gen"] = g.pcieGen > 0 ? nlohmann::json(g.pcieGen) : nlohmann::json();
    j["pcie_lanes"] = g.pcieLanes > 0 ? nlohmann::json(g.pcieLanes) : nlohmann::json();
    j["nvlink_gb_per_s"] = g.nvlinkGBps;
    if (g.nvlinkGBps > 0)
        j["nvlink_gpus"] = g.nvlinkGpus;
    j["unified_memory"] = g.unifiedMemory;
    j["gpu_usable_fraction"] = g.usableFraction;
    if (g.computeCapability > 0)
        j["compute_capability"] = g.computeCapability;
    if (g.hostRamGiBPerGpu > 0) {
        j["host_ram_gib_per_gpu"] = g.hostRamGiBPerGpu;
        j["host_ram_source"] = g.hostRamSource;
    }
    if (g.tdpW > 0)
        j["tdp_w"] = g.tdpW;
    nlohmann::json prices = nlohmann::json::array();
    for (const GpuPrice* p : {&g.prices.rental, &g.prices.purchase})
        if (p->kind != GpuPrice::Kind::Unknown)
            prices.push_back(gpuPriceToJson(*p));
    if (!prices.empty())
        j["prices"] = prices;
    j["source"] = g.source;
    return j;
}

} // namespace kvscope
