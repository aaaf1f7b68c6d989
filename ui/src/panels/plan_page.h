// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/planning/plan_search.h"
#include "kvscope/scenario/scenario.h"
#include "window/scenario_controller.h"

#include <QWidget>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QHBoxLayout;
class QLabel;
class QSpinBox;
class QTableWidget;

namespace kvscope::ui {
class ColumnsGiveWay;
}

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
    // The scenario's cost settings into the currency and amortization controls.
    void showScenario(const kvscope::Scenario& scenario);

signals:
    void loadRequested(const kvscope::Scenario& scenario);
    // Cost settings changed here, applied together (a currency with its rate): registry ids and
    // values as the CLI takes them, for ScenarioController::applySettings.
    void settingsChanged(const kvscope::ui::ScenarioController::SettingEdits& settings);

private:
    QGridLayout* buildSearchControls();
    QHBoxLayout* buildCostControls();
    QTableWidget* buildTable();
    void connectControls();
    static QString heldTo(const PlanRequest& request);
    static QString turnedAway(const PlanResult& result, const PlanRequest& request);
    void fillTable();
    static QString users(int64_t count);
    void applyCurrency();
    void loadRow(int row);

    PlanChart* m_chart;
    QLabel* m_objectiveLabel = nullptr;
    QComboBox* m_objective = nullptr;
    QLabel* m_gpusLabel = nullptr;
    QSpinBox* m_maxGpus = nullptr;
    QLabel* m_deploymentLabel = nullptr;
    QComboBox* m_deployment = nullptr;
    QLabel* m_requestRateLabel = nullptr;
    QDoubleSpinBox* m_requestRate = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_currencyLabel = nullptr;
    QComboBox* m_currency = nullptr;
    QLabel* m_rateLabel = nullptr;
    QDoubleSpinBox* m_rate = nullptr;
    QLabel* m_yearsLabel = nullptr;
    QDoubleSpinBox* m_years = nullptr;
    QLabel* m_basisLabel = nullptr;
    QComboBox* m_basis = nullptr; // the registry's cost_basis: rent, own
    QTableWidget* m_table = nullptr;
    ColumnsGiveWay* m_columns = nullptr;
};

} // namespace kvscope::ui
