// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/chart_base.h"

#include "charts/axis_tickers.h"
#include "charts/line_breaks.h"
#include "charts/view_registry.h"
#include "window/ui_text.h"

#include <QFontMetrics>
#include <QPointer>
#include <QToolTip>

#include <algorithm>
#include <optional>

#include <cmath>

namespace kvscope::ui {

AxisUnit axisUnitFor(double maxBytes, ByteUnits units)
{
    const ByteUnit unit = byteUnitFor(std::max(maxBytes, 1.0), units);
    return {QString::fromLatin1(unit.symbol), unit.bytes};
}

size_t nearestPoint(const Sweep& sweep, double key)
{
    size_t nearest = 0;
    const double k = std::max(key, 1e-9);
    for (size_t i = 1; i < sweep.x.size(); ++i)
        if (std::fabs(std::log(sweep.x[i] / k)) < std::fabs(std::log(sweep.x[nearest] / k)))
            nearest = i;
    return nearest;
}

ChartBase::ChartBase(QWidget* parent) : QCustomPlot(parent)
{
    setLocale(QLocale());
    setNoAntialiasingOnDrag(true);
    setPlottingHint(QCP::phCacheLabels, true);
    // A replot marks the widget for the next frame instead of repainting at once, so five
    // charts and the headline reach the screen in one backing-store flush, not six.
    setPlottingHint(QCP::phImmediateRefresh, false);

    // Markers get a buffered layer of their own, above everything else, so moving them
    // repaints one transparent buffer instead of the axes, grid and every curve.
    // The overlay layer (QCustomPlot's selection rectangle, unused here) joins the plot's
    // buffer: each buffer is blended onto the widget on every paint.
    layer(QStringLiteral("overlay"))->setMode(QCPLayer::lmLogical);
    addLayer(QStringLiteral("markers"), layer(QStringLiteral("overlay")), limAbove);
    m_markers = layer(QStringLiteral("markers"));
    m_markers->setMode(QCPLayer::lmBuffered);
    connect(this, &QCustomPlot::afterReplot, this, &ChartBase::drawn);
    // Some labels are placed in pixels (see appendBaseKey). A layout that resized the axis rect
    // after they were placed, on the first show or a window resize, places them again; twice at
    // most, in case placing them moves the layout once more.
    connect(this, &QCustomPlot::afterLayout, this, [this] {
        // The height around the plot (title, legend, axes) sets the height the chart asks for.
        if (const int around = height() - axisRect()->rect().height();
            m_exportSize.isEmpty() && around != m_aroundPlot) {
            m_aroundPlot = around;
            updateGeometry();
        }
        wrapEmptyNote();     // to the width this layout left it, which no redraw may follow
        if (fitAxisLabels()) // to the height this layout left them
            replot(rpQueuedReplot);
        if (!m_last || axisRect()->rect().size() == m_drawnRectSize || m_layoutRedraws >= 4)
            return;
        ++m_layoutRedraws;
        QMetaObject::invokeMethod(
            this,
            [this] {
                if (m_last)
                    showSnapshot(*m_last);
            },
            Qt::QueuedConnection);
    });

    m_title = new QCPTextElement(this, QString(), scaledFont(1.15, true));
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, m_title);

    // Legend in its own row under the axis rect, laid out horizontally.
    legend->setVisible(true);
    axisRect()->insetLayout()->take(legend);
    placeLegendUnderPlot();
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(4);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    plotLayout()->setRowSpacing(2);
    setMouseTracking(true);
}

void ChartBase::show(const EvaluationSnapshot& snapshot)
{
    m_layoutRedraws = 0;
    showSnapshot(snapshot);
}

void ChartBase::showSnapshot(const EvaluationSnapshot& snapshot)
{
    m_last = &snapshot;
    m_deferred = deferWhileHidden() && !isVisible() && !m_exporting;
    if (m_deferred)
        return;
    std::vector<double> key{double(snapshot.baseRevision)};
    appendBaseKey(snapshot, key);
    if (m_baseValid && key == m_baseKey && !hasInvalidatedPaintBuffers()) {
        drawMarkers(snapshot);
        m_markers->replot();
        emit drawn();
        return;
    }
    m_baseKey = std::move(key);
    m_baseValid = true;
    m_drawnRectSize = axisRect()->rect().size();
    draw(snapshot);
    drawMarkers(snapshot);
    fitLegend();
    fitAxisLabels();
    replot(rpQueuedReplot);
}

