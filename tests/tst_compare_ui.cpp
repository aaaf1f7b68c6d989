// SPDX-License-Identifier: GPL-3.0-or-later
// The window's comparison and history: pinning and unpinning, the Compare tab's table and the
// headline's change against A, a saved comparison reopened, and undo/redo of a slider drag, an
// applied remedy and an opened file.

#include "suite_registry.h"
#include "window_fixture.h"

#include "pdf_text.h"

#include "charts/chart_base.h"
#include "kvscope/settings/scenario_file.h"
#include "kvscope/text/comparison_text.h"
#include "panels/compare_page.h"
#include "panels/headline_bar.h"
#include "panels/remedies_panel.h"
#include "window/scenario_document.h"
#include "window/scenario_history.h"

#include <QApplication>
#include <QImage>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <qcustomplot.h>

#include <fstream>

using namespace kvscope;
using namespace Qt::StringLiterals;

class TestCompareUi : public QObject
{
    Q_OBJECT

    test::WindowFixture f;

    // The window's scenario with `options` applied (CLI names), evaluated.
    void change(const std::vector<std::pair<std::string, std::string>>& options)
    {
        QVERIFY(f.change(options));
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

    // Rename and Unpin act on a selected pinned column: off with nothing pinned, and off
    // again once the selection is gone.
    void columnActionsNeedASelectedPinnedColumn()
    {
        QVERIFY(f.window->showPage(QStringLiteral("compare")));
        ui::ComparePage* page = f.window->comparePage();
        auto* unpin = page->findChild<QPushButton*>(QStringLiteral("unpin"));
        auto* rename = page->findChild<QPushButton*>(QStringLiteral("renamePinned"));
        QVERIFY(unpin && rename);
        QVERIFY(!unpin->isEnabled() && !rename->isEnabled());
        QVERIFY(f.controller->pin());
        f.controller->evaluateNow();
        QVERIFY(!unpin->isEnabled());
        page->table()->selectColumn(0);
        QVERIFY(unpin->isEnabled() && rename->isEnabled());
        unpin->click();
        f.controller->evaluateNow();
        QVERIFY(f.controller->pinned().empty());
        QVERIFY(!unpin->isEnabled() && !rename->isEnabled());
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
        // (The table holds each figure with its unit on one line: no-break spaces.)
        QVERIFY(table->item(1, 1)
                    ->text()
                    .replace(QChar(0x00A0), QLatin1Char(' '))
                    .contains(QString::fromStdString(relative)));
        QVERIFY(relative.rfind("-4", 0) == 0); // 8.5 bits against 16: about -47 %
        // The input that differs, by the setting's name, not its flag ("--weights").
        QCOMPARE(table->verticalHeaderItem(int(c->figures.size()))->text(),
                 QStringLiteral("Weights"));
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

    void pinningFiles()
    {
        QTemporaryDir dir;
        const QString good = dir.filePath(QStringLiteral("awq.kvscope.json"));
        const QString bad = dir.filePath(QStringLiteral("bad.kvscope.json"));
        std::ofstream(good.toStdString()) << R"({"kvscope_scenario": 2, "weights": "q4_k_m"})";
        std::ofstream(bad.toStdString()) << R"({"kvscope_scenario": 2, "gpus": 0})";
        ui::ComparePage* page = f.window->comparePage();
        QVERIFY(page->pinFiles({good}));
        QCOMPARE(f.controller->pinned().size(), size_t(1));
        QCOMPARE(f.controller->pinned().front().name, std::string("awq")); // named by the file
        QCOMPARE(f.controller->pinned().front().scenario.weights.id, std::string("q4_k_m"));
        // Refused, with the field named, and nothing pinned: a bad file, or more than four.
        QTimer closer;
        QStringList messages;
        connect(&closer, &QTimer::timeout, [&] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                messages << box->text();
                box->close();
            }
        });
        closer.start(10);
        QVERIFY(!page->pinFiles({good, bad}));
        QCOMPARE(f.controller->pinned().size(), size_t(1));
        QVERIFY(!page->pinFiles({good, good, good, good}));
        QCOMPARE(f.controller->pinned().size(), size_t(1));
        QCOMPARE(messages.size(), 2);
        QVERIFY2(messages[0].contains(QStringLiteral("bad.kvscope.json: scenario.gpus")),
                 qPrintable(messages[0]));
        QVERIFY2(messages[1].contains(QStringLiteral("5")), qPrintable(messages[1]));
    }

