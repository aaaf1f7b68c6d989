// SPDX-License-Identifier: GPL-3.0-or-later
// What a chart pasted into a slide or a report says without the window around it: axes in
// human units with one format per axis, SVG fonts any viewer resolves, the 16:9 slide size, and
// a fit matrix that keeps only the rows and columns it has room to name.
#include "charts/chart_base.h"
#include "charts/fit_matrix_chart.h"
#include "export/chart_export.h"
#include "suite_registry.h"
#include "window_fixture.h"

#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>

using namespace kvscope;
using namespace kvscope::ui;
using namespace Qt::StringLiterals;

class TestSlideExport : public QObject
{
    Q_OBJECT

private slots:
    void init() { m_fixture.open(); }
    void cleanup() { m_fixture.close(); }
    void axesSayTheirUnits_data();
    void axesSayTheirUnits();
    void svgFontsEndInAGenericFamily();
    void slidePresetIsSixteenByNine();
    void matrixKeepsWhatItCanName();
    void everyViewFillsTheSlide_data();
    void everyViewFillsTheSlide();

private:
    QStringList tickLabels(const char* view, bool yAxis = true)
    {
        ChartBase* chart = m_fixture.window->chart(QString::fromLatin1(view));
        chart->replot(QCustomPlot::rpImmediateRefresh);
        return (yAxis ? chart->yAxis : chart->xAxis)->tickVectorLabels().toList();
    }

    test::WindowFixture m_fixture;
    QTemporaryDir m_dir;
};

void TestSlideExport::axesSayTheirUnits_data()
{
    QTest::addColumn<QString>("view");
    QTest::addColumn<QString>("context");
    QTest::addColumn<QString>("pattern"); // every tick label of the value axis
    // Times in the unit that reads best, never "10M ms"; sizes as "10 MiB", never "0.00001".
    const QString time = QStringLiteral("^[\\d,]+ (ms|s|min|h)$");
    QTest::addRow("decode, 2K") << "latency"
                                << "2048" << time;
    QTest::addRow("decode, 1M") << "latency"
                                << "1048576" << time;
    QTest::addRow("reload, 1M") << "breakeven"
                                << "1048576" << time;
    QTest::addRow("kv, 2K") << "kv"
                            << "2048" << QStringLiteral("^\\d+ (B|KiB|MiB|GiB|TiB)$");
    // Counts: 1, 10, 100, 1K, 10K — never "1,000" beside "10K".
    QTest::addRow("tokens") << "tokens"
                            << "2048" << QStringLiteral("^(\\d{1,3}|\\d+[KMGT])$");
}

void TestSlideExport::axesSayTheirUnits()
{
    QFETCH(QString, view);
    QFETCH(QString, context);
    QFETCH(QString, pattern);
    QVERIFY(m_fixture.change({{"context", context.toStdString()}}));
    const QStringList labels = tickLabels(view.toLatin1().constData());
    QVERIFY2(labels.size() >= 3, qPrintable(labels.join(QLatin1Char('|'))));
    const QRegularExpression re(pattern);
    for (const QString& label : labels)
        QVERIFY2(re.match(label).hasMatch(), qPrintable(labels.join(QLatin1Char('|'))));
    QVERIFY(!m_fixture.window->chart(view)->yAxis->label().contains(QLatin1String("(ms)")));
}

void TestSlideExport::svgFontsEndInAGenericFamily()
{
    ChartBase* chart = m_fixture.window->chart(QStringLiteral("kv"));
    const QString svg =
        QString::fromUtf8(chartSvg(*chart, ChartExportOptions{}, chart->chartTitle()));
    QVERIFY(QSvgRenderer(svg.toUtf8()).isValid());
    const QRegularExpression family(QStringLiteral("font-family=\"([^\"]*)\""));
    int seen = 0;
    for (auto it = family.globalMatch(svg); it.hasNext(); ++seen) {
        const QString value = it.next().captured(1);
        QVERIFY2(value.endsWith(QLatin1String("sans-serif")), qPrintable(value));
        QVERIFY2(!value.contains(QLatin1String("Sans Serif")), qPrintable(value));
    }
    QVERIFY(seen > 10);
    // The title stays one text element, not a word per element.
    QVERIFY(svg.contains(QStringLiteral(">KV cache vs context length</text>")));
}

