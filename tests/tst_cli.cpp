// SPDX-License-Identifier: GPL-3.0-or-later
// kvscope-cli in-process: golden files (tests/golden/<name>.args, one argument a line, and the
// expected <name>.json), help, version, listings, errors and CSV.
//
// Regenerate the expected files after an intended change with
//   KVSCOPE_UPDATE_GOLDEN=1 ctest -R tst_cli
// and check the diff: every number below was worked out by hand before the files were accepted.
// (B = bytes; GPU bandwidth x 0.80 HBM efficiency; PCIe 4.0 x16 = 25.206 GB/s effective.)
//
// seed-default (Llama 2 7B, FP16, RTX 4090, 2,048 tokens, HF):
//   KV 2 x 32 x 128 x 2 B = 16,384 B/token/layer, x 32 = 524,288 B/token, x 2,048 = 1 GiB.
//   weights 6,738,415,616 x 2 = 13,476,831,232 B; capacity 24 GiB = 25,769,803,776 B; overhead
//   300 MiB = 314,572,800 B; activations 2,048 tokens x (2 x 4,096 residual + 4,096 q +
//   8,192 k/v + 4,096 attention out + 3 x 11,008 MLP) x 2 B + 32,000 x 4 B logits =
//   236,057,600 B; free = 25,769,803,776 - 13,476,831,232 - 1,073,741,824 - 236,057,600 -
//   314,572,800 = 10,668,600,320 B. Tokens fit: (free + KV) 11,742,342,144 / 524,288 = 22,396
//   (MHA); / 131,072 = 89,586 (GQA 8); / 16,384 = 716,695 (MQA). kv_transfer 2^30 / 25.206e9 =
//   42.598 ms; GPU step (13,214,695,424 B weights read + 2^30 B KV) / 806.4 GB/s = 17.719 ms;
//   serial 17.719 + 42.598 = 60.317 ms; pipelined: the longer stream plus one layer of the
//   shorter, 42.598 + 17.719 / 32 = 43.152 ms; NVMe 2^30 / 7.45 GB/s = 144.13 + 0.55 = 144.68 ms.
//   (The fixed cost puts the golden's GPU step at 18.78 ms: 43.185 and 144.71.) Recompute of
//   2,048 tokens: (2 x 6.738e9 x 2,048 + 2 x 32 x 256 x 32 x 2,048 x 2,049 / 2) FLOP / 66.08
//   TFLOP/s = 434.33 ms. Reload beats it over PCIe from 90 tokens, over NVMe from 123, over SATA
//   never (-1).
// llama-2-7b-32k: KV 32,768 x 524,288 = 16 GiB; activations 32,768 x 57,600 x 2 + 128,000 =
//   3,775,001,600 B; free = -8,976,471,040 B, so fits=false; kv_transfer 16 x 42.598 =
//   681.57 ms; tokens fit (free + KV) 8,203,398,144 / 524,288 = 15,646.
// llama-3.1-8b-gqa: 2 x 8 x 128 x 2 = 4,096 B/layer, 131,072 B/token, x 2,048 = 256 MiB;
//   weights 8,030,261,248 x 2 = 16,060,522,496 B; free 8,874,101,760 B; tokens fit
//   9,142,537,216 / 131,072 = 69,752 (model = GQA), / 524,288 = 17,438 (MHA).
// deepseek-v3-8xh200-fp8: latent (512 + 64) x 1 B = 576 B/layer, x 61 = 35,136 B/token, not
//   split over GPUs: x 2,048 = 71,958,528 B on each. Weights: embedding and lm_head
//   2 x 129,280 x 7,168 = 1,853,358,080 at 2 B, the other 669,172,921,344 at 1 B:
//   672,879,637,504 B, / 8 = 84,109,954,688 B per GPU of 141 GiB. MHA variant: 128 heads / 8
//   = 16 per GPU x 2 x 128 x 1 B x 61 x 2,048 = 511,705,088 B. MLA tokens fit 66,868,901,120 /
//   35,136 = 1,903,144. (Its reload_faster_from_tokens of 2 on every tier is the breakeven
//   bug that tst_evaluation's breakevenMatchesCurves reports for MoE models; the same holds for
//   the mixtral and gpt-oss files. Regenerate them when it is fixed.)
// mixtral-q4km-3090-kv-cpu: KV 131,072 x 2,048 = 256 MiB, of which HF keeps 2 of 32 layers on
//   the GPU (16 MiB). Weights 46,440,648,704 x 4.8944 / 8 + 262,144,000 x 6.5625 / 8 =
//   28,627,428,877 B > 24 GiB: fits=false. Weights read per step (2 of 8 experts) 7,827,081,928
//   B; GPU step (that + 256 MiB) / 748.8 GB/s = 10.811 ms; KV over PCIe 10.650 ms; the chosen
//   pipelined tier max(10.811, 10.650) + 10.650 / 32 = 11.144 ms.
// mistral-7b-v0.1-16k: all 32 layers windowed at 4,096: KV 4,096 x 131,072 = 512 MiB, the same
//   as at 4,096 tokens; no tokens-fit count is limited (null, "null_because": "window_capped");
//   8,958,372,864 B for KV / 512 MiB = 16 concurrent sequences.
// gpt-oss-20b-mxfp4-4090: 2 x 8 x 64 x 2 = 2,048 B/layer; 12 windowed layers hold 128 of the
//   2,048 tokens: (12 x 2,048 + 12 x 128) x 2,048 = 53,477,376 B. Weights 19,749,783,360 x
//   4.25 / 8 + 1,158,266,880 x 2 = 12,808,606,170 B. Tokens fit: 128 x 49,152 B fills every
//   layer's window, the rest grows 12 layers: 128 + (12,442,920,998 - 6,291,456) / 24,576 =
//   506,175.
// llama-3.1-70b-vllm-2xh100: 8 KV heads / 2 GPUs = 4: 2,048 B/layer, 163,840 B/token per GPU;
//   16 x 8,192 tokens = 21,474,836,480 B. Budget 80 GiB x 0.92 = 79,027,398,246 B; overhead
//   338 + 369 MiB = 741,343,232 B; weights (68,452,360,192 x 1 + 2,101,346,304 x 2) / 2 =
//   36,327,526,400 B; activations for vLLM's 2,048-token chunk 2,048 x 68,608 x 2 + 16 x
//   128,256 x 4 / 2 = 285,122,560 B; free 20,198,569,574 B; per sequence 41,673,406,054 / 16 /
//   163,840 = 15,897, in 16-token blocks 15,888.
// sweep-context: x = 256 x 2^(9i/15) rounded (388, 588, ..., 2,048 at i = 5, 16,384 at i = 10,
//   131,072); kv_per_gpu_bytes = x x 524,288 at every point.

