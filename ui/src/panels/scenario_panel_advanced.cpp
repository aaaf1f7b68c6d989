// SPDX-License-Identifier: GPL-3.0-or-later
// The scenario panel's "Advanced" drawer: engine limits, offload targets, host memory and the
// efficiency factors, each writing into the scenario through the controller.
#include "panels/scenario_panel.h"

#include "panels/registry_ranges.h"

#include "kvscope/base/limits.h"
#include "kvscope/model/efficiency.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>

namespace kvscope::ui {

QWidget* ScenarioPanel::buildAdvanced()
{
    const Catalog& catalog = m_controller->catalog();
    auto* box = new QWidget(this);
    m_advancedForm = new QFormLayout(box);
    m_advancedForm->setContentsMargins(12, 0, 0, 0);
    m_advancedForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    m_memUtil = new QDoubleSpinBox(box);
    m_memUtil->setDecimals(2);
    setRegistryRange(m_memUtil, "gpu_mem_util");
    m_memUtil->setSingleStep(0.01);
    m_memUtil->setKeyboardTracking(false);
    m_advancedForm->addRow(new QLabel(box), m_memUtil);
    connect(m_memUtil, &QDoubleSpinBox::valueChanged, this,
            [this](double f) { m_controller->edit([&](Scenario& s) { s.memoryFraction = f; }); });

    m_overhead = new QDoubleSpinBox(box);
    m_overhead->setDecimals(0);
    setRegistryRange(m_overhead, "runtime_overhead_mib");
    m_overhead->setSuffix(QStringLiteral(" MiB"));
    m_overhead->setKeyboardTracking(false);
    m_advancedForm->addRow(new QLabel(box), m_overhead);
    connect(m_overhead, &QDoubleSpinBox::valueChanged, this, [this](double mib) {
        m_controller->edit([&](Scenario& s) { s.engine.runtimeOverheadMiB = mib; });
    });

    m_blockSize = new QSpinBox(box);
    setRegistryRange(m_blockSize, "block_size");
    m_blockSize->setKeyboardTracking(false);
    m_advancedForm->addRow(new QLabel(box), m_blockSize);
    connect(m_blockSize, &QSpinBox::valueChanged, this, [this](int n) {
        m_controller->edit([&](Scenario& s) { s.engine.kvBlockTokens = n; });
    });

    m_prefillChunk = new QSpinBox(box);
    setRegistryRange(m_prefillChunk, "prefill_chunk_tokens");
    m_prefillChunk->setKeyboardTracking(false);
    m_prefillChunk->setGroupSeparatorShown(true);
    m_advancedForm->addRow(new QLabel(box), m_prefillChunk);
    connect(m_prefillChunk, &QSpinBox::valueChanged, this, [this](int n) {
        m_controller->edit([&](Scenario& s) { s.engine.prefillChunkTokens = n; });
    });

    m_maxNumSeqs = new QSpinBox(box);
    setRegistryRange(m_maxNumSeqs, "max_num_seqs");
    m_maxNumSeqs->setKeyboardTracking(false);
    m_advancedForm->addRow(new QLabel(box), m_maxNumSeqs);
    connect(m_maxNumSeqs, &QSpinBox::valueChanged, this,
            [this](int n) { m_controller->edit([&](Scenario& s) { s.engine.maxNumSeqs = n; }); });

    // -1 stands for "all layers", llama.cpp's -ngl 999.
    m_gpuLayers = new QSpinBox(box);
    setRegistryRange(m_gpuLayers, "n_gpu_layers", 1);
    m_gpuLayers->setKeyboardTracking(false);
    m_advancedForm->addRow(new QLabel(box), m_gpuLayers);
    connect(m_gpuLayers, &QSpinBox::valueChanged, this, [this](int n) {
        m_controller->edit(
            [&](Scenario& s) { s.gpuLayers = n < 0 ? std::nullopt : std::optional<int64_t>(n); });
    });

    m_splitMode = new QComboBox(box);
    m_splitMode->addItem(QString(), false);
    m_splitMode->addItem(QString(), true);
    m_advancedForm->addRow(new QLabel(box), m_splitMode);
    connect(m_splitMode, &QComboBox::activated, this, [this](int index) {
        const bool layer = m_splitMode->itemData(index).toBool();
        m_controller->edit([&](Scenario& s) { s.engine.layerSplit = layer; });
    });

    m_offloadWeights = new QCheckBox(box);
    m_advancedForm->addRow(new QLabel(box), m_offloadWeights);
    connect(m_offloadWeights, &QCheckBox::toggled, this,
            [this](bool on) { m_controller->edit([&](Scenario& s) { s.offloadWeights = on; }); });

    m_nvme = new QComboBox(box);
    for (const StorageTier& t : catalog.storage)
        if (t.kind == "nvme")
            m_nvme->addItem(QString::fromStdString(t.name), QString::fromStdString(t.id));
    m_advancedForm->addRow(new QLabel(box), m_nvme);
    connect(m_nvme, &QComboBox::activated, this, [this](int index) {
        if (const StorageTier* t = m_controller->catalog().storageTier(
                m_nvme->itemData(index).toString().toStdString()))
            m_controller->edit([&](Scenario& s) { s.nvme = *t; });
    });
    m_host = new QComboBox(box);
    for (const HostMemory& h : catalog.hostMemory)
        m_host->addItem(QString::fromStdString(h.name), QString::fromStdString(h.id));
    m_advancedForm->addRow(new QLabel(box), m_host);
    connect(m_host, &QComboBox::activated, this, [this](int index) {
        if (const HostMemory* h =
                m_controller->catalog().host(m_host->itemData(index).toString().toStdString()))
            m_controller->edit([&](Scenario& s) {
                s.hostMemory = *h;
                s.hostMemoryGBps.reset(); // the chosen platform's bandwidth, not an older figure
            });
    });
    // A machine's own figure (0: the platform's above), and how much host RAM it has (0: not
    // stated, so not checked): what experts and layers kept in host RAM read and fill.
    m_hostBandwidth = new QDoubleSpinBox(box);
    m_hostBandwidth->setDecimals(1);
    m_hostBandwidth->setRange(0, limits::maxRateGBps);
    m_hostBandwidth->setSuffix(QStringLiteral(" GB/s"));
    m_hostBandwidth->setKeyboardTracking(false);
    m_advancedForm->addRow(new QLabel(box), m_hostBandwidth);
    connect(m_hostBandwidth, &QDoubleSpinBox::valueChanged, this, [this](double gbps) {
        m_controller->edit([&](Scenario& s) {
            s.hostMemoryGBps = gbps > 0 ? std::optional<double>(gbps) : std::nullopt;
        });
    });
    m_hostRam = new QDoubleSpinBox(box);
    m_hostRam->setDecimals(0);
    setRegistryRange(m_hostRam, "host_ram_gib");
    m_hostRam->setSuffix(QStringLiteral(" GiB"));
    m_hostRam->setKeyboardTracking(false);
    m_advancedForm->addRow(new QLabel(box), m_hostRam);
    connect(m_hostRam, &QDoubleSpinBox::valueChanged, this,
            [this](double gib) { m_controller->edit([&](Scenario& s) { s.hostRamGiB = gib; }); });

    for (const EfficiencyFactor& factor : catalog.efficiencyFactors) {
        auto* spin = new QDoubleSpinBox(box);
        spin->setDecimals(factor.unit == "fraction" ? 2 : 1);
        setRegistryRange(spin, factor.id.c_str());
        spin->setSingleStep(factor.unit == "fraction" ? 0.01 : 0.5);
        spin->setKeyboardTracking(false);
        spin->setToolTip(QString::fromStdString(factor.source));
        const std::string id = factor.id;
        m_efficiency[id] = spin;
        m_advancedForm->addRow(new QLabel(box), spin);
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this, id](double value) {
            m_controller->edit([&](Scenario& s) {
                if (double* field = efficiencyField(s.efficiency, id))
                    *field = value;
            });
        });
    }
    return box;
}

} // namespace kvscope::ui
