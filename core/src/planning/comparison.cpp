// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/planning/comparison.h"

#include "kvscope/evaluation/evaluation.h"
#include "kvscope/planning/cost.h"
#include "kvscope/planning/verdict.h"
#include "kvscope/settings/settings_registry.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace kvscope {

namespace {

using Value = std::optional<double>;

// The headline figures, in the order the table lists them: what it needs, whether it runs,
// how long a context it holds, how fast, and what it costs.
struct FigureRow
{
    const char* id;
    const char* label;
    FigureKind kind;
    Value (*read)(const Scenario&, const Evaluation&, const Verdict&, const Cost&);
};

Value ifRuns(const Verdict& v, double value)
{
    return v.runs ? Value(value) : std::nullopt;
}

// A count of what runs: none is no figure ("—"), not a 0 to subtract from.
Value ifAny(double count)
{
    return count > 0 ? Value(count) : std::nullopt;
}

const FigureRow kFigureRows[] = {
    {"runs", "Runs", FigureKind::YesNo,
     [](const Scenario&, const Evaluation&, const Verdict& v, const Cost&) -> Value {
         return v.runs ? 1.0 : 0.0;
     }},
    {"weights_bytes_all_gpus", "Weights (in all, host RAM too)", FigureKind::Bytes,
     [](const Scenario&, const Evaluation& e, const Verdict&, const Cost&) -> Value {
         return e.weightsBytesTotal;
     }},
    {"kv_bytes_per_token_per_gpu", "KV per token (per GPU)", FigureKind::Bytes,
     [](const Scenario&, const Evaluation& e, const Verdict&, const Cost&) -> Value {
         return e.kv.bytesPerToken;
     }},
    {"kv_bytes_per_gpu", "KV cache (per GPU)", FigureKind::Bytes,
     [](const Scenario&, const Evaluation& e, const Verdict&, const Cost&) -> Value {
         return e.kv.totalBytes;
     }},
    {"vram_needed_bytes_per_gpu", "VRAM needed (per GPU)", FigureKind::Bytes,
     [](const Scenario&, const Evaluation&, const Verdict& v, const Cost&) -> Value {
         return v.neededBytes;
     }},
    {"vram_free_bytes_per_gpu", "VRAM free (per GPU; < 0 overflows)", FigureKind::Bytes,
     [](const Scenario&, const Evaluation& e, const Verdict&, const Cost&) -> Value {
         return e.vram.freeBytes;
     }},
    {"longest_context_tokens", "Longest context per sequence", FigureKind::Tokens,
     [](const Scenario&, const Evaluation& e, const Verdict&, const Cost&) -> Value {
         return ifAny(double(e.tokensFit.perSequence));
     }},
    {"max_concurrency", "Sequences at this context", FigureKind::Count,
     [](const Scenario&, const Evaluation& e, const Verdict&, const Cost&) -> Value {
         return ifAny(double(e.tokensFit.maxConcurrency));
     }},
    {"decode_ms", "Decode time per token", FigureKind::Milliseconds,
     [](const Scenario&, const Evaluation& e, const Verdict& v, const Cost&) -> Value {
         return ifRuns(v, e.decode.selectedMs);
     }},
    {"tokens_per_s", "Output tokens/s (all sequences)", FigureKind::TokensPerS,
     [](const Scenario&, const Evaluation& e, const Verdict& v, const Cost&) -> Value {
         return ifRuns(v, e.decode.tokensPerS);
     }},
    {"ttft_ms", "Time to first token (full context)", FigureKind::Milliseconds,
     [](const Scenario&, const Evaluation&, const Verdict& v, const Cost&) -> Value {
         return ifRuns(v, v.ttftMs);
     }},
    // What cannot run has no running cost to compare ("+94x" against hardware that idles).
    {"cost_per_hour", "Cost per hour", FigureKind::Money,
     [](const Scenario&, const Evaluation&, const Verdict& v, const Cost& c) -> Value {
         return c.known && v.runs ? Value(c.perHour) : std::nullopt;
     }},
    {"cost_per_million_prompt_tokens", "Cost per million prompt tokens", FigureKind::Money,
     [](const Scenario&, const Evaluation&, const Verdict& v, const Cost& c) -> Value {
         return c.known && v.runs ? Value(c.perMillionPromptTokens) : std::nullopt;
     }},
    {"cost_per_million_tokens", "Cost per million output tokens", FigureKind::Money,
     [](const Scenario&, const Evaluation&, const Verdict& v, const Cost& c) -> Value {
         return c.known && v.runs ? Value(c.perMillionOutputTokens) : std::nullopt;
     }},
};

} // namespace

