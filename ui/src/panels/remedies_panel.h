// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The remedies beside the scenario: when it does not run or misses a target, what to change in
// the seed's order, each with its effect in numbers and an Apply button; Undo takes the last
// applied remedy back. Rows are reused from one evaluation to the next, so a drag stays cheap.

#include "kvscope/planning/cautions.h"
#include "kvscope/planning/remedies.h"
#include "window/scenario_controller.h"

#include <QWidget>

#include <vector>

class QBoxLayout;
class QLabel;
class QPushButton;
class QVBoxLayout;

namespace kvscope::ui {

class RemediesPanel : public QWidget
{
    Q_OBJECT
public:
    explicit RemediesPanel(ScenarioController* controller, QWidget* parent = nullptr);
    void show(const EvaluationSnapshot& snapshot);
    // While a slider is held the remedies wait (a drag replots every frame; the searches and
    // the rows' layout would double its cost); on release they catch up with the last snapshot.
    void setDeferred(bool deferred);
    void setByteUnits(ByteUnits units);
    const std::vector<Remedy>& remedies() const { return m_remedies; }
    // The verdict, which presentation mode lifts over the headline figures, and the layout it
    // comes back to.
    QLabel* verdictLabel() const { return m_verdictLabel; }
    QBoxLayout* boxLayout() const;
    // Applies remedy `index` as one change (what the Apply button does).
    void apply(size_t index);
    void undo();

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Row
    {
        QWidget* frame;
        QLabel* text;
        QPushButton* apply;
    };
    void retranslate();
    void refresh();
    Row& row(size_t index);

    ScenarioController* m_controller;
    QLabel* m_verdictLabel; // the verdict, when the scenario does not run or misses a target
    QLabel* m_cautionLabel; // a setting the engine lacks: the one caution with no tile of its own
    QLabel* m_heading;
    QPushButton* m_undo;
    QVBoxLayout* m_rows;
    std::vector<Row> m_pool;
    std::vector<Remedy> m_remedies;
    std::vector<Caution> m_cautions;
    std::vector<std::pair<Scenario, QString>> m_history; // scenarios before each applied remedy
    const EvaluationSnapshot* m_last = nullptr;
    Verdict m_verdict;
    ByteUnits m_units = ByteUnits::Binary;
    bool m_deferred = false;
    bool m_stale = false;
};

} // namespace kvscope::ui
