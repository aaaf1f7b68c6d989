// SPDX-License-Identifier: GPL-3.0-or-later
// The JSON boundary: Hugging Face config.json import (fixtures in tests/data/configs, copied
// from the presets or written after the published configs), hostile files (tests/hostile plus
// two generated at run time; tst_hostile covers every file there, window included), and
// scenario files that round-trip every field.

#include "suite_registry.h"
#include "testutils.h"

#include "cli.h"
#include "kvscope/formats/config_import.h"
#include "kvscope/model/kv_cache.h"
#include "kvscope/model/parameters.h"
#include "kvscope/settings/scenario_defaults.h"
#include "kvscope/settings/scenario_file.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <sstream>

using namespace kvscope;
using namespace kvscope::test;
using namespace Qt::StringLiterals;

namespace {

std::string dataPath(const char* relative)
{
    return std::string(KVSCOPE_TEST_DATA_DIR "/data/") + relative;
}

std::string hostilePath(const char* name)
{
    return std::string(KVSCOPE_TEST_DATA_DIR "/hostile/") + name;
}

// Runs kvscope-cli in this process; returns the exit code.
int runCli(const std::vector<std::string>& args, std::string* out, std::string* err)
{
    std::ostringstream o, e;
    const int code = cli::run(args, o, e, QCoreApplication::applicationFilePath().toStdString());
    *out = o.str();
    *err = e.str();
    return code;
}

// What a config.json fixture must import as; fields not named in a row keep these defaults.
struct ConfigCase
{
    const char* file = "";
    const char* preset = ""; // the catalog model the fixture mirrors, if any
    const char* id = "";
    const char* kind = "";
    int64_t layers = 0, hidden = 0, heads = 0, kvHeads = 0, headDim = 0, mlp = 0;
    bool gated = true;
    int64_t vocab = 0;
    bool tied = false;
    int64_t maxContext = 0, window = 0, windowed = 0, experts = 0, perToken = 0;
};

ModelSpec importedModel(const char* file)
{
    auto m = modelFromConfigFile(dataPath(file));
    if (!m)
        qFatal("fixture %s: %s", file, m.error().message().c_str());
    ModelSpec spec = m.value();
    spec.imported = true;
    return spec;
}

} // namespace

Q_DECLARE_METATYPE(ConfigCase)

class TestIo : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void configImport_data();
    void configImport();
    void windowConventions();
    void deepseekMla();
    void cliConfigMatchesPreset();
    void hostile_data();
    void hostile();
    void hostileInProcess();
    void scenarioRoundTrip_data();
    void scenarioRoundTrip();
    void scenarioRejects_data();
    void scenarioRejects();
    void expertLayoutsAreChecked_data();
    void expertLayoutsAreChecked();
    void nodeLinksAreChecked_data();
    void nodeLinksAreChecked();
    void allToAllIsChecked_data();
    void allToAllIsChecked();
    void gpuComputeCapabilityRoundTrips();
    void gpuMemoryTypeRoundTrips();
    void gpuPricesOfBothKindsRoundTrip();

private:
    QTemporaryDir m_tmp;
};

