// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/scenario_controller.h"

#include "kvscope/settings/scenario_file.h"
#include "kvscope/settings/settings_registry.h"
#include "window/ui_text.h"

#include <QCoreApplication>
#include <QTimer>

#include <algorithm>
#include <cmath>

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
    const double crossings =
        1.3 * double(std::max(e.tokensFit.perSequenceMha, e.tokensFit.perSequenceGqa));
    double to = std::max({double(s.model.maxContext), 8192.0, std::min(crossings, 1048576.0)});
    to = std::min(std::max(to, double(s.context) * 2.0), double(limits::maxContext));
    const auto log4 = [](double v) { return std::log(v) / std::log(4.0); };
    from = std::pow(4.0, std::floor(log4(from) + 1e-9));
    to = std::min(std::pow(4.0, std::ceil(log4(to) - 1e-9)), double(limits::maxContext));
    return {from, to};
}

std::vector<NamedScenario> comparedScenarios(const EvaluationSnapshot& snap)
{
    std::vector<NamedScenario> all;
    for (const PinnedEvaluation& p : *snap.pinned)
        all.push_back({p.name, p.scenario});
    all.push_back({QCoreApplication::translate("kvscope::ui::ComparePage", "Live").toStdString(),
                   snap.scenario});
    return all;
}

ScenarioController::ScenarioController(const Catalog& catalog, QObject* parent)
    : QObject(parent), m_catalog(catalog)
{
    m_snapshot.catalog = &m_catalog;
}

void ScenarioController::addProfile(const MachineProfile& profile)
{
    auto& profiles = m_catalog.profiles;
    auto same = std::find_if(profiles.begin(), profiles.end(),
                             [&](const MachineProfile& p) { return p.id == profile.id; });
    if (same != profiles.end())
        *same = profile;
    else
        profiles.push_back(profile);
}

void ScenarioController::setScenario(const Scenario& scenario)
{
    apply(scenario, Change::Any);
}

void ScenarioController::setContext(int64_t tokens)
{
    Scenario next = m_scenario;
    next.context = tokens;
    apply(next, Change::Context);
}

void ScenarioController::apply(const Scenario& scenario, Change change)
{
    // No validate() here: evaluate() checks every field anyway, and checking twice per drag
    // step is work the drag path does not need. evaluateNow() refuses what evaluate() refuses.
    m_scenario = scenario;
    m_baseChanged = m_baseChanged || change == Change::Any;
    emit scenarioChanged(change);
    scheduleEvaluation();
}

bool ScenarioController::applySettings(const SettingEdits& edits)
{
    Scenario next = m_scenario;
    for (const auto& [id, text] : edits) {
        const Setting* setting = settingById(id);
        if (!setting)
            return false;
        std::optional<FieldError> error;
        if (!text) {
            resetToDefault(*setting, next);
        } else if (auto value = parseSettingText(*setting, *text, id)) {
            error = setting->apply(next, *value, m_catalog);
        } else {
            error = value.error();
        }
        if (error) {
            emit rejected(UiText::fieldError(*error));
            emit scenarioChanged(Change::Any); // controls showing the refused value go back
            return false;
        }
    }
    setScenario(next);
    return true;
}

bool ScenarioController::applySetting(const std::string& id, const std::string& text)
{
    return applySettings({{id, text}});
}

bool ScenarioController::resetSetting(const std::string& id)
{
    return applySettings({{id, std::nullopt}});
}

void ScenarioController::refuse(const FieldError& error)
{
    // Back to the last scenario that evaluated, whose sweep the snapshot still holds, as if
    // the refused edits had not happened.
    if (m_hasSnapshot) {
        m_scenario = m_snapshot.scenario;
        m_baseChanged = false;
        emit scenarioChanged(Change::Any);
    }
    emit rejected(UiText::fieldError(error));
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
    // The snapshot carries the crossings: the breakeven chart, the report and the charts'
    // context range show them.
    auto evaluation = evaluate(m_scenario, EvaluateOptions{.breakevenCrossings = true});
    if (!evaluation)
        return refuse(evaluation.error());
    // A sweep over context does not depend on the current context: reuse it while nothing else
    // changed and its range holds.
    const auto range = chartContextRange(m_scenario, *evaluation);
    if (m_baseChanged || range != m_sweepRange || !m_hasSnapshot) {
        auto contextSweep =
            sweep(m_scenario, SweepVariable::Context, range.first, range.second, kSweepPoints);
        if (!contextSweep)
            return refuse(contextSweep.error());
        m_snapshot.contextSweep = std::move(contextSweep).value();
        m_sweepRange = range;
        m_baseChanged = false;
        ++m_snapshot.baseRevision;
        sweepPinned();
    }
    m_snapshot.scenario = m_scenario;
    m_snapshot.evaluation = std::move(evaluation).value();
    m_snapshot.verdict = verdictOf(m_snapshot.scenario, m_snapshot.evaluation);
    m_hasSnapshot = true;
    emit evaluated(m_snapshot);
}

