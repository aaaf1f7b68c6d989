// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/plan_page.h"

#include "charts/line_breaks.h"
#include "charts/plan_chart.h"
#include "kvscope/settings/settings_registry.h"
#include "panels/fitting_combo_box.h"
#include "panels/planner_text.h"
#include "panels/table_columns.h"
#include "window/ui_text.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

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
// In the order of the "Runs in" choices.
const Deployment kDeployments[] = {Deployment::Any, Deployment::Datacenter, Deployment::Workstation,
                                   Deployment::Consumer};

QTableWidgetItem* cell(const QString& text, bool number = false)
{
    auto* item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    if (number)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

// A number format by its short id ("Q4_0", "AWQ-INT4") with its full name as the tooltip: the
// full names ("GGUF Q4_0 (llama.cpp)") pushed the cost columns past a laptop's width.
QTableWidgetItem* formatCell(const std::string& id, const std::string& name)
{
    QTableWidgetItem* item = cell(QString::fromStdString(id).toUpper());
    item->setToolTip(QString::fromStdString(name));
    return item;
}

} // namespace

PlanPage::PlanPage(PlanChart* chart, QWidget* parent) : QWidget(parent), m_chart(chart)
{
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("planSummary"));
    m_summary->setWordWrap(true);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_chart);
    split->addWidget(buildTable());
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    split->setSizes({600, 400}); // the chart first: at a laptop's height it keeps 60 %
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(buildSearchControls());
    // Cost on a line of its own: one line of both would widen the window past a laptop's.
    layout->addLayout(buildCostControls());
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);
    connectControls();
    retranslate();
}

// What the search ranks by, and how many GPUs a node may hold.
QGridLayout* PlanPage::buildSearchControls()
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
    m_deploymentLabel = new QLabel(this);
    m_deployment = new QComboBox(this);
    m_deployment->setObjectName(QStringLiteral("planDeployment"));
    m_deployment->addItems({QString(), QString(), QString(), QString()}); // named in retranslate
    m_deploymentLabel->setBuddy(m_deployment);
    m_requestRateLabel = new QLabel(this);
    m_requestRate = new QDoubleSpinBox(this);
    m_requestRate->setObjectName(QStringLiteral("planRequestRate"));
    m_requestRate->setRange(0, 1e6);
    m_requestRate->setDecimals(1);
    m_requestRateLabel->setBuddy(m_requestRate);
    // Rank and node on one line, where it runs and the rate on the next: one line of all four
    // widened the page past a laptop's window.
    auto* controls = new QGridLayout;
    controls->addWidget(m_objectiveLabel, 0, 0);
    controls->addWidget(m_objective, 0, 1);
    controls->addWidget(m_gpusLabel, 0, 2);
    controls->addWidget(m_maxGpus, 0, 3);
    controls->addWidget(m_deploymentLabel, 1, 0);
    controls->addWidget(m_deployment, 1, 1);
    controls->addWidget(m_requestRateLabel, 1, 2);
    controls->addWidget(m_requestRate, 1, 3);
    controls->setColumnStretch(4, 1);
    controls->setHorizontalSpacing(8);
    return controls;
}

