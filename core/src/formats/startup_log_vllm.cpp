// SPDX-License-Identifier: GPL-3.0-or-later
// vLLM's start-up lines, V0 and V1, from 0.6 to the 2026 builds (formats and the releases that
// print them: tests/data/logs/SOURCES.md). Only rank 0 is read: worker processes of a tensor-
// parallel run print the same figures for their own GPU.
#include "startup_log_lines.h"

#include <array>
#include <string>

namespace kvscope::startup_log {

namespace {

constexpr std::array<std::string_view, 14> kPhrases{"vLLM API server version",
                                                    "LLM engine (v",
                                                    "vllm serve ",
                                                    "GPU KV cache size:",
                                                    "Maximum concurrency for",
                                                    "GPU blocks:",
                                                    "cuda blocks:",
                                                    "model weights take",
                                                    "Loading model weights took",
                                                    "Model loading took",
                                                    "Available KV cache memory:",
                                                    "non_torch_memory",
                                                    "kv_cache_size=",
                                                    "Memory profiling results:"};

// Worker processes other than rank 0 tag their lines; EngineCore, APIServer and Worker_TP0 are
// rank 0's.
bool otherRank(std::string_view line)
{
    if (line.find("(VllmWorkerProcess") != std::string_view::npos ||
        line.find("(RayWorkerWrapper") != std::string_view::npos)
        return true;
    auto tp = after(line, "(Worker_TP");
    return tp && !tp->starts_with("0 ");
}

std::string kvDtypeOption(std::string_view value)
{
    if (value.starts_with("fp8"))
        return "fp8";
    return ""; // "auto": the model's dtype, which --weights already sets
}

// --dtype / dtype=torch.X and --quantization as kvscope weight formats ("" = not one it names).
std::string weightsOption(std::string_view dtype, std::string_view quantization)
{
    if (quantization == "awq" || quantization == "awq_marlin")
        return "awq-int4";
    if (quantization == "gptq" || quantization == "gptq_marlin")
        return "gptq-int4";
    if (quantization == "fp8")
        return "fp8";
    if (quantization == "bitsandbytes")
        return "nf4";
    if (!quantization.empty() && quantization != "None")
        return "";
    if (dtype == "bfloat16" || dtype == "torch.bfloat16")
        return "bf16";
    if (dtype == "float16" || dtype == "half" || dtype == "torch.float16")
        return "fp16";
    return "";
}

std::string integerText(double value)
{
    return std::to_string(int64_t(value));
}

// A numeric setting as the three places vLLM states it spell it: the command's flags, the
// "non-default args" dict and the engine-config line ("" where that place never shows it).
struct NumberField
{
    const char* option;
    bool integer;
    std::string_view arg;                    // "'max_model_len'"
    std::string_view config;                 // " max_seq_len="
    std::array<std::string_view, 4> flags{}; // "--max-model-len", ...
};

constexpr std::array<NumberField, 6> kNumberFields{{
    {"context", true, "'max_model_len'", " max_seq_len=", {"--max-model-len", "--max_model_len"}},
    {"gpus",
     true,
     "'tensor_parallel_size'",
     " tensor_parallel_size=",
     {"--tensor-parallel-size", "--tensor_parallel_size", "--tensor_parallel", "-tp"}},
    {"gpu-mem-util",
     false,
     "'gpu_memory_utilization'",
     "",
     {"--gpu-memory-utilization", "--gpu_memory_utilization"}},
    {"max-num-seqs", true, "'max_num_seqs'", "", {"--max-num-seqs", "--max_num_seqs"}},
    {"max-num-batched-tokens",
     true,
     "'max_num_batched_tokens'",
     "",
     {"--max-num-batched-tokens", "--max_num_batched_tokens"}},
    {"block-size", true, "'block_size'", "", {"--block-size", "--block_size"}},
}};

// GiB after a figure's name: "non_torch_memory takes 0.26GiB" in the one-line profile, or
// "non_torch_memory     1.79GiB" in the table form.
std::optional<double> gibAfter(std::string_view line, std::string_view name)
{
    auto rest = after(line, name);
    if (!rest)
        return std::nullopt;
    std::string_view value = *rest;
    if (value.starts_with(" takes"))
        value.remove_prefix(6);
    auto n = leadingNumber(value);
    return n ? std::optional<double>(*n * kGiB) : std::nullopt;
}

void setNumber(const NumberField& field, double value, LogState& state)
{
    state.setting(field.option, field.integer ? integerText(value) : numberText(value));
}

// --kv-cache-dtype / kv_cache_dtype and --enforce-eager / enforce_eager, after `kvKey` and
// `eagerKey` ("True" or a bare flag turns it on).
void readKvAndEager(std::string_view text, std::string_view kvKey, std::string_view eagerKey,
                    LogState& state)
{
    if (auto kv = after(text, kvKey); kv && !kvDtypeOption(leadingWord(*kv)).empty())
        state.setting("kv-dtype", kvDtypeOption(leadingWord(*kv)));
    if (auto eager = after(text, eagerKey))
        state.setting(
            "enforce-eager",
            eager->empty() || eager->starts_with(" ") || eager->starts_with("True") ? "on" : "off");
}

// Lines only one engine generation prints, for a log that does not say which it ran: V0's swap
// space ("# CPU blocks"), its worker processes and module names; V1's engine core and its
// runner's modules.
constexpr std::array<std::string_view, 6> kV0Marks{"# CPU blocks:",   "(VllmWorkerProcess",
                                                   "a V0 LLM engine", "an LLM engine (v",
                                                   "[worker.py:",     "executor_base.py"};
constexpr std::array<std::string_view, 6> kV1Marks{"a V1 LLM engine",   "EngineCore",
                                                   "GPU KV cache size", "gpu_model_runner.py",
                                                   "kv_cache_utils.py", "gpu_worker.py"};

class VllmReader final : public LineReader
{
public:
    void read(std::string_view line, LogState& state) override
    {
        m_v0Marks += mentionsAny(line, kV0Marks);
        m_v1Marks += mentionsAny(line, kV1Marks);
        if (otherRank(line))
            return;
        if (auto version = after(line, "vLLM API server version ")) {
            state.startRun();
            state.log().release = std::string(leadingWord(*version));
        }
        // The command the log was started with, continued over lines ending in a backslash.
        if (m_commandContinues) {
            m_command.append(" ").append(line.substr(0, 4096));
            m_commandContinues = line.ends_with("\\") && m_command.size() < 64 * 1024;
            if (!m_commandContinues)
                readCommand(m_command, state);
            return;
        }
        if (auto rest = after(line, "vllm serve ")) {
            state.startRun();
            m_command.assign(*rest);
            m_commandContinues = line.ends_with("\\");
            if (!m_commandContinues)
                readCommand(m_command, state);
        }
        if (line.find("LLM engine (v") != std::string_view::npos)
            readEngineConfig(line, state);
        if (auto args = after(line, "non-default args: "))
            readArgs(*args, state);
        if (auto model = after(line, "Starting to load model ")) {
            std::string_view name = leadingWord(*model);
            if (name.ends_with("..."))
                name.remove_suffix(3);
            if (state.log().model.empty())
                state.setModel(name);
        }
        if (auto n = numberAfter(line, "Chunked prefill is enabled with max_num_batched_tokens"))
            state.settingIfUnset("max-num-batched-tokens", integerText(*n));
        if (auto n = numberAfter(line, "Setting attention block size to "))
            state.setting("block-size", integerText(*n));
        if (auto n = numberAfter(line, "Using max model len "))
            state.settingIfUnset("context", integerText(*n));
        readMemory(line, state);
        readKvCache(line, state);
    }

