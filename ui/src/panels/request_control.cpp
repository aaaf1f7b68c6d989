// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/request_control.h"

#include "panels/registry_ranges.h"
#include "window/scenario_controller.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

#include <algorithm>

namespace kvscope::ui {

RequestControl::RequestControl(ScenarioController* controller, QWidget* parent)
    : QWidget(parent), m_controller(controller), m_prompt(new QSpinBox(this)),
      m_output(new QSpinBox(this))
{
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    const std::pair<QSpinBox*, int64_t Workload::*> boxes[] = {{m_prompt, &Workload::promptTokens},
                                                               {m_output, &Workload::outputTokens}};
    for (auto [box, field] : boxes) {
        setRegistryRange(box, box == m_prompt ? "prompt_tokens" : "output_tokens");
        box->setKeyboardTracking(false);
        box->setGroupSeparatorShown(true);
        connect(box, &QSpinBox::valueChanged, this, [this, field](int n) {
            m_controller->edit([&](Scenario& s) { s.workload.*field = n; });
        });
    }
    row->addWidget(m_prompt, 1);
    row->addWidget(new QLabel(QStringLiteral("+"), this));
    row->addWidget(m_output, 1);
    retranslate();
}

void RequestControl::sync()
{
    const Workload& w = m_controller->scenario().workload;
    const QSignalBlocker promptBlocker(m_prompt), outputBlocker(m_output);
    m_prompt->setValue(int(std::min<int64_t>(w.promptTokens, m_prompt->maximum())));
    m_output->setValue(int(std::min<int64_t>(w.outputTokens, m_output->maximum())));
}

void RequestControl::retranslate()
{
    m_prompt->setToolTip(tr("Average prompt length of a request, in tokens (serving view)"));
    m_output->setToolTip(tr("Average answer length of a request, in tokens (serving view)"));
}

} // namespace kvscope::ui
