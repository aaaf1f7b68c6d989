// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/view_registry.h"

#include "charts/breakeven_chart.h"
#include "charts/decode_latency_chart.h"
#include "charts/fit_matrix_chart.h"
#include "charts/kv_growth_chart.h"
#include "charts/plan_chart.h"
#include "charts/serving_chart.h"
#include "charts/tokens_fit_chart.h"
#include "charts/vram_chart.h"

#include <QCoreApplication>

#include <algorithm>

namespace kvscope::ui {

namespace {

template <typename Chart> ChartBase* make(QWidget* parent)
{
    return new Chart(parent);
}

} // namespace

QString ViewEntry::translatedTitle() const
{
    return QCoreApplication::translate(titleContext, title);
}

const std::vector<ViewEntry>& viewRegistry()
{
    // The titles keep the translation contexts of the classes that used to return them, so
    // the Japanese .ts needs no change; a new view may use any context.
    static const std::vector<ViewEntry> views = {
        {"vram",
         "kvscope::ui::VramChart",
         QT_TRANSLATE_NOOP("kvscope::ui::VramChart", "VRAM per GPU"),
         &make<VramChart>,
         {0, 0},
         ReportSpace::SixthPage,
         "vram",
         {"weights_per_gpu_bytes", "activation_per_gpu_bytes", "free_per_gpu_bytes", "fits"}},
        {"tokens",
         "kvscope::ui::TokensFitChart",
         QT_TRANSLATE_NOOP("kvscope::ui::TokensFitChart", "Tokens that fit"),
         &make<TokensFitChart>,
         {0, 1},
         ReportSpace::SixthPage,
         "tokens",
         {"tokens_fit_model", "tokens_fit_mha", "tokens_fit_gqa", "tokens_fit_mqa"}},
        {"kv",
         "kvscope::ui::KvGrowthChart",
         QT_TRANSLATE_NOOP("kvscope::ui::KvGrowthChart", "KV cache vs context length"),
         &make<KvGrowthChart>,
         {1, 0},
         ReportSpace::SixthPage,
         "kv",
         {"kv_per_gpu_bytes", "kv_mha_per_gpu_bytes", "kv_gqa_per_gpu_bytes",
          "kv_mqa_per_gpu_bytes", "free_for_kv_per_gpu_bytes"}},
        {"breakeven",
         "kvscope::ui::BreakevenChart",
         QT_TRANSLATE_NOOP("kvscope::ui::BreakevenChart",
                           "Reload a saved KV cache vs recompute it"),
         &make<BreakevenChart>,
         {1, 1},
         ReportSpace::SixthPage,
         "breakeven",
         {"recompute_ms", "reload_ms_cpu", "reload_ms_nvme", "reload_ms_sata"}},
        {"latency",
         "kvscope::ui::DecodeLatencyChart",
         QT_TRANSLATE_NOOP("kvscope::ui::DecodeLatencyChart",
                           "Decode time per token by KV placement"),
         &make<DecodeLatencyChart>,
         {2, 0},
         ReportSpace::SixthPage,
         "latency",
         {"decode_ms_gpu", "decode_ms_cpu_serial", "decode_ms_cpu_pipelined", "decode_ms_nvme",
          "decode_ms_sata", "tokens_per_s"}},
        {"serving",
         "kvscope::ui::ServingChart",
         QT_TRANSLATE_NOOP("kvscope::ui::ServingChart", "Serving many users, by engine"),
         &make<ServingChart>,
         {2, 1},
         ReportSpace::SixthPage,
         "serving",
         {}},
        // The planner's views: each on its own page; in the report the plan takes half a page (the
        // assumptions fill the other half) and the matrix a whole one.
        {"plan",
         "kvscope::ui::PlanChart",
         QT_TRANSLATE_NOOP("kvscope::ui::PlanChart", "What to buy: cost against speed"),
         &make<PlanChart>,
         {},
         ReportSpace::HalfPage,
         "plan",
         {},
         ViewPage::Plan},
        {"matrix",
         "kvscope::ui::FitMatrixChart",
         QT_TRANSLATE_NOOP("kvscope::ui::FitMatrixChart", "What fits where"),
         &make<FitMatrixChart>,
         {},
         ReportSpace::FullPage,
         "matrix",
         {},
         ViewPage::Matrix},
    };
    return views;
}

const ViewEntry* findViewByCliId(const std::string& cliId)
{
    for (const ViewEntry& view : viewRegistry())
        if (cliId == view.cliId)
            return &view;
    return nullptr;
}

std::vector<std::string> cliChartIds()
{
    std::vector<std::string> ids;
    for (const ViewEntry& view : viewRegistry())
        ids.emplace_back(view.cliId);
    return ids;
}

std::vector<std::string> viewCsvColumns()
{
    std::vector<std::string> columns;
    for (const ViewEntry& view : viewRegistry())
        for (const std::string& column : view.csvColumns)
            if (std::find(columns.begin(), columns.end(), column) == columns.end())
                columns.push_back(column);
    return columns;
}

} // namespace kvscope::ui
