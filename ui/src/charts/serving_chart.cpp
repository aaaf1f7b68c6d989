// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/serving_chart.h"

#include "kvscope/scenario/speed_class.h"

#include "export/layout_file.h"
#include "panels/planner_text.h"

#include "window/ui_text.h"

#include <algorithm>
#include <cmath>

namespace kvscope::ui {

namespace {

// One colour per engine, the same in every chart that names engines.
QColor engineColor(const std::string& id, size_t index)
{
    if (id == "hf")
        return colors::engines[0];
    if (id == "hf-static")
        return colors::engines[1];
    if (id == "vllm")
        return colors::engines[2];
    if (id == "llamacpp")
        return colors::engines[3];
    if (id == "tgi")
        return colors::engines[4];
    if (id == "sglang")
        return colors::engines[5];
    return colors::pinned[index % 4];
}

QString curveName(const ServingCurve& c)
{
    return QString::fromStdString(c.engineShortName.empty() ? c.engineName : c.engineShortName);
}

} // namespace

ServingChart::ServingChart(QWidget* parent) : ChartBase(parent)
{
    m_bandHigh = addGraph();
    m_bandLow = addGraph();
    m_bandHigh->setChannelFillGraph(m_bandLow);
    m_bandLow->removeFromLegend();
    m_allKey = addGraph();
    m_eachKey = addGraph();
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
    tieLabel(m_currentLabel, m_current); // beside the points it names, never over them
    m_note = new QCPItemText(this);
    m_note->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_note->position->setCoords(0.5, 0.5);
    m_note->setPositionAlignment(Qt::AlignCenter);
    m_note->setTextAlignment(Qt::AlignCenter);
    m_note->setVisible(false);
    setLogAxis(xAxis);
    setLogAxis(yAxis);
    applySeriesStyle();
    retranslate();
}

// The workload every point is for, beside figures of the scenario's full context (the
// headline's decode speed) that can differ from them.
void ServingChart::labelUsersAxis()
{
    const EvaluationSnapshot* snap = lastSnapshot();
    if (!snap) {
        xAxis->setLabel(tr("Concurrent users"));
        return;
    }
    const Workload& w = snap->scenario.workload;
    xAxis->setLabel(tr("Concurrent users, requests of %1 + %2 tokens")
                        .arg(UiText::integer(w.promptTokens), UiText::integer(w.outputTokens)));
}

void ServingChart::applyTexts()
{
    labelUsersAxis();
    yAxis->setLabel(tr("Output tokens/s"));
    m_allKey->setName(tr("all users together"));
    m_bandHigh->setName(tr("measured %1").arg(UiText::bandRange(m_band)));
    m_eachKey->setName(tr("each user"));
}

void ServingChart::applySeriesStyle()
{
    for (size_t i = 0; i < m_aggregate.size() && i < m_serving.curves.size(); ++i) {
        const ServingCurve& c = m_serving.curves[i];
        const QColor color = chartStyle().ink(engineColor(c.engineId, i));
        const double width = c.selected ? 3.0 : 1.8;
        m_aggregate[i]->setPen(seriesPen(color, Qt::SolidLine, width));
        m_perUser[i]->setPen(seriesPen(color, Qt::DashLine, width));
    }
    const QColor own = m_serving.curves.empty()
                           ? chartStyle().subtle
                           : chartStyle().ink(engineColor(m_serving.curves.front().engineId, 0));
    for (QCPGraph* edge : {m_bandHigh, m_bandLow})
        edge->setPen(Qt::NoPen);
    m_bandHigh->setBrush(chartStyle().tint(own, 0.18));
    m_allKey->setPen(seriesPen(chartStyle().foreground, Qt::SolidLine, 1.8));
    m_eachKey->setPen(seriesPen(chartStyle().foreground, Qt::DashLine, 1.8));
    m_current->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, chartStyle().foreground,
                                               10 * chartStyle().lineScale));
    styleCallout(m_currentLabel, chartStyle().foreground);
    m_currentLeader->setPen(seriesPen(chartStyle().foreground, Qt::SolidLine, 1));
    m_note->setColor(chartStyle().foreground);
    m_note->setFont(scaledFont(1.0));
}

QCPGraph* ServingChart::graphFor(size_t index, bool perUser)
{
    std::vector<QCPGraph*>& graphs = perUser ? m_perUser : m_aggregate;
    while (graphs.size() <= index) {
        QCPGraph* g = addGraph();
        if (perUser)
            g->removeFromLegend();
        graphs.push_back(g);
    }
    return graphs[index];
}

void ServingChart::appendBaseKey(const EvaluationSnapshot& snapshot, std::vector<double>& key) const
{
    key.push_back(double(snapshot.scenario.context)); // the longest request: every curve
    key.push_back(double(axisRect()->width()));       // the note's line breaks
}