void TestIo::initTestCase()
{
    QVERIFY(m_tmp.isValid());
    QVERIFY(catalog().model("llama-2-7b"));
    // Generated here, never committed: JSON nested 100,000 deep, and a 50 MB file.
    QFile deep(m_tmp.filePath(u"deep.json"_s));
    QVERIFY(deep.open(QIODevice::WriteOnly));
    deep.write(QByteArray(100'000, '[') + QByteArray(100'000, ']'));
    deep.close();
    QVERIFY(writeLargeJson(m_tmp.filePath(u"large.json"_s), R"("num_hidden_layers": 32,)") >
            50'000'000);
}

void TestIo::configImport_data()
{
    QTest::addColumn<ConfigCase>("expected");
    // A table reads better one case a paragraph than one field a line.
    // clang-format off
    // Llama-2-7b-hf's config.json without kvscope's keys; the id comes from the directory.
    QTest::addRow("llama-2-7b-hf") << ConfigCase{
        .file = "configs/Llama-2-7b-hf/config.json", .preset = "llama-2-7b", .id = "llama-2-7b-hf",
        .kind = "mha", .layers = 32, .hidden = 4096, .heads = 32, .kvHeads = 32, .headDim = 128,
        .mlp = 11008, .vocab = 32000, .tied = false, .maxContext = 4096};
    // Falcon-7B: multi_query (one KV head), head_dim 4544 / 71 = 64, no MLP width so 4 x hidden,
    // ungated; embeddings tied by transformers' default.
    QTest::addRow("falcon-7b") << ConfigCase{
        .file = "configs/falcon-7b.json", .preset = "falcon-7b", .id = "falcon-7b", .kind = "mqa",
        .layers = 32, .hidden = 4544, .heads = 71, .kvHeads = 1, .headDim = 64, .mlp = 18176,
        .gated = false, .vocab = 65024, .tied = true};
    // Gemma 2 9B as published: sliding_window + cache_implementation "hybrid", no layer_types.
    QTest::addRow("gemma-2-9b hybrid") << ConfigCase{
        .file = "configs/gemma-2-9b.json", .preset = "gemma-2-9b", .id = "gemma-2-9b",
        .kind = "gqa", .layers = 42, .hidden = 3584, .heads = 16, .kvHeads = 8, .headDim = 256,
        .mlp = 14336, .vocab = 256000, .tied = true, .maxContext = 8192, .window = 4096,
        .windowed = 21};
    // gpt-oss-20b: layer_types, 32 experts, 4 per token.
    QTest::addRow("gpt-oss-20b") << ConfigCase{
        .file = "configs/gpt-oss-20b.json", .preset = "gpt-oss-20b", .id = "gpt-oss-20b",
        .kind = "gqa", .layers = 24, .hidden = 2880, .heads = 64, .kvHeads = 8, .headDim = 64,
        .mlp = 2880, .vocab = 201088, .maxContext = 131072, .window = 128, .windowed = 12,
        .experts = 32, .perToken = 4};
    // DeepSeek-V3: MLA; no head_dim key, so hidden / heads = 7168 / 128 = 56 (unused by MLA).
    QTest::addRow("deepseek-v3") << ConfigCase{
        .file = "configs/deepseek-v3.json", .preset = "deepseek-v3", .id = "deepseek-v3",
        .kind = "mla", .layers = 61, .hidden = 7168, .heads = 128, .kvHeads = 128, .headDim = 56,
        .mlp = 18432, .vocab = 129280, .maxContext = 163840, .experts = 256, .perToken = 8};
    // A multimodal wrapper: the language model sits in text_config. Gemma 3 style window
    // pattern 6: layers 5, 11, 17, 23, 29 are global, the other 29 slide over 1,024 tokens.
    QTest::addRow("gemma-3 text_config") << ConfigCase{
        .file = "configs/gemma-3-4b-multimodal.json", .id = "gemma-3-4b-multimodal",
        .kind = "gqa", .layers = 34, .hidden = 2560, .heads = 8, .kvHeads = 4, .headDim = 256,
        .mlp = 10240, .vocab = 262208, .tied = true, .maxContext = 131072, .window = 1024,
        .windowed = 29};
    // Qwen2.5-7B: no head_dim (3584 / 28 = 128); use_sliding_window false turns the window off.
    QTest::addRow("qwen2.5-7b no head_dim") << ConfigCase{
        .file = "configs/qwen2.5-7b.json", .preset = "qwen2.5-7b", .id = "qwen2.5-7b",
        .kind = "gqa", .layers = 28, .hidden = 3584, .heads = 28, .kvHeads = 4, .headDim = 128,
        .mlp = 18944, .vocab = 152064, .maxContext = 131072};
    // GPT-2's own spellings: n_layer, n_embd, n_head, n_positions; 768 / 12 = 64.
    QTest::addRow("gpt2 aliases") << ConfigCase{
        .file = "configs/gpt2.json", .id = "gpt2", .kind = "mha", .layers = 12, .hidden = 768,
        .heads = 12, .kvHeads = 12, .headDim = 64, .mlp = 3072, .gated = false, .vocab = 50257,
        .tied = true, .maxContext = 1024};
    // clang-format on
}

void TestIo::configImport()
{
    QFETCH(ConfigCase, expected);
    const std::string path = dataPath(expected.file);
    auto imported = modelFromConfigFile(path);
    QVERIFY2(imported.ok(), imported.ok() ? "" : imported.error().message().c_str());
    const ModelSpec& m = *imported;
    QCOMPARE(qs(m.id), QString::fromUtf8(expected.id));
    QCOMPARE(QString::fromUtf8(attentionKindId(m.attentionKind())),
             QString::fromUtf8(expected.kind));
    QCOMPARE(m.layers, expected.layers);
    QCOMPARE(m.hiddenSize, expected.hidden);
    QCOMPARE(m.queryHeads, expected.heads);
    QCOMPARE(m.kvHeads, expected.kvHeads);
    QCOMPARE(m.headDim, expected.headDim);
    QCOMPARE(m.intermediateSize, expected.mlp);
    QCOMPARE(m.gatedMlp, expected.gated);
    QCOMPARE(m.vocabSize, expected.vocab);
    QCOMPARE(m.tiedEmbeddings, expected.tied);
    QCOMPARE(m.maxContext, expected.maxContext);
    QCOMPARE(m.slidingWindow, expected.window);
    QCOMPARE(m.windowedLayerCount(), expected.windowed);
    QCOMPARE(m.experts, expected.experts);
    QCOMPARE(m.expertsPerToken, expected.perToken);
    QCOMPARE(qs(m.source), qs(path)); // no "source" key: the file itself
    QVERIFY(!validateModel(m));

    // A preset and the config.json it mirrors give the same figures.
    if (*expected.preset) {
        const ModelSpec& p = model(expected.preset);
        const KvDtype& fp16 = kvDtype("fp16");
        QCOMPARE(countParameters(m).total(), countParameters(p).total());
        QCOMPARE(countParameters(m).active(), countParameters(p).active());
        QCOMPARE(kvBytesForContext(m, fp16, 1, 100'000), kvBytesForContext(p, fp16, 1, 100'000));
        QCOMPARE(m.windowedLayers, p.windowedLayers);
    }
}

void TestIo::windowConventions()
{
    // Hybrid cache without layer_types: transformers' Gemma 2 slides on even layer indices.
    const ModelSpec gemma2 = importedModel("configs/gemma-2-9b.json");
    QCOMPARE(tokensHeld(gemma2, 0, 8192), 4096);
    QCOMPARE(tokensHeld(gemma2, 1, 8192), 8192);
    // sliding_window_pattern 6: every sixth layer is global.
    const ModelSpec gemma3 = importedModel("configs/gemma-3-4b-multimodal.json");
    for (int64_t layer = 0; layer < gemma3.layers; ++layer)
        QCOMPARE(tokensHeld(gemma3, layer, 8192), (layer + 1) % 6 == 0 ? 8192 : 1024);
    // layer_types as written: gpt-oss alternates, starting with a sliding layer.
    const ModelSpec oss = importedModel("configs/gpt-oss-20b.json");
    QCOMPARE(tokensHeld(oss, 0, 8192), 128);
    QCOMPARE(tokensHeld(oss, 1, 8192), 8192);
    QCOMPARE(tokensHeld(oss, 23, 8192), 8192);
}

void TestIo::deepseekMla()
{
    const ModelSpec m = importedModel("configs/deepseek-v3.json");
    QVERIFY(m.isMla());
    QCOMPARE(m.kvLoraRank, 512);
    QCOMPARE(m.qLoraRank, 1536);
    QCOMPARE(m.qkRopeHeadDim, 64);
    QCOMPARE(m.qkNopeHeadDim, 128);
    QCOMPARE(m.vHeadDim, 128);
    QCOMPARE(m.sharedExperts, 1);
    QCOMPARE(m.denseLayers, 3);
    QCOMPARE(m.expertIntermediate, 2048);
    // (512 + 64) x 2 B x 61 layers.
    QCOMPARE(kvBytesPerToken(m, kvDtype("fp16"), 1), 70'272.0);
}

void TestIo::cliConfigMatchesPreset()
{
    // `--model path/config.json` and `--model llama-2-7b` describe the same network.
    std::string fromFile, fromPreset, err;
    const std::string config = dataPath("configs/Llama-2-7b-hf/config.json");
    QCOMPARE(runCli({"calc", "--json", "--model", config}, &fromFile, &err), 0);
    QVERIFY2(err.empty(), err.c_str());
    QCOMPARE(runCli({"calc", "--json", "--model", "llama-2-7b"}, &fromPreset, &err), 0);
    const auto a = nlohmann::json::parse(fromFile);
    const auto b = nlohmann::json::parse(fromPreset);
    QCOMPARE(a["scenario"]["model"].get<std::string>(), std::string("llama-2-7b-hf"));
    for (const char* key :
         {"kv_cache", "vram_per_gpu", "tokens_fit", "latency", "weights", "breakeven"})
        QVERIFY2(a[key] == b[key], key);
    QCOMPARE(a["kv_cache"]["per_gpu_bytes"].get<double>(), 1'073'741'824.0);

    // A GPU file works the same way.
    std::string custom;
    QCOMPARE(
        runCli({"calc", "--json", "--gpu", dataPath("gpus/lab-accelerator.json")}, &custom, &err),
        0);
    const auto c = nlohmann::json::parse(custom);
    QCOMPARE(c["scenario"]["gpu"].get<std::string>(), std::string("lab-accelerator"));
    QCOMPARE(c["vram_per_gpu"]["capacity_bytes"].get<double>(), 48.0 * 1024 * 1024 * 1024);
}

void TestIo::hostile_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("field");
    auto model = [](const std::string& file) {
        return QStringList{u"calc"_s, u"--json"_s, u"--model"_s, QString::fromStdString(file)};
    };
    QTest::addRow("missing num_hidden_layers")
        << model(hostilePath("missing-layers.json")) << "num_hidden_layers";
    QTest::addRow("zero heads") << model(hostilePath("zero-heads.json")) << "num_attention_heads";
    QTest::addRow("zero KV heads")
        << model(hostilePath("zero-kv-heads.json")) << "num_key_value_heads";
    QTest::addRow("zero hidden_size")
        << model(hostilePath("zero-hidden-size.json")) << "hidden_size";
    QTest::addRow("negative heads")
        << model(hostilePath("negative-heads.json")) << "num_attention_heads";
    QTest::addRow("32 heads, 5 KV heads")
        << model(hostilePath("kv-heads-not-divisor.json")) << "num_key_value_heads";
    QTest::addRow("string for a number")
        << model(hostilePath("string-for-number.json")) << "hidden_size";
    QTest::addRow("1e308 for a count")
        << model(hostilePath("huge-count.json")) << "num_hidden_layers";
    QTest::addRow("NaN as a string")
        << model(hostilePath("nan-string.json")) << "num_attention_heads";
    QTest::addRow("truncated JSON") << model(hostilePath("truncated.json")) << "config";
    QTest::addRow("UTF-16 with BOM") << model(hostilePath("utf16-bom.json")) << "config";
    QTest::addRow("binary garbage") << model(hostilePath("binary-garbage.json")) << "config";
    QTest::addRow("top-level array") << model(hostilePath("top-level-array.json")) << "config";
    QTest::addRow("nested 100,000 deep")
        << QStringList{u"calc"_s, u"--model"_s, m_tmp.filePath(u"deep.json"_s)} << u"config"_s;
    QTest::addRow("50 MB file") << QStringList{u"calc"_s, u"--model"_s,
                                               m_tmp.filePath(u"large.json"_s)}
                                << "config";
    QTest::addRow("no such file") << QStringList{u"calc"_s, u"--model"_s,
                                                 m_tmp.filePath(u"absent/config.json"_s)}
                                  << "config";
    QTest::addRow("context 10^12")
        << QStringList{u"calc"_s, u"--context"_s, u"1000000000000"_s} << u"--context"_s;
    QTest::addRow("negative context")
        << QStringList{u"calc"_s, u"--context"_s, u"-5"_s} << u"--context"_s;
    QTest::addRow("NaN memory fraction")
        << QStringList{u"calc"_s, u"--gpu-mem-util"_s, u"nan"_s} << u"--gpu-mem-util"_s;
    QTest::addRow("GPU without memory")
        << QStringList{u"calc"_s, u"--gpu"_s,
                       QString::fromStdString(hostilePath("gpu-zero-memory.json"))}
        << "gpu.memory_gib";
    QTest::addRow("scenario version 99")
        << QStringList{u"calc"_s, u"--scenario"_s,
                       QString::fromStdString(hostilePath("scenario-version-99.json"))}
        << "kvscope_scenario";
}

void TestIo::hostile()
{
    // The real executable in a child process: a crash is a failed row, not a dead suite.
    QFETCH(QStringList, args);
    QFETCH(QString, field);
    QProcess cli;
    cli.start(QStringLiteral(KVSCOPE_CLI_EXECUTABLE), args);
    QVERIFY(cli.waitForFinished(60'000));
    QVERIFY2(cli.exitStatus() == QProcess::NormalExit,
             qPrintable(QStringLiteral("kvscope-cli crashed (%1)").arg(cli.errorString())));
    const QString err = QString::fromUtf8(cli.readAllStandardError());
    QCOMPARE(cli.exitCode(), 2);
    QVERIFY2(err.endsWith(u'\n') && err.count(u'\n') == 1, qPrintable(err));
    QVERIFY2(err.contains(field), qPrintable(err));
    QVERIFY(cli.readAllStandardOutput().isEmpty());
}

void TestIo::hostileInProcess()
{
    // The parser's own guards, called directly: refused before nlohmann::json recurses.
    const std::string deep(100'000, '[');
    auto parsed = parseJsonText(deep + std::string(100'000, ']'), "config");
    QVERIFY(!parsed.ok());
    QCOMPARE(qs(parsed.error().field), QStringLiteral("config"));
    auto big = parseJsonText(std::string(maxInputFileBytes + 1, ' '), "config");
    QVERIFY(!big.ok());
    auto array = parseJsonText("[1, 2, 3]", "config");
    QVERIFY(!array.ok());
    // A string where a number belongs names the field with its config prefix.
    auto model = modelFromConfig(nlohmann::json::parse(R"({"num_hidden_layers": 32,
        "hidden_size": "4096", "num_attention_heads": 32, "vocab_size": 32000})"),
                                 "x");
    QVERIFY(!model.ok());
    QCOMPARE(qs(model.error().field), QStringLiteral("config.hidden_size"));
    QCOMPARE(qs(model.error().value), QStringLiteral("\"4096\""));
}

namespace {

// A catalog of one table file holding one entry in `array`, and the problems it raised that
// mention `about` (the other tables' absence is reported too, and ignored here).
Catalog catalogOfOneTable(const QString& file, const QString& array, const QString& entry,
                          const char* about, QStringList* problems)
{
    QTemporaryDir dir;
    QDir(dir.path()).mkpath(u"catalog"_s);
    QFile out(dir.filePath(u"catalog/"_s + file));
    if (out.open(QIODevice::WriteOnly))
        out.write((u"{\""_s + array + u"\": ["_s + entry + u"]}"_s).toUtf8());
    out.close();
    Catalog c = loadCatalog({dir.path().toStdString()});
    for (const std::string& line : c.problems)
        if (line.find(about) != std::string::npos)
            *problems << QString::fromStdString(line);
    return c;
}

} // namespace

void TestIo::expertLayoutsAreChecked_data()
{
    QTest::addColumn<QString>("format");  // one weight_formats.json entry
    QTest::addColumn<QString>("problem"); // "" when the entry loads
    const QString base = uR"({"id": "x", "bits_per_weight": 4.25, "group_size": 32, )"_s;
    QTest::addRow("valid") << base + uR"("experts_only": true, "expert_layouts": [
        {"min_compute_capability": 9.0, "max_compute_capability": 9.0, "scale_copies": 2}]})"_s
                           << "";
    QTest::addRow("not experts only")
        << base + uR"("expert_layouts": []})"_s
        << "expert_layouts: got an array; accepted: only with experts_only true";
    QTest::addRow("not a list") << base + uR"("experts_only": true, "expert_layouts": 3})"_s
                                << "expert_layouts: got 3; accepted: a list of layouts";
    QTest::addRow("no range") << base + uR"("experts_only": true, "expert_layouts": [{}]})"_s
                              << "expert_layouts[0].min_compute_capability";
    QTest::addRow("three scale copies") << base + uR"("experts_only": true, "expert_layouts": [
        {"min_compute_capability": 8, "max_compute_capability": 9, "scale_copies": 3}]})"_s
                                        << "expert_layouts[0].scale_copies";
}

