// SPDX-License-Identifier: GPL-3.0-or-later
// Engine start-up logs: real excerpts (tests/data/logs, each cited in its SOURCES.md) read into
// settings and figures, the scenario they describe held against kvscope, and hostile files.

#include "cli_runner.h"
#include "startup_log_support.h"
#include "suite_registry.h"
#include "testutils.h"

#include "kvscope/formats/startup_log.h"
#include "kvscope/io/log_check_json.h"
#include "kvscope/planning/log_check.h"
#include "kvscope/text/log_check_text.h"

#include <QTest>

#include <fstream>
#include <sstream>

using namespace kvscope;
using namespace kvscope::test;

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kMiB = 1024.0 * 1024.0;

std::string logPath(const std::string& name)
{
    return std::string(KVSCOPE_TEST_DATA_DIR) + "/data/logs/" + name;
}

std::string logText(const std::string& name)
{
    std::ifstream file(logPath(name), std::ios::binary);
    if (!file)
        qFatal("missing test log %s", name.c_str());
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

StartupLog readLog(const std::string& name)
{
    auto log = readStartupLog(logText(name));
    if (!log)
        qFatal("%s: %s", name.c_str(), log.error().message().c_str());
    return *log;
}

const LogCheckRow* rowOf(const LogCheck& check, LogFigure figure)
{
    for (const LogCheckRow& row : check.rows)
        if (row.figure == figure)
            return &row;
    return nullptr;
}

} // namespace

class TestStartupLog : public QObject
{
    Q_OBJECT

private slots:
    // vLLM V0 (~0.6.5): the one-line memory profile, "# GPU blocks", concurrency, graphs.
    void vllmV0OneLineProfile()
    {
        const StartupLog log = readLog("vllm-phi4-gptq4bit-a100-david-share.log");
        QCOMPARE(log.engine, std::string("vllm"));
        QCOMPARE(log.model, std::string("kaitchup/Phi-4-AutoRound-GPTQ-4bit"));
        QCOMPARE(settingOf(log, "gpu-mem-util"), std::string("0.15"));
        QCOMPARE(settingOf(log, "context"), std::string("2048"));
        // The first weights figure ("Loading model weights took 8.5107 GB", in GiB) wins over
        // the profile's rounded "8.51GiB".
        QCOMPARE(figureOf(log, LogFigure::Weights), 8.5107 * kGiB);
        QCOMPARE(log.figure(LogFigure::Weights)->line, 13);
        QCOMPARE(figureOf(log, LogFigure::TotalGpuMemory), 79.25 * kGiB);
        QCOMPARE(figureOf(log, LogFigure::MemoryBudget), 11.89 * kGiB);
        QCOMPARE(figureOf(log, LogFigure::NonTorchMemory), 0.26 * kGiB);
        QCOMPARE(figureOf(log, LogFigure::ActivationPeak), 0.94 * kGiB);
        QCOMPARE(figureOf(log, LogFigure::KvCacheMemory), 2.18 * kGiB);
        QCOMPARE(figureOf(log, LogFigure::KvBlocks), 715.0);
        QCOMPARE(figureOf(log, LogFigure::MaxConcurrency), 5.59);
        QCOMPARE(log.concurrencyTokens, int64_t(2048));
        QCOMPARE(figureOf(log, LogFigure::CudaGraphs), 0.27 * kGiB);
        QVERIFY(log.gpuName.empty());

        // Against kvscope: the model by its repository's name, GPTQ from the name, the GPU and
        // the release from the user. 715 blocks of 16 tokens = 11,440 tokens to calibrate to.
        QCOMPARE(modelNamedInLog(catalog(), log.model)->id, std::string("phi-4"));
        auto check = checkStartupLog(
            log, catalog(),
            {{"gpu", "a100-80gb"}, {"engine-version", "0.6.5"}, {"vllm-use-v1", "off"}});
        QVERIFY2(check.ok(), check ? "" : check.error().message().c_str());
        QCOMPARE(check->scenario.weights.id, std::string("gptq-int4"));
        QCOMPARE(check->loggedKvCacheTokens, 11440.0);
        // Budget: 79.25 GiB x 0.15; weights: Phi-4's GPTQ checkpoint.
        QVERIFY(std::fabs(*rowOf(*check, LogFigure::MemoryBudget)->differencePercent()) < 0.2);
        QVERIFY(std::fabs(*rowOf(*check, LogFigure::Weights)->differencePercent()) < 1.0);
        // Every predicted figure is the evaluation's own.
        QCOMPARE(rowOf(*check, LogFigure::KvBlocks)->predicted,
                 double(check->evaluation.engine.kvBlocks));
        QCOMPARE(rowOf(*check, LogFigure::MaxConcurrency)->predicted,
                 check->evaluation.engine.maxConcurrency);
    }

