// SPDX-License-Identifier: GPL-3.0-or-later
// The fixed cost per layer per decode step: layer_overhead_us where the step's kernels are
// replayed as a CUDA graph, layer_overhead_eager_us where they are launched one by one.
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
};

void TestFixedCost::fixedCost_data()
{
    QTest::addColumn<QString>("engine");
    QTest::addColumn<bool>("eager");
    QTest::addColumn<double>("fixedMs");
    // Llama 2 7B has 32 layers; graphs 3 µs, eager 19 µs (set below, not the catalog's).
    // 32 x 3 µs = 0.096 ms; 32 x 19 µs = 0.608 ms. transformers eager adds the catalog's
    // Python dispatch, 440 µs a layer (engines.json decode_step): 32 x (19 + 440) µs = 14.688 ms;
    // compiled under torch.compile (hf-static) its step is CUDA graphs.
    QTest::newRow("llama.cpp, CUDA graphs") << "llamacpp" << false << 0.096;
    QTest::newRow("llama.cpp, GGML_CUDA_DISABLE_GRAPHS") << "llamacpp" << true << 0.608;
    QTest::newRow("vLLM, CUDA graphs") << "vllm" << false << 0.096;
    QTest::newRow("vLLM --enforce-eager") << "vllm" << true << 0.608;
    QTest::newRow("transformers eager, Python dispatch") << "hf" << false << 14.688;
    QTest::newRow("transformers static cache, compiled") << "hf-static" << false << 0.096;
    QTest::newRow("transformers static cache, eager") << "hf-static" << true << 14.688;
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
    QVERIFY(qAbs(e.decode.fixedMs - fixedMs) < 1e-12);
    // The fixed cost adds to the GPU step: the same scenario without it is that much faster.
    s.efficiency.layerOverheadUs = 0;
    s.efficiency.layerOverheadEagerUs = 0;
    s.engine.pythonDispatchUsPerLayer = 0;
    KVSCOPE_EVALUATE(bare, s);
    QVERIFY(qAbs(e.decode.gpuMs - bare.decode.gpuMs - fixedMs) < 1e-9);
}

KVSCOPE_TEST_SUITE(TestFixedCost, "tst_fixed_cost", kvscope::test::SuiteApp::Core)
#include "tst_fixed_cost.moc"
