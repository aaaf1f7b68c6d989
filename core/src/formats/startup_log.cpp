// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a start-up log: split into lines, tell the engine by its own phrases, hand each line to
// that engine's reader (startup_log_vllm.cpp, _llamacpp.cpp, _tgi.cpp).
#include "kvscope/formats/startup_log.h"

#include "file_names.h"
#include "startup_log_lines.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace kvscope {

const char* logFigureId(LogFigure figure)
{
    switch (figure) {
    case LogFigure::TotalGpuMemory:
        return "total_gpu_memory_bytes";
    case LogFigure::MemoryBudget:
        return "memory_budget_bytes";
    case LogFigure::Weights:
        return "weights_bytes";
    case LogFigure::NonTorchMemory:
        return "non_torch_memory_bytes";
    case LogFigure::ActivationPeak:
        return "activation_peak_bytes";
    case LogFigure::KvCacheMemory:
        return "kv_cache_memory_bytes";
    case LogFigure::KvCacheTokens:
        return "kv_cache_tokens";
    case LogFigure::KvBlocks:
        return "kv_blocks";
    case LogFigure::MaxConcurrency:
        return "max_concurrency";
    case LogFigure::CudaGraphs:
        return "cuda_graph_bytes";
    case LogFigure::GpuModelBuffers:
        return "gpu_model_buffer_bytes";
    case LogFigure::HostModelBuffers:
        return "host_model_buffer_bytes";
    case LogFigure::KvBuffers:
        return "kv_buffer_bytes";
    case LogFigure::GpuComputeBuffers:
        return "gpu_compute_buffer_bytes";
    case LogFigure::OffloadedLayers:
        return "offloaded_layers";
    case LogFigure::DecodeTokensPerS:
        return "decode_tokens_per_s";
    }
    return "";
}

const LoggedSetting* StartupLog::setting(const std::string& option) const
{
    for (const LoggedSetting& s : settings)
        if (s.option == option)
            return &s;
    return nullptr;
}

const LoggedNumber* StartupLog::figure(LogFigure which) const
{
    auto found = figures.find(which);
    return found == figures.end() ? nullptr : &found->second;
}