void TestIo::expertLayoutsAreChecked()
{
    QFETCH(QString, format);
    QFETCH(QString, problem);
    QStringList problems;
    const Catalog c = catalogOfOneTable(u"weight_formats.json"_s, u"formats"_s, format,
                                        "weight_formats.json", &problems);
    if (problem.isEmpty()) {
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
        QCOMPARE(c.weightFormat("x")->expertLayouts.size(), size_t(1));
        QCOMPARE(c.weightFormat("x")->expertLayouts[0].scaleCopies, 2);
        return;
    }
    // The entry is refused whole, with the field and what it accepts named.
    QCOMPARE(problems.size(), 1);
    QVERIFY2(problems[0].contains(problem), qPrintable(problems[0]));
    QVERIFY(!c.weightFormat("x"));
}

void TestIo::nodeLinksAreChecked_data()
{
    QTest::addColumn<QString>("link");    // one interconnects.json node_links entry
    QTest::addColumn<QString>("problem"); // "" when the entry loads
    QTest::addRow("valid")
        << uR"({"id": "x", "gbit_per_s": 400, "latency_us": 20, "source": "s"})"_s << "";
    QTest::addRow("no latency") << uR"({"id": "x", "gbit_per_s": 400, "source": "s"})"_s
                                << "latency_us";
    QTest::addRow("no rate") << uR"({"id": "x", "latency_us": 20, "source": "s"})"_s
                             << "gbit_per_s";
    QTest::addRow("negative latency")
        << uR"({"id": "x", "gbit_per_s": 400, "latency_us": -5, "source": "s"})"_s << "latency_us";
    QTest::addRow("rate as text")
        << uR"({"id": "x", "gbit_per_s": "400G", "latency_us": 20, "source": "s"})"_s
        << "gbit_per_s";
    QTest::addRow("no source") << uR"({"id": "x", "gbit_per_s": 400, "latency_us": 20})"_s
                               << "source";
    QTest::addRow("no id") << uR"({"gbit_per_s": 400, "latency_us": 20, "source": "s"})"_s << "id";
}