// How prices become cost: the registry's currency, its rate and the write-off period.
QHBoxLayout* PlanPage::buildCostControls()
{
    const Setting* currency = settingById("currency");
    const Setting* rate = settingById("usd_rate");
    const Setting* years = settingById("amortization_years");
    m_currencyLabel = new QLabel(this);
    m_currency = new QComboBox(this);
    m_currency->setObjectName(QStringLiteral("planCurrency"));
    for (const std::string& c : currency->choices)
        m_currency->addItem(QString::fromStdString(c));
    m_rateLabel = new QLabel(this);
    m_rate = new QDoubleSpinBox(this);
    m_rate->setObjectName(QStringLiteral("planUsdRate"));
    m_rate->setRange(rate->lo, rate->hi);
    m_rate->setDecimals(2);
    m_yearsLabel = new QLabel(this);
    m_years = new QDoubleSpinBox(this);
    m_years->setObjectName(QStringLiteral("planAmortizationYears"));
    m_years->setRange(years->lo, years->hi);
    m_years->setDecimals(1);
    m_basisLabel = new QLabel(this);
    // As wide as its shorter item: the owned item's "(price, host, power, hosting)" set the
    // row's width past a laptop's window; the list shows it whole, the face fits it.
    auto* basis = new FittingComboBox(this);
    basis->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    basis->setMinimumContentsLength(16);
    m_basis = basis;
    m_basis->setObjectName(QStringLiteral("planCostBasis"));
    m_basis->addItems({QString(), QString()}); // rent, own: named in retranslate()
    m_basisLabel->setBuddy(m_basis);
    m_currencyLabel->setBuddy(m_currency);
    m_rateLabel->setBuddy(m_rate);
    m_yearsLabel->setBuddy(m_years);
    auto* cost = new QHBoxLayout;
    cost->addWidget(m_basisLabel);
    cost->addWidget(m_basis);
    cost->addSpacing(12);
    cost->addWidget(m_currencyLabel);
    cost->addWidget(m_currency);
    cost->addWidget(m_rateLabel);
    cost->addWidget(m_rate);
    cost->addSpacing(12);
    cost->addWidget(m_yearsLabel);
    cost->addWidget(m_years);
    cost->addStretch(1);
    return cost;
}

QTableWidget* PlanPage::buildTable()
{
    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setObjectName(QStringLiteral("planTable"));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->setVisible(false);
    // Sized by fitColumnsToWidth, not by the header: the GPU names give way to the costs.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle); // "RTX 4060…16GB × 1" keeps the count
    // The notes (down to six "m"s, whole on hover), the engines (to their heading) and then
    // the GPUs (to nine "m"s, "MI325X × 8" whole) give way until every column is in view: long
    // names ("RTX 4060 Ti 16GB × 1", "transformers (static)") pushed the costs, then the notes,
    // past a laptop's width. The GPU is what a row is read by, so it gives way last.
    m_columns = new ColumnsGiveWay(m_table, Notes, {{Notes, 6}, {Engine, -1}, {Configuration, 9}});
    elideAtEnd(m_table, Notes);
    m_table->setMinimumHeight(120);
    connect(m_table, &QTableWidget::cellDoubleClicked, this,
            [this](int row, int) { loadRow(row); });
    connect(m_table, &QTableWidget::cellActivated, this, [this](int row, int) { loadRow(row); });
    return m_table;
}

void PlanPage::connectControls()
{
    connect(m_objective, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0 && i < int(std::size(kObjectives)))
            m_chart->setObjective(kObjectives[i]);
    });
    connect(m_maxGpus, &QSpinBox::valueChanged, m_chart, &PlanChart::setMaxGpusPerNode);
    connect(m_deployment, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0 && i < int(std::size(kDeployments)))
            m_chart->setDeployment(kDeployments[i]);
    });
    connect(m_requestRate, &QDoubleSpinBox::editingFinished, this,
            [this] { m_chart->setRatePerS(m_requestRate->value()); });
    connect(m_chart, &PlanChart::planned, this, &PlanPage::fillTable);
    connect(m_currency, &QComboBox::currentTextChanged, this, &PlanPage::applyCurrency);
    // Typed values apply when editing ends, not on every keystroke.
    connect(m_rate, &QDoubleSpinBox::editingFinished, this, &PlanPage::applyCurrency);
    connect(m_basis, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_years->setEnabled(i == 1); // only an owned GPU is written off
        emit settingsChanged({{"cost_basis", i == 1 ? "own" : "rent"}});
    });
    connect(m_years, &QDoubleSpinBox::editingFinished, this, [this] {
        emit settingsChanged(
            {{"amortization_years", QString::number(m_years->value(), 'g', 10).toStdString()}});
    });
}

