// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/scenario_history.h"

#include "kvscope/settings/scenario_file.h"

#include <QCoreApplication>

namespace kvscope::ui {

namespace {

// One change: the scenario before and after. Steps of one drag carry its session and merge.
class ScenarioChange : public QUndoCommand
{
public:
    ScenarioChange(ScenarioHistory* history, Scenario before, Scenario after, int session)
        : m_history(history), m_before(std::move(before)), m_after(std::move(after)),
          m_session(session)
    {
        describe();
    }

    int id() const override { return 1; }
    bool mergeWith(const QUndoCommand* other) override
    {
        const auto* next = static_cast<const ScenarioChange*>(other);
        if (m_session == 0 || next->m_session != m_session)
            return false;
        m_after = next->m_after;
        describe();
        return true;
    }
    void undo() override { m_history->restore(m_before); }
    void redo() override
    {
        if (m_first) // the change has happened already when it is recorded
            m_first = false;
        else
            m_history->restore(m_after);
    }

private:
    // The Edit menu says what the step changed: "Undo: context 32768".
    void describe()
    {
        const std::string what = differenceName(m_after, m_before);
        setText(what.empty() ? QCoreApplication::translate("kvscope::ui::ScenarioHistory", "change")
                             : QString::fromStdString(what));
    }

    ScenarioHistory* m_history;
    Scenario m_before;
    Scenario m_after;
    int m_session;
    bool m_first = true;
};

} // namespace

ScenarioHistory::ScenarioHistory(ScenarioController* controller, QObject* parent)
    : QObject(parent), m_controller(controller)
{
    connect(controller, &ScenarioController::evaluated, this, &ScenarioHistory::record);
    if (controller->hasSnapshot())
        record(controller->snapshot());
}

void ScenarioHistory::beginDrag()
{
    m_dragging = true;
    ++m_dragSession;
}

void ScenarioHistory::endDrag()
{
    m_dragging = false;
}

void ScenarioHistory::restore(const Scenario& scenario)
{
    m_current = scenario;
    m_currentText = scenarioToText(scenario);
    m_controller->setScenario(scenario);
}

void ScenarioHistory::record(const EvaluationSnapshot& snapshot)
{
    std::string text = scenarioToText(snapshot.scenario);
    if (!m_started) {
        m_started = true;
        m_current = snapshot.scenario;
        m_currentText = std::move(text);
        return;
    }
    if (text == m_currentText)
        return;
    Scenario before = m_current;
    m_current = snapshot.scenario;
    m_currentText = std::move(text);
    m_stack.push(
        new ScenarioChange(this, std::move(before), m_current, m_dragging ? m_dragSession : 0));
}

} // namespace kvscope::ui
