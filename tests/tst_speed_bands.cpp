// SPDX-License-Identifier: GPL-3.0-or-later
// Speed classes and their error bands (issue 43): which class a scenario's speed is judged in,
// the validation set's error per class, the bands written from it and read back (hostile files
// too), and the figures that carry them: decode, serving's time per token and first token, and a
// prompt alone's first token.

#include "suite_registry.h"
#include "testutils.h"

#include "kvscope/base/statistics.h"
#include "kvscope/io/result_json.h"
#include "kvscope/io/serving_json.h"
#include "kvscope/planning/serving.h"
#include "kvscope/scenario/speed_class.h"
#include "kvscope/settings/scenario_defaults.h"
#include "kvscope/text/text_summary.h"
#include "kvscope/validation/validation_set.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

using namespace kvscope;
using namespace kvscope::test;
using namespace Qt::StringLiterals;

class TestSpeedBands : public QObject
{
    Q_OBJECT

private slots:
    void quantilesBySelectionMatchTheSorted();
    void speedClassesNameEngineGpuMoeAndWeights();
    void decodeErrorBySpeedClass();
    void shippedBandsAreTheSetsOwn();
    void decodeFiguresCarryTheirBand();
    void servingFiguresCarryTheirBand();
    void servingRowsBecomeTwoCases();
    void aBenchmarksFirstWaveArrivesTogether();
    void replicasShareTheBenchmarksUsers();
    void draftingCasesCompareTheDraftingSpeed();
    void hostileSpeedBandFiles_data();
    void hostileSpeedBandFiles();
};

// One definition of a quantile: by selection (the queue's percentile waits) as on sorted values
// (the bands), interpolated between neighbours; the median of an even count is the middle mean.
void TestSpeedBands::quantilesBySelectionMatchTheSorted()
{
    std::vector<double> values;
    for (int i = 0; i < 101; ++i)
        values.push_back(std::fmod(i * 37.0, 101.0) / 3.0); // 0..33.3, shuffled
    std::vector<double> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    for (const double q : {0.0, 0.1, 0.25, 0.5, 0.9, 0.955, 1.0}) {
        std::vector<double> copy = values;
        QCOMPARE(quantileOf(copy, q), quantileOfSorted(sorted, q));
    }
    QCOMPARE(medianOf({4, 1, 3, 2}), 2.5);
    std::vector<double> none;
    QCOMPARE(quantileOf(none, 0.9), 0.0);
}

// The class a speed figure is judged in: engine family, GPU class, dense or MoE, 16-bit or
// quantized (issue 43).
void TestSpeedBands::speedClassesNameEngineGpuMoeAndWeights()
{
    QCOMPARE(speedClassOf(
                 scenarioFrom({{"model", "llama-3.1-8b"}, {"gpu", "h100-sxm"}, {"engine", "vllm"}}))
                 .id(),
             std::string("vllm/datacenter/dense/16-bit"));
    QCOMPARE(speedClassOf(scenarioFrom({{"model", "mixtral-8x7b"},
                                        {"gpu", "rtx-4090"},
                                        {"engine", "llamacpp"},
                                        {"weights", "q4_k_m"}}))
                 .id(),
             std::string("llamacpp/consumer/moe/quantized"));
    QCOMPARE(speedClassOf(scenarioFrom({{"model", "llama-2-7b"},
                                        {"gpu", "m2-ultra"},
                                        {"engine", "llamacpp"},
                                        {"weights", "q8_0"}}))
                 .id(),
             std::string("llamacpp/apple/dense/quantized"));
    QCOMPARE(speedClassOf(
                 scenarioFrom({{"model", "llama-2-7b"}, {"gpu", "rtx-a6000"}, {"engine", "hf"}}))
                 .id(),
             std::string("transformers/workstation/dense/16-bit"));
    // Drafting speeds group among themselves at every level, never into the plain step's.
    QCOMPARE(speedClassLevels("vllm/datacenter/moe/quantized/drafting"),
             (std::vector<std::string>{"vllm/datacenter/moe/quantized/drafting",
                                       "vllm/datacenter/drafting", "vllm/drafting"}));
    QCOMPARE(
        speedClassLevels("vllm/datacenter/moe/quantized"),
        (std::vector<std::string>{"vllm/datacenter/moe/quantized", "vllm/datacenter", "vllm"}));
}

