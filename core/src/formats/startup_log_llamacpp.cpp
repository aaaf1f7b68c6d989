// SPDX-License-Identifier: GPL-3.0-or-later
// llama.cpp's start-up lines (llama-server, llama-cli, the benches, and ollama's runner), from the
// 2024 names (llm_load_*, llama_new_context_with_model) through llama_init_from_model and
// llama_kv_cache_unified to the 2026 llama_kv_cache: tests/data/logs/SOURCES.md.
#include "startup_log_lines.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <string>

namespace kvscope::startup_log {

namespace {

constexpr std::array<std::string_view, 11> kPhrases{
    "llama_model_loader:",    "print_info:",
    "llm_load_print_meta:",   "load_tensors:",
    "llama_context:",         "ggml_cuda_init:",
    "llama_kv_cache",         "llama_new_context_with_model:",
    "llama_init_from_model:", "llama_model_load_from_file",
    "llm_load_tensors:"};

constexpr std::array<std::string_view, 3> kContextPrefixes{
    "llama_context:", "llama_new_context_with_model:", "llama_init_from_model:"};

bool inContextBlock(std::string_view line)
{
    return mentionsAny(line, kContextPrefixes);
}

// A buffer's device: the word before "<kind> buffer size". GPU backends name their devices
// CUDA0, ROCm0, Metal, Vulkan0, SYCL0; CUDA_Host is pinned host memory.
std::string_view deviceBefore(std::string_view line, std::size_t at)
{
    std::string_view head = line.substr(0, at);
    while (!head.empty() && head.back() == ' ')
        head.remove_suffix(1);
    const std::size_t start = head.find_last_of(" :\t");
    return start == std::string_view::npos ? head : head.substr(start + 1);
}

bool isGpuDevice(std::string_view device)
{
    if (device.find("_Host") != std::string_view::npos || device.starts_with("CPU"))
        return false;
    for (std::string_view gpu : {"CUDA", "ROCm", "Metal", "Vulkan", "SYCL", "MUSA", "CANN"})
        if (device.starts_with(gpu))
            return true;
    return false;
}

std::string lower(std::string_view text)
{
    std::string out(text.substr(0, 64));
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

// GGML cache types as kvscope KV dtypes ("" = one kvscope has no entry for).
std::string kvDtypeOption(std::string_view type)
{
    std::string t = lower(type);
    if (t == "f16")
        return "fp16";
    if (t == "bf16" || t == "q8_0" || t == "q4_0")
        return t;
    return "";
}

// print_info's "file type = Q4_K - Medium" as a kvscope weight format ("" = none).
std::string weightsOption(std::string_view fileType)
{
    const std::string t = lower(fileType);
    struct Name
    {
        std::string_view logged;
        std::string_view id;
    };
    static constexpr std::array<Name, 14> names{{{"q4_k - medium", "q4_k_m"},
                                                 {"q5_k - medium", "q5_k_m"},
                                                 {"q3_k - medium", "q3_k_m"},
                                                 {"q6_k", "q6_k"},
                                                 {"q8_0", "q8_0"},
                                                 {"q4_0", "q4_0"},
                                                 {"iq4_xs", "iq4_xs"},
                                                 {"q2_k", "q2_k"},
                                                 {"mxfp4 moe", "mxfp4-moe"},
                                                 {"mxfp4", "mxfp4"},
                                                 {"bf16", "bf16"},
                                                 {"mostly f16", "fp16"},
                                                 {"f16", "fp16"},
                                                 {"all f32", "fp32"}}};
    for (const Name& name : names)
        if (t.starts_with(name.logged))
            return std::string(name.id);
    return "";
}

// "b5274": how llama.cpp names its builds.
std::string buildName(double number)
{
    std::string name = std::to_string(int64_t(number));
    name.insert(name.begin(), 'b');
    return name;
}

class LlamaCppReader final : public LineReader
{
public:
    void read(std::string_view line, LogState& state) override
    {
        if (auto build = after(line, "build: ");
            build && line.find(" with ") != std::string_view::npos) {
            newRun(state);
            if (auto n = leadingNumber(*build))
                state.log().release = buildName(*n);
        }
        if (auto version = after(line, "version: "); version && line.starts_with("version: "))
            if (auto n = leadingNumber(*version))
                state.log().release = buildName(*n);
        if (auto devices = after(line, "ggml_cuda_init: found ")) {
            newRun(state);
            if (auto n = leadingNumber(*devices); n && *n >= 1)
                state.setting("gpus", std::to_string(int64_t(*n)));
        }
        if (auto device = after(line, "Device 0: "))
            state.setGpu(device->substr(0, device->find(", compute capability")));
        if (auto device = after(line, "using device "))
            if (auto name = after(*device, "(")) {
                std::string_view n = *name;
                state.setGpu(n.substr(0, n.find(')')));
            }
        if (isOllamaLine(line))
            readOllamaLine(line, state, m_context);
        readModel(line, state);
        readBuffers(line, state);
        readContext(line, state);
        readKvCache(line, state);
    }

    void finish(LogState& state) override
    {
        StartupLog& log = state.log();
        // n_ctx is every sequence's cells together; per sequence when not printed.
        if (!log.setting("context") && m_context.cells > 0)
            state.setting("context", std::to_string(m_context.cells /
                                                    std::max<int64_t>(1, m_context.sequences)));
        if (const LoggedSetting* gpus = log.setting("gpus"); gpus && gpus->value != "1")
            state.settingIfUnset("split-mode", "layer"); // llama.cpp's default --split-mode
        // -nkvo: the layers on the GPU keep their KV in host RAM.
        const bool kvOnHost = m_kvOffload == 0 || (m_hostKvLayers > 0 && m_gpuKvLayers == 0 &&
                                                   log.figures.count(LogFigure::GpuModelBuffers));
        if (kvOnHost)
            state.setting("kv-placement", "cpu");
    }

private:
    ContextCells m_context;
    int m_kvOffload = -1; // llama_kv_cache_init's "offload = N"
    int64_t m_hostKvLayers = 0;
    int64_t m_gpuKvLayers = 0;
    bool m_kvFromBuffers = false; // KV read from per-device buffer lines (not "KV self size")

    void newRun(LogState& state)
    {
        if (state.log().figures.empty())
            return;
        state.startRun();
        *this = LlamaCppReader();
    }

    // "general.name  str  = GLM Z1 32B 0414" (the loader's metadata) and "print_info:
    // general.name = ..." alike: the value after the key's "= ".
    static std::optional<std::string_view> valueOf(std::string_view line, std::string_view key)
    {
        auto rest = after(line, key);
        if (!rest)
            return std::nullopt;
        auto value = after(*rest, "= ");
        if (!value)
            return std::nullopt;
        std::string_view v = *value;
        while (!v.empty() && v.back() == ' ')
            v.remove_suffix(1);
        return v;
    }

    static void readModel(std::string_view line, LogState& state)
    {
        const bool metadata = line.find("print_info:") != std::string_view::npos ||
                              line.find("llm_load_print_meta:") != std::string_view::npos ||
                              line.find("llama_model_loader:") != std::string_view::npos;
        if (!metadata)
            return;
        for (std::string_view key : {"general.architecture ", "arch "})
            if (auto arch = valueOf(line, key); arch && !arch->empty())
                state.log().architecture = std::string(leadingWord(*arch));
        if (auto name = valueOf(line, "general.name "))
            state.setModel(*name);
        for (std::string_view key : {"file type ", "model ftype "})
            if (auto type = valueOf(line, key))
                if (std::string weights = weightsOption(*type); !weights.empty())
                    state.setting("weights", weights);
    }

    static void readBuffers(std::string_view line, LogState& state)
    {
        // "offloaded 62/62 layers to GPU": the last of the M is the output layer.
        if (auto rest = after(line, "offloaded ")) {
            auto on = leadingNumber(*rest);
            auto of = numberAfter(*rest, "/");
            if (on && of && *of >= 1 && line.find("layers to GPU") != std::string_view::npos) {
                const double repeating = std::min(*on, *of - 1);
                state.figure(LogFigure::OffloadedLayers, repeating);
                state.setting("n-gpu-layers", std::to_string(int64_t(repeating)));
            }
        }
        std::size_t at = line.find(" model buffer size");
        if (at == std::string_view::npos &&
            line.find("llm_load_tensors:") != std::string_view::npos)
            at = line.find(" buffer size"); // the 2024 name, without "model"
        if (at != std::string_view::npos)
            if (auto mib = numberAfter(line.substr(at), "size")) {
                const bool gpu = isGpuDevice(deviceBefore(line, at));
                state.addToFigure(gpu ? LogFigure::GpuModelBuffers : LogFigure::HostModelBuffers,
                                  *mib * kMiB);
            }
        if (std::size_t compute = line.find(" compute buffer size");
            compute != std::string_view::npos)
            if (auto mib = numberAfter(line.substr(compute), "size");
                mib && isGpuDevice(deviceBefore(line, compute)))
                state.addToFigure(LogFigure::GpuComputeBuffers, *mib * kMiB);
    }

    void readContext(std::string_view line, LogState& state)
    {
        if (!inContextBlock(line))
            return;
        if (auto n = numberAfter(line, "n_seq_max "); n && *n >= 1) {
            m_context.sequences = int64_t(*n);
            state.setting("batch", std::to_string(m_context.sequences));
        }
        if (auto n = numberAfter(line, "n_ctx "); n && *n >= 1)
            m_context.cells = int64_t(*n);
        for (std::string_view key : {"n_ctx_per_seq ", "n_ctx_seq "})
            if (auto n = numberAfter(line, key); n && *n >= 1)
                state.setting("context", std::to_string(int64_t(*n)));
        if (auto n = numberAfter(line, "n_ubatch "); n && *n >= 1)
            state.setting("ubatch", std::to_string(int64_t(*n)));
    }

    void readKvCache(std::string_view line, LogState& state)
    {
        if (line.find("llama_kv_cache") == std::string_view::npos &&
            line.find("KV self size") == std::string_view::npos)
            return;
        if (auto offload = numberAfter(line, "offload = "))
            m_kvOffload = int(*offload);
        if (auto type = after(line, "type_k = "))
            if (std::string kv = kvDtypeOption(leadingWord(*type)); !kv.empty())
                state.setting("kv-dtype", kv);
        if (auto dev = after(line, ": dev = "))
            ++(isGpuDevice(leadingWord(*dev)) ? m_gpuKvLayers : m_hostKvLayers);
        if (std::size_t at = line.find(" KV buffer size"); at != std::string_view::npos)
            if (auto mib = numberAfter(line.substr(at), "size")) {
                if (!m_kvFromBuffers)
                    state.log().figures.erase(LogFigure::KvBuffers); // buffers beat totals
                m_kvFromBuffers = true;
                state.addToFigure(LogFigure::KvBuffers, *mib * kMiB);
                ++(isGpuDevice(deviceBefore(line, at)) ? m_gpuKvLayers : m_hostKvLayers);
            }
        // Totals: "KV self size = X MiB, K (f16): ..." and the newer "size = X MiB (N cells, ...)".
        std::optional<double> total = numberAfter(line, "KV self size");
        if (!total && line.find(" cells,") != std::string_view::npos)
            total = numberAfter(line, ": size = ");
        if (total && !m_kvFromBuffers)
            state.addToFigure(LogFigure::KvBuffers, *total * kMiB);
        if (auto type = after(line, ", K ("); type && (total || m_kvFromBuffers))
            if (std::string kv = kvDtypeOption(leadingWord(*type)); !kv.empty())
                state.setting("kv-dtype", kv);
    }
};

} // namespace

bool isLlamaCppLine(std::string_view line)
{
    return isOllamaLine(line) || mentionsAny(line, kPhrases);
}

std::unique_ptr<LineReader> llamaCppReader()
{
    return std::make_unique<LlamaCppReader>();
}

} // namespace kvscope::startup_log
