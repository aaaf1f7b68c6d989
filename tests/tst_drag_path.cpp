// SPDX-License-Identifier: GPL-3.0-or-later
// What a context drag does and does not do besides replotting: the panel re-syncs only the
// context control, the title and the recent-files menu stay as they are (the modified mark
// follows the saved state exactly), and a refused value is judged once, when evaluated.

#include "panels/context_control.h"
#include "panels/scenario_panel.h"
#include "suite_registry.h"
#include "testutils.h"
#include "window/app_settings.h"
#include "window/language.h"
#include "window/main_window.h"
#include "window/scenario_controller.h"
#include "window/scenario_document.h"

#include <QApplication>
#include <QMenu>
#include <QPointer>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace kvscope;
using namespace kvscope::ui;

class TestDragPath : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void contextDragSyncsOnlyTheContextControl();
    void contextDragLeavesTitleAndRecentMenu();
    void refusedContextIsJudgedOnceAndUndone();

private:
    // Drags the context slider over `positions` (held down, as a mouse holds it) and evaluates.
    void drag(std::initializer_list<int> positions);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_store;
    std::unique_ptr<AppSettings> m_settings;
    std::unique_ptr<ScenarioController> m_controller;
    std::unique_ptr<Language> m_language;
    std::unique_ptr<MainWindow> m_window;
};

// The seed's scenario in a window with settings of its own, so it has recent files.
void TestDragPath::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_store = std::make_unique<QSettings>(m_dir->filePath(QStringLiteral("settings.ini")),
                                          QSettings::IniFormat);
    m_settings = std::make_unique<AppSettings>(m_store.get());
    m_controller = std::make_unique<ScenarioController>(test::catalog());
    m_controller->setScenario(*defaultScenario(test::catalog()));
    m_language = std::make_unique<Language>();
    m_language->apply(QStringLiteral("en"));
    m_window = std::make_unique<MainWindow>(m_controller.get(), m_settings.get(), m_language.get());
    m_window->resize(1600, 1000);
    m_window->show();
    m_controller->evaluateNow();
}

void TestDragPath::cleanup()
{
    m_window.reset();
    m_language.reset();
    m_controller.reset();
    m_settings.reset();
    m_store.reset();
    m_dir.reset();
}

void TestDragPath::drag(std::initializer_list<int> positions)
{
    QSlider* slider = m_window->panel()->contextControl()->slider();
    slider->setSliderDown(true);
    for (int position : positions)
        slider->setValue(position);
    m_controller->evaluateNow();
    slider->setSliderDown(false);
}

