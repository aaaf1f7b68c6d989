// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/planning/log_check.h"

#include "kvscope/formats/hub_id.h"
#include "kvscope/settings/scenario_options.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>

namespace kvscope {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

std::string lowered(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

// "neuralmagic/Meta-Llama-3.1-70B-Instruct-quantized.w8a8" -> "llama-3.1-70b": the repository's
// name without the marks of a quantized upload or an instruction-tuned variant, which share the
// base model's architecture.
std::string modelKey(std::string_view name)
{
    while (name.ends_with("/"))
        name.remove_suffix(1);
    if (const std::size_t slash = name.rfind('/'); slash != std::string_view::npos)
        name.remove_prefix(slash + 1);
    std::string key = lowered(name);
    std::replace(key.begin(), key.end(), ' ', '-');
    std::replace(key.begin(), key.end(), '_', '-');
    // A GGUF file's name adds its split ("-00001-of-00002") and quantization ("-Q4_K_M",
    // "-UD-Q8_K_XL", "-BF16").
    for (std::string_view mark :
         {"-quantized", ".w8a8", "-w8a8",      "-w4a16", "-awq",  "-gptq", "-fp8", "-int4",
          "-int8",      "-bnb",  "-autoround", "-gguf",  "-4bit", "-8bit", "-nf4", "-000",
          "-ud-",       "-bf16", "-f16",       "-q2-",   "-q3-",  "-q4-",  "-q5-", "-q6-",
          "-q8-",       "-q4",   "-q8",        "-iq1",   "-iq2",  "-iq3",  "-iq4", "-qat"})
        if (const std::size_t at = key.find(mark); at != std::string::npos)
            key.resize(at);
    for (bool again = true; again;) {
        again = false;
        for (std::string_view suffix : {"-instruct", "-chat", "-hf", "-it", "-base"})
            if (key.ends_with(suffix)) {
                key.erase(key.end() - std::ptrdiff_t(suffix.size()), key.end());
                again = true;
            }
    }
    if (key.starts_with("meta-llama-"))
        key.erase(0, 5);
    return key;
}

// A GPU's name as words: lower case, brackets dropped ("Apple M2 Ultra (76-core GPU)", "AMD
// Radeon RX 7900 XTX (RADV NAVI31)"), and the vendors' brand words left out.
std::vector<std::string> gpuWords(std::string_view name)
{
    std::string text;
    int depth = 0;
    for (char c : name) {
        depth += c == '(' ? 1 : c == ')' ? -1 : 0;
        const bool word = std::isalnum(static_cast<unsigned char>(c)) != 0;
        text += depth > 0 || !word ? ' ' : char(std::tolower(static_cast<unsigned char>(c)));
    }
    static constexpr std::array<std::string_view, 11> brands{"nvidia", "geforce",  "tesla",   "amd",
                                                             "radeon", "instinct", "intel",   "r",
                                                             "tm",     "apple",    "graphics"};
    std::vector<std::string> words;
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t start = text.find_first_not_of(' ', at);
        if (start == std::string::npos)
            break;
        const std::size_t end = std::min(text.find(' ', start), text.size());
        std::string w = text.substr(start, end - start);
        if (std::find(brands.begin(), brands.end(), w) == brands.end())
            words.push_back(std::move(w));
        at = end;
    }
    return words;
}

bool isMemoryWord(std::string_view w)
{
    return w.size() > 2 && w.ends_with("gb") && std::isdigit(static_cast<unsigned char>(w[0]));
}

// Words a driver's name may leave out: the form factor and memory type of the usual part
// ("NVIDIA H100 80GB HBM3" is the SXM board).
bool isOptionalWord(std::string_view w)
{
    return isMemoryWord(w) || w.starts_with("sxm") || w.starts_with("hbm");
}

// Words that name another part of the same number ("RTX 3090" is not the "RTX 3090 Ti").
bool isModifierWord(std::string_view w)
{
    static constexpr std::array<std::string_view, 10> modifiers{
        "ti", "super", "xt", "xtx", "ultra", "max", "pro", "nvl", "mini", "plus"};
    return std::find(modifiers.begin(), modifiers.end(), w) != modifiers.end();
}

bool contains(const std::vector<std::string>& words, std::string_view w)
{
    return std::find(words.begin(), words.end(), w) != words.end();
}

// How well a catalog GPU's words match the logged name's: every required word of the catalog's
// present, no modifier the catalog lacks, the memory equal where both state it; nullopt when it
// does not match, else the words matched.
std::optional<int> gpuMatch(const std::vector<std::string>& logged,
                            const std::vector<std::string>& entry)
{
    int matched = 0;
    for (const std::string& w : entry) {
        if (contains(logged, w))
            ++matched;
        else if (!isOptionalWord(w))
            return std::nullopt;
        if (isMemoryWord(w) && !contains(logged, w) &&
            std::any_of(logged.begin(), logged.end(),
                        [](const std::string& l) { return isMemoryWord(l); }))
            return std::nullopt;
    }
    for (const std::string& w : logged)
        if (isModifierWord(w) && !contains(entry, w))
            return std::nullopt;
    const bool numbered = std::any_of(entry.begin(), entry.end(), [](const std::string& w) {
        return std::any_of(w.begin(), w.end(),
                           [](char c) { return std::isdigit((unsigned char)c); });
    });
    return numbered && matched > 0 ? std::optional<int>(matched) : std::nullopt;
}

// The weight format a quantized upload's name announces, when the log states none.
std::string weightsFromName(std::string_view name)
{
    const std::string n = lowered(name);
    if (n.find("awq") != std::string::npos)
        return "awq-int4";
    if (n.find("gptq") != std::string::npos)
        return n.find("int8") != std::string::npos || n.find("8bit") != std::string::npos
                   ? "gptq-int8"
                   : "gptq-int4";
    if (n.find("w8a8") != std::string::npos)
        return "int8";
    if (n.find("fp8") != std::string::npos)
        return "fp8";
    if (n.find("bnb-4bit") != std::string::npos || n.find("nf4") != std::string::npos)
        return "nf4";
    return "";
}

bool hasOption(const OptionList& options, std::string_view name)
{
    return std::any_of(options.begin(), options.end(),
                       [&](const auto& option) { return option.first == name; });
}

// "0.10.2.dev378+g4d7fe40fc" -> "0.10.2"; "" when the release has no three numbers.
std::string releaseNumbers(std::string_view release)
{
    std::string out;
    int parts = 0;
    for (std::size_t i = 0; i < release.size() && parts < 3;) {
        std::size_t end = i;
        while (end < release.size() && std::isdigit(static_cast<unsigned char>(release[end])))
            ++end;
        if (end == i || end - i > 6)
            return "";
        out += std::string(release.substr(i, end - i));
        ++parts;
        if (parts < 3) {
            if (end >= release.size() || release[end] != '.')
                return "";
            out += '.';
        }
        i = end + 1;
    }
    return parts == 3 ? out : "";
}

double predictedFigure(LogFigure figure, const Scenario& s, const Evaluation& e)
{
    const double gpus = double(s.gpuCount);
    switch (figure) {
    case LogFigure::TotalGpuMemory:
        return e.vram.capacityBytes;
    case LogFigure::MemoryBudget:
        return e.vram.budgetBytes;
    case LogFigure::Weights:
        return e.vram.weightsBytes;
    case LogFigure::NonTorchMemory:
        return (s.engine.runtimeOverheadMiB + tensorParallelBufferMiB(s)) * kMiB;
    case LogFigure::ActivationPeak:
        return e.vram.activationBytes;
    case LogFigure::KvCacheMemory:
        return e.tokensFit.freeForKvBytes;
    case LogFigure::KvCacheTokens:
        return double(e.engine.kvCacheTokens);
    case LogFigure::KvBlocks:
        return double(e.engine.kvBlocks);
    case LogFigure::MaxConcurrency:
        return e.engine.maxConcurrency;
    case LogFigure::CudaGraphs:
        return s.enforceEager ? 0.0 : s.engine.cudaGraphMiB * kMiB;
    case LogFigure::GpuModelBuffers:
        return e.vram.weightsBytes * gpus;
    case LogFigure::HostModelBuffers:
        return e.vram.weightsOffloadedBytes * gpus;
    case LogFigure::KvBuffers:
        return e.engine.kvBufferBytes;
    case LogFigure::GpuComputeBuffers:
        return e.vram.activationBytes * gpus;
    case LogFigure::OffloadedLayers:
        return double(e.engine.gpuLayers);
    case LogFigure::DecodeTokensPerS:
        return e.decode.tokensPerS;
    }
    return 0;
}

} // namespace

