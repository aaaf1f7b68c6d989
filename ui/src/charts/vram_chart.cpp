// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/vram_chart.h"

#include "export/layout_file.h"
#include "window/ui_text.h"

#include <algorithm>
#include <cmath>

namespace kvscope::ui {

VramChart::VramChart(QWidget* parent) : ChartBase(parent)
{
    QCPBars* below = nullptr;
    for (int i = 0; i < SegmentCount; ++i) {
        m_segments[i] = new QCPBars(xAxis, yAxis);
        m_segments[i]->setWidth(0.55);
        m_segments[i]->setStackingGap(0);
        if (below)
            m_segments[i]->moveAbove(below);
        below = m_segments[i];
        m_values[i] = new QCPItemText(this);
        m_values[i]->setPositionAlignment(Qt::AlignCenter);
        m_values[i]->setLayer(QStringLiteral("axes")); // over the overflow's hatching, not under it
    }
    m_overflow = new QCPBars(xAxis, yAxis);
    m_overflow->setWidth(0.55);
    m_overflow->setBrush(QBrush(colors::overflow, Qt::BDiagPattern));

    m_capacityLine = new QCPItemStraightLine(this);
    m_budgetLine = new QCPItemStraightLine(this);
    // In the column right of the bars: the capacity's label just above its line, the overflow's
    // above that, the engine budget's just under its own line (which is never above the
    // capacity), so no line runs through a label and each sits by its own line.
    m_capacityLabel = new QCPItemText(this);
    m_capacityLabel->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    m_capacityLabel->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    m_capacityLabel->setClipToAxisRect(false);
    m_capacityLabel->setTextAlignment(Qt::AlignRight);
    tieLabelToLine(m_capacityLabel, m_capacityLine);
    m_budgetLabel = new QCPItemText(this);
    m_budgetLabel->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    m_budgetLabel->setTextAlignment(Qt::AlignRight);
    m_budgetLabel->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    tieLabelToLine(m_budgetLabel, m_budgetLine);
    m_overflowLabel = new QCPItemText(this);
    m_overflowLabel->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    m_overflowLabel->setTextAlignment(Qt::AlignRight);
    m_overflowLabel->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    m_note = new QCPItemText(this);
    m_note->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_note->position->setCoords(0.01, 0.02);
    m_note->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);

    yAxis->setRangeLower(0);
    applySeriesStyle();
    retranslate();
}

void VramChart::applyTexts()
{
    const QString names[SegmentCount] = {tr("Weights"),  tr("KV cache"), tr("Activations"),
                                         tr("Overhead"), tr("Free"),     tr("Held back by engine")};
    for (int i = 0; i < SegmentCount; ++i)
        m_segments[i]->setName(names[i]);
    m_overflow->setName(tr("Overflow"));
}

void VramChart::applySeriesStyle()
{
    const QColor fills[SegmentCount] = {colors::weights,  colors::kvCache,  colors::activations,
                                        colors::overhead, colors::freeVram, colors::reserved};
    for (int i = 0; i < SegmentCount; ++i) {
        m_segments[i]->setBrush(i == Free ? chartStyle().tint(fills[i], 0.35) : fills[i]);
        m_segments[i]->setPen(QPen(chartStyle().background, 1));
    }
    m_overflow->setPen(seriesPen(colors::overflow, Qt::SolidLine, 2));
    m_capacityLine->setPen(seriesPen(chartStyle().foreground, Qt::SolidLine, 1.5));
    m_budgetLine->setPen(seriesPen(chartStyle().subtle, Qt::DashLine, 1.2));
    for (int i = 0; i < SegmentCount; ++i) {
        // Black or white, whichever contrasts more with the segment's colour (white on amber
        // would be 2.2:1).
        const QColor fill = m_segments[i]->brush().color();
        const bool black = contrastRatio(Qt::black, fill) > contrastRatio(Qt::white, fill);
        m_values[i]->setColor(black ? QColor(Qt::black) : QColor(Qt::white));
        m_values[i]->setFont(scaledFont(0.9, true));
    }
    m_note->setColor(chartStyle().foreground);
    m_note->setFont(chartStyle().font);
    styleCallout(m_capacityLabel, chartStyle().foreground, 1.0, false);
    styleCallout(m_budgetLabel, chartStyle().subtle, 1.0, false);
    styleCallout(m_overflowLabel, colors::overflow);
}

