// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/cell_grid.h"
#include "charts/chart_base.h"
#include "kvscope/planning/fit_matrix.h"

namespace kvscope::ui {

// The seed's "what fits on one 24 GB GPU" table for the whole catalog: models (smallest at the
// top) against GPUs (least memory on the left) or against weight formats on the scenario's GPU,
// at the scenario's context, batch and engine. Each cell is coloured fits / fits only with a
// shorter context / does not fit and, where there is room, says how many sequences fit or the
// longest context that does; the scenario's own cell is outlined.
class FitMatrixChart : public ChartBase
{
    Q_OBJECT
public:
    // A cell's fill in `style`: 0 fits, 1 fits a shorter context, 2 does not fit.
    static QColor fillFor(const ChartStyle& style, int kind);
    explicit FitMatrixChart(QWidget* parent = nullptr);

    void setAxes(MatrixAxes axes);
    MatrixAxes axes() const { return m_axes; }
    const FitMatrix& matrix() const { return m_matrix; }
    // Row and column of the cell drawn at (row, column) of the chart: the matrix sorted for
    // reading (for tests).
    size_t matrixRow(size_t shownRow) const { return m_rowOrder.at(shownRow); }
    size_t shownRows() const { return m_rowOrder.size(); }
    size_t shownColumns() const { return m_columnOrder.size(); }
    size_t matrixColumn(size_t shownColumn) const { return m_columnOrder.at(shownColumn); }
    // The text a cell shows ("" for a cell too small for it, or one that does not fit).
    QString cellText(size_t shownRow, size_t shownColumn) const;
    QByteArray tableCsv() const override;
    // Where the scenario's outlined cell is drawn, in the chart's pixels; empty when it has no
    // cell (an imported model).
    QRect currentCellRect() const;

protected:
    void draw(const EvaluationSnapshot& snapshot) override;
    QString hoverText(double key, double value, const QPoint& pixel) const override;
    void applyTexts() override;
    void applySeriesStyle() override;
    void appendBaseKey(const EvaluationSnapshot& snapshot, std::vector<double>& key) const override;
    void drawMarkers(const EvaluationSnapshot& snapshot) override;
    bool deferWhileHidden() const override { return true; }

private:
    void sortForReading(const Catalog& catalog);
    // Where the chart is smaller than one text line per row and column (an export, the
    // report), keeps the models nearest the scenario's in size and columns spread over the
    // range, the scenario's own among them; returns whether it dropped any.
    bool keepWhatFits(const EvaluationSnapshot& snapshot, const Catalog& catalog);
    bool keepColumnsThatFit(const EvaluationSnapshot& snapshot);
    bool keepRowsThatFit(const EvaluationSnapshot& snapshot, const Catalog& catalog);
    int chromeHeight(const Catalog& catalog) const;
    double columnNameSlant(double columnWidth, int widestName) const;
    QString columnLabel(size_t column, const Catalog& catalog) const;
    QString cellLabel(const FitCell& cell) const;
    void placeCellTexts();
    void nameLegendKeys();
    QString heading(const Scenario& s) const; // what the columns are, at which context and batch

    MatrixAxes m_axes = MatrixAxes::ModelsByGpus;
    FitMatrix m_matrix;
    std::vector<size_t> m_rowOrder, m_columnOrder;
    CellGrid* m_cells = nullptr;
    QCPBars* m_legendKeys[3] = {}; // empty bars: the legend's three colours
    QList<QCPItemText*> m_texts;   // a pool, one per cell shown
    QCPItemRect* m_current = nullptr;
    int64_t m_context = 0;
    bool m_cellTextsShown = true;    // whether the cells had room for their texts when drawn
    int m_rowsCountedWithChrome = 0; // the height around the cells the rows were counted with
    int m_laidOutChrome = 0;         // that height as the last layout found it
    bool m_recounting = false;
};

} // namespace kvscope::ui
