// SPDX-License-Identifier: GPL-3.0-or-later
// llama.cpp's KV cache as llama_model::create_memory lays it out, build by build
// (resources/catalog/engines.json, llamacpp "kv_layout" and "releases"): a sliding-window
// model's windowed layers in their own smaller cache (llama_kv_cache_iswa) from b5429, and an MLA
// model's latent from b5137. Every figure is worked out by hand next to its row, in FP16 (2 bytes
// an element).

#include "suite_registry.h"
#include "testutils.h"

#include <QtTest>

using namespace kvscope;
using namespace kvscope::test;

class TestLlamaCppCache : public QObject
{
    Q_OBJECT

private slots:
    void allocation_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("build"); // "" = the latest modelled (b10573)
        QTest::addColumn<int>("context");
        QTest::addColumn<int>("batch");
        QTest::addColumn<int>("ubatch"); // 0 = llama-server's 512
        QTest::addColumn<double>("bytes");
        QTest::addColumn<int>("windowHeld"); // cells a windowed layer holds per sequence

        // Gemma 3 12B: 48 layers, every 6th global (8 full, 40 windowed), window 1024; 8 KV heads
        // x head_dim 256 x 2 (K, V) x 2 bytes = 8,192 B per token and layer. Full layers hold
        // n_ctx = 32,768 cells: 8 x 32,768 = 262,144 layer-cells.
        // b10573, one sequence: no -np = 4 slots over one cache (tools/server/server.cpp):
        // PAD256(4 x 1024 + 512) = 4,608 cells; 8,192 x (262,144 + 40 x 4,608) = 3,488 MiB.
        QTest::newRow("gemma3 latest") << "llamacpp"
                                       << "gemma-3-12b"
                                       << "" << 32768 << 1 << 0 << 3'657'433'088.0 << 4608;
        // -ub 1024: PAD256(4 x 1024 + 1024) = 5,120; 8,192 x (262,144 + 204,800) = 3,648 MiB.
        QTest::newRow("gemma3 latest ub1024")
            << "llamacpp"
            << "gemma-3-12b"
            << "" << 32768 << 1 << 1024 << 3'825'205'248.0 << 5120;
        // -np 4: one stream per sequence (kv_unified false), each PAD256(1024 + 512) = 1,536;
        // 4 x 8,192 x (262,144 + 40 x 1,536) = 4 x 2,528 MiB = 10,112 MiB.
        QTest::newRow("gemma3 latest np4") << "llamacpp"
                                           << "gemma-3-12b"
                                           << "" << 32768 << 4 << 0 << 10'603'200'512.0 << 1536;
        // 2,048 tokens: min(n_ctx 2,048, 4,608) = the whole context; 8,192 x 48 x 2,048 = 768 MiB.
        QTest::newRow("gemma3 latest short") << "llamacpp"
                                             << "gemma-3-12b"
                                             << "" << 2048 << 1 << 0 << 805'306'368.0 << 2048;
        // b6900 (#16812: no padding; one slot): 1,024 + 512 = 1,536 cells; 2,528 MiB.
        QTest::newRow("gemma3 b6900") << "llamacpp"
                                      << "gemma-3-12b"
                                      << "b6900" << 32768 << 1 << 0 << 2'650'800'128.0 << 1536;
        // b6000 -np 4: one stream for all (before b6071), PAD32(4 x 1,024 + 512) = 4,608 cells,
        // 1,152 a sequence; 8 x 131,072 x 8,192 + 40 x 4,608 x 8,192 = 9,632 MiB.
        QTest::newRow("gemma3 b6000 np4") << "llamacpp"
                                          << "gemma-3-12b"
                                          << "b6000" << 32768 << 4 << 0 << 10'099'884'032.0 << 1152;
        // b5500 (#13194, before #13833): PAD32(1,024 + n_batch 2,048) = 3,072 cells;
        // 8,192 x (262,144 + 122,880) = 3,008 MiB.
        QTest::newRow("gemma3 b5500") << "llamacpp"
                                      << "gemma-3-12b"
                                      << "b5500" << 32768 << 1 << 0 << 3'154'116'608.0 << 3072;
        // b5000 (before iSWA): every layer holds n_ctx; 8,192 x 48 x 32,768 = 12 GiB.
        QTest::newRow("gemma3 b5000") << "llamacpp"
                                      << "gemma-3-12b"
                                      << "b5000" << 32768 << 1 << 0 << 12'884'901'888.0 << 0;
        // vLLM keeps the window as the model says: 8,192 x (262,144 + 40 x 1,024) = 2,368 MiB.
        QTest::newRow("gemma3 vllm") << "vllm"
                                     << "gemma-3-12b"
                                     << "" << 32768 << 1 << 0 << 2'483'027'968.0 << 1024;
        // Mistral 7B v0.1 converts to LLM_ARCH_LLAMA, which reads no window: every layer holds
        // the context. 8 x 128 x 2 x 2 = 4,096 B x 32 layers x 32,768 = 4 GiB.
        QTest::newRow("mistral latest") << "llamacpp"
                                        << "mistral-7b-v0.1"
                                        << "" << 32768 << 1 << 0 << 4'294'967'296.0 << 0;