// Errors grouped by class, fit and held out apart, by hand: the medians, the signed median and
// the worst case; skipped and not-fitting cases count in no error.
void TestSpeedBands::decodeErrorBySpeedClass()
{
    auto result = [](const char* cls, double error, bool heldOut) {
        ValidationResult r;
        r.kind = ValidationKind::Decode;
        r.speedClass = cls;
        r.error = error;
        r.heldOut = heldOut;
        return r;
    };
    std::vector<ValidationResult> results{result("a", 0.10, false), result("a", -0.30, false),
                                          result("a", 0.20, true), result("b", 0.50, true),
                                          result("b", 0.70, true)};
    results.push_back(result("b", 9.0, true));
    results.back().doesNotFit = true;
    ValidationResult capacity = result("a", 5.0, false);
    capacity.kind = ValidationKind::Capacity;
    results.push_back(capacity);
    const std::vector<ClassSummary> classes = summarizeByClass(ValidationKind::Decode, results);
    QCOMPARE(classes.size(), size_t(2));
    QCOMPARE(classes[0].speedClass, std::string("a"));
    QCOMPARE(classes[0].fit.evaluated, 2);
    QCOMPARE(classes[0].fit.medianAbsError, 0.20); // |0.10| and |-0.30|
    QCOMPARE(classes[0].heldOut.evaluated, 1);
    QCOMPARE(classes[0].heldOut.medianAbsError, 0.20);
    QCOMPARE(classes[0].medianSignedError, 0.10); // -0.30, 0.10, 0.20
    QCOMPARE(classes[0].worstError, -0.30);
    QCOMPARE(classes[1].fit.evaluated, 0);
    QCOMPARE(classes[1].heldOut.evaluated, 2);
    QCOMPARE(classes[1].heldOut.doesNotFit, 1);
    QCOMPARE(classes[1].medianSignedError, 0.60);
    // The shipped set: every decode case that was compared has its class.
    const auto dir =
        findValidationDir(defaultDataDirs(QCoreApplication::applicationFilePath().toStdString()));
    QVERIFY(dir);
    auto cases = loadValidationDir(*dir);
    QVERIFY(cases);
    const ValidationReport report = runValidation(*cases, catalog());
    for (const ValidationResult& r : report.results)
        if (r.kind == ValidationKind::Decode && !r.skipped())
            QVERIFY2(!r.speedClass.empty(), r.id.c_str());
    QVERIFY(report.decodeClasses.size() >= 5);
}

// speed_bands.json is what validate computes from the shipped set (kvscope-cli validate
// --write-bands): a case added or a default refitted without rewriting it fails here.
void TestSpeedBands::shippedBandsAreTheSetsOwn()
{
    const auto dir =
        findValidationDir(defaultDataDirs(QCoreApplication::applicationFilePath().toStdString()));
    QVERIFY(dir);
    auto cases = loadValidationDir(*dir);
    QVERIFY(cases);
    const SpeedBands computed = speedBandsFrom(runValidation(*cases, catalog()).results);
    QVERIFY(catalog().speedBands);
    const SpeedBands& shipped = *catalog().speedBands;
    QCOMPARE(shipped.size(), computed.size());
    for (const auto& [id, band] : computed) {
        const auto it = shipped.find(id);
        QVERIFY2(it != shipped.end(), id.c_str());
        QVERIFY2(std::fabs(it->second.low - band.low) < 1e-9 &&
                     std::fabs(it->second.high - band.high) < 1e-9 &&
                     it->second.cases == band.cases,
                 (id + ": run kvscope-cli validate --write-bands "
                       "resources/catalog/speed_bands.json")
                     .c_str());
    }
    // By hand, under 10 cases: lowest and highest; from 10: 10th and 90th percentiles.
    auto result = [](double error) {
        ValidationResult r;
        r.speedClass = "c";
        r.error = error;
        return r;
    };
    std::vector<ValidationResult> few{result(0.3), result(-0.2), result(0.1)};
    QCOMPARE(speedBandsFrom(few).at("c").low, -0.2);
    QCOMPARE(speedBandsFrom(few).at("c").high, 0.3);
    std::vector<ValidationResult> many;
    for (int i = 0; i <= 10; ++i)
        many.push_back(result(0.1 * i)); // 0.0 ... 1.0: 10th percentile 0.1, 90th 0.9
    QCOMPARE(speedBandsFrom(many).at("c").low, 0.1);
    QCOMPARE(speedBandsFrom(many).at("c").high, 0.9);
    QCOMPARE(speedBandsFrom(many).at("c").cases, 11);
}

