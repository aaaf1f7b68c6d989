// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/scenario_panel.h"
#include "charts/line_breaks.h"

#include "panels/context_control.h"
#include "panels/custom_gpu_dialog.h"
#include "panels/engine_release_control.h"
#include "panels/expert_offload_control.h"
#include "panels/fitting_combo_box.h"
#include "panels/request_control.h"
#include "panels/setting_control.h"
#include "window/ui_text.h"

#include "kvscope/model/weights.h"
#include "kvscope/settings/scenario_defaults.h"
#include "kvscope/settings/scenario_options.h"
#include "kvscope/settings/settings_registry.h"

#include <QAccessible>
#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <memory>

namespace kvscope::ui {

namespace {

const QString kImportedId = QStringLiteral("__imported__");
const QString kCustomGpuId = QStringLiteral("__custom__");

// A disabled, bold row naming a group in a combo box list.
void addGroupHeader(QComboBox* box, const QString& title)
{
    box->addItem(title);
    auto* model = qobject_cast<QStandardItemModel*>(box->model());
    QStandardItem* item = model->item(box->count() - 1);
    item->setFlags(item->flags() & ~(Qt::ItemIsSelectable | Qt::ItemIsEnabled));
    QFont font = item->font();
    font.setBold(true);
    item->setFont(font);
}

void selectData(QComboBox* box, const QVariant& data)
{
    const int index = box->findData(data);
    if (index >= 0)
        box->setCurrentIndex(index);
}

QLabel* formLabel(QFormLayout* form, QWidget* field)
{
    return qobject_cast<QLabel*>(form->labelForField(field));
}

// Names each control of a form row after the row's label where nothing else names it (a row of
// several controls, a composite control's parts): what a screen reader says for them.
void nameRowControls(QFormLayout* form, int row)
{
    QLayoutItem* labelItem = form->itemAt(row, QFormLayout::LabelRole);
    auto* label = labelItem ? qobject_cast<QLabel*>(labelItem->widget()) : nullptr;
    QLayoutItem* field = form->itemAt(row, QFormLayout::FieldRole);
    if (!label || label->text().isEmpty() || !field)
        return;
    QList<QWidget*> widgets;
    if (field->widget())
        widgets << field->widget();
    if (QLayout* layout = field->layout())
        for (int i = 0; i < layout->count(); ++i)
            if (QWidget* w = layout->itemAt(i)->widget())
                widgets << w;
    for (QWidget* w : QList<QWidget*>(widgets))
        widgets << w->findChildren<QWidget*>();
    for (QWidget* w : widgets) {
        if (w->focusPolicy() == Qt::NoFocus)
            continue;
        const bool ours =
            w->property("kvscopeRowName").toBool(); // named here, for a language change
        QAccessibleInterface* accessible = QAccessible::queryAccessibleInterface(w);
        if (ours || (accessible && accessible->text(QAccessible::Name).trimmed().isEmpty())) {
            w->setAccessibleName(label->text());
            w->setProperty("kvscopeRowName", true);
        }
    }
}

// The row holding `field`, alone or in the layout of its row; -1 for none.
int rowOf(const QFormLayout* form, const QWidget* field)
{
    for (int r = 0; r < form->rowCount(); ++r) {
        QLayoutItem* item = form->itemAt(r, QFormLayout::FieldRole);
        if (item &&
            (item->widget() == field || (item->layout() && item->layout()->indexOf(field) >= 0)))
            return r;
    }
    return -1;
}

// A catalog list's least width is a name's worth of characters, not its longest entry as first
// shown: in the font of that moment (the panel's presentation font is larger), the longest
// names set the column's least width, and a 1280-pixel screen no longer held the window.
void keepLeastWidth(QComboBox* box)
{
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(12);
}

} // namespace

ScenarioPanel::ScenarioPanel(ScenarioController* controller, QWidget* parent)
    : QWidget(parent), m_controller(controller)
{
    m_form = new QFormLayout;
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    buildModelRows();
    buildHardwareRows();
    buildWorkloadRows();
    buildEngineRows();

    m_advancedToggle = new QToolButton(this);
    m_advancedToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_advancedToggle->setArrowType(Qt::RightArrow);
    m_advancedToggle->setCheckable(true);
    m_advancedToggle->setAutoRaise(true);
    m_advanced = buildAdvanced();
    m_advanced->setVisible(false);
    connect(m_advancedToggle, &QToolButton::toggled, this, [this](bool open) {
        m_advanced->setVisible(open);
        m_advancedToggle->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
    });

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(m_form);
    layout->addWidget(m_advancedToggle);
    layout->addWidget(m_advanced);
    layout->addStretch(1);

    connectCatalogControls();
    connectLinkControls();
    // A refused edit comes back as scenarioChanged(Any) with the last good scenario.
    connect(controller, &ScenarioController::scenarioChanged, this, &ScenarioPanel::syncChange);
    retranslate();
    syncFromScenario();
}

// Model: searchable, grouped by family, with config.json import beside it; its weights and KV.
void ScenarioPanel::buildModelRows()
{
    const Catalog& catalog = m_controller->catalog();
    m_model = new FittingComboBox(this);
    m_model->setEditable(true);
    m_model->setInsertPolicy(QComboBox::NoInsert);
    m_model->completer()->setFilterMode(Qt::MatchContains);
    m_model->completer()->setCompletionMode(QCompleter::PopupCompletion);
    m_model->setMaxVisibleItems(24);
    keepLeastWidth(m_model);
    m_import = new QPushButton(this);
    auto* modelRow = new QHBoxLayout;
    modelRow->addWidget(m_model, 1);
    modelRow->addWidget(m_import);
    m_form->addRow(new QLabel(this), modelRow);
    buildModelList();

    m_weights = new QSlider(Qt::Horizontal, this);
    m_weights->setRange(0, int(catalog.weightFormats.size()) - 1);
    m_weights->setTickPosition(QSlider::TicksBelow);
    m_weights->setPageStep(1);
    m_weightsLabel = new QLabel(this);
    // A long format name wraps rather than widening the panel past a projector's width.
    m_weightsLabel->setWordWrap(true);
    auto* weightsBox = new QVBoxLayout;
    weightsBox->setSpacing(0);
    weightsBox->addWidget(m_weights);
    weightsBox->addWidget(m_weightsLabel);
    m_form->addRow(new QLabel(this), weightsBox);

    m_kvDtype = new FittingComboBox(this);
    for (const KvDtype& d : catalog.kvDtypes)
        m_kvDtype->addItem(QString::fromStdString(d.name), QString::fromStdString(d.id));
    m_form->addRow(new QLabel(this), m_kvDtype);
}

// The GPU, how many, and the host link: generation (the registry's choices) and lanes.
void ScenarioPanel::buildHardwareRows()
{
    m_gpu = new FittingComboBox(this);
    m_gpu->setMaxVisibleItems(30);
    keepLeastWidth(m_gpu);
    buildGpuList();
    m_form->addRow(new QLabel(this), m_gpu);
    m_gpuCount = qobject_cast<QSpinBox*>(addSettingRow(m_form, this, "gpus")->widget());

    const Setting& pcie = *settingById("pcie");
    m_pcie = new QSlider(Qt::Horizontal, this);
    m_pcie->setRange(std::stoi(pcie.choices.front()), std::stoi(pcie.choices.back()));
    m_pcie->setPageStep(1);
    m_pcie->setTickPosition(QSlider::TicksBelow);
    m_pcieLabel = new QLabel(this);
    m_pcieLabel->setMinimumWidth(
        m_pcieLabel->fontMetrics().horizontalAdvance(QStringLiteral("PCIe 6.0")));
    m_lanes = new QComboBox(this);
    const std::vector<std::string>& lanes = settingById("lanes")->choices;
    for (auto it = lanes.rbegin(); it != lanes.rend(); ++it) // the widest link first
        m_lanes->addItem(QStringLiteral("x%1").arg(QString::fromStdString(*it)), std::stoi(*it));
    auto* pcieRow = new QHBoxLayout;
    pcieRow->addWidget(m_pcie, 1);
    pcieRow->addWidget(m_pcieLabel);
    pcieRow->addWidget(m_lanes);
    m_form->addRow(new QLabel(this), pcieRow);
}

void ScenarioPanel::buildWorkloadRows()
{
    m_context = new ContextControl(this);
    m_form->addRow(new QLabel(this), m_context);
    m_batch = qobject_cast<QSpinBox*>(addSettingRow(m_form, this, "batch")->widget());
    m_request = new RequestControl(m_controller, this);
    m_form->addRow(new QLabel(this), m_request);
}

// The engine with its release, expert offload, and where the KV cache lives.
void ScenarioPanel::buildEngineRows()
{
    m_engine = new FittingComboBox(this);
    for (const EngineProfile& e : m_controller->catalog().engines)
        m_engine->addItem(QString::fromStdString(e.name), QString::fromStdString(e.id));
    m_release = new EngineReleaseControl(m_controller, this);
    auto* engineRow = new QHBoxLayout;
    engineRow->addWidget(m_engine, 1);
    engineRow->addWidget(m_release);
    m_form->addRow(new QLabel(this), engineRow);
    m_experts = new ExpertOffloadControl(m_controller, this);
    m_form->addRow(new QLabel(this), m_experts);
    m_placement = new FittingComboBox(this);
    for (KvPlacement p :
         {KvPlacement::Gpu, KvPlacement::CpuRam, KvPlacement::Nvme, KvPlacement::Sata})
        m_placement->addItem(QString(), int(p));
    m_form->addRow(new QLabel(this), m_placement);
    addSettingRow(m_form, this, "prefetch_kv");
}

// The lists of catalog entries write their setting by id, as the CLI's flags do.
void ScenarioPanel::connectCatalogControls()
{
    connect(m_import, &QPushButton::clicked, this, &ScenarioPanel::importConfigRequested);
    connect(m_model, &QComboBox::activated, this, [this](int index) {
        const std::string id = m_model->itemData(index).toString().toStdString();
        if (m_controller->catalog().model(id)) // not a family's header
            m_controller->applySetting("model", id);
    });
    connect(m_weights, &QSlider::valueChanged, this, [this](int index) {
        const auto& formats = m_controller->catalog().weightFormats;
        if (index >= 0 && size_t(index) < formats.size())
            m_controller->applySetting("weights", formats[size_t(index)].id);
        else if (size_t(index) == formats.size()) // the last stop: as the model's file holds them
            m_controller->applySetting("weights", kFileWeightFormatId);
    });
    connect(m_kvDtype, &QComboBox::activated, this, [this](int index) {
        m_controller->applySetting("kv_dtype", m_kvDtype->itemData(index).toString().toStdString());
    });
    connect(m_gpu, &QComboBox::activated, this, [this](int index) {
        const QString id = m_gpu->itemData(index).toString();
        if (id == kCustomGpuId)
            return editCustomGpu();
        if (m_controller->catalog().gpu(id.toStdString())) // not a group's header
            m_controller->applySetting("gpu", id.toStdString());
    });
    connect(m_engine, &QComboBox::activated, this, [this](int index) {
        m_controller->applySetting("engine", m_engine->itemData(index).toString().toStdString());
    });
}

void ScenarioPanel::connectLinkControls()
{
    connect(m_pcie, &QSlider::valueChanged, this,
            [this](int gen) { m_controller->applySetting("pcie", std::to_string(gen)); });
    connect(m_lanes, &QComboBox::activated, this, [this](int index) {
        m_controller->applySetting("lanes", std::to_string(m_lanes->itemData(index).toInt()));
    });
    // The drag path: a context-only change moves only the charts' markers.
    connect(m_context, &ContextControl::valueChanged, this,
            [this](int64_t tokens) { m_controller->setContext(tokens); });
    connect(m_placement, &QComboBox::activated, this, [this](int index) {
        const auto placement = KvPlacement(m_placement->itemData(index).toInt());
        m_controller->applySetting("kv_placement", kvPlacementId(placement));
    });
}

void ScenarioPanel::buildModelList()
{
    const QSignalBlocker blocker(m_model);
    m_model->clear();
    const Scenario& s = m_controller->scenario();
    if (s.model.imported)
        m_model->addItem(tr("%1 (imported)").arg(QString::fromStdString(s.model.name)),
                         kImportedId);
    std::string family;
    for (const ModelSpec& m : m_controller->catalog().models) {
        if (m.family != family) {
            family = m.family;
            addGroupHeader(m_model, QString::fromStdString(family));
        }
        m_model->addItem(QStringLiteral("  ") + QString::fromStdString(m.name),
                         QString::fromStdString(m.id));
    }
}

void ScenarioPanel::buildGpuList()
{
    const QSignalBlocker blocker(m_gpu);
    m_gpu->clear();
    const Scenario& s = m_controller->scenario();
    std::vector<std::string> groups;
    for (const GpuSpec& g : m_controller->catalog().gpus)
        if (std::find(groups.begin(), groups.end(), g.group) == groups.end())
            groups.push_back(g.group);
    for (const std::string& group : groups) {
        addGroupHeader(m_gpu, QString::fromStdString(group));
        for (const GpuSpec& g : m_controller->catalog().gpus)
            if (g.group == group)
                m_gpu->addItem(QStringLiteral("  %1 (%2 GiB)")
                                   .arg(QString::fromStdString(g.name))
                                   .arg(g.memoryGiB),
                               QString::fromStdString(g.id));
    }
    m_gpu->insertSeparator(m_gpu->count());
    m_gpu->addItem(s.gpu.custom ? tr("Custom: %1 (%2 GiB)...")
                                      .arg(QString::fromStdString(s.gpu.name),
                                           UiText::compact(s.gpu.memoryGiB))
                                : tr("Custom GPU..."),
                   kCustomGpuId);
}

void ScenarioPanel::editCustomGpu()
{
    GpuSpec gpu = m_controller->scenario().gpu;
    if (CustomGpuDialog::edit(this, gpu)) {
        gpu.custom = true;
        m_controller->edit([&](Scenario& s) { applyGpu(s, gpu, m_controller->catalog()); });
    } else {
        syncFromScenario();
    }
}

void ScenarioPanel::syncChange(ScenarioController::Change change)
{
    // A context drag changes one field: re-syncing some forty controls on every step of it
    // would cost more than the step's evaluation.
    if (change != ScenarioController::Change::Context)
        syncFromScenario();
    else if (m_context->value() != m_controller->scenario().context) // not set by the drag itself
        m_context->setValue(m_controller->scenario().context);
}

void ScenarioPanel::syncFromScenario()
{
    const Scenario& s = m_controller->scenario();
    const Catalog& c = m_controller->catalog();
    // The lists change only when an imported model or a custom GPU comes or goes (or its name
    // changes); rebuilding them on every slider step would cost more than the evaluation.
    const QString importedName =
        s.model.imported ? QString::fromStdString(s.model.name) : QString();
    const QString customGpu =
        s.gpu.custom ? QString::fromStdString(s.gpu.name) + QString::number(s.gpu.memoryGiB)
                     : QString();
    if (importedName != m_listedImport || m_model->count() == 0) {
        m_listedImport = importedName;
        buildModelList();
    }
    if (customGpu != m_listedCustomGpu || m_gpu->count() == 0) {
        m_listedCustomGpu = customGpu;
        buildGpuList();
    }
    std::vector<std::unique_ptr<QSignalBlocker>> blockers;
    for (QWidget* w : findChildren<QWidget*>())
        blockers.push_back(std::make_unique<QSignalBlocker>(w));

    selectData(m_model, s.model.imported ? kImportedId : QString::fromStdString(s.model.id));
    fitModelBox();
    m_model->showFittedEditText(); // a name too long for the box, shortened between words
    const int formats = int(c.weightFormats.size());
    m_weights->setRange(0, s.model.fileWeights.present() ? formats : formats - 1);
    for (size_t i = 0; i < c.weightFormats.size(); ++i)
        if (c.weightFormats[i].id == s.weights.id)
            m_weights->setValue(int(i));
    if (s.weights.id == kFileWeightFormatId)
        m_weights->setValue(formats);
    m_weightsLabel->setText(
        withoutForbiddenBreaks(tr("%1 · %2 bits per weight")
                                   .arg(QString::fromStdString(s.weights.name),
                                        UiText::compact(s.weights.bitsPerWeight, 2))));
    selectData(m_kvDtype, QString::fromStdString(s.kvDtype.id));
    selectData(m_gpu, s.gpu.custom ? kCustomGpuId : QString::fromStdString(s.gpu.id));
    m_pcie->setValue(s.pcie.gen);
    m_pcieLabel->setText(QStringLiteral("PCIe %1.0").arg(s.pcie.gen));
    selectData(m_lanes, s.pcieLanes);
    m_context->setValue(s.context);
    m_context->setModelMaximum(s.model.maxContext);
    m_request->sync();
    selectData(m_engine, QString::fromStdString(s.engine.id));
    m_release->sync();
    m_experts->sync();
    showRows();
    selectData(m_placement, int(s.kvPlacement));
    selectData(m_nvme, QString::fromStdString(s.nvme.id));
    selectData(m_host, QString::fromStdString(s.hostMemory.id));
    for (const auto& [id, control] : m_settingControls)
        control->sync(s);
    // Prefetching pipelines reads from CPU RAM; the other placements have nothing to overlap.
    settingControl("prefetch_kv")->widget()->setEnabled(s.kvPlacement == KvPlacement::CpuRam);
    syncHostRam(s);
}

void ScenarioPanel::setKeyControlsOnly(bool on)
{
    m_keyControlsOnly = on;
    // The six key controls keep their labels beside them. Wrapped rows make the form's height
    // follow its width, and a column laid out before its presentation font squeezed the
    // weights and context rows to nothing by that height.
    m_form->setRowWrapPolicy(on ? QFormLayout::DontWrapRows : QFormLayout::WrapLongRows);
    showRows();
}

void ScenarioPanel::showRows()
{
    // What a conversation in front of a customer turns: the model, its weights, the GPU, how
    // many, the host link and the context. Everything else waits in the drawer.
    const QWidget* key[] = {m_model, m_weights, m_gpu, m_gpuCount, m_pcie, m_context};
    for (int r = 0; r < m_form->rowCount(); ++r) {
        const bool isKey = std::any_of(std::begin(key), std::end(key),
                                       [&](const QWidget* w) { return rowOf(m_form, w) == r; });
        const bool applies = r != rowOf(m_form, m_experts) || m_experts->applies();
        m_form->setRowVisible(r, applies && (isKey || !m_keyControlsOnly));
    }
    m_advancedToggle->setVisible(!m_keyControlsOnly);
    m_advanced->setVisible(!m_keyControlsOnly && m_advancedToggle->isChecked());
    // The model's whole name, not the button beside it, in front of a customer: the button
    // took the width a name like "DeepSeek-R1-Distill-Llama 70B" needs. File > Import stays.
    m_import->setVisible(!m_keyControlsOnly);
    fitModelBox();
}

// In front of a customer the model is named whole, all but its tuning
// ("DeepSeek-R1-Distill-Llama 70B", not "DeepSeek-R…"): the box, and so the column, widen for
// it. Otherwise the box keeps its least width, shortens the name and says it whole on hover.
void ScenarioPanel::fitModelBox()
{
    int least = 0;
    if (m_keyControlsOnly && m_model->currentIndex() >= 0) {
        const QString name =
            FittingComboBox::shortestName(m_model->itemText(m_model->currentIndex()));
        QStyleOptionComboBox option;
        option.initFrom(m_model);
        option.editable = true;
        // The line edit's own margins and cursor: a few pixels past the text's advance.
        const QSize text(m_model->fontMetrics().horizontalAdvance(name) + 12, m_model->height());
        least =
            m_model->style()->sizeFromContents(QStyle::CT_ComboBox, &option, text, m_model).width();
    }
    m_model->setMinimumWidth(least);
}

// Rows hidden or shown before the window was first shown (presentation mode from the command
// line) are laid out again now that their widgets exist on screen.
void ScenarioPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    showRows();
}

void ScenarioPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    if (event->type() == QEvent::FontChange) // presentation mode's larger font
        fitModelBox();
    QWidget::changeEvent(event);
}

void ScenarioPanel::retranslate()
{
    auto label = [this](QFormLayout* form, QWidget* field, const QString& text) {
        if (QLabel* l = formLabel(form, field))
            l->setText(text);
    };
    auto rowLabel = [this](QWidget* fieldInRow, const QString& text) {
        if (const int row = rowOf(m_form, fieldInRow); row >= 0)
            if (auto* l =
                    qobject_cast<QLabel*>(m_form->itemAt(row, QFormLayout::LabelRole)->widget()))
                l->setText(text);
    };
    rowLabel(m_model, tr("Model"));
    m_import->setText(tr("Import model..."));
    m_import->setToolTip(tr("A Hugging Face config.json or a GGUF model file"));
    m_model->setToolTip(
        tr("Type to search; drop a config.json or a GGUF file on the window to import it"));
    rowLabel(m_weights, tr("Weights"));
    label(m_form, m_kvDtype, tr("KV cache dtype"));
    label(m_form, m_gpu, tr("GPU"));
    label(m_form, m_gpuCount, tr("GPUs (all nodes)"));
    rowLabel(m_pcie, tr("Host link"));
    label(m_form, m_context, tr("Context length"));
    m_context->retranslate();
    label(m_form, m_batch, tr("Concurrent sequences"));
    label(m_form, m_request, tr("Request: prompt + answer"));
    m_request->retranslate();
    rowLabel(m_engine, tr("Engine"));
    m_release->retranslate();
    label(m_form, m_experts, tr("MoE experts in host RAM"));
    m_experts->retranslate();
    label(m_form, m_placement, tr("KV cache placement"));
    for (int i = 0; i < m_placement->count(); ++i)
        m_placement->setItemText(
            i, UiText::placementName(KvPlacement(m_placement->itemData(i).toInt())));
    const QString prefetch = tr("Prefetch the next layer while computing (pipelined)");
    settingControl("prefetch_kv")->setLabelText(prefetch);
    label(m_form, settingControl("prefetch_kv")->widget(), QString());
    m_advancedToggle->setText(tr("Advanced: efficiencies and overheads"));
    retranslateAdvanced();
    for (QFormLayout* form : {m_form, m_advancedForm})
        for (int row = 0; row < form->rowCount(); ++row)
            nameRowControls(form, row);
    syncFromScenario();
}

} // namespace kvscope::ui