        // DeepSeek-V3, 61 layers, 4,096 tokens. Since b7832 K only: (512 + 64) x 2 = 1,152 B;
        // x 61 x 4,096 = 274.5 MiB.
        QTest::newRow("deepseek latest") << "llamacpp"
                                         << "deepseek-v3"
                                         << "" << 4096 << 1 << 0 << 287'834'112.0 << 0;
        // b5137-b7831: K (576) and V (512): 1,088 x 2 = 2,176 B x 61 x 4,096 = 518.5 MiB.
        QTest::newRow("deepseek b7000") << "llamacpp"
                                        << "deepseek-v3"
                                        << "b7000" << 4096 << 1 << 0 << 543'686'656.0 << 0;
        // Before b5137: 128 heads x (K 192 + V 128) x 2 = 81,920 B x 61 x 4,096 = 19,520 MiB
        // (K 11,712 MiB + V 7,808 MiB).
        QTest::newRow("deepseek b5000") << "llamacpp"
                                        << "deepseek-v3"
                                        << "b5000" << 4096 << 1 << 0 << 20'468'203'520.0 << 0;
    }

    void allocation()
    {
        QFETCH(QString, engine);
        QFETCH(QString, model);
        QFETCH(QString, build);
        QFETCH(int, context);
        QFETCH(int, batch);
        QFETCH(int, ubatch);
        QFETCH(double, bytes);
        QFETCH(int, windowHeld);
        std::vector<std::pair<std::string, std::string>> options{
            {"engine", engine.toStdString()},
            {"model", model.toStdString()},
            {"kv-dtype", "fp16"},
            {"context", std::to_string(context)},
            {"batch", std::to_string(batch)},
            {"gpu", "h200"}};
        if (!build.isEmpty())
            options.emplace_back("engine-version", build.toStdString());
        if (ubatch > 0)
            options.emplace_back("max-num-batched-tokens", std::to_string(ubatch));
        const Scenario s = scenarioFrom(options);
        KVSCOPE_EVALUATE(e, s);
        QCOMPARE(e.kv.allocatedBytes, bytes);
        QCOMPARE(e.kv.tokensHeldPerWindowedLayer, int64_t(windowHeld));
        QCOMPARE(e.engine.kvBufferBytes, bytes); // what llama.cpp logs as its KV buffers
    }

    void buildsAreChecked()
    {
        // "5429" and "b5429" name the same build; anything past the latest is refused with the
        // range and the builds where the rules change.
        const Scenario plain = scenarioFrom({{"engine", "llamacpp"}, {"engine-version", "5000"}});
        QCOMPARE(plain.engine.kvLayout.windows, EngineProfile::KvLayout::Windows::FullContext);
        auto refused =
            scenarioFromOptions({{"engine", "llamacpp"}, {"engine-version", "b99999"}}, catalog());
        QVERIFY(!refused);
        const std::string message = refused.error().message();
        QVERIFY2(message.find("a llama.cpp (llama-server) build from b1 to b10573 (its rules "
                              "change at b5137, b5429") != std::string::npos,
                 message.c_str());
        QVERIFY(
            !scenarioFromOptions({{"engine", "llamacpp"}, {"engine-version", "0.8.2"}}, catalog()));
        QVERIFY(!scenarioFromOptions({{"engine", "vllm"}, {"engine-version", "b5000"}}, catalog()));
    }
};

KVSCOPE_TEST_SUITE(TestLlamaCppCache, "tst_llamacpp_cache", kvscope::test::SuiteApp::Core)
#include "tst_llamacpp_cache.moc"
