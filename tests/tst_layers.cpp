// SPDX-License-Identifier: GPL-3.0-or-later
// The core's layers as the build enforces them: scripts/check-layers.sh passes on the tree, and
// fails, naming the file and the layer, on a copy of the core with one upward include planted
// (and on a Qt header in the core).

#include "suite_registry.h"
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const QString kSourceDir = QStringLiteral(KVSCOPE_TEST_DATA_DIR "/..");

struct CheckRun
{
    int exitCode = -1;
    QString output;
};

CheckRun runCheck(const QString& root)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(QStringLiteral("bash"), {kSourceDir + QStringLiteral("/scripts/check-layers.sh"),
                                           QStringLiteral("--root"), root});
    if (!process.waitForFinished(120000))
        return {};
    return {process.exitCode(), QString::fromUtf8(process.readAll())};
}

// A copy of core/ (what the check reads) in `dir`.
bool copyCore(const QString& dir)
{
    QProcess cp;
    cp.start(QStringLiteral("cp"),
             {QStringLiteral("-r"), kSourceDir + QStringLiteral("/core"), dir});
    return cp.waitForFinished(60000) && cp.exitCode() == 0;
}

bool appendLine(const QString& path, const QByteArray& line)
{
    QFile file(path);
    if (!file.open(QIODevice::Append))
        return false;
    return file.write(line) == line.size();
}

} // namespace

class TestLayers : public QObject
{
    Q_OBJECT
private slots:
    void treeIncludesOnlyDownwards()
    {
        const CheckRun run = runCheck(kSourceDir);
        QVERIFY2(run.exitCode == 0, qPrintable(run.output));
        QVERIFY(run.output.contains(QStringLiteral("include only downwards")));
    }

    void plantedIncludeFails_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("expected");
        QTest::addRow("model includes evaluation")
            << QStringLiteral("core/src/model/kv_cache.cpp")
            << QByteArray("#include \"kvscope/evaluation/evaluation.h\"\n")
            << QStringLiteral("core/src/model/kv_cache.cpp:");
        QTest::addRow("engines include planning")
            << QStringLiteral("core/include/kvscope/engines/engine_module.h")
            << QByteArray("#include \"kvscope/planning/verdict.h\"\n")
            << QStringLiteral("(engines) includes planning/verdict.h from planning");
        QTest::addRow("a private header from above")
            << QStringLiteral("core/src/formats/hub_id.cpp")
            << QByteArray("#include \"io/json_numbers.h\"\n")
            << QStringLiteral("(formats) includes io/json_numbers.h from io");
        QTest::addRow("a Qt header in the core")
            << QStringLiteral("core/src/base/number_format.cpp")
            << QByteArray("#include <QString>\n") << QStringLiteral("the Qt header <QString>");
    }

    void plantedIncludeFails()
    {
        QFETCH(QString, file);
        QFETCH(QByteArray, line);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(copyCore(dir.path()));
        QVERIFY(runCheck(dir.path()).exitCode == 0);
        QVERIFY(appendLine(dir.filePath(file), line));
        const CheckRun run = runCheck(dir.path());
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.output.contains(expected), qPrintable(run.output));
    }
};

KVSCOPE_TEST_SUITE(TestLayers, "tst_layers", kvscope::test::SuiteApp::Core)
#include "tst_layers.moc"
