// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/fit_matrix_chart.h"

#include "kvscope/io/plan_csv.h"
#include "kvscope/model/parameters.h"
#include "panels/planner_text.h"
#include "window/ui_text.h"

#include <QFontMetrics>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace kvscope::ui {

namespace {

const QColor kFits = colors::fits;
const QColor kShorter = colors::caution; // runs, with less context
const QColor kNoFit = colors::overflow;

// The least height of the title, caption, column names and legend around the cells, in pixels.
constexpr int kChrome = 260;

int rowPitch(const QCPAxis* axis)
{
    return QFontMetrics(axis->tickLabelFont()).height() + 2;
}

int cellKind(CellFit fit)
{
    return fit == CellFit::Fits ? 0 : fit == CellFit::FitsShorter ? 1 : 2;
}

} // namespace

FitMatrixChart::FitMatrixChart(QWidget* parent) : ChartBase(parent)
{
    m_cells = new CellGrid(xAxis, yAxis);
    m_cells->removeFromLegend();
    for (QCPBars*& key : m_legendKeys)
        key = new QCPBars(xAxis, yAxis);
    m_current = new QCPItemRect(this);
    m_current->setLayer(markerLayer());
    m_current->setBrush(Qt::NoBrush);
    yAxis->setRangeReversed(true); // the first (smallest) model on top
    // Column names on top, where they stay in view while a long matrix scrolls.
    xAxis2->setVisible(true);
    xAxis2->setTickLabelRotation(-50);
    xAxis->setTickLabels(false);
    for (QCPAxis* axis : {xAxis, xAxis2, yAxis}) {
        axis->grid()->setVisible(false);
        axis->setSubTicks(false);
        axis->setTickLength(0, 0);
    }
    applySeriesStyle();
    retranslate();
    // The height around the cells as laid out: where it differs from what the rows were counted
    // with by more than a row, they are counted again (once, not in a loop).
    connect(this, &QCustomPlot::afterLayout, this, [this] {
        const int chrome = height() - axisRect()->height();
        const bool drawnWith = m_rowsCountedWithChrome > 0;
        if (!drawnWith || std::abs(chrome - m_rowsCountedWithChrome) <= rowPitch(yAxis) ||
            m_recounting)
            return;
        m_laidOutChrome = chrome;
        m_recounting = true;
        QMetaObject::invokeMethod(
            this,
            [this] {
                redraw();
                m_recounting = false;
            },
            Qt::QueuedConnection);
    });
}

void FitMatrixChart::setAxes(MatrixAxes axes)
{
    if (axes == m_axes)
        return;
    m_axes = axes;
    redraw();
}

void FitMatrixChart::applyTexts()
{
    nameLegendKeys();
    yAxis->setLabel(QString());
}

// The legend promises the cells' "×N" and "≤ tokens" only where the cells have room to say it.
void FitMatrixChart::nameLegendKeys()
{
    m_legendKeys[0]->setName(m_cellTextsShown ? tr("Fits (×N: sequences of this context at once)")
                                              : tr("Fits"));
    m_legendKeys[1]->setName(m_cellTextsShown
                                 ? tr("Fits only a shorter context (≤ tokens per sequence)")
                                 : tr("Fits only a shorter context"));
    m_legendKeys[2]->setName(tr("Does not fit"));
}

void FitMatrixChart::applySeriesStyle()
{
    const ChartStyle& style = chartStyle();
    for (int i = 0; i < 3; ++i) {
        m_legendKeys[i]->setBrush(fillFor(chartStyle(), i));
        m_legendKeys[i]->setPen(Qt::NoPen);
    }
    m_cells->setGapColor(style.background);
    m_current->setPen(QPen(style.foreground, 2.5 * style.lineScale));
    for (QCPItemText* text : m_texts)
        text->setColor(style.foreground);
}

void FitMatrixChart::appendBaseKey(const EvaluationSnapshot& snap, std::vector<double>& key) const
{
    // Every cell is evaluated at the scenario's context: a context drag changes them all.
    key.push_back(double(snap.scenario.context));
    key.push_back(double(int(m_axes)));
    // Whether the cells have room for their text is a matter of pixels.
    key.push_back(double(axisRect()->width()));
    key.push_back(double(axisRect()->height()));
}

