// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_style.h"
#include "kvscope/validation/validation_set.h"

#include <qcustomplot.h>

#include <array>
#include <vector>

namespace kvscope::ui {

// One kind of the validation set as a log-log scatter: measured along x, predicted along y, the
// y = x diagonal, the ±10 % band shaded, the kind's summary above the axes and the case under
// the mouse in a tooltip.
class ValidationPlot : public QCustomPlot
{
    Q_OBJECT
public:
    ValidationPlot(ValidationKind kind, QWidget* parent = nullptr);

    ValidationKind kind() const { return m_kind; }
    // Takes this kind's results from `report` and redraws.
    void setReport(const ValidationReport& report);
    void setChartStyle(const ChartStyle& style);
    void retranslate();

    int pointCount() const;      // cases drawn (all non-skipped of the kind)
    QString summaryText() const; // the text above the axes
    QString titleText() const;
    // How far the widest line of the title or summary runs past the plot's width, in pixels; 0
    // when every line fits (for tests: a clipped summary is a bug).
    int textOverflow() const;
    // Tooltip for the case nearest to `pixel` within a few pixels, or "".
    QString hoverText(const QPoint& pixel) const;
    // Where a case is drawn, in widget pixels (for tests); (-1, -1) when it is not drawn.
    QPointF pixelOf(const QString& caseId) const;

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    // Capacity cases come in two units: vLLM's KV pool in tokens and llama.cpp's buffer in MiB.
    enum Series { Primary, Memory, Buffer, SeriesCount };
    Series seriesOf(const ValidationResult& result) const;
    void rebuild();
    void applyStyle();
    QString unitName(const std::string& unit) const;
    QString seriesName(Series series) const;

    ValidationKind m_kind;
    std::vector<ValidationResult> m_results; // this kind's, in case order
    ValidationSummary m_summary;
    ChartStyle m_style;
    QCPTextElement* m_title = nullptr;
    QCPTextElement* m_summaryText = nullptr;
    QCPGraph* m_bandUpper = nullptr;
    QCPGraph* m_bandLower = nullptr;
    QCPGraph* m_diagonal = nullptr;
    std::array<QCPGraph*, SeriesCount> m_points{};
};

// The colour a kind's points are drawn in, from the shared palette.
QColor validationKindColor(ValidationKind kind);

} // namespace kvscope::ui