    // The late-2024 table form; the file holds two start-ups (TP 1, then TP 2) and the last
    // one is read. The first alone is Llama 3 8B in BF16 on an 80 GB GPU.
    void vllmProfileTableAndRuns()
    {
        const std::string text = logText("vllm-pr10511-llama3-8b-memory-profiling-table.log");
        auto both = readStartupLog(text);
        QVERIFY(both.ok());
        QCOMPARE(both->runs, 2);
        QCOMPARE(settingOf(*both, "gpus"), std::string("2"));
        QCOMPARE(figureOf(*both, LogFigure::Weights), 7.48 * kGiB);
        QCOMPARE(figureOf(*both, LogFigure::NonTorchMemory), 3.58 * kGiB);

        auto first = readStartupLog(
            text.substr(0, text.find("$ vllm serve meta-llama/Meta-Llama-3-8B -tp 2")));
        QVERIFY(first.ok());
        QCOMPARE(first->runs, 1);
        QCOMPARE(settingOf(*first, "gpus"), std::string("(none)"));
        QCOMPARE(settingOf(*first, "gpu-mem-util"), std::string("0.9"));
        QCOMPARE(figureOf(*first, LogFigure::TotalGpuMemory), 79.22 * kGiB);
        QCOMPARE(figureOf(*first, LogFigure::MemoryBudget), 71.29 * kGiB);
        QCOMPARE(figureOf(*first, LogFigure::ActivationPeak), 1.26 * kGiB);
        QCOMPARE(figureOf(*first, LogFigure::KvCacheMemory), 53.29 * kGiB);
        auto check = checkStartupLog(
            *first, catalog(),
            {{"gpu", "h100-sxm"}, {"engine-version", "0.6.5"}, {"vllm-use-v1", "off"}});
        QVERIFY2(check.ok(), check ? "" : check.error().message().c_str());
        QCOMPARE(check->scenario.model.id, std::string("llama-3-8b"));
        // 8,030,261,248 parameters x 2 bytes = 14.96 GiB, as logged.
        QVERIFY(std::fabs(*rowOf(*check, LogFigure::Weights)->differencePercent()) < 0.1);
        QVERIFY(std::fabs(*rowOf(*check, LogFigure::TotalGpuMemory)->differencePercent()) < 0.1);
    }

    // Early V1: "# GPU blocks" without CPU blocks, a W8A8 upload of Llama 3.1 70B.
    void vllmEarlyV1Blocks()
    {
        const StartupLog log = readLog("vllm-pr12569-llama3.1-70b-w8a8-v1-gpu-blocks.log");
        QCOMPARE(log.model, std::string("neuralmagic/Meta-Llama-3.1-70B-Instruct-quantized.w8a8"));
        QCOMPARE(settingOf(log, "context"), std::string("2048"));
        QCOMPARE(settingOf(log, "gpu-mem-util"), std::string("0.98"));
        QCOMPARE(figureOf(log, LogFigure::Weights), 67.7229 * kGiB);
        QCOMPARE(figureOf(log, LogFigure::KvBlocks), 1381.0);
        QCOMPARE(figureOf(log, LogFigure::MaxConcurrency), 10.79);
        auto check = checkStartupLog(log, catalog(), {{"gpu", "h100-sxm"}});
        QVERIFY2(check.ok(), check ? "" : check.error().message().c_str());
        QCOMPARE(check->scenario.model.id, std::string("llama-3.1-70b"));
        QCOMPARE(check->scenario.weights.id, std::string("int8"));
        QVERIFY(std::fabs(*rowOf(*check, LogFigure::Weights)->differencePercent()) < 0.5);
        QCOMPARE(check->assumed.size(), size_t(1)); // the release the log does not state
    }

