// SPDX-License-Identifier: GPL-3.0-or-later
// The window, offscreen at a fixed DPI: every control reaches the scenario and the charts, an
// overflow turns red, extreme settings never show NaN / inf / negative sizes, the Japanese
// window has no untranslated text, and a screenshot is not blank.

#include "charts/breakeven_chart.h"
#include "charts/decode_latency_chart.h"
#include "charts/kv_growth_chart.h"
#include "charts/tokens_fit_chart.h"
#include "charts/vram_chart.h"
#include "export/screenshot.h"
#include "kvscope/engines/launch_command.h"
#include "kvscope/settings/settings_registry.h"
#include "panels/context_control.h"
#include "panels/headline_bar.h"
#include "panels/scenario_panel.h"
#include "suite_registry.h"
#include "testutils.h"
#include "window/language.h"
#include "window/main_window.h"
#include "window/ui_text.h"
#include "window_fixture.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTabWidget>
#include <QTest>
#include <QTimer>

using namespace kvscope;
using namespace kvscope::ui;
using namespace Qt::StringLiterals;

namespace {

// Every text a user can read in the window: labels, buttons, menus, chart titles, axes,
// legends and chart labels.
QStringList visibleTexts(MainWindow& window)
{
    QStringList texts;
    for (QLabel* label : window.findChildren<QLabel*>())
        if (label->isVisibleTo(&window))
            texts << label->text();
    for (QAbstractButton* button : window.findChildren<QAbstractButton*>())
        if (button->isVisibleTo(&window))
            texts << button->text();
    for (QAction* menu : window.menuBar()->actions()) {
        texts << menu->text();
        if (menu->menu())
            for (QAction* action : menu->menu()->actions()) {
                texts << action->text();
                if (action->menu())
                    for (QAction* sub : action->menu()->actions())
                        texts << sub->text();
            }
    }
    for (ChartBase* chart : window.charts()) {
        texts << chart->chartTitle() << chart->xAxis->label() << chart->yAxis->label();
        for (int i = 0; i < chart->legend->itemCount(); ++i)
            if (auto* item = qobject_cast<QCPPlottableLegendItem*>(chart->legend->item(i)))
                texts << item->plottable()->name();
        for (int i = 0; i < chart->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(chart->item(i)); text && text->visible())
                texts << text->text();
        for (QCPAxis* axis : {chart->xAxis, chart->yAxis})
            if (auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>())
                texts << QStringList(ticker->ticks().values());
    }
    texts.removeAll(QString());
    return texts;
}

// Where a chart label is unreadable: past its chart's edges, cut off by the plot it is clipped
// to, or over another label; "" when every label is clear.
QString chartLabelProblem(ChartBase* chart)
{
    {
        chart->replot(QCustomPlot::rpImmediateRefresh);
        QList<QPair<QString, QRectF>> boxes;
        for (QCPItemText* text : chart->visibleLabels()) {
            const QRectF box = ChartBase::labelBox(text);
            const QString name =
                QStringLiteral("%1: \"%2\"").arg(chart->chartTitle(), text->text());
            if (box.left() < -1 || box.right() > chart->width() + 1)
                return QStringLiteral("%1 spans x %2 to %3 of %4")
                    .arg(name)
                    .arg(box.left())
                    .arg(box.right())
                    .arg(chart->width());
            const QRectF plot = QRectF(chart->axisRect()->rect()).adjusted(-1, -1, 1, 1);
            if (text->clipToAxisRect() && (box.top() < plot.top() || box.bottom() > plot.bottom()))
                return QStringLiteral("%1 is cut off: y %2 to %3, plot %4 to %5")
                    .arg(name)
                    .arg(box.top())
                    .arg(box.bottom())
                    .arg(plot.top())
                    .arg(plot.bottom());
            for (const auto& [other, otherBox] : boxes)
                if (box.intersects(otherBox))
                    return QStringLiteral("%1 overlaps \"%2\"").arg(name, other);
            boxes.append({text->text(), box});
        }
    }
    return {};
}

// Every page as a user would open it (the views on a hidden tab draw when it is shown).
QString labelProblem(MainWindow& window)
{
    QTabWidget* pages = window.pages();
    const int shown = pages->currentIndex();
    QString problem;
    for (int page = 0; page < pages->count() && problem.isEmpty(); ++page) {
        pages->setCurrentIndex(page);
        // A page shown for the first time lays out, then places its pixel labels again.
        for (int turn = 0; turn < 3; ++turn)
            QApplication::processEvents();
        for (ChartBase* chart : window.charts())
            if (chart->isVisible() && problem.isEmpty())
                problem = chartLabelProblem(chart);
    }
    pages->setCurrentIndex(shown);
    QApplication::processEvents();
    return problem;
}

} // namespace

