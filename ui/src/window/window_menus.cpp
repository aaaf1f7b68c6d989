// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/window_menus.h"

#include "charts/chart_base.h"
#include "export/chart_actions.h"
#include "kvscope/formats/hub_id.h"
#include "panels/scenario_panel.h"
#include "validation/validation_menus.h"
#include "window/language.h"
#include "window/main_window.h"
#include "window/presentation_mode.h"
#include "window/scenario_controller.h"
#include "window/scenario_document.h"
#include "window/scenario_history.h"
#include "window/ui_text.h"

#include <QActionGroup>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QUndoStack>

namespace kvscope::ui {

WindowMenus::WindowMenus(MainWindow* window, ScenarioController* controller,
                         ScenarioDocument* document, ScenarioHistory* history,
                         PresentationMode* presentation, ScenarioPanel* panel, Language* language)
    : QObject(window), m_window(window), m_controller(controller), m_document(document),
      m_history(history), m_presentationMode(presentation), m_panel(panel), m_language(language)
{
    buildFileMenu();
    buildEditMenu();
    buildViewMenu();
    connect(m_document, &ScenarioDocument::recentFilesChanged, this,
            &WindowMenus::rebuildRecentMenu);
    rebuildRecentMenu();
}

void WindowMenus::buildFileMenu()
{
    m_fileMenu = m_window->menuBar()->addMenu(QString());
    m_new = m_fileMenu->addAction(QString(), m_document, &ScenarioDocument::newScenario);
    m_new->setShortcut(QKeySequence::New);
    m_open = m_fileMenu->addAction(QString(), m_document, &ScenarioDocument::openWithDialog);
    m_open->setShortcut(QKeySequence::Open);
    m_recentMenu = m_fileMenu->addMenu(QString());
    m_recentMenu->setObjectName(QStringLiteral("recentFilesMenu"));
    m_save = m_fileMenu->addAction(QString(), m_document, &ScenarioDocument::save);
    m_save->setShortcut(QKeySequence::Save);
    m_saveAs = m_fileMenu->addAction(QString(), m_document, &ScenarioDocument::saveAs);
    m_saveAs->setShortcut(QKeySequence::SaveAs);
    m_fileMenu->addSeparator();
    m_import = m_fileMenu->addAction(QString(), m_panel, &ScenarioPanel::importConfigRequested);
    m_importHub = m_fileMenu->addAction(QString(), this, &WindowMenus::askForHubModel);
    addExportActions();
    m_fileMenu->addSeparator();
    m_quit = m_fileMenu->addAction(QString(), m_window, &QWidget::close);
    m_quit->setShortcut(QKeySequence::Quit);
}

void WindowMenus::addExportActions()
{
    m_exportChartMenu = m_fileMenu->addMenu(QString());
    m_exportReport = m_fileMenu->addAction(QString(), this, [this] {
        askForExport(tr("Export report"), QStringLiteral("kvscope-report.pdf"),
                     tr("PDF document (*.pdf)"), &MainWindow::exportReport);
    });
    m_exportData = m_fileMenu->addAction(QString(), this, [this] {
        askForExport(tr("Export data"), QStringLiteral("kvscope-data.csv"), tr("CSV table (*.csv)"),
                     &MainWindow::exportData);
    });
}

void WindowMenus::askForExport(const QString& title, const QString& fileName, const QString& filter,
                               bool (MainWindow::*write)(const QString&))
{
    const QString path = QFileDialog::getSaveFileName(
        m_window, title, QDir(ChartActions::lastDirectory()).filePath(fileName), filter);
    if (!path.isEmpty())
        (m_window->*write)(path);
}

void WindowMenus::buildEditMenu()
{
    m_editMenu = m_window->menuBar()->addMenu(QString());
    // Plain actions rather than QUndoStack's own, whose "Undo" prefix is fixed at creation and
    // would not follow a change of language.
    QUndoStack* stack = m_history->stack();
    m_undo = m_editMenu->addAction(QString(), stack, &QUndoStack::undo);
    m_undo->setShortcut(QKeySequence::Undo);
    m_redo = m_editMenu->addAction(QString(), stack, &QUndoStack::redo);
    m_redo->setShortcut(QKeySequence::Redo);
    m_undo->setEnabled(false);
    m_redo->setEnabled(false);
    connect(stack, &QUndoStack::indexChanged, this, &WindowMenus::updateUndoTexts);
    m_editMenu->addSeparator();
    m_pin = m_editMenu->addAction(QString(), this, [this] {
        if (m_controller->pin())
            m_window->statusBar()->showMessage(
                tr("Pinned as %1; the Compare tab shows the difference.")
                    .arg(QString::fromStdString(m_controller->pinned().back().name)),
                6000);
    });
    m_pin->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    m_unpinAll = m_editMenu->addAction(QString(), m_controller, &ScenarioController::unpinAll);
    connect(m_controller, &ScenarioController::pinnedChanged, this, &WindowMenus::updatePinning);
    m_unpinAll->setEnabled(false);
    m_editMenu->addSeparator();
    m_copyChartMenu = m_editMenu->addMenu(QString());
    m_copySummary = m_editMenu->addAction(QString(), m_window, &MainWindow::copySummary);
    m_copySummary->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    m_copyLaunch = m_editMenu->addAction(QString(), m_window, &MainWindow::copyLaunchCommand);
}

void WindowMenus::updatePinning()
{
    m_pin->setEnabled(m_controller->pinned().size() < size_t(kMaxPinned));
    m_unpinAll->setEnabled(!m_controller->pinned().empty());
}

void WindowMenus::buildViewMenu()
{
    m_viewMenu = m_window->menuBar()->addMenu(QString());
    m_presentationAction =
        m_viewMenu->addAction(QString(), m_window, &MainWindow::setPresentationMode);
    m_presentationAction->setCheckable(true);
    m_presentationAction->setShortcut(Qt::Key_F11);
    m_presentationMode->addActions(m_viewMenu);
    auto radioMenu = [this](QMenu*& menu, std::initializer_list<QAction**> actions) {
        menu = m_viewMenu->addMenu(QString());
        auto* group = new QActionGroup(menu);
        for (QAction** action : actions) {
            *action = menu->addAction(QString());
            (*action)->setCheckable(true);
            group->addAction(*action);
        }
    };
    radioMenu(m_themeMenu, {&m_themeSystem, &m_themeLight, &m_themeDark});
    radioMenu(m_unitsMenu, {&m_unitsBinary, &m_unitsSi});
    radioMenu(m_languageMenu, {&m_english, &m_japanese});
    MainWindow* w = m_window;
    connect(m_themeSystem, &QAction::triggered, w, [w] { w->setTheme(QStringLiteral("system")); });
    connect(m_themeLight, &QAction::triggered, w, [w] { w->setTheme(QStringLiteral("light")); });
    connect(m_themeDark, &QAction::triggered, w, [w] { w->setTheme(QStringLiteral("dark")); });
    connect(m_unitsBinary, &QAction::triggered, w, [w] { w->setByteUnits(ByteUnits::Binary); });
    connect(m_unitsSi, &QAction::triggered, w, [w] { w->setByteUnits(ByteUnits::Si); });
    connect(m_english, &QAction::triggered, w, [w] { w->setLanguage(QStringLiteral("en")); });
    connect(m_japanese, &QAction::triggered, w, [w] { w->setLanguage(QStringLiteral("ja")); });
    m_themeSystem->setChecked(true);
    m_unitsBinary->setChecked(true);
    // View > Validation, Tools > Calibrate; its log dialog asks for Hub models as File does.
    auto* validation = new ValidationMenus(m_window, m_viewMenu, m_controller);
    connect(validation, &ValidationMenus::hubModelRequested, this, &WindowMenus::hubModelRequested);
}

void WindowMenus::retranslate(const ChartSet& charts)
{
    retranslateFileMenu(charts);
    retranslateEditMenu(charts);
    retranslateViewMenu();
}

void WindowMenus::retranslateFileMenu(const ChartSet& charts)
{
    m_fileMenu->setTitle(tr("&File"));
    m_new->setText(tr("&New scenario"));
    m_open->setText(tr("&Open scenario..."));
    m_recentMenu->setTitle(tr("Open &recent"));
    m_save->setText(tr("&Save scenario"));
    m_saveAs->setText(tr("Save scenario &as..."));
    m_import->setText(tr("&Import model (config.json, GGUF)..."));
    m_importHub->setText(tr("Import from &Hugging Face..."));
    m_exportChartMenu->setTitle(tr("Export &chart"));
    m_exportReport->setText(tr("Export &report (PDF)..."));
    m_exportData->setText(tr("Export &data (CSV)..."));
    m_quit->setText(tr("&Quit"));
    m_exportChartMenu->clear();
    for (ChartBase* chart : charts)
        ChartActions::populate(m_exportChartMenu->addMenu(chart->chartTitle()), chart, m_window);
}

void WindowMenus::retranslateEditMenu(const ChartSet& charts)
{
    m_editMenu->setTitle(tr("&Edit"));
    m_copyChartMenu->setTitle(tr("Copy c&hart"));
    updateUndoTexts();
    m_pin->setText(tr("&Pin scenario for comparison"));
    m_unpinAll->setText(tr("U&npin all"));
    m_copySummary->setText(tr("Copy &summary"));
    m_copyLaunch->setText(tr("Copy &launch command"));
    m_copyLaunch->setToolTip(tr("The command that runs this scenario on its engine "
                                "(vllm serve, llama-server or transformers in Python)"));
    m_copyChartMenu->clear();
    for (ChartBase* chart : charts)
        m_copyChartMenu->addAction(chart->chartTitle(), this,
                                   [chart] { ChartActions::copyToClipboard(chart); });
}

void WindowMenus::retranslateViewMenu()
{
    m_viewMenu->setTitle(tr("&View"));
    m_presentationAction->setText(tr("&Presentation mode"));
    m_presentationMode->retranslate();
    m_themeMenu->setTitle(tr("&Theme"));
    m_themeSystem->setText(tr("Follow the system"));
    m_themeLight->setText(tr("Light"));
    m_themeDark->setText(tr("Dark"));
    m_unitsMenu->setTitle(tr("&Units"));
    m_unitsBinary->setText(tr("Binary (GiB, as engines report)"));
    m_unitsSi->setText(tr("Decimal (GB, as vendors quote)"));
    m_languageMenu->setTitle(tr("&Language"));
    m_english->setText(QStringLiteral("English"));
    m_japanese->setText(QStringLiteral("日本語"));
    const bool japanese = m_language && m_language->current() == QLatin1String("ja");
    m_japanese->setChecked(japanese);
    m_english->setChecked(!japanese);
}

void WindowMenus::updateUndoTexts()
{
    const QUndoStack* stack = m_history->stack();
    m_undo->setEnabled(stack->canUndo());
    m_redo->setEnabled(stack->canRedo());
    m_undo->setText(stack->canUndo() ? tr("&Undo: %1").arg(stack->undoText()) : tr("&Undo"));
    m_redo->setText(stack->canRedo() ? tr("&Redo: %1").arg(stack->redoText()) : tr("&Redo"));
}

void WindowMenus::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = m_document->recentFiles();
    for (const QString& path : recent)
        m_recentMenu
            ->addAction(QFileInfo(path).fileName(), m_document,
                        [this, path] { m_document->openRecent(path); })
            ->setToolTip(path);
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void WindowMenus::showPresentationMode(bool on)
{
    m_presentationAction->setChecked(on);
}

void WindowMenus::showTheme(const QString& theme)
{
    (theme == QLatin1String("dark")    ? m_themeDark
     : theme == QLatin1String("light") ? m_themeLight
                                       : m_themeSystem)
        ->setChecked(true);
}

void WindowMenus::showByteUnits(ByteUnits units)
{
    (units == ByteUnits::Si ? m_unitsSi : m_unitsBinary)->setChecked(true);
}

void WindowMenus::askForHubModel()
{
    bool ok = false;
    const QString id =
        QInputDialog::getText(m_window, tr("Import from Hugging Face"),
                              tr("Hugging Face model id (ORG/NAME, or ORG/NAME@REVISION):"),
                              QLineEdit::Normal, QString(), &ok);
    if (!ok || id.trimmed().isEmpty())
        return;
    // The id's grammar is checked here, so a typo is said before anything is fetched.
    if (auto parsed = parseHubId("hf:" + id.trimmed().toStdString()); !parsed) {
        QMessageBox::warning(m_window, tr("Cannot fetch the model"),
                             UiText::fieldError(parsed.error()));
        return;
    }
    emit hubModelRequested(id.trimmed());
}

} // namespace kvscope::ui