void VramChart::showComparison(bool on)
{
    for (QCPItemText* value : m_values)
        value->setVisible(false); // placeSegmentValues shows those that fit
    m_capacityLine->setVisible(!on);
    m_capacityLabel->setVisible(!on);
    if (on) {
        m_budgetLine->setVisible(false);
        m_budgetLabel->setVisible(false);
        m_overflow->setVisible(false);
        m_overflow->removeFromLegend();
        m_overflowLabel->setVisible(false);
        m_note->setVisible(false);
    }
    for (QCPBars* bars : m_pinnedOverflow)
        bars->setVisible(false);
    for (QCPItemLine* line : m_pinnedCapacity)
        line->setVisible(false);
    for (QCPItemText* label : m_pinnedCapacityLabels)
        label->setVisible(false);
}

void VramChart::drawComparison(const EvaluationSnapshot& snap)
{
    const PinnedList& pinned = *snap.pinned;
    const size_t n = pinned.size() + 1;
    auto splitOf = [&](size_t i) -> const VramSplit& {
        return i < pinned.size() ? pinned[i].evaluation.vram : snap.evaluation.vram;
    };
    double highest = 1;
    for (size_t i = 0; i < n; ++i) {
        const VramSplit& v = splitOf(i);
        highest = std::max({highest, v.capacityBytes, v.budgetBytes - v.freeBytes});
    }
    const AxisUnit unit = axisUnitFor(highest, byteUnits());
    m_unitBytes = unit.bytes;
    m_bars = int(n);
    while (m_pinnedOverflow.size() < n) {
        auto* bars = new QCPBars(xAxis, yAxis);
        bars->setWidth(0.55);
        bars->setBrush(QBrush(colors::overflow, Qt::BDiagPattern));
        bars->setPen(seriesPen(colors::overflow, Qt::SolidLine, 2));
        bars->removeFromLegend();
        m_pinnedOverflow.push_back(bars);
        m_pinnedCapacity.push_back(new QCPItemLine(this));
        auto* label = new QCPItemText(this);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        tieLabelToLine(label, m_pinnedCapacity.back());
        m_pinnedCapacityLabels.push_back(label);
    }
    QVector<double> keys, values[SegmentCount];
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    bool anyOverflow = false;
    double highestLabelled = 0;
    for (size_t i = 0; i < n; ++i) {
        const VramSplit& v = splitOf(i);
        const double key = double(i + 1);
        keys << key;
        const double parts[SegmentCount] = {v.weightsBytes,
                                            v.kvCacheBytes,
                                            v.activationBytes,
                                            v.overheadBytes,
                                            std::max(0.0, v.freeBytes),
                                            v.fits ? v.reservedBytes : 0.0};
        for (int s = 0; s < SegmentCount; ++s)
            values[s] << parts[s] / unit.bytes;
        // Short names under the bars; the legend of the other charts and the tooltip say more.
        const QString name = i < pinned.size() ? pinnedName(i, pinned[i].name) : tr("Live");
        ticker->addTick(key, QFontMetrics(xAxis->tickLabelFont())
                                 .elidedText(name, Qt::ElideRight,
                                             std::max(40, axisRect()->width() / int(n) - 6)));
        const double used = v.weightsBytes + v.kvCacheBytes + v.activationBytes + v.overheadBytes;
        if (!v.fits) {
            anyOverflow = true;
            m_pinnedOverflow[i]->setVisible(true);
            m_pinnedOverflow[i]->setBaseValue(v.budgetBytes / unit.bytes);
            m_pinnedOverflow[i]->setData({key}, {(used - v.budgetBytes) / unit.bytes}, true);
        }
        QCPItemLine* cap = m_pinnedCapacity[i];
        cap->setVisible(true);
        cap->setPen(seriesPen(chartStyle().foreground, Qt::SolidLine, 1.5));
        cap->start->setCoords(key - 0.38, v.capacityBytes / unit.bytes);
        cap->end->setCoords(key + 0.38, v.capacityBytes / unit.bytes);
        // Each scenario's capacity named over its own mark (their GPUs may differ).
        QCPItemText* capLabel = m_pinnedCapacityLabels[i];
        styleCallout(capLabel, chartStyle().foreground, 0.8, false);
        capLabel->setText(UiText::bytes(v.capacityBytes, byteUnits()));
        capLabel->position->setCoords(key, v.capacityBytes / unit.bytes);
        capLabel->setVisible(true);
        highestLabelled = std::max(highestLabelled, v.capacityBytes);
    }
    for (int s = 0; s < SegmentCount; ++s) {
        m_segments[s]->setData(keys, values[s], true);
        const bool any =
            std::any_of(values[s].begin(), values[s].end(), [](double x) { return x > 0; });
        if (any || s == Kv)
            m_segments[s]->addToLegend();
        else
            m_segments[s]->removeFromLegend();
    }
    if (anyOverflow) {
        m_overflow->addToLegend(); // the legend's entry; each bar has its own hatching
    }
    xAxis->setTicker(ticker);
    xAxis->setRange(0.4, double(n) + 0.6);
    xAxis->setLabel(QString());
    yAxis->setLabel(tr("Memory (%1)").arg(unit.symbol)); // the title says "per GPU"
    // Room over the highest capacity for its label.
    const double labelPx = m_pinnedCapacityLabels.empty()
                               ? 0.0
                               : labelSize(m_pinnedCapacityLabels.front()).height() + 4;
    const double share = std::min(0.4, labelPx / double(std::max(1, axisRect()->height())));
    yAxis->setRange(0, std::max(highest * 1.12, highestLabelled / (1.0 - share)) / unit.bytes);
}