void FitMatrixChart::sortForReading(const Catalog& catalog)
{
    // Models by size, GPUs by memory, formats by bits: the fitting cells form a staircase.
    auto rowSize = [&](size_t r) {
        const ModelSpec* m = catalog.model(m_matrix.rowIds[r]);
        return m ? countParameters(*m).total() : 0.0;
    };
    auto columnSize = [&](size_t c) {
        if (m_axes == MatrixAxes::ModelsByFormats) {
            const WeightFormat* f = catalog.weightFormat(m_matrix.columnIds[c]);
            return f ? f->bitsPerWeight : 0.0;
        }
        const GpuSpec* g = catalog.gpu(m_matrix.columnIds[c]);
        return g ? g->memoryGiB : 0.0;
    };
    m_rowOrder.resize(m_matrix.rowIds.size());
    std::iota(m_rowOrder.begin(), m_rowOrder.end(), size_t(0));
    std::stable_sort(m_rowOrder.begin(), m_rowOrder.end(),
                     [&](size_t a, size_t b) { return rowSize(a) < rowSize(b); });
    m_columnOrder.resize(m_matrix.columnIds.size());
    std::iota(m_columnOrder.begin(), m_columnOrder.end(), size_t(0));
    std::stable_sort(m_columnOrder.begin(), m_columnOrder.end(),
                     [&](size_t a, size_t b) { return columnSize(a) < columnSize(b); });
}

bool FitMatrixChart::keepWhatFits(const EvaluationSnapshot& snap, const Catalog& catalog)
{
    // Columns first: their names, set upright, take the height the rows then share.
    const bool trimColumns = keepColumnsThatFit(snap);
    const bool trimRows = keepRowsThatFit(snap, catalog);
    return trimRows || trimColumns;
}

// Columns spread over the range (least to most memory, or bits), the scenario's own kept, as
// many as have a text line's width each beside the row names.
bool FitMatrixChart::keepColumnsThatFit(const EvaluationSnapshot& snap)
{
    const QFontMetrics metrics(yAxis->tickLabelFont());
    int widestRow = 0;
    for (const std::string& name : m_matrix.rowNames)
        widestRow = std::max(widestRow, metrics.horizontalAdvance(QString::fromStdString(name)));
    // Upright column names need a line each, and a little air.
    const size_t columnRoom =
        size_t(std::max(1.0, (viewport().width() - widestRow - 40) / (1.15 * metrics.height())));
    if (m_columnOrder.size() <= columnRoom)
        return false;
    const std::string& ownColumn =
        m_axes == MatrixAxes::ModelsByGpus ? snap.scenario.gpu.id : snap.scenario.weights.id;
    const size_t n = m_columnOrder.size(), k = std::max<size_t>(columnRoom, 2);
    std::vector<size_t> picks;
    for (size_t j = 0; j < k; ++j)
        picks.push_back(size_t(std::lround(double(j) * double(n - 1) / double(k - 1))));
    for (size_t c = 0; c < n; ++c)
        if (m_matrix.columnIds[m_columnOrder[c]] == ownColumn) {
            auto nearest = std::min_element(picks.begin(), picks.end(), [&](size_t a, size_t b) {
                return std::abs(long(a) - long(c)) < std::abs(long(b) - long(c));
            });
            *nearest = c;
        }
    std::sort(picks.begin(), picks.end());
    picks.erase(std::unique(picks.begin(), picks.end()), picks.end());
    std::vector<size_t> kept;
    for (size_t c : picks)
        kept.push_back(m_columnOrder[c]);
    m_columnOrder = std::move(kept);
    return true;
}

// Degrees the column names lean from the horizontal. Slanted names need a column of 1.6 lines
// to clear each other, and the last one leans past the cells to the right: only where it
// stays on the chart (a few short format names), else upright (long GPU names were cut off
// the chart's right edge, four columns left unnamed).
double FitMatrixChart::columnNameSlant(double columnWidth, int widestName) const
{
    const double line = QFontMetrics(xAxis2->tickLabelFont()).height();
    const double beyondCells = width() - axisRect()->right() + columnWidth / 2;
    const bool slanted = columnWidth >= 1.6 * line && widestName * 0.643 <= beyondCells; // cos 50°
    return slanted ? 50.0 : 90.0;
}

