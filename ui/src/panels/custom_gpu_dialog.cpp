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

CustomGpuDialog::CustomGpuDialog(QWidget* parent) : QDialog(parent) {}

bool CustomGpuDialog::edit(QWidget* parent, GpuSpec& gpu)
{
    CustomGpuDialog dialog(parent);
    dialog.setWindowTitle(tr("Custom GPU"));
    auto* form = new QFormLayout(&dialog);
    auto spin = [&](double value, double max, int decimals, const QString& suffix) {
        auto* box = new QDoubleSpinBox(&dialog);
        box->setRange(0.0, max);
        box->setDecimals(decimals);
        box->setValue(value);
        box->setSuffix(suffix);
        return box;
    };
    auto* name = new QLineEdit(
        QString::fromStdString(gpu.custom ? gpu.name : gpu.name + " (custom)"), &dialog);
    auto* memory = spin(gpu.memoryGiB, limits::maxMemoryGiB, 1, QStringLiteral(" GiB"));
    auto* bandwidth = spin(gpu.bandwidthGBps, limits::maxRateGBps, 0, QStringLiteral(" GB/s"));
    auto* fp16 = spin(gpu.fp16Tflops, limits::maxTflops, 1, QStringLiteral(" TFLOPS"));
    auto* fp8 = spin(gpu.fp8Tflops, limits::maxTflops, 1, QStringLiteral(" TFLOPS"));
    // Picks the MoE kernels' weight layouts (see expert_layouts in the weight formats).
    auto* capability = spin(gpu.computeCapability, 20.0, 1, QString());
    capability->setSingleStep(0.1);
    capability->setSpecialValueText(tr("not an NVIDIA GPU"));
    capability->setToolTip(tr("CUDA compute capability, as NVIDIA lists it: 8.0 A100, 8.9 RTX 4090 "
                              "and L40S, 9.0 H100, 10.0 B200, 12.0 RTX 5090."));
    auto* pcie = new QComboBox(&dialog);
    for (int gen : {3, 4, 5, 6})
        pcie->addItem(QStringLiteral("PCIe %1.0").arg(gen), gen);
    pcie->setCurrentIndex(std::max(0, pcie->findData(gpu.pcieGen)));
    // The planner's cost: what one GPU costs an hour to rent, or what it cost to buy (written
    // off over the scenario's amortization period). Kept when the catalog GPU had a price.
    auto* priceKind = new QComboBox(&dialog);
    priceKind->setObjectName(QStringLiteral("priceKind"));
    priceKind->addItem(tr("No price"), int(GpuPrice::Kind::Unknown));
    priceKind->addItem(tr("Rented, per GPU-hour"), int(GpuPrice::Kind::Rental));
    priceKind->addItem(tr("Bought, per GPU"), int(GpuPrice::Kind::Purchase));
    priceKind->setCurrentIndex(std::max(0, priceKind->findData(int(gpu.price.kind))));
    auto* price =
        spin(gpu.price.kind == GpuPrice::Kind::Rental ? gpu.price.usdPerHour : gpu.price.usd, 1e7,
             2, QStringLiteral(" USD"));
    price->setObjectName(QStringLiteral("price"));
    auto* unified = new QCheckBox(tr("Unified memory (CPU and GPU share it)"), &dialog);
    unified->setChecked(gpu.unifiedMemory);
    name->setObjectName(QStringLiteral("name"));
    memory->setObjectName(QStringLiteral("memory"));
    bandwidth->setObjectName(QStringLiteral("bandwidth"));
    capability->setObjectName(QStringLiteral("computeCapability"));
    form->addRow(tr("Name"), name);
    form->addRow(tr("Memory"), memory);
    form->addRow(tr("Memory bandwidth"), bandwidth);
    form->addRow(tr("FP16 tensor (dense)"), fp16);
    form->addRow(tr("FP8 tensor (dense, 0 = none)"), fp8);
    form->addRow(tr("Compute capability"), capability);
    form->addRow(tr("Host link"), pcie);
    form->addRow(QString(), unified);
    form->addRow(tr("Price"), priceKind);
    form->addRow(QString(), price);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto update = [&] {
        buttons->button(QDialogButtonBox::Ok)
            ->setEnabled(memory->value() > 0 && bandwidth->value() > 0 && fp16->value() > 0 &&
                         !name->text().trimmed().isEmpty());
    };
    for (QDoubleSpinBox* box : {memory, bandwidth, fp16})
        connect(box, &QDoubleSpinBox::valueChanged, &dialog, update);
    connect(name, &QLineEdit::textChanged, &dialog, update);
    auto priceShown = [&] { price->setEnabled(priceKind->currentIndex() > 0); };
    connect(priceKind, &QComboBox::currentIndexChanged, &dialog, priceShown);
    priceShown();
    update();
    if (dialog.exec() != QDialog::Accepted)
        return false;
    gpu.id = "custom";
    gpu.name = name->text().trimmed().toStdString();
    gpu.group = "Custom";
    gpu.source = "entered by the user";
    gpu.memoryGiB = memory->value();
    gpu.bandwidthGBps = bandwidth->value();
    gpu.fp16Tflops = fp16->value();
    gpu.fp8Tflops = fp8->value();
    gpu.computeCapability = capability->value();
    gpu.pcieGen = pcie->currentData().toInt();
    gpu.pcieLanes = 16;
    gpu.unifiedMemory = unified->isChecked();
    gpu.usableFraction = 1.0;
    const auto kind = GpuPrice::Kind(priceKind->currentData().toInt());
    if (kind != gpu.price.kind ||
        price->value() != (kind == GpuPrice::Kind::Rental ? gpu.price.usdPerHour : gpu.price.usd)) {
        GpuPrice entered;
        entered.kind = price->value() > 0 ? kind : GpuPrice::Kind::Unknown;
        (kind == GpuPrice::Kind::Rental ? entered.usdPerHour : entered.usd) = price->value();
        entered.source = "entered by the user";
        gpu.price = entered;
    }
    return true;
}

} // namespace kvscope::ui
