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
    std::optional<double> predicted; // none: kvscope lacks what the figure depends on
    int line = 0;
    // (predicted - logged) / logged in percent; nullopt without a prediction or when the log
    // says 0.
    std::optional<double> differencePercent() const;
};

// What the log did not say and kvscope chose.
enum class LogAssumption {
    ReleaseNotStated,   // vLLM's release is not in the log: its default release's rules apply
    ReleaseNotModelled, // the logged release is outside the releases kvscope models: the same
    LastV0Release,      // the log's lines are vLLM V0's and name no release: the last with V0
    ModelFromLog,       // no catalog model: its shape as llama.cpp printed it
    GpuNotNamed,        // no catalog GPU: only figures that do not depend on it are predicted
    GpuOfLoggedMemory,  // no catalog GPU, but vLLM states the memory it found: a GPU of that
                        // memory stands in, and every figure is predicted
};

struct LogCheck
{
    StartupLog log;
    OptionList options; // what built the scenario, the user's options last
    std::vector<LogAssumption> assumed;
    // Why nothing is predicted (the model is neither named in the catalog nor printed whole);
    // the rows then hold what the log states, each with its line.
    std::optional<FieldError> noPrediction;
    Scenario scenario;             // valid when predicted()
    Evaluation evaluation;         // the same
    std::vector<LogCheckRow> rows; // in LogFigure order
    // The KV cache size in tokens the log states (vLLM's "GPU KV cache size", its blocks x block
    // size, TGI's max batch total tokens): what "calibrate to this log" fits; 0 = none.
    double loggedKvCacheTokens = 0;

    bool predicted() const { return !noPrediction; }
    bool assumes(LogAssumption assumption) const;
    // Whether the scenario's GPU stands in for one the log does not name: no scenario to use or
    // calibrate.
    bool gpuStandsIn() const;
};

// Catalog entries the log names: a model by its Hugging Face id or name (quantized variants'
// suffixes such as "-AWQ" or ".w8a8" ignored), a GPU by the name its driver reports ("NVIDIA
// A100-SXM4-80GB", "AMD Radeon RX 7900 XTX (RADV NAVI31)", "Apple M2 Ultra").
const ModelSpec* modelNamedInLog(const Catalog& catalog, const std::string& name);
const GpuSpec* gpuNamedInLog(const Catalog& catalog, const std::string& name);

// The Hugging Face id ("ORG/NAME") the log names its model by (vLLM's and TGI's model), if its
// name is one; the catalog is not asked.
std::optional<std::string> hubIdNamedInLog(const StartupLog& log);

// Whether the log rules `gpu` out: it states more weights on one GPU than the GPU holds, or a
// total memory more than 10 % away from the GPU's.
bool logRulesOutGpu(const StartupLog& log, const GpuSpec& gpu);

// Whether a figure's prediction depends on the GPU (its memory, its name's batch defaults).
bool logFigureNeedsGpu(LogFigure figure);

// Every figure the log states comes back as a row. The model comes from the user, else the
// catalog entry the log names, else the shape llama.cpp printed; the GPU from the user, else
// the catalog. Errors name only an option the log or the user set that the scenario cannot
// take.
Expected<LogCheck> checkStartupLog(const StartupLog& log, const Catalog& catalog,
                                   const OptionList& userOptions);

} // namespace kvscope
