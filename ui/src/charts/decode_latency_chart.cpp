// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/decode_latency_chart.h"

#include "kvscope/planning/verdict.h"

#include "charts/axis_tickers.h"
#include "export/layout_file.h"
#include "window/ui_text.h"

#include <cmath>

namespace kvscope::ui {

namespace {
const char* const kLatencyColumns[] = {"decode_ms_gpu", "decode_ms_cpu_serial",
                                       "decode_ms_cpu_pipelined", "decode_ms_nvme",
                                       "decode_ms_sata"};
} // namespace

DecodeLatencyChart::DecodeLatencyChart(QWidget* parent) : ChartBase(parent)
{
    m_slowRegion = new QCPItemRect(this);
    m_slowRegion->setLayer(QStringLiteral("background"));
    // Top left: every curve rises with the context, so that corner is the emptiest.
    m_slowLabel = new QCPItemText(this);
    m_slowLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_slowLabel->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_slowLabel->position->setCoords(0.01, 0.02);
    for (Tier t : allTiers)
        m_curves[size_t(t)] = addGraph();
    m_current = addGraph();
    m_current->setLineStyle(QCPGraph::lsNone);
    m_current->removeFromLegend();
    m_current->setLayer(markerLayer());
    markMarkerSeries(m_current); // points, not a curve
    m_currentLabel = new QCPItemText(this);
    m_currentLabel->setLayer(markerLayer());
    m_currentLeader = new QCPItemLine(this);
    m_currentLeader->setLayer(markerLayer());
    m_currentLeader->setVisible(false);
    m_currentLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    tieLabel(m_currentLabel, m_current); // beside the point it names, never over it
    setTimeLogAxis(yAxis);
    applySeriesStyle();
    retranslate();
}

void DecodeLatencyChart::applyTexts()
{
    xAxis->setLabel(tr("Context length (tokens)"));
    yAxis->setLabel(tr("Time per decode step"));
    for (Tier t : allTiers)
        m_curves[size_t(t)]->setName(UiText::tierName(t));
}

void DecodeLatencyChart::applySeriesStyle()
{
    const QColor lines[] = {colors::gpu, colors::cpuRam, colors::cpuRam, colors::nvme,
                            colors::sata};
    const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::SolidLine, Qt::DashLine, Qt::DashDotLine,
                                   Qt::DotLine};
    for (size_t i = 0; i < 5; ++i)
        m_curves[i]->setPen(seriesPen(lines[i], styles[i], 2.2));
    m_slowRegion->setBrush(
        chartStyle().tint(colors::overflow, chartStyle().isDark() ? 0.18 : 0.10));
    m_slowRegion->setPen(Qt::NoPen);
    styleCallout(m_slowLabel, colors::overflow.darker(chartStyle().isDark() ? 60 : 110), 1.0,
                 false);
    // The callout box in the shaded region's own tint, so it reads as part of the region.
    m_slowLabel->setBrush(m_slowRegion->brush());
    m_current->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, chartStyle().foreground,
                                               10 * chartStyle().lineScale));
    styleCallout(m_currentLabel, chartStyle().foreground);
    m_currentLeader->setPen(seriesPen(chartStyle().foreground, Qt::SolidLine, 1));
}

// Where only the KV cache of a long context overflows, the curves show where shorter contexts
// run; where the weights, the activations, the host RAM or the head split stop it, no context
// runs and the chart says why instead of drawing times for it.
bool DecodeLatencyChart::showCurves(const EvaluationSnapshot& snap)
{
    const QString notRunning =
        snap.verdict.binding == Binding::KvCache ? QString() : notRunningNote(snap);
    setEmptyNote(notRunning);
    const bool on = notRunning.isEmpty();
    for (QCPGraph* curve : m_curves) {
        curve->setVisible(on);
        on ? (void)curve->addToLegend() : (void)curve->removeFromLegend();
    }
    for (QCPAbstractItem* item :
         std::initializer_list<QCPAbstractItem*>{m_slowRegion, m_slowLabel, m_currentLabel})
        item->setVisible(on);
    m_current->setVisible(on);
    if (!on) {
        m_currentLeader->setVisible(false); // placeBesidePoint shows it when it is needed
        hidePinnedCurves();
    }
    return on;
}

