// SPDX-License-Identifier: GPL-3.0-or-later
// A chart's legend: under its plot, in as many columns as the chart's width holds, an entry
// wider than the chart in two lines (ChartBase's legend, apart from its drawing).
#include "charts/chart_base.h"
#include "charts/line_breaks.h"

#include <algorithm>
#include <vector>

namespace kvscope::ui {

// The legend's row: under the axis rect, as tall as its entries.
void ChartBase::placeLegendUnderPlot()
{
    QCPLayoutGrid* grid = plotLayout();
    int row = 0;
    while (row < grid->rowCount() && grid->element(row, 0) != axisRect())
        ++row;
    grid->insertRow(row + 1);
    grid->addElement(row + 1, 0, legend);
    grid->setRowStretchFactor(row + 1, 0.001);
}

void ChartBase::fitLegend()
{
    fitTitle();
    // An empty legend would still bound the layout's width (its grid's maximum is its columns'):
    // out of the layout while it has no entry, back in its row when it has.
    const bool empty = legend->itemCount() == 0;
    if (empty && legend->layout()) {
        plotLayout()->take(legend);
        plotLayout()->simplify();
    } else if (!empty && !legend->layout()) {
        placeLegendUnderPlot();
    }
    if (!legend->visible() || empty)
        return;
    const int available =
        std::max(1, (m_exportSize.isValid() ? m_exportSize.width() : width()) - 20);
    measureLegendEntries(available);
    // As many columns as fit, each as wide as its own widest entry (entries fill the rows left
    // to right): a long name no longer makes every column as wide as itself.
    const int count = int(m_legendWidths.size());
    int columns = std::max(1, count);
    for (; columns > 1; --columns) {
        int total = (columns - 1) * legend->columnSpacing();
        for (int c = 0; c < columns; ++c) {
            int widest = 0;
            for (int i = c; i < count; i += columns)
                widest = std::max(widest, m_legendWidths[size_t(i)]);
            total += widest;
        }
        if (total <= available)
            break;
    }
    if (legend->wrap() != columns) {
        legend->setWrap(columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true); // re-lays out the items
        updateGeometry(); // the legend's rows are part of the height the chart asks for
    }
}

// Each legend entry's width, for its whole name (measuring lays its text out: only when the
// names or their font change). An entry wider than the chart itself ("GQA (8 KV heads) (this
// model): up to 3,872 tokens" on a projector's half) takes two lines, broken after its colon,
// where a single line was cut at the chart's edge.
void ChartBase::measureLegendEntries(int available)
{
    constexpr char kWholeName[] = "kvscopeWholeName";
    QString entries = legend->font().toString();
    std::vector<QCPAbstractPlottable*> plottables;
    for (int i = 0; i < legend->itemCount(); ++i) {
        auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i));
        QCPAbstractPlottable* p = item ? item->plottable() : nullptr;
        if (p) {
            const QString whole = p->property(kWholeName).toString();
            if (p->name() != whole && p->name() != breakAfterColon(whole))
                p->setProperty(kWholeName, p->name()); // named anew since it was last shown
        }
        plottables.push_back(p);
        if (p)
            entries += QLatin1Char('\n') + p->property(kWholeName).toString();
    }
    if (entries != m_legendEntries) {
        m_legendEntries = entries;
        m_legendWidths.clear();
        for (int i = 0; i < legend->itemCount(); ++i) {
            if (QCPAbstractPlottable* p = plottables[size_t(i)])
                p->setName(p->property(kWholeName).toString());
            QCPAbstractLegendItem* item = legend->item(i);
            m_legendWidths.push_back(item ? item->minimumOuterSizeHint().width() : 0);
        }
    }
    for (int i = 0; i < legend->itemCount(); ++i) {
        QCPAbstractPlottable* p = plottables[size_t(i)];
        if (!p || size_t(i) >= m_legendWidths.size())
            continue;
        const QString whole = p->property(kWholeName).toString();
        const QString shown =
            m_legendWidths[size_t(i)] > available ? breakAfterColon(whole) : whole;
        if (p->name() != shown)
            p->setName(shown);
    }
}

} // namespace kvscope::ui