void TestSlideExport::slidePresetIsSixteenByNine()
{
    // The window's menu and the CLI's --slide share one preset.
    const ChartExportOptions slide = slideExportOptions(ExportFormat::Png);
    QCOMPARE(QSize(slide.width, slide.height), QSize(960, 540));
    const QString path = m_dir.filePath(QStringLiteral("slide.png"));
    QProcess cli;
    cli.start(QStringLiteral(KVSCOPE_CLI_EXECUTABLE),
              {u"export"_s, u"--chart"_s, u"latency"_s, u"--format"_s, u"png"_s, u"--slide"_s,
               u"--out"_s, path});
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 0);
    QImage image;
    QVERIFY(image.load(path));
    QCOMPARE(image.size(), QSize(1920, 1080));
    // An explicit size still wins over the preset's.
    const QString wide = m_dir.filePath(QStringLiteral("wide.svg"));
    cli.start(QStringLiteral(KVSCOPE_CLI_EXECUTABLE),
              {u"export"_s, u"--chart"_s, u"kv"_s, u"--format"_s, u"svg"_s, u"--slide"_s,
               u"--width"_s, u"1280"_s, u"--out"_s, wide});
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 0);
    QFile file(wide);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(QSvgRenderer(file.readAll()).viewBox(), QRect(0, 0, 1280, 540));
}

void TestSlideExport::matrixKeepsWhatItCanName()
{
    auto* chart = qobject_cast<FitMatrixChart*>(m_fixture.window->chart(QStringLiteral("matrix")));
    QVERIFY(chart);
    // A report page's size: the rows it can give a line each, the scenario's model among them.
    // (The matrix draws only once shown or exported.)
    chart->layOutAt(QSize(682, 1011));
    const size_t models = chart->matrix().rowIds.size();
    const QStringList rows = chart->yAxis->tickVectorLabels().toList();
    QVERIFY2(rows.size() > 10 && size_t(rows.size()) < models,
             qPrintable(QString::number(rows.size())));
    QVERIFY(rows.contains(QStringLiteral("Llama 2 7B")));
    const int line = QFontMetrics(chart->yAxis->tickLabelFont()).height();
    QVERIFY2(
        chart->axisRect()->height() / rows.size() >= line,
        qPrintable(
            QStringLiteral("%1 rows in %2 px").arg(rows.size()).arg(chart->axisRect()->height())));
    QVERIFY(chart->xAxis2->label().contains(QStringLiteral("of %1 models").arg(models)));
    // The CSV still holds every cell.
    QCOMPARE(QString::fromUtf8(chart->tableCsv()).count(QLatin1Char('\n')),
             qsizetype(models * chart->matrix().columnIds.size() + 1));
    chart->layOutAt(chart->rect().size());
}

void TestSlideExport::everyViewFillsTheSlide_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("gpu");
    QTest::newRow("runs") << u"llama-3.1-8b"_s << u"rtx-4090"_s;
    QTest::newRow("does not run") << u"llama-3.1-70b"_s << u"rtx-4090"_s;
}

// Laid out at the slide's size, every view spans its width, whether it draws curves or only says
// why it cannot (an empty legend once held the serving chart to 55 % of the slide).
void TestSlideExport::everyViewFillsTheSlide()
{
    QFETCH(QString, model);
    QFETCH(QString, gpu);
    QVERIFY(m_fixture.change({{"model", model.toStdString()}, {"gpu", gpu.toStdString()}}));
    const QSize slide(960, 540);
    for (ChartBase* chart : m_fixture.window->charts()) {
        chart->layOutAt(slide);
        const QRect plot = chart->axisRect()->outerRect();
        QVERIFY2(plot.width() >= slide.width() - 24,
                 qPrintable(u"%1: %2 px wide"_s.arg(chart->chartId()).arg(plot.width())));
        chart->layOutAt(chart->rect().size());
    }
}

KVSCOPE_TEST_SUITE(TestSlideExport, "tst_slide_export", kvscope::test::SuiteApp::Widgets)
#include "tst_slide_export.moc"
