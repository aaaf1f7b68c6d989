// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/tokens_fit_chart.h"

#include "window/ui_text.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kvscope::ui {

namespace {

// A count in three significant digits: 1.71M, 480K.
QString compactCount(double value)
{
    const bool millions = value >= 1e6;
    const double scaled = value / (millions ? 1e6 : 1e3);
    const int decimals = scaled >= 100 ? 0 : scaled >= 10 ? 1 : 2;
    return UiText::number(scaled, decimals) + (millions ? QLatin1Char('M') : QLatin1Char('K'));
}

} // namespace

TokensFitChart::TokensFitChart(QWidget* parent) : ChartBase(parent)
{
    for (int i = 0; i < KindCount; ++i) {
        m_bars[i] = new QCPBars(xAxis, yAxis);
        m_bars[i]->setWidth(0.6);
        m_bars[i]->setBaseValue(1); // log axis: bars rise from one token
        m_labels[i] = new QCPItemText(this);
        m_labels[i]->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    }
    m_contextLine = new QCPItemStraightLine(this);
    m_contextLine->setLayer(markerLayer());
    m_contextLabel = new QCPItemText(this);
    m_contextLabel->setLayer(markerLayer());
    m_contextLabel->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    m_contextLabel->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    // The bars' values above the context line, which may cross them: a layer draws its items
    // in the order they joined it.
    for (QCPItemText* label : m_labels)
        label->setLayer(markerLayer());
    m_group = new QCPBarsGroup(this);
    m_group->setSpacingType(QCPBarsGroup::stAbsolute);
    m_group->setSpacing(2);
    legend->setVisible(false); // the axis names the bars (the scenarios, when comparing)
    setLogAxis(yAxis);
    applySeriesStyle();
    retranslate();
}

void TokensFitChart::applyTexts()
{
    yAxis->setLabel(tr("Tokens per sequence"));
}

void TokensFitChart::applySeriesStyle()
{
    const QColor fills[KindCount] = {colors::mha, colors::gqa, colors::mqa, colors::mla};
    for (int i = 0; i < KindCount; ++i) {
        m_bars[i]->setBrush(fills[i]);
        m_bars[i]->setPen(Qt::NoPen);
        styleCallout(m_labels[i], chartStyle().foreground);
    }
    m_contextLine->setPen(seriesPen(chartStyle().foreground, Qt::DashLine, 1.5));
    styleCallout(m_contextLabel, chartStyle().foreground, 1.0, false);
}

void TokensFitChart::showGroups(bool on)
{
    legend->setVisible(on);
    for (QCPBars* bars : m_groupBars)
        if (!on) {
            bars->setVisible(false);
            bars->removeFromLegend();
        }
    for (int i = 0; i < KindCount; ++i) {
        // The axis names them. (Kept in the hidden legend otherwise: an empty legend, even a
        // hidden one, squeezes the axis rect to a strip.)
        if (on)
            m_bars[i]->removeFromLegend();
        else
            m_bars[i]->addToLegend();
        if (on) {
            m_bars[i]->setVisible(false);
            m_labels[i]->setVisible(false);
        }
    }
}

