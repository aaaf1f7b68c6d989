// SPDX-License-Identifier: GPL-3.0-or-later
// What `validate` takes and how it scores: a case names its model and engine (no silent
// defaults), a model may be a config.json beside the case file as `calc` accepts it, a case
// kvscope predicts not to fit is reported apart rather than as -100 %, and files named *holdout*
// are summarised on their own.

#include "suite_registry.h"
#include "testutils.h"

#include "kvscope/validation/validation_set.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

using namespace kvscope;
using namespace Qt::StringLiterals;

namespace {

nlohmann::json decodeCase(const std::string& id)
{
    return {{"id", id},
            {"kind", "decode"},
            {"engine", "llamacpp"},
            {"model", "llama-2-7b"},
            {"gpu", "rtx-4090"},
            {"settings", {{"weights", "q4_0"}}},
            {"measured", {{"tokens_per_s", 150.0}}},
            {"source", "hand-made for tst_validation_rules"}};
}

} // namespace

class TestValidationRules : public QObject
{
    Q_OBJECT

private slots:
    void aCaseNamesItsModelAndEngine_data()
    {
        QTest::addColumn<QString>("drop");
        QTest::newRow("model") << "model";
        QTest::newRow("engine") << "engine";
    }
    void aCaseNamesItsModelAndEngine()
    {
        QFETCH(QString, drop);
        nlohmann::json c = decodeCase("no-" + drop.toStdString());
        c.erase(drop.toStdString());
        auto cases = validationCasesFromJson(nlohmann::json::array({c}), "hand.json");
        QVERIFY(!cases.ok());
        QCOMPARE(QString::fromStdString(cases.error().field),
                 u"hand.json: no-"_s + drop + u'.' + drop);
        // "unknown" is a statement, not an omission: the source did not say.
        if (drop == QLatin1String("engine")) {
            c["engine"] = "unknown";
            QVERIFY(validationCasesFromJson(nlohmann::json::array({c}), "hand.json").ok());
        }
    }