// calc's text and JSON give the decode figure its class's band, or say there is none.
void TestSpeedBands::decodeFiguresCarryTheirBand()
{
    const Scenario measured = scenarioFrom({{"model", "llama-2-7b"},
                                            {"gpu", "rtx-3090"},
                                            {"engine", "llamacpp"},
                                            {"weights", "q4_0"}});
    const SpeedBand band = decodeBandOf(measured);
    QVERIFY(band.usable() && band.low <= band.high);
    KVSCOPE_EVALUATE(e, measured);
    const nlohmann::json j = evaluationToJson(measured, e);
    QCOMPARE(j["latency"]["band"]["class"].get<std::string>(),
             std::string("llamacpp/consumer/dense/quantized"));
    QCOMPARE(j["latency"]["band"]["cases"].get<int>(), band.cases);
    QCOMPARE(j["latency"]["band"]["step_time_low"].get<double>(), band.low);
    const std::string text = textSummary(measured, e, ByteUnits::Binary);
    QVERIFY2(text.find("measurements)") != std::string::npos, text.c_str());
    // TGI on an RTX 4090: no TGI run on a consumer GPU was measured, so the band is the broader
    // class's, every TGI measurement, and says so.
    const Scenario broader =
        scenarioFrom({{"model", "llama-3.1-8b"}, {"gpu", "rtx-4090"}, {"engine", "tgi"}});
    const SpeedBand tgi = decodeBandOf(broader);
    QVERIFY(tgi.usable());
    QCOMPARE(tgi.classId, std::string("tgi"));
    QCOMPARE(tgi.cases, catalog().speedBands->at("tgi").cases);
    KVSCOPE_EVALUATE(b, broader);
    QCOMPARE(evaluationToJson(broader, b)["latency"]["band"]["class"].get<std::string>(),
             std::string("tgi"));
    // Without a table no class is measured, and calc says so.
    Scenario unmeasured =
        scenarioFrom({{"model", "llama-3.1-8b"}, {"gpu", "h100-sxm"}, {"engine", "tgi"}});
    unmeasured.speedBands = nullptr;
    QCOMPARE(decodeBandOf(unmeasured).cases, 0);
    KVSCOPE_EVALUATE(u, unmeasured);
    QVERIFY(!evaluationToJson(unmeasured, u)["latency"]["band"].contains("step_time_low"));
    QVERIFY(textSummary(unmeasured, u, ByteUnits::Binary).find("no band") != std::string::npos);
}

