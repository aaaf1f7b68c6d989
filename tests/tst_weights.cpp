// SPDX-License-Identifier: GPL-3.0-or-later
// Parameter counts and weight bytes: exact for Llama 2 7B (SPEC section 4), close to the
// published total of every catalog model, MoE total vs active, and every preset evaluating.

#include "suite_registry.h"
#include "testutils.h"

#include "kvscope/model/parameters.h"
#include "kvscope/model/weights.h"

#include <QtTest>

#include <algorithm>

using namespace kvscope;
using namespace kvscope::test;

class TestWeights : public QObject
{
    Q_OBJECT

private slots:
    void llama2Exact();
    void weightBytesPerFormat_data();
    void weightBytesPerFormat();
    void publishedTotals_data();
    void publishedTotals();
    void statedParameters_data();
    void statedParameters();
    void moeTotalAndActive_data();
    void moeTotalAndActive();
    void expertsReadPerStep();
    void groupedFormatsCarryScales();
    void expertsOnlyFormatLeavesTheRestAt16Bits();
    void vllmHoldsMxfp4ExpertsPerArchitecture_data();
    void vllmHoldsMxfp4ExpertsPerArchitecture();
    void everyPresetEvaluates_data();
    void everyPresetEvaluates();
    void catalogIsBroadAndSourced();
};

