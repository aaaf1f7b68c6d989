// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QComboBox>

namespace kvscope::ui {

class ScenarioController;

// The engine release whose rules apply (the engine_version setting), beside the engine: the
// latest release kvscope models, the releases where a rule changes, or any release typed in.
// Engines without release rules show it disabled. A release the engine does not have is
// refused by the controller, with the accepted range.
class EngineReleaseControl : public QComboBox
{
    Q_OBJECT
public:
    EngineReleaseControl(ScenarioController* controller, QWidget* parent = nullptr);

    // Shows the scenario's engine and release (the list follows the engine).
    void sync();
    void retranslate();

private:
    void choose(const QString& text);

    ScenarioController* m_controller;
    QString m_listedEngine; // the engine whose releases the list holds
};

} // namespace kvscope::ui