bool ScenarioController::pin(const std::string& name)
{
    if (!m_hasSnapshot || pinned().size() >= size_t(kMaxPinned))
        return false;
    PinnedList list = pinned();
    std::string chosen = name;
    if (chosen.empty() && !list.empty())
        chosen = differenceName(m_snapshot.scenario, list.front().scenario);
    if (chosen.empty())
        chosen = std::string(1, char('A' + list.size()));
    // Swept over the live range once the live sweep is (sweepPinned).
    list.push_back({pinnedNameFrom(chosen),
                    m_snapshot.scenario,
                    m_snapshot.evaluation,
                    m_snapshot.verdict,
                    Sweep{},
                    {0, 0}});
    replacePinned(std::move(list));
    return true;
}

void ScenarioController::unpin(size_t index)
{
    if (index >= pinned().size())
        return;
    PinnedList list = pinned();
    list.erase(list.begin() + std::ptrdiff_t(index));
    replacePinned(std::move(list));
}

void ScenarioController::unpinAll()
{
    if (!pinned().empty())
        replacePinned({});
}

bool ScenarioController::renamePinned(size_t index, const std::string& name)
{
    if (index >= pinned().size() || name.empty())
        return false;
    PinnedList list = pinned();
    list[index].name = pinnedNameFrom(name);
    replacePinned(std::move(list));
    return true;
}

std::optional<FieldError> ScenarioController::setPinned(const std::vector<NamedScenario>& pinned)
{
    if (pinned.size() > size_t(kMaxPinned))
        return FieldError{"pinned", std::to_string(pinned.size()),
                          "at most " + std::to_string(kMaxPinned) + " pinned scenarios"};
    PinnedList list;
    for (const NamedScenario& named : pinned) {
        auto evaluation = evaluateNamed(named);
        if (!evaluation)
            return evaluation.error();
        const Verdict verdict = verdictOf(named.scenario, *evaluation);
        list.push_back(
            {named.name, named.scenario, std::move(evaluation).value(), verdict, Sweep{}, {0, 0}});
    }
    replacePinned(std::move(list));
    return std::nullopt;
}

std::vector<NamedScenario> ScenarioController::pinnedScenarios() const
{
    std::vector<NamedScenario> named;
    for (const PinnedEvaluation& p : pinned())
        named.push_back({p.name, p.scenario});
    return named;
}

void ScenarioController::sweepPinned()
{
    const PinnedList& current = pinned();
    if (std::all_of(current.begin(), current.end(),
                    [&](const PinnedEvaluation& p) { return p.sweepRange == m_sweepRange; }))
        return;
    // Pinned scenarios evaluated once already; their sweeps cannot fail but a refused point
    // leaves that curve empty rather than losing the comparison.
    PinnedList list = current;
    for (PinnedEvaluation& p : list) {
        if (p.sweepRange == m_sweepRange)
            continue;
        auto swept = sweep(p.scenario, SweepVariable::Context, m_sweepRange.first,
                           m_sweepRange.second, kSweepPoints);
        p.contextSweep = swept ? std::move(swept).value() : Sweep{};
        p.sweepRange = m_sweepRange;
    }
    m_snapshot.pinned = std::make_shared<const PinnedList>(std::move(list));
}

void ScenarioController::replacePinned(PinnedList list)
{
    m_snapshot.pinned = std::make_shared<const PinnedList>(std::move(list));
    // The charts draw the pinned scenarios with the live one: everything redraws.
    m_baseChanged = true;
    emit pinnedChanged();
    scheduleEvaluation();
}

} // namespace kvscope::ui
