// SPDX-License-Identifier: GPL-3.0-or-later
#include "validation/validation_plot.h"

#include "validation/validation_view.h"
#include "window/ui_text.h"

#include <QApplication>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace kvscope::ui {

namespace {

constexpr double kBand = 0.10;      // the shaded band: predictions within ±10 %
constexpr double kHoverPixels = 12; // how near the mouse must be to a point for its tooltip

// Log ticks people read: powers of ten over a wide range; 1-2-5 (or finer) steps when the range
// spans only a decade or two, so a narrow panel still gets several labelled ticks; every second
// or third power of ten where a short axis leaves its labels no room (seven decades in 75
// pixels wrote "1M 100K 10K" on one another).
class DenseLogTicker : public QCPAxisTicker
{
public:
    explicit DenseLogTicker(const QCPAxis* axis) : m_axis(axis) {}

protected:
    QVector<double> createTickVector(double, const QCPRange& range) override
    {
        const double decades = std::log10(range.upper / range.lower);
        const std::vector<double> steps = decades > 2.6   ? std::vector<double>{1}
                                          : decades > 1.2 ? std::vector<double>{1, 2, 5}
                                                          : std::vector<double>{1, 1.5, 2, 3, 5, 7};
        const QFontMetrics metrics(m_axis->tickLabelFont());
        const bool vertical = m_axis->orientation() == Qt::Vertical;
        const double length = vertical ? m_axis->axisRect()->height() : m_axis->axisRect()->width();
        const double room =
            1.3 * (vertical ? metrics.height() : metrics.horizontalAdvance(QStringLiteral("100K")));
        const int every = std::clamp(int(std::ceil(room / (length / decades))), 1, 4);
        QVector<double> ticks;
        for (int k = int(std::floor(std::log10(range.lower)));
             k <= int(std::ceil(std::log10(range.upper))); ++k)
            for (double step : steps) {
                if (k % every != 0)
                    continue;
                const double t = step * std::pow(10.0, k);
                if (t >= range.lower * 0.9999 && t <= range.upper * 1.0001)
                    ticks << t;
            }
        return ticks;
    }

    QVector<double> createSubTickVector(int, const QVector<double>& ticks) override
    {
        QVector<double> sub;
        if (ticks.isEmpty())
            return sub;
        const double lo = ticks.front() / 10, hi = ticks.back() * 10;
        for (int k = int(std::floor(std::log10(lo))); k <= int(std::ceil(std::log10(hi))); ++k)
            for (int m = 2; m <= 9; ++m) {
                const double t = m * std::pow(10.0, k);
                if (t > lo && t < hi && !ticks.contains(t))
                    sub << t;
            }
        return sub;
    }

    QString getTickLabel(double tick, const QLocale&, QChar, int) override
    {
        return UiText::logTick(tick);
    }

private:
    const QCPAxis* m_axis;
};

} // namespace

QColor validationKindColor(ValidationKind kind)
{
    switch (kind) {
    case ValidationKind::Capacity:
        return colors::kvCache;
    case ValidationKind::Decode:
        return colors::weights;
    case ValidationKind::Pcie: // host-to-GPU copies: the CPU RAM tier's colour
        return colors::cpuRam;
    case ValidationKind::Tpot: // serving under load: the activations' colour, as busy compute
        return colors::activations;
    case ValidationKind::Ttft:
        return colors::overflow;
    }
    return colors::weights;
}

ValidationPlot::ValidationPlot(ValidationKind kind, QWidget* parent)
    : QCustomPlot(parent), m_kind(kind)
{
    setMinimumSize(260, 220);
    setLocale(QLocale());
    setMouseTracking(true);

    m_title = new QCPTextElement(this, QString());
    m_summaryText = new QCPTextElement(this, QString());
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, m_title);
    plotLayout()->insertRow(1);
    plotLayout()->addElement(1, 0, m_summaryText);
    legend->setVisible(true);
    axisRect()->insetLayout()->take(legend);
    plotLayout()->addElement(3, 0, legend);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(2);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    plotLayout()->setRowStretchFactor(3, 0.001);
    plotLayout()->setRowSpacing(2);

    for (QCPAxis* axis : {xAxis, yAxis}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<DenseLogTicker>::create(axis));
    }
    m_bandUpper = addGraph();
    m_bandLower = addGraph();
    m_bandUpper->setChannelFillGraph(m_bandLower);
    m_diagonal = addGraph();
    // The band and the diagonal are the view's intro's words ("points on the dashed diagonal
    // agree; the shaded band is ±10 %"): the legend names only the sets of points, a row less
    // under every plot, which the laptop's second row of plots needed.
    for (QCPGraph* guide : {m_bandUpper, m_bandLower, m_diagonal})
        guide->removeFromLegend();
    for (QCPGraph*& points : m_points) {
        points = addGraph();
        points->setLineStyle(QCPGraph::lsNone);
    }
    setChartStyle(ChartStyle::fromPalette(QApplication::palette(), QApplication::font(), 1.0));
    retranslate();
}