class TestUi : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void controlsReachScenarioAndCharts();
    void overflowTurnsRed();
    void launchRefusalsSpeakTheWindowsLanguage();
    void vramBarsFollowTheirRoom();
    void customGpuCarriesItsComputeCapability();
    void extremeSettingsShowNoNonsense_data();
    void labelsStayApartInADemoWindow_data();
    void labelsStayApartInADemoWindow();
    void offloadNoteFitsAPresentedPlot();
    void extremeSettingsShowNoNonsense();
    void dragCoalescesEvaluations();
    void contextDragMovesOnlyMarkers();
    void japaneseHasNoUntranslatedText();
    void everyPlacedSettingHasALabelledControl();
    void screenshotIsNotBlank();
    void unitsSwitchChangesLabels();

private:
    void evaluate() { m_controller->evaluateNow(); }
    // controlsReachScenarioAndCharts' steps, in order: each starts from where the last left off.
    void contextWeightsAndKvDtypeReachTheCharts();
    void gpuCountAndHostLinkReachTheCharts();
    void batchEngineAndPlacementReachTheScenario();
    void efficiencyFactorReachesTheLatency();

    test::WindowFixture m_fixture;
    ScenarioController* m_controller = nullptr;
    MainWindow* m_window = nullptr;
};

void TestUi::init()
{
    m_fixture.open();
    m_controller = m_fixture.controller.get();
    m_window = m_fixture.window.get();
}

void TestUi::cleanup()
{
    m_fixture.close();
}

void TestUi::controlsReachScenarioAndCharts()
{
    // A failed QCOMPARE returns from its step only: stop there.
    for (auto step : {&TestUi::contextWeightsAndKvDtypeReachTheCharts,
                      &TestUi::gpuCountAndHostLinkReachTheCharts,
                      &TestUi::batchEngineAndPlacementReachTheScenario,
                      &TestUi::efficiencyFactorReachesTheLatency}) {
        (this->*step)();
        if (QTest::currentTestFailed())
            return;
    }
}

void TestUi::contextWeightsAndKvDtypeReachTheCharts()
{
    ScenarioPanel* panel = m_window->panel();
    auto* vram = static_cast<VramChart*>(m_window->chart(u"vram"_s));
    const HeadlineBar* headline = m_window->headline();

    // Context slider: scenario, headline and the latency chart's current point all move.
    const QString kvTotalBefore = headline->tile(HeadlineBar::KvTotal)->value();
    panel->contextControl()->slider()->setValue(ContextControl::positionOf(8192));
    evaluate();
    QCOMPARE(m_controller->scenario().context, int64_t(8192));
    QCOMPARE(headline->tile(HeadlineBar::KvTotal)->value(), QStringLiteral("4.00 GiB"));
    QVERIFY(headline->tile(HeadlineBar::KvTotal)->value() != kvTotalBefore);

    // Weight format slider: weights shrink in the VRAM chart.
    const double fp16Weights = vram->segmentBytes()[0];
    const auto& formats = test::catalog().weightFormats;
    const auto q4 =
        std::find_if(formats.begin(), formats.end(), [](auto& f) { return f.id == "q4_k_m"; });
    panel->weightSlider()->setValue(int(q4 - formats.begin()));
    evaluate();
    QCOMPARE(m_controller->scenario().weights.id, std::string("q4_k_m"));
    QVERIFY(vram->segmentBytes()[0] < fp16Weights * 0.4);

    // KV dtype: KV per token halves with FP8.
    const int fp8 = panel->kvDtypeBox()->findData(QStringLiteral("fp8"));
    QVERIFY(fp8 >= 0);
    panel->kvDtypeBox()->setCurrentIndex(fp8);
    emit panel->kvDtypeBox()->activated(fp8);
    evaluate();
    QCOMPARE(m_controller->snapshot().evaluation.kv.bytesPerToken, 262144.0);
    QCOMPARE(headline->tile(HeadlineBar::KvPerToken)->value(), QStringLiteral("256 KiB"));
}

void TestUi::gpuCountAndHostLinkReachTheCharts()
{
    ScenarioPanel* panel = m_window->panel();
    auto* latency = static_cast<DecodeLatencyChart*>(m_window->chart(u"latency"_s));

    // GPU: the capacity follows the catalog.
    const int h100 = panel->gpuBox()->findData(QStringLiteral("h100-sxm"));
    QVERIFY(h100 >= 0);
    panel->gpuBox()->setCurrentIndex(h100);
    emit panel->gpuBox()->activated(h100);
    evaluate();
    // The memory CUDA reports: 80 GiB less what the driver keeps (catalog: 79.20 GiB).
    const GpuSpec* h100Spec = test::catalog().gpu("h100-sxm");
    QVERIFY(h100Spec && h100Spec->usableFraction < 1.0);
    QCOMPARE(m_controller->snapshot().evaluation.vram.capacityBytes,
             80.0 * 1073741824.0 * h100Spec->usableFraction);

    // GPU count: KV heads split across GPUs.
    panel->gpuCountBox()->setValue(4);
    evaluate();
    QCOMPARE(m_controller->snapshot().evaluation.kv.kvHeadsPerGpu, int64_t(8));

    // PCIe slider and lanes: the CPU-offload curve moves, the GPU curve does not.
    const QVector<double> cpuBefore = latency->curveValues(Tier::CpuSerial);
    const double gpuBefore = m_controller->snapshot().evaluation.decode.tierMs[size_t(Tier::Gpu)];
    const int otherGen = m_controller->scenario().pcie.gen == 5 ? 3 : 5;
    panel->pcieSlider()->setValue(otherGen);
    evaluate();
    QCOMPARE(m_controller->scenario().pcie.gen, otherGen);
    QVERIFY(latency->curveValues(Tier::CpuSerial) != cpuBefore);
    QCOMPARE(m_controller->snapshot().evaluation.decode.tierMs[size_t(Tier::Gpu)], gpuBefore);
    const int x4 = panel->lanesBox()->findData(4);
    panel->lanesBox()->setCurrentIndex(x4);
    emit panel->lanesBox()->activated(x4);
    evaluate();
    QCOMPARE(m_controller->scenario().pcieLanes, 4);
}