// A network between nodes with a figure missing or out of range is refused whole and named,
// never loaded as a zero-latency link.
void TestIo::nodeLinksAreChecked()
{
    QFETCH(QString, link);
    QFETCH(QString, problem);
    QStringList problems;
    const Catalog c =
        catalogOfOneTable(u"interconnects.json"_s, u"node_links"_s, link, "node_links", &problems);
    if (problem.isEmpty()) {
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
        QCOMPARE(c.nodeLink("x")->latencyUs, 20.0);
        QCOMPARE(c.nodeLink("x")->gbPerS(), 50.0);
        return;
    }
    QCOMPARE(problems.size(), 1);
    QVERIFY2(problems[0].contains(problem), qPrintable(problems[0]));
    QVERIFY(!c.nodeLink("x"));
}

void TestIo::allToAllIsChecked_data()
{
    QTest::addColumn<QString>("table");   // one interconnects.json all_to_all entry
    QTest::addColumn<QString>("problem"); // "" when the entry loads
    const QString head = uR"({"id": "deepep-low-latency", "tokens_per_rank": 128, )"_s;
    QTest::addRow("valid") << head + uR"("points": [{"expert_ways": 16, "dispatch_us": 118,
        "combine_us": 195}, {"expert_ways": 8, "dispatch_us": 77, "combine_us": 114}],
        "source": "s"})"_s << "";
    QTest::addRow("no points") << head + uR"("source": "s"})"_s << "points";
    QTest::addRow("points as text") << head + uR"("points": "fast", "source": "s"})"_s << "points";
    QTest::addRow("negative latency")
        << head + uR"("points": [{"expert_ways": 8, "dispatch_us": -1, "combine_us": 1}],
        "source": "s"})"_s
        << "dispatch_us";
    QTest::addRow("no source")
        << head + uR"("points": [{"expert_ways": 8, "dispatch_us": 1, "combine_us": 1}]})"_s
        << "source";
}

