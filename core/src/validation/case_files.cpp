// SPDX-License-Identifier: GPL-3.0-or-later
// Reading the validation set: case files, each case and its settings checked before use.
#include "kvscope/validation/validation_set.h"

#include "kvscope/evaluation/evaluation.h"
#include "kvscope/formats/checked_json.h"
#include "kvscope/formats/config_import.h"
#include "kvscope/settings/settings_registry.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <system_error>

#include <nlohmann/json.hpp>

namespace kvscope {

namespace fs = std::filesystem;

namespace {

constexpr double kMaxFigure = 1e15;

const std::set<std::string>& caseKeys()
{
    static const std::set<std::string> keys{
        "id",       "kind",     "engine", "model",  "gpu",   "gpus",          "settings",
        "workload", "measured", "quote",  "source", "notes", "engine_defect", "in_catalog"};
    return keys;
}

// Settings kept for the reader (tool, version, direction, ...) that change no figure kvscope
// computes.
const std::set<std::string>& informationalSettings()
{
    static const std::set<std::string> keys{
        "direction", "tool", "testcase", "buffer_mib", "transfer_bytes",
        "enable_prefix_caching", // random prompts: no hits; a case with hits states prefix_caching
        // What a speculative or serving run reports beside the settings kvscope models: its
        // accepted length (kvscope takes acceptance_rate) and the run without it, the network
        // named, the attention kernels.
        "mean_accept_length", "baseline_tokens_per_s", "baseline_tpot_ms", "interconnect",
        "enable_lora", "cuda_graph_max_bs", "attention_backend", "max_running_requests",
        "speculative_method", "vllm_reported_draft_acceptance_pct", "torch_compile", "benchmark"};
    return keys;
}

const std::set<std::string>& mappedSettings()
{
    static const std::set<std::string> keys{"gpu_memory_utilization",
                                            "mem_fraction_static",
                                            "max_model_len",
                                            "block_size",
                                            "max_num_seqs",
                                            "max_num_batched_tokens",
                                            "tensor_parallel_size",
                                            "pipeline_parallel_size",
                                            "n_ctx",
                                            "cache_type_k",
                                            "cache_type_v",
                                            "weights",
                                            "dtype",
                                            "context",
                                            "batch",
                                            "n_gpu_layers",
                                            "pcie_gen",
                                            "lanes",
                                            "engine_version",
                                            "memory",
                                            "sampler",
                                            "kv_cache_dtype",
                                            "enforce_eager",
                                            "flash_attn"};
    return keys;
}

std::string joined(const std::set<std::string>& words)
{
    std::string text;
    for (const std::string& w : words)
        text += (text.empty() ? "" : ", ") + w;
    return text;
}

template <typename T>
std::optional<T> optionalInteger(JsonReader& r, const char* key, int64_t lo, int64_t hi)
{
    if (!r.has(key))
        return std::nullopt;
    return T(r.integer({key}, lo, hi, lo));
}

// A setting stated under the engine's own name, in the range the registry gives its setting.
std::optional<int64_t> optionalSetting(JsonReader& r, const char* key, const char* settingId)
{
    const Setting* s = settingById(settingId);
    return optionalInteger<int64_t>(r, key, int64_t(s->lo), int64_t(s->hi));
}

std::optional<std::string> optionalText(JsonReader& r, const char* key)
{
    if (!r.has(key))
        return std::nullopt;
    return r.text({key}, "");
}

// A setting some engine calls by this name in the registry (VLLM_USE_V1, ...), or kvscope's own
// id for one no engine names (host_memory_gb_per_s: a machine's figure), with no mapping of its
// own above: the case passes it on as that setting's option, checked the same way.
const Setting* registeredEngineSetting(const std::string& key)
{
    for (const char* engine : {"vllm", "llamacpp", "transformers", "tgi", "sglang"})
        if (const Setting* s = settingByEngineName(engine, key))
            return s;
    return settingById(key);
}

// A JSON scalar as the text the setting's parser takes.
std::string scalarText(const nlohmann::json& v)
{
    if (v.is_boolean())
        return v.get<bool>() ? "on" : "off";
    if (v.is_string())
        return v.get<std::string>();
    return v.dump();
}

// SGLang names its drafters in capitals (EAGLE3); kvscope's choices are lower case.
std::string settingText(const std::string& key, const nlohmann::json& v)
{
    std::string text = scalarText(v);
    if (key == "speculative_algorithm")
        std::transform(text.begin(), text.end(), text.begin(),
                       [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

ValidationSettings readSettings(const nlohmann::json& object, JsonReader& r)
{
    ValidationSettings s;
    // An EAGLE run names its trained head as draft_model; kvscope derives the head from the
    // model, so the name is for the reader.
    const bool eagleHead = object.contains("speculative_algorithm");
    for (const auto& item : object.items()) {
        if (mappedSettings().count(item.key()) || informationalSettings().count(item.key()))
            continue;
        if (eagleHead && item.key() == "draft_model")
            continue;
        // SGLang's NEXTN drafts with the model's own MTP layers: kvscope's --mtp.
        if (item.key() == "speculative_algorithm" &&
            settingText(item.key(), item.value()) == "nextn") {
            s.passedOn.emplace_back("mtp", "on");
            continue;
        }
        if (const Setting* setting = registeredEngineSetting(item.key())) {
            auto value =
                parseSettingText(*setting, settingText(item.key(), item.value()), item.key());
            if (!value)
                r.fail(item.key(), describeJson(item.value()), value.error().accepted);
            else
                s.passedOn.emplace_back(setting->flag, settingValueText(*value));
            s.dataParallelSize = s.dataParallelSize || item.key() == "data_parallel_size";
            continue;
        }
        r.fail(item.key(), describeJson(item.value()),
               "a known setting: " + joined(mappedSettings()) +
                   ", an engine's name or kvscope's id for a kvscope setting (kvscope-cli list "
                   "settings), or, "
                   "for the reader only, " +
                   joined(informationalSettings()));
    }
    // vLLM's and SGLang's names for the engine's share of GPU memory.
    for (const char* key : {"gpu_memory_utilization", "mem_fraction_static"})
        if (r.has(key))
            s.gpuMemoryUtilization = r.number({key}, settingById("gpu_mem_util")->lo,
                                              settingById("gpu_mem_util")->hi, 0.9);
    s.maxModelLen = optionalSetting(r, "max_model_len", "context");
    s.blockSize = optionalSetting(r, "block_size", "block_size");
    s.maxNumSeqs = optionalSetting(r, "max_num_seqs", "max_num_seqs");
    s.maxNumBatchedTokens = optionalSetting(r, "max_num_batched_tokens", "prefill_chunk_tokens");
    s.tensorParallelSize = optionalSetting(r, "tensor_parallel_size", "gpus");
    s.pipelineParallelSize = optionalSetting(r, "pipeline_parallel_size", "gpus");
    s.nCtx = optionalSetting(r, "n_ctx", "context");
    s.cacheTypeK = optionalText(r, "cache_type_k");
    s.cacheTypeV = optionalText(r, "cache_type_v");
    s.weights = optionalText(r, "weights");
    s.dtype = optionalText(r, "dtype");
    if (s.dtype && *s.dtype != "float16" && *s.dtype != "bfloat16")
        r.fail("dtype", "\"" + *s.dtype + "\"", "float16 or bfloat16");
    s.context = optionalSetting(r, "context", "context");
    s.batch = optionalSetting(r, "batch", "batch");
    s.nGpuLayers = optionalSetting(r, "n_gpu_layers", "n_gpu_layers");
    s.pcieGen = optionalInteger<int64_t>(r, "pcie_gen", 1, 16);
    s.lanes = optionalInteger<int64_t>(r, "lanes", 1, 16);
    s.engineVersion = optionalText(r, "engine_version");
    s.kvCacheDtype = optionalText(r, "kv_cache_dtype");
    if (s.kvCacheDtype && *s.kvCacheDtype != "auto" && *s.kvCacheDtype != "fp8" &&
        *s.kvCacheDtype != "fp8_e4m3" && *s.kvCacheDtype != "fp8_e5m2")
        r.fail("kv_cache_dtype", "\"" + *s.kvCacheDtype + "\"", "auto, fp8, fp8_e4m3 or fp8_e5m2");
    if (r.has("enforce_eager"))
        s.enforceEager = r.boolean({"enforce_eager"}, false);
    if (r.has("flash_attn")) // llama-bench prints fa as 0 or 1
        s.flashAttn = r.integer({"flash_attn"}, 0, 1, 0) == 1;
    s.memory = optionalText(r, "memory");
    s.sampler = optionalText(r, "sampler");
    if (s.sampler && *s.sampler != "flashinfer" && *s.sampler != "pytorch")
        r.fail("sampler", "\"" + *s.sampler + "\"", "flashinfer or pytorch");
    return s;
}

bool parseKind(const std::string& id, ValidationKind* out)
{
    for (ValidationKind kind : allValidationKinds)
        if (id == validationKindId(kind)) {
            *out = kind;
            return true;
        }
    return false;
}

// The figure a case measured: the first of the kind's figures present.
// A serving row's time to first token goes to `ttftMs`, its time per token to the case.
void readMeasured(JsonReader& r, ValidationCase& c, double& ttftMs)
{
    // A measured figure is above zero; say so rather than quote a numeric range.
    auto positive = [&](const char* key) {
        const nlohmann::json* v = r.find({key});
        const double value = v && v->is_number() ? v->get<double>() : 0.0;
        if (v && (!std::isfinite(value) || value <= 0 || value > kMaxFigure)) {
            r.fail(key, describeJson(*v), "a number above 0");
            return 1.0;
        }
        return v ? value : 1.0;
    };
    switch (c.kind) {
    case ValidationKind::Capacity:
        if (r.has("kv_cache_tokens")) {
            c.figure = MeasuredFigure::KvCacheTokens;
            c.measured = double(r.integer({"kv_cache_tokens"}, 1, int64_t(kMaxFigure), 1));
        } else if (r.has("gpu_blocks")) {
            c.figure = MeasuredFigure::GpuBlocks;
            c.measured = double(r.integer({"gpu_blocks"}, 1, int64_t(kMaxFigure), 1));
        } else if (r.has("available_kv_gib")) {
            c.figure = MeasuredFigure::AvailableKvGiB;
            c.measured = positive("available_kv_gib");
        } else if (r.has("kv_buffer_mib")) {
            c.figure = MeasuredFigure::KvBufferMiB;
            c.measured = positive("kv_buffer_mib");
        } else {
            r.fail("kv_cache_tokens", "",
                   "one of kv_cache_tokens, gpu_blocks, available_kv_gib or kv_buffer_mib");
        }
        if (r.has("block_size"))
            c.measuredBlockSize = r.integer({"block_size"}, 1, 1 << 20, 16);
        break;
    case ValidationKind::Decode:
        r.require({"tokens_per_s"});
        c.figure = MeasuredFigure::TokensPerS;
        c.measured = positive("tokens_per_s");
        break;
    case ValidationKind::Pcie:
        r.require({"gb_per_s"});
        c.figure = MeasuredFigure::PcieGBps;
        c.measured = positive("gb_per_s");
        break;
    case ValidationKind::Tpot:
    case ValidationKind::Ttft:
        // Either figure may be missing from a row; servingCases() keeps the ones present.
        if (!r.has("tpot_ms") && !r.has("ttft_ms"))
            r.fail("tpot_ms", "", "tpot_ms or ttft_ms, or both");
        c.figure = MeasuredFigure::TpotMs;
        c.measured = r.has("tpot_ms") ? positive("tpot_ms") : 0.0;
        ttftMs = r.has("ttft_ms") ? positive("ttft_ms") : 0.0;
        r.text({"tpot_stat"}, "");
        r.text({"ttft_stat"}, "");
        break;
    }
}

// A serving row's benchmark: the users' requests and how many are in flight.
std::optional<FieldError> readWorkload(const nlohmann::json& j, const JsonReader& r,
                                       ValidationCase& c)
{
    auto it = j.find("workload");
    if (c.kind != ValidationKind::Tpot) {
        if (it != j.end())
            return FieldError{r.field("workload"), describeJson(*it), "only on a serving row"};
        return std::nullopt;
    }
    if (it == j.end() || !it->is_object())
        return FieldError{r.field("workload"), it == j.end() ? "" : describeJson(*it),
                          "an object with input_tokens, output_tokens and concurrency (or a "
                          "request_rate)"};
    JsonReader w(*it, r.field("workload"));
    w.require({"input_tokens"});
    w.require({"output_tokens"});
    ServingWorkload load;
    load.inputTokens = w.integer({"input_tokens"}, 1, limits::maxContext, 1);
    load.outputTokens = w.integer({"output_tokens"}, 1, limits::maxContext, 1);
    // A number of requests a second ("inf" sends them all at once, capped by the concurrency).
    const nlohmann::json* rate = w.find({"request_rate"});
    if (rate && !rate->is_string())
        load.requestRate = w.number({"request_rate"}, 0, kMaxFigure, 0);
    const nlohmann::json* users = w.find({"concurrency"});
    if (users && !users->is_null())
        load.concurrency = w.integer({"concurrency"}, 1, limits::maxBatch, 1);
    else if (!(load.requestRate > 0))
        w.require({"concurrency"}); // neither users nor a rate: the load is unknown
    else
        load.concurrency = 0;
    if (const nlohmann::json* requests = w.find({"requests"}); requests && !requests->is_null())
        load.requests = w.integer({"requests"}, 1, int64_t(kMaxFigure), 1);
    c.workload = load;
    return w.error();
}

// The case's id, which names it in every later error.
std::optional<FieldError> readCaseId(const nlohmann::json& j, const std::string& where,
                                     ValidationCase& c)
{
    JsonReader head(j, where);
    head.require({"id"});
    c.id = head.text({"id"}, "");
    if (!head.error() && c.id.empty())
        head.fail("id", "\"\"", "a non-empty case id");
    return head.error();
}

// What was measured on what, and where it was published.
void readCaseHeader(const nlohmann::json& j, JsonReader& r, ValidationCase& c)
{
    for (const auto& item : j.items())
        if (!caseKeys().count(item.key()))
            r.fail(item.key(), describeJson(item.value()), "one of " + joined(caseKeys()));
    r.require({"kind"});
    const std::string kind = r.text({"kind"}, "");
    // A serving row holds two figures; it is read as its time per token and split later.
    if (!r.error() && kind == "serving")
        c.kind = ValidationKind::Tpot;
    else if (!r.error() && (!parseKind(kind, &c.kind) || c.kind == ValidationKind::Tpot ||
                            c.kind == ValidationKind::Ttft))
        r.fail("kind", "\"" + kind + "\"", "capacity, decode, pcie or serving");
    c.engine = r.text({"engine"}, "");
    c.model = r.text({"model"}, "");
    c.gpu = r.text({"gpu"}, "");
    c.gpus = int(r.integer({"gpus"}, 1, limits::maxGpus, 1));
    r.require({"source"});
    c.source = r.text({"source"}, "");
    r.text({"quote"}, "");
    r.text({"notes"}, "");
    c.engineDefect = r.text({"engine_defect"}, "");
}

// The settings the source states and the figure it measured.
std::optional<FieldError> readCaseFigures(const nlohmann::json& j, const JsonReader& r,
                                          ValidationCase& c, double& ttftMs)
{
    if (auto it = j.find("settings"); it != j.end() && !it->is_null()) {
        if (!it->is_object())
            return FieldError{r.field("settings"), describeJson(*it), "an object"};
        JsonReader settings(*it, r.field("settings"));
        c.settings = readSettings(*it, settings);
        if (settings.error())
            return settings.error();
    }
    auto measured = j.find("measured");
    if (measured == j.end() || !measured->is_object())
        return FieldError{r.field("measured"), measured == j.end() ? "" : describeJson(*measured),
                          "an object holding the measured figure"};
    JsonReader m(*measured, r.field("measured"));
    readMeasured(m, c, ttftMs);
    if (m.error())
        return m.error();
    return readWorkload(j, r, c);
}

// A serving row as its two cases, each with one figure: its time per output token and its time
// to first token, where the row gives them.
std::vector<ValidationCase> servingCases(ValidationCase row, double ttft)
{
    std::vector<ValidationCase> cases;
    if (row.measured > 0) {
        cases.push_back(row);
        cases.back().id += "/tpot";
    }
    if (ttft > 0) {
        row.kind = ValidationKind::Ttft;
        row.figure = MeasuredFigure::TtftMs;
        row.measured = ttft;
        row.id += "/ttft";
        cases.push_back(std::move(row));
    }
    return cases;
}

// One case, or a serving row's two.
Expected<std::vector<ValidationCase>> readCase(const nlohmann::json& j, const std::string& fileName,
                                               size_t index)
{
    const std::string where = fileName + ": case " + std::to_string(index + 1);
    if (!j.is_object())
        return FieldError{where, describeJson(j), "an object"};
    ValidationCase c;
    c.file = fileName;
    if (auto e = readCaseId(j, where, c))
        return *e;
    JsonReader r(j, fileName + ": " + c.id);
    readCaseHeader(j, r, c);
    if (r.error())
        return *r.error();
    double ttftMs = 0;
    if (auto e = readCaseFigures(j, r, c, ttftMs))
        return *e;
    // A capacity or decode figure is the model's on an engine: a case that names neither would
    // be scored against whatever default kvscope happens to have.
    if (!r.error() && c.kind != ValidationKind::Pcie && c.model.empty())
        r.fail("model", "", "the model measured: a catalog id or a config.json / GGUF path");
    if (!r.error() && c.kind != ValidationKind::Pcie && c.engine.empty())
        r.fail("engine", "",
               "the engine measured: a catalog id, or \"unknown\" when the source "
               "does not say");
    if (r.error())
        return *r.error();
    if (c.kind == ValidationKind::Tpot)
        return servingCases(std::move(c), ttftMs);
    return std::vector<ValidationCase>{std::move(c)};
}

} // namespace

const char* validationKindId(ValidationKind kind)
{
    switch (kind) {
    case ValidationKind::Capacity:
        return "capacity";
    case ValidationKind::Decode:
        return "decode";
    case ValidationKind::Pcie:
        return "pcie";
    case ValidationKind::Tpot:
        return "tpot";
    case ValidationKind::Ttft:
        return "ttft";
    }
    return "decode";
}

const char* measuredFigureId(MeasuredFigure figure)
{
    switch (figure) {
    case MeasuredFigure::KvCacheTokens:
        return "kv_cache_tokens";
    case MeasuredFigure::GpuBlocks:
        return "gpu_blocks";
    case MeasuredFigure::AvailableKvGiB:
        return "available_kv_gib";
    case MeasuredFigure::KvBufferMiB:
        return "kv_buffer_mib";
    case MeasuredFigure::TokensPerS:
        return "tokens_per_s";
    case MeasuredFigure::PcieGBps:
        return "gb_per_s";
    case MeasuredFigure::TpotMs:
        return "tpot_ms";
    case MeasuredFigure::TtftMs:
        return "ttft_ms";
    }
    return "";
}

Expected<std::vector<ValidationCase>> validationCasesFromJson(const nlohmann::json& json,
                                                              const std::string& fileName)
{
    if (!json.is_array())
        return FieldError{fileName, describeJson(json), "a JSON array of validation cases"};
    std::vector<ValidationCase> cases;
    std::set<std::string> ids;
    for (size_t i = 0; i < json.size(); ++i) {
        auto read = readCase(json[i], fileName, i);
        if (!read)
            return read.error();
        for (ValidationCase& c : read.value()) {
            if (!ids.insert(c.id).second)
                return FieldError{fileName + ": " + c.id + ".id", "\"" + c.id + "\"",
                                  "an id no other case in the file has"};
            c.heldOut = isHeldOutFile(fileName); // until a directory's splits.json says
            cases.push_back(std::move(c));
        }
    }
    return cases;
}

Expected<std::vector<ValidationCase>> loadValidationFile(const fs::path& path)
{
    const std::string name = path.filename().string();
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec)
        return FieldError{name, path.string(), "a readable file (" + ec.message() + ")"};
    if (size > maxInputFileBytes)
        return FieldError{name, path.string(), "a JSON file of at most 4 MiB"};
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in)
        return FieldError{name, path.string(), "a readable file"};
    const std::string body = text.str();
    if (body.size() >= 2 && ((unsigned char)body[0] == 0xFF || (unsigned char)body[0] == 0xFE))
        return FieldError{name, "UTF-16 text", "JSON encoded as UTF-8"};
    // A case file is an array; the core's hardened reader (size, depth, encoding) takes objects,
    // so the array is read as the one member of an object around it.
    auto json = parseJsonText("{\"cases\": " + body + "\n}", name);
    if (!json)
        return json.error();
    if (json->size() != 1)
        return FieldError{name, "text after the array", "one JSON array of validation cases"};
    auto cases = validationCasesFromJson(json->at("cases"), name);
    if (!cases)
        return cases;
    auto splits = loadValidationSplits(path.parent_path());
    if (!splits)
        return splits.error();
    for (ValidationCase& c : cases.value()) {
        c.directory = path.parent_path().string();
        c.heldOut = splits->isHeldOut(name);
    }
    return cases;
}

Expected<std::vector<ValidationCase>> loadValidationDir(const fs::path& dir)
{
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".json" && it->path().filename() != kValidationSplitsFile)
            files.push_back(it->path());
    if (ec)
        return FieldError{dir.string(), ec.message(), "a readable directory of validation files"};
    std::sort(files.begin(), files.end());
    auto splits = loadValidationSplits(dir);
    if (!splits)
        return splits.error();
    std::vector<ValidationCase> all;
    for (const fs::path& file : files) {
        const std::string name = file.filename().string();
        if (splits->listed && !splits->heldOut.count(name))
            return FieldError{std::string(kValidationSplitsFile), name,
                              "an entry for every case file in the directory"};
        auto cases = loadValidationFile(file);
        if (!cases)
            return cases.error();
        for (ValidationCase& c : cases.value())
            all.push_back(std::move(c));
    }
    return all;
}

std::optional<fs::path> findValidationDir(const std::vector<fs::path>& dataDirs)
{
    for (const fs::path& dir : dataDirs) {
        std::error_code ec;
        if (fs::is_directory(dir / "validation", ec))
            return dir / "validation";
    }
    return std::nullopt;
}

} // namespace kvscope
