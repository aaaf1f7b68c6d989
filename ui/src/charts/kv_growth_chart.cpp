// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/kv_growth_chart.h"

#include "charts/axis_tickers.h"
#include "charts/line_breaks.h"
#include "export/layout_file.h"
#include "window/ui_text.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace kvscope::ui {

namespace {
const char* const kKvColumns[] = {"kv_mha_per_gpu_bytes", "kv_gqa_per_gpu_bytes",
                                  "kv_mqa_per_gpu_bytes", "kv_per_gpu_bytes"};
} // namespace

KvGrowthChart::KvGrowthChart(QWidget* parent) : ChartBase(parent)
{
    for (int i = 0; i < CurveCount; ++i) {
        m_curves[i] = addGraph();
        m_crossLabels[i] = new QCPItemText(this);
        m_crossLabels[i]->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
        tieLabel(m_crossLabels[i], m_curves[i]); // the crossing of that curve
    }
    m_crossings = addGraph();
    m_crossings->setLineStyle(QCPGraph::lsNone);
    m_crossings->removeFromLegend();
    m_freeLine = new QCPItemStraightLine(this);
    m_freeLabel = new QCPItemText(this);
    m_freeLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    m_freeLabel->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    tieLabelToLine(m_freeLabel, m_freeLine);
    markMarkerSeries(m_crossings); // no label may cover a crossing
    connect(this, &QCustomPlot::afterLayout, this, &KvGrowthChart::placeCrossingLabels);
    m_contextLine = new QCPItemStraightLine(this);
    m_contextLine->setLayer(markerLayer());
    setBytesLogAxis(yAxis, 1, byteUnits()); // in the unit of the data once drawn
    applySeriesStyle();
    retranslate();
}

void KvGrowthChart::applyTexts()
{
    xAxis->setLabel(tr("Context length (tokens)"));
}

void KvGrowthChart::applySeriesStyle()
{
    const QColor lines[CurveCount] = {colors::mha, colors::gqa, colors::mqa, colors::mla};
    const Qt::PenStyle styles[CurveCount] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine,
                                             Qt::DashDotLine};
    for (int i = 0; i < CurveCount; ++i) {
        m_curves[i]->setPen(seriesPen(lines[i], styles[i], 2.2));
        styleCallout(m_crossLabels[i], lines[i], 0.95);
    }
    m_crossings->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, chartStyle().foreground,
                                                 chartStyle().background,
                                                 8 * chartStyle().lineScale));
    m_freeLine->setPen(seriesPen(colors::freeVram, Qt::DashLine, 2));
    // Boxed like the crossings: under its line in a short chart, curves run behind it.
    styleCallout(m_freeLabel, colors::freeVram.darker(chartStyle().isDark() ? 70 : 120));
    m_contextLine->setPen(seriesPen(chartStyle().subtle, Qt::DotLine, 1.2));
}