    // 2025 V1 with tensor parallel: process tags, comma-grouped tokens, a repeated line, the
    // settings from the command the reporter ran.
    void vllmV1TensorParallel()
    {
        const StartupLog log = readLog("vllm-issue28228-kimi-linear-awq-tp2-2x3090.log");
        QCOMPARE(settingOf(log, "gpus"), std::string("2"));
        QCOMPARE(settingOf(log, "context"), std::string("120000"));
        QCOMPARE(settingOf(log, "gpu-mem-util"), std::string("0.95"));
        QCOMPARE(settingOf(log, "max-num-seqs"), std::string("8"));
        QCOMPARE(settingOf(log, "max-num-batched-tokens"), std::string("64000"));
        QCOMPARE(figureOf(log, LogFigure::KvCacheMemory), 2.30 * kGiB);
        QCOMPARE(figureOf(log, LogFigure::KvCacheTokens), 75840.0);
        QCOMPARE(figureOf(log, LogFigure::MaxConcurrency), 2.48);
        QCOMPARE(log.concurrencyTokens, int64_t(120000));
        // Not in the catalog and no shape printed: every logged figure comes back with its
        // line, none predicted, and the reason names the model and what to pass.
        auto check = checkStartupLog(log, catalog(), {{"gpu", "rtx-3090"}});
        QVERIFY(check.ok());
        QVERIFY(!check->predicted());
        QCOMPARE(check->noPrediction->field, std::string("model"));
        QCOMPARE(check->noPrediction->value, log.model);
        QVERIFY(check->noPrediction->accepted.find(
                    "--hub (or --model hf:cyankiwi/Kimi-Linear-48B-A3B-Instruct-AWQ-4bit) reads "
                    "its config.json from the Hugging Face Hub") != std::string::npos);
        QCOMPARE(check->rows.size(), log.figures.size());
        for (const LogCheckRow& row : check->rows) {
            QVERIFY(!row.predicted);
            QCOMPARE(row.line, log.figure(row.figure)->line);
        }
    }

    // The log names its engine: the scenario's options state it once, and another engine is
    // refused, naming the log's (its lines would be checked against the wrong engine's rules).
    void theEngineIsTheLogs()
    {
        const StartupLog log = readLog("vllm-pr12569-llama3.1-70b-w8a8-v1-gpu-blocks.log");
        auto same = checkStartupLog(log, catalog(), {{"gpu", "h100-sxm"}, {"engine", "vllm"}});
        QVERIFY2(same.ok(), same ? "" : same.error().message().c_str());
        QCOMPARE(std::count_if(same->options.begin(), same->options.end(),
                               [](const auto& o) { return o.first == "engine"; }),
                 std::ptrdiff_t(1));
        auto other = checkStartupLog(log, catalog(), {{"gpu", "h100-sxm"}, {"engine", "sglang"}});
        QVERIFY(!other.ok());
        QCOMPARE(other.error().field, std::string("engine"));
        QCOMPARE(other.error().value, std::string("sglang"));
        QVERIFY(other.error().accepted.find("vllm") != std::string::npos);
    }

    // Only rank 0: a V0 worker process prints its own (different) weights.
    void vllmRankZeroOnly()
    {
        const StartupLog log = readLog("vllm-issue14452-rtx5090-v0-tp.log");
        QCOMPARE(figureOf(log, LogFigure::Weights), 10.80 * kGiB);
        QCOMPARE(figureOf(log, LogFigure::ActivationPeak), 1.01 * kGiB);
        QCOMPARE(figureOf(log, LogFigure::KvBlocks), 7299.0);
        QCOMPARE(figureOf(log, LogFigure::MaxConcurrency), 2.34);
        QCOMPARE(settingOf(log, "context"), std::string("50000"));
        QCOMPARE(figureOf(log, LogFigure::TotalGpuMemory), -1.0); // only the worker printed it
    }

