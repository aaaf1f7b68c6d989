// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QCheckBox;
class QLabel;
class QSpinBox;
class QToolButton;

namespace kvscope::ui {

class ScenarioController;

// llama.cpp's expert offload for a MoE model: --n-cpu-moe N (the routed experts of the first N
// layers in host RAM), --cpu-moe (all of them), the N that fits the chosen context and a button
// that applies it. Shown only where it applies (ScenarioPanel hides the row otherwise).
class ExpertOffloadControl : public QWidget
{
    Q_OBJECT
public:
    ExpertOffloadControl(ScenarioController* controller, QWidget* parent = nullptr);

    // Whether the scenario's engine can keep experts in host RAM and its model has experts.
    bool applies() const;
    void sync();
    void retranslate();

private:
    void showFitted(); // the sentence under the row: the --n-cpu-moe that fits, in words

    ScenarioController* m_controller;
    QSpinBox* m_layers = nullptr;
    QCheckBox* m_all = nullptr;
    QToolButton* m_fit = nullptr;
    QLabel* m_fitted = nullptr;
    int64_t m_fittedN = -1;      // the --n-cpu-moe that fits; -1 when none does
    double m_hostShortBytes = 0; // what the host RAM lacks at m_fittedN
};

} // namespace kvscope::ui
