// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/view_pages.h"

#include "charts/chart_base.h"
#include "charts/fit_matrix_chart.h"
#include "charts/plan_chart.h"
#include "charts/view_registry.h"
#include "export/chart_actions.h"
#include "panels/compare_page.h"
#include "panels/matrix_page.h"
#include "panels/plan_page.h"
#include "window/scenario_controller.h"

#include <QGridLayout>
#include <QMenu>
#include <QScrollArea>

namespace kvscope::ui {

namespace {

// Scrolled rather than squeezed: on a laptop, or a 768-pixel projector under the headline.
QScrollArea* scrolled(QWidget* page, QWidget* parent)
{
    auto* scroll = new QScrollArea(parent);
    scroll->setWidget(page);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return scroll;
}

} // namespace

ViewPages::ViewPages(ScenarioController* controller, QWidget* parent)
    : QTabWidget(parent), m_controller(controller)
{
    setObjectName(QStringLiteral("viewPages"));
    setDocumentMode(true);
    m_charts = createCharts(this);
    for (ChartBase* chart : m_charts) {
        chart->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(chart, &QWidget::customContextMenuRequested, this,
                [this, chart](const QPoint& pos) {
                    QMenu menu(this);
                    ChartActions::populate(&menu, chart, window());
                    menu.exec(chart->mapToGlobal(pos));
                });
    }
    auto* chartsPage = new QWidget(this);
    auto* grid = new QGridLayout(chartsPage);
    QScrollArea* chartsScroll = scrolled(chartsPage, this);
    chartsScroll->setObjectName(QStringLiteral("chartsScroll"));
    addTab(chartsScroll, QString());
    placeViews(grid);
    m_comparePage = new ComparePage(controller, this);
    addTab(m_comparePage, QString());
}

// The views of the Charts tab go in its grid; the others get pages of their own.
void ViewPages::placeViews(QGridLayout* grid)
{
    grid->setContentsMargins(0, 4, 0, 0);
    grid->setSpacing(6);
    for (ChartBase* chart : m_charts) {
        const ViewEntry& view = *chart->view();
        if (view.page == ViewPage::Charts) {
            chart->setMinimumPlotSize(QSize(240, 160));
            grid->addWidget(chart, view.grid.row, view.grid.column, view.grid.rowSpan,
                            view.grid.columnSpan);
        } else if (view.page == ViewPage::Plan) {
            addPlanPage(chart);
        } else if (view.page == ViewPage::Matrix) {
            m_matrixPage = new MatrixPage(static_cast<FitMatrixChart*>(chart), this);
            addTab(m_matrixPage, QString());
        }
    }
    // Columns share the width evenly: otherwise the views' size hints decide, and the VRAM
    // chart, whose legend is the widest for its size, got the narrower one.
    for (int column = 0; column < grid->columnCount(); ++column)
        grid->setColumnStretch(column, 1);
}

void ViewPages::addPlanPage(ChartBase* chart)
{
    m_planPage = new PlanPage(static_cast<PlanChart*>(chart), this);
    // A plot, not a strip, however tall the table: the page scrolls instead.
    chart->setMinimumPlotSize(QSize(240, 200));
    // Scrolled like the charts: in presentation mode its controls, chart and table need more
    // height than a 768-pixel projector leaves under the headline figures.
    addTab(scrolled(m_planPage, this), QString());
    connect(m_planPage, &PlanPage::settingsChanged, m_controller,
            &ScenarioController::applySettings);
    connect(m_planPage, &PlanPage::loadRequested, this, [this](const Scenario& s) {
        m_controller->setScenario(s);
        setCurrentIndex(0); // see what was loaded
    });
}

ChartBase* ViewPages::chart(const QString& id) const
{
    for (ChartBase* c : m_charts)
        if (c->chartId() == id)
            return c;
    return nullptr;
}

bool ViewPages::showPage(const QString& id)
{
    if (id == QLatin1String("charts")) {
        setCurrentIndex(0);
        return true;
    }
    if (id == QLatin1String("compare")) {
        setCurrentWidget(m_comparePage);
        return true;
    }
    ChartBase* view = chart(id);
    if (!view)
        return false;
    if (view->view()->page == ViewPage::Charts) {
        if (auto* scroll = qobject_cast<QScrollArea*>(widget(0)))
            scroll->ensureWidgetVisible(view);
        return true;
    }
    for (int i = 1; i < count(); ++i)
        if (widget(i)->isAncestorOf(view)) {
            setCurrentIndex(i);
            return true;
        }
    return false;
}

int ViewPages::tabOf(const QWidget* page) const
{
    for (int i = 0; i < count(); ++i)
        if (widget(i) == page || widget(i)->isAncestorOf(page))
            return i;
    return -1;
}

void ViewPages::showSnapshot(const EvaluationSnapshot& snapshot)
{
    if (m_planPage)
        m_planPage->showScenario(snapshot.scenario);
    for (ChartBase* c : m_charts)
        c->show(snapshot);
}

void ViewPages::setByteUnits(ByteUnits units)
{
    m_comparePage->setByteUnits(units);
    for (ChartBase* c : m_charts)
        c->setByteUnits(units);
}

void ViewPages::setChartStyle(const ChartStyle& style)
{
    for (ChartBase* c : m_charts)
        c->setChartStyle(style);
}

void ViewPages::setDraftMode(bool draft)
{
    for (ChartBase* c : m_charts)
        c->setDraftMode(draft);
}

void ViewPages::retranslate()
{
    setTabText(0, tr("Charts"));
    if (m_planPage) {
        setTabText(tabOf(m_planPage), tr("Plan: what to buy"));
        m_planPage->retranslate();
    }
    if (m_matrixPage) {
        setTabText(tabOf(m_matrixPage), tr("Fit matrix"));
        m_matrixPage->retranslate();
    }
    setTabText(tabOf(m_comparePage), tr("Compare"));
    m_comparePage->retranslate();
}

} // namespace kvscope::ui
