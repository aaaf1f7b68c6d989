// SPDX-License-Identifier: GPL-3.0-or-later
#include "window_bench.h"

#include "charts/chart_base.h"
#include "charts/view_registry.h"
#include "kvscope/settings/scenario_defaults.h"
#include "kvscope/settings/scenario_options.h"
#include "panels/context_control.h"
#include "panels/scenario_panel.h"
#include "window/main_window.h"
#include "window/scenario_controller.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QSlider>
#include <QSpinBox>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <vector>

namespace kvscope::bench {

namespace {

double percentile(std::vector<double> values, double p)
{
    std::sort(values.begin(), values.end());
    const size_t index = std::min(values.size() - 1, size_t(p * double(values.size() - 1) + 0.5));
    return values[index];
}

// Paints once, then quits: the first frame of a window.
class FirstFrameWatcher : public QObject
{
public:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Paint && !m_seen) {
            m_seen = true;
            QMetaObject::invokeMethod(
                qApp,
                [] {
                    std::puts("painted");
                    std::fflush(stdout);
                    QApplication::quit();
                },
                Qt::QueuedConnection);
        }
        return QObject::eventFilter(watched, event);
    }

private:
    bool m_seen = false;
};

} // namespace

namespace {

struct ReplotSamples
{
    std::vector<double> drag; // sliders held down: draft quality
    std::vector<double> full; // spin boxes: full quality
};

// Changes every control of a fresh window on the default scenario, with `pinned` scenarios
// pinned beside it, and times each change until the Charts tab has replotted.
std::optional<ReplotSamples> replotSamples(const Catalog& catalog,
                                           const std::vector<NamedScenario>& pinned)
{
    auto scenario = defaultScenario(catalog);
    if (!scenario)
        return std::nullopt;
    ui::ScenarioController controller(catalog);
    if (controller.setPinned(pinned))
        return std::nullopt;
    controller.setScenario(*scenario);
    ui::MainWindow window(&controller, nullptr, nullptr);
    window.resize(1600, 1000);
    window.show();
    controller.evaluateNow();
    QApplication::processEvents();
    // The Charts tab's views replot on every change; the planner's tabs search only while shown.
    int replotted = 0;
    int shownCharts = 0;
    for (ui::ChartBase* chart : window.charts()) {
        if (chart->view()->page != ui::ViewPage::Charts)
            continue;
        ++shownCharts;
        QObject::connect(chart, &ui::ChartBase::drawn, [&replotted] { ++replotted; });
    }

    bool evaluated = false;
    QObject::connect(&controller, &ui::ScenarioController::evaluated,
                     [&evaluated] { evaluated = true; });

    std::vector<double> samples;
    auto measure = [&](auto change) {
        replotted = 0;
        evaluated = false;
        QElapsedTimer timer;
        timer.start();
        change();
        // A control set to the value it already shows changes nothing: no sample then.
        while (replotted < shownCharts && timer.elapsed() < 5000) {
            QApplication::processEvents(QEventLoop::AllEvents);
            if (!evaluated && timer.elapsed() > 200)
                return;
        }
        // The frame itself: the pending paint of what changed (charts, headline, panel) is flushed.
        QApplication::sendPostedEvents(nullptr, QEvent::UpdateRequest);
        QApplication::processEvents();
        if (replotted >= shownCharts)
            samples.push_back(double(timer.nsecsElapsed()) / 1e6);
    };

    // Sliders are dragged (held down, as a mouse drag holds them), so the charts draw in draft
    // quality; spin boxes step at full quality, as keyboard and wheel changes do.
    ui::ScenarioPanel* panel = window.panel();
    auto drag = [&](QSlider* slider, auto positions) {
        slider->setSliderDown(true);
        for (int value : positions)
            if (value != slider->value())
                measure([&] { slider->setValue(value); });
        slider->setSliderDown(false);
        QApplication::processEvents();
    };
    std::vector<int> contextPositions;
    for (int i = 0; i < 200; ++i)
        contextPositions.push_back((i * 2) % (ui::ContextControl::sliderSteps + 1));
    drag(panel->contextControl()->slider(), contextPositions);
    for (QSlider* slider : {panel->weightSlider(), panel->pcieSlider()}) {
        std::vector<int> all;
        for (int value = slider->minimum(); value <= slider->maximum(); ++value)
            all.push_back(value);
        drag(slider, all);
    }
    const std::vector<double> dragSamples = samples;
    samples.clear();
    for (int gpus = 2; gpus <= 8; ++gpus)
        measure([&] { panel->gpuCountBox()->setValue(gpus); });
    for (int batch : {2, 4, 8, 16, 32, 64, 1})
        measure([&] { panel->batchBox()->setValue(batch); });
    for (int i = 0; i < 20; ++i)
        measure([&] { panel->contextControl()->box()->setValue(1024 * (i + 1)); });

    if (qEnvironmentVariableIsSet("KVSCOPE_BENCH_DETAIL"))
        for (ui::ChartBase* chart : window.charts())
            std::printf("replot_%s%s_ms: %.2f ms\n", pinned.empty() ? "" : "compare_",
                        qPrintable(chart->chartId()), chart->replotTime(true));
    return ReplotSamples{dragSamples, samples};
}

// Four scenarios a comparison typically pins: formats, a bigger GPU, another engine.
std::vector<NamedScenario> fourPinned(const Catalog& catalog)
{
    std::vector<NamedScenario> pinned;
    const std::vector<std::vector<std::pair<std::string, std::string>>> variants = {
        {{"weights", "q8_0"}},
        {{"weights", "q4_k_m"}},
        {{"gpu", "a100-80gb"}},
        {{"engine", "vllm"}}};
    for (const auto& options : variants)
        if (auto s = scenarioFromOptions(options, catalog))
            pinned.push_back({options.front().second, *s});
    return pinned;
}

} // namespace

