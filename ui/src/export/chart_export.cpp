// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/chart_export.h"

#include "charts/chart_base.h"
#include "export/svg_text_anchors.h"
#include "window/language.h"

#include <QApplication>
#include <QBuffer>
#include <QCoreApplication>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSvgGenerator>

#include <functional>

namespace kvscope::ui {

namespace {

QSize exportSize(const ChartBase& chart, const ChartExportOptions& options)
{
    int width = options.width > 0 ? options.width : (chart.width() > 100 ? chart.width() : 1200);
    int height = options.height > 0 ? options.height : width * 5 / 8;
    return {std::clamp(width, 200, 10000), std::clamp(height, 150, 10000)};
}

// Runs `render` with the chart laid out at `size` and in the print palette (when asked), and
// puts the window's layout and style back afterwards.
void withExportStyle(ChartBase& chart, const QSize& size, bool printPalette,
                     const std::function<void()>& render, bool subtitle = false, bool pdf = false)
{
    const ChartStyle previous = chart.chartStyle();
    if (printPalette || pdf) {
        ChartStyle print = printPalette ? ChartStyle::print(previous.font) : previous;
        print.lineScale = previous.lineScale;
        if (pdf)
            print.font = Language::pdfFont(print.font);
        chart.setChartStyle(print);
    }
    chart.setDraftMode(false);
    chart.layOutAt(size);
    if (subtitle) { // laid out again with the line in place
        chart.setScenarioSubtitle(true);
        chart.layOutAt(size);
    }
    render();
    chart.setScenarioSubtitle(false);
    if (printPalette || pdf)
        chart.setChartStyle(previous);
    chart.layOutAt(chart.rect().size());
}

void vectorPaint(ChartBase& chart, QPaintDevice& device, const QSize& size)
{
    QCPPainter painter(&device);
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    painter.setWindow(0, 0, size.width(), size.height());
    chart.toPainter(&painter, size.width(), size.height());
}

// QSvgGenerator writes the QFont's family as it is, e.g. "Sans Serif" (fontconfig's alias, no
// CSS family): each family list ends in CSS's generic sans-serif, so any SVG viewer or slide
// program falls back to a sans-serif font instead of its serif default.
QByteArray withGenericFontFamily(const QByteArray& svg)
{
    static const QRegularExpression family(QStringLiteral("font-family=\"([^\"]*)\""));
    QString text = QString::fromUtf8(svg);
    QString out;
    qsizetype last = 0;
    for (auto it = family.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const QString name = m.captured(1).trimmed();
        const bool generic = name.compare(QLatin1String("Sans Serif"), Qt::CaseInsensitive) == 0 ||
                             name.compare(QLatin1String("sans-serif"), Qt::CaseInsensitive) == 0 ||
                             name.isEmpty();
        out += QStringView(text).mid(last, m.capturedStart() - last);
        out += generic ? QStringLiteral("font-family=\"sans-serif\"")
                       : QStringLiteral("font-family=\"&apos;%1&apos;, sans-serif\"").arg(name);
        last = m.capturedEnd();
    }
    out += QStringView(text).mid(last);
    return out.toUtf8();
}

bool writeAtomically(const QString& path, const QByteArray& data, QString* error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

} // namespace

bool exportTableCsv(ChartBase& chart, const QString& path, QString* error)
{
    if (!chart.isVisible())
        chart.layOutAt(chart.size()); // a hidden page has not drawn its latest scenario
    const QByteArray csv = chart.tableCsv();
    if (csv.isEmpty()) {
        if (error)
            *error = QCoreApplication::translate("ChartExport", "the view has no table");
        return false;
    }
    return writeAtomically(path, csv, error);
}

bool parseExportFormat(const QString& text, ExportFormat* format)
{
    const QString t = text.toLower();
    if (t == QLatin1String("png"))
        *format = ExportFormat::Png;
    else if (t == QLatin1String("svg"))
        *format = ExportFormat::Svg;
    else if (t == QLatin1String("pdf"))
        *format = ExportFormat::Pdf;
    else
        return false;
    return true;
}

QString exportSuffix(ExportFormat format)
{
    switch (format) {
    case ExportFormat::Png:
        return QStringLiteral("png");
    case ExportFormat::Svg:
        return QStringLiteral("svg");
    case ExportFormat::Pdf:
        return QStringLiteral("pdf");
    }
    return {};
}

ChartExportOptions slideExportOptions(ExportFormat format)
{
    ChartExportOptions options;
    options.format = format;
    options.width = 960;
    options.height = 540;
    options.scale = 2.0;
    return options;
}

QImage chartImage(ChartBase& chart, const ChartExportOptions& options)
{
    const QSize size = exportSize(chart, options);
    QImage image;
    withExportStyle(
        chart, size, options.printPalette,
        [&] {
            image =
                chart.toPixmap(size.width(), size.height(), std::clamp(options.scale, 0.25, 8.0))
                    .toImage();
        },
        options.subtitle);
    return image;
}

QByteArray chartSvg(ChartBase& chart, const ChartExportOptions& options, const QString& title)
{
    const QSize size = exportSize(chart, options);
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setResolution(96);
    svg.setTitle(title);
    svg.setDescription(QStringLiteral("kvscope"));
    QList<CentredText> centred;
    withExportStyle(
        chart, size, options.printPalette,
        [&] {
            vectorPaint(chart, svg, size);
            centred = centredTexts(chart);
        },
        options.subtitle);
    return withGenericFontFamily(withCentredTextAnchors(buffer.data(), centred));
}

void paintChart(ChartBase& chart, QCPPainter& painter, const QRectF& rect, bool printPalette,
                double* plotShare)
{
    // Laid out at the rect's own size (the report's pages run at 96 dpi, as the screen does),
    // so text keeps the size it has in the window; rects narrower than a laptop's grid cell are
    // laid out wider and scaled.
    const double layoutWidth = std::max(rect.width(), 360.0);
    const QSize size(int(layoutWidth),
                     int(layoutWidth * rect.height() / std::max(rect.width(), 1.0)));
    withExportStyle(
        chart, size, printPalette,
        [&] {
            painter.save();
            painter.translate(rect.topLeft());
            painter.scale(rect.width() / size.width(), rect.height() / size.height());
            chart.toPainter(&painter, size.width(), size.height());
            painter.restore();
            if (plotShare)
                *plotShare = double(chart.axisRect()->height()) / double(size.height());
        },
        false, true);
}

bool exportChart(ChartBase& chart, const QString& path, const ChartExportOptions& options,
                 QString* error)
{
    const QSize size = exportSize(chart, options);
    QByteArray data;
    switch (options.format) {
    case ExportFormat::Png: {
        const QImage image = chartImage(chart, options);
        QBuffer buffer(&data);
        buffer.open(QIODevice::WriteOnly);
        if (image.isNull() || !image.save(&buffer, "PNG")) {
            if (error)
                *error =
                    QCoreApplication::translate("ChartExport", "the chart could not be rendered");
            return false;
        }
        break;
    }
    case ExportFormat::Svg:
        data = chartSvg(chart, options, chart.chartTitle());
        break;
    case ExportFormat::Pdf: {
        QBuffer buffer(&data);
        buffer.open(QIODevice::WriteOnly);
        QPdfWriter pdf(&buffer);
        pdf.setResolution(96);
        pdf.setPageSize(QPageSize(QSizeF(size.width() * 72.0 / 96, size.height() * 72.0 / 96),
                                  QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setTitle(chart.chartTitle());
        pdf.setCreator(QStringLiteral("kvscope"));
        withExportStyle(
            chart, size, options.printPalette, [&] { vectorPaint(chart, pdf, size); },
            options.subtitle, true);
        break;
    }
    }
    if (data.isEmpty()) {
        if (error)
            *error = QCoreApplication::translate("ChartExport", "the chart could not be rendered");
        return false;
    }
    return writeAtomically(path, data, error);
}

} // namespace kvscope::ui
