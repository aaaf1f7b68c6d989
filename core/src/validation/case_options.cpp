// SPDX-License-Identifier: GPL-3.0-or-later
// A validation case as kvscope-cli options: the settings its source states, under kvscope's own
// flags, so `kvscope-cli calc` with the same options computes the same figure (tst_validation
// holds them to it). Nothing is added that the engine would derive itself: the engine's release
// rules (engines.json) do that.
#include "kvscope/validation/validation_set.h"

#include "kvscope/base/number_format.h"
#include "kvscope/settings/scenario_options.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <filesystem>

namespace kvscope {

namespace {

// llama-bench's default generation test is tg128: 128 new tokens after an empty prompt.
constexpr int64_t kDecodeContextTokens = 128;

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
    case MeasuredFigure::TpotMs:
    case MeasuredFigure::TtftMs:
        return "ms";
    }
    return "";
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

// Whether a version text names vLLM's V1 engine ("v0.7 main, V1", "v0.11.0 V1").
bool namesV1Engine(const std::string& text)
{
    for (size_t at = text.find("V1"); at != std::string::npos; at = text.find("V1", at + 1)) {
        const bool startsWord = at == 0 || !std::isalnum((unsigned char)text[at - 1]);
        const bool endsWord = at + 2 >= text.size() || !std::isalnum((unsigned char)text[at + 2]);
        if (startsWord && endsWord)
            return true;
    }
    return false;
}

// The first release a version text names: "v0.6.4 V0" gives 0.6.4, "v0.7.x-era" 0.7.0 (an
// unstated patch counts as the first of its minor release).
std::optional<Release> releaseOf(const std::string& text)
{
    for (size_t i = 0; i < text.size(); ++i) {
        if (!std::isdigit((unsigned char)text[i]) ||
            (i > 0 && (std::isdigit((unsigned char)text[i - 1]) || text[i - 1] == '.')))
            continue;
        size_t end = i;
        while (end < text.size() && (std::isdigit((unsigned char)text[end]) || text[end] == '.'))
            ++end;
        std::string candidate = text.substr(i, end - i);
        while (!candidate.empty() && candidate.back() == '.')
            candidate.pop_back();
        if (auto release = parseRelease(candidate))
            return release;
    }
    return std::nullopt;
}

// The build a llama.cpp version text names: "b5274", or llama-bench's "build: 4d3726278 (7315)"
// (a hexadecimal commit, then the build in brackets).
std::optional<Release> buildOf(const std::string& text)
{
    for (size_t i = 0; i < text.size(); ++i) {
        if ((text[i] != 'b' && text[i] != '(') ||
            (i > 0 && std::isalnum((unsigned char)text[i - 1])))
            continue;
        size_t end = i + 1;
        while (end < text.size() && std::isdigit((unsigned char)text[end]))
            ++end;
        if (end == i + 1 || (end < text.size() && std::isalnum((unsigned char)text[end])))
            continue;
        if (text[i] == '(') {
            if (end >= text.size() || text[end] != ')' || i < 2 || text[i - 1] != ' ')
                continue;
            size_t start =
                i - 1; // the word before must be a commit: hex digits, a letter among them
            while (start > 0 && std::isxdigit((unsigned char)text[start - 1]))
                --start;
            const std::string commit = text.substr(start, i - 1 - start);
            if (commit.size() < 7 || std::all_of(commit.begin(), commit.end(), [](char ch) {
                    return std::isdigit((unsigned char)ch);
                }))
                continue;
        }
        if (auto build = parseBuild(text.substr(i + 1, end - i - 1)))
            return build;
    }
    return std::nullopt;
}

// The options for vLLM's release and engine generation as the case's text names them.
// vLLM's release in a text that names the platform's beside it ("rocm/vllm:rocm6.3.1_instinct_
// vllm0.8.3", "built with ROCm 6.2", "cu128"): the first number that is not ROCm's or CUDA's.
std::optional<Release> vllmReleaseOf(const std::string& text)
{
    std::string masked = text;
    std::transform(masked.begin(), masked.end(), masked.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    for (const std::string platform : {"rocm", "cuda", "cu"}) {
        for (size_t at = masked.find(platform); at != std::string::npos;
             at = masked.find(platform, at + 1)) {
            size_t i = at + platform.size();
            while (i < masked.size() && (masked[i] == ' ' || masked[i] == '-'))
                ++i;
            for (;
                 i < masked.size() && (std::isdigit((unsigned char)masked[i]) || masked[i] == '.');
                 ++i)
                masked[i] = 'x';
        }
    }
    return releaseOf(masked);
}

void addVllmRelease(const std::string& text, const EngineReleases& releases, CaseOptions& out)
{
    auto release = vllmReleaseOf(text);
    // A text that names no release but the V0 engine dates from before V0's removal: the last
    // minor release that still had it.
    if (!release && namesV0Engine(text))
        release = lastV0Release(releases);
    if (!release)
        return;
    out.emplace_back("engine-version", releaseText(*release));
    const bool byDefault = v1EngineByDefault(releases, *release);
    if (namesV0Engine(text) && byDefault)
        out.emplace_back("vllm-use-v1", "off");
    else if (namesV1Engine(text) && !byDefault)
        out.emplace_back("vllm-use-v1", "on");
}

std::string integerText(int64_t v)
{
    return std::to_string(v);
}

// Why a case is not compared: the reason and its detail.
struct Skip
{
    SkipReason reason;
    std::string detail;
};

ValidationResult resultHeader(const ValidationCase& v)
{
    ValidationResult r;
    r.id = v.id;
    r.kind = v.kind;
    r.file = v.file;
    r.model = v.model;
    r.gpu = v.gpu;
    r.figure = v.figure;
    r.unit = unitOf(v.figure);
    r.users = v.workload ? v.workload->concurrency : 0;
    return r;
}

std::optional<Skip> addGpu(const ValidationCase& v, const Catalog& c, CaseScenario& out)
{
    if (v.gpu.empty()) {
        // llama.cpp allocates n_ctx cells of every layer whatever the GPU: its KV buffer size
        // is arithmetic on the model and the cache type alone.
        if (v.figure != MeasuredFigure::KvBufferMiB)
            return Skip{SkipReason::GpuNotStated, ""};
        out.result.defaultGpu = true;
    } else if (!c.gpu(v.gpu)) {
        return Skip{SkipReason::NotInCatalog, "gpu " + v.gpu};
    } else {
        out.options.emplace_back("gpu", v.gpu);
    }
    return std::nullopt;
}

std::optional<Skip> addModel(const ValidationCase& v, const Catalog& c, CaseOptions& o)
{
    if (v.model.empty())
        return std::nullopt;
    // What calc accepts: a catalog id, or a config.json / GGUF file beside the case file.
    const bool path = v.model.find('/') != std::string::npos || v.model.ends_with(".json") ||
                      v.model.ends_with(".gguf");
    if (path) {
        const std::filesystem::path file(v.model);
        const std::filesystem::path where = file.is_absolute() || v.directory.empty()
                                                ? file
                                                : std::filesystem::path(v.directory) / file;
        // A Hub id ("org/name") with no file beside the case: a model outside the catalog,
        // said so, not a file that failed to open.
        std::error_code ec;
        if (!v.model.ends_with(".json") && !v.model.ends_with(".gguf") &&
            !std::filesystem::exists(where, ec))
            return Skip{SkipReason::NotInCatalog, "model " + v.model};
        o.emplace_back("model", where.string());
    } else if (!c.model(v.model)) {
        return Skip{SkipReason::NotInCatalog, "model " + v.model};
    } else {
        o.emplace_back("model", v.model);
    }
    return std::nullopt;
}

// The engine and the GPU count; `engine` is left null when the case names no engine.
std::optional<Skip> addEngine(const ValidationCase& v, const Catalog& c, CaseScenario& out,
                              const EngineProfile*& engine)
{
    if (v.engine == "unknown") {
        out.result.defaultEngine = true; // the default scenario already holds the default engine
    } else if (!v.engine.empty()) {
        engine = c.engine(v.engine);
        if (!engine)
            return Skip{SkipReason::NotInCatalog, "engine " + v.engine};
        out.options.emplace_back("engine", v.engine);
    }
    if (v.gpus > 1)
        out.options.emplace_back("gpus", integerText(v.gpus));
    return std::nullopt;
}

// The figure depends on these; without them the prediction would be a guess.
std::optional<Skip> unstatedSetting(const ValidationCase& v)
{
    const ValidationSettings& set = v.settings;
    if (v.figure == MeasuredFigure::KvCacheTokens || v.figure == MeasuredFigure::GpuBlocks ||
        v.figure == MeasuredFigure::AvailableKvGiB) {
        if (!set.gpuMemoryUtilization)
            return Skip{SkipReason::SettingNotStated, "gpu_memory_utilization"};
        if (!set.maxModelLen && !set.context)
            return Skip{SkipReason::SettingNotStated, "max_model_len"};
    }
    if (v.figure == MeasuredFigure::KvBufferMiB && !set.nCtx && !set.context)
        return Skip{SkipReason::SettingNotStated, "n_ctx"};
    // The link model is a DMA straight from page-locked memory; pageable copies and
    // confidential-computing bounce buffers are set by the CPU, not the link.
    if (v.kind == ValidationKind::Pcie && set.memory && *set.memory != "pinned")
        return Skip{SkipReason::NotPinnedCopy, *set.memory};
    return std::nullopt;
}

// The engine's release and its knobs, under kvscope's flags.
void addEngineSettings(const ValidationSettings& set, const EngineProfile* engine, CaseOptions& o)
{
    const bool vllm = engine && engine->releases.modelled() && !engine->releases.builds;
    if (vllm && set.engineVersion)
        addVllmRelease(*set.engineVersion, engine->releases, o);
    if (engine && engine->releases.builds && set.engineVersion)
        if (auto build = buildOf(*set.engineVersion))
            o.emplace_back("engine-version", releaseText(engine->releases, *build));
    if (set.gpuMemoryUtilization)
        o.emplace_back("gpu-mem-util", formatPlain(*set.gpuMemoryUtilization));
    if (set.enforceEager)
        o.emplace_back("enforce-eager", *set.enforceEager ? "on" : "off");
    if (vllm && set.sampler == "flashinfer")
        o.emplace_back("flashinfer-sampler", "on");
    if (engine && engine->family == EngineFamily::LlamaCpp && set.flashAttn)
        o.emplace_back("flash-attn", *set.flashAttn ? "on" : "off");
    if (set.blockSize)
        o.emplace_back("block-size", integerText(*set.blockSize));
    if (set.maxNumSeqs)
        o.emplace_back("max-num-seqs", integerText(*set.maxNumSeqs));
    if (set.maxNumBatchedTokens)
        o.emplace_back("max-num-batched-tokens", integerText(*set.maxNumBatchedTokens));
}

// A setting passed on as it is (kvscope-cli flag), if the case states it.
const std::string* passedOnValue(const ValidationSettings& set, const std::string& flag)
{
    const auto it = std::find_if(set.passedOn.begin(), set.passedOn.end(),
                                 [&](const auto& option) { return option.first == flag; });
    return it == set.passedOn.end() ? nullptr : &it->second;
}

// A benchmark's users over data-parallel replicas (vLLM --data-parallel-size, SGLang --dp-size,
// servers behind a router): the client's concurrency counts all of them, spread evenly by the
// load balancer, and kvscope's users are one replica's. Users that do not divide evenly leave
// the busier replicas one more, which is what they are timed at.
int64_t usersPerReplica(const ValidationSettings& set, int64_t users)
{
    const std::string* text = passedOnValue(set, "replicas");
    int64_t replicas = 1;
    if (text) {
        const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), replicas);
        if (ec != std::errc{} || end != text->data() + text->size() || replicas < 1)
            replicas = 1; // the setting itself refuses the value when the scenario is built
    }
    return (users + replicas - 1) / replicas;
}

