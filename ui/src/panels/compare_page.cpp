// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/compare_page.h"

#include "charts/line_breaks.h"
#include "kvscope/settings/scenario_file.h"
#include "kvscope/settings/settings_registry.h"
#include "kvscope/text/comparison_text.h"
#include "window/ui_text.h"

#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace kvscope::ui {

ComparePage::ComparePage(ScenarioController* controller, QWidget* parent)
    : QWidget(parent), m_controller(controller)
{
    setObjectName(QStringLiteral("comparePage"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 6, 0, 0);
    auto* buttons = new QHBoxLayout;
    m_pin = new QPushButton(this);
    m_rename = new QPushButton(this);
    m_unpin = new QPushButton(this);
    m_unpinAll = new QPushButton(this);
    m_pinFile = new QPushButton(this);
    m_copyText = new QPushButton(this);
    m_copyMarkdown = new QPushButton(this);
    m_rename->setObjectName(QStringLiteral("renamePinned"));
    m_unpin->setObjectName(QStringLiteral("unpin"));
    for (QPushButton* b : {m_pin, m_pinFile, m_rename, m_unpin, m_unpinAll})
        buttons->addWidget(b);
    buttons->addStretch(1);
    buttons->addWidget(m_copyText);
    buttons->addWidget(m_copyMarkdown);
    layout->addLayout(buttons);
    m_hint = new QLabel(this);
    m_hint->setWordWrap(true);
    m_hint->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_hint);
    m_table = new QTableWidget(this);
    m_table->setObjectName(QStringLiteral("comparisonTable"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectColumns);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setWordWrap(true);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addWidget(m_table, 1);

    connect(m_pin, &QPushButton::clicked, this, [this] { m_controller->pin(); });
    connect(m_unpinAll, &QPushButton::clicked, m_controller, &ScenarioController::unpinAll);
    connect(m_pinFile, &QPushButton::clicked, this, [this] {
        const QStringList paths =
            QFileDialog::getOpenFileNames(this, tr("Pin scenario files"), QString(),
                                          tr("kvscope scenario (*.kvscope.json *.json)"));
        if (!paths.isEmpty())
            pinFiles(paths);
    });
    connect(m_unpin, &QPushButton::clicked, this, [this] {
        if (const int i = selectedPinned(); i >= 0)
            m_controller->unpin(size_t(i));
    });
    connect(m_rename, &QPushButton::clicked, this, [this] { renameColumn(selectedPinned()); });
    connect(m_table->horizontalHeader(), &QHeaderView::sectionDoubleClicked, this,
            &ComparePage::renameColumn);
    connect(m_table, &QTableWidget::itemSelectionChanged, this,
            &ComparePage::enableSelectionActions);
    enableSelectionActions();
    connect(m_copyText, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(tableText(false)); });
    connect(m_copyMarkdown, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(tableText(true)); });
    connect(m_controller, &ScenarioController::evaluated, this, [this] {
        m_stale = true;
        if (isVisible())
            refresh();
    });
    retranslate();
}

namespace {

// A figure with its unit ("8.66 GiB", "-69 %") held on one line.
QString unbroken(const std::string& text)
{
    return QString::fromStdString(text).replace(QLatin1Char(' '), QChar(0x00A0));
}

// An input's value as compared: the setting's own text with its unit ("300 MiB"), or that it
// was left to its default.
QString inputValueText(const std::string& flag, const std::string& value)
{
    if (value == "(default)")
        return ComparePage::tr("default");
    const Setting* setting = settingByFlag(flag);
    // Symbols read the same in every language; words ("tokens") are left to the row's label.
    const bool symbol = setting && setting->unit &&
                        QStringList{QStringLiteral("GB/s"), QStringLiteral("GiB"),
                                    QStringLiteral("MiB"), QStringLiteral("ms")}
                            .contains(QString::fromUtf8(setting->unit));
    const bool number =
        symbol && (setting->type == SettingType::Integer || setting->type == SettingType::Real);
    return number ? QStringLiteral("%1 %2").arg(QString::fromStdString(value),
                                                QString::fromUtf8(setting->unit))
                  : QString::fromStdString(value);
}

} // namespace

bool ComparePage::pinFiles(const QStringList& paths)
{
    std::vector<std::string> files;
    for (const QString& path : paths)
        files.push_back(path.toStdString());
    auto loaded = loadComparedFiles(files, m_controller->catalog());
    std::vector<NamedScenario> all = m_controller->pinnedScenarios();
    std::optional<FieldError> error;
    if (!loaded)
        error = loaded.error();
    else if (all.size() + loaded->size() > size_t(kMaxPinned))
        error = FieldError{tr("pinned scenarios").toStdString(),
                           std::to_string(all.size() + loaded->size()),
                           tr("at most %1").arg(kMaxPinned).toStdString()};
    if (!error) {
        all.insert(all.end(), loaded->begin(), loaded->end());
        error = m_controller->setPinned(all);
    }
    if (error) {
        QMessageBox::warning(this, tr("Cannot pin"),
                             tr("Nothing was pinned; the comparison is unchanged.\n%1")
                                 .arg(UiText::fieldError(*error)));
        return false;
    }
    return true;
}