namespace startup_log {

std::optional<std::string_view> after(std::string_view line, std::string_view key)
{
    const std::size_t at = line.find(key);
    if (at == std::string_view::npos)
        return std::nullopt;
    return line.substr(at + key.size());
}

namespace {
constexpr std::string_view kLeadingPunctuation = " \t(=:'\"";

std::string_view skipLeading(std::string_view text)
{
    const std::size_t start = text.find_first_not_of(kLeadingPunctuation);
    return start == std::string_view::npos ? std::string_view() : text.substr(start);
}

// "2713,50 MiB": llama.cpp's two decimals printed under a locale with a decimal comma.
bool decimalComma(std::string_view text, std::size_t at, const std::string& digits)
{
    auto digit = [&](std::size_t i) { return i < text.size() && text[i] >= '0' && text[i] <= '9'; };
    return !digits.empty() && digits.find('.') == std::string::npos && digit(at + 1) &&
           digit(at + 2) && !digit(at + 3);
}

} // namespace

std::optional<double> leadingNumber(std::string_view text)
{
    text = skipLeading(text);
    // Copy the number's characters without thousands separators ("75,840" -> "75840"); a comma
    // before two digits is a decimal one, any other comma ends the number ("8192, 16").
    std::string digits;
    for (std::size_t i = 0; i < text.size() && digits.size() < 64; ++i) {
        const char c = text[i];
        const bool numeric = (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' ||
                             ((c == '-' || c == '+') && (i == 0 || text[i - 1] == 'e'));
        if (numeric) {
            digits += c;
        } else if (c == ',' && decimalComma(text, i, digits)) {
            digits += '.';
        } else if (c == ',' && !digits.empty() && i + 3 < text.size() &&
                   std::all_of(text.begin() + i + 1, text.begin() + i + 4,
                               [](char d) { return d >= '0' && d <= '9'; }) &&
                   (i + 4 == text.size() || text[i + 4] < '0' || text[i + 4] > '9')) {
            continue;
        } else {
            break;
        }
    }
    double value = 0;
    const char* end = digits.data() + digits.size();
    auto [ptr, ec] = std::from_chars(digits.data(), end, value);
    if (digits.empty() || ec != std::errc() || ptr != end || !std::isfinite(value) ||
        std::fabs(value) > 1e15)
        return std::nullopt;
    return value;
}

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

std::optional<double> numberAfter(std::string_view line, std::string_view key)
{
    auto rest = after(line, key);
    return rest ? leadingNumber(*rest) : std::nullopt;
}

std::string_view leadingWord(std::string_view text)
{
    text = skipLeading(text);
    const std::size_t end = text.find_first_of(" \t,'\")(]}");
    return text.substr(0, std::min(end, std::size_t(256)));
}

std::string numberText(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

LogState::LogState(std::string engine)
{
    m_log.engine = std::move(engine);
}

void LogState::startRun()
{
    if (m_log.figures.empty())
        return;
    StartupLog fresh;
    fresh.engine = m_log.engine;
    fresh.runs = m_log.runs + 1;
    m_log = std::move(fresh);
}

void LogState::setting(const std::string& option, std::string value)
{
    std::erase_if(m_log.settings, [&](const LoggedSetting& s) { return s.option == option; });
    m_log.settings.push_back({option, std::move(value), line});
}

void LogState::settingIfUnset(const std::string& option, std::string value)
{
    if (!m_log.setting(option))
        setting(option, std::move(value));
}

namespace {
// Only the memory left for KV can be negative: vLLM logs "-7.83GiB" when the model leaves none.
// Nothing a start-up logs reaches a petabyte (or 10^15 tokens).
bool acceptable(LogFigure which, double value)
{
    return (value >= 0 || which == LogFigure::KvCacheMemory) && std::fabs(value) <= 1e15;
}
} // namespace

void LogState::figure(LogFigure which, double value)
{
    if (!acceptable(which, value))
        return;
    m_log.figures.emplace(which, LoggedNumber{value, line});
}

void LogState::addToFigure(LogFigure which, double value)
{
    if (!acceptable(which, value))
        return;
    auto [entry, inserted] = m_log.figures.emplace(which, LoggedNumber{value, line});
    if (!inserted)
        entry->second.value = std::min(entry->second.value + value, 1e15);
}

void LogState::setModel(std::string_view model)
{
    if (model.empty() || model.size() > 512)
        return;
    m_log.model = std::string(model);
    m_log.modelLine = line;
}

void LogState::setGpu(std::string_view name)
{
    if (!m_log.gpuName.empty() || name.empty() || name.size() > 256)
        return;
    m_log.gpuName = std::string(name);
    m_log.gpuLine = line;
}

} // namespace startup_log

namespace {

using namespace startup_log;

// Lines longer than this are no start-up line of any engine (a pasted binary, a minified blob).
constexpr std::size_t kMaxLineBytes = 64 * 1024;

// vLLM's "# GPU blocks: 1952, # CPU blocks: 2048" ("# cuda blocks", "# xpu blocks" by
// platform), the only engine line that begins like an annotation.
bool blocksLine(std::string_view line)
{
    const std::size_t space = line.find(' ', 2);
    return space != std::string_view::npos && line.substr(space).starts_with(" blocks: ");
}

template <typename Visit> void forEachLine(std::string_view text, Visit visit)
{
    int number = 0;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        ++number;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        // "# source: ..." annotates a pasted log; vLLM's own "# GPU blocks: N" is a log line.
        if (line.size() > kMaxLineBytes || (line.starts_with("# ") && !blocksLine(line)))
            continue;
        visit(line, number);
    }
}

} // namespace

Expected<StartupLog> readStartupLog(std::string_view text)
{
    if (text.size() > kMaxStartupLogBytes)
        return FieldError{"log", std::to_string(text.size()) + " bytes",
                          "a start-up log of at most 16 MiB"};
    if (text.find('\0') != std::string_view::npos)
        return FieldError{"log", "binary data", "a text log of vLLM, llama.cpp, TGI or SGLang"};

    // The engine whose start-up phrases the log holds most.
    std::array<int, 4> votes{};
    forEachLine(text, [&](std::string_view line, int) {
        votes[0] += isVllmLine(line);
        votes[1] += isLlamaCppLine(line);
        votes[2] += isTgiLine(line);
        votes[3] += isSglangLine(line);
    });
    const auto best = std::max_element(votes.begin(), votes.end());
    if (*best == 0)
        return FieldError{"log", "no vLLM, llama.cpp, TGI or SGLang start-up line",
                          "the start-up log of vllm serve, llama-server (or ollama serve), "
                          "text-generation-launcher or sglang.launch_server"};
    static const std::array<const char*, 4> engines{"vllm", "llamacpp", "tgi", "sglang"};
    const std::size_t engine = std::size_t(best - votes.begin());
    LogState state(engines[engine]);
    std::unique_ptr<LineReader> reader = engine == 0   ? vllmReader()
                                         : engine == 1 ? llamaCppReader()
                                         : engine == 2 ? tgiReader()
                                                       : sglangReader();
    forEachLine(text, [&](std::string_view line, int number) {
        state.line = number;
        reader->read(line, state);
    });
    reader->finish(state);
    // Names and values are written into JSON and the window: bytes that are not UTF-8 (a log
    // in another encoding, a damaged file) are replaced, never passed on.
    StartupLog& log = state.log();
    for (std::string* text : {&log.release, &log.model, &log.architecture, &log.gpuName})
        *text = utf8Text(*text);
    for (LoggedSetting& setting : log.settings)
        setting.value = utf8Text(setting.value);
    return std::move(log);
}

} // namespace kvscope
