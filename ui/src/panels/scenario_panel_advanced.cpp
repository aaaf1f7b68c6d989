// SPDX-License-Identifier: GPL-3.0-or-later
// The scenario panel's "Advanced" drawer: engine limits, offload targets, host memory and the
// efficiency factors. Each plain setting is a registry entry whose control SettingControl makes
// (range, unit, type) and commits through ScenarioController::applySetting; what this file says
// per setting is its place and its translated label.
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

#include <array>
#include <cstring>

namespace kvscope::ui {

namespace {

constexpr const char* kContext = "kvscope::ui::ScenarioPanel";

// One drawer row over a registry entry. The texts are translated in the panel's context.
struct DrawerSetting
{
    const char* id;
    const char* label;
    const char* specialText = nullptr; // the spin box's bottom ("all": the field left unset)
    const char* toolTip = nullptr;
    std::array<const char*, 2> choiceTexts{}; // a choice's display texts, in registry order
    SettingControl::UnsetValue shownWhenUnset = nullptr;
};

double effectiveMemoryFraction(const Scenario& s)
{
    return s.effectiveMemoryFraction();
}

// The engine's knobs, above the storage and host rows.
const std::array<DrawerSetting, 8>& engineSettings()
{
    static const std::array<DrawerSetting, 8> rows{{
        {"gpu_mem_util",
         QT_TRANSLATE_NOOP("kvscope::ui::ScenarioPanel", "GPU memory fraction"),
         nullptr,
         QT_TRANSLATE_NOOP("kvscope::ui::ScenarioPanel",
                           "Share of GPU memory the engine may use (vLLM: gpu_memory_utilization)"),
         {},
         &effectiveMemoryFraction},
        {"runtime_overhead_mib",
         QT_TRANSLATE_NOOP("kvscope::ui::ScenarioPanel", "Runtime overhead")},
        {"block_size", QT_TRANSLATE_NOOP("kvscope::ui::ScenarioPanel", "KV block size (tokens)")},
        {"prefill_chunk_tokens", QT_TRANSLATE_NOOP("kvscope::ui::ScenarioPanel",
                                                   "Prefill chunk (tokens, 0 = whole prompt)")},
        {"max_num_seqs",
         QT_TRANSLATE_NOOP("kvscope::ui::ScenarioPanel",
                           "Max concurrent sequences (vLLM max_num_seqs)"),
         QT_TRANSLATE_NOOP("kvscope::ui::ScenarioPanel", "as the batch")},
        {"n_gpu_layers",
         QT_TRANSLATE_NOOP("kvscope::ui::ScenarioPanel", "Layers on the GPU (llama.cpp -ngl)"),
         QT_TRANSLATE_NOOP("kvscope::ui::ScenarioPanel", "all")},
        {"split_mode",
         QT_TRANSLATE_NOOP("kvscope::ui::ScenarioPanel", "Multi-GPU split"),
         nullptr,
         nullptr,
         {QT_TRANSLATE_NOOP("kvscope::ui::ScenarioPanel", "Tensor parallel (every layer split)"),
          QT_TRANSLATE_NOOP("kvscope::ui::ScenarioPanel", "Layer split (GPUs take turns)")}},
        {"offload_weights", QT_TRANSLATE_NOOP("kvscope::ui::ScenarioPanel",
                                              "Offload weights that do not fit to CPU RAM")},
    }};
    return rows;
}

// The host's own figures, under the host memory row.
const std::array<DrawerSetting, 2>& hostSettings()
{
    static const std::array<DrawerSetting, 2> rows{{
        {"host_memory_gb_per_s",
         QT_TRANSLATE_NOOP("kvscope::ui::ScenarioPanel", "Host memory bandwidth"),
         QT_TRANSLATE_NOOP("kvscope::ui::ScenarioPanel", "as the host memory above")},
        {"host_ram_gib", QT_TRANSLATE_NOOP("kvscope::ui::ScenarioPanel", "Host RAM size")},
    }};
    return rows;
}

QString translated(const char* text)
{
    return text ? QCoreApplication::translate(kContext, text) : QString();
}

QLabel* labelOf(QFormLayout* form, QWidget* field)
{
    return qobject_cast<QLabel*>(form->labelForField(field));
}

} // namespace

SettingControl* ScenarioPanel::addSettingRow(QFormLayout* form, QWidget* parent, const char* id,
                                             double (*shownWhenUnset)(const Scenario&))
{
    const Setting* setting = settingById(id);
    if (!setting)
        return nullptr;
    auto* control = new SettingControl(*setting, m_controller, parent, shownWhenUnset);
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
    for (const DrawerSetting& row : engineSettings())
        addSettingRow(m_advancedForm, box, row.id, row.shownWhenUnset);
    addStorageAndHostRows(box);
    for (const DrawerSetting& row : hostSettings())
        addSettingRow(m_advancedForm, box, row.id, row.shownWhenUnset);
    // Every efficiency factor of the registry, with its catalog source as the tooltip.
    for (const Setting& setting : settingsRegistry())
        if (std::strcmp(setting.fileSection, "efficiency") == 0)
            if (SettingControl* control = addSettingRow(m_advancedForm, box, setting.id))
                for (const EfficiencyFactor& factor : m_controller->catalog().efficiencyFactors)
                    if (factor.id == setting.id)
                        control->widget()->setToolTip(QString::fromStdString(factor.source));
    return box;
}

// The NVMe drive and host memory are catalog entries: lists of the catalog's ids.
void ScenarioPanel::addStorageAndHostRows(QWidget* box)
{
    const Catalog& catalog = m_controller->catalog();
    m_nvme = new QComboBox(box);
    for (const StorageTier& t : catalog.storage)
        if (t.kind == "nvme")
            m_nvme->addItem(QString::fromStdString(t.name), QString::fromStdString(t.id));
    m_advancedForm->addRow(new QLabel(box), m_nvme);
    connect(m_nvme, &QComboBox::activated, this, [this](int index) {
        m_controller->applySetting("nvme", m_nvme->itemData(index).toString().toStdString());
    });
    m_host = new QComboBox(box);
    for (const HostMemory& h : catalog.hostMemory)
        m_host->addItem(QString::fromStdString(h.name), QString::fromStdString(h.id));
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
    auto labelRow = [this](const DrawerSetting& row) {
        SettingControl* control = settingControl(row.id);
        if (!control)
            return;
        QLabel* label = labelOf(m_advancedForm, control->widget());
        if (control->carriesItsLabel()) {
            control->setLabelText(translated(row.label));
            if (label)
                label->clear();
        } else if (label) {
            label->setText(translated(row.label));
        }
        control->setSpecialValueText(translated(row.specialText));
        if (row.toolTip)
            control->widget()->setToolTip(translated(row.toolTip));
        for (size_t i = 0; i < row.choiceTexts.size(); ++i)
            if (row.choiceTexts[i])
                control->setChoiceText(int(i), translated(row.choiceTexts[i]));
    };
    for (const DrawerSetting& row : engineSettings())
        labelRow(row);
    for (const DrawerSetting& row : hostSettings())
        labelRow(row);
    if (QLabel* l = labelOf(m_advancedForm, m_nvme))
        l->setText(tr("NVMe drive"));
    if (QLabel* l = labelOf(m_advancedForm, m_host))
        l->setText(tr("Host memory"));
    for (const auto& [id, control] : m_settingControls)
        if (std::strcmp(control->setting().fileSection, "efficiency") == 0)
            if (QLabel* l = labelOf(m_advancedForm, control->widget()))
                l->setText(UiText::efficiencyName(id));
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
