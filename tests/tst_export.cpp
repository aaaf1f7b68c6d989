// SPDX-License-Identifier: GPL-3.0-or-later
// Exports and files: every chart in every format (checked by opening it), the report PDF in
// English and Japanese on A4 and Letter, CSV data, scenario files through the document, failed
// writes that leave the old file alone, the headless CLI, settings round-trips, and the view
// registry as the window, the report, the CLI and Export data all read it.

#include "charts/chart_base.h"
#include "charts/chart_set.h"
#include "charts/view_registry.h"
#include "cli.h"
#include "cli_render.h"
#include "export/chart_export.h"
#include "export/layout_file.h"
#include "export/report_pagination.h"
#include "export/report_writer.h"
#include "export/source_names.h"
#include "kvscope/evaluation/sweep.h"
#include "kvscope/settings/scenario_file.h"
#include "pdf_text.h"
#include "suite_registry.h"
#include "testutils.h"
#include "window/app_settings.h"
#include "window/language.h"
#include "window/main_window.h"
#include "window/scenario_document.h"
#include "window/ui_text.h"
#include "window_fixture.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QGridLayout>
#include <QImage>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextTable>
#include <QTimer>

#include <cmath>
#include <sstream>

using namespace kvscope;
using namespace kvscope::ui;
using namespace Qt::StringLiterals;
using kvscope::test::readAll;

namespace {

// The text of one page of a PDF (1-based), "" past the end or without pdftotext.
QString pdfPageText(const QString& path, int page)
{
    const QString tool = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
    if (tool.isEmpty())
        return {};
    QProcess process;
    process.start(tool,
                  {QStringLiteral("-f"), QString::number(page), QStringLiteral("-l"),
                   QString::number(page), QStringLiteral("-layout"), path, QStringLiteral("-")});
    process.waitForFinished(30000);
    return QString::fromUtf8(process.readAllStandardOutput())
        .normalized(QString::NormalizationForm_KC);
}

QString pdfInfo(const QString& path)
{
    const QString tool = QStandardPaths::findExecutable(QStringLiteral("pdfinfo"));
    if (tool.isEmpty())
        return {};
    QProcess process;
    process.start(tool, {path});
    process.waitForFinished(30000);
    return QString::fromUtf8(process.readAllStandardOutput());
}

} // namespace

class TestExport : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void everyChartEveryFormat_data();
    void everyChartEveryFormat();
    void svgAnchorsCentredText_data();
    void svgAnchorsCentredText();
    void printPaletteEvenWhenDark();
    void labelsFollowTheExportSize();
    void report_data();
    void report();
    void pagesKeepRowsAndHeadingsWhole();
    void titleBreaksBetweenNames();
    void sourcesByPublisher_data();
    void sourcesByPublisher();
    void everyCatalogSourceHasAPublisher();
    void csvHoldsEverySeries();
    void scenarioDocumentRoundTrip();
    void failedWriteKeepsOldFile();
    void headlessCli_data();
    void headlessCli();
    void settingsRoundTrip();
    void registryView_data();
    void registryView();
    void helpListsTheRegistryCharts();
    void reportPagesFollowTheRegistry();
    void darkExportIsDark();
    void verdictGatesTheReportsFigures_data();
    void verdictGatesTheReportsFigures();
    void reportChartsKeepTheirPlots_data();
    void reportChartsKeepTheirPlots();
    void japaneseReportTakesNoMorePages();

private:
    QTemporaryDir m_dir;
    test::WindowFixture m_fixture;
    ScenarioController* m_controller = nullptr;
    MainWindow* m_window = nullptr;
};

void TestExport::initTestCase()
{
    QVERIFY(m_dir.isValid());
    if (QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty())
        qWarning("pdftotext (poppler-utils) is missing: PDF text checks will skip");
}

void TestExport::init()
{
    m_fixture.open();
    m_controller = m_fixture.controller.get();
    m_window = m_fixture.window.get();
}

void TestExport::cleanup()
{
    m_fixture.close();
}

void TestExport::everyChartEveryFormat_data()
{
    QTest::addColumn<QString>("chart");
    QTest::addColumn<QString>("format");
    QTest::addColumn<double>("scale");
    QTest::addColumn<QString>("expectedText"); // a legend or axis text the file must hold
    // Every view of the registry; those listed here must also hold a text of their own.
    const QMap<QString, QString> texts{{u"vram"_s, u"KV cache"_s},
                                       {u"tokens"_s, u"MQA"_s},
                                       {u"kv"_s, u"GQA (8 KV heads)"_s},
                                       {u"latency"_s, u"CPU RAM, pipelined"_s},
                                       {u"breakeven"_s, u"reload from NVMe"_s}};
    for (const ViewEntry& view : viewRegistry()) {
        const QString chart = QString::fromLatin1(view.id);
        const QString text = texts.value(chart, view.translatedTitle());
        QTest::addRow("%s png", view.id) << chart << "png" << 1.0 << text;
        QTest::addRow("%s png 2x", view.id) << chart << "png" << 2.0 << text;
        QTest::addRow("%s svg", view.id) << chart << "svg" << 1.0 << text;
        QTest::addRow("%s pdf", view.id) << chart << "pdf" << 1.0 << text;
    }
}

