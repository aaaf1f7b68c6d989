// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/planning/log_check.h"

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
    for (std::string_view mark :
         {"-quantized", ".w8a8", "-w8a8", "-w4a16", "-awq", "-gptq", "-fp8", "-int4", "-int8",
          "-bnb", "-autoround", "-gguf", "-4bit", "-8bit", "-nf4"})
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

// "NVIDIA GeForce RTX 3090 Ti" -> "rtx3090ti".
std::string gpuKey(std::string_view name)
{
    std::string key = lowered(name);
    for (std::string_view word : {"nvidia", "geforce", "tesla"})
        for (std::size_t at; (at = key.find(word)) != std::string::npos;)
            key.erase(at, word.size());
    std::erase_if(key, [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); });
    return key;
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
        return std::max(0.0, e.weightsBytesTotal - e.vram.weightsBytes * gpus);
    case LogFigure::KvBuffers:
        return e.engine.kvBufferBytes;
    case LogFigure::GpuComputeBuffers:
        return e.vram.activationBytes * gpus;
    case LogFigure::OffloadedLayers:
        return double(e.engine.gpuLayers);
    }
    return 0;
}

} // namespace

std::optional<double> LogCheckRow::differencePercent() const
{
    if (logged == 0)
        return std::nullopt;
    return (predicted - logged) / std::fabs(logged) * 100.0;
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
    const std::string key = gpuKey(name);
    for (const GpuSpec& g : catalog.gpus)
        if (gpuKey(g.name) == key || gpuKey(g.id) == key)
            return &g;
    return nullptr;
}

Expected<LogCheck> checkStartupLog(const StartupLog& log, const Catalog& catalog,
                                   const OptionList& userOptions)
{
    LogCheck check;
    check.log = log;
    OptionList& options = check.options;
    options.emplace_back("engine", log.engine);
    if (!hasOption(userOptions, "model") && !hasOption(userOptions, "scenario")) {
        const ModelSpec* model = modelNamedInLog(catalog, log.model);
        if (!model)
            return FieldError{"model", log.model.empty() ? "not named in the log" : log.model,
                              "a model in the catalog; pass --model ID|hf:ORG/NAME|CONFIG.json"};
        options.emplace_back("model", model->id);
    }
    if (!hasOption(userOptions, "gpu") && !hasOption(userOptions, "scenario")) {
        const GpuSpec* gpu = gpuNamedInLog(catalog, log.gpuName);
        if (!gpu)
            return FieldError{"gpu", log.gpuName.empty() ? "not named in the log" : log.gpuName,
                              "a GPU in the catalog; pass --gpu ID"};
        options.emplace_back("gpu", gpu->id);
    }
    // vLLM's release numbers, or llama.cpp's build ("b5274", from "version: 5274 (...)").
    const std::string release = log.engine == "vllm"       ? releaseNumbers(log.release)
                                : log.engine == "llamacpp" ? log.release
                                                           : "";
    if (!release.empty())
        options.emplace_back("engine-version", release);
    for (const LoggedSetting& setting : log.settings)
        options.emplace_back(setting.option, setting.value);
    if (!log.setting("weights") && !hasOption(userOptions, "weights"))
        if (std::string weights = weightsFromName(log.model); !weights.empty())
            options.emplace_back("weights", weights);
    options.insert(options.end(), userOptions.begin(), userOptions.end());

    auto scenario = scenarioFromOptions(options, catalog);
    if (!scenario && scenario.error().field == "--engine-version" &&
        !hasOption(userOptions, "engine-version")) {
        // A release kvscope has no rules for: the engine's default release, said so.
        std::erase_if(options, [](const auto& o) { return o.first == "engine-version"; });
        scenario = scenarioFromOptions(options, catalog);
        check.assumed.push_back(LogAssumption::ReleaseNotModelled);
    }
    if (!scenario)
        return scenario.error();
    if (log.engine == "vllm" && release.empty() && !hasOption(userOptions, "engine-version"))
        check.assumed.push_back(LogAssumption::ReleaseNotStated);
    check.scenario = std::move(scenario).value();
    auto evaluation = evaluate(check.scenario);
    if (!evaluation)
        return evaluation.error();
    check.evaluation = std::move(evaluation).value();

    for (const auto& [figure, number] : log.figures)
        check.rows.push_back({figure, number.value,
                              predictedFigure(figure, check.scenario, check.evaluation),
                              number.line});
    if (const LoggedNumber* tokens = log.figure(LogFigure::KvCacheTokens))
        check.loggedKvCacheTokens = tokens->value;
    else if (const LoggedNumber* blocks = log.figure(LogFigure::KvBlocks))
        check.loggedKvCacheTokens = blocks->value * double(check.scenario.engine.kvBlockTokens);
    return check;
}

} // namespace kvscope
