// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Reading an engine's start-up log: vLLM, llama.cpp (llama-server, llama-cli, the benches, and
// the llama.cpp lines ollama prints), TGI and SGLang. The reader keeps what the log states as
// scenario options (the settings registry's names, so the log goes through the same door as
// --context) and the memory figures it logs, each with the line it came from. Model and GPU stay as
// the log names them; planning/log_check.h matches them to the catalog.
//
// The reader looks for each engine's own phrases anywhere in a line, so prefixes (timestamps,
// "(EngineCore_DP0 pid=1)", "tgi-1  | ", journald, colour codes) need no rules of their own.
// Lines starting with "# " are annotations and skipped, except vLLM's own "# GPU blocks: N"
// printed without a prefix. Only rank 0 of a multi-process vLLM log is read, and when a file
// holds several start-ups, the last one.

#include "kvscope/base/field_error.h"
#include "kvscope/formats/gguf.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kvscope {

// Logs larger than this are refused: a start-up log is a few hundred kilobytes.
inline constexpr std::size_t kMaxStartupLogBytes = std::size_t(16) << 20;

enum class LogFigure {
    TotalGpuMemory,    // vLLM V0: total_gpu_memory (bytes, one GPU)
    MemoryBudget,      // vLLM V0: total x gpu_memory_utilization (bytes, one GPU)
    Weights,           // vLLM: "Loading model weights took" / "model weights take" (one GPU)
    NonTorchMemory,    // vLLM V0 profiling (one GPU)
    ActivationPeak,    // vLLM V0 profiling (one GPU)
    KvCacheMemory,     // vLLM: memory left for KV (one GPU)
    KvCacheTokens,     // vLLM V1 "GPU KV cache size"; V0 blocks x block size; TGI max batch
                       // total tokens
    KvBlocks,          // vLLM "# GPU blocks" / "# cuda blocks" (one GPU)
    MaxConcurrency,    // vLLM "Maximum concurrency for N tokens per request: Mx"
    CudaGraphs,        // vLLM "Graph capturing finished ..., took X GiB" (one GPU)
    GpuModelBuffers,   // llama.cpp: model buffers on the GPUs (bytes, all GPUs together)
    HostModelBuffers,  // llama.cpp: model buffers in host RAM (CPU, CPU_Mapped, ...)
    KvBuffers,         // llama.cpp: KV buffers, every device together
    GpuComputeBuffers, // llama.cpp: compute buffers on the GPUs, all together
    OffloadedLayers,   // llama.cpp: "offloaded N/M layers to GPU", N
    DecodeTokensPerS,  // llama.cpp: the run's "eval time = ... tokens per second", or a
                       // llama-bench tg row pasted with the log (one sequence)
};
const char* logFigureId(LogFigure figure); // "weights_bytes", "kv_cache_tokens", ...

struct LoggedNumber
{
    double value = 0;
    int line = 0; // 1-based line of the log it was read from
};

// A setting the log states, as a scenario option (name without dashes, value as text).
struct LoggedSetting
{
    std::string option; // "context", "gpus", "kv-dtype", ...
    std::string value;
    int line = 0;
};

struct StartupLog
{
    std::string engine;       // catalog engine id: "vllm", "llamacpp", "tgi", "sglang"
    std::string release;      // as logged: "0.8.1", "0.10.2.dev378+g4d7fe40fc", "b5274"
    std::string model;        // Hugging Face id or path (vLLM, TGI), general.name (llama.cpp)
    std::string architecture; // llama.cpp's general.architecture / arch, e.g. "glm4"
    std::string gpuName;      // "NVIDIA GeForce RTX 3090 Ti", when the log names it
    std::string backend;      // llama.cpp's: "CUDA", "ROCm", "Vulkan", "Metal", "SYCL", "CPU"
    int modelLine = 0;
    int gpuLine = 0;
    // The model file's metadata as llama.cpp prints it (its loader's dump of the GGUF keys, and
    // print_info's shape lines under the same keys): the model's shape with no catalog entry.
    // Arrays keep their values only when printed whole.
    std::map<std::string, GgufValue> modelMetadata;
    int modelMetadataLine = 0;
    // print_info's "file size = 16.38 GiB (4.32 BPW)": the model file, whose weights are the
    // GGUF import's file weights (0 = not printed).
    double modelFileBytes = 0;
    int modelFileLine = 0;
    int runs = 1;                        // start-ups in the file; the last one was read
    std::vector<LoggedSetting> settings; // in the order read; a later one replaces an earlier
    std::map<LogFigure, LoggedNumber> figures;
    // The tokens per request vLLM's "Maximum concurrency" line was for (0 = not logged).
    int64_t concurrencyTokens = 0;

    const LoggedSetting* setting(const std::string& option) const;
    const LoggedNumber* figure(LogFigure figure) const;
};

// Reads a log. An error names "log" when the text is larger than kMaxStartupLogBytes, is not
// text, or holds no line of a known engine's start-up.
Expected<StartupLog> readStartupLog(std::string_view text);

// The model whose metadata llama.cpp printed (StartupLog::modelMetadata), as the GGUF import
// reads a file's; its weights the file's size where the log prints it (spread over the shape's
// tensors at the file's average bits per weight), else estimated from its shape. Errors name the
// GGUF key missing or out of range ("gguf.glm4.block_count"), or "log" when the log printed no
// metadata.
Expected<ModelSpec> modelFromStartupLog(const StartupLog& log);

} // namespace kvscope
