// SPDX-License-Identifier: GPL-3.0-or-later
// The window's planner: the headline strip says whether the scenario runs and what binds, a
// scenario that cannot run shows no decode speed, the remedies panel lists the core's remedies
// in order, Apply makes one change that runs, and Undo takes it back.
#include "kvscope/planning/cautions.h"
#include "kvscope/planning/longest_context.h"
#include "kvscope/planning/remedies.h"
#include "kvscope/settings/scenario_options.h"
#include "panels/headline_bar.h"
#include "panels/remedies_panel.h"
#include "suite_registry.h"
#include "testutils.h"
#include "window/scenario_controller.h"

#include <QApplication>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTest>

using namespace kvscope;
using namespace kvscope::ui;

class TestRemediesUi : public QObject
{
    Q_OBJECT

private slots:
    // A fit with under 5 % of the budget free reads "Tight" in amber, and a context past the
    // model's trained maximum is said in the verdict and under the longest context.
    void cautionsReachTheHeadline()
    {
        ScenarioController controller(test::catalog());
        HeadlineBar headline;
        connect(&controller, &ScenarioController::evaluated, &headline, &HeadlineBar::show);
        auto s = scenarioFromOptions({{"batch", "9"}}, test::catalog()); // 247 MiB of 23.6 GiB free
        QVERIFY(s);
        controller.setScenario(*s);
        controller.evaluateNow();
        const VramSplit& v = controller.snapshot().evaluation.vram;
        QVERIFY(v.fits && v.freeBytes < 0.05 * v.budgetBytes);
        QCOMPARE(headline.tile(HeadlineBar::Fit)->value(), QStringLiteral("Tight"));
        QVERIFY(headline.verdictText().contains(QStringLiteral("Caution: only 247 MiB (1.0 %)")));
        s = scenarioFromOptions({{"context", "8192"}}, test::catalog());
        controller.setScenario(*s);
        controller.evaluateNow();
        QCOMPARE(headline.tile(HeadlineBar::Fit)->value(), QStringLiteral("Fits"));
        QVERIFY(headline.verdictText().contains(
            QStringLiteral("past the model's trained maximum of 4,096")));
        QCOMPARE(headline.tile(HeadlineBar::LongestContext)->detail(),
                 QStringLiteral("per sequence; the model is trained to 4K"));
    }

    void overflowShowsVerdictAndRemedies()
    {
        ScenarioController controller(test::catalog());
        HeadlineBar headline;
        RemediesPanel panel(&controller);
        connect(&controller, &ScenarioController::evaluated, &headline, &HeadlineBar::show);
        connect(&controller, &ScenarioController::evaluated, &panel, &RemediesPanel::show);
        auto s = scenarioFromOptions({{"model", "llama-3.1-70b"}, {"context", "32768"}},
                                     test::catalog());
        QVERIFY(s);
        controller.setScenario(*s);
        controller.evaluateNow();

        QVERIFY(headline.verdictText().startsWith(
            QStringLiteral("Does not fit: needs 148 GiB per GPU, 23.6 GiB available")));
        QCOMPARE(headline.tile(HeadlineBar::Decode)->value(), QStringLiteral("—"));
        // The weights alone overflow: no context runs, and the tile says so, not "0".
        QCOMPARE(headline.tile(HeadlineBar::LongestContext)->value(), QStringLiteral("—"));
        QCOMPARE(headline.tile(HeadlineBar::LongestContext)->detail(),
                 QStringLiteral("no context runs"));
        QVERIFY(!panel.isHidden());
        const Verdict v =
            verdictOf(controller.snapshot().scenario, controller.snapshot().evaluation);
        const std::vector<Remedy> expected =
            remedies(controller.snapshot().scenario, v, test::catalog());
        QCOMPARE(panel.remedies().size(), expected.size());
        for (size_t i = 0; i < expected.size(); ++i)
            QCOMPARE(panel.remedies()[i].kind, expected[i].kind);

        // Apply the first remedy that runs: one change, and the scenario runs.
        size_t runs = 0;
        while (runs < panel.remedies().size() && !panel.remedies()[runs].verdict.runs)
            ++runs;
        QVERIFY(runs < panel.remedies().size());
        auto* button = panel.findChild<QPushButton*>(QStringLiteral("applyRemedy%1").arg(runs));
        QVERIFY(button);
        QTest::mouseClick(button, Qt::LeftButton);
        controller.evaluateNow();
        QVERIFY(controller.snapshot().evaluation.vram.fits ||
                controller.snapshot().scenario.offloadWeights);
        QVERIFY(headline.verdictText().startsWith(QStringLiteral("Runs")));
        QVERIFY(headline.tile(HeadlineBar::Decode)->value() != QStringLiteral("—"));

        // Undo brings the overflowing scenario back.
        auto* undo = panel.findChild<QPushButton*>(QStringLiteral("undoRemedy"));
        QVERIFY(undo && !undo->isHidden());
        QTest::mouseClick(undo, Qt::LeftButton);
        controller.evaluateNow();
        QCOMPARE(controller.snapshot().scenario.context, int64_t(32768));
        QVERIFY(!controller.snapshot().evaluation.vram.fits);
        QVERIFY(undo->isHidden());
    }

