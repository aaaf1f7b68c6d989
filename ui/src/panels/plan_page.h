// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/evaluation/scenario.h"

#include <QWidget>

#include <cstdint>

class QComboBox;
class QLabel;
class QSpinBox;
class QTableWidget;

namespace kvscope::ui {

class PlanChart;

// The Plan tab: what to buy for the scenario's model, context and users. The objective and the
// GPUs one node may hold on top, the cost-against-speed chart, and the ranked table beneath it
// (the closest misses, and what each lacks, when nothing qualifies). Double-clicking a row, or
// "Load as scenario", makes that configuration the scenario.
class PlanPage : public QWidget
{
    Q_OBJECT
public:
    PlanPage(PlanChart* chart, QWidget* parent = nullptr);

    QTableWidget* table() const { return m_table; }
    void retranslate();

signals:
    void loadRequested(const kvscope::Scenario& scenario);

private:
    void fillTable();
    static QString users(int64_t count);
    void loadRow(int row);

    PlanChart* m_chart;
    QLabel* m_objectiveLabel = nullptr;
    QComboBox* m_objective = nullptr;
    QLabel* m_gpusLabel = nullptr;
    QSpinBox* m_maxGpus = nullptr;
    QLabel* m_summary = nullptr;
    QTableWidget* m_table = nullptr;
};

} // namespace kvscope::ui
