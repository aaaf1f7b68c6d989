// SPDX-License-Identifier: GPL-3.0-or-later
// The fixed cost of a decode step: layer_overhead_us per layer where the step's kernels are
// replayed as a CUDA graph, layer_overhead_eager_us where they are launched one by one, and an
// engine's own per-step and per-MoE-layer costs (engines.json decode_step), and on Apple
// silicon llama.cpp's Metal encoding per token and its MoE layers' routing, and on a GPU with
// HBM its time per layer beyond the reads.
#include "kvscope/text/explain.h"
#include "suite_registry.h"
#include "testutils.h"

#include <QtTest>

using namespace kvscope;
using kvscope::test::scenarioFrom;

class TestFixedCost : public QObject
{
    Q_OBJECT

private slots:
    void fixedCost_data();
    void fixedCost();
    void moeLayersPayTheirRouting();
    void sglangMoeLayersPayTheirOwnCost();
    void metalEncodesEveryToken();
    void metalMoeLayersPayTheirRouting();
    void hbmGpusPayPerLayer_data();
    void hbmGpusPayPerLayer();
    void allReduceLatencyFollowsTheLink_data();
    void allReduceLatencyFollowsTheLink();
};

void TestFixedCost::fixedCost_data()
{
    QTest::addColumn<QString>("engine");
    QTest::addColumn<bool>("eager");
    QTest::addColumn<double>("fixedMs");
    // Llama 2 7B has 32 layers; graphs 3 µs, eager 19 µs (set below, not the catalog's).
    // 32 x 3 µs = 0.096 ms; 32 x 19 µs = 0.608 ms. transformers eager adds the catalog's
    // Python dispatch, 320 µs a layer, and generate()'s loop, 4,250 µs a token (engines.json
    // decode_step): 32 x (19 + 320) µs + 4.25 ms = 15.098 ms; compiled under torch.compile
    // (hf-static) its forward is CUDA graphs and only the loop stays: 0.096 + 4.25 = 4.346 ms.
    QTest::newRow("llama.cpp, CUDA graphs") << "llamacpp" << false << 0.096;
    QTest::newRow("llama.cpp, GGML_CUDA_DISABLE_GRAPHS") << "llamacpp" << true << 0.608;
    // vLLM (its latest release, full CUDA graphs since v0.11.0) adds its host time per step,
    // 1,100 µs, and launches eagerly from Python, 440 µs a layer: 0.096 + 1.1 = 1.196 ms;
    // 32 x (19 + 440) µs + 1.1 ms = 15.788 ms.
    QTest::newRow("vLLM, CUDA graphs") << "vllm" << false << 1.196;
    QTest::newRow("vLLM --enforce-eager") << "vllm" << true << 15.788;
    QTest::newRow("transformers eager, Python dispatch") << "hf" << false << 15.098;
    QTest::newRow("transformers static cache, compiled") << "hf-static" << false << 4.346;
    QTest::newRow("transformers static cache, eager") << "hf-static" << true << 15.098;
}

void TestFixedCost::fixedCost()
{
    QFETCH(QString, engine);
    QFETCH(bool, eager);
    QFETCH(double, fixedMs);
    Scenario s = scenarioFrom({{"engine", engine.toStdString()},
                               {"model", "llama-2-7b"},
                               {"gpu", "rtx-4090"},
                               {"weights", "fp16"},
                               {"enforce-eager", eager ? "on" : "off"},
                               {"layer-overhead-us", "3"},
                               {"layer-overhead-eager-us", "19"}});
    KVSCOPE_EVALUATE(e, s);
    QCOMPARE(s.model.layers, 32);
    QVERIFY2(qAbs(e.decode.fixedMs - fixedMs) < 1e-9,
             qPrintable(QString::number(e.decode.fixedMs)));
    // The fixed cost adds to the GPU step: the same scenario without it is that much faster.
    s.efficiency.layerOverheadUs = 0;
    s.efficiency.layerOverheadEagerUs = 0;
    s.engine.pythonDispatchUsPerLayer = 0;
    s.engine.stepOverheadUs = 0;
    KVSCOPE_EVALUATE(bare, s);
    QVERIFY(qAbs(e.decode.gpuMs - bare.decode.gpuMs - fixedMs) < 1e-9);
}