std::optional<Skip> addParallelLayout(const ValidationSettings& set, CaseOptions& o)
{
    const std::string* nodes = passedOnValue(set, "nodes");
    const bool severalNodes = nodes && *nodes != "1";
    if (set.tensorParallelSize && set.pipelineParallelSize && *set.tensorParallelSize > 1 &&
        *set.pipelineParallelSize > 1) {
        // kvscope runs a pipeline stage per node, tensor parallel inside each (--nodes).
        if (!severalNodes || *nodes != integerText(*set.pipelineParallelSize))
            return Skip{SkipReason::Refused,
                        "tensor and pipeline parallel together, other than a stage per node"};
        o.emplace_back("gpus", integerText(*set.tensorParallelSize * *set.pipelineParallelSize));
        o.emplace_back("split-mode", "tensor");
        return std::nullopt;
    }
    if (set.tensorParallelSize) {
        o.emplace_back("gpus", integerText(*set.tensorParallelSize));
        o.emplace_back("split-mode", "tensor");
        // One tensor-parallel group over several nodes (SGLang's --tp 16 --nnodes 2).
        const bool pipelined = set.pipelineParallelSize && *set.pipelineParallelSize > 1;
        if (severalNodes && !pipelined)
            o.emplace_back("node-split", "tensor");
    }
    if (set.pipelineParallelSize && *set.pipelineParallelSize > 1) {
        o.emplace_back("gpus", integerText(*set.pipelineParallelSize));
        o.emplace_back("split-mode", "layer");
    }
    return std::nullopt;
}