void TestExport::everyChartEveryFormat()
{
    QFETCH(QString, chart);
    QFETCH(QString, format);
    QFETCH(double, scale);
    QFETCH(QString, expectedText);
    ChartBase* c = m_window->chart(chart);
    QVERIFY(c);
    ChartExportOptions options;
    QVERIFY(parseExportFormat(format, &options.format));
    options.width = 900;
    options.height = 560;
    options.scale = scale;
    const QString path =
        m_dir.filePath(QStringLiteral("%1-%2.%3").arg(chart).arg(scale).arg(format));
    QString error;
    QVERIFY2(exportChart(*c, path, options, &error), qPrintable(error));
    const QByteArray bytes = readAll(path);
    QVERIFY(!bytes.isEmpty());

    if (format == QLatin1String("png")) {
        QImage image;
        QVERIFY(image.loadFromData(bytes, "PNG"));
        QCOMPARE(image.size(), QSize(int(900 * scale), int(560 * scale)));
        QCOMPARE(image.pixelColor(2, 2), QColor(Qt::white)); // the print palette's background
    } else if (format == QLatin1String("svg")) {
        QSvgRenderer renderer(bytes);
        QVERIFY(renderer.isValid());
        QCOMPARE(renderer.viewBox(), QRect(0, 0, 900, 560));
        // The series (and the fit matrix's cells) are vectors.
        QVERIFY(bytes.count("<path") + bytes.count("<polyline") + bytes.count("<rect") >= 5);
        QVERIFY2(QString::fromUtf8(bytes).contains(expectedText), "the SVG holds its text as text");
        // The line under the title names the scenario; the window's chart does not keep it.
        const QString subtitle =
            UiText::scenarioSubtitle(m_controller->snapshot().scenario).toHtmlEscaped();
        QVERIFY2(QString::fromUtf8(bytes).contains(subtitle), qPrintable(subtitle));
        QCOMPARE(c->plotLayout()->rowCount(), 3);
    } else {
        QVERIFY(bytes.startsWith("%PDF"));
        const QString text = test::pdfText(path);
        if (text.isEmpty())
            QSKIP("pdftotext is not installed");
        QVERIFY2(text.contains(c->chartTitle()), qPrintable(text.left(400)));
        QVERIFY2(text.contains(expectedText), qPrintable(text.left(400)));
        QVERIFY2(
            text.contains(QString::fromStdString(m_controller->snapshot().scenario.model.name)),
            qPrintable(text.left(400)));
    }
}

void TestExport::svgAnchorsCentredText_data()
{
    QTest::addColumn<QString>("chart");
    for (const ViewEntry& view : viewRegistry())
        QTest::addRow("%s", view.id) << QString::fromLatin1(view.id);
}

// A viewer that substitutes the font keeps a centred title centred only if the SVG says so:
// every title line and horizontal axis title is a <text> anchored at its middle, at the centre
// the layout file gives its box (the chart laid out at the export's size).
void TestExport::svgAnchorsCentredText()
{
    QFETCH(QString, chart);
    ChartBase* c = m_window->chart(chart);
    QVERIFY(c);
    ChartExportOptions options;
    options.format = ExportFormat::Svg;
    options.width = 900;
    options.height = 560;
    options.subtitle = false;
    const QString svg = QString::fromUtf8(chartSvg(*c, options, c->chartTitle()));
    c->layOutAt(QSize(900, 560));
    const QJsonObject layout = describeChart(*c);
    c->layOutAt(c->rect().size());
    static const QRegularExpression textElement(QStringLiteral("<text\\b([^>]*)>([^<]*)</text>"));
    static const QRegularExpression xAttribute(QStringLiteral("\\bx=\"([-0-9.eE]+)\""));
    int checked = 0;
    for (const QJsonValue& value : layout[u"labels"_s].toArray()) {
        const QJsonObject label = value.toObject();
        const QJsonArray rect = label[u"rect"_s].toArray();
        const bool horizontal = rect[2].toDouble() > rect[3].toDouble();
        if (label[u"kind"_s] == u"callout"_s || !horizontal)
            continue;
        const double centre = rect[0].toDouble() + rect[2].toDouble() / 2;
        for (const QString& line : label[u"text"_s].toString().split(QLatin1Char('\n'))) {
            bool found = false;
            for (auto it = textElement.globalMatch(svg); it.hasNext() && !found;) {
                const QRegularExpressionMatch m = it.next();
                if (m.captured(2) != line.toHtmlEscaped())
                    continue;
                found = m.captured(1).contains(u"text-anchor=\"middle\""_s) &&
                        std::abs(xAttribute.match(m.captured(1)).captured(1).toDouble() - centre) <=
                            1.0;
            }
            QVERIFY2(found, qPrintable(u"%1: \"%2\" centred at %3"_s.arg(chart, line).arg(centre)));
            ++checked;
        }
    }
    QVERIFY(checked >= 1); // at least the title
}

void TestExport::printPaletteEvenWhenDark()
{
    m_window->setTheme(QStringLiteral("dark"));
    ChartBase* c = m_window->chart(u"latency"_s);
    QVERIFY(c->chartStyle().isDark());
    ChartExportOptions options;
    options.width = 600;
    QCOMPARE(chartImage(*c, options).pixelColor(2, 2), QColor(Qt::white));
    QVERIFY(c->chartStyle().isDark()); // the window keeps its own palette
    options.printPalette = false;
    QVERIFY(chartImage(*c, options).pixelColor(2, 2).lightnessF() < 0.5);
    m_window->setTheme(QStringLiteral("light"));
}

// The boxes of a chart's visible labels, in pixels of its current layout.
static QList<QRectF> labelBoxes(ChartBase& chart)
{
    QList<QRectF> boxes;
    for (QCPItemText* text : chart.visibleLabels())
        boxes << ChartBase::labelBox(text);
    return boxes;
}

