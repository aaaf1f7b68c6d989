// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_set.h"
#include "kvscope/base/number_format.h"

#include <QObject>

class QAction;
class QMenu;

namespace kvscope::ui {

class Language;
class MainWindow;
class PresentationMode;
class ScenarioController;
class ScenarioDocument;
class ScenarioHistory;
class ScenarioPanel;

// The window's menu bar: every menu and action, their texts (retranslate), what is enabled
// (undo and redo, pinning), which theme, units, language and mode are checked, and the recent
// files. Its actions call the window, the document, the history and the controller; it decides
// nothing itself.
class WindowMenus : public QObject
{
    Q_OBJECT
public:
    WindowMenus(MainWindow* window, ScenarioController* controller, ScenarioDocument* document,
                ScenarioHistory* history, PresentationMode* presentation, ScenarioPanel* panel,
                Language* language);

    void retranslate(const ChartSet& charts); // the texts, and a submenu per chart
    void rebuildRecentMenu();
    // What the View menu shows as checked.
    void showPresentationMode(bool on);
    void showTheme(const QString& theme);
    void showByteUnits(ByteUnits units);

signals:
    // File > Import from Hugging Face: "ORG/NAME[@REVISION]", already checked for its grammar.
    void hubModelRequested(const QString& id);

private:
    void buildFileMenu();
    void addExportActions();
    void buildEditMenu();
    void buildViewMenu();
    void retranslateFileMenu(const ChartSet& charts);
    void retranslateEditMenu(const ChartSet& charts);
    void retranslateViewMenu();
    void askForHubModel();
    void askForExport(const QString& title, const QString& fileName, const QString& filter,
                      bool (MainWindow::*write)(const QString&));
    void updateUndoTexts();
    void updatePinning();

    MainWindow* m_window;
    ScenarioController* m_controller;
    ScenarioDocument* m_document;
    ScenarioHistory* m_history;
    PresentationMode* m_presentationMode;
    ScenarioPanel* m_panel;
    Language* m_language;

    QMenu* m_fileMenu = nullptr;
    QMenu* m_editMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QMenu* m_themeMenu = nullptr;
    QMenu* m_unitsMenu = nullptr;
    QMenu* m_languageMenu = nullptr;
    QAction* m_new = nullptr;
    QAction* m_open = nullptr;
    QMenu* m_recentMenu = nullptr;
    QAction* m_save = nullptr;
    QAction* m_saveAs = nullptr;
    QAction* m_import = nullptr;
    QAction* m_importHub = nullptr;
    QMenu* m_exportChartMenu = nullptr;
    QAction* m_exportReport = nullptr;
    QAction* m_exportData = nullptr;
    QMenu* m_copyChartMenu = nullptr;
    QAction* m_quit = nullptr;
    QAction* m_undo = nullptr;
    QAction* m_redo = nullptr;
    QAction* m_pin = nullptr;
    QAction* m_unpinAll = nullptr;
    QAction* m_copySummary = nullptr;
    QAction* m_copyLaunch = nullptr;
    QAction* m_presentationAction = nullptr;
    QAction* m_themeSystem = nullptr;
    QAction* m_themeLight = nullptr;
    QAction* m_themeDark = nullptr;
    QAction* m_unitsBinary = nullptr;
    QAction* m_unitsSi = nullptr;
    QAction* m_english = nullptr;
    QAction* m_japanese = nullptr;
};

} // namespace kvscope::ui