void KvGrowthChart::draw(const EvaluationSnapshot& snap)
{
    const Scenario& s = snap.scenario;
    const Sweep& sweep = snap.contextSweep;
    const TokensFit& fit = snap.evaluation.tokensFit;
    const bool mla = s.model.isMla();
    double maxFree = fit.freeForKvBytes;
    const double maxBytes = largestKvBytes(snap, &maxFree);
    const AxisUnit unit = axisUnitFor(std::max(maxBytes, maxFree) / 8, byteUnits());
    m_unitBytes = unit.bytes;

    const int64_t heads[CurveCount] = {s.model.queryHeads, fit.gqaKvHeads, 1, 0};
    const QString names[CurveCount] = {tr("MHA (%1 KV heads)").arg(heads[Mha]),
                                       tr("GQA (%1 KV heads)").arg(heads[Gqa]),
                                       tr("MQA (1 KV head)"), tr("MLA latent (this model)")};
    const int64_t crossings[CurveCount] = {fit.perSequenceMha, fit.perSequenceGqa,
                                           fit.perSequenceMqa, fit.perSequence};
    const AttentionKind own = s.model.attentionKind();
    const AttentionKind kinds[CurveCount] = {AttentionKind::Mha, AttentionKind::Gqa,
                                             AttentionKind::Mqa, AttentionKind::Mla};
    const double from = sweep.x.empty() ? 256 : sweep.x.front();
    const double to = sweep.x.empty() ? 8192 : sweep.x.back();
    const double free = fit.freeForKvBytes;
    QVector<double> crossX, crossY;
    double lowest = maxBytes;
    for (int i = 0; i < CurveCount; ++i) {
        // Beside pinned scenarios only the model's own curve stays: the comparison is between
        // scenarios, and the variants would crowd a laptop-sized chart.
        const bool ownCurve = mla ? i == Mla : kinds[i] == own;
        if (ownCurve)
            m_ownCurve = i;
        const bool shown = (i != Mla || mla) && (snap.pinned->empty() || ownCurve);
        m_curves[i]->setVisible(shown);
        m_crossLabels[i]->setVisible(false);
        m_crossLabelWanted[i] = false;
        if (shown) {
            m_curves[i]->addToLegend();
        } else {
            m_curves[i]->removeFromLegend();
            continue;
        }
        const QString name =
            kinds[i] == own && i != Mla ? names[i] + tr(" (this model)") : names[i];
        m_curveNames[i] = name;
        // The legend gives each curve's crossing whether or not the plot has room for it by the
        // crossing, or the axis reaches it.
        m_curves[i]->setName(
            free > 0 && crossings[i] > 0
                ? tr("%1: up to %2 tokens").arg(name, UiText::integer(crossings[i]))
                : name);
        const SweepColumn* column = sweep.column(kKvColumns[i]);
        QVector<double> xs(sweep.x.begin(), sweep.x.end());
        QVector<double> ys;
        for (double b : column->values) {
            ys << std::max(b, 1.0) / unit.bytes;
            lowest = std::min(lowest, std::max(b, 1.0));
        }
        m_curves[i]->setData(xs, ys, true);
        const double x = double(crossings[i]);
        if (free > 0 && x >= from && x <= to) {
            crossX << x;
            crossY << free / unit.bytes;
            markCrossing(i, x, free / unit.bytes);
        }
    }
    m_crossings->setData(crossX, crossY);
    drawPinned(snap, unit.bytes, &lowest);

    setContextAxis(xAxis, from, to);
    setBytesLogAxis(yAxis, unit.bytes, byteUnits());
    yAxis->setLabel(tr("KV cache size"));
    const double top = std::max(maxBytes, maxFree) / unit.bytes * 3;
    yAxis->setRange(std::max(lowest / unit.bytes / 2, top / 1e7), top);
    drawFreeLine(fit, from, to, unit.bytes);
}

// The largest KV cache the chart draws, in bytes, of this scenario's curves and the pinned
// ones'; `maxFree` widens to the most memory any of them leaves for KV.
double KvGrowthChart::largestKvBytes(const EvaluationSnapshot& snap, double* maxFree)
{
    double maxBytes = 1;
    for (const char* id : kKvColumns)
        if (const SweepColumn* c = snap.contextSweep.column(id); c && !c->values.empty())
            maxBytes = std::max(maxBytes, c->values.back());
    for (const PinnedEvaluation& p : *snap.pinned) {
        if (const SweepColumn* c = p.contextSweep.column("kv_per_gpu_bytes");
            c && !c->values.empty())
            maxBytes = std::max(maxBytes, c->values.back());
        *maxFree = std::max(*maxFree, p.evaluation.tokensFit.freeForKvBytes);
    }
    return maxBytes;
}

// Curve `i` crosses the free line at `tokens`, `value` on the axis: its number, placed over or
// under the line once the layout is known (placeCrossingLabels).
void KvGrowthChart::markCrossing(int i, double tokens, double value)
{
    m_crossLabelWanted[i] = true;
    m_crossKey[i] = tokens;
    m_crossLabels[i]->position->setCoords(tokens, value);
    anchorLabel(m_crossLabels[i], tokens, value);
    m_crossLabels[i]->setText(UiText::integer(int64_t(tokens)));
}