    // A context too long to run: the tile gives the longest that runs, the figure calc's
    // "longest context that runs" and the shorten-context remedy give, never the 0 tokens of
    // room left today.
    void longestContextTileIsTheLongestThatRuns()
    {
        ScenarioController controller(test::catalog());
        HeadlineBar headline;
        connect(&controller, &ScenarioController::evaluated, &headline, &HeadlineBar::show);
        auto s = scenarioFromOptions(
            {{"model", "llama-3.1-8b"}, {"context", "65536"}, {"batch", "2"}}, test::catalog());
        QVERIFY(s);
        controller.setScenario(*s);
        controller.evaluateNow();
        QVERIFY(!controller.snapshot().verdict.runs);
        const std::optional<int64_t> longest = longestRunningContext(*s, s->context - 1);
        QVERIFY(longest && *longest > 1000);
        QCOMPARE(headline.tile(HeadlineBar::LongestContext)->value(),
                 QLocale(QLocale::English).toString(qlonglong(*longest)));
        QCOMPARE(headline.tile(HeadlineBar::LongestContext)->detail(),
                 QStringLiteral("the longest that runs, at 2 sequences"));
    }

    void aHeldSliderDefersTheRemedies()
    {
        ScenarioController controller(test::catalog());
        RemediesPanel panel(&controller);
        connect(&controller, &ScenarioController::evaluated, &panel, &RemediesPanel::show);
        controller.setScenario(test::scenario());
        controller.evaluateNow();
        QVERIFY(controller.hasSnapshot());
        QVERIFY(panel.remedies().empty());
        panel.setDeferred(true); // a drag to 64K tokens: the seed's scenario overflows
        QString refused;
        connect(&controller, &ScenarioController::rejected, this,
                [&refused](const QString& m) { refused = m; });
        controller.setContext(65'536);
        controller.evaluateNow();
        QVERIFY2(refused.isEmpty(), qPrintable(refused));
        QVERIFY(panel.remedies().empty());
        QCOMPARE(controller.snapshot().scenario.context, int64_t(65'536));
        QVERIFY(!controller.snapshot().evaluation.vram.fits);
        panel.setDeferred(false); // released: the remedies catch up
        QVERIFY(!panel.remedies().empty());
        QVERIFY(!panel.isHidden());
    }

    void runningScenarioHidesThePanel()
    {
        ScenarioController controller(test::catalog());
        RemediesPanel panel(&controller);
        connect(&controller, &ScenarioController::evaluated, &panel, &RemediesPanel::show);
        controller.setScenario(test::scenario()); // the seed's scenario runs
        controller.evaluateNow();
        QVERIFY(controller.hasSnapshot());
        QVERIFY(panel.remedies().empty());
        QVERIFY(panel.isHidden());

        // A setting the engine does not have is said in the panel, though the scenario runs.
        auto s = scenarioFromOptions({{"engine", "vllm"}, {"kv-dtype", "q4_0"}}, test::catalog());
        QVERIFY(s);
        controller.setScenario(*s);
        controller.evaluateNow();
        QVERIFY(controller.snapshot().verdict.runs);
        QVERIFY(!panel.isHidden());
        auto* caution = panel.findChild<QLabel*>(QStringLiteral("engineCaution"));
        QVERIFY(caution && !caution->isHidden());
        QCOMPARE(caution->text(),
                 QStringLiteral("Caution: vLLM does not load a KV cache in q4_0 (it offers fp16, "
                                "bf16, fp8); the figures are what it would take if it did."));
    }
};

KVSCOPE_TEST_SUITE(TestRemediesUi, "tst_remedies_ui", kvscope::test::SuiteApp::Widgets)
#include "tst_remedies_ui.moc"