void TestUi::batchEngineAndPlacementReachTheScenario()
{
    ScenarioPanel* panel = m_window->panel();
    auto* kv = static_cast<KvGrowthChart*>(m_window->chart(u"kv"_s));
    const HeadlineBar* headline = m_window->headline();

    // Batch: total KV scales with the sequences.
    const double kvBefore = m_controller->snapshot().evaluation.kv.totalBytes;
    const QVector<double> curveBefore = kv->curveValues(0);
    panel->batchBox()->setValue(8);
    evaluate();
    QCOMPARE(m_controller->scenario().batch, int64_t(8));
    QCOMPARE(m_controller->snapshot().evaluation.kv.totalBytes, kvBefore * 8);
    QVERIFY(kv->curveValues(0) != curveBefore);

    // Engine and placement.
    const int vllm = panel->engineBox()->findData(QStringLiteral("vllm"));
    panel->engineBox()->setCurrentIndex(vllm);
    emit panel->engineBox()->activated(vllm);
    evaluate();
    QCOMPARE(m_controller->scenario().engine.id, std::string("vllm"));
    QVERIFY(m_controller->snapshot().evaluation.vram.reservedBytes > 0);
    // vLLM's batch defaults follow the GPU: 1,024 sequences on an H100, 256 on an RTX 4090.
    QCOMPARE(panel->maxNumSeqsBox()->value(), 1024);
    const int rtx4090 = panel->gpuBox()->findData(QStringLiteral("rtx-4090"));
    panel->gpuBox()->setCurrentIndex(rtx4090);
    emit panel->gpuBox()->activated(rtx4090);
    evaluate();
    QCOMPARE(m_controller->scenario().engine.maxNumSeqs, int64_t(256));
    QCOMPARE(m_controller->scenario().engine.prefillChunkTokens, int64_t(2048));
    QCOMPARE(panel->maxNumSeqsBox()->value(), 256);
    const int cpu = panel->placementBox()->findData(int(KvPlacement::CpuRam));
    panel->placementBox()->setCurrentIndex(cpu);
    emit panel->placementBox()->activated(cpu);
    evaluate();
    QCOMPARE(m_controller->scenario().kvPlacement, KvPlacement::CpuRam);
    QVERIFY(headline->tile(HeadlineBar::Decode)->value() != QString());
}

void TestUi::efficiencyFactorReachesTheLatency()
{
    ScenarioPanel* panel = m_window->panel();
    auto* latency = static_cast<DecodeLatencyChart*>(m_window->chart(u"latency"_s));

    // An efficiency factor from the Advanced group.
    QDoubleSpinBox* hbm = panel->efficiencyBox("hbm_efficiency");
    QVERIFY(hbm);
    const QVector<double> gpuBeforeHbm = latency->curveValues(Tier::Gpu);
    const double hbmBefore = m_controller->scenario().efficiency.hbm;
    const double memoryBefore = m_controller->snapshot().evaluation.decode.memoryMs;
    hbm->setValue(0.4);
    evaluate();
    QCOMPARE(m_controller->scenario().efficiency.hbm, 0.4);
    // The memory-bound part scales with 1 / efficiency; the all-reduces of 4 GPUs do not.
    QCOMPARE(m_controller->snapshot().evaluation.decode.memoryMs / memoryBefore, hbmBefore / 0.4);
    qInfo("latency at the shortest context: %.3f ms -> %.3f ms", gpuBeforeHbm.front(),
          latency->curveValues(Tier::Gpu).front());
    // (At 0.78 -> 0.4 the reads take 1.95x as long; the 4 GPUs' all-reduces and the step's fixed
    // cost do not grow, so the whole step grows by less.)
    QVERIFY(latency->curveValues(Tier::Gpu).front() > gpuBeforeHbm.front() * 1.15);
}