#include "suite_registry.h"
#include "testutils.h"

#include "cli.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <sstream>

using namespace kvscope;
using namespace kvscope::test;
using namespace Qt::StringLiterals;

namespace {

struct CliResult
{
    int code = -1;
    std::string out;
    std::string err;
};

CliResult runCli(const QStringList& args)
{
    std::vector<std::string> argv;
    for (const QString& a : args)
        argv.push_back(a.toStdString());
    std::ostringstream out, err;
    CliResult r;
    r.code = cli::run(argv, out, err, QCoreApplication::applicationFilePath().toStdString());
    r.out = out.str();
    r.err = err.str();
    return r;
}

QString goldenDir()
{
    return QStringLiteral(KVSCOPE_TEST_DATA_DIR "/golden");
}

// The first difference between two JSON trees, or "" when equal. Numbers match within a
// relative 1e-9, so a golden file survives the last bit of a floating-point sum.
QString jsonDiff(const nlohmann::json& actual, const nlohmann::json& expected, const QString& path)
{
    if (actual.is_number() && expected.is_number()) {
        const double a = actual.get<double>(), e = expected.get<double>();
        if (a == e || std::fabs(a - e) <= 1e-9 * std::max(std::fabs(a), std::fabs(e)))
            return {};
        return QStringLiteral("%1: %2, expected %3")
            .arg(path)
            .arg(a, 0, 'g', 17)
            .arg(e, 0, 'g', 17);
    }
    if (actual.type() != expected.type())
        return QStringLiteral("%1: %2, expected %3")
            .arg(path, qs(actual.dump()), qs(expected.dump()));
    if (actual.is_object()) {
        for (auto it = expected.begin(); it != expected.end(); ++it)
            if (!actual.contains(it.key()))
                return QStringLiteral("%1/%2: missing").arg(path, qs(it.key()));
        for (auto it = actual.begin(); it != actual.end(); ++it) {
            if (!expected.contains(it.key()))
                return QStringLiteral("%1/%2: not in the golden file").arg(path, qs(it.key()));
            if (QString d = jsonDiff(*it, expected[it.key()], path + u'/' + qs(it.key()));
                !d.isEmpty())
                return d;
        }
        return {};
    }
    if (actual.is_array()) {
        if (actual.size() != expected.size())
            return QStringLiteral("%1: %2 elements, expected %3")
                .arg(path)
                .arg(actual.size())
                .arg(expected.size());
        for (size_t i = 0; i < actual.size(); ++i)
            if (QString d = jsonDiff(actual[i], expected[i], path + u'/' + QString::number(i));
                !d.isEmpty())
                return d;
        return {};
    }
    return actual == expected ? QString()
                              : QStringLiteral("%1: %2, expected %3")
                                    .arg(path, qs(actual.dump()), qs(expected.dump()));
}

// A `$ kvscope-cli ...` line of the README's console blocks and the output lines shown under it
// ("..." in a line stands for text left out).
struct ReadmeExample
{
    QString command;
    QStringList shown;
};

std::vector<ReadmeExample> readmeExamples()
{
    QFile file(QStringLiteral(KVSCOPE_TEST_DATA_DIR "/../README.md"));
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    std::vector<ReadmeExample> examples;
    bool inBlock = false, shell = false, collecting = false;
    for (const QString& raw : QString::fromUtf8(file.readAll()).split(u'\n')) {
        const QString trimmed = raw.trimmed(); // examples may sit indented in a list item
        if (trimmed.startsWith(u"```"_s)) {
            inBlock = !inBlock;
            shell = inBlock &&
                    (trimmed == u"```"_s || trimmed == u"```console"_s || trimmed == u"```sh"_s);
            collecting = false;
            continue;
        }
        if (!shell)
            continue;
        if (collecting && examples.back().command.endsWith(u'\\')) {
            examples.back().command = examples.back().command.chopped(1) + u' ' + trimmed;
        } else if (trimmed.startsWith(u"$ kvscope-cli "_s)) {
            examples.push_back({trimmed.mid(14), {}});
            collecting = true;
        } else if (trimmed.startsWith(u"$ "_s)) {
            collecting = false; // another program's example
        } else if (collecting && !trimmed.isEmpty()) {
            examples.back().shown << raw;
        }
    }
    return examples;
}

// Whether some output line holds the shown line's parts in order, spacing aside.
bool outputShows(const QStringList& output, const QString& shown)
{
    QStringList parts;
    for (const QString& part : shown.split(u"..."_s))
        if (!part.simplified().isEmpty())
            parts << part.simplified();
    return parts.isEmpty() || std::any_of(output.begin(), output.end(), [&](const QString& line) {
               qsizetype from = 0;
               for (const QString& part : parts) {
                   from = line.indexOf(part, from);
                   if (from < 0)
                       return false;
                   from += part.size();
               }
               return true;
           });
}

// Exactly one line on stderr that names `field`.
bool oneLineNaming(const std::string& err, const std::string& field)
{
    return !err.empty() && err.back() == '\n' && std::count(err.begin(), err.end(), '\n') == 1 &&
           err.find(field) != std::string::npos;
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private slots:
    void golden_data();
    void golden();
    void help();
    void version();
    void list_data();
    void list();
    void listTable();
    void calcTable();
    void badInput_data();
    void badInput();
    void sweepCsv();
    void validate();
    void validateFiles();
    void calibrate();
    void readmeExamplesMatch_data();
    void readmeExamplesMatch();
};

void TestCli::golden_data()
{
    QTest::addColumn<QString>("name");
    const QStringList names =
        QDir(goldenDir()).entryList({QStringLiteral("*.args")}, QDir::Files, QDir::Name);
    QVERIFY2(names.size() >= 8, qPrintable(goldenDir()));
    for (const QString& file : names) {
        const QString name = file.chopped(5);
        QTest::addRow("%s", qPrintable(name)) << name;
    }
}

void TestCli::golden()
{
    QFETCH(QString, name);
    QFile argsFile(goldenDir() + u'/' + name + u".args"_s);
    QVERIFY(argsFile.open(QIODevice::ReadOnly | QIODevice::Text));
    QStringList args;
    for (const QByteArray& line : argsFile.readAll().split('\n'))
        if (!line.trimmed().isEmpty())
            args << QString::fromUtf8(line.trimmed());

    const CliResult r = runCli(args);
    QVERIFY2(r.code == 0, r.err.c_str());
    QVERIFY2(r.err.empty(), r.err.c_str());
    const auto actual = nlohmann::json::parse(r.out, nullptr, false);
    QVERIFY(!actual.is_discarded());
    QVERIFY2(firstNonFinite(actual).empty(), firstNonFinite(actual).c_str());

    const QString expectedPath = goldenDir() + u'/' + name + u".json"_s;
    if (qEnvironmentVariableIntValue("KVSCOPE_UPDATE_GOLDEN") == 1) {
        QSaveFile out(expectedPath);
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Text));
        out.write(QByteArray::fromStdString(actual.dump(2) + "\n"));
        QVERIFY(out.commit());
        qInfo("rewrote %s", qPrintable(expectedPath));
        return;
    }
    QFile expectedFile(expectedPath);
    QVERIFY2(expectedFile.open(QIODevice::ReadOnly),
             qPrintable(expectedPath + u" is missing; run with KVSCOPE_UPDATE_GOLDEN=1"_s));
    const auto expected =
        nlohmann::json::parse(expectedFile.readAll().toStdString(), nullptr, false);
    QVERIFY(!expected.is_discarded());
    const QString diff = jsonDiff(actual, expected, QString());
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