    void finish(LogState& state) override
    {
        if (m_commandContinues)
            readCommand(m_command, state);
        // "# cuda blocks" without a release: V0's lines say which engine ran, not the default.
        if (m_v0Marks > 0 && m_v1Marks == 0)
            state.settingIfUnset("vllm-use-v1", "off");
    }

private:
    int m_v0Marks = 0;
    int m_v1Marks = 0;
    std::string m_command;
    bool m_commandContinues = false;

    static void readCommand(std::string_view command, LogState& state)
    {
        const std::string_view model = leadingWord(command);
        if (!model.empty() && !model.starts_with("-"))
            state.setModel(model);
        for (const NumberField& field : kNumberFields)
            for (std::string_view name : field.flags) {
                auto rest = name.empty() ? std::nullopt : after(command, name);
                if (!rest || !(rest->starts_with(" ") || rest->starts_with("=")))
                    continue;
                if (auto n = leadingNumber(*rest))
                    setNumber(field, *n, state);
                break;
            }
        readKvAndEager(command, "--kv-cache-dtype", "--enforce-eager", state);
        readKvAndEager(command, "--kv_cache_dtype", "--enforce_eager", state);
        const auto enable = after(command, "--enable-lora");
        if (enable && (enable->empty() || enable->starts_with(" ")))
            readLora(numberAfter(command, "--max-loras "), numberAfter(command, "--max-lora-rank "),
                     state);
    }

    // LoRA slots, only where LoRA is enabled: vLLM's defaults are 1 slot of rank 16.
    static void readLora(std::optional<double> slots, std::optional<double> rank, LogState& state)
    {
        state.setting("max-loras", integerText(slots.value_or(1)));
        if (rank)
            state.setting("max-lora-rank", integerText(*rank));
    }

