// SPDX-License-Identifier: GPL-3.0-or-later
// Every file in tests/hostile (plus a 50 MB one made at run time), as a stranger might hand it
// over: config-like files are imported as a Hugging Face config.json, gpu-*.json as a GPU file,
// scenario-*.json as a scenario.
//  - kvscope-cli, a child process: exit 2, exactly one line on stderr naming the field.
//  - the window: File > Import model / File > Open show a message naming the field and keep
//    the scenario, its path and its modified flag; a GPU file (the window takes one only on its
//    command line, `kvscope --gpu FILE`) exits 2 with one line, drawing nothing.
//  - failed exports (CSV data, report) leave the file they would replace intact.
//  - file names that are not UTF-8 (ids and sources are made from them) print as valid JSON.

#include "cli.h"
#include "kvscope/formats/config_import.h"
#include "kvscope/settings/scenario_file.h"
#include "suite_registry.h"
#include "testutils.h"
#include "window/main_window.h"
#include "window/scenario_document.h"
#include "window_fixture.h"

#include <QApplication>
#include <QDir>
#include <QMessageBox>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace kvscope;
using namespace Qt::StringLiterals;
using kvscope::test::readAll;

namespace {

// The field each file's error must name (a substring of FieldError::field). A new file in
// tests/hostile without a line here fails the suite, so none goes unchecked.
const std::map<QString, QString>& expectedFields()
{
    static const std::map<QString, QString> fields = {
        // config.json
        {u"binary-garbage.json"_s, u"config"_s},
        {u"deep-nesting.json"_s, u"config"_s},
        {u"duplicate-keys.json"_s, u"num_attention_heads"_s}, // the last duplicate wins: 0
        {u"empty.json"_s, u"config"_s},
        {u"experts-per-token-too-many.json"_s, u"num_experts_per_tok"_s},
        {u"fractional-heads.json"_s, u"num_attention_heads"_s},
        {u"head-dim-not-derivable.json"_s, u"head_dim"_s},
        {u"huge-context.json"_s, u"max_position_embeddings"_s},
        {u"huge-count.json"_s, u"num_hidden_layers"_s},
        {u"kv-heads-not-divisor.json"_s, u"num_key_value_heads"_s},
        {u"layer-types-wrong-length.json"_s, u"layer_types"_s},
        {u"long-string-id.json"_s, u"kvscope_id"_s},
        {u"missing-layers.json"_s, u"num_hidden_layers"_s},
        {u"nan-string.json"_s, u"num_attention_heads"_s},
        {u"negative-heads.json"_s, u"num_attention_heads"_s},
        {u"negative-one-kv-heads.json"_s, u"num_key_value_heads"_s},
        {u"string-for-number.json"_s, u"hidden_size"_s},
        {u"top-level-array.json"_s, u"config"_s},
        {u"truncated.json"_s, u"config"_s},
        {u"unknown-fields.json"_s,
         u"num_hidden_layers"_s}, // misspelt keys: the real one is missing
        {u"utf16-bom.json"_s, u"config"_s},
        {u"wrong-type-array.json"_s, u"num_hidden_layers"_s},
        {u"wrong-type-bool.json"_s, u"tie_word_embeddings"_s},
        {u"wrong-type-object.json"_s, u"hidden_size"_s},
        {u"zero-heads.json"_s, u"num_attention_heads"_s},
        {u"zero-hidden-size.json"_s, u"hidden_size"_s},
        {u"zero-kv-heads.json"_s, u"num_key_value_heads"_s},
        {u"zero-layers.json"_s, u"num_hidden_layers"_s},
        // GGUF model files (scripts/make-gguf-fixtures.py writes them)
        {u"gguf-absurd-array-count.gguf"_s, u"tokenizer.ggml.tokens.count"_s},
        {u"gguf-absurd-string-length.gguf"_s, u"general.description"_s},
        {u"gguf-absurd-tensor-count.gguf"_s, u"gguf.tensor_count"_s},
        {u"gguf-huge-tensor.gguf"_s, u"gguf.tensors[0].ne[1]"_s},
        {u"gguf-layers-without-attention.gguf"_s, u"attention.head_count_kv"_s},
        {u"gguf-overlapping-tensors.gguf"_s, u"offset"_s},
        {u"gguf-truncated.gguf"_s, u"gguf"_s},
        {u"gguf-version-1.gguf"_s, u"gguf.version"_s},
        {u"gguf-wrong-magic.gguf"_s, u"gguf.magic"_s},
        // GPU files
        {u"gpu-huge-memory.json"_s, u"gpu.memory_gib"_s},
        {u"gpu-missing-tflops.json"_s, u"gpu.fp16_tensor_tflops"_s},
        {u"gpu-nan-tflops.json"_s, u"gpu.fp16_tensor_tflops"_s},
        {u"gpu-negative-bandwidth.json"_s, u"gpu.memory_bandwidth_gb_per_s"_s},
        {u"gpu-truncated.json"_s, u"gpu"_s},
        {u"gpu-usable-fraction-zero.json"_s, u"gpu.gpu_usable_fraction"_s},
        {u"gpu-wrong-type-lanes.json"_s, u"gpu.pcie_lanes"_s},
        {u"gpu-zero-memory.json"_s, u"gpu.memory_gib"_s},
        // scenario files
        {u"scenario-batch-zero.json"_s, u"scenario.batch"_s},
        {u"scenario-context-1e308.json"_s, u"scenario.context"_s},
        {u"scenario-duplicate-keys.json"_s, u"scenario.context"_s},
        {u"scenario-efficiency-negative.json"_s, u"scenario.efficiency.hbm_efficiency"_s},
        {u"scenario-embedded-gpu-nan.json"_s, u"gpu.memory_gib"_s},
        {u"scenario-embedded-model-bad-kv-heads.json"_s, u"num_key_value_heads"_s},
        {u"scenario-gpus-negative.json"_s, u"scenario.gpus"_s},
        {u"scenario-model-wrong-type.json"_s, u"scenario.model"_s},
        {u"scenario-pinned-bad-batch.json"_s, u"scenario.pinned[1].batch"_s},
        {u"scenario-pinned-five.json"_s, u"scenario.pinned"_s},
        {u"scenario-pinned-nested.json"_s, u"scenario.pinned[0].scenario"_s},
        {u"scenario-truncated.json"_s, u"scenario"_s},
        {u"scenario-utf16-bom.json"_s, u"scenario"_s},
        {u"scenario-version-99.json"_s, u"scenario.kvscope_scenario"_s},
    };
    return fields;
}

enum class Kind { Config, Gpu, Scenario };

Kind kindOf(const QString& name)
{
    if (name.startsWith(QLatin1String("gpu-")))
        return Kind::Gpu;
    if (name.startsWith(QLatin1String("scenario-")))
        return Kind::Scenario;
    return Kind::Config;
}

QString optionFor(Kind kind)
{
    return kind == Kind::Gpu        ? QStringLiteral("--gpu")
           : kind == Kind::Scenario ? QStringLiteral("--scenario")
                                    : QStringLiteral("--model");
}

QString hostileDir()
{
    return QStringLiteral(KVSCOPE_TEST_DATA_DIR "/hostile");
}

// Runs a program to completion; a crash or a hang fails the calling test.
struct Run
{
    int code = -1;
    QString out, err;
};

Run runProcess(const QString& program, const QStringList& args, const QProcessEnvironment& env)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    Run r;
    if (!p.waitForFinished(120'000)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("timed out");
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

// Closes every message box that opens while it lives, keeping their text: the window reports a
// refused file with a modal QMessageBox, which would otherwise wait for a click.
class MessageBoxCatcher : public QObject
{
public:
    MessageBoxCatcher()
    {
        connect(&m_timer, &QTimer::timeout, this, [this] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                m_texts << box->windowTitle() + QLatin1Char('\n') + box->text();
                box->close();
            }
        });
        m_timer.start(10);
    }
    const QStringList& texts() const { return m_texts; }

private:
    QTimer m_timer;
    QStringList m_texts;
};

} // namespace