void TestExport::labelsFollowTheExportSize()
{
    // Llama 3.1 70B on one H100 overflows: the VRAM chart stacks its overflow and capacity
    // labels beside the bar, and the reload chart has crossings near both edges. Labels placed
    // in pixels must fit the size an export draws at, not the window's.
    m_controller->edit([](Scenario& s) {
        s.model = test::model("llama-3.1-70b");
        s.gpu = test::gpu("h100-sxm");
    });
    m_controller->evaluateNow();
    for (ChartBase* chart : m_window->charts()) {
        const QSize window = chart->rect().size();
        for (const QSize& size : {QSize(480, 300), QSize(1600, 1000)}) {
            chart->layOutAt(size);
            const QList<QRectF> boxes = labelBoxes(*chart);
            const QString where = QStringLiteral("%1 at %2x%3")
                                      .arg(chart->chartId())
                                      .arg(size.width())
                                      .arg(size.height());
            for (int i = 0; i < boxes.size(); ++i) {
                QVERIFY2(QRectF(QPointF(0, 0), size).contains(boxes[i]), qPrintable(where));
                for (int j = 0; j < i; ++j)
                    QVERIFY2(!boxes[i].intersects(boxes[j]), qPrintable(where));
            }
        }
        // Exporting at another size leaves the window's own placement as it was.
        chart->layOutAt(window);
        const QList<QRectF> before = labelBoxes(*chart);
        ChartExportOptions options;
        options.width = 480;
        options.height = 300;
        QVERIFY(!chartImage(*chart, options).isNull());
        QCOMPARE(labelBoxes(*chart), before);
    }
    QVERIFY(labelBoxes(*m_window->chart(u"vram"_s)).size() >= 2);
    // The reload chart of a scenario that does not run is its note alone; on two H100s it runs,
    // and each tier's crossing has its label.
    QCOMPARE(labelBoxes(*m_window->chart(u"breakeven"_s)).size(), 1);
    QVERIFY(!m_window->chart(u"breakeven"_s)->emptyNote().isEmpty());
    m_controller->edit([](Scenario& s) { s.gpuCount = 2; });
    m_controller->evaluateNow();
    QVERIFY(m_window->chart(u"breakeven"_s)->emptyNote().isEmpty());
    QCOMPARE(labelBoxes(*m_window->chart(u"breakeven"_s)).size(), 3);
}

void TestExport::report_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<int>("page");
    QTest::addColumn<QStringList>("expected");
    QTest::addRow("english a4") << "en" << int(QPageSize::A4)
                                << QStringList{u"Inputs"_s,
                                               u"Context length"_s,
                                               u"2,048 tokens"_s,
                                               u"VRAM per GPU"_s,
                                               u"Tokens that fit"_s,
                                               u"KV cache vs context length"_s,
                                               u"Reload a saved KV cache vs recompute it"_s,
                                               u"Decode time per token by KV placement"_s,
                                               u"Assumptions"_s,
                                               u"16.0 KiB"_s,
                                               u"Summary"_s,
                                               u"Inputs and the sources of their numbers"_s,
                                               u"WareDB"_s};
    QTest::addRow("japanese letter") << u"ja"_s << int(QPageSize::Letter)
                                     << QStringList{u"概要"_s,
                                                    u"入力条件と数値の出典"_s,
                                                    u"コンテキスト"_s,
                                                    u"格納できるトークン数"_s,
                                                    u"KV キャッシュの配置別"_s,
                                                    u"前提条件"_s};
}

void TestExport::report()
{
    QFETCH(QString, language);
    QFETCH(int, page);
    QFETCH(QStringList, expected);
    m_window->setLanguage(language);
    m_controller->evaluateNow();
    const QString path = m_dir.filePath(QStringLiteral("report-%1.pdf").arg(language));
    ReportOptions options;
    options.pageSize = QPageSize::PageSizeId(page);
    QString error;
    QVERIFY2(ReportWriter::write(m_controller->snapshot(), test::catalog(), m_window->charts(),
                                 path, options, &error),
             qPrintable(error));
    QVERIFY(readAll(path).startsWith("%PDF"));
    const QString text = test::pdfText(path);
    if (text.isEmpty())
        QSKIP("pdftotext is not installed");
    QVERIFY(text.contains(QStringLiteral("Llama 2 7B")));
    // A title in a sixth of a page may wrap, and a column beside it shares its lines: every
    // word of a needle must be on the page.
    for (const QString& needle : expected)
        for (const QString& word : needle.split(QLatin1Char(' ')))
            QVERIFY2(text.contains(word), qPrintable(needle));
    const QString info = pdfInfo(path);
    // The summary, inputs and figures; six charts; the plan over the assumptions; the matrix:
    // the seed scenario takes four A4 pages in either language (Letter is shorter: five).
    const QRegularExpressionMatch pages =
        QRegularExpression(QStringLiteral("Pages:\\s+(\\d+)")).match(info);
    QVERIFY2(pages.hasMatch(), qPrintable(info));
    QVERIFY2(pages.captured(1).toInt() == 4 ||
                 (page == QPageSize::Letter && pages.captured(1).toInt() == 5),
             qPrintable(info));
    QVERIFY2(
        info.contains(page == QPageSize::Letter ? QStringLiteral("letter") : QStringLiteral("A4")),
        qPrintable(info));
    m_window->setLanguage(QStringLiteral("en"));
}

// Qt breaks a table between the lines of its cells: a label on one page, its arithmetic on the
// next. The report moves such a row to the next page whole, repeats a table's header there, and
// keeps a heading on the page of what it heads.
void TestExport::pagesKeepRowsAndHeadingsWhole()
{
    QString html = u"<h2>Inputs</h2><table width='100%'>"_s;
    for (int i = 0; i < 60; ++i)
        html += u"<tr><td width='24%'>row %1</td><td>%2</td></tr>"_s.arg(i).arg(
            QStringList(i % 4 + 1, u"a line of arithmetic"_s).join(u"<br>"_s));
    html += u"</table><h2>Comparison</h2><p>Each figure.</p><table width='100%'>"
            u"<thead><tr><td></td><td>A</td><td>B</td></tr></thead><tbody>"_s;
    for (int i = 0; i < 40; ++i)
        html += u"<tr><td>figure %1</td><td>1.0 GiB<br>+5 %</td><td>2.0 GiB</td></tr>"_s.arg(i);
    html += u"</tbody></table>"_s;
    QTextDocument doc;
    doc.setHtml(html);
    doc.setPageSize(QSizeF(500, 420));
    QVERIFY(splitsATableRow(doc)); // as Qt lays it out
    keepTogetherAcrossPages(doc);
    QVERIFY(!splitsATableRow(doc));
    const double page = doc.pageSize().height();
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().headingLevel() == 0 || !block.next().isValid())
            continue;
        const QRectF heading = doc.documentLayout()->blockBoundingRect(block);
        const QRectF next = doc.documentLayout()->blockBoundingRect(block.next());
        QVERIFY2(std::floor(heading.top() / page) == std::floor(next.bottom() / page),
                 qPrintable(block.text()));
    }
    int headed = 0;
    for (QTextFrame* frame : doc.rootFrame()->childFrames())
        if (auto* table = qobject_cast<QTextTable*>(frame))
            headed += table->format().headerRowCount();
    QCOMPARE(headed, 1); // the comparison's names, from <thead>
}