QSize ChartBase::minimumSizeHint() const
{
    // As tall as the title, legend rows (wrapped to the current width) and axes took in the
    // last layout, plus the minimum plot area; QCustomPlot's own estimate before the first.
    // Any width from 240 px: the legend wraps to it.
    int height = QCustomPlot::minimumSizeHint().height();
    if (!m_minimumPlot.isEmpty() && m_aroundPlot > 0)
        height = std::max(height, m_aroundPlot + m_minimumPlot.height());
    return {240, std::max(170, height)};
}

void ChartBase::setMinimumPlotSize(const QSize& size)
{
    m_minimumPlot = size;
    axisRect()->setMinimumSize(size);
    updateGeometry();
}

void ChartBase::layOutAt(const QSize& size)
{
    m_exportSize = size == rect().size() ? QSize() : size;
    // An export is laid out at the size asked for, however small; the window's minimum is back
    // once it lays out at the widget's own size.
    axisRect()->setMinimumSize(m_exportSize.isValid() ? QSize() : m_minimumPlot);
    setViewport(QRect(QPoint(0, 0), size));
    fitLegend();
    fitAxisLabels();
    m_exporting = !m_exportSize.isEmpty() || !isVisible();
    // Twice: placing the labels sets the axis ranges, whose tick labels can move the axis rect.
    for (int pass = 0; pass < 2; ++pass) {
        updateLayout();
        if (m_last)
            showSnapshot(*m_last);
    }
    m_exporting = false;
}

void ChartBase::redraw()
{
    invalidateBase();
    if (m_last)
        show(*m_last);
}

void ChartBase::showEvent(QShowEvent* event)
{
    QCustomPlot::showEvent(event);
    if (m_deferred && m_last) {
        invalidateBase();
        show(*m_last);
    }
}

void ChartBase::setByteUnits(ByteUnits units)
{
    m_units = units;
    invalidateBase();
    if (m_last)
        show(*m_last);
}

void ChartBase::setChartStyle(const ChartStyle& style)
{
    m_style = style;
    invalidateBase();
    applyStyleToPlot();
    applySeriesStyle();
    if (m_last)
        show(*m_last);
    else
        replot(rpQueuedReplot);
}

void ChartBase::setDraftMode(bool draft)
{
    if (draft == m_draft)
        return;
    m_draft = draft;
    invalidateBase();
    setNotAntialiasedElements(draft ? QCP::aePlottables | QCP::aeItems : QCP::aeNone);
    applySeriesStyle();
    if (m_last) {
        draw(*m_last); // some pens are chosen while drawing
        drawMarkers(*m_last);
    }
    replot(rpQueuedReplot);
}

void ChartBase::setView(const ViewEntry* view)
{
    m_view = view;
    m_title->setText(chartTitle());
}

QString ChartBase::chartId() const
{
    return m_view ? QString::fromLatin1(m_view->id) : QString();
}

QString ChartBase::chartTitle() const
{
    return m_view ? m_view->translatedTitle() : QString();
}

void ChartBase::retranslate()
{
    setAccessibleName(chartTitle()); // what a screen reader names the chart
    setLocale(QLocale());
    invalidateBase();
    m_title->setText(chartTitle());
    applyTexts();
    if (m_last)
        show(*m_last);
}

QPen ChartBase::seriesPen(const QColor& color, Qt::PenStyle style, double width) const
{
    // Draft pens are one pixel wide: Qt draws those without its (costly) path stroker.
    QPen pen(m_style.ink(color), m_draft ? 1.0 : width * m_style.lineScale, style);
    pen.setCapStyle(Qt::FlatCap);
    return pen;
}

QFont ChartBase::scaledFont(double factor, bool bold) const
{
    QFont font = m_style.font;
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else
        font.setPixelSize(int(std::lround(font.pixelSize() * factor)));
    font.setBold(bold);
    return font;
}

void ChartBase::styleAxis(QCPAxis* axis) const
{
    const QColor fg = m_style.foreground;
    axis->setBasePen(QPen(m_style.subtle));
    axis->setTickPen(QPen(m_style.subtle));
    axis->setSubTickPen(QPen(m_style.subtle));
    axis->setTickLabelColor(fg);
    axis->setLabelColor(fg);
    axis->setTickLabelFont(m_style.font);
    axis->setLabelFont(m_style.font);
    axis->grid()->setPen(QPen(m_style.grid, 1, Qt::SolidLine));
    axis->grid()->setSubGridPen(
        QPen(m_style.grid.lighter(m_style.isDark() ? 80 : 108), 1, Qt::DotLine));
    axis->grid()->setZeroLinePen(Qt::NoPen);
}

void ChartBase::styleCallout(QCPItemText* label, const QColor& color, double fontScale,
                             bool bold) const
{
    label->setColor(m_style.ink(color, 4.5)); // text: WCAG AA on the chart's background
    label->setFont(scaledFont(fontScale, bold));
    QColor box = m_style.background;
    box.setAlphaF(0.85);
    label->setBrush(box);
    label->setPadding(QMargins(4, 1, 4, 1));
}