// A currency other than the dollar needs its rate: until one is typed (the rate still 1) the
// rate box asks for it and nothing changes.
void PlanPage::applyCurrency()
{
    if (!isVisible()) // a focus lost as the window closes is no edit
        return;
    const bool usd = m_currency->currentText() == QLatin1String("USD");
    m_rate->setEnabled(!usd);
    if (usd) {
        emit settingsChanged({{"currency", "USD"}, {"usd_rate", "1"}});
        return;
    }
    if (m_rate->value() == 1.0) {
        m_rate->setFocus();
        m_rate->selectAll();
        return;
    }
    emit settingsChanged({{"currency", m_currency->currentText().toStdString()},
                          {"usd_rate", QString::number(m_rate->value(), 'g', 10).toStdString()}});
}

void PlanPage::showScenario(const Scenario& s)
{
    const QSignalBlocker a(m_currency), b(m_rate), c(m_years), d(m_basis);
    m_basis->setCurrentIndex(s.cost.basis == CostBasis::Own ? 1 : 0);
    m_years->setEnabled(s.cost.basis == CostBasis::Own);
    m_currency->setCurrentText(QString::fromStdString(s.cost.currency));
    m_rate->setValue(s.cost.perUsd);
    m_rate->setEnabled(s.cost.currency != "USD");
    m_years->setValue(s.cost.amortizationYears);
}

void PlanPage::retranslate()
{
    m_objectiveLabel->setText(tr("Rank by:"));
    m_gpusLabel->setText(tr("GPUs per node, at most:"));
    m_basisLabel->setText(tr("Cost:"));
    m_basis->setItemText(0, tr("Rented GPU-hours"));
    m_basis->setItemText(1, tr("Owned (price, host, power, hosting)"));
    m_basis->setToolTip(tr("Rented: a cloud's on-demand price per GPU-hour. Owned: the purchase "
                           "price written off, the host's share, power and colocation. A GPU with "
                           "no price on the basis shows \u2014."));
    m_currencyLabel->setText(tr("Currency:"));
    m_rateLabel->setText(tr("per USD:"));
    m_rate->setToolTip(tr("Units of the currency one US dollar buys: catalog prices are in USD."));
    m_yearsLabel->setText(tr("Write-off years:"));
    m_years->setToolTip(tr("A bought GPU's price is spread over this many years of "
                           "round-the-clock use."));
    const int current = std::max(m_objective->currentIndex(), 0);
    const QSignalBlocker block(m_objective);
    m_objective->clear();
    m_objective->addItems({tr("Cost per hour"), tr("Cost per million tokens"), tr("Fewest GPUs"),
                           tr("Fastest per user")});
    m_objective->setCurrentIndex(current);
    m_deploymentLabel->setText(tr("Runs in:"));
    const QString deployments[] = {tr("any place"), tr("a datacenter"), tr("a workstation"),
                                   tr("a PC")};
    for (int i = 0; i < int(std::size(deployments)); ++i)
        m_deployment->setItemText(i, deployments[i]);
    m_deployment->setToolTip(tr("Which GPUs may run: a datacenter takes no Apple silicon and "
                                "notes the GeForce driver licence; a workstation takes "
                                "workstation and consumer cards and Apple silicon; a PC consumer "
                                "cards and Apple silicon."));
    m_requestRateLabel->setText(tr("Requests/s:"));
    m_requestRate->setSpecialValueText(tr("none"));
    m_requestRate->setToolTip(tr("Requests per second of the workload (prompt and output tokens "
                                 "as set in the scenario), arriving at random: each "
                                 "configuration takes the fewest replicas whose 90th-percentile "
                                 "first token meets the first-token target, and ranks by what "
                                 "they cost together."));
    // Two-line headings over the figures, so the cost columns stay in a laptop's width.
    m_table->setHorizontalHeaderLabels(
        {tr("#"), tr("GPUs"), tr("Engine"), tr("Weights"), tr("KV cache"), tr("Tokens/s\nper user"),
         tr("Tokens/s\nin all"), tr("First token\n(last user)"), tr("Per\nhour"),
         tr("Per million\ntokens, mixed"), tr("Notes")});
    m_table->setToolTip(tr("Double-click a row to make it the scenario."));
    fillTable();
}