// DeepEP's table with a figure missing or out of range is refused whole and named, never
// loaded as a free exchange; a valid one is sorted by expert-parallel size.
void TestIo::allToAllIsChecked()
{
    QFETCH(QString, table);
    QFETCH(QString, problem);
    QStringList problems;
    const Catalog c =
        catalogOfOneTable(u"interconnects.json"_s, u"all_to_all"_s, table, "all_to_all", &problems);
    if (problem.isEmpty()) {
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
        QCOMPARE(c.deepEpAllToAll.points.size(), size_t(2));
        QCOMPARE(c.deepEpAllToAll.us(8, 1), 191.0);
        QCOMPARE(c.deepEpAllToAll.us(16, 1), 313.0);
        return;
    }
    QCOMPARE(problems.size(), 1);
    QVERIFY2(problems[0].contains(problem), qPrintable(problems[0]));
    QVERIFY(!c.deepEpAllToAll.present());
}

void TestIo::gpuComputeCapabilityRoundTrips()
{
    const GpuSpec& l4 = gpu("l4");
    QCOMPARE(l4.computeCapability, 8.9);
    auto back = gpuFromJson(gpuToJson(l4), "l4");
    QVERIFY(back.ok());
    QCOMPARE(back->computeCapability, 8.9);
    // Not a CUDA GPU: nothing written, and 0 read back.
    const GpuSpec& mi300x = gpu("mi300x");
    QCOMPARE(mi300x.computeCapability, 0.0);
    QVERIFY(!gpuToJson(mi300x).contains("compute_capability"));
    nlohmann::json bad = gpuToJson(l4);
    bad["compute_capability"] = "8.9";
    auto refused = gpuFromJson(bad, "l4");
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().field, std::string("gpu.compute_capability"));
}