void DecodeLatencyChart::draw(const EvaluationSnapshot& snap)
{
    if (!showCurves(snap))
        return;
    const Scenario& s = snap.scenario;
    const Sweep& sweep = snap.contextSweep;
    const double from = sweep.x.empty() ? 256 : sweep.x.front();
    const double to = sweep.x.empty() ? 8192 : sweep.x.back();
    double low = 1e300, high = 0;
    // With the KV cache on the GPU, no time past the longest context its memory holds at this
    // batch: those contexts do not run.
    const TokensFit& fit = snap.evaluation.tokensFit;
    const double gpuHolds = fit.contextUnbounded(fit.perSequence)
                                ? 1e300
                                : double(std::max<int64_t>(fit.perSequence, 0));
    for (size_t i = 0; i < 5; ++i) {
        const SweepColumn* column = sweep.column(kLatencyColumns[i]);
        QVector<double> keys, ys;
        for (size_t k = 0; k < column->values.size() && k < sweep.x.size(); ++k) {
            if (i == size_t(Tier::Gpu) && sweep.x[k] > gpuHolds)
                break;
            const double y = std::max(column->values[k], 1e-3);
            keys.push_back(sweep.x[k]);
            ys.push_back(y);
            low = std::min(low, y);
            high = std::max(high, y);
        }
        m_curves[i]->setData(keys, ys, true);
    }
    // Each pinned scenario at its own KV placement (as the live one's marker is): its step time
    // from its tokens/s (all its sequences take one step together).
    drawPinnedCurves(
        snap,
        [](const PinnedEvaluation& p, size_t i) {
            const double perS = p.contextSweep.column("tokens_per_s")->values[i];
            return perS > 0 ? std::max(1e3 * double(p.scenario.batch) / perS, 1e-3) : 1e-3;
        },
        &low, &high); // named only "A: ...": short names leave the plot room
    const double threshold = 1e3 / s.efficiency.realtimeTokensPerS;
    // On two lines where one would not fit the plot (the chart shares its row).
    const QString reading = UiText::number(s.efficiency.realtimeTokensPerS, 1);
    m_slowLabel->setText(tr("slower than reading speed (%1 tokens/s per sequence)").arg(reading));
    if (labelSize(m_slowLabel).width() > 0.9 * axisRect()->width())
        m_slowLabel->setText(
            wrapToWidth(tr("slower than reading speed\n(%1 tokens/s per sequence)").arg(reading),
                        m_slowLabel->font(), 0.9 * axisRect()->width()));
    // Room for the caption above the curves beneath it (they are lowest at the left).
    setContextAxis(xAxis, from, to);
    const QSizeF caption = labelSize(m_slowLabel);
    const double captionEnd =
        xAxis->pixelToCoord(axisRect()->left() + 0.01 * axisRect()->width() + caption.width() + 6);
    double underCaption = 1e-3;
    for (int g = 0; g < graphCount(); ++g) {
        const QCPGraph* curve = graph(g);
        if (!curve->visible() || curve == m_current)
            continue;
        for (auto it = curve->data()->constBegin();
             it != curve->data()->constEnd() && it->key <= captionEnd; ++it)
            underCaption = std::max(underCaption, it->value);
    }
    const double bottom = low / 2;
    const double top = std::max(std::max(high, threshold) * 2.5,
                                logTopAbove(underCaption, bottom, caption.height() + 8));
    m_slowRegion->topLeft->setCoords(from, top * 10);
    m_slowRegion->bottomRight->setCoords(to, threshold);

    yAxis->setRange(std::max(bottom, top / 1e7), top);
}

void DecodeLatencyChart::appendBaseKey(const EvaluationSnapshot&, std::vector<double>& key) const
{
    key.push_back(double(axisRect()->height())); // the caption's headroom is in pixels
    key.push_back(double(axisRect()->width()));  // and its line breaks
}

void DecodeLatencyChart::drawMarkers(const EvaluationSnapshot& snap)
{
    if (!m_current->visible())
        return;
    const Scenario& s = snap.scenario;
    const DecodeTiming& d = snap.evaluation.decode;
    const bool runs = snap.verdict.runs;
    // A scenario that does not fit has no decode time to show: an open circle on the context
    // axis, at no time, not the solid point of a figure on a curve.
    const double markerMs = runs ? std::max(d.selectedMs, 1e-3) : yAxis->range().lower * 1.4;
    m_current->setData({double(s.context)}, {markerMs});
    m_current->setScatterStyle(
        QCPScatterStyle(runs ? QCPScatterStyle::ssDisc : QCPScatterStyle::ssCircle,
                        chartStyle().foreground, 10 * chartStyle().lineScale));
    m_currentLabel->setText(
        runs ? tr("%1: %2").arg(UiText::contextShort(double(s.context)),
                                UiText::duration(d.selectedMs))
             : tr("%1: does not fit").arg(UiText::contextShort(double(s.context))));
    placeBesidePoint(m_currentLabel, double(s.context), markerMs, 1.6, m_currentLeader);
}

QString DecodeLatencyChart::hoverText(double key, double, const QPoint&) const
{
    const EvaluationSnapshot* snap = lastSnapshot();
    if (!snap || snap->contextSweep.x.empty())
        return {};
    const Sweep& sweep = snap->contextSweep;
    const size_t nearest = nearestPoint(sweep, key);
    QStringList lines{tr("Context %1").arg(UiText::tokens(int64_t(sweep.x[nearest])))};
    for (Tier t : allTiers) {
        const double ms = sweep.column(kLatencyColumns[size_t(t)])->values[nearest];
        lines << tr("%1: %2 (%3 tokens/s)")
                     .arg(UiText::tierName(t), UiText::duration(ms),
                          UiText::tokensPerSecond(ms > 0 ? 1e3 * double(snap->scenario.batch) / ms
                                                         : 0));
    }
    // Pinned scenarios share the sweep's points; each at its own KV placement.
    for (size_t p = 0; p < snap->pinned->size(); ++p) {
        const PinnedEvaluation& pinned = (*snap->pinned)[p];
        const SweepColumn* perS = pinned.contextSweep.column("tokens_per_s");
        if (!perS || nearest >= perS->values.size() || perS->values[nearest] <= 0)
            continue;
        lines << tr("%1 (%2): %3 (%4 tokens/s)")
                     .arg(pinnedName(p, pinned.name),
                          UiText::placementName(pinned.scenario.kvPlacement),
                          UiText::duration(1e3 * double(pinned.scenario.batch) /
                                           perS->values[nearest]),
                          UiText::tokensPerSecond(perS->values[nearest]));
    }
    return lines.join(QLatin1Char('\n'));
}

QPointF DecodeLatencyChart::currentPoint() const
{
    if (m_current->data()->isEmpty())
        return {};
    return {m_current->data()->constBegin()->key, m_current->data()->constBegin()->value};
}

QRectF DecodeLatencyChart::captionBox() const
{
    return labelBox(m_slowLabel);
}

QVector<double> DecodeLatencyChart::curveValues(Tier tier) const
{
    QVector<double> out;
    const QCPGraph* g = m_curves[size_t(tier)];
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
        out << it->value;
    return out;
}

} // namespace kvscope::ui
