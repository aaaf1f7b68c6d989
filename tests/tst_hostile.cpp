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

#include "suite_registry.h"
#include "cli.h"
#include "kvscope/formats/config_import.h"
#include "kvscope/settings/scenario_file.h"
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

namespace {

// The field each file's error must name (a substring of FieldError::field). A new file in
// tests/hostile without a line here fails the suite, so none goes unchecked.
const std::map<QString, QString>& expectedFields()
{
    static const std::map<QString, QString> fields = {
        // config.json
        {"binary-garbage.json", "config"},
        {"deep-nesting.json", "config"},
        {"duplicate-keys.json", "num_attention_heads"}, // the last duplicate wins: 0
        {"empty.json", "config"},
        {"experts-per-token-too-many.json", "num_experts_per_tok"},
        {"fractional-heads.json", "num_attention_heads"},
        {"head-dim-not-derivable.json", "head_dim"},
        {"huge-context.json", "max_position_embeddings"},
        {"huge-count.json", "num_hidden_layers"},
        {"kv-heads-not-divisor.json", "num_key_value_heads"},
        {"layer-types-wrong-length.json", "layer_types"},
        {"long-string-id.json", "kvscope_id"},
        {"missing-layers.json", "num_hidden_layers"},
        {"nan-string.json", "num_attention_heads"},
        {"negative-heads.json", "num_attention_heads"},
        {"negative-one-kv-heads.json", "num_key_value_heads"},
        {"string-for-number.json", "hidden_size"},
        {"top-level-array.json", "config"},
        {"truncated.json", "config"},
        {"unknown-fields.json", "num_hidden_layers"}, // misspelt keys: the real one is missing
        {"utf16-bom.json", "config"},
        {"wrong-type-array.json", "num_hidden_layers"},
        {"wrong-type-bool.json", "tie_word_embeddings"},
        {"wrong-type-object.json", "hidden_size"},
        {"zero-heads.json", "num_attention_heads"},
        {"zero-hidden-size.json", "hidden_size"},
        {"zero-kv-heads.json", "num_key_value_heads"},
        {"zero-layers.json", "num_hidden_layers"},
        // GGUF model files (scripts/make-gguf-fixtures.py writes them)
        {"gguf-absurd-array-count.gguf", "tokenizer.ggml.tokens.count"},
        {"gguf-absurd-string-length.gguf", "general.description"},
        {"gguf-absurd-tensor-count.gguf", "gguf.tensor_count"},
        {"gguf-huge-tensor.gguf", "gguf.tensors[0].ne[1]"},
        {"gguf-layers-without-attention.gguf", "attention.head_count_kv"},
        {"gguf-overlapping-tensors.gguf", "offset"},
        {"gguf-truncated.gguf", "gguf"},
        {"gguf-version-1.gguf", "gguf.version"},
        {"gguf-wrong-magic.gguf", "gguf.magic"},
        // GPU files
        {"gpu-huge-memory.json", "gpu.memory_gib"},
        {"gpu-missing-tflops.json", "gpu.fp16_tensor_tflops"},
        {"gpu-nan-tflops.json", "gpu.fp16_tensor_tflops"},
        {"gpu-negative-bandwidth.json", "gpu.memory_bandwidth_gb_per_s"},
        {"gpu-truncated.json", "gpu"},
        {"gpu-usable-fraction-zero.json", "gpu.gpu_usable_fraction"},
        {"gpu-wrong-type-lanes.json", "gpu.pcie_lanes"},
        {"gpu-zero-memory.json", "gpu.memory_gib"},
        // scenario files
        {"scenario-batch-zero.json", "scenario.batch"},
        {"scenario-context-1e308.json", "scenario.context"},
        {"scenario-duplicate-keys.json", "scenario.context"},
        {"scenario-efficiency-negative.json", "scenario.efficiency.hbm_efficiency"},
        {"scenario-embedded-gpu-nan.json", "gpu.memory_gib"},
        {"scenario-embedded-model-bad-kv-heads.json", "num_key_value_heads"},
        {"scenario-gpus-negative.json", "scenario.gpus"},
        {"scenario-model-wrong-type.json", "scenario.model"},
        {"scenario-pinned-bad-batch.json", "scenario.pinned[1].batch"},
        {"scenario-pinned-five.json", "scenario.pinned"},
        {"scenario-pinned-nested.json", "scenario.pinned[0].scenario"},
        {"scenario-truncated.json", "scenario"},
        {"scenario-utf16-bom.json", "scenario"},
        {"scenario-version-99.json", "scenario.kvscope_scenario"},
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

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
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
        QVERIFY2(expectedFields().count(file), qPrintable(file + " has no expected field"));
    for (const auto& [file, field] : expectedFields())
        QVERIFY2(files.contains(file), qPrintable(file + " is described but missing"));
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
    QVERIFY2(r.code >= 0, qPrintable("kvscope-cli crashed or hung: " + r.err));
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.startsWith(QLatin1String("kvscope-cli: ")) && r.err.endsWith('\n') &&
                 r.err.count('\n') == 1,
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
        QVERIFY2(r.code >= 0, qPrintable("kvscope crashed or hung: " + r.err));
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith(QLatin1String("kvscope: ")) && r.err.count('\n') == 1 &&
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
