// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/log_check_dialog.h"

#include "charts/chart_style.h"
#include "charts/line_breaks.h"
#include "window/scenario_controller.h"
#include "window/ui_text.h"

#include "kvscope/catalog/machine_profile_json.h"
#include "kvscope/evaluation/calibration.h"
#include "kvscope/io/plan_json.h"
#include "kvscope/planning/profile_fit.h"
#include "kvscope/settings/scenario_defaults.h"
#include "kvscope/text/log_check_text.h"
#include "kvscope/text/options_text.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include <cmath>

namespace kvscope::ui {

namespace {

enum Column { FigureColumn, LoggedColumn, PredictedColumn, DifferenceColumn, LineColumn, Columns };

// Differences beyond this are shown in bold: worth a look, or a calibration.
constexpr double kNotableDifferencePercent = 10.0;

// A model imported from a file the window can name again (its source may also be a URL).
bool importedFile(const std::string& source)
{
    const QString path = QString::fromStdString(source);
    return (path.endsWith(QLatin1String(".json")) || path.endsWith(QLatin1String(".gguf"))) &&
           QFileInfo::exists(path);
}

} // namespace

LogCheckDialog::LogCheckDialog(ScenarioController* controller, QWidget* parent)
    : QDialog(parent), m_controller(controller)
{
    setObjectName(QStringLiteral("logCheckDialog"));
    setAcceptDrops(true);
    m_intro = new QLabel(this);
    m_intro->setWordWrap(true);
    m_text = new QPlainTextEdit(this);
    m_text->setObjectName(QStringLiteral("logText"));
    m_text->setAcceptDrops(false); // the dialog takes drops: a dropped file is opened, not named
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_text->setFont(mono);
    m_open = new QPushButton(this);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("logSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table = new QTableWidget(0, Columns, this);
    m_table->setObjectName(QStringLiteral("logFigures"));
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setSectionResizeMode(FigureColumn, QHeaderView::Stretch);
    for (int c = LoggedColumn; c < Columns; ++c)
        m_table->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_use = m_buttons->addButton(QString(), QDialogButtonBox::ActionRole);
    m_calibrate = m_buttons->addButton(QString(), QDialogButtonBox::ActionRole);
    m_saveProfile = m_buttons->addButton(QString(), QDialogButtonBox::ActionRole);
    m_fromHub = m_buttons->addButton(QString(), QDialogButtonBox::ActionRole);
    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(300);

    auto* openRow = new QHBoxLayout;
    openRow->addWidget(m_intro, 1);
    openRow->addWidget(m_open, 0, Qt::AlignTop);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(openRow);
    layout->addWidget(m_text, 2);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 3);
    layout->addWidget(m_buttons);

    connect(m_text, &QPlainTextEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_debounce, &QTimer::timeout, this, &LogCheckDialog::recheck);
    connect(m_open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open a start-up log"), QString(), tr("Logs (*.log *.txt);;All files (*)"));
        if (!path.isEmpty())
            openLogFile(path);
    });
    connect(m_use, &QPushButton::clicked, this, [this] {
        if (useScenario())
            accept();
    });
    connect(m_calibrate, &QPushButton::clicked, this, [this] {
        if (calibrate())
            accept();
    });
    connect(m_saveProfile, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const QString name = QInputDialog::getText(
            this, tr("Save as machine profile"), tr("Name (letters, digits, '.', '_' and '-'):"),
            QLineEdit::Normal,
            QString::fromStdString(m_check ? m_check->scenario.gpu.id + "-" +
                                                 m_check->scenario.engine.id
                                           : std::string()),
            &ok);
        if (ok && saveProfile(name))
            accept();
    });
    connect(m_fromHub, &QPushButton::clicked, this, &LogCheckDialog::readModelFromHub);
    // The window took the model the dialog asked for: the log is checked with it.
    connect(m_controller, &ScenarioController::scenarioChanged, this, [this] {
        if (!m_awaitedHubId.isEmpty()) {
            m_awaitedHubId.clear();
            recheck();
        }
    });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    retranslate();
    showCheck();
    setMinimumSize(640, 520);
    resize(880, 660);
}

void LogCheckDialog::setLogText(const QString& text)
{
    m_logName.clear(); // pasted; a file's name is set again by openLogFile
    m_text->setPlainText(text);
    m_debounce->stop();
    recheck();
}

