// SPDX-License-Identifier: GPL-3.0-or-later
// SGLang: the default --mem-fraction-static worked by hand from server_args.py's reserve, the
// budget it leaves (activations and graphs outside it), and the launch command's flags for
// several nodes, MTP drafting and the radix cache.
#include "kvscope/engines/engine_module.h"
#include "kvscope/engines/launch_command.h"
#include "kvscope/model/eagle_head.h"
#include "kvscope/model/parameters.h"
#include "kvscope/model/roofline.h"
#include "kvscope/scenario/reserved_memory.h"
#include "kvscope/settings/scenario_options.h"
#include "suite_registry.h"
#include "testutils.h"

#include <QtTest>

#include <cmath>
#include <tuple>

using namespace kvscope;
using test::scenarioFrom;

namespace {

bool has(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

class TestSglang : public QObject
{
    Q_OBJECT

private slots:
    void defaultShareFollowsTheReserve()
    {
        // An H100 reports 80 x 0.9901 x 1,024 = 81,109 MiB: the 60 GiB-160 GiB tier, chunks of
        // 8,192 and decode graphs up to 256 below tensor parallel 4. Reserve: 512 + 8,192 x 1.5
        // + 1/8 x 1,024 + 256 x 2 + 58 prefill graph sizes x 8 = 13,904 MiB, above the 10 GiB
        // floor; (81,109 - 13,904) / 81,109 = 0.829.
        const Scenario h100 =
            scenarioFrom({{"engine", "sglang"}, {"model", "llama-3.1-8b"}, {"gpu", "h100-sxm"}});
        const ReservedMemoryDefaults d = reservedMemoryDefaults(h100);
        QCOMPARE(d.chunkedPrefillTokens, qint64(8192));
        QCOMPARE(d.graphMaxBatch, qint64(256));
        QCOMPARE(d.reservedMiB, 13904.0);
        QCOMPARE(h100.effectiveMemoryFraction(), 0.829);
        QCOMPARE(engineModule(h100.engine).profiledTokens(h100), qint64(8192));

        // DeepSeek-R1 (MLA) on 2 x 8 H100: 512 + 12,288 + 16/8 x 1,024 + 512 x 2 + 1,536 for
        // MLA's prefill graphs = 17,408 MiB; (81,109 - 17,408) / 81,109 = 0.785.
        const Scenario r1 = scenarioFrom({{"engine", "sglang"},
                                          {"model", "deepseek-r1"},
                                          {"gpu", "h100-sxm"},
                                          {"gpus", "16"},
                                          {"nodes", "2"},
                                          {"weights", "fp8"}});
        QCOMPARE(reservedMemoryDefaults(r1).reservedMiB, 17408.0);
        QCOMPARE(r1.effectiveMemoryFraction(), 0.785);

        // A 24 GiB card: chunks of 2,048, graphs to 24, no floor. 512 + 2,048 x 1.5 + 128 + 48
        // + 42 sizes x 8 = 4,096 MiB.
        const Scenario rtx = scenarioFrom({{"engine", "sglang"}, {"gpu", "rtx-4090"}});
        QCOMPARE(reservedMemoryDefaults(rtx).reservedMiB, 4096.0);
        // A stated share wins, and another engine has no reserve rule.
        QCOMPARE(
            scenarioFrom({{"engine", "sglang"}, {"gpu-mem-util", "0.9"}}).effectiveMemoryFraction(),
            0.9);
        QCOMPARE(reservedMemoryDefaults(scenarioFrom({{"engine", "vllm"}})).reservedMiB, 0.0);
    }

    void budgetHoldsWeightsAndKvOnly()
    {
        const Scenario s =
            scenarioFrom({{"engine", "sglang"}, {"model", "llama-3.1-8b"}, {"gpu", "h100-sxm"}});
        KVSCOPE_EVALUATE(e, s);
        QCOMPARE(e.vram.budgetBytes, e.vram.capacityBytes * 0.829);
        QCOMPARE(e.vram.activationBytes, 0.0);
        // The CUDA context is taken before SGLang measures the free memory it takes a share of.
        QCOMPARE(e.vram.overheadBytes, 300.0 * 0.829 * 1024 * 1024);
        // Token-sized pages: nothing rounded up.
        QCOMPARE(e.kv.allocatedBytes, e.kv.totalBytes);
    }

    void launchCarriesTheParallelFlags()
    {
        const LaunchCommand c = launchCommand(scenarioFrom({{"engine", "sglang"},
                                                            {"model", "deepseek-r1"},
                                                            {"gpu", "h100-sxm"},
                                                            {"gpus", "16"},
                                                            {"nodes", "2"},
                                                            {"weights", "fp8"},
                                                            {"kv-dtype", "fp8"},
                                                            {"mtp", "on"},
                                                            {"speculative-tokens", "3"},
                                                            {"prefix-caching", "off"}}));
        QVERIFY2(
            has(c.text, "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-R1"),
            c.text.c_str());
        for (const char* flag : {"--tp-size 8", "--pp-size 2", "--nnodes 2 --node-rank 0",
                                 // NEXTN reserves 2 GiB more: (81,109 - 19,456) / 81,109
                                 "--mem-fraction-static 0.76 ", "--kv-cache-dtype fp8_e4m3",
                                 "--speculative-algorithm NEXTN --speculative-num-steps 3",
                                 "--speculative-num-draft-tokens 4", "--disable-radix-cache"})
            QVERIFY2(has(c.text, flag), flag);
        QVERIFY(!c.notes.empty() && has(c.notes.front(), "--node-rank 0 to 1"));
        // One GPU: no parallel flags at all.
        const LaunchCommand one = launchCommand(scenarioFrom({{"engine", "sglang"}}));
        QVERIFY(!has(one.text, "--tp-size") && !has(one.text, "--nnodes"));
    }

    // Data-parallel attention (--enable-dp-attention) for DeepSeek-R1 on 8 x H200 and 64 users:
    // each GPU holds whole attention (7/8 of it beyond its share) and the MLA latent of its own
    // 8 requests, where tensor parallel keeps every request's latent on every GPU. Its graphs
    // reserve 512 x 8 x 3 + 512 x 8 x 1.5 = 18,432 MiB more.
    void dataParallelAttention()
    {
        const std::vector<std::pair<std::string, std::string>> r1{
            {"engine", "sglang"}, {"model", "deepseek-r1"}, {"gpu", "h200"}, {"gpus", "8"},
            {"weights", "fp8"},   {"context", "32768"},     {"users", "64"}};
        auto with = [&](const char* dp) {
            auto options = r1;
            options.push_back({"dp-attention", dp});
            return scenarioFrom(options);
        };
        const Scenario tp = with("off"), dp = with("on");
        KVSCOPE_EVALUATE(eTp, tp);
        KVSCOPE_EVALUATE(eDp, dp);
        QCOMPARE(eDp.kv.sequencesPerGpu, qint64(8));
        QVERIFY(qFuzzyCompare(eDp.kv.totalBytes, eTp.kv.totalBytes / 8));
        const double attention = countParameters(dp.model).attention * 1.0; // FP8: a byte each
        QVERIFY(std::fabs(eDp.vram.attentionReplicaBytes - attention * 7 / 8) < attention * 1e-6);
        QVERIFY(qFuzzyCompare(eDp.vram.weightsBytes,
                              eTp.vram.weightsBytes + eDp.vram.attentionReplicaBytes));
        QCOMPARE(reservedMemoryDefaults(dp).reservedMiB - reservedMemoryDefaults(tp).reservedMiB,
                 18432.0);
        // Each rank fills its own pool: concurrency is 8 ranks' worth.
        QCOMPARE(eDp.tokensFit.maxConcurrency % 8, qint64(0));
        const LaunchCommand c = launchCommand(dp);
        QVERIFY2(has(c.text, "--tp-size 8") && has(c.text, "--enable-dp-attention --dp-size 8"),
                 c.text.c_str());
        // Over several GPUs, with no replicas beside it; not llama.cpp's (vLLM's: tst_nodes).
        for (const auto& [key, value] : std::vector<std::pair<const char*, const char*>>{
                 {"engine", "llamacpp"}, {"gpus", "1"}, {"replicas", "2"}}) {
            auto options = r1;
            options.push_back({"dp-attention", "on"});
            options.push_back({key, value});
            const auto refused = scenarioFromOptions(options, test::catalog());
            QVERIFY2(!refused.ok() || validate(*refused), key);
        }
    }

    // Llama 3.1 8B's EAGLE-3 head, by hand: q, k and v read 2 x 4,096 wide (4,096 x 6,144 more
    // than a plain layer's 41,943,040), the MLP 3 x 4,096 x 14,336, fc 3 x 4,096^2, lm_head
    // 32,000 x 4,096 and four norms: 424,689,664 parameters, 849,379,328 bytes in 16 bits. Its
    // one layer's KV, 2 x 8 x 128 x 2 = 4,096 bytes a token, sits beside the model's. SGLang
    // reserves 2 GiB more for it (13,904 + 2,048 MiB); each step checks the tree's 8 best
    // tokens and runs 5 draft passes of 4 tokens a sequence. EAGLE (one) shares the model's
    // embedding and lm_head: 41,943,040 + 176,160,768 + 2 x 4,096^2 + 3 x 4,096 = 251,670,528.
    void eagleHeads()
    {
        const Scenario s = scenarioFrom({{"engine", "sglang"},
                                         {"model", "llama-3.1-8b"},
                                         {"gpu", "h100-sxm"},
                                         {"eagle", "eagle3"},
                                         {"speculative-tokens", "5"},
                                         {"eagle-topk", "4"},
                                         {"verify-tokens", "8"},
                                         {"acceptance-rate", "0.8"}});
        const EagleHead head = eagleHead(s.model, EagleMethod::Eagle3);
        QCOMPARE(head.held.total(), 424689664.0);
        QCOMPARE(head.fc, 50331648.0);
        KVSCOPE_EVALUATE(e, s);
        QCOMPARE(e.vram.drafterBytes, 849379328.0);
        QCOMPARE(e.kv.draftBytesPerToken, 4096.0);
        QCOMPARE(reservedMemoryDefaults(s).reservedMiB, 13904.0 + 2048.0);
        QCOMPARE(e.speculative.verifiedTokens, qint64(8));
        QVERIFY(qFuzzyCompare(e.speculative.stepMs,
                              e.speculative.verifyMs + 5 * e.speculative.draftMs));
        // A draft pass reads the head and its layer's KV at the GPU's achieved rate, and pays
        // the layer's fixed cost and a forward's (the engine's step overhead).
        const double rate = s.gpu.bandwidthGBps * s.efficiency.hbm;
        const double draftMs = transferMs(849379328.0, rate) + transferMs(4096.0 * 2048, rate) +
                               engineModule(s.engine).layerOverheadUs(s) / 1e3 +
                               s.engine.stepOverheadUs / 1e3;
        QVERIFY2(std::fabs(e.speculative.draftMs - draftMs) < 1e-9,
                 std::to_string(e.speculative.draftMs).c_str());
        const LaunchCommand c = launchCommand(s);
        QVERIFY2(has(c.text, "--speculative-algorithm EAGLE3 --speculative-draft-model-path "
                             "EAGLE_HEAD --speculative-num-steps 5 --speculative-eagle-topk 4 "
                             "--speculative-num-draft-tokens 8"),
                 c.text.c_str());
        QCOMPARE(eagleHead(s.model, EagleMethod::Eagle).held.total(), 251670528.0);
        QCOMPARE(eagleHead(s.model, EagleMethod::Eagle).read.lmHead, 128256.0 * 4096);
        // What the head cannot do is refused, naming the setting.
        for (const auto& [key, value, field] :
             std::vector<std::tuple<const char*, const char*, const char*>>{
                 {"engine", "llamacpp", "eagle"},
                 {"model", "deepseek-r1", "eagle"},
                 {"verify-tokens", "90", "verify_tokens"},
                 {"mtp", "on", "eagle"}}) {
            std::vector<std::pair<std::string, std::string>> options{
                {"engine", "sglang"},        {"gpu", "h200"},          {"gpus", "8"},
                {"eagle", "eagle3"},         {"eagle-topk", "4"},      {"verify-tokens", "8"},
                {"speculative-tokens", "5"}, {"model", "llama-3.1-8b"}};
            options.push_back({key, value});
            const auto refused = scenarioFromOptions(options, test::catalog());
            const auto error = refused.ok() ? validate(*refused) : refused.error();
            QVERIFY2(error && error->field == field, key);
        }
        // NEXTN drafts with DeepSeek's MTP layer as EAGLE does, trees and all.
        const Scenario nextn = scenarioFrom({{"engine", "sglang"},
                                             {"model", "deepseek-v3"},
                                             {"weights", "fp8"},
                                             {"gpu", "h200"},
                                             {"gpus", "8"},
                                             {"mtp", "on"},
                                             {"speculative-tokens", "2"},
                                             {"eagle-topk", "4"},
                                             {"verify-tokens", "4"}});
        KVSCOPE_EVALUATE(tree, nextn);
        QCOMPARE(tree.speculative.verifiedTokens, qint64(4));
        QVERIFY2(has(launchCommand(nextn).text,
                     "--speculative-algorithm NEXTN --speculative-num-steps 2 "
                     "--speculative-eagle-topk 4 --speculative-num-draft-tokens 4"),
                 launchCommand(nextn).text.c_str());
        const auto vllmTree = scenarioFromOptions(
            {{"engine", "vllm"}, {"eagle", "eagle"}, {"eagle-topk", "2"}}, test::catalog());
        QVERIFY(!vllmTree.ok() || validate(*vllmTree));
    }

    // SGLang's LoRA pool, 8 slots of rank 16 on Llama 3.1 8B: each decoder layer's q, k, v, o,
    // gate, up and down hold A [r, in] (qkv's 3r x 4,096, gate_up's 2r x 4,096) and B [out, r]:
    // 7 x 4,096 + 2 x 4,096 + 2 x 1,024 + 3 x 14,336 = 81,920 values per rank, x 32 layers x 16 x
    // 8 slots x 2 B = 671,088,640 B; vLLM's adds the embedding's and lm_head's slots. The pool
    // is allocated before the KV cache is sized, so the KV pool gives it up.
    void loraPool()
    {
        auto with = [](const char* engine, const char* loras) {
            return scenarioFrom({{"engine", engine},
                                 {"model", "llama-3.1-8b"},
                                 {"gpu", "h100-sxm"},
                                 {"max-loras", loras}});
        };
        KVSCOPE_EVALUATE(sglang, with("sglang", "8"));
        KVSCOPE_EVALUATE(plain, with("sglang", "0"));
        KVSCOPE_EVALUATE(vllm, with("vllm", "8"));
        QCOMPARE(sglang.vram.loraBytes, 671088640.0);
        QCOMPARE(vllm.vram.loraBytes - sglang.vram.loraBytes, 8.0 * 16 * 2 * (128256 + 4096) * 2);
        QVERIFY(std::fabs(plain.tokensFit.freeForKvBytes - sglang.tokensFit.freeForKvBytes -
                          671088640.0) < 1.0);
        const LaunchCommand c = launchCommand(with("sglang", "8"));
        QVERIFY2(has(c.text, "--enable-lora --max-loras-per-batch 8 --max-lora-rank 16"),
                 c.text.c_str());
        const auto sharded = scenarioFromOptions(
            {{"engine", "sglang"}, {"max-loras", "8"}, {"fully-sharded-loras", "on"}},
            test::catalog());
        const auto error = sharded.ok() ? validate(*sharded) : sharded.error();
        QVERIFY(error && error->field == "fully_sharded_loras");
    }

    void catalogEntry()
    {
        const EngineProfile* sglang = test::catalog().engine("sglang");
        QVERIFY(sglang);
        QCOMPARE(sglang->family, EngineFamily::Sglang);
        QCOMPARE(sglang->reservedMemory.tiers.size(), size_t(5));
        QVERIFY(!sglang->reservedMemory.source.empty());
        QVERIFY(sglang->prefixCache.onByDefault);
        QVERIFY(!sglang->runsOn("Apple"));
    }
};

KVSCOPE_TEST_SUITE(TestSglang, "tst_sglang", kvscope::test::SuiteApp::Core)
#include "tst_sglang.moc"
