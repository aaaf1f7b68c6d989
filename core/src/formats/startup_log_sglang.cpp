// SPDX-License-Identifier: GPL-3.0-or-later
// SGLang's start-up lines: the launch's "server_args=ServerArgs(...)" (every setting on one line),
// "Load weight end. ... mem usage=X GB", "KV Cache is allocated. #tokens: N, K size: X GB, V
// size: Y GB" (MLA: "KV size: X GB"), the scheduler's "max_total_num_tokens=N, ...,
// context_len=N" and "Capture cuda graph end. ... mem usage=X GB". SGLang's "GB" are GiB
// (mem_cache/memory_pool.py: GB = 1024 * 1024 * 1024). Formats and sources:
// tests/data/logs/SOURCES.md.
#include "startup_log_lines.h"

#include <array>
#include <string>

namespace kvscope::startup_log {

namespace {

constexpr std::array<std::string_view, 5> kPhrases{
    "server_args=ServerArgs(",
    "KV Cache is allocated. #tokens:", "max_total_num_tokens=", "Load weight end.",
    "Capture cuda graph end."};

std::string integerText(double value)
{
    return std::to_string(int64_t(value));
}

// A field of the ServerArgs dump: "tp_size=4", "model_path='Qwen/QwQ-32B'", "quantization=None".
std::string_view argText(std::string_view args, std::string_view field)
{
    for (std::size_t at = args.find(field); at != std::string_view::npos;
         at = args.find(field, at + 1)) {
        const bool startsField = at == 0 || args[at - 1] == ' ' || args[at - 1] == '(';
        if (!startsField || args.substr(at + field.size(), 1) != "=")
            continue;
        std::string_view value = args.substr(at + field.size() + 1);
        const bool quoted = value.starts_with('\'') || value.starts_with('"');
        const char end = quoted ? value.front() : ',';
        if (quoted)
            value.remove_prefix(1);
        std::size_t stop = value.find(end);
        if (!quoted)
            stop = std::min(stop, value.find(')'));
        return value.substr(0, std::min(stop, value.size()));
    }
    return {};
}

std::optional<double> argNumber(std::string_view args, std::string_view field)
{
    const std::string_view text = argText(args, field);
    return text.empty() ? std::nullopt : leadingNumber(text);
}

// --quantization where it names a kvscope format, else the float dtype.
void readWeights(std::string_view args, LogState& state)
{
    const std::string_view quantization = argText(args, "quantization");
    const std::string_view dtype = argText(args, "dtype");
    if (quantization == "fp8" || quantization == "w8a8_fp8")
        state.setting("weights", "fp8");
    else if (quantization == "awq" || quantization == "awq_marlin")
        state.setting("weights", "awq-int4");
    else if (quantization == "gptq" || quantization == "gptq_marlin")
        state.setting("weights", "gptq-int4");
    else if (quantization == "w8a8_int8")
        state.setting("weights", "int8");
    else if (quantization == "None" && (dtype == "bfloat16" || dtype == "float16"))
        state.setting("weights", dtype == "bfloat16" ? "bf16" : "fp16");
}

void readServerArgs(std::string_view args, LogState& state)
{
    state.startRun();
    if (const std::string_view model = argText(args, "model_path"); !model.empty())
        state.setModel(model);
    const double tp = argNumber(args, "tp_size").value_or(1);
    const double pp = argNumber(args, "pp_size").value_or(1);
    if (tp >= 1 && pp >= 1 && tp * pp <= 1e6)
        state.setting("gpus", integerText(tp * pp));
    if (auto nodes = argNumber(args, "nnodes"); nodes && *nodes > 1)
        state.setting("nodes", integerText(*nodes));
    if (auto share = argNumber(args, "mem_fraction_static"))
        state.setting("gpu-mem-util", numberText(*share));
    if (auto context = argNumber(args, "context_length"))
        state.setting("context", integerText(*context));
    if (auto chunk = argNumber(args, "chunked_prefill_size"); chunk && *chunk > 0)
        state.setting("chunked-prefill-size", integerText(*chunk));
    if (argText(args, "kv_cache_dtype").starts_with("fp8"))
        state.setting("kv-dtype", "fp8");
    if (argText(args, "disable_radix_cache") == "True")
        state.setting("prefix-caching", "off");
    if (argText(args, "disable_cuda_graph") == "True")
        state.setting("enforce-eager", "on");
    readWeights(args, state);
}

class SglangReader final : public LineReader
{
public:
    void read(std::string_view line, LogState& state) override
    {
        if (auto args = after(line, "server_args=ServerArgs("))
            readServerArgs(*args, state);
        if (line.find("Load weight end.") != std::string_view::npos)
            if (auto gib = numberAfter(line, "mem usage="))
                state.figure(LogFigure::Weights, *gib * kGiB);
        if (auto tokens = numberAfter(line, "KV Cache is allocated. #tokens: ")) {
            state.figure(LogFigure::KvCacheTokens, *tokens);
            const double k = numberAfter(line, "K size: ").value_or(0);
            const double v = numberAfter(line, "V size: ").value_or(0);
            const double kv = numberAfter(line, " KV size: ").value_or(0);
            if (k + v + kv > 0)
                state.figure(LogFigure::KvCacheMemory, (k + v + kv) * kGiB);
        }
        if (auto tokens = numberAfter(line, "max_total_num_tokens="))
            state.figure(LogFigure::KvCacheTokens, *tokens);
        if (line.find("max_total_num_tokens=") != std::string_view::npos)
            if (auto context = numberAfter(line, "context_len="))
                state.settingIfUnset("context", integerText(*context));
        if (line.find("Capture cuda graph end.") != std::string_view::npos)
            if (auto gib = numberAfter(line, "mem usage="))
                state.figure(LogFigure::CudaGraphs, *gib * kGiB);
    }
};

} // namespace

bool isSglangLine(std::string_view line)
{
    return mentionsAny(line, kPhrases);
}

std::unique_ptr<LineReader> sglangReader()
{
    return std::make_unique<SglangReader>();
}

} // namespace kvscope::startup_log
