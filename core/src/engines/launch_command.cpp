// SPDX-License-Identifier: GPL-3.0-or-later
// Shared pieces of the engines' launch commands; each engine's flags live in its module.
#include "kvscope/engines/launch_command.h"

#include "kvscope/engines/engine_module.h"
#include "kvscope/scenario/scenario.h"

#include <filesystem>

namespace kvscope {

std::string headSplitRefusal(const Scenario& s)
{
    const HeadSplits near = nearestHeadSplits(s);
    std::string counts;
    if (near.below > 0)
        counts = std::to_string(near.below);
    if (near.above > 0)
        counts += (counts.empty() ? "" : " or ") + std::to_string(near.above);
    std::string text = s.engine.name + " refuses " + std::to_string(s.gpuCount) +
                       " GPUs in tensor parallel: they do not divide the model's " +
                       std::to_string(s.model.queryHeads) + " attention heads.";
    if (!counts.empty())
        text += " Use --gpus " + counts;
    if (engineModule(s.engine).splitsLayers())
        text += (counts.empty() ? " Use" : ", or") + std::string(" --split-mode layer");
    return text + (counts.empty() && !engineModule(s.engine).splitsLayers() ? "" : ".");
}

LaunchCommand launchCommand(const Scenario& scenario)
{
    if (!splitsHeadsEvenly(scenario)) {
        LaunchCommand refused;
        refused.refusal = headSplitRefusal(scenario);
        return refused;
    }
    return engineModule(scenario.engine).launchCommand(scenario);
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
