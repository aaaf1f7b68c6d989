// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

class QWidget;

namespace kvscope::ui {

class ChartBase;

// One chart per entry of the view registry, in its order (display and report order). The
// window shows them; the CLI and the report render them offscreen. Parented to `parent`
// (which owns them); each knows its entry (ChartBase::view()).
using ChartSet = std::vector<ChartBase*>;
ChartSet createCharts(QWidget* parent);

} // namespace kvscope::ui
