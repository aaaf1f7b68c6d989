// SPDX-License-Identifier: GPL-3.0-or-later
// The window's planner pages: the Plan tab ranks what the core's plan() returns (every row
// runs, the front is a Pareto front, a row loads as the scenario) and the Fit matrix tab shows
// fitMatrix() with hand-checked cells. Both wait while hidden and export their tables as CSV.
#include "charts/fit_matrix_chart.h"
#include "charts/plan_chart.h"
#include "export/chart_export.h"
#include "kvscope/io/plan_csv.h"
#include "kvscope/settings/scenario_options.h"
#include "panels/custom_gpu_dialog.h"
#include "panels/fitting_combo_box.h"
#include "panels/plan_page.h"
#include "panels/scenario_panel.h"
#include "suite_registry.h"
#include "window_fixture.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <set>

using namespace kvscope;
using namespace kvscope::ui;

namespace {

void settle()
{
    for (int turn = 0; turn < 3; ++turn)
        QApplication::processEvents();
}

} // namespace

class TestPlannerUi : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_fixture.open();
        m_window = m_fixture.window.get();
        m_controller = m_fixture.controller.get();
    }
    void cleanup() { m_fixture.close(); }

    void planRowsRunAndLoad()
    {
        // At 16K: eight 32K prompts sent together reach their first tokens within the 6 s bound
        // on few machines once each prefill chunk pays its tensor-parallel all-reduces.
        load({{"model", "llama-3.1-70b"}, {"context", "16384"}, {"users", "8"}});
        QVERIFY(m_window->showPage(QStringLiteral("plan")));
        settle();
        auto* chart = static_cast<PlanChart*>(m_window->chart(QStringLiteral("plan")));
        const PlanResult& result = chart->result();
        QVERIFY(result.ranked.size() >= 3);
        QCOMPARE(chart->request().base.model.id, std::string("llama-3.1-70b"));
        QCOMPARE(chart->request().base.batch, int64_t(8));

        // The same search the CLI runs, row for row.
        const PlanResult direct = plan(chart->request(), test::catalog());
        QCOMPARE(direct.ranked.size(), result.ranked.size());
        QTableWidget* table = m_window->planPage()->table();
        QCOMPARE(table->rowCount(), int(result.ranked.size()));
        bool anyFront = false;
        for (size_t i = 0; i < result.ranked.size(); ++i) {
            const PlanEntry& p = result.ranked[i];
            QCOMPARE(p.options, direct.ranked[i].options);
            // Every row runs when evaluated again, and meets the targets.
            const auto e = evaluate(p.scenario);
            QVERIFY(e);
            QVERIFY(verdictOf(p.scenario, *e).runs);
            QCOMPARE(table->item(int(i), 0)->text(), QString::number(i + 1));
            // The engine by the name every other view gives it: "transformers" named both the
            // eager and the compiled engine, whose speeds differ twofold.
            QCOMPARE(table->item(int(i), 2)->text(),
                     QString::fromStdString(p.scenario.engine.shortName));
            // Nothing ranked is both cheaper and faster than a point on the front.
            if (!p.onFront)
                continue;
            anyFront = true;
            for (const PlanEntry& q : result.ranked) // a row with no price is on no front
                QVERIFY(!q.cost.known || !(q.cost.perHour < p.cost.perHour &&
                                           q.verdict.tokensPerSUser > p.verdict.tokensPerSUser));
        }
        QVERIFY(anyFront);
        std::set<std::string> shortNames;
        for (const EngineProfile& engine : test::catalog().engines)
            QVERIFY2(shortNames.insert(engine.shortName).second, engine.shortName.c_str());

        // Double-clicking a row makes it the scenario and shows it on the chart grid.
        const PlanEntry second = result.ranked[1];
        emit table->cellDoubleClicked(1, 0);
        m_controller->evaluateNow();
        QCOMPARE(m_controller->scenario().gpu.id, second.scenario.gpu.id);
        QCOMPARE(m_controller->scenario().gpuCount, second.scenario.gpuCount);
        QCOMPARE(m_controller->scenario().weights.id, second.scenario.weights.id);
        QCOMPARE(m_window->pages()->currentIndex(), 0);
        QVERIFY(m_controller->snapshot().verdict.runs);
    }

    void objectiveReranks()
    {
        load({{"model", "llama-3.1-8b"}, {"context", "8192"}, {"users", "4"}});
        QVERIFY(m_window->showPage(QStringLiteral("plan")));
        settle();
        auto* chart = static_cast<PlanChart*>(m_window->chart(QStringLiteral("plan")));
        auto* objective = m_window->findChild<QComboBox*>(QStringLiteral("planObjective"));
        QVERIFY(objective);
        objective->setCurrentIndex(3); // fastest per user
        settle();
        QCOMPARE(chart->request().objective, PlanObjective::Fastest);
        const std::vector<PlanEntry>& ranked = chart->result().ranked;
        QVERIFY(!ranked.empty());
        for (const PlanEntry& p : ranked)
            QVERIFY(p.verdict.tokensPerSUser <= ranked.front().verdict.tokensPerSUser);
    }

    void hiddenPagesWaitForTheirTab()
    {
        QVERIFY(m_window->showPage(QStringLiteral("charts")));
        settle();
        auto* chart = static_cast<PlanChart*>(m_window->chart(QStringLiteral("plan")));
        const size_t before = chart->result().evaluated;
        m_controller->edit([](Scenario& s) { s.context = 4096; });
        m_controller->evaluateNow();
        QCOMPARE(chart->result().evaluated, before); // no search for a page nobody sees
        QVERIFY(m_window->showPage(QStringLiteral("plan")));
        settle();
        QCOMPARE(chart->request().base.context, int64_t(4096));
    }

    void matrixCellsAreHandChecked()
    {
        // Llama 2 7B in FP16 on one 24 GB card at 2,048 tokens: the seed's table. A sequence's
        // KV cache is 2 x 32 heads x 128 x 2 bytes x 32 layers = 512 KiB a token, 1 GiB at 2,048.
        load({{"model", "llama-2-7b"}, {"gpu", "rtx-4090"}, {"context", "2048"}});
        const double freeForKv = m_controller->snapshot().evaluation.tokensFit.freeForKvBytes;
        QVERIFY(m_window->showPage(QStringLiteral("matrix")));
        settle();
        auto* chart = static_cast<FitMatrixChart*>(m_window->chart(QStringLiteral("matrix")));
        const FitMatrix& m = chart->matrix();
        const FitCell& own = cell(m, "llama-2-7b", "rtx-4090");
        QCOMPARE(own.fit, CellFit::Fits);
        QCOMPARE(own.concurrency, int64_t(std::floor(freeForKv / 1073741824.0)));
        QCOMPARE(cell(m, "llama-3.1-70b", "rtx-4090").fit, CellFit::DoesNotFit); // 131 GiB
        QCOMPARE(cell(m, "llama-3.1-70b", "h200").fit, CellFit::Fits);           // 141 GB
        // Every cell is the scenario with that model and GPU, evaluated by the core.
        auto s = scenarioFromOptions({{"model", "qwen2.5-14b"}, {"gpu", "l4"}, {"context", "2048"}},
                                     test::catalog());
        QVERIFY(s);
        const auto e = evaluate(*s);
        QVERIFY(e);
        QCOMPARE(cell(m, "qwen2.5-14b", "l4").longestContext, e->tokensFit.perSequence);

        // Formats on this GPU: few columns, so each cell says its figure.
        m_window->resize(1920, 1080);
        auto* columns = m_window->findChild<QComboBox*>(QStringLiteral("matrixColumns"));
        QVERIFY(columns);
        columns->setCurrentIndex(1);
        settle();
        QCOMPARE(chart->matrix().axes, MatrixAxes::ModelsByFormats);
        QVERIFY(chart->shownRows() > 0 && chart->shownColumns() > 0);
        for (size_t r = 0; r < chart->shownRows(); ++r)
            for (size_t c = 0; c < chart->shownColumns(); ++c) {
                const FitCell& f = chart->matrix().at(chart->matrixRow(r), chart->matrixColumn(c));
                const QString text = chart->cellText(r, c);
                if (f.fit == CellFit::Fits && f.concurrency < 1000)
                    QCOMPARE(text, QStringLiteral("×%1").arg(f.concurrency));
                else if (f.fit == CellFit::DoesNotFit)
                    QVERIFY(text.isEmpty());
            }
    }

    void currencyNeedsItsRate()
    {
        load({{"model", "llama-3.1-8b"}, {"context", "8192"}, {"users", "4"}});
        QVERIFY(m_window->showPage(QStringLiteral("plan")));
        settle();
        auto* chart = static_cast<PlanChart*>(m_window->chart(QStringLiteral("plan")));
        const double dollars = chart->result().ranked.front().cost.perHour;
        auto* currency = m_window->findChild<QComboBox*>(QStringLiteral("planCurrency"));
        auto* rate = m_window->findChild<QDoubleSpinBox*>(QStringLiteral("planUsdRate"));
        QVERIFY(currency && rate);
        QVERIFY(!rate->isEnabled());
        currency->setCurrentText(QStringLiteral("JPY"));
        QApplication::processEvents();
        // Yen without a rate would be dollars labelled yen: the rate box asks, nothing changes.
        QCOMPARE(m_controller->scenario().cost.currency, std::string("USD"));
        QVERIFY(rate->isEnabled());
        rate->setValue(150);
        emit rate->editingFinished();
        m_controller->evaluateNow();
        settle();
        QCOMPARE(m_controller->scenario().cost.currency, std::string("JPY"));
        QCOMPARE(m_controller->scenario().cost.perUsd, 150.0);
        QCOMPARE(chart->result().ranked.front().cost.perHour, dollars * 150);
        QVERIFY(chart->yAxis->label().contains(QStringLiteral("JPY")));
    }

    // A combo box's face fits its width: a long name loses its "(…)" detail, its maker's names
    // and its tuning, then ends in an ellipsis, and says itself whole on hover; a tooltip of the
    // box's own (the cost basis's explanation) is never replaced by the name.
    void comboFacesFitTheirWidth()
    {
        const QFontMetrics fm(QApplication::font());
        const QString name = QStringLiteral("  NVIDIA GeForce RTX 4090 (24 GiB)");
        QCOMPARE(FittingComboBox::fitted(name, fm, 1000), name.trimmed());
        const int bare = fm.horizontalAdvance(QStringLiteral("NVIDIA GeForce RTX 4090"));
        QCOMPARE(FittingComboBox::fitted(name, fm, bare + 2),
                 QStringLiteral("NVIDIA GeForce RTX 4090"));
        // Then the maker's names, which tell no GeForce from another; then an ellipsis.
        const int rtx = fm.horizontalAdvance(QStringLiteral("RTX 4090"));
        QCOMPARE(FittingComboBox::fitted(name, fm, rtx + 2), QStringLiteral("RTX 4090"));
        const QString narrow = FittingComboBox::fitted(name, fm, rtx - 4);
        QVERIFY(narrow.endsWith(QChar(0x2026)) && fm.horizontalAdvance(narrow) <= rtx - 4);
        // A model's tuning goes before its size does: "Llama 3.1 70B", not "Llama 3.1…".
        const QString llama = QStringLiteral("Llama 3.1 70B Instruct");
        QCOMPARE(FittingComboBox::fitted(llama, fm,
                                         fm.horizontalAdvance(QStringLiteral("Llama 3.1 70B")) + 2),
                 QStringLiteral("Llama 3.1 70B"));
        const QString gemma = QStringLiteral("Gemma 3 27B IT"); // Google's "IT", any case
        QCOMPARE(FittingComboBox::fitted(gemma, fm,
                                         fm.horizontalAdvance(QStringLiteral("Gemma 3 27B")) + 2),
                 QStringLiteral("Gemma 3 27B"));
        // Cut between words, never inside one, and the size kept: it tells a model from its
        // siblings ("Llama 4… 17B-16E", not "Llama 4 Sco…"; "DeepSeek-R1-Distill… 70B", not
        // "DeepSeek-R1-Distill-Llam…", which could be the 8B).
        const QString scout = QStringLiteral("Llama 4 Scout 17B-16E Instruct");
        const int upToScout = fm.horizontalAdvance(QStringLiteral("Llama 4 Scout 17"));
        const QString shortScout = FittingComboBox::fitted(scout, fm, upToScout);
        QVERIFY2(shortScout.endsWith(QStringLiteral("\u2026 17B-16E")) &&
                     fm.horizontalAdvance(shortScout) <= upToScout,
                 qPrintable(shortScout));
        const QString distill = QStringLiteral("DeepSeek-R1-Distill-Llama 70B");
        const int upToLlama = fm.horizontalAdvance(QStringLiteral("DeepSeek-R1-Distill-Ll 70B"));
        QCOMPARE(FittingComboBox::fitted(distill, fm, upToLlama),
                 QStringLiteral("DeepSeek-R1-Distill") + QChar(0x2026) + QStringLiteral(" 70B"));
        // The editable model box shows its long name so too, until it is edited.
        load({{"model", "llama-4-scout"}});
        auto* model = static_cast<FittingComboBox*>(m_window->panel()->modelBox());
        QVERIFY(model);
        model->resize(fm.horizontalAdvance(QStringLiteral("Llama 4 Scout")) + 60, model->height());
        model->showFittedEditText();
        const QString face = model->lineEdit()->text();
        const qsizetype ellipsis = face.indexOf(QChar(0x2026));
        QVERIFY2(ellipsis > 0 && scout.startsWith(face.left(ellipsis)) &&
                     face.endsWith(QStringLiteral(" 17B-16E")),
                 qPrintable(face));
        QVERIFY(scout.at(ellipsis).isSpace());
        QCOMPARE(model->lineEdit()->toolTip(), scout);
        QVERIFY(m_window->showPage(QStringLiteral("plan")));
        settle();
        auto* basis = m_window->findChild<QComboBox*>(QStringLiteral("planCostBasis"));
        QVERIFY(basis);
        const QString own = basis->toolTip();
        QVERIFY(!own.isEmpty());
        basis->setCurrentIndex(1); // "Owned (price, host, power, hosting)": wider than the face
        basis->repaint();
        QCOMPARE(basis->toolTip(), own);
        basis->setCurrentIndex(0);
    }

    void costBasisIsChosenNeverMixed()
    {
        load({{"model", "llama-3.1-8b"}, {"context", "8192"}, {"users", "4"}});
        QVERIFY(m_window->showPage(QStringLiteral("plan")));
        settle();
        auto* chart = static_cast<PlanChart*>(m_window->chart(QStringLiteral("plan")));
        auto* basis = m_window->findChild<QComboBox*>(QStringLiteral("planCostBasis"));
        auto* years = m_window->findChild<QDoubleSpinBox*>(QStringLiteral("planAmortizationYears"));
        QVERIFY(basis && years);
        QCOMPARE(basis->currentIndex(), 0); // rent
        QVERIFY(!years->isEnabled());       // nothing rented is written off
        auto everyRowOn = [&](CostBasis b) {
            for (const PlanEntry& p : chart->result().ranked)
                if (p.cost.basis != b ||
                    (p.cost.known && p.scenario.gpu.prices.on(b).kind == GpuPrice::Kind::Unknown))
                    return false;
            return true;
        };
        QVERIFY(everyRowOn(CostBasis::Rent));
        basis->setCurrentIndex(1);
        m_controller->evaluateNow();
        settle();
        QCOMPARE(m_controller->scenario().cost.basis, CostBasis::Own);
        QVERIFY(years->isEnabled());
        QVERIFY(everyRowOn(CostBasis::Own));
        auto* summary = m_window->findChild<QLabel*>(QStringLiteral("planSummary"));
        QVERIFY(summary);
        // Read as typed: the label holds its phrases together with joiners and no-break spaces.
        const QString text =
            summary->text().remove(QChar(0x2060)).replace(QChar(0x00A0), QLatin1Char(' '));
        QVERIFY(text.contains(QStringLiteral("tokens/s per user")));
    }

    void customGpuCarriesItsPrice()
    {
        GpuSpec gpu = test::gpu("rtx-4090");
        QTimer::singleShot(0, [] {
            QWidget* dialog = QApplication::activeModalWidget();
            QVERIFY(dialog);
            dialog->findChild<QComboBox*>(QStringLiteral("priceKind"))->setCurrentIndex(1);
            dialog->findChild<QDoubleSpinBox*>(QStringLiteral("price"))->setValue(0.69);
            dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
        });
        QVERIFY(CustomGpuDialog::edit(m_window, gpu));
        QCOMPARE(gpu.prices.rental.kind, GpuPrice::Kind::Rental);
        QCOMPARE(gpu.prices.rental.usdPerHour, 0.69);
        QCOMPARE(gpu.prices.rental.source, std::string("entered by the user"));
        auto parsed = scenarioFromOptions({{"gpus", "2"}}, test::catalog());
        QVERIFY(parsed);
        Scenario s = *parsed;
        s.gpu = gpu;
        const auto e = evaluate(s);
        QVERIFY(e);
        QCOMPARE(costOf(s, *e, true).perHour, 2 * 0.69);
    }

    void tablesExportAsCsv()
    {
        QTemporaryDir dir;
        for (const char* id : {"plan", "matrix"}) {
            ChartBase* chart = m_window->chart(QString::fromLatin1(id));
            const QString path = dir.filePath(QStringLiteral("%1.csv").arg(QLatin1String(id)));
            QString error;
            QVERIFY2(exportTableCsv(*chart, path, &error),
                     qPrintable(error)); // hidden: drawn first
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray csv = file.readAll();
            QCOMPARE(csv, chart->tableCsv());
            QVERIFY(
                csv.startsWith(id == std::string("plan") ? "rank,gpu,gpus," : "model,gpu,fit,"));
            QVERIFY(csv.count('\n') > 5);
        }
        // A view of the context sweep has no table.
        QString error;
        QVERIFY(!exportTableCsv(*m_window->chart(QStringLiteral("vram")),
                                dir.filePath(QStringLiteral("vram.csv")), &error));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("vram.csv"))));
    }

private:
    void load(const std::vector<std::pair<std::string, std::string>>& options)
    {
        auto s = scenarioFromOptions(options, test::catalog());
        QVERIFY(s);
        m_controller->setScenario(*s);
        m_controller->evaluateNow();
    }

    static const FitCell& cell(const FitMatrix& m, const std::string& row, const std::string& col)
    {
        size_t r = 0, c = 0;
        while (r < m.rowIds.size() && m.rowIds[r] != row)
            ++r;
        while (c < m.columnIds.size() && m.columnIds[c] != col)
            ++c;
        return m.at(r, c);
    }

    test::WindowFixture m_fixture;
    MainWindow* m_window = nullptr;
    ScenarioController* m_controller = nullptr;
};

KVSCOPE_TEST_SUITE(TestPlannerUi, "tst_planner_ui", kvscope::test::SuiteApp::Widgets)
#include "tst_planner_ui.moc"