void TestUi::overflowTurnsRed()
{
    auto* vram = static_cast<VramChart*>(m_window->chart(u"vram"_s));
    QVERIFY(!vram->showsOverflow());
    m_controller->edit([](Scenario& s) { s.model = test::model("llama-2-70b"); });
    evaluate();
    QVERIFY(vram->showsOverflow());
    QCOMPARE(m_window->headline()->tile(HeadlineBar::Fit)->value(), QStringLiteral("Overflows"));
    const QStringList texts = visibleTexts(*m_window);
    QVERIFY(texts.filter(QStringLiteral("overflow")).size() >= 1);
}

// Each reason a scenario has no launch command, in Japanese in the Japanese window (issue 42:
// the copy action showed the CLI's English refusal).
void TestUi::launchRefusalsSpeakTheWindowsLanguage()
{
    m_window->setLanguage(QStringLiteral("ja"));
    const std::pair<std::vector<std::pair<std::string, std::string>>, LaunchRefusal> cases[] = {
        {{{"model", "qwen2.5-7b"}, {"gpus", "7"}, {"engine", "vllm"}}, LaunchRefusal::HeadSplit},
        {{{"model", "llama-2-7b"}, {"engine", "llamacpp"}, {"weights", "awq-int4"}},
         LaunchRefusal::Weights},
        {{{"model", "llama-2-7b"}, {"engine", "vllm"}, {"weights", "awq-int4"}},
         LaunchRefusal::NoCheckpoint}};
    for (const auto& [options, kind] : cases) {
        const Scenario s = test::scenarioFrom(options);
        QCOMPARE(launchCommand(s).refusalKind, kind);
        m_controller->edit([&](Scenario& live) { live = s; });
        evaluate();
        const QString text = m_window->launchRefusalText(kind);
        QVERIFY2(text.contains(QStringLiteral("ください")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral(" the ")), qPrintable(text));
    }
    m_window->setLanguage(QStringLiteral("en"));
}

void TestUi::vramBarsFollowTheirRoom()
{
    // One bar per distinct load: every GPU of a split holds the same share, so one bar names
    // them all, at any window size.
    auto* vram = static_cast<VramChart*>(m_window->chart(u"vram"_s));
    auto ticks = [&](int gpus) {
        m_controller->edit([&](Scenario& s) { s.gpuCount = gpus; });
        evaluate();
        QApplication::processEvents();
        vram->replot(QCustomPlot::rpImmediateRefresh);
        return QStringList(
            vram->xAxis->ticker().dynamicCast<QCPAxisTickerText>()->ticks().values());
    };
    QCOMPARE(ticks(1), QStringList{u"GPU 0"_s});
    QCOMPARE(ticks(2), QStringList{u"each of 2 GPUs"_s});
    const QSize size = m_window->size();
    m_window->resize(1920, 1080); // a projector: still one bar, not eight identical ones
    QCOMPARE(ticks(8), QStringList{u"each of 8 GPUs"_s});
    m_window->resize(size);
    QCOMPARE(ticks(16), QStringList{u"each of 16 GPUs"_s});
    QCOMPARE(vram->segmentBytes().size(), 6);
    // Every GPU of a tensor-parallel split holds the same share: the bar is one GPU's.
    QCOMPARE(vram->segmentBytes()[0], m_controller->snapshot().evaluation.vram.weightsBytes);
}

void TestUi::customGpuCarriesItsComputeCapability()
{
    // gpt-oss-120b's MXFP4 experts on an H100 (9.0): Triton's layout, scales held twice.
    m_controller->edit([](Scenario& s) {
        s.model = test::model("gpt-oss-120b");
        s.gpu = test::gpu("h100-sxm");
        s.weights = test::weightFormat("mxfp4-moe");
    });
    evaluate();
    QCOMPARE(m_controller->snapshot().evaluation.experts.scaleCopies, 2);
    QVERIFY(!m_controller->snapshot().evaluation.experts.padded);
    const double h100Weights = m_controller->snapshot().evaluation.weightsBytesTotal;

    // The user enters an Ada card of 96 GiB through "Custom GPU...".
    QComboBox* gpuBox = m_window->panel()->gpuBox();
    const int custom = gpuBox->count() - 1;
    QTimer::singleShot(0, [] {
        QWidget* dialog = QApplication::activeModalWidget();
        QVERIFY(dialog);
        auto* capability = dialog->findChild<QDoubleSpinBox*>(QStringLiteral("computeCapability"));
        QVERIFY(capability);
        QCOMPARE(capability->value(), 9.0); // starts from the current GPU
        // KVSCOPE_SCREENSHOT_DIR=/some/dir saves the dialog for a person to look at.
        if (const QString dir = qEnvironmentVariable("KVSCOPE_SCREENSHOT_DIR"); !dir.isEmpty())
            dialog->grab().save(dir + QStringLiteral("/custom-gpu-dialog.png"));
        capability->setValue(8.9);
        // The H100's HBM3 is offered as HBM; an Ada card has GDDR.
        auto* memoryType = dialog->findChild<QComboBox*>(QStringLiteral("memoryType"));
        QVERIFY(memoryType);
        QCOMPARE(memoryType->currentData().toString(), QStringLiteral("HBM"));
        memoryType->setCurrentIndex(memoryType->findData(QStringLiteral("GDDR")));
        dialog->findChild<QDoubleSpinBox*>(QStringLiteral("memory"))->setValue(96);
        dialog->findChild<QLineEdit*>(QStringLiteral("name"))->setText(QStringLiteral("Ada 96"));
        static_cast<QDialog*>(dialog)->accept();
    });
    // Should the dialog not be found, close it rather than hang on it.
    QTimer::singleShot(10000, [] {
        if (auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget()))
            dialog->reject();
    });
    gpuBox->setCurrentIndex(custom);
    emit gpuBox->activated(custom);
    evaluate();
    const Scenario& s = m_controller->scenario();
    QVERIFY(s.gpu.custom);
    QCOMPARE(s.gpu.name, std::string("Ada 96"));
    QCOMPARE(s.gpu.computeCapability, 8.9);
    QCOMPARE(s.gpu.memoryType, std::string("GDDR"));
    QVERIFY(!s.gpu.hbm());
    // Ada runs Marlin: the experts are padded for the kernel, with one copy of the scales.
    const Evaluation& e = m_controller->snapshot().evaluation;
    QVERIFY(e.experts.padded);
    QCOMPARE(e.experts.scaleCopies, 1);
    QVERIFY(e.weightsBytesTotal > h100Weights);
}

