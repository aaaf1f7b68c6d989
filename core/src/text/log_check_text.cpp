// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/text/log_check_text.h"

#include "base/text_columns.h"
#include "kvscope/text/options_text.h"

#include <cmath>
#include <sstream>

namespace kvscope {

const char* logFigureName(LogFigure figure)
{
    switch (figure) {
    case LogFigure::TotalGpuMemory:
        return "GPU memory (one GPU)";
    case LogFigure::MemoryBudget:
        return "Memory budget (one GPU)";
    case LogFigure::Weights:
        return "Weights (one GPU)";
    case LogFigure::NonTorchMemory:
        return "Non-torch memory (one GPU)";
    case LogFigure::ActivationPeak:
        return "Activation peak (one GPU)";
    case LogFigure::KvCacheMemory:
        return "Memory for the KV cache (one GPU)";
    case LogFigure::KvCacheTokens:
        return "KV cache size (tokens)";
    case LogFigure::KvBlocks:
        return "KV cache blocks (one GPU)";
    case LogFigure::MaxConcurrency:
        return "Maximum concurrency";
    case LogFigure::CudaGraphs:
        return "CUDA graphs (one GPU)";
    case LogFigure::GpuModelBuffers:
        return "Weights on the GPUs";
    case LogFigure::HostModelBuffers:
        return "Weights in host RAM";
    case LogFigure::KvBuffers:
        return "KV cache buffers";
    case LogFigure::GpuComputeBuffers:
        return "Compute buffers on the GPUs";
    case LogFigure::OffloadedLayers:
        return "Layers on the GPUs";
    case LogFigure::DecodeTokensPerS:
        return "Decode (tokens/s, one sequence)";
    }
    return "";
}

bool logFigureIsBytes(LogFigure figure)
{
    switch (figure) {
    case LogFigure::KvCacheTokens:
    case LogFigure::KvBlocks:
    case LogFigure::MaxConcurrency:
    case LogFigure::OffloadedLayers:
    case LogFigure::DecodeTokensPerS:
        return false;
    default:
        return true;
    }
}

std::string logFigureText(LogFigure figure, double value, ByteUnits units, const NumberStyle& style)
{
    if (figure == LogFigure::MaxConcurrency)
        return formatNumber(value, 2, style) + "x";
    if (figure == LogFigure::DecodeTokensPerS)
        return formatNumber(value, 1, style);
    if (!logFigureIsBytes(figure))
        return formatInteger(int64_t(std::llround(value)), style);
    // Engines log two decimals of GiB (vLLM) or of MiB (llama.cpp): the table keeps GiB with
    // two decimals, enough to hold a 10 MiB difference.
    const double unit = units == ByteUnits::Si ? 1e9 : 1024.0 * 1024.0 * 1024.0;
    return formatNumber(value / unit, 2, style) + (units == ByteUnits::Si ? " GB" : " GiB");
}

std::string differenceText(const LogCheckRow& row, const NumberStyle& style)
{
    const std::optional<double> percent = row.differencePercent();
    if (!percent)
        return row.predicted ? "-" : "";
    const double shown = std::round(*percent * 10.0) / 10.0;
    return (shown > 0 ? "+" : "") + formatNumber(shown == 0 ? 0.0 : shown, 1, style) + " %";
}

std::string checkedRelease(const LogCheck& check)
{
    std::string release;
    for (const auto& [name, value] : check.options)
        if (name == "engine-version")
            release = value;
    return release;
}

namespace {

std::string unnamedGpuText(const StartupLog& log)
{
    return log.gpuName.empty() ? "the log names no GPU"
                               : "the catalog has no GPU named \"" + log.gpuName + "\"";
}

} // namespace

std::string assumptionText(LogAssumption assumption, const LogCheck& check)
{
    const StartupLog& log = check.log;
    switch (assumption) {
    case LogAssumption::ReleaseNotStated:
        return "the log does not state vLLM's release; the rules of its default release apply "
               "(--engine-version sets one)";
    case LogAssumption::ReleaseNotModelled:
        return "vLLM " + log.release +
               " is outside the releases kvscope models; the rules of its "
               "default release apply (--engine-version sets one)";
    case LogAssumption::LastV0Release:
        return "the log's lines are vLLM V0's and state no release; the rules of " +
               checkedRelease(check) +
               ", the last release with V0, apply (--engine-version sets one)";
    case LogAssumption::ModelFromLog:
        return "the model is not in the catalog; its shape is the metadata the log prints (line " +
               std::to_string(log.modelMetadataLine) + ")" +
               (check.scenario.weights.id == kFileWeightFormatId
                    ? ", its weights the file size it prints (line " +
                          std::to_string(log.modelFileLine) + ")"
                    : "");
    case LogAssumption::GpuNotNamed:
        return unnamedGpuText(log) +
               "; figures that depend on the GPU are not predicted (--gpu sets one)";
    case LogAssumption::GpuOfLoggedMemory:
        return unnamedGpuText(log) +
               "; a GPU of the memory the log states stands in (--gpu sets one)";
    }
    return "";
}

std::string logEngineText(const StartupLog& log)
{
    const std::string name = log.engine == "vllm"       ? "vLLM"
                             : log.engine == "llamacpp" ? "llama.cpp"
                                                        : "TGI";
    return log.release.empty() ? name : name + " " + log.release;
}

std::string logCheckText(const LogCheck& check, ByteUnits units)
{
    const StartupLog& log = check.log;
    std::ostringstream out;
    out << "Start-up log of " << logEngineText(log);
    if (log.runs > 1)
        out << " (" << log.runs << " start-ups in the file; the last one read)";
    out << "\n";
    if (!log.model.empty())
        out << "  model: " << log.model << " (line " << log.modelLine << ")\n";
    out << "  GPU: "
        << (log.gpuName.empty() ? std::string("not named")
                                : log.gpuName + " (line " + std::to_string(log.gpuLine) + ")")
        << "\n";
    if (!log.backend.empty())
        out << "  backend: " << log.backend << "\n";
    for (const LoggedSetting& s : log.settings)
        out << "  --" << s.option << " " << s.value << " (line " << s.line << ")\n";
    if (check.predicted())
        out << "Scenario: " << optionsText(check.options) << "\n";
    else
        out << "Not predicted: " << check.noPrediction->message() << "\n";
    for (const LogAssumption assumption : check.assumed)
        out << "  Assumed: " << assumptionText(assumption, check) << "\n";
    if (check.rows.empty()) {
        out << "\nThe log states no memory figure to compare.\n";
        return out.str();
    }
    size_t nameWidth = 6;
    for (const LogCheckRow& row : check.rows)
        nameWidth = std::max(nameWidth, codePoints(logFigureName(row.figure)));
    out << "\n"
        << padColumns("Figure", nameWidth + 2) << padColumns("Logged", 14)
        << padColumns("kvscope", 14) << padColumns("Difference", 12) << "Line\n";
    bool blank = false;
    for (const LogCheckRow& row : check.rows) {
        blank = blank || !row.predicted;
        out << padColumns(logFigureName(row.figure), nameWidth + 2)
            << padColumns(logFigureText(row.figure, row.logged, units), 14)
            << padColumns(row.predicted ? logFigureText(row.figure, *row.predicted, units) : "", 14)
            << padColumns(differenceText(row), 12) << row.line << "\n";
    }
    if (blank) {
        const bool gpu = check.predicted();
        const bool named = !(gpu ? check.log.gpuName : check.log.model).empty();
        out << "(A blank kvscope column: the figure depends on " << (gpu ? "the GPU" : "the model")
            << (named ? ", which kvscope does not have.)\n" : ", which the log does not name.)\n");
    }
    if (check.loggedKvCacheTokens > 0)
        out << "\nCalibrate to this log (fits the engine's runtime overhead to its KV cache "
               "size):\n"
            << "  kvscope-cli calibrate --kv-cache-tokens "
            << int64_t(std::llround(check.loggedKvCacheTokens)) << " " << optionsText(check.options)
            << "\n";
    return out.str();
}

} // namespace kvscope
