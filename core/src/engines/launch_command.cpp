// SPDX-License-Identifier: GPL-3.0-or-later
// Shared pieces of the engines' launch commands; each engine's flags live in its module.
#include "kvscope/engines/launch_command.h"

#include "kvscope/engines/engine_module.h"
#include "kvscope/model/weights.h"
#include "kvscope/scenario/scenario.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>

namespace kvscope {

std::string headSplitRefusal(const Scenario& s)
{
    const HeadSplits near = nearestHeadSplits(s);
    std::string counts;
    if (near.below > 0)
        counts = std::to_string(near.below);
    if (near.above > 0)
        counts += (counts.empty() ? "" : " or ") + std::to_string(near.above);
    const int ways = tensorWays(s);
    const bool queryHeadsSplit = s.model.queryHeads % ways == 0;
    std::string text =
        s.engine.name + " refuses " + std::to_string(ways) + " GPUs in tensor parallel" +
        (s.nodes > 1 ? " in each node" : "") + ": " +
        (queryHeadsSplit ? "they and the model's " + std::to_string(s.model.kvHeads) +
                               " KV heads do not divide one another."
                         : "they do not divide the model's " + std::to_string(s.model.queryHeads) +
                               " attention heads.");
    if (!counts.empty())
        text += " Use --gpus " + counts;
    if (engineModule(s.engine).splitsLayers())
        text += (counts.empty() ? " Use" : ", or") + std::string(" --split-mode layer");
    return text + (counts.empty() && !engineModule(s.engine).splitsLayers() ? "" : ".");
}

namespace {

std::string joinedIds(const std::vector<std::string>& ids)
{
    std::string text;
    for (const std::string& id : ids)
        text += (text.empty() ? "" : ", ") + id;
    return text;
}

// Weights the engine cannot load at all: the same rule as calc's caution, so the two agree.
std::string weightsRefusal(const Scenario& s)
{
    const bool ownFile = s.model.fileWeights.present() && s.weights.id == kFileWeightFormatId;
    if (s.engine.supportsWeights(s.weights.id) ||
        (ownFile && s.engine.family == EngineFamily::LlamaCpp))
        return "";
    return s.engine.name + " does not load weights in " + s.weights.id + " (it offers " +
           joinedIds(s.engine.supportedWeights) + ").";
}

std::string upperCase(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char ch) { return char(std::toupper(ch)); });
    return text;
}

// "Model-{TYPE}.gguf" with the type in capitals, "{type}" in lower case; "" without a pattern.
std::string ggufFileOf(const std::string& pattern, const std::string& type)
{
    std::string file = pattern;
    for (const auto& [key, value] : {std::pair{std::string("{TYPE}"), upperCase(type)},
                                     std::pair{std::string("{type}"), type}})
        if (const size_t at = file.find(key); at != std::string::npos)
            file.replace(at, key.size(), value);
    return file;
}

// A published checkpoint in the chosen format: the format's own first, then a GGUF repository
// holding that type (whose file name is known, where the engine needs it).
std::optional<CheckpointChoice> publishedCheckpoint(const Scenario& s)
{
    const auto& list = s.model.checkpoints;
    const EngineModule& engine = engineModule(s.engine);
    const bool byType = engine.fetchesGgufByType();
    auto sameFormat = std::find_if(list.begin(), list.end(), [&](const PublishedCheckpoint& p) {
        return p.format == s.weights.id && !engine.readsOnlyGguf();
    });
    auto ggufRepo = std::find_if(list.begin(), list.end(), [&](const PublishedCheckpoint& p) {
        return p.format == "gguf" && (byType || !p.ggufFilePattern.empty()) &&
               std::find(p.ggufTypes.begin(), p.ggufTypes.end(), s.weights.id) != p.ggufTypes.end();
    });
    const auto found = sameFormat != list.end() ? sameFormat : ggufRepo;
    if (found == list.end())
        return std::nullopt;
    CheckpointChoice c;
    c.name = found->repo;
    if (found == ggufRepo) {
        c.ggufType = found->oneGgufType ? "" : upperCase(s.weights.id);
        c.ggufFile = ggufFileOf(found->ggufFilePattern, s.weights.id);
    }
    if (found->instructSibling)
        c.note = "kvscope lists " + s.weights.name + " weights of the instruct model, " +
                 found->repo + ": the same dimensions as " + s.model.name + ".";
    return c;
}

} // namespace

