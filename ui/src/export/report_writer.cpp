// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/report_writer.h"

#include "charts/chart_base.h"
#include "charts/line_breaks.h"
#include "charts/view_registry.h"
#include "export/chart_export.h"
#include "export/report_pagination.h"
#include "export/source_names.h"
#include "kvscope/scenario/parallel_layout.h"
#include "panels/compare_page.h"
#include "panels/planner_text.h"
#include "window/language.h"
#include "window/ui_text.h"

#include <QBuffer>
#include <QDate>
#include <QFontDatabase>
#include <QLocale>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSaveFile>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QUrl>

#include <cmath>
#include <functional>
#include <iterator>

namespace kvscope::ui {

namespace {

// Layout units: the writer runs at 96 dpi, so one unit is one screen pixel.
constexpr int kDpi = 96;
constexpr double kMargin = 56;

QString esc(const std::string& text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

QString row(const QString& label, const QString& value, const QString& detail = QString())
{
    // Fixed shares of the width, the same in every table: the arithmetic and the sources get
    // nearly half, so they wrap less.
    return QStringLiteral(
               "<tr><td width='24%' style='color:#444'>%1</td><td width='30%'><b>%2</b></td>"
               "<td width='46%' style='color:#222; font-size:8.5pt'>%3</td></tr>")
        .arg(label, value, detail);
}

QString table(const QString& rows)
{
    return QStringLiteral(
               "<table width='100%' cellspacing='0' cellpadding='2' border='0'>%1</table>")
        .arg(rows);
}

// A source by name: a web page by its publisher (publisherName(); the address stays the link),
// a note as written.
QString link(const std::string& source)
{
    if (source.empty())
        return QStringLiteral("—");
    const QString s = QString::fromStdString(source);
    const qsizetype end = s.indexOf(QLatin1Char(' '));
    const QUrl url(end < 0 ? s : s.left(end));
    // A default kvscope fitted itself cites the file of measurements it was fitted on.
    if (s.startsWith(QLatin1String("resources/")))
        return ReportWriter::tr("kvscope's %1")
            .arg(s.section(QLatin1Char('/'), -1).toHtmlEscaped());
    if (!url.isValid() || !url.scheme().startsWith(QLatin1String("http")) || url.host().isEmpty())
        return s.toHtmlEscaped();
    return QStringLiteral("<a href='%1'>%2</a>%3")
        .arg(url.toString().toHtmlEscaped(), publisherName(url).toHtmlEscaped(),
             end < 0 ? QString() : s.mid(end).toHtmlEscaped());
}

// A text's last page that holds no more than this share of a page is a near-empty page: the
// text is set up to a point smaller when that saves the page.
constexpr double kShortLastPage = 0.2;

// Paints `doc` (paginated for `page`) from the top of the current page over as many pages as
// it takes, breaking pages with `newPage`.
void paintDocument(QTextDocument& doc, QPainter& painter, const std::function<void()>& newPage,
                   const QRectF& page, bool newPageFirst)
{
    if (doc.pageSize() != page.size())
        paginate(doc, page.size());
    for (int i = 0; i < doc.pageCount(); ++i) {
        if (i > 0 || newPageFirst)
            newPage();
        painter.save();
        painter.translate(page.left(), page.top() - i * page.height());
        doc.drawContents(&painter, QRectF(0, i * page.height(), page.width(), page.height()));
        painter.restore();
    }
}

ReportSpace spaceOf(const ChartBase* chart)
{
    return chart->view() ? chart->view()->report : ReportSpace::SixthPage;
}

// How many views of a kind share a page.
size_t perPage(ReportSpace space)
{
    switch (space) {
    case ReportSpace::SixthPage:
        return 6;
    case ReportSpace::HalfPage:
        return 2;
    case ReportSpace::FullPage:
        break;
    }
    return 1;
}

// Where the i-th view of a page goes: sixths fill two columns row by row, halves stack.
QRectF slotOf(const ChartSet& page, size_t i, const QRectF& content, double gap)
{
    switch (spaceOf(page.front())) {
    case ReportSpace::SixthPage: {
        const double w = (content.width() - gap) / 2, h = (content.height() - 2 * gap) / 3;
        return {content.left() + double(i % 2) * (w + gap),
                content.top() + double(i / 2) * (h + gap), w, h};
    }
    case ReportSpace::HalfPage: {
        const double h = (content.height() - gap) / 2;
        return {content.left(), content.top() + double(i) * (h + gap), content.width(), h};
    }
    case ReportSpace::FullPage:
        break;
    }
    return content;
}

// Qt's text layout breaks a line wherever Unicode allows, which in Japanese is between any two
// letters (デ|コード, 示しま|す); a word joiner, or a no-break space, holds together each place
// lineBreaks() keeps whole, as the charts' labels do.
void joinForbiddenBreaks(QTextDocument& doc)
{
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        const QString text = block.text();
        const std::vector<qsizetype> joins = forbiddenBreaks(text);
        QTextCursor cursor(block);
        for (auto it = joins.rbegin(); it != joins.rend(); ++it) {
            cursor.setPosition(block.position() + int(*it));
            if (text[*it - 1] == QLatin1Char(' ')) {
                cursor.movePosition(QTextCursor::Left, QTextCursor::KeepAnchor);
                cursor.insertText(QString(QChar(0x00A0)));
            } else {
                cursor.insertText(QString(QChar(0x2060)));
            }
        }
    }
}

std::unique_ptr<QTextDocument> htmlDocument(const QString& html, const QFont& font)
{
    auto doc = std::make_unique<QTextDocument>();
    doc->setDefaultFont(font);
    doc->setDefaultStyleSheet(
        QStringLiteral("h1 { font-size: 14pt; } h2 { font-size: 12pt; margin-top: 10px; } "
                       "td { vertical-align: top; } a { color: #0057a3; }"));
    doc->setHtml(html);
    joinForbiddenBreaks(*doc);
    return doc;
}

} // namespace

QString ReportWriter::inputsHtml(const Scenario& s)
{
    // Each input beside the source its catalog numbers were read from.
    QString rows;
    rows += row(tr("Model"),
                esc(s.model.name) + (s.model.imported ? tr(" (imported config.json)") : QString()),
                link(s.model.source));
    rows += row(tr("Architecture"),
                tr("%1 layers, %2 query heads, %3 KV heads, head_dim %4, %5")
                    .arg(QString::number(s.model.layers), QString::number(s.model.queryHeads),
                         QString::number(s.model.kvHeads), QString::number(s.model.headDim),
                         UiText::attentionName(s.model.attentionKind())),
                QString());
    rows += row(tr("Weights"),
                esc(s.weights.name) +
                    tr(" (%1 bits per weight)").arg(UiText::compact(s.weights.bitsPerWeight)),
                link(s.weights.source));
    rows += row(tr("KV cache dtype"),
                esc(s.kvDtype.name) +
                    tr(" (%1 bits per element)").arg(UiText::compact(s.kvDtype.bitsPerElement)),
                link(s.kvDtype.source));
    rows += row(tr("GPU"),
                tr("%1 × %2 (%3 GiB, %4)")
                    .arg(QString::number(s.gpuCount), esc(s.gpu.name),
                         UiText::compact(s.gpu.memoryGiB), UiText::rate(s.gpu.bandwidthGBps)),
                link(s.gpu.source));
    if (s.nodes > 1)
        rows += row(tr("Nodes"),
                    tr("%1 nodes over %2: tensor parallel over %3 GPUs, %4 pipeline stages")
                        .arg(QString::number(s.nodes), esc(s.nodeLink.name),
                             QString::number(tensorWays(s)), QString::number(pipelineWays(s))),
                    link(s.nodeLink.source));
    rows += row(tr("Host link"),
                tr("PCIe %1.0 x%2").arg(QString::number(s.pcie.gen), QString::number(s.pcieLanes)),
                link(s.pcie.source));
    rows += row(tr("Context length"), UiText::tokens(s.context), QString());
    rows += row(tr("Concurrent sequences"), UiText::integer(s.batch), QString());
    rows += row(tr("Engine"), esc(s.engine.name), link(s.engine.source));
    rows += row(tr("KV cache placement"), UiText::placementName(s.kvPlacement), QString());
    rows +=
        row(tr("GPU memory fraction"), UiText::number(s.effectiveMemoryFraction(), 2), QString());
    rows += row(tr("NVMe drive"), esc(s.nvme.name), link(s.nvme.source));
    rows += row(tr("SATA drive"), esc(s.sata.name), link(s.sata.source));
    rows += row(tr("Host memory"),
                s.hostMemoryGBps ? tr("%1 (stated)").arg(UiText::rate(*s.hostMemoryGBps))
                                 : UiText::hostMemoryName(s.hostMemory.name).toHtmlEscaped(),
                s.hostMemoryGBps ? QString() : link(s.hostMemory.source));
    return table(rows);
}

QString ReportWriter::figuresHtml(const EvaluationSnapshot& snap, ByteUnits units)
{
    const Scenario& s = snap.scenario;
    const Evaluation& e = snap.evaluation;
    const auto all = UiText::explanations(s, e, units);
    // A number keeps its unit or noun on its line ("16.0 KiB", "2,048 トークン"); lines break
    // around the operators instead.
    static const QRegularExpression numberThenWord(QStringLiteral("(\\d) (?=[^\\s×÷+−=\\-(\\d])"));
    auto why = [&](const char* id) {
        return UiText::arithmetic(all, id)
            .replace(numberThenWord, QStringLiteral("\\1\u00A0"))
            .toHtmlEscaped();
    };
    auto bytes = [&](double b) { return UiText::bytes(b, units); };
    QString rows;
    rows += row(tr("KV per token"), bytes(e.kv.bytesPerToken), why("kv_per_token"));
    rows += row(tr("KV cache total"), bytes(e.kv.totalBytes), why("kv_total"));
    rows += row(tr("Weights"), bytes(e.weightsBytesTotal), why("weights"));
    const QString capacity = why("capacity");
    rows += row(tr("VRAM per GPU"), fitText(snap, units),
                capacity.isEmpty() ? why("fit") : capacity + QLatin1String("<br>") + why("fit"));
    // What cannot run has no speed: the would-be figure stays in the arithmetic beside it.
    const bool runs = snap.verdict.runs;
    // Its arithmetic too: "= 44.7 ms -> 179 tokens/s" beside "does not run" was a figure.
    rows += row(tr("Decode"),
                runs ? tr("%1 per token, %2 tokens/s")
                           .arg(UiText::duration(e.decode.selectedMs),
                                UiText::tokensPerSecond(e.decode.tokensPerS))
                     : tr("does not run"),
                runs ? why("decode") : QString());
    if (runs)
        rows += row(tr("Measured against this"), UiText::decodeBandRange(s), UiText::decodeBand(s));
    rows += row(tr("Time to first token"),
                runs ? UiText::duration(snap.verdict.ttftMs) : tr("does not run"),
                runs ? why("ttft") : QString());
    if (e.vram.expertsOffloadedBytes > 0) { // llama.cpp --n-cpu-moe
        rows += row(tr("Experts in host RAM"),
                    tr("%1 of %2 MoE layers, %3")
                        .arg(UiText::integer(e.engine.expertLayersOnHost),
                             UiText::integer(e.engine.moeLayers),
                             bytes(e.vram.expertsOffloadedBytes * double(s.gpuCount))),
                    why("experts_offloaded"));
        rows += row(tr("CPU share of a decode step"), UiText::duration(e.decode.hostExpertsMs),
                    why("host_experts"));
    }
    rows += row(tr("PCIe effective"), UiText::rate(e.decode.pcieEffectiveGBps), why("pcie"));
    rows += row(tr("Longest context"), longestContextText(e), why("longest_context"));
    return table(rows);
}

// The longest context each sequence holds; "—" where none runs, as the window's tile says it.
QString ReportWriter::longestContextText(const Evaluation& e)
{
    const int64_t n = e.tokensFit.perSequence;
    return n > 0 ? UiText::tokens(n) : QStringLiteral("—");
}

// Whether the scenario's memory fits, as the verdict says it: VRAM that fits with host RAM short
// does not read "fits".
QString ReportWriter::fitText(const EvaluationSnapshot& snap, ByteUnits units)
{
    const VramSplit& v = snap.evaluation.vram;
    const Verdict& verdict = snap.verdict;
    if (!v.fits)
        return tr("overflows by %1").arg(UiText::bytes(-v.freeBytes, units));
    if (verdict.binding == Binding::HostRam && !verdict.runs)
        return tr("fits, %1 free; host RAM short by %2")
            .arg(UiText::bytes(v.freeBytes, units), UiText::bytes(verdict.shortBytes(), units));
    return tr("fits, %1 free").arg(UiText::bytes(v.freeBytes, units));
}

QString ReportWriter::keyFiguresHtml(const EvaluationSnapshot& snap, ByteUnits units)
{
    const Evaluation& e = snap.evaluation;
    auto bytes = [&](double b) { return UiText::bytes(b, units); };
    const bool runs = snap.verdict.runs;
    const QString none = QStringLiteral("—");
    const std::pair<QString, QString> figures[] = {
        {tr("VRAM per GPU"), fitText(snap, units)},
        {tr("Weights"), bytes(e.weightsBytesTotal)},
        {tr("KV cache per GPU"), bytes(e.kv.totalBytes)},
        // What cannot run has no speed.
        {tr("Decode"),
         runs ? tr("%1 tokens/s").arg(UiText::tokensPerSecond(e.decode.tokensPerS)) : none},
        {tr("Time to first token"), runs ? UiText::duration(snap.verdict.ttftMs) : none},
        {tr("Longest context"), longestContextText(e)},
    };
    // Three to a row, each a caption over its value, as the window's headline strip shows them.
    // Caption and value in paragraphs of their own: after a line break a value takes the script
    // of the Japanese caption before it, and with it the CJK font, in some cells and not others.
    QString cells;
    for (size_t i = 0; i < std::size(figures); ++i) {
        if (i % 3 == 0)
            cells += QStringLiteral("<tr>");
        cells += QStringLiteral("<td width='33%'><p style='margin:0; color:#444'>%1</p>"
                                "<p style='margin:0; font-size:13pt'><b>%2</b></p></td>")
                     .arg(figures[i].first.toHtmlEscaped(), figures[i].second.toHtmlEscaped());
        if (i % 3 == 2)
            cells += QStringLiteral("</tr>");
    }
    return QStringLiteral(
               "<table width='100%' cellspacing='0' cellpadding='2' border='0'>%1</table>")
        .arg(cells);
}

QString ReportWriter::assumptionsHtml(const Scenario& s, const Catalog& catalog)
{
    QString rows;
    for (const EfficiencyFactor& f : catalog.efficiencyFactors) {
        const double* value = efficiencyField(s.efficiency, f.id);
        rows += row(UiText::efficiencyName(f.id),
                    value ? UiText::number(*value, 2) : QStringLiteral("—"), link(f.source));
    }
    // Which prices the plan's costs are: rented and bought are never mixed.
    const GpuPrice& price = s.gpu.prices.on(s.cost.basis);
    rows += row(tr("Cost basis"), PlannerText::costBasis(s),
                price.kind == GpuPrice::Kind::Unknown ? QString() : link(price.source));
    rows += row(tr("Runtime overhead"),
                tr("%1 MiB").arg(UiText::number(s.engine.runtimeOverheadMiB, 0)),
                link(s.engine.source));
    rows += row(tr("CUDA graphs"), tr("%1 MiB").arg(UiText::number(s.engine.cudaGraphMiB, 0)),
                link(s.engine.source));
    if (const double buffers = tensorParallelBufferMiB(s); buffers > 0)
        rows += row(tr("Tensor-parallel buffers per GPU"),
                    tr("%1 MiB").arg(UiText::number(buffers, 0)), link(s.engine.source));
    rows += row(tr("KV block size"), UiText::tokens(s.engine.kvBlockTokens), link(s.engine.source));
    rows += row(tr("Prefill chunk"),
                s.engine.prefillChunkTokens > 0 ? UiText::tokens(s.engine.prefillChunkTokens)
                                                : tr("whole prompt"),
                link(s.engine.source));
    return table(rows);
}

QString ReportWriter::comparisonHtml(const EvaluationSnapshot& snap, ByteUnits units)
{
    if (snap.pinned->empty())
        return {};
    auto comparison = compareScenarios(comparedScenarios(snap));
    if (!comparison)
        return {};
    return QStringLiteral("<h2>%1</h2><p>%2</p>%3")
        .arg(tr("Comparison"),
             tr("Each figure with its change against %1; the charts draw every scenario.")
                 .arg(ChartBase::pinnedName(0, snap.pinned->front().name).toHtmlEscaped()),
             ComparePage::tableHtml(*comparison, units));
}

std::vector<ChartSet> ReportWriter::chartPages(const ChartSet& charts)
{
    std::vector<ChartSet> pages;
    for (ChartBase* chart : charts) {
        const ReportSpace space = spaceOf(chart);
        if (!pages.empty() && spaceOf(pages.back().front()) == space &&
            pages.back().size() < perPage(space))
            pages.back().push_back(chart);
        else
            pages.push_back({chart});
    }
    return pages;
}

bool ReportWriter::leavesHalfPageFree(const ChartSet& page)
{
    switch (spaceOf(page.front())) {
    case ReportSpace::SixthPage:
        return page.size() <= 2; // the lower two rows are empty
    case ReportSpace::HalfPage:
        return page.size() == 1;
    case ReportSpace::FullPage:
        break;
    }
    return false;
}

// The verdict first, as the headline strip says it; when the scenario does not run or misses a
// target, what would change that, in the order to try.
QString ReportWriter::verdictHtml(const EvaluationSnapshot& snap, const Catalog& catalog,
                                  ByteUnits units)
{
    QString html =
        QStringLiteral("<p><b>%1</b></p>")
            .arg(PlannerText::verdict(snap.scenario, snap.verdict, units).toHtmlEscaped());
    for (const Caution& caution : cautionsOf(snap.scenario, snap.evaluation, snap.verdict))
        html += QStringLiteral("<p style='color:#7a4f00'>%1</p>")
                    .arg(PlannerText::caution(caution, units).toHtmlEscaped());
    const std::vector<Remedy> found = remedies(snap.scenario, snap.verdict, catalog);
    if (found.empty())
        return html;
    html += QStringLiteral("<p>%1</p><ol>").arg(tr("What would make it run, in the order to try:"));
    for (const Remedy& r : found)
        html += QStringLiteral("<li><b>%1</b>: %2</li>")
                    .arg(PlannerText::remedyTitle(r).toHtmlEscaped(),
                         PlannerText::remedyEffect(r, units).toHtmlEscaped());
    return html + QStringLiteral("</ol>");
}

namespace {

// The report's pages as they are painted: the content rectangle inside the margins, the body
// font, and on every page a footer with the report's title and the page's number.
struct ReportPages
{
    QPdfWriter& writer;
    QCPPainter& painter;
    QRectF content;
    QString title;
    QFont font;
    int number = 1;

