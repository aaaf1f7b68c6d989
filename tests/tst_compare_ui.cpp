// SPDX-License-Identifier: GPL-3.0-or-later
// The window's comparison and history: pinning and unpinning, the Compare tab's table and the
// headline's change against A, a saved comparison reopened, and undo/redo of a slider drag, an
// applied remedy and an opened file.

#include "window_fixture.h"

#include "kvscope/io/scenario_file.h"
#include "kvscope/text/comparison_text.h"
#include "panels/compare_page.h"
#include "panels/headline_bar.h"
#include "panels/remedies_panel.h"
#include "window/scenario_document.h"
#include "window/scenario_history.h"

#include <QApplication>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <fstream>

using namespace kvscope;

class TestCompareUi : public QObject
{
    Q_OBJECT

    test::WindowFixture f;

    void change(const std::vector<std::pair<std::string, std::string>>& options)
    {
        Scenario next = f.controller->scenario();
        QVERIFY(!applyOptions(next, options, test::catalog()));
        f.controller->setScenario(next);
        f.controller->evaluateNow();
    }

private slots:
    void init() { f.open(); }
    void cleanup() { f.close(); }

    void pinningAndUnpinning()
    {
        QVERIFY(f.controller->pin());
        QCOMPARE(f.controller->pinned().front().name, std::string("A"));
        change({{"weights", "q4_k_m"}});
        QVERIFY(f.controller->pin());
        // Named by what differs from A.
        QCOMPARE(f.controller->pinned()[1].name, test::weightFormat("q4_k_m").name);
        for (int i = 0; i < 2; ++i)
            QVERIFY(f.controller->pin());
        QVERIFY(!f.controller->pin()); // four at most
        f.controller->unpin(1);
        QCOMPARE(f.controller->pinned().size(), size_t(3));
        QVERIFY(f.controller->renamePinned(0, "FP16 baseline"));
        QCOMPARE(f.controller->pinned().front().name, std::string("FP16 baseline"));
        f.controller->unpinAll();
        QVERIFY(f.controller->pinned().empty());
    }

    void compareTabShowsTheChangeAgainstA()
    {
        QVERIFY(f.controller->pin()); // FP16
        change({{"weights", "q8_0"}});
        f.controller->evaluateNow();
        QVERIFY(f.window->showPage(QStringLiteral("compare")));
        QTableWidget* table = f.window->comparePage()->table();
        QCOMPARE(table->columnCount(), 2); // A and the live scenario
        // The weights row: the live 8-bit weights against A's FP16, as the core computes it.
        auto c = compareScenarios(f.window->comparePage()->compared());
        QVERIFY(c.ok());
        const ComparedFigure& weights = c->figures[1];
        const std::string relative = relativeChangeText(weights, 1);
        QVERIFY(table->item(1, 1)->text().contains(QString::fromStdString(relative)));
        QVERIFY(relative.rfind("-4", 0) == 0); // 8.5 bits against 16: about -47 %
        QCOMPARE(table->verticalHeaderItem(int(c->figures.size()))->text(),
                 QStringLiteral("--weights"));
        // The headline's weights tile says the same change against A, in place of its detail.
        QCOMPARE(f.window->headline()->tile(ui::HeadlineBar::Weights)->detail(),
                 QStringLiteral("%1 vs A").arg(QString::fromStdString(relative)));
        QVERIFY(f.window->comparePage()->tableText(true).contains(
            QStringLiteral("| A | Live | Live vs A |")));
    }

    void aSavedComparisonReopens()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cmp.kvscope.json"));
        QVERIFY(f.controller->pin());
        change({{"context", "16384"}});
        QVERIFY(f.window->document()->saveTo(path));
        QVERIFY(!f.window->document()->isModified());
        f.controller->unpinAll();
        QVERIFY(f.window->document()->isModified()); // the pins are part of the file
        QVERIFY(f.window->document()->open(path));
        f.controller->evaluateNow();
        QCOMPARE(f.controller->pinned().size(), size_t(1));
        QCOMPARE(f.controller->scenario().context, int64_t(16384));
        QCOMPARE(f.controller->pinned().front().scenario.context, int64_t(2048));
        QVERIFY(!f.window->document()->isModified());
    }

    void aDragIsOneUndoStep()
    {
        ui::ScenarioHistory* history = f.window->history();
        const int64_t before = f.controller->scenario().context;
        history->beginDrag();
        for (int64_t context : {4096, 6144, 8192}) {
            f.controller->setContext(context);
            f.controller->evaluateNow();
        }
        history->endDrag();
        QCOMPARE(history->stack()->count(), 1);
        history->stack()->undo();
        f.controller->evaluateNow();
        QCOMPARE(f.controller->scenario().context, before);
        QCOMPARE(history->stack()->count(), 1); // undo records nothing new
        history->stack()->redo();
        f.controller->evaluateNow();
        QCOMPARE(f.controller->scenario().context, int64_t(8192));
        // Two changes outside a drag are two steps.
        change({{"batch", "2"}});
        change({{"batch", "3"}});
        QCOMPARE(history->stack()->count(), 3);
    }

    void anAppliedRemedyIsOneUndoStep()
    {
        change({{"model", "llama-2-13b"}, {"context", "32768"}}); // does not fit on a 4090
        QVERIFY(!f.controller->snapshot().verdict.runs);
        ui::ScenarioHistory* history = f.window->history();
        const int steps = history->stack()->count();
        f.window->remediesPanel()->apply(0);
        f.controller->evaluateNow();
        QCOMPARE(history->stack()->count(), steps + 1);
        history->stack()->undo();
        f.controller->evaluateNow();
        QCOMPARE(f.controller->scenario().model.id, std::string("llama-2-13b"));
        QCOMPARE(f.controller->scenario().context, int64_t(32768));
        QVERIFY(!f.controller->snapshot().verdict.runs);
    }

    void anOpenedFileIsOneUndoStepAndTheModifiedMarkFollows()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.kvscope.json"));
        std::ofstream(path.toStdString())
            << R"({"kvscope_scenario": 2, "weights": "q8_0", "context": 4096, "batch": 4})";
        ui::ScenarioHistory* history = f.window->history();
        QVERIFY(f.window->document()->open(path));
        f.controller->evaluateNow();
        QCOMPARE(history->stack()->count(), 1);
        QVERIFY(!f.window->document()->isModified());
        change({{"batch", "8"}});
        QVERIFY(f.window->document()->isModified());
        history->stack()->undo(); // back to the file as opened: not modified
        f.controller->evaluateNow();
        QVERIFY(!f.window->document()->isModified());
        history->stack()->undo(); // back to before the file
        f.controller->evaluateNow();
        QCOMPARE(f.controller->scenario().weights.id, std::string("fp16"));
    }

    void aRefusedPinnedFileChangesNothing()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.kvscope.json"));
        std::ofstream(path.toStdString())
            << R"({"kvscope_scenario": 2, "pinned": [{"name": "x", "scenario": {"batch": 0}}]})";
        QVERIFY(f.controller->pin());
        QTimer::singleShot(0, [] {
            if (QWidget* box = QApplication::activeModalWidget())
                box->close();
        });
        QVERIFY(!f.window->document()->open(path));
        QCOMPARE(f.controller->pinned().size(), size_t(1));
        QCOMPARE(f.controller->pinned().front().name, std::string("A"));
    }
};

QTEST_MAIN(TestCompareUi)
#include "tst_compare_ui.moc"
