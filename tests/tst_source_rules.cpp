// SPDX-License-Identifier: GPL-3.0-or-later
// Rules the compiler cannot check, read from the sources. A translated text fills all its
// placeholders in one arg() call: QString::arg fills the lowest-numbered placeholder left, so
// tr("%3 GPUs at %1 tokens").arg(gpus) put the GPU count where the tokens belong, and a second
// arg() on a text that already holds a number with a '%' in it would fill that too.

#include "suite_registry.h"
#include <QDirIterator>
#include <QFile>
#include <QtTest>

namespace {

const QString kSourceDir = QStringLiteral(KVSCOPE_TEST_DATA_DIR "/..");

// The index just past the string literals that start at `i` (adjacent ones join), or `i`.
qsizetype skipLiterals(const QString& text, qsizetype i)
{
    while (i < text.size()) {
        while (i < text.size() && text[i].isSpace())
            ++i;
        if (i >= text.size() || text[i] != QLatin1Char('"'))
            return i;
        for (++i; i < text.size() && text[i] != QLatin1Char('"'); ++i)
            if (text[i] == QLatin1Char('\\'))
                ++i;
        ++i;
    }
    return i;
}

// The index just past the parenthesis that closes the one at `open`, skipping string literals.
qsizetype skipParentheses(const QString& text, qsizetype open)
{
    int depth = 0;
    for (qsizetype i = open; i < text.size(); ++i) {
        if (text[i] == QLatin1Char('"')) {
            i = skipLiterals(text, i) - 1;
        } else if (text[i] == QLatin1Char('(')) {
            ++depth;
        } else if (text[i] == QLatin1Char(')') && --depth == 0) {
            return i + 1;
        }
    }
    return text.size();
}

// Whether `text` at `i` (after spaces) starts ".arg(": then `i` is moved past the call.
bool skipArgCall(const QString& text, qsizetype& i)
{
    qsizetype j = i;
    while (j < text.size() && text[j].isSpace())
        ++j;
    static const QString arg = QStringLiteral(".arg(");
    if (!QStringView(text).mid(j).startsWith(arg))
        return false;
    i = skipParentheses(text, j + arg.size() - 1);
    return true;
}

// "file:line" of every tr("...") followed by two arg() calls.
QStringList chainedArgs(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {path + QStringLiteral(": unreadable")};
    const QString text = QString::fromUtf8(file.readAll());
    static const QRegularExpression call(QStringLiteral("\\btr\\(\\s*\""));
    QStringList found;
    for (auto m = call.globalMatch(text); m.hasNext();) {
        const QRegularExpressionMatch match = m.next();
        qsizetype i = skipParentheses(text, text.indexOf(QLatin1Char('('), match.capturedStart()));
        if (skipArgCall(text, i) && skipArgCall(text, i))
            found << QStringLiteral("%1:%2").arg(
                path, QString::number(text.left(match.capturedStart()).count(u'\n') + 1));
    }
    return found;
}

} // namespace

class TestSourceRules : public QObject
{
    Q_OBJECT
private slots:
    void translatedTextsFillTheirPlaceholdersInOneCall()
    {
        QStringList found;
        int files = 0;
        for (const QString& folder : {QStringLiteral("/ui/src"), QStringLiteral("/app")}) {
            QDirIterator it(kSourceDir + folder, {QStringLiteral("*.cpp"), QStringLiteral("*.h")},
                            QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                found << chainedArgs(it.next());
                ++files;
            }
        }
        QVERIFY(files > 50);
        QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n'))));
    }

    // The scanner itself: the fit matrix's old heading is found, one call is not.
    void scannerFindsAChainedCall()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("planted.cpp"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("QString a = tr(\"%3 GPUs, at %1 tokens \"\n \"x %2\")\n"
                   "    .arg(f(g(1)))\n    .arg(x, y);\n"
                   "QString b = tr(\"%1 of %2\").arg(x, y);\n");
        file.close();
        const QStringList found = chainedArgs(path);
        QCOMPARE(found.size(), 1);
        QVERIFY(found.front().endsWith(QStringLiteral(":1")));
    }
};

KVSCOPE_TEST_SUITE(TestSourceRules, "tst_source_rules", kvscope::test::SuiteApp::Core)
#include "tst_source_rules.moc"
