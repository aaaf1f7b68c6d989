// SPDX-License-Identifier: GPL-3.0-or-later
// KV cache arithmetic. SPEC section 4's vectors from the seed article hold exactly, in binary
// units; the other rows are hand-checked cases for GQA, MQA, MLA, sliding windows, tensor
// parallelism and quantized KV (the arithmetic is written next to each row).

#include "suite_registry.h"
#include "testutils.h"

#include "kvscope/model/kv_cache.h"
#include "kvscope/model/roofline.h"
#include "kvscope/settings/scenario_defaults.h"

#include <QtTest>

using namespace kvscope;
using namespace kvscope::test;

namespace {

// SPEC's "30B-class GQA model": 64 layers, 64 query heads, head_dim 128.
ModelSpec thirtyBClass(int64_t kvHeads)
{
    ModelSpec m;
    m.id = "30b-class";
    m.layers = 64;
    m.hiddenSize = 8192;
    m.queryHeads = 64;
    m.kvHeads = kvHeads;
    m.headDim = 128;
    m.vocabSize = 32000;
    return m;
}

} // namespace

class TestKvCache : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void llama2PerToken();
    void llama2Totals_data();
    void llama2Totals();
    void pcieTransfer_data();
    void pcieTransfer();
    void serialOffloadSlowdown();
    void thirtyBClassFit_data();
    void thirtyBClassFit();
    void bytesPerToken_data();
    void bytesPerToken();
    void mlaAgainstMha();
    void slidingWindows_data();
    void slidingWindows();
    void gemma2Alternates();
    void windowedLongestContext_data();
    void windowedLongestContext();
    void tensorParallelHeads_data();
    void tensorParallelHeads();
    void blockRounding();
    void variantShapes_data();
    void variantShapes();
};

void TestKvCache::initTestCase()
{
    QVERIFY2(catalog().problems.empty(),
             catalog().problems.empty() ? "" : catalog().problems.front().c_str());
    QVERIFY(catalog().model("llama-2-7b"));
}

