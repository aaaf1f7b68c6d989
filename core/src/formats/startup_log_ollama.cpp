// SPDX-License-Identifier: GPL-3.0-or-later
// ollama's own start-up lines (Go slog, key=value), read as the llama.cpp start-up they describe:
// its memory estimate ("msg=offload", memory.go / server.go), the runner's command line, and the
// allocations its own engine logs ("model weights", "kv cache", "compute graph"; ggml.go and
// ml/device.go). Formats and source lines: tests/data/logs/SOURCES.md.
#include "startup_log_lines.h"

#include <algorithm>
#include <string>
#include <tuple>

namespace kvscope::startup_log {

namespace {

// format.HumanBytes2: "11.5 GiB", "680.0 MiB", "0 B".
std::optional<double> humanBytes(std::string_view text)
{
    auto value = leadingNumber(text);
    if (!value)
        return std::nullopt;
    const std::size_t space = text.find(' ');
    const std::string_view unit = space == std::string_view::npos ? "" : text.substr(space + 1);
    if (unit.starts_with("GiB"))
        return *value * kGiB;
    if (unit.starts_with("MiB"))
        return *value * kMiB;
    if (unit.starts_with("KiB"))
        return *value * 1024.0;
    if (unit.starts_with("B"))
        return *value;
    return std::nullopt;
}

// The quoted value of `key="..."` (or a bare value up to a space).
std::string_view slogValue(std::string_view line, std::string_view key)
{
    auto rest = after(line, key);
    if (!rest)
        return {};
    std::string_view value = *rest;
    if (value.starts_with("\"")) {
        value.remove_prefix(1);
        return value.substr(0, value.find('"'));
    }
    return value.substr(0, value.find(' '));
}

bool isGpuBuffer(std::string_view device)
{
    return !device.empty() && !device.starts_with("CPU") &&
           device.find("_Host") == std::string_view::npos;
}

} // namespace

bool isOllamaLine(std::string_view line)
{
    return line.find("msg=offload") != std::string_view::npos ||
           line.find("msg=\"offload to ") != std::string_view::npos ||
           line.find("msg=\"starting llama server\"") != std::string_view::npos ||
           line.find("msg=\"model weights\"") != std::string_view::npos ||
           line.find("msg=\"kv cache\"") != std::string_view::npos;
}

void readOllamaLine(std::string_view line, LogState& state, ContextCells& cells)
{
    if (line.find("msg=offload") != std::string_view::npos ||
        line.find("msg=\"offload to ") != std::string_view::npos) {
        // ollama counts the output layer among layers.model, as llama.cpp's "offloaded N/M".
        auto offload = leadingNumber(slogValue(line, "layers.offload="));
        auto model = leadingNumber(slogValue(line, "layers.model="));
        if (offload && model && *model >= 1)
            state.figure(LogFigure::OffloadedLayers, std::min(*offload, *model - 1));
        if (auto kv = humanBytes(slogValue(line, "memory.required.kv=")))
            state.figure(LogFigure::KvBuffers, *kv);
    }
    if (auto cmd = after(line, "msg=\"starting llama server\"")) {
        if (auto n = numberAfter(*cmd, "--ctx-size "))
            cells.cells = int64_t(*n);
        if (auto n = numberAfter(*cmd, "--parallel "); n && *n >= 1) {
            cells.sequences = int64_t(*n);
            state.setting("batch", std::to_string(cells.sequences));
        }
        if (auto n = numberAfter(*cmd, "--n-gpu-layers "))
            state.setting("n-gpu-layers", std::to_string(int64_t(*n)));
        if (auto split = after(*cmd, "--tensor-split ")) {
            const std::string_view parts = leadingWord(*split).empty()
                                               ? std::string_view()
                                               : split->substr(0, split->find(' '));
            state.setting("gpus", std::to_string(1 + std::count(parts.begin(), parts.end(), ',')));
        }
    }
    // The allocations of ollama's own engine: one line per buffer.
    for (auto [message, gpuFigure, hostFigure] :
         {std::tuple{"msg=\"model weights\"", LogFigure::GpuModelBuffers,
                     LogFigure::HostModelBuffers},
          std::tuple{"msg=\"kv cache\"", LogFigure::KvBuffers, LogFigure::KvBuffers},
          std::tuple{"msg=\"compute graph\"", LogFigure::GpuComputeBuffers,
                     LogFigure::GpuComputeBuffers}}) {
        auto rest = after(line, message);
        if (!rest)
            continue;
        std::string_view device = slogValue(*rest, "buffer=");
        if (device.empty())
            device = slogValue(*rest, "device=");
        if (device.empty())
            device = slogValue(*rest, "backend=");
        auto bytes = humanBytes(slogValue(*rest, "size="));
        if (!bytes)
            continue;
        const bool gpu = isGpuBuffer(device);
        if (gpu || hostFigure != gpuFigure)
            state.addToFigure(gpu ? gpuFigure : hostFigure, *bytes);
    }
}

} // namespace kvscope::startup_log
