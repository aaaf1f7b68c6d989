// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/layout_file.h"

#include "charts/chart_base.h"
#include "panels/headline_bar.h"
#include "window/main_window.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QTabWidget>

#include <cmath>
#include <cstdio>

namespace kvscope::ui {

namespace {

constexpr char kSeriesProperty[] = "kvscopeSeries";

QJsonArray rectJson(const QRectF& r)
{
    auto round = [](double v) { return std::round(v * 10) / 10; };
    return {round(r.x()), round(r.y()), round(r.width()), round(r.height())};
}

QJsonObject textJson(const QString& kind, const QString& text, const QRectF& box)
{
    return {{QStringLiteral("kind"), kind},
            {QStringLiteral("text"), text},
            {QStringLiteral("rect"), rectJson(box)}};
}

// A visible graph's data points inside the plot, in window pixels.
QJsonArray graphPoints(const QCPGraph* graph, const QPointF& origin)
{
    QJsonArray points;
    const QRect plot = graph->keyAxis()->axisRect()->rect();
    for (const QCPGraphData& d : *graph->data()) {
        if (!std::isfinite(d.key) || !std::isfinite(d.value))
            continue;
        const QPointF p = graph->coordsToPixels(d.key, d.value);
        if (plot.contains(p.toPoint()))
            points.append(QJsonArray{std::round((p.x() + origin.x()) * 10) / 10,
                                     std::round((p.y() + origin.y()) * 10) / 10});
    }
    return points;
}

QJsonObject chartJson(const ChartBase* chart, const QPointF& origin)
{
    auto inWindow = [&](const QRectF& r) { return r.translated(origin); };
    QJsonObject json{
        {QStringLiteral("id"), chart->chartId()},
        {QStringLiteral("title"), chart->chartTitle()},
        {QStringLiteral("rect"), rectJson(inWindow(QRectF(chart->rect())))},
        {QStringLiteral("visible_rect"),
         rectJson(QRectF(chart->visibleRegion().boundingRect()).translated(origin))},
        {QStringLiteral("plot"), rectJson(inWindow(QRectF(chart->axisRect()->rect())))}};
    if (chart->legend->visible() && chart->legend->itemCount() > 0) {
        QJsonArray entries;
        for (int i = 0; i < chart->legend->itemCount(); ++i)
            if (auto* item = qobject_cast<QCPPlottableLegendItem*>(chart->legend->item(i)))
                entries.append(item->plottable()->name());
        json[QStringLiteral("legend")] = QJsonObject{
            {QStringLiteral("rect"), rectJson(inWindow(QRectF(chart->legend->outerRect())))},
            {QStringLiteral("entries"), entries}};
    }
    // The curves, and the labels: the layout's text elements (title, subtitle) and axis titles,
    // then the callouts, each with the curve it names.
    QJsonArray series;
    QList<const QCPAbstractPlottable*> listed;
    for (int i = 0; i < chart->graphCount(); ++i) {
        const QCPGraph* graph = chart->graph(i);
        if (!graph->visible() || graph->data()->isEmpty())
            continue;
        listed.append(graph);
        series.append(QJsonObject{{QStringLiteral("name"), graph->name()},
                                  {QStringLiteral("points"), graphPoints(graph, origin)}});
    }
    QJsonArray labels;
    for (QCPLayoutElement* element : chart->plotLayout()->elements(true))
        if (auto* text = qobject_cast<QCPTextElement*>(element); text && !text->text().isEmpty())
            labels.append(textJson(QStringLiteral("title"), text->text(),
                                   inWindow(QRectF(text->outerRect()))));
    for (QCPAxis* axis : chart->axisRect()->axes())
        if (axis->visible() && !axis->label().isEmpty()) {
            // The axis title's own strip: beyond the tick labels, as QCPAxisPainter draws it.
            const QRect outer = chart->axisRect()->outerRect();
            const QRect plot = chart->axisRect()->rect();
            const int size = QFontMetrics(axis->labelFont()).height() *
                             (axis->label().count(QLatin1Char('\n')) + 1);
            QRectF box;
            if (axis->axisType() == QCPAxis::atBottom)
                box = QRectF(plot.left(), outer.bottom() - size - 2, plot.width(), size);
            else if (axis->axisType() == QCPAxis::atLeft)
                box = QRectF(outer.left() + 2, plot.top(), size, plot.height());
            else if (axis->axisType() == QCPAxis::atTop)
                box = QRectF(plot.left(), outer.top() + 2, plot.width(), size);
            else
                continue;
            labels.append(textJson(QStringLiteral("axis"), axis->label(), inWindow(box)));
        }
    for (QCPItemText* text : chart->visibleLabels()) {
        QJsonObject label =
            textJson(QStringLiteral("callout"), text->text(), inWindow(ChartBase::labelBox(text)));
        if (auto* own = qobject_cast<QCPAbstractPlottable*>(
                text->property(kSeriesProperty).value<QObject*>()))
            if (const auto index = listed.indexOf(own); index >= 0)
                label[QStringLiteral("series")] = int(index);
        labels.append(label);
    }
    json[QStringLiteral("series")] = series;
    json[QStringLiteral("labels")] = labels;
    return json;
}

} // namespace

QJsonObject describeChart(const ChartBase& chart)
{
    return chartJson(&chart, QPointF(0, 0));
}

void tieLabel(QCPItemText* label, QCPAbstractPlottable* series)
{
    label->setProperty(kSeriesProperty, QVariant::fromValue<QObject*>(series));
}

QJsonObject describeLayout(const MainWindow& window)
{
    QJsonArray charts;
    for (const ChartBase* chart : window.charts())
        if (chart->isVisible() && !chart->visibleRegion().isEmpty())
            charts.append(chartJson(chart, chart->mapTo(&window, QPoint(0, 0))));
    QJsonArray tiles;
    for (int i = 0; i < HeadlineBar::FigureCount; ++i) {
        const HeadlineTile* tile = window.headline()->tile(HeadlineBar::Figure(i));
        tiles.append(
            QJsonObject{{QStringLiteral("value"), tile->value()},
                        {QStringLiteral("detail"), tile->detail()},
                        {QStringLiteral("rect"),
                         rectJson(QRectF(tile->mapTo(&window, QPoint(0, 0)), tile->size()))}});
    }
    return {{QStringLiteral("width"), window.width()},
            {QStringLiteral("height"), window.height()},
            {QStringLiteral("presentation"), window.isPresentationMode()},
            {QStringLiteral("page"), window.pages()->tabText(window.pages()->currentIndex())},
            {QStringLiteral("charts"), charts},
            {QStringLiteral("headline"), tiles}};
}

bool saveLayout(const MainWindow& window, const QString& path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(QJsonDocument(describeLayout(window)).toJson()) < 0 || !file.commit()) {
        std::fprintf(stderr, "kvscope: --layout: cannot write %s: %s\n", qPrintable(path),
                     qPrintable(file.errorString()));
        return false;
    }
    return true;
}

} // namespace kvscope::ui
