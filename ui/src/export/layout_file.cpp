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
#include <optional>

namespace kvscope::ui {

namespace {

constexpr char kSeriesProperty[] = "kvscopeSeries";
constexpr char kLineProperty[] = "kvscopeLine";
constexpr char kAnchorProperty[] = "kvscopeAnchor";
constexpr char kMarkersProperty[] = "kvscopeMarkers";
constexpr char kLeaderProperty[] = "kvscopeLeader";

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

QJsonArray pointJson(const QPointF& p, const QPointF& origin)
{
    return {std::round((p.x() + origin.x()) * 10) / 10, std::round((p.y() + origin.y()) * 10) / 10};
}

// A line item's segment in the plot, in pixels: a straight line across the whole plot (they are
// horizontal or vertical here), a QCPItemLine between its ends; none for other items.
std::optional<QLineF> lineInPlot(const QCPAbstractItem* item, const QRectF& plot)
{
    if (const auto* segment = qobject_cast<const QCPItemLine*>(item))
        return QLineF(segment->start->pixelPosition(), segment->end->pixelPosition());
    const auto* line = qobject_cast<const QCPItemStraightLine*>(item);
    if (!line)
        return std::nullopt;
    const QPointF a = line->point1->pixelPosition(), b = line->point2->pixelPosition();
    const bool vertical = std::fabs(b.x() - a.x()) < std::fabs(b.y() - a.y());
    return vertical ? QLineF(a.x(), plot.top(), a.x(), plot.bottom())
                    : QLineF(plot.left(), a.y(), plot.right(), a.y());
}

// The lines drawn in the plot (limits, crossings, markers). A line on the marker layer marks the
// current scenario, which the axis names; every other is a figure that needs a label.
QJsonArray linesJson(const ChartBase* chart, const QPointF& origin,
                     QList<const QCPAbstractItem*>* listed)
{
    QJsonArray lines;
    const QRectF plot(chart->axisRect()->rect());
    for (int i = 0; i < chart->itemCount(); ++i) {
        const QCPAbstractItem* item = chart->item(i);
        const std::optional<QLineF> line = item->visible() ? lineInPlot(item, plot) : std::nullopt;
        if (!line || !plot.adjusted(-1, -1, 1, 1).contains(line->center()))
            continue; // not a line, or outside the axis range: not drawn
        listed->append(item);
        lines.append(
            QJsonObject{{QStringLiteral("from"), pointJson(line->p1(), origin)},
                        {QStringLiteral("to"), pointJson(line->p2(), origin)},
                        {QStringLiteral("marker"),
                         item->layer() && item->layer()->name() == QLatin1String("markers")}});
    }
    return lines;
}

// The visible curves and bars; `listed` gets them in the order the labels' "series" index.
QJsonArray seriesJson(const ChartBase* chart, const QPointF& origin,
                      QList<const QCPAbstractPlottable*>* listed)
{
    QJsonArray series;
    for (int i = 0; i < chart->graphCount(); ++i) {
        const QCPGraph* graph = chart->graph(i);
        if (!graph->visible() || graph->data()->isEmpty())
            continue;
        listed->append(graph);
        QJsonObject json{{QStringLiteral("name"), graph->name()},
                         {QStringLiteral("points"), graphPoints(graph, origin)}};
        if (graph->property(kMarkersProperty).toBool())
            json[QStringLiteral("markers")] = true;
        if (graph->lineStyle() == QCPGraph::lsNone)
            json[QStringLiteral("scatter")] = true; // points, not a curve
        series.append(json);
    }
    // Bars, each as the top of its middle: what a view of bars draws.
    auto* plot = const_cast<ChartBase*>(chart); // QCustomPlot::plottable(int) is not const
    for (int i = 0; i < plot->plottableCount(); ++i) {
        const auto* bars = qobject_cast<const QCPBars*>(plot->plottable(i));
        if (!bars || !bars->visible() || bars->data()->isEmpty())
            continue;
        listed->append(bars);
        QJsonArray tops;
        for (const QCPBarsData& d : *bars->data())
            tops.append(pointJson(bars->coordsToPixels(d.key, d.value), origin));
        series.append(
            QJsonObject{{QStringLiteral("name"), bars->name()}, {QStringLiteral("bars"), tops}});
    }
    return series;
}

// The layout's text elements (title, subtitle) and axis titles.
void appendFixedLabels(const ChartBase* chart, const QPointF& origin, QJsonArray* labels)
{
    auto inWindow = [&](const QRectF& r) { return r.translated(origin); };
    for (QCPLayoutElement* element : chart->plotLayout()->elements(true))
        if (auto* text = qobject_cast<QCPTextElement*>(element); text && !text->text().isEmpty())
            labels->append(textJson(QStringLiteral("title"), text->text(),
                                    inWindow(QRectF(text->outerRect()))));
    for (QCPAxis* axis : chart->axisRect()->axes())
        if (axis->visible() && !axis->label().isEmpty()) {
            // The axis title's own strip beyond the tick labels, as long as its longest line and
            // centred on the axis, as QCPAxisPainter draws it: a title longer than the chart
            // shows as a box outside it.
            const QRect outer = chart->axisRect()->outerRect();
            const QRect plot = chart->axisRect()->rect();
            const QFontMetrics metrics(axis->labelFont());
            const int size = metrics.height() * (axis->label().count(QLatin1Char('\n')) + 1);
            int length = 0;
            for (const QString& line : axis->label().split(QLatin1Char('\n')))
                length = std::max(length, metrics.horizontalAdvance(line));
            const double across = plot.center().x() - length / 2.0;
            const double along = plot.center().y() - length / 2.0;
            QRectF box;
            if (axis->axisType() == QCPAxis::atBottom)
                box = QRectF(across, outer.bottom() - size - 2, length, size);
            else if (axis->axisType() == QCPAxis::atLeft)
                box = QRectF(outer.left() + 2, along, size, length);
            else if (axis->axisType() == QCPAxis::atTop)
                box = QRectF(across, outer.top() + 2, length, size);
            else
                continue;
            labels->append(textJson(QStringLiteral("axis"), axis->label(), inWindow(box)));
        }
}

// A callout, with what it names: its series, its point and its line.
QJsonObject calloutJson(const QCPItemText* text, const QPointF& origin,
                        const QList<const QCPAbstractPlottable*>& series,
                        const QList<const QCPAbstractItem*>& lines)
{
    QJsonObject label = textJson(QStringLiteral("callout"), text->text(),
                                 ChartBase::labelBox(text).translated(origin));
    if (text->brush().style() != Qt::NoBrush && text->brush().color().alpha() > 0)
        label[QStringLiteral("boxed")] = true; // it hides what is drawn under it
    if (auto* own =
            qobject_cast<QCPAbstractPlottable*>(text->property(kSeriesProperty).value<QObject*>()))
        if (const auto index = series.indexOf(own); index >= 0)
            label[QStringLiteral("series")] = int(index);
    if (auto* line =
            qobject_cast<QCPAbstractItem*>(text->property(kLineProperty).value<QObject*>()))
        if (const auto index = lines.indexOf(line); index >= 0)
            label[QStringLiteral("line")] = int(index);
    if (auto* leader =
            qobject_cast<QCPAbstractItem*>(text->property(kLeaderProperty).value<QObject*>()))
        if (const auto index = lines.indexOf(leader); leader->visible() && index >= 0)
            label[QStringLiteral("leader")] = int(index);
    if (const QVariant anchor = text->property(kAnchorProperty); anchor.isValid()) {
        const QPointF coords = anchor.toPointF();
        label[QStringLiteral("anchor")] =
            pointJson(QPointF(text->position->keyAxis()->coordToPixel(coords.x()),
                              text->position->valueAxis()->coordToPixel(coords.y())),
                      origin);
    }
    return label;
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
    if (!chart->emptyNote().isEmpty())
        json[QStringLiteral("empty")] = chart->emptyNote();
    QList<const QCPAbstractPlottable*> listedSeries;
    QList<const QCPAbstractItem*> listedLines;
    json[QStringLiteral("series")] = seriesJson(chart, origin, &listedSeries);
    json[QStringLiteral("lines")] = linesJson(chart, origin, &listedLines);
    QJsonArray labels;
    appendFixedLabels(chart, origin, &labels);
    for (QCPItemText* text : chart->visibleLabels()) {
        QJsonObject label = calloutJson(text, origin, listedSeries, listedLines);
        if (text->text() == chart->emptyNote()) // says why there is nothing else
            label[QStringLiteral("kind")] = QStringLiteral("note");
        labels.append(label);
    }
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

void anchorLabel(QCPItemText* label, double key, double value)
{
    label->setProperty(kAnchorProperty, QPointF(key, value));
}

void tieLabelToLine(QCPItemText* label, QCPAbstractItem* line)
{
    label->setProperty(kLineProperty, QVariant::fromValue<QObject*>(line));
}

void markMarkerSeries(QCPAbstractPlottable* series)
{
    series->setProperty(kMarkersProperty, true);
}

void tieLabelToLeader(QCPItemText* label, QCPItemLine* leader)
{
    label->setProperty(kLeaderProperty, QVariant::fromValue<QObject*>(leader));
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