// The memory left for KV as a dashed line across the plot, its label over it (under it in a
// short chart); once the value axis is set, since the label's side depends on it.
void KvGrowthChart::drawFreeLine(const TokensFit& fit, double from, double to, double unitBytes)
{
    const double free = fit.freeForKvBytes;
    m_freeLine->setVisible(free > 0);
    m_freeLabel->setVisible(true);
    m_freeLine->point1->setCoords(from, std::max(free, 1.0) / unitBytes);
    m_freeLine->point2->setCoords(to, std::max(free, 1.0) / unitBytes);
    m_freeLabel->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    m_freeLabel->position->setTypeY(free > 0 ? QCPItemPosition::ptPlotCoords
                                             : QCPItemPosition::ptAxisRectRatio);
    // Over the line when there is one; otherwise just inside the top of the plot.
    m_freeLabel->setPositionAlignment(Qt::AlignLeft | (free > 0 ? Qt::AlignBottom : Qt::AlignTop));
    m_freeLabel->position->setCoords(0.01, free > 0 ? free / unitBytes : 0.03);
    // With every layer's KV in CPU RAM (llama.cpp -ngl 0) the GPU's free memory limits no
    // context: the line says what it is, not "free for KV" (the headline says "unbounded").
    if (fit.room == KvRoom::NotOnGpu)
        m_freeText = tr("GPU free: %1").arg(UiText::bytes(std::max(free, 0.0), byteUnits()));
    else
        m_freeText = free > 0 ? tr("free for KV: %1").arg(UiText::bytes(free, byteUnits()))
                              : tr("no memory left for KV");
    m_freeLabel->setText(m_freeText);
    // Under the free line when a short chart leaves no room over it: at the left, where every
    // curve is lowest.
    if (free > 0 && yAxis->coordToPixel(free / unitBytes) - axisRect()->top() <
                        labelSize(m_freeLabel).height() + 2)
        m_freeLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
}

// Places the labels where each names its own figure and covers no other: the free-for-KV label
// on its line, each pinned scenario's on its own, then the crossings' numbers, the model's own
// first. Runs once the layout is known (afterLayout), since only then are the labels' pixel
// extents.
void KvGrowthChart::placeCrossingLabels()
{
    std::vector<QRectF> taken;
    placeFreeLabel(&taken);
    placePinnedFreeLabels(&taken);
    for (QCPItemText* label : m_crossLabels)
        label->setVisible(false); // shown as each is placed, so none meets a stale one
    if (!m_freeLine->visible())
        return;
    std::vector<int> order{m_ownCurve};
    for (int i = 0; i < CurveCount; ++i)
        if (i != m_ownCurve)
            order.push_back(i);
    for (const int i : order)
        if (m_crossLabelWanted[i])
            placeCrossingLabel(i, &taken);
}

// A curve rising through the free line leaves two corners of its crossing empty: over the line
// to its left and under it to its right. The number takes the first spot right by its crossing
// (those corners, the other two, then centred over or under it) that stays in the plot, covers
// no crossing marker, line, curve or other label (a boxed number over a curve would hide it) and
// lies nearer its own crossing and its own curve than any other: a number beside another
// series' line reads as that series'. Where the curves leave no such spot the number stays off
// the plot; the curve's legend entry gives it always (draw()).
void KvGrowthChart::placeCrossingLabel(int i, std::vector<QRectF>* taken)
{
    QCPItemText* label = m_crossLabels[i];
    const QRectF plot(axisRect()->rect());
    const QPointF own(xAxis->coordToPixel(m_crossKey[i]),
                      yAxis->coordToPixel(m_freeLine->point1->coords().y()));
    const std::vector<const QCPGraph*> curves = shownCurves();
    auto clear = [&](const QRectF& box) {
        return plot.contains(box) && clearsMarkers(box) && clearOfLines(box) &&
               std::none_of(curves.begin(), curves.end(),
                            [&](const QCPGraph* c) { return curveCrosses(box, c); }) &&
               std::none_of(taken->begin(), taken->end(),
                            [&](const QRectF& t) { return t.intersects(box); });
    };
    std::optional<QRectF> spot;
    for (const QRectF& box :
         spotsAroundCrossing(own.x(), own.y(), labelSize(label), markerRadius() + 2))
        if (!spot && clear(box) && namesOwnCrossing(box, i, own, curves))
            spot = box;
    label->setVisible(bool(spot));
    if (!spot)
        return;
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->position->setCoords(xAxis->pixelToCoord(spot->left()), yAxis->pixelToCoord(spot->top()));
    taken->push_back(*spot);
}