    // The engine-config line: release, generation, dtype, maximum length, tensor parallel.
    void vllmEngineConfigLine()
    {
        const StartupLog log = readLog("vllm-kserve-pr4368-llama3.2-1b-v0.8.1.log");
        QCOMPARE(log.release, std::string("0.8.1"));
        QCOMPARE(log.model, std::string("meta-llama/Llama-3.2-1B-Instruct"));
        QCOMPARE(settingOf(log, "vllm-use-v1"), std::string("on"));
        QCOMPARE(settingOf(log, "context"), std::string("131072"));
        QCOMPARE(settingOf(log, "gpus"), std::string("1"));
        QCOMPARE(settingOf(log, "weights"), std::string("bf16"));
        QCOMPARE(settingOf(log, "max-num-batched-tokens"), std::string("8192"));
        auto check = checkStartupLog(log, catalog(), {{"gpu", "l4"}});
        QVERIFY2(check.ok(), check ? "" : check.error().message().c_str());
        QCOMPARE(check->scenario.model.id, std::string("llama-3.2-1b"));
        QCOMPARE(check->scenario.engineVersion, std::string("0.8.1"));
        QVERIFY(check->assumed.empty());
        QVERIFY(check->rows.empty()); // the excerpt ends before any memory figure

        // A development build's version keeps its three numbers; non-default args are read.
        const StartupLog dev = readLog("vllm-pr24162-qwen2.5-0.5b-tp2-v0.10.2.log");
        QCOMPARE(dev.release, std::string("0.10.2.dev378+g4d7fe40fc.d20250829"));
        QCOMPARE(settingOf(dev, "gpus"), std::string("2"));
        QCOMPARE(settingOf(dev, "context"), std::string("32768"));
        auto devCheck =
            checkStartupLog(dev, catalog(), {{"gpu", "h100-sxm"}, {"model", "qwen2-0.5b"}});
        QVERIFY2(devCheck.ok(), devCheck ? "" : devCheck.error().message().c_str());
        QCOMPARE(devCheck->scenario.engineVersion, std::string("0.10.2"));

        // LoRA slots, as the arguments state them, and vLLM's defaults where only
        // --enable-lora is: one slot of rank 16. Without --enable-lora, max_loras means nothing.
        auto args = [](const std::string& line) {
            return readStartupLog("INFO 05-01 10:00:00 [api_server.py:1043] vLLM API server "
                                  "version 0.9.0\nINFO 05-01 10:00:00 [cli_args.py:309] "
                                  "non-default args: {'model': 'meta-llama/Llama-3.1-8B', " +
                                  line + "}\n");
        };
        auto lora = args("'enable_lora': True, 'max_loras': 4, 'max_lora_rank': 64");
        QVERIFY(lora);
        QCOMPARE(settingOf(*lora, "max-loras"), std::string("4"));
        QCOMPARE(settingOf(*lora, "max-lora-rank"), std::string("64"));
        auto loraDefaults = args("'enable_lora': True");
        QCOMPARE(settingOf(*loraDefaults, "max-loras"), std::string("1"));
        QCOMPARE(settingOf(*args("'max_loras': 4"), "max-loras"), std::string("(none)"));
        auto command = readStartupLog("$ vllm serve meta-llama/Llama-3.1-8B --enable-lora "
                                      "--max-loras 8\n");
        QVERIFY(command);
        QCOMPARE(settingOf(*command, "max-loras"), std::string("8"));
    }

