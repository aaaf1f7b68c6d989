// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart_set.h"

#include "breakeven_chart.h"
#include "decode_latency_chart.h"
#include "kv_growth_chart.h"
#include "tokens_fit_chart.h"
#include "vram_chart.h"

namespace kvscope::ui {

ChartSet createCharts(QWidget* parent)
{
    return {new VramChart(parent), new TokensFitChart(parent), new KvGrowthChart(parent),
            new BreakevenChart(parent), new DecodeLatencyChart(parent)};
}

} // namespace kvscope::ui