// Whether a number at `box` reads as crossing `i`'s (at pixel `own`): nearer it than any other
// crossing, and nearer its curve than any other curve.
bool KvGrowthChart::namesOwnCrossing(const QRectF& box, int i, const QPointF& own,
                                     const std::vector<const QCPGraph*>& curves) const
{
    const double mine = QLineF(box.center(), own).length();
    for (const QCPGraphData& d : *m_crossings->data()) {
        const QPointF other = m_crossings->coordsToPixels(d.key, d.value);
        if (std::abs(other.x() - own.x()) > 0.5 && QLineF(box.center(), other).length() < mine)
            return false;
    }
    const double toOwnCurve = distanceToCurve(box, m_curves[i]);
    return std::none_of(curves.begin(), curves.end(), [&](const QCPGraph* c) {
        return c != m_curves[i] && distanceToCurve(box, c) < toOwnCurve;
    });
}

// The spots right beside a crossing at pixel (x, lineY), in order of preference: the four
// corners, then centred over and under it; a spot farther off reads as nobody's.
std::vector<QRectF> KvGrowthChart::spotsAroundCrossing(double x, double lineY, const QSizeF& size,
                                                       double gap) const
{
    std::vector<QRectF> spots;
    for (const bool over : {true, false})
        for (const bool left : {true, false})
            spots.emplace_back(left ? x - gap - size.width() : x + gap,
                               over ? lineY - gap - size.height() : lineY + gap, size.width(),
                               size.height());
    for (const bool over : {true, false})
        spots.emplace_back(x - size.width() / 2, over ? lineY - gap - size.height() : lineY + gap,
                           size.width(), size.height());
    return spots;
}

// On its line at the left, where every curve is lowest, else at the right; over the line, else
// under it: the first spot no curve, marker or other line runs through.
void KvGrowthChart::placeFreeLabel(std::vector<QRectF>* taken)
{
    if (!m_freeLine->visible()) {
        taken->push_back(labelBox(m_freeLabel)); // "no memory left for KV", inside the top
        return;
    }
    const double lineY = yAxis->coordToPixel(m_freeLine->point1->coords().y());
    // On one line where a spot clear of the curves takes it; else on two, which a narrow plot
    // may have room for; else the first spot, over a curve.
    const QString oneLine = m_freeText;
    m_freeLabel->setText(oneLine);
    std::optional<QRectF> spot;
    // Clear of the context's dotted line too where it can be; a dotted line through the text
    // before a curve through it.
    for (const bool avoid : {true, false}) {
        m_freeLabel->setText(oneLine);
        spot = spotOnLine(m_freeLabel, lineY, *taken, false, avoid);
        if (spot)
            break;
        m_freeLabel->setText(breakAfterColon(oneLine));
        spot = spotOnLine(m_freeLabel, lineY, *taken, false, avoid);
        if (spot)
            break;
    }
    // A narrow plot (presentation mode) can leave no room along the line: the clear spot
    // nearest its left end, in the line's colour, rather than text over the curves it measures.
    for (const QString& text : {oneLine, breakAfterColon(oneLine)}) {
        if (spot)
            break;
        m_freeLabel->setText(text);
        spot = nearestClearSpot(
            m_freeLabel, QPointF(axisRect()->rect().left(), lineY), [&](const QRectF& box) {
                return clearsMarkers(box) && clearOfLines(box, true) &&
                       std::none_of(taken->begin(), taken->end(),
                                    [&](const QRectF& t) { return t.intersects(box); });
            });
    }
    if (!spot) {
        m_freeLabel->setText(oneLine);
        spot = spotOnLine(m_freeLabel, lineY, *taken);
    }
    if (spot) {
        m_freeLabel->position->setType(QCPItemPosition::ptPlotCoords);
        m_freeLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        m_freeLabel->position->setCoords(xAxis->pixelToCoord(spot->left()),
                                         yAxis->pixelToCoord(spot->top()));
    }
    taken->push_back(labelBox(m_freeLabel));
}

