// SPDX-License-Identifier: GPL-3.0-or-later
// What kvscope-cli says never contradicts itself (issue 42), run in process over sweeps:
//  - no placeholder reaches a user: no count of 10^8 tokens or sequences or more in calc's text
//    or JSON, over every engine x KV placement x GPU layer split; a count GPU memory does not
//    limit is words in the text and null with a reason in the JSON (an empty cell or null in a
//    sweep);
//  - a scenario that does not fit names the longest context that runs, the very context the
//    shorten-context remedy proposes (or neither has one), and a token more does not run;
//  - overlap is never slower than none: pipelined <= serial over every link and placement, and
//    --prefetch off pipelines nothing, in the figure or the text;
//  - a layout the engine refuses is said so: calc's verdict does not run, launch refuses.

#include "cli_runner.h"
#include "suite_registry.h"
#include "testutils.h"

#include "kvscope/text/explain.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace kvscope;
using namespace kvscope::test;
using namespace Qt::StringLiterals;

namespace {

// Any integer of 10^8 or more as the text prints it (thousands separated by commas).
constexpr const char* kPlaceholderPattern = R"(\b\d{1,3}(,\d{3}){2,}(,\d{3})*\b|\b\d{9,}\b)";

std::string firstPlaceholder(const std::string& text)
{
    static const std::regex number(kPlaceholderPattern);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), number);
         it != std::sregex_iterator(); ++it) {
        std::string digits = it->str();
        std::erase(digits, ',');
        if (std::stod(digits) >= 1e8)
            return it->str();
    }
    return {};
}

// The counts of one JSON object: each below 10^8, or null beside a "null_because".
std::string badCount(const nlohmann::json& object, const std::vector<std::string>& keys)
{
    for (const std::string& key : keys) {
        const nlohmann::json& value = object.at(key);
        if (value.is_null() && !object.contains("null_because"))
            return key + " is null with no null_because";
        if (value.is_number() && value.get<double>() >= 1e8)
            return key + " = " + value.dump();
    }
    return {};
}

std::vector<std::string> calcArgs(const QString& engine, const QString& placement,
                                  const QString& gpuLayers, const QString& model)
{
    std::vector<std::string> args{"calc",
                                  "--model",
                                  model.toStdString(),
                                  "--engine",
                                  engine.toStdString(),
                                  "--kv-placement",
                                  placement.toStdString()};
    if (!gpuLayers.isEmpty())
        args.insert(args.end(), {"--n-gpu-layers", gpuLayers.toStdString()});
    return args;
}

} // namespace

class TestConsistency : public QObject
{
    Q_OBJECT

private slots:
    void noPlaceholder_data();
    void noPlaceholder();
    void sweepHasNoPlaceholder_data();
    void sweepHasNoPlaceholder();
    void longestContextAgreesWithRemedy_data();
    void longestContextAgreesWithRemedy();
    void overlapNeverSlower();
    void prefetchOffIsSerial_data();
    void prefetchOffIsSerial();
    void refusedLayouts_data();
    void refusedLayouts();
    void headSplitVerdictAndLaunch();
    void noSpeedForWhatDoesNotRun();
};

void TestConsistency::noPlaceholder_data()
{
    QTest::addColumn<QString>("engine");
    QTest::addColumn<QString>("placement");
    QTest::addColumn<QString>("gpuLayers");
    QTest::addColumn<QString>("model");
    // Llama 3.1 8B has 32 layers: none, half and all of them on the GPU, or unset (all).
    for (const char* engine : {"hf", "hf-offloaded", "vllm", "llamacpp", "tgi"})
        for (const char* placement : {"gpu", "cpu", "nvme", "sata"})
            for (const char* layers : {"0", "16", "32", ""})
                QTest::addRow("%s %s ngl=%s", engine, placement, layers)
                    << QString::fromLatin1(engine) << QString::fromLatin1(placement)
                    << QString::fromLatin1(layers) << u"llama-3.1-8b"_s;
    // Every layer windowed: the cache stops growing, so no context is too long.
    for (const char* engine : {"hf", "vllm", "llamacpp"})
        QTest::addRow("windowed %s", engine)
            << QString::fromLatin1(engine) << u"gpu"_s << QString() << u"mistral-7b-v0.1"_s;
}

