// SPDX-License-Identifier: GPL-3.0-or-later
// What the KV cache and reload charts' labels name, and what views of a scenario that cannot run
// draw, checked from the layout file (issue 42): each callout by the crossing or line it names,
// every limit line named, tiers told apart by hue, and no figure for a scenario that does not run.

#include "layout_checks.h"
#include "suite_registry.h"
#include "window_fixture.h"

#include "charts/chart_base.h"
#include "charts/chart_style.h"
#include "charts/serving_chart.h"
#include "export/layout_file.h"
#include "export/screenshot.h"
#include "window/palettes.h"

#include <QApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QTest>

#include <cmath>

#include "kvscope/scenario/speed_class.h"

using namespace kvscope;
using namespace kvscope::test;
using namespace Qt::StringLiterals;

class TestChartLabels : public QObject
{
    Q_OBJECT

    test::WindowFixture f;

    void change(const std::vector<std::pair<std::string, std::string>>& options)
    {
        QVERIFY(f.change(options));
    }

    ui::ChartBase* chartWithId(const QString& id) const
    {
        for (ui::ChartBase* chart : f.window->charts())
            if (chart->chartId() == id)
                return chart;
        return nullptr;
    }

    // Llama 3.1 70B on two H100s at 32K x 8: the weights fit, the KV cache does not.
    void changeToOnlyTheKvShort()
    {
        change({{"model", "llama-3.1-70b"},
                {"gpu", "h100-sxm"},
                {"gpus", "2"},
                {"engine", "vllm"},
                {"context", "32768"},
                {"batch", "8"}});
    }

    // The KV chart's legend gives each curve's crossing of the memory left for KV, whether or
    // not the plot has room for its number by the crossing (issue 42: the model's own number
    // was missing where the curves crowd it, or stood by another series' line).
    void checkCrossingsInLegend(const QJsonObject& layout)
    {
        const ui::EvaluationSnapshot& snap = f.controller->snapshot();
        const TokensFit& fit = snap.evaluation.tokensFit;
        if (fit.freeForKvBytes <= 0)
            return;
        QString entries;
        for (const QJsonValue& entry : layout[u"legend"_s][u"entries"_s].toArray())
            entries += entry.toString().replace(QLatin1Char('\n'), QLatin1Char(' ')) + u'|';
        std::vector<int64_t> crossings{fit.perSequence};
        if (snap.pinned->empty() && !snap.scenario.model.isMla())
            crossings = {fit.perSequenceMha, fit.perSequenceGqa, fit.perSequenceMqa};
        for (const int64_t crossing : crossings)
            QVERIFY2(crossing <= 0 || entries.contains(QLocale().toString(qlonglong(crossing))),
                     qPrintable(u"%1 not in the legend: %2"_s.arg(crossing).arg(entries)));
    }

    // "name=value;...": the scenario's changes, "pin" pinning the scenario as it stands first.
    void applyOptions(const QString& options)
    {
        std::vector<std::pair<std::string, std::string>> changes;
        for (const QString& option : options.split(QLatin1Char(';'))) {
            if (option == QLatin1String("pin"))
                QVERIFY(f.controller->pin());
            else
                changes.emplace_back(option.section(QLatin1Char('='), 0, 0).toStdString(),
                                     option.section(QLatin1Char('='), 1).toStdString());
        }
        change(changes);
    }

    // A chart's layout file as the window draws it (`size` invalid) or laid out at `size`, as a
    // slide or a report draws it.
    static QJsonObject layoutAt(ui::ChartBase* chart, const QSize& size)
    {
        if (size.isValid())
            chart->layOutAt(size);
        QJsonObject layout = ui::describeChart(*chart);
        if (size.isValid()) // drawn at the slide's size, whatever the widget's
            layout[QStringLiteral("rect")] = QJsonArray{0, 0, size.width(), size.height()};
        return layout;
    }

private slots:
    void init() { f.open(); }
    void cleanup() { f.close(); }

