// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "panels/fitting_combo_box.h"
#include "window/scenario_controller.h"

#include "kvscope/scenario/setting.h"

#include <QWidget>

#include <map>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;
class QToolButton;

namespace kvscope::ui {

class EngineReleaseControl;
class RequestControl;
class ExpertOffloadControl;

class ContextControl;

class SettingControl;

// Every input of the scenario. Each control writes into the controller; the panel redisplays
// whatever scenario the controller holds (after open, import or a rejected value).
class ScenarioPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ScenarioPanel(ScenarioController* controller, QWidget* parent = nullptr);

    // Named controls, for tests and the benchmark.
    QComboBox* modelBox() const { return m_model; }
    QSlider* weightSlider() const { return m_weights; }
    QComboBox* kvDtypeBox() const { return m_kvDtype; }
    QComboBox* gpuBox() const { return m_gpu; }
    QSpinBox* gpuCountBox() const { return m_gpuCount; }
    QSlider* pcieSlider() const { return m_pcie; }
    QComboBox* lanesBox() const { return m_lanes; }
    ContextControl* contextControl() const { return m_context; }
    QSpinBox* batchBox() const { return m_batch; }
    QComboBox* engineBox() const { return m_engine; }
    QSpinBox* maxNumSeqsBox() const;
    QComboBox* placementBox() const { return m_placement; }
    QDoubleSpinBox* efficiencyBox(const std::string& id) const;

    // Presentation mode: only the key controls (model, weights, GPU, GPUs, host link, context);
    // off shows every row again.
    void setKeyControlsOnly(bool on);
    bool keyControlsOnly() const { return m_keyControlsOnly; }

signals:
    void importConfigRequested();

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void buildModelList();
    void buildGpuList();
    void syncChange(ScenarioController::Change change);
    void syncFromScenario();
    void retranslate();
    void editCustomGpu();
    void buildModelRows();
    void buildHardwareRows();
    void buildWorkloadRows();
    void buildEngineRows();
    void connectCatalogControls();
    void connectLinkControls();
    QWidget* buildAdvanced();
    void addStorageAndHostRows(QWidget* box);
    // A registry entry's control in `form`, with an empty label for retranslate() to fill.
    SettingControl* addSettingRow(QFormLayout* form, QWidget* parent, const char* id);
    void addDrawerRows(QWidget* box, ControlPlace place);
    SettingControl* settingControl(const std::string& id) const;
    void retranslateAdvanced();
    void syncHostRam(const Scenario& s); // what 0 GiB (the platform's) stands for
    void fitModelBox();
    void showRows(); // the rows the scenario and setKeyControlsOnly call for

    ScenarioController* m_controller;
    QFormLayout* m_form = nullptr;
    FittingComboBox* m_model = nullptr;
    QPushButton* m_import = nullptr;
    QSlider* m_weights = nullptr;
    QLabel* m_weightsLabel = nullptr;
    QComboBox* m_kvDtype = nullptr;
    FittingComboBox* m_gpu = nullptr;
    QSpinBox* m_gpuCount = nullptr;
    QSlider* m_pcie = nullptr;
    QLabel* m_pcieLabel = nullptr;
    QComboBox* m_lanes = nullptr;
    ContextControl* m_context = nullptr;
    QSpinBox* m_batch = nullptr;
    RequestControl* m_request = nullptr; // the serving workload's average request
    QComboBox* m_engine = nullptr;
    EngineReleaseControl* m_release = nullptr;
    ExpertOffloadControl* m_experts = nullptr;
    QComboBox* m_placement = nullptr;
    QToolButton* m_advancedToggle = nullptr;
    QWidget* m_advanced = nullptr;
    QFormLayout* m_advancedForm = nullptr;
    QComboBox* m_nvme = nullptr;
    QComboBox* m_host = nullptr;
    // The controls SettingControl makes from registry entries, by setting id: the drawer's
    // settings, the GPU count, the batch and the prefetch switch.
    std::map<std::string, SettingControl*> m_settingControls;
    QString m_listedImport;    // the imported model the model list shows, if any
    QString m_listedCustomGpu; // the custom GPU the GPU list shows, if any
    bool m_keyControlsOnly = false;
};

} // namespace kvscope::ui