void TestCli::help()
{
    for (const QStringList& args :
         {QStringList{u"--help"_s}, QStringList{u"help"_s}, QStringList{u"calc"_s, u"--help"_s}}) {
        const CliResult r = runCli(args);
        QCOMPARE(r.code, 0);
        QVERIFY(r.err.empty());
        QVERIFY(r.out.find("Usage:") != std::string::npos);
        QVERIFY(r.out.find("--kv-placement") != std::string::npos);
        QVERIFY(r.out.find("kvscope-cli validate") != std::string::npos);
        QVERIFY(r.out.find("kvscope-cli calibrate") != std::string::npos);
    }
}

void TestCli::version()
{
    const CliResult r = runCli({u"--version"_s});
    QCOMPARE(r.code, 0);
    QCOMPARE(qs(r.out), QStringLiteral("kvscope-cli 0.1.0\n"));
}

void TestCli::list_data()
{
    QTest::addColumn<QString>("what");
    QTest::addColumn<int>("atLeast");
    QTest::addColumn<QString>("idKey");
    QTest::addRow("models") << "models" << 30 << "kvscope_id";
    QTest::addRow("gpus") << "gpus" << 25 << "id";
    QTest::addRow("quants") << "quants" << 10 << "id";
    QTest::addRow("kv-dtypes") << "kv-dtypes" << 6 << "id";
    QTest::addRow("engines") << "engines" << 5 << "id";
}

