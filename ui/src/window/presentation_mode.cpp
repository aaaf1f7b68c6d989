// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/presentation_mode.h"

#include "charts/chart_base.h"
#include "charts/view_registry.h"
#include "panels/headline_bar.h"
#include "panels/scenario_panel.h"

#include <QAction>
#include <QApplication>
#include <QBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QTabWidget>
#include <QToolButton>

#include <algorithm>

namespace kvscope::ui {

namespace {

// The scenario panel's text in presentation mode: readable from the back of a meeting room,
// yet the key controls still fit a 1280-pixel screen beside two charts.
constexpr double kPanelFontScale = 1.3;

} // namespace

PresentationMode::PresentationMode(ScenarioPanel* panel, QWidget* panelColumn,
                                   const ChartSet& charts, QTabWidget* pages, QWidget* parent)
    : QObject(parent), m_panel(panel), m_panelColumn(panelColumn), m_charts(charts), m_pages(pages)
{
    for (const ChartBase* chart : charts)
        if (chart->view()->page == ViewPage::Charts &&
            std::find(m_rows.begin(), m_rows.end(), chart->view()->grid.row) == m_rows.end())
            m_rows.push_back(chart->view()->grid.row);
    std::sort(m_rows.begin(), m_rows.end());

    // "All settings": the drawer with everything the key controls leave out.
    m_drawer = new QToolButton(parent);
    m_drawer->setObjectName(QStringLiteral("allSettingsButton"));
    m_drawer->setCheckable(true);
    m_drawer->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_drawer->setArrowType(Qt::RightArrow);
    m_drawer->setAutoRaise(true);
    m_drawer->setVisible(false);
    connect(m_drawer, &QToolButton::toggled, this, [this](bool open) {
        m_drawer->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        m_panel->setKeyControlsOnly(m_on && !open);
    });

    m_indicator = new QLabel(pages);
    m_indicator->setObjectName(QStringLiteral("slideIndicator"));
    m_indicator->setContentsMargins(8, 0, 8, 0);
    pages->setCornerWidget(m_indicator, Qt::TopRightCorner);
    m_indicator->setVisible(false);
    connect(pages, &QTabWidget::currentChanged, this, &PresentationMode::updateIndicator);

    m_next = new QAction(this);
    m_next->setShortcut(Qt::Key_PageDown);
    connect(m_next, &QAction::triggered, this, &PresentationMode::next);
    m_previous = new QAction(this);
    m_previous->setShortcut(Qt::Key_PageUp);
    connect(m_previous, &QAction::triggered, this, &PresentationMode::previous);
    m_next->setEnabled(false);
    m_previous->setEnabled(false);
}

void PresentationMode::addActions(QMenu* menu)
{
    menu->addAction(m_next);
    menu->addAction(m_previous);
}

void PresentationMode::setHeadline(HeadlineBar* headline, QBoxLayout* normal, int normalIndex,
                                   QBoxLayout* presented, int presentedIndex)
{
    m_headline = headline;
    relocate(headline, normal, normalIndex, presented, presentedIndex);
}

void PresentationMode::relocate(QWidget* widget, QBoxLayout* normal, int normalIndex,
                                QBoxLayout* presented, int presentedIndex, const QMargins& margins)
{
    m_relocations.push_back({widget, normal, normalIndex, presented, presentedIndex, margins});
}

void PresentationMode::setOn(bool on)
{
    const bool changed = on != m_on;
    m_on = on;
    for (const Relocation& r : m_relocations)
        if (changed) {
            (on ? r.home : r.presented)->removeWidget(r.widget);
            if (on)
                r.presented->insertWidget(r.presentedIndex, r.widget);
            else
                r.home->insertWidget(r.homeIndex, r.widget);
            r.widget->setContentsMargins(on ? r.margins : QMargins());
        }
    if (m_headline && changed)
        m_headline->setStacked(on);
    // Off, an empty font: the column inherits the application's again (language, system).
    QFont font;
    if (on) {
        font = QApplication::font();
        font.setPointSizeF(font.pointSizeF() * kPanelFontScale);
    }
    m_panelColumn->setFont(font);
    for (QWidget* page : m_enlarged)
        page->setFont(font);
    m_panel->setKeyControlsOnly(on && !m_drawer->isChecked());
    m_drawer->setVisible(on);
    m_next->setEnabled(on);
    m_previous->setEnabled(on);
    showRow(on ? m_row : 0);
}

void PresentationMode::showRow(int row)
{
    m_row = std::clamp(row, 0, std::max(0, rowCount() - 1));
    for (ChartBase* chart : m_charts)
        if (chart->view()->page == ViewPage::Charts)
            chart->setVisible(!m_on || chart->view()->grid.row == m_rows[size_t(m_row)]);
    updateIndicator();
}

bool PresentationMode::showChart(const QString& id)
{
    for (const ChartBase* chart : m_charts)
        if (chart->chartId() == id && chart->view()->page == ViewPage::Charts) {
            const auto it = std::find(m_rows.begin(), m_rows.end(), chart->view()->grid.row);
            m_pages->setCurrentIndex(0);
            if (m_on)
                showRow(int(it - m_rows.begin()));
            return true;
        }
    return false;
}

void PresentationMode::next()
{
    if (!m_on)
        return;
    if (m_pages->currentIndex() == 0 && m_row + 1 < rowCount())
        showRow(m_row + 1);
    else if (m_pages->currentIndex() + 1 < m_pages->count())
        m_pages->setCurrentIndex(m_pages->currentIndex() + 1);
}

void PresentationMode::previous()
{
    if (!m_on)
        return;
    if (m_pages->currentIndex() == 0) {
        showRow(m_row - 1);
        return;
    }
    m_pages->setCurrentIndex(m_pages->currentIndex() - 1);
    if (m_pages->currentIndex() == 0)
        showRow(rowCount() - 1); // back onto the Charts tab at its last row, as slides go
}

void PresentationMode::updateIndicator()
{
    const bool shown = m_on && m_pages->currentIndex() == 0 && rowCount() > 1;
    if (shown)
        m_indicator->setText(tr("Views %1 of %2 · Page Down: next")
                                 .arg(QString::number(m_row + 1), QString::number(rowCount())));
    m_indicator->setVisible(shown);
}

void PresentationMode::retranslate()
{
    m_drawer->setText(tr("All settings"));
    m_drawer->setToolTip(tr("Every setting; presentation mode shows only the key controls"));
    m_next->setText(tr("&Next views"));
    m_previous->setText(tr("Pre&vious views"));
    updateIndicator();
}

} // namespace kvscope::ui
