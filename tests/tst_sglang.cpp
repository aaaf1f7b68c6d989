// SPDX-License-Identifier: GPL-3.0-or-later
// SGLang: the default --mem-fraction-static worked by hand from server_args.py's reserve, the
// budget it leaves (activations and graphs outside it), and the launch command's flags for
// several nodes, MTP drafting and the radix cache.
#include "kvscope/engines/engine_module.h"
#include "kvscope/engines/launch_command.h"
#include "kvscope/scenario/reserved_memory.h"
#include "suite_registry.h"
#include "testutils.h"

#include <QtTest>

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
                                 "--mem-fraction-static 0.785", "--kv-cache-dtype fp8_e4m3",
                                 "--speculative-algorithm NEXTN --speculative-num-steps 3",
                                 "--speculative-num-draft-tokens 4", "--disable-radix-cache"})
            QVERIFY2(has(c.text, flag), flag);
        QVERIFY(!c.notes.empty() && has(c.notes.front(), "--node-rank 0 to 1"));
        // One GPU: no parallel flags at all.
        const LaunchCommand one = launchCommand(scenarioFrom({{"engine", "sglang"}}));
        QVERIFY(!has(one.text, "--tp-size") && !has(one.text, "--nnodes"));
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
