// SPDX-License-Identifier: GPL-3.0-or-later
// Whole-scenario evaluation: the VRAM split adds up, overflow is reported, the attention variants
// order as they must, curves move the right way, extreme inputs stay finite, reload vs recompute
// crosses where it should (searched only when asked), and validation names the field it rejects.

#include "evaluation_checks.h"
#include "kvscope/engines/engine_module.h"
#include "kvscope/evaluation/sweep.h"
#include "kvscope/io/result_json.h"
#include "kvscope/model/weights.h"
#include "kvscope/settings/scenario_defaults.h"
#include "kvscope/settings/scenario_options.h"
#include "kvscope/text/explain.h"
#include "suite_registry.h"
#include "testutils.h"

#include <QtTest>

#include <bit>
#include <limits>

using namespace kvscope;
using namespace kvscope::test;

class TestEvaluation : public QObject
{
    Q_OBJECT

private slots:
    void vramSplitAddsUp_data();
    void vramSplitAddsUp();
    void overflowIsReported();
    void capacityIsWhatCudaReports();
    void loraSlotsAsVllmAllocatesThem();
    void mtpLayersDraftTokens();
    void aDraftModelDraftsTokens();
    void tensorParallelAddsCommunicatorBuffers();
    void vllmSamplerFollowsTheModelRunner();
    void llamaCppComputeBuffersFollowItsGraph();
    void vllmBatchDefaultsFollowTheGpu();
    void attentionVariantsOrder_data();
    void attentionVariantsOrder();
    void decodeGrowsWithContext_data();
    void decodeGrowsWithContext();
    void tokensFitGrowWithMemory_data();
    void tokensFitGrowWithMemory();
    void extremesStayFinite_data();
    void extremesStayFinite();
    void everyModelAtExtremes_data();
    void everyModelAtExtremes();
    void reloadVsRecompute();
    void breakevenMatchesCurves_data();
    void breakevenMatchesCurves();
    void plainAgreesWithFull_data();
    void plainAgreesWithFull();
    void validateNamesTheField_data();
    void validateNamesTheField();

private:
    void checkFinite(const Scenario& s);
};

void TestEvaluation::vramSplitAddsUp_data()
{
    QTest::addColumn<Mutation>("mutate");
    QTest::addRow("seed default") << Mutation([](Scenario&) {});
    QTest::addRow("vllm llama-3.1-8b h100 batch 32") << Mutation([](Scenario& s) {
        s.model = model("llama-3.1-8b");
        s.gpu = gpu("h100-sxm");
        applyEngine(s, *catalog().engine("vllm"));
        s.batch = 32;
        s.context = 8191; // not a multiple of the 16-token block
    });
    QTest::addRow("llamacpp q4_k_m q8_0 KV") << Mutation([](Scenario& s) {
        applyEngine(s, *catalog().engine("llamacpp"));
        s.weights = weightFormat("q4_k_m");
        s.kvDtype = kvDtype("q8_0");
    });
    QTest::addRow("hf-offloaded KV in CPU RAM") << Mutation([](Scenario& s) {
        applyEngine(s, *catalog().engine("hf-offloaded"));
        s.context = 32768;
    });
    QTest::addRow("deepseek-v3 8 x h200 fp8") << Mutation([](Scenario& s) {
        s.model = model("deepseek-v3");
        s.gpu = gpu("h200");
        s.gpuCount = 8;
        s.weights = weightFormat("fp8");
    });
    QTest::addRow("llama-2-70b overflowing a 4090")
        << Mutation([](Scenario& s) { s.model = model("llama-2-70b"); });
    QTest::addRow("llama-2-13b weights offloaded") << Mutation([](Scenario& s) {
        s.model = model("llama-2-13b");
        s.offloadWeights = true;
    });
    QTest::addRow("m2-ultra unified at 0.9") << Mutation([](Scenario& s) {
        s.gpu = gpu("m2-ultra");
        s.memoryFraction = 0.9;
    });
}

void TestEvaluation::vramSplitAddsUp()
{
    QFETCH(Mutation, mutate);
    Scenario s = scenario();
    mutate(s);
    KVSCOPE_EVALUATE(e, s);
    const VramSplit& v = e.vram;
    const double sum =
        v.weightsBytes + v.kvCacheBytes + v.activationBytes + v.overheadBytes + v.freeBytes;
    QVERIFY2(qAbs(sum - v.budgetBytes) <= 1.0, qPrintable(QStringLiteral("parts %1 vs budget %2")
                                                              .arg(sum, 0, 'f', 1)
                                                              .arg(v.budgetBytes, 0, 'f', 1)));
    QVERIFY(qAbs(v.budgetBytes + v.reservedBytes - v.capacityBytes) <= 1.0);
    QCOMPARE(v.capacityBytes, s.gpu.memoryGiB * GiB * s.gpu.usableFraction);
    QCOMPARE(v.budgetBytes, v.capacityBytes * s.effectiveMemoryFraction());
    QCOMPARE(v.fits, v.freeBytes >= 0);
    for (double part : {v.weightsBytes, v.kvCacheBytes, v.activationBytes, v.overheadBytes})
        QVERIFY(part >= 0);
    // Offloaded weights are weights too: resident + offloaded = this GPU's share.
    QVERIFY(qAbs(v.weightsBytes + v.weightsOffloadedBytes - e.weightsBytesTotal / s.gpuCount) <=
            1.0);
}