class TestHostile : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void everyFileIsDescribed();
    void cli_data();
    void cli();
    void window_data();
    void window();
    void failedExportsKeepOldFile();
    void nonUtf8FileNames();
    void cleanupTestCase();

private:
    void addFileRows(bool includeGpu);

    QTemporaryDir m_tmp;
    QString m_large; // 50 MB of valid JSON, made here rather than committed
    test::WindowFixture m_fixture;
};

void TestHostile::initTestCase()
{
    QVERIFY(m_tmp.isValid());
    m_large = m_tmp.filePath(QStringLiteral("large-50mb.json"));
    QVERIFY(test::writeLargeJson(
                m_large, R"("num_hidden_layers": 32, "memory_gib": 24, "kvscope_scenario": 1,)") >
            50'000'000);
    QVERIFY(QFileInfo(m_large).size() > qint64(maxInputFileBytes));
    m_fixture.open();
}

void TestHostile::cleanupTestCase()
{
    m_fixture.close();
}

void TestHostile::everyFileIsDescribed()
{
    const QStringList files = QDir(hostileDir()).entryList(QDir::Files);
    QVERIFY2(files.size() >= 25, qPrintable(QString::number(files.size())));
    for (const QString& file : files)
        QVERIFY2(expectedFields().count(file), qPrintable(file + u" has no expected field"_s));
    for (const auto& [file, field] : expectedFields())
        QVERIFY2(files.contains(file), qPrintable(file + u" is described but missing"_s));
}

