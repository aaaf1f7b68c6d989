// SPDX-License-Identifier: GPL-3.0-or-later
// Scenarios side by side: the difference table's figures against hand-computed ones, its text,
// saved comparisons (pinned scenarios in a scenario file) and `kvscope-cli compare`.

#include "cli_runner.h"
#include "suite_registry.h"
#include "testutils.h"

#include "kvscope/io/comparison_json.h"
#include "kvscope/settings/scenario_file.h"
#include "kvscope/text/comparison_text.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace kvscope;
using namespace Qt::StringLiterals;

namespace {

Scenario llama(const std::string& weights, int64_t context = 8192)
{
    return test::scenarioFrom(
        {{"model", "llama-2-7b"}, {"weights", weights}, {"context", std::to_string(context)}});
}

const ComparedFigure& figure(const Comparison& c, const std::string& id)
{
    for (const ComparedFigure& f : c.figures)
        if (f.id == id)
            return f;
    qFatal("no figure %s", id.c_str());
}

void writeFile(const QString& path, const std::string& text)
{
    std::ofstream(path.toStdString()) << text;
}

} // namespace

class TestCompare : public QObject
{
    Q_OBJECT

private slots:
    void figuresMatchHandComputedOnes()
    {
        auto c = compareScenarios({{"FP16", llama("fp16")}, {"Q8", llama("q8_0")}});
        QVERIFY(c.ok());
        QCOMPARE(c->names, (std::vector<std::string>{"FP16", "Q8"}));
        // Llama 2 7B: 6,738,415,616 parameters at 2 bytes; the KV cache is 2 (K and V) x 32
        // layers x 4,096 x 2 bytes = 512 KiB a token whatever the weights, 4 GiB at 8,192.
        const ComparedFigure& weights = figure(*c, "weights_bytes_all_gpus");
        QCOMPARE(*weights.values[0], 13476831232.0);
        const ComparedFigure& perToken = figure(*c, "kv_bytes_per_token_per_gpu");
        QCOMPARE(*perToken.values[0], 524288.0);
        QCOMPARE(*perToken.values[1], 524288.0);
        QCOMPARE(*figure(*c, "kv_bytes_per_gpu").values[1], 4294967296.0);
        // The change against the first: the difference and the ratio, from the two figures.
        const auto change = changeOf(weights, 1);
        QVERIFY(change && change->ratio);
        QCOMPARE(change->absolute, *weights.values[1] - 13476831232.0);
        QCOMPARE(*change->ratio, *weights.values[1] / 13476831232.0);
        QCOMPARE(changeOf(perToken, 1)->absolute, 0.0);
        // Only the weight format differs.
        QCOMPARE(c->inputs.size(), size_t(1));
        QCOMPARE(c->inputs[0].id, std::string("weights"));
        QCOMPARE(c->inputs[0].values, (std::vector<std::string>{"fp16", "q8_0"}));
        QVERIFY(!c->modelsDiffer);
    }

    void relativeChangeReadsAsPeopleSayIt()
    {
        ComparedFigure f{
            "x", "x", FigureKind::Milliseconds, {100.0, 52.0, 230.0, 100.0, -5.0, 0.4}};
        QCOMPARE(relativeChangeText(f, 1), std::string("-48 %"));
        QCOMPARE(relativeChangeText(f, 2), std::string("+2.3x"));
        QCOMPARE(relativeChangeText(f, 3), std::string("0 %"));
        QCOMPARE(relativeChangeText(f, 4), std::string("")); // a change of sign has no ratio
        QCOMPARE(relativeChangeText(f, 5), std::string("-100 %"));
        Comparison c;
        QCOMPARE(absoluteChangeText(c, f, 1, ByteUnits::Binary), std::string("-48.0 ms"));
        QCOMPARE(absoluteChangeText(c, f, 2, ByteUnits::Binary), std::string("+130 ms"));
        ComparedFigure zero{"z", "z", FigureKind::Tokens, {0.0, 10.0}};
        QCOMPARE(relativeChangeText(zero, 1), std::string(""));
        QCOMPARE(absoluteChangeText(c, zero, 1, ByteUnits::Binary), std::string("+10"));
    }