void KvGrowthChart::placePinnedFreeLabels(std::vector<QRectF>* taken)
{
    for (size_t p = 0; p < m_pinnedFree.size(); ++p) {
        QCPItemText* label = m_pinnedFreeLabels[p];
        if (!m_pinnedFree[p]->visible())
            continue;
        const double lineY = yAxis->coordToPixel(m_pinnedFree[p]->point1->coords().y());
        const std::optional<QRectF> spot = spotOnLine(label, lineY, *taken);
        const QRectF box =
            spot.value_or(QRectF(QPointF(axisRect()->left() + 4, lineY + 2), labelSize(label)));
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->position->setCoords(xAxis->pixelToCoord(box.left()), yAxis->pixelToCoord(box.top()));
        taken->push_back(box);
    }
}

// Where `label` names the horizontal line at pixel row `lineY`: at its left or right end, else
// beside a crossing; over the line or under it, else a row further off. The first spot clear of
// every marker, other line and `taken` label, and of every curve if any spot is; none if even that
// fails.
std::optional<QRectF> KvGrowthChart::spotOnLine(const QCPItemText* label, double lineY,
                                                const std::vector<QRectF>& taken,
                                                bool mayCrossCurves, bool avoidContextLine) const
{
    const QSizeF size = labelSize(label);
    const QRectF plot(axisRect()->rect());
    const double beside = markerRadius() + 3;
    std::vector<double> lefts{plot.left() + 4, plot.right() - 4 - size.width()};
    for (const QCPGraphData& d : *m_crossings->data()) {
        const double x = xAxis->coordToPixel(d.key);
        lefts.insert(lefts.end(), {x + beside, x - beside - size.width()});
    }
    const std::vector<const QCPGraph*> curves = shownCurves();
    for (const bool anyCurve : {true, false}) {
        if (!anyCurve && !mayCrossCurves)
            break;
        for (int row = 0; row < 2; ++row) // on the line, else a row off it
            for (const double left : lefts)
                for (const bool over : {true, false}) {
                    const double off = 2 + row * (size.height() + 1);
                    const QRectF box(left, over ? lineY - off - size.height() : lineY + off,
                                     size.width(), size.height());
                    const bool clear =
                        plot.contains(box) && clearsMarkers(box) &&
                        clearOfLines(box, avoidContextLine) &&
                        (!anyCurve ||
                         std::none_of(curves.begin(), curves.end(),
                                      [&](const QCPGraph* c) { return curveCrosses(box, c); })) &&
                        std::none_of(taken.begin(), taken.end(),
                                     [&](const QRectF& t) { return t.intersects(box); });
                    if (clear)
                        return box;
                }
    }
    return std::nullopt;
}

double KvGrowthChart::markerRadius() const
{
    return 4 * chartStyle().lineScale; // the crossings' circles are 8 across
}

bool KvGrowthChart::clearsMarkers(const QRectF& box) const
{
    const double r = markerRadius() + 1;
    const QRectF around = box.adjusted(-r, -r, r, r);
    for (const QCPGraphData& d : *m_crossings->data())
        if (around.contains(m_crossings->coordsToPixels(d.key, d.value)))
            return false;
    return true;
}

// Whether no horizontal limit (the free line, a pinned scenario's) nor the context's vertical
// runs through `box`.
bool KvGrowthChart::clearOfLines(const QRectF& box, bool avoidContextLine) const
{
    std::vector<const QCPItemStraightLine*> lines(m_pinnedFree.begin(), m_pinnedFree.end());
    lines.push_back(m_freeLine);
    // The context's dotted vertical through a label would strike its text.
    const double contextX = m_contextLine->point1->pixelPosition().x();
    if (avoidContextLine && m_contextLine->visible() && contextX >= box.left() &&
        contextX <= box.right())
        return false;
    return std::none_of(lines.begin(), lines.end(), [&](const QCPItemStraightLine* line) {
        const double y = line->point1->pixelPosition().y();
        return line->visible() && y >= box.top() && y <= box.bottom();
    });
}

std::vector<const QCPGraph*> KvGrowthChart::shownCurves() const
{
    std::vector<const QCPGraph*> curves;
    for (int i = 0; i < graphCount(); ++i)
        if (graph(i) != m_crossings && graph(i)->visible())
            curves.push_back(graph(i));
    return curves;
}

