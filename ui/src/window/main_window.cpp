// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/main_window.h"

#include "charts/chart_base.h"
#include "charts/chart_set.h"
#include "charts/fit_matrix_chart.h"
#include "charts/plan_chart.h"
#include "charts/view_registry.h"
#include "export/chart_actions.h"
#include "kvscope/formats/config_import.h"
#include "kvscope/settings/scenario_file.h"
#include "kvscope/settings/scenario_options.h"
#include "panels/compare_page.h"
#include "panels/headline_bar.h"
#include "panels/matrix_page.h"
#include "panels/plan_page.h"
#include "panels/remedies_panel.h"
#include "panels/scenario_panel.h"
#include "validation/validation_menus.h"
#include "window/app_settings.h"
#include "window/language.h"
#include "window/palettes.h"
#include "window/presentation_mode.h"
#include "window/scenario_document.h"
#include "window/scenario_history.h"
#include "window/ui_text.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScrollArea>
#include <QSlider>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>

namespace kvscope::ui {

MainWindow::MainWindow(ScenarioController* controller, AppSettings* settings, Language* language,
                       QWidget* parent)
    : QMainWindow(parent), m_controller(controller), m_settings(settings), m_language(language),
      m_systemPalette(QApplication::palette())
{
    setObjectName(QStringLiteral("kvscopeMainWindow"));
    setAcceptDrops(true);

    m_panel = new ScenarioPanel(controller, this);
    m_remedies = new RemediesPanel(controller, this);
    // The remedies sit under the scenario's controls, in the room the panel leaves below them.
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_panel);
    leftLayout->addWidget(m_remedies);
    leftLayout->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(left);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(m_panel->minimumSizeHint().width() + 24);

    m_headline = new HeadlineBar(this);
    m_charts = createCharts(this);
    for (ChartBase* chart : m_charts) {
        chart->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(chart, &QWidget::customContextMenuRequested, this,
                [this, chart](const QPoint& pos) {
                    QMenu menu(this);
                    ChartActions::populate(&menu, chart, this);
                    menu.exec(chart->mapToGlobal(pos));
                });
    }
    // The chart grid, and beside it in tabs the planner's pages.
    auto* chartsPage = new QWidget(this);
    auto* grid = new QGridLayout(chartsPage);
    grid->setContentsMargins(0, 4, 0, 0);
    grid->setSpacing(6);
    m_pages = new QTabWidget(this);
    m_pages->setObjectName(QStringLiteral("viewPages"));
    m_pages->setDocumentMode(true);
    // On a laptop the grid scrolls rather than squeeze a plot below a readable size.
    auto* chartsScroll = new QScrollArea(this);
    chartsScroll->setObjectName(QStringLiteral("chartsScroll"));
    chartsScroll->setWidget(chartsPage);
    chartsScroll->setWidgetResizable(true);
    chartsScroll->setFrameShape(QFrame::NoFrame);
    chartsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_pages->addTab(chartsScroll, QString());
    for (ChartBase* chart : m_charts) {
        const ViewEntry& view = *chart->view();
        if (view.page == ViewPage::Charts) {
            chart->setMinimumPlotSize(QSize(240, 160));
            grid->addWidget(chart, view.grid.row, view.grid.column, view.grid.rowSpan,
                            view.grid.columnSpan);
        } else if (view.page == ViewPage::Plan) {
            m_planPage = new PlanPage(static_cast<PlanChart*>(chart), this);
            // Scrolled like the charts: in presentation mode its controls, chart and table
            // need more height than a 768-pixel projector leaves under the headline figures.
            auto* planScroll = new QScrollArea(this);
            planScroll->setWidget(m_planPage);
            planScroll->setWidgetResizable(true);
            planScroll->setFrameShape(QFrame::NoFrame);
            planScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
            m_pages->addTab(planScroll, QString());
            connect(m_planPage, &PlanPage::settingsChanged, this,
                    [this](const std::vector<std::pair<std::string, std::string>>& settings) {
                        Scenario next = m_controller->scenario();
                        if (auto e = applyOptions(next, settings, m_controller->catalog()))
                            return showError(UiText::fieldError(*e));
                        m_controller->setScenario(next);
                    });
            connect(m_planPage, &PlanPage::loadRequested, this, [this](const Scenario& s) {
                m_controller->setScenario(s);
                m_pages->setCurrentIndex(0); // see what was loaded
            });
        } else if (view.page == ViewPage::Matrix) {
            m_matrixPage = new MatrixPage(static_cast<FitMatrixChart*>(chart), this);
            m_pages->addTab(m_matrixPage, QString());
        }
    }
    m_comparePage = new ComparePage(controller, this);
    m_pages->addTab(m_comparePage, QString());
    m_presentationMode = new PresentationMode(m_panel, scroll, m_charts, m_pages, this);
    leftLayout->insertWidget(1, m_presentationMode->drawerButton()); // under the key controls
    // Columns share the width evenly: otherwise the views' size hints decide, and the VRAM
    // chart, whose legend is the widest for its size, got the narrower one.
    for (int column = 0; column < grid->columnCount(); ++column)
        grid->setColumnStretch(column, 1);
    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(4, 4, 4, 4);
    rightLayout->addWidget(m_headline);
    rightLayout->addWidget(m_pages, 1);
    m_presentationMode->setHeadline(m_headline, rightLayout, 0, leftLayout, 2);

    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->addWidget(scroll);
    m_splitter->addWidget(right);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setChildrenCollapsible(false);
    setCentralWidget(m_splitter);