ValidationPlot::Series ValidationPlot::seriesOf(const ValidationResult& r) const
{
    if (r.figure == MeasuredFigure::KvBufferMiB)
        return Buffer;
    return r.figure == MeasuredFigure::AvailableKvGiB ? Memory : Primary;
}

void ValidationPlot::setReport(const ValidationReport& report)
{
    m_results.clear();
    for (const ValidationResult& r : report.results)
        if (r.kind == m_kind)
            m_results.push_back(r);
    m_summary = report.summary(m_kind);
    rebuild();
}

void ValidationPlot::setChartStyle(const ChartStyle& style)
{
    m_style = style;
    applyStyle();
    replot(rpQueuedReplot);
}

void ValidationPlot::applyStyle()
{
    setBackground(m_style.background);
    axisRect()->setBackground(m_style.background);
    for (QCPAxis* axis : {xAxis, yAxis}) {
        axis->setBasePen(QPen(m_style.subtle));
        axis->setTickPen(QPen(m_style.subtle));
        axis->setSubTickPen(QPen(m_style.subtle));
        axis->setTickLabelColor(m_style.foreground);
        axis->setLabelColor(m_style.foreground);
        axis->setTickLabelFont(m_style.font);
        axis->setLabelFont(m_style.font);
        axis->grid()->setPen(QPen(m_style.grid, 1, Qt::SolidLine));
        axis->grid()->setSubGridVisible(true);
        axis->grid()->setSubGridPen(
            QPen(m_style.grid.lighter(m_style.isDark() ? 80 : 108), 1, Qt::DotLine));
    }
    QFont title = m_style.font;
    title.setPointSizeF(title.pointSizeF() * 1.15);
    title.setBold(true);
    m_title->setFont(title);
    m_title->setTextColor(m_style.foreground);
    m_summaryText->setFont(m_style.font);
    m_summaryText->setTextColor(m_style.foreground);
    legend->setFont(m_style.font);
    legend->setTextColor(m_style.foreground);
    legend->setIconSize(18, 10);

    m_bandUpper->setPen(Qt::NoPen);
    m_bandLower->setPen(Qt::NoPen);
    m_bandUpper->setBrush(m_style.tint(m_style.subtle, 0.22));
    m_diagonal->setPen(QPen(m_style.foreground, 1.5, Qt::DashLine));
    const QColor color = validationKindColor(m_kind);
    const QColor edge = m_style.isDark() ? color.lighter(130) : color.darker(130);
    m_points[Primary]->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, edge, color, 9));
    m_points[Memory]->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssTriangle, edge, color, 10));
    m_points[Buffer]->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, edge, color, 9));
    for (QCPGraph* points : m_points)
        points->setPen(QPen(color));
}

QString ValidationPlot::unitName(const std::string& unit) const
{
    if (unit == "tokens")
        return tr("tokens");
    if (unit == "tokens/s")
        return tr("tokens/s");
    return QString::fromStdString(unit); // MiB, GB/s read the same in every language
}

QString ValidationPlot::seriesName(Series series) const
{
    if (m_kind != ValidationKind::Capacity)
        return tr("Measurements");
    switch (series) {
    case Memory:
        return tr("vLLM KV cache memory (GiB)");
    case Buffer:
        return tr("llama.cpp KV buffer (MiB)");
    default:
        return tr("vLLM KV cache (tokens)");
    }
}

QString ValidationPlot::titleText() const
{
    return ValidationView::kindTitle(m_kind);
}

void ValidationPlot::retranslate()
{
    setLocale(QLocale());
    m_title->setText(titleText());
    QString unit;
    switch (m_kind) {
    case ValidationKind::Capacity:
        unit = tr("tokens, GiB or MiB");
        break;
    case ValidationKind::Decode:
        unit = tr("tokens/s");
        break;
    case ValidationKind::Pcie:
        unit = QStringLiteral("GB/s");
        break;
    case ValidationKind::Tpot:
    case ValidationKind::Ttft:
        unit = tr("ms");
        break;
    }
    xAxis->setLabel(tr("Measured (%1)").arg(unit));
    // Both axes share the unit, named once under the x axis: a plot in a laptop's grid is
    // shorter than "Predicted (tokens, GiB or MiB)", which ran into the texts above and below.
    yAxis->setLabel(tr("Predicted"));
    m_bandUpper->setName(tr("within ±10 %"));
    m_diagonal->setName(tr("predicted = measured"));
    rebuild();
}

QString ValidationPlot::summaryText() const
{
    if (m_summary.evaluated == 0)
        return tr("No case could be compared (%n skipped)", nullptr, m_summary.skipped);
    const QString median = UiText::number(m_summary.medianAbsError * 100, 1);
    const QString within5 = UiText::integer(std::lround(m_summary.within5 * m_summary.evaluated));
    const QString within10 = UiText::integer(std::lround(m_summary.within10 * m_summary.evaluated));
    const QString cases = UiText::integer(m_summary.evaluated);
    // Every case is counted somewhere: one predicted not to run is neither compared nor skipped.
    // A line of its own: beside the others it ran past a laptop grid's plot.
    const QString notRun =
        m_summary.doesNotFit > 0
            ? u'\n' + tr("Predicted not to run: %1").arg(UiText::integer(m_summary.doesNotFit))
            : QString();
    return tr("Median absolute error %1 %\nWithin 5 %: %2 of %3 · within 10 %: %4 of %3 · skipped "
              "%5")
               .arg(median, within5, cases, within10, UiText::integer(m_summary.skipped)) +
           notRun;
}