void TestIo::gpuMemoryTypeRoundTrips()
{
    // The memory type decides llama.cpp's per-layer cost on HBM (engines.json hbm_layer_us).
    const GpuSpec& a100 = gpu("a100-80gb");
    QVERIFY(a100.hbm());
    QVERIFY(!gpu("l40s").hbm());
    QVERIFY(!gpu("m2-ultra").hbm());
    auto back = gpuFromJson(gpuToJson(a100), "a100-80gb");
    QVERIFY(back.ok());
    QCOMPARE(back->memoryType, a100.memoryType);
    QVERIFY(back->hbm());
    // A GPU file that states none is read as not HBM, and writes none back.
    nlohmann::json unstated = gpuToJson(a100);
    unstated.erase("memory_type");
    auto custom = gpuFromJson(unstated, "mine");
    QVERIFY(custom.ok());
    QVERIFY(!custom->hbm());
    QVERIFY(!gpuToJson(*custom).contains("memory_type"));
    unstated["memory_type"] = 3;
    auto refused = gpuFromJson(unstated, "mine");
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().field, std::string("gpu.memory_type"));
}

void TestIo::gpuPricesOfBothKindsRoundTrip()
{
    // The H100 SXM is rented (Lambda) and has a purchase price: both travel in "prices".
    const GpuSpec& h100 = gpu("h100-sxm");
    QCOMPARE(h100.prices.rental.kind, GpuPrice::Kind::Rental);
    QCOMPARE(h100.prices.purchase.kind, GpuPrice::Kind::Purchase);
    const nlohmann::json j = gpuToJson(h100);
    QCOMPARE(j["prices"].size(), size_t(2));
    auto back = gpuFromJson(j, "h100-sxm");
    QVERIFY(back.ok());
    QCOMPARE(back->prices.rental.usdPerHour, h100.prices.rental.usdPerHour);
    QCOMPARE(back->prices.purchase.usd, h100.prices.purchase.usd);
    QCOMPARE(back->tdpW, h100.tdpW);
    // Hostile shapes are refused with the field named.
    for (const nlohmann::json& prices :
         {nlohmann::json(5), nlohmann::json::array({7}),
          nlohmann::json::array({{{"kind", "lease"}, {"usd", 1}}})}) {
        nlohmann::json bad = j;
        bad["prices"] = prices;
        auto refused = gpuFromJson(bad, "h100-sxm");
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().field.find("prices") != std::string::npos,
                 refused.error().field.c_str());
    }
}

