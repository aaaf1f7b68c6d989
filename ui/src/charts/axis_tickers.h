// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/base/number_format.h"

#include <qcustomplot.h>

namespace kvscope::ui {

// Log axes whose ticks read as people say the quantity, one format per axis:
//  - counts: 1, 10, 100, 1K, 10K, 1M (setCountLogAxis);
//  - durations given in ms: 1 ms, 10 ms, 100 ms, 1 s, 10 s, 1 min, 10 min, 1 h (setTimeLogAxis);
//  - sizes given in `axisUnitBytes`: 1 MiB, 10 MiB, 100 MiB, 1 GiB (setBytesLogAxis).
// A short axis labels fewer ticks instead of stacking them; under 1.6 decades the ticks step
// 1, 2, 5 within each unit (QCustomPlot's linear fallback would crowd the axis's upper end).
void setCountLogAxis(QCPAxis* axis);
void setTimeLogAxis(QCPAxis* axis);
void setBytesLogAxis(QCPAxis* axis, double axisUnitBytes, ByteUnits units);

} // namespace kvscope::ui
