// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

namespace kvscope::ui {

class ScenarioController;
class SettingControl;

// The serving workload's average request: prompt tokens + answer tokens (the prompt_tokens and
// output_tokens settings), the request the serving view sizes concurrency for.
class RequestControl : public QWidget
{
    Q_OBJECT
public:
    RequestControl(ScenarioController* controller, QWidget* parent = nullptr);

    void sync(); // shows the scenario's workload
    void retranslate();

private:
    ScenarioController* m_controller;
    SettingControl* m_prompt; // prompt_tokens
    SettingControl* m_output; // output_tokens
};

} // namespace kvscope::ui
