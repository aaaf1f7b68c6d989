// SPDX-License-Identifier: GPL-3.0-or-later
#include "validation/validation_view.h"

#include "charts/line_breaks.h"
#include "panels/table_columns.h"
#include "validation/validation_plot.h"
#include "window/ui_text.h"

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace kvscope::ui {

namespace {

enum Column {
    CaseId,
    Kind,
    Split,
    Model,
    Gpu,
    SpeedClassColumn,
    Predicted,
    Measured,
    Error, // before the unit: the figure a reader looks for, in view on a laptop
    Unit,
    Note,
    ColumnCount
};

// A cell that sorts by the number behind its text (Qt::UserRole), not by the text.
class NumberItem : public QTableWidgetItem
{
public:
    NumberItem(const QString& text, double value) : QTableWidgetItem(text)
    {
        setData(Qt::UserRole, value);
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem& other) const override
    {
        return data(Qt::UserRole).toDouble() < other.data(Qt::UserRole).toDouble();
    }
};

int decimalsFor(const std::string& unit)
{
    return unit == "tokens" ? 0 : unit == "tokens/s" ? 1 : 2;
}

// Below this a plot's title, counts, axes and legend leave its points no room.
constexpr int kPlotMinimumHeight = 235;

} // namespace

ValidationView::ValidationView(const Catalog& catalog, QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("validationView"));
    setSizeGripEnabled(true);
    m_intro = new QLabel(this);
    m_intro->setWordWrap(true);
    m_caption = new QLabel(this);
    m_caption->setWordWrap(true);
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* plots = new QWidget(this);
    // Three a row: five side by side would squeeze each below a readable width on a laptop.
    auto* plotGrid = new QGridLayout(plots);
    plotGrid->setContentsMargins(0, 0, 0, 0);
    for (ValidationKind kind : allValidationKinds) {
        const int at = int(kind);
        m_plots[size_t(kind)] = new ValidationPlot(kind, plots);
        plotGrid->addWidget(m_plots[size_t(kind)], at / 3, at % 3);
    }
    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle);
    // The models, the case ids (up to 80 characters) and the speed classes give way, in that
    // order, until the error and the figures' unit are in view: on a laptop the measured figure,
    // its error and its unit were behind the scroll bar; at 1,920 pixels the ids were cut beside
    // an empty note column.
    m_columns =
        new ColumnsGiveWay(m_table, Unit, {{Model, 12}, {CaseId, 16}, {SpeedClassColumn, 10}});
    // Sortable by any column once clicked; until then in the files' order, kind by kind.
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_table->horizontalHeader()->setStretchLastSection(true);

    // On a laptop (and in Japanese, whose legends take more lines) the plots would be squeezed
    // to strips with their ticks on one another: they keep a readable height and scroll.
    for (ValidationPlot* plot : m_plots)
        plot->setMinimumHeight(kPlotMinimumHeight);
    auto* plotScroll = new QScrollArea(this);
    plotScroll->setWidget(plots);
    plotScroll->setWidgetResizable(true);
    plotScroll->setFrameShape(QFrame::NoFrame);
    plotScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(plotScroll);
    splitter->addWidget(m_table);
    // Two rows of plots need most of a laptop's height; the table scrolls and its splitter
    // drags.
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);
    // Three rows of cases at least beside the plots without dragging (at 1366 x 768 the plots
    // took all but one and a half rows; more rows squeeze the plots to strips).
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height() +
                              3 * m_table->verticalHeader()->defaultSectionSize() +
                              m_table->horizontalScrollBar()->sizeHint().height() +
                              2 * m_table->frameWidth());

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_close = buttons->button(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_intro);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_caption);
    layout->addWidget(buttons);
    resize(1400, 900);

    const auto dirs = defaultDataDirs(QCoreApplication::applicationFilePath().toStdString());
    if (const auto dir = findValidationDir(dirs)) {
        auto cases = loadValidationDir(*dir);
        if (cases)
            setReport(runValidation(*cases, catalog), QString::fromStdString(dir->string()));
        else
            setProblem(UiText::fieldError(cases.error()));
    } else {
        setProblem(
            tr("No validation set was found in the data directories (is kvscope installed?)."));
    }
    retranslate();
}

QString ValidationView::kindTitle(ValidationKind kind)
{
    switch (kind) {
    case ValidationKind::Capacity:
        return tr("KV cache capacity");
    case ValidationKind::Decode:
        return tr("Decode speed");
    case ValidationKind::Pcie:
        return tr("PCIe host-to-GPU copy");
    case ValidationKind::Tpot:
        return tr("Time per output token, serving");
    case ValidationKind::Ttft:
        return tr("Time to first token, serving");
    }
    return {};
}

QString ValidationView::kindName(ValidationKind kind)
{
    switch (kind) {
    case ValidationKind::Capacity:
        return tr("capacity");
    case ValidationKind::Decode:
        return tr("decode");
    case ValidationKind::Pcie:
        return QStringLiteral("PCIe");
    case ValidationKind::Tpot:
        return tr("time per token");
    case ValidationKind::Ttft:
        return tr("first token");
    }
    return {};
}

QString ValidationView::skipReason(const ValidationResult& r)
{
    const QString detail = QString::fromStdString(r.skipDetail);
    switch (r.skip) {
    case SkipReason::None:
        return {};
    case SkipReason::GpuNotStated:
        return tr("Skipped: the source does not name the GPU");
    case SkipReason::NotInCatalog:
        return tr("Skipped: %1 is not in the catalog").arg(detail);
    case SkipReason::SettingNotStated:
        return tr("Skipped: %1 is not stated, and the figure depends on it").arg(detail);
    case SkipReason::MixedKvTypes:
        return tr("Skipped: K and V cache types differ (%1)").arg(detail);
    case SkipReason::Refused:
        return tr("Skipped: %1").arg(detail);
    case SkipReason::NotPinnedCopy:
        // The details are the case file's own English words; the CLI prints them.
        return tr("Skipped: not a direct DMA from pinned memory");
    case SkipReason::EngineDefect:
        return tr("Skipped: the source reports this figure as an engine defect");
    }
    return {};
}