// The serving rows' bands reach calc's serving section and its JSON; a class with none says so.
void TestSpeedBands::servingFiguresCarryTheirBand()
{
    const Scenario measured = scenarioFrom({{"model", "gpt-oss-120b"},
                                            {"gpu", "h100-sxm"},
                                            {"gpus", "8"},
                                            {"engine", "vllm"},
                                            {"weights", "mxfp4-moe"},
                                            {"batch", "16"}});
    const SpeedBand tpot = speedBandOf(measured, SpeedFigure::Tpot);
    QVERIFY(tpot.usable() && tpot.low <= tpot.high);
    QVERIFY(speedBandOf(measured, SpeedFigure::Ttft).usable());
    const nlohmann::json j =
        servingToJson(measured, serving(measured, catalog().engines), false)["engines"][0];
    QCOMPARE(j["band"]["time_per_output_token"]["cases"].get<int>(), tpot.cases);
    QCOMPARE(j["band"]["time_per_output_token"]["time_per_output_token_low"].get<double>(),
             tpot.low);
    QVERIFY(j["band"]["ttft"].contains("ttft_high"));
    KVSCOPE_EVALUATE(e, measured);
    const std::string text = textSummary(measured, e, ByteUnits::Binary);
    QVERIFY2(text.find("time per output token (") != std::string::npos, text.c_str());
    // The first token of a prompt alone has its band from the rows at one user.
    QVERIFY2(text.find("first token alone, measured against this") != std::string::npos,
             text.c_str());
    // No TGI serving row was measured at all (a TGI serving sweep has none of vLLM's).
    const Scenario unmeasured =
        scenarioFrom({{"model", "llama-3.1-8b"}, {"gpu", "h100-sxm"}, {"engine", "tgi"}});
    QCOMPARE(speedBandOf(unmeasured, SpeedFigure::Tpot).cases, 0);
    KVSCOPE_EVALUATE(u, unmeasured);
    const std::string none = textSummary(unmeasured, u, ByteUnits::Binary);
    QVERIFY(none.find("time per output token, measured against this") != std::string::npos);
    QVERIFY(none.find("no band: no measurement of this class") != std::string::npos);
}

// A decode case that drafts (vLLM's MTP, stated by the setting names a case file uses) compares
// the drafting speed, in a class of its own whose band never mixes with the plain step's.
void TestSpeedBands::draftingCasesCompareTheDraftingSpeed()
{
    const nlohmann::json file = nlohmann::json::array({{{"id", "d"},
                                                        {"kind", "decode"},
                                                        {"engine", "vllm"},
                                                        {"model", "deepseek-r1"},
                                                        {"gpu", "h200"},
                                                        {"gpus", 8},
                                                        {"settings",
                                                         {{"weights", "fp8"},
                                                          {"batch", 1},
                                                          {"context", 2048},
                                                          {"mtp", true},
                                                          {"num_speculative_tokens", 1},
                                                          {"acceptance_rate", 0.82}}},
                                                        {"measured", {{"tokens_per_s", 30.0}}},
                                                        {"source", "https://example.org"}}});
    auto cases = validationCasesFromJson(file, "decode-x.json");
    QVERIFY2(cases, cases ? "" : cases.error().message().c_str());
    const Scenario s = *scenarioForCase(cases->at(0), catalog()).scenario;
    QVERIFY(s.speculative.mtp);
    QCOMPARE(s.speculative.acceptance, 0.82);
    KVSCOPE_EVALUATE(e, s);
    const ValidationResult r = validateCase(cases->at(0), catalog());
    QCOMPARE(r.predicted, e.speculative.tokensPerS);
    QVERIFY(r.predicted > e.decode.tokensPerS);
    QCOMPARE(r.speedClass, std::string("vllm/datacenter/moe/quantized/drafting"));
    const SpeedBands bands = speedBandsFrom({r});
    QVERIFY(bands.count("vllm/drafting") == 1 && bands.count("vllm") == 0);
}

namespace {

// One serving row of Llama 3.1 8B on an H100 under vLLM, as a validation file holds it.
nlohmann::json servingRow(const nlohmann::json& workload, const nlohmann::json& measured)
{
    return nlohmann::json::array({{{"id", "r"},
                                   {"kind", "serving"},
                                   {"engine", "vllm"},
                                   {"model", "llama-3.1-8b"},
                                   {"gpu", "h100-sxm"},
                                   {"gpus", 1},
                                   {"settings", {{"weights", "bf16"}}},
                                   {"workload", workload},
                                   {"measured", measured},
                                   {"source", "https://example.org"}}});
}

} // namespace