QList<QCPItemText*> ChartBase::visibleLabels() const
{
    QList<QCPItemText*> labels;
    for (int i = 0; i < itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(item(i));
            text && text->visible() && !text->text().isEmpty())
            labels << text;
    return labels;
}

QRectF ChartBase::labelBox(const QCPItemText* label)
{
    return {label->topLeft->pixelPosition(), label->bottomRight->pixelPosition()};
}

QSizeF ChartBase::labelSize(const QCPItemText* label)
{
    const QRect text =
        QFontMetrics(label->font())
            .boundingRect(0, 0, 0, 0, Qt::TextDontClip | label->textAlignment(), label->text());
    const QMargins pad = label->padding();
    return {double(text.width() + pad.left() + pad.right()),
            double(text.height() + pad.top() + pad.bottom())};
}

double ChartBase::logTopAbove(double value, double bottom, double pixels, double maxShare) const
{
    // log(top / value) = share * log(top / bottom), solved for top.
    const double share = std::min(maxShare, pixels / double(std::max(1, axisRect()->height())));
    return std::pow(10.0, (std::log10(value) - share * std::log10(bottom)) / (1.0 - share));
}

QString ChartBase::wrapToWidth(const QString& text, const QFont& font, double width)
{
    return wrapText(text, font, std::max(width, 1.0));
}

void ChartBase::setContextAxis(QCPAxis* axis, double from, double to) const
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    // Powers of four, or of sixteen (or 64) where the plot is too narrow for the labels to keep
    // apart ("16K64K" on a presentation-mode column), so labels never crowd.
    const double widest =
        QFontMetricsF(axis->tickLabelFont()).horizontalAdvance(QStringLiteral("256K")) + 10;
    const double decades = std::log(std::max(to / from, 2.0));
    double step = 4;
    while (step < 64 && ((to / from > 1e5 && step < 16) ||
                         double(axis->axisRect()->width()) * std::log(step) / decades < widest))
        step *= 4;
    for (double t = std::pow(step, std::ceil(std::log(from) / std::log(step) - 1e-9));
         t <= to * 1.0001; t *= step)
        ticker->addTick(t, UiText::contextShort(t));
    ticker->setSubTickCount(1);
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(ticker);
    axis->setRange(from, to);
}

void ChartBase::setLogAxis(QCPAxis* axis) const
{
    setCountLogAxis(axis);
}

QString ChartBase::pinnedName(size_t index, const std::string& name)
{
    const QString letter = QChar(u'A' + char16_t(index));
    const QString named = QString::fromStdString(name);
    // A scenario still called by its letter is not called "A: A".
    return named == letter ? letter : QStringLiteral("%1: %2").arg(letter, named);
}

void ChartBase::drawPinnedCurves(
    const EvaluationSnapshot& snap,
    const std::function<double(const PinnedEvaluation&, size_t)>& value, double* low, double* high,
    const QString& what)
{
    const PinnedList& pinned = *snap.pinned;
    // Under the live scenario's curves and every label: the live one is what the chart is about.
    if (!layer(QStringLiteral("pinned")))
        addLayer(QStringLiteral("pinned"), layer(QStringLiteral("main")), limBelow);
    while (m_pinnedCurves.size() < pinned.size()) {
        m_pinnedCurves.push_back(addGraph());
        m_pinnedCurves.back()->setLayer(QStringLiteral("pinned"));
    }
    for (size_t p = 0; p < m_pinnedCurves.size(); ++p) {
        QCPGraph* graph = m_pinnedCurves[p];
        const bool shown = p < pinned.size() && !pinned[p].contextSweep.x.empty();
        graph->setVisible(shown);
        if (!shown) {
            graph->removeFromLegend();
            continue;
        }
        const Sweep& sweep = pinned[p].contextSweep;
        QVector<double> xs(sweep.x.begin(), sweep.x.end()), ys;
        for (size_t i = 0; i < sweep.x.size(); ++i) {
            const double y = value(pinned[p], i);
            ys << y;
            *low = std::min(*low, y);
            *high = std::max(*high, y);
        }
        graph->setData(xs, ys, true);
        graph->setPen(seriesPen(colors::pinned[p % 4], colors::pinnedDash[p % 4], 2.0));
        graph->setName(what.isEmpty() ? pinnedName(p, pinned[p].name)
                                      : tr("%1, %2").arg(pinnedName(p, pinned[p].name), what));
        graph->addToLegend();
    }
}