void TestFixedCost::moeLayersPayTheirRouting()
{
    // DeepSeek-R1: 61 layers, the first 3 dense (first_k_dense_replace), so 58 MoE layers. vLLM
    // since v0.11.0 charges each 40 µs beside its 1,100 µs per step: 1.1 + 58 x 0.04 = 3.42 ms
    // (graphs, no per-layer cost set); releases before it 200 µs and 2,200 µs: 2.2 + 58 x 0.2 =
    // 13.8 ms.
    Scenario s = scenarioFrom({{"engine", "vllm"},
                               {"model", "deepseek-r1"},
                               {"gpu", "h100-sxm"},
                               {"gpus", "8"},
                               {"weights", "awq-int4"},
                               {"layer-overhead-us", "0"}});
    KVSCOPE_EVALUATE(e, s);
    QCOMPARE(s.model.moeLayers(), int64_t(58));
    QVERIFY2(qAbs(e.decode.fixedMs - 3.42) < 1e-9, qPrintable(QString::number(e.decode.fixedMs)));
    QCOMPARE(e.decode.moeLayerUs, 40.0);
    Scenario older = scenarioFrom({{"engine", "vllm"},
                                   {"engine-version", "0.10.1"},
                                   {"model", "deepseek-r1"},
                                   {"gpu", "h100-sxm"},
                                   {"gpus", "8"},
                                   {"weights", "awq-int4"},
                                   {"layer-overhead-us", "0"}});
    KVSCOPE_EVALUATE(o, older);
    QVERIFY2(qAbs(o.decode.fixedMs - 13.8) < 1e-9, qPrintable(QString::number(o.decode.fixedMs)));
    // A dense model pays no MoE-layer cost.
    Scenario dense = scenarioFrom({{"engine", "vllm"}, {"model", "llama-3.1-8b"}});
    KVSCOPE_EVALUATE(d, dense);
    QCOMPARE(d.decode.moeLayerUs, 0.0);
    QVERIFY(qAbs(d.decode.fixedMs - 1.1) < 1e-9);
}

void TestFixedCost::sglangMoeLayersPayTheirOwnCost()
{
    // SGLang's per-MoE-layer cost is its own (65 µs, fitted on InferenceX's DeepSeek-R1 rows),
    // beside vLLM's per-step 1,100 µs: 1.1 + 58 x 0.065 = 4.87 ms.
    Scenario s = scenarioFrom({{"engine", "sglang"},
                               {"model", "deepseek-r1"},
                               {"gpu", "h200"},
                               {"gpus", "8"},
                               {"weights", "fp8"},
                               {"layer-overhead-us", "0"}});
    KVSCOPE_EVALUATE(e, s);
    QCOMPARE(e.decode.moeLayerUs, 65.0);
    QVERIFY2(qAbs(e.decode.fixedMs - 4.87) < 1e-9, qPrintable(QString::number(e.decode.fixedMs)));
}

void TestFixedCost::metalEncodesEveryToken()
{
    // llama.cpp on Apple silicon encodes each token's graph for Metal: 1,750 µs a token
    // (engines.json llamacpp decode_step), beside its 32 layers at layer_overhead_us (0, CUDA
    // graphs' figure). The same run on a CUDA GPU pays none of it.
    Scenario apple = scenarioFrom({{"engine", "llamacpp"},
                                   {"model", "llama-2-7b"},
                                   {"gpu", "m2-ultra"},
                                   {"weights", "q4_0"},
                                   {"layer-overhead-us", "0"}});
    KVSCOPE_EVALUATE(a, apple);
    QCOMPARE(a.decode.stepOverheadUs, 1750.0);
    QVERIFY2(qAbs(a.decode.fixedMs - 1.75) < 1e-9, qPrintable(QString::number(a.decode.fixedMs)));
    Scenario cuda = scenarioFrom({{"engine", "llamacpp"},
                                  {"model", "llama-2-7b"},
                                  {"gpu", "rtx-4090"},
                                  {"weights", "q4_0"},
                                  {"layer-overhead-us", "0"}});
    KVSCOPE_EVALUATE(c, cuda);
    QCOMPARE(c.decode.stepOverheadUs, 0.0);
    QCOMPARE(c.decode.fixedMs, 0.0);
}