void TestWeights::llama2Exact()
{
    // Llama 2 7B by hand: embeddings 32,000 x 4,096 = 131,072,000 (and an untied lm_head of
    // the same size); attention 4 x 4,096^2 x 32 layers = 2,147,483,648; MLP 3 x 4,096 x
    // 11,008 x 32 = 4,328,521,728; RMSNorms 2 x 4,096 x 32 + 4,096 = 266,240.
    const ParameterCount p = countParameters(model("llama-2-7b"));
    QCOMPARE(p.embedding, 131'072'000.0);
    QCOMPARE(p.lmHead, 131'072'000.0);
    QCOMPARE(p.attention, 2'147'483'648.0);
    QCOMPARE(p.denseMlp, 4'328'521'728.0);
    QCOMPARE(p.other, 266'240.0);
    QCOMPARE(p.total(), 6'738'415'616.0);
    QCOMPARE(p.active(), p.total());

    // SPEC: FP16 weights are "about 13-14 GB": 6,738,415,616 x 2 B.
    const double fp16 = weightBytes(p, weightFormat("fp16"));
    QCOMPARE(fp16, 13'476'831'232.0);
    QVERIFY(fp16 > 13e9 && fp16 < 14e9);
    KVSCOPE_EVALUATE(e, scenario());
    QCOMPARE(e.weightsBytesTotal, fp16);
    QCOMPARE(e.vram.weightsBytes, fp16);
}

void TestWeights::weightBytesPerFormat_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<double>("bytes");
    // Llama 2 7B: body 6,476,271,616 parameters (all but the 262,144,000 of embeddings and
    // lm_head), which formats may keep at a higher precision.
    QTest::addRow("fp16") << "fp16" << 13'476'831'232.0;
    // GGUF q8_0 quantizes everything at 8.5 bits: 6,738,415,616 x 8.5 / 8.
    QTest::addRow("q8_0") << "q8_0" << 7'159'566'592.0;
    // GPTQ 4-bit, group 128: 4 + 16/128 + 4/128 = 4.15625 bits (scale and zero per group);
    // embeddings stay FP16: 6,476,271,616 x 4.15625 / 8 + 262,144,000 x 2 = 3,888,913,488.
    QTest::addRow("gptq-int4") << "gptq-int4" << 3'888'913'488.0;
    // FP8 body, FP16 embeddings: 6,476,271,616 + 524,288,000.
    QTest::addRow("fp8") << "fp8" << 7'000'559'616.0;
}

void TestWeights::weightBytesPerFormat()
{
    QFETCH(QString, format);
    QFETCH(double, bytes);
    const double computed =
        weightBytes(countParameters(model("llama-2-7b")), weightFormat(format.toStdString()));
    QCOMPARE(computed, bytes);
}

void TestWeights::publishedTotals_data()
{
    QTest::addColumn<QString>("modelId");
    QTest::addColumn<double>("published");
    QTest::addColumn<double>("tolerance"); // relative; 0 = exact
    // Totals as the released checkpoints' safetensors report them (Hugging Face model pages),
    // each cross-checked by hand against the dimensions. kvscope counts the matrices, two norm
    // vectors a layer and the router; where an architecture carries more (biases, extra norms)
    // the row says how much and the tolerance is 0.1 %.
    auto exact = [](const char* id, double total) {
        QTest::addRow("%s", id) << id << total << 0.0;
    };
    auto close = [](const char* id, double total) {
        QTest::addRow("%s", id) << id << total << 1e-3;
    };
    exact("llama-2-7b", 6'738'415'616);
    exact("llama-2-13b", 13'015'864'320);
    exact("llama-2-70b", 68'976'648'192);
    exact("llama-3-8b", 8'030'261'248);
    exact("llama-3.1-8b", 8'030'261'248);
    exact("llama-3.1-70b", 70'553'706'496);
    exact("llama-3.1-405b", 405'853'388'800);
    exact("llama-3.2-3b", 3'212'749'824); // tied embeddings
    exact("mistral-7b-v0.1", 7'241'732'096);
    exact("mistral-7b-v0.3", 7'248'023'552);
    exact("mixtral-8x7b", 46'702'792'704);
    exact("phi-3-mini", 3'821'079'552);
    exact("phi-3.5-mini", 3'821'079'552);
    exact("phi-3-medium", 13'960'238'080);
    // Qwen2 / Qwen2.5 carry q/k/v biases their configs do not declare: + layers x (q + 2 kv).
    close("qwen2.5-7b", 7'615'616'512);   // + 28 x 4,608
    close("qwen2.5-14b", 14'770'033'664); // + 48 x 7,168
    close("qwen2.5-32b", 32'763'876'352); // + 64 x 7,168
    close("qwen2.5-72b", 72'706'203'648); // + 80 x 10,240
    close("qwen2-72b", 72'706'203'648);
    // Qwen3 adds q_norm and k_norm (2 x head_dim 128 a layer).
    close("qwen3-8b", 8'190'735'360);
    close("qwen3-14b", 14'768'307'200);
    close("qwen3-32b", 32'762'123'264);
    close("qwen3-30b-a3b", 30'532'122'624);
    // Gemma 2 has four norms a layer, not two: + layers x 2 x hidden.
    close("gemma-2-2b", 2'614'341'888);
    close("gemma-2-9b", 9'241'705'984);
    close("gemma-2-27b", 27'227'128'320);
    // Falcon's LayerNorms carry biases. 40B by hand: 60 x (8,192 x 9,216 + 8,192^2 +
    // 2 x 8,192 x 32,768 + 4 x 8,192) + 65,024 x 8,192 + 2 x 8,192 (tied lm_head).
    close("falcon-7b", 6'921'720'704);
    close("falcon-40b", 41'303'293'952);
    // gpt-oss: attention, sink and expert biases (about 0.03 %).
    close("gpt-oss-20b", 20'914'757'184);
    close("gpt-oss-120b", 116'829'156'672);
    // DeepSeek-V3 without its MTP module; + q_a / kv_a norms and the router bias.
    close("deepseek-v3", 671'026'419'200);
    // DeepSeek-V2-Lite: "15.7B total" (model card). Its config unties lm_head; by hand
    // 102,400 x 2,048 x 2 + 27 layers of MLA + 1 dense and 26 MoE layers = 15,706,484,224.
    close("deepseek-v2-lite", 15'706'484'224);
}

void TestWeights::publishedTotals()
{
    QFETCH(QString, modelId);
    QFETCH(double, published);
    QFETCH(double, tolerance);
    const double total = countParameters(model(modelId.toStdString())).total();
    if (tolerance == 0) {
        QCOMPARE(total, published);
    } else {
        const double error = qAbs(total - published) / published;
        QVERIFY2(error <= tolerance,
                 qPrintable(QStringLiteral("computed %1, published %2 (%3 % off)")
                                .arg(total, 0, 'f', 0)
                                .arg(published, 0, 'f', 0)
                                .arg(error * 100, 0, 'f', 3)));
    }
}

void TestWeights::statedParameters_data()
{
    QTest::addColumn<QString>("modelId");
    for (const ModelSpec& m : catalog().models)
        if (m.statedParameters > 0)
            QTest::addRow("%s", m.id.c_str()) << qs(m.id);
}

void TestWeights::statedParameters()
{
    // A preset's num_parameters is a cross-check of the dimensions: within 3 %.
    QFETCH(QString, modelId);
    const ModelSpec& m = model(modelId.toStdString());
    const double total = countParameters(m).total();
    const double error = qAbs(total - m.statedParameters) / m.statedParameters;
    QVERIFY2(error < 0.03, qPrintable(QStringLiteral("computed %1, stated %2")
                                          .arg(total, 0, 'f', 0)
                                          .arg(m.statedParameters, 0, 'f', 0)));
}

void TestWeights::moeTotalAndActive_data()
{
    QTest::addColumn<QString>("modelId");
    QTest::addColumn<double>("total");
    QTest::addColumn<double>("active");
    // Mistral AI: 46.7 B total, 12.9 B active (2 of 8 experts per token).
    QTest::addRow("mixtral-8x7b") << "mixtral-8x7b" << 46.7e9 << 12.9e9;
    // Qwen: 30.5 B total, 3.3 B activated (8 of 128 experts).
    QTest::addRow("qwen3-30b-a3b") << "qwen3-30b-a3b" << 30.5e9 << 3.3e9;
    // DeepSeek: 671 B total, 37 B activated.
    QTest::addRow("deepseek-v3") << "deepseek-v3" << 671e9 << 37e9;
}

void TestWeights::moeTotalAndActive()
{
    QFETCH(QString, modelId);
    QFETCH(double, total);
    QFETCH(double, active);
    const ModelSpec& m = model(modelId.toStdString());
    QVERIFY(m.isMoe());
    const ParameterCount p = countParameters(m);
    QVERIFY2(qAbs(p.total() - total) / total < 0.02, qPrintable(QString::number(p.total())));
    QVERIFY2(qAbs(p.active() - active) / active < 0.02, qPrintable(QString::number(p.active())));
}

void TestWeights::expertsReadPerStep()
{
    // Mixtral 8x7B, FP16. Routed experts: 8 x 3 x 4,096 x 14,336 x 32 layers = 45,097,156,608.
    // Everything else read per step: lm_head 131,072,000 + attention 32 x (2 x 4,096^2 +
    // 2 x 4,096 x 1,024) = 1,342,177,280 + norms and router 1,314,816, plus one embedding row
    // (4,096) per sequence.
    const ModelSpec& m = model("mixtral-8x7b");
    const ParameterCount p = countParameters(m);
    QCOMPARE(p.experts, 45'097'156'608.0);
    const WeightFormat& fp16 = weightFormat("fp16");

    // One token touches 2 of 8 experts: 1 - (1 - 2/8)^1 = 1/4.
    QCOMPARE(expertShareTouched(m, 1), 0.25);
    const double one = weightBytesReadPerStep(m, p, fp16, 1);
    QCOMPARE(one,
             (131'072'000.0 + 4'096 + 1'342'177'280 + 1'314'816) * 2 + 45'097'156'608.0 * 0.25 * 2);

    // 256 tokens touch every expert (1 - 0.75^256 rounds to 1).
    QVERIFY(qFuzzyCompare(expertShareTouched(m, 256), 1.0));
    const double all = weightBytesReadPerStep(m, p, fp16, 256);
    QVERIFY(qFuzzyCompare(all, (131'072'000.0 + 256 * 4'096 + 1'342'177'280 + 1'314'816) * 2 +
                                   45'097'156'608.0 * 2));

    // A dense model reads all of its weights at any batch.
    QCOMPARE(expertShareTouched(model("llama-2-7b"), 1), 1.0);
}

void TestWeights::groupedFormatsCarryScales()
{
    // SPEC: a 4-bit format with group size 128 costs more than 4.0 bits (scales, zero points).
    for (const char* id : {"gptq-int4", "awq-int4", "nf4", "q4_0", "q4_k_m", "mxfp4"}) {
        const WeightFormat& f = weightFormat(id);
        QVERIFY2(f.bitsPerWeight > 4.0, id);
        QVERIFY2(f.groupSize > 0, id);
    }
    // The slider order: most bits first.
    const auto& formats = catalog().weightFormats;
    for (size_t i = 1; i < formats.size(); ++i)
        QVERIFY(formats[i - 1].bitsPerWeight >= formats[i].bitsPerWeight);
}

void TestWeights::expertsOnlyFormatLeavesTheRestAt16Bits()
{
    // gpt-oss as vLLM loads it: routed experts at MXFP4's 4.25 bits, everything else BF16.
    const ParameterCount p = countParameters(model("gpt-oss-20b"));
    const WeightFormat& moe = weightFormat("mxfp4-moe");
    QVERIFY(moe.expertsOnly);
    QCOMPARE(weightBytes(p, moe), p.experts * 4.25 / 8 + (p.total() - p.experts) * 2);
    // The same experts with every layer at 4.25 bits weigh less by the attention's 11.75 bits.
    const WeightFormat& all = weightFormat("mxfp4");
    QVERIFY(!all.expertsOnly);
    QCOMPARE(weightBytes(p, moe) - weightBytes(p, all),
             (p.attention + p.denseMlp + p.other) * (16 - 4.25) / 8);
    // 12.8 GiB, where vLLM logs 13.47 GiB on an H100 (llm-d) and 13.72 GiB on an A100.
    QCOMPARE(std::round(weightBytes(p, moe) / 1073741824.0 * 10) / 10, 12.8);
}

void TestWeights::vllmHoldsMxfp4ExpertsPerArchitecture_data()
{
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<double>("factor"); // expert parameters held per checkpoint parameter
    QTest::addColumn<double>("bits");
    // gpt-oss's experts are 2,880 x 2,880. Marlin (SM80-SM89) rounds each GPU's intermediate
    // size up to 128 and the hidden size to 256: 2,944 x 3,072.
    QTest::addRow("A100, Marlin") << "a100-80gb" << 1 << (2944.0 / 2880) * (3072.0 / 2880) << 4.25;
    // Split four ways each GPU has 720 columns, rounded to 768.
    QTest::addRow("4x A100, Marlin")
        << "a100-80gb" << 4 << (768.0 * 4 / 2880) * (3072.0 / 2880) << 4.25;
    // Hopper's Triton kernels round to 64 (2,880 stays) and keep a swizzled copy of the scales:
    // one more 8-bit scale per 32 weights.
    QTest::addRow("H100, Triton") << "h100-sxm" << 1 << 1.0 << 4.25 + 8.0 / 32;
    // Blackwell's FlashInfer kernels round both sizes to 256.
    QTest::addRow("B200, FlashInfer") << "b200" << 1 << (3072.0 / 2880) * (3072.0 / 2880) << 4.25;
    // vLLM's MXFP4 needs capability 8.0; a T4, and GPUs that are not CUDA, keep the checkpoint.
    QTest::addRow("T4") << "t4" << 1 << 1.0 << 4.25;
    QTest::addRow("MI300X") << "mi300x" << 1 << 1.0 << 4.25;
}

void TestWeights::vllmHoldsMxfp4ExpertsPerArchitecture()
{
    QFETCH(QString, gpu);
    QFETCH(int, gpus);
    QFETCH(double, factor);
    QFETCH(double, bits);
    Scenario s = scenario("gpt-oss-120b", gpu.toStdString());
    s.weights = weightFormat("mxfp4-moe");
    s.gpuCount = gpus;
    KVSCOPE_EVALUATE(e, s);
    const ParameterCount& p = e.parameters;
    QCOMPARE(e.experts.parameters, p.experts * factor);
    QCOMPARE(e.experts.bitsPerWeight, bits);
    QCOMPARE(e.weightsBytesTotal, p.experts * factor * bits / 8 + (p.total() - p.experts) * 2);
}

void TestWeights::everyPresetEvaluates_data()
{
    QTest::addColumn<QString>("modelId");
    QVERIFY(catalog().models.size() >= 30);
    for (const ModelSpec& m : catalog().models)
        QTest::addRow("%s", m.id.c_str()) << qs(m.id);
}

void TestWeights::everyPresetEvaluates()
{
    // The default scenario (RTX 4090, FP16, 2,048 tokens) with each preset: big models overflow,
    // but nothing fails and every figure is finite.
    QFETCH(QString, modelId);
    const ModelSpec& m = model(modelId.toStdString());
    QVERIFY(!validateModel(m));
    QVERIFY(!m.source.empty());
    KVSCOPE_EVALUATE(e, scenario(m.id));
    QVERIFY(e.parameters.total() > 1e8);
    QVERIFY(e.parameters.active() <= e.parameters.total());
    QVERIFY(e.kv.bytesPerToken > 0);
    QVERIFY(std::isfinite(e.decode.selectedMs) && e.decode.selectedMs > 0);
}

void TestWeights::catalogIsBroadAndSourced()
{
    // The families and boards users ask for, each with the source its numbers were read from.
    const Catalog& c = test::catalog();
    QVERIFY2(c.models.size() >= 80, qPrintable(QString::number(c.models.size())));
    QVERIFY2(c.gpus.size() >= 60, qPrintable(QString::number(c.gpus.size())));
    for (const ModelSpec& m : c.models)
        QVERIFY2(m.source.rfind("http", 0) == 0, m.id.c_str());
    for (const GpuSpec& g : c.gpus) {
        QVERIFY2(g.source.rfind("http", 0) == 0, g.id.c_str());
        QVERIFY2(!g.unifiedMemory || g.pcieGen == 0, g.id.c_str()); // Apple: no PCIe link
        // A platform host RAM figure says which system it is from.
        QVERIFY2(g.hostRamGiBPerGpu == 0 || g.hostRamSource.size() > 20, g.id.c_str());
    }
    // Every desktop card and the 8-GPU data-centre platforms have one.
    for (const char* id :
         {"rtx-4090", "rtx-3060", "rx-7900-xtx", "h100-sxm", "h200", "b200", "mi300x", "gb200"})
        QVERIFY2(c.gpu(id)->hostRamGiBPerGpu > 0, id);
    for (const char* family : {"gemma-3-", "glm-4", "kimi-k2", "llama-4-", "qwen3-235b", "phi-4",
                               "command-r", "mixtral-8x22b", "deepseek-r1"}) {
        const bool found = std::any_of(c.models.begin(), c.models.end(), [&](const ModelSpec& m) {
            return m.id.rfind(family, 0) == 0;
        });
        QVERIFY2(found, family);
    }
    for (const char* id : {"rtx-3060",
                           "rtx-3070",
                           "rtx-3080",
                           "rtx-3080-ti",
                           "rtx-4060-ti-16gb",
                           "rtx-4070",
                           "rtx-4070-ti",
                           "rtx-4080-super",
                           "rtx-5070-ti",
                           "rtx-5080",
                           "rtx-4000-ada",
                           "rtx-5000-ada",
                           "h20",
                           "h100-nvl",
                           "gh200",
                           "b300",
                           "gb200",
                           "mi355x",
                           "rx-7900-xtx",
                           "gaudi-3"})
        QVERIFY2(c.gpu(id), id);
}

KVSCOPE_TEST_SUITE(TestWeights, "tst_weights", kvscope::test::SuiteApp::Core)
#include "tst_weights.moc"
