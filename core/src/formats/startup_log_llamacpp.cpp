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

constexpr std::array<std::string_view, 15> kPhrases{
    "llama_model_loader:",    "print_info:",
    "llm_load_print_meta:",   "load_tensors:",
    "llama_context:",         "ggml_cuda_init:",
    "llama_kv_cache",         "llama_new_context_with_model:",
    "llama_init_from_model:", "llama_model_load_from_file",
    "llm_load_tensors:",      "ggml_vulkan:",
    "ggml_metal_init:",       "ggml_metal_device_init:",
    "ggml_sycl_init:"};

// "eval time = 1234.56 ms / 127 runs (9.72 ms per token, 102.88 tokens per second)": a run's
// decode timing ("prompt eval time" is its prefill's).
bool isDecodeTiming(std::string_view line)
{
    return line.find("eval time =") != std::string_view::npos &&
           line.find("prompt eval time") == std::string_view::npos &&
           line.find("tokens per second") != std::string_view::npos;
}

// The programs whose command line, pasted above a log, states its settings.
constexpr std::array<std::string_view, 5> kPrograms{"llama-server ", "llama-cli ", "llama-bench ",
                                                    "llama-sweep-bench ", "llama-batched-bench "};

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
    return !backendOfDevice(device).empty();
}

// A buffer on a GPU names its backend ("ROCm0 KV buffer size"); a log whose buffers are all on
// the host ran on the CPU.
void noteBackend(std::string_view device, LogState& state)
{
    const std::string_view backend = backendOfDevice(device);
    if (!backend.empty())
        state.log().backend = std::string(backend);
    else if (state.log().backend.empty() && device.starts_with("CPU"))
        state.log().backend = "CPU";
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

// What a pasted command line states; the program's own lines, read later, win.
struct PastedCommand
{
    int line = 0;
    std::optional<double> cells, sequences, gpuLayers, ubatch;
    std::string kvDtype, splitMode, modelPath;
    std::string flashAttention; // "on", "off" or "" (not stated, or auto)
};

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
        if (line.find("ggml_cuda_init: found ") != std::string_view::npos)
            newRun(state);
        readDevice(line, state);
        if (mentionsAny(line, kPrograms))
            readCommand(line, state.line);
        if (isOllamaLine(line))
            readOllamaLine(line, state, m_context);
        readModel(line, state);
        readBuffers(line, state);
        readContext(line, state);
        readKvCache(line, state);
        readDecodeSpeed(line, state);
    }

    void finish(LogState& state) override
    {
        applyCommand(state);
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
    std::optional<PastedCommand> m_command; // the last one pasted, if any
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

    // The value after a flag standing as a word of the command ("-c 8192", "--ctx-size=8192"),
    // the first of `names` found.
    static std::optional<std::string_view> flagValue(std::string_view command,
                                                     std::initializer_list<std::string_view> names)
    {
        for (std::string_view name : names)
            for (std::size_t at = command.find(name); at != std::string_view::npos;
                 at = command.find(name, at + 1)) {
                const std::size_t end = at + name.size();
                if (at > 0 && command[at - 1] == ' ' &&
                    (end == command.size() || command[end] == ' ' || command[end] == '='))
                    return command.substr(end);
            }
        return std::nullopt;
    }

    // A path after a flag, quoted ("C:\AI\AI Drive\x.gguf") or not; a shell variable ("$MODEL")
    // names nothing.
    static std::string_view pathWord(std::string_view text)
    {
        while (text.starts_with(" ") || text.starts_with("="))
            text.remove_prefix(1);
        if (text.starts_with("\"") || text.starts_with("'")) {
            const char quote = text.front();
            text.remove_prefix(1);
            return text.substr(0, text.find(quote));
        }
        text = text.substr(0, text.find(' '));
        return text.starts_with("$") ? std::string_view() : text;
    }

    // "./llama-server -m models/x.gguf -c 32768 -ngl 99 -ctk q8_0 -nkvo -np 4"
    void readCommand(std::string_view command, int line)
    {
        PastedCommand& c = m_command.emplace();
        c.line = line;
        auto number = [&](std::initializer_list<std::string_view> names) {
            auto value = flagValue(command, names);
            auto n = value ? leadingNumber(*value) : std::nullopt;
            return n && *n >= 0 ? n : std::nullopt;
        };
        c.cells = number({"-c", "--ctx-size"});
        c.sequences = number({"-np", "--parallel"});
        c.gpuLayers = number({"-ngl", "--n-gpu-layers", "--gpu-layers"});
        c.ubatch = number({"-ub", "--ubatch-size"});
        if (auto type = flagValue(command, {"-ctk", "--cache-type-k"}))
            c.kvDtype = kvDtypeOption(leadingWord(*type));
        if (auto mode = flagValue(command, {"-sm", "--split-mode"}))
            c.splitMode = std::string(leadingWord(*mode));
        if (auto path = flagValue(command, {"-m", "--model"}))
            c.modelPath = std::string(pathWord(*path));
        if (flagValue(command, {"-nkvo", "--no-kv-offload"}))
            m_kvOffload = 0;
        c.flashAttention = flashAttentionFlag(command);
    }

    // "-fa" alone (before b6325), or "-fa on|off|auto" / "--flash-attn=on" from it.
    static std::string flashAttentionFlag(std::string_view command)
    {
        auto value = flagValue(command, {"-fa", "--flash-attn"});
        if (!value)
            return {};
        const std::string_view word = leadingWord(*value);
        if (word == "off" || word == "0" || word == "false")
            return "off";
        return word == "auto" ? std::string() : std::string("on");
    }

    void applyCommand(LogState& state)
    {
        if (!m_command)
            return;
        const PastedCommand& c = *m_command;
        const int lastLine = state.line;
        state.line = c.line; // what the command states is cited at its line
        if (c.cells && *c.cells >= 1 && m_context.cells == 0) {
            m_context.cells = int64_t(*c.cells);
            if (c.sequences && *c.sequences >= 1)
                m_context.sequences = int64_t(*c.sequences);
        }
        auto integer = [](double n) { return std::to_string(int64_t(n)); };
        if (c.gpuLayers)
            state.settingIfUnset("n-gpu-layers", integer(*c.gpuLayers));
        if (c.ubatch && *c.ubatch >= 1)
            state.settingIfUnset("ubatch", integer(*c.ubatch));
        if (!c.kvDtype.empty())
            state.settingIfUnset("kv-dtype", c.kvDtype);
        if (!c.flashAttention.empty())
            state.settingIfUnset("flash-attn", c.flashAttention);
        if (c.splitMode == "none" || c.splitMode == "layer" || c.splitMode == "row")
            state.settingIfUnset("split-mode", c.splitMode);
        if (state.log().model.empty() && !c.modelPath.empty()) {
            std::string_view name = c.modelPath;
            name.remove_prefix(std::min(name.size(), name.find_last_of("/\\") + 1));
            if (name.ends_with(".gguf"))
                name.remove_suffix(5);
            state.setModel(name);
        }
        state.line = lastLine;
    }

    static void readModel(std::string_view line, LogState& state)
    {
        const bool metadata = line.find("print_info:") != std::string_view::npos ||
                              line.find("llm_load_print_meta:") != std::string_view::npos ||
                              line.find("llama_model_loader:") != std::string_view::npos;
        if (!metadata)
            return;
        readModelMetadata(line, state);
        for (std::string_view key : {"general.architecture ", "arch "})
            if (auto arch = valueOf(line, key); arch && !arch->empty())
                state.log().architecture = std::string(leadingWord(*arch));
        if (auto name = valueOf(line, "general.name "))
            state.setModel(*name);
        for (std::string_view key : {"file type ", "model ftype "})
            if (auto type = valueOf(line, key))
                if (std::string weights = weightsOption(*type); !weights.empty())
                    state.setting("weights", weights);
        if (auto size = valueOf(line, "file size "); size && fileSizeBytes(*size) > 0) {
            state.log().modelFileBytes = fileSizeBytes(*size);
            state.log().modelFileLine = state.line;
        }
    }

    // print_info's "16.38 GiB (4.32 BPW)" or "680.12 MiB (...)" (llm_load_print_meta's "model
    // size" is the same figure); 0 when it is neither.
    static double fileSizeBytes(std::string_view text)
    {
        const auto number = leadingNumber(text);
        if (!number || !(*number > 0) || *number > 1e7)
            return 0;
        const std::size_t unit = text.find_first_of("GM");
        if (unit == std::string_view::npos)
            return 0;
        const std::string_view rest = text.substr(unit);
        return rest.starts_with("GiB")   ? *number * kGiB
               : rest.starts_with("MiB") ? *number * kMiB
                                         : 0;
    }

    static void readBuffers(std::string_view line, LogState& state)
    {
        // "offloaded 62/62 layers to GPU": the last of the M is the output layer, which is on
        // the GPU only when N is M; -ngl N says the same (llama_model::load_tensors).
        if (auto rest = after(line, "offloaded ")) {
            auto on = leadingNumber(*rest);
            auto of = numberAfter(*rest, "/");
            if (on && of && *of >= 1 && line.find("layers to GPU") != std::string_view::npos) {
                state.figure(LogFigure::OffloadedLayers, std::min(*on, *of - 1));
                state.setting("n-gpu-layers", std::to_string(int64_t(std::min(*on, *of))));
            }
        }
        std::size_t at = line.find(" model buffer size");
        if (at == std::string_view::npos &&
            line.find("llm_load_tensors:") != std::string_view::npos)
            at = line.find(" buffer size"); // the 2024 name, without "model"
        if (at != std::string_view::npos)
            if (auto mib = numberAfter(line.substr(at), "size")) {
                const bool gpu = isGpuDevice(deviceBefore(line, at));
                noteBackend(deviceBefore(line, at), state);
                state.addToFigure(gpu ? LogFigure::GpuModelBuffers : LogFigure::HostModelBuffers,
                                  *mib * kMiB);
            }
        if (std::size_t compute = line.find(" compute buffer size");
            compute != std::string_view::npos)
            if (auto mib = numberAfter(line.substr(compute), "size");
                mib && isGpuDevice(deviceBefore(line, compute)))
                state.addToFigure(LogFigure::GpuComputeBuffers, *mib * kMiB);
    }

    // The run's decode speed: "eval time = 1234.56 ms / 127 runs (9.72 ms per token, 102.88
    // tokens per second)" (llama_perf_context_print, llama_print_timings, llama-server's
    // print_timings; "prompt eval time" is the prefill's), or a llama-bench row pasted with the
    // log, "| llama 8B Q4_K - Medium | 4.58 GiB | 8.03 B | CUDA | 99 | tg128 | 130.05 ± 0.21 |".
    static void readDecodeSpeed(std::string_view line, LogState& state)
    {
        if (isDecodeTiming(line))
            if (auto speed = numberAfter(line, "ms per token,"); speed && *speed > 0)
                state.figure(LogFigure::DecodeTokensPerS, *speed);
        if (line.starts_with("|"))
            if (auto test = after(line, "| tg"))
                if (auto speed = numberAfter(*test, "|"); speed && *speed > 0)
                    state.figure(LogFigure::DecodeTokensPerS, *speed);
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
        readFlashAttention(line, state);
    }

    // "flash_attn = 1" or "= 0" before b6325; from it "flash_attn = auto" (or enabled,
    // disabled), and auto resolved on a later line: "Flash Attention was auto, set to enabled".
    static void readFlashAttention(std::string_view line, LogState& state)
    {
        if (auto value = after(line, "flash_attn ")) {
            const std::string_view word = leadingWord(*value);
            if (word == "1" || word == "enabled")
                state.setting("flash-attn", "on");
            else if (word == "0" || word == "disabled")
                state.setting("flash-attn", "off");
        }
        if (auto resolved = after(line, "Flash Attention was auto, set to "))
            state.setting("flash-attn", leadingWord(*resolved) == "enabled" ? "on" : "off");
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
                noteBackend(deviceBefore(line, at), state);
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
    return isOllamaLine(line) || mentionsAny(line, kPhrases) || mentionsAny(line, kPrograms) ||
           isDecodeTiming(line);
}

std::unique_ptr<LineReader> llamaCppReader()
{
    return std::make_unique<LlamaCppReader>();
}

} // namespace kvscope::startup_log