    void labelsNameTheirOwnFigures_data()
    {
        QTest::addColumn<QString>("options"); // name=value;...; "pin" pins the scenario first
        QTest::addColumn<QString>("lang");
        const std::pair<const char*, const char*> scenarios[] = {
            {"gqa", "model=llama-3.1-8b"},
            {"mha", "model=llama-2-7b"},
            {"mla", "model=deepseek-v2-lite;gpu=h100-sxm"},
            {"kv in cpu ram", "model=llama-3.1-8b;kv-placement=cpu"},
            {"70b on two h100", "model=llama-3.1-70b;gpus=2;gpu=h100-sxm;context=32768"},
            {"does not fit", "model=llama-3.1-70b;gpus=1;gpu=rtx-4090;context=32768"},
            {"kv overflows", "model=llama-3.1-70b;gpus=2;gpu=h100-sxm;context=32768;batch=8"},
            {"8b at 64k x 2", "model=llama-3.1-8b;context=65536;batch=2"},
            {"budget held back", "model=llama-3.1-8b;engine=vllm;context=8192"},
            {"pinned", "pin;weights=q4_k_m"}};
        for (const auto& [name, options] : scenarios)
            for (const char* lang : {"en", "ja"})
                QTest::addRow("%s %s", name, lang)
                    << QString::fromLatin1(options) << QString::fromLatin1(lang);
    }

    // Every chart of a scenario in the window at 1280x800 and on a slide: each callout sits by the
    // crossing or line it names, over no other crossing, with no line or curve through it, and
    // every limit drawn across the plot is named (issue 42: a GQA number on the MHA crossing, a
    // free label struck through by curves, tiers named only by colour, a pinned budget unnamed,
    // VRAM's budget line unnamed, a "does not fit" box hiding three decode curves).
    void labelsNameTheirOwnFigures()
    {
        QFETCH(QString, options);
        QFETCH(QString, lang);
        f.window->setLanguage(lang);
        applyOptions(options);
        ui::renderWindow(*f.window, *f.controller, QSize(1280, 800));
        for (const QString& id :
             {u"vram"_s, u"tokens"_s, u"kv"_s, u"breakeven"_s, u"latency"_s, u"serving"_s}) {
            ui::ChartBase* chart = chartWithId(id);
            QVERIFY(chart && f.window->showPage(id));
            QApplication::processEvents();
            chart->replot(QCustomPlot::rpImmediateRefresh);
            for (const QSize size : {QSize(), QSize(960, 540)}) {
                const QJsonObject layout = layoutAt(chart, size);
                const QString where = size.isValid() ? u" (slide)"_s : u" (window)"_s;
                const QString problem = layoutProblem(layout) + calloutProblem(layout, 40) +
                                        curveUnderCalloutProblem(layout);
                if (!problem.isEmpty()) // the whole layout, to see what the label met
                    qDebug().noquote() << QJsonDocument(layout).toJson(QJsonDocument::Compact);
                QVERIFY2(problem.isEmpty(), qPrintable(problem + where));
                if (id == u"kv"_s)
                    checkCrossingsInLegend(layout);
            }
            chart->layOutAt(chart->rect().size());
        }
        f.window->setLanguage(QStringLiteral("en"));
    }

    void frontLabelsNameTheirPoints_data()
    {
        QTest::addColumn<QString>("options");
        QTest::addColumn<QString>("lang");
        QTest::addColumn<bool>("presentation");
        const std::pair<const char*, const char*> scenarios[] = {
            {"70b kv short", "model=llama-3.1-70b;gpu=h100-sxm;gpus=2;engine=vllm;context=32768;"
                             "batch=8"},
            {"moe", "model=gpt-oss-120b;weights=mxfp4;engine=llamacpp;context=32768"},
            {"70b distill", "model=deepseek-r1-distill-llama-70b"}};
        for (const auto& [name, options] : scenarios)
            for (const char* lang : {"en", "ja"})
                for (const bool presentation : {false, true})
                    QTest::addRow("%s %s%s", name, lang, presentation ? " presented" : "")
                        << QString::fromLatin1(options) << QString::fromLatin1(lang)
                        << presentation;
    }