// The height around the cells: the title, the heading's two lines and the legend, and the
// kept columns' names, slanted or upright as draw() will set them (a long name, "GH200 Grace
// Hopper Superchip · 96 GiB" in presentation mode, took more height than a fixed allowance
// left it, and the rows' names ran into one another).
int FitMatrixChart::chromeHeight(const Catalog& catalog) const
{
    const QFontMetrics names(xAxis2->tickLabelFont());
    int widestName = 0, widestRow = 0;
    for (size_t c : m_columnOrder)
        widestName = std::max(widestName, names.horizontalAdvance(columnLabel(c, catalog)));
    const QFontMetrics rowNames(yAxis->tickLabelFont());
    for (size_t r : m_rowOrder)
        widestRow = std::max(
            widestRow, rowNames.horizontalAdvance(QString::fromStdString(m_matrix.rowNames[r])));
    const double columnWidth = double(viewport().width() - widestRow - 40) /
                               double(std::max<size_t>(1, m_columnOrder.size()));
    const double line = names.height();
    const double slant = columnNameSlant(columnWidth, widestName); // as draw() sets them
    const double radians = slant * 3.14159265358979 / 180.0;
    const double columnNames = widestName * std::sin(radians) + line * std::cos(radians);
    // The heading's lines as last drawn (fitAxisLabels breaks one too long for the chart), two
    // before the first drawing; the title and the legend a line each.
    const QFontMetrics heading(xAxis2->labelFont());
    const int headingLines =
        xAxis2->label().isEmpty() ? 2 : int(xAxis2->label().count(QLatin1Char('\n'))) + 1;
    return std::max(kChrome / 2,
                    int(std::ceil(columnNames)) + (headingLines + 2) * heading.height() + 10);
}

// A window of rows centred on the scenario's model (by size, for an imported one), as many as
// have a text line each.
bool FitMatrixChart::keepRowsThatFit(const EvaluationSnapshot& snap, const Catalog& catalog)
{
    const int chrome = m_laidOutChrome > 0 ? m_laidOutChrome : chromeHeight(catalog);
    m_rowsCountedWithChrome = chrome;
    const int room = viewport().height() - chrome;
    const size_t rowRoom = size_t(std::max(1, room / rowPitch(yAxis)));
    if (m_rowOrder.size() <= rowRoom)
        return false;
    const double own = countParameters(snap.scenario.model).total();
    size_t at = 0;
    while (at < m_rowOrder.size() && m_matrix.rowIds[m_rowOrder[at]] != snap.scenario.model.id) {
        const ModelSpec* m = catalog.model(m_matrix.rowIds[m_rowOrder[at]]);
        if (m && countParameters(*m).total() >= own)
            break;
        ++at;
    }
    const size_t first = std::min(at - std::min(at, rowRoom / 2), m_rowOrder.size() - rowRoom);
    m_rowOrder = std::vector<size_t>(m_rowOrder.begin() + long(first),
                                     m_rowOrder.begin() + long(first + rowRoom));
    return true;
}

QColor FitMatrixChart::fillFor(const ChartStyle& style, int kind)
{
    // Tinted toward a dark background, the dark amber and the vermillion became two near browns:
    // there a shorter context takes the brighter orange (Okabe-Ito's), more opaque, and "does
    // not fit" stays the deeper red-brown.
    const QColor shorterOnDark{0xE6, 0x9F, 0x00};
    const bool dark = style.isDark();
    const QColor colors[3] = {kFits, dark ? shorterOnDark : kShorter, kNoFit};
    // On the dark background they also differ in lightness (fits brighter, does not fit
    // darker), so they part in greyscale too.
    const double opacity[3] = {dark ? 0.8 : 0.55, dark ? 0.7 : 0.55, dark ? 0.38 : 0.45};
    return style.tint(colors[kind], opacity[kind]);
}

QString FitMatrixChart::columnLabel(size_t column, const Catalog& catalog) const
{
    if (m_axes == MatrixAxes::ModelsByFormats)
        return QString::fromStdString(m_matrix.columnNames[column]);
    const GpuSpec* g = catalog.gpu(m_matrix.columnIds[column]);
    const QString name = PlannerText::shortName(m_matrix.columnNames[column]);
    return g ? tr("%1 · %2 GiB").arg(name, UiText::number(g->memoryGiB, 0)) : name;
}

QString FitMatrixChart::cellLabel(const FitCell& cell) const
{
    switch (cell.fit) {
    case CellFit::Fits: // "×12", "×1.3K": a cell is narrow
        return cell.concurrency >= 1000
                   ? tr("×%1K").arg(UiText::compact(double(cell.concurrency) / 1000, 1))
                   : tr("×%1").arg(UiText::integer(cell.concurrency));
    case CellFit::FitsShorter: // in thousands of tokens (1K = 1,024), as context is quoted
        return cell.longestContext >= 1024
                   ? tr("≤%1K").arg(UiText::integer(cell.longestContext / 1024))
                   : tr("≤%1").arg(UiText::integer(cell.longestContext));
    case CellFit::DoesNotFit:
        break;
    }
    return QString();
}

