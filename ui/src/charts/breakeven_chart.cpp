// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/breakeven_chart.h"

#include "charts/axis_tickers.h"
#include "export/layout_file.h"
#include "window/ui_text.h"

#include <algorithm>
#include <cmath>
#include <optional>

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
        m_crossLines[i] = new QCPItemLine(this);
        for (QCPItemPosition* end : {m_crossLines[i]->start, m_crossLines[i]->end})
            end->setTypeY(QCPItemPosition::ptAxisRectRatio); // x at the crossing, y in the plot
        m_crossLabels[i] = new QCPItemText(this);
        m_crossLabels[i]->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        m_crossLabels[i]->position->setTypeX(QCPItemPosition::ptAbsolute); // placed in pixels
        m_crossLabels[i]->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        tieLabel(m_crossLabels[i], m_reload[i]);
        tieLabelToLine(m_crossLabels[i], m_crossLines[i]);
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
    // A scenario that does not run has no time to its first token: the chart says why instead.
    const QString notRunning = notRunningNote(snap);
    setEmptyNote(notRunning);
    showCurves(notRunning.isEmpty());
    if (!notRunning.isEmpty())
        return;
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
    // In smaller type where the rows would take over half a short plot (the window's chart in
    // Japanese): more than half would squeeze the curves, and less would cover them.
    for (QCPItemText* label : m_crossLabels)
        label->setFont(scaledFont(0.95, true));
    double rowTop = placeCrossLabels(snap.evaluation.breakeven, from, to);
    double most = 0.5;
    if (rowTop * axisRect()->height() + 4 > 0.5 * axisRect()->height()) {
        for (QCPItemText* label : m_crossLabels)
            label->setFont(scaledFont(0.78, true));
        rowTop = placeCrossLabels(snap.evaluation.breakeven, from, to);
        most = 0.62; // even small, the rows need it; the curves keep the rest
    }
    // Room over the highest curve for the label rows, so they cover no curve.
    const double bottom = std::max(low / 2, high / 1e7);
    yAxis->setRange(
        bottom,
        std::max(high * 3, logTopAbove(high, bottom, rowTop * axisRect()->height() + 4, most)));
}

void BreakevenChart::showCurves(bool on)
{
    for (QCPGraph* graph : {m_recompute, m_reload[0], m_reload[1], m_reload[2]}) {
        graph->setVisible(on);
        on ? (void)graph->addToLegend() : (void)graph->removeFromLegend();
    }
    if (on)
        return;
    hidePinnedCurves();
    for (size_t i = 0; i < 3; ++i) {
        m_crossLines[i]->setVisible(false);
        m_crossLabels[i]->setVisible(false);
    }
}

// Each tier's crossing: a line from the plot's bottom up to its label, which flies from it like a
// flag in a row of its own over the curves (so no two labels overlap and no other crossing's
// line runs through one). Rows go left to right: a label flies right of its pole, past every
// pole to its left, unless the plot's right edge turns it. Returns the rows' height, as a share
// of the plot's.
double BreakevenChart::placeCrossLabels(const Breakeven& b, double from, double to)
{
    std::vector<size_t> shown;
    for (size_t i = 0; i < 3; ++i) {
        const bool on = b.crossTokens[i] > 0 && double(b.crossTokens[i]) >= from &&
                        double(b.crossTokens[i]) <= to;
        m_crossLines[i]->setVisible(on);
        m_crossLabels[i]->setVisible(on);
        if (on)
            shown.push_back(i);
    }
    std::sort(shown.begin(), shown.end(),
              [&](size_t l, size_t r) { return b.crossTokens[l] < b.crossTokens[r]; });
    const double height = std::max(1, axisRect()->height());
    double rowTop = 0.02;           // each label's row under the one before, whatever its lines
    std::vector<double> polesAbove; // the lines of the rows above, which run through this row
    for (const size_t i : shown) {
        const double x = double(b.crossTokens[i]), lineX = xAxis->coordToPixel(x);
        // The tier's name always: the colours of three tiers are no key on their own.
        const QString text =
            tr("%1 wins from %2")
                .arg(UiText::reloadTierName(ReloadTier(i)), UiText::tokens(b.crossTokens[i]));
        m_crossLabels[i]->position->setCoords(flagLeft(m_crossLabels[i], text, lineX, polesAbove),
                                              rowTop);
        const double rowHeight = (labelSize(m_crossLabels[i]).height() + 1) / height;
        m_crossLines[i]->start->setCoords(x, 1.0);
        m_crossLines[i]->end->setCoords(x, rowTop + rowHeight / 2); // to the label's middle
        rowTop += rowHeight;
        polesAbove.push_back(lineX);
    }
    return rowTop;
}