namespace {

// A value as a reader compares it: a count with its separators (4,096), a calibrated factor to
// four significant digits (0.3088, not 0.3088167085714286).
std::string displayed(const SettingValue& value)
{
    if (const auto* i = std::get_if<int64_t>(&value))
        return formatInteger(*i);
    if (const auto* d = std::get_if<double>(&value)) {
        std::ostringstream out;
        out << std::setprecision(4) << *d;
        return out.str();
    }
    return settingValueText(value);
}

} // namespace

std::vector<std::pair<std::string, std::string>> scenarioInputs(const Scenario& s)
{
    // Model and GPU by name: an imported model or a custom GPU has no id to compare by.
    std::vector<std::pair<std::string, std::string>> inputs = {{"model", s.model.name},
                                                               {"gpu", s.gpu.name}};
    for (const Setting& setting : settingsRegistry()) {
        const std::string id = setting.flag;
        if (id == "model" || id == "gpu")
            continue;
        const auto value = currentValue(setting, s);
        inputs.emplace_back(id, value ? displayed(*value) : "(default)");
    }
    return inputs;
}

Expected<Evaluation> evaluateNamed(const NamedScenario& named)
{
    auto evaluation = evaluate(named.scenario);
    if (evaluation)
        return evaluation;
    FieldError error = evaluation.error();
    error.field = named.name + ": " + error.field;
    return error;
}

Expected<Comparison> compareScenarios(const std::vector<NamedScenario>& scenarios)
{
    Comparison c;
    for (const FigureRow& row : kFigureRows)
        c.figures.push_back({row.id, row.label, row.kind, {}});
    std::vector<std::vector<std::pair<std::string, std::string>>> inputs;
    for (const NamedScenario& named : scenarios) {
        auto evaluation = evaluateNamed(named);
        if (!evaluation)
            return evaluation.error();
        const Verdict verdict = verdictOf(named.scenario, *evaluation);
        const Cost cost = costOf(named.scenario, *evaluation, verdict.runs);
        for (size_t i = 0; i < std::size(kFigureRows); ++i)
            c.figures[i].values.push_back(
                kFigureRows[i].read(named.scenario, *evaluation, verdict, cost));
        c.names.push_back(named.name);
        c.currencies.push_back(named.scenario.cost.currency);
        inputs.push_back(scenarioInputs(named.scenario));
        c.modelsDiffer =
            c.modelsDiffer || named.scenario.model.name != scenarios.front().scenario.model.name;
    }
    // Every scenario lists the same inputs in the same order (the registry's).
    for (size_t row = 0; !inputs.empty() && row < inputs.front().size(); ++row) {
        ComparedInput input{inputs.front()[row].first, {}};
        for (const auto& list : inputs)
            input.values.push_back(list[row].second);
        if (std::adjacent_find(input.values.begin(), input.values.end(), std::not_equal_to<>()) !=
            input.values.end())
            c.inputs.push_back(std::move(input));
    }
    return c;
}

std::optional<FigureChange> changeOf(const ComparedFigure& figure, size_t index)
{
    if (index >= figure.values.size() || !figure.values[index] || !figure.values.front())
        return std::nullopt;
    const double reference = *figure.values.front();
    const double value = *figure.values[index];
    FigureChange change{value - reference, std::nullopt};
    if (reference != 0 && figure.kind != FigureKind::YesNo)
        change.ratio = value / reference;
    return change;
}

std::string differenceName(const Scenario& scenario, const Scenario& reference)
{
    const auto mine = scenarioInputs(scenario);
    const auto theirs = scenarioInputs(reference);
    // Catalog entries by their display names, the rest as flag and value.
    auto spoken = [&](const std::string& id, const std::string& value) -> std::string {
        if (id == "model" || id == "gpu")
            return value;
        if (id == "weights")
            return scenario.weights.name;
        if (id == "engine")
            return scenario.engine.name;
        if (id == "kv-dtype")
            return "KV " + scenario.kvDtype.name;
        if (id == "gpus")
            return value + " GPUs";
        return id + " " + value;
    };
    std::string name;
    int parts = 0;
    for (size_t i = 0; i < mine.size() && i < theirs.size() && parts < 2; ++i) {
        if (mine[i].second == theirs[i].second)
            continue;
        name += (parts++ ? ", " : "") + spoken(mine[i].first, mine[i].second);
    }
    return name;
}

} // namespace kvscope
