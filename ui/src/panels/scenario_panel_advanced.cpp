// SPDX-License-Identifier: GPL-3.0-or-later
// The scenario panel's "Advanced" drawer: engine limits, offload targets, host memory and the
// efficiency factors. Each plain setting is a registry entry that names its place and its texts;
// SettingControl makes its control (range, unit, type) and commits through
// ScenarioController::applySetting, so a new setting needs no line here.
#include "panels/fitting_combo_box.h"
#include "panels/scenario_panel.h"

#include "panels/setting_control.h"
#include "window/ui_text.h"

#include "kvscope/planning/host_ram.h"
#include "kvscope/settings/settings_registry.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>

namespace kvscope::ui {

namespace {

// A setting's window texts are marked in the registry and translated in this context.
QString settingText(const char* text)
{
    return text && *text ? QCoreApplication::translate("kvscope::Setting", text) : QString();
}

QLabel* labelOf(QFormLayout* form, QWidget* field)
{
    return qobject_cast<QLabel*>(form->labelForField(field));
}

} // namespace

SettingControl* ScenarioPanel::addSettingRow(QFormLayout* form, QWidget* parent, const char* id)
{
    const Setting* setting = settingById(id);
    if (!setting)
        return nullptr;
    auto* control = new SettingControl(*setting, m_controller, parent);
    m_settingControls[id] = control;
    form->addRow(new QLabel(parent), control->widget());
    return control;
}

SettingControl* ScenarioPanel::settingControl(const std::string& id) const
{
    auto it = m_settingControls.find(id);
    return it == m_settingControls.end() ? nullptr : it->second;
}

QWidget* ScenarioPanel::buildAdvanced()
{
    auto* box = new QWidget(this);
    m_advancedForm = new QFormLayout(box);
    m_advancedForm->setContentsMargins(12, 0, 0, 0);
    m_advancedForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    addDrawerRows(box, ControlPlace::EngineDrawer);
    addStorageAndHostRows(box);
    addDrawerRows(box, ControlPlace::HostDrawer);
    addDrawerRows(box, ControlPlace::EfficiencyDrawer);
    // Each efficiency factor's tooltip is its catalog source.
    for (const EfficiencyFactor& factor : m_controller->catalog().efficiencyFactors)
        if (SettingControl* control = settingControl(factor.id))
            control->widget()->setToolTip(QString::fromStdString(factor.source));
    return box;
}

// Every registry setting the window shows at `place`, in registry order.
void ScenarioPanel::addDrawerRows(QWidget* box, ControlPlace place)
{
    for (const Setting& setting : settingsRegistry())
        if (setting.place == place)
            addSettingRow(m_advancedForm, box, setting.id);
}

// The NVMe drive and host memory are catalog entries: lists of the catalog's ids.
void ScenarioPanel::addStorageAndHostRows(QWidget* box)
{
    const Catalog& catalog = m_controller->catalog();
    m_nvme = new FittingComboBox(box);
    for (const StorageTier& t : catalog.storage)
        if (t.kind == "nvme")
            m_nvme->addItem(QString::fromStdString(t.name), QString::fromStdString(t.id));
    m_advancedForm->addRow(new QLabel(box), m_nvme);
    connect(m_nvme, &QComboBox::activated, this, [this](int index) {
        m_controller->applySetting("nvme", m_nvme->itemData(index).toString().toStdString());
    });
    m_host = new FittingComboBox(box);
    for (const HostMemory& h : catalog.hostMemory)
        m_host->addItem(UiText::hostMemoryName(h.name), QString::fromStdString(h.id));
    m_advancedForm->addRow(new QLabel(box), m_host);
    connect(m_host, &QComboBox::activated, this, [this](int index) {
        // The chosen platform's bandwidth, not an older figure typed for another.
        m_controller->applySettings(
            {{"host_memory", m_host->itemData(index).toString().toStdString()},
             {"host_memory_gb_per_s", std::nullopt}});
    });
}

void ScenarioPanel::retranslateAdvanced()
{
    for (const auto& [id, control] : m_settingControls) {
        const Setting& setting = control->setting();
        if (setting.place == ControlPlace::None)
            continue;
        QLabel* label = labelOf(m_advancedForm, control->widget());
        if (control->carriesItsLabel()) {
            control->setLabelText(settingText(setting.texts.label));
            if (label)
                label->clear();
        } else if (label) {
            label->setText(settingText(setting.texts.label));
        }
        control->setSpecialValueText(settingText(setting.texts.unsetText));
        if (*setting.texts.toolTip)
            control->widget()->setToolTip(settingText(setting.texts.toolTip));
        for (size_t i = 0; i < setting.texts.choices.size(); ++i)
            control->setChoiceText(int(i), settingText(setting.texts.choices[i]));
    }
    if (QLabel* l = labelOf(m_advancedForm, m_nvme))
        l->setText(tr("NVMe drive"));
    if (QLabel* l = labelOf(m_advancedForm, m_host))
        l->setText(tr("Host memory"));
}

void ScenarioPanel::syncHostRam(const Scenario& s)
{
    SettingControl* control = settingControl("host_ram_gib");
    if (!control)
        return;
    // 0 means "the platform's": say what that is, and where it is from.
    Scenario unstated = s;
    unstated.hostRamGiB = 0;
    const HostRam platform = hostRamOf(unstated);
    const QString gib = QLocale().toString(platform.gib, 'f', 0);
    switch (platform.basis) {
    case HostRamBasis::Platform:
        control->setSpecialValueText(tr("usual platform: %1 GiB").arg(gib));
        break;
    case HostRamBasis::UnifiedMemory:
        control->setSpecialValueText(tr("unified memory: %1 GiB").arg(gib));
        break;
    default:
        control->setSpecialValueText(tr("not stated, not checked"));
        break;
    }
    control->widget()->setToolTip(QString::fromStdString(platform.source));
}

QSpinBox* ScenarioPanel::maxNumSeqsBox() const
{
    SettingControl* control = settingControl("max_num_seqs");
    return control ? qobject_cast<QSpinBox*>(control->widget()) : nullptr;
}

QDoubleSpinBox* ScenarioPanel::efficiencyBox(const std::string& id) const
{
    SettingControl* control = settingControl(id);
    return control && std::strcmp(control->setting().fileSection, "efficiency") == 0
               ? qobject_cast<QDoubleSpinBox*>(control->widget())
               : nullptr;
}

} // namespace kvscope::ui
