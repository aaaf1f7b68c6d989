// SPDX-License-Identifier: GPL-3.0-or-later
// The devices llama.cpp reports at start-up, for each backend it is built with: CUDA and ROCm
// ("ggml_cuda_init: found 1 ROCm devices:", "Device 0: AMD Radeon RX 7900 XTX, gfx1100 ..."),
// Vulkan ("ggml_vulkan: 0 = AMD Radeon RX 7900 XTX (RADV NAVI31) (radv) | uma: 0 | ..."), Metal
// ("ggml_metal_init: found device: Apple M2 Ultra", "GPU name:   Apple M4 Max"), SYCL (its
// device table, "|  0| [level_zero:gpu:0]|  Intel Arc A770 Graphics|  1.3| ..."), and the
// device a model is loaded on ("using device CUDA0 (NVIDIA GeForce RTX 3090 Ti) - 23041 MiB
// free"). Formats: tests/data/logs/SOURCES.md.
#include "startup_log_lines.h"

#include <array>
#include <string>

namespace kvscope::startup_log {

namespace {

std::string_view upTo(std::string_view text, std::string_view end)
{
    return trimmed(text.substr(0, text.find(end)));
}

void setGpus(LogState& state, std::string_view count, const char* backend)
{
    if (auto n = leadingNumber(count); n && *n >= 1 && *n <= 4096) {
        state.setting("gpus", std::to_string(int64_t(*n)));
        state.log().backend = backend;
    }
}

// The device counts: "ggml_cuda_init: found 2 CUDA devices:" (ROCm builds say "ROCm
// devices"), "ggml_vulkan: Found 1 Vulkan devices:", "Found 1 SYCL devices:".
void readDeviceCount(std::string_view line, LogState& state)
{
    if (auto cuda = after(line, "ggml_cuda_init: found "))
        setGpus(state, *cuda, cuda->find("ROCm") != std::string_view::npos ? "ROCm" : "CUDA");
    if (auto vulkan = after(line, "ggml_vulkan: Found "))
        setGpus(state, *vulkan, "Vulkan");
    if (auto sycl = after(line, "Found "); sycl && line.find("SYCL devices") != line.npos)
        setGpus(state, *sycl, "SYCL");
    if (line.find("ggml_metal_init: ") != std::string_view::npos ||
        line.find("ggml_metal_device_init: ") != std::string_view::npos)
        state.log().backend = "Metal";
}

} // namespace

void readDevice(std::string_view line, LogState& state)
{
    readDeviceCount(line, state);
    if (auto device = after(line, "Device 0: "))
        state.setGpu(upTo(*device, ","));
    if (auto vulkan = after(line, "ggml_vulkan: 0 = "))
        state.setGpu(upTo(*vulkan, " |"));
    for (std::string_view metal : {"found device: ", "picking default device: ", "GPU name: "})
        if (auto name = after(line, metal); name && line.find("ggml_metal") != line.npos)
            state.setGpu(trimmed(*name));
    for (std::string_view sycl : {"[level_zero:gpu:0]|", "[opencl:gpu:0]|"})
        if (auto cell = after(line, sycl))
            state.setGpu(upTo(*cell, "|"));
    // "using device Vulkan0 (AMD Radeon RX 7900 XTX (RADV NAVI31)) - 24560 MiB free": the name
    // may hold brackets of its own.
    if (auto device = after(line, "using device "))
        if (auto name = after(*device, "(")) {
            const std::size_t end = name->rfind(") - ");
            state.setGpu(name->substr(0, end == std::string_view::npos ? name->rfind(')') : end));
        }
}

std::string_view backendOfDevice(std::string_view device)
{
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 8> backends{{
        {"CUDA", "CUDA"},
        {"ROCm", "ROCm"},
        {"Vulkan", "Vulkan"},
        {"Metal", "Metal"},
        {"MTL", "Metal"},
        {"SYCL", "SYCL"},
        {"MUSA", "MUSA"},
        {"CANN", "CANN"},
    }};
    if (device.find("_Host") != std::string_view::npos)
        return {};
    for (const auto& [prefix, backend] : backends)
        if (device.starts_with(prefix))
            return backend;
    return {};
}

} // namespace kvscope::startup_log
