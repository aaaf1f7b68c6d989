// SPDX-License-Identifier: GPL-3.0-or-later
// The arithmetic beside every figure recomputes to the figure, for thousands of random scenarios
// across models, GPUs, engines, GPU counts, formats, KV dtypes, placements, contexts and batches.
// "4.00 KiB × (80 layers × 32,768 tokens) = 5.00 GiB" beside a 5.00 GiB per-GPU figure, when the
// product is 10 GiB, is the kind of contradiction this catches.

#include "arithmetic_check.h"
#include "suite_registry.h"
#include "testutils.h"

#include "kvscope/planning/verdict.h"
#include "kvscope/settings/scenario_file.h"
#include "kvscope/settings/scenario_options.h"
#include "kvscope/text/explain.h"

#include <QtTest>

#include <map>
#include <random>

using namespace kvscope;

class TestArithmetic : public QObject
{
    Q_OBJECT

private slots:
    void checkerReadsKvscopesArithmetic()
    {
        using test::ArithmeticCheck;
        const double tol = 0.01;
        QVERIFY(!ArithmeticCheck::mismatch(
            "2 (K, V) × 8 KV heads × 128 head_dim × 2 B = 4.00 KiB; × 80 layers = 320 KiB", tol));
        QVERIFY(ArithmeticCheck::mismatch("4.00 KiB × (80 layers × 32,768 tokens) = 5.00 GiB",
                                          tol)); // the old llama.cpp text
        QVERIFY(!ArithmeticCheck::mismatch(
            "4.00 KiB × (80 layers × 32,768 tokens) ÷ 2 GPU = 5.00 GiB", tol));
        QVERIFY(!ArithmeticCheck::mismatch("79.2 GiB × 1.00 − 37.0 GiB weights − 640 MiB KV − "
                                           "432 MiB activations − 300 MiB overhead = 40.8 GiB free",
                                           tol));
        QVERIFY(!ArithmeticCheck::mismatch(
            "20.0 GiB × 0.90 − 24.0 GiB weights − 1.00 GiB KV = overflows by 7.00 GiB", tol));
        QVERIFY(ArithmeticCheck::mismatch(
            "59.7 GiB for KV ÷ 512 KiB per token ÷ 64 sequences = 122,192 tokens", tol));
        QVERIFY(
            !ArithmeticCheck::mismatch("1.20 s prefill + 18.2 ms first decode step = 1.22 s", tol));
        QVERIFY(
            ArithmeticCheck::mismatch("434 ms prefill + 18.2 ms first decode step = 434 ms", tol));
    }