void TestIo::scenarioRoundTrip_data()
{
    QTest::addColumn<Mutation>("mutate");
    QTest::addRow("seed default") << Mutation([](Scenario&) {});
    QTest::addRow("every field changed") << Mutation([](Scenario& s) {
        s.model = model("qwen3-30b-a3b");
        s.gpu = gpu("h100-sxm");
        s.gpuCount = 2;
        s.weights = weightFormat("awq-int4");
        s.kvDtype = kvDtype("fp8");
        applyEngine(s, *catalog().engine("vllm"));
        s.engine.kvBlockTokens = 32;
        s.engine.prefillChunkTokens = 4096;
        s.context = 12'345;
        s.batch = 7;
        s.pcie = *catalog().pcieGeneration(5);
        s.pcieLanes = 8;
        s.kvPlacement = KvPlacement::CpuRam;
        s.memoryFraction = 0.85;
        s.prefetchKv = false;
        s.offloadWeights = true;
        s.nvme = *catalog().storageTier("nvme-gen5");
        s.hostMemory = *catalog().host("ddr5-6400-12ch");
        s.efficiency = {0.7, 0.45, 0.75, 0.9, 0.65, 20, 4};
        s.checkpoint = "/srv/models/qwen3 awq";
    });
    QTest::addRow("imported gpt-oss (MoE, layer_types)")
        << Mutation([](Scenario& s) { s.model = importedModel("configs/gpt-oss-20b.json"); });
    QTest::addRow("imported DeepSeek-V3 (MLA)") << Mutation([](Scenario& s) {
        s.model = importedModel("configs/deepseek-v3.json");
        s.gpu = gpu("h200");
        s.gpuCount = 8;
    });
    QTest::addRow("imported Gemma 3 (window pattern)") << Mutation(
        [](Scenario& s) { s.model = importedModel("configs/gemma-3-4b-multimodal.json"); });
    QTest::addRow("imported GPT-2 (ungated MLP)")
        << Mutation([](Scenario& s) { s.model = importedModel("configs/gpt2.json"); });
    QTest::addRow("custom GPU") << Mutation([](Scenario& s) {
        auto g = gpuFromFile(dataPath("gpus/lab-accelerator.json"));
        if (!g)
            qFatal("%s", g.error().message().c_str());
        s.gpu = g.value();
        s.gpu.custom = true;
        s.model = importedModel("configs/falcon-7b.json");
    });
}

void TestIo::scenarioRoundTrip()
{
    QFETCH(Mutation, mutate);
    Scenario s = scenario();
    mutate(s);
    QVERIFY(!validate(s));
    const std::string text = scenarioToText(s);
    QVERIFY(text.back() == '\n');
    auto back = scenarioFromText(text, catalog());
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().message().c_str());
    const Scenario& r = *back;

    const ModelSpec &a = s.model, &b = r.model;
    QCOMPARE(b.imported, a.imported);
    QCOMPARE(qs(b.id), qs(a.id));
    QCOMPARE(qs(b.name), qs(a.name));
    QCOMPARE(qs(b.family), qs(a.family));
    QCOMPARE(qs(b.source), qs(a.source));
    QCOMPARE(b.layers, a.layers);
    QCOMPARE(b.hiddenSize, a.hiddenSize);
    QCOMPARE(b.queryHeads, a.queryHeads);
    QCOMPARE(b.kvHeads, a.kvHeads);
    QCOMPARE(b.headDim, a.headDim);
    QCOMPARE(b.intermediateSize, a.intermediateSize);
    QCOMPARE(b.gatedMlp, a.gatedMlp);
    QCOMPARE(b.vocabSize, a.vocabSize);
    QCOMPARE(b.tiedEmbeddings, a.tiedEmbeddings);
    QCOMPARE(b.attentionBias, a.attentionBias);
    QCOMPARE(b.maxContext, a.maxContext);
    QCOMPARE(b.slidingWindow, a.slidingWindow);
    QCOMPARE(b.windowedLayers, a.windowedLayers);
    QCOMPARE(b.kvLoraRank, a.kvLoraRank);
    QCOMPARE(b.qLoraRank, a.qLoraRank);
    QCOMPARE(b.qkRopeHeadDim, a.qkRopeHeadDim);
    QCOMPARE(b.qkNopeHeadDim, a.qkNopeHeadDim);
    QCOMPARE(b.vHeadDim, a.vHeadDim);
    QCOMPARE(b.experts, a.experts);
    QCOMPARE(b.expertsPerToken, a.expertsPerToken);
    QCOMPARE(b.expertIntermediate, a.expertIntermediate);
    QCOMPARE(b.sharedExperts, a.sharedExperts);
    QCOMPARE(b.denseLayers, a.denseLayers);
    QCOMPARE(b.statedParameters, a.statedParameters);

    const GpuSpec &g = s.gpu, &h = r.gpu;
    QCOMPARE(h.custom, g.custom);
    QCOMPARE(qs(h.id), qs(g.id));
    QCOMPARE(qs(h.name), qs(g.name));
    QCOMPARE(qs(h.vendor), qs(g.vendor));
    QCOMPARE(qs(h.group), qs(g.group));
    QCOMPARE(qs(h.source), qs(g.source));
    QCOMPARE(h.memoryGiB, g.memoryGiB);
    QCOMPARE(h.bandwidthGBps, g.bandwidthGBps);
    QCOMPARE(h.fp16Tflops, g.fp16Tflops);
    QCOMPARE(h.fp8Tflops, g.fp8Tflops);
    QCOMPARE(h.int8Tops, g.int8Tops);
    QCOMPARE(h.pcieGen, g.pcieGen);
    QCOMPARE(h.pcieLanes, g.pcieLanes);
    QCOMPARE(h.nvlinkGBps, g.nvlinkGBps);
    QCOMPARE(h.unifiedMemory, g.unifiedMemory);
    QCOMPARE(h.usableFraction, g.usableFraction);

    QCOMPARE(r.gpuCount, s.gpuCount);
    QCOMPARE(qs(r.weights.id), qs(s.weights.id));
    QCOMPARE(qs(r.kvDtype.id), qs(s.kvDtype.id));
    QCOMPARE(qs(r.checkpoint), qs(s.checkpoint));
    QCOMPARE(qs(r.engine.id), qs(s.engine.id));
    QCOMPARE(r.engine.kvBlockTokens, s.engine.kvBlockTokens);
    QCOMPARE(r.engine.prefillChunkTokens, s.engine.prefillChunkTokens);
    QCOMPARE(r.context, s.context);
    QCOMPARE(r.batch, s.batch);
    QCOMPARE(r.pcie.gen, s.pcie.gen);
    QCOMPARE(r.pcieLanes, s.pcieLanes);
    QCOMPARE(r.kvPlacement, s.kvPlacement);
    QCOMPARE(r.memoryFraction.has_value(), s.memoryFraction.has_value());
    QCOMPARE(r.memoryFraction.value_or(-1), s.memoryFraction.value_or(-1));
    QCOMPARE(r.prefetchKv, s.prefetchKv);
    QCOMPARE(r.offloadWeights, s.offloadWeights);
    QCOMPARE(qs(r.nvme.id), qs(s.nvme.id));
    QCOMPARE(qs(r.sata.id), qs(s.sata.id));
    QCOMPARE(qs(r.hostMemory.id), qs(s.hostMemory.id));
    for (const std::string& id : efficiencyIds())
        QCOMPARE(*efficiencyField(r.efficiency, id), *efficiencyField(s.efficiency, id));

    // Saving what was loaded gives the same file.
    QCOMPARE(qs(scenarioToText(r)), qs(text));
}

