// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_base.h"

namespace kvscope::ui {

// How each GPU's memory splits: stacked weights / KV / activations / overhead / free, the
// capacity and engine-budget lines, and an overflow drawn in red with its size.
class VramChart : public ChartBase
{
    Q_OBJECT
public:
    explicit VramChart(QWidget* parent = nullptr);

    // For tests: the stacked values (in bytes) of the first GPU's bar, bottom to top, and
    // whether an overflow is drawn.
    QVector<double> segmentBytes() const;
    bool showsOverflow() const;

protected:
    void draw(const EvaluationSnapshot& snapshot) override;
    QString hoverText(double key, double value, const QPoint& pixel) const override;
    void applyTexts() override;
    void applySeriesStyle() override;
    void appendBaseKey(const EvaluationSnapshot& snapshot, std::vector<double>& key) const override;

private:
    // Beside pinned scenarios: one bar per scenario (each for every GPU of its own, as tensor
    // parallel splits evenly), with its capacity marked over it and its overflow hatched.
    void drawComparison(const EvaluationSnapshot& snapshot);
    void setLimitLabels(const VramSplit& v);
    static bool budgetShown(const VramSplit& v);
    double barRangeEnd(const VramSplit& v) const;
    void drawLimits(const VramSplit& v, const QVector<double>& keys, double used, double unitBytes);
    void showOffloaded(const VramSplit& v); // experts and other weights in host RAM
    void fitValueAxis(const VramSplit& v, double used, const AxisUnit& unit);
    void showComparison(bool on);
    void placeSegmentValues(const double* bytes, double unitBytes); // the single bar's values
    // Where a segment's value goes: the middle of the longest stretch of the segment (in pixels,
    // top to bottom) that no limit line crosses.
    std::pair<double, double> clearStretch(double topPx, double bottomPx) const;
    enum Segment { Weights, Kv, Activations, Overhead, Free, Reserved, SegmentCount };
    QCPBars* m_segments[SegmentCount] = {};
    QCPItemText* m_values[SegmentCount] = {}; // each segment's size, on it
    QCPBars* m_overflow = nullptr;
    QCPItemStraightLine* m_capacityLine = nullptr;
    QCPItemStraightLine* m_budgetLine = nullptr;
    QCPItemText* m_capacityLabel = nullptr;
    QCPItemText* m_budgetLabel = nullptr;
    QCPItemText* m_overflowLabel = nullptr;
    QCPItemText* m_note = nullptr;
    QString m_noteText; // the note before line breaks, wrapped to each plot's width
    double m_unitBytes = 1;
    int m_bars = 1;
    std::vector<QCPBars*> m_pinnedOverflow;           // one per compared scenario
    std::vector<QCPItemLine*> m_pinnedCapacity;       // each scenario's capacity, over its bar
    std::vector<QCPItemText*> m_pinnedCapacityLabels; // its size, just above it
};

} // namespace kvscope::ui
