// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include <vector>

namespace kvscope::ui {

// A grid of coloured cells, one per (column, row) at integer coordinates, drawn as rectangles:
// an exported SVG or PDF keeps sharp vector cells where a colour map would be a bitmap that
// viewers blur when they scale it.
class CellGrid : public QCPAbstractPlottable
{
    Q_OBJECT
public:
    CellGrid(QCPAxis* keyAxis, QCPAxis* valueAxis);

    // `colors` row-major, columns x rows.
    void setCells(int columns, int rows, std::vector<QColor> colors);
    void setGapColor(const QColor& color) { m_gap = color; }

    double selectTest(const QPointF& pos, bool onlySelectable, QVariant* details) const override;
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain,
                           const QCPRange& inKeyRange) const override;

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

private:
    int m_columns = 0;
    int m_rows = 0;
    std::vector<QColor> m_colors;
    QColor m_gap = Qt::white;
};

} // namespace kvscope::ui
