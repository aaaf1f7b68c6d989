// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/chart_set.h"

#include "charts/breakeven_chart.h"
#include "charts/decode_latency_chart.h"
#include "charts/kv_growth_chart.h"
#include "charts/tokens_fit_chart.h"
#include "charts/vram_chart.h"

namespace kvscope::ui {

ChartSet createCharts(QWidget* parent)
{
    return {new VramChart(parent), new TokensFitChart(parent), new KvGrowthChart(parent),
            new BreakevenChart(parent), new DecodeLatencyChart(parent)};
}

} // namespace kvscope::ui
