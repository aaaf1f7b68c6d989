// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/engine_release_control.h"

#include "kvscope/catalog/catalog.h"
#include "kvscope/settings/scenario_defaults.h"
#include "window/scenario_controller.h"

#include <QLineEdit>
#include <QSignalBlocker>

namespace kvscope::ui {

EngineReleaseControl::EngineReleaseControl(ScenarioController* controller, QWidget* parent)
    : QComboBox(parent), m_controller(controller)
{
    setObjectName(QStringLiteral("engineRelease"));
    setEditable(true);
    setInsertPolicy(QComboBox::NoInsert);
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(this, &QComboBox::activated, this,
            [this](int index) { choose(itemData(index).toString()); });
    connect(lineEdit(), &QLineEdit::editingFinished, this, [this] {
        const QString typed = currentText().trimmed();
        const int listed = findText(typed);
        choose(listed >= 0 ? itemData(listed).toString() : typed);
    });
}

void EngineReleaseControl::choose(const QString& release)
{
    const Scenario& s = m_controller->scenario();
    if (release.toStdString() == s.engineVersion)
        return;
    if (release.isEmpty()) { // back to the latest release: the engine's own profile
        Scenario next = s;
        next.engineVersion.clear();
        if (!applyEngineRelease(next, m_controller->catalog()))
            m_controller->setScenario(next);
        return;
    }
    m_controller->applySetting("engine_version", release.toStdString());
}

void EngineReleaseControl::sync()
{
    const Scenario& s = m_controller->scenario();
    const EngineProfile* engine = m_controller->catalog().engine(s.engine.id);
    const EngineReleases* releases = engine ? &engine->releases : nullptr;
    const QSignalBlocker blocker(this);
    const QString engineId = QString::fromStdString(s.engine.id);
    if (engineId != m_listedEngine || count() == 0) {
        m_listedEngine = engineId;
        clear();
        if (releases && releases->modelled()) {
            // As the engine numbers them: vLLM "0.6.4", llama.cpp's builds "b5429".
            auto text = [&](const Release& r) {
                return QString::fromStdString(releaseText(*releases, r));
            };
            addItem(tr("latest (%1)").arg(text(releases->latest)), QString());
            // Newest first: the releases where a rule starts or stops, then the oldest.
            for (auto it = releases->boundaries.rbegin(); it != releases->boundaries.rend(); ++it)
                if (*it != releases->latest)
                    addItem(text(*it), text(*it));
            addItem(text(releases->first), text(releases->first));
        } else {
            addItem(tr("any release"), QString());
        }
    }
    setEnabled(releases && releases->modelled());
    const QString version = QString::fromStdString(s.engineVersion);
    const int index = findData(version);
    if (index >= 0)
        setCurrentIndex(index);
    else
        setEditText(version);
    if (lineEdit())
        lineEdit()->setCursorPosition(0); // "latest (0.28.0)" shows its start, not a cut "最"
}

void EngineReleaseControl::retranslate()
{
    setToolTip(tr("The engine release whose memory rules apply: vLLM's accounting of CUDA graphs, "
                  "its sampler and its batch defaults changed between releases. Type any release "
                  "to match your own logs."));
    m_listedEngine.clear(); // rebuild the "latest" item in the new language
    sync();
}

} // namespace kvscope::ui