    m_document = new ScenarioDocument(controller, settings, this);
    m_history = new ScenarioHistory(controller, this);
    buildMenus();
    // The title and the recent-files menu follow the document, not every evaluation: a context
    // drag changes neither the title's text nor the recent files.
    connect(m_document, &ScenarioDocument::stateChanged, this, &MainWindow::updateTitle);
    connect(m_document, &ScenarioDocument::modifiedChanged, this, &QWidget::setWindowModified);
    connect(m_document, &ScenarioDocument::recentFilesChanged, this,
            &MainWindow::rebuildRecentMenu);
    connect(controller, &ScenarioController::evaluated, this, &MainWindow::showSnapshot);
    connect(controller, &ScenarioController::rejected, this, &MainWindow::showError);
    connect(m_panel, &ScenarioPanel::importConfigRequested, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Import a model"), QString(),
            tr("Model files (*.json *.gguf);;Hugging Face config (*.json);;GGUF model (*.gguf)"));
        if (!path.isEmpty())
            importModelFile(path);
    });
    // Draft-quality curves while any slider is held, full quality on release.
    for (QSlider* slider : m_panel->findChildren<QSlider*>()) {
        connect(slider, &QSlider::sliderPressed, this, [this] {
            m_history->beginDrag(); // the whole drag is one undo step
            for (ChartBase* c : m_charts)
                c->setDraftMode(true);
            m_remedies->setDeferred(true);
        });
        connect(slider, &QSlider::sliderReleased, this, [this] {
            m_history->endDrag();
            for (ChartBase* c : m_charts)
                c->setDraftMode(false);
            m_remedies->setDeferred(false);
        });
    }
    applyChartStyle();
    rebuildRecentMenu();
    retranslate();
    resize(1600, 1000);
}

MainWindow::~MainWindow()
{
    // Closing the window takes the focus from the pages' editors, which then report a finished
    // edit: nothing of this half-destroyed window may answer it.
    if (m_planPage)
        disconnect(m_planPage, nullptr, this, nullptr);
    // The undo stack, a grandchild, says its index changed as it is cleared on the way out.
    disconnect(m_history->stack(), nullptr, this, nullptr);
}

bool MainWindow::showPage(const QString& id)
{
    if (id == QLatin1String("charts")) {
        m_pages->setCurrentIndex(0);
        return true;
    }
    if (id == QLatin1String("compare")) {
        m_pages->setCurrentWidget(m_comparePage);
        return true;
    }
    ChartBase* view = chart(id);
    if (!view)
        return false;
    if (view->view()->page == ViewPage::Charts) {
        m_presentationMode->showChart(id);
        if (auto* scroll = qobject_cast<QScrollArea*>(m_pages->widget(0)))
            scroll->ensureWidgetVisible(view);
        return true;
    }
    for (int i = 1; i < m_pages->count(); ++i)
        if (m_pages->widget(i)->isAncestorOf(view)) {
            m_pages->setCurrentIndex(i);
            return true;
        }
    return false;
}

int MainWindow::tabOf(const QWidget* page) const
{
    for (int i = 0; i < m_pages->count(); ++i)
        if (m_pages->widget(i) == page || m_pages->widget(i)->isAncestorOf(page))
            return i;
    return -1;
}

ChartBase* MainWindow::chart(const QString& id) const
{
    for (ChartBase* c : m_charts)
        if (c->chartId() == id)
            return c;
    return nullptr;
}