void ServingChart::draw(const EvaluationSnapshot& snap)
{
    m_serving = snap.catalog ? kvscope::serving(snap.scenario, snap.catalog->engines)
                             : Serving{std::nullopt, {servingCurve(snap.scenario)}};
    labelUsersAxis();
    if (!m_serving.curves.empty())
        m_serving.curves.front().selected = true;
    for (QCPGraph* g : m_aggregate)
        g->data()->clear(), g->setVisible(false), g->removeFromLegend();
    for (QCPGraph* g : m_perUser)
        g->data()->clear(), g->setVisible(false);
    double low = 1e300, high = 0, right = 2;
    // When the scenario's own engine cannot run it, nothing is drawn: the scenario does not run.
    const ServingCurve* own = m_serving.curves.empty() ? nullptr : &m_serving.curves.front();
    const bool ownRuns = own && own->unavailable.empty();
    for (size_t i = 0; ownRuns && i < m_serving.curves.size(); ++i) {
        const ServingCurve& c = m_serving.curves[i];
        if (!c.unavailable.empty() || c.points.empty())
            continue;
        QVector<double> xs, all, each;
        for (const ServingPoint& p : c.points) {
            if (p.aggregateTokensPerS <= 0)
                continue;
            xs << double(p.users);
            all << p.aggregateTokensPerS;
            each << p.perUserTokensPerS;
            low = std::min(low, p.perUserTokensPerS);
            high = std::max(high, p.aggregateTokensPerS);
            right = std::max(right, double(p.users));
        }
        QCPGraph* a = graphFor(i, false);
        QCPGraph* u = graphFor(i, true);
        a->setData(xs, all, true);
        u->setData(xs, each, true);
        a->setVisible(true);
        u->setVisible(true);
        a->setName(curveName(c));
        a->addToLegend();
    }
    if (ownRuns)
        drawBand(snap.scenario, *own);
    else
        m_bandHigh->setVisible(false), m_bandLow->setVisible(false), m_bandHigh->removeFromLegend();
    for (QCPGraph* edge : {m_bandHigh, m_bandLow})
        if (edge->visible())
            for (auto it = edge->data()->constBegin(); it != edge->data()->constEnd(); ++it)
                high = std::max(high, it->value);
    applySeriesStyle();
    applyTexts();
    const bool any = high > 0;
    showNote(snap, any);
    if (!any) {
        low = 1;
        high = 10;
        right = 8;
    }
    // At least a decade, so a log axis labels 1 and 10 rather than crowding in-between ticks.
    xAxis->setRange(0.8, std::max(right, 10.0) * 1.25);
    // Room above the highest curve for the marker's label.
    yAxis->setRange(low / 2, high * 6);
}

// A measured time per token of x (1 + b) serves users / (step x (1 + b)) tokens/s: the band's
// low edge is the curve over (1 + high), its high edge over (1 + low). No usable band, none.
void ServingChart::drawBand(const Scenario& scenario, const ServingCurve& own)
{
    m_band = speedBandOf(scenario, SpeedFigure::Tpot);
    const bool usable = m_band.usable() && own.unavailable.empty();
    m_bandHigh->setVisible(usable);
    m_bandLow->setVisible(usable);
    if (!usable) {
        m_bandHigh->removeFromLegend();
        return;
    }
    QVector<double> xs, upper, lower;
    for (const ServingPoint& p : own.points) {
        if (p.aggregateTokensPerS <= 0)
            continue;
        xs << double(p.users);
        upper << p.aggregateTokensPerS / (1.0 + m_band.low);
        lower << p.aggregateTokensPerS / (1.0 + m_band.high);
    }
    m_bandHigh->setData(xs, upper, true);
    m_bandLow->setData(xs, lower, true);
    m_bandHigh->addToLegend();
}

// With no curve to draw, the plot is the note alone, across the whole chart: no empty axes,
// grid or legend around it.
void ServingChart::showNote(const EvaluationSnapshot& snap, bool curvesDrawn)
{
    for (QCPAxis* axis : {xAxis, yAxis}) {
        axis->setVisible(curvesDrawn);
        axis->grid()->setVisible(curvesDrawn);
    }
    m_note->setVisible(!curvesDrawn);
    for (QCPGraph* key : {m_allKey, m_eachKey})
        curvesDrawn ? (void)key->addToLegend() : (void)key->removeFromLegend();
    if (curvesDrawn)
        return;
    const ServingCurve* own = m_serving.curves.empty() ? nullptr : &m_serving.curves.front();
    if (m_serving.refused) {
        const Workload& w = snap.scenario.workload;
        m_note->setText(tr("A request of %1 + %2 tokens\nis longer than the maximum length (%3).\n"
                           "Engines refuse it:\nshorten the request or raise the context length.")
                            .arg(UiText::integer(w.promptTokens), UiText::integer(w.outputTokens),
                                 UiText::integer(snap.scenario.context)));
    } else if (own && !own->unavailable.empty() && !snap.verdict.runs) {
        // Why, as the verdict says it: the weights alone, the host RAM or the KV cache ("one
        // request of the maximum length does not fit" was shown where the weights alone did not).
        m_note->setText(tr("%1\ncannot serve this scenario.\n%2")
                            .arg(curveName(*own), PlannerText::verdict(snap.scenario, snap.verdict,
                                                                       ByteUnits::Binary)));
    } else if (own && !own->unavailable.empty()) {
        m_note->setText(tr("%1\ncannot serve this scenario:\none request of the maximum length "
                           "does not fit.")
                            .arg(curveName(*own)));
    } else {
        m_note->setText(tr("No engine can serve this scenario."));
    }
    m_note->setText(wrapToWidth(m_note->text(), m_note->font(), axisRect()->width() - 16));
}