void TestConsistency::noPlaceholder()
{
    QFETCH(QString, engine);
    QFETCH(QString, placement);
    QFETCH(QString, gpuLayers);
    QFETCH(QString, model);
    std::vector<std::string> args = calcArgs(engine, placement, gpuLayers, model);
    const CliResult text = runCli(args);
    QCOMPARE(text.code, 0);
    const std::string placeholder = firstPlaceholder(text.out);
    QVERIFY2(placeholder.empty(), qPrintable(u"text prints "_s + qs(placeholder)));

    args.push_back("--json");
    const CliResult json = runCli(args);
    QCOMPARE(json.code, 0);
    const nlohmann::json j = nlohmann::json::parse(json.out);
    const std::string fit = badCount(
        j.at("tokens_fit"), {"model", "mha", "gqa", "mqa", "per_sequence", "max_concurrency"});
    QVERIFY2(fit.empty(), qPrintable(u"tokens_fit."_s + qs(fit)));
    const std::string engineFigures =
        badCount(j.at("engine"), {"kv_blocks_per_gpu", "kv_cache_tokens", "max_concurrency"});
    QVERIFY2(engineFigures.empty(), qPrintable(u"engine."_s + qs(engineFigures)));
    // The text says why in words where the JSON has null.
    if (j.at("tokens_fit").at("model").is_null())
        QVERIFY(text.out.find("not limited by GPU memory") != std::string::npos);
}

void TestConsistency::sweepHasNoPlaceholder_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addRow("every layer windowed") << QStringList{u"--model"_s, u"mistral-7b-v0.1"_s};
    QTest::addRow("no layer on the GPU")
        << QStringList{u"--model"_s, u"llama-3.1-8b"_s, u"--n-gpu-layers"_s, u"0"_s};
}

// The sweep's tokens_fit_* columns: empty CSV cells and JSON nulls, never the 10^8 ceiling.
void TestConsistency::sweepHasNoPlaceholder()
{
    QFETCH(QStringList, args);
    std::vector<std::string> argv{"sweep", "--vary", "context",  "--from", "1024",
                                  "--to",  "65536",  "--points", "4"};
    for (const QString& a : args)
        argv.push_back(a.toStdString());
    const CliResult csv = runCli(argv);
    QVERIFY2(csv.code == 0, csv.err.c_str());
    const QStringList lines = QString::fromStdString(csv.out).split(u'\n', Qt::SkipEmptyParts);
    const QStringList header = lines.front().split(u',');
    int checked = 0;
    for (qsizetype c = 0; c < header.size(); ++c) {
        if (!header[c].startsWith(u"tokens_fit_"_s))
            continue;
        for (qsizetype row = 1; row < lines.size(); ++row, ++checked)
            QVERIFY2(lines[row].split(u',')[c].isEmpty(), qPrintable(lines[row]));
    }
    QCOMPARE(checked, 4 * 4);
    argv.push_back("--json");
    const nlohmann::json j = nlohmann::json::parse(runCli(argv).out);
    for (const char* id :
         {"tokens_fit_model", "tokens_fit_mha", "tokens_fit_gqa", "tokens_fit_mqa"})
        for (const nlohmann::json& v : j.at("series").at(id).at("values"))
            QVERIFY2(v.is_null(), id);
}

void TestConsistency::longestContextAgreesWithRemedy_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addRow("8b 64K x 2 (activations)") << QStringList{
        u"--model"_s, u"llama-3.1-8b"_s, u"--context"_s, u"65536"_s, u"--batch"_s, u"2"_s};
    QTest::addRow("llama 2 7b 32K")
        << QStringList{u"--model"_s, u"llama-2-7b"_s, u"--context"_s, u"32768"_s};
    QTest::addRow("8b vllm 256K x 4")
        << QStringList{u"--model"_s,   u"llama-3.1-8b"_s, u"--engine"_s, u"vllm"_s,
                       u"--context"_s, u"262144"_s,       u"--batch"_s,  u"4"_s};
    QTest::addRow("8b llama.cpp 128K x 8")
        << QStringList{u"--model"_s,   u"llama-3.1-8b"_s, u"--engine"_s, u"llamacpp"_s,
                       u"--context"_s, u"131072"_s,       u"--batch"_s,  u"8"_s};
    QTest::addRow("70b on one 4090 (weights: none)")
        << QStringList{u"--model"_s, u"llama-3.1-70b"_s, u"--context"_s, u"8192"_s};
}