void TestUi::extremeSettingsShowNoNonsense_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<qint64>("context");
    QTest::addColumn<qint64>("batch");
    QTest::addColumn<int>("placement");
    QTest::addRow("tiny context") << "llama-2-7b"
                                  << "t4" << qint64(1) << qint64(1) << int(KvPlacement::Gpu);
    QTest::addRow("10^8 tokens") << "llama-3.1-8b"
                                 << "rtx-4090" << qint64(100'000'000) << qint64(1)
                                 << int(KvPlacement::Gpu);
    QTest::addRow("huge batch") << "mixtral-8x7b"
                                << "l4" << qint64(32768) << qint64(65536) << int(KvPlacement::Sata);
    QTest::addRow("405b on one gpu")
        << "llama-3.1-405b"
        << "rtx-3090" << qint64(131072) << qint64(256) << int(KvPlacement::CpuRam);
    QTest::addRow("mla windowless")
        << "deepseek-v3"
        << "m4-max" << qint64(1'000'000) << qint64(8) << int(KvPlacement::Nvme);
    QTest::addRow("all windowed") << "mistral-7b-v0.1"
                                  << "b200" << qint64(100'000'000) << qint64(1)
                                  << int(KvPlacement::Gpu);
    QTest::addRow("70b overflows one h100")
        << "llama-3.1-70b"
        << "h100-sxm" << qint64(2048) << qint64(1) << int(KvPlacement::Gpu);
}

void TestUi::extremeSettingsShowNoNonsense()
{
    QFETCH(QString, model);
    QFETCH(QString, gpu);
    QFETCH(qint64, context);
    QFETCH(qint64, batch);
    QFETCH(int, placement);
    m_controller->edit([&](Scenario& s) {
        s.model = test::model(model.toStdString());
        s.gpu = test::gpu(gpu.toStdString());
        s.context = context;
        s.batch = batch;
        s.kvPlacement = KvPlacement(placement);
    });
    evaluate();
    QVERIFY(m_controller->hasSnapshot());
    QCOMPARE(m_controller->scenario().context, int64_t(context));
    static const QRegularExpression nonsense(
        QStringLiteral(
            "\\b(nan|inf|infinity)\\b|-\\d[\\d,.]*\\s?(B|KiB|MiB|GiB|TiB|PiB|kB|MB|GB|TB|ms|s)\\b"),
        QRegularExpression::CaseInsensitiveOption);
    for (const QString& text : visibleTexts(*m_window))
        QVERIFY2(!nonsense.match(text).hasMatch(), qPrintable(text));
    for (const HeadlineTile* tile : m_window->headline()->findChildren<HeadlineTile*>())
        QVERIFY2(!nonsense.match(tile->arithmetic()).hasMatch(), qPrintable(tile->arithmetic()));
    // No label on a chart runs past its edges or over another label, wherever the figures put
    // it, and the decode chart's caption lies over no curve.
    QApplication::processEvents(); // labels placed in pixels follow the settled layout
    const QString problem = labelProblem(*m_window);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    auto* latency = static_cast<DecodeLatencyChart*>(m_window->chart(u"latency"_s));
    const QRectF caption = latency->captionBox();
    for (int g = 0; g < latency->graphCount(); ++g)
        for (auto it = latency->graph(g)->data()->constBegin();
             it != latency->graph(g)->data()->constEnd(); ++it) {
            const QPointF point(latency->xAxis->coordToPixel(it->key),
                                latency->yAxis->coordToPixel(it->value));
            QVERIFY2(!caption.contains(point), qPrintable(latency->graph(g)->name()));
        }
}

