// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_set.h"

#include <QMargins>
#include <QObject>

#include <vector>

class QAction;
class QBoxLayout;
class QLabel;
class QMenu;
class QTabWidget;
class QToolButton;
class QWidget;

namespace kvscope::ui {

class HeadlineBar;
class ScenarioPanel;

// Presentation mode, for a projector (1280x720 to 1920x1080): the scenario panel keeps its key
// controls in a larger font and the rest behind "All settings"; the Charts tab shows one row of
// views at a time (two side by side, large), and Page Down / Page Up, which presenter remotes
// send, step through the rows and then the other tabs like slides.
class PresentationMode : public QObject
{
    Q_OBJECT
public:
    // `panelColumn` is the scrolled column holding `panel`; the drawer button goes on its top.
    PresentationMode(ScenarioPanel* panel, QWidget* panelColumn, const ChartSet& charts,
                     QTabWidget* pages, QWidget* parent);

    void setOn(bool on);
    bool isOn() const { return m_on; }
    // Next / previous slide: a row of charts, then each further tab. Only in presentation mode.
    void next();
    void previous();
    // The row of the Charts tab shown, of rowCount(); every row shows when the mode is off.
    int row() const { return m_row; }
    int rowCount() const { return int(m_rows.size()); }
    // Shows the row holding the chart `id` (presentation mode) and returns true; false when no
    // chart on the Charts tab has that id.
    bool showChart(const QString& id);
    QToolButton* drawerButton() const { return m_drawer; }
    // The headline figures: in `normal` at `normalIndex` outside presentation mode, in the
    // panel's column under the key controls (`presented`, at `presentedIndex`) in it, so the
    // views get the window's whole height.
    void setHeadline(HeadlineBar* headline, QBoxLayout* normal, int normalIndex,
                     QBoxLayout* presented, int presentedIndex);
    // Any other widget presentation mode moves the same way (the verdict, over the headline
    // figures, where a 720-pixel screen shows it whole). Moves are made in the order given.
    // `margins` pad it where it is presented (its home layout's, which it leaves).
    void relocate(QWidget* widget, QBoxLayout* normal, int normalIndex, QBoxLayout* presented,
                  int presentedIndex, const QMargins& margins = {});
    // A page whose text presentation mode enlarges as it does the panel's (the Compare table,
    // read from the back of the room like the charts).
    void enlarge(QWidget* page) { m_enlarged.push_back(page); }
    void addActions(QMenu* menu); // View > Next views, Previous views
    void retranslate();

private:
    void showRow(int row);
    void updateIndicator();

    ScenarioPanel* m_panel;
    QWidget* m_panelColumn;
    const ChartSet& m_charts;
    QTabWidget* m_pages;
    std::vector<int> m_rows; // the grid rows of the Charts tab, top to bottom
    int m_row = 0;
    bool m_on = false;
    QToolButton* m_drawer = nullptr;
    struct Relocation
    {
        QWidget* widget;
        QBoxLayout* home;
        int homeIndex;
        QBoxLayout* presented;
        int presentedIndex;
        QMargins margins;
    };
    std::vector<Relocation> m_relocations; // the headline first
    std::vector<QWidget*> m_enlarged;
    HeadlineBar* m_headline = nullptr;
    QLabel* m_indicator = nullptr;
    QAction* m_next = nullptr;
    QAction* m_previous = nullptr;
};

} // namespace kvscope::ui