void TestFixedCost::metalMoeLayersPayTheirRouting()
{
    // On Apple silicon each MoE layer's routing runs as a dozen small Metal kernels: 90 µs a MoE
    // layer (engines.json llamacpp decode_step.metal_moe_layer_us), beside the token's 1,750 µs.
    // Qwen3-30B-A3B has 48 layers, all MoE: 1.75 + 48 x 0.09 = 6.07 ms. On a CUDA GPU, where the
    // step is one CUDA graph, llama.cpp's MoE layers cost nothing of their own; a dense model on
    // Metal pays only the token's encoding.
    Scenario apple = scenarioFrom({{"engine", "llamacpp"},
                                   {"model", "qwen3-30b-a3b"},
                                   {"gpu", "m2-ultra"},
                                   {"weights", "q8_0"},
                                   {"layer-overhead-us", "0"}});
    KVSCOPE_EVALUATE(a, apple);
    QCOMPARE(apple.model.moeLayers(), int64_t(48));
    QCOMPARE(a.decode.moeLayerUs, 90.0);
    QVERIFY2(qAbs(a.decode.fixedMs - 6.07) < 1e-9, qPrintable(QString::number(a.decode.fixedMs)));
    // calc's text shows the part: "1.75 ms per step + 48 MoE layers × 90 µs = 6.07 ms".
    const QString text =
        QString::fromStdString(explanationFor(explain(apple, a, ByteUnits::Binary), "fixed_cost"));
    QVERIFY2(text.contains(QString::fromUtf8("48 MoE layers \u00d7 90 \u00b5s = 6.07 ms")),
             qPrintable(text));
    Scenario cuda = scenarioFrom({{"engine", "llamacpp"},
                                  {"model", "qwen3-30b-a3b"},
                                  {"gpu", "rtx-4090"},
                                  {"weights", "q4_k_m"},
                                  {"layer-overhead-us", "0"}});
    KVSCOPE_EVALUATE(c, cuda);
    QCOMPARE(c.decode.moeLayerUs, 0.0);
    Scenario dense = scenarioFrom({{"engine", "llamacpp"},
                                   {"model", "qwen3-8b"},
                                   {"gpu", "m2-ultra"},
                                   {"weights", "q8_0"},
                                   {"layer-overhead-us", "0"}});
    KVSCOPE_EVALUATE(d, dense);
    QCOMPARE(d.decode.moeLayerUs, 0.0);
    QVERIFY2(qAbs(d.decode.fixedMs - 1.75) < 1e-9, qPrintable(QString::number(d.decode.fixedMs)));
}

void TestFixedCost::hbmGpusPayPerLayer_data()
{
    QTest::addColumn<QString>("engine");
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<bool>("eager");
    QTest::addColumn<double>("fixedMs");
    // llama.cpp on a GPU with HBM pays 95 µs a layer beside its launches (engines.json llamacpp
    // decode_step.hbm_layer_us), with CUDA graphs or without: Llama 2 7B's 32 layers x (3 + 95)
    // µs = 3.136 ms; eager 32 x (19 + 95) µs = 3.648 ms. A GDDR card pays only the launches,
    // data-center ones (L4, L40S) too, and vLLM, whose host time is its per-step cost, none of
    // it: 32 x 3 µs + 1.1 ms = 1.196 ms on either GPU.
    QTest::newRow("llama.cpp, A100, graphs") << "llamacpp"
                                             << "a100-80gb" << false << 3.136;
    QTest::newRow("llama.cpp, H100 PCIe, eager") << "llamacpp"
                                                 << "h100-pcie" << true << 3.648;
    QTest::newRow("llama.cpp, MI300X, graphs") << "llamacpp"
                                               << "mi300x" << false << 3.136;
    QTest::newRow("llama.cpp, V100, eager") << "llamacpp"
                                            << "v100-32gb" << true << 3.648;
    QTest::newRow("llama.cpp, L4, graphs") << "llamacpp"
                                           << "l4" << false << 0.096;
    QTest::newRow("llama.cpp, L40S, eager") << "llamacpp"
                                            << "l40s" << true << 0.608;
    QTest::newRow("llama.cpp, RTX A6000, graphs") << "llamacpp"
                                                  << "rtx-a6000" << false << 0.096;
    QTest::newRow("llama.cpp, RTX 4090, eager") << "llamacpp"
                                                << "rtx-4090" << true << 0.608;
    QTest::newRow("vLLM, A100") << "vllm"
                                << "a100-80gb" << false << 1.196;
    QTest::newRow("vLLM, RTX 4090") << "vllm"
                                    << "rtx-4090" << false << 1.196;
}

