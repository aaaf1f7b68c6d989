// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/model/hardware.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QFormLayout;
class QLineEdit;

namespace kvscope::ui {

// Edits a GPU's datasheet figures for a device the catalog does not have.
class CustomGpuDialog : public QDialog
{
    Q_OBJECT
public:
    // Shows the dialog on `gpu`; returns true and updates it when the user accepts.
    static bool edit(QWidget* parent, GpuSpec& gpu);

private:
    CustomGpuDialog(QWidget* parent, const GpuSpec& gpu);
    QDoubleSpinBox* spinBox(double value, double max, int decimals, const QString& suffix);
    void buildFigures(QFormLayout* form, const GpuSpec& gpu);
    void buildPrice(QFormLayout* form, const GpuSpec& gpu);
    static const GpuPrice& shownPrice(const GpuSpec& gpu);
    QComboBox* memoryTypeBox(const GpuSpec& gpu);
    void buildButtons(QFormLayout* form);
    void writeTo(GpuSpec& gpu) const;
    void writePriceTo(GpuSpec& gpu) const;

    QLineEdit* m_name = nullptr;
    QDoubleSpinBox* m_memory = nullptr;
    QDoubleSpinBox* m_bandwidth = nullptr;
    QDoubleSpinBox* m_fp16 = nullptr;
    QDoubleSpinBox* m_fp8 = nullptr;
    QDoubleSpinBox* m_capability = nullptr;
    QComboBox* m_memoryType = nullptr;
    QComboBox* m_pcie = nullptr;
    QCheckBox* m_unified = nullptr;
    QComboBox* m_priceKind = nullptr;
    QDoubleSpinBox* m_price = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

} // namespace kvscope::ui
