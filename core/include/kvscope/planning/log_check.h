// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Holding kvscope against an engine's start-up log: the scenario the log describes (its settings
// through the settings registry, its model and GPU matched to the catalog, the user's options
// last), evaluated once, and each figure the log states beside kvscope's prediction of it.

#include "kvscope/catalog/catalog.h"
#include "kvscope/evaluation/evaluation.h"
#include "kvscope/formats/startup_log.h"
#include "kvscope/planning/remedies.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kvscope {

struct LogCheckRow
{
    LogFigure figure = LogFigure::Weights;
    double logged = 0;
    double predicted = 0;
    int line = 0;
    // (predicted - logged) / logged in percent; nullopt when the log says 0.
    std::optional<double> differencePercent() const;
};

// What the log did not say and kvscope chose.
enum class LogAssumption {
    ReleaseNotStated,   // vLLM's release is not in the log: its default release's rules apply
    ReleaseNotModelled, // the logged release is outside the releases kvscope models: the same
};

struct LogCheck
{
    StartupLog log;
    OptionList options; // what built the scenario, the user's options last
    std::vector<LogAssumption> assumed;
    Scenario scenario;
    Evaluation evaluation;
    std::vector<LogCheckRow> rows; // in LogFigure order
    // The KV cache size in tokens the log states (vLLM's "GPU KV cache size", its blocks x block
    // size, TGI's max batch total tokens): what "calibrate to this log" fits; 0 = none.
    double loggedKvCacheTokens = 0;
};

// Catalog entries the log names: a model by its Hugging Face id or name (quantized variants'
// suffixes such as "-AWQ" or ".w8a8" ignored), a GPU by the name CUDA reports.
const ModelSpec* modelNamedInLog(const Catalog& catalog, const std::string& name);
const GpuSpec* gpuNamedInLog(const Catalog& catalog, const std::string& name);

// Errors name "model" or "gpu" when the log does not name a catalog entry and `userOptions`
// does not give one, or the option the log or the user set that the scenario cannot take.
Expected<LogCheck> checkStartupLog(const StartupLog& log, const Catalog& catalog,
                                   const OptionList& userOptions);

} // namespace kvscope
