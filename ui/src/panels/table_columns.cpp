// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/table_columns.h"

#include <QEvent>
#include <QHeaderView>
#include <QStyledItemDelegate>
#include <QTableWidget>

#include <algorithm>
#include <cmath>
#include <utility>

namespace kvscope::ui {

ColumnsGiveWay::ColumnsGiveWay(QTableWidget* table, int lastInView, std::vector<Giver> givers)
    : QObject(table), m_table(table), m_lastInView(lastInView), m_givers(std::move(givers))
{
    m_table->viewport()->installEventFilter(this);
}

void ColumnsGiveWay::fit()
{
    m_table->resizeColumnsToContents();
    QHeaderView* header = m_table->horizontalHeader();
    int wanted = 0;
    for (int column = 0; column <= m_lastInView; ++column)
        if (!m_table->isColumnHidden(column))
            wanted += header->sectionSize(column);
    int excess = wanted - m_table->viewport()->width();
    const int em = m_table->fontMetrics().horizontalAdvance(QLatin1Char('m'));
    for (const Giver& giver : m_givers) {
        const int width = header->sectionSize(giver.column);
        const int least = giver.leastEms < 0 ? header->sectionSizeHint(giver.column)
                                             : int(std::lround(giver.leastEms * em));
        const int cut = std::clamp(excess, 0, std::max(0, width - least));
        header->resizeSection(giver.column, width - cut);
        excess -= cut;
    }
}

bool ColumnsGiveWay::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::Resize)
        fit();
    return QObject::eventFilter(watched, event);
}

namespace {

class ElideAtEndDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        option->textElideMode = Qt::ElideRight;
    }
};

} // namespace

void elideAtEnd(QTableWidget* table, int column)
{
    table->setItemDelegateForColumn(column, new ElideAtEndDelegate(table));
}

} // namespace kvscope::ui
