// SPDX-License-Identifier: GPL-3.0-or-later
// The window is one more door to the settings registry: its controls offer the registry's
// ranges, the engine-release box applies a release's rules as `calc --engine-version` does, and
// a release the engine lacks is refused with the same words as on the command line.

#include "kvscope/settings/scenario_defaults.h"
#include "kvscope/settings/scenario_options.h"
#include "kvscope/settings/settings_registry.h"
#include "panels/engine_release_control.h"
#include "panels/scenario_panel.h"
#include "suite_registry.h"
#include "testutils.h"
#include "window/scenario_controller.h"
#include "window/ui_text.h"

#include <QApplication>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

using namespace kvscope;
using namespace kvscope::ui;

class TestWindowSettings : public QObject
{
    Q_OBJECT

private slots:
    void releaseBoxAppliesTheReleaseRules();
    void releaseBoxRefusesAnUnknownRelease();
    void releaseBoxNamesBuildsAsTheEngineDoes();
    void releaseBoxIsOffForEnginesWithoutReleases();
    void controlsOfferTheRegistryRanges();
};

namespace {

Scenario vllmOn3090()
{
    auto s = scenarioFromOptions(
        {{"engine", "vllm"}, {"gpu", "rtx-3090"}, {"model", "llama-3.1-8b"}}, test::catalog());
    return *s;
}

} // namespace

void TestWindowSettings::releaseBoxAppliesTheReleaseRules()
{
    ScenarioController controller(test::catalog());
    controller.setScenario(vllmOn3090());
    ScenarioPanel panel(&controller);
    auto* box = panel.findChild<EngineReleaseControl*>();
    QVERIFY(box);
    QVERIFY(box->isEnabled());
    QVERIFY(box->itemText(0).contains(QStringLiteral("0.28.0"))); // latest first

    box->lineEdit()->setText(QStringLiteral("0.6.4"));
    emit box->lineEdit()->editingFinished();
    QCOMPARE(controller.scenario().engineVersion, std::string("0.6.4"));
    controller.evaluateNow();
    auto cli = scenarioFromOptions({{"engine", "vllm"},
                                    {"gpu", "rtx-3090"},
                                    {"model", "llama-3.1-8b"},
                                    {"engine-version", "0.6.4"}},
                                   test::catalog());
    QVERIFY(cli);
    const auto expected = evaluate(*cli);
    QVERIFY(expected);
    QCOMPARE(controller.snapshot().evaluation.engine.kvCacheTokens, expected->engine.kvCacheTokens);
    QCOMPARE(controller.snapshot().evaluation.vram.overheadBytes, 358.0 * 1024 * 1024);

    // Back to the latest release: the engine's own profile again.
    box->setCurrentIndex(0);
    emit box->activated(0);
    QVERIFY(controller.scenario().engineVersion.empty());
    QCOMPARE(controller.scenario().engine.runtimeOverheadMiB,
             test::catalog().engine("vllm")->runtimeOverheadMiB);
}

void TestWindowSettings::releaseBoxRefusesAnUnknownRelease()
{
    ScenarioController controller(test::catalog());
    controller.setScenario(vllmOn3090());
    ScenarioPanel panel(&controller);
    auto* box = panel.findChild<EngineReleaseControl*>();
    QSignalSpy rejected(&controller, &ScenarioController::rejected);
    box->lineEdit()->setText(QStringLiteral("0.1.0"));
    emit box->lineEdit()->editingFinished();
    QCOMPARE(rejected.count(), 1);
    const QString message = rejected.front().front().toString();
    QVERIFY2(message.contains(QStringLiteral("0.2.0")) &&
                 message.contains(QStringLiteral("0.28.0")),
             qPrintable(message));
    QVERIFY(controller.scenario().engineVersion.empty()); // nothing changed
    QCOMPARE(box->currentText(), box->itemText(0));       // the box shows the scenario again
}

// llama.cpp numbers its releases by build: the box lists "b10573", not "10573.0.0", and a
// listed build applies.
void TestWindowSettings::releaseBoxNamesBuildsAsTheEngineDoes()
{
    ScenarioController controller(test::catalog());
    Scenario s = vllmOn3090();
    applyEngine(s, *test::catalog().engine("llamacpp"));
    controller.setScenario(s);
    ScenarioPanel panel(&controller);
    auto* box = panel.findChild<EngineReleaseControl*>();
    QVERIFY(box && box->isEnabled() && box->count() > 2);
    QVERIFY2(box->itemText(0).contains(QStringLiteral("(b")), qPrintable(box->itemText(0)));
    for (int i = 1; i < box->count(); ++i) {
        QVERIFY2(box->itemText(i).startsWith(QLatin1Char('b')) &&
                     !box->itemText(i).contains(QLatin1Char('.')),
                 qPrintable(box->itemText(i)));
        QCOMPARE(box->itemData(i).toString(), box->itemText(i));
    }
    box->setCurrentIndex(1);
    emit box->activated(1);
    QCOMPARE(QString::fromStdString(controller.scenario().engineVersion), box->itemText(1));
}

void TestWindowSettings::releaseBoxIsOffForEnginesWithoutReleases()
{
    ScenarioController controller(test::catalog());
    controller.setScenario(*defaultScenario(test::catalog())); // transformers
    ScenarioPanel panel(&controller);
    auto* box = panel.findChild<EngineReleaseControl*>();
    QVERIFY(box && !box->isEnabled());
}

void TestWindowSettings::controlsOfferTheRegistryRanges()
{
    ScenarioController controller(test::catalog());
    controller.setScenario(*defaultScenario(test::catalog()));
    ScenarioPanel panel(&controller);
    // Every efficiency factor's box, and the engine knobs, take the registry's bounds.
    int checked = 0;
    for (QDoubleSpinBox* box : panel.findChildren<QDoubleSpinBox*>()) {
        for (const std::string& id : efficiencyIds()) {
            if (box != panel.efficiencyBox(id))
                continue;
            const Setting* s = settingById(id);
            QCOMPARE(box->minimum(), s->lo);
            QCOMPARE(box->maximum(), s->hi);
            ++checked;
        }
    }
    QCOMPARE(checked, int(efficiencyIds().size()));
    const Setting* batch = settingById("batch");
    bool sawBatch = false;
    for (QSpinBox* box : panel.findChildren<QSpinBox*>())
        if (box->maximum() == int(batch->hi) && box->minimum() == int(batch->lo))
            sawBatch = true;
    QVERIFY(sawBatch);
}

KVSCOPE_TEST_SUITE(TestWindowSettings, "tst_window_settings", kvscope::test::SuiteApp::Widgets)
#include "tst_window_settings.moc"
