// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

#include <vector>

class QTableWidget;

namespace kvscope::ui {

// A table's columns as wide as their contents, except that some give way, in order, each down
// to its least width, until the columns up to `lastInView` fit the table's width: the figures a
// reader came for (a plan's costs, a case's error) stay in view on a laptop, and the names
// before them are elided as the table elides them, whole on hover. Refits when the table's
// viewport is resized.
class ColumnsGiveWay : public QObject
{
public:
    struct Giver
    {
        int column;
        double leastEms; // its least width in widths of "m"; below 0: its heading's width
    };
    ColumnsGiveWay(QTableWidget* table, int lastInView, std::vector<Giver> givers);
    void fit();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QTableWidget* m_table;
    int m_lastInView;
    std::vector<Giver> m_givers;
};

// Elides `column`'s text at its end whatever the table's own mode: a list of notes reads from its
// start ("on the front, lossy…"), where a name keeps its end ("RTX 4060…16GB × 1").
void elideAtEnd(QTableWidget* table, int column);

} // namespace kvscope::ui
