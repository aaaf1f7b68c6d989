// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/chart_actions.h"

#include "charts/chart_base.h"
#include "charts/view_registry.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>

namespace kvscope::ui {

namespace {
constexpr const char* kLastDirectoryKey = "files/lastExportDirectory";
} // namespace

QString ChartActions::lastDirectory()
{
    return QSettings().value(kLastDirectoryKey, QDir::homePath()).toString();
}

void ChartActions::populate(QMenu* menu, ChartBase* chart, QWidget* parent)
{
    auto plain = [](ExportFormat format, double scale) {
        ChartExportOptions options;
        options.format = format;
        options.scale = scale;
        return options;
    };
    menu->addAction(tr("Export as PNG..."),
                    [=] { exportWithDialog(chart, plain(ExportFormat::Png, 1.0), parent); });
    menu->addAction(tr("Export as PNG, 2× resolution..."),
                    [=] { exportWithDialog(chart, plain(ExportFormat::Png, 2.0), parent); });
    menu->addAction(tr("Export for a 16:9 slide (PNG, 1920 × 1080)..."), [=] {
        exportWithDialog(chart, slideExportOptions(ExportFormat::Png), parent);
    });
    menu->addAction(tr("Export as SVG..."),
                    [=] { exportWithDialog(chart, plain(ExportFormat::Svg, 1.0), parent); });
    menu->addAction(tr("Export as PDF..."),
                    [=] { exportWithDialog(chart, plain(ExportFormat::Pdf, 1.0), parent); });
    if (chart->view() && chart->view()->page != ViewPage::Charts)
        menu->addAction(tr("Export table as CSV..."),
                        [=] { exportTableWithDialog(chart, parent); });
    menu->addSeparator();
    menu->addAction(tr("Copy chart"), [=] { copyToClipboard(chart); });
}

bool ChartActions::exportTableWithDialog(ChartBase* chart, QWidget* parent)
{
    QString path = QFileDialog::getSaveFileName(
        parent, tr("Export table"),
        QDir(lastDirectory()).filePath(QStringLiteral("kvscope-%1.csv").arg(chart->chartId())),
        tr("CSV table (*.csv)"));
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".csv");
    QSettings().setValue(kLastDirectoryKey, QFileInfo(path).absolutePath());
    QString error;
    if (!exportTableCsv(*chart, path, &error)) {
        QMessageBox::warning(
            parent, tr("Export failed"),
            tr("%1 could not be written: %2. The previous file, if any, is unchanged.")
                .arg(path, error));
        return false;
    }
    return true;
}

bool ChartActions::exportWithDialog(ChartBase* chart, const ChartExportOptions& options,
                                    QWidget* parent)
{
    const ExportFormat format = options.format;
    const QString suffix = exportSuffix(format);
    const QString filter = format == ExportFormat::Png   ? tr("PNG image (*.png)")
                           : format == ExportFormat::Svg ? tr("SVG image (*.svg)")
                                                         : tr("PDF document (*.pdf)");
    QString path = QFileDialog::getSaveFileName(
        parent, tr("Export chart"),
        QDir(lastDirectory())
            .filePath(QStringLiteral("kvscope-%1.%2").arg(chart->chartId(), suffix)),
        filter);
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1Char('.') + suffix;
    QSettings().setValue(kLastDirectoryKey, QFileInfo(path).absolutePath());
    QString error;
    if (!exportChart(*chart, path, options, &error)) {
        QMessageBox::warning(
            parent, tr("Export failed"),
            tr("%1 could not be written: %2. The previous file, if any, is unchanged.")
                .arg(path, error));
        return false;
    }
    return true;
}

void ChartActions::copyToClipboard(ChartBase* chart)
{
    ChartExportOptions options;
    options.scale = 2.0; // pasted into slides, it stays crisp
    auto* mime = new QMimeData;
    mime->setImageData(chartImage(*chart, options));
    mime->setData(QStringLiteral("image/svg+xml"),
                  chartSvg(*chart, ChartExportOptions{}, chart->chartTitle()));
    QApplication::clipboard()->setMimeData(mime);
}

} // namespace kvscope::ui