void VramChart::draw(const EvaluationSnapshot& snap)
{
    showComparison(!snap.pinned->empty());
    if (!snap.pinned->empty())
        return drawComparison(snap);
    const Scenario& s = snap.scenario;
    const VramSplit& v = snap.evaluation.vram;
    const AxisUnit unit =
        axisUnitFor(std::max(v.capacityBytes, v.budgetBytes - v.freeBytes), byteUnits());
    m_unitBytes = unit.bytes;
    const double used = v.weightsBytes + v.kvCacheBytes + v.activationBytes + v.overheadBytes;
    setLimitLabels(v);
    // One bar per distinct load: tensor parallel and kvscope's layer split give every GPU the
    // same share, so one bar stands for all of them (eight identical bars said nothing more).
    m_bars = 1;
    xAxis->setRange(0.4, barRangeEnd(v));

    const double free = std::max(0.0, v.freeBytes);
    const double values[SegmentCount] = {
        v.weightsBytes,  v.kvCacheBytes, v.activationBytes,
        v.overheadBytes, free,           v.fits ? v.reservedBytes : 0.0};
    QVector<double> keys;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < m_bars; ++i) {
        keys << i + 1;
        ticker->addTick(i + 1, s.gpuCount > 1 ? tr("each of %1 GPUs").arg(s.gpuCount)
                                              : tr("GPU %1").arg(i));
    }
    xAxis->setTicker(ticker);
    for (int i = 0; i < SegmentCount; ++i) {
        m_segments[i]->setData(keys, QVector<double>(keys.size(), values[i] / unit.bytes), true);
        // Only what the bar shows is in the legend (no "held back" when the engine uses all).
        if (values[i] > 0 || i == Kv)
            m_segments[i]->addToLegend();
        else
            m_segments[i]->removeFromLegend();
    }
    drawLimits(v, keys, used, unit.bytes);
    showOffloaded(v);
    fitValueAxis(v, used, unit);
    placeSegmentValues(values, unit.bytes);
}

// The labels' texts come first: the column beside the bars is sized to them.
void VramChart::setLimitLabels(const VramSplit& v)
{
    if (!v.fits) {
        // On two lines, or on one when a short chart has no room for two above the capacity line.
        const QString size = QLatin1Char('+') + UiText::bytes(-v.freeBytes, byteUnits());
        m_overflowLabel->setText(tr("overflow") + QLatin1Char('\n') + size);
        if (labelSize(m_overflowLabel).height() + 6 > 0.45 * axisRect()->height())
            m_overflowLabel->setText(tr("overflow") + QLatin1Char(' ') + size);
    }
    // Each on two lines where one would crowd the bar (presentation mode's narrow chart).
    const double widest = 0.4 * axisRect()->width();
    const auto setFitting = [widest](QCPItemText* label, const QString& name, const QString& size) {
        label->setText(name + QLatin1Char(' ') + size);
        if (labelSize(label).width() > widest)
            label->setText(name + QLatin1Char('\n') + size);
    };
    setFitting(m_capacityLabel, tr("capacity"), UiText::bytes(v.capacityBytes, byteUnits()));
    setFitting(m_budgetLabel, tr("engine budget"), UiText::bytes(v.budgetBytes, byteUnits()));
}

bool VramChart::budgetShown(const VramSplit& v)
{
    return v.reservedBytes > 0.5; // the engine holds some memory back: its budget is a line
}