int runReplotBench(const Catalog& catalog)
{
    const auto single = replotSamples(catalog, {});
    const std::vector<NamedScenario> pinned = fourPinned(catalog);
    const auto compared = pinned.size() == 4 ? replotSamples(catalog, pinned) : std::nullopt;
    if (!single || !compared)
        return 1;
    std::printf("replot_median_ms: %.2f ms\n", percentile(single->drag, 0.5));
    std::printf("replot_p95_ms: %.2f ms\n", percentile(single->drag, 0.95));
    std::printf("replot_samples: %zu changes\n", single->drag.size());
    std::printf("replot_full_quality_median_ms: %.2f ms\n", percentile(single->full, 0.5));
    std::printf("replot_full_quality_p95_ms: %.2f ms\n", percentile(single->full, 0.95));
    // The same drags with four scenarios pinned: to stay within 1.5x of the single figures.
    std::printf("replot_compare_median_ms: %.2f ms\n", percentile(compared->drag, 0.5));
    std::printf("replot_compare_p95_ms: %.2f ms\n", percentile(compared->drag, 0.95));
    std::printf("replot_compare_ratio: %.2f x\n",
                percentile(compared->drag, 0.5) / std::max(1e-9, percentile(single->drag, 0.5)));
    return 0;
}

int runFirstFrameChild(const char* which, const Catalog& catalog)
{
    FirstFrameWatcher watcher;
    if (std::string(which) == "bare") {
        QWidget bare;
        bare.resize(1600, 1000);
        bare.installEventFilter(&watcher);
        bare.show();
        return QApplication::exec();
    }
    auto scenario = defaultScenario(catalog);
    if (!scenario)
        return 1;
    ui::ScenarioController controller(catalog);
    controller.setScenario(*scenario);
    ui::MainWindow window(&controller, nullptr, nullptr);
    window.resize(1600, 1000);
    window.installEventFilter(&watcher);
    window.show();
    return QApplication::exec();
}

int runStartupBench(const char* self)
{
    auto median = [&](const char* which) {
        std::vector<double> runs;
        for (int i = 0; i < 7; ++i) {
            QProcess child;
            QElapsedTimer timer;
            timer.start();
            child.start(QString::fromLocal8Bit(self),
                        {QStringLiteral("--first-frame"), QString::fromLatin1(which)});
            child.waitForReadyRead(30000);
            const double ms = double(timer.nsecsElapsed()) / 1e6;
            child.waitForFinished(30000);
            if (child.readAll().contains("painted") || ms > 0)
                runs.push_back(ms);
        }
        return percentile(runs, 0.5);
    };
    const double window = median("window");
    const double bare = median("bare");
    std::printf("startup_ms: %.1f ms\n", window);
    std::printf("bare_startup_ms: %.1f ms\n", bare);
    std::printf("startup_ratio: %.2f x\n", window / bare);
    return 0;
}

} // namespace kvscope::bench