void TestDragPath::contextDragSyncsOnlyTheContextControl()
{
    ScenarioPanel* panel = m_window->panel();
    // A control out of step with the scenario (set without telling the controller) shows
    // whether the panel re-synced every control.
    {
        const QSignalBlocker blocker(panel->batchBox());
        panel->batchBox()->setValue(7);
    }
    QSignalSpy changes(m_controller.get(), &ScenarioController::scenarioChanged);
    drag({120, 124, 128, 132});
    QCOMPARE(changes.count(), 4);
    for (const QList<QVariant>& change : changes)
        QCOMPARE(change.front().value<ScenarioController::Change>(),
                 ScenarioController::Change::Context);
    QCOMPARE(panel->batchBox()->value(), 7);
    QCOMPARE(m_controller->scenario().context, ContextControl::tokensAt(132));
    QCOMPARE(panel->contextControl()->value(), m_controller->scenario().context);

    // A context set other than by the control itself still reaches the control.
    m_controller->setContext(12'345);
    QCOMPARE(panel->contextControl()->value(), int64_t(12'345));
    QCOMPARE(panel->batchBox()->value(), 7);

    // Any other change re-syncs every control.
    m_controller->edit([](Scenario& s) { s.gpuCount = 2; });
    QCOMPARE(changes.last().front().value<ScenarioController::Change>(),
             ScenarioController::Change::Any);
    QCOMPARE(panel->batchBox()->value(), 1);
    QCOMPARE(panel->gpuCountBox()->value(), 2);
}

void TestDragPath::contextDragLeavesTitleAndRecentMenu()
{
    ScenarioDocument* doc = m_window->document();
    auto* recent = m_window->findChild<QMenu*>(QStringLiteral("recentFilesMenu"));
    QVERIFY(recent);
    QVERIFY(recent->actions().isEmpty());
    QSignalSpy recentChanges(doc, &ScenarioDocument::recentFilesChanged);
    const QString saved = m_dir->filePath(QStringLiteral("saved.kvscope.json"));
    QVERIFY(doc->saveTo(saved));
    QCOMPARE(recentChanges.count(), 1);
    QCOMPARE(recent->actions().size(), 1);
    QCOMPARE(recent->actions().front()->text(), QStringLiteral("saved.kvscope.json"));
    QVERIFY(!m_window->isWindowModified());

    // A drag: the menu keeps its very entries (a rebuild would delete them), the title its
    // text; only the modified mark comes on.
    const QPointer<QAction> entry = recent->actions().front();
    const QString title = m_window->windowTitle();
    QSignalSpy stateChanges(doc, &ScenarioDocument::stateChanged);
    QSignalSpy modifiedChanges(doc, &ScenarioDocument::modifiedChanged);
    const int64_t savedContext = m_controller->scenario().context;
    drag({150, 160, 170, 180});
    QVERIFY(!entry.isNull());
    QCOMPARE(recent->actions().front(), entry.data());
    QCOMPARE(recentChanges.count(), 1);
    QCOMPARE(stateChanges.count(), 0);
    QCOMPARE(m_window->windowTitle(), title);
    QVERIFY(doc->isModified());
    QVERIFY(m_window->isWindowModified());
    QCOMPARE(modifiedChanges.count(), 1); // once, not once per step

    // Back to the saved context: saved again, exactly.
    m_controller->setContext(savedContext);
    m_controller->evaluateNow();
    QVERIFY(!doc->isModified());
    QVERIFY(!m_window->isWindowModified());

    // Saving after a drag clears the mark; the same file leaves the recent list as it was.
    drag({200});
    QVERIFY(m_window->isWindowModified());
    QVERIFY(doc->saveTo(saved));
    QVERIFY(!doc->isModified());
    QVERIFY(!m_window->isWindowModified());
    QCOMPARE(recentChanges.count(), 1);
    QVERIFY(!entry.isNull());

    // Another field marks it too, and is not undone by a context back at the saved value.
    m_controller->edit([](Scenario& s) { s.batch = 4; });
    QVERIFY(m_window->isWindowModified());
    m_controller->setContext(m_controller->scenario().context);
    QVERIFY(m_window->isWindowModified());
    // A new file is what changes the recent files, and the menu with them.
    QVERIFY(doc->saveTo(m_dir->filePath(QStringLiteral("other.kvscope.json"))));
    QCOMPARE(recentChanges.count(), 2);
    QCOMPARE(recent->actions().size(), 2);
    QCOMPARE(recent->actions().front()->text(), QStringLiteral("other.kvscope.json"));
    QVERIFY(!m_window->isWindowModified());
}

void TestDragPath::refusedContextIsJudgedOnceAndUndone()
{
    const int64_t before = m_controller->scenario().context;
    QSignalSpy rejected(m_controller.get(), &ScenarioController::rejected);
    QSignalSpy evaluated(m_controller.get(), &ScenarioController::evaluated);
    m_controller->setContext(limits::maxContext + 1);
    QCOMPARE(rejected.count(), 0); // judged by the evaluation, not before it as well
    m_controller->evaluateNow();
    QCOMPARE(rejected.count(), 1);
    QVERIFY2(rejected.front().front().toString().startsWith(QStringLiteral("context")),
             qPrintable(rejected.front().front().toString()));
    QCOMPARE(evaluated.count(), 0);
    QCOMPARE(m_controller->scenario().context, before);
    QCOMPARE(m_window->panel()->contextControl()->value(), before);
    QVERIFY(!m_window->document()->isModified());
    QVERIFY(!m_window->isWindowModified());
    // The next edit evaluates from the restored scenario.
    m_controller->setContext(4096);
    m_controller->evaluateNow();
    QCOMPARE(evaluated.count(), 1);
    QCOMPARE(m_controller->snapshot().scenario.context, int64_t(4096));
}

KVSCOPE_TEST_SUITE(TestDragPath, "tst_drag_path", kvscope::test::SuiteApp::FusionFixed)

#include "tst_drag_path.moc"
