// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/custom_gpu_dialog.h"

#include "kvscope/scenario/scenario.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QPushButton>

namespace kvscope::ui {

CustomGpuDialog::CustomGpuDialog(QWidget* parent, const GpuSpec& gpu) : QDialog(parent)
{
    setWindowTitle(tr("Custom GPU"));
    auto* form = new QFormLayout(this);
    buildFigures(form, gpu);
    buildPrice(form, gpu);
    buildButtons(form);
}

bool CustomGpuDialog::edit(QWidget* parent, GpuSpec& gpu)
{
    CustomGpuDialog dialog(parent, gpu);
    if (dialog.exec() != QDialog::Accepted)
        return false;
    dialog.writeTo(gpu);
    return true;
}

QDoubleSpinBox* CustomGpuDialog::spinBox(double value, double max, int decimals,
                                         const QString& suffix)
{
    auto* box = new QDoubleSpinBox(this);
    box->setRange(0.0, max);
    box->setDecimals(decimals);
    box->setValue(value);
    box->setSuffix(suffix);
    return box;
}

// The datasheet: name, memory, bandwidth, tensor throughput, compute capability and host link.
void CustomGpuDialog::buildFigures(QFormLayout* form, const GpuSpec& gpu)
{
    m_name =
        new QLineEdit(QString::fromStdString(gpu.custom ? gpu.name : gpu.name + " (custom)"), this);
    m_memory = spinBox(gpu.memoryGiB, limits::maxMemoryGiB, 1, QStringLiteral(" GiB"));
    m_bandwidth = spinBox(gpu.bandwidthGBps, limits::maxRateGBps, 0, QStringLiteral(" GB/s"));
    m_fp16 = spinBox(gpu.fp16Tflops, limits::maxTflops, 1, QStringLiteral(" TFLOPS"));
    m_fp8 = spinBox(gpu.fp8Tflops, limits::maxTflops, 1, QStringLiteral(" TFLOPS"));
    // Picks the MoE kernels' weight layouts (see expert_layouts in the weight formats).
    m_capability = spinBox(gpu.computeCapability, 20.0, 1, QString());
    m_capability->setSingleStep(0.1);
    m_capability->setSpecialValueText(tr("not an NVIDIA GPU"));
    m_capability->setToolTip(
        tr("CUDA compute capability, as NVIDIA lists it: 8.0 A100, 8.9 RTX 4090 "
           "and L40S, 9.0 H100, 10.0 B200, 12.0 RTX 5090."));
    m_memoryType = memoryTypeBox(gpu);
    m_pcie = new QComboBox(this);
    for (int gen : {3, 4, 5, 6})
        m_pcie->addItem(QStringLiteral("PCIe %1.0").arg(gen), gen);
    m_pcie->setCurrentIndex(std::max(0, m_pcie->findData(gpu.pcieGen)));
    m_unified = new QCheckBox(tr("Unified memory (CPU and GPU share it)"), this);
    m_unified->setChecked(gpu.unifiedMemory);
    m_name->setObjectName(QStringLiteral("name"));
    m_memory->setObjectName(QStringLiteral("memory"));
    m_bandwidth->setObjectName(QStringLiteral("bandwidth"));
    m_capability->setObjectName(QStringLiteral("computeCapability"));
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Memory"), m_memory);
    form->addRow(tr("Memory bandwidth"), m_bandwidth);
    form->addRow(tr("Memory type"), m_memoryType);
    form->addRow(tr("FP16 tensor (dense)"), m_fp16);
    form->addRow(tr("FP8 tensor (dense, 0 = none)"), m_fp8);
    form->addRow(tr("Compute capability"), m_capability);
    form->addRow(tr("Host link"), m_pcie);
    form->addRow(QString(), m_unified);
}

// HBM or not decides llama.cpp's per-layer cost (engines.json hbm_layer_us); the catalog GPU's
// own type ("HBM3e") is kept while its kind is.
QComboBox* CustomGpuDialog::memoryTypeBox(const GpuSpec& gpu)
{
    auto* box = new QComboBox(this);
    box->setObjectName(QStringLiteral("memoryType"));
    box->addItem(tr("HBM (stacked on the package)"), QStringLiteral("HBM"));
    box->addItem(tr("GDDR"), QStringLiteral("GDDR"));
    box->addItem(tr("LPDDR (unified memory)"), QStringLiteral("LPDDR"));
    box->addItem(tr("Not stated"), QString());
    int index = box->count() - 1;
    for (int i = 0; i + 1 < box->count(); ++i)
        if (QString::fromStdString(gpu.memoryType).startsWith(box->itemData(i).toString()))
            index = i;
    box->setCurrentIndex(index);
    box->setToolTip(tr("On a GPU with HBM (V100, A100, H100, MI300X) llama.cpp spends more "
                       "time per layer than its reads take."));
    return box;
}

// The price the dialog edits: the rental one where the GPU has it, else the purchase one.
const GpuPrice& CustomGpuDialog::shownPrice(const GpuSpec& gpu)
{
    return gpu.prices.rental.kind != GpuPrice::Kind::Unknown ? gpu.prices.rental
                                                             : gpu.prices.purchase;
}

// The planner's cost: what one GPU costs an hour to rent, or what it cost to buy (written off
// over the scenario's amortization period). Kept when the catalog GPU had a price.
void CustomGpuDialog::buildPrice(QFormLayout* form, const GpuSpec& gpu)
{
    m_priceKind = new QComboBox(this);
    m_priceKind->setObjectName(QStringLiteral("priceKind"));
    m_priceKind->addItem(tr("No price"), int(GpuPrice::Kind::Unknown));
    m_priceKind->addItem(tr("Rented, per GPU-hour"), int(GpuPrice::Kind::Rental));
    m_priceKind->addItem(tr("Bought, per GPU"), int(GpuPrice::Kind::Purchase));
    const GpuPrice& shown = shownPrice(gpu);
    m_priceKind->setCurrentIndex(std::max(0, m_priceKind->findData(int(shown.kind))));
    m_price = spinBox(shown.kind == GpuPrice::Kind::Rental ? shown.usdPerHour : shown.usd, 1e7, 2,
                      QStringLiteral(" USD"));
    m_price->setObjectName(QStringLiteral("price"));
    form->addRow(tr("Price"), m_priceKind);
    form->addRow(QString(), m_price);
    auto priceShown = [this] { m_price->setEnabled(m_priceKind->currentIndex() > 0); };
    connect(m_priceKind, &QComboBox::currentIndexChanged, this, priceShown);
    priceShown();
}

// OK stays off until the figures a GPU cannot do without are given.
void CustomGpuDialog::buildButtons(QFormLayout* form)
{
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    form->addRow(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto update = [this] {
        m_buttons->button(QDialogButtonBox::Ok)
            ->setEnabled(m_memory->value() > 0 && m_bandwidth->value() > 0 && m_fp16->value() > 0 &&
                         !m_name->text().trimmed().isEmpty());
    };
    for (QDoubleSpinBox* box : {m_memory, m_bandwidth, m_fp16})
        connect(box, &QDoubleSpinBox::valueChanged, this, update);
    connect(m_name, &QLineEdit::textChanged, this, update);
    update();
}

void CustomGpuDialog::writeTo(GpuSpec& gpu) const
{
    gpu.id = "custom";
    gpu.name = m_name->text().trimmed().toStdString();
    gpu.group = "Custom";
    gpu.source = "entered by the user";
    gpu.memoryGiB = m_memory->value();
    gpu.bandwidthGBps = m_bandwidth->value();
    gpu.fp16Tflops = m_fp16->value();
    gpu.fp8Tflops = m_fp8->value();
    gpu.computeCapability = m_capability->value();
    gpu.pcieGen = m_pcie->currentData().toInt();
    gpu.pcieLanes = 16;
    gpu.unifiedMemory = m_unified->isChecked();
    const std::string kind = m_memoryType->currentData().toString().toStdString();
    if (kind.empty() || !gpu.memoryType.starts_with(kind))
        gpu.memoryType = kind;
    gpu.usableFraction = 1.0;
    writePriceTo(gpu);
}

// A price the user left as it was keeps its catalog source.
void CustomGpuDialog::writePriceTo(GpuSpec& gpu) const
{
    const auto kind = GpuPrice::Kind(m_priceKind->currentData().toInt());
    const double value = m_price->value();
    const GpuPrice& shown = shownPrice(gpu);
    if (kind == shown.kind &&
        value == (kind == GpuPrice::Kind::Rental ? shown.usdPerHour : shown.usd))
        return;
    if (kind == GpuPrice::Kind::Unknown || value <= 0) {
        gpu.prices = {}; // "No price": on neither basis
        return;
    }
    GpuPrice entered;
    entered.kind = kind;
    (kind == GpuPrice::Kind::Rental ? entered.usdPerHour : entered.usd) = value;
    entered.source = "entered by the user";
    gpu.prices.set(entered);
}

} // namespace kvscope::ui