void TestIo::scenarioRejects_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("field");
    QTest::addRow("version 3") << R"({"kvscope_scenario": 3})"
                               << "kvscope_scenario";
    QTest::addRow("version 0") << R"({"kvscope_scenario": 0})"
                               << "kvscope_scenario";
    QTest::addRow("version as text") << R"({"kvscope_scenario": "1"})"
                                     << "kvscope_scenario";
    QTest::addRow("no version") << R"({"model": "llama-2-7b"})"
                                << "kvscope_scenario";
    auto v1 = [](const char* rest) {
        return QStringLiteral("{\"kvscope_scenario\": 1, %1}").arg(QString::fromUtf8(rest));
    };
    QTest::addRow("unknown model") << v1(R"("model": "gpt-5")") << "scenario.model";
    QTest::addRow("unknown gpu") << v1(R"("gpu": "rtx-9090")") << "scenario.gpu";
    QTest::addRow("unknown weights") << v1(R"("weights": "q1")") << "scenario.weights";
    QTest::addRow("unknown kv_dtype") << v1(R"("kv_dtype": "fp4")") << "scenario.kv_dtype";
    QTest::addRow("unknown engine") << v1(R"("engine": "tensorrt")") << "scenario.engine";
    QTest::addRow("unknown placement")
        << v1(R"("kv_placement": "tape")") << "scenario.kv_placement";
    QTest::addRow("unknown nvme") << v1(R"("nvme": "floppy")") << "scenario.nvme";
    QTest::addRow("unknown host memory")
        << v1(R"("host_memory": "ddr9")") << "scenario.host_memory";
    QTest::addRow("PCIe 9") << v1(R"("pcie": 9)") << "scenario.pcie";
    QTest::addRow("context 10^12") << v1(R"("context": 1000000000000)") << "context";
    QTest::addRow("efficiency as text") << v1(R"("efficiency": {"hbm_efficiency": "high"})")
                                        << "scenario.efficiency.hbm_efficiency";
    QTest::addRow("embedded model without hidden_size")
        << v1(R"("model": {"num_hidden_layers": 32, "num_attention_heads": 32})")
        << "config.hidden_size";
    QTest::addRow("embedded GPU without bandwidth")
        << v1(R"("gpu": {"memory_gib": 24, "fp16_tensor_tflops": 100})")
        << "gpu.memory_bandwidth_gb_per_s";
}

void TestIo::scenarioRejects()
{
    QFETCH(QString, json);
    QFETCH(QString, field);
    auto s = scenarioFromText(json.toStdString(), catalog());
    QVERIFY(!s.ok());
    QVERIFY2(qs(s.error().field).contains(field), s.error().message().c_str());
}

KVSCOPE_TEST_SUITE(TestIo, "tst_io", kvscope::test::SuiteApp::Core)
#include "tst_io.moc"
