// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QProcess>
#include <QStandardPaths>
#include <QString>

namespace kvscope::test {

// The text of a PDF, as poppler's pdftotext reads it ("" when the tool is missing).
inline QString pdfText(const QString& path)
{
    const QString tool = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
    if (tool.isEmpty())
        return {};
    QProcess process;
    process.start(tool, {QStringLiteral("-layout"), path, QStringLiteral("-")});
    process.waitForFinished(30000);
    // Typeset ligatures ("ﬁ") and CJK radicals ("⼊" for "入") come back as compatibility code
    // points; NFKC folds them for plain comparisons.
    return QString::fromUtf8(process.readAllStandardOutput())
        .normalized(QString::NormalizationForm_KC);
}

} // namespace kvscope::test