void FitMatrixChart::draw(const EvaluationSnapshot& snap)
{
    if (!snap.catalog)
        return;
    const Catalog& catalog = *snap.catalog;
    m_context = snap.scenario.context;
    m_matrix = fitMatrix(snap.scenario, catalog, m_axes);
    sortForReading(catalog);
    // The page shows as many rows as have a line of text each, nearest the scenario's model:
    // its cell, the column names and the legend in view at once, as the report shows them
    // (scrolled through all the catalog's models, the names and legend were out of view
    // beside the scenario's row). Ten rows at least; the CSV holds them all.
    setMinimumHeight(10 * rowPitch(xAxis) + kChrome);
    const bool trimmed = keepWhatFits(snap, catalog);
    const int columns = int(m_columnOrder.size());
    const int rows = int(m_rowOrder.size());

    std::vector<QColor> fills;
    fills.reserve(size_t(columns) * size_t(rows));
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < columns; ++c)
            fills.push_back(fillFor(
                chartStyle(),
                cellKind(m_matrix.at(m_rowOrder[size_t(r)], m_columnOrder[size_t(c)]).fit)));
    m_cells->setCells(columns, rows, std::move(fills));

    auto xTicks = QSharedPointer<QCPAxisTickerText>::create();
    for (int c = 0; c < columns; ++c)
        xTicks->addTick(c, columnLabel(m_columnOrder[size_t(c)], catalog));
    xAxis->setTicker(xTicks);
    xAxis2->setTicker(xTicks);
    const double columnWidth = columns ? axisRect()->width() / double(columns) : 0;
    int widestName = 0;
    for (int c = 0; c < columns; ++c)
        widestName = std::max(
            widestName, QFontMetrics(xAxis2->tickLabelFont())
                            .horizontalAdvance(columnLabel(m_columnOrder[size_t(c)], catalog)));
    xAxis2->setTickLabelRotation(-columnNameSlant(columnWidth, widestName));
    auto yTicks = QSharedPointer<QCPAxisTickerText>::create();
    for (int r = 0; r < rows; ++r)
        yTicks->addTick(r, QString::fromStdString(m_matrix.rowNames[m_rowOrder[size_t(r)]]));
    yAxis->setTicker(yTicks);
    xAxis->setRange(-0.5, columns - 0.5);
    xAxis2->setRange(-0.5, columns - 0.5);
    yAxis->setRange(-0.5, rows - 0.5);
    xAxis2->setLabel(heading(snap.scenario));
    if (trimmed)
        xAxis2->setLabel(
            xAxis2->label() + QLatin1Char('\n') +
            tr("%1 of %2 models, nearest in size; %3 of %4 columns (the CSV holds all)")
                .arg(UiText::integer(rows), UiText::integer(int64_t(m_matrix.rowIds.size())),
                     UiText::integer(columns),
                     UiText::integer(int64_t(m_matrix.columnIds.size()))));
    placeCellTexts();
}

// Each text fills all its numbers in one arg() call: chained calls fill the lowest placeholder
// first, whatever number the text gives it.
QString FitMatrixChart::heading(const Scenario& s) const
{
    const QString context = UiText::integer(s.context);
    // "one sequence", never "1 sequences"
    const QString batch =
        s.batch == 1 ? tr("one sequence") : tr("%1 sequences").arg(UiText::integer(s.batch));
    if (m_axes != MatrixAxes::ModelsByGpus)
        return tr("Weight formats on one %1, at %2 tokens, %3")
            .arg(QString::fromStdString(s.gpu.name), context, batch);
    if (s.gpuCount == 1)
        return tr("One GPU of each kind, at %1 tokens, %2").arg(context, batch);
    return tr("%1 GPUs of each kind, at %2 tokens, %3")
        .arg(UiText::integer(s.gpuCount), context, batch);
}