    // llama.cpp b5274, the fullest sample: its KV buffer is 61 layers x 32,768 cells x 2 KV
    // heads x 128 x 2 bytes x (K and V) = 1,952 MiB, which kvscope predicts to the byte.
    void llamaCppFull()
    {
        const StartupLog log = readLog("llamacpp-glm-z1-32b-rtx3090ti-b5274.log");
        QCOMPARE(log.engine, std::string("llamacpp"));
        QCOMPARE(log.release, std::string("b5274"));
        QCOMPARE(log.gpuName, std::string("NVIDIA GeForce RTX 3090 Ti"));
        QCOMPARE(log.architecture, std::string("glm4"));
        QCOMPARE(log.model, std::string("GLM Z1 32B 0414"));
        QCOMPARE(settingOf(log, "weights"), std::string("iq4_xs"));
        // "offloaded 62/62 layers": -ngl 62, the 61 layers and the output layer (-ngl 61 would
        // leave the output on the CPU).
        QCOMPARE(settingOf(log, "n-gpu-layers"), std::string("62"));
        QCOMPARE(settingOf(log, "context"), std::string("32768"));
        QCOMPARE(settingOf(log, "batch"), std::string("1"));
        QCOMPARE(settingOf(log, "ubatch"), std::string("512"));
        QCOMPARE(settingOf(log, "kv-dtype"), std::string("fp16"));
        QCOMPARE(settingOf(log, "kv-placement"), std::string("(none)"));
        QCOMPARE(figureOf(log, LogFigure::GpuModelBuffers), 16303.48 * kMiB);
        QCOMPARE(figureOf(log, LogFigure::HostModelBuffers), 471.75 * kMiB);
        QCOMPARE(figureOf(log, LogFigure::KvBuffers), 1952.0 * kMiB); // not again as "KV self size"
        QCOMPARE(figureOf(log, LogFigure::GpuComputeBuffers), 353.0 * kMiB);
        QCOMPARE(figureOf(log, LogFigure::OffloadedLayers), 61.0);

        // The model by its config (the log's own print_info), the GPU by the name CUDA gives.
        auto check =
            checkStartupLog(log, catalog(), {{"model", logPath("glm-z1-32b-0414.config.json")}});
        QVERIFY2(check.ok(), check ? "" : check.error().message().c_str());
        QCOMPARE(check->scenario.gpu.id, std::string("rtx-3090-ti"));
        QCOMPARE(rowOf(*check, LogFigure::KvBuffers)->predicted, 1952.0 * kMiB);
        QCOMPARE(rowOf(*check, LogFigure::OffloadedLayers)->predicted, 61.0);
        // The GPU is named by the log when the catalog has it.
        QCOMPARE(gpuNamedInLog(catalog(), "NVIDIA GeForce RTX 4090")->id, std::string("rtx-4090"));
    }

    // -nkvo on four GPUs (b5558): every KV layer on the CPU, llama.cpp's layer split.
    void llamaCppNoKvOffload()
    {
        const StartupLog log =
            readLog("llamacpp-issue14043-command-a-111b-nkvo-4x-quadro-b5558.log");
        QCOMPARE(settingOf(log, "gpus"), std::string("4"));
        QCOMPARE(settingOf(log, "split-mode"), std::string("layer"));
        QCOMPARE(settingOf(log, "kv-placement"), std::string("cpu"));
        QCOMPARE(settingOf(log, "context"), std::string("240000"));
        QCOMPARE(log.gpuName, std::string("Quadro RTX 5000"));
        QCOMPARE(figureOf(log, LogFigure::GpuModelBuffers), 1.5 * kMiB);
        QCOMPARE(figureOf(log, LogFigure::HostModelBuffers), 2460.94 * kMiB);
        // A GPU the catalog lacks: what does not depend on it is still predicted.
        auto unknownGpu = checkStartupLog(log, catalog(), {{"model", "command-r-plus"}});
        QVERIFY(unknownGpu.ok());
        QVERIFY(unknownGpu->assumes(LogAssumption::GpuNotNamed));
        QVERIFY(!unknownGpu->rows.empty());
        for (const LogCheckRow& row : unknownGpu->rows)
            QCOMPARE(row.predicted.has_value(), !logFigureNeedsGpu(row.figure));
        QVERIFY(assumptionText(LogAssumption::GpuNotNamed, *unknownGpu).find("Quadro RTX 5000") !=
                std::string::npos);
    }