void TestCli::list()
{
    QFETCH(QString, what);
    QFETCH(int, atLeast);
    QFETCH(QString, idKey);
    const CliResult r = runCli({u"list"_s, what, u"--json"_s});
    QCOMPARE(r.code, 0);
    const auto j = nlohmann::json::parse(r.out, nullptr, false);
    QVERIFY(j.is_array());
    QVERIFY2(int(j.size()) >= atLeast, qPrintable(QString::number(j.size())));
    for (const auto& entry : j) {
        QVERIFY(entry.is_object());
        QVERIFY(entry.contains(idKey.toStdString()));
        QVERIFY(entry.contains("source"));
    }
    QVERIFY(firstNonFinite(j).empty() || what == u"gpus"_s); // GPUs without PCIe show null
}

void TestCli::listTable()
{
    const CliResult r = runCli({u"list"_s, u"models"_s});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.rfind("id", 0) == 0);
    QVERIFY(r.out.find("llama-2-7b") != std::string::npos);
}

void TestCli::calcTable()
{
    const CliResult r = runCli({u"calc"_s});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.find("16.0 KiB") != std::string::npos);
    QVERIFY(r.out.find("1.00 GiB") != std::string::npos);
    const CliResult si = runCli({u"calc"_s, u"--si"_s});
    QVERIFY(si.out.find("1.07 GB") != std::string::npos);
}