void TestKvCache::llama2PerToken()
{
    // Seed: Llama 2 7B, 32 layers, 32 heads (MHA), head_dim 128, FP16: K 8 KiB + V 8 KiB.
    const ModelSpec& m = model("llama-2-7b");
    QCOMPARE(m.layers, 32);
    QCOMPARE(m.queryHeads, 32);
    QCOMPARE(m.kvHeads, 32);
    QCOMPARE(m.headDim, 128);
    QCOMPARE(m.attentionKind(), AttentionKind::Mha);
    const KvDtype& fp16 = kvDtype("fp16");
    const double perLayer = kvBytesPerTokenPerLayer(m, fp16, 1);
    QCOMPARE(perLayer / 2, 8 * KiB); // K alone (V is the same size)
    QCOMPARE(perLayer, 16'384.0);
    QCOMPARE(kvBytesPerToken(m, fp16, 1), 524'288.0); // 16 KiB x 32 layers = 512 KiB

    KVSCOPE_EVALUATE(e, scenario());
    QCOMPARE(e.kv.bytesPerTokenPerLayer, 16'384.0);
    QCOMPARE(e.kv.bytesPerToken, 524'288.0);
    QCOMPARE(e.kv.kvHeadsPerGpu, 32);
}

void TestKvCache::llama2Totals_data()
{
    QTest::addColumn<qint64>("context");
    QTest::addColumn<double>("perLayer");
    QTest::addColumn<double>("total");
    // 16 KiB x tokens per layer; x 32 layers.
    QTest::addRow("2,048 tokens") << qint64(2048) << 32 * MiB << 1 * GiB;
    QTest::addRow("8,192 tokens") << qint64(8192) << 128 * MiB << 4 * GiB;
    QTest::addRow("32,768 tokens") << qint64(32768) << 512 * MiB << 16 * GiB;
}

void TestKvCache::llama2Totals()
{
    QFETCH(qint64, context);
    QFETCH(double, perLayer);
    QFETCH(double, total);
    const ModelSpec& m = model("llama-2-7b");
    const double bytes = kvBytesForContext(m, kvDtype("fp16"), 1, context);
    QCOMPARE(bytes, total);
    QCOMPARE(bytes / double(m.layers), perLayer);
    if (context == 2048)
        QCOMPARE(bytes, 1'073'741'824.0);

    Scenario s = scenario();
    s.context = context;
    KVSCOPE_EVALUATE(e, s);
    QCOMPARE(e.kv.totalBytes, total);
    QCOMPARE(e.kv.allocatedBytes, total); // HF's dynamic cache does not page
}

void TestKvCache::pcieTransfer_data()
{
    QTest::addColumn<qint64>("context");
    QTest::addColumn<double>("lowMs");
    QTest::addColumn<double>("highMs");
    // 1 GiB / 25.2 GB/s = 1.0737e9 / 25.2e9 s = 42.6 ms (seed: "about 40 ms").
    QTest::addRow("1 GiB at 2,048 tokens") << qint64(2048) << 40.0 << 45.0;
    // 16 GiB / 25.2 GB/s = 681.6 ms (seed: "over 0.6 s per token").
    QTest::addRow("16 GiB at 32,768 tokens") << qint64(32768) << 650.0 << 700.0;
}

void TestKvCache::pcieTransfer()
{
    QFETCH(qint64, context);
    QFETCH(double, lowMs);
    QFETCH(double, highMs);
    Scenario s = scenario();
    s.context = context;
    KVSCOPE_EVALUATE(e, s);
    // PCIe 4.0 x16: 16 lanes x 16 GT/s x 128/130 / 8 = 31.5 GB/s raw, x 0.80 protocol = 25.2.
    QVERIFY(qAbs(e.decode.pcieEffectiveGBps - 25.206) < 0.001);
    QVERIFY2(e.decode.kvTransferMs > lowMs && e.decode.kvTransferMs < highMs,
             qPrintable(QString::number(e.decode.kvTransferMs)));
    // The same figure straight from the roofline helper.
    QVERIFY(qAbs(transferMs(GiB, 25.2) - 42.61) < 0.01);
}

void TestKvCache::serialOffloadSlowdown()
{
    // Seed: serial KV offload over PCIe 4.0 makes decode 3-5x slower than GPU-only at 2,048
    // tokens on an RTX 4090, by the article's bandwidth arithmetic. By hand: GPU step = (13.21 GB
    // weights read + 1.07 GB KV) / (1,008 GB/s x 0.78) = 18.17 ms, plus the kernels' eager
    // launches, 32 layers x 19 us = 0.61 ms: 18.78 ms; serial adds the 42.6 ms transfer:
    // 61.4 / 18.78 = 3.3.
    Scenario bandwidthOnly = scenario();
    bandwidthOnly.engine.pythonDispatchUsPerLayer = 0;
    bandwidthOnly.engine.stepOverheadUs = 0;
    KVSCOPE_EVALUATE(e, bandwidthOnly);
    const double gpu = e.decode.tierMs[size_t(Tier::Gpu)];
    const double serial = e.decode.tierMs[size_t(Tier::CpuSerial)];
    QVERIFY(gpu > 0);
    const double ratio = serial / gpu;
    QVERIFY2(ratio >= 3 && ratio <= 5, qPrintable(QString::number(ratio)));
    QVERIFY2(qAbs(gpu - 18.78) < 0.05, qPrintable(QString::number(gpu)));
    // transformers also dispatches each layer's ops from Python, 320 us a layer, and runs
    // generate()'s loop, 4,250 us a token (engines.json, fitted on decode-transformers.json):
    // 18.78 + 32 x 0.32 + 4.25 = 33.27 ms, so the same transfer slows it 2.3x, not the
    // article's 3-5x (issue 43).
    KVSCOPE_EVALUATE(real, scenario());
    const double realGpu = real.decode.tierMs[size_t(Tier::Gpu)];
    QVERIFY2(qAbs(realGpu - 33.27) < 0.05, qPrintable(QString::number(realGpu)));
    QVERIFY2(qAbs(real.decode.tierMs[size_t(Tier::CpuSerial)] / realGpu - 2.28) < 0.02,
             qPrintable(QString::number(real.decode.tierMs[size_t(Tier::CpuSerial)] / realGpu)));
}

void TestKvCache::thirtyBClassFit_data()
{
    QTest::addColumn<qint64>("kvHeads");
    QTest::addColumn<double>("perToken");
    QTest::addColumn<qint64>("tokens");
    // 2 x 8 x 128 x 2 B x 64 layers = 256 KiB; 9 GiB / 256 KiB = 36,864 ("about 36,000").
    QTest::addRow("GQA, 8 KV heads") << qint64(8) << 262'144.0 << qint64(36'864);
    // 2 x 64 x 128 x 2 B x 64 layers = 2 MiB; 9 GiB / 2 MiB = 4,608 ("about 4,500").
    QTest::addRow("MHA, 64 KV heads") << qint64(64) << 2'097'152.0 << qint64(4'608);
}

void TestKvCache::thirtyBClassFit()
{
    QFETCH(qint64, kvHeads);
    QFETCH(double, perToken);
    QFETCH(qint64, tokens);
    const ModelSpec m = thirtyBClass(kvHeads);
    QVERIFY(!validateModel(m));
    const KvDtype& fp16 = kvDtype("fp16");
    QCOMPARE(kvBytesPerToken(m, fp16, 1), perToken);
    bool capped = true;
    QCOMPARE(longestContextFitting(m, fp16, 1, 9 * GiB, 1, &capped), tokens);
    QVERIFY(!capped);
}

void TestKvCache::bytesPerToken_data()
{
    QTest::addColumn<QString>("modelId");
    QTest::addColumn<QString>("dtype");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<double>("perLayer");
    QTest::addColumn<double>("perToken");
    // 2 x 8 KV heads x 128 x 2 B = 4,096 B; x 32 layers = 128 KiB.
    QTest::addRow("llama-3.1-8b fp16") << "llama-3.1-8b"
                                       << "fp16" << 1 << 4'096.0 << 131'072.0;
    // MLA latent: (kv_lora_rank 512 + qk_rope_head_dim 64) x 2 B = 1,152 B; x 61 layers.
    QTest::addRow("deepseek-v3 fp16 latent") << "deepseek-v3"
                                             << "fp16" << 1 << 1'152.0 << 70'272.0;
    // q8_0 stores 32 elements in 34 bytes: 8.5 bits. 2 x 32 x 128 x 8.5 / 8 = 8,704 B.
    QTest::addRow("llama-2-7b q8_0") << "llama-2-7b"
                                     << "q8_0" << 1 << 8'704.0 << 278'528.0;
    // q4_0: 32 elements in 18 bytes, 4.5 bits. 2 x 32 x 128 x 4.5 / 8 = 4,608 B.
    QTest::addRow("llama-2-7b q4_0") << "llama-2-7b"
                                     << "q4_0" << 1 << 4'608.0 << 147'456.0;
    QTest::addRow("llama-2-7b fp8") << "llama-2-7b"
                                    << "fp8" << 1 << 8'192.0 << 262'144.0;
    // Falcon-7B multi_query: one KV head of 4544 / 71 = 64 dims. 2 x 1 x 64 x 2 B = 256 B.
    QTest::addRow("falcon-7b MQA") << "falcon-7b"
                                   << "fp16" << 1 << 256.0 << 8'192.0;
    // Gemma 2 9B: 2 x 8 x 256 x 2 B = 8 KiB per layer; x 42 layers (windowed or not).
    QTest::addRow("gemma-2-9b fp16") << "gemma-2-9b"
                                     << "fp16" << 1 << 8'192.0 << 344'064.0;
    // Tensor parallel: 8 KV heads over 2 GPUs = 4 per GPU: 2 x 4 x 128 x 2 B = 2 KiB; x 80 layers.
    QTest::addRow("llama-3.1-70b over 2 GPUs") << "llama-3.1-70b"
                                               << "fp16" << 2 << 2'048.0 << 163'840.0;
    // Over 16 GPUs each holds one (replicated) head: 2 x 1 x 128 x 2 B = 512 B.
    QTest::addRow("llama-3.1-70b over 16 GPUs") << "llama-3.1-70b"
                                                << "fp16" << 16 << 512.0 << 40'960.0;
    // An MLA latent is not split: every GPU holds all of it.
    QTest::addRow("deepseek-v3 over 8 GPUs") << "deepseek-v3"
                                             << "fp16" << 8 << 1'152.0 << 70'272.0;
}

void TestKvCache::bytesPerToken()
{
    QFETCH(QString, modelId);
    QFETCH(QString, dtype);
    QFETCH(int, gpus);
    QFETCH(double, perLayer);
    QFETCH(double, perToken);
    const ModelSpec& m = model(modelId.toStdString());
    const KvDtype& d = kvDtype(dtype.toStdString());
    QCOMPARE(kvBytesPerTokenPerLayer(m, d, gpus), perLayer);
    QCOMPARE(kvBytesPerToken(m, d, gpus), perToken);

    Scenario s = scenario(modelId.toStdString(), "h200");
    s.kvDtype = d;
    s.gpuCount = gpus;
    KVSCOPE_EVALUATE(e, s);
    QCOMPARE(e.kv.bytesPerTokenPerLayer, perLayer);
    QCOMPARE(e.kv.bytesPerToken, perToken);
}

void TestKvCache::mlaAgainstMha()
{
    // DeepSeek-V3 as plain MHA: 128 KV heads x v_head_dim 128 (the DeepSeek-V2 paper's
    // comparison). 2 x 128 x 128 x 2 B = 64 KiB per layer, x 61 = 3,997,696 B per token,
    // 56.9x its 70,272 B latent.
    const ModelSpec& ds = model("deepseek-v3");
    QVERIFY(ds.isMla());
    QCOMPARE(ds.attentionKind(), AttentionKind::Mla);
    const ModelSpec mha = withKvHeads(ds, 128);
    QVERIFY(!mha.isMla());
    QCOMPARE(mha.kvHeads, 128);
    QCOMPARE(mha.headDim, 128);
    const KvDtype& fp16 = kvDtype("fp16");
    QCOMPARE(kvBytesPerTokenPerLayer(mha, fp16, 1), 65'536.0);
    QCOMPARE(kvBytesPerToken(mha, fp16, 1), 3'997'696.0);

    const AttentionVariants v = attentionVariants(ds);
    QCOMPARE(v.mha, 128);
    QCOMPARE(v.gqa, 8); // no grouping of its own: the common 8
    QCOMPARE(v.mqa, 1);

    Scenario s = scenario("deepseek-v3", "h200");
    s.gpuCount = 8;
    KVSCOPE_EVALUATE(e, s);
    QCOMPARE(e.kv.totalMhaBytes, 2048 * 65'536.0 / 8 * 61); // MHA heads split over 8 GPUs
    QCOMPARE(e.kv.totalBytes, 2048 * 70'272.0);             // the latent is not
    QVERIFY(e.tokensFit.mla >= 0);
}

void TestKvCache::slidingWindows_data()
{
    QTest::addColumn<QString>("modelId");
    QTest::addColumn<qint64>("context");
    QTest::addColumn<qint64>("windowed");
    QTest::addColumn<qint64>("held");
    QTest::addColumn<double>("total");
    // Mistral 7B v0.1: sliding_window 4,096 on every layer, 128 KiB per token. At 8,192 tokens
    // every layer holds 4,096: 4,096 x 131,072 B.
    QTest::addRow("mistral-7b-v0.1 at 8,192")
        << "mistral-7b-v0.1" << qint64(8192) << qint64(32) << qint64(4096) << 4096 * 131'072.0;
    QTest::addRow("mistral-7b-v0.1 at 2,048")
        << "mistral-7b-v0.1" << qint64(2048) << qint64(32) << qint64(2048) << 2048 * 131'072.0;
    // Gemma 2 9B: 21 of 42 layers windowed at 4,096, 8 KiB per token per layer:
    // (21 x 8,192 + 21 x 4,096) x 8,192 B.
    QTest::addRow("gemma-2-9b at 8,192") << "gemma-2-9b" << qint64(8192) << qint64(21)
                                         << qint64(4096) << (21 * 8192.0 + 21 * 4096.0) * 8192;
    QTest::addRow("gemma-2-9b at 1,024")
        << "gemma-2-9b" << qint64(1024) << qint64(21) << qint64(1024) << 42 * 1024 * 8192.0;
    // gpt-oss-20b: 12 of 24 layers windowed at 128; 2 x 8 x 64 x 2 B = 2 KiB per layer:
    // (12 x 131,072 + 12 x 128) x 2,048 B = 3,224,371,200 B.
    QTest::addRow("gpt-oss-20b at 131,072")
        << "gpt-oss-20b" << qint64(131072) << qint64(12) << qint64(128) << 3'224'371'200.0;
}

void TestKvCache::slidingWindows()
{
    QFETCH(QString, modelId);
    QFETCH(qint64, context);
    QFETCH(qint64, windowed);
    QFETCH(qint64, held);
    QFETCH(double, total);
    const ModelSpec& m = model(modelId.toStdString());
    QCOMPARE(m.windowedLayerCount(), windowed);
    QCOMPARE(kvBytesForContext(m, kvDtype("fp16"), 1, context), total);

    Scenario s = scenario(modelId.toStdString(), "h200");
    s.context = context;
    KVSCOPE_EVALUATE(e, s);
    QCOMPARE(e.kv.windowedLayers, windowed);
    QCOMPARE(e.kv.tokensHeldPerWindowedLayer, held);
    QCOMPARE(e.kv.totalBytes, total);
}

void TestKvCache::gemma2Alternates()
{
    // transformers' Gemma 2: even layer indices slide, odd ones attend globally.
    const ModelSpec& m = model("gemma-2-9b");
    QCOMPARE(m.slidingWindow, 4096);
    QCOMPARE(tokensHeld(m, 0, 8192), 4096);
    QCOMPARE(tokensHeld(m, 1, 8192), 8192);
    QCOMPARE(tokensHeld(m, 40, 8192), 4096);
    QCOMPARE(tokensHeld(m, 41, 8192), 8192);
}

void TestKvCache::windowedLongestContext_data()
{
    QTest::addColumn<QString>("modelId");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<qint64>("tokens");
    QTest::addColumn<bool>("capped");
    // Below the window every layer grows: 1,000 tokens x 128 KiB.
    QTest::addRow("mistral below the window")
        << "mistral-7b-v0.1" << 1000 * 131'072.0 << qint64(1000) << false;
    // Every Mistral layer is windowed: once 4,096 tokens fit, the cache stops growing, so any
    // context fits (capped at limits::maxContext). That holds from exactly 4,096 tokens' worth
    // (536,870,912 B) on: a longer context needs no more bytes than that.
    QTest::addRow("mistral above the window")
        << "mistral-7b-v0.1" << 4097 * 131'072.0 << qint64(limits::maxContext) << true;
    QTest::addRow("mistral exactly at the window")
        << "mistral-7b-v0.1" << 4096 * 131'072.0 << qint64(limits::maxContext) << true;
    // Gemma 2 9B with 9 GiB: 4,096 tokens on all 42 layers cost 1,409,286,144 B; the rest
    // grows only the 21 global layers: 4,096 + (9 GiB - 1,409,286,144) / (21 x 8,192) = 52,077.
    QTest::addRow("gemma-2-9b 9 GiB") << "gemma-2-9b" << 9 * GiB << qint64(52'077) << false;
}

void TestKvCache::windowedLongestContext()
{
    QFETCH(QString, modelId);
    QFETCH(double, bytes);
    QFETCH(qint64, tokens);
    QFETCH(bool, capped);
    bool wasCapped = !capped;
    QCOMPARE(longestContextFitting(model(modelId.toStdString()), kvDtype("fp16"), 1, bytes, 1,
                                   &wasCapped),
             tokens);
    QCOMPARE(wasCapped, capped);
}

void TestKvCache::tensorParallelHeads_data()
{
    QTest::addColumn<QString>("modelId");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<qint64>("heads");
    QTest::addRow("llama-3.1-70b on 1") << "llama-3.1-70b" << 1 << qint64(8);
    QTest::addRow("llama-3.1-70b on 2") << "llama-3.1-70b" << 2 << qint64(4);
    QTest::addRow("llama-3.1-70b on 8") << "llama-3.1-70b" << 8 << qint64(1);
    QTest::addRow("llama-3.1-70b on 16 (replicated)") << "llama-3.1-70b" << 16 << qint64(1);
    QTest::addRow("llama-2-7b on 4") << "llama-2-7b" << 4 << qint64(8);
    QTest::addRow("deepseek-v3 latent on 8") << "deepseek-v3" << 8 << qint64(1);
}

void TestKvCache::tensorParallelHeads()
{
    QFETCH(QString, modelId);
    QFETCH(int, gpus);
    QFETCH(qint64, heads);
    QCOMPARE(kvHeadsPerGpu(model(modelId.toStdString()), gpus), heads);
}

void TestKvCache::blockRounding()
{
    QCOMPARE(roundUpToBlock(2049, 16), 2064);
    QCOMPARE(roundUpToBlock(2048, 16), 2048);
    QCOMPARE(roundUpToBlock(1, 256), 256);
    QCOMPARE(roundUpToBlock(5, 1), 5);

    // 1 GiB holds exactly 2,048 Llama 2 7B tokens; a byte less holds 2,047, paged down to 2,032.
    const ModelSpec& m = model("llama-2-7b");
    const KvDtype& fp16 = kvDtype("fp16");
    QCOMPARE(longestContextFitting(m, fp16, 1, GiB, 16), 2048);
    QCOMPARE(longestContextFitting(m, fp16, 1, GiB - 1, 1), 2047);
    QCOMPARE(longestContextFitting(m, fp16, 1, GiB - 1, 16), 2032);

    // vLLM allocates whole 16-token blocks: 2,049 tokens take 2,064 tokens of KV.
    Scenario s = scenario();
    applyEngine(s, *catalog().engine("vllm"));
    s.context = 2049;
    KVSCOPE_EVALUATE(e, s);
    QCOMPARE(e.kv.totalBytes, 2049 * 524'288.0);
    QCOMPARE(e.kv.allocatedBytes, 2064 * 524'288.0);
}

void TestKvCache::variantShapes_data()
{
    QTest::addColumn<QString>("modelId");
    for (const ModelSpec& m : catalog().models)
        QTest::addRow("%s", m.id.c_str()) << qs(m.id);
}

void TestKvCache::variantShapes()
{
    // The evaluation sizes the MHA / GQA / MQA variants from kvShape(model, heads) instead of a
    // copied withKvHeads(model, heads): the two must agree on every figure, MLA models included,
    // at a context inside and beyond any window, split over 1 and 8 GPUs, paged or not.
    QFETCH(QString, modelId);
    const ModelSpec& m = model(modelId.toStdString());
    const KvDtype& fp16 = kvDtype("fp16");
    const AttentionVariants v = attentionVariants(m);
    QCOMPARE(kvBytesForContext(kvShape(m), fp16, 1, 1000), kvBytesForContext(m, fp16, 1, 1000));
    for (int64_t heads : {v.mha, v.gqa, v.mqa}) {
        const ModelSpec copy = withKvHeads(m, heads);
        const KvShape shape = kvShape(m, heads);
        for (int gpus : {1, 8}) {
            QCOMPARE(kvHeadsPerGpu(shape, gpus), kvHeadsPerGpu(copy, gpus));
            QCOMPARE(kvBytesPerTokenPerLayer(shape, fp16, gpus),
                     kvBytesPerTokenPerLayer(copy, fp16, gpus));
            QCOMPARE(kvBytesPerToken(shape, fp16, gpus), kvBytesPerToken(copy, fp16, gpus));
            for (int64_t context : {int64_t(100), int64_t(200'000)})
                QCOMPARE(kvBytesForContext(shape, fp16, gpus, context),
                         kvBytesForContext(copy, fp16, gpus, context));
            for (int64_t block : {int64_t(1), int64_t(16)}) {
                bool shapeCapped = false, copyCapped = false;
                QCOMPARE(longestContextFitting(shape, fp16, gpus, 3 * GiB, block, &shapeCapped),
                         longestContextFitting(copy, fp16, gpus, 3 * GiB, block, &copyCapped));
                QCOMPARE(shapeCapped, copyCapped);
            }
        }
    }
}

KVSCOPE_TEST_SUITE(TestKvCache, "tst_kvcache", kvscope::test::SuiteApp::Core)
#include "tst_kvcache.moc"