std::optional<double> LogCheckRow::differencePercent() const
{
    if (!predicted || logged == 0)
        return std::nullopt;
    return (*predicted - logged) / std::fabs(logged) * 100.0;
}

bool LogCheck::assumes(LogAssumption assumption) const
{
    return std::find(assumed.begin(), assumed.end(), assumption) != assumed.end();
}

bool LogCheck::gpuStandsIn() const
{
    return assumes(LogAssumption::GpuNotNamed) || assumes(LogAssumption::GpuOfLoggedMemory);
}

const ModelSpec* modelNamedInLog(const Catalog& catalog, const std::string& name)
{
    if (name.empty())
        return nullptr;
    const std::string repo = lowered(name);
    for (const ModelSpec& m : catalog.models)
        if (!m.hfRepo.empty() && lowered(m.hfRepo) == repo)
            return &m;
    const std::string key = modelKey(name);
    if (key.empty())
        return nullptr;
    for (const ModelSpec& m : catalog.models)
        if (key == modelKey(m.id) || key == modelKey(m.name) ||
            (!m.hfRepo.empty() && key == modelKey(m.hfRepo)))
            return &m;
    return nullptr;
}

const GpuSpec* gpuNamedInLog(const Catalog& catalog, const std::string& name)
{
    if (name.empty())
        return nullptr;
    const std::vector<std::string> logged = gpuWords(name);
    const GpuSpec* best = nullptr;
    int bestMatched = 0;
    for (const GpuSpec& g : catalog.gpus) {
        auto matched = gpuMatch(logged, gpuWords(g.name));
        if (!matched)
            matched = gpuMatch(logged, gpuWords(g.id));
        // Equal names (a chip sold with several memory sizes, "Apple M4 Max" at 36 and 128 GB)
        // go to the largest: the chip's own entry, as before its smaller tiers were priced.
        const bool better = matched && (*matched > bestMatched ||
                                        (*matched == bestMatched && g.memoryGiB > best->memoryGiB));
        if (better) {
            best = &g;
            bestMatched = *matched;
        }
    }
    return best;
}

