// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/plan_chart.h"

#include "kvscope/io/plan_csv.h"
#include "panels/planner_text.h"
#include "window/ui_text.h"

#include <algorithm>
#include <cmath>

namespace kvscope::ui {

QString planEntryName(const PlanEntry& p)
{
    const Scenario& s = p.scenario;
    return PlanChart::tr("%1, %2, %3")
        .arg(PlannerText::gpus(s), QString::fromStdString(s.engine.shortName),
             QString::fromStdString(s.weights.name));
}

PlanChart::PlanChart(QWidget* parent) : ChartBase(parent)
{
    m_others = addGraph();
    m_others->setLineStyle(QCPGraph::lsNone);
    m_front = addGraph();
    m_front->setLineStyle(QCPGraph::lsLine); // in speed order: the front steps up in cost
    markMarkerSeries(m_front);               // no label covers one of its points
    m_current = addGraph();
    m_current->setLineStyle(QCPGraph::lsNone);
    m_current->setLayer(markerLayer());
    m_empty = new QCPItemText(this);
    m_empty->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_empty->position->setCoords(0.5, 0.5);
    m_empty->setPositionAlignment(Qt::AlignCenter);
    m_empty->setTextAlignment(Qt::AlignCenter);
    m_empty->setVisible(false);
    setLogAxis(xAxis);
    setLogAxis(yAxis);
    applySeriesStyle();
    retranslate();
}

void PlanChart::setObjective(PlanObjective objective)
{
    searchAgainWith(&PlanRequest::objective, objective);
}

void PlanChart::setDeployment(Deployment deployment)
{
    searchAgainWith(&PlanRequest::deployment, deployment);
}

void PlanChart::setRatePerS(double requestsPerS)
{
    searchAgainWith(&PlanRequest::ratePerS, requestsPerS);
}

void PlanChart::setMaxGpusPerNode(int gpus)
{
    searchAgainWith(&PlanRequest::maxGpusPerNode, gpus);
}

void PlanChart::applyTexts()
{
    xAxis->setLabel(tr("Decode tokens/s per user"));
    m_others->setName(tr("Meets the targets"));
    m_front->setName(tr("Pareto front: nothing both cheaper and faster"));
    m_current->setName(tr("This scenario"));
}

void PlanChart::applySeriesStyle()
{
    const ChartStyle& style = chartStyle();
    m_others->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssDisc, style.subtle, style.subtle, 6));
    m_others->setPen(Qt::NoPen);
    // The front is the answer: drawn in the foreground, the rest in the subtle grey.
    m_front->setPen(seriesPen(style.foreground, Qt::SolidLine, 1.5));
    m_front->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssDisc, style.foreground, style.foreground, 10));
    m_current->setPen(Qt::NoPen);
    m_current->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(style.foreground, 2), Qt::NoBrush, 14));
    // Icons as tall as that diamond: the base's 10-pixel icons clipped it to "<>".
    legend->setIconSize(legend->iconSize().width(), int(16 * style.lineScale));
    for (QCPItemText* label : m_labels)
        styleCallout(label, style.foreground, 0.85, false);
    m_empty->setColor(style.foreground);
    m_empty->setFont(scaledFont(1.0));
}

void PlanChart::appendBaseKey(const EvaluationSnapshot& snap, std::vector<double>& key) const
{
    // The search runs at the scenario's context: a context drag changes every configuration.
    key.push_back(double(snap.scenario.context));
    // The front's labels are placed in pixels.
    key.push_back(double(axisRect()->width()));
    key.push_back(double(axisRect()->height()));
}

const std::vector<PlanEntry>& PlanChart::shown() const
{
    return m_result.ranked.empty() ? m_result.closestMisses : m_result.ranked;
}

void PlanChart::search(const EvaluationSnapshot& snap)
{
    m_request.base = snap.scenario;
    m_request.keepFrontBeyondLimit = true; // the front drawn whole, its far end too
    m_result = plan(m_request, *snap.catalog);
    m_searched = true;
    emit planned();
}