void FitMatrixChart::placeCellTexts()
{
    const size_t columns = m_columnOrder.size(), rows = m_rowOrder.size();
    const size_t cells = columns * rows;
    while (size_t(m_texts.size()) < cells) {
        auto* text = new QCPItemText(this);
        text->setPositionAlignment(Qt::AlignCenter);
        text->setClipToAxisRect(true);
        text->setColor(chartStyle().foreground);
        m_texts.append(text);
    }
    // A cell's text only where it has room: at a laptop's size all of it, on a strip none.
    const QFont font = scaledFont(0.8);
    const QFontMetrics metrics(font);
    const double cellWidth = columns ? axisRect()->width() / double(columns) : 0;
    const double cellHeight = rows ? axisRect()->height() / double(rows) : 0;
    int widest = 0;
    for (size_t r = 0; r < rows; ++r)
        for (size_t c = 0; c < columns; ++c)
            widest = std::max(widest, metrics.horizontalAdvance(
                                          cellLabel(m_matrix.at(m_rowOrder[r], m_columnOrder[c]))));
    const bool room = cellHeight >= metrics.height() && cellWidth >= widest + 10;
    if (room != m_cellTextsShown) {
        m_cellTextsShown = room;
        nameLegendKeys();
    }
    for (size_t i = 0; i < size_t(m_texts.size()); ++i) {
        QCPItemText* text = m_texts[int(i)];
        const bool used = room && i < cells;
        text->setVisible(used);
        if (!used)
            continue;
        const size_t r = i / columns, c = i % columns;
        text->setFont(font);
        text->setText(cellLabel(m_matrix.at(m_rowOrder[r], m_columnOrder[c])));
        text->position->setCoords(double(c), double(r));
    }
}

QString FitMatrixChart::cellText(size_t shownRow, size_t shownColumn) const
{
    const size_t i = shownRow * m_columnOrder.size() + shownColumn;
    if (i >= size_t(m_texts.size()) || !m_texts[int(i)]->visible())
        return QString();
    return m_texts[int(i)]->text();
}

void FitMatrixChart::drawMarkers(const EvaluationSnapshot& snap)
{
    const std::string& column =
        m_axes == MatrixAxes::ModelsByGpus ? snap.scenario.gpu.id : snap.scenario.weights.id;
    int row = -1, col = -1;
    for (size_t r = 0; r < m_rowOrder.size(); ++r)
        if (m_matrix.rowIds[m_rowOrder[r]] == snap.scenario.model.id)
            row = int(r);
    for (size_t c = 0; c < m_columnOrder.size(); ++c)
        if (m_matrix.columnIds[m_columnOrder[c]] == column)
            col = int(c);
    const bool shown = row >= 0 && col >= 0; // an imported model has no row
    m_current->setVisible(shown);
    if (shown) {
        m_current->topLeft->setCoords(col - 0.5, row - 0.5);
        m_current->bottomRight->setCoords(col + 0.5, row + 0.5);
    }
}

QRect FitMatrixChart::currentCellRect() const
{
    if (!m_current->visible())
        return {};
    return QRectF(m_current->topLeft->pixelPosition(), m_current->bottomRight->pixelPosition())
        .normalized()
        .toAlignedRect();
}

QString FitMatrixChart::hoverText(double key, double value, const QPoint&) const
{
    const long c = std::lround(key), r = std::lround(value);
    if (c < 0 || r < 0 || size_t(c) >= m_columnOrder.size() || size_t(r) >= m_rowOrder.size())
        return QString();
    const size_t row = m_rowOrder[size_t(r)], column = m_columnOrder[size_t(c)];
    const FitCell& cell = m_matrix.at(row, column);
    const QString where = tr("%1 on %2")
                              .arg(QString::fromStdString(m_matrix.rowNames[row]),
                                   QString::fromStdString(m_matrix.columnNames[column]));
    switch (cell.fit) {
    case CellFit::Fits:
        return tr("%1\nFits: %2 sequences of %3 tokens at once; up to %4 tokens per sequence")
            .arg(where, UiText::integer(cell.concurrency), UiText::integer(m_context),
                 UiText::integer(cell.longestContext));
    case CellFit::FitsShorter:
        return tr("%1\nFits only up to %2 tokens per sequence (asked: %3)")
            .arg(where, UiText::integer(cell.longestContext), UiText::integer(m_context));
    case CellFit::DoesNotFit:
        break;
    }
    return tr("%1\nDoes not fit: the weights and the engine leave no room for the KV cache")
        .arg(where);
}

QByteArray FitMatrixChart::tableCsv() const
{
    return QByteArray::fromStdString(fitMatrixToCsv(m_matrix));
}

} // namespace kvscope::ui