    void footer()
    {
        QFont small = font;
        small.setPointSizeF(8);
        painter.save();
        painter.setFont(small);
        painter.setPen(QColor(0x44, 0x44, 0x44));
        const QRectF band(content.left(), content.bottom() + kMargin / 3, content.width(),
                          kMargin / 2);
        painter.drawText(band, Qt::AlignLeft | Qt::AlignTop, title);
        painter.drawText(band, Qt::AlignRight | Qt::AlignTop, QString::number(number));
        painter.restore();
    }
    void newPage()
    {
        footer();
        writer.newPage();
        ++number;
    }
};

// One family for every paragraph, so a figure keeps the size and baseline of the sentence
// around it: a Japanese report is set in Noto Sans CJK JP throughout, digits and Latin included
// (with a Latin font first, "23.6 GiB" took the CJK font after a kana and the Latin one after
// a Latin word); an English one in Noto Sans.
QFont reportFont()
{
    QFont font(QStringLiteral("Noto Sans"));
    const QString japanese = QStringLiteral("Noto Sans CJK JP");
    if (QLocale().language() == QLocale::Japanese && QFontDatabase::families().contains(japanese))
        font.setFamilies({japanese});
    font.setPointSizeF(9);
    return Language::pdfFont(font); // so that the digits copy out of the PDF
}

// Page 1: the summary, what was asked with where its catalog numbers come from, and the
// figures with their arithmetic; the efficiency factors go with the charts' assumptions.
void paintIntro(ReportPages& pages, const EvaluationSnapshot& snap, const Catalog& catalog,
                ByteUnits units)
{
    const QString date = QLocale().toString(QDate::currentDate(), QLocale::LongFormat);
    const QString intro =
        QStringLiteral("<h1>%1</h1><p>%2 — %3</p><h2>%4</h2>%5%6<h2>%7</h2>%8<h2>%9</h2>%10")
            .arg(QString(pages.title) // "4090 × 1" on one line
                     .replace(QStringLiteral(" \u00D7 "), QStringLiteral("\u00A0\u00D7\u00A0"))
                     .toHtmlEscaped(),
                 date, ReportWriter::tr("Generated by kvscope"), ReportWriter::tr("Summary"),
                 ReportWriter::verdictHtml(snap, catalog, units),
                 ReportWriter::keyFiguresHtml(snap, units),
                 ReportWriter::tr("Inputs and the sources of their numbers"),
                 ReportWriter::inputsHtml(snap.scenario),
                 ReportWriter::tr("Headline figures and the arithmetic behind them"),
                 ReportWriter::figuresHtml(snap, units)) +
        ReportWriter::comparisonHtml(snap, units);
    auto doc = htmlDocument(intro, pages.font);
    paginate(*doc, pages.content.size());
    // A last page of a few rows (a Japanese report's two to four) is saved by a slightly
    // smaller text: half a point, else a whole one (9 pt to 8 pt).
    if (doc->pageCount() > 1 && lastPageHeight(*doc) <= kShortLastPage * pages.content.height())
        for (double smaller : {0.5, 1.0}) {
            QFont font = pages.font;
            font.setPointSizeF(pages.font.pointSizeF() - smaller);
            auto tighter = htmlDocument(intro, font);
            paginate(*tighter, pages.content.size());
            if (tighter->pageCount() < doc->pageCount()) {
                doc = std::move(tighter);
                break;
            }
        }
    paintDocument(
        *doc, pages.painter, [&] { pages.newPage(); }, pages.content, false);
}

// Charts, as vectors in the print palette, on the pages chartPages() gives them. The
// assumptions go under the charts of the first page that leaves half of it free, taking up to
// 70 % of it (the charts above shrink to the rest); else on a page of their own.
void paintChartPages(ReportPages& pages, const EvaluationSnapshot& snap, const Catalog& catalog,
                     const ChartSet& charts, std::vector<ReportChartPlot>* plots)
{
    const double gap = 24;
    const QRectF& content = pages.content;
    auto assumptions = htmlDocument(QStringLiteral("<h2>%1</h2>%2")
                                        .arg(ReportWriter::tr("Assumptions"),
                                             ReportWriter::assumptionsHtml(snap.scenario, catalog)),
                                    pages.font);
    assumptions->setTextWidth(content.width());
    const double assumptionsHeight = assumptions->size().height();
    bool assumptionsPlaced = false;
    for (const ChartSet& page : ReportWriter::chartPages(charts)) {
        pages.newPage();
        const bool withAssumptions = !assumptionsPlaced && ReportWriter::leavesHalfPageFree(page) &&
                                     assumptionsHeight <= 0.7 * content.height();
        // The charts' share: the whole page as laid out for two rows of halves, top row only.
        QRectF area = content;
        if (withAssumptions)
            area.setHeight(2 * (content.height() - assumptionsHeight - gap) + gap);
        for (size_t i = 0; i < page.size(); ++i) {
            page[i]->show(snap);
            double plotShare = 0;
            paintChart(*page[i], pages.painter, slotOf(page, i, area, gap), true, &plotShare);
            if (plots)
                plots->push_back(
                    {page[i]->view() ? QString::fromLatin1(page[i]->view()->id) : QString(),
                     pages.number, plotShare});
        }
        if (withAssumptions) {
            pages.painter.save();
            pages.painter.translate(content.left(), content.bottom() - assumptionsHeight);
            assumptions->drawContents(&pages.painter,
                                      QRectF(0, 0, content.width(), assumptionsHeight));
            pages.painter.restore();
            assumptionsPlaced = true;
        }
    }
    if (!assumptionsPlaced)
        paintDocument(
            *assumptions, pages.painter, [&] { pages.newPage(); }, content, true);
}

} // namespace

bool ReportWriter::write(const EvaluationSnapshot& snap, const Catalog& catalog,
                         const ChartSet& charts, const QString& path, const ReportOptions& options,
                         QString* error)
{
    const Scenario& s = snap.scenario;
    QByteArray data;
    QBuffer buffer(&data);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter writer(&buffer);
    writer.setResolution(kDpi);
    writer.setPageSize(QPageSize(options.pageSize));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    const QString title = tr("kvscope report: %1 on %2 × %3")
                              .arg(QString::fromStdString(s.model.name),
                                   QString::number(s.gpuCount), QString::fromStdString(s.gpu.name));
    writer.setTitle(title);
    writer.setCreator(QStringLiteral("kvscope"));

    QCPPainter painter;
    if (!painter.begin(&writer)) {
        if (error)
            *error = tr("the PDF could not be started");
        return false;
    }
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    const QRectF pageRect(0, 0, writer.width(), writer.height());
    ReportPages pages{writer, painter, pageRect.adjusted(kMargin, kMargin, -kMargin, -kMargin),
                      title, reportFont()};
    paintIntro(pages, snap, catalog, options.units);
    paintChartPages(pages, snap, catalog, charts, options.plots);
    pages.footer();
    painter.end();
    buffer.close();

    QSaveFile file(path);
    if (data.isEmpty() || !file.open(QIODevice::WriteOnly) || file.write(data) != data.size() ||
        !file.commit()) {
        if (error)
            *error = data.isEmpty() ? tr("the report could not be rendered") : file.errorString();
        return false;
    }
    return true;
}

} // namespace kvscope::ui
