// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/validation/validation_set.h"

#include "kvscope/evaluation/evaluation.h"
#include "kvscope/io/config_import.h"
#include "kvscope/io/checked_json.h"

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

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * kMiB;
// llama-bench's default generation test is tg128: 128 new tokens after an empty prompt.
constexpr int64_t kDecodeContextTokens = 128;
constexpr double kMaxFigure = 1e15;

const std::set<std::string>& caseKeys()
{
    static const std::set<std::string> keys{"id",    "kind",   "engine",   "model",
                                            "gpu",   "gpus",   "settings", "measured",
                                            "quote", "source", "notes",    "engine_defect"};
    return keys;
}

// Settings kept for the reader (tool, version, direction, ...) that change no figure kvscope
// computes.
const std::set<std::string>& informationalSettings()
{
    static const std::set<std::string> keys{"flash_attn", "direction",  "tool",
                                            "testcase",   "buffer_mib", "transfer_bytes"};
    return keys;
}

const std::set<std::string>& mappedSettings()
{
    static const std::set<std::string> keys{"gpu_memory_utilization",
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
                                            "enforce_eager"};
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

// Whether a version text names vLLM's V0 engine ("... V0", "V0 (ROCm source build)").
bool namesV0Engine(const std::string& text)
{
    for (size_t at = text.find("V0"); at != std::string::npos; at = text.find("V0", at + 1)) {
        const bool startsWord = at == 0 || !std::isalnum((unsigned char)text[at - 1]);
        const bool endsWord = at + 2 >= text.size() || !std::isalnum((unsigned char)text[at + 2]);
        if (startsWord && endsWord)
            return true;
    }
    return false;
}

// The first release a version text names, as {major, minor, patch}: "v0.6.4 V0" gives {0, 6, 4},
// "v0.7.x-era" {0, 7, 0} (an unstated patch counts as the first of its minor release).
std::optional<std::array<int, 3>> releaseOf(const std::string& text)
{
    auto digits = [&](size_t from) {
        size_t end = from;
        while (end < text.size() && end - from < 4 && std::isdigit((unsigned char)text[end]))
            ++end;
        return end;
    };
    for (size_t i = 0; i < text.size(); ++i) {
        if (!std::isdigit((unsigned char)text[i]) ||
            (i > 0 && std::isdigit((unsigned char)text[i - 1])))
            continue;
        const size_t majorEnd = digits(i);
        if (majorEnd >= text.size() || text[majorEnd] != '.')
            continue;
        const size_t minorEnd = digits(majorEnd + 1);
        if (minorEnd == majorEnd + 1)
            continue;
        std::array<int, 3> release{std::stoi(text.substr(i, majorEnd - i)),
                                   std::stoi(text.substr(majorEnd + 1, minorEnd - majorEnd - 1)),
                                   0};
        if (minorEnd < text.size() && text[minorEnd] == '.') {
            const size_t patchEnd = digits(minorEnd + 1);
            if (patchEnd > minorEnd + 1)
                release[2] = std::stoi(text.substr(minorEnd + 1, patchEnd - minorEnd - 1));
        }
        return release;
    }
    return std::nullopt;
}

std::optional<std::string> optionalText(JsonReader& r, const char* key)
{
    if (!r.has(key))
        return std::nullopt;
    return r.text({key}, "");
}

ValidationSettings readSettings(const nlohmann::json& object, JsonReader& r)
{
    ValidationSettings s;
    for (const auto& item : object.items())
        if (!mappedSettings().count(item.key()) && !informationalSettings().count(item.key()))
            r.fail(item.key(), describeJson(item.value()),
                   "a known setting: " + joined(mappedSettings()) + " (or, for the reader only, " +
                       joined(informationalSettings()) + ")");
    if (r.has("gpu_memory_utilization"))
        s.gpuMemoryUtilization = r.number({"gpu_memory_utilization"}, 0.01, 1.0, 0.9);
    s.maxModelLen =
        optionalInteger<int64_t>(r, "max_model_len", limits::minContext, limits::maxContext);
    s.blockSize = optionalInteger<int64_t>(r, "block_size", 1, 1 << 20);
    s.maxNumSeqs = optionalInteger<int64_t>(r, "max_num_seqs", 1, limits::maxBatch);
    s.maxNumBatchedTokens =
        optionalInteger<int64_t>(r, "max_num_batched_tokens", 1, limits::maxContext);
    s.tensorParallelSize = optionalInteger<int64_t>(r, "tensor_parallel_size", 1, limits::maxGpus);
    s.pipelineParallelSize =
        optionalInteger<int64_t>(r, "pipeline_parallel_size", 1, limits::maxGpus);
    s.nCtx = optionalInteger<int64_t>(r, "n_ctx", limits::minContext, limits::maxContext);
    s.cacheTypeK = optionalText(r, "cache_type_k");
    s.cacheTypeV = optionalText(r, "cache_type_v");
    s.weights = optionalText(r, "weights");
    s.dtype = optionalText(r, "dtype");
    if (s.dtype && *s.dtype != "float16" && *s.dtype != "bfloat16")
        r.fail("dtype", "\"" + *s.dtype + "\"", "float16 or bfloat16");
    s.context = optionalInteger<int64_t>(r, "context", limits::minContext, limits::maxContext);
    s.batch = optionalInteger<int64_t>(r, "batch", 1, limits::maxBatch);
    s.nGpuLayers = optionalInteger<int64_t>(r, "n_gpu_layers", 0, 100'000);
    s.pcieGen = optionalInteger<int64_t>(r, "pcie_gen", 1, 16);
    s.lanes = optionalInteger<int64_t>(r, "lanes", 1, 16);
    s.engineVersion = optionalText(r, "engine_version");
    s.kvCacheDtype = optionalText(r, "kv_cache_dtype");
    if (s.kvCacheDtype && *s.kvCacheDtype != "auto" && *s.kvCacheDtype != "fp8" &&
        *s.kvCacheDtype != "fp8_e4m3" && *s.kvCacheDtype != "fp8_e5m2")
        r.fail("kv_cache_dtype", "\"" + *s.kvCacheDtype + "\"", "auto, fp8, fp8_e4m3 or fp8_e5m2");
    if (r.has("enforce_eager"))
        s.enforceEager = r.boolean({"enforce_eager"}, false);
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
void readMeasured(JsonReader& r, ValidationCase& c)
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
    }
}

Expected<ValidationCase> readCase(const nlohmann::json& j, const std::string& fileName,
                                  size_t index)
{
    const std::string where = fileName + ": case " + std::to_string(index + 1);
    if (!j.is_object())
        return FieldError{where, describeJson(j), "an object"};
    ValidationCase c;
    c.file = fileName;
    {
        JsonReader head(j, where);
        head.require({"id"});
        c.id = head.text({"id"}, "");
        if (!head.error() && c.id.empty())
            head.fail("id", "\"\"", "a non-empty case id");
        if (head.error())
            return *head.error();
    }
    JsonReader r(j, fileName + ": " + c.id);
    for (const auto& item : j.items())
        if (!caseKeys().count(item.key()))
            r.fail(item.key(), describeJson(item.value()), "one of " + joined(caseKeys()));
    r.require({"kind"});
    const std::string kind = r.text({"kind"}, "");
    if (!r.error() && !parseKind(kind, &c.kind))
        r.fail("kind", "\"" + kind + "\"", "capacity, decode or pcie");
    c.engine = r.text({"engine"}, "");
    c.model = r.text({"model"}, "");
    c.gpu = r.text({"gpu"}, "");
    c.gpus = int(r.integer({"gpus"}, 1, limits::maxGpus, 1));
    r.require({"source"});
    c.source = r.text({"source"}, "");
    r.text({"quote"}, "");
    r.text({"notes"}, "");
    c.engineDefect = r.text({"engine_defect"}, "");
    if (r.error())
        return *r.error();

    if (auto it = j.find("settings"); it != j.end() && !it->is_null()) {
        if (!it->is_object())
            return FieldError{r.field("settings"), describeJson(*it), "an object"};
        JsonReader settings(*it, r.field("settings"));
        c.settings = readSettings(*it, settings);
        if (settings.error())
            return *settings.error();
    }
    auto measured = j.find("measured");
    if (measured == j.end() || !measured->is_object())
        return FieldError{r.field("measured"), measured == j.end() ? "" : describeJson(*measured),
                          "an object holding the measured figure"};
    JsonReader m(*measured, r.field("measured"));
    readMeasured(m, c);
    if (m.error())
        return *m.error();
    return c;
}

// llama.cpp's type names for the KV cache, as catalog ids.
std::string kvDtypeId(const std::string& llamaType)
{
    if (llamaType == "f16")
        return "fp16";
    if (llamaType == "f32")
        return "fp32";
    return llamaType;
}

std::string unitOf(MeasuredFigure figure)
{
    switch (figure) {
    case MeasuredFigure::KvCacheTokens:
    case MeasuredFigure::GpuBlocks:
        return "tokens";
    case MeasuredFigure::AvailableKvGiB:
        return "GiB";
    case MeasuredFigure::KvBufferMiB:
        return "MiB";
    case MeasuredFigure::TokensPerS:
        return "tokens/s";
    case MeasuredFigure::PcieGBps:
        return "GB/s";
    }
    return "";
}

const char* skipReasonId(SkipReason reason)
{
    switch (reason) {
    case SkipReason::None:
        return "";
    case SkipReason::GpuNotStated:
        return "gpu_not_stated";
    case SkipReason::NotInCatalog:
        return "not_in_catalog";
    case SkipReason::SettingNotStated:
        return "setting_not_stated";
    case SkipReason::MixedKvTypes:
        return "mixed_kv_types";
    case SkipReason::Refused:
        return "refused";
    case SkipReason::NotPinnedCopy:
        return "not_pinned_copy";
    case SkipReason::EngineDefect:
        return "engine_defect";
    }
    return "";
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
        auto c = readCase(json[i], fileName, i);
        if (!c)
            return c.error();
        if (!ids.insert(c->id).second)
            return FieldError{fileName + ": " + c->id + ".id", "\"" + c->id + "\"",
                              "an id no other case in the file has"};
        cases.push_back(std::move(c).value());
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
    return validationCasesFromJson(json->at("cases"), name);
}

Expected<std::vector<ValidationCase>> loadValidationDir(const fs::path& dir)
{
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".json")
            files.push_back(it->path());
    if (ec)
        return FieldError{dir.string(), ec.message(), "a readable directory of validation files"};
    std::sort(files.begin(), files.end());
    std::vector<ValidationCase> all;
    for (const fs::path& file : files) {
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

CaseScenario scenarioForCase(const ValidationCase& v, const Catalog& c)
{
    CaseScenario out;
    ValidationResult& r = out.result;
    r.id = v.id;
    r.kind = v.kind;
    r.file = v.file;
    r.model = v.model;
    r.gpu = v.gpu;
    r.figure = v.figure;
    r.unit = unitOf(v.figure);
    auto skip = [&](SkipReason reason, std::string detail) {
        r.skip = reason;
        r.skipDetail = std::move(detail);
        return out;
    };

    // A planner predicts what an engine does by design; a figure its own reporter calls a bug
    // (a regression fixed in a later release) is kept in the set, listed, but not compared.
    if (!v.engineDefect.empty())
        return skip(SkipReason::EngineDefect, v.engineDefect);

    auto base = defaultScenario(c);
    if (!base)
        return skip(SkipReason::Refused, base.error().message());
    Scenario s = std::move(base).value();
    if (v.gpu.empty()) {
        // llama.cpp allocates n_ctx cells of every layer whatever the GPU: its KV buffer size
        // is arithmetic on the model and the cache type alone.
        if (v.figure != MeasuredFigure::KvBufferMiB)
            return skip(SkipReason::GpuNotStated, "");
        r.defaultGpu = true;
    } else {
        const GpuSpec* gpu = c.gpu(v.gpu);
        if (!gpu)
            return skip(SkipReason::NotInCatalog, "gpu " + v.gpu);
        s.gpu = *gpu;
    }
    if (!v.model.empty()) {
        const ModelSpec* model = c.model(v.model);
        if (!model)
            return skip(SkipReason::NotInCatalog, "model " + v.model);
        s.model = *model;
    }
    if (v.engine == "unknown") {
        r.defaultEngine = true; // defaultScenario() already holds the catalog's default engine
    } else if (!v.engine.empty()) {
        const EngineProfile* engine = c.engine(v.engine);
        if (!engine)
            return skip(SkipReason::NotInCatalog, "engine " + v.engine);
        applyEngine(s, *engine);
    }
    s.gpuCount = v.gpus;

    const ValidationSettings& set = v.settings;
    // The figure depends on these; without them the prediction would be a guess.
    if (v.figure == MeasuredFigure::KvCacheTokens || v.figure == MeasuredFigure::GpuBlocks ||
        v.figure == MeasuredFigure::AvailableKvGiB) {
        if (!set.gpuMemoryUtilization)
            return skip(SkipReason::SettingNotStated, "gpu_memory_utilization");
        if (!set.maxModelLen && !set.context)
            return skip(SkipReason::SettingNotStated, "max_model_len");
    }
    if (v.figure == MeasuredFigure::KvBufferMiB && !set.nCtx && !set.context)
        return skip(SkipReason::SettingNotStated, "n_ctx");
    // The link model is a DMA straight from page-locked memory; pageable copies and
    // confidential-computing bounce buffers are set by the CPU, not the link.
    if (v.kind == ValidationKind::Pcie && set.memory && *set.memory != "pinned")
        return skip(SkipReason::NotPinnedCopy, *set.memory);

    if (set.gpuMemoryUtilization)
        s.memoryFraction = *set.gpuMemoryUtilization;
    // vLLM sized the KV cache before capturing CUDA graphs, which then took the headroom outside
    // gpu_memory_utilization, until v0.21.0 counted them in the budget by default ("CUDA graph
    // memory profiling is enabled (default since v0.21.0)", gpustack/runner#251).
    //
    // Before v0.6.5 vLLM took its non-torch memory as (total - free) - torch's allocations, which
    // counts the CUDA context and anything else on the GPU (vllm/worker/worker.py,
    // determine_num_available_blocks); from v0.6.5 memory_profiling() counts only what grows
    // after a baseline taken once the context exists.
    //
    // Model Runner V2 became the default for dense models in v0.25.0 ("Model Runner V2 is now the
    // default for all dense models (#44443)", the v0.25.0 release notes); before it every model
    // ran the classic runner and its sampler. Its profile_cudagraph_memory() was a placeholder
    // returning 0 (vllm-project/vllm#49224) until #53306, merged in late August 2026, so a dense
    // model's graphs were captured after the KV cache was sized, outside the budget: a v0.27.1
    // log gives "Available KV cache memory: 5.91 GiB" = 21.64 GiB requested - 15.54 consumed -
    // 0.19 peak activation, with the 0.56 GiB of graphs logged beside it. The v0.28.0 cases fit
    // graphs counted in the budget, so v0.28.0 is taken as the first release with the fix.
    //
    // A text that names no release but the V0 engine dates from before V0's removal (v0.11), so
    // it is older than v0.21 and v0.25 here; the V0 engine never had V1's batch defaults below.
    if (v.engine == "vllm" && set.engineVersion) {
        const auto release = releaseOf(*set.engineVersion);
        const bool v0Engine = namesV0Engine(*set.engineVersion);
        auto before = [&](std::array<int, 3> first) {
            return release ? *release < first : v0Engine;
        };
        if (before({0, 21, 0}))
            s.engine.cudaGraphMiB = 0;
        if (release && *release < std::array{0, 6, 5})
            s.engine.runtimeOverheadMiB = s.engine.legacyRuntimeOverheadMiB;
        if (before({0, 25, 0}) && s.engine.classicSamplerLogitCopies > 0)
            s.engine.samplerLogitCopies = s.engine.classicSamplerLogitCopies;
        const bool graphsOutsideBudget = release && *release >= std::array{0, 25, 0} &&
                                         *release < std::array{0, 28, 0} && !s.model.isMoe();
        if (graphsOutsideBudget)
            s.engine.cudaGraphMiB = 0;
        // Batch defaults by GPU memory, with A100s kept on the small ones, arrived in V1 with
        // v0.9.0 (vllm-project/vllm#17073 and #17885).
        if (before({0, 9, 0}) || v0Engine)
            useBatchDefaults(s.engine, /*largeGpu=*/false);
    }
    if (set.enforceEager.value_or(false))
        s.engine.cudaGraphMiB = 0; // eager mode captures no CUDA graphs
    // FlashInfer samples top-k/top-p without sorting the logits ("Using FlashInfer for top-p &
    // top-k sampling" in vLLM's log), so the sampler holds no more than the logits themselves.
    if (v.engine == "vllm" && set.sampler == "flashinfer")
        s.engine.samplerLogitCopies = s.engine.classicSamplerLogitCopies = 1;
    if (set.blockSize)
        s.engine.kvBlockTokens = *set.blockSize;
    if (set.maxNumSeqs)
        s.engine.maxNumSeqs = *set.maxNumSeqs;
    if (set.maxNumBatchedTokens)
        s.engine.prefillChunkTokens = *set.maxNumBatchedTokens;
    if (set.tensorParallelSize && set.pipelineParallelSize && *set.tensorParallelSize > 1 &&
        *set.pipelineParallelSize > 1)
        return skip(SkipReason::Refused, "tensor and pipeline parallel together");
    if (set.tensorParallelSize) {
        s.gpuCount = int(*set.tensorParallelSize);
        s.engine.layerSplit = false;
    }
    if (set.pipelineParallelSize && *set.pipelineParallelSize > 1) {
        s.gpuCount = int(*set.pipelineParallelSize);
        s.engine.layerSplit = true;
    }

    if (set.cacheTypeK && set.cacheTypeV && *set.cacheTypeK != *set.cacheTypeV)
        return skip(SkipReason::MixedKvTypes, *set.cacheTypeK + " / " + *set.cacheTypeV);
    std::optional<std::string> kvId;
    if (set.cacheTypeK || set.cacheTypeV)
        kvId = kvDtypeId(set.cacheTypeK ? *set.cacheTypeK : *set.cacheTypeV);
    if (set.kvCacheDtype && *set.kvCacheDtype != "auto")
        kvId = "fp8"; // vLLM's FP8 KV: one byte per element whichever of its two encodings
    std::optional<std::string> weightsId = set.weights;
    if (set.dtype) {
        // The model's dtype: the weights unless they are quantized, and vLLM's "auto" KV dtype.
        const std::string id = *set.dtype == "bfloat16" ? "bf16" : "fp16";
        if (!weightsId)
            weightsId = id;
        if (!kvId)
            kvId = id;
    }
    if (kvId) {
        const KvDtype* kv = c.kvDtype(*kvId);
        if (!kv)
            return skip(SkipReason::NotInCatalog, "kv dtype " + *kvId);
        s.kvDtype = *kv;
    }
    if (weightsId) {
        const WeightFormat* w = c.weightFormat(*weightsId);
        if (!w)
            return skip(SkipReason::NotInCatalog, "weights " + *weightsId);
        s.weights = *w;
    }

    // Capacity is set by what the engine allocates for (n_ctx, max_model_len); decode speed by
    // the tokens actually held.
    if (v.kind == ValidationKind::Decode) {
        r.defaultContext = !set.context;
        s.context = set.context.value_or(kDecodeContextTokens);
    } else if (set.nCtx) {
        s.context = *set.nCtx;
    } else if (set.maxModelLen) {
        s.context = *set.maxModelLen;
    } else if (set.context) {
        s.context = *set.context;
    }
    if (set.batch)
        s.batch = *set.batch;
    if (set.nGpuLayers)
        s.gpuLayers = *set.nGpuLayers;
    if (set.pcieGen) {
        const PcieGeneration* pcie = c.pcieGeneration(int(*set.pcieGen));
        if (!pcie)
            return skip(SkipReason::NotInCatalog,
                        "pcie generation " + std::to_string(*set.pcieGen));
        s.pcie = *pcie;
    }
    if (set.lanes)
        s.pcieLanes = int(*set.lanes);

    if (auto error = validate(s))
        return skip(SkipReason::Refused, error->message());
    out.scenario = std::move(s);
    return out;
}

ValidationResult validateCase(const ValidationCase& v, const Catalog& c)
{
    CaseScenario cs = scenarioForCase(v, c);
    ValidationResult r = std::move(cs.result);
    if (r.skipped())
        return r;
    EvaluateOptions options;
    options.breakevenCrossings = false;
    auto e = evaluate(*cs.scenario, options);
    if (!e) {
        r.skip = SkipReason::Refused;
        r.skipDetail = e.error().message();
        return r;
    }
    r.measured = v.measured;
    switch (v.figure) {
    case MeasuredFigure::KvCacheTokens:
        r.predicted = double(e->engine.kvCacheTokens);
        break;
    case MeasuredFigure::GpuBlocks:
        r.measured =
            v.measured * double(v.measuredBlockSize.value_or(cs.scenario->engine.kvBlockTokens));
        r.predicted = double(e->engine.kvCacheTokens);
        break;
    case MeasuredFigure::AvailableKvGiB:
        r.predicted = e->tokensFit.freeForKvBytes / kGiB;
        break;
    case MeasuredFigure::KvBufferMiB:
        r.predicted = e->engine.kvBufferBytes / kMiB;
        break;
    case MeasuredFigure::TokensPerS:
        r.predicted = e->decode.tokensPerS;
        break;
    case MeasuredFigure::PcieGBps:
        r.predicted = e->decode.pcieEffectiveGBps;
        break;
    }
    r.error = r.predicted / r.measured - 1.0;
    return r;
}

ValidationSummary summarize(ValidationKind kind, const std::vector<ValidationResult>& results)
{
    ValidationSummary s;
    s.kind = kind;
    std::vector<double> errors;
    for (const ValidationResult& r : results) {
        if (r.kind != kind)
            continue;
        if (r.skipped()) {
            ++s.skipped;
            continue;
        }
        errors.push_back(std::fabs(r.error));
    }
    s.evaluated = int(errors.size());
    if (errors.empty())
        return s;
    std::sort(errors.begin(), errors.end());
    const size_t n = errors.size();
    s.medianAbsError = n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2.0;
    // A hair of tolerance so a case exactly at 5 % is not lost to rounding in the division.
    auto share = [&](double limit) {
        return double(std::count_if(errors.begin(), errors.end(),
                                    [&](double e) { return e <= limit + 1e-12; })) /
               double(n);
    };
    s.within5 = share(0.05);
    s.within10 = share(0.10);
    return s;
}

ValidationReport runValidation(const std::vector<ValidationCase>& cases, const Catalog& c)
{
    ValidationReport report;
    report.results.reserve(cases.size());
    for (const ValidationCase& v : cases)
        report.results.push_back(validateCase(v, c));
    for (ValidationKind kind : allValidationKinds)
        report.summaries[size_t(kind)] = summarize(kind, report.results);
    return report;
}

std::string skipReasonText(const ValidationResult& r)
{
    switch (r.skip) {
    case SkipReason::None:
        return "";
    case SkipReason::GpuNotStated:
        return "the GPU is not stated";
    case SkipReason::NotInCatalog:
        return r.skipDetail + " is not in the catalog";
    case SkipReason::SettingNotStated:
        return r.skipDetail + " is not stated, and the figure depends on it";
    case SkipReason::MixedKvTypes:
        return "K and V cache types differ (" + r.skipDetail + ")";
    case SkipReason::Refused:
        return "kvscope refused the scenario: " + r.skipDetail;
    case SkipReason::NotPinnedCopy:
        return "a copy from " + r.skipDetail + " memory, not a direct DMA from pinned memory";
    case SkipReason::EngineDefect:
        return "the source reports an engine defect: " + r.skipDetail;
    }
    return "";
}

nlohmann::json validationReportToJson(const ValidationReport& report)
{
    nlohmann::json cases = nlohmann::json::array();
    for (const ValidationResult& r : report.results) {
        nlohmann::json j;
        j["id"] = r.id;
        j["kind"] = validationKindId(r.kind);
        j["file"] = r.file;
        j["model"] = r.model.empty() ? nlohmann::json() : nlohmann::json(r.model);
        j["gpu"] = r.gpu.empty() ? nlohmann::json() : nlohmann::json(r.gpu);
        j["figure"] = measuredFigureId(r.figure);
        j["unit"] = r.unit;
        if (r.skipped()) {
            j["skipped"] = {{"reason", skipReasonId(r.skip)},
                            {"detail", r.skipDetail},
                            {"text", skipReasonText(r)}};
        } else {
            j["predicted"] = r.predicted;
            j["measured"] = r.measured;
            j["error"] = r.error;
        }
        nlohmann::json assumptions = nlohmann::json::array();
        if (r.defaultEngine)
            assumptions.push_back("engine_unknown_default_engine");
        if (r.defaultContext)
            assumptions.push_back("context_not_stated_128_tokens");
        if (r.defaultGpu)
            assumptions.push_back("gpu_not_stated_figure_independent_of_gpu");
        j["assumptions"] = assumptions;
        cases.push_back(j);
    }
    nlohmann::json summary = nlohmann::json::object();
    for (const ValidationSummary& s : report.summaries) {
        nlohmann::json k;
        k["evaluated"] = s.evaluated;
        k["skipped"] = s.skipped;
        const bool any = s.evaluated > 0;
        k["median_abs_error"] = any ? nlohmann::json(s.medianAbsError) : nlohmann::json();
        k["within_5_percent"] = any ? nlohmann::json(s.within5) : nlohmann::json();
        k["within_10_percent"] = any ? nlohmann::json(s.within10) : nlohmann::json();
        summary[validationKindId(s.kind)] = k;
    }
    return {{"cases", cases}, {"summary", summary}};
}

} // namespace kvscope
