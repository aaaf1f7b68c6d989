// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/registry_ranges.h"

#include "kvscope/settings/settings_registry.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace kvscope::ui {

void setRegistryRange(QSpinBox* box, const char* settingId, int extraBelow)
{
    if (const Setting* s = settingById(settingId))
        box->setRange(int(s->lo) - extraBelow, int(std::min<double>(s->hi, INT_MAX)));
}

void setRegistryRange(QDoubleSpinBox* box, const char* settingId)
{
    const Setting* s = settingById(settingId);
    if (!s)
        return;
    // An open lower bound ("above 0") starts one step above it.
    const double step = std::pow(10.0, -box->decimals());
    box->setRange(s->loOpen ? s->lo + step : s->lo, s->hi);
}

} // namespace kvscope::ui