    void chartsDrawEveryPinnedScenario()
    {
        QVERIFY(f.controller->pin()); // A: FP16
        change({{"weights", "q4_k_m"}});
        QVERIFY(f.controller->pin());  // B: GGUF Q4_K_M
        change({{"weights", "q8_0"}}); // the live one
        const ui::PinnedList& pinned = f.controller->pinned();
        const ui::EvaluationSnapshot& live = f.controller->snapshot();
        const QString b = QStringLiteral("B: ") + test::qs(pinned[1].name);
        auto bars = [&](const char* chart, const QString& name) -> QCPBars* {
            ui::ChartBase* c = f.window->chart(QString::fromLatin1(chart));
            for (int i = 0; i < c->plottableCount(); ++i)
                if (auto* b = qobject_cast<QCPBars*>(c->plottable(i));
                    b && b->name() == name && b->visible())
                    return b;
            return nullptr;
        };
        auto graph = [&](const char* chart, const QString& name) -> QCPGraph* {
            ui::ChartBase* c = f.window->chart(QString::fromLatin1(chart));
            for (int i = 0; i < c->graphCount(); ++i)
                if (c->graph(i)->name() == name && c->graph(i)->visible())
                    return c->graph(i);
            return nullptr;
        };
        // VRAM: a bar per scenario, A, B and the live one, each its own weights.
        QCPBars* weights = bars("vram", QStringLiteral("Weights"));
        QVERIFY(weights);
        QCOMPARE(weights->data()->size(), 3);
        for (int i = 0; i < 2; ++i)
            QVERIFY(qFuzzyCompare(weights->data()->at(i)->value / weights->data()->at(2)->value,
                                  pinned[size_t(i)].evaluation.vram.weightsBytes /
                                      live.evaluation.vram.weightsBytes));
        // Tokens that fit: one colour per scenario, its MHA, GQA and MQA figures.
        QCPBars* tokensB = bars("tokens", b);
        QVERIFY(tokensB);
        QCOMPARE(tokensB->data()->size(), 3);
        QCOMPARE(tokensB->data()->at(0)->value,
                 double(pinned[1].evaluation.tokensFit.perSequenceMha));
        QCOMPARE(tokensB->data()->at(2)->value,
                 double(pinned[1].evaluation.tokensFit.perSequenceMqa));
        QVERIFY(bars("tokens", QStringLiteral("Live")));
        // The curves: each pinned scenario over the live sweep's points.
        for (const char* chart : {"kv", "latency"}) {
            QCPGraph* curve = graph(chart, QStringLiteral("A"));
            QVERIFY2(curve, chart);
            QCOMPARE(size_t(curve->data()->size()), live.contextSweep.x.size());
        }
        QVERIFY(graph("breakeven", b + QStringLiteral(", recompute")));
        // Unpinned, the charts are the single scenario's again.
        f.controller->unpinAll();
        f.controller->evaluateNow();
        QVERIFY(!bars("tokens", QStringLiteral("A")));
        QVERIFY(!graph("kv", QStringLiteral("A")));
        QCOMPARE(bars("vram", QStringLiteral("Weights"))->data()->size(), 1);
    }

    void csvHasAColumnGroupPerScenario()
    {
        QVERIFY(f.controller->pin());
        change({{"weights", "q8_0"}});
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("data.csv"));
        QVERIFY(f.window->exportData(path));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines =
            QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(size_t(lines.size()), f.controller->snapshot().contextSweep.x.size() + 1);
        const QStringList header = lines.front().split(QLatin1Char(','));
        QVERIFY(header.contains(QStringLiteral("A:kv_per_gpu_bytes")));
        QVERIFY(header.contains(QStringLiteral("Live:kv_per_gpu_bytes")));
        // The same columns for both groups, and every cell filled.
        QCOMPARE(header.filter(QStringLiteral("A:")).size(),
                 header.filter(QStringLiteral("Live:")).size());
        QCOMPARE(lines[1].split(QLatin1Char(',')).size(), header.size());
        QVERIFY(!lines[1].contains(QStringLiteral(",,")));
    }

    // `export` and `report` with --compare: the pinned scenarios in the charts, a comparison
    // section in the report; a file that cannot be pinned is refused with its field named.
    void comparisonInExportsAndReport()
    {
        QTemporaryDir dir;
        const QString fp16 = dir.filePath(QStringLiteral("fp16.kvscope.json"));
        const QString bad = dir.filePath(QStringLiteral("bad.kvscope.json"));
        {
            QFile f(fp16);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(R"({"kvscope_scenario": 2, "weights": "fp16", "context": 8192})");
            QFile b(bad);
            QVERIFY(b.open(QIODevice::WriteOnly));
            b.write(R"({"kvscope_scenario": 2, "context": 0})");
        }
        auto run = [](const QStringList& arguments) {
            QProcess cli;
            cli.start(QStringLiteral(KVSCOPE_CLI_EXECUTABLE), arguments);
            cli.waitForFinished(120000);
            return std::make_pair(cli.exitCode(), QString::fromUtf8(cli.readAllStandardError()));
        };
        const QString pdf = dir.filePath(QStringLiteral("compare.pdf"));
        auto [code, err] = run({u"report"_s, u"--weights"_s, u"q4_k_m"_s, u"--context"_s, u"8192"_s,
                                u"--compare"_s, fp16, u"--out"_s, pdf});
        QVERIFY2(code == 0, qPrintable(err));
        const QString text = test::pdfText(pdf);
        if (!text.isEmpty()) {
            QVERIFY(text.contains(QStringLiteral("Comparison")));
            QVERIFY(text.contains(QStringLiteral("A: fp16")));
            QVERIFY(text.contains(QStringLiteral("Live")));
        }
        const QString png = dir.filePath(QStringLiteral("compare.png"));
        std::tie(code, err) = run({u"export"_s, u"--chart"_s, u"vram"_s, u"--format"_s, u"png"_s,
                                   u"--compare"_s, fp16, u"--compare"_s, fp16, u"--out"_s, png});
        QVERIFY2(code == 0, qPrintable(err));
        QImage image;
        QVERIFY(image.load(png));
        std::tie(code, err) = run({u"export"_s, u"--chart"_s, u"vram"_s, u"--format"_s, u"png"_s,
                                   u"--compare"_s, bad, u"--out"_s, png});
        QCOMPARE(code, 2);
        QVERIFY2(err.contains(QStringLiteral("bad.kvscope.json: scenario.context")),
                 qPrintable(err));
        std::tie(code, err) =
            run({u"report"_s, u"--compare"_s, fp16, u"--compare"_s, fp16, u"--compare"_s, fp16,
                 u"--compare"_s, fp16, u"--compare"_s, fp16, u"--out"_s, pdf});
        QCOMPARE(code, 2);
        QVERIFY2(err.contains(QStringLiteral("--compare: got 5 scenarios to pin")),
                 qPrintable(err));
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

KVSCOPE_TEST_SUITE(TestCompareUi, "tst_compare_ui", kvscope::test::SuiteApp::Widgets)
#include "tst_compare_ui.moc"