// Sets `text` on `label` and returns its left edge: right of its pole at `lineX`, else left of
// it, up to the nearest of `polesAbove` (which run through its row) or the plot's edge; wrapped
// to that room where the sentence is wider. When neither side has room even for its longest
// word (a pole above a few pixels away), past the nearest pole on either side that leaves room:
// a line through the label hid its words (SATA's crossing a few pixels from NVMe's).
double BreakevenChart::flagLeft(QCPItemText* label, const QString& text, double lineX,
                                const std::vector<double>& polesAbove) const
{
    if (const std::optional<double> at = flagBeside(label, text, lineX, lineX, polesAbove))
        return *at;
    std::vector<double> poles = polesAbove;
    std::sort(poles.begin(), poles.end(),
              [&](double l, double r) { return std::fabs(l - lineX) < std::fabs(r - lineX); });
    for (const double pole : poles) // beside the nearest other pole that leaves room
        if (const std::optional<double> at = flagBeside(label, text, pole, lineX, polesAbove))
            return *at;
    const double left = axisRect()->left(), right = axisRect()->right();
    label->setText(wrapToWidth(text, label->font(), 0.9 * (right - left)));
    return std::max(left, std::min(lineX + 1.5, right - labelSize(label).width()));
}

// `label` beside the pole at `x` (its own at `lineX`, or one above it), right of it or left of
// it up to the next pole of `polesAbove` or the plot's edge, on the side away from `lineX` when
// `x` is not its own: its left edge, or nothing where no side holds it.
// The box QCustomPlot draws is a few pixels wider than QFontMetrics measures the text: placed
// flush left of its pole, SATA's label had its own line through its last letters.
constexpr double kMetricSlack = 4;

std::optional<double> BreakevenChart::flagBeside(QCPItemText* label, const QString& text, double x,
                                                 double lineX,
                                                 const std::vector<double>& polesAbove) const
{
    const double left = axisRect()->left(), right = axisRect()->right(), gap = 1.5;
    double leftEnd = left, rightEnd = right; // the room's ends either side of the pole
    for (const double pole : polesAbove) {
        if (pole < x)
            leftEnd = std::max(leftEnd, pole + 2);
        else if (pole > x)
            rightEnd = std::min(rightEnd, pole - 2);
    }
    const bool own = x == lineX;
    const QMargins pad = label->padding(); // wrapToWidth measures the text alone
    // Three lines at most while a side holds that; any number before a line runs through it.
    for (const int maxBreaks : {2, 20})
        for (const bool rightOfPole : {true, false}) {
            if (!own && rightOfPole != (x > lineX))
                continue; // the far side of another pole only: the near side is its own room
            const double room =
                (rightOfPole ? rightEnd - x - gap : x - gap - leftEnd) - kMetricSlack;
            label->setText(text);
            // Narrower until the box fits: the wrap measures the text as a line of it, the box
            // as a block, and the two differ by a few pixels.
            for (double wrap = room - pad.left() - pad.right();
                 labelSize(label).width() > room && wrap > 16; wrap -= 8) {
                const QString wrapped = wrapToWidth(text, label->font(), wrap);
                if (wrapped.count(QLatin1Char('\n')) > maxBreaks)
                    break;
                label->setText(wrapped);
            }
            const double width = labelSize(label).width();
            if (width <= room)
                return rightOfPole ? x + gap : x - gap - kMetricSlack - width;
        }
    return std::nullopt;
}

void BreakevenChart::appendBaseKey(const EvaluationSnapshot& snap, std::vector<double>& key) const
{
    key.push_back(double(axisRect()->height())); // the label rows are spaced in pixels
    key.push_back(double(axisRect()->width()));  // and turn left near the right edge
    key.push_back(double(snap.verdict.runs));
    // The crossings are searched up to the longer of the context and the model's maximum.
    for (int64_t cross : snap.evaluation.breakeven.crossTokens)
        key.push_back(double(cross));
}

QString BreakevenChart::hoverText(double key, double, const QPoint&) const
{
    const EvaluationSnapshot* snap = lastSnapshot();
    if (!snap || snap->contextSweep.x.empty() || !emptyNote().isEmpty())
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