void KvGrowthChart::drawPinned(const EvaluationSnapshot& snap, double unitBytes,
                               double* lowestBytes)
{
    // Each pinned scenario's own KV cache (as its model is configured, at its batch) and the
    // memory its GPU leaves for KV, in the scenario's colour.
    double low = *lowestBytes / unitBytes, high = 0;
    drawPinnedCurves(
        snap,
        [&](const PinnedEvaluation& p, size_t i) {
            return std::max(p.contextSweep.column("kv_per_gpu_bytes")->values[i], 1.0) / unitBytes;
        },
        &low, &high); // the chart says it is the KV cache; short names leave the plot room
    *lowestBytes = std::min(*lowestBytes, low * unitBytes);
    const PinnedList& pinned = *snap.pinned;
    while (m_pinnedFree.size() < pinned.size()) {
        m_pinnedFree.push_back(new QCPItemStraightLine(this));
        m_pinnedFreeLabels.push_back(new QCPItemText(this));
        tieLabelToLine(m_pinnedFreeLabels.back(), m_pinnedFree.back());
    }
    for (size_t p = 0; p < m_pinnedFree.size(); ++p) {
        QCPItemStraightLine* line = m_pinnedFree[p];
        const double free = p < pinned.size() ? pinned[p].evaluation.tokensFit.freeForKvBytes : 0;
        line->setVisible(free > 0);
        line->setPen(seriesPen(colors::pinned[p % 4], Qt::DashLine, 1.2));
        // Named by its letter: the legend says whose curve that is.
        QCPItemText* label = m_pinnedFreeLabels[p];
        label->setVisible(free > 0);
        styleCallout(label, colors::pinned[p % 4], 0.9, false);
        label->setText(tr("%1: free for KV").arg(QChar(u'A' + char16_t(p))));
        line->point1->setCoords(1, free / unitBytes);
        line->point2->setCoords(2, free / unitBytes);
    }
}

void KvGrowthChart::appendBaseKey(const EvaluationSnapshot& snap, std::vector<double>& key) const
{
    // Activations, and so the memory left for KV, grow with the prompt on engines that run it
    // whole: the free line and its crossings follow the context then.
    const TokensFit& f = snap.evaluation.tokensFit;
    key.insert(key.end(), {f.freeForKvBytes, double(f.perSequence), double(f.perSequenceMha),
                           double(f.perSequenceGqa), double(f.perSequenceMqa),
                           double(axisRect()->height())}); // the free label's headroom is in pixels
}

void KvGrowthChart::drawMarkers(const EvaluationSnapshot& snap)
{
    m_contextLine->point1->setCoords(double(snap.scenario.context), 1);
    m_contextLine->point2->setCoords(double(snap.scenario.context), 2);
}

QString KvGrowthChart::hoverText(double key, double, const QPoint&) const
{
    const EvaluationSnapshot* snap = lastSnapshot();
    if (!snap || snap->contextSweep.x.empty())
        return {};
    const Sweep& sweep = snap->contextSweep;
    const size_t nearest = nearestPoint(sweep, key);
    QStringList lines{tr("Context %1").arg(UiText::tokens(int64_t(sweep.x[nearest])))};
    for (int i = 0; i < CurveCount; ++i)
        if (m_curves[i]->visible())
            lines << QStringLiteral("%1: %2").arg(
                m_curveNames[i],
                UiText::bytes(sweep.column(kKvColumns[i])->values[nearest], byteUnits()));
    for (size_t p = 0; p < snap->pinned->size(); ++p) {
        const SweepColumn* kv = (*snap->pinned)[p].contextSweep.column("kv_per_gpu_bytes");
        if (kv && nearest < kv->values.size())
            lines << QStringLiteral("%1: %2").arg(pinnedName(p, (*snap->pinned)[p].name),
                                                  UiText::bytes(kv->values[nearest], byteUnits()));
    }
    return lines.join(QLatin1Char('\n'));
}

int KvGrowthChart::curveCount() const
{
    int n = 0;
    for (QCPGraph* g : m_curves)
        n += g->visible();
    return n;
}

QVector<double> KvGrowthChart::curveValues(int curve) const
{
    QVector<double> out;
    for (auto it = m_curves[curve]->data()->constBegin(); it != m_curves[curve]->data()->constEnd();
         ++it)
        out << it->value * m_unitBytes;
    return out;
}

} // namespace kvscope::ui