void TestCli::badInput_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("field");
    QTest::addRow("unknown option")
        << QStringList{u"calc"_s, u"--frobnicate"_s, u"3"_s} << u"--frobnicate"_s;
    QTest::addRow("single dash") << QStringList{u"calc"_s, u"-x"_s} << u"-x"_s;
    QTest::addRow("missing value") << QStringList{u"calc"_s, u"--context"_s} << u"--context"_s;
    QTest::addRow("switch with a value") << QStringList{u"calc"_s, u"--json=yes"_s} << u"--json"_s;
    QTest::addRow("no command") << QStringList{} << u"command"_s;
    QTest::addRow("unknown command") << QStringList{u"frob"_s} << u"command"_s;
    QTest::addRow("unknown list") << QStringList{u"list"_s, u"widgets"_s} << u"list"_s;
    QTest::addRow("unknown model")
        << QStringList{u"calc"_s, u"--model"_s, u"gpt-5"_s} << u"--model"_s;
    QTest::addRow("unknown gpu") << QStringList{u"calc"_s, u"--gpu"_s, u"rtx-9090"_s} << u"--gpu"_s;
    QTest::addRow("unknown weights")
        << QStringList{u"calc"_s, u"--weights"_s, u"q1"_s} << u"--weights"_s;
    QTest::addRow("unknown engine")
        << QStringList{u"calc"_s, u"--engine"_s, u"tgi-9"_s} << u"--engine"_s;
    QTest::addRow("PCIe 7") << QStringList{u"calc"_s, u"--pcie"_s, u"7"_s} << u"--pcie"_s;
    QTest::addRow("5 lanes") << QStringList{u"calc"_s, u"--lanes"_s, u"5"_s} << u"--lanes"_s;
    QTest::addRow("batch 0") << QStringList{u"calc"_s, u"--batch"_s, u"0"_s} << u"--batch"_s;
    QTest::addRow("gpus 2000") << QStringList{u"calc"_s, u"--gpus"_s, u"2000"_s} << u"--gpus"_s;
    QTest::addRow("memory fraction 1.5")
        << QStringList{u"calc"_s, u"--gpu-mem-util"_s, u"1.5"_s} << u"--gpu-mem-util"_s;
    QTest::addRow("sweep without --vary")
        << QStringList{u"sweep"_s, u"--from"_s, u"1"_s, u"--to"_s, u"2"_s, u"--points"_s, u"2"_s}
        << u"--vary"_s;
    QTest::addRow("sweep 1 point")
        << QStringList{u"sweep"_s, u"--vary"_s, u"context"_s,  u"--from"_s, u"256"_s,
                       u"--to"_s,  u"512"_s,    u"--points"_s, u"1"_s}
        << u"--points"_s;
    QTest::addRow("sweep backwards")
        << QStringList{u"sweep"_s, u"--vary"_s, u"batch"_s,    u"--from"_s, u"64"_s,
                       u"--to"_s,  u"8"_s,      u"--points"_s, u"4"_s}
        << u"--to"_s;
    QTest::addRow("sweep csv and json")
        << QStringList{u"sweep"_s, u"--vary"_s,   u"context"_s, u"--from"_s, u"256"_s,   u"--to"_s,
                       u"512"_s,   u"--points"_s, u"2"_s,       u"--csv"_s,  u"--json"_s}
        << u"--csv"_s;
    QTest::addRow("calibrate without a measurement")
        << QStringList{u"calibrate"_s} << u"--tokens-per-s"_s;
    QTest::addRow("calibrate with two") << QStringList{u"calibrate"_s, u"--tokens-per-s"_s, u"50"_s,
                                                       u"--kv-cache-tokens"_s, u"9000"_s}
                                        << u"--tokens-per-s"_s;
    QTest::addRow("calibrate tokens/s not a number")
        << QStringList{u"calibrate"_s, u"--tokens-per-s"_s, u"fast"_s} << u"--tokens-per-s"_s;
    QTest::addRow("calibrate fractional tokens")
        << QStringList{u"calibrate"_s, u"--kv-cache-tokens"_s, u"12.5"_s} << u"--kv-cache-tokens"_s;
    QTest::addRow("calibrate out of reach")
        << QStringList{u"calibrate"_s, u"--tokens-per-s"_s, u"1000000"_s} << u"--tokens-per-s"_s;
    QTest::addRow("validate missing file")
        << QStringList{u"validate"_s, u"/nonexistent/cases.json"_s} << u"cases.json"_s;
}

