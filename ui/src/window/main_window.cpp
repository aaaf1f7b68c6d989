// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/main_window.h"

#include "charts/chart_base.h"
#include "charts/view_registry.h"
#include "kvscope/settings/scenario_file.h"
#include "panels/compare_page.h"
#include "panels/headline_bar.h"
#include "panels/plan_page.h"
#include "panels/remedies_panel.h"
#include "panels/scenario_panel.h"
#include "window/app_settings.h"
#include "window/language.h"
#include "window/palettes.h"
#include "window/presentation_mode.h"
#include "window/scenario_document.h"
#include "window/scenario_history.h"
#include "window/view_pages.h"
#include "window/window_menus.h"

#include <QApplication>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSplitter>
#include <QStatusBar>
#include <QTableWidget>
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
    buildLayout();
    m_document = new ScenarioDocument(controller, settings, this);
    m_history = new ScenarioHistory(controller, this);
    m_menus = new WindowMenus(this, controller, m_document, m_history, m_presentationMode, m_panel,
                              language);
    connect(m_menus, &WindowMenus::hubModelRequested, this, &MainWindow::hubModelRequested);
    connectDocument();
    connect(controller, &ScenarioController::evaluated, this, &MainWindow::showSnapshot);
    connect(controller, &ScenarioController::rejected, this, &MainWindow::showError);
    connectSliders();
    applyChartStyle();
    retranslate();
    resize(1600, 1000);
}

void MainWindow::buildLayout()
{
    m_panel = new ScenarioPanel(m_controller, this);
    m_remedies = new RemediesPanel(m_controller, this);
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
    // The column's least width follows what it holds: remedies and figures come and go.
    left->installEventFilter(this);

    m_headline = new HeadlineBar(this);
    m_views = new ViewPages(m_controller, this);
    m_presentationMode = new PresentationMode(m_panel, scroll, m_views->charts(), m_views, this);
    leftLayout->insertWidget(1, m_presentationMode->drawerButton()); // under the key controls
    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(4, 4, 4, 4);
    rightLayout->addWidget(m_headline);
    rightLayout->addWidget(m_views, 1);
    m_presentationMode->setHeadline(m_headline, rightLayout, 0, leftLayout, 2);
    m_presentationMode->enlarge(m_views->comparePage()->table()); // its buttons keep their size
    // The verdict over the figures there: on a projector's 720 rows it is the answer, and the
    // figures under it may scroll.
    const QMargins remediesMargins = m_remedies->boxLayout()->contentsMargins();
    m_presentationMode->relocate(m_remedies->verdictLabel(), m_remedies->boxLayout(), 0, leftLayout,
                                 2, {remediesMargins.left(), 0, remediesMargins.right(), 0});

    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->addWidget(scroll);
    m_splitter->addWidget(right);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setChildrenCollapsible(false);
    setCentralWidget(m_splitter);
}

void MainWindow::connectDocument()
{
    // The title follows the document, not every evaluation: a context drag changes neither the
    // title's text nor the recent files (WindowMenus follows those).
    connect(m_document, &ScenarioDocument::stateChanged, this, &MainWindow::updateTitle);
    connect(m_document, &ScenarioDocument::modifiedChanged, this, &QWidget::setWindowModified);
    connect(m_panel, &ScenarioPanel::importConfigRequested, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Import a model"), QString(),
            tr("Model files (*.json *.gguf);;Hugging Face config (*.json);;GGUF model (*.gguf)"));
        if (!path.isEmpty())
            importModelFile(path);
    });
}

void MainWindow::connectSliders()
{
    for (QSlider* slider : m_panel->findChildren<QSlider*>()) {
        connect(slider, &QSlider::sliderPressed, this, [this] {
            m_history->beginDrag(); // the whole drag is one undo step
            m_views->setDraftMode(true);
            m_remedies->setDeferred(true);
        });
        connect(slider, &QSlider::sliderReleased, this, [this] {
            m_history->endDrag();
            m_views->setDraftMode(false);
            m_remedies->setDeferred(false);
        });
    }
}