void PlanChart::draw(const EvaluationSnapshot& snap)
{
    if (!snap.catalog)
        return;
    // The search takes tens of milliseconds: while a slider is held the last result stays, and
    // the release (which leaves draft mode and draws again) searches once.
    if (!draftMode() || !m_searched)
        search(snap);
    const std::string& currency = snap.scenario.cost.currency;
    // Which cost: rented and owned are never drawn together.
    yAxis->setLabel((snap.scenario.cost.basis == CostBasis::Rent ? tr("Rented, per hour (%1)")
                                                                 : tr("Owned, per hour (%1)"))
                        .arg(QString::fromStdString(currency)));

    QVector<double> ox, oy, fx, fy;
    double lo = 1e300, hi = 0, costLo = 1e300, costHi = 0;
    for (const PlanEntry& p : m_result.ranked) {
        if (!p.cost.known || !(p.verdict.tokensPerSUser > 0))
            continue;
        (p.onFront ? fx : ox).append(p.verdict.tokensPerSUser);
        (p.onFront ? fy : oy).append(p.cost.perHour);
        lo = std::min(lo, p.verdict.tokensPerSUser);
        hi = std::max(hi, p.verdict.tokensPerSUser);
        costLo = std::min(costLo, p.cost.perHour);
        costHi = std::max(costHi, p.cost.perHour);
    }
    // The pinned scenarios are marked too (drawMarkers): the axes reach them.
    for (const PinnedEvaluation& p : *snap.pinned) {
        const Cost cost = costOf(p.scenario, p.evaluation, p.verdict.runs);
        if (!p.verdict.runs || !cost.known || !(p.verdict.tokensPerSUser > 0))
            continue;
        lo = std::min(lo, p.verdict.tokensPerSUser);
        hi = std::max(hi, p.verdict.tokensPerSUser);
        costLo = std::min(costLo, cost.perHour);
        costHi = std::max(costHi, cost.perHour);
    }
    m_others->setData(ox, oy);
    m_front->setData(fx, fy); // sorted by speed: the front's line runs left to right
    const bool any = hi > 0;
    m_empty->setVisible(!any);
    if (!any) {
        QString lacks;
        if (!m_result.closestMisses.empty())
            lacks = tr("Closest: %1").arg(planEntryName(m_result.closestMisses.front()));
        m_empty->setText(tr("Nothing in the catalog runs this and meets the targets.") +
                         (lacks.isEmpty() ? QString() : QStringLiteral("\n") + lacks));
        xAxis->setRange(1, 100);
        yAxis->setRange(0.1, 100);
    } else {
        // A factor of two around the points on both log axes keeps labels inside the plot.
        xAxis->setRange(lo / 2, hi * 2);
        yAxis->setRange(costLo / 2, costHi * 2.5);
    }
    placeFrontLabels();
}

void PlanChart::placeFrontLabels()
{
    std::vector<const PlanEntry*> front;
    for (const PlanEntry& p : m_result.ranked)
        if (p.onFront && p.cost.known && p.verdict.tokensPerSUser > 0)
            front.push_back(&p);
    while (m_labels.size() < qsizetype(front.size())) {
        auto* label = new QCPItemText(this);
        styleCallout(label, chartStyle().foreground, 0.85, false);
        auto* leader = new QCPItemLine(this);
        leader->setLayer(markerLayer()); // named by its label
        leader->setPen(seriesPen(chartStyle().subtle, Qt::SolidLine, 1));
        tieLabelToLeader(label, leader);
        m_labels.append(label);
        m_leaders.append(leader);
    }
    for (qsizetype i = 0; i < m_labels.size(); ++i) { // placed one by one, none meets a stale one
        m_labels[i]->setVisible(false);
        m_leaders[i]->setVisible(false);
    }
    std::vector<QRectF> taken; // every point, then each label placed
    for (const PlanEntry& p : m_result.ranked)
        if (p.cost.known && p.verdict.tokensPerSUser > 0)
            taken.emplace_back(pixelOf(p) - QPointF(6, 6), QSizeF(12, 12));
    std::vector<QPointF> frontPoints;
    for (const PlanEntry* p : front)
        frontPoints.push_back(pixelOf(*p));
    std::vector<QLineF> leaders;
    for (size_t i = 0; i < front.size(); ++i) // cheapest first, as the table ranks them
        placeFrontLabel(int(i), *front[i], frontPoints, &taken, &leaders);
}

