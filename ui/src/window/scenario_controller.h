// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/catalog/catalog.h"
#include "kvscope/evaluation/evaluation.h"
#include "kvscope/evaluation/sweep.h"
#include "kvscope/planning/comparison.h"
#include "kvscope/planning/verdict.h"
#include "kvscope/scenario/scenario.h"

#include <QObject>
#include <QString>

#include <memory>
#include <vector>

namespace kvscope::ui {

// A scenario pinned for comparison (A to D), evaluated once when it was pinned.
struct PinnedEvaluation
{
    std::string name;
    Scenario scenario;
    Evaluation evaluation;
    Verdict verdict;
    Sweep contextSweep; // over the live scenario's chart range (sweepRange), for the curves
    std::pair<double, double> sweepRange{0, 0};
};
using PinnedList = std::vector<PinnedEvaluation>;

// Everything a view draws after one evaluation: the scenario, its evaluation and the context
// sweep behind the KV, latency and reload charts.
struct EvaluationSnapshot
{
    Scenario scenario;
    Evaluation evaluation;
    Verdict verdict; // whether it runs and what binds, computed once for every view
    const Catalog* catalog = nullptr; // what the planner views search (the controller's)
    Sweep contextSweep; // x = context tokens, from 256 to a little past the longest relevant one
    // Changes whenever anything but the scenario's context changed, or the sweep's range did:
    // while it stays, the curves are the same and only the current-context markers move.
    uint64_t baseRevision = 0;
    // The pinned scenarios, shared and never changed in place (pinning makes a new list, and a
    // new baseRevision): a snapshot copy costs one reference count.
    std::shared_ptr<const PinnedList> pinned = std::make_shared<const PinnedList>();
};

// Holds the current Scenario. Every control writes into it; changes coalesce into one
// evaluation per event-loop turn, so a fast drag never queues stale work. The scenario is
// validated once per evaluation, by evaluate() itself: a refused one is replaced by the last
// scenario that evaluated, so scenario() only ever holds an unchecked edit until then.
class ScenarioController : public QObject
{
    Q_OBJECT
public:
    // What a change touched: a context-only change (the context slider's drag) lets the views
    // skip everything that does not depend on the context.
    enum class Change { Context, Any };
    Q_ENUM(Change)

    explicit ScenarioController(const Catalog& catalog, QObject* parent = nullptr);

    const Catalog& catalog() const { return m_catalog; }
    // A machine profile saved while the window runs (the log dialog's Save), replacing one of
    // its name, so the Machine profile list and --profile's checks know it at once.
    void addProfile(const MachineProfile& profile);
    const Scenario& scenario() const { return m_scenario; }
    // The last successful evaluation (valid once evaluated() has been emitted).
    const EvaluationSnapshot& snapshot() const { return m_snapshot; }
    bool hasSnapshot() const { return m_hasSnapshot; }

    // Replaces the whole scenario (open, import, reset).
    void setScenario(const Scenario& scenario);
    // Changes only the context length: the context sweep is reused while its range holds.
    void setContext(int64_t tokens);
    // Changes part of it: `edit` mutates a copy, which becomes current (and stays so if it
    // evaluates).
    template <typename Edit> void edit(Edit&& edit)
    {
        Scenario next = m_scenario;
        edit(next);
        setScenario(next);
    }

    // Registry settings by id, each with its text as the CLI takes it, or nothing to leave it
    // to its default (resetToDefault). Applied together as one change, through the same parsing
    // and range as the CLI and scenario files: every control of the window edits a setting this
    // way. A refused value is reported by rejected() and changes nothing.
    using SettingEdits = std::vector<std::pair<std::string, std::optional<std::string>>>;
    bool applySettings(const SettingEdits& edits);
    bool applySetting(const std::string& id, const std::string& text);
    bool resetSetting(const std::string& id);

    // Evaluates now instead of on the next event-loop turn (tests, screenshots, benchmarks).
    void evaluateNow();

    // Pins the current scenario as evaluated (false when there are kMaxPinned already or it has
    // not evaluated yet). An empty name says what differs from the first pinned one.
    bool pin(const std::string& name = {});
    void unpin(size_t index);
    void unpinAll();
    bool renamePinned(size_t index, const std::string& name);
    // Replaces the pinned list (a file opened, --compare); every scenario must evaluate, or
    // the list stays as it was and the message names the scenario.
    std::optional<FieldError> setPinned(const std::vector<NamedScenario>& pinned);
    const PinnedList& pinned() const { return *m_snapshot.pinned; }
    std::vector<NamedScenario> pinnedScenarios() const;

signals:
    // Emitted after each evaluation; views draw from it and keep nothing else.
    void evaluated(const kvscope::ui::EvaluationSnapshot& snapshot);
    // A scenario the core refused: the field and why, already translated. The scenario is
    // back to the last one that evaluated (announced by scenarioChanged(Any) just before).
    void rejected(const QString& message);
    // Any change made through setScenario()/edit()/setContext(), before evaluation.
    void scenarioChanged(kvscope::ui::ScenarioController::Change change);
    // The pinned scenarios changed (pinned, unpinned, renamed, replaced); a new snapshot follows.
    void pinnedChanged();

private:
    void scheduleEvaluation();
    void apply(const Scenario& scenario, Change change);
    void refuse(const FieldError& error);
    void replacePinned(PinnedList list);
    // Sweeps the pinned scenarios over the live sweep's range where theirs differs.
    void sweepPinned();

    Catalog m_catalog; // a copy: the window adds the profiles it saves
    Scenario m_scenario;
    EvaluationSnapshot m_snapshot;
    bool m_hasSnapshot = false;
    bool m_pending = false;
    bool m_baseChanged = true; // something besides the context changed since the last sweep
    std::pair<double, double> m_sweepRange{0, 0};
};

// What a comparison lists: the pinned scenarios ("A: name" ...), then the live one ("Live",
// translated), for the difference table, the report and the CSV export.
std::vector<NamedScenario> comparedScenarios(const EvaluationSnapshot& snapshot);

// Context range the charts sweep: from 256 tokens (lower when a reload-vs-recompute crossing
// lies below) to past the current context, the model's maximum and where the MHA and GQA
// curves cross the free memory, at most 1M tokens unless the context itself is larger. Both
// ends are powers of four, the context axis's ticks, so a drag moves them only now and then.
std::pair<double, double> chartContextRange(const Scenario& scenario, const Evaluation& evaluation);

} // namespace kvscope::ui
