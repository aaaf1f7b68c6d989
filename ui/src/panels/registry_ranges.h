// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The window's controls take their ranges from the settings registry, so a value the window
// offers is one the CLI and scenario files accept too.

#include <QDoubleSpinBox>
#include <QSpinBox>

namespace kvscope::ui {

// `extraBelow` keeps room for a value below the range that the control means otherwise (the
// "all layers" entry of -ngl at -1).
void setRegistryRange(QSpinBox* box, const char* settingId, int extraBelow = 0);
void setRegistryRange(QDoubleSpinBox* box, const char* settingId);

} // namespace kvscope::ui