void MainWindow::buildMenus()
{
    m_fileMenu = menuBar()->addMenu(QString());
    m_new = m_fileMenu->addAction(QString(), m_document, &ScenarioDocument::newScenario);
    m_new->setShortcut(QKeySequence::New);
    m_open = m_fileMenu->addAction(QString(), this, [this] {
        if (!m_document->confirmDiscard())
            return;
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open scenario"), QString(), tr("kvscope scenario (*.kvscope.json *.json)"));
        if (!path.isEmpty())
            m_document->open(path);
    });
    m_open->setShortcut(QKeySequence::Open);
    m_recentMenu = m_fileMenu->addMenu(QString());
    m_recentMenu->setObjectName(QStringLiteral("recentFilesMenu"));
    m_save = m_fileMenu->addAction(QString(), m_document, &ScenarioDocument::save);
    m_save->setShortcut(QKeySequence::Save);
    m_saveAs = m_fileMenu->addAction(QString(), m_document, &ScenarioDocument::saveAs);
    m_saveAs->setShortcut(QKeySequence::SaveAs);
    m_fileMenu->addSeparator();
    m_import = m_fileMenu->addAction(QString(), m_panel, &ScenarioPanel::importConfigRequested);
    m_importHub = m_fileMenu->addAction(QString(), this, &MainWindow::askForHubModel);
    m_exportChartMenu = m_fileMenu->addMenu(QString());
    m_exportReport = m_fileMenu->addAction(QString(), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export report"),
            QDir(ChartActions::lastDirectory()).filePath(QStringLiteral("kvscope-report.pdf")),
            tr("PDF document (*.pdf)"));
        if (!path.isEmpty())
            exportReport(path);
    });
    m_exportData = m_fileMenu->addAction(QString(), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export data"),
            QDir(ChartActions::lastDirectory()).filePath(QStringLiteral("kvscope-data.csv")),
            tr("CSV table (*.csv)"));
        if (!path.isEmpty())
            exportData(path);
    });
    m_fileMenu->addSeparator();
    m_quit = m_fileMenu->addAction(QString(), this, &QWidget::close);
    m_quit->setShortcut(QKeySequence::Quit);

    m_editMenu = menuBar()->addMenu(QString());
    // Plain actions rather than QUndoStack's own, whose "Undo" prefix is fixed at creation and
    // would not follow a change of language.
    QUndoStack* stack = m_history->stack();
    m_undo = m_editMenu->addAction(QString(), stack, &QUndoStack::undo);
    m_undo->setShortcut(QKeySequence::Undo);
    m_redo = m_editMenu->addAction(QString(), stack, &QUndoStack::redo);
    m_redo->setShortcut(QKeySequence::Redo);
    m_undo->setEnabled(false);
    m_redo->setEnabled(false);
    connect(stack, &QUndoStack::indexChanged, this, &MainWindow::updateUndoTexts);
    m_editMenu->addSeparator();
    m_pin = m_editMenu->addAction(QString(), this, [this] {
        if (m_controller->pin())
            statusBar()->showMessage(
                tr("Pinned as %1; the Compare tab shows the difference.")
                    .arg(QString::fromStdString(m_controller->pinned().back().name)),
                6000);
    });
    m_pin->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    m_unpinAll = m_editMenu->addAction(QString(), m_controller, &ScenarioController::unpinAll);
    connect(m_controller, &ScenarioController::pinnedChanged, this, [this] {
        m_pin->setEnabled(m_controller->pinned().size() < size_t(kMaxPinned));
        m_unpinAll->setEnabled(!m_controller->pinned().empty());
    });
    m_unpinAll->setEnabled(false);
    m_editMenu->addSeparator();
    m_copyChartMenu = m_editMenu->addMenu(QString());
    m_copySummary = m_editMenu->addAction(QString(), this, &MainWindow::copySummary);
    m_copySummary->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    m_copyLaunch = m_editMenu->addAction(QString(), this, &MainWindow::copyLaunchCommand);

    m_viewMenu = menuBar()->addMenu(QString());
    m_presentationAction = m_viewMenu->addAction(QString(), this, &MainWindow::setPresentationMode);
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
    connect(m_themeSystem, &QAction::triggered, this,
            [this] { setTheme(QStringLiteral("system")); });
    connect(m_themeLight, &QAction::triggered, this, [this] { setTheme(QStringLiteral("light")); });
    connect(m_themeDark, &QAction::triggered, this, [this] { setTheme(QStringLiteral("dark")); });
    connect(m_unitsBinary, &QAction::triggered, this, [this] { setByteUnits(ByteUnits::Binary); });
    connect(m_unitsSi, &QAction::triggered, this, [this] { setByteUnits(ByteUnits::Si); });
    connect(m_english, &QAction::triggered, this, [this] { setLanguage(QStringLiteral("en")); });
    connect(m_japanese, &QAction::triggered, this, [this] { setLanguage(QStringLiteral("ja")); });
    m_themeSystem->setChecked(true);
    m_unitsBinary->setChecked(true);
    new ValidationMenus(this, m_viewMenu, m_controller); // View > Validation, Tools > Calibrate
}