QPointF PlanChart::pixelOf(const PlanEntry& p) const
{
    return {xAxis->coordToPixel(p.verdict.tokensPerSUser), yAxis->coordToPixel(p.cost.perHour)};
}

// Right of its point, else left, above, below or at a corner: the first place inside the plot
// that covers no point, label or the front's line and lies nearer its own point than any other
// of the front's (a label by a neighbour reads as the neighbour's). Else the nearest such place
// within two lines of it, with a leader from the point that crosses no other; the cheapest
// point (the plan's first row) wherever one is. A point left unnamed keeps its hover text and
// its table row: labels strung across a small plot on long leaders read as none.
void PlanChart::placeFrontLabel(int i, const PlanEntry& p, const std::vector<QPointF>& front,
                                std::vector<QRectF>* taken, std::vector<QLineF>* leaders)
{
    QCPItemText* label = m_labels[i];
    label->setText(tr("%1\n%2/h")
                       .arg(PlannerText::gpus(p.scenario),
                            PlannerText::money(p.cost.perHour, p.scenario.cost.currency)));
    const QSizeF size = labelSize(label);
    const QPointF at = pixelOf(p);
    anchorLabel(label, p.verdict.tokensPerSUser, p.cost.perHour);
    const QRectF plot = QRectF(axisRect()->rect()).adjusted(3, 3, -3, -3);
    auto clear = [&](const QRectF& box) {
        return plot.contains(box) && !curveCrosses(box, m_front) &&
               std::none_of(taken->begin(), taken->end(),
                            [&](const QRectF& t) { return t.intersects(box); }) &&
               std::none_of(leaders->begin(), leaders->end(),
                            [&](const QLineF& l) { return segmentMeetsBox(l, box); });
    };
    // Nearer its own point than any other of the front's, edge to point: a label whose edge
    // touches a neighbour reads as the neighbour's.
    auto toBox = [](const QRectF& box, const QPointF& p) {
        return QLineF(p, nearestPointOf(box, p)).length();
    };
    auto nearestIsOwn = [&](const QRectF& box) {
        const double own = toBox(box, at);
        return std::none_of(front.begin(), front.end(), [&](const QPointF& q) {
            return QLineF(q, at).length() > 0.5 && toBox(box, q) <= own + 2;
        });
    };
    const QPointF corners[] = {at + QPointF(9, -size.height() / 2),
                               at + QPointF(-9 - size.width(), -size.height() / 2),
                               at + QPointF(-size.width() / 2, -9 - size.height()),
                               at + QPointF(-size.width() / 2, 9),
                               at + QPointF(7, 7),
                               at + QPointF(-7 - size.width(), -7 - size.height()),
                               at + QPointF(7, -7 - size.height()),
                               at + QPointF(-7 - size.width(), 7)};
    std::optional<QRectF> box;
    for (const QPointF& corner : corners)
        if (!box && clear(QRectF(corner, size)) && nearestIsOwn(QRectF(corner, size)))
            box = QRectF(corner, size);
    if (!box)
        box = spotWithLeader(
            i, at,
            [&](const QRectF& spot) { return clear(spot) && (i == 0 || nearestIsOwn(spot)); },
            *taken, leaders);
    label->setVisible(bool(box));
    if (!box)
        return;
    taken->push_back(*box);
    label->position->setType(QCPItemPosition::ptAbsolute);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->position->setCoords(box->topLeft());
}