bool LogCheckDialog::openLogFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_check.reset();
        m_problem = UiText::fieldError({"log", path.toStdString(), "a readable file"});
        showCheck();
        return false;
    }
    // One byte past the limit is enough for the reader to refuse the size by name.
    m_logName = QFileInfo(path).fileName();
    setLogText(QString::fromUtf8(file.read(qint64(kMaxStartupLogBytes) + 1)));
    return true;
}

void LogCheckDialog::recheck()
{
    m_check.reset();
    m_problem.clear();
    m_windowChoices.clear();
    const QString text = m_text->toPlainText();
    if (text.trimmed().isEmpty()) {
        showCheck();
        return;
    }
    const QByteArray utf8 = text.toUtf8();
    auto log = readStartupLog(std::string_view(utf8.constData(), size_t(utf8.size())));
    if (!log) {
        m_problem = UiText::fieldError(log.error());
        showCheck();
        return;
    }
    // What the log does not name comes from the window, when the catalog has it.
    const Scenario& current = m_controller->scenario();
    const Catalog& catalog = m_controller->catalog();
    OptionList fromWindow;
    auto result = checkStartupLog(*log, catalog, fromWindow);
    // The window's model stands in when the log neither names one the catalog has nor prints
    // its shape: the user's own imported file for a model the catalog lacks, or the window's
    // catalog model when the log names none. A GPU the log does not name (or the catalog
    // lacks) is taken from the window. The dialog says so each time.
    const std::string windowModel =
        !current.model.imported
            ? (log->model.empty() && catalog.model(current.model.id) ? current.model.id : "")
            : (importedFile(current.model.source) ? current.model.source : "");
    if (result && !result->predicted() && !windowModel.empty()) {
        fromWindow.emplace_back("model", windowModel);
        const QString name = QString::fromStdString(current.model.name);
        m_windowChoices
            << (log->model.empty()
                    ? tr("Model: the log names none; the window's %1 is used.").arg(name)
                    : tr("Model: \"%1\" is not in the catalog; the window's "
                         "imported %2 is used.")
                          .arg(QString::fromStdString(log->model), name));
        result = checkStartupLog(*log, catalog, fromWindow);
    }
    if (result && result->gpuStandsIn() && catalog.gpu(current.gpu.id) &&
        !logRulesOutGpu(*log, current.gpu)) {
        fromWindow.emplace_back("gpu", current.gpu.id);
        const QString name = QString::fromStdString(current.gpu.name);
        m_windowChoices << (log->gpuName.empty()
                                ? tr("GPU: the log names none; the window's %1 is used.").arg(name)
                                : tr("GPU: \"%1\" is not in the catalog; the window's %2 "
                                     "is used.")
                                      .arg(QString::fromStdString(log->gpuName), name));
        result = checkStartupLog(*log, catalog, fromWindow);
    }
    if (!result) {
        m_problem = UiText::fieldError(result.error());
        m_windowChoices.clear();
    } else {
        m_check = std::move(result).value();
    }
    showCheck();
}

QString LogCheckDialog::assumptionText(LogAssumption assumption, const LogCheck& check) const
{
    switch (assumption) {
    case LogAssumption::ReleaseNotStated:
        return tr("The log does not state vLLM's release: the rules of kvscope's default release "
                  "apply.");
    case LogAssumption::ReleaseNotModelled:
        return tr("vLLM %1 is outside the releases kvscope models: the rules of its default "
                  "release apply.")
            .arg(QString::fromStdString(check.log.release));
    case LogAssumption::LastV0Release:
        return tr("The log's lines are vLLM V0's and state no release: the rules of %1, the last "
                  "release with V0, apply.")
            .arg(QString::fromStdString(checkedRelease(check)));
    case LogAssumption::ModelFromLog:
        if (check.scenario.weights.id == kFileWeightFormatId)
            return tr("The model is not in the catalog: its shape is the metadata the log "
                      "prints (line %1), its weights the file size it prints (line %2).")
                .arg(UiText::integer(check.log.modelMetadataLine),
                     UiText::integer(check.log.modelFileLine));
        return tr("The model is not in the catalog: its shape is the metadata the log prints "
                  "(line %1).")
            .arg(check.log.modelMetadataLine);
    case LogAssumption::GpuNotNamed:
        return tr("The log names no GPU the catalog has: figures that depend on the GPU are not "
                  "predicted.");
    case LogAssumption::GpuOfLoggedMemory:
        return tr("The log names no GPU the catalog has: a GPU of the memory it states stands "
                  "in.");
    }
    return {};
}