void TokensFitChart::drawGroups(const EvaluationSnapshot& snap)
{
    const PinnedList& pinned = *snap.pinned;
    const size_t n = pinned.size() + 1;
    auto fitOf = [&](size_t i) -> const TokensFit& {
        return i < pinned.size() ? pinned[i].evaluation.tokensFit : snap.evaluation.tokensFit;
    };
    auto runsOf = [&](size_t i) {
        return i < pinned.size() ? pinned[i].verdict.runs : snap.verdict.runs;
    };
    auto mlaOf = [&](size_t i) {
        return (i < pinned.size() ? pinned[i].scenario : snap.scenario).model.isMla();
    };
    m_kinds = 3;
    for (size_t i = 0; i < n; ++i)
        m_kinds = mlaOf(i) ? 4 : m_kinds;
    while (m_groupBars.size() < n) {
        auto* bars = new QCPBars(xAxis, yAxis);
        bars->setBaseValue(1);
        bars->setPen(Qt::NoPen);
        bars->setBarsGroup(m_group);
        m_groupBars.push_back(bars);
    }
    const QString kindNames[KindCount] = {tr("MHA"), tr("GQA"), tr("MQA"), tr("MLA")};
    m_groupHover = QStringList(kindNames, kindNames + m_kinds);
    std::fill(std::begin(m_groupTallest), std::end(m_groupTallest), 0.0);
    double tallest = 1;
    for (size_t b = 0; b < m_groupBars.size(); ++b) {
        QCPBars* bars = m_groupBars[b];
        const bool shown = b < n;
        bars->setVisible(shown);
        if (!shown) {
            bars->removeFromLegend();
            continue;
        }
        const TokensFit& f = fitOf(b);
        const double values[KindCount] = {double(f.perSequenceMha), double(f.perSequenceGqa),
                                          double(f.perSequenceMqa),
                                          mlaOf(b) ? double(f.perSequence) : 0.0};
        QVector<double> keys, heights;
        const QString name = b < pinned.size() ? pinnedName(b, pinned[b].name) : tr("Live");
        for (int k = 0; k < m_kinds; ++k) {
            if (k == Mla && !mlaOf(b))
                continue; // no MLA variant of a model without one
            if (!runsOf(b)) {
                m_groupHover[k] += QStringLiteral("\n%1: %2").arg(name, tr("does not run"));
                continue; // a scenario that does not run has no tokens that fit
            }
            m_groupHover[k] +=
                QStringLiteral("\n%1: %2").arg(name, UiText::tokens(int64_t(values[k])));
            if (values[k] <= 0)
                continue; // nothing fits: no bar, not a stub at one token
            keys << k + 1;
            heights << values[k];
            tallest = std::max(tallest, values[k]);
            m_groupTallest[k] = std::max(m_groupTallest[k], values[k]);
        }
        bars->setData(keys, heights, true);
        bars->setWidth(0.8 / double(n));
        bars->setBrush(b < pinned.size() ? colors::pinned[b % 4]
                                         : chartStyle().ink(colors::recompute));
        bars->setName(name);
        bars->addToLegend();
    }
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int k = 0; k < m_kinds; ++k)
        ticker->addTick(k + 1, kindNames[k]);
    xAxis->setTicker(ticker);
    xAxis->setRange(0.4, m_kinds + 0.6);
    xAxis->grid()->setVisible(false);
    double top = std::max(axisTop(snap), std::pow(10.0, std::ceil(std::log10(tallest * 12))));
    yAxis->setRange(1, top);
}

// Bar `i`'s value with its ratio to this model's (`own` tokens), said in words under it: a bare
// "(×0.12)" left the reader to guess against what.
QString TokensFitChart::withRatio(int i, double own) const
{
    if (own < 1 || m_values[i] < 1)
        return m_shortTexts[i];
    const double ratio = m_values[i] / own;
    return tr("%1\n(%2× this model's)")
        .arg(m_shortTexts[i], UiText::number(ratio, ratio >= 10  ? 0
                                                    : ratio >= 1 ? 1
                                                                 : 2));
}

