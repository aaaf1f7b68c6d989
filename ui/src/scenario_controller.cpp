// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario_controller.h"

#include "ui_text.h"

#include <QTimer>

#include <algorithm>

namespace kvscope::ui {

namespace {
// Enough points for smooth log-scale curves at any window size; each is a full evaluation.
constexpr int kSweepPoints = 72;
} // namespace

std::pair<double, double> chartContextRange(const Scenario& s, const Evaluation& e)
{
    double from = std::min(256.0, double(s.context));
    for (int64_t cross : e.breakeven.crossTokens)
        if (cross > 1)
            from = std::min(from, double(cross) / 2);
    from = std::max(from, 1.0);
    const double crossings = 1.3 * double(std::max(e.tokensFit.perSequenceMha, e.tokensFit.perSequenceGqa));
    double to = std::max({double(s.model.maxContext), 8192.0, std::min(crossings, 1048576.0)});
    to = std::min(std::max(to, double(s.context) * 2.0), double(limits::maxContext));
    return {from, to};
}

ScenarioController::ScenarioController(const Catalog& catalog, QObject* parent)
    : QObject(parent), m_catalog(catalog)
{
}

void ScenarioController::setScenario(const Scenario& scenario)
{
    if (auto error = validate(scenario)) {
        emit rejected(UiText::fieldError(*error));
        return;
    }
    m_scenario = scenario;
    emit scenarioChanged();
    scheduleEvaluation();
}

void ScenarioController::scheduleEvaluation()
{
    if (m_pending)
        return;
    m_pending = true;
    QTimer::singleShot(0, this, [this] {
        if (m_pending)
            evaluateNow();
    });
}

void ScenarioController::evaluateNow()
{
    m_pending = false;
    auto evaluation = evaluate(m_scenario);
    if (!evaluation) {
        emit rejected(UiText::fieldError(evaluation.error()));
        return;
    }
    const auto [from, to] = chartContextRange(m_scenario, *evaluation);
    auto contextSweep = sweep(m_scenario, SweepVariable::Context, from, to, kSweepPoints);
    if (!contextSweep) {
        emit rejected(UiText::fieldError(contextSweep.error()));
        return;
    }
    m_snapshot.scenario = m_scenario;
    m_snapshot.evaluation = std::move(evaluation).value();
    m_snapshot.contextSweep = std::move(contextSweep).value();
    m_hasSnapshot = true;
    emit evaluated(m_snapshot);
}

} // namespace kvscope::ui