void TestCli::badInput()
{
    QFETCH(QStringList, args);
    QFETCH(QString, field);
    const CliResult r = runCli(args);
    QCOMPARE(r.code, cli::exitBadInput);
    QVERIFY2(oneLineNaming(r.err, field.toStdString()), r.err.c_str());
    QVERIFY(r.out.empty());
}

void TestCli::sweepCsv()
{
    const CliResult r = runCli({u"sweep"_s, u"--vary"_s, u"context"_s, u"--from"_s, u"256"_s,
                                u"--to"_s, u"131072"_s, u"--points"_s, u"16"_s, u"--csv"_s});
    QCOMPARE(r.code, 0);
    const QStringList lines = qs(r.out).split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 1 + 16);
    const QStringList header = lines.front().split(u',');
    QCOMPARE(header.front(), QStringLiteral("context"));
    QVERIFY(header.contains(u"kv_per_gpu_bytes"_s));
    QVERIFY(header.contains(u"decode_ms_cpu_serial"_s));
    for (const QString& line : lines.mid(1))
        QCOMPARE(line.split(u',').size(), header.size());
    QCOMPARE(lines[1].split(u',').front(), QStringLiteral("256"));
    QCOMPARE(lines.back().split(u',').front(), QStringLiteral("131072"));
    // KV grows linearly: 131,072 x 524,288 B = 64 GiB at the last point.
    const int kvColumn = int(header.indexOf(u"kv_per_gpu_bytes"_s));
    QCOMPARE(lines.back().split(u',')[kvColumn], QStringLiteral("68719476736"));
}

void TestCli::validate()
{
    const CliResult r = runCli({u"validate"_s});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.err.empty(), r.err.c_str());
    for (const char* word : {"predicted", "measured", "Skipped:", "Summary:", "capacity", "decode",
                             "pcie", "median |error|", "within 10 %"})
        QVERIFY2(r.out.find(word) != std::string::npos, word);
    const CliResult j = runCli({u"validate"_s, u"--json"_s});
    QCOMPARE(j.code, 0);
    const auto json = nlohmann::json::parse(j.out, nullptr, false);
    QVERIFY(!json.is_discarded());
    QVERIFY(json["cases"].size() >= 46);
    for (const char* kind : {"capacity", "decode", "pcie"}) {
        QVERIFY2(json["summary"][kind]["evaluated"].get<int>() > 0, kind);
        QVERIFY(json["summary"][kind]["median_abs_error"].is_number());
    }
}

void TestCli::validateFiles()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    auto write = [&](const QString& name, const QByteArray& text) {
        QFile f(dir.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
    };
    // Llama 3 8B, n_ctx 8,192, f16 KV: 1,024 MiB exactly.
    write(u"good.json"_s, R"([{"id": "mine", "kind": "capacity", "engine": "llamacpp",
        "model": "llama-3-8b", "gpu": "rtx-4090", "settings": {"n_ctx": 8192},
        "measured": {"kv_buffer_mib": 1024}, "source": "my own log"}])");
    write(u"bad.json"_s, R"([{"id": "broken", "kind": "decode", "source": "s", "engine": "llamacpp",
        "model": "llama-2-7b",
        "measured": {"tokens_per_s": "fast"}}])");
    const CliResult good = runCli({u"validate"_s, dir.filePath(u"good.json"_s)});
    QCOMPARE(good.code, 0);
    QVERIFY(good.out.find("mine") != std::string::npos);
    QVERIFY2(good.out.find("+0.0 %") != std::string::npos, good.out.c_str());
    const CliResult bad =
        runCli({u"validate"_s, dir.filePath(u"good.json"_s), dir.filePath(u"bad.json"_s)});
    QCOMPARE(bad.code, cli::exitBadInput);
    QVERIFY2(oneLineNaming(bad.err, "bad.json: broken.measured.tokens_per_s"), bad.err.c_str());
    QVERIFY(bad.out.empty());
}

