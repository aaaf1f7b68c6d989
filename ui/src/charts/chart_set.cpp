// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/chart_set.h"

#include "charts/chart_base.h"
#include "charts/view_registry.h"

namespace kvscope::ui {

ChartSet createCharts(QWidget* parent)
{
    ChartSet charts;
    for (const ViewEntry& view : viewRegistry()) {
        ChartBase* chart = view.create(parent);
        chart->setView(&view);
        charts.push_back(chart);
    }
    return charts;
}

} // namespace kvscope::ui
