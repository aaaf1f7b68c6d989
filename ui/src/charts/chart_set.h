// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>

class QWidget;

namespace kvscope::ui {

class ChartBase;

// The five charts in display and report order: VRAM split, tokens that fit, KV vs context,
// reload vs recompute, decode time per placement. The window shows them; the CLI and the
// report render them offscreen. Parented to `parent` (which owns them).
using ChartSet = std::array<ChartBase*, 5>;
ChartSet createCharts(QWidget* parent);

} // namespace kvscope::ui