    void aModelMayBeAConfigBesideTheCaseFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string folder = dir.path().toStdString();
        std::filesystem::create_directories(folder + "/configs");
        std::filesystem::copy_file(KVSCOPE_TEST_DATA_DIR "/data/configs/Llama-2-7b-hf/config.json",
                                   folder + "/configs/llama-2-7b-hf.json");
        nlohmann::json c = decodeCase("by-path");
        c["model"] = "configs/llama-2-7b-hf.json";
        std::ofstream(folder + "/cases.json") << nlohmann::json::array({c}).dump();
        auto cases = loadValidationFile(folder + "/cases.json");
        QVERIFY2(cases.ok(), cases.ok() ? "" : cases.error().message().c_str());
        const ValidationResult byPath = validateCase(cases->front(), test::catalog());
        QVERIFY2(!byPath.skipped(), skipReasonText(byPath).c_str());
        // The same prediction as the catalog's preset of the same config.
        auto preset =
            validationCasesFromJson(nlohmann::json::array({decodeCase("preset")}), "x.json");
        QVERIFY(preset.ok());
        QCOMPARE(byPath.predicted, validateCase(preset->front(), test::catalog()).predicted);
    }

    void aCaseThatDoesNotFitIsReportedApart()
    {
        // Llama 2 70B in FP16 on one RTX 4090 cannot decode; the "measurement" below says it
        // ran. kvscope lists it apart instead of scoring it -100 %.
        nlohmann::json big = decodeCase("70b-fp16-on-a-4090");
        big["model"] = "llama-2-70b";
        big["settings"]["weights"] = "fp16";
        auto cases = validationCasesFromJson(nlohmann::json::array({decodeCase("fits"), big}),
                                             "decode-holdout-hand.json");
        QVERIFY(cases.ok());
        const ValidationReport report = runValidation(*cases, test::catalog());
        QVERIFY(!report.results[0].doesNotFit);
        QVERIFY(report.results[1].doesNotFit);
        const ValidationSummary& s = report.summary(ValidationKind::Decode);
        QCOMPARE(s.evaluated, 1);
        QCOMPARE(s.doesNotFit, 1);
        QCOMPARE(s.medianAbsError, std::fabs(report.results[0].error));
        // Both came from a *holdout* file: the held-out summary holds them too.
        QVERIFY(report.results[0].heldOut && report.results[1].heldOut);
        QCOMPARE(report.heldOut[size_t(ValidationKind::Decode)].evaluated, 1);
        const nlohmann::json j = validationReportToJson(report);
        QVERIFY(j["cases"][1]["does_not_fit"].get<bool>());
        QVERIFY(j["cases"][1]["error"].is_null());
        QCOMPARE(j["summary_held_out"]["decode"]["does_not_fit"].get<int>(), 1);
    }

    void shippedHeldOutSplitHoldsItsFloor()
    {
        // The honest figures: cases no default was fitted to (capacity-holdout-*.json,
        // decode-holdout*.json). Reached when written: capacity 42 compared, median 2.65 %;
        // decode 47 compared, median 20.3 % (Apple silicon, MoE and 1B-class models run slower
        // than bandwidth alone says; see the README; the 44 before the CUDA-graph pairs had
        // 19.5 %, and the three added, H100 PCIe and RTX 3090 Ti 7B runs, miss by 18-85 %); with
        // decode-holdout-vllm.json's 11 (scored once, median 34 %: newer vLLM on one GPU runs MoE
        // layers faster than the fitted 200 µs, DeepSeek-V3 read off a chart slower) 60, median
        // 22.3 %. Issue 43 item 7 moved every case that shaped a rule, boundary or setting to
        // the fit split (resources/validation/SPLITS.md) and counted each measurement once:
        // capacity 19, median 3.08 %; decode 53, median 24.06 %. transformers' generate() step
        // cost, fitted on the fit split, moves gpt-fast's compiled loop (not generate()) from
        // +12 % to -26 %: decode median 24.73 %. decode-holdout-vllm-v2.json's 5 (modern vLLM,
        // Llama 3.1 8B, median 14.7 %): 58, median 23.09 %. Those 5 then shaped vLLM's step cost
        // from v0.11.0 and moved to the fit split: 53, median 24.73 %. Issue 46's blind sets
        // (SGLang, draft models, pipeline parallel, a LoRA pool): capacity 24, median 3.17 %;
        // decode 66, median 23.90 %; with speculative-holdout-v2's five EAGLE-3 runs and its
        // NEXTN run, decode 72, median 22.30 %. SGLang's per-MoE-layer cost (fitted on the fit
        // split) moved three held-out Qwen3-30B-A3B runs; with moe-holdout-v1's nine one-user
        // runs of large MoE models on 8 GPUs (median 29.3 %): decode 81, median 22.44 %. Metal's
        // per-token encoding for llama.cpp on Apple silicon, fitted on the fit split: decode 81,
        // median 20.61 %. llama.cpp#6763's H100 PCIe pair moved to the fit split when llama.cpp's
        // per-layer cost on data-center GPUs was scoped with it in view: decode 77, median
        // 20.33 %. With llamacpp-dc-holdout-v1's 26 blind llama.cpp runs on HBM GPUs (scored with
        // the per-layer cost on HBM: 13.6 %): decode 103, median 17.99 %; with the blind Radeon and
        // Apple runs (16.1 % and 37.0 %): decode 121, median 17.99 %. The nine held-out
        // llama.cpp MoE runs on Apple silicon moved to the fit split when llama.cpp's cost per
        // MoE layer on Metal was drawn from them: decode 113, median 17.51 %; with the twelve
        // blind Apple runs then scored (llamacpp-apple-moe-holdout-v2.json, 18.2 %): decode 125,
        // median 17.51 %. A floor against regressions, never a target.
        const auto dir = findValidationDir(
            defaultDataDirs(QCoreApplication::applicationFilePath().toStdString()));
        QVERIFY(dir);
        auto cases = loadValidationDir(*dir);
        QVERIFY2(cases, cases ? "" : cases.error().message().c_str());
        const ValidationReport report = runValidation(*cases, test::catalog());
        const ValidationSummary& capacity = report.heldOut[size_t(ValidationKind::Capacity)];
        const ValidationSummary& decode = report.heldOut[size_t(ValidationKind::Decode)];
        qInfo("held out: capacity %d, median %.4f; decode %d, median %.4f", capacity.evaluated,
              capacity.medianAbsError, decode.evaluated, decode.medianAbsError);
        QVERIFY(capacity.evaluated >= 24 && capacity.medianAbsError <= 0.0317 + 1e-9);
        QVERIFY(decode.evaluated >= 125 && decode.medianAbsError <= 0.1751 + 1e-4);
    }

    void reportJsonIsFinite()
    {
        const auto dir = findValidationDir(
            defaultDataDirs(QCoreApplication::applicationFilePath().toStdString()));
        QVERIFY(dir);
        auto cases = loadValidationDir(*dir);
        QVERIFY(cases);
        const nlohmann::json j = validationReportToJson(runValidation(*cases, test::catalog()));
        QCOMPARE(j["cases"].size(), cases->size());
        for (const auto& c : j["cases"]) {
            if (c.contains("skipped")) {
                QVERIFY(c["skipped"]["text"].is_string());
                continue;
            }
            for (const char* key : {"predicted", "measured", "error"}) {
                if (std::string(key) == "error" && c["does_not_fit"].get<bool>())
                    continue; // no error is scored for a case predicted not to fit
                QVERIFY2(c[key].is_number() && std::isfinite(c[key].get<double>()),
                         c.dump().c_str());
            }
        }
        for (ValidationKind kind : allValidationKinds) {
            QVERIFY(j["summary"].contains(validationKindId(kind)));
            QVERIFY(j["summary_held_out"].contains(validationKindId(kind)));
        }
    }

    void onlyHoldoutFilesAreHeldOut()
    {
        QVERIFY(isHeldOutFile("capacity-holdout-v0.json"));
        QVERIFY(isHeldOutFile("decode-holdout.json"));
        QVERIFY(!isHeldOutFile("decode.json"));
    }

    // The shipped set's splits come from its history (splits.json): every case file listed, and
    // a case is held out exactly when its file is.
    void shippedSplitsListEveryFile()
    {
        const auto dir = findValidationDir(
            defaultDataDirs(QCoreApplication::applicationFilePath().toStdString()));
        QVERIFY(dir);
        auto splits = loadValidationSplits(*dir);
        QVERIFY2(splits, splits ? "" : splits.error().message().c_str());
        QVERIFY(splits->listed);
        auto cases = loadValidationDir(*dir);
        QVERIFY2(cases, cases ? "" : cases.error().message().c_str());
        for (const ValidationCase& c : *cases)
            QCOMPARE(c.heldOut, splits->isHeldOut(c.file));
        QVERIFY(!splits->isHeldOut("capacity-v3.json")); // moved to fit by its history
        QVERIFY(splits->isHeldOut("serving-holdout-v1.json"));
    }

    void hostileSplits_data()
    {
        QTest::addColumn<QString>("content");
        QTest::addColumn<QString>("field");
        QTest::addRow("no files") << u"{}"_s << u"files"_s;
        QTest::addRow("files not an array") << u"{\"files\": 3}"_s << u"files"_s;
        QTest::addRow("an entry not an object") << u"{\"files\": [1]}"_s << u"files[0]"_s;
        QTest::addRow("no split") << u"{\"files\": [{\"file\": \"a.json\"}]}"_s << u"split"_s;
        QTest::addRow("an unknown split")
            << u"{\"files\": [{\"file\": \"a.json\", \"split\": \"test\"}]}"_s
            << u"fit or held_out"_s;
        QTest::addRow("a holdout file on the fit side")
            << u"{\"files\": [{\"file\": \"a-holdout.json\", \"split\": \"fit\"}]}"_s
            << u"rename"_s;
        QTest::addRow("a file twice") << u"{\"files\": [{\"file\": \"a.json\", \"split\": "
                                         u"\"fit\"}, {\"file\": \"a.json\", \"split\": "
                                         u"\"held_out\"}]}"_s
                                      << u"listed once"_s;
    }

    void hostileSplits()
    {
        QFETCH(QString, content);
        QFETCH(QString, field);
        const auto json = nlohmann::json::parse(content.toStdString());
        auto splits = validationSplitsFromJson(json);
        QVERIFY(!splits);
        const QString message = QString::fromStdString(splits.error().message());
        QVERIFY2(message.contains(field), qPrintable(message));
    }
};

KVSCOPE_TEST_SUITE(TestValidationRules, "tst_validation_rules", kvscope::test::SuiteApp::Core)
#include "tst_validation_rules.moc"
