// SPDX-License-Identifier: GPL-3.0-or-later
// What the window writes out: the report, the data as CSV, the summary and the launch command on
// the clipboard.
#include "window/main_window.h"
#include "window/view_pages.h"

#include "charts/chart_base.h"
#include "charts/view_registry.h"
#include "export/report_writer.h"
#include "kvscope/engines/launch_command.h"
#include "kvscope/evaluation/sweep.h"
#include "kvscope/text/text_summary.h"
#include "window/ui_text.h"

#include <QApplication>
#include <QClipboard>
#include <QLocale>
#include <QMessageBox>
#include <QMimeData>
#include <QSaveFile>
#include <QStatusBar>

namespace kvscope::ui {

bool MainWindow::exportReport(const QString& path)
{
    if (!m_controller->hasSnapshot())
        return false;
    ReportOptions options;
    options.units = m_units;
    options.pageSize =
        QLocale().territory() == QLocale::UnitedStates || QLocale().territory() == QLocale::Canada
            ? QPageSize::Letter
            : QPageSize::A4;
    QString error;
    if (!ReportWriter::write(m_controller->snapshot(), m_controller->catalog(), m_views->charts(),
                             path, options, &error)) {
        QMessageBox::warning(
            this, tr("Export failed"),
            tr("%1 could not be written: %2. The previous file, if any, is unchanged.")
                .arg(path, error));
        return false;
    }
    // The report drew the charts in the print palette; show them as the window has them again.
    applyChartStyle();
    statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    return true;
}

bool MainWindow::exportData(const QString& path)
{
    if (!m_controller->hasSnapshot())
        return false;
    // Beside pinned scenarios, one column group per scenario: the pinned ones, then the live one.
    const EvaluationSnapshot& snap = m_controller->snapshot();
    std::vector<NamedSweep> sweeps;
    for (size_t i = 0; i < snap.pinned->size(); ++i)
        sweeps.push_back({ChartBase::pinnedName(i, (*snap.pinned)[i].name).toStdString(),
                          &(*snap.pinned)[i].contextSweep});
    if (!sweeps.empty())
        sweeps.push_back({tr("Live").toStdString(), &snap.contextSweep});
    else
        sweeps.push_back({"", &snap.contextSweep});
    const QByteArray csv = QByteArray::fromStdString(sweepsToCsv(sweeps, viewCsvColumns()));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(csv) != csv.size() || !file.commit()) {
        QMessageBox::warning(
            this, tr("Export failed"),
            tr("%1 could not be written: %2. The previous file, if any, is unchanged.")
                .arg(path, file.errorString()));
        return false;
    }
    statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    return true;
}

void MainWindow::copySummary()
{
    if (!m_controller->hasSnapshot())
        return;
    const EvaluationSnapshot& snap = m_controller->snapshot();
    const NumberStyle numbers = UiText::numberStyle();
    auto* mime = new QMimeData;
    mime->setText(QString::fromStdString(
        textSummary(snap.scenario, snap.evaluation, m_units, SummaryStyle::PlainTable, numbers)));
    mime->setData(QStringLiteral("text/markdown"),
                  QByteArray::fromStdString(textSummary(snap.scenario, snap.evaluation, m_units,
                                                        SummaryStyle::Markdown, numbers)));
    QApplication::clipboard()->setMimeData(mime);
    statusBar()->showMessage(tr("Summary copied"), 4000);
}

QString MainWindow::launchRefusalText(LaunchRefusal kind) const
{
    const Scenario& s = m_controller->snapshot().scenario;
    const QString engine = QString::fromStdString(s.engine.name);
    switch (kind) {
    case LaunchRefusal::HeadSplit:
        return tr("%1 does not start on %2 GPUs in tensor parallel: the GPU count does not divide "
                  "the attention heads evenly. Choose another GPU count.")
            .arg(engine, UiText::integer(s.gpuCount));
    case LaunchRefusal::Weights:
        return tr("%1 does not load weights in %2. Choose other weights or another engine.")
            .arg(engine, QString::fromStdString(s.weights.name));
    case LaunchRefusal::NoCheckpoint:
        return tr("kvscope knows no %1 checkpoint of %2, and %3 does not make one while loading. "
                  "Enter yours under Checkpoint in the engine settings (a Hugging Face "
                  "repository or a local path).")
            .arg(QString::fromStdString(s.weights.name), QString::fromStdString(s.model.name),
                 engine);
    case LaunchRefusal::None:
        break;
    }
    return {};
}

void MainWindow::copyLaunchCommand()
{
    if (!m_controller->hasSnapshot())
        return;
    const LaunchCommand command = launchCommand(m_controller->snapshot().scenario);
    if (!command.refusal.empty()) {
        // Nothing to copy: say why, in the window's language, and what would give a command;
        // the details (the GPU counts that work, the flag) in the CLI's own words.
        QMessageBox box(QMessageBox::Information, tr("No launch command"),
                        launchRefusalText(command.refusalKind), QMessageBox::Ok, this);
        box.setDetailedText(QString::fromStdString(command.refusal));
        box.exec();
        return;
    }
    QApplication::clipboard()->setText(QString::fromStdString(launchCommandText(command)));
    statusBar()->showMessage(tr("Launch command copied"), 4000);
}

} // namespace kvscope::ui