void TestConsistency::longestContextAgreesWithRemedy()
{
    QFETCH(QStringList, args);
    std::vector<std::string> argv{"calc", "--json"};
    for (const QString& a : args)
        argv.push_back(a.toStdString());
    const CliResult r = runCli(argv);
    QVERIFY2(r.code == 0, r.err.c_str());
    const nlohmann::json j = nlohmann::json::parse(r.out);
    QVERIFY(!j.at("verdict").at("runs").get<bool>());
    const nlohmann::json& longest = j.at("verdict").at("longest_running_context");
    std::optional<int64_t> remedy;
    for (const nlohmann::json& fix : j.at("remedies"))
        if (fix.at("kind") == "shorter_context") {
            remedy = std::stoll(fix.at("options").at("context").get<std::string>());
            QCOMPARE(fix.at("longest_context").get<int64_t>(), *remedy);
        }
    QCOMPARE(longest.is_null(), !remedy.has_value());
    if (!remedy)
        return;
    QCOMPARE(longest.get<int64_t>(), *remedy);
    // The text says the same, and the figure is the edge: it runs, a token more does not.
    argv.erase(argv.begin() + 1);
    const CliResult text = runCli(argv);
    QVERIFY2(text.out.find("longest context that runs") != std::string::npos, text.out.c_str());
    for (const auto& [context, runs] : {std::pair{*remedy, true}, std::pair{*remedy + 1, false}}) {
        std::vector<std::string> at = argv;
        at.push_back("--json");
        at.insert(at.end(), {"--context", std::to_string(context)});
        const CliResult edge = runCli(at);
        QCOMPARE(nlohmann::json::parse(edge.out).at("verdict").at("runs").get<bool>(), runs);
    }
}

void TestConsistency::overlapNeverSlower()
{
    Scenario s = scenario();
    int checked = 0;
    for (const char* model : {"llama-3.1-8b", "llama-2-7b", "mixtral-8x7b", "gemma-3-27b"})
        for (int gen : {3, 4, 5})
            for (int lanes : {1, 4, 16})
                for (int64_t context : {2048, 32768, 131072})
                    for (KvPlacement placement : {KvPlacement::Gpu, KvPlacement::CpuRam,
                                                  KvPlacement::Nvme, KvPlacement::Sata}) {
                        s.model = test::model(model);
                        s.pcie = *catalog().pcieGeneration(gen);
                        s.pcieLanes = lanes;
                        s.context = context;
                        s.kvPlacement = placement;
                        KVSCOPE_EVALUATE(e, s);
                        const auto& t = e.decode.tierMs;
                        QVERIFY2(t[size_t(Tier::CpuPipelined)] <=
                                     t[size_t(Tier::CpuSerial)] * (1 + 1e-12),
                                 qPrintable(QStringLiteral("%1 PCIe %2 x%3 at %4: %5 > %6")
                                                .arg(QString::fromLatin1(model))
                                                .arg(gen)
                                                .arg(lanes)
                                                .arg(context)
                                                .arg(t[size_t(Tier::CpuPipelined)])
                                                .arg(t[size_t(Tier::CpuSerial)])));
                        ++checked;
                    }
    QCOMPARE(checked, 4 * 3 * 3 * 3 * 4);
}

void TestConsistency::prefetchOffIsSerial_data()
{
    QTest::addColumn<QString>("placement");
    QTest::addColumn<int>("tier");
    QTest::addRow("cpu") << u"cpu"_s << int(Tier::CpuSerial);
    QTest::addRow("nvme") << u"nvme"_s << int(Tier::Nvme);
    QTest::addRow("sata") << u"sata"_s << int(Tier::Sata);
}

void TestConsistency::prefetchOffIsSerial()
{
    QFETCH(QString, placement);
    QFETCH(int, tier);
    const Scenario s = scenarioFrom(
        {{"kv-placement", placement.toStdString()}, {"prefetch", "off"}, {"context", "32768"}});
    KVSCOPE_EVALUATE(e, s);
    const DecodeTiming& d = e.decode;
    const double rate = placement == u"nvme"_s   ? d.nvmeEffectiveGBps
                        : placement == u"sata"_s ? d.sataEffectiveGBps
                                                 : d.pcieEffectiveGBps;
    // Serial: the GPU's step, then the whole KV over its tier; nothing overlaps.
    const double serial = d.gpuMs + e.kv.totalBytes / (rate * 1e9) * 1e3;
    QCOMPARE(d.tierMs[size_t(tier)], serial);
    QCOMPARE(d.selectedMs, serial);
    const std::string why = explanationFor(explain(s, e, ByteUnits::Binary), "decode");
    QVERIFY2(why.find("serial") != std::string::npos, why.c_str());
    QVERIFY2(why.find("pipelined") == std::string::npos, why.c_str());
}

void TestConsistency::refusedLayouts_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("field");
    QTest::addRow("PCIe 5 on a V100 (PCIe 3)")
        << QStringList{u"--gpu"_s, u"v100-16gb"_s, u"--pcie"_s, u"5"_s} << u"pcie"_s;
    QTest::addRow("PCIe 4 on a V100, either order")
        << QStringList{u"--pcie"_s, u"4"_s, u"--gpu"_s, u"v100-32gb"_s} << u"pcie"_s;
    QTest::addRow("TGI with a layer split")
        << QStringList{u"--engine"_s, u"tgi"_s, u"--gpus"_s, u"4"_s, u"--split-mode"_s, u"layer"_s}
        << u"split_mode"_s;
}