void TestHostile::addFileRows(bool includeGpu)
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("field");
    for (const auto& [file, field] : expectedFields())
        if (includeGpu || kindOf(file) != Kind::Gpu)
            QTest::addRow("%s", qPrintable(file))
                << hostileDir() + QLatin1Char('/') + file << int(kindOf(file)) << field;
    // The 50 MB file, as each kind: refused by its size before it is read.
    QTest::addRow("50 MB as config") << m_large << int(Kind::Config) << QStringLiteral("config");
    if (includeGpu)
        QTest::addRow("50 MB as GPU") << m_large << int(Kind::Gpu) << QStringLiteral("gpu");
    QTest::addRow("50 MB as scenario")
        << m_large << int(Kind::Scenario) << QStringLiteral("scenario");
}

void TestHostile::cli_data()
{
    addFileRows(true);
}

void TestHostile::cli()
{
    QFETCH(QString, path);
    QFETCH(int, kind);
    QFETCH(QString, field);
    const Run r =
        runProcess(QStringLiteral(KVSCOPE_CLI_EXECUTABLE),
                   {QStringLiteral("calc"), QStringLiteral("--json"), optionFor(Kind(kind)), path},
                   QProcessEnvironment::systemEnvironment());
    QVERIFY2(r.code >= 0, qPrintable(u"kvscope-cli crashed or hung: "_s + r.err));
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.startsWith(QLatin1String("kvscope-cli: ")) && r.err.endsWith(u'\n') &&
                 r.err.count(u'\n') == 1,
             qPrintable(r.err));
    // "kvscope-cli: <field>: got ...": the field comes first.
    const QString named = r.err.section(QLatin1Char(':'), 1, 1).trimmed();
    QVERIFY2(named.contains(field), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
}

void TestHostile::window_data()
{
    addFileRows(true);
}

void TestHostile::window()
{
    QFETCH(QString, path);
    QFETCH(int, kind);
    QFETCH(QString, field);

    if (Kind(kind) == Kind::Gpu) {
        // The window's command line: refused before any window is drawn.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_tmp.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_tmp.path()); // else Qt warns on stderr
        const QString shot = m_tmp.filePath(QStringLiteral("shot.png"));
        const Run r =
            runProcess(QStringLiteral(KVSCOPE_GUI_EXECUTABLE),
                       {QStringLiteral("--gpu"), path, QStringLiteral("--screenshot"), shot}, env);
        QVERIFY2(r.code >= 0, qPrintable(u"kvscope crashed or hung: "_s + r.err));
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith(QLatin1String("kvscope: ")) && r.err.count(u'\n') == 1 &&
                     r.err.section(QLatin1Char(':'), 1, 1).contains(field),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(shot));
        return;
    }

    ui::MainWindow& window = *m_fixture.window;
    ui::ScenarioController& controller = *m_fixture.controller;
    // A scenario of our own, not the default, so "unchanged" means something.
    controller.edit([](Scenario& s) {
        s.model = test::model("qwen2.5-7b");
        s.context = 12'345;
        s.batch = 3;
    });
    controller.evaluateNow();
    const std::string before = scenarioToText(controller.scenario());
    const QString pathBefore = window.document()->path();
    const bool modifiedBefore = window.document()->isModified();
    const QString titleBefore = window.windowTitle();

    bool accepted = true;
    QStringList messages;
    {
        MessageBoxCatcher catcher;
        accepted = Kind(kind) == Kind::Config ? window.importModelFile(path)
                                              : window.document()->open(path);
        messages = catcher.texts();
    }
    QVERIFY(!accepted);
    QCOMPARE(messages.size(), 1);
    QVERIFY2(messages.front().contains(field), qPrintable(messages.front()));
    // A clear title, whichever kind of file it was.
    QVERIFY2(messages.front().startsWith(QLatin1String("Cannot ")), qPrintable(messages.front()));

    controller.evaluateNow();
    QCOMPARE(test::qs(scenarioToText(controller.scenario())), test::qs(before));
    QCOMPARE(window.document()->path(), pathBefore);
    QCOMPARE(window.document()->isModified(), modifiedBefore);
    QCOMPARE(window.windowTitle(), titleBefore);
    QVERIFY(controller.hasSnapshot());
}