void MainWindow::retranslate()
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
    m_pages->setTabText(0, tr("Charts"));
    if (m_planPage) {
        m_pages->setTabText(tabOf(m_planPage), tr("Plan: what to buy"));
        m_planPage->retranslate();
    }
    if (m_matrixPage) {
        m_pages->setTabText(tabOf(m_matrixPage), tr("Fit matrix"));
        m_matrixPage->retranslate();
    }
    m_exportReport->setText(tr("Export &report (PDF)..."));
    m_exportData->setText(tr("Export &data (CSV)..."));
    m_quit->setText(tr("&Quit"));
    m_editMenu->setTitle(tr("&Edit"));
    m_copyChartMenu->setTitle(tr("Copy c&hart"));
    updateUndoTexts();
    m_pin->setText(tr("&Pin scenario for comparison"));
    m_unpinAll->setText(tr("U&npin all"));
    m_pages->setTabText(tabOf(m_comparePage), tr("Compare"));
    m_comparePage->retranslate();
    m_copySummary->setText(tr("Copy &summary"));
    m_copyLaunch->setText(tr("Copy &launch command"));
    m_copyLaunch->setToolTip(tr("The command that runs this scenario on its engine "
                                "(vllm serve, llama-server or transformers in Python)"));
    m_exportChartMenu->clear();
    m_copyChartMenu->clear();
    for (ChartBase* chart : m_charts) {
        ChartActions::populate(m_exportChartMenu->addMenu(chart->chartTitle()), chart, this);
        m_copyChartMenu->addAction(chart->chartTitle(), this,
                                   [chart] { ChartActions::copyToClipboard(chart); });
    }
    updateTitle();
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
    if (m_controller->hasSnapshot())
        showSnapshot(m_controller->snapshot());
}

void MainWindow::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    else if (event->type() == QEvent::PaletteChange && m_theme == QLatin1String("system"))
        applyChartStyle();
    QMainWindow::changeEvent(event);
}

void MainWindow::updateTitle()
{
    const Scenario& s = m_controller->scenario();
    const QString file =
        m_document->path().isEmpty() ? tr("Untitled") : QFileInfo(m_document->path()).fileName();
    setWindowTitle(tr("%1[*] — %2 on %3 × %4 — kvscope")
                       .arg(file, QString::fromStdString(s.model.name))
                       .arg(s.gpuCount)
                       .arg(QString::fromStdString(s.gpu.name)));
    setWindowModified(m_document->isModified());
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = m_document->recentFiles();
    for (const QString& path : recent)
        m_recentMenu
            ->addAction(QFileInfo(path).fileName(), this,
                        [this, path] {
                            if (m_document->confirmDiscard())
                                m_document->open(path);
                        })
            ->setToolTip(path);
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::showSnapshot(const EvaluationSnapshot& snapshot)
{
    m_headline->show(snapshot);
    m_remedies->show(snapshot);
    if (m_planPage)
        m_planPage->showScenario(snapshot.scenario);
    for (ChartBase* c : m_charts)
        c->show(snapshot);
    statusBar()->clearMessage();
}

void MainWindow::showError(const QString& message)
{
    statusBar()->showMessage(message, 15000);
}

void MainWindow::applyChartStyle()
{
    QFont font = QApplication::font();
    if (m_presentation)
        font.setPointSizeF(font.pointSizeF() * 1.5);
    const ChartStyle style =
        ChartStyle::fromPalette(QApplication::palette(), font, m_presentation ? 2.0 : 1.0);
    for (ChartBase* c : m_charts)
        c->setChartStyle(style);
    m_headlineScale = 0; // the fonts may have changed: set the scale again
    fitHeadlineScale();
}

void MainWindow::fitHeadlineScale()
{
    // Presentation mode puts the figures under the key controls: three to a row and smaller
    // up to an 800-pixel screen (at 1.3 they took three rows and the last was cut), larger on a
    // 1080-pixel projector.
    const double scale = !m_presentation ? 1.0 : height() < 1000 ? 0.9 : 1.3;
    if (scale != m_headlineScale) {
        m_headlineScale = scale;
        m_headline->setScale(scale);
        fitPanelColumn();
    }
}

void MainWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    const double scale = m_headlineScale;
    fitHeadlineScale();
    if (m_presentation && scale == m_headlineScale) // the column's share follows the width
        fitPanelColumn();
}