void TokensFitChart::draw(const EvaluationSnapshot& snap)
{
    showGroups(!snap.pinned->empty());
    // Alone, a scenario that does not run has no tokens that fit: the chart says why instead of
    // drawing bars of none. Beside pinned ones it only leaves its bars out (drawGroups). Where
    // only the KV cache is short, the bars are what fits, under the context line the scenario
    // asks for: the shortfall this chart exists to show (the headline's longest context).
    const bool kvShort = snap.verdict.binding == Binding::KvCache;
    const QString notRunning = snap.pinned->empty() && !kvShort ? notRunningNote(snap) : QString();
    setEmptyNote(notRunning);
    m_empty = !notRunning.isEmpty();
    if (m_empty)
        return showEmpty();
    if (!snap.pinned->empty())
        return drawGroups(snap);
    const Scenario& s = snap.scenario;
    const TokensFit& f = snap.evaluation.tokensFit;
    const AttentionKind own = s.model.attentionKind();
    m_kinds = s.model.isMla() ? 4 : 3;
    m_values[Mha] = double(f.perSequenceMha);
    m_values[Gqa] = double(f.perSequenceGqa);
    m_values[Mqa] = double(f.perSequenceMqa);
    m_values[Mla] = double(f.perSequence);
    m_names[Mha] = tr("MHA\n%1 KV heads").arg(UiText::integer(s.model.queryHeads));
    m_names[Gqa] = tr("GQA\n%1 KV heads").arg(UiText::integer(f.gqaKvHeads));
    m_names[Mqa] = tr("MQA\n1 KV head");
    m_names[Mla] =
        tr("MLA\nlatent %1").arg(UiText::integer(s.model.kvLoraRank + s.model.qkRopeHeadDim));
    const AttentionKind kinds[KindCount] = {AttentionKind::Mha, AttentionKind::Gqa,
                                            AttentionKind::Mqa, AttentionKind::Mla};

    // Each bar's name with its KV heads, while the widest line fits under its bar (large
    // presentation fonts, narrow charts); the kind alone where it does not.
    const QFontMetrics ticks(xAxis->tickLabelFont());
    const double perBar = double(axisRect()->width()) / (m_kinds + 0.2);
    int widest = 0;
    for (int i = 0; i < m_kinds; ++i)
        for (const QString& line : m_names[i].split(QLatin1Char('\n')))
            widest = std::max(widest, ticks.horizontalAdvance(line));
    const bool kindOnly = widest + 8 > perBar;
    // On a log axis a 32x difference looks like 1.5x: the other bars say their ratio to this
    // model's in words.
    double ownValue = 0;
    for (int i = 0; i < m_kinds; ++i)
        if (kinds[i] == own)
            ownValue = m_values[i];
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < KindCount; ++i) {
        const bool shown = i < m_kinds;
        const bool isOwn = kinds[i] == own;
        m_bars[i]->setVisible(shown);
        m_labels[i]->setVisible(shown);
        if (!shown)
            continue;
        const double value = std::max(m_values[i], 1.0);
        // Nothing fits: no bar at all rather than a stub at the axis' 1.
        if (m_values[i] >= 1)
            m_bars[i]->setData({double(i + 1)}, {value}, true);
        else
            m_bars[i]->data()->clear();
        m_bars[i]->setPen(isOwn ? seriesPen(chartStyle().foreground, Qt::SolidLine, 2.5)
                                : QPen(Qt::NoPen));
        // On a line of its own: QCustomPlot drops a tick label that would cross the widget's
        // edge, and the last bar's label reached it.
        const QString name = kindOnly ? m_names[i].section(QLatin1Char('\n'), 0, 0) : m_names[i];
        ticker->addTick(i + 1,
                        isOwn ? name + QLatin1Char('\n') + tr(" (this model)").trimmed() : name);
        m_labels[i]->position->setCoords(i + 1, value);
        const bool capped = f.contextUnbounded(int64_t(m_values[i]));
        m_shortTexts[i] = capped ? tr("unbounded") : UiText::integer(int64_t(m_values[i]));
        m_valueTexts[i] = !isOwn && !capped ? withRatio(i, ownValue) : m_shortTexts[i];
        m_labels[i]->setText(m_valueTexts[i]);
    }
    xAxis->setTicker(ticker);
    // Room right of the last bar for half its label ("(this model)" under a narrow bar), which
    // QCustomPlot would drop at the widget's edge.
    const QString last = ticker->ticks().last();
    double lastHalf = 0;
    for (const QString& line : last.split(QLatin1Char('\n')))
        lastHalf = std::max(lastHalf, ticks.horizontalAdvance(line) / 2.0);
    const double spare = perBar > 0 ? std::max(0.0, (lastHalf + 4) / perBar - 0.6) : 0.0;
    xAxis->setRange(0.4, m_kinds + 0.6 + spare);
    xAxis->grid()->setVisible(false);
    // A decade more while the tallest bar's value would not fit under the top.
    double tallest = 1, labelPx = 0;
    for (int i = 0; i < m_kinds; ++i) {
        tallest = std::max(tallest, m_values[i]);
        labelPx = std::max(labelPx, labelSize(m_labels[i]).height());
    }
    double top = axisTop(snap);
    while (top < logTopAbove(tallest, 1, labelPx + 3) && top < 1e12)
        top *= 10;
    yAxis->setRange(1, top);
}

void TokensFitChart::showEmpty()
{
    m_kinds = 0;
    for (int i = 0; i < KindCount; ++i) {
        m_bars[i]->data()->clear();
        m_bars[i]->setVisible(false);
        m_labels[i]->setVisible(false);
    }
    xAxis->setRange(0.4, 1.6);
    yAxis->setRange(1, 10);
}