void TestConsistency::refusedLayouts()
{
    QFETCH(QStringList, args);
    QFETCH(QString, field);
    for (const char* command : {"calc", "launch"}) {
        std::vector<std::string> argv{command};
        for (const QString& a : args)
            argv.push_back(a.toStdString());
        const CliResult r = runCli(argv);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.out.empty(), r.out.c_str());
        QVERIFY2(r.err.find(field.toStdString()) != std::string::npos, r.err.c_str());
    }
    // What the link and the engine can do runs: PCIe 3 on the V100, TGI split by tensor.
    QCOMPARE(runCli({"calc", "--gpu", "v100-16gb", "--pcie", "3"}).code, 0);
    QCOMPARE(runCli({"launch", "--engine", "tgi", "--gpus", "4"}).code, 0);
}

void TestConsistency::headSplitVerdictAndLaunch()
{
    // Llama 3.1 70B has 64 attention heads: 3 GPUs do not divide them, 2 and 4 do.
    const std::vector<std::string> three{"--model", "llama-3.1-70b", "--gpu", "h100-sxm", "--gpus",
                                         "3",       "--engine",      "vllm"};
    auto with = [&](std::vector<std::string> head) {
        head.insert(head.end(), three.begin(), three.end());
        return runCli(head);
    };
    const CliResult json = with({"calc", "--json"});
    QCOMPARE(json.code, 0);
    const nlohmann::json verdict = nlohmann::json::parse(json.out).at("verdict");
    QCOMPARE(verdict.at("runs").get<bool>(), false);
    QCOMPARE(verdict.at("binding").get<std::string>(), std::string("head_split"));
    const CliResult text = with({"calc"});
    QVERIFY2(text.out.find("Does not start") != std::string::npos, text.out.c_str());
    QVERIFY2(text.out.find("--gpus 2 or 4") != std::string::npos, text.out.c_str());
    const CliResult launch = with({"launch"});
    QCOMPARE(launch.code, 2);
    QVERIFY2(launch.out.find("--tensor-parallel-size 3") == std::string::npos, launch.out.c_str());
    QVERIFY2(launch.err.find("--gpus 2 or 4") != std::string::npos, launch.err.c_str());
    // A layer split gives each GPU whole layers: vLLM takes 3 pipeline stages.
    std::vector<std::string> layers = three;
    layers.insert(layers.begin(), "launch");
    layers.insert(layers.end(), {"--split-mode", "layer"});
    QCOMPARE(runCli(layers).code, 0);

    // Qwen2.5 7B: 28 attention heads split over 7 GPUs, but its 4 KV heads and 7 GPUs do not
    // divide one another, which vLLM's attention layer asserts; 4 GPUs take one KV head each.
    const CliResult kv = runCli(
        {"calc", "--model", "qwen2.5-7b", "--gpu", "h100-sxm", "--gpus", "7", "--engine", "vllm"});
    QVERIFY2(kv.out.find("Does not start") != std::string::npos, kv.out.c_str());
    QVERIFY2(kv.out.find("4 KV heads") != std::string::npos, kv.out.c_str());
    QVERIFY2(kv.out.find("--gpus 4") != std::string::npos, kv.out.c_str());
    QCOMPARE(runCli({"launch", "--model", "qwen2.5-7b", "--gpus", "7", "--engine", "vllm"}).code,
             2);
    QCOMPARE(runCli({"launch", "--model", "qwen2.5-7b", "--gpus", "4", "--engine", "vllm"}).code,
             0);
}

// A scenario that does not fit shows no speed: every decode and first-token line of calc says
// "does not run", and its arithmetic is the step it would take if it fitted, with no tokens/s.
void TestConsistency::noSpeedForWhatDoesNotRun()
{
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"calc", "--model", "llama-3.1-70b", "--context", "32768"},
          {"calc", "--model", "llama-3.1-70b", "--gpu", "h100-sxm", "--gpus", "2", "--engine",
           "vllm", "--context", "131072", "--batch", "64"},
          {"calc", "--model", "gpt-oss-120b", "--weights", "mxfp4", "--engine", "llamacpp"}}) {
        const test::CliResult r = runCli(args);
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY2(r.out.find("Does not fit") != std::string::npos, r.out.c_str());
        std::istringstream lines(r.out);
        for (std::string line; std::getline(lines, line);) {
            if (line.find("at the chosen placement") == std::string::npos &&
                line.find("time to first token (") == std::string::npos)
                continue;
            QVERIFY2(line.find("does not run") != std::string::npos, line.c_str());
            QVERIFY2(line.find("tokens/s") == std::string::npos, line.c_str());
            QVERIFY2(line.find("if it fitted: ") != std::string::npos, line.c_str());
        }
    }
}

KVSCOPE_TEST_SUITE(TestConsistency, "tst_consistency", kvscope::test::SuiteApp::Core)
#include "tst_consistency.moc"