void TestUi::labelsStayApartInADemoWindow_data()
{
    QTest::addColumn<QString>("lang");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<QString>("engine");
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<QString>("weights");
    QTest::addColumn<qint64>("context");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<qint64>("batch");
    QTest::addColumn<qint64>("nCpuMoe");   // llama.cpp --n-cpu-moe
    QTest::addColumn<qint64>("gpuLayers"); // llama.cpp -ngl; -1 = all
    const QSize laptop(1280, 800), desktop(1600, 1000);
    QTest::addRow("seed") << "en" << laptop << "hf"
                          << "llama-2-7b"
                          << "rtx-4090"
                          << "fp16" << qint64(2048) << 1 << qint64(1) << qint64(0) << qint64(-1);
    QTest::addRow("70b overflows, ja")
        << "ja" << laptop << "vllm"
        << "llama-3.1-70b"
        << "h100-sxm"
        << "bf16" << qint64(2048) << 1 << qint64(1) << qint64(0) << qint64(-1);
    QTest::addRow("70b q4 on an m3 max, ja")
        << "ja" << laptop << "llamacpp"
        << "llama-3.1-70b"
        << "m3-max"
        << "q4_k_m" << qint64(32768) << 1 << qint64(1) << qint64(0) << qint64(-1);
    QTest::addRow("70b q4 on an m3 max")
        << "en" << laptop << "llamacpp"
        << "llama-3.1-70b"
        << "m3-max"
        << "q4_k_m" << qint64(32768) << 1 << qint64(1) << qint64(0) << qint64(-1);
    QTest::addRow("deepseek v3 on 8 h200")
        << "en" << desktop << "vllm"
        << "deepseek-v3"
        << "h200"
        << "fp8" << qint64(131072) << 8 << qint64(16) << qint64(0) << qint64(-1);
    QTest::addRow("deepseek v3 on 8 h200, ja")
        << "ja" << laptop << "vllm"
        << "deepseek-v3"
        << "h200"
        << "fp8" << qint64(131072) << 8 << qint64(16) << qint64(0) << qint64(-1);
    QTest::addRow("mixtral on 2 l40s, ja")
        << "ja" << laptop << "hf"
        << "mixtral-8x7b"
        << "l40s"
        << "bf16" << qint64(32768) << 2 << qint64(1) << qint64(0) << qint64(-1);
    QTest::addRow("qwen3 8b on a 4090")
        << "en" << laptop << "vllm"
        << "qwen3-8b"
        << "rtx-4090"
        << "awq-int4" << qint64(40960) << 1 << qint64(1) << qint64(0) << qint64(-1);
    QTest::addRow("gpt-oss-120b experts in host RAM")
        << "en" << laptop << "llamacpp"
        << "gpt-oss-120b"
        << "rtx-4090"
        << "mxfp4" << qint64(32768) << 1 << qint64(1) << qint64(24) << qint64(-1);
    QTest::addRow("gpt-oss-120b experts in host RAM, ja")
        << "ja" << laptop << "llamacpp"
        << "gpt-oss-120b"
        << "rtx-4090"
        << "mxfp4" << qint64(32768) << 1 << qint64(1) << qint64(24) << qint64(-1);
    QTest::addRow("gpt-oss-120b on an h100, ja")
        << "ja" << laptop << "vllm"
        << "gpt-oss-120b"
        << "h100-sxm"
        << "mxfp4-moe" << qint64(8192) << 1 << qint64(1) << qint64(0) << qint64(-1);
    // 40 of 62 layers on the GPU: the offload note over the capacity label.
    QTest::addRow("gemma 3 27b, 40 layers on a 4090")
        << "en" << laptop << "llamacpp"
        << "gemma-3-27b"
        << "rtx-4090"
        << "q4_k_m" << qint64(2048) << 1 << qint64(1) << qint64(0) << qint64(40);
    QTest::addRow("gemma 3 27b, 40 layers on a 4090, ja")
        << "ja" << laptop << "llamacpp"
        << "gemma-3-27b"
        << "rtx-4090"
        << "q4_k_m" << qint64(2048) << 1 << qint64(1) << qint64(0) << qint64(40);
}

