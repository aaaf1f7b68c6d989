// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/breakeven_chart.h"

#include "charts/axis_tickers.h"
#include "export/layout_file.h"
#include "window/ui_text.h"

#include <cmath>

namespace kvscope::ui {

namespace {
const char* const kReloadColumns[] = {"reload_ms_cpu", "reload_ms_nvme", "reload_ms_sata"};
const QColor& tierColor(size_t tier)
{
    static const QColor tiers[] = {colors::cpuRam, colors::nvme, colors::sata};
    return tiers[tier];
}
} // namespace

BreakevenChart::BreakevenChart(QWidget* parent) : ChartBase(parent)
{
    m_recompute = addGraph();
    for (size_t i = 0; i < 3; ++i) {
        m_reload[i] = addGraph();
        m_crossLines[i] = new QCPItemStraightLine(this);
        m_crossLabels[i] = new QCPItemText(this);
        m_crossLabels[i]->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        m_crossLabels[i]->position->setTypeX(QCPItemPosition::ptAbsolute); // placed in pixels
        m_crossLabels[i]->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        tieLabel(m_crossLabels[i], m_reload[i]);
    }
    setTimeLogAxis(yAxis);
    applySeriesStyle();
    retranslate();
}

void BreakevenChart::applyTexts()
{
    xAxis->setLabel(tr("Prompt length (tokens)"));
    yAxis->setLabel(tr("Time to first token"));
    m_recompute->setName(tr("recompute (prefill)"));
    for (ReloadTier t : allReloadTiers)
        m_reload[size_t(t)]->setName(UiText::reloadTierName(t));
}

void BreakevenChart::applySeriesStyle()
{
    m_recompute->setPen(seriesPen(colors::recompute, Qt::SolidLine, 2.6));
    const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashDotLine, Qt::DotLine};
    for (size_t i = 0; i < 3; ++i) {
        m_reload[i]->setPen(seriesPen(tierColor(i), styles[i], 2.2));
        m_crossLines[i]->setPen(seriesPen(tierColor(i), Qt::DashLine, 1.2));
        // A box behind each label keeps it legible where the curves cross it.
        styleCallout(m_crossLabels[i], tierColor(i).darker(chartStyle().isDark() ? 80 : 115), 0.95);
    }
}

void BreakevenChart::draw(const EvaluationSnapshot& snap)
{
    const Sweep& sweep = snap.contextSweep;
    const double from = sweep.x.empty() ? 256 : sweep.x.front();
    const double to = sweep.x.empty() ? 8192 : sweep.x.back();
    const QVector<double> xs(sweep.x.begin(), sweep.x.end());
    double low = 1e300, high = 0;
    auto fill = [&](QCPGraph* graph, const char* column) {
        const SweepColumn* c = sweep.column(column);
        QVector<double> ys(c->values.begin(), c->values.end());
        for (double& y : ys) {
            y = std::max(y, 1e-3);
            low = std::min(low, y);
            high = std::max(high, y);
        }
        graph->setData(xs, ys, true);
    };
    fill(m_recompute, "recompute_ms");
    for (size_t i = 0; i < 3; ++i)
        fill(m_reload[i], kReloadColumns[i]);
    // Each pinned scenario's time to first token by recomputing: reload times follow the host
    // link, recompute the GPU and the model, which is what a comparison usually changes.
    drawPinnedCurves(
        snap,
        [](const PinnedEvaluation& p, size_t i) {
            return std::max(p.contextSweep.column("recompute_ms")->values[i], 1e-3);
        },
        &low, &high, tr("recompute"));

    setContextAxis(xAxis, from, to); // first: the labels below are placed in its pixels
    const Breakeven& b = snap.evaluation.breakeven;
    double rowTop = 0.02; // each shown label's row under the one before, whatever its lines
    for (size_t i = 0; i < 3; ++i) {
        const double x = double(b.crossTokens[i]);
        const bool shown = b.crossTokens[i] > 0 && x >= from && x <= to;
        m_crossLines[i]->setVisible(shown);
        m_crossLabels[i]->setVisible(shown);
        if (!shown)
            continue;
        m_crossLines[i]->point1->setCoords(x, 1);
        m_crossLines[i]->point2->setCoords(x, 2);
        // Where the plot is narrower than the sentence (presentation fonts), the label's colour
        // names the tier and the text says only from where; wrapped if even that is too wide.
        const double left = axisRect()->left(), right = axisRect()->right();
        m_crossLabels[i]->setText(
            tr("%1 wins from %2")
                .arg(UiText::reloadTierName(ReloadTier(i)), UiText::tokens(b.crossTokens[i])));
        if (labelSize(m_crossLabels[i]).width() > right - left)
            m_crossLabels[i]->setText(
                wrapToWidth(tr("wins from %1").arg(UiText::tokens(b.crossTokens[i])),
                            m_crossLabels[i]->font(), 0.9 * (right - left)));
        // Rows in pixels whatever the chart's height, so they never overlap.
        const double line =
            (labelSize(m_crossLabels[i]).height() + 1) / double(std::max(1, axisRect()->height()));
        // Right of its line, else left of it, else as near as the chart's edges allow: no text
        // is cut off, however narrow the chart.
        const double width = labelSize(m_crossLabels[i]).width();
        const double lineX = xAxis->coordToPixel(x), gap = 3;
        double labelX = lineX + gap;
        if (labelX + width > right)
            labelX =
                lineX - gap - width >= left ? lineX - gap - width : std::max(left, right - width);
        m_crossLabels[i]->position->setCoords(labelX, rowTop);
        rowTop += line;
    }
    // Room over the highest curve for the label rows, so they cover no curve.
    const double bottom = std::max(low / 2, high / 1e7);
    yAxis->setRange(
        bottom, std::max(high * 3, logTopAbove(high, bottom, rowTop * axisRect()->height() + 4)));
}

void BreakevenChart::appendBaseKey(const EvaluationSnapshot& snap, std::vector<double>& key) const
{
    key.push_back(double(axisRect()->height())); // the label rows are spaced in pixels
    key.push_back(double(axisRect()->width()));  // and turn left near the right edge
    // The crossings are searched up to the longer of the context and the model's maximum.
    for (int64_t cross : snap.evaluation.breakeven.crossTokens)
        key.push_back(double(cross));
}

QString BreakevenChart::hoverText(double key, double, const QPoint&) const
{
    const EvaluationSnapshot* snap = lastSnapshot();
    if (!snap || snap->contextSweep.x.empty())
        return {};
    const Sweep& sweep = snap->contextSweep;
    const size_t nearest = nearestPoint(sweep, key);
    QStringList lines{tr("Prompt %1").arg(UiText::tokens(int64_t(sweep.x[nearest])))};
    lines << QStringLiteral("%1: %2").arg(
        m_recompute->name(), UiText::duration(sweep.column("recompute_ms")->values[nearest]));
    for (size_t i = 0; i < 3; ++i)
        lines << QStringLiteral("%1: %2").arg(
            m_reload[i]->name(),
            UiText::duration(sweep.column(kReloadColumns[i])->values[nearest]));
    for (size_t p = 0; p < snap->pinned->size(); ++p) {
        const SweepColumn* recompute = (*snap->pinned)[p].contextSweep.column("recompute_ms");
        if (recompute && nearest < recompute->values.size())
            lines << tr("%1, recompute: %2")
                         .arg(pinnedName(p, (*snap->pinned)[p].name),
                              UiText::duration(recompute->values[nearest]));
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace kvscope::ui