void ComparePage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale)
        refresh();
}

void ComparePage::setByteUnits(ByteUnits units)
{
    m_units = units;
    refresh();
}

void ComparePage::retranslate()
{
    m_pin->setText(tr("Pin current scenario"));
    m_pin->setToolTip(
        tr("Keep the scenario as it is now beside the live one (up to four: A to D)"));
    m_pinFile->setText(tr("Pin a file..."));
    m_pinFile->setToolTip(tr("Pin saved scenarios beside the live one without opening them"));
    m_rename->setText(tr("Rename..."));
    m_unpin->setText(tr("Unpin"));
    m_unpinAll->setText(tr("Unpin all"));
    m_copyText->setText(tr("Copy as text"));
    m_copyMarkdown->setText(tr("Copy as Markdown"));
    refresh();
}

std::vector<NamedScenario> ComparePage::compared() const
{
    return comparedScenarios(m_controller->snapshot());
}

QString ComparePage::tableText(bool markdown) const
{
    auto comparison = compareScenarios(compared());
    if (!comparison)
        return UiText::fieldError(comparison.error());
    return QString::fromStdString(comparisonText(
        *comparison, m_units, markdown ? SummaryStyle::Markdown : SummaryStyle::PlainTable,
        UiText::numberStyle()));
}

int ComparePage::selectedPinned() const
{
    const QModelIndexList columns = m_table->selectionModel()->selectedColumns();
    if (columns.isEmpty())
        return -1;
    const int column = columns.front().column();
    return column < int(m_controller->pinned().size()) ? column : -1;
}

void ComparePage::renameColumn(int column)
{
    if (column < 0 || column >= int(m_controller->pinned().size()))
        return;
    bool ok = false;
    const QString name = QInputDialog::getText(
        this, tr("Rename pinned scenario"), tr("Name:"), QLineEdit::Normal,
        QString::fromStdString(m_controller->pinned()[size_t(column)].name), &ok);
    if (ok && !name.trimmed().isEmpty())
        m_controller->renamePinned(size_t(column), name.trimmed().toStdString());
}

QString ComparePage::figureLabel(const std::string& id)
{
    static const std::pair<const char*, const char*> labels[] = {
        {"runs", QT_TR_NOOP("Runs")},
        {"weights_bytes_all_gpus", QT_TR_NOOP("Weights (in all, host RAM too)")},
        {"kv_bytes_per_token_per_gpu", QT_TR_NOOP("KV per token (per GPU)")},
        {"kv_bytes_per_gpu", QT_TR_NOOP("KV cache (per GPU)")},
        {"vram_needed_bytes_per_gpu", QT_TR_NOOP("VRAM needed (per GPU)")},
        {"vram_free_bytes_per_gpu", QT_TR_NOOP("VRAM free (per GPU)")},
        {"longest_context_tokens", QT_TR_NOOP("Longest context per sequence")},
        {"max_concurrency", QT_TR_NOOP("Sequences at this context")},
        {"decode_ms", QT_TR_NOOP("Decode time per token")},
        {"tokens_per_s", QT_TR_NOOP("Output tokens/s (all sequences)")},
        {"ttft_ms", QT_TR_NOOP("Time to first token")},
        {"cost_per_hour", QT_TR_NOOP("Cost per hour")},
        {"cost_per_million_prompt_tokens", QT_TR_NOOP("Cost per million prompt tokens")},
        {"cost_per_million_tokens", QT_TR_NOOP("Cost per million output tokens")},
    };
    for (const auto& [key, label] : labels)
        if (id == key)
            return tr(label);
    return QString::fromStdString(id);
}

// Rename and Unpin act on the selected pinned column: with none selected (nothing pinned, or
// the current scenario's column) they are off.
void ComparePage::enableSelectionActions()
{
    const bool pinnedSelected = selectedPinned() >= 0;
    m_rename->setEnabled(pinnedSelected);
    m_unpin->setEnabled(pinnedSelected);
}

void ComparePage::refresh()
{
    if (!m_controller->hasSnapshot())
        return;
    m_stale = false;
    const size_t pinned = m_controller->pinned().size();
    m_pin->setEnabled(pinned < size_t(kMaxPinned));
    m_pinFile->setEnabled(pinned < size_t(kMaxPinned));
    m_unpinAll->setEnabled(pinned > 0);
    enableSelectionActions();
    m_hint->setText(withoutForbiddenBreaks(
        pinned == 0 ? tr("Nothing is pinned yet. Pin the scenario, change it, and "
                         "every figure shows the change against A.")
                    : tr("Changes are against %1. Double-click a pinned "
                         "scenario's name to rename it.")
                          .arg(QString::fromStdString(m_controller->pinned().front().name))));
    auto comparison = compareScenarios(compared());
    if (comparison)
        fill(*comparison);
}