void ValidationView::setReport(const ValidationReport& report, const QString& source)
{
    m_report = report;
    m_source = source;
    m_problem.clear();
    for (ValidationPlot* plot : m_plots)
        plot->setReport(report);
    fillTable();
    retranslate();
}

void ValidationView::setProblem(const QString& message)
{
    m_problem = message;
    retranslate();
}

void ValidationView::retranslate()
{
    setWindowTitle(tr("Validation against public measurements"));
    // Japanese wraps between any two characters unless told otherwise: words kept whole.
    m_intro->setText(withoutForbiddenBreaks(tr(
        "Each point is a public measurement (an engine's start-up log, a benchmark table or a copy "
        "test) against kvscope's prediction for the same model, GPU and settings, with the "
        "catalog's default factors, not the current scenario's. Points on the dashed diagonal "
        "agree; the shaded band is ±10 %. Hover a point for its case.")));
    if (!m_problem.isEmpty()) {
        m_caption->setText(withoutForbiddenBreaks(m_problem));
    } else {
        int skipped = 0;
        for (const ValidationResult& r : m_report.results)
            skipped += r.skipped() ? 1 : 0;
        m_caption->setText(
            withoutForbiddenBreaks(tr("%1 cases (%2 skipped) from %3")
                                       .arg(UiText::integer(int64_t(m_report.results.size())),
                                            UiText::integer(skipped), m_source) +
                                   QLatin1Char('\n') + heldOutSummary()));
    }
    m_table->setHorizontalHeaderLabels({tr("Case"), tr("Kind"), tr("Split"), tr("Model"), tr("GPU"),
                                        tr("Speed class"), tr("Predicted"), tr("Measured"),
                                        tr("Error"), tr("Unit"), tr("Note")});
    if (m_close)
        m_close->setText(tr("Close"));
    fillTable();
}

// The honest figures, kind by kind: the cases no default, rule or setting was shaped by.
QString ValidationView::heldOutSummary() const
{
    QStringList kinds;
    for (ValidationKind kind : allValidationKinds) {
        const ValidationSummary& s = m_report.heldOut[size_t(kind)];
        if (s.evaluated == 0)
            continue;
        kinds << tr("%1 %2 cases, median %3 %")
                     .arg(kindName(kind), UiText::integer(s.evaluated),
                          UiText::number(s.medianAbsError * 100, 1));
    }
    if (kinds.isEmpty())
        return tr("No held-out case: every case shaped a default, a rule or a setting.");
    return tr("Held out (no default fitted to them): %1.").arg(kinds.join(tr("; ")));
}

void ValidationView::fillTable()
{
    m_table->setSortingEnabled(false);
    m_table->setRowCount(int(m_report.results.size()));
    int row = 0;
    for (const ValidationResult& r : m_report.results) {
        auto text = [](const std::string& s) {
            return new QTableWidgetItem(QString::fromStdString(s));
        };
        QTableWidgetItem* id = text(r.id);
        id->setToolTip(id->text()); // the column elides long ids
        m_table->setItem(row, CaseId, id);
        m_table->setItem(row, Kind, new QTableWidgetItem(kindName(r.kind)));
        m_table->setItem(row, Split, new QTableWidgetItem(r.heldOut ? tr("held out") : tr("fit")));
        m_table->setItem(row, SpeedClassColumn, text(r.speedClass));
        m_table->setItem(row, Model, text(r.model));
        m_table->setItem(row, Gpu, text(r.gpu));
        QString unit = QString::fromStdString(r.unit);
        if (r.unit == "tokens")
            unit = tr("tokens");
        else if (r.unit == "tokens/s")
            unit = tr("tokens/s");
        m_table->setItem(row, Unit, new QTableWidgetItem(unit));
        QStringList notes;
        if (r.skipped()) {
            for (Column c : {Predicted, Measured, Error})
                m_table->setItem(row, c, new NumberItem(QStringLiteral("—"), 1e300));
            notes << skipReason(r);
        } else {
            const int d = decimalsFor(r.unit);
            m_table->setItem(row, Predicted,
                             new NumberItem(UiText::number(r.predicted, d), r.predicted));
            m_table->setItem(row, Measured,
                             new NumberItem(UiText::number(r.measured, d), r.measured));
            const QString sign = r.error >= 0 ? QStringLiteral("+") : QString();
            m_table->setItem(
                row, Error,
                new NumberItem(sign + UiText::number(r.error * 100, 1) + QStringLiteral(" %"),
                               std::fabs(r.error)));
        }
        if (r.defaultContext)
            notes << tr("No context stated: decoded at 128 tokens (llama-bench's tg128)");
        if (r.defaultEngine)
            notes << tr("Engine not stated: the catalog's default engine");
        if (r.defaultGpu)
            notes << tr("GPU not stated: llama.cpp's KV buffer does not depend on it");
        auto* note = new QTableWidgetItem(notes.join(QStringLiteral("; ")));
        note->setToolTip(note->text()); // the column may elide it
        m_table->setItem(row, Note, note);
        ++row;
    }
    m_table->setSortingEnabled(true);
    m_columns->fit();
}

void ValidationView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QDialog::changeEvent(event);
}

} // namespace kvscope::ui