    // "Initializing a V1 LLM engine (v0.8.1) with config: model='...', dtype=torch.bfloat16,
    // max_seq_len=131072, ..., tensor_parallel_size=1, ..., quantization=None, ...": fields are
    // found one by one, since some values hold commas of their own.
    static void readEngineConfig(std::string_view line, LogState& state)
    {
        if (auto version = after(line, "LLM engine (v")) {
            std::string_view release = *version;
            release = release.substr(0, release.find(')'));
            state.log().release = std::string(release.substr(0, 64));
        }
        if (line.find("a V1 LLM engine") != std::string_view::npos)
            state.setting("vllm-use-v1", "on");
        else if (line.find("a V0 LLM engine") != std::string_view::npos)
            state.setting("vllm-use-v1", "off");
        if (auto model = after(line, "config: model="))
            state.setModel(leadingWord(*model));
        for (const NumberField& field : kNumberFields)
            if (auto n = field.config.empty() ? std::nullopt : numberAfter(line, field.config))
                setNumber(field, *n, state);
        const std::string_view dtype =
            after(line, " dtype=") ? leadingWord(*after(line, " dtype=")) : std::string_view();
        const std::string_view quantization = after(line, " quantization=")
                                                  ? leadingWord(*after(line, " quantization="))
                                                  : std::string_view();
        if (std::string weights = weightsOption(dtype, quantization); !weights.empty())
            state.setting("weights", weights);
        readKvAndEager(line, " kv_cache_dtype=", " enforce_eager=", state);
    }

    // "non-default args: {'model': 'Qwen/Qwen2.5-0.5B', 'max_model_len': 32768, ...}"
    static void readArgs(std::string_view args, LogState& state)
    {
        if (auto model = after(args, "'model': "))
            state.setModel(leadingWord(*model));
        for (const NumberField& field : kNumberFields)
            if (auto n = numberAfter(args, field.arg))
                setNumber(field, *n, state);
        readKvAndEager(args, "'kv_cache_dtype': ", "'enforce_eager': ", state);
        if (args.find("'enable_lora': True") != std::string_view::npos)
            readLora(numberAfter(args, "'max_loras': "), numberAfter(args, "'max_lora_rank': "),
                     state);
    }

    // The memory profile: the one-line V0 form, the table form of late 2024 and V1's lines.
    static void readMemory(std::string_view line, LogState& state)
    {
        const bool profile = line.find("total_gpu_memory") != std::string_view::npos;
        if (auto total = gibAfter(line, "total_gpu_memory"))
            state.figure(LogFigure::TotalGpuMemory, *total);
        // "total_gpu_memory (79.25GiB) x gpu_memory_utilization (0.15) = 11.89GiB", or the
        // table's "gpu_memory_utilization       0.90"
        if (auto f = numberAfter(line, "gpu_memory_utilization"); f && *f > 0 && *f <= 1)
            state.setting("gpu-mem-util", numberText(*f));
        if (auto budget = gibAfter(line, "the current vLLM instance can use"))
            state.figure(LogFigure::MemoryBudget, *budget);
        else if (auto product = profile ? gibAfter(line, ") = ") : std::nullopt)
            state.figure(LogFigure::MemoryBudget, *product);
        if (auto w = gibAfter(line, "model weights take"))
            state.figure(LogFigure::Weights, *w);
        for (std::string_view phrase : {"Loading model weights took", "Model loading took"})
            if (auto w = gibAfter(line, phrase))
                state.figure(LogFigure::Weights, *w); // "GB" in old releases is GiB
        if (auto n = gibAfter(line, "non_torch_memory"))
            state.figure(LogFigure::NonTorchMemory, *n);
        if (auto n = gibAfter(line, "PyTorch activation peak memory"))
            state.figure(LogFigure::ActivationPeak, *n);
        // v0.6.4's one-line profile: "..., non_torch_memory=0.35GiB, kv_cache_size=18.07GiB, ..."
        for (std::string_view phrase : {"reserved for KV Cache is", "available_kv_cache_memory",
                                        "Available KV cache memory:", "kv_cache_size="})
            if (auto kv = gibAfter(line, phrase))
                state.figure(LogFigure::KvCacheMemory, *kv);
        if (auto graphs = after(line, "Graph capturing finished"))
            if (auto n = gibAfter(*graphs, "took"))
                state.figure(LogFigure::CudaGraphs, *n);
    }

    static void readKvCache(std::string_view line, LogState& state)
    {
        // "# GPU blocks: 1952": pasted into Markdown, the "# " is often lost to a heading.
        for (std::string_view phrase : {"GPU blocks:", "cuda blocks:"})
            if (auto blocks = numberAfter(line, phrase))
                state.figure(LogFigure::KvBlocks, *blocks);
        if (auto tokens = numberAfter(line, "GPU KV cache size:"))
            state.figure(LogFigure::KvCacheTokens, *tokens);
        if (auto rest = after(line, "Maximum concurrency for ")) {
            auto tokens = leadingNumber(*rest);
            auto times = numberAfter(*rest, "per request:");
            if (tokens && times && !state.hasFigure(LogFigure::MaxConcurrency)) {
                state.figure(LogFigure::MaxConcurrency, *times);
                state.log().concurrencyTokens = int64_t(*tokens);
                state.settingIfUnset("context", integerText(*tokens));
            }
        }
    }
};

} // namespace

bool isVllmLine(std::string_view line)
{
    return mentionsAny(line, kPhrases);
}

std::unique_ptr<LineReader> vllmReader()
{
    return std::make_unique<VllmReader>();
}

} // namespace kvscope::startup_log