// The cheapest configuration the plan turned away, and what it lacked: why the first row costs
// what it does.
QString PlanPage::turnedAway(const PlanResult& result, const PlanRequest& request)
{
    if (!result.cheapestRejected)
        return {};
    const PlanEntry& c = *result.cheapestRejected;
    const Scenario& s = c.scenario;
    const Targets t = planTargets(request.base);
    QStringList why;
    if (!c.verdict.runs)
        why << tr("it does not fit");
    if (c.verdict.runs && c.verdict.missesTokensPerS)
        why << tr("%1 tokens/s per user, under %2")
                   .arg(UiText::tokensPerSecond(c.verdict.tokensPerSUser),
                        UiText::tokensPerSecond(t.minTokensPerSUser));
    if (c.verdict.runs && c.verdict.missesTtft)
        why << tr("first token in %1, over %2")
                   .arg(UiText::duration(c.verdict.ttftLastMs), UiText::duration(t.maxTtftMs));
    if (std::find(c.lacks.begin(), c.lacks.end(), "rate") != c.lacks.end())
        why << tr("no concurrency serves the rate within the targets");
    return tr("Cheapest turned away: %1 (%2) at %3 an hour: %4.")
        .arg(PlannerText::gpus(s), QString::fromStdString(s.engine.shortName),
             PlannerText::money(c.cost.perHour, s.cost.currency), why.join(tr("; ")));
}

QString PlanPage::users(int64_t count)
{
    return count == 1 ? tr("one user") : tr("%1 users").arg(UiText::integer(count));
}

// What every row had to meet (the targets the plan applied, its defaults where none are set).
QString PlanPage::heldTo(const PlanRequest& request)
{
    const Targets t = planTargets(request.base);
    if (request.base.batch == 1)
        return tr("Each meets %1 tokens/s per user and a first token within %2 for a "
                  "full-context prompt; KV caches of %3 bits and more.")
            .arg(UiText::tokensPerSecond(t.minTokensPerSUser), UiText::duration(t.maxTtftMs),
                 UiText::integer(int64_t(request.minKvBits)));
    return tr("Each meets %1 tokens/s per user and a first token within %2 for the last of %3 "
              "prompts sent together; KV caches of %4 bits and more.")
        .arg(UiText::tokensPerSecond(t.minTokensPerSUser), UiText::duration(t.maxTtftMs),
             UiText::integer(request.base.batch), UiText::integer(int64_t(request.minKvBits)));
}