void TestFixedCost::hbmGpusPayPerLayer()
{
    QFETCH(QString, engine);
    QFETCH(QString, gpu);
    QFETCH(bool, eager);
    QFETCH(double, fixedMs);
    const Scenario s = scenarioFrom({{"engine", engine.toStdString()},
                                     {"model", "llama-2-7b"},
                                     {"gpu", gpu.toStdString()},
                                     {"weights", "fp16"},
                                     {"enforce-eager", eager ? "on" : "off"},
                                     {"layer-overhead-us", "3"},
                                     {"layer-overhead-eager-us", "19"}});
    KVSCOPE_EVALUATE(e, s);
    QVERIFY2(qAbs(e.decode.fixedMs - fixedMs) < 1e-9,
             qPrintable(QString::number(e.decode.fixedMs)));
    // The explanation's arithmetic names the per-layer figure it used.
    QVERIFY2(qAbs(e.decode.layerOverheadUs * 32 / 1e3 + e.decode.stepOverheadUs / 1e3 - fixedMs) <
                 1e-9,
             qPrintable(QString::number(e.decode.layerOverheadUs)));
}

void TestFixedCost::allReduceLatencyFollowsTheLink_data()
{
    QTest::addColumn<QString>("engine");
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<bool>("overNvlink");
    QTest::addColumn<double>("latencyUs");
    // interconnects.json: NVLink with vLLM's custom all-reduce 8.5 + 0.55 (n - 2); NVLink with
    // NCCL 6 + 2.75 (n - 2); PCIe 17 + 5 (n - 2). A bridge joins two cards: four RTX A6000s
    // talk over PCIe.
    QTest::newRow("vLLM, 8 x H100 SXM") << "vllm"
                                        << "h100-sxm" << 8 << true << 11.8;
    QTest::newRow("vLLM, 2 x H100 SXM") << "vllm"
                                        << "h100-sxm" << 2 << true << 8.5;
    QTest::newRow("TGI (NCCL), 8 x H100 SXM") << "tgi"
                                              << "h100-sxm" << 8 << true << 22.5;
    QTest::newRow("vLLM, 2 x RTX A6000 (bridge)") << "vllm"
                                                  << "rtx-a6000" << 2 << true << 8.5;
    QTest::newRow("vLLM, 4 x RTX A6000 (past the bridge)") << "vllm"
                                                           << "rtx-a6000" << 4 << false << 27.0;
    QTest::newRow("vLLM, 8 x RTX 4090 (PCIe)") << "vllm"
                                               << "rtx-4090" << 8 << false << 47.0;
}

void TestFixedCost::allReduceLatencyFollowsTheLink()
{
    QFETCH(QString, engine);
    QFETCH(QString, gpu);
    QFETCH(int, gpus);
    QFETCH(bool, overNvlink);
    QFETCH(double, latencyUs);
    Scenario s = scenarioFrom({{"engine", engine.toStdString()},
                               {"model", "llama-3.1-8b"},
                               {"gpu", gpu.toStdString()},
                               {"gpus", std::to_string(gpus)}});
    KVSCOPE_EVALUATE(e, s);
    QCOMPARE(e.decode.allReduces, int64_t(64));
    QCOMPARE(e.decode.allReduceOverNvlink, overNvlink);
    QVERIFY2(qAbs(e.decode.allReduceLatencyUs - latencyUs) < 1e-9,
             std::to_string(e.decode.allReduceLatencyUs).c_str());
    // The user's own figure replaces the rules.
    s.efficiency.allReduceLatencyUs = 30;
    KVSCOPE_EVALUATE(own, s);
    QCOMPARE(own.decode.allReduceLatencyUs, 30.0);
}

KVSCOPE_TEST_SUITE(TestFixedCost, "tst_fixed_cost", kvscope::test::SuiteApp::Core)
#include "tst_fixed_cost.moc"