// Label `i`'s nearest spot that `fits` within two lines of its point at `at` (anywhere for the
// cheapest, which must be named), reached by a leader over no other point, label or leader;
// the leader drawn, or none when no spot fits.
std::optional<QRectF> PlanChart::spotWithLeader(int i, const QPointF& at,
                                                const std::function<bool(const QRectF&)>& fits,
                                                const std::vector<QRectF>& taken,
                                                std::vector<QLineF>* leaders)
{
    const QRectF plot(axisRect()->rect());
    const double reach =
        i == 0 ? plot.width() + plot.height() : 2 * labelSize(m_labels[i]).height();
    const std::optional<QRectF> box = nearestClearSpot(m_labels[i], at, [&](const QRectF& spot) {
        const QLineF leader(at, nearestPointOf(spot, at));
        return leader.length() <= reach && fits(spot) &&
               std::none_of(taken.begin(), taken.end(),
                            [&](const QRectF& t) {
                                return !t.contains(at) && segmentMeetsBox(leader, t);
                            }) &&
               std::none_of(leaders->begin(), leaders->end(), [&](const QLineF& l) {
                   return l.intersects(leader) == QLineF::BoundedIntersection;
               });
    });
    if (box) {
        drawLeader(m_leaders[i], at, *box, 5 * chartStyle().lineScale); // off its disc
        leaders->emplace_back(at, nearestPointOf(*box, at));
    }
    return box;
}

void PlanChart::drawMarkers(const EvaluationSnapshot& snap)
{
    const Cost cost = costOf(snap.scenario, snap.evaluation, snap.verdict.runs);
    const bool shown = snap.verdict.runs && cost.known && snap.verdict.tokensPerSUser > 0;
    m_current->setVisible(shown);
    m_current->setData({shown ? snap.verdict.tokensPerSUser : 1.0}, {shown ? cost.perHour : 1.0});
    // A legend entry only for a marker drawn (a scenario that does not run has none).
    shown ? (void)m_current->addToLegend() : (void)m_current->removeFromLegend();
    // The pinned scenarios where they stand against what the search found, in their colours.
    const PinnedList& pinned = *snap.pinned;
    while (m_pinnedMarks.size() < pinned.size()) {
        QCPGraph* mark = addGraph();
        mark->setLineStyle(QCPGraph::lsNone);
        mark->setLayer(markerLayer());
        mark->setPen(Qt::NoPen);
        m_pinnedMarks.push_back(mark);
    }
    for (size_t i = 0; i < m_pinnedMarks.size(); ++i) {
        QCPGraph* mark = m_pinnedMarks[i];
        const PinnedEvaluation* p = i < pinned.size() ? &pinned[i] : nullptr;
        const Cost pinnedCost = p ? costOf(p->scenario, p->evaluation, p->verdict.runs) : Cost{};
        const bool on = p && p->verdict.runs && pinnedCost.known && p->verdict.tokensPerSUser > 0;
        mark->setVisible(on);
        if (!on) {
            mark->removeFromLegend();
            continue;
        }
        mark->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond,
                                              QPen(colors::pinned[i % 4], 2), Qt::NoBrush, 14));
        mark->setData({p->verdict.tokensPerSUser}, {pinnedCost.perHour});
        mark->setName(pinnedName(i, p->name));
        mark->addToLegend();
    }
}

QString PlanChart::hoverText(double, double, const QPoint& pixel) const
{
    const PlanEntry* nearest = nullptr;
    double best = 12 * 12; // within 12 px
    for (const PlanEntry& p : m_result.ranked) {
        if (!p.cost.known || !(p.verdict.tokensPerSUser > 0))
            continue;
        const double dx = xAxis->coordToPixel(p.verdict.tokensPerSUser) - pixel.x();
        const double dy = yAxis->coordToPixel(p.cost.perHour) - pixel.y();
        if (dx * dx + dy * dy < best) {
            best = dx * dx + dy * dy;
            nearest = &p;
        }
    }
    if (!nearest)
        return QString();
    const PlanEntry& p = *nearest;
    const std::string& currency = p.scenario.cost.currency;
    return tr("%1\n%2 tokens/s per user, %3 tokens/s in all\n%4/h, %5 per million tokens")
        .arg(planEntryName(p), UiText::tokensPerSecond(p.verdict.tokensPerSUser),
             UiText::tokensPerSecond(p.tokensPerS), PlannerText::money(p.cost.perHour, currency),
             PlannerText::money(p.cost.perMillionTokens, currency));
}

QByteArray PlanChart::tableCsv() const
{
    return QByteArray::fromStdString(planToCsv(m_result));
}

} // namespace kvscope::ui