double TokensFitChart::axisTop(const EvaluationSnapshot& snap)
{
    // A power of ten above the tallest bar and the context line, so the axis holds still while
    // the context is dragged and moves only when the line would leave it.
    const TokensFit& f = snap.evaluation.tokensFit;
    double tallest = double(std::max({f.perSequenceMha, f.perSequenceGqa, f.perSequenceMqa,
                                      snap.scenario.model.isMla() ? f.perSequence : 0}));
    tallest = std::max({tallest, double(snap.scenario.context), 10.0});
    return std::pow(10.0, std::ceil(std::log10(tallest * 12)));
}

void TokensFitChart::appendBaseKey(const EvaluationSnapshot& snap, std::vector<double>& key) const
{
    const TokensFit& f = snap.evaluation.tokensFit;
    key.insert(key.end(),
               {double(f.perSequenceMha), double(f.perSequenceGqa), double(f.perSequenceMqa),
                double(f.perSequence), double(f.room), axisTop(snap), double(snap.verdict.runs),
                double(axisRect()->height()),  // the values' headroom is in pixels
                double(axisRect()->width())}); // the empty note's line breaks
}

void TokensFitChart::drawMarkers(const EvaluationSnapshot& snap)
{
    m_contextLine->setVisible(!m_empty);
    m_contextLabel->setVisible(!m_empty);
    if (m_empty)
        return;
    const Scenario& s = snap.scenario;
    m_contextLine->point1->setCoords(0, double(s.context));
    m_contextLine->point2->setCoords(1, double(s.context));
    m_contextLabel->position->setTypeY(QCPItemPosition::ptPlotCoords);
    m_contextLabel->setText(tr("context %1").arg(UiText::integer(s.context)));
    const double lineY = yAxis->coordToPixel(double(s.context));
    for (int i = 0; i < m_kinds; ++i)
        placeValueLabel(i, lineY);
    placeContextLabel(s.context);
}

// A bar's value moves inside the top of its bar when the context line runs where the value
// would sit above it, leaving the line's label room; the bar must be tall enough to hold it.
// Inside, it starts under the line when the line crosses the bar's top: drawn at the top, the
// line ran through the digits (MLA's 22,017 under an 8,192-token context).
void TokensFitChart::placeValueLabel(int i, double lineY)
{
    QCPItemText* label = m_labels[i];
    const double height = labelSize(label).height();
    const double value = std::max(m_values[i], 1.0);
    const double topY = yAxis->coordToPixel(value);
    // Pixel y grows downwards: above the bar the label spans [topY - height, topY].
    const bool lineHitsAbove = lineY > topY - height - 2 && lineY < topY + 2;
    const double insideY = lineY + 2 > topY ? lineY + 3 : topY;
    const bool inside = lineHitsAbove && axisRect()->bottom() - insideY > height + 4;
    label->setPositionAlignment(Qt::AlignHCenter | (inside ? Qt::AlignTop : Qt::AlignBottom));
    label->position->setCoords(i + 1, inside ? yAxis->pixelToCoord(insideY) : value);
    // Inside, the label may not spill over its bar's edges, above it not into the next bar's
    // label: the ratio goes first.
    const double width = inside ? m_bars[i]->width() : 1.0;
    const double roomPx =
        std::fabs(xAxis->coordToPixel(i + 1 + width / 2) - xAxis->coordToPixel(i + 1 - width / 2)) -
        (inside ? 4 : 10);
    label->setText(m_valueTexts[i]);
    if (labelSize(label).width() > roomPx)
        label->setText(m_shortTexts[i]);
    if (labelSize(label).width() > roomPx && m_values[i] >= 1e4) // 1.71M, the tooltip
        label->setText(compactCount(m_values[i]));               // has every digit
    // Restyled only when it moves in or out: this runs on every step of a context drag.
    const bool boxed = label->brush().style() != Qt::NoBrush;
    if (inside && boxed) {
        label->setBrush(Qt::NoBrush);
        // On the bar's own colour, in the ink that reads on it: white vanished on the light
        // lavender of the MQA bar.
        const QColor fill = m_bars[i]->brush().color();
        label->setColor(contrastRatio(fill, Qt::white) >= contrastRatio(fill, Qt::black)
                            ? QColor(Qt::white)
                            : QColor(Qt::black));
    } else if (!inside && !boxed) {
        styleCallout(label, chartStyle().foreground);
    }
}

