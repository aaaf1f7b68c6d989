// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/matrix_page.h"

#include "charts/fit_matrix_chart.h"
#include "charts/line_breaks.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

namespace kvscope::ui {

MatrixPage::MatrixPage(FitMatrixChart* chart, QWidget* parent) : QWidget(parent), m_chart(chart)
{
    m_columnsLabel = new QLabel(this);
    m_columns = new QComboBox(this);
    m_columns->setObjectName(QStringLiteral("matrixColumns"));
    m_columnsLabel->setBuddy(m_columns);
    m_hint = new QLabel(this);
    m_hint->setWordWrap(true);
    auto* controls = new QHBoxLayout;
    controls->addWidget(m_columnsLabel);
    controls->addWidget(m_columns);
    controls->addSpacing(12);
    controls->addWidget(m_hint, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(controls);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_chart);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(scroll, 1);
    // The scenario's cell in view, centred where the page allows, each time the matrix is
    // drawn: the page opened at the smallest model, the scenario's cell and the legend below.
    connect(m_chart, &ChartBase::drawn, this, [this, scroll] {
        const QRect cell = m_chart->currentCellRect();
        if (cell.isEmpty())
            return;
        const QPoint centre = cell.center();
        scroll->ensureVisible(centre.x(), centre.y(), scroll->viewport()->width() / 2,
                              scroll->viewport()->height() / 2);
    });
    connect(m_columns, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_chart->setAxes(i == 1 ? MatrixAxes::ModelsByFormats : MatrixAxes::ModelsByGpus);
    });
    retranslate();
}

void MatrixPage::retranslate()
{
    m_columnsLabel->setText(tr("Columns:"));
    const int current = std::max(m_columns->currentIndex(), 0);
    const QSignalBlocker block(m_columns);
    m_columns->clear();
    m_columns->addItems({tr("GPUs"), tr("Weight formats on this GPU")});
    m_columns->setCurrentIndex(current);
    m_hint->setText(withoutForbiddenBreaks(
        tr("Every cell is the scenario with that model and GPU (or format): same "
           "context, sequences and engine. The outlined cell is the scenario.")));
}

} // namespace kvscope::ui