// vLLM keeps max_loras slots of max_lora_rank for every linear layer, the embedding and lm_head
// (vllm/lora/layers), 16-bit. Hand-counted for Llama 3.1 8B (hidden 4,096, 8 KV heads of 128,
// MLP 14,336, vocabulary 128,256), 8 slots of rank 16, per layer in elements x slots x rank:
// A: qkv 3 x 4,096 + gate_up 2 x 4,096 + o 4,096 + down 14,336 = 38,912;
// B: qkv 4,096 + 2 x 1,024 + gate_up 2 x 14,336 + o 4,096 + down 4,096 = 43,008;
// x 32 layers + embedding and lm_head 2 x (128,256 + 4,096) = 2,886,144; x 8 x 16 x 2 bytes.
void TestEvaluation::loraSlotsAsVllmAllocatesThem()
{
    const std::vector<std::pair<std::string, std::string>> base{
        {"model", "llama-3.1-8b"}, {"gpu", "h100-sxm"}, {"engine", "vllm"}, {"batch", "8"}};
    auto with = [&](std::vector<std::pair<std::string, std::string>> more) {
        auto all = base;
        all.insert(all.end(), more.begin(), more.end());
        return test::scenarioFrom(all);
    };
    KVSCOPE_EVALUATE(plain, with({}));
    KVSCOPE_EVALUATE(lora, with({{"max-loras", "8"}}));
    QCOMPARE(lora.vram.loraBytes, 738'852'864.0);
    QCOMPARE(plain.vram.loraBytes, 0.0);
    // Allocated before the KV cache is sized: the room for KV shrinks by exactly that.
    QCOMPARE(plain.tokensFit.freeForKvBytes - lora.tokensFit.freeForKvBytes, 738'852'864.0);
    QCOMPARE(lora.vram.overheadBytes - plain.vram.overheadBytes, 738'852'864.0);
    // A step of 8 sequences may use all 8 adapters, and reads them; one sequence reads one.
    QCOMPARE(lora.decode.weightsReadBytes - plain.decode.weightsReadBytes, 738'852'864.0);
    KVSCOPE_EVALUATE(one, with({{"max-loras", "8"}, {"batch", "1"}}));
    KVSCOPE_EVALUATE(onePlain, with({{"batch", "1"}}));
    QCOMPARE(one.decode.weightsReadBytes - onePlain.decode.weightsReadBytes, 738'852'864.0 / 8);
    // Rank doubles every slot's width.
    KVSCOPE_EVALUATE(wide, with({{"max-loras", "8"}, {"max-lora-rank", "32"}}));
    QCOMPARE(wide.vram.loraBytes, 2 * 738'852'864.0);
    // Llama 3.1 70B on 4 GPUs: column layers split B, row layers split A, the vocabulary's
    // slots whole on each GPU; --fully-sharded-loras splits the other halves too.
    auto seventy = [](const char* sharded) {
        return test::scenarioFrom({{"model", "llama-3.1-70b"},
                                   {"gpu", "h100-sxm"},
                                   {"gpus", "4"},
                                   {"engine", "vllm"},
                                   {"max-loras", "8"},
                                   {"fully-sharded-loras", sharded}});
    };
    KVSCOPE_EVALUATE(tp, seventy("off"));
    KVSCOPE_EVALUATE(sharded, seventy("on"));
    QCOMPARE(tp.vram.loraBytes, 1'779'040'256.0);
    QCOMPARE(sharded.vram.loraBytes, 898'236'416.0);
    // A MoE model (vllm/lora/layers/fused_moe.py): Qwen3-30B-A3B, one slot of rank 64 on one GPU.
    // Each of 48 layers: attention 3 x 2,048 + (4,096 + 2 x 512) + 4,096 + 2,048 = 17,408 (no
    // dense MLP), and 128 experts x (2 x 2,048 + 3 x 768 + 2,048) = 1,081,344; the embedding and
    // lm_head (151,936 + 2,048) x 2; all x 64 x 2 B = 6,790,152,192 B, of which the experts'
    // 48 x 1,081,344 x 128 B = 6,643,777,536.
    const Scenario moe = scenarioFrom({{"model", "qwen3-30b-a3b"},
                                       {"engine", "vllm"},
                                       {"gpu", "h100-sxm"},
                                       {"max-loras", "1"},
                                       {"max-lora-rank", "64"}});
    KVSCOPE_EVALUATE(moeLora, moe);
    QCOMPARE(moeLora.vram.loraBytes, 6'790'152'192.0);
    QCOMPARE(engineModule(moe.engine).loraExpertBytesPerGpu(moe), 6'643'777'536.0);
    // What kvscope does not model is refused, naming the setting.
    for (const auto& [options, field] :
         std::vector<std::pair<std::vector<std::pair<std::string, std::string>>, std::string>>{
             {{{"engine", "llamacpp"}, {"weights", "q4_k_m"}, {"max-loras", "2"}}, "max_loras"},
             {{{"model", "deepseek-v3"}, {"engine", "vllm"}, {"max-loras", "2"}}, "max_loras"},
             {{{"model", "llama-3.1-70b"},
               {"gpus", "4"},
               {"engine", "vllm"},
               {"max-loras", "2"},
               {"max-lora-rank", "1"},
               {"fully-sharded-loras", "on"}},
              "max_lora_rank"}}) {
        const auto refused = scenarioFromOptions(options, test::catalog());
        QVERIFY(!refused);
        QCOMPARE(refused.error().field, field);
    }
}

// DeepSeek-V3's MTP layer drafting one token a step under vLLM. DeepSeek reports a second-token
// acceptance of 85 % to 90 % and 1.8 times the tokens per second (DeepSeek-V3 Technical Report,
// arXiv:2412.19437, section 5.4.3); at 0.875, 64 sequences on 8 x H200, kvscope's speed-up
// must fall within 10 % of that.
void TestEvaluation::mtpLayersDraftTokens()
{
    auto deepseek = [](const char* mtp) {
        return test::scenarioFrom({{"model", "deepseek-v3"},
                                   {"weights", "fp8"},
                                   {"gpu", "h200"},
                                   {"gpus", "8"},
                                   {"engine", "vllm"},
                                   {"context", "4096"},
                                   {"batch", "64"},
                                   {"mtp", mtp},
                                   {"acceptance-rate", "0.875"}});
    };
    KVSCOPE_EVALUATE(plain, deepseek("off"));
    KVSCOPE_EVALUATE(mtp, deepseek("on"));
    QCOMPARE(plain.speculative.draftTokens, qint64(0));
    // One MoE decoder layer and its eh_proj: about 11.7 B parameters (the checkpoint's 14 B MTP
    // module less the embedding and lm_head it shares with the model).
    const ParameterCount layer = mtpParameters(deepseek("on").model);
    QVERIFY2(std::fabs(layer.total() / 11.7e9 - 1.0) < 0.03,
             qPrintable(QString::number(layer.total())));
    QVERIFY(mtp.vram.drafterBytes > 0);
    QCOMPARE(mtp.vram.weightsBytes - plain.vram.weightsBytes, mtp.vram.drafterBytes);
    // Its attention keeps KV in the same pool: 62 layers' worth a token instead of 61.
    QCOMPARE(mtp.kv.layers, qint64(62));
    QVERIFY(std::fabs(mtp.kv.bytesPerToken / plain.kv.bytesPerToken - 62.0 / 61.0) < 1e-12);
    // (1 - 0.875^2) / (1 - 0.875) tokens a step; the step checks 2 tokens a sequence and drafts
    // one.
    const SpeculativeTiming& x = mtp.speculative;
    QCOMPARE(x.tokensPerStep, 1.875);
    QVERIFY(std::fabs(x.stepMs - (x.verifyMs + x.draftMs)) < 1e-12);
    QVERIFY(x.verifyMs >= mtp.decode.selectedMs); // more experts, twice the FLOPs
    QVERIFY(std::fabs(x.tokensPerS - 64.0 * 1.875 * 1e3 / x.stepMs) < 1e-9 * x.tokensPerS);
    QVERIFY2(x.speedup > 1.8 * 0.9 && x.speedup < 1.8 * 1.1,
             qPrintable(QString::number(x.speedup)));
    // More drafted tokens yield more a step and cost more to check.
    Scenario three = deepseek("on");
    three.speculative.draftTokens = 3;
    KVSCOPE_EVALUATE(more, three);
    QVERIFY(more.speculative.tokensPerStep > x.tokensPerStep);
    QVERIFY(more.speculative.stepMs > x.stepMs);
    // A model without MTP layers, or an engine that does not draft with them, is refused.
    for (const auto& options : std::vector<std::vector<std::pair<std::string, std::string>>>{
             {{"model", "llama-3.1-8b"}, {"engine", "vllm"}, {"mtp", "on"}},
             {{"model", "deepseek-v3"}, {"engine", "llamacpp"}, {"mtp", "on"}}}) {
        const auto refused = scenarioFromOptions(options, test::catalog());
        QVERIFY(!refused);
        QCOMPARE(refused.error().field, std::string("mtp"));
    }
}

// Llama 3.1 70B on 4 x H100 with Llama 3.1 8B drafting 4 tokens a step, each accepted at 0.7.
void TestEvaluation::aDraftModelDraftsTokens()
{
    auto seventy = [](std::vector<std::pair<std::string, std::string>> more) {
        std::vector<std::pair<std::string, std::string>> o{
            {"model", "llama-3.1-70b"}, {"gpu", "h100-sxm"}, {"gpus", "4"},
            {"engine", "vllm"},         {"context", "8192"}, {"batch", "8"}};
        o.insert(o.end(), more.begin(), more.end());
        return test::scenarioFrom(o);
    };
    const Scenario withDraft = seventy(
        {{"draft-model", "llama-3.1-8b"}, {"speculative-tokens", "4"}, {"acceptance-rate", "0.7"}});
    KVSCOPE_EVALUATE(plain, seventy({}));
    KVSCOPE_EVALUATE(drafted, withDraft);
    // KV a token: the 70B's 80 layers x 2 of its 8 KV heads x 128 x 2 x 2 B = 80 KiB, and the
    // 8B's 32 layers x 2 of 8 heads x 128 x 2 x 2 B = 32 KiB, in one pool.
    QCOMPARE(plain.kv.bytesPerToken, 80.0 * 1024);
    QCOMPARE(drafted.kv.bytesPerToken, 112.0 * 1024);
    QCOMPARE(drafted.kv.draftBytesPerToken, 32.0 * 1024);
    QCOMPARE(drafted.kv.totalBytes, 112.0 * 1024 * 8192 * 8);
    // The draft's weights, a quarter on each GPU, beside the model's.
    const ModelSpec& draft = *withDraft.speculative.draft;
    const ParameterCount dp = countParameters(draft);
    QCOMPARE(drafted.vram.drafterBytes, weightBytes(dp, withDraft.weights) / 4);
    QCOMPARE(drafted.vram.weightsBytes, plain.vram.weightsBytes + drafted.vram.drafterBytes);
    // The step without drafting reads the model's KV only, as before.
    QCOMPARE(drafted.decode.gpuKvReadBytes, plain.decode.gpuKvReadBytes);
    QCOMPARE(drafted.decode.selectedMs, plain.decode.selectedMs);
    // 1 + 0.7 + 0.49 + 0.343 + 0.2401 tokens a step; four draft steps and one check of 5.
    const SpeculativeTiming& x = drafted.speculative;
    QVERIFY(std::fabs(x.tokensPerStep - 2.7731) < 1e-9);
    QVERIFY(std::fabs(x.stepMs - (x.verifyMs + 4 * x.draftMs)) < 1e-12);
    QVERIFY(x.draftMs < x.verifyMs / 3); // an 8B step on the 70B's GPUs
    QVERIFY(x.speedup > 1.0);
    // Refused, naming the setting: another vocabulary, another engine, pipeline stages, and
    // MTP at once.
    for (const auto& more : std::vector<std::vector<std::pair<std::string, std::string>>>{
             {{"draft-model", "llama-2-7b"}},
             {{"draft-model", "llama-3.1-8b"}, {"engine", "tgi"}},
             {{"draft-model", "llama-3.1-8b"}, {"split-mode", "layer"}}}) {
        std::vector<std::pair<std::string, std::string>> o{
            {"model", "llama-3.1-70b"}, {"gpu", "h100-sxm"}, {"gpus", "4"}, {"engine", "vllm"}};
        o.insert(o.end(), more.begin(), more.end());
        const auto refused = scenarioFromOptions(o, test::catalog());
        QVERIFY(!refused);
        QCOMPARE(refused.error().field, std::string("draft_model"));
    }
}

void TestEvaluation::capacityIsWhatCudaReports()
{
    // The seed's RTX 4090: 24 GiB on the board, 25,386,352,640 B = 23.64 GiB as CUDA reports it
    // (deviceQuery, cited in the catalog), so capacity = 24 GiB x 0.9851.
    const Scenario s = scenario();
    QCOMPARE(s.gpu.id, std::string("rtx-4090"));
    QCOMPARE(s.gpu.usableFraction, 0.9851);
    auto e = evaluate(s);
    QVERIFY(e);
    QCOMPARE(e->vram.capacityBytes, 24.0 * 1073741824.0 * 0.9851);
    const auto all = explain(s, *e, ByteUnits::Binary, NumberStyle{}, ExplainWords{});
    QCOMPARE(qs(explanationFor(all, "capacity")),
             QStringLiteral("24.0 GiB \u00d7 0.9851 = 23.6 GiB as CUDA reports it"));
    // A GPU whose catalog entry gives the board's size alone says nothing more.
    Scenario plain = s;
    plain.gpu.usableFraction = 1.0;
    auto p = evaluate(plain);
    QVERIFY(p);
    QVERIFY(explanationFor(explain(plain, *p, ByteUnits::Binary, NumberStyle{}, ExplainWords{}),
                           "capacity")
                .empty());
}

void TestEvaluation::tensorParallelAddsCommunicatorBuffers()
{
    // vLLM on two NVLinked H100s: tensor parallel holds NCCL and all-reduce buffers on each GPU
    // (the catalog's tensor_parallel_overhead_mib); a layer split hands activations over and
    // holds none, and neither do GPUs joined by PCIe alone (the seed's RTX 4090).
    Scenario s = scenario();
    const EngineProfile* vllm = catalog().engine("vllm");
    const GpuSpec* h100 = catalog().gpu("h100-sxm");
    QVERIFY(vllm && vllm->tensorParallelOverheadMiB > 0 && h100 && h100->nvlinkGBps > 0);
    applyEngine(s, *vllm);
    Scenario pcie = s;
    s.gpu = *h100;
    auto one = evaluate(s);
    s.gpuCount = 2;
    auto tensor = evaluate(s);
    s.engine.layerSplit = true;
    auto layers = evaluate(s);
    QVERIFY(one && tensor && layers);
    QCOMPARE(tensor->vram.overheadBytes - one->vram.overheadBytes,
             vllm->tensorParallelOverheadMiB * 1024 * 1024);
    QCOMPARE(layers->vram.overheadBytes, one->vram.overheadBytes);
    QCOMPARE(pcie.gpu.nvlinkGBps, 0.0);
    auto pcieOne = evaluate(pcie);
    pcie.gpuCount = 2;
    auto pcieTwo = evaluate(pcie);
    QVERIFY(pcieOne && pcieTwo);
    QCOMPARE(pcieTwo->vram.overheadBytes, pcieOne->vram.overheadBytes);
}

void TestEvaluation::vllmSamplerFollowsTheModelRunner()
{
    // vLLM profiles 1,024 sampler rows here. Dense models run Model Runner V2, whose greedy
    // profile holds the logits and one FP32 copy (1.5 x 1,024 x 128,256 x 4 B = 788 MB, above
    // the forward's 226 MB plus the logits' 525 MB); MoE models still run the classic runner,
    // whose sorted top-k/top-p holds 9.5 copies (Mixtral: 9.5 x 1,024 x 32,000 x 4 B).
    const EngineProfile* vllm = catalog().engine("vllm");
    QVERIFY(vllm && vllm->classicSamplerLogitCopies > vllm->samplerLogitCopies);
    Scenario dense = scenario("llama-3.1-8b", "h100-sxm");
    applyEngine(dense, *vllm);
    dense.engine.maxNumSeqs = 1024;
    dense.engine.prefillChunkTokens = 2048;
    KVSCOPE_EVALUATE(d, dense);
    QCOMPARE(d.vram.activationBytes, vllm->samplerLogitCopies * 1024 * 128256 * 4);
    Scenario moe = dense;
    moe.model = model("mixtral-8x7b");
    KVSCOPE_EVALUATE(m, moe);
    QCOMPARE(m.vram.activationBytes, vllm->classicSamplerLogitCopies * 1024 * 32000 * 4);
}

// llama.cpp reserves its compute buffer for a ubatch of 512 tokens, every one an output, in F32.
// With flash attention the peak is the logits beside the normed hidden state: Qwen3-30B-A3B at
// 32K on an RTX 3090 Ti logs 300.75 MiB (ikawrakow/ik_llama.cpp#370, mainline b5274), and this
// is 151,936 x 512 x 4 B + 2,048 x 512 x 4 B exactly. Without it a layer's scores over the
// whole cache: 32 heads x 16,384 cells x 512 x 4 B = 1 GiB, logged 1,080 MiB on each of two
// GPUs (ik_llama.cpp#514, b5622). Only the GPU with the output layer holds the logits.
void TestEvaluation::llamaCppComputeBuffersFollowItsGraph()
{
    const EngineProfile* llamacpp = catalog().engine("llamacpp");
    QVERIFY(llamacpp && llamacpp->flashAttention);
    Scenario s = scenario("qwen3-30b-a3b", "rtx-3090-ti");
    applyEngine(s, *llamacpp);
    s.weights = weightFormat("q4_k_m");
    s.context = 32768;
    KVSCOPE_EVALUATE(fused, s);
    const double mib = 1024.0 * 1024.0;
    QCOMPARE(fused.vram.activationBytes / mib, 300.75);
    s.context = 16384;
    s.flashAttention = false;
    KVSCOPE_EVALUATE(scores, s);
    QCOMPARE(scores.vram.activationBytes, 32.0 * 16384 * 512 * 4 + 2 * 2048 * 512 * 4.0);
    // A short context caps the ubatch: 256 cells, 256 tokens.
    s.context = 200;
    KVSCOPE_EVALUATE(shortContext, s);
    QCOMPARE(shortContext.vram.activationBytes, (151936.0 + 2048) * 256 * 4);
    // The output layer left on the CPU (-ngl 48 of 48 layers plus the output): no logits here.
    s.context = 32768;
    s.flashAttention = true;
    s.gpuLayers = 40;
    KVSCOPE_EVALUATE(partial, s);
    QCOMPARE(partial.vram.activationBytes, (2.0 * 768 * 8 + 2.0 * 2048) * 512 * 4);
    // Builds before b6325 ran without flash attention unless -fa said otherwise.
    auto old = scenarioFromOptions({{"model", "qwen3-30b-a3b"},
                                    {"gpu", "rtx-3090-ti"},
                                    {"engine", "llamacpp"},
                                    {"weights", "q4_k_m"},
                                    {"context", "16384"},
                                    {"engine-version", "b5000"}},
                                   catalog());
    QVERIFY2(old.ok(), old ? "" : old.error().message().c_str());
    QVERIFY(!old->engine.flashAttention && !old->flashAttention);
    KVSCOPE_EVALUATE(unfused, *old);
    QCOMPARE(unfused.vram.activationBytes, scores.vram.activationBytes);
}

void TestEvaluation::vllmBatchDefaultsFollowTheGpu()
{
    // vLLM serves 1,024 sequences and 8,192 batched tokens by default on GPUs reporting 70 GiB
    // or more, except A100s; 256 and 2,048 elsewhere (EngineArgs.get_batch_defaults).
    const EngineProfile* vllm = catalog().engine("vllm");
    QVERIFY(vllm);
    struct Expect
    {
        const char* gpu;
        int64_t seqs;
        int64_t tokens;
    };
    for (const Expect& x :
         {Expect{"h100-sxm", 1024, 8192}, Expect{"mi300x", 1024, 8192},
          Expect{"rtx-pro-6000-blackwell", 1024, 8192}, Expect{"a100-80gb", 256, 2048},
          Expect{"l40s", 256, 2048}, Expect{"rtx-4090", 256, 2048}}) {
        Scenario s = scenario("llama-3.1-8b", x.gpu);
        applyEngine(s, *vllm);
        QCOMPARE(s.engine.maxNumSeqs, x.seqs);
        QCOMPARE(s.engine.prefillChunkTokens, x.tokens);
    }
    // Untouched defaults follow a GPU change both ways; a value the user set stays.
    Scenario s = scenario("llama-3.1-8b", "rtx-4090");
    applyEngine(s, *vllm);
    applyGpu(s, gpu("h100-sxm"));
    QCOMPARE(s.engine.maxNumSeqs, int64_t(1024));
    applyGpu(s, gpu("a100-80gb"));
    QCOMPARE(s.engine.maxNumSeqs, int64_t(256));
    QCOMPARE(s.engine.prefillChunkTokens, int64_t(2048));
    s.engine.maxNumSeqs = 64;
    applyGpu(s, gpu("h100-sxm"));
    QCOMPARE(s.engine.maxNumSeqs, int64_t(64));
    QCOMPARE(s.engine.prefillChunkTokens, int64_t(2048));
    QCOMPARE(s.gpu.id, std::string("h100-sxm"));
    // On the command line the order of the options does not matter, and a stated value wins.
    using Options = std::vector<std::pair<std::string, std::string>>;
    for (const Options& options :
         {Options{{"engine", "vllm"}, {"gpu", "h100-sxm"}},
          Options{{"gpu", "h100-sxm"}, {"engine", "vllm"}},
          Options{{"max-num-seqs", "300"}, {"gpu", "h100-sxm"}, {"engine", "vllm"}}}) {
        auto parsed = scenarioFromOptions(options, catalog());
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message().c_str());
        QCOMPARE(parsed->engine.maxNumSeqs, options.size() == 3 ? int64_t(300) : int64_t(1024));
        QCOMPARE(parsed->engine.prefillChunkTokens, int64_t(8192));
    }
    // Engines without GPU-dependent defaults keep theirs.
    Scenario hf = scenario("llama-3.1-8b", "rtx-4090");
    const int64_t chunk = hf.engine.prefillChunkTokens;
    applyGpu(hf, gpu("h100-sxm"));
    QCOMPARE(hf.engine.prefillChunkTokens, chunk);
}

void TestEvaluation::overflowIsReported()
{
    // Llama 2 70B at FP16 is 68,976,648,192 x 2 = 137,953,296,384 B of weights alone: more than
    // five times a 24 GiB (25,769,803,776 B) card.
    KVSCOPE_EVALUATE(e, scenario("llama-2-70b", "rtx-4090"));
    QVERIFY(!e.vram.fits);
    QVERIFY(e.vram.freeBytes < 0);
    QCOMPARE(e.vram.weightsBytes, 137'953'296'384.0);
    QVERIFY(e.vram.freeBytes < 25'769'803'776.0 - 137'953'296'384.0);
    QCOMPARE(e.tokensFit.model, 0);

    const nlohmann::json j = evaluationToJson(scenario("llama-2-70b", "rtx-4090"), e);
    QCOMPARE(j["vram_per_gpu"]["fits"].get<bool>(), false);
    QVERIFY(j["vram_per_gpu"]["free_bytes"].get<double>() < 0);
}

void TestEvaluation::attentionVariantsOrder_data()
{
    QTest::addColumn<QString>("modelId");
    QTest::addRow("llama-2-7b") << "llama-2-7b";
    QTest::addRow("llama-2-13b") << "llama-2-13b";
    // Every layer windowed at 262,144 tokens: the MQA variant stops growing (capped), the
    // others fit fewer tokens than the window, so the order still holds.
    QTest::addRow("phi-3.5-mini") << "phi-3.5-mini";
}

void TestEvaluation::attentionVariantsOrder()
{
    // Fewer KV heads, more tokens: MQA > GQA > MHA, and an MHA model is its own MHA variant.
    QFETCH(QString, modelId);
    Scenario s = scenario(modelId.toStdString(), "rtx-4090");
    s.weights = weightFormat("q4_k_m"); // leave room for KV on a 24 GiB card
    KVSCOPE_EVALUATE(e, s);
    QCOMPARE(s.model.attentionKind(), AttentionKind::Mha);
    const TokensFit& f = e.tokensFit;
    QVERIFY(f.mha > 0);
    QVERIFY2(f.mqa > f.gqa && f.gqa > f.mha,
             qPrintable(QStringLiteral("mqa %1 gqa %2 mha %3").arg(f.mqa).arg(f.gqa).arg(f.mha)));
    QCOMPARE(f.model, f.mha);
    QCOMPARE(f.gqaKvHeads, 8);
    QCOMPARE(f.mla, -1);
}

void TestEvaluation::decodeGrowsWithContext_data()
{
    QTest::addColumn<QString>("modelId");
    QTest::addColumn<QString>("gpuId");
    QTest::addColumn<int>("gpus");
    QTest::addRow("llama-2-7b") << "llama-2-7b"
                                << "rtx-4090" << 1;
    QTest::addRow("mistral-7b-v0.1 (windowed)") << "mistral-7b-v0.1"
                                                << "rtx-4090" << 1;
    QTest::addRow("gpt-oss-20b (half windowed)") << "gpt-oss-20b"
                                                 << "h100-sxm" << 1;
    QTest::addRow("deepseek-v3 (MLA) on 8") << "deepseek-v3"
                                            << "h200" << 8;
}

void TestEvaluation::decodeGrowsWithContext()
{
    // More context never makes a decode step faster, on any tier.
    QFETCH(QString, modelId);
    QFETCH(QString, gpuId);
    QFETCH(int, gpus);
    Scenario s = scenario(modelId.toStdString(), gpuId.toStdString());
    s.gpuCount = gpus;
    auto result = sweep(s, SweepVariable::Context, 256, 1'048'576, 64);
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().message().c_str());
    for (Tier tier : allTiers) {
        const SweepColumn* c = result->column(std::string("decode_ms_") + tierId(tier));
        QVERIFY(c);
        QCOMPARE(c->values.size(), result->x.size());
        for (size_t i = 1; i < c->values.size(); ++i)
            QVERIFY2(c->values[i] >= c->values[i - 1],
                     qPrintable(QStringLiteral("%1 falls from %2 to %3 ms at %4 tokens")
                                    .arg(qs(c->id))
                                    .arg(c->values[i - 1])
                                    .arg(c->values[i])
                                    .arg(result->x[i])));
    }
}

void TestEvaluation::tokensFitGrowWithMemory_data()
{
    QTest::addColumn<QString>("modelId");
    QTest::addRow("llama-2-7b") << "llama-2-7b";
    QTest::addRow("gemma-2-9b (windowed)") << "gemma-2-9b";
    QTest::addRow("deepseek-v2-lite (MLA)") << "deepseek-v2-lite";
}

void TestEvaluation::tokensFitGrowWithMemory()
{
    // More GPU memory never fits fewer tokens, for the model or any attention variant.
    QFETCH(QString, modelId);
    const Scenario s = scenario(modelId.toStdString(), "h100-sxm");
    auto result = sweep(s, SweepVariable::Vram, 4, 1024, 64);
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().message().c_str());
    for (const char* id :
         {"tokens_fit_model", "tokens_fit_mha", "tokens_fit_gqa", "tokens_fit_mqa"}) {
        const SweepColumn* c = result->column(id);
        QVERIFY(c);
        QCOMPARE(c->values.front(), 0.0); // 4 GiB does not even hold the weights
        QVERIFY(c->values.back() > 0);
        for (size_t i = 1; i < c->values.size(); ++i)
            QVERIFY2(c->values[i] >= c->values[i - 1],
                     qPrintable(QStringLiteral("%1 falls at %2 GiB")
                                    .arg(QString::fromUtf8(id))
                                    .arg(result->x[i])));
    }
}

// Evaluates `s` and checks the JSON: only finite numbers, no "nan"/"inf" text, and byte counts
// that are the evaluation's own figures (a size outside int64 must not turn into garbage).
void TestEvaluation::checkFinite(const Scenario& s)
{
    KVSCOPE_EVALUATE(e, s);
    const nlohmann::json j = evaluationToJson(s, e);
    const std::string bad = firstNonFinite(j);
    QVERIFY2(bad.empty(), bad.c_str());
    const std::string text = j.dump();
    QVERIFY(text.find("nan") == std::string::npos && text.find("inf") == std::string::npos);

    const std::pair<const char*, double> sizes[] = {
        {"/kv_cache/per_gpu_bytes", e.kv.totalBytes},
        {"/kv_cache/allocated_per_gpu_bytes", e.kv.allocatedBytes},
        {"/kv_cache/mha_per_gpu_bytes", e.kv.totalMhaBytes},
        {"/kv_cache/gqa_per_gpu_bytes", e.kv.totalGqaBytes},
        {"/kv_cache/mqa_per_gpu_bytes", e.kv.totalMqaBytes},
        {"/vram_per_gpu/kv_cache_bytes", e.vram.kvCacheBytes},
        {"/vram_per_gpu/activation_bytes", e.vram.activationBytes},
        {"/vram_per_gpu/free_bytes", e.vram.freeBytes},
        {"/tokens_fit/free_for_kv_per_gpu_bytes", e.tokensFit.freeForKvBytes},
    };
    for (const auto& [pointer, expected] : sizes) {
        const double shown = j.at(nlohmann::json::json_pointer(pointer)).get<double>();
        QVERIFY2(qAbs(shown - expected) <= qMax(1.0, qAbs(expected) * 1e-9),
                 qPrintable(QStringLiteral("%1: JSON %2, evaluation %3")
                                .arg(QString::fromUtf8(pointer))
                                .arg(shown, 0, 'g', 17)
                                .arg(expected, 0, 'g', 17)));
    }
    for (double ms : e.decode.tierMs)
        QVERIFY(std::isfinite(ms) && ms > 0);
}

void TestEvaluation::extremesStayFinite_data()
{
    QTest::addColumn<QString>("gpuId");
    for (const GpuSpec& g : catalog().gpus)
        QTest::addRow("%s", g.id.c_str()) << qs(g.id);
}

void TestEvaluation::extremesStayFinite()
{
    // Every GPU x every weight format x every KV placement x context 1 / 10^8 x batch 1 / 65,536.
    QFETCH(QString, gpuId);
    Scenario s = scenario("llama-2-7b", gpuId.toStdString());
    for (const WeightFormat& format : catalog().weightFormats) {
        s.weights = format;
        for (KvPlacement placement :
             {KvPlacement::Gpu, KvPlacement::CpuRam, KvPlacement::Nvme, KvPlacement::Sata}) {
            s.kvPlacement = placement;
            for (int64_t context : {limits::minContext, limits::maxContext}) {
                s.context = context;
                for (int64_t batch : {int64_t(1), limits::maxBatch}) {
                    s.batch = batch;
                    checkFinite(s);
                    if (QTest::currentTestFailed()) {
                        qWarning("at %s, %s, context %lld, batch %lld", format.id.c_str(),
                                 kvPlacementId(placement), (long long)context, (long long)batch);
                        return;
                    }
                }
            }
        }
    }
}

void TestEvaluation::everyModelAtExtremes_data()
{
    QTest::addColumn<QString>("modelId");
    for (const ModelSpec& m : catalog().models)
        QTest::addRow("%s", m.id.c_str()) << qs(m.id);
}

void TestEvaluation::everyModelAtExtremes()
{
    // The largest models at the largest context and batch: sizes reach 10^23 bytes.
    QFETCH(QString, modelId);
    Scenario s = scenario(modelId.toStdString(), "h200");
    for (bool offload : {false, true}) {
        s.offloadWeights = offload;
        for (int64_t context : {limits::minContext, limits::maxContext}) {
            s.context = context;
            for (int64_t batch : {int64_t(1), limits::maxBatch}) {
                s.batch = batch;
                checkFinite(s);
                if (QTest::currentTestFailed()) {
                    qWarning("at context %lld, batch %lld, offload %d", (long long)context,
                             (long long)batch, int(offload));
                    return;
                }
            }
        }
    }
}

void TestEvaluation::reloadVsRecompute()
{
    // Llama 2 7B on an RTX 4090. Recompute (prefill) of N tokens costs at least one pass over
    // the 13.2 GB of weights (16.4 ms at 806 GB/s) and then 2 x 6.74e9 FLOP per token at
    // 165 x 0.4 TFLOP/s = 0.204 ms per token. Reload costs KV(N) over the link plus one decode
    // step (>= 16.4 ms): for a handful of tokens recompute wins; over PCIe (0.021 ms per token
    // of KV) reload wins from about 90 tokens. SATA moves 524,288 B per token at 0.56 GB/s =
    // 0.94 ms per token, slower than recomputing it: never within the model's 4,096 tokens.
    KVSCOPE_EVALUATE(e, scenario(), EvaluateOptions{.breakevenCrossings = true});
    const Breakeven& b = e.breakeven;
    QCOMPARE(b.searchedUpTo, 4096);
    const int64_t cpu = b.crossTokens[size_t(ReloadTier::CpuRam)];
    QVERIFY2(cpu > 1 && cpu < 256, qPrintable(QString::number(cpu)));
    const int64_t nvme = b.crossTokens[size_t(ReloadTier::Nvme)];
    QVERIFY2(nvme >= cpu && nvme < 1024, qPrintable(QString::number(nvme)));
    QCOMPARE(b.crossTokens[size_t(ReloadTier::Sata)], -1);
    // At the scenario's 2,048 tokens reload from CPU RAM is the faster way back.
    QVERIFY(b.reloadMs[size_t(ReloadTier::CpuRam)] < b.recomputeMs);
    QVERIFY(b.reloadMs[size_t(ReloadTier::Sata)] > b.recomputeMs);
}

void TestEvaluation::breakevenMatchesCurves_data()
{
    QTest::addColumn<QString>("modelId");
    for (const ModelSpec& m : catalog().models)
        QTest::addRow("%s", m.id.c_str()) << qs(m.id);
}

void TestEvaluation::breakevenMatchesCurves()
{
    // crossTokens means "reload is faster from this prompt length on, up to the longest prompt
    // searched" (-1: recompute is still faster there). Check that against the curves the charts
    // draw: on a sweep from the crossing to the longest prompt searched, reload must beat
    // recompute at every point; with -1 it must lose at the longest prompt. (Below a crossing,
    // reload may win briefly at a few tokens: a MoE prefill touches more experts as it grows.)
    // Eight H200s, so that every model is in its working range.
    QFETCH(QString, modelId);
    Scenario s = scenario(modelId.toStdString(), "h200");
    s.gpuCount = 8;
    KVSCOPE_EVALUATE(e, s, EvaluateOptions{.breakevenCrossings = true});
    const Breakeven& b = e.breakeven;
    const char* curves[] = {"reload_ms_cpu", "reload_ms_nvme", "reload_ms_sata"};
    for (ReloadTier tier : allReloadTiers) {
        const int64_t cross = b.crossTokens[size_t(tier)];
        const double from = cross >= 0 ? double(cross) : 1.0;
        if (from >= double(b.searchedUpTo))
            continue;
        auto curve = sweep(s, SweepVariable::Context, from, double(b.searchedUpTo), 48);
        QVERIFY2(curve.ok(), curve.ok() ? "" : curve.error().message().c_str());
        const SweepColumn* reload = curve->column(curves[size_t(tier)]);
        const SweepColumn* recompute = curve->column("recompute_ms");
        QVERIFY(reload && recompute);
        for (size_t i = 0; i < curve->x.size(); ++i) {
            const bool reloadWins = reload->values[i] < recompute->values[i];
            QVERIFY2(reloadWins == (cross >= 0) || (cross < 0 && i + 1 < curve->x.size()),
                     qPrintable(QStringLiteral("%1 crossing at %2 tokens, but at %3 tokens "
                                               "reload takes %4 ms and recompute %5 ms")
                                    .arg(QString::fromUtf8(reloadTierId(tier)))
                                    .arg(cross)
                                    .arg(curve->x[i])
                                    .arg(reload->values[i])
                                    .arg(recompute->values[i])));
        }
    }
}

void TestEvaluation::plainAgreesWithFull_data()
{
    QTest::addColumn<QString>("modelId");
    QTest::addColumn<QString>("engineId");
    for (const ModelSpec& m : catalog().models)
        for (const EngineProfile& engine : catalog().engines)
            QTest::addRow("%s %s", m.id.c_str(), engine.id.c_str()) << qs(m.id) << qs(engine.id);
}

void TestEvaluation::plainAgreesWithFull()
{
    // The plain evaluation (the default: planners, sweeps) skips the crossing search and nothing
    // else: every other figure is the full one's, bit for bit; the crossings only when asked.
    QFETCH(QString, modelId);
    QFETCH(QString, engineId);
    Scenario s = scenario(modelId.toStdString(), "h100-sxm");
    applyEngine(s, *catalog().engine(engineId.toStdString()));
    s.gpuCount = 2;
    s.context = 8191; // not a multiple of any engine's block
    KVSCOPE_EVALUATE(plain, s);
    KVSCOPE_EVALUATE(full, s, EvaluateOptions{.breakevenCrossings = true});
    auto figures = [](const Evaluation& e, QStringList all = {}) { // bits: -0 or a rounding shows
        forEachNumber(e, [&](const char* name, double v, bool) {
            all << QStringLiteral("%1 %2")
                       .arg(QString::fromUtf8(name))
                       .arg(std::bit_cast<quint64>(v));
        });
        return all;
    };
    Evaluation unsearched = full; // the full evaluation less its crossings
    unsearched.breakeven.crossTokens = {};
    unsearched.breakeven.searchedUpTo = 0;
    QCOMPARE(figures(plain), figures(unsearched)); // so the plain one has no crossings either
    // What forEachNumber leaves out: the flags and the experts as stored.
    const ExpertStorage &pe = plain.experts, &fe = full.experts;
    QVERIFY(plain.vram.fits == full.vram.fits && plain.tokensFit.room == full.tokensFit.room &&
            plain.decode.computeBound == full.decode.computeBound && pe.padded == fe.padded &&
            pe.parameters == fe.parameters && pe.bitsPerWeight == fe.bitsPerWeight &&
            pe.scaleCopies == fe.scaleCopies);
    QVERIFY(full.breakeven.searchedUpTo >= s.context); // asked for, the search ran
}

void TestEvaluation::validateNamesTheField_data()
{
    QTest::addColumn<Mutation>("mutate");
    QTest::addColumn<QString>("field");
    QTest::addRow("context 0") << Mutation([](Scenario& s) { s.context = 0; }) << "context";
    QTest::addRow("context 10^12")
        << Mutation([](Scenario& s) { s.context = int64_t(1'000'000'000'000); }) << "context";
    QTest::addRow("batch 0") << Mutation([](Scenario& s) { s.batch = 0; }) << "batch";
    QTest::addRow("gpus 0") << Mutation([](Scenario& s) { s.gpuCount = 0; }) << "gpus";
    QTest::addRow("32 heads, 5 KV heads")
        << Mutation([](Scenario& s) { s.model.kvHeads = 5; }) << "model.num_key_value_heads";
    QTest::addRow("zero heads") << Mutation([](Scenario& s) { s.model.queryHeads = 0; })
                                << "model.num_attention_heads";
    QTest::addRow("zero KV heads")
        << Mutation([](Scenario& s) { s.model.kvHeads = 0; }) << "model.num_key_value_heads";
    QTest::addRow("gpu memory 0") << Mutation([](Scenario& s) { s.gpu.memoryGiB = 0; })
                                  << "gpu.memory_gib";
    QTest::addRow("NaN efficiency") << Mutation([](Scenario& s) {
        s.efficiency.hbm = std::numeric_limits<double>::quiet_NaN();
    }) << "hbm_efficiency";
    QTest::addRow("infinite bandwidth") << Mutation([](Scenario& s) {
        s.gpu.bandwidthGBps = std::numeric_limits<double>::infinity();
    }) << "gpu.memory_bandwidth_gb_per_s";
    QTest::addRow("3 lanes") << Mutation([](Scenario& s) { s.pcieLanes = 3; }) << "lanes";
}

void TestEvaluation::validateNamesTheField()
{
    QFETCH(Mutation, mutate);
    QFETCH(QString, field);
    Scenario s = scenario();
    QVERIFY(!validate(s));
    mutate(s);
    const auto error = validate(s);
    QVERIFY(error);
    QCOMPARE(qs(error->field), field);
    QVERIFY(!error->accepted.empty());
    QVERIFY(error->message().find(error->field) == 0);
    // evaluate() refuses the same scenario with the same error, never a NaN figure.
    const auto e = evaluate(s);
    QVERIFY(!e.ok());
    QCOMPARE(qs(e.error().field), field);
}

KVSCOPE_TEST_SUITE(TestEvaluation, "tst_evaluation", kvscope::test::SuiteApp::Core)
#include "tst_evaluation.moc"