std::optional<std::string> hubIdNamedInLog(const StartupLog& log)
{
    if (log.model.find('/') == std::string::npos)
        return std::nullopt; // a bare name or a path's last part
    auto hub = parseHubId("hf:" + log.model);
    if (!hub)
        return std::nullopt;
    return hub->repo;
}

bool logRulesOutGpu(const StartupLog& log, const GpuSpec& gpu)
{
    const double memory = gpu.memoryGiB * 1024.0 * kMiB;
    if (const LoggedNumber* weights = log.figure(LogFigure::Weights);
        weights && weights->value > memory)
        return true;
    const LoggedNumber* total = log.figure(LogFigure::TotalGpuMemory);
    return total && std::fabs(total->value - memory) > 0.1 * memory;
}

bool logFigureNeedsGpu(LogFigure figure)
{
    switch (figure) {
    case LogFigure::Weights:
    case LogFigure::CudaGraphs:
    case LogFigure::GpuModelBuffers:
    case LogFigure::HostModelBuffers:
    case LogFigure::KvBuffers:
        return false;
    default:
        return true;
    }
}

namespace {

// What the scenario is evaluated on when the log names no GPU the catalog has: the catalog's
// largest of the backend's kind (Apple silicon for Metal), under a name that says so. Only
// figures that do not depend on the GPU are predicted on it.
GpuSpec standInGpu(const Catalog& catalog, const StartupLog& log)
{
    const bool apple = log.backend == "Metal";
    GpuSpec gpu = catalog.gpus.front();
    for (const GpuSpec& g : catalog.gpus)
        if (g.unifiedMemory == apple && (gpu.unifiedMemory != apple || g.memoryGiB > gpu.memoryGiB))
            gpu = g;
    gpu.id = "gpu-not-named-in-log";
    gpu.name = "GPU not named in the log";
    gpu.custom = true;
    // vLLM states the memory it found: the stand-in takes it, so what depends on the memory
    // alone is predicted.
    if (const LoggedNumber* total = log.figure(LogFigure::TotalGpuMemory)) {
        gpu.memoryGiB = total->value / (1024.0 * kMiB);
        gpu.usableFraction = 1.0;
        gpu.name = "GPU of the logged memory";
    }
    return gpu;
}

// The release the scenario takes: the user's, else the one the log states, else (for a log of
// vLLM's V0 engine) the last release that had it.
std::string releaseOption(const StartupLog& log, const Catalog& catalog, LogCheck& check)
{
    if (log.engine == "llamacpp")
        return log.release;
    if (log.engine != "vllm")
        return "";
    std::string release = releaseNumbers(log.release);
    const LoggedSetting* v1 = log.setting("vllm-use-v1");
    const EngineProfile* vllm = catalog.engine("vllm");
    if (release.empty() && v1 && v1->value == "off" && vllm)
        if (auto last = lastV0Release(vllm->releases)) {
            check.assumed.push_back(LogAssumption::LastV0Release);
            return releaseText(*last);
        }
    if (release.empty())
        check.assumed.push_back(LogAssumption::ReleaseNotStated);
    return release;
}

void predictRows(LogCheck& check)
{
    const bool gpuKnown = !check.assumes(LogAssumption::GpuNotNamed);
    for (LogCheckRow& row : check.rows)
        if (gpuKnown || !logFigureNeedsGpu(row.figure))
            row.predicted = predictedFigure(row.figure, check.scenario, check.evaluation);
    if (const LoggedNumber* tokens = check.log.figure(LogFigure::KvCacheTokens))
        check.loggedKvCacheTokens = tokens->value;
    else if (const LoggedNumber* blocks = check.log.figure(LogFigure::KvBlocks))
        check.loggedKvCacheTokens = blocks->value * double(check.scenario.engine.kvBlockTokens);
    // Calibrating repeats the scenario by its options: a GPU's memory and a catalog model.
    if (check.gpuStandsIn() || check.assumes(LogAssumption::ModelFromLog))
        check.loggedKvCacheTokens = 0;
}

// The catalog entries a check is evaluated with, and the copy of the catalog that holds those
// the catalog lacks (the model the log prints, a GPU standing in).
struct CheckEntries
{
    Catalog extended;
    bool extendedUsed = false;
    OptionList hidden; // options the scenario needs that no command line can repeat