// The bar axis's end: a column right of the bars for the overflow and capacity labels, wide
// enough in pixels for the wider of them, so neither covers a bar.
double VramChart::barRangeEnd(const VramSplit& v) const
{
    const double labelPx = std::max({labelSize(m_capacityLabel).width(),
                                     budgetShown(v) ? labelSize(m_budgetLabel).width() : 0.0,
                                     v.fits ? 0.0 : labelSize(m_overflowLabel).width()}) +
                           12;
    const double column = std::min(0.6, labelPx / double(std::max(1, axisRect()->width())));
    return std::max(m_bars * 1.35 + 0.6, (m_bars + 0.3 - 0.4 * column) / (1.0 - column));
}

// The overflow above the budget, the capacity line with its label and the engine's budget.
void VramChart::drawLimits(const VramSplit& v, const QVector<double>& keys, double used,
                           double unitBytes)
{
    m_overflow->setVisible(!v.fits);
    m_overflowLabel->setVisible(!v.fits);
    if (v.fits)
        m_overflow->removeFromLegend();
    else
        m_overflow->addToLegend();
    if (!v.fits) {
        m_overflow->setBaseValue(v.budgetBytes / unitBytes);
        m_overflow->setData(keys, QVector<double>(keys.size(), (used - v.budgetBytes) / unitBytes),
                            true);
    }
    m_capacityLine->point1->setCoords(0, v.capacityBytes / unitBytes);
    m_capacityLine->point2->setCoords(1, v.capacityBytes / unitBytes);
    m_budgetLine->setVisible(budgetShown(v));
    m_budgetLabel->setVisible(budgetShown(v));
    m_budgetLine->point1->setCoords(0, v.budgetBytes / unitBytes);
    m_budgetLine->point2->setCoords(1, v.budgetBytes / unitBytes);
}

// What the bars no longer hold: experts kept in host RAM (llama.cpp --n-cpu-moe) under the
// bars, where the chart's whole width is free; any other weights offloaded there in the plot.
void VramChart::showOffloaded(const VramSplit& v)
{
    xAxis->setLabel(v.expertsOffloadedBytes > 0
                        ? tr("+ %1 of experts in host RAM")
                              .arg(UiText::bytes(v.expertsOffloadedBytes, byteUnits()))
                        : QString());
    QString note;
    // The input embedding llama.cpp keeps on the CPU at any split is no offload a user chose.
    if (const double other =
            v.weightsOffloadedBytes - v.expertsOffloadedBytes - v.weightsPinnedOnHostBytes;
        other > 0.5)
        note = tr("%1 of weights offloaded to CPU RAM").arg(UiText::bytes(other, byteUnits()));
    m_noteText = note;
    m_note->setText(note);
    m_note->setVisible(!note.isEmpty());
}

void VramChart::fitValueAxis(const VramSplit& v, double used, const AxisUnit& unit)
{
    yAxis->setLabel(tr("Memory (%1)").arg(unit.symbol));
    // Room above the capacity line for its label and the overflow's, whatever the height, and
    // above them for the offload note at the top (it ran over "capacity" at -ngl 40).
    const double capacityPx = labelSize(m_capacityLabel).height() + 3;
    // The note across the plot's width, in as many lines as that takes (Japanese in presentation
    // mode ran past the plot's edge).
    if (m_note->visible())
        m_note->setText(wrapToWidth(m_noteText, m_note->font(), 0.98 * axisRect()->width() - 4));
    const double notePx =
        m_note->visible() ? labelSize(m_note).height() + 0.02 * axisRect()->height() + 4 : 0.0;
    const double headroomPx =
        capacityPx + (v.fits ? 0.0 : labelSize(m_overflowLabel).height()) + notePx + 6;
    const double plotPx = double(std::max(1, axisRect()->height()));
    const double share = std::min(0.6, headroomPx / plotPx);
    const double top = std::max({v.capacityBytes, used * 1.12, v.capacityBytes / (1.0 - share)});
    const double bytesPerPx = top / plotPx;
    // Three pixels clear of the lines.
    m_capacityLabel->position->setTypeY(QCPItemPosition::ptPlotCoords);
    m_capacityLabel->position->setCoords(0.99, (v.capacityBytes + 3 * bytesPerPx) / unit.bytes);
    m_overflowLabel->position->setCoords(
        0.99, (v.capacityBytes + capacityPx * bytesPerPx + 3 * bytesPerPx) / unit.bytes);
    m_budgetLabel->position->setTypeY(QCPItemPosition::ptPlotCoords);
    m_budgetLabel->position->setCoords(0.99, (v.budgetBytes - 3 * bytesPerPx) / unit.bytes);
    yAxis->setRange(0, top / unit.bytes);
}

