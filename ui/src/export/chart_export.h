// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QImage>
#include <QString>

class QCPPainter;
class QRectF;

namespace kvscope::ui {

class ChartBase;

enum class ExportFormat { Png, Svg, Pdf };

struct ChartExportOptions
{
    ExportFormat format = ExportFormat::Png;
    int width = 0;            // logical pixels; 0 = the chart's on-screen size (or 1200)
    int height = 0;           // 0 = width x 5/8
    double scale = 1.0;       // PNG only: 2.0 for a crisp slide at the same layout
    bool printPalette = true; // light, print-friendly colours even when the window is dark
    bool subtitle = true;     // a line under the title naming the scenario
};

// A 16:9 slide: laid out at 960 x 540 so text keeps a slide's proportions, and drawn at 2x,
// so a PNG is 1920 x 1080 pixels (SVG and PDF are vectors at 960 x 540).
ChartExportOptions slideExportOptions(ExportFormat format);

// Renders a chart at a size, in the print palette unless asked otherwise. Every write goes
// through QSaveFile: on failure the old file is untouched and `error` says why.
bool exportChart(ChartBase& chart, const QString& path, const ChartExportOptions& options,
                 QString* error);
QImage chartImage(ChartBase& chart, const ChartExportOptions& options);
QByteArray chartSvg(ChartBase& chart, const ChartExportOptions& options, const QString& title);
// Draws the chart as vectors into `painter` at `rect` (the report places charts this way);
// `plotShare`, when given, receives the share of the rect's height its plot got.
void paintChart(ChartBase& chart, QCPPainter& painter, const QRectF& rect, bool printPalette = true,
                double* plotShare = nullptr);

// A table-like view's figures (ChartBase::tableCsv) as CSV, drawn first if the view is hidden;
// false (and `error`) when the view has no table or the file cannot be written.
bool exportTableCsv(ChartBase& chart, const QString& path, QString* error);

// "png", "svg", "pdf" (case-insensitive); false for anything else.
bool parseExportFormat(const QString& text, ExportFormat* format);
QString exportSuffix(ExportFormat format);

} // namespace kvscope::ui
