// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Scenarios side by side: the headline figures of each, and the inputs that differ, with every
// later scenario's change against the first (the reference). The window's difference table, the
// report's comparison section and `kvscope-cli compare` all read it.

#include "kvscope/base/field_error.h"
#include "kvscope/evaluation/evaluation.h"
#include "kvscope/scenario/named_scenario.h"
#include "kvscope/scenario/scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace kvscope {

enum class FigureKind { Bytes, Milliseconds, TokensPerS, Tokens, Count, Money, YesNo };

struct ComparedFigure
{
    const char* id = "";    // "weights_bytes": the JSON and CSV name
    const char* label = ""; // "Weights (all GPUs)": the English row name
    FigureKind kind = FigureKind::Count;
    // One per scenario; nothing where the figure does not exist (a scenario that does not run
    // has no decode speed, a GPU without a price no cost).
    std::vector<std::optional<double>> values;
};

struct ComparedInput
{
    std::string id;                  // the CLI flag without dashes ("weights"), or "model"
    std::vector<std::string> values; // as the CLI takes them back; "(default)" when left to it
};

struct Comparison
{
    std::vector<std::string> names;
    std::vector<std::string> currencies; // per scenario: the cost figures' currency
    std::vector<ComparedFigure> figures;
    std::vector<ComparedInput> inputs; // only the inputs that differ somewhere
    bool modelsDiffer = false;         // the figures compare different models
};

// The one evaluation, with an error naming the scenario ("B: scenario.context").
Expected<Evaluation> evaluateNamed(const NamedScenario& scenario);

// Evaluates each scenario (the one evaluation every front end calls). Fails, naming the
// scenario, only when one cannot be evaluated at all; one that does not fit is compared.
Expected<Comparison> compareScenarios(const std::vector<NamedScenario>& scenarios);

// A figure's change from `reference` to `value`: the difference, and the ratio (value /
// reference) when the reference is not zero.
struct FigureChange
{
    double absolute = 0;
    std::optional<double> ratio;
};
std::optional<FigureChange> changeOf(const ComparedFigure& figure, size_t index);

// What tells `scenario` from `reference`, for a pinned scenario's default name: the first two
// inputs that differ, as people say them ("4-bit AWQ", "NVIDIA A100 80GB, vLLM"); "" when none.
std::string differenceName(const Scenario& scenario, const Scenario& reference);

// The inputs of one scenario as (id, text) pairs in registry order: model and GPU by name, then
// every setting the scenario states.
std::vector<std::pair<std::string, std::string>> scenarioInputs(const Scenario& scenario);

} // namespace kvscope