    // The 2026 names (llama_kv_cache, n_ctx_seq) behind timestamp and colour prefixes; the
    // per-device buffer beats the "size = 0.00 MiB" total printed before it.
    void llamaCppNewestNames()
    {
        const StartupLog log =
            readLog("llamacpp-issue27680-deepseek-v4-flash-llama_kv_cache-newest.log");
        QCOMPARE(log.model, std::string("DeepSeek-V4-Flash-0731"));
        QCOMPARE(settingOf(log, "context"), std::string("64000"));
        QCOMPARE(settingOf(log, "kv-dtype"), std::string("bf16"));
        QCOMPARE(figureOf(log, LogFigure::KvBuffers), 182.75 * kMiB);
    }

    // ollama: its estimate line and runner command, and its own engine's allocations.
    void ollama()
    {
        const StartupLog estimate = readLog("ollama-issue9181-offload-4gpu-64k-ctx.log");
        QCOMPARE(estimate.engine, std::string("llamacpp"));
        QCOMPARE(figureOf(estimate, LogFigure::KvBuffers), 19.5 * kGiB);
        QCOMPARE(figureOf(estimate, LogFigure::OffloadedLayers), 44.0);
        QCOMPARE(settingOf(estimate, "gpus"), std::string("4"));
        QCOMPARE(settingOf(estimate, "context"), std::string("64000"));
        QCOMPARE(settingOf(estimate, "n-gpu-layers"), std::string("44"));

        const StartupLog engine = readLog("ollama-pr11090-new-memory-mgmt-2gpu.log");
        QCOMPARE(figureOf(engine, LogFigure::GpuModelBuffers), (11.5 + 11.9) * kGiB);
        QCOMPARE(figureOf(engine, LogFigure::HostModelBuffers), 680.0 * kMiB);
        QCOMPARE(figureOf(engine, LogFigure::OffloadedLayers), 40.0);
    }

    // TGI: the single-line Args of 1.0, the pretty-printed Args of 3.x with values over several
    // lines, and the router's max batch total tokens.
    void tgi()
    {
        const StartupLog old = readLog("tgi-issue832-llama2-13b-4shard-v1.0.log");
        QCOMPARE(old.engine, std::string("tgi"));
        QCOMPARE(old.model, std::string("meta-llama/Llama-2-13b-chat-hf"));
        QCOMPARE(settingOf(old, "gpus"), std::string("4"));
        QCOMPARE(settingOf(old, "context"), std::string("8192"));
        QCOMPARE(settingOf(old, "max-batch-prefill-tokens"), std::string("4096"));
        auto check = checkStartupLog(old, catalog(), {{"gpu", "a100-80gb"}});
        QVERIFY2(check.ok(), check ? "" : check.error().message().c_str());
        QCOMPARE(check->scenario.model.id, std::string("llama-2-13b"));
        QCOMPARE(check->scenario.gpuCount, 4);

        const StartupLog pretty = readLog("tgi-issue3019-flan-t5-xxl-v3.1.0-args.log");
        QCOMPARE(pretty.model, std::string("google/flan-t5-xxl"));
        QCOMPARE(settingOf(pretty, "gpus"), std::string("1"));
        QCOMPARE(settingOf(pretty, "context"), std::string("512"));
        QCOMPARE(settingOf(pretty, "max-batch-prefill-tokens"), std::string("10000"));

        const StartupLog router = readLog("tgi-issue1245-inferred-max-batch-total-tokens.log");
        QCOMPARE(figureOf(router, LogFigure::KvCacheTokens), 3440688.0);
    }