    void aScenarioThatDoesNotRunHasNoSpeed()
    {
        // Llama 2 70B in FP16 on one RTX 4090 does not fit: no decode speed, no time to first
        // token, and the table says so with a dash instead of a would-be figure.
        Scenario big = test::scenarioFrom({{"model", "llama-2-70b"}});
        auto c = compareScenarios({{"7B", llama("fp16")}, {"70B", big}});
        QVERIFY(c.ok());
        QVERIFY(c->modelsDiffer);
        QCOMPARE(*figure(*c, "runs").values[1], 0.0);
        QVERIFY(!figure(*c, "tokens_per_s").values[1]);
        QVERIFY(!figure(*c, "ttft_ms").values[1]);
        QVERIFY(!changeOf(figure(*c, "tokens_per_s"), 1));
        // Nor a running cost, a longest context of 0 or 0 sequences: no figure, no "+94x".
        for (const char* id :
             {"cost_per_hour", "cost_per_million_tokens", "cost_per_million_prompt_tokens",
              "longest_context_tokens", "max_concurrency"})
            QVERIFY2(!figure(*c, id).values[1], id);
        QVERIFY(!changeOf(figure(*c, "cost_per_hour"), 1));
        const std::string text = comparisonText(*c, ByteUnits::Binary);
        QVERIFY(text.find("The scenarios are of different models.") != std::string::npos);
        QVERIFY(text.find("—") != std::string::npos);
        QVERIFY(text.find("Llama 2 70B") != std::string::npos); // the model row differs
    }

    void defaultNamesSayWhatDiffers()
    {
        QCOMPARE(differenceName(llama("q8_0"), llama("fp16")), test::weightFormat("q8_0").name);
        Scenario a100 = test::scenarioFrom({{"model", "llama-2-7b"},
                                            {"gpu", "a100-80gb"},
                                            {"engine", "vllm"},
                                            {"context", "8192"},
                                            {"weights", "fp16"}});
        QCOMPARE(differenceName(a100, llama("fp16")),
                 test::gpu("a100-80gb").name + ", " + a100.engine.name);
        QCOMPARE(differenceName(llama("fp16"), llama("fp16")), std::string());
    }

    void markdownAndCsvCarryEveryScenario()
    {
        auto c =
            compareScenarios({{"A", llama("fp16")}, {"B", llama("q8_0")}, {"C", llama("q4_k_m")}});
        QVERIFY(c.ok());
        const std::string md = comparisonText(*c, ByteUnits::Binary, SummaryStyle::Markdown);
        QVERIFY(md.find("|  | A | B | B vs A | C | C vs A |") != std::string::npos);
        QVERIFY(md.find("### Inputs that differ") != std::string::npos);
        const std::string csv = comparisonCsv(*c);
        QVERIFY(csv.rfind("row,id,A,B,B change,B ratio,C,C change,C ratio\n", 0) == 0);
        QVERIFY(csv.find("figure,kv_bytes_per_token_per_gpu,524288,524288,0,1,524288,0,1\n") !=
                std::string::npos);
        const nlohmann::json j = comparisonToJson(*c);
        QCOMPARE(j["scenarios"].size(), size_t(3));
        QCOMPARE(j["figures"][1]["id"].get<std::string>(), std::string("weights_bytes_all_gpus"));
        QVERIFY(j["figures"][1]["change_vs_first"][0].is_null());
        QVERIFY(j["figures"][1]["change_vs_first"][2]["ratio"].get<double>() < 0.4);
    }

    void aSavedComparisonRoundTrips()
    {
        ScenarioFile file{llama("fp16"),
                          {{"4-bit", llama("q4_k_m")}, {"8-bit", llama("q8_0", 4096)}}};
        const std::string text = scenarioFileToText(file);
        QVERIFY(text.find("\"kvscope_scenario\": 2") != std::string::npos);
        auto back = scenarioFileFromText(text, test::catalog());
        QVERIFY2(back.ok(), back ? "" : back.error().message().c_str());
        QCOMPARE(back->pinned.size(), size_t(2));
        QCOMPARE(back->pinned[0].name, std::string("4-bit"));
        QCOMPARE(back->pinned[1].scenario.context, int64_t(4096));
        QCOMPARE(scenarioFileToText(*back), text);
        // The live scenario alone still reads the same file (the pinned ones are extra).
        auto live = scenarioFromText(text, test::catalog());
        QVERIFY(live.ok());
        QCOMPARE(live->weights.id, std::string("fp16"));
    }

    void olderFilesStillOpen()
    {
        auto old =
            scenarioFileFromText(R"({"kvscope_scenario": 1, "weights": "q8_0"})", test::catalog());
        QVERIFY(old.ok());
        QVERIFY(old->pinned.empty());
        QCOMPARE(old->scenario.weights.id, std::string("q8_0"));
    }

