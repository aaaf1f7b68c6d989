// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "window/scenario_controller.h"

#include <QObject>
#include <QUndoStack>

#include <string>

namespace kvscope::ui {

// Undo and redo for every change to the scenario. A step is recorded when the changed scenario
// has evaluated (a refused edit never becomes a step); everything between pressing a slider and
// releasing it is one step, and so is anything set at once (a remedy, a file opened).
class ScenarioHistory : public QObject
{
    Q_OBJECT
public:
    explicit ScenarioHistory(ScenarioController* controller, QObject* parent = nullptr);

    QUndoStack* stack() { return &m_stack; }
    // Changes between these two merge into one step (a slider held down).
    void beginDrag();
    void endDrag();
    // Goes to `scenario` without recording a step (what undo and redo do).
    void restore(const Scenario& scenario);

private:
    void record(const EvaluationSnapshot& snapshot);

    ScenarioController* m_controller;
    QUndoStack m_stack;
    Scenario m_current;        // the scenario the stack's top step leads to
    std::string m_currentText; // its file text, to tell a real change from a re-evaluation
    bool m_started = false;    // m_current holds the first evaluated scenario
    int m_dragSession = 0;     // increases with each drag; 0 = no drag
    bool m_dragging = false;
};

} // namespace kvscope::ui