    void everyFigureRecomputes()
    {
        const Catalog& c = test::catalog();
        std::mt19937 rng(20261202);
        auto pick = [&](size_t n) {
            return size_t(std::uniform_int_distribution<size_t>(0, n - 1)(rng));
        };
        const char* placements[] = {"gpu", "cpu", "nvme", "sata"};
        int checked = 0;
        for (int i = 0; i < 4000; ++i) {
            const std::string context = std::to_string(
                int64_t(std::pow(2.0, std::uniform_real_distribution<>(8, 17.5)(rng))));
            checked += checkScenario({{"model", c.models[pick(c.models.size())].id},
                                      {"gpu", c.gpus[pick(c.gpus.size())].id},
                                      {"engine", c.engines[pick(c.engines.size())].id},
                                      {"gpus", std::to_string(1 << pick(4))},
                                      {"weights", c.weightFormats[pick(c.weightFormats.size())].id},
                                      {"kv-dtype", c.kvDtypes[pick(c.kvDtypes.size())].id},
                                      {"kv-placement", placements[pick(4)]},
                                      {"context", context},
                                      {"batch", std::to_string(1 + pick(64))}});
            if (QTest::currentTestFailed())
                return;
        }
        qInfo("%d explanations recomputed", checked);
        QVERIFY(checked > 10'000);
    }

    // The texts issue 42 found wrong, each by name: llama.cpp -nkvo added a PCIe term its figure
    // lacks; windowed layers (Gemma 3) and -ngl 20 made the longest context more than one
    // division; the report's per-sequence context at batch 8.
    void issue42TextsReproduceTheirFigures_data()
    {
        QTest::addColumn<QString>("options");
        QTest::newRow("nkvo") << QStringLiteral("model=qwen2.5-3b gpu=rtx-a5000 engine=llamacpp "
                                                "kv-placement=cpu kv-dtype=q4_0 context=131072");
        QTest::newRow("windowed") << QStringLiteral(
            "model=gemma-3-1b gpu=rtx-5070 gpus=8 context=4096");
        QTest::newRow("ngl-20") << QStringLiteral(
            "model=llama-3.1-70b gpu=h100-sxm engine=llamacpp n-gpu-layers=20");
        QTest::newRow("per-sequence") << QStringLiteral(
            "model=llama-3.1-70b gpu=h100-sxm gpus=2 engine=vllm context=32768 batch=8");
        // Per-item costs of tens of microseconds that two decimals of a millisecond would
        // round (65 µs once printed as 0.07 ms): per layer, per MoE layer, per hand-over.
        QTest::newRow("per-layer microseconds")
            << QStringLiteral("model=llama-3.1-8b gpu=rtx-4090 engine=llamacpp enforce-eager=on "
                              "layer-overhead-eager-us=12.34");
        QTest::newRow("per-moe-layer microseconds")
            << QStringLiteral("model=deepseek-r1 gpu=h200 gpus=8 engine=sglang weights=fp8");
        // A ROCm MoE share (a user's own) divides the MoE layers' cost and the weights' rate.
        QTest::newRow("rocm moe share")
            << QStringLiteral("model=gpt-oss-120b gpu=mi300x engine=vllm weights=mxfp4 "
                              "rocm-moe-efficiency=0.4");
        QTest::newRow("hand-over microseconds")
            << QStringLiteral("model=gpt-oss-120b gpu=rtx-4090 engine=llamacpp weights=mxfp4 "
                              "n-cpu-moe=24 host-handover-us=165.4");
    }
    void issue42TextsReproduceTheirFigures()
    {
        QFETCH(QString, options);
        std::vector<std::pair<std::string, std::string>> o;
        for (const QString& pair : options.split(QLatin1Char(' ')))
            o.push_back({pair.section(QLatin1Char('='), 0, 0).toStdString(),
                         pair.section(QLatin1Char('='), 1).toStdString()});
        QVERIFY(checkScenario(o) >= 6);
    }

    // Every engine at every KV placement and layer split (-ngl none, 0, some, all; split by
    // layers or tensors), for a dense, a windowed (Gemma 3), a MoE and an MLA model: the
    // combinations random draws rarely reach, where texts went wrong (-nkvo, -ngl 20, windows).
    void everyEnginePlacementAndSplitRecomputes()
    {
        const Catalog& c = test::catalog();
        const char* models[] = {"llama-3.1-70b", "gemma-3-1b", "gpt-oss-120b", "qwen2.5-3b",
                                "deepseek-v2-lite"};
        const char* placements[] = {"gpu", "cpu", "nvme", "sata"};
        const char* gpuLayers[] = {"", "0", "20", "999"};
        const char* splits[] = {"", "layer", "tensor"};
        std::map<std::string, int> perEngine;
        for (const auto& engine : c.engines)
            for (const char* model : models)
                for (const char* placement : placements)
                    for (const char* layers : gpuLayers)
                        for (const char* split : splits)
                            for (const char* gpus : {"1", "2", "8"})
                                for (const char* batch : {"1", "8"}) {
                                    std::vector<std::pair<std::string, std::string>> options{
                                        {"model", model},
                                        {"gpu", "h100-sxm"},
                                        {"engine", engine.id},
                                        {"gpus", gpus},
                                        {"kv-placement", placement},
                                        {"context", "4096"},
                                        {"batch", batch}};
                                    if (*layers)
                                        options.push_back({"n-gpu-layers", layers});
                                    if (*split)
                                        options.push_back({"split-mode", split});
                                    perEngine[engine.id] += checkScenario(options);
                                    if (QTest::currentTestFailed())
                                        return;
                                }
        for (const auto& engine : c.engines)
            QVERIFY2(perEngine[engine.id] > 500, engine.id.c_str());
    }

    // Several nodes under vLLM: tensor parallel inside each node, a pipeline stage per node (or
    // a layer split over every GPU), over every network, dense, MoE and MLA models.
    void severalNodesRecompute()
    {
        const char* models[] = {"llama-3.1-405b", "deepseek-r1", "gpt-oss-120b", "llama-3.1-8b"};
        int checked = 0;
        for (const char* model : models)
            for (const char* nodes : {"2", "4"})
                for (const char* gpus : {"8", "16", "32"})
                    for (const char* split : {"tensor", "layer"})
                        for (const char* link : {"ib-ndr", "roce-400g"})
                            for (const char* batch : {"1", "64"}) {
                                checked += checkScenario({{"model", model},
                                                          {"gpu", "h100-sxm"},
                                                          {"engine", "vllm"},
                                                          {"gpus", gpus},
                                                          {"nodes", nodes},
                                                          {"node-link", link},
                                                          {"split-mode", split},
                                                          {"weights", "fp8"},
                                                          {"context", "8192"},
                                                          {"batch", batch}});
                                if (QTest::currentTestFailed())
                                    return;
                            }
        qInfo("%d explanations recomputed", checked);
        QVERIFY(checked > 500);
    }

    // Issue 46's deployments: LoRA slots in the overhead, MTP layers in the weights, KV and the
    // speculative step, over tensor and pipeline parallel layouts.
    void deploymentFeaturesRecompute()
    {
        int checked = 0;
        for (const char* model : {"deepseek-r1", "deepseek-v3", "glm-4.5-air", "llama-3.1-8b",
                                  "llama-3.1-70b", "qwen2.5-7b"})
            for (const char* gpus : {"1", "4", "8", "16"})
                for (const char* batch : {"1", "64"})
                    for (const char* tokens : {"1", "3"}) {
                        std::vector<std::pair<std::string, std::string>> options{
                            {"model", model},    {"gpu", "h200"},
                            {"engine", "vllm"},  {"gpus", gpus},
                            {"batch", batch},    {"weights", "fp8"},
                            {"context", "8192"}, {"speculative-tokens", tokens}};
                        if (std::string(gpus) == "16")
                            options.push_back({"nodes", "2"});
                        auto withMtp = options;
                        withMtp.push_back({"mtp", "on"});
                        withMtp.push_back({"acceptance-rate", "0.7"});
                        auto withDraft = options;
                        withDraft.push_back({"draft-model", "llama-3.2-1b"});
                        checked += checkScenario(withDraft);
                        auto withLora = options;
                        withLora.push_back({"max-loras", "8"});
                        withLora.push_back({"max-lora-rank", "64"});
                        checked += checkScenario(withMtp) + checkScenario(withLora);
                        if (QTest::currentTestFailed())
                            return;
                    }
        qInfo("%d explanations recomputed", checked);
        QVERIFY(checked > 300);
    }

private:
    // The figure each explanation ends on, in the checker's base units, or nothing for texts
    // whose figure needs more than one number (weights: parameter counts are not bytes).
    static std::optional<double> figureOf(const std::string& id, const Evaluation& e,
                                          const Verdict& verdict)
    {
        if (id == "kv_per_token")
            return e.kv.bytesPerToken;
        if (id == "kv_total")
            return e.kv.totalBytes;
        if (id == "capacity")
            return e.vram.capacityBytes;
        if (id == "fit")
            return e.vram.freeBytes;
        if (id == "decode")
            return e.decode.selectedMs / 1e3;
        if (id == "ttft")
            return verdict.ttftMs / 1e3;
        if (id == "pcie")
            return e.decode.pcieEffectiveGBps * 1e9;
        if (id == "experts_offloaded")
            return e.vram.expertsOffloadedBytes;
        if (id == "host_experts")
            return e.decode.hostExpertsMs / 1e3;
        if (id == "longest_context")
            return double(e.tokensFit.perSequence);
        if (id == "gpu_link")
            return e.decode.interconnectMs / 1e3;
        if (id == "overhead")
            return e.vram.overheadBytes;
        if (id == "speculative")
            return e.speculative.tokensPerS;
        return std::nullopt;
    }

    // Every explanation of one scenario recomputes and ends on its figure; the count checked.
    static int checkScenario(const std::vector<std::pair<std::string, std::string>>& options)
    {
        const Catalog& c = test::catalog();
        auto s = scenarioFromOptions(options, c);
        if (!s)
            return 0; // a combination an engine refuses
        auto e = evaluate(*s);
        if (!e)
            return 0;
        const Verdict verdict = verdictOf(*s, *e);
        int checked = 0;
        for (const Explanation& why :
             explain(*s, *e, ByteUnits::Binary, NumberStyle{}, ExplainWords{})) {
            const std::string& id = why.id;
            const std::string& text = why.arithmetic;
            if (id == "weights")
                continue; // "2.77 B parameters": a count, which the checker would read as bytes
            // Operands print to three significant figures: a product of a few of them carries up
            // to about 1 % of rounding. Tokens are also rounded down to whole KV blocks per
            // sequence.
            const int64_t block = s->engine.kvBlockTokens;
            const double blocks =
                id == "longest_context"
                    ? double(block) / double(std::max(e->tokensFit.perSequence, block))
                    : 0.0;
            const auto wrong = test::ArithmeticCheck::mismatch(text, 0.015 + blocks);
            // Qt 6.4's QVERIFY2 builds its message even when the check passes, so the message
            // must not read *wrong (ASan in the sanitize preset caught that).
            if (wrong) {
                QTest::qFail(qPrintable(QString::fromStdString(
                                 id + ": " + *wrong + "\n  scenario: " + scenarioToText(*s))),
                             __FILE__, __LINE__);
                return checked;
            }
            // The last result is the figure the text stands beside (the window's and the
            // report's per-sequence context; calc's whole-pool count is the first).
            const std::vector<double> results = test::ArithmeticCheck::results(text);
            const std::optional<double> figure = figureOf(id, *e, verdict);
            if (figure && !results.empty()) {
                const double shown = results.back();
                const bool same = std::fabs(shown - *figure) <=
                                  0.006 * std::max(std::fabs(shown), std::fabs(*figure)) + 1e-4;
                const bool pool = id != "longest_context" ||
                                  std::any_of(results.begin(), results.end(), [&](double r) {
                                      return r == double(e->tokensFit.model);
                                  });
                if (!same || !pool) {
                    QTest::qFail(qPrintable(QString::fromStdString(
                                     id + ": " + text + "\n  ends on " + std::to_string(shown) +
                                     ", the figure is " + std::to_string(*figure) +
                                     "\n  scenario: " + scenarioToText(*s))),
                                 __FILE__, __LINE__);
                    return checked;
                }
            }
            ++checked;
        }
        return checked;
    }
};

KVSCOPE_TEST_SUITE(TestArithmetic, "tst_arithmetic", kvscope::test::SuiteApp::Core)
#include "tst_arithmetic.moc"
