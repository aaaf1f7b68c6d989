// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/expert_offload_control.h"

#include "charts/line_breaks.h"
#include "kvscope/engines/engine_module.h"
#include "kvscope/planning/expert_fit.h"
#include "panels/registry_ranges.h"
#include "window/scenario_controller.h"
#include "window/ui_text.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QToolButton>

#include <algorithm>

namespace kvscope::ui {

ExpertOffloadControl::ExpertOffloadControl(ScenarioController* controller, QWidget* parent)
    : QWidget(parent), m_controller(controller)
{
    m_layers = new QSpinBox(this);
    m_layers->setObjectName(QStringLiteral("nCpuMoe"));
    setRegistryRange(m_layers, "n_cpu_moe");
    m_layers->setKeyboardTracking(false);
    m_all = new QCheckBox(this);
    m_all->setObjectName(QStringLiteral("cpuMoe"));
    m_fit = new QToolButton(this);
    m_fit->setObjectName(QStringLiteral("fitCpuMoe"));
    m_fitted = new QLabel(this);
    m_fitted->setObjectName(QStringLiteral("fittedCpuMoe"));
    m_fitted->setWordWrap(true);

    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_layers);
    row->addWidget(m_all);
    row->addWidget(m_fit);
    row->addStretch(1);
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    column->addLayout(row);
    column->addWidget(m_fitted);

    connect(m_layers, &QSpinBox::valueChanged, this,
            [this](int n) { m_controller->applySetting("n_cpu_moe", std::to_string(n)); });
    connect(m_all, &QCheckBox::toggled, this,
            [this](bool on) { m_controller->applySetting("cpu_moe", on ? "on" : "off"); });
    connect(m_fit, &QToolButton::clicked, this, [this] {
        if (m_fittedN < 0)
            return;
        m_controller->applySettings({{"cpu_moe", "off"}, {"n_cpu_moe", std::to_string(m_fittedN)}});
    });
}

bool ExpertOffloadControl::applies() const
{
    const Scenario& s = m_controller->scenario();
    return s.model.isMoe() && engineModule(s.engine).offloadsExperts();
}

void ExpertOffloadControl::sync()
{
    const Scenario& s = m_controller->scenario();
    const QSignalBlocker blockLayers(m_layers);
    const QSignalBlocker blockAll(m_all);
    m_layers->setValue(int(std::min<int64_t>(s.cpuMoeLayers, m_layers->maximum())));
    m_layers->setEnabled(!s.cpuMoeAll);
    m_all->setChecked(s.cpuMoeAll);
    const auto fit = applies() ? fitExpertOffload(s) : std::nullopt;
    m_fittedN = fit ? fit->nCpuMoe : -1;
    m_hostShortBytes = fit ? fit->hostShortBytes : 0.0;
    m_fit->setEnabled(fit && (s.cpuMoeAll || s.cpuMoeLayers != fit->nCpuMoe));
    showFitted();
}

void ExpertOffloadControl::retranslate()
{
    m_layers->setSpecialValueText(tr("none"));
    m_layers->setToolTip(tr("llama.cpp --n-cpu-moe: the routed experts of the first N layers stay "
                            "in host RAM and the CPU computes them; attention, the KV cache and "
                            "the shared experts stay on the GPU"));
    m_all->setText(tr("all (--cpu-moe)"));
    m_fit->setText(tr("Fit"));
    m_fit->setToolTip(tr("Set the fewest layers whose experts must move to host RAM for this "
                         "context to fit"));
    showFitted();
}

void ExpertOffloadControl::showFitted()
{
    if (!applies()) {
        m_fitted->clear();
        return;
    }
    const Scenario& s = m_controller->scenario();
    if (m_fittedN < 0)
        m_fitted->setText(tr("Does not fit even with every expert in host RAM."));
    else if (m_fittedN == 0)
        m_fitted->setText(tr("Fits with every expert on the GPU."));
    else if (m_hostShortBytes > 0) // the GPU fits; the host RAM the experts go to does not
        m_fitted->setText(withoutForbiddenBreaks(
            tr("The GPU fits from --n-cpu-moe %1 at %2, but the host RAM is %3 short.")
                .arg(QString::number(m_fittedN), UiText::tokens(s.context),
                     UiText::bytes(m_hostShortBytes, ByteUnits::Binary))));
    else
        m_fitted->setText(withoutForbiddenBreaks(
            tr("Fits from --n-cpu-moe %1 at %2.")
                .arg(QString::number(m_fittedN), UiText::tokens(s.context))));
}

} // namespace kvscope::ui