void TestCli::calibrate()
{
    const CliResult before = runCli({u"calc"_s, u"--json"_s});
    const auto calc = nlohmann::json::parse(before.out);
    const double ms = calc["latency"]["decode_ms_per_token"]["gpu"].get<double>();
    const double measured = std::round(1e3 / ms * 0.9 * 10) / 10;
    QTemporaryDir dir;
    const QString file = dir.filePath(u"calibrated.kvscope.json"_s);
    const CliResult r =
        runCli({u"calibrate"_s, u"--tokens-per-s"_s, QString::number(measured), u"--save"_s, file});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.find("hbm_efficiency") != std::string::npos, r.out.c_str());
    QVERIFY(r.out.find("->") != std::string::npos);
    // The saved scenario decodes at the measured speed and says where its factor came from.
    const CliResult after = runCli({u"calc"_s, u"--json"_s, u"--scenario"_s, file});
    QCOMPARE(after.code, 0);
    const auto j = nlohmann::json::parse(after.out);
    const double tokensPerS = 1e3 / j["latency"]["decode_ms_per_token"]["gpu"].get<double>();
    QVERIFY2(std::fabs(tokensPerS / measured - 1) < 0.005, qPrintable(QString::number(tokensPerS)));
    QFile saved(file);
    QVERIFY(saved.open(QIODevice::ReadOnly));
    const auto scenario = nlohmann::json::parse(saved.readAll().toStdString());
    QCOMPARE(scenario["calibration"]["factor"].get<std::string>(), std::string("hbm_efficiency"));

    const CliResult kv =
        runCli({u"calibrate"_s, u"--kv-cache-tokens"_s, u"100000"_s, u"--engine"_s, u"vllm"_s,
                u"--model"_s, u"llama-3.1-8b"_s, u"--gpu"_s, u"a100-80gb"_s, u"--json"_s});
    QCOMPARE(kv.code, 0);
    const auto k = nlohmann::json::parse(kv.out);
    QCOMPARE(k["factor"].get<std::string>(), std::string("runtime_overhead_mib"));
    QCOMPARE(k["after"].get<double>(), 100000.0);
}

KVSCOPE_TEST_SUITE(TestCli, "tst_cli", kvscope::test::SuiteApp::Core)
// Every kvscope-cli example in the README prints what the README shows: an example that drifted
// from the CLI (a stale band, a plan that ranks otherwise now) fails here.
void TestCli::readmeExamplesMatch_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QStringList>("shown");
    const std::vector<ReadmeExample> examples = readmeExamples();
    QVERIFY(examples.size() >= 25);
    for (const ReadmeExample& e : examples) {
        // Abbreviated ("launch ... --mtp on"), or reading the user's own files, or reshaped by jq.
        if (e.command.contains(u"..."_s) || e.command.startsWith(u"check-log "_s) ||
            e.command.startsWith(u"compare "_s) || e.command.contains(u"| jq"_s))
            continue;
        // A grep, sed or tail after the command only picks lines: the command's own output holds
        // them.
        const QString command = e.command.section(u'|', 0, 0).trimmed();
        QTest::addRow("%s", qPrintable(command.left(100))) << command << e.shown;
    }
}

void TestCli::readmeExamplesMatch()
{
    QFETCH(QString, command);
    QFETCH(QStringList, shown);
    const CliResult r = runCli(QProcess::splitCommand(command));
    QStringList output;
    for (const QString& line : QString::fromStdString(r.out + r.err).split(u'\n'))
        output << line.simplified();
    for (const QString& line : shown)
        QVERIFY2(outputShows(output, line), qPrintable(u"README shows: "_s + line));
}

#include "tst_cli.moc"