    void badPinnedScenariosAreNamed_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("field");
        QTest::addRow("not a list") << R"({"kvscope_scenario": 2, "pinned": 3})"
                                    << "scenario.pinned";
        QTest::addRow("five") << R"({"kvscope_scenario": 2, "pinned": [{},{},{},{},{}]})"
                              << "scenario.pinned";
        QTest::addRow("no name") << R"({"kvscope_scenario": 2, "pinned": [{"scenario": {}}]})"
                                 << "scenario.pinned[0].name";
        QTest::addRow("long name")
            << uR"({"kvscope_scenario": 2, "pinned": [{"name": "%1", "scenario": {}}]})"_s.arg(
                   QString(49, QLatin1Char('x')))
            << "scenario.pinned[0].name";
        QTest::addRow("bad weights")
            << R"({"kvscope_scenario": 2, "pinned": [{"name": "a", "scenario": {}}, {"name": "b", "scenario": {"weights": "fp3"}}]})"
            << "scenario.pinned[1].weights";
        QTest::addRow("nested")
            << R"({"kvscope_scenario": 2, "pinned": [{"name": "a", "scenario": {"pinned": []}}]})"
            << "scenario.pinned[0].scenario";
    }

    void badPinnedScenariosAreNamed()
    {
        QFETCH(QString, text);
        QFETCH(QString, field);
        auto file = scenarioFileFromText(text.toStdString(), test::catalog());
        QVERIFY(!file.ok());
        QCOMPARE(QString::fromStdString(file.error().field), field);
    }

    void namesAreCutBetweenCharacters()
    {
        // 47 ASCII characters and then Japanese: the cut falls after the 48th character, not
        // inside its three UTF-8 bytes.
        const std::string name = std::string(47, 'x') + "量子化の比較";
        QCOMPARE(pinnedNameFrom(name), std::string(47, 'x') + "量");
        QCOMPARE(pinnedNameFrom("fp16"), std::string("fp16"));
        // A pinned name that is not UTF-8 (a file name's bytes) still saves.
        ScenarioFile file{llama("fp16"), {{std::string("caf\xE9"), llama("q8_0")}}};
        QVERIFY(scenarioFileToText(file).find("caf\xEF\xBF\xBD") != std::string::npos);
    }

    void cliComparesFiles()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(u"fp16.kvscope.json"_s),
                      b = dir.filePath(u"q8.kvscope.json"_s);
        writeFile(a, scenarioToText(llama("fp16")));
        writeFile(b, scenarioFileToText({llama("q8_0"), {{"4-bit", llama("q4_k_m")}}}));
        auto r = test::runCli({"compare", a.toStdString(), b.toStdString()});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.find("fp16  ") != std::string::npos);
        QVERIFY(r.out.find("4-bit vs fp16") != std::string::npos);
        r = test::runCli({"compare", a.toStdString(), b.toStdString(), "--json"});
        QCOMPARE(r.code, 0);
        const auto j = nlohmann::json::parse(r.out);
        QVERIFY(j["scenarios"] == nlohmann::json({"fp16", "q8", "4-bit"}));
        // A file name that is not UTF-8 (Latin-1 "café") names its column all the same.
        const std::string latin1 = dir.path().toStdString() + "/caf\xE9.kvscope.json";
        std::ofstream(latin1) << scenarioToText(llama("q8_0"));
        r = test::runCli({"compare", a.toStdString(), latin1, "--json"});
        QCOMPARE(r.code, 0);
        QCOMPARE(nlohmann::json::parse(r.out)["scenarios"][1].get<std::string>(),
                 std::string("caf\xEF\xBF\xBD"));
        r = test::runCli({"compare", a.toStdString(), b.toStdString(), "--csv"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.rfind("row,id,fp16,q8,", 0) == 0);
    }

    void cliRefusesWhatItCannotCompare()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(u"a.kvscope.json"_s),
                      bad = dir.filePath(u"bad.kvscope.json"_s);
        writeFile(a, scenarioToText(llama("fp16")));
        writeFile(bad, R"({"kvscope_scenario": 2, "context": -4})");
        auto r = test::runCli({"compare", a.toStdString()});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.find("two or more scenario files") != std::string::npos);
        r = test::runCli({"compare", a.toStdString(), bad.toStdString()});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find("bad.kvscope.json: scenario.context") != std::string::npos,
                 r.err.c_str());
        r = test::runCli({"compare", a.toStdString(), a.toStdString(), a.toStdString(),
                          a.toStdString(), a.toStdString(), a.toStdString()});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.find("at most 5") != std::string::npos);
    }
};

KVSCOPE_TEST_SUITE(TestCompare, "tst_compare", kvscope::test::SuiteApp::Core)
#include "tst_compare.moc"