void TestExport::sourcesByPublisher_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("name");
    QTest::addRow("vllm repository")
        << u"https://github.com/vllm-project/vllm/blob/main/vllm/config.py"_s << u"vLLM (GitHub)"_s;
    QTest::addRow("llama.cpp repository")
        << u"https://github.com/ggml-org/llama.cpp/discussions/4167"_s << u"llama.cpp (GitHub)"_s;
    QTest::addRow("other repository") << u"https://github.com/geerlingguy/ai-benchmarks/issues/21"_s
                                      << u"ai-benchmarks (GitHub)"_s;
    QTest::addRow("raw file") << u"https://raw.githubusercontent.com/NVIDIA/nccl/master/README.md"_s
                              << u"nccl (GitHub)"_s;
    QTest::addRow("model card") << u"https://huggingface.co/meta-llama/Llama-2-7b-hf"_s
                                << u"meta-llama/Llama-2-7b-hf (Hugging Face)"_s;
    QTest::addRow("model file") << u"https://huggingface.co/Qwen/Qwen3-14B/blob/main/config.json"_s
                                << u"Qwen/Qwen3-14B (Hugging Face)"_s;
    QTest::addRow("hub docs") << u"https://huggingface.co/docs/transformers/main/en/llm_tutorial"_s
                              << u"Hugging Face transformers documentation"_s;
    QTest::addRow("vllm docs") << u"https://docs.vllm.ai/en/latest/serving/engine_args.html"_s
                               << u"vLLM documentation"_s;
    QTest::addRow("nvidia") << u"https://developer.nvidia.com/blog/mastering-llm-techniques/"_s
                            << u"NVIDIA"_s;
    QTest::addRow("nvidia forums")
        << u"https://forums.developer.nvidia.com/t/123"_s << u"NVIDIA Developer Forums"_s;
    QTest::addRow("www dropped")
        << u"https://www.techpowerup.com/gpu-specs/geforce-rtx-4090.c3889"_s << u"TechPowerUp"_s;
    QTest::addRow("catalog site") << u"https://waredb.com/processor/nvidia-geforce-rtx-4090"_s
                                  << u"WareDB"_s;
    QTest::addRow("catalog subdomain")
        << u"https://english.worldmagazine.it/a/b"_s << u"World Magazine"_s;
    QTest::addRow("unknown site") << u"https://blog.example-bench.net/a"_s
                                  << u"example-bench.net"_s;
    QTest::addRow("country second level")
        << u"https://www.example.com.au/products/x"_s << u"example.com.au"_s;
}

// The report names each source by who published it, never by host and path fragment
// ("github.com: 54").
void TestExport::sourcesByPublisher()
{
    QFETCH(QString, url);
    QFETCH(QString, name);
    QCOMPARE(publisherName(QUrl(url)), name);
}

// Every web page the catalog cites is named by its publisher in a report, never by a bare
// domain ("gamebastion.com"): a new source needs its publisher's name too.
void TestExport::everyCatalogSourceHasAPublisher()
{
    const QDir root(QStringLiteral(KVSCOPE_TEST_DATA_DIR "/.."));
    QStringList unnamed;
    int sources = 0;
    for (const char* dir : {"resources", "models"}) {
        QDirIterator files(root.filePath(QLatin1String(dir)), {QStringLiteral("*.json")},
                           QDir::Files, QDirIterator::Subdirectories);
        while (files.hasNext()) {
            const QString text = QString::fromUtf8(readAll(files.next()));
            static const QRegularExpression source(
                QStringLiteral("\"source\"\\s*:\\s*\"(https?://[^\"\\s]+)"));
            for (const QRegularExpressionMatch& m : source.globalMatch(text)) {
                const QUrl url(m.captured(1));
                const QString host = url.host().toLower().remove(QRegularExpression(u"^www\\."_s));
                ++sources;
                if (publisherName(url) == host && !unnamed.contains(host))
                    unnamed << host;
            }
        }
    }
    QVERIFY(sources > 300);
    QVERIFY2(unnamed.isEmpty(), qPrintable(unnamed.join(u", ")));
}

void TestExport::csvHoldsEverySeries()
{
    const QString path = m_dir.filePath(QStringLiteral("data.csv"));
    QVERIFY(m_window->exportData(path));
    const QStringList lines = QString::fromUtf8(readAll(path)).split(u'\n', Qt::SkipEmptyParts);
    QVERIFY(lines.front().startsWith(QStringLiteral("context,kv_per_gpu_bytes,")));
    // The views' columns together are every column of the sweep, in the sweep's order: the
    // file is the one `kvscope-cli sweep --csv` writes.
    QCOMPARE(readAll(path),
             QByteArray::fromStdString(sweepToCsv(m_controller->snapshot().contextSweep)));
    for (const char* series :
         {"decode_ms_gpu", "decode_ms_sata", "tokens_fit_mqa", "reload_ms_cpu", "recompute_ms"})
        QVERIFY2(lines.front().contains(QLatin1String(series)), series);
    QCOMPARE(lines.size() - 1, int(m_controller->snapshot().contextSweep.x.size()));
    // Every row: Llama 2 7B holds 524,288 B of KV per token of context.
    for (int i = 1; i < lines.size(); ++i) {
        const QStringList cells = lines[i].split(u',');
        QCOMPARE(cells[1].toDouble(), cells[0].toDouble() * 524288.0);
    }
}

