// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_set.h"
#include "charts/chart_style.h"
#include "kvscope/base/number_format.h"
#include "kvscope/engines/launch_command.h"
#include "window/scenario_controller.h"

#include <QMainWindow>

class QSplitter;
class QTabWidget;

namespace kvscope::ui {

class AppSettings;
class ChartBase;
class ComparePage;
class ScenarioHistory;
class HeadlineBar;
class MatrixPage;
class PlanPage;
class PresentationMode;
class RemediesPanel;
class Language;
class ScenarioDocument;
class ScenarioPanel;
class ViewPages;
class WindowMenus;

// The window: scenario panel on the left, headline figures and the views (ViewPages) on the
// right, the menu bar (WindowMenus) on top, the file behind it (ScenarioDocument).
// It wires the controller to them; it computes nothing itself.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    // Why the scenario has no launch command, in the window's language (the CLI's English
    // refusal goes under it as the details).
    QString launchRefusalText(LaunchRefusal kind) const;
    MainWindow(ScenarioController* controller, AppSettings* settings, Language* language,
               QWidget* parent = nullptr);
    ~MainWindow() override;

    ScenarioPanel* panel() const { return m_panel; }
    HeadlineBar* headline() const { return m_headline; }
    RemediesPanel* remediesPanel() const { return m_remedies; }
    const ChartSet& charts() const;
    QTabWidget* pages() const;
    PlanPage* planPage() const;
    ComparePage* comparePage() const;
    ScenarioHistory* history() const { return m_history; }
    ChartBase* chart(const QString& id) const;

    void setPresentationMode(bool on);
    bool isPresentationMode() const { return m_presentation; }
    PresentationMode* presentationMode() const { return m_presentationMode; }
    // Shows a tab: "charts" (the grid), "compare" (the difference table) or the id of a view
    // with a page of its own ("plan", "matrix"); for a view of the chart grid, the grid scrolled
    // to it (in presentation mode, its row); false for any other id.
    bool showPage(const QString& id);
    void setByteUnits(ByteUnits units);
    void setTheme(const QString& theme); // "system", "light", "dark"
    void setLanguage(const QString& language);
    // A config.json or GGUF file as the model; false (and a message) when the file is refused.
    bool importModelFile(const QString& path);
    // A model the app layer fetched for hubModelRequested: its config.json, or an empty path and
    // the reason; `message` is also the note when a cached copy stood in.
    bool importFetchedModel(const QString& path, const QString& message);
    ScenarioDocument* document() const { return m_document; }
    bool exportReport(const QString& path); // PDF, page size from the locale (Letter in the US)
    bool exportData(const QString& path);   // every view's series (its csvColumns) as CSV
    void copySummary();
    void copyLaunchCommand();
    // Restores geometry and splitter state; remembers them (and the scenario) on close.
    void restoreState();

signals:
    // File > Import from Hugging Face: "ORG/NAME[@REVISION]", already checked for its grammar.
    void hubModelRequested(const QString& id);

protected:
    void changeEvent(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildLayout(); // the panel's column beside the headline over the views
    void connectDocument();
    void connectSliders(); // draft-quality curves while any slider is held
    void retranslate();
    void showSnapshot(const EvaluationSnapshot& snapshot);
    void applyChartStyle();
    void fitHeadlineScale(); // presentation mode's figures, as large as the window's height allows
    void fitPanelColumn();
    int wantedColumnWidth() const;
    void showError(const QString& message);
    void updateTitle();

    ScenarioController* m_controller;
    AppSettings* m_settings;
    Language* m_language;
    ScenarioPanel* m_panel = nullptr;
    ScenarioDocument* m_document = nullptr;
    HeadlineBar* m_headline = nullptr;
    RemediesPanel* m_remedies = nullptr;
    ViewPages* m_views = nullptr; // the chart grid, the Plan, Fit matrix and Compare pages
    WindowMenus* m_menus = nullptr;
    QSplitter* m_splitter = nullptr;
    ScenarioHistory* m_history = nullptr;
    ByteUnits m_units = ByteUnits::Binary;
    bool m_presentation = false;
    double m_headlineScale = 0; // the headline's scale as last set
    PresentationMode* m_presentationMode = nullptr;
    QByteArray m_normalSplit; // the splitter's state before presentation mode
    QPalette m_systemPalette;
    QString m_theme = QStringLiteral("system");
};

} // namespace kvscope::ui