// Each segment's size written on it where the segment is tall and wide enough for the text, so
// an exported bar says what it holds without its tooltip; segments too thin stay unlabelled.
void VramChart::placeSegmentValues(const double* bytes, double unitBytes)
{
    double base = 0;
    const double barPx = std::abs(xAxis->coordToPixel(1.275) - xAxis->coordToPixel(0.725));
    for (int i = 0; i < SegmentCount; ++i) {
        const double top = base + bytes[i];
        QCPItemText* label = m_values[i];
        label->setText(UiText::bytes(bytes[i], byteUnits()));
        const auto [middlePx, heightPx] = clearStretch(yAxis->coordToPixel(top / unitBytes),
                                                       yAxis->coordToPixel(base / unitBytes));
        label->position->setCoords(1, yAxis->pixelToCoord(middlePx));
        // A narrow bar (presentation mode's large type on a laptop) takes the value smaller
        // before it drops it.
        label->setFont(scaledFont(0.9, true));
        if (labelSize(label).width() + 4 > barPx)
            label->setFont(scaledFont(0.72, true));
        const QSizeF size = labelSize(label);
        label->setVisible(bytes[i] > 0 && size.height() + 2 <= heightPx &&
                          size.width() + 4 <= barPx);
        base = top;
    }
}

std::pair<double, double> VramChart::clearStretch(double topPx, double bottomPx) const
{
    std::vector<double> cuts{topPx, bottomPx};
    for (const QCPItemStraightLine* line : {m_capacityLine, m_budgetLine}) {
        const double y = line->point1->pixelPosition().y();
        if (line->visible() && y > topPx && y < bottomPx)
            cuts.push_back(y);
    }
    std::sort(cuts.begin(), cuts.end());
    std::pair<double, double> best{(topPx + bottomPx) / 2, 0.0}; // middle, height
    for (size_t i = 1; i < cuts.size(); ++i) {
        // A line's pen takes two pixels of the stretch beside it.
        const double from = cuts[i - 1] + (i > 1 ? 2 : 0);
        const double to = cuts[i] - (i + 1 < cuts.size() ? 2 : 0);
        if (to - from > best.second)
            best = {(from + to) / 2, to - from};
    }
    return best;
}

QString VramChart::hoverText(double key, double value, const QPoint&) const
{
    const EvaluationSnapshot* snap = lastSnapshot();
    if (!snap || key < 0.5 || key > m_bars + 0.5)
        return {};
    // Comparing, each bar is a scenario: the pinned ones, then the live one.
    const size_t bar = size_t(std::lround(key)) - 1;
    const bool pinnedBar = bar < snap->pinned->size();
    const VramSplit& v = pinnedBar ? (*snap->pinned)[bar].evaluation.vram : snap->evaluation.vram;
    auto line = [&](const QString& name, double bytes) {
        return QStringLiteral("%1: %2").arg(name, UiText::bytes(bytes, byteUnits()));
    };
    QStringList lines;
    if (!snap->pinned->empty())
        lines << (pinnedBar ? pinnedName(bar, (*snap->pinned)[bar].name) : tr("Live"));
    lines << QStringList{
        line(tr("Capacity"), v.capacityBytes),      line(tr("Engine budget"), v.budgetBytes),
        line(tr("Weights"), v.weightsBytes),        line(tr("KV cache"), v.kvCacheBytes),
        line(tr("Activations"), v.activationBytes), line(tr("Overhead"), v.overheadBytes)};
    lines << (v.fits ? line(tr("Free"), v.freeBytes) : line(tr("Overflow"), -v.freeBytes));
    if (v.expertsOffloadedBytes > 0)
        lines << line(tr("Experts in host RAM"), v.expertsOffloadedBytes);
    Q_UNUSED(value);
    return lines.join(QLatin1Char('\n'));
}

QVector<double> VramChart::segmentBytes() const
{
    QVector<double> out;
    for (QCPBars* bars : m_segments)
        out << (bars->data()->isEmpty() ? 0.0 : bars->data()->at(0)->value * m_unitBytes);
    return out;
}

bool VramChart::showsOverflow() const
{
    return m_overflow->visible() && !m_overflow->data()->isEmpty();
}

void VramChart::appendBaseKey(const EvaluationSnapshot& snap, std::vector<double>& key) const
{
    key.push_back(double(snap.scenario.context)); // the KV bar grows with it
    key.push_back(double(axisRect()->height()));  // the overflow label's headroom is in pixels,
    key.push_back(double(axisRect()->width()));   // and so is the labels' column
}

} // namespace kvscope::ui
