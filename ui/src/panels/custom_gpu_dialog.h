// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/model/hardware.h"

#include <QDialog>

namespace kvscope::ui {

// Edits a GPU's datasheet figures for a device the catalog does not have.
class CustomGpuDialog : public QDialog
{
    Q_OBJECT
public:
    // Shows the dialog on `gpu`; returns true and updates it when the user accepts.
    static bool edit(QWidget* parent, GpuSpec& gpu);

private:
    explicit CustomGpuDialog(QWidget* parent);
};

} // namespace kvscope::ui