void TestExport::scenarioDocumentRoundTrip()
{
    ScenarioDocument* doc = m_window->document();
    QVERIFY(!doc->isModified());
    m_controller->edit([](Scenario& s) {
        s.context = 32768;
        s.model = test::model("llama-3.1-8b");
    });
    QVERIFY(doc->isModified());
    QVERIFY(m_window->isWindowModified());
    const QString path = m_dir.filePath(QStringLiteral("saved.kvscope.json"));
    QVERIFY(doc->saveTo(path));
    QVERIFY(!doc->isModified());
    const std::string saved = scenarioToText(m_controller->scenario());
    m_controller->edit([](Scenario& s) { s.context = 4096; });
    QVERIFY(doc->isModified());
    QVERIFY(doc->open(path));
    QCOMPARE(scenarioToText(m_controller->scenario()), saved);
    QCOMPARE(doc->path(), path);
}

void TestExport::failedWriteKeepsOldFile()
{
    // A missing directory: a clean failure with a reason.
    ChartExportOptions options;
    QString error;
    QVERIFY(!exportChart(*m_window->chart(u"vram"_s), m_dir.filePath(u"missing/dir/chart.png"_s),
                         options, &error));
    QVERIFY(!error.isEmpty());
    // A file whose directory takes no new files (even for root): the old content survives.
    const QString guarded = QStringLiteral("/proc/version");
    const QByteArray before = readAll(guarded);
    QVERIFY(!before.isEmpty());
    QVERIFY(!exportChart(*m_window->chart(u"vram"_s), guarded, options, &error));
    QCOMPARE(readAll(guarded), before);
    // Saving the scenario there fails too, with a message box (closed here) and no damage.
    QTimer::singleShot(200, [] {
        if (QWidget* box = QApplication::activeModalWidget())
            box->close();
    });
    QVERIFY(!m_window->document()->saveTo(guarded));
    QCOMPARE(readAll(guarded), before);
    QVERIFY(m_window->document()->isModified() || m_window->document()->path().isEmpty());
}

void TestExport::headlessCli_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("file");
    QTest::addRow("report") << QStringList{u"report"_s, u"--out"_s} << u"cli-report.pdf"_s;
    QTest::addRow("export png") << QStringList{u"export"_s, u"--chart"_s, u"vram"_s, u"--format"_s,
                                               u"png"_s,    u"--width"_s, u"800"_s,  u"--height"_s,
                                               u"500"_s,    u"--out"_s}
                                << "cli-vram.png";
    QTest::addRow("export svg ja") << QStringList{u"export"_s, u"--chart"_s, u"kv"_s, u"--format"_s,
                                                  u"svg"_s,    u"--lang"_s,  u"ja"_s, u"--out"_s}
                                   << "cli-kv.svg";
    // The hatched overflow bar once crashed the CLI on its way out, after the file was written.
    QTest::addRow("overflow report") << QStringList{u"report"_s, u"--model"_s,  u"llama-3.1-70b"_s,
                                                    u"--gpu"_s,  u"h100-sxm"_s, u"--out"_s}
                                     << "cli-overflow.pdf";
    QTest::addRow("overflow png") << QStringList{u"export"_s,   u"--chart"_s,       u"vram"_s,
                                                 u"--format"_s, u"png"_s,           u"--width"_s,
                                                 u"800"_s,      u"--height"_s,      u"500"_s,
                                                 u"--model"_s,  u"llama-3.1-70b"_s, u"--gpu"_s,
                                                 u"h100-sxm"_s, u"--out"_s}
                                  << "cli-overflow.png";
}

void TestExport::headlessCli()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, file);
    QProcess cli;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("QT_QPA_PLATFORM")); // the CLI must choose offscreen by itself
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    cli.setProcessEnvironment(env);
    const QString path = m_dir.filePath(file);
    cli.start(QStringLiteral(KVSCOPE_CLI_EXECUTABLE), arguments << path);
    QVERIFY(cli.waitForFinished(60000));
    QVERIFY2(cli.exitStatus() == QProcess::NormalExit && cli.exitCode() == 0,
             cli.readAllStandardError().constData());
    const QByteArray bytes = readAll(path);
    if (file.endsWith(QLatin1String(".png"))) {
        QImage image;
        QVERIFY(image.loadFromData(bytes));
        QCOMPARE(image.size(), QSize(800, 500));
    } else if (file.endsWith(QLatin1String(".svg"))) {
        QVERIFY(QSvgRenderer(bytes).isValid());
        QVERIFY(QString::fromUtf8(bytes).contains(QStringLiteral("コンテキスト長")));
    } else {
        QVERIFY(bytes.startsWith("%PDF"));
    }
    // A bad value is refused with one line naming the option.
    QProcess bad;
    bad.setProcessEnvironment(env);
    bad.start(QStringLiteral(KVSCOPE_CLI_EXECUTABLE),
              {u"export"_s, u"--chart"_s, u"pie"_s, u"--format"_s, u"png"_s, u"--out"_s, path});
    QVERIFY(bad.waitForFinished(60000));
    QCOMPARE(bad.exitCode(), 2);
    QVERIFY(bad.readAllStandardError().startsWith("kvscope-cli: --chart: got pie"));
}