QString LogCheckDialog::problemText() const
{
    return m_problem;
}

QString LogCheckDialog::summaryText() const
{
    // As read: without the joiners that hold its Japanese phrases together.
    return m_summary->text().remove(QChar(0x2060)).replace(QChar(0x00A0), QLatin1Char(' '));
}

QString LogCheckDialog::figureName(LogFigure figure) const
{
    switch (figure) {
    case LogFigure::TotalGpuMemory:
        return tr("GPU memory (one GPU)");
    case LogFigure::MemoryBudget:
        return tr("Memory budget (one GPU)");
    case LogFigure::Weights:
        return tr("Weights (one GPU)");
    case LogFigure::NonTorchMemory:
        return tr("Non-torch memory (one GPU)");
    case LogFigure::ActivationPeak:
        return tr("Activation peak (one GPU)");
    case LogFigure::KvCacheMemory:
        return tr("Memory for the KV cache (one GPU)");
    case LogFigure::KvCacheTokens:
        return tr("KV cache size (tokens)");
    case LogFigure::KvBlocks:
        return tr("KV cache blocks (one GPU)");
    case LogFigure::MaxConcurrency:
        return tr("Maximum concurrency");
    case LogFigure::CudaGraphs:
        return tr("CUDA graphs (one GPU)");
    case LogFigure::GpuModelBuffers:
        return tr("Weights on the GPUs");
    case LogFigure::HostModelBuffers:
        return tr("Weights in host RAM");
    case LogFigure::KvBuffers:
        return tr("KV cache buffers");
    case LogFigure::GpuComputeBuffers:
        return tr("Compute buffers on the GPUs");
    case LogFigure::OffloadedLayers:
        return tr("Layers on the GPUs");
    case LogFigure::DecodeTokensPerS:
        return tr("Decode (tokens/s, one sequence)");
    }
    return {};
}

QString LogCheckDialog::figureText(LogFigure figure, double value) const
{
    return QString::fromStdString(
        logFigureText(figure, value, ByteUnits::Binary, UiText::numberStyle()));
}