    // The plan chart names the points of its Pareto front where it has room, the cheapest
    // always: each label beside its point and nearer it than any other, or at the end of a
    // leader from it, over no point and with the front's line under no label (issue 42: the
    // cheapest point unnamed in presentation mode, a label's box over its own segment), in the
    // window and on a slide.
    void frontLabelsNameTheirPoints()
    {
        QFETCH(QString, options);
        QFETCH(QString, lang);
        QFETCH(bool, presentation);
        f.window->setLanguage(lang);
        f.window->setPresentationMode(presentation);
        applyOptions(options);
        QVERIFY(f.window->showPage(u"plan"_s));
        ui::renderWindow(*f.window, *f.controller,
                         presentation ? QSize(1280, 720) : QSize(1280, 800));
        ui::ChartBase* chart = chartWithId(u"plan"_s);
        QVERIFY(chart);
        QApplication::processEvents();
        chart->replot(QCustomPlot::rpImmediateRefresh);
        for (const QSize size : {QSize(), QSize(960, 540)}) {
            const QJsonObject layout = layoutAt(chart, size);
            QString problem = calloutProblem(layout, 40) + curveUnderCalloutProblem(layout);
            // The cheapest point of the front, the plan's first row, is named.
            QPointF cheapest;
            for (const QJsonValue& series : layout[u"series"_s].toArray())
                if (series[u"markers"_s].toBool())
                    for (const QJsonValue& p : series[u"points"_s].toArray())
                        if (pointOf(p).y() > cheapest.y())
                            cheapest = pointOf(p);
            bool named = false;
            for (const QJsonValue& label : layout[u"labels"_s].toArray())
                named = named || (label.toObject().contains(u"anchor"_s) &&
                                  QLineF(pointOf(label[u"anchor"_s]), cheapest).length() < 1.5);
            if (!named)
                problem += u"the cheapest point is unnamed"_s;
            if (!problem.isEmpty())
                qDebug().noquote() << QJsonDocument(layout).toJson(QJsonDocument::Compact);
            QVERIFY2(problem.isEmpty(),
                     qPrintable(problem + (size.isValid() ? u" (slide)"_s : u" (window)"_s)));
        }
        chart->layOutAt(chart->rect().size());
        f.window->setPresentationMode(false);
        f.window->setLanguage(QStringLiteral("en"));
    }

    // The serving chart shades where measured serving runs of the scenario's class fell around
    // its engine's curve of all users: a measured time per token of x (1 + b) serves the curve
    // over (1 + b). A class nobody measured under load draws no band.
    void servingCurveCarriesItsMeasuredBand()
    {
        change({{"model", "gpt-oss-120b"},
                {"gpu", "h100-sxm"},
                {"gpus", "8"},
                {"engine", "vllm"},
                {"weights", "mxfp4-moe"},
                {"batch", "16"}});
        ui::renderWindow(*f.window, *f.controller, QSize(1280, 800));
        auto* chart = qobject_cast<ui::ServingChart*>(chartWithId(u"serving"_s));
        QVERIFY(chart && f.window->showPage(u"serving"_s));
        const SpeedBand band = speedBandOf(f.controller->scenario(), SpeedFigure::Tpot);
        QVERIFY(band.usable());
        const auto bandEdges = [&]() -> std::pair<QCPGraph*, QCPGraph*> {
            for (int g = 0; g < chart->graphCount(); ++g)
                if (chart->graph(g)->channelFillGraph())
                    return {chart->graph(g), chart->graph(g)->channelFillGraph()};
            return {nullptr, nullptr};
        };
        const auto [high, low] = bandEdges();
        QVERIFY(high && low && high->visible());
        const ServingCurve& own = chart->serving().curves.front();
        const ServingPoint& first = own.points.front();
        QCOMPARE(high->data()->at(0)->value, first.aggregateTokensPerS / (1.0 + band.low));
        QCOMPARE(low->data()->at(0)->value, first.aggregateTokensPerS / (1.0 + band.high));
        QVERIFY(high->name().contains(u"measured"_s));
        // transformers was never measured serving: no band.
        change({{"model", "llama-3.1-8b"}, {"gpu", "rtx-4090"}, {"gpus", "1"}, {"engine", "hf"}});
        ui::renderWindow(*f.window, *f.controller, QSize(1280, 800));
        QVERIFY(!bandEdges().first->visible());
    }