MainWindow::~MainWindow()
{
    // Closing the window takes the focus from the pages' editors, which then report a finished
    // edit: nothing of this half-destroyed window may answer it.
    if (PlanPage* plan = m_views->planPage())
        disconnect(plan, nullptr, nullptr, nullptr);
    // The undo stack, a grandchild, says its index changed as it is cleared on the way out.
    disconnect(m_history->stack(), nullptr, m_menus, nullptr);
}

const ChartSet& MainWindow::charts() const
{
    return m_views->charts();
}

QTabWidget* MainWindow::pages() const
{
    return m_views;
}

PlanPage* MainWindow::planPage() const
{
    return m_views->planPage();
}

ComparePage* MainWindow::comparePage() const
{
    return m_views->comparePage();
}

ChartBase* MainWindow::chart(const QString& id) const
{
    return m_views->chart(id);
}

bool MainWindow::showPage(const QString& id)
{
    // A view of the chart grid: in presentation mode, its row first.
    if (ChartBase* view = chart(id); view && view->view()->page == ViewPage::Charts)
        m_presentationMode->showChart(id);
    return m_views->showPage(id);
}

void MainWindow::retranslate()
{
    m_menus->retranslate(m_views->charts());
    m_views->retranslate();
    updateTitle();
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
                       .arg(file, QString::fromStdString(s.model.name), QString::number(s.gpuCount),
                            QString::fromStdString(s.gpu.name)));
    setWindowModified(m_document->isModified());
}

void MainWindow::showSnapshot(const EvaluationSnapshot& snapshot)
{
    m_headline->show(snapshot);
    m_remedies->show(snapshot);
    m_views->showSnapshot(snapshot);
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
    m_views->setChartStyle(style);
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
    m_menus->showPresentationMode(on);
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

bool MainWindow::eventFilter(QObject* watched, QEvent* event)
{
    auto* column = qobject_cast<QScrollArea*>(m_splitter ? m_splitter->widget(0) : nullptr);
    if (event->type() == QEvent::LayoutRequest && column && watched == column->widget() &&
        column->minimumWidth() < wantedColumnWidth())
        QMetaObject::invokeMethod(this, &MainWindow::fitPanelColumn, Qt::QueuedConnection);
    return QMainWindow::eventFilter(watched, event);
}

// The least width of the panel column: that of everything it holds (in presentation mode the
// figures and the remedies too, whose buttons were cut off in Japanese), plus its scroll bar.
int MainWindow::wantedColumnWidth() const
{
    auto* column = qobject_cast<QScrollArea*>(m_splitter->widget(0));
    return column->widget()->minimumSizeHint().width() +
           column->verticalScrollBar()->sizeHint().width() + 2 * column->frameWidth();
}

void MainWindow::fitPanelColumn()
{
    // The panel's larger font sets the column's least width. In presentation mode the column
    // widens, while the charts keep their least, to set the figures three to a row (two take a
    // third row, below a laptop's fold), and the charts take the rest.
    QWidget* column = m_splitter->widget(0);
    column->setMinimumWidth(wantedColumnWidth());
    if (!m_presentation)
        return;
    const int beside = column->width() - m_headline->width(); // margins, the scroll bar
    const int most =
        width() - m_splitter->widget(1)->minimumSizeHint().width() - m_splitter->handleWidth();
    const int wanted =
        std::max(column->minimumWidth(), std::min(m_headline->widthFor(3) + beside, most));
    m_splitter->setSizes({wanted, std::max(0, width() - wanted)});
}

void MainWindow::setByteUnits(ByteUnits units)
{
    m_units = units;
    m_menus->showByteUnits(units);
    m_headline->setByteUnits(units);
    m_remedies->setByteUnits(units);
    m_views->setByteUnits(units);
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
    m_menus->showTheme(theme);
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
    for (ChartBase* c : m_views->charts())
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
