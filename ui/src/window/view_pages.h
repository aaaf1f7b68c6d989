// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_set.h"
#include "kvscope/base/number_format.h"

#include <QTabWidget>

class QGridLayout;

namespace kvscope::ui {

class ComparePage;
class MatrixPage;
class PlanPage;
class ScenarioController;
struct ChartStyle;
struct EvaluationSnapshot;

// The window's views in tabs: the chart grid (one chart per view registry entry, placed where
// the registry says), the pages of views with a page of their own (Plan, Fit matrix) and the
// Compare page. It finds a view by id and brings its tab forward; the views draw what each
// evaluation gives them.
class ViewPages : public QTabWidget
{
    Q_OBJECT
public:
    ViewPages(ScenarioController* controller, QWidget* parent);

    const ChartSet& charts() const { return m_charts; }
    ChartBase* chart(const QString& id) const;
    PlanPage* planPage() const { return m_planPage; }
    MatrixPage* matrixPage() const { return m_matrixPage; }
    ComparePage* comparePage() const { return m_comparePage; }

    // Shows a tab: "charts" (the grid), "compare" (the difference table) or the id of a view:
    // its page, or the grid scrolled to it; false for any other id.
    bool showPage(const QString& id);
    void showSnapshot(const EvaluationSnapshot& snapshot);
    void setByteUnits(ByteUnits units);
    void setChartStyle(const ChartStyle& style);
    void setDraftMode(bool draft); // draft-quality curves while a slider is held
    void retranslate();

private:
    void placeViews(QGridLayout* grid);
    void addPlanPage(ChartBase* chart);
    int tabOf(const QWidget* page) const; // the tab holding `page` (perhaps in a scroll area)

    ScenarioController* m_controller;
    ChartSet m_charts;
    PlanPage* m_planPage = nullptr;
    MatrixPage* m_matrixPage = nullptr;
    ComparePage* m_comparePage = nullptr;
};

} // namespace kvscope::ui
