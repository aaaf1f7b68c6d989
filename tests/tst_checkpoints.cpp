// SPDX-License-Identifier: GPL-3.0-or-later
// Checkpoints as users have them: a quantized checkpoint's config.json chooses its weight format
// (an AWQ 70B is not 131 GiB of FP16). Hybrid and vision checkpoints: tst_hybrid. Files:
// tests/data/configs/checkpoints/SOURCES.md.

#include "suite_registry.h"
#include "testutils.h"

#include "kvscope/formats/config_import.h"
#include "kvscope/settings/scenario_file.h"
#include "kvscope/settings/scenario_options.h"

#include <QtTest>

using namespace kvscope;

namespace {

std::string checkpointPath(const char* name)
{
    return std::string(KVSCOPE_TEST_DATA_DIR "/data/configs/checkpoints/") + name;
}

} // namespace

class TestCheckpoints : public QObject
{
    Q_OBJECT

private slots:
    void quantizationConfigChoosesTheFormat_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("format");
        QTest::newRow("AWQ 4-bit") << "awq-techxgenus-meta-llama-3-70b-awq.json"
                                   << "awq-int4";
        QTest::newRow("GPTQ 4-bit") << "llama-3.1-8b-gptq-int4-assembled.json"
                                    << "gptq-int4";
        QTest::newRow("bitsandbytes NF4") << "bnb-nf4-asif00-bangla-llama-4bit.json"
                                          << "nf4";
        QTest::newRow("bitsandbytes 8-bit") << "llama-3.1-8b-bnb-8bit-assembled.json"
                                            << "int8";
        QTest::newRow("FP8 blocks") << "qwen3-32b-fp8.json"
                                    << "fp8";
        QTest::newRow("MXFP4 experts") << "gpt-oss-20b.json"
                                       << "mxfp4-moe";
    }
    void quantizationConfigChoosesTheFormat()
    {
        QFETCH(QString, file);
        QFETCH(QString, format);
        const Scenario s = test::scenarioFrom({{"model", checkpointPath(qPrintable(file))}});
        QCOMPARE(QString::fromStdString(s.weights.id), format);
        // Saved and reopened, the scenario keeps the checkpoint's format.
        auto reopened = scenarioFromText(scenarioToText(s), test::catalog());
        QVERIFY2(reopened.ok(), reopened.ok() ? "" : reopened.error().message().c_str());
        QCOMPARE(QString::fromStdString(reopened->weights.id), format);
        // --weights after --model still overrides it.
        const Scenario asked =
            test::scenarioFrom({{"model", checkpointPath(qPrintable(file))}, {"weights", "fp16"}});
        QCOMPARE(asked.weights.id, std::string("fp16"));
    }

    void awq70bWeighsWhatItsFilesDo()
    {
        // Llama 3 70B at AWQ 4-bit, group 128 (4.156 bits) with FP16 embeddings and lm_head:
        // 68.5 G body parameters x 4.156 / 8 + 2 x 1.05 G x 2 bytes = about 39.8 GB, not 141 GB.
        const Scenario s = test::scenarioFrom(
            {{"model", checkpointPath("awq-techxgenus-meta-llama-3-70b-awq.json")},
             {"gpu", "h100-sxm"}});
        KVSCOPE_EVALUATE(e, s);
        QVERIFY2(e.weightsBytesTotal > 39.0e9 && e.weightsBytesTotal < 40.5e9,
                 qPrintable(QString::number(e.weightsBytesTotal)));
    }

    void unknownMethodsAreNamed_data()
    {
        QTest::addColumn<QByteArray>("quantization");
        QTest::addColumn<QString>("field");
        QTest::newRow("hqq") << QByteArray(R"({"quant_method": "hqq"})")
                             << "config.quantization_config.quant_method";
        QTest::newRow("AWQ 3-bit") << QByteArray(R"({"quant_method": "awq", "bits": 3})")
                                   << "config.quantization_config.bits";
        QTest::newRow("bnb neither") << QByteArray(R"({"quant_method": "bitsandbytes"})")
                                     << "config.quantization_config.load_in_4bit";
        QTest::newRow("not an object") << QByteArray("7") << "config.quantization_config";
        QTest::newRow("NVFP4 groups")
            << QByteArray(R"({"quant_method": "compressed-tensors", "config_groups": {"group_0":
                   {"weights": {"num_bits": 4, "type": "float"}}}})")
            << "config.quantization_config.config_groups.weights";
    }
    void unknownMethodsAreNamed()
    {
        QFETCH(QByteArray, quantization);
        QFETCH(QString, field);
        nlohmann::json config = modelToConfig(test::model("llama-2-7b"));
        config["quantization_config"] = nlohmann::json::parse(quantization.toStdString());
        auto m = modelFromConfig(config, "x");
        QVERIFY(!m.ok());
        QCOMPARE(QString::fromStdString(m.error().field), field);
    }
};

KVSCOPE_TEST_SUITE(TestCheckpoints, "tst_checkpoints", kvscope::test::SuiteApp::Core)
#include "tst_checkpoints.moc"
