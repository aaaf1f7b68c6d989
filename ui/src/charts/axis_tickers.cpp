// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/axis_tickers.h"

#include "window/ui_text.h"

#include <QFontMetrics>
#include <QPointer>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace kvscope::ui {

namespace {

constexpr double kEps = 1e-9;

// How many labels an axis has room for: a labelled tick needs about one and a half text lines.
int labelRoom(const QCPAxis* axis)
{
    if (!axis || !axis->axisRect())
        return 8;
    const QRect r = axis->axisRect()->rect();
    const int room = axis->orientation() == Qt::Vertical ? r.height() : r.width();
    const int line = QFontMetrics(axis->tickLabelFont()).height();
    return std::max(2, room * 2 / std::max(1, 3 * line));
}

// Under 1.6 decades a log axis steps 1, 2, 5 instead of whole decades.
bool isNarrow(const QCPRange& range)
{
    return range.lower > 0 && range.upper / range.lower < std::pow(10.0, 1.6);
}

// Counts: powers of ten labelled 1, 10, 100, 1K, 10K, 1M, with log sub-ticks.
class CountLogTicker : public QCPAxisTickerLog
{
public:
    explicit CountLogTicker(QCPAxis* axis) : m_axis(axis) {}

protected:
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override
    {
        setTickCount(labelRoom(m_axis));
        if (isNarrow(range)) {
            QVector<double> ticks;
            for (double decade = std::pow(10.0, std::floor(std::log10(range.lower)));
                 decade <= range.upper; decade *= 10)
                for (double step : {1.0, 2.0, 5.0})
                    if (range.contains(decade * step))
                        ticks << decade * step;
            return ticks;
        }
        return QCPAxisTickerLog::createTickVector(tickStep, range);
    }

    QString getTickLabel(double tick, const QLocale&, QChar, int) override
    {
        return UiText::logTick(tick);
    }

private:
    QPointer<QCPAxis> m_axis;
};

struct TickUnit
{
    double size; // in axis units
    QString name;
};

// A quantity with named units of growing size (ms, s, min, h; KiB, MiB, GiB): ticks at
// 1, 10, 100 of each unit below the next one, so every label is a round number of one unit.
// Ticks the axis has no room to label become sub-ticks.
class UnitLogTicker : public QCPAxisTicker
{
public:
    UnitLogTicker(QCPAxis* axis, std::vector<TickUnit> units)
        : m_axis(axis), m_units(std::move(units))
    {
        setTickCount(8);
    }

protected:
    QVector<double> createTickVector(double, const QCPRange& range) override
    {
        const std::vector<double> ladder = ladderIn(range);
        const size_t room = size_t(labelRoom(m_axis));
        const size_t every = ladder.size() <= room ? 1 : (ladder.size() + room - 1) / room;
        QVector<double> ticks;
        m_skipped.clear();
        for (size_t i = 0; i < ladder.size(); ++i)
            (i % every == 0 ? ticks : m_skipped) << ladder[i];
        return ticks;
    }

    QVector<double> createSubTickVector(int, const QVector<double>&) override { return m_skipped; }

    QString getTickLabel(double tick, const QLocale&, QChar, int) override
    {
        size_t unit = 0;
        while (unit + 1 < m_units.size() && m_units[unit + 1].size <= tick * (1 + kEps))
            ++unit;
        // Round to three significant figures: 0.9999999 min is 1 min.
        double value = tick / m_units[unit].size;
        const double scale = std::pow(10.0, 2 - std::floor(std::log10(value)));
        value = std::round(value * scale) / scale;
        return UiText::compact(value, 3) + QLatin1Char(' ') + m_units[unit].name;
    }

private:
    std::vector<double> ladderIn(const QCPRange& range) const
    {
        std::vector<double> ticks;
        if (!(range.lower > 0) || !(range.upper > range.lower) || m_units.empty())
            return ticks;
        const std::vector<double> steps =
            isNarrow(range) ? std::vector<double>{1, 2, 5} : std::vector<double>{1};
        for (size_t u = 0; u < m_units.size(); ++u) {
            const double size = m_units[u].size;
            const double next = u + 1 < m_units.size() ? m_units[u + 1].size
                                                       : std::numeric_limits<double>::infinity();
            // The smallest unit also counts below one of itself (0.1 ms, 0.01 ms).
            double decade = u == 0 ? std::pow(10.0, std::floor(std::log10(range.lower / size))) : 1;
            for (; decade * size <= range.upper * (1 + kEps) && decade * size < next; decade *= 10)
                for (double step : steps) {
                    const double t = step * decade * size;
                    // Not within a step of the next unit's 1 (no "1,000 KiB" beside "1 MiB").
                    if (t <= next / 1.5 && t >= range.lower * (1 - kEps) &&
                        t <= range.upper * (1 + kEps))
                        ticks.push_back(t);
                }
        }
        return ticks;
    }

    QPointer<QCPAxis> m_axis;
    std::vector<TickUnit> m_units;
    QVector<double> m_skipped;
};

void setLog(QCPAxis* axis, QSharedPointer<QCPAxisTicker> ticker)
{
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(ticker);
}

} // namespace

void setCountLogAxis(QCPAxis* axis)
{
    auto ticker = QSharedPointer<CountLogTicker>::create(axis);
    ticker->setLogBase(10);
    ticker->setSubTickCount(8);
    setLog(axis, ticker);
}

void setTimeLogAxis(QCPAxis* axis)
{
    // The same unit names formatDuration prints in the figures and the arithmetic.
    setLog(axis, QSharedPointer<UnitLogTicker>::create(
                     axis, std::vector<TickUnit>{{1, QStringLiteral("ms")},
                                                 {1e3, QStringLiteral("s")},
                                                 {6e4, QStringLiteral("min")},
                                                 {3.6e6, QStringLiteral("h")}}));
}

void setBytesLogAxis(QCPAxis* axis, double axisUnitBytes, ByteUnits units)
{
    std::vector<TickUnit> ladder;
    const double step = units == ByteUnits::Binary ? 1024.0 : 1000.0;
    double bytes = 1;
    for (int i = 0; i < 6; ++i, bytes *= step)
        ladder.push_back(
            {bytes / axisUnitBytes, QString::fromLatin1(byteUnitFor(bytes, units).symbol)});
    setLog(axis, QSharedPointer<UnitLogTicker>::create(axis, std::move(ladder)));
}

} // namespace kvscope::ui