    void viewsOfAScenarioThatCannotRunDrawNoFigures_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QString>("says");
        QTest::addRow("en") << u"en"_s << u"does not run"_s;
        QTest::addRow("ja") << u"ja"_s << u"動作しません"_s;
    }

    // Llama 3.1 70B in FP16 on one RTX 4090: the weights alone overflow. The tokens-that-fit,
    // reload and decode-time charts draw no bar or curve for it (they once drew bars of 0
    // tokens, and decode times for every context) and say why, in the window and on a slide;
    // the layout file says they are empty.
    void viewsOfAScenarioThatCannotRunDrawNoFigures()
    {
        QFETCH(QString, lang);
        QFETCH(QString, says);
        f.window->setLanguage(lang);
        change({{"model", "llama-3.1-70b"},
                {"gpu", "rtx-4090"},
                {"gpus", "1"},
                {"weights", "fp16"},
                {"context", "8192"}});
        QVERIFY(!f.controller->snapshot().verdict.runs);
        ui::renderWindow(*f.window, *f.controller, QSize(1280, 800));
        for (const QString& id :
             {QStringLiteral("tokens"), QStringLiteral("breakeven"), QStringLiteral("latency")}) {
            ui::ChartBase* chart = chartWithId(id);
            QVERIFY(chart && f.window->showPage(id));
            QApplication::processEvents();
            for (const QSize size : {QSize(), QSize(960, 540)}) {
                if (size.isValid())
                    chart->layOutAt(size);
                const QJsonObject layout = ui::describeChart(*chart);
                QVERIFY2(layout[QStringLiteral("empty")].toString().contains(says),
                         qPrintable(id + u": "_s + layout[QStringLiteral("empty")].toString()));
                QVERIFY2(layout[QStringLiteral("series")].toArray().isEmpty(), qPrintable(id));
                QVERIFY2(layout[QStringLiteral("lines")].toArray().isEmpty(), qPrintable(id));
                for (const QJsonValue& label : layout[QStringLiteral("labels")].toArray())
                    QVERIFY2(label[QStringLiteral("kind")].toString() != u"callout"_s,
                             qPrintable(id + label[QStringLiteral("text")].toString()));
                QVERIFY(!chart->xAxis->visible() && !chart->yAxis->visible());
            }
            chart->layOutAt(chart->rect().size());
        }
        // Runnable again, the figures come back.
        change({{"model", "llama-3.1-8b"}, {"weights", "q4_k_m"}});
        for (const QString& id :
             {QStringLiteral("tokens"), QStringLiteral("breakeven"), QStringLiteral("latency")}) {
            const QJsonObject layout = ui::describeChart(*chartWithId(id));
            QVERIFY(!layout.contains(QStringLiteral("empty")));
            QVERIFY(!layout[QStringLiteral("series")].toArray().isEmpty());
        }
        f.window->setLanguage(QStringLiteral("en"));
    }

    // Where only the KV cache is short (Llama 3.1 70B on two H100s at 32K x 8), the tokens that
    // fit are the shortfall the chart exists to show: bars under the context line, not "does
    // not run"; the headline's longest context is the model's own bar.
    void tokensFitShowsTheShortfallWhereOnlyTheKvCacheIsShort()
    {
        changeToOnlyTheKvShort();
        const ui::EvaluationSnapshot& snap = f.controller->snapshot();
        QVERIFY(!snap.verdict.runs);
        QCOMPARE(snap.verdict.binding, Binding::KvCache);
        ui::renderWindow(*f.window, *f.controller, QSize(1280, 800));
        ui::ChartBase* chart = chartWithId(u"tokens"_s);
        QVERIFY(chart && f.window->showPage(u"tokens"_s));
        QApplication::processEvents();
        const QJsonObject layout = ui::describeChart(*chart);
        QVERIFY(!layout.contains(QStringLiteral("empty")));
        QVERIFY(!layout[QStringLiteral("series")].toArray().isEmpty());
        const int64_t own = snap.evaluation.tokensFit.perSequence;
        QVERIFY(own > 0 && own < snap.scenario.context);
        bool named = false;
        for (const QJsonValue& label : layout[QStringLiteral("labels")].toArray())
            named = named ||
                    label[QStringLiteral("text")].toString() == QLocale().toString(qlonglong(own));
        QVERIFY2(named, "the model's bar carries its own figure");
    }

    // The context line, dragged over the bars, never runs through a bar's value: above a bar or
    // inside its top, the value keeps off it (MLA's 22,017 under an 8,192-token context had the
    // line through its digits at 1920x1080). Every context from 1K to 1M tokens, at the laptop's
    // and the projector's size.
    void barValuesKeepOffTheContextLine()
    {
        change({{"model", "deepseek-r1"},
                {"gpu", "h200"},
                {"gpus", "8"},
                {"weights", "fp8"},
                {"engine", "sglang"}});
        for (const QSize window : {QSize(1280, 800), QSize(1920, 1080)}) {
            ui::renderWindow(*f.window, *f.controller, window);
            ui::ChartBase* chart = chartWithId(u"tokens"_s);
            QVERIFY(chart && f.window->showPage(u"tokens"_s));
            for (int context = 1024; context <= (1 << 20); context = context * 5 / 4) {
                change({{"context", std::to_string(context)}});
                QApplication::processEvents();
                chart->replot(QCustomPlot::rpImmediateRefresh);
                const QJsonObject layout = layoutAt(chart, QSize());
                const QJsonArray lines = layout[QStringLiteral("lines")].toArray();
                for (const QJsonValue& value : layout[QStringLiteral("labels")].toArray()) {
                    const QRectF box = rectOf(value[QStringLiteral("rect")]).adjusted(1, 1, -1, -1);
                    for (const QJsonValue& line : lines) {
                        const QRectF segment = QRectF(pointOf(line[QStringLiteral("from")]),
                                                      pointOf(line[QStringLiteral("to")]))
                                                   .normalized()
                                                   .adjusted(0, 0, 0.01, 0.01);
                        QVERIFY2(!box.intersects(segment),
                                 qPrintable(u"\"%1\" crossed by a line at %2 tokens, %3x%4"_s
                                                .arg(value[QStringLiteral("text")].toString())
                                                .arg(context)
                                                .arg(window.width())
                                                .arg(window.height())));
                    }
                }
            }
        }
    }

    // A bar's value moved inside its bar reads on the bar's colour (white vanished on the light
    // lavender of the MQA bar): every such value, on every bar.
    void valuesInsideBarsReadOnThem()
    {
        changeToOnlyTheKvShort();
        ui::renderWindow(*f.window, *f.controller, QSize(1280, 800));
        ui::ChartBase* chart = chartWithId(u"tokens"_s);
        QVERIFY(chart && f.window->showPage(u"tokens"_s));
        QApplication::processEvents();
        int inside = 0;
        for (int i = 0; i < chart->itemCount(); ++i) {
            auto* text = qobject_cast<QCPItemText*>(chart->item(i));
            if (!text || !text->visible() || text->brush().style() != Qt::NoBrush ||
                !(text->positionAlignment() & Qt::AlignTop))
                continue;
            const double key = text->position->coords().x();
            for (int p = 0; p < chart->plottableCount(); ++p) {
                auto* bars = qobject_cast<QCPBars*>(chart->plottable(p));
                if (!bars || bars->data()->findBegin(key - 0.01, false) ==
                                 bars->data()->findEnd(key + 0.01, false))
                    continue;
                ++inside;
                const QColor fill = bars->brush().color();
                QVERIFY2(ui::contrastRatio(text->color(), fill) >= 3.0,
                         qPrintable(u"%1 on %2"_s.arg(text->text(), fill.name())));
            }
        }
        QVERIFY(inside > 0); // the MQA bar's 15,536 sits inside it here
    }

    // With every layer's KV in CPU RAM (llama.cpp -ngl 0) the GPU's free memory limits no
    // context: the KV chart's line is the GPU's free memory, not "free for KV" (the headline says
    // "unbounded").
    void kvChartSaysTheGpuLimitsNothingWithTheKvOnTheHost()
    {
        change({{"model", "llama-3.1-8b"},
                {"weights", "q4_k_m"},
                {"engine", "llamacpp"},
                {"n-gpu-layers", "0"}});
        QCOMPARE(f.controller->snapshot().evaluation.tokensFit.room, KvRoom::NotOnGpu);
        ui::renderWindow(*f.window, *f.controller, QSize(1280, 800));
        ui::ChartBase* chart = chartWithId(u"kv"_s);
        QVERIFY(chart && f.window->showPage(u"kv"_s));
        QApplication::processEvents();
        QStringList texts;
        for (const QJsonValue& label : ui::describeChart(*chart)[u"labels"_s].toArray())
            texts << label[u"text"_s].toString().replace(u'\n', u' ');
        QVERIFY2(texts.join(u'|').contains(u"GPU free: "_s), qPrintable(texts.join(u'|')));
        QVERIFY2(!texts.join(u'|').contains(u"free for KV"_s), qPrintable(texts.join(u'|')));
    }

    // The decode-time chart draws no time with the KV cache on the GPU past the longest context
    // the GPU holds at the scenario's batch, and marks a context that does not fit on the axis,
    // at no time (it drew the whole curve and a point on it at 32K).
    void decodeTimesStopWhereTheGpuCannotHoldTheKv()
    {
        changeToOnlyTheKvShort();
        const ui::EvaluationSnapshot& snap = f.controller->snapshot();
        QVERIFY(!snap.verdict.runs);
        ui::renderWindow(*f.window, *f.controller, QSize(1280, 800));
        ui::ChartBase* chart = chartWithId(u"latency"_s);
        QVERIFY(chart && f.window->showPage(u"latency"_s));
        QApplication::processEvents();
        const double holds = double(snap.evaluation.tokensFit.perSequence);
        bool sawGpu = false;
        for (int g = 0; g < chart->graphCount(); ++g) {
            const QCPGraph* curve = chart->graph(g);
            if (curve->name() != u"KV on GPU"_s)
                continue;
            sawGpu = true;
            QVERIFY(!curve->data()->isEmpty());
            QVERIFY2((curve->data()->constEnd() - 1)->key <= holds,
                     qPrintable(QString::number((curve->data()->constEnd() - 1)->key)));
        }
        QVERIFY(sawGpu);
        const double bottom = chart->yAxis->range().lower;
        bool marked = false;
        for (int g = 0; g < chart->graphCount(); ++g) {
            const QCPGraph* curve = chart->graph(g);
            if (curve->dataCount() == 1 && curve->data()->constBegin()->key == 32768) {
                marked = true;
                QVERIFY(curve->data()->constBegin()->value < bottom * 2);
            }
        }
        QVERIFY(marked);
    }

    // The serving chart's engines in hues of their own: vLLM, llama.cpp and TGI apart from each
    // other and from transformers' purples (two teals and two lavenders once met).
    void servingEnginesAreDistinct()
    {
        const QColor apart[] = {ui::colors::engines[0], ui::colors::engines[2],
                                ui::colors::engines[3], ui::colors::engines[4]};
        for (int a = 0; a < 4; ++a)
            for (int b = a + 1; b < 4; ++b) {
                const int hues = std::abs(apart[a].hslHue() - apart[b].hslHue());
                QVERIFY2(std::min(hues, 360 - hues) >= 30, qPrintable(QString::number(hues)));
            }
        // Lines on the white plot at 3:1 or more (the static cache's pale purple pairs with the
        // dynamic one's and is drawn over it, not alone).
        for (const QColor& engine : apart)
            QVERIFY2(ui::contrastRatio(engine, Qt::white) >= 3.0, qPrintable(engine.name()));
    }

    // The three storage tiers in three hues, each drawn as it is (no ink adjustment) on the light
    // and the dark plot, so they stay apart in both (three teals once met in the middle).
    void storageTiersAreDistinctInBothThemes()
    {
        const QColor tiers[] = {ui::colors::cpuRam, ui::colors::nvme, ui::colors::sata};
        for (const QPalette& palette : {QPalette(Qt::white), ui::darkPalette()}) {
            const ui::ChartStyle style =
                ui::ChartStyle::fromPalette(palette, QApplication::font(), 1.0);
            for (const QColor& tier : tiers)
                QCOMPARE(style.ink(tier), tier);
        }
        for (int a = 0; a < 3; ++a)
            for (int b = a + 1; b < 3; ++b) {
                const int hues = std::abs(tiers[a].hslHue() - tiers[b].hslHue());
                QVERIFY2(std::min(hues, 360 - hues) >= 30, qPrintable(QString::number(hues)));
            }
        // Darker for the faster tier.
        QVERIFY(ui::relativeLuminance(tiers[0]) < ui::relativeLuminance(tiers[1]));
        QVERIFY(ui::relativeLuminance(tiers[1]) < ui::relativeLuminance(tiers[2]));
    }
};

KVSCOPE_TEST_SUITE(TestChartLabels, "tst_chart_labels", kvscope::test::SuiteApp::Widgets)
#include "tst_chart_labels.moc"