void MainWindow::setPresentationMode(bool on)
{
    m_presentation = on;
    m_presentationAction->setChecked(on);
    if (on)
        showFullScreen();
    else
        showNormal();
    if (on)
        m_normalSplit = m_splitter->saveState();
    m_presentationMode->setOn(on);
    applyChartStyle(); // and the panel column's width (fitHeadlineScale)
    if (!on && !m_normalSplit.isEmpty())
        m_splitter->restoreState(m_normalSplit);
}

void MainWindow::fitPanelColumn()
{
    // The panel's larger font sets the column's least width. In presentation mode the column
    // widens, while the charts keep their least, to set the figures three to a row (two take a
    // third row, below a laptop's fold), and the charts take the rest.
    QWidget* column = m_splitter->widget(0);
    column->setMinimumWidth(m_panel->minimumSizeHint().width() + 24);
    if (!m_presentation)
        return;
    const int beside = column->width() - m_headline->width(); // margins, the scroll bar
    const int most =
        width() - m_splitter->widget(1)->minimumSizeHint().width() - m_splitter->handleWidth();
    const int wanted =
        std::max(column->minimumWidth(), std::min(m_headline->widthFor(3) + beside, most));
    m_splitter->setSizes({wanted, std::max(0, width() - wanted)});
}

void MainWindow::updateUndoTexts()
{
    const QUndoStack* stack = m_history->stack();
    m_undo->setEnabled(stack->canUndo());
    m_redo->setEnabled(stack->canRedo());
    m_undo->setText(stack->canUndo() ? tr("&Undo: %1").arg(stack->undoText()) : tr("&Undo"));
    m_redo->setText(stack->canRedo() ? tr("&Redo: %1").arg(stack->redoText()) : tr("&Redo"));
}

void MainWindow::setByteUnits(ByteUnits units)
{
    m_units = units;
    (units == ByteUnits::Si ? m_unitsSi : m_unitsBinary)->setChecked(true);
    m_headline->setByteUnits(units);
    m_remedies->setByteUnits(units);
    m_comparePage->setByteUnits(units);
    for (ChartBase* c : m_charts)
        c->setByteUnits(units);
    if (m_settings)
        m_settings->setUnits(units == ByteUnits::Si ? QStringLiteral("si")
                                                    : QStringLiteral("binary"));
}

void MainWindow::setTheme(const QString& theme)
{
    m_theme = theme;
    QApplication::setStyle(QStringLiteral("Fusion"));
    if (theme == QLatin1String("dark"))
        QApplication::setPalette(darkPalette());
    else if (theme == QLatin1String("light"))
        QApplication::setPalette(lightPalette());
    else
        QApplication::setPalette(m_systemPalette);
    (theme == QLatin1String("dark")    ? m_themeDark
     : theme == QLatin1String("light") ? m_themeLight
                                       : m_themeSystem)
        ->setChecked(true);
    applyChartStyle();
    if (m_settings)
        m_settings->setTheme(theme);
}

void MainWindow::setLanguage(const QString& language)
{
    if (m_language)
        m_language->apply(language);
    // Qt announces a new translator only while the event loop runs; announce it ourselves so a
    // switch before exec() (tests, --lang) retranslates too. A second announcement is harmless.
    QEvent changed(QEvent::LanguageChange);
    for (QWidget* top : QApplication::topLevelWidgets())
        QCoreApplication::sendEvent(top, &changed);
    if (m_settings)
        m_settings->setLanguage(language);
    retranslate();
    for (ChartBase* c : m_charts)
        c->retranslate();
}

void MainWindow::restoreState()
{
    if (!m_settings)
        return;
    restoreGeometry(m_settings->value(AppSettings::Keys::geometry));
    m_splitter->restoreState(m_settings->value(AppSettings::Keys::splitter));
    setByteUnits(m_settings->units() == QLatin1String("si") ? ByteUnits::Si : ByteUnits::Binary);
    setTheme(m_settings->theme());
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (m_settings && !m_document->confirmDiscard()) {
        event->ignore();
        return;
    }
    if (m_settings) {
        m_settings->setValue(AppSettings::Keys::geometry, saveGeometry());
        m_settings->setValue(AppSettings::Keys::splitter,
                             m_presentation ? m_normalSplit : m_splitter->saveState());
        m_settings->setLastScenario(
            QString::fromStdString(scenarioToText(m_controller->scenario())));
    }
    QMainWindow::closeEvent(event);
}

} // namespace kvscope::ui