void PlanPage::fillTable()
{
    const PlanResult& result = m_chart->result();
    const PlanRequest& request = m_chart->request();
    const bool misses = result.ranked.empty();
    const std::vector<PlanEntry>& entries = misses ? result.closestMisses : result.ranked;
    const Scenario& b = request.base;
    QString summary;
    if (misses)
        summary = tr("Nothing in the catalog runs %1 at %2 tokens for %3 and meets the "
                     "targets; the closest, and what each lacks:")
                      .arg(QString::fromStdString(b.model.name), UiText::integer(b.context),
                           users(b.batch));
    else
        summary = tr("%1 at %2 tokens for %3: %4 configurations evaluated, the best "
                     "per GPU and count below.")
                      .arg(QString::fromStdString(b.model.name), UiText::integer(b.context),
                           users(b.batch), UiText::integer(int64_t(result.evaluated)));
    // Japanese sentences follow one another with no space.
    summary +=
        (summary.endsWith(QChar(0x3002)) ? QString() : QStringLiteral(" ")) + heldTo(request);
    if (const QString turned = turnedAway(result, request); !turned.isEmpty())
        summary += (summary.endsWith(QChar(0x3002)) ? QString() : QStringLiteral(" ")) + turned;
    m_summary->setText(result.evaluated == 0 ? QString() : withoutForbiddenBreaks(summary));
    // One user's tokens/s in all are its own: the column would repeat the one beside it, and
    // its width pushed the costs past a laptop's window.
    m_table->setColumnHidden(AllUsers, b.batch == 1);
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
        m_table->setItem(row, Rank, cell(misses ? none : UiText::integer(int64_t(p.rank)), true));
        // The split the search chose leads the notes: in the GPU cell it pushed the GPU's name
        // out of a laptop's column.
        QTableWidgetItem* gpus = cell(PlannerText::gpus(s, false));
        gpus->setToolTip(PlannerText::gpus(s)); // whole, with the split
        notes = PlannerText::split(s) + notes;
        m_table->setItem(row, Configuration, gpus);
        QTableWidgetItem* engine = cell(QString::fromStdString(s.engine.shortName));
        engine->setToolTip(QString::fromStdString(s.engine.name));
        m_table->setItem(row, Engine, engine);
        m_table->setItem(row, Weights, formatCell(s.weights.id, s.weights.name));
        m_table->setItem(row, Kv, formatCell(s.kvDtype.id, s.kvDtype.name));
        const bool runs = p.verdict.runs;
        // How far measurements of the row's speed class fell from kvscope's, on hover; a speed
        // no measurement bounds is tagged where the reader looks for cautions (issue 43).
        QTableWidgetItem* perUser =
            cell(runs ? UiText::tokensPerSecond(p.verdict.tokensPerSUser) : none, true);
        if (runs)
            perUser->setToolTip(UiText::decodeBand(s));
        m_table->setItem(row, PerUser, perUser);
        if (runs && !p.band.usable())
            notes << tr("speed unmeasured");
        m_table->setItem(row, AllUsers,
                         cell(runs ? UiText::tokensPerSecond(p.tokensPerS) : none, true));
        m_table->setItem(row, Ttft,
                         cell(runs ? UiText::duration(p.verdict.ttftLastMs) : none, true));
        m_table->setItem(
            row, PerHour,
            cell(p.cost.known ? PlannerText::money(p.cost.perHour, currency) : none, true));
        QTableWidgetItem* perMillion = cell(
            p.cost.known && runs ? PlannerText::money(p.cost.perMillionTokens, currency) : none,
            true);
        if (p.cost.known && runs) // priced apart, as APIs price them, and mixed as the workload
            perMillion->setToolTip(
                tr("Prompt tokens %1, output tokens %2 per million; mixed as %3 prompt and %4 "
                   "output tokens a request.")
                    .arg(PlannerText::money(p.cost.perMillionPromptTokens, currency),
                         PlannerText::money(p.cost.perMillionOutputTokens, currency),
                         UiText::integer(s.workload.promptTokens),
                         UiText::integer(s.workload.outputTokens)));
        m_table->setItem(row, PerMillion, perMillion);
        if (p.rate.serves()) // with a request rate: the replicas and what they cost together
            notes << tr("%1 replicas: %2/h, p90 first token %3")
                         .arg(UiText::integer(p.rate.replicas),
                              PlannerText::money(p.costPerHourAtRate(), currency),
                              UiText::duration(p.rate.ttftP90Ms));
        // A lossy format or a GeForce card in a datacenter: a tag, the sentence and its source
        // on hover.
        QStringList cautions;
        for (const Caution& c : p.cautions) {
            notes << PlannerText::cautionTag(c);
            cautions << PlannerText::caution(c, ByteUnits::Binary);
        }
        QTableWidgetItem* noteCell = cell(notes.join(tr(", ")));
        // The notes whole (the column may elide them), then each caution's sentence.
        cautions.prepend(noteCell->text());
        noteCell->setToolTip(cautions.join(QLatin1Char('\n')));
        m_table->setItem(row, Notes, noteCell);
    }
    m_columns->fit();
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
