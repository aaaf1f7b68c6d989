// SPDX-License-Identifier: GPL-3.0-or-later
// Text Generation Inference: the KV budget its warm-up leaves (CUDA_MEMORY_FRACTION x
// TGI_WIGGLE_ROOM), the launcher's default max_batch_prefill_tokens worked by hand from
// launcher/src/main.rs, and the text-generation-launcher command with only its documented flags.
#include "kvscope/engines/engine_module.h"
#include "kvscope/engines/launch_command.h"
#include "suite_registry.h"
#include "testutils.h"

#include <QtTest>

using namespace kvscope;
using test::scenarioFrom;

namespace {

int64_t prefillTokens(const Scenario& s)
{
    return engineModule(s.engine).profiledTokens(s);
}

} // namespace

class TestTgi : public QObject
{
    Q_OBJECT

private slots:
    void budgetIsTheFractionTimesTheWiggleRoom()
    {
        const Scenario s = scenarioFrom({{"engine", "tgi"}, {"model", "llama-3.1-8b"}});
        QCOMPARE(s.effectiveMemoryFraction(), 0.9);
        KVSCOPE_EVALUATE(e, s);
        QCOMPARE(e.vram.budgetBytes, e.vram.capacityBytes * 0.9);
        // Paged KV in blocks of one token (flashinfer): nothing is rounded up.
        QCOMPARE(e.kv.allocatedBytes, e.kv.totalBytes);
        // No CUDA graphs in the budget: they are captured after the KV cache, in the margin.
        QCOMPARE(e.vram.overheadBytes, 300.0 * 1024 * 1024);
    }

    void prefillDefaultFollowsTheLaunchersRule()
    {
        // Llama 3.1 8B, Config::flop per token: attention 2 x 32 x 128 x 4,096 x 3 +
        // 2 x 8 x 128 x 4,096 x 2 = 117,440,512; MLP 2 x 3 x 4,096 x 14,336 = 352,321,536;
        // x 32 layers = 15,032,385,536. An H100 at TGI's 900 TFLOP/s: 59,870 tokens, under
        // max_position_embeddings (131,072) and the VRAM cap (about 255,000).
        QCOMPARE(prefillTokens(scenarioFrom(
                     {{"engine", "tgi"}, {"model", "llama-3.1-8b"}, {"gpu", "h100-sxm"}})),
                 qint64(59'870));
        // Two shards: twice the FLOP/s.
        QCOMPARE(prefillTokens(scenarioFrom({{"engine", "tgi"},
                                             {"model", "llama-3.1-8b"},
                                             {"gpu", "h100-sxm"},
                                             {"gpus", "2"}})),
                 qint64(119'741));
        // Llama 2 7B stops at its max_position_embeddings.
        QCOMPARE(prefillTokens(scenarioFrom(
                     {{"engine", "tgi"}, {"model", "llama-2-7b"}, {"gpu", "h100-sxm"}})),
                 qint64(4096));
        // An RTX 4090 is not in the table under nvidia-smi's name: the 4,096 fallback. On an
        // RTX 6000 Ada (48 GB) the VRAM cap is far above it.
        QCOMPARE(prefillTokens(scenarioFrom(
                     {{"engine", "tgi"}, {"model", "llama-3.1-8b"}, {"gpu", "rtx-6000-ada"}})),
                 qint64(4096));
        // A T4 barely holds the FP16 weights: vram_maximum = (16 GiB as CUDA reports it x 0.95
        // - 14,449,770,496 B of weights by TGI's count) / 260,096 B per token.
        const Scenario t4 =
            scenarioFrom({{"engine", "tgi"}, {"model", "llama-3.1-8b"}, {"gpu", "t4"}});
        const double available = 16.0 * (1 << 30) * t4.gpu.usableFraction * 0.95;
        QCOMPARE(prefillTokens(t4), qint64(std::floor((available - 14'449'770'496.0) / 260'096.0)));
        QVERIFY(prefillTokens(t4) < 4096);
        // A value the user gives wins.
        QCOMPARE(prefillTokens(scenarioFrom({{"engine", "tgi"},
                                             {"model", "llama-3.1-8b"},
                                             {"max-batch-prefill-tokens", "8192"}})),
                 qint64(8192));
    }

    void launcherCommand()
    {
        const LaunchCommand c = launchCommand(scenarioFrom({{"engine", "tgi"},
                                                            {"model", "llama-3.1-8b"},
                                                            {"gpus", "2"},
                                                            {"context", "32768"},
                                                            {"kv-dtype", "fp8"},
                                                            {"batch", "200"},
                                                            {"gpu-mem-util", "0.72"}}));
        QCOMPARE(c.text, std::string("text-generation-launcher --model-id "
                                     "meta-llama/Llama-3.1-8B \\\n"
                                     "  --num-shard 2 \\\n"
                                     "  --max-total-tokens 32768 \\\n"
                                     "  --cuda-memory-fraction 0.8 \\\n"
                                     "  --dtype float16 \\\n"
                                     "  --kv-cache-dtype fp8_e4m3fn \\\n"
                                     "  --max-concurrent-requests 200"));
        QVERIFY(c.source.find("reference/launcher") != std::string::npos);
        // A share above the default wiggle room is reached through TGI_WIGGLE_ROOM.
        const LaunchCommand wide = launchCommand(scenarioFrom({{"engine", "tgi"},
                                                               {"gpu-mem-util", "0.95"},
                                                               {"weights", "awq-int4"},
                                                               {"model", "llama-3.1-70b"}}));
        QVERIFY(wide.text.rfind("TGI_WIGGLE_ROOM=0.95 text-generation-launcher ", 0) == 0);
        QVERIFY(wide.text.find("--quantize awq") != std::string::npos);
        QVERIFY(wide.text.find("--cuda-memory-fraction") == std::string::npos);
    }

    void settingsTgiLacksAreSaid()
    {
        const LaunchCommand c = launchCommand(
            scenarioFrom({{"engine", "tgi"}, {"kv-dtype", "q8_0"}, {"kv-placement", "cpu"}}));
        QVERIFY(c.text.find("--kv-cache-dtype") == std::string::npos);
        QCOMPARE(c.notes.size(), size_t(2)); // the KV dtype, the placement
        // Weights TGI does not load give no command, as calc's caution says.
        const LaunchCommand gguf =
            launchCommand(scenarioFrom({{"engine", "tgi"}, {"weights", "q4_k_m"}}));
        QVERIFY(gguf.text.empty());
        QVERIFY(gguf.refusal.find("does not load weights in q4_k_m") != std::string::npos);
        const EngineProfile* tgi = test::catalog().engine("tgi");
        QVERIFY(tgi);
        QVERIFY(!tgi->supportsKvDtype("q8_0"));
        QVERIFY(!tgi->supportsKvPlacement("cpu"));
        QVERIFY(!tgi->runsOn("Apple"));
        QVERIFY(!tgi->source.empty() && tgi->prefillDefault.fallbackTokens == 4096);
    }
};

KVSCOPE_TEST_SUITE(TestTgi, "tst_tgi", kvscope::test::SuiteApp::Core)
#include "tst_tgi.moc"