// The KV cache's and the weights' element types, from the engine's own names for them.
std::optional<Skip> addNumberFormats(const ValidationSettings& set, const Catalog& c,
                                     CaseOptions& o)
{
    if (set.cacheTypeK && set.cacheTypeV && *set.cacheTypeK != *set.cacheTypeV)
        return Skip{SkipReason::MixedKvTypes, *set.cacheTypeK + " / " + *set.cacheTypeV};
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
        if (!c.kvDtype(*kvId))
            return Skip{SkipReason::NotInCatalog, "kv dtype " + *kvId};
        o.emplace_back("kv-dtype", *kvId);
    }
    if (weightsId) {
        if (!c.weightFormat(*weightsId))
            return Skip{SkipReason::NotInCatalog, "weights " + *weightsId};
        o.emplace_back("weights", *weightsId);
    }
    return std::nullopt;
}

// Context, batch, layers on the GPU and the host link, then the options passed on as they are.
std::optional<Skip> addWorkload(const ValidationCase& v, const Catalog& c, CaseScenario& out)
{
    const ValidationSettings& set = v.settings;
    CaseOptions& o = out.options;
    // Capacity is set by what the engine allocates for (n_ctx, max_model_len); decode speed by
    // the tokens actually held.
    std::optional<int64_t> context;
    if (v.workload) {
        // A serving benchmark's users, one replica's share of them; the engine was started for
        // at least one whole request. A rate run's users follow from the rate
        // (validation_run.cpp, pointAtRate).
        const int64_t users = usersPerReplica(set, v.workload->concurrency);
        o.emplace_back("batch", integerText(std::max<int64_t>(1, users)));
        o.emplace_back("prompt-tokens", integerText(v.workload->inputTokens));
        o.emplace_back("output-tokens", integerText(v.workload->outputTokens));
        context = set.maxModelLen.value_or(v.workload->inputTokens + v.workload->outputTokens);
    } else if (v.kind == ValidationKind::Decode) {
        out.result.defaultContext = !set.context;
        context = set.context.value_or(kDecodeContextTokens);
    } else if (set.nCtx) {
        context = set.nCtx;
    } else if (set.maxModelLen) {
        context = set.maxModelLen;
    } else if (set.context) {
        context = set.context;
    }
    if (context)
        o.emplace_back("context", integerText(*context));
    if (set.batch && !v.workload)
        o.emplace_back("batch", integerText(*set.batch));
    if (set.nGpuLayers)
        o.emplace_back("n-gpu-layers", integerText(*set.nGpuLayers));
    if (set.pcieGen) {
        if (!c.pcieGeneration(int(*set.pcieGen)))
            return Skip{SkipReason::NotInCatalog, "pcie generation " + integerText(*set.pcieGen)};
        o.emplace_back("pcie", integerText(*set.pcieGen));
    }
    if (set.lanes)
        o.emplace_back("lanes", integerText(*set.lanes));
    for (const auto& option : set.passedOn)
        o.push_back(option);
    return std::nullopt;
}