// bench_serving with --max-concurrency C and R requests sends the first C prompts at once: the
// mean first token weighs "prompts at once" by C of the R requests and the steady one by the
// rest. Without a request count the row is read as steady.
void TestSpeedBands::aBenchmarksFirstWaveArrivesTogether()
{
    nlohmann::json row = servingRow({{"input_tokens", 1024},
                                     {"output_tokens", 128},
                                     {"concurrency", 8},
                                     {"requests", 80},
                                     {"request_rate", "inf"}},
                                    {{"ttft_ms", 60.0}});
    auto cases = validationCasesFromJson(row, "serving-x.json");
    QVERIFY(cases);
    const ServingPoint p = servingCurve(*scenarioForCase(cases->at(0), catalog()).scenario).atUsers;
    QVERIFY(p.togetherTtftMeanMs > p.ttftMs); // eight prompts at once wait for each other
    const ValidationResult wave = validateCase(cases->at(0), catalog());
    QVERIFY(qAbs(wave.predicted - (8 * p.togetherTtftMeanMs + 72 * p.ttftMs) / 80) < 1e-9);
    // All at once: R <= C is one wave.
    row[0]["workload"]["requests"] = 8;
    auto once = validationCasesFromJson(row, "serving-x.json");
    QVERIFY(once);
    QCOMPARE(validateCase(once->at(0), catalog()).predicted, p.togetherTtftMeanMs);
    row[0]["workload"].erase("requests");
    auto unstated = validationCasesFromJson(row, "serving-x.json");
    QVERIFY(unstated);
    QCOMPARE(validateCase(unstated->at(0), catalog()).predicted, p.ttftMs);
}

// A benchmark over data-parallel replicas (vLLM --data-parallel-size, SGLang --dp-size) counts
// every replica's users; each replica serves its share, the busier ones one more when they do
// not divide evenly (issue 46).
void TestSpeedBands::replicasShareTheBenchmarksUsers()
{
    auto tpotAt = [](int64_t users, const nlohmann::json& settings) {
        nlohmann::json row = servingRow({{"input_tokens", 1024},
                                         {"output_tokens", 128},
                                         {"concurrency", users},
                                         {"request_rate", "inf"}},
                                        {{"tpot_ms", 10.0}});
        row[0]["settings"].update(settings);
        auto cases = validationCasesFromJson(row, "serving-x.json");
        return cases ? validateCase(cases->at(0), catalog()) : ValidationResult{};
    };
    const ValidationResult alone = tpotAt(10, nlohmann::json::object());
    const ValidationResult busier = tpotAt(11, nlohmann::json::object());
    QVERIFY(busier.predicted > alone.predicted); // the step grows with its users
    QCOMPARE(tpotAt(20, {{"data_parallel_size", 2}}).predicted, alone.predicted);
    QCOMPARE(tpotAt(21, {{"data_parallel_size", 2}}).predicted, busier.predicted);
    QCOMPARE(tpotAt(40, {{"data_parallel_size", 4}}).predicted, alone.predicted);
    QCOMPARE(tpotAt(20, {{"data_parallel_size", 2}}).users, int64_t(20)); // as the source ran it
    nlohmann::json sglang = servingRow({{"input_tokens", 1024},
                                        {"output_tokens", 128},
                                        {"concurrency", 20},
                                        {"request_rate", "inf"}},
                                       {{"tpot_ms", 10.0}});
    sglang[0]["engine"] = "sglang";
    sglang[0]["settings"]["dp_size"] = 2;
    auto sglangCases = validationCasesFromJson(sglang, "serving-x.json");
    QVERIFY(sglangCases);
    sglang[0]["settings"].erase("dp_size");
    sglang[0]["workload"]["concurrency"] = 10;
    auto sglangAlone = validationCasesFromJson(sglang, "serving-x.json");
    QVERIFY(sglangAlone);
    QCOMPARE(validateCase(sglangCases->at(0), catalog()).predicted,
             validateCase(sglangAlone->at(0), catalog()).predicted);
}

