// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/plan_page.h"

#include "charts/plan_chart.h"
#include "panels/planner_text.h"
#include "window/ui_text.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace kvscope::ui {

namespace {

enum Column {
    Rank,
    Configuration,
    Engine,
    Weights,
    Kv,
    PerUser,
    AllUsers,
    Ttft,
    PerHour,
    PerMillion,
    Notes,
    ColumnCount
};

const PlanObjective kObjectives[] = {PlanObjective::CostPerHour,
                                     PlanObjective::CostPerMillionTokens, PlanObjective::FewestGpus,
                                     PlanObjective::Fastest};

QTableWidgetItem* cell(const QString& text, bool number = false)
{
    auto* item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    if (number)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

PlanPage::PlanPage(PlanChart* chart, QWidget* parent) : QWidget(parent), m_chart(chart)
{
    m_objectiveLabel = new QLabel(this);
    m_objective = new QComboBox(this);
    m_objective->setObjectName(QStringLiteral("planObjective"));
    m_gpusLabel = new QLabel(this);
    m_maxGpus = new QSpinBox(this);
    m_maxGpus->setObjectName(QStringLiteral("planMaxGpus"));
    m_maxGpus->setRange(1, 8);
    m_maxGpus->setValue(8);
    m_objectiveLabel->setBuddy(m_objective);
    m_gpusLabel->setBuddy(m_maxGpus);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    auto* controls = new QHBoxLayout;
    controls->addWidget(m_objectiveLabel);
    controls->addWidget(m_objective);
    controls->addSpacing(12);
    controls->addWidget(m_gpusLabel);
    controls->addWidget(m_maxGpus);
    controls->addSpacing(12);
    controls->addWidget(m_summary, 1);

    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setObjectName(QStringLiteral("planTable"));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    connect(m_table, &QTableWidget::cellDoubleClicked, this,
            [this](int row, int) { loadRow(row); });
    connect(m_table, &QTableWidget::cellActivated, this, [this](int row, int) { loadRow(row); });

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_chart);
    split->addWidget(m_table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    split->setSizes({600, 400}); // the chart first: at a laptop's height it keeps 60 %
    m_table->setMinimumHeight(120);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(split, 1);

    connect(m_objective, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0 && i < int(std::size(kObjectives)))
            m_chart->setObjective(kObjectives[i]);
    });
    connect(m_maxGpus, &QSpinBox::valueChanged, m_chart, &PlanChart::setMaxGpusPerNode);
    connect(m_chart, &PlanChart::planned, this, &PlanPage::fillTable);
    retranslate();
}

void PlanPage::retranslate()
{
    m_objectiveLabel->setText(tr("Rank by:"));
    m_gpusLabel->setText(tr("GPUs per node, at most:"));
    const int current = std::max(m_objective->currentIndex(), 0);
    const QSignalBlocker block(m_objective);
    m_objective->clear();
    m_objective->addItems({tr("Cost per hour"), tr("Cost per million tokens"), tr("Fewest GPUs"),
                           tr("Fastest per user")});
    m_objective->setCurrentIndex(current);
    m_table->setHorizontalHeaderLabels({tr("#"), tr("GPUs"), tr("Engine"), tr("Weights"),
                                        tr("KV cache"), tr("Tokens/s per user"),
                                        tr("Tokens/s in all"), tr("First token"), tr("Per hour"),
                                        tr("Per million tokens"), tr("Notes")});
    m_table->setToolTip(tr("Double-click a row to make it the scenario."));
    fillTable();
}

QString PlanPage::users(int64_t count)
{
    return count == 1 ? tr("one user") : tr("%1 users").arg(UiText::integer(count));
}

void PlanPage::fillTable()
{
    const PlanResult& result = m_chart->result();
    const PlanRequest& request = m_chart->request();
    const bool misses = result.ranked.empty();
    const std::vector<PlanEntry>& entries = misses ? result.closestMisses : result.ranked;
    const Scenario& b = request.base;
    if (result.evaluated == 0)
        m_summary->clear();
    else if (misses)
        m_summary->setText(tr("Nothing in the catalog runs %1 at %2 tokens for %3 and meets the "
                              "targets; the closest, and what each lacks:")
                               .arg(QString::fromStdString(b.model.name),
                                    UiText::integer(b.context), users(b.batch)));
    else
        m_summary->setText(tr("%1 at %2 tokens for %3: %4 configurations evaluated, the best "
                              "per GPU and count below.")
                               .arg(QString::fromStdString(b.model.name),
                                    UiText::integer(b.context), users(b.batch),
                                    UiText::integer(int64_t(result.evaluated))));
    m_table->setRowCount(int(entries.size()));
    for (int row = 0; row < int(entries.size()); ++row) {
        const PlanEntry& p = entries[size_t(row)];
        const Scenario& s = p.scenario;
        const std::string& currency = s.cost.currency;
        QStringList notes;
        if (p.onFront)
            notes << tr("on the front");
        for (const std::string& lack : p.lacks)
            notes << (lack == "fit"            ? tr("does not fit")
                      : lack == "tokens_per_s" ? tr("too slow per user")
                      : lack == "ttft"         ? tr("first token too late")
                                               : QString::fromStdString(lack));
        const QString none = QStringLiteral("—");
        m_table->setItem(row, Rank, cell(misses ? none : UiText::integer(row + 1), true));
        m_table->setItem(row, Configuration,
                         cell(tr("%1 × %2").arg(UiText::integer(s.gpuCount),
                                                PlannerText::shortName(s.gpu.name))));
        m_table->setItem(row, Engine, cell(PlannerText::shortName(s.engine.name)));
        m_table->setItem(row, Weights, cell(QString::fromStdString(s.weights.name)));
        m_table->setItem(row, Kv, cell(QString::fromStdString(s.kvDtype.name)));
        const bool runs = p.verdict.runs;
        m_table->setItem(
            row, PerUser,
            cell(runs ? UiText::tokensPerSecond(p.verdict.tokensPerSUser) : none, true));
        m_table->setItem(row, AllUsers,
                         cell(runs ? UiText::tokensPerSecond(p.tokensPerS) : none, true));
        m_table->setItem(row, Ttft, cell(runs ? UiText::duration(p.verdict.ttftMs) : none, true));
        m_table->setItem(
            row, PerHour,
            cell(p.cost.known ? PlannerText::money(p.cost.perHour, currency) : none, true));
        m_table->setItem(row, PerMillion,
                         cell(p.cost.known && runs
                                  ? PlannerText::money(p.cost.perMillionTokens, currency)
                                  : none,
                              true));
        m_table->setItem(row, Notes, cell(notes.join(QStringLiteral(", "))));
    }
}

void PlanPage::loadRow(int row)
{
    const PlanResult& result = m_chart->result();
    const std::vector<PlanEntry>& entries =
        result.ranked.empty() ? result.closestMisses : result.ranked;
    if (row >= 0 && row < int(entries.size()))
        emit loadRequested(entries[size_t(row)].scenario);
}

} // namespace kvscope::ui