void ServingChart::drawMarkers(const EvaluationSnapshot& snap)
{
    const ServingCurve* own = m_serving.curves.empty() ? nullptr : &m_serving.curves.front();
    const bool shown = own && own->unavailable.empty() && !m_serving.refused &&
                       own->atUsers.aggregateTokensPerS > 0;
    m_currentLabel->setVisible(shown);
    m_currentLeader->setVisible(false);
    if (!shown) {
        m_current->data()->clear();
        return;
    }
    const ServingPoint& p = own->atUsers;
    m_current->setData({double(p.users), double(p.users)},
                       {p.aggregateTokensPerS, p.perUserTokensPerS}, true);
    QString text =
        p.users == 1
            ? tr("1 user: %1 tokens/s").arg(UiText::tokensPerSecond(p.aggregateTokensPerS))
            : tr("%1 users: %2 tokens/s, %3 each")
                  .arg(UiText::integer(p.users), UiText::tokensPerSecond(p.aggregateTokensPerS),
                       UiText::tokensPerSecond(p.perUserTokensPerS));
    if (p.running < p.users)
        text +=
            QLatin1Char('\n') + tr("%1 run at once, the rest wait").arg(UiText::integer(p.running));
    if (p.preemptionMs > 0)
        text += QLatin1Char('\n') + (own->preemption == "swap"
                                         ? tr("preempted requests swapped over PCIe: +%1 a token")
                                         : tr("preempted requests recomputed: +%1 a token"))
                                        .arg(UiText::duration(p.preemptionMs));
    if (own->refusesUsers && own->swapSpaceShort)
        text = tr("%1 aborts past %2 requests: the swap space holds no preempted request")
                   .arg(curveName(*own), UiText::integer(own->maxRunning));
    else if (own->refusesUsers)
        text = tr("%1 refuses more than %2 concurrent requests")
                   .arg(curveName(*own), UiText::integer(own->maxRequests));
    // In smaller type where the curves leave the label no clear spot at full size.
    for (const double scale : {1.0, 0.8}) {
        m_currentLabel->setFont(scaledFont(scale, true));
        m_currentLabel->setText(
            wrapToWidth(text, m_currentLabel->font(), 0.6 * axisRect()->width()));
        placeBesidePoint(m_currentLabel, double(p.users), p.aggregateTokensPerS, 1.5,
                         m_currentLeader);
        if (clearSpot(labelBox(m_currentLabel), m_currentLabel))
            break;
    }
    (void)snap;
}

QString ServingChart::hoverText(double key, double, const QPoint&) const
{
    QStringList lines;
    for (const ServingCurve& c : m_serving.curves) {
        if (!c.unavailable.empty()) {
            lines << tr("%1: cannot serve this scenario").arg(curveName(c));
            continue;
        }
        if (c.points.empty())
            continue;
        const auto nearest =
            std::min_element(c.points.begin(), c.points.end(), [&](auto& a, auto& b) {
                return std::fabs(std::log(double(a.users) / key)) <
                       std::fabs(std::log(double(b.users) / key));
            });
        lines << tr("%1, %2 users: %3 tokens/s, %4 each, %5 per token, first token %6 "
                    "(all prompts at once: the last %7); holds %8 at once")
                     .arg(curveName(c), UiText::integer(nearest->users),
                          UiText::tokensPerSecond(nearest->aggregateTokensPerS),
                          UiText::tokensPerSecond(nearest->perUserTokensPerS),
                          UiText::duration(nearest->stepMs), UiText::duration(nearest->ttftMs),
                          UiText::duration(nearest->togetherTtftLastMs),
                          UiText::integer(c.maxRunning));
    }
    return lines.join(QLatin1Char('\n'));
}

QString ServingChart::noteText() const
{
    return m_note->visible() ? m_note->text() : QString();
}

} // namespace kvscope::ui
