// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/cell_grid.h"

namespace kvscope::ui {

CellGrid::CellGrid(QCPAxis* keyAxis, QCPAxis* valueAxis) : QCPAbstractPlottable(keyAxis, valueAxis)
{
    setSelectable(QCP::stNone);
}

void CellGrid::setCells(int columns, int rows, std::vector<QColor> colors)
{
    m_columns = columns;
    m_rows = rows;
    m_colors = std::move(colors);
}

double CellGrid::selectTest(const QPointF&, bool, QVariant*) const
{
    return -1; // not selectable: the chart's hover text names the cell
}

QCPRange CellGrid::getKeyRange(bool& foundRange, QCP::SignDomain) const
{
    foundRange = m_columns > 0;
    return QCPRange(-0.5, m_columns - 0.5);
}

QCPRange CellGrid::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const
{
    foundRange = m_rows > 0;
    return QCPRange(-0.5, m_rows - 0.5);
}

void CellGrid::draw(QCPPainter* painter)
{
    QCPAxis* key = keyAxis();
    QCPAxis* value = valueAxis();
    if (!key || !value || size_t(m_columns) * size_t(m_rows) != m_colors.size())
        return;
    // A hairline of the background between cells keeps neighbours of one colour apart.
    painter->setPen(QPen(m_gap, 1));
    for (int r = 0; r < m_rows; ++r) {
        const double top = value->coordToPixel(r - 0.5);
        const double bottom = value->coordToPixel(r + 0.5);
        for (int c = 0; c < m_columns; ++c) {
            const double left = key->coordToPixel(c - 0.5);
            const double right = key->coordToPixel(c + 0.5);
            painter->setBrush(m_colors[size_t(r) * size_t(m_columns) + size_t(c)]);
            painter->drawRect(QRectF(QPointF(left, top), QPointF(right, bottom)).normalized());
        }
    }
}

void CellGrid::drawLegendIcon(QCPPainter*, const QRectF&) const
{
    // Not in the legend: the chart's legend names the three colours.
}

} // namespace kvscope::ui