void TestExport::settingsRoundTrip()
{
    const QString path = m_dir.filePath(QStringLiteral("settings.ini"));
    {
        QSettings store(path, QSettings::IniFormat);
        AppSettings settings(&store);
        settings.setLanguage(QStringLiteral("ja"));
        settings.setUnits(QStringLiteral("si"));
        settings.setTheme(QStringLiteral("dark"));
        settings.setLastScenario(QString::fromStdString(scenarioToText(m_controller->scenario())));
        settings.setValue(AppSettings::Keys::geometry, QByteArray("geometry-bytes"));
    }
    QSettings store(path, QSettings::IniFormat);
    AppSettings settings(&store);
    QCOMPARE(store.value(AppSettings::Keys::version).toInt(), AppSettings::currentVersion);
    QCOMPARE(settings.language(), QStringLiteral("ja"));
    QCOMPARE(settings.units(), QStringLiteral("si"));
    QCOMPARE(settings.theme(), QStringLiteral("dark"));
    QCOMPARE(settings.value(AppSettings::Keys::geometry), QByteArray("geometry-bytes"));
    auto restored = scenarioFromText(settings.lastScenario().toStdString(), test::catalog());
    QVERIFY(restored.ok());
    QCOMPARE(scenarioToText(*restored), scenarioToText(m_controller->scenario()));
    // A setter emits only on change.
    int changes = 0;
    connect(&settings, &AppSettings::unitsChanged, [&] { ++changes; });
    settings.setUnits(QStringLiteral("si"));
    settings.setUnits(QStringLiteral("binary"));
    QCOMPARE(changes, 1);
}

void TestExport::registryView_data()
{
    QTest::addColumn<int>("index");
    for (size_t i = 0; i < viewRegistry().size(); ++i)
        QTest::addRow("%s", viewRegistry()[i].id) << int(i);
}

// Each registry entry: one chart in the window, in its grid cell, exported by the CLI in-process.
void TestExport::registryView()
{
    QFETCH(int, index);
    const ViewEntry& view = viewRegistry()[size_t(index)];
    QCOMPARE(m_window->charts().size(), viewRegistry().size());
    ChartBase* chart = m_window->charts()[size_t(index)];
    QCOMPARE(chart->view(), &view);
    QCOMPARE(chart->chartId(), QString::fromLatin1(view.id));
    QCOMPARE(m_window->chart(QString::fromLatin1(view.id)), chart);
    QCOMPARE(chart->chartTitle(), view.translatedTitle());
    QVERIFY(!chart->chartTitle().isEmpty());

    if (view.page == ViewPage::Charts) {
        QGridLayout* grid = nullptr;
        for (QGridLayout* g : m_window->findChildren<QGridLayout*>())
            if (g->indexOf(chart) >= 0)
                grid = g;
        QVERIFY(grid);
        int row = -1, column = -1, rowSpan = -1, columnSpan = -1;
        grid->getItemPosition(grid->indexOf(chart), &row, &column, &rowSpan, &columnSpan);
        QCOMPARE(row, view.grid.row);
        QCOMPARE(column, view.grid.column);
        QCOMPARE(rowSpan, view.grid.rowSpan);
        QCOMPARE(columnSpan, view.grid.columnSpan);
    } else {
        // A page of its own: opening it shows the view, drawn for the current scenario.
        QVERIFY(!chart->isVisible());
        QVERIFY(m_window->showPage(QString::fromLatin1(view.id)));
        QApplication::processEvents();
        QVERIFY(chart->isVisible());
        QVERIFY(!chart->tableCsv().isEmpty());
        QVERIFY(m_window->showPage(QStringLiteral("charts")));
    }

    cli::registerRenderCommand();
    const QString path =
        m_dir.filePath(QStringLiteral("registry-%1.svg").arg(QString::fromLatin1(view.id)));
    std::ostringstream out, err;
    const int code = cli::run({"export", "--chart", view.cliId, "--format", "svg", "--width", "800",
                               "--height", "500", "--out", path.toStdString()},
                              test::catalog(), out, err);
    QVERIFY2(code == 0, err.str().c_str());
    QCOMPARE(QString::fromStdString(out.str()), path + u'\n');
    const QByteArray svg = readAll(path);
    QVERIFY(QSvgRenderer(svg).isValid());
    QVERIFY(QString::fromUtf8(svg).contains(view.translatedTitle()));
}

void TestExport::helpListsTheRegistryCharts()
{
    cli::registerRenderCommand();
    std::ostringstream out, err;
    QCOMPARE(cli::run({"--help"}, test::catalog(), out, err), 0);
    const QRegularExpressionMatch usage =
        QRegularExpression(QStringLiteral("export --chart (\\S+) "))
            .match(QString::fromStdString(out.str()));
    QVERIFY2(usage.hasMatch(), out.str().c_str());
    QStringList expected;
    for (const std::string& id : cliChartIds())
        expected << QString::fromStdString(id);
    QCOMPARE(usage.captured(1).split(QLatin1Char('|')), expected);
    // A value outside the registry is refused with the registry's values, in its order.
    std::ostringstream out2, err2;
    QCOMPARE(cli::run({"export", "--chart", "pie", "--format", "png", "--out", "x.png"},
                      test::catalog(), out2, err2),
             2);
    for (const std::string& id : cliChartIds())
        QVERIFY2(err2.str().find(id) != std::string::npos, err2.str().c_str());
}