int ValidationPlot::textOverflow() const
{
    int overflow = 0;
    for (const QCPTextElement* element : {m_title, m_summaryText}) {
        const QFontMetrics metrics(element->font());
        for (const QString& line : element->text().split(u'\n'))
            overflow = std::max(overflow, metrics.horizontalAdvance(line) - width());
    }
    return overflow;
}

void ValidationPlot::rebuild()
{
    std::array<QVector<double>, SeriesCount> keys, values;
    double lo = 0, hi = 0;
    for (const ValidationResult& r : m_results) {
        if (r.skipped())
            continue;
        keys[seriesOf(r)] << r.measured;
        values[seriesOf(r)] << r.predicted;
        for (double v : {r.measured, r.predicted}) {
            if (v <= 0)
                continue;
            lo = lo > 0 ? std::min(lo, v) : v;
            hi = std::max(hi, v);
        }
    }
    if (lo <= 0) {
        lo = 1;
        hi = 10;
    }
    // The same range on both axes, so the diagonal runs corner to corner; a margin of half a
    // band width beyond the extreme points keeps every marker inside.
    const double from = std::pow(10.0, std::floor(std::log10(lo / 1.25) * 4) / 4);
    const double to = std::pow(10.0, std::ceil(std::log10(hi * 1.25) * 4) / 4);
    xAxis->setRange(from, to);
    yAxis->setRange(from, to);
    m_diagonal->setData({from, to}, {from, to});
    m_bandUpper->setData({from, to}, {from * (1 + kBand), to * (1 + kBand)});
    m_bandLower->setData({from, to}, {from * (1 - kBand), to * (1 - kBand)});
    for (int s = 0; s < SeriesCount; ++s) {
        m_points[s]->setData(keys[s], values[s]);
        m_points[s]->setName(seriesName(Series(s)));
        // An empty set still shows its primary series, so the legend never stands empty.
        const bool anyShown =
            std::any_of(keys.begin(), keys.end(), [](auto& k) { return !k.isEmpty(); });
        const bool shown = !keys[s].isEmpty() || (s == Primary && !anyShown);
        m_points[s]->setVisible(shown);
        if (shown)
            m_points[s]->addToLegend();
        else
            m_points[s]->removeFromLegend();
    }
    m_summaryText->setText(summaryText());
    replot(rpQueuedReplot);
}

int ValidationPlot::pointCount() const
{
    int n = 0;
    for (const QCPGraph* points : m_points)
        n += points->visible() ? points->dataCount() : 0;
    return n;
}

QPointF ValidationPlot::pixelOf(const QString& caseId) const
{
    for (const ValidationResult& r : m_results)
        if (!r.skipped() && QString::fromStdString(r.id) == caseId)
            return {xAxis->coordToPixel(r.measured), yAxis->coordToPixel(r.predicted)};
    return {-1, -1};
}

QString ValidationPlot::hoverText(const QPoint& pixel) const
{
    const ValidationResult* nearest = nullptr;
    double best = kHoverPixels;
    for (const ValidationResult& r : m_results) {
        if (r.skipped())
            continue;
        const double dx = xAxis->coordToPixel(r.measured) - pixel.x();
        const double dy = yAxis->coordToPixel(r.predicted) - pixel.y();
        const double d = std::hypot(dx, dy);
        if (d <= best) {
            best = d;
            nearest = &r;
        }
    }
    if (!nearest)
        return {};
    const int decimals = nearest->unit == "tokens" ? 0 : nearest->unit == "tokens/s" ? 1 : 2;
    const QString unit = unitName(nearest->unit);
    const QString sign = nearest->error >= 0 ? QStringLiteral("+") : QString();
    const QString gpu = QString::fromStdString(nearest->gpu);
    const QString where = nearest->model.empty()
                              ? gpu
                              : tr("%1 on %2").arg(QString::fromStdString(nearest->model), gpu);
    return tr("%1\n%2\nPredicted: %3 %4\nMeasured: %5 %4\nError: %6 %")
        .arg(QString::fromStdString(nearest->id), where,
             UiText::number(nearest->predicted, decimals), unit,
             UiText::number(nearest->measured, decimals),
             sign + UiText::number(nearest->error * 100, 1));
}

void ValidationPlot::mouseMoveEvent(QMouseEvent* event)
{
    QCustomPlot::mouseMoveEvent(event);
    const QString text = hoverText(event->position().toPoint());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

void ValidationPlot::leaveEvent(QEvent* event)
{
    QToolTip::hideText();
    QCustomPlot::leaveEvent(event);
}

void ValidationPlot::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    else if (event->type() == QEvent::PaletteChange)
        setChartStyle(ChartStyle::fromPalette(QApplication::palette(), QApplication::font(), 1.0));
    QCustomPlot::changeEvent(event);
}

} // namespace kvscope::ui
