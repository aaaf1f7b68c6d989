// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_base.h"

namespace kvscope::ui {

// Decode time per token against context length for each KV placement (log-log), the current
// point marked and the region slower than reading speed shaded.
class DecodeLatencyChart : public ChartBase
{
    Q_OBJECT
public:
    explicit DecodeLatencyChart(QWidget* parent = nullptr);

    QVector<double> curveValues(Tier tier) const; // ms, for tests
    QPointF currentPoint() const;                 // the marked (context, ms), for tests
    QRectF captionBox() const;                    // the "slower than reading" caption, in pixels

protected:
    void draw(const EvaluationSnapshot& snapshot) override;
    QString hoverText(double key, double value, const QPoint& pixel) const override;
    void applyTexts() override;
    void drawMarkers(const EvaluationSnapshot& snapshot) override;
    bool showCurves(const EvaluationSnapshot& snapshot); // false: no context runs
    void applySeriesStyle() override;
    void appendBaseKey(const EvaluationSnapshot& snapshot, std::vector<double>& key) const override;

private:
    QCPGraph* m_curves[5] = {};
    QCPGraph* m_current = nullptr;
    QCPItemRect* m_slowRegion = nullptr;
    QCPItemText* m_slowLabel = nullptr;
    QCPItemText* m_currentLabel = nullptr;
    QCPItemLine* m_currentLeader = nullptr; // to the label, when the curves push it away
};

} // namespace kvscope::ui
