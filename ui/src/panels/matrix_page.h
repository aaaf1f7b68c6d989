// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;

namespace kvscope::ui {

class FitMatrixChart;

// The Fit matrix tab: which catalog models fit on which GPUs (or in which weight formats on the
// scenario's GPU), with the choice of columns above the chart.
class MatrixPage : public QWidget
{
    Q_OBJECT
public:
    MatrixPage(FitMatrixChart* chart, QWidget* parent = nullptr);
    void retranslate();

private:
    FitMatrixChart* m_chart;
    QLabel* m_columnsLabel = nullptr;
    QComboBox* m_columns = nullptr;
    QLabel* m_hint = nullptr;
};

} // namespace kvscope::ui
