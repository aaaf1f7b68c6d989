// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/request_control.h"

#include "panels/setting_control.h"
#include "window/scenario_controller.h"

#include "kvscope/settings/settings_registry.h"

#include <QHBoxLayout>
#include <QLabel>

namespace kvscope::ui {

RequestControl::RequestControl(ScenarioController* controller, QWidget* parent)
    : QWidget(parent), m_controller(controller),
      m_prompt(new SettingControl(*settingById("prompt_tokens"), controller, this)),
      m_output(new SettingControl(*settingById("output_tokens"), controller, this))
{
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_prompt->widget(), 1);
    row->addWidget(new QLabel(QStringLiteral("+"), this));
    row->addWidget(m_output->widget(), 1);
    retranslate();
}

void RequestControl::sync()
{
    m_prompt->sync(m_controller->scenario());
    m_output->sync(m_controller->scenario());
}

void RequestControl::retranslate()
{
    m_prompt->widget()->setToolTip(
        tr("Average prompt length of a request, in tokens (serving view)"));
    m_output->widget()->setToolTip(
        tr("Average answer length of a request, in tokens (serving view)"));
}

} // namespace kvscope::ui