void ChartBase::fitTitle()
{
    // A title wider than the chart (large presentation fonts, a narrow column) takes two lines,
    // broken where the language allows nearest its middle, instead of being cut at both ends.
    const QString title = chartTitle();
    const int available = (m_exportSize.isValid() ? m_exportSize.width() : width()) - 12;
    QString shown = title;
    if (QFontMetrics(m_title->font()).horizontalAdvance(title) > available)
        shown = breakNearMiddle(title);
    if (m_title->text() != shown)
        m_title->setText(shown);
}

// An axis's label longer than the room it is centred in (a short plot, presentation fonts,
// Japanese, a long workload in the serving chart's) takes two lines, broken where the language
// allows, instead of running off the chart's edges: a vertical one along its axis, a horizontal
// one across the chart, centred under its axis.
bool ChartBase::fitAxisLabels()
{
    bool changed = false;
    const QRect plot = axisRect()->rect();
    const int chartWidth = m_exportSize.isValid() ? m_exportSize.width() : width();
    const int across = 2 * std::min(plot.center().x(), chartWidth - plot.center().x()) - 8;
    for (QCPAxis* axis : axisRect()->axes()) {
        if (!axis->visible() || axis->label().isEmpty())
            continue;
        auto& [set, shown] = m_fittedAxisLabels[axis];
        if (axis->label() != shown) // set anew since the last fit
            set = axis->label();
        const bool vertical = axis->orientation() == Qt::Vertical;
        // Not before a real layout: a hidden view's axis rect is a few pixels tall.
        const int length = vertical ? axisRect()->height() - 4 : across;
        // A label the chart wrote in lines of its own (the fit matrix's heading) keeps them;
        // each line too long is broken on its own.
        const bool laidOut = length > 60 && (isVisible() || m_exportSize.isValid());
        const QFontMetrics metrics(axis->labelFont());
        QStringList lines = set.split(QLatin1Char('\n'));
        for (QString& line : lines)
            if (laidOut && metrics.horizontalAdvance(line) > length)
                line = breakNearMiddle(line);
        shown = lines.join(QLatin1Char('\n'));
        if (axis->label() != shown) {
            axis->setLabel(shown);
            changed = true;
        }
    }
    return changed;
}

void ChartBase::setScenarioSubtitle(bool on)
{
    if (!on || !m_last) {
        if (m_subtitle) {
            plotLayout()->remove(m_subtitle);
            plotLayout()->simplify();
            m_subtitle = nullptr;
        }
        return;
    }
    if (!m_subtitle) {
        m_subtitle = new QCPTextElement(this, QString(), m_style.font);
        plotLayout()->insertRow(1);
        plotLayout()->addElement(1, 0, m_subtitle);
        plotLayout()->setRowStretchFactor(1, 0.001);
    }
    m_subtitle->setFont(m_style.font);
    m_subtitle->setTextColor(m_style.foreground);
    // Elided rather than wrapped: one line, never wider than the export.
    const int available = (m_exportSize.isValid() ? m_exportSize.width() : width()) - 12;
    m_subtitle->setText(
        QFontMetrics(m_style.font)
            .elidedText(UiText::scenarioSubtitle(m_last->scenario), Qt::ElideRight, available));
}

void ChartBase::resizeEvent(QResizeEvent* event)
{
    invalidateBase();
    m_layoutRedraws = 0; // a new size may place the labels again (see afterLayout)
    fitLegend();
    QCustomPlot::resizeEvent(event);
}

void ChartBase::applyStyleToPlot()
{
    setBackground(m_style.background);
    axisRect()->setBackground(m_style.background);
    for (QCPAxis* axis : axisRect()->axes())
        styleAxis(axis);
    m_title->setTextColor(m_style.foreground);
    m_title->setFont(scaledFont(1.15, true));
    legend->setFont(m_style.font);
    legend->setTextColor(m_style.foreground);
    legend->setIconSize(int(18 * m_style.lineScale), int(10 * m_style.lineScale));
}

void ChartBase::mouseMoveEvent(QMouseEvent* event)
{
    QCustomPlot::mouseMoveEvent(event);
    const QPoint pos = event->position().toPoint();
    if (!m_last || !axisRect()->rect().contains(pos)) {
        QToolTip::hideText();
        return;
    }
    const double key = xAxis->pixelToCoord(pos.x());
    const double value = yAxis->pixelToCoord(pos.y());
    const QString text = hoverText(key, value, pos);
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

void ChartBase::leaveEvent(QEvent* event)
{
    QToolTip::hideText();
    QCustomPlot::leaveEvent(event);
}

void ChartBase::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QCustomPlot::changeEvent(event);
}

} // namespace kvscope::ui
