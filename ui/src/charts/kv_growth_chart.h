// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_base.h"

namespace kvscope::ui {

// KV cache size against context length for each attention kind, with the memory free for KV
// and the context at which each curve crosses it.
class KvGrowthChart : public ChartBase
{
    Q_OBJECT
public:
    explicit KvGrowthChart(QWidget* parent = nullptr);

    int curveCount() const;
    QVector<double> curveValues(int curve) const; // bytes, for tests

protected:
    void draw(const EvaluationSnapshot& snapshot) override;
    QString hoverText(double key, double value, const QPoint& pixel) const override;
    void applyTexts() override;
    void appendBaseKey(const EvaluationSnapshot& snapshot, std::vector<double>& key) const override;
    void drawMarkers(const EvaluationSnapshot& snapshot) override;
    void applySeriesStyle() override;

private:
    enum Curve { Mha, Gqa, Mqa, Mla, CurveCount };
    void placeCrossingLabels();
    bool covers(const QRectF& box, const QCPGraph* curve) const;
    void drawPinned(const EvaluationSnapshot& snap, double unitBytes, double* lowestBytes);
    QCPGraph* m_curves[CurveCount] = {};
    QCPGraph* m_crossings = nullptr;
    QCPItemStraightLine* m_freeLine = nullptr;
    QCPItemText* m_freeLabel = nullptr;
    QCPItemStraightLine* m_contextLine = nullptr;
    QCPItemText* m_crossLabels[CurveCount] = {};
    double m_crossKey[CurveCount] = {};       // where each curve crosses the free line
    bool m_crossLabelWanted[CurveCount] = {}; // a crossing in range, to label if there is room
    std::vector<QCPItemStraightLine*> m_pinnedFree; // each pinned scenario's memory for KV
    double m_unitBytes = 1;
};

} // namespace kvscope::ui