// The report's chart pages are the ones the registry's ReportSpace implies, in registry order.
void TestExport::reportPagesFollowTheRegistry()
{
    // Consecutive views of one space share a page: six sixths, two halves, one full page.
    std::vector<std::vector<const ViewEntry*>> expected;
    for (const ViewEntry& view : viewRegistry()) {
        const size_t capacity = view.report == ReportSpace::SixthPage  ? 6
                                : view.report == ReportSpace::HalfPage ? 2
                                                                       : 1;
        const bool joins = !expected.empty() && expected.back().front()->report == view.report &&
                           expected.back().size() < capacity;
        if (joins)
            expected.back().push_back(&view);
        else
            expected.push_back({&view});
    }
    QCOMPARE(expected.front().size(), size_t(6)); // the six grid views on one page
    const std::vector<ChartSet> pages = ReportWriter::chartPages(m_window->charts());
    QCOMPARE(pages.size(), expected.size());
    for (size_t p = 0; p < pages.size(); ++p) {
        QCOMPARE(pages[p].size(), expected[p].size());
        for (size_t i = 0; i < pages[p].size(); ++i)
            QCOMPARE(pages[p][i]->view(), expected[p][i]);
    }

    const QString path = m_dir.filePath(QStringLiteral("registry-report.pdf"));
    QString error;
    QVERIFY2(ReportWriter::write(m_controller->snapshot(), test::catalog(), m_window->charts(),
                                 path, ReportOptions{}, &error),
             qPrintable(error));
    if (pdfPageText(path, 1).isEmpty())
        QSKIP("pdftotext is not installed");
    // The first chart page is the first after the title page that holds all of its titles.
    auto holdsTitles = [&](int page, const std::vector<const ViewEntry*>& views) {
        const QString text = pdfPageText(path, page);
        // Every word of each title (a title in a sixth of a page may wrap).
        return std::all_of(views.begin(), views.end(), [&](const ViewEntry* v) {
            const QStringList words = v->translatedTitle().split(QLatin1Char(' '));
            return std::all_of(words.begin(), words.end(),
                               [&](const QString& w) { return text.contains(w); });
        });
    };
    int first = 2;
    while (first < 10 && !holdsTitles(first, expected.front()))
        ++first;
    for (size_t p = 0; p < expected.size(); ++p)
        QVERIFY2(holdsTitles(first + int(p), expected[p]),
                 qPrintable(QStringLiteral("page %1").arg(first + int(p))));
    // The assumptions sit under the charts of the first page that leaves half of it free (the
    // plan's), and on no other chart page.
    size_t withRoom = 0;
    while (withRoom < pages.size() && !ReportWriter::leavesHalfPageFree(pages[withRoom]))
        ++withRoom;
    QVERIFY(withRoom < pages.size());
    for (size_t p = 0; p < pages.size(); ++p)
        QCOMPARE(pdfPageText(path, first + int(p)).contains(QStringLiteral("Assumptions")),
                 p == withRoom);
}

// `export --dark` draws on the dark palette's background, not the print palette's white.
void TestExport::darkExportIsDark()
{
    for (const bool dark : {false, true}) {
        const QString path = m_dir.filePath(QStringLiteral("dark-%1.png").arg(dark));
        QStringList arguments{u"export"_s, u"--chart"_s, u"vram"_s, u"--format"_s,
                              u"png"_s,    u"--out"_s,   path};
        if (dark)
            arguments << QStringLiteral("--dark");
        QProcess cli;
        cli.start(QStringLiteral(KVSCOPE_CLI_EXECUTABLE), arguments);
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 0);
        QImage image;
        QVERIFY(image.load(path));
        const double corner = image.pixelColor(2, 2).lightnessF();
        QVERIFY2(dark ? corner < 0.3 : corner > 0.9, qPrintable(QString::number(corner)));
    }
}

void TestExport::verdictGatesTheReportsFigures_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<bool>("runs");
    QTest::newRow("runs") << QStringList{} << true;
    QTest::newRow("overflows")
        << QStringList{u"model=llama-3.1-70b"_s, u"gpu=h100-sxm"_s,  u"gpus=2"_s,
                       u"engine=vllm"_s,         u"context=32768"_s, u"batch=8"_s}
        << false;
    QTest::newRow("host RAM short")
        << QStringList{u"model=gpt-oss-120b"_s, u"gpu=rtx-4090"_s, u"engine=llamacpp"_s,
                       u"n-cpu-moe=36"_s, u"host-ram-gib=32"_s}
        << false;
    QTest::newRow("weights overflow") << QStringList{u"model=gpt-oss-120b"_s, u"gpu=rtx-4090"_s,
                                                     u"engine=llamacpp"_s, u"context=32768"_s}
                                      << false;
    // The KV cache in host RAM: GPU memory limits no context, and no ceiling is a figure.
    QTest::newRow("llama.cpp -ngl 0") << QStringList{u"model=llama-3.1-8b"_s, u"weights=q4_k_m"_s,
                                                     u"engine=llamacpp"_s, u"n-gpu-layers=0"_s}
                                      << true;
    // Far past the model's trained 8K: the count comes with the model's limit beside it.
    QTest::newRow("past the model")
        << QStringList{u"model=llama-3-8b"_s, u"gpu=h100-sxm"_s} << true;
}

// A scenario that does not run shows no decode speed and no first-token time on any report
// page, in either language; one that runs shows both.
void TestExport::verdictGatesTheReportsFigures()
{
    QFETCH(QStringList, options);
    QFETCH(bool, runs);
    std::vector<std::pair<std::string, std::string>> changes;
    for (const QString& o : options)
        changes.emplace_back(o.section(u'=', 0, 0).toStdString(), o.section(u'=', 1).toStdString());
    QVERIFY(m_fixture.change(changes));
    const EvaluationSnapshot& snap = m_controller->snapshot();
    QCOMPARE(snap.verdict.runs, runs);
    for (const QString& language : {u"en"_s, u"ja"_s}) {
        m_window->setLanguage(language);
        const QString html = ReportWriter::keyFiguresHtml(snap, ByteUnits::Binary) +
                             ReportWriter::figuresHtml(snap, ByteUnits::Binary);
        const QString speed = UiText::tokensPerSecond(snap.evaluation.decode.tokensPerS);
        const QString ttft = UiText::duration(snap.verdict.ttftMs);
        QCOMPARE(html.contains(u'>' + speed), runs);
        QCOMPARE(html.contains(u'>' + ttft + u'<'), runs);
        // The fit figure follows the verdict: no plain "fits" where host RAM is short.
        const QString plainFit =
            ReportWriter::tr("fits, %1 free")
                .arg(UiText::bytes(snap.evaluation.vram.freeBytes, ByteUnits::Binary));
        QCOMPARE(html.contains(u'>' + plainFit + u'<'), runs);
        // No sentinel: where no context runs, the longest context is a dash, not "0 tokens";
        // where GPU memory limits none, no ceiling (100,000,000 tokens) stands as a figure.
        const TokensFit& fit = snap.evaluation.tokensFit;
        if (fit.perSequence <= 0)
            QVERIFY2(!html.contains(u'>' + UiText::tokens(0) + u'<'), qPrintable(language));
        QVERIFY2(!html.contains(UiText::integer(limits::maxContext)), qPrintable(language));
        // A count past the model's trained maximum names that maximum, as the window's tile does.
        const int64_t trained = snap.scenario.model.maxContext;
        if (!fit.contextUnbounded(fit.perSequence) && trained > 0 && fit.perSequence > trained)
            QVERIFY2(html.contains(UiText::contextShort(double(trained))) &&
                         !html.contains(u'>' + UiText::tokens(fit.perSequence) + u'<'),
                     qPrintable(language));
    }
    m_window->setLanguage(u"en"_s);
}