void TestHostile::failedExportsKeepOldFile()
{
    // tst_export covers charts and scenario saves; these are the window's other two writers.
    // /proc/version exists and takes no replacement, even for root.
    const QString guarded = QStringLiteral("/proc/version");
    const QByteArray before = readAll(guarded);
    QVERIFY(!before.isEmpty());
    ui::MainWindow& window = *m_fixture.window;
    for (int which = 0; which < 2; ++which) {
        MessageBoxCatcher catcher;
        const bool written = which == 0 ? window.exportData(guarded) : window.exportReport(guarded);
        QVERIFY(!written);
        QCOMPARE(catcher.texts().size(), 1);
        QVERIFY2(catcher.texts().front().contains(QLatin1String("unchanged")),
                 qPrintable(catcher.texts().front()));
        QCOMPARE(readAll(guarded), before);
    }
    // And from the command line: a failed export exits non-zero and leaves the file alone.
    const Run r = runProcess(QStringLiteral(KVSCOPE_CLI_EXECUTABLE),
                             {QStringLiteral("export"), QStringLiteral("--chart"),
                              QStringLiteral("kv"), QStringLiteral("--format"),
                              QStringLiteral("png"), QStringLiteral("--out"), guarded},
                             QProcessEnvironment::systemEnvironment());
    QVERIFY2(r.code > 0, qPrintable(r.err));
    QCOMPARE(readAll(guarded), before);
}

void TestHostile::nonUtf8FileNames()
{
    // A config.json and a GPU file without ids, named with bytes that are not UTF-8: the ids
    // come from the names. `calc --json` used to abort here (nlohmann's dump() throws).
    const std::filesystem::path dir = m_tmp.path().toStdString();
    const std::filesystem::path config = dir / "Llama\xff-2";
    std::filesystem::create_directories(config);
    std::filesystem::copy_file(KVSCOPE_TEST_DATA_DIR "/data/configs/Llama-2-7b-hf/config.json",
                               config / "config.json");
    const std::filesystem::path gpuFile = dir / "lab\xfe.json";
    std::ofstream(gpuFile) << R"({"memory_gib": 48, "memory_bandwidth_gb_per_s": 1000,
                                 "fp16_tensor_tflops": 100})";
    std::ostringstream out, err;
    const int code = cli::run(
        {"calc", "--json", "--model", (config / "config.json").string(), "--gpu", gpuFile.string()},
        test::catalog(), out, err);
    QCOMPARE(code, 0);
    QVERIFY2(err.str().empty(), err.str().c_str());
    const auto json = nlohmann::json::parse(out.str());
    QCOMPARE(json["scenario"]["model"].get<std::string>(), std::string("llama\ufffd-2"));
    QCOMPARE(json["scenario"]["gpu"].get<std::string>(), std::string("lab\ufffd"));
    // And a scenario holding them saves as valid JSON.
    auto model = modelFromConfigFile(config / "config.json");
    QVERIFY(model.ok());
    Scenario s = test::scenario();
    s.model = *model;
    s.model.imported = true;
    const std::string saved = scenarioToText(s);
    // QTemporaryDir cannot remove names Qt cannot decode.
    std::filesystem::remove_all(config);
    std::filesystem::remove(gpuFile);
    QVERIFY(nlohmann::json::parse(saved)["model"]["source"].get<std::string>().find("\ufffd") !=
            std::string::npos);
}

KVSCOPE_TEST_SUITE(TestHostile, "tst_hostile", kvscope::test::SuiteApp::Widgets)
#include "tst_hostile.moc"