bool looksLikeLocalPath(const std::string& name)
{
    return !name.empty() &&
           (name.front() == '/' || name.front() == '.' || name.front() == '~' ||
            name.ends_with(".gguf") || std::count(name.begin(), name.end(), '/') != 1);
}

CheckpointChoice chooseCheckpoint(const Scenario& s)
{
    CheckpointChoice c;
    if (!s.checkpoint.empty()) {
        c.name = s.checkpoint;
        c.path = looksLikeLocalPath(s.checkpoint);
        return c;
    }
    if (s.model.fileWeights.present() && s.weights.id == kFileWeightFormatId) {
        c.name = s.model.source;
        c.path = true;
        return c;
    }
    // The model's own repository: made into these weights while loading, or already in them
    // (gpt-oss's MXFP4), unless the engine reads GGUF files only.
    const EngineModule& engine = engineModule(s.engine);
    if (engine.loadsOriginalAs(s.weights) ||
        (s.model.checkpointWeights == s.weights.id && !engine.readsOnlyGguf())) {
        c.name = launchModelName(s);
        c.path = s.model.imported && s.model.hfRepo.empty();
        return c;
    }
    if (std::optional<CheckpointChoice> published = publishedCheckpoint(s))
        return *published;
    c.refusal = "kvscope lists no " + s.weights.name + " checkpoint of " + s.model.name + ", and " +
                s.engine.name + " does not make one while loading. Name yours with " +
                "--checkpoint (a Hugging Face repository or a local path).";
    return c;
}

LaunchCommand launchCommand(const Scenario& scenario)
{
    LaunchCommand refused;
    if (!splitsHeadsEvenly(scenario)) {
        refused.refusal = headSplitRefusal(scenario);
        refused.refusalKind = LaunchRefusal::HeadSplit;
    } else if (std::string weights = weightsRefusal(scenario); !weights.empty()) {
        refused.refusal = std::move(weights);
        refused.refusalKind = LaunchRefusal::Weights;
    } else {
        refused.refusal = chooseCheckpoint(scenario).refusal;
        refused.refusalKind = LaunchRefusal::NoCheckpoint;
    }
    if (!refused.refusal.empty())
        return refused;
    LaunchCommand command = engineModule(scenario.engine).launchCommand(scenario);
    // Replicas the engine does not start itself are copies of the command.
    if (scenario.replicas > 1 && command.text.find("--data-parallel-size") == std::string::npos)
        command.notes.push_back("Run " + std::to_string(scenario.replicas) +
                                " copies of this, each on its own GPUs, behind a load balancer "
                                "(the scenario's replicas).");
    return command;
}

std::string launchCommandText(const LaunchCommand& c)
{
    if (!c.refusal.empty())
        return "# No command: " + c.refusal + "\n";
    std::string text = c.text;
    if (!text.empty() && text.back() != '\n')
        text += '\n';
    for (const std::string& note : c.notes)
        text += "# " + note + "\n";
    if (!c.source.empty())
        text += "# Options as documented in " + c.source + "\n";
    return text;
}

std::string launchModelName(const Scenario& s)
{
    if (!s.model.hfRepo.empty())
        return s.model.hfRepo;
    if (s.model.imported && !s.model.source.empty()) {
        const std::filesystem::path dir = std::filesystem::path(s.model.source).parent_path();
        if (!dir.empty())
            return dir.string();
    }
    return s.model.id;
}

void noteKvOnGpuOnly(const std::string& engineName, const Scenario& s, LaunchCommand& c)
{
    if (s.kvPlacement != KvPlacement::Gpu)
        c.notes.push_back(engineName +
                          " keeps its KV cache in GPU memory; kvscope's KV placement \"" +
                          std::string(kvPlacementId(s.kvPlacement)) + "\" has no flag here.");
}

std::string eagleHeadNote(const Scenario& s)
{
    return std::string("Replace EAGLE_HEAD with the ") + eagleMethodName(s.speculative.eagle) +
           " head trained for " + s.model.name +
           " (a Hugging Face repository or a local path); the acceptance rate is that head's "
           "on your prompts.";
}

std::string shellWord(const std::string& word)
{
    const bool safe = !word.empty() &&
                      word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                             "0123456789-_./:=,+@%") == std::string::npos;
    if (safe)
        return word;
    std::string quoted = "'";
    for (char ch : word)
        quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return quoted + "'";
}

std::string shellCommand(const std::vector<std::string>& parts)
{
    std::string text;
    for (size_t i = 0; i < parts.size(); ++i) {
        if (i > 0)
            text += " \\\n  ";
        text += parts[i];
    }
    return text;
}

} // namespace kvscope