// Presentation mode's larger type in Japanese: the VRAM chart's offload note ("重みのうち
// 5.29 GiB を CPU RAM にオフロード") ran past the plot's edge; it wraps within it.
void TestUi::offloadNoteFitsAPresentedPlot()
{
    m_window->setLanguage(u"ja"_s);
    m_window->setPresentationMode(true);
    m_controller->edit([&](Scenario& s) {
        applyEngine(s, *test::catalog().engine("llamacpp"));
        s.model = test::model("gemma-3-27b");
        applyGpu(s, test::gpu("rtx-4090"));
        s.weights = test::weightFormat("q4_k_m");
        s.gpuLayers = 40;
    });
    renderWindow(*m_window, *m_controller, QSize(1280, 800));
    QVERIFY(m_controller->snapshot().evaluation.vram.weightsOffloadedBytes > 1e9);
    const QString problem = labelProblem(*m_window);
    m_window->setPresentationMode(false);
    m_window->setLanguage(u"en"_s);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

// What a consultant shows on a laptop: every chart label readable, in both languages.
void TestUi::labelsStayApartInADemoWindow()
{
    QFETCH(QString, lang);
    QFETCH(QSize, size);
    QFETCH(QString, engine);
    QFETCH(QString, model);
    QFETCH(QString, gpu);
    QFETCH(QString, weights);
    QFETCH(qint64, context);
    QFETCH(int, gpus);
    QFETCH(qint64, batch);
    QFETCH(qint64, nCpuMoe);
    QFETCH(qint64, gpuLayers);
    m_window->setLanguage(lang);
    m_controller->edit([&](Scenario& s) {
        applyEngine(s, *test::catalog().engine(engine.toStdString()));
        s.model = test::model(model.toStdString());
        applyGpu(s, test::gpu(gpu.toStdString()));
        s.weights = test::weightFormat(weights.toStdString());
        s.context = context;
        s.gpuCount = gpus;
        s.batch = batch;
        s.cpuMoeLayers = nCpuMoe;
        s.gpuLayers = gpuLayers < 0 ? std::nullopt : std::optional<int64_t>(gpuLayers);
    });
    QCOMPARE(m_controller->scenario().cpuMoeLayers, int64_t(nCpuMoe)); // not refused
    renderWindow(*m_window, *m_controller, size);
    const QString problem = labelProblem(*m_window);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void TestUi::dragCoalescesEvaluations()
{
    QSignalSpy spy(m_controller, &ScenarioController::evaluated);
    QSlider* slider = m_window->panel()->contextControl()->slider();
    for (int position = 0; position <= ContextControl::sliderSteps; position += 10)
        slider->setValue(position);
    QCOMPARE(spy.count(), 0); // nothing evaluated until the event loop turns
    QTRY_COMPARE(spy.count(), 1);
    QCOMPARE(m_controller->snapshot().scenario.context,
             ContextControl::tokensAt(ContextControl::sliderSteps));
}

void TestUi::contextDragMovesOnlyMarkers()
{
    // Within one sweep range the curves stay and only the current-context marker moves.
    auto* latency = static_cast<DecodeLatencyChart*>(m_window->chart(u"latency"_s));
    QSlider* slider = m_window->panel()->contextControl()->slider();
    slider->setSliderDown(true);
    slider->setValue(ContextControl::sliderSteps / 10);
    evaluate();
    const uint64_t revision = m_controller->snapshot().baseRevision;
    const QVector<double> curve = latency->curveValues(Tier::CpuSerial);
    const QPointF before = latency->currentPoint();
    slider->setValue(ContextControl::sliderSteps / 10 + 1);
    evaluate();
    const EvaluationSnapshot& snap = m_controller->snapshot();
    QCOMPARE(snap.baseRevision, revision);
    QCOMPARE(latency->curveValues(Tier::CpuSerial), curve);
    QVERIFY(latency->currentPoint() != before);
    QCOMPARE(latency->currentPoint().x(), double(snap.scenario.context));
    QCOMPARE(latency->currentPoint().y(), snap.evaluation.decode.selectedMs);
    // Anything else starts a new sweep and redraws the curves.
    m_window->panel()->batchBox()->setValue(4);
    evaluate();
    QVERIFY(m_controller->snapshot().baseRevision != revision);
    QVERIFY(latency->curveValues(Tier::CpuSerial) != curve);
    slider->setSliderDown(false);
}

void TestUi::japaneseHasNoUntranslatedText()
{
    // Words that are the same in a Japanese engineer's UI: units, acronyms and proper names
    // from the catalog.
    QSet<QString> sameInBoth{
        u"MHA"_s,     u"GQA"_s,         u"MQA"_s,  u"MLA"_s,          u"GPU"_s,  u"KV"_s,
        u"VRAM"_s,    u"NVMe"_s,        u"SATA"_s, u"SSD"_s,          u"PCIe"_s, u"head_dim"_s,
        u"English"_s, u"config.json"_s, u"GGUF"_s, u"Hugging Face"_s, u"FP16"_s, u"GiB"_s,
        u"GB"_s,      u"KiB"_s,         u"MiB"_s};
    for (const ModelSpec& m : test::catalog().models)
        sameInBoth << QString::fromStdString(m.name);
    for (const GpuSpec& g : test::catalog().gpus)
        sameInBoth << QString::fromStdString(g.name);
    for (const EngineProfile& e : test::catalog().engines)
        sameInBoth << QString::fromStdString(e.name) << QString::fromStdString(e.shortName);
    for (const WeightFormat& f : test::catalog().weightFormats)
        sameInBoth << QString::fromStdString(f.name);
    for (const KvDtype& d : test::catalog().kvDtypes)
        sameInBoth << QString::fromStdString(d.name);

    m_window->setLanguage(QStringLiteral("ja"));
    evaluate();
    static const QRegularExpression englishWord(QStringLiteral("\\b[A-Za-z]{4,}\\b"));
    // Longest first: "Hugging Face" must not cut an engine's name before the name is removed.
    QStringList allowedWords = sameInBoth.values();
    std::sort(allowedWords.begin(), allowedWords.end(),
              [](const QString& a, const QString& b) { return a.size() > b.size(); });
    for (QString text : visibleTexts(*m_window)) {
        for (const QString& allowed : allowedWords)
            text.remove(allowed);
        text.remove(QLatin1Char('&'));
        auto match = englishWord.match(text);
        QVERIFY2(!match.hasMatch(), qPrintable(QStringLiteral("untranslated: \"%1\"").arg(text)));
    }
    QCOMPARE(m_window->headline()->tile(HeadlineBar::Fit)->value(), QStringLiteral("収まる"));
    // The advanced drawer and the report name every efficiency factor, never by its id.
    static const QRegularExpression japanese(
        QStringLiteral("[\\x{3040}-\\x{30FF}\\x{4E00}-\\x{9FFF}]"));
    for (const EfficiencyFactor& f : test::catalog().efficiencyFactors) {
        const QString name = UiText::efficiencyName(f.id);
        QVERIFY2(name.contains(japanese), qPrintable(name));
    }

    // Notes inside the arithmetic take Japanese full-width brackets; grouping stays ASCII.
    m_controller->edit([](Scenario& s) {
        s.model = test::model("gpt-oss-120b");
        s.gpu = test::gpu("h100-sxm");
        s.weights = test::weightFormat("mxfp4-moe");
        s.gpuCount = 2;
    });
    evaluate();
    const QString weights = m_window->headline()->tile(HeadlineBar::Weights)->arithmetic();
    QVERIFY2(weights.contains(QStringLiteral("（スケールを二重に保持）")), qPrintable(weights));
    QVERIFY2(weights.contains(QStringLiteral("（÷ 2 GPU）")), qPrintable(weights));
    QVERIFY2(!weights.contains(QStringLiteral(" (")), qPrintable(weights));
}

namespace {

// What a setting's control is called: a check box's own text, else its form row's label.
QString controlLabel(const QWidget* control)
{
    if (const auto* check = qobject_cast<const QCheckBox*>(control))
        return check->text();
    const auto* form = qobject_cast<const QFormLayout*>(control->parentWidget()->layout());
    const auto* label =
        form ? qobject_cast<const QLabel*>(form->labelForField(const_cast<QWidget*>(control)))
             : nullptr;
    return label ? label->text() : QString();
}

} // namespace

// A setting placed in the window by its registry entry gets its control and its label there,
// in both languages, with no line of window code of its own.
void TestUi::everyPlacedSettingHasALabelledControl()
{
    static const QRegularExpression japanese(
        QStringLiteral("[\\x{3040}-\\x{30FF}\\x{4E00}-\\x{9FFF}]"));
    int placed = 0;
    for (const QString& language : {u"en"_s, u"ja"_s}) {
        m_window->setLanguage(language);
        for (const Setting& setting : settingsRegistry()) {
            if (setting.place == ControlPlace::None)
                continue;
            const auto* control = m_window->findChild<QWidget*>(QString::fromUtf8(setting.id));
            QVERIFY2(control, setting.id);
            const QString label = controlLabel(control);
            QVERIFY2(!label.isEmpty() && label != QString::fromUtf8(setting.id), setting.id);
            if (language == u"ja"_s)
                QVERIFY2(label.contains(japanese), qPrintable(label));
            ++placed;
        }
    }
    QVERIFY(placed >= 2 * 20); // the engine and host knobs and every efficiency factor
}

void TestUi::screenshotIsNotBlank()
{
    const QImage image = renderWindow(*m_window, *m_controller, QSize(1280, 800));
    QCOMPARE(image.size(), QSize(1280, 800));
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7)
            colours.insert(image.pixel(x, y));
    QVERIFY2(colours.size() > 50, qPrintable(QString::number(colours.size())));
}

void TestUi::unitsSwitchChangesLabels()
{
    QCOMPARE(m_window->headline()->tile(HeadlineBar::KvTotal)->value(), QStringLiteral("1.00 GiB"));
    m_window->setByteUnits(ByteUnits::Si);
    QCOMPARE(m_window->headline()->tile(HeadlineBar::KvTotal)->value(), QStringLiteral("1.07 GB"));
    QVERIFY(m_window->chart(u"vram"_s)->yAxis->label().contains(QStringLiteral("GB")));
}

KVSCOPE_TEST_SUITE(TestUi, "tst_ui", kvscope::test::SuiteApp::FusionFixed)

#include "tst_ui.moc"