    // SGLang: the one-line ServerArgs dump (a context_length of None, so the scheduler's
    // context_len), the rank 0 lines of a four-GPU start, and three lines pasted alone.
    void sglang()
    {
        const StartupLog log = readLog("sglang-llmsinclouds-qwq-32b-4xl4-v0.4.3.log");
        QCOMPARE(log.engine, std::string("sglang"));
        QCOMPARE(log.model, std::string("/home/model/Qwen/QwQ-32B"));
        QCOMPARE(settingOf(log, "gpus"), std::string("4"));
        QCOMPARE(settingOf(log, "gpu-mem-util"), std::string("0.85"));
        QCOMPARE(settingOf(log, "chunked-prefill-size"), std::string("2048"));
        QCOMPARE(settingOf(log, "context"), std::string("131072"));
        QCOMPARE(figureOf(log, LogFigure::Weights), 15.54 * kGiB);
        QCOMPARE(figureOf(log, LogFigure::KvCacheTokens), 46611.0);
        QCOMPARE(figureOf(log, LogFigure::KvCacheMemory), (1.42 + 1.42) * kGiB);
        QCOMPARE(figureOf(log, LogFigure::CudaGraphs), 0.93 * kGiB);

        const StartupLog pasted = readLog("sglang-pr4760-llama3.1-8b-fa3.log");
        QCOMPARE(pasted.engine, std::string("sglang"));
        QCOMPARE(figureOf(pasted, LogFigure::KvCacheTokens), 442750.0);
        QCOMPARE(figureOf(pasted, LogFigure::Weights), 15.11 * kGiB);
    }

    // What a pasted file can hold: nothing, binary, too much, lines of no engine, numbers no
    // log prints. Each is refused by name or read without the bad number; none crashes.
    void hostileLogs()
    {
        for (const std::string& text :
             {std::string(), std::string("\n\n\n"), std::string("hello\0world", 11),
              std::string(100000, 'x'), std::string("# GPU KV cache size: 5 tokens\n")}) {
            auto log = readStartupLog(text);
            QVERIFY(!log.ok());
            QCOMPARE(log.error().field, std::string("log"));
        }
        auto huge = readStartupLog(std::string(kMaxStartupLogBytes + 1, '\n'));
        QVERIFY(!huge.ok());
        QVERIFY(huge.error().accepted.find("16 MiB") != std::string::npos);

        auto odd =
            readStartupLog("INFO GPU KV cache size: 1e309 tokens\n"
                           "INFO # GPU blocks: -5\n"
                           "INFO Maximum concurrency for nan tokens per request: 2.0x\n"
                           "INFO Loading model weights took 1e15 GB\n"
                           "INFO the rest of the memory reserved for KV Cache is -7.83GiB.\n" +
                           std::string(200000, 'y') + "\n");
        QVERIFY(odd.ok());
        QVERIFY(!odd->figure(LogFigure::KvCacheTokens));
        QVERIFY(!odd->figure(LogFigure::KvBlocks));
        QVERIFY(!odd->figure(LogFigure::MaxConcurrency));
        QVERIFY(!odd->figure(LogFigure::Weights)); // 1e15 GiB is beyond any number kept
        QCOMPARE(figureOf(*odd, LogFigure::KvCacheMemory), -7.83 * kGiB);

        // Bytes that are not UTF-8 in a name reach JSON replaced (found by fuzz_startup_log).
        auto latin1 = readStartupLog("INFO Starting to load model caf\xe9-\xd1\xff/7B...\n"
                                     "INFO # GPU blocks: 10\n");
        QVERIFY(latin1.ok());
        QVERIFY(latin1->model.starts_with("caf"));
        QVERIFY(!startupLogToJson(*latin1).dump().empty());

        // An Args block that never closes is read up to its cap.
        std::string open = "2024-05-01T00:00:00Z  INFO text_generation_launcher: Args {\n"
                           "    max_total_tokens: Some(\n        4096,\n    ),\n";
        for (int i = 0; i < 20000; ++i)
            open += "    field_" + std::to_string(i) + ": None,\n";
        auto tgi = readStartupLog(open);
        QVERIFY(tgi.ok());
        QCOMPARE(settingOf(*tgi, "context"), std::string("4096"));

        // SGLang: a ServerArgs dump cut inside a quote, absurd sizes and a share out of range.
        auto sglang =
            readStartupLog("[TP0] server_args=ServerArgs(model_path='/m, tp_size=99999999, "
                           "pp_size=2, mem_fraction_static=7, context_length=\n"
                           "[TP0] KV Cache is allocated. #tokens: nan, K size: inf GB\n"
                           "[TP0] max_total_num_tokens=1e400\n");
        QVERIFY(sglang.ok());
        QCOMPARE(sglang->engine, std::string("sglang"));
        QVERIFY(!sglang->setting("gpus"));    // 2e8 GPUs are no setting
        QVERIFY(!sglang->setting("context")); // nothing after the '='
        QVERIFY(!sglang->figure(LogFigure::KvCacheTokens));
        auto refused =
            checkStartupLog(*sglang, catalog(), {{"model", "llama-3.1-8b"}, {"gpu", "h100-sxm"}});
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().field, std::string("--gpu-mem-util"));

