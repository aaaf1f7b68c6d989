// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/report_writer.h"

#include "charts/chart_base.h"
#include "charts/line_breaks.h"
#include "charts/view_registry.h"
#include "export/chart_export.h"
#include "export/report_pagination.h"
#include "window/language.h"

#include <QBuffer>
#include <QDate>
#include <QFontDatabase>
#include <QFontInfo>
#include <QLocale>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

#include <cmath>
#include <functional>

namespace kvscope::ui {

namespace {

// Layout units: the writer runs at 96 dpi, so one unit is one screen pixel.
constexpr int kDpi = 96;
constexpr double kMargin = 56;

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
    // Noto Sans CJK's lines are 1.45 em apart against Noto Sans's 1.16: set at its own spacing a
    // Japanese report took a page more than the English one, its arithmetic alone on page 2.
    // 80 % of it (1.16 em, the Latin spacing) still leaves room between lines of kanji.
    if (QFontInfo(font).family().contains(QLatin1String("CJK")))
        for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
            QTextCursor cursor(block);
            QTextBlockFormat format = block.blockFormat();
            format.setLineHeight(80, QTextBlockFormat::ProportionalHeight);
            cursor.setBlockFormat(format);
        }
    return doc;
}

} // namespace

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

// The title as the page's heading: a model's or GPU's name of a line or less is kept whole, so a
// long title breaks between the names ("... Llama 3.1 8B /" and "NVIDIA GeForce RTX 3090 × 1"),
// never inside one ("RTX" and "3090").
} // namespace

QString ReportWriter::headingText(const QString& title, const Scenario& s)
{
    constexpr qsizetype kWholeName = 40;
    QString heading = title;
    for (const std::string& name : {s.model.name, s.gpu.name}) {
        const QString text = QString::fromStdString(name);
        if (text.size() <= kWholeName)
            heading.replace(text, QString(text).replace(QLatin1Char(' '), QChar(0x00A0)));
    }
    // A separating slash ends its line rather than starting the next.
    heading.replace(QStringLiteral(" / "), QStringLiteral("\u00A0/ "));
    return heading.replace(QStringLiteral(" \u00D7 "), QStringLiteral("\u00A0\u00D7\u00A0"));
}

namespace {

// Page 1: the summary, what was asked with where its catalog numbers come from, and the
// figures with their arithmetic; the efficiency factors go with the charts' assumptions.
void paintIntro(ReportPages& pages, const EvaluationSnapshot& snap, const Catalog& catalog,
                ByteUnits units)
{
    const QString date = QLocale().toString(QDate::currentDate(), QLocale::LongFormat);
    const QString intro =
        QStringLiteral("<h1>%1</h1><p>%2 — %3</p><h2>%4</h2>%5%6<h2>%7</h2>%8<h2>%9</h2>%10")
            .arg(ReportWriter::headingText(pages.title, snap.scenario).toHtmlEscaped(), date,
                 ReportWriter::tr("Generated by kvscope"), ReportWriter::tr("Summary"),
                 ReportWriter::verdictHtml(snap, catalog, units),
                 ReportWriter::keyFiguresHtml(snap, units),
                 ReportWriter::tr("Inputs and the sources of their numbers"),
                 ReportWriter::inputsHtml(snap.scenario, units),
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
