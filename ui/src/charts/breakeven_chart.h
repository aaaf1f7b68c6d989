// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>

#include "charts/chart_base.h"

namespace kvscope::ui {

// Reloading a saved KV cache over each tier vs recomputing it by prefill, up to the first new
// token, against prompt length; where reload becomes faster is marked per tier.
class BreakevenChart : public ChartBase
{
    Q_OBJECT
public:
    explicit BreakevenChart(QWidget* parent = nullptr);

protected:
    void draw(const EvaluationSnapshot& snapshot) override;
    QString hoverText(double key, double value, const QPoint& pixel) const override;
    void applyTexts() override;
    void appendBaseKey(const EvaluationSnapshot& snapshot, std::vector<double>& key) const override;
    void applySeriesStyle() override;

private:
    void showCurves(bool on); // off: the scenario does not run, nothing is drawn
    double placeCrossLabels(const Breakeven& breakeven, double from, double to);
    double flagLeft(QCPItemText* label, const QString& text, double lineX,
                    const std::vector<double>& polesAbove) const;
    std::optional<double> flagBeside(QCPItemText* label, const QString& text, double x,
                                     double lineX, const std::vector<double>& polesAbove) const;
    QCPGraph* m_recompute = nullptr;
    QCPGraph* m_reload[3] = {};
    QCPItemLine* m_crossLines[3] = {}; // from the plot's bottom up to its own label
    QCPItemText* m_crossLabels[3] = {};
};

} // namespace kvscope::ui