        // A log whose settings the scenario cannot take: the option is named.
        auto zero = readStartupLog("INFO Maximum concurrency for 0 tokens per request: 1.00x\n");
        QVERIFY(zero.ok());
        auto check =
            checkStartupLog(*zero, catalog(), {{"model", "llama-3-8b"}, {"gpu", "h100-sxm"}});
        QVERIFY(!check.ok());
        QCOMPARE(check.error().field, std::string("--context"));
    }

    // kvscope-cli check-log: the table, JSON, and exit 2 with the field named.
    void commandLine()
    {
        const CliResult text =
            runCli({"check-log", logPath("vllm-phi4-gptq4bit-a100-david-share.log"), "--gpu",
                    "a100-80gb"});
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.find("Start-up log of vLLM") != std::string::npos);
        QVERIFY(text.out.find("KV cache blocks (one GPU)  715") != std::string::npos ||
                text.out.find("715") != std::string::npos);
        QVERIFY(text.out.find("kvscope-cli calibrate --kv-cache-tokens 11440 --engine vllm") !=
                std::string::npos);

        const CliResult json =
            runCli({"check-log", logPath("vllm-pr12569-llama3.1-70b-w8a8-v1-gpu-blocks.log"),
                    "--gpu", "h100-sxm", "--json"});
        QCOMPARE(json.code, 0);
        const nlohmann::json j = nlohmann::json::parse(json.out);
        QCOMPARE(j["log"]["engine"].get<std::string>(), std::string("vllm"));
        QCOMPARE(j["figures"][0]["id"].get<std::string>(), std::string("weights_bytes"));
        QCOMPARE(j["figures"][1]["id"].get<std::string>(), std::string("kv_blocks"));
        QCOMPARE(j["figures"][1]["logged"].get<double>(), 1381.0);
        QCOMPARE(j["logged_kv_cache_tokens"].get<double>(), 1381.0 * 16);
        QCOMPARE(firstNonFinite(j), std::string());

        const CliResult noGpu =
            runCli({"check-log", logPath("vllm-pr12569-llama3.1-70b-w8a8-v1-gpu-blocks.log")});
        QCOMPARE(noGpu.code, 0);
        QVERIFY(noGpu.out.find("Assumed: the log names no GPU") != std::string::npos);
        QVERIFY(noGpu.out.find("Weights (one GPU)          67.72 GiB     67.67 GiB") !=
                std::string::npos);
        QVERIFY(noGpu.out.find("KV cache blocks (one GPU)  1,381                                   "
                               "10") != std::string::npos);
        const CliResult missing = runCli({"check-log", logPath("no-such.log")});
        QCOMPARE(missing.code, 2);
        QVERIFY(missing.err.find("log: got ") != std::string::npos);
        const CliResult none = runCli({"check-log"});
        QCOMPARE(none.code, 2);
    }
};

KVSCOPE_TEST_SUITE(TestStartupLog, "tst_startup_log", kvscope::test::SuiteApp::Core)
#include "tst_startup_log.moc"