// What the context line's label keeps off: the bars' values, the bars themselves (a boxed
// label over a bar hid its top and colour) or, comparing, each group of bars.
QList<QRectF> TokensFitChart::takenByBars() const
{
    QList<QRectF> taken;
    for (int i = 0; i < m_kinds; ++i)
        if (m_labels[i]->visible())
            taken << labelBox(m_labels[i]);
    for (int i = 0; i < m_kinds; ++i) {
        if (!legend->visible()) {
            const double half = m_bars[i]->width() / 2;
            taken << QRectF(QPointF(xAxis->coordToPixel(i + 1 - half),
                                    yAxis->coordToPixel(std::max(m_values[i], 1.0))),
                            QPointF(xAxis->coordToPixel(i + 1 + half), axisRect()->bottom()));
        } else if (m_groupTallest[i] > 0) {
            taken << QRectF(
                QPointF(xAxis->coordToPixel(i + 0.6), yAxis->coordToPixel(m_groupTallest[i])),
                QPointF(xAxis->coordToPixel(i + 1.4), axisRect()->bottom()));
        }
    }
    return taken;
}

// Over the line at the right end, unless a bar or its value is there; then under it, at the
// left end, or between two bars; where every spot is taken, the one covering least. The full
// text where it finds a clear spot, else the short one ("128K") that may.
void TokensFitChart::placeContextLabel(int64_t context)
{
    const QList<QRectF> taken = takenByBars();
    const QRectF plot = axisRect()->rect();
    struct Spot
    {
        QCPItemPosition::PositionType type;
        double x;
        Qt::Alignment horizontal;
    };
    QList<Spot> spots{{QCPItemPosition::ptAxisRectRatio, 0.99, Qt::AlignRight},
                      {QCPItemPosition::ptAxisRectRatio, 0.01, Qt::AlignLeft}};
    for (int gap = 1; gap < m_kinds; ++gap)
        spots.append({QCPItemPosition::ptPlotCoords, gap + 0.5, Qt::AlignHCenter});
    auto place = [&](const Spot& spot, Qt::Alignment vertical) {
        m_contextLabel->position->setTypeX(spot.type);
        m_contextLabel->setPositionAlignment(spot.horizontal | vertical);
        m_contextLabel->position->setCoords(spot.x, double(context));
    };
    double leastCovered = std::numeric_limits<double>::infinity();
    std::pair<Spot, Qt::Alignment> best{spots.front(), Qt::AlignBottom};
    const QString texts[] = {m_contextLabel->text(), UiText::contextShort(double(context))};
    QString bestText = texts[0];
    for (const QString& text : texts) {
        if (leastCovered == 0)
            break;
        m_contextLabel->setText(text);
        for (const Spot& spot : spots)
            for (Qt::Alignment vertical : {Qt::AlignBottom, Qt::AlignTop}) {
                place(spot, vertical);
                const QRectF box = labelBox(m_contextLabel);
                double covered = plot.contains(box) ? 0.0 : 1e6; // a spot outside the plot is last
                for (const QRectF& t : taken) {
                    const QRectF both = t.intersected(box);
                    covered += both.width() * both.height();
                }
                if (covered < leastCovered)
                    leastCovered = covered, best = {spot, vertical}, bestText = text;
            }
    }
    m_contextLabel->setText(bestText);
    place(best.first, best.second);
}

QString TokensFitChart::hoverText(double key, double, const QPoint&) const
{
    const int index = int(std::lround(key)) - 1;
    if (index < 0 || index >= m_kinds || std::fabs(key - (index + 1)) > 0.4)
        return {};
    if (legend->visible()) // comparing: every scenario's value for that kind
        return m_groupHover.value(index);
    return QStringLiteral("%1\n%2").arg(
        QString(m_names[index]).replace(QLatin1Char('\n'), QLatin1Char(' ')),
        UiText::tokens(int64_t(m_values[index])));
}

QVector<double> TokensFitChart::barValues() const
{
    QVector<double> out;
    for (int i = 0; i < m_kinds; ++i)
        out << m_values[i];
    return out;
}

} // namespace kvscope::ui