KVSCOPE_TEST_SUITE(TestExport, "tst_export", kvscope::test::SuiteApp::FusionFixed)

void TestExport::reportChartsKeepTheirPlots_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<QStringList>("options");
    const QStringList runs;
    const QStringList tooLarge{u"model=llama-3.1-70b"_s, u"gpu=h100-sxm"_s,  u"gpus=2"_s,
                               u"engine=vllm"_s,         u"context=32768"_s, u"batch=8"_s};
    const QStringList moe{u"model=gpt-oss-120b"_s, u"gpu=rtx-4090"_s, u"engine=llamacpp"_s};
    for (const QString& language : {u"en"_s, u"ja"_s}) {
        QTest::addRow("%s runs", qPrintable(language)) << language << runs;
        QTest::addRow("%s runs letter", qPrintable(language))
            << language << QStringList{u"page=letter"_s};
        QTest::addRow("%s too large", qPrintable(language)) << language << tooLarge;
        QTest::addRow("%s moe", qPrintable(language)) << language << moe;
    }
}

// Every chart of the report keeps a plot, not a strip under its title and legend: the Japanese
// decode chart's five long legend rows once left it 10 pixels, shared with a page of text.
void TestExport::reportChartsKeepTheirPlots()
{
    QFETCH(QString, language);
    QFETCH(QStringList, options);
    std::vector<std::pair<std::string, std::string>> changes;
    ReportOptions report;
    for (const QString& o : options)
        if (o == u"page=letter"_s)
            report.pageSize = QPageSize::Letter;
        else
            changes.emplace_back(o.section(u'=', 0, 0).toStdString(),
                                 o.section(u'=', 1).toStdString());
    QVERIFY(changes.empty() || m_fixture.change(changes));
    m_window->setLanguage(language);
    m_controller->evaluateNow();
    std::vector<ReportChartPlot> plots;
    report.plots = &plots;
    QString error;
    QVERIFY2(ReportWriter::write(m_controller->snapshot(), test::catalog(), m_window->charts(),
                                 m_dir.filePath(u"plots.pdf"_s), report, &error),
             qPrintable(error));
    QVERIFY(plots.size() >= 6);
    for (const ReportChartPlot& p : plots)
        QVERIFY2(p.plotShare >= 0.3,
                 qPrintable(u"%1 on page %2: plot %3 of its slot"_s.arg(p.view).arg(p.page).arg(
                     p.plotShare, 0, 'f', 2)));
}

// The heading breaks between the model and the GPU, never inside a name ("NVIDIA GeForce RTX" /
// "3090" was a Japanese report's first page), and a slash ends its line.
void TestExport::titleBreaksBetweenNames()
{
    Scenario s = m_controller->scenario();
    s.model.name = "Llama 3.1 8B";
    s.gpu.name = "NVIDIA GeForce RTX 3090";
    const QString ja = ReportWriter::headingText(
        QStringLiteral("kvscope レポート: Llama 3.1 8B / NVIDIA GeForce RTX 3090 \u00D7 1"), s);
    QString expected = QStringLiteral("kvscope レポート: Llama~3.1~8B~/ NVIDIA~GeForce~RTX~3090~"
                                      "\u00D7~1");
    expected.replace(QLatin1Char('~'), QChar(0x00A0));
    QCOMPARE(ja, expected);
    // A name longer than a line may break anywhere, or it would run off the page.
    s.gpu.name = std::string(60, 'x') + " " + std::string(10, 'y');
    const QString longName = ReportWriter::headingText(
        QStringLiteral("kvscope report: A on 1 \u00D7 ") + QString::fromStdString(s.gpu.name), s);
    QVERIFY(longName.contains(QStringLiteral("x y")));
}

// The Japanese report of a scenario takes no more pages than the English one: set at Noto Sans
// CJK's own line spacing, Llama 3.1 70B on two H100s took five against four, its arithmetic
// alone on page 2.
void TestExport::japaneseReportTakesNoMorePages()
{
    QVERIFY(m_fixture.change({{"model", "llama-3.1-70b"},
                              {"gpu", "h100-sxm"},
                              {"gpus", "2"},
                              {"engine", "vllm"},
                              {"context", "32768"},
                              {"batch", "8"}}));
    int pages[2] = {};
    for (int i = 0; i < 2; ++i) {
        const QString language = i == 0 ? u"en"_s : u"ja"_s;
        m_window->setLanguage(language);
        m_controller->evaluateNow();
        const QString path = m_dir.filePath(u"pages-%1.pdf"_s.arg(language));
        QString error;
        QVERIFY2(ReportWriter::write(m_controller->snapshot(), test::catalog(), m_window->charts(),
                                     path, ReportOptions{}, &error),
                 qPrintable(error));
        const QString info = pdfInfo(path);
        const QRegularExpressionMatch match =
            QRegularExpression(QStringLiteral("Pages:\\s+(\\d+)")).match(info);
        if (!match.hasMatch())
            QSKIP("pdfinfo is not installed");
        pages[i] = match.captured(1).toInt();
    }
    m_window->setLanguage(u"en"_s);
    QVERIFY2(pages[1] <= pages[0],
             qPrintable(u"Japanese %1 pages, English %2"_s.arg(pages[1]).arg(pages[0])));
}

#include "tst_export.moc"