    Catalog& extend(const Catalog& catalog)
    {
        if (!extendedUsed) {
            extended = catalog;
            extendedUsed = true;
        }
        return extended;
    }
    const Catalog& used(const Catalog& catalog) const { return extendedUsed ? extended : catalog; }
};

// The model: the catalog's entry the log names, else the shape the log prints; false (and why,
// in check.noPrediction) when neither is there.
bool chooseModel(const Catalog& catalog, LogCheck& check, CheckEntries& entries)
{
    const StartupLog& log = check.log;
    if (const ModelSpec* model = modelNamedInLog(catalog, log.model)) {
        check.options.emplace_back("model", model->id);
        return true;
    }
    auto shape = modelFromStartupLog(log);
    if (shape) {
        entries.extend(catalog).models.push_back(*shape);
        entries.hidden.emplace_back("model", shape->id);
        // The file's own weights where the log prints its size (the log's "--weights" is then
        // only their name; addSettings leaves it out).
        if (shape->fileWeights.present())
            entries.hidden.emplace_back("weights", kFileWeightFormatId);
        check.assumed.push_back(LogAssumption::ModelFromLog);
        return true;
    }
    std::string accepted = "a model in the catalog; pass --model ID|hf:ORG/NAME|CONFIG.json";
    // A Hub id the log names (vLLM's and TGI's model): the options that read its config.json,
    // offered rather than fetched, since kvscope reads the network only when asked.
    if (auto hub = hubIdNamedInLog(log))
        accepted = "a model in the catalog; --hub (or --model hf:" + *hub +
                   ") reads its config.json from the Hugging Face Hub";
    if (!log.modelMetadata.empty())
        accepted += " (the shape the log prints lacks " + shape.error().field + ")";
    check.noPrediction =
        FieldError{"model", log.model.empty() ? "not named in the log" : log.model, accepted};
    return false;
}

void chooseGpu(const Catalog& catalog, LogCheck& check, CheckEntries& entries)
{
    if (const GpuSpec* gpu = gpuNamedInLog(catalog, check.log.gpuName)) {
        check.options.emplace_back("gpu", gpu->id);
        return;
    }
    const GpuSpec standIn = standInGpu(catalog, check.log);
    entries.extend(catalog).gpus.push_back(standIn);
    entries.hidden.emplace_back("gpu", standIn.id);
    check.assumed.push_back(check.log.figure(LogFigure::TotalGpuMemory)
                                ? LogAssumption::GpuOfLoggedMemory
                                : LogAssumption::GpuNotNamed);
}

// The release first (the engine generation and settings the log states are checked against
// it), then what the log states, then the user's options.
void addSettings(const Catalog& catalog, const OptionList& userOptions, LogCheck& check)
{
    const StartupLog& log = check.log;
    OptionList& options = check.options;
    const bool userRelease = hasOption(userOptions, "engine-version");
    const std::string release = userRelease ? "" : releaseOption(log, catalog, check);
    for (const auto& option : userOptions)
        if (option.first == "engine-version")
            options.push_back(option);
    if (!release.empty())
        options.emplace_back("engine-version", release);
    const bool fileWeights = check.assumes(LogAssumption::ModelFromLog) && log.modelFileBytes > 0;
    for (const LoggedSetting& setting : log.settings)
        if (!(fileWeights && setting.option == "weights"))
            options.emplace_back(setting.option, setting.value);
    if (!log.setting("weights") && !hasOption(userOptions, "weights"))
        if (std::string weights = weightsFromName(log.model); !weights.empty())
            options.emplace_back("weights", weights);
    // The engine is the log's (checkStartupLog refuses another), already first in the options.
    for (const auto& option : userOptions)
        if (option.first != "engine-version" && option.first != "engine")
            options.push_back(option);
}

// A stated engine other than the log's would check its lines against another engine's rules.
std::optional<FieldError> engineOtherThanTheLogs(const StartupLog& log,
                                                 const OptionList& userOptions)
{
    for (const auto& [name, value] : userOptions)
        if (name == "engine" && value != log.engine)
            return FieldError{"engine", value, log.engine + ", the engine that wrote the log"};
    return std::nullopt;
}

Expected<Scenario> buildScenario(const Catalog& catalog, const CheckEntries& entries,
                                 const OptionList& userOptions, LogCheck& check)
{
    auto build = [&] {
        OptionList all = entries.hidden;
        all.insert(all.end(), check.options.begin(), check.options.end());
        return scenarioFromOptions(all, entries.used(catalog));
    };
    auto scenario = build();
    if (!scenario && scenario.error().field == "--engine-version" &&
        !hasOption(userOptions, "engine-version")) {
        // A release kvscope has no rules for: the engine's default release, said so.
        std::erase_if(check.options, [](const auto& o) { return o.first == "engine-version"; });
        std::erase_if(check.assumed,
                      [](LogAssumption a) { return a == LogAssumption::LastV0Release; });
        scenario = build();
        check.assumed.push_back(LogAssumption::ReleaseNotModelled);
    }
    return scenario;
}

} // namespace

Expected<LogCheck> checkStartupLog(const StartupLog& log, const Catalog& catalog,
                                   const OptionList& userOptions)
{
    if (auto error = engineOtherThanTheLogs(log, userOptions))
        return std::move(*error);
    LogCheck check;
    check.log = log;
    for (const auto& [figure, number] : log.figures)
        check.rows.push_back({figure, number.value, std::nullopt, number.line});
    check.options.emplace_back("engine", log.engine);
    CheckEntries entries;
    const bool fromFile = hasOption(userOptions, "scenario");
    if (!hasOption(userOptions, "model") && !fromFile && !chooseModel(catalog, check, entries))
        return check;
    if (!hasOption(userOptions, "gpu") && !fromFile)
        chooseGpu(catalog, check, entries);
    addSettings(catalog, userOptions, check);
    auto scenario = buildScenario(catalog, entries, userOptions, check);
    if (!scenario)
        return scenario.error();
    check.scenario = std::move(scenario).value();
    auto evaluation = evaluate(check.scenario);
    if (!evaluation)
        return evaluation.error();
    check.evaluation = std::move(evaluation).value();
    predictRows(check);
    return check;
}

} // namespace kvscope
