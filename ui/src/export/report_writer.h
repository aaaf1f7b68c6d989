// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_set.h"
#include "kvscope/base/number_format.h"
#include "kvscope/catalog/catalog.h"
#include "window/scenario_controller.h"

#include <QCoreApplication>
#include <QPageSize>
#include <QString>

#include <vector>

namespace kvscope::ui {

// A chart as the report placed it: the share of its slot's height its plot got.
struct ReportChartPlot
{
    QString view;
    int page = 0;
    double plotShare = 0;
};

struct ReportOptions
{
    QPageSize::PageSizeId pageSize = QPageSize::A4; // A4 or Letter
    ByteUnits units = ByteUnits::Binary;
    std::vector<ReportChartPlot>* plots = nullptr; // when given, every chart as placed
};

// The report PDF: title and date, a summary (verdict, cautions, key figures, remedies), the
// inputs with the source of every catalog number used, the headline figures with the
// arithmetic behind each, every chart as vectors (paginated as the view registry says) and the
// assumptions (efficiency factors, overheads, each with its source). In the current
// UI language. Written through QSaveFile.
class ReportWriter
{
    Q_DECLARE_TR_FUNCTIONS(ReportWriter)
public:
    static bool write(const EvaluationSnapshot& snapshot, const Catalog& catalog,
                      const ChartSet& charts, const QString& path, const ReportOptions& options,
                      QString* error);
    // The report's text parts as HTML, one string per section (for tests and the preview).
    static QString verdictHtml(const EvaluationSnapshot& snapshot, const Catalog& catalog,
                               ByteUnits units);
    // "Weights", or "Weights, all N GPUs" where several hold them.
    static QString weightsCaption(const kvscope::Scenario& scenario);
    // The key figures, three to a row: fit, weights, KV cache, decode, first token, context.
    static QString keyFiguresHtml(const EvaluationSnapshot& snapshot, ByteUnits units);
    // The report's title as page 1's heading: where it may break (between names, never inside
    // one of a line or less, a slash ending its line).
    static QString headingText(const QString& title, const Scenario& scenario);
    static QString longestContextText(const Scenario& scenario, const Evaluation& evaluation);
    static QString fitText(const EvaluationSnapshot& snapshot, ByteUnits units);
    // The inputs, each with the source of its catalog numbers.
    static QString inputsHtml(const Scenario& scenario, ByteUnits units);
    static QString deploymentRows(const Scenario& scenario);
    static QString profileText(const MachineProfile& profile, ByteUnits units);
    static QString figuresHtml(const EvaluationSnapshot& snapshot, ByteUnits units);
    static QString assumptionsHtml(const Scenario& scenario, const Catalog& catalog);
    // With scenarios pinned: the difference table, every figure against the first; else "".
    static QString comparisonHtml(const EvaluationSnapshot& snapshot, ByteUnits units);
    // The chart pages, in registry order: consecutive views of one ReportSpace share a page, six
    // sixths or two halves to it. The assumptions go in the first half page left free.
    static std::vector<ChartSet> chartPages(const ChartSet& charts);
    static bool leavesHalfPageFree(const ChartSet& page);
};

} // namespace kvscope::ui
