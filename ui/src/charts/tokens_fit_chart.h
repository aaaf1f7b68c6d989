// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_base.h"

#include <cstdint>

namespace kvscope::ui {

// The longest context per sequence that fits in the memory left, for MHA / GQA / MQA variants
// of the model's dimensions (and MLA where the model has it), with the current context marked.
class TokensFitChart : public ChartBase
{
    Q_OBJECT
public:
    explicit TokensFitChart(QWidget* parent = nullptr);

    QVector<double> barValues() const; // MHA, GQA, MQA[, MLA] tokens, for tests

protected:
    void draw(const EvaluationSnapshot& snapshot) override;
    QString hoverText(double key, double value, const QPoint& pixel) const override;
    void applyTexts() override;
    void appendBaseKey(const EvaluationSnapshot& snapshot, std::vector<double>& key) const override;
    void drawMarkers(const EvaluationSnapshot& snapshot) override;
    void applySeriesStyle() override;

private:
    static double axisTop(const EvaluationSnapshot& snapshot); // the y axis's upper end, tokens
    // Beside pinned scenarios: a group of bars per attention kind, one colour per scenario.
    void drawGroups(const EvaluationSnapshot& snapshot);
    QString withRatio(int i, double own) const;
    void showGroups(bool on);
    void showEmpty(); // no bars, values or context line: the scenario does not run
    void placeValueLabel(int kind, double contextLineY);
    QList<QRectF> takenByBars() const;
    void placeContextLabel(int64_t context);
    enum Kind { Mha, Gqa, Mqa, Mla, KindCount };
    QCPBars* m_bars[KindCount] = {};
    QCPItemText* m_labels[KindCount] = {};
    QCPItemStraightLine* m_contextLine = nullptr;
    QCPItemText* m_contextLabel = nullptr;
    double m_values[KindCount] = {};
    QString m_names[KindCount];
    QString m_valueTexts[KindCount]; // "302,724\n(8.0× this model's)": the value and its ratio
    QString m_shortTexts[KindCount]; // "302,724": inside a bar too narrow for the ratio
    int m_kinds = 3;
    bool m_empty = false; // showing why the scenario does not run instead of bars
    QCPBarsGroup* m_group = nullptr;
    std::vector<QCPBars*> m_groupBars;     // pinned scenarios first, the live one last
    double m_groupTallest[KindCount] = {}; // per kind, the tallest bar of the group (tokens)
    QStringList m_groupHover;              // per kind: every scenario's value, for the tooltip
};

} // namespace kvscope::ui