void LogCheckDialog::showCheck()
{
    m_table->setRowCount(0);
    const bool checked = m_check.has_value();
    // A scenario on a stand-in GPU is no scenario to use.
    m_use->setEnabled(checked && m_check->predicted() && !m_check->gpuStandsIn());
    m_calibrate->setEnabled(checked && m_check->loggedKvCacheTokens > 0);
    m_saveProfile->setEnabled(checked && !whyNoProfile(*m_check, std::nullopt));
    const std::optional<std::string> hubId =
        checked && !m_check->predicted() ? hubIdNamedInLog(m_check->log) : std::nullopt;
    m_fromHub->setVisible(hubId.has_value());
    m_fromHub->setEnabled(hubId.has_value()); // again after a fetch that failed
    m_table->setVisible(checked && !m_check->rows.empty());
    if (!checked) {
        QPalette palette = m_summary->palette();
        palette.setColor(QPalette::WindowText,
                         m_problem.isEmpty() ? palette.color(QPalette::Text) : colors::overflow);
        m_summary->setPalette(palette);
        m_summary->setText(withoutForbiddenBreaksInHtml(
            m_problem.isEmpty() ? tr("Paste a log above, drop a log file here, or open one.")
                                : m_problem.toHtmlEscaped()));
        return;
    }
    m_summary->setPalette(QPalette());
    const LogCheck& c = *m_check;
    const Scenario& s = c.scenario;
    QStringList lines;
    if (c.predicted())
        lines << tr("<b>%1</b>: %2 on %3 × %4, %5, %6 per sequence")
                     .arg(QString::fromStdString(logEngineText(c.log)).toHtmlEscaped(),
                          QString::fromStdString(s.model.name).toHtmlEscaped(),
                          UiText::integer(s.gpuCount),
                          c.gpuStandsIn() ? tr("an unnamed GPU")
                                          : QString::fromStdString(s.gpu.name).toHtmlEscaped(),
                          QString::fromStdString(s.weights.name).toHtmlEscaped(),
                          UiText::tokens(s.context));
    else if (hubId)
        lines << tr("<b>%1</b>: the catalog has no model \"%2\", so only what the log states "
                    "is listed. <i>Read the model from Hugging Face</i> (or import its "
                    "config.json in the window) to compare.")
                     .arg(QString::fromStdString(logEngineText(c.log)).toHtmlEscaped(),
                          QString::fromStdString(c.log.model).toHtmlEscaped());
    else
        lines << (c.log.model.empty()
                      ? tr("<b>%1</b>: the log names no model and does not print its shape, so "
                           "only what it states is listed. Choose or import the model in the "
                           "window to compare.")
                            .arg(QString::fromStdString(logEngineText(c.log)).toHtmlEscaped())
                      : tr("<b>%1</b>: the catalog has no model \"%2\" and the log does not "
                           "print its shape, so only what it states is listed. Import its "
                           "config.json or GGUF file in the window to compare.")
                            .arg(QString::fromStdString(logEngineText(c.log)).toHtmlEscaped(),
                                 QString::fromStdString(c.log.model).toHtmlEscaped()));
    if (c.log.runs > 1)
        lines << tr("The file holds %1 start-ups; the last one is read.").arg(c.log.runs);
    lines << tr("Settings read from the log: %1")
                 .arg(c.log.settings.empty()
                          ? tr("none")
                          : QString::fromStdString(optionsText([&] {
                                OptionList read;
                                for (const LoggedSetting& setting : c.log.settings)
                                    read.emplace_back(setting.option, setting.value);
                                return read;
                            }()))
                                .toHtmlEscaped());
    if (!m_awaitedHubId.isEmpty())
        lines << tr("Reading %1 from Hugging Face...").arg(m_awaitedHubId.toHtmlEscaped());
    for (const QString& choice : m_windowChoices)
        lines << choice.toHtmlEscaped();
    for (const LogAssumption assumed : c.assumed)
        lines << assumptionText(assumed, c).toHtmlEscaped();
    if (c.rows.empty())
        lines << tr("The log states no memory figure to compare.");
    // Japanese breaks only between phrases (line_breaks.h).
    m_summary->setText(withoutForbiddenBreaksInHtml(lines.join(QStringLiteral("<br>"))));

    const NumberStyle style = UiText::numberStyle();
    m_table->setRowCount(int(c.rows.size()));
    for (int r = 0; r < int(c.rows.size()); ++r) {
        const LogCheckRow& row = c.rows[size_t(r)];
        const std::optional<double> difference = row.differencePercent();
        const QStringList cells{figureName(row.figure), figureText(row.figure, row.logged),
                                row.predicted ? figureText(row.figure, *row.predicted) : QString(),
                                QString::fromStdString(differenceText(row, style)),
                                UiText::integer(row.line)};
        for (int column = 0; column < Columns; ++column) {
            auto* item = new QTableWidgetItem(cells[column]);
            if (column != FigureColumn)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (column == DifferenceColumn && difference &&
                std::fabs(*difference) > kNotableDifferencePercent) {
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
            }
            m_table->setItem(r, column, item);
        }
    }
}

bool LogCheckDialog::useScenario()
{
    if (!m_check || !m_use->isEnabled())
        return false;
    m_controller->setScenario(m_check->scenario);
    return true;
}

bool LogCheckDialog::calibrate()
{
    if (!m_check || m_check->loggedKvCacheTokens <= 0)
        return false;
    auto fit = kvscope::calibrate(m_check->scenario, m_controller->catalog(),
                                  CalibrationKind::KvCacheTokens, m_check->loggedKvCacheTokens);
    if (!fit || !fit->reachable) {
        m_problem = fit ? tr("No engine overhead reaches the logged KV cache size of %1 for "
                             "this scenario.")
                              .arg(UiText::tokens(std::llround(m_check->loggedKvCacheTokens)))
                        : UiText::fieldError(fit.error());
        m_summary->setText(m_summary->text() + QStringLiteral("<br><b>") +
                           m_problem.toHtmlEscaped() + QStringLiteral("</b>"));
        return false;
    }
    m_controller->setScenario(fit->calibrated);
    return true;
}

