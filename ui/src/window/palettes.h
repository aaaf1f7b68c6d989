// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPalette>

namespace kvscope::ui {

// The window's own palettes for View > Theme: dark, and Fusion's light one.
QPalette darkPalette();
QPalette lightPalette();

} // namespace kvscope::ui