// The case's options in the order the CLI would take them, or the first reason it is skipped.
std::optional<Skip> addCaseOptions(const ValidationCase& v, const Catalog& c, CaseScenario& out)
{
    // A planner predicts what an engine does by design; a figure its own reporter calls a bug
    // (a regression fixed in a later release) is kept in the set, listed, but not compared.
    if (!v.engineDefect.empty())
        return Skip{SkipReason::EngineDefect, v.engineDefect};
    const EngineProfile* engine = nullptr;
    if (auto skip = addGpu(v, c, out))
        return skip;
    if (auto skip = addModel(v, c, out.options))
        return skip;
    if (auto skip = addEngine(v, c, out, engine))
        return skip;
    if (auto skip = unstatedSetting(v))
        return skip;
    addEngineSettings(v.settings, engine, out.options);
    if (auto skip = addParallelLayout(v.settings, out.options))
        return skip;
    if (auto skip = addNumberFormats(v.settings, c, out.options))
        return skip;
    return addWorkload(v, c, out);
}

// vLLM's data_parallel_size over a MoE model shares its experts over the ranks (data-parallel
// attention), where kvscope's replicas are whole copies: read as replicas it would be wrong.
std::optional<Skip> dataParallelOfMoeUnderVllm(const ValidationCase& v, const Scenario& s)
{
    if (!v.settings.dataParallelSize || s.engine.family != EngineFamily::Vllm || !s.model.isMoe())
        return std::nullopt;
    return Skip{SkipReason::Refused,
                "vLLM's data_parallel_size over a MoE model shares its experts over the ranks: "
                "state dp_attention true, with gpus counting every rank's"};
}

} // namespace

CaseScenario scenarioForCase(const ValidationCase& v, const Catalog& c)
{
    CaseScenario out;
    out.result = resultHeader(v);
    std::optional<Skip> skip = addCaseOptions(v, c, out);
    if (!skip) {
        auto scenario = scenarioFromOptions(out.options, c);
        if (!scenario)
            skip = Skip{SkipReason::Refused, scenario.error().message()};
        else if (!(skip = dataParallelOfMoeUnderVllm(v, *scenario)))
            out.scenario = std::move(scenario).value();
    }
    if (skip) {
        out.result.skip = skip->reason;
        out.result.skipDetail = std::move(skip->detail);
        out.options.clear();
    }
    return out;
}

} // namespace kvscope