bool LogCheckDialog::readModelFromHub()
{
    if (!m_check || m_check->predicted())
        return false;
    const std::optional<std::string> id = hubIdNamedInLog(m_check->log);
    if (!id)
        return false;
    m_awaitedHubId = QString::fromStdString(*id);
    showCheck();
    emit hubModelWanted(m_awaitedHubId);
    return true;
}

bool LogCheckDialog::saveProfile(const QString& name)
{
    if (!m_check || !m_saveProfile->isEnabled())
        return false;
    const std::string source =
        m_logName.isEmpty() ? std::string("(pasted)") : m_logName.toStdString();
    auto profile =
        profileFromLog(*m_check, m_controller->catalog(), name.toStdString(), std::nullopt, source);
    QString failure;
    const QString path = QString::fromStdString(userProfilePath(name.toStdString()).string());
    if (!profile) {
        failure = UiText::fieldError(profile.error());
    } else {
        const QByteArray json = QByteArray::fromStdString(machineProfileToJson(*profile).dump(2));
        QSaveFile file(path);
        if (!QDir().mkpath(QFileInfo(path).path()) || !file.open(QIODevice::WriteOnly) ||
            file.write(json) != json.size() || !file.commit())
            failure = tr("%1 could not be written: %2").arg(path, file.errorString());
    }
    if (!failure.isEmpty()) {
        m_problem = failure;
        m_summary->setText(m_summary->text() + QStringLiteral("<br><b>") + failure.toHtmlEscaped() +
                           QStringLiteral("</b>"));
        return false;
    }
    m_controller->addProfile(*profile); // listed at once, for this GPU and engine
    Scenario calibrated = m_check->scenario;
    applyProfile(calibrated, *profile);
    m_controller->setScenario(calibrated);
    m_savedProfilePath = path;
    return true;
}

void LogCheckDialog::retranslate()
{
    setWindowTitle(tr("Check a start-up log"));
    m_intro->setText(withoutForbiddenBreaks(
        tr("Paste the start-up log of vLLM, llama.cpp (or ollama) or TGI, or drop "
           "the file here. kvscope reads the settings it states, builds that "
           "scenario and puts each memory figure the engine logged beside its "
           "own prediction.")));
    m_open->setText(tr("Open a log file..."));
    m_text->setPlaceholderText(tr("INFO ... GPU KV cache size: 75,840 tokens"));
    m_table->setHorizontalHeaderLabels(
        {tr("Figure"), tr("Logged"), tr("kvscope"), tr("Difference"), tr("Line")});
    m_use->setText(tr("Use this scenario"));
    m_calibrate->setText(tr("Calibrate to this log"));
    m_saveProfile->setText(tr("Save as machine profile..."));
    m_fromHub->setText(tr("Read the model from Hugging Face"));
    m_fromHub->setToolTip(tr("Reads the config.json of the model the log names from the "
                             "Hugging Face Hub (or kvscope's copy of it) into the window, and "
                             "checks the log against it."));
    m_saveProfile->setToolTip(tr("Fits kvscope to what the log states (the activation peak, the "
                                 "KV cache size, the decode speed), saves the fit under a name "
                                 "for this GPU and engine, and uses it. Other scenarios on this "
                                 "machine take it from the Machine profile list or with "
                                 "--profile NAME."));
    m_calibrate->setToolTip(tr("Uses the scenario and fits the engine's runtime overhead so "
                               "that kvscope's KV cache size equals the logged one."));
    m_buttons->button(QDialogButtonBox::Close)->setText(tr("Close"));
    showCheck();
}

void LogCheckDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange && m_table)
        retranslate();
    QDialog::changeEvent(event);
}

void LogCheckDialog::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls() || event->mimeData()->hasText())
        event->acceptProposedAction();
}

void LogCheckDialog::dropEvent(QDropEvent* event)
{
    const QMimeData* data = event->mimeData();
    if (data->hasUrls() && !data->urls().isEmpty() && data->urls().front().isLocalFile())
        openLogFile(data->urls().front().toLocalFile());
    else if (data->hasText())
        setLogText(data->text());
    event->acceptProposedAction();
}

} // namespace kvscope::ui