// A serving row holds a time per token and a first token: two cases, each compared with the
// serving curve at the row's users; a row with neither figure is refused by name.
void TestSpeedBands::servingRowsBecomeTwoCases()
{
    const nlohmann::json row =
        servingRow({{"input_tokens", 1024}, {"output_tokens", 128}, {"concurrency", 8}},
                   {{"tpot_ms", 9.0}, {"ttft_ms", 60.0}});
    auto cases = validationCasesFromJson(row, "serving-x.json");
    QVERIFY(cases);
    QCOMPARE(cases->size(), size_t(2));
    QCOMPARE(cases->at(0).kind, ValidationKind::Tpot);
    QCOMPARE(cases->at(1).kind, ValidationKind::Ttft);
    QCOMPARE(cases->at(1).measured, 60.0);
    const Scenario s = *scenarioForCase(cases->at(0), catalog()).scenario;
    QCOMPARE(s.batch, int64_t(8));
    QCOMPARE(s.workload.promptTokens, int64_t(1024));
    const ValidationResult tpot = validateCase(cases->at(0), catalog());
    QCOMPARE(tpot.predicted, servingCurve(s).atUsers.stepMs);
    const ValidationResult ttft = validateCase(cases->at(1), catalog());
    QCOMPARE(ttft.predicted, servingCurve(s).atUsers.ttftMs);
    QCOMPARE(ttft.users, int64_t(8));
    // Only rows at one user bound the first token of a prompt alone.
    ValidationResult alone = ttft;
    alone.users = 1;
    alone.speedClass = "c";
    const SpeedBands bands = speedBandsFrom({ttft, alone});
    QCOMPARE(bands.at(speedBandKey(SpeedFigure::TtftOneUser, "c")).cases, 1);
    QCOMPARE(bands.count(speedBandKey(SpeedFigure::TtftOneUser, ttft.speedClass)), size_t(0));
    nlohmann::json empty = row;
    empty[0]["measured"] = nlohmann::json::object({{"output_tokens_per_s", 100.0}});
    auto refused = validationCasesFromJson(empty, "serving-x.json");
    QVERIFY(!refused);
    QVERIFY2(refused.error().message().find("tpot_ms") != std::string::npos,
             refused.error().message().c_str());
    nlohmann::json noWorkload = row;
    noWorkload[0].erase("workload");
    QVERIFY(!validationCasesFromJson(noWorkload, "serving-x.json"));
}

void TestSpeedBands::hostileSpeedBandFiles_data()
{
    QTest::addColumn<QString>("content");
    QTest::addColumn<QString>("problem");
    QTest::addRow("not JSON") << u"{\"bands\": ["_s << u"speed_bands.json"_s;
    QTest::addRow("not an array") << u"{\"bands\": 3}"_s << u"bands must be an array"_s;
    QTest::addRow("an entry not an object") << u"{\"bands\": [7]}"_s << u"must be an object"_s;
    QTest::addRow("no class") << uR"({"bands": [{"low": -0.1, "high": 0.2, "cases": 4}]})"_s
                              << u"class"_s;
    QTest::addRow("low above high")
        << uR"({"bands": [{"class": "x", "low": 0.5, "high": 0.2, "cases": 4}]})"_s << u"low"_s;
    QTest::addRow("no cases")
        << uR"({"bands": [{"class": "x", "low": 0, "high": 0.2, "cases": 0}]})"_s << u"cases"_s;
    QTest::addRow("a string for a number")
        << uR"({"bands": [{"class": "x", "low": "a lot", "high": 0.2, "cases": 4}]})"_s << u"low"_s;
    QTest::addRow("NaN-sized") << uR"({"bands": [{"class": "x", "low": -1e308, "high": 1e308,
                                   "cases": 4}]})"_s
                               << u"low"_s;
}

// A user's speed_bands.json read entry by entry: a bad one is named with its field, never a
// crash; with nothing usable in it, the shipped table still applies.
void TestSpeedBands::hostileSpeedBandFiles()
{
    QFETCH(QString, content);
    QFETCH(QString, problem);
    const auto [c, problems] = catalogWithUserFile(u"speed_bands.json"_s, content);
    QCOMPARE(problems.size(), 1);
    QVERIFY2(problems[0].contains(problem), qPrintable(problems[0]));
    QVERIFY(c.speedBands && c.speedBands->size() == catalog().speedBands->size());
}

KVSCOPE_TEST_SUITE(TestSpeedBands, "tst_speed_bands", kvscope::test::SuiteApp::Core)
#include "tst_speed_bands.moc"