QString ComparePage::valueText(const Comparison& c, const ComparedFigure& f, size_t i,
                               ByteUnits units)
{
    if (f.kind == FigureKind::YesNo)
        return f.values[i].value_or(0) != 0 ? tr("yes") : tr("no");
    return unbroken(comparedValueText(c, f, i, units, UiText::numberStyle()));
}

QString ComparePage::changeText(const Comparison& c, const ComparedFigure& f, size_t i,
                                ByteUnits units)
{
    const NumberStyle st = UiText::numberStyle();
    const std::string absolute = i > 0 ? absoluteChangeText(c, f, i, units, st) : std::string();
    if (f.kind == FigureKind::YesNo || absolute.empty() || absolute == "0")
        return {};
    const std::string relative = relativeChangeText(f, i, st);
    // A narrow column wraps between the two, never inside one.
    return unbroken(absolute) +
           (relative.empty() ? QString() : QStringLiteral(" (%1)").arg(unbroken(relative)));
}

QString ComparePage::tableHtml(const Comparison& c, ByteUnits units)
{
    const size_t n = c.names.size();
    QString html = QStringLiteral(
        "<table width='100%' cellspacing='0' cellpadding='3' border='0'><thead><tr><td></td>");
    for (size_t i = 0; i < n; ++i)
        html += QStringLiteral("<td align='right'><b>%1</b></td>")
                    .arg((i + 1 < n ? QStringLiteral("%1: ").arg(QChar(u'A' + char16_t(i)))
                                    : QString()) +
                         QString::fromStdString(c.names[i]).toHtmlEscaped());
    // The names head every page the table runs onto.
    html += QStringLiteral("</tr></thead><tbody>");
    for (const ComparedFigure& f : c.figures) {
        html += QStringLiteral("<tr><td style='color:#444'>%1</td>")
                    .arg(figureLabel(f.id).toHtmlEscaped());
        for (size_t i = 0; i < n; ++i) {
            const QString change = changeText(c, f, i, units);
            html += QStringLiteral("<td align='right'><b>%1</b>%2</td>")
                        .arg(valueText(c, f, i, units).toHtmlEscaped(),
                             change.isEmpty()
                                 ? QString()
                                 : QStringLiteral(
                                       "<br/><span style='color:#333; font-size:small'>%1</span>")
                                       .arg(change.toHtmlEscaped()));
        }
        html += QStringLiteral("</tr>");
    }
    for (const ComparedInput& input : c.inputs) {
        html += QStringLiteral("<tr><td style='color:#444'>%1</td>")
                    .arg(UiText::settingLabel(input.id).toHtmlEscaped());
        for (const std::string& value : input.values)
            html += QStringLiteral("<td align='right'>%1</td>")
                        .arg(inputValueText(input.id, value).toHtmlEscaped());
        html += QStringLiteral("</tr>");
    }
    html += QStringLiteral("</tbody></table>");
    if (c.modelsDiffer)
        html += QStringLiteral("<p>%1</p>").arg(tr("The scenarios are of different models."));
    return html;
}

void ComparePage::fill(const Comparison& c)
{
    const int n = int(c.names.size());
    m_table->clear();
    m_table->setColumnCount(n);
    // Scenarios side by side share the width; the live one alone keeps its figures beside their
    // names (stretched over the page, "12.6 GiB" sat a page's width from "Weights").
    m_table->horizontalHeader()->setSectionResizeMode(n > 1 ? QHeaderView::Stretch
                                                            : QHeaderView::ResizeToContents);
    m_table->setRowCount(int(c.figures.size() + c.inputs.size()) + (c.modelsDiffer ? 1 : 0));
    QStringList headers;
    for (int i = 0; i < n; ++i)
        headers << (i < n - 1 ? QStringLiteral("%1: %2")
                                    .arg(QChar('A' + i))
                                    .arg(QString::fromStdString(c.names[size_t(i)]))
                              : QString::fromStdString(c.names[size_t(i)]));
    m_table->setHorizontalHeaderLabels(headers);
    QStringList rows;
    int row = 0;
    for (const ComparedFigure& f : c.figures) {
        rows << figureLabel(f.id);
        for (int i = 0; i < n; ++i) {
            QString text = valueText(c, f, size_t(i), m_units);
            if (const QString change = changeText(c, f, size_t(i), m_units); !change.isEmpty())
                text += QLatin1Char('\n') + change;
            auto* item = new QTableWidgetItem(text);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(row, i, item);
        }
        ++row;
    }
    for (const ComparedInput& input : c.inputs) {
        rows << UiText::settingLabel(input.id);
        for (int i = 0; i < n; ++i)
            m_table->setItem(
                row, i, new QTableWidgetItem(inputValueText(input.id, input.values[size_t(i)])));
        ++row;
    }
    if (c.modelsDiffer) {
        rows << tr("Note");
        auto* item = new QTableWidgetItem(tr("The scenarios are of different models."));
        m_table->setItem(row, 0, item);
        m_table->setSpan(row, 0, 1, n);
    }
    m_table->setVerticalHeaderLabels(rows);
}

} // namespace kvscope::ui
