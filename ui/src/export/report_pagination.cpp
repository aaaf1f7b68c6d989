// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/report_pagination.h"

#include <QAbstractTextDocumentLayout>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextLayout>
#include <QTextTable>

#include <cmath>
#include <limits>

namespace kvscope::ui {

namespace {

// Space kept under a heading on its page: about two rows of the table it heads (a row holds
// two or three lines of arithmetic), so a heading never ends a page with one row under it.
constexpr double kUnderHeading = 100;

struct Extent
{
    double top = std::numeric_limits<double>::max();
    double bottom = std::numeric_limits<double>::lowest();
};

int pageOf(const QTextDocument& doc, double y)
{
    return int(std::floor(y / doc.pageSize().height()));
}

bool crossesAPage(const QTextDocument& doc, const Extent& e)
{
    return e.bottom > e.top && pageOf(doc, e.top) != pageOf(doc, e.bottom - 0.5);
}

QRectF blockRect(QTextDocument& doc, const QTextBlock& block)
{
    return doc.documentLayout()->blockBoundingRect(block);
}

// The vertical extent of row `r`'s text, in document coordinates.
Extent rowExtent(QTextDocument& doc, QTextTable* table, int r)
{
    Extent e;
    for (int c = 0; c < table->columns(); ++c) {
        const QTextTableCell cell = table->cellAt(r, c);
        if (cell.row() != r || cell.column() != c)
            continue;
        const QRectF first = blockRect(doc, doc.findBlock(cell.firstPosition()));
        const QRectF last = blockRect(doc, doc.findBlock(cell.lastPosition()));
        e.top = std::min(e.top, first.top());
        e.bottom = std::max(e.bottom, last.bottom());
    }
    return e;
}

QList<QTextTable*> tablesOf(QTextDocument& doc)
{
    QList<QTextTable*> tables;
    for (QTextFrame* frame : doc.rootFrame()->childFrames())
        if (auto* table = qobject_cast<QTextTable*>(frame))
            tables.append(table);
    return tables;
}

// An empty row, all bottom margin, before row `r`: it fills the rest of the page, so row `r`
// begins the next one (after the header rows, which Qt repeats there).
void pushRowToNextPage(QTextDocument& doc, QTextTable* table, int r, const Extent& row)
{
    const double pageBottom = (pageOf(doc, row.top) + 1) * doc.pageSize().height();
    table->insertRows(r, 1);
    for (int c = 0; c < table->columns(); ++c) {
        QTextCursor cursor = table->cellAt(r, c).firstCursorPosition();
        QTextCharFormat tiny;
        tiny.setFontPointSize(1);
        cursor.setBlockCharFormat(tiny);
        QTextBlockFormat spacer = cursor.blockFormat();
        spacer.setTopMargin(0);
        spacer.setBottomMargin(pageBottom - row.top + 1);
        cursor.setBlockFormat(spacer);
    }
}

// The first row of a table that crosses a page, and its extent; -1 when none does.
int firstSplitRow(QTextDocument& doc, QTextTable* table, Extent* extent)
{
    const int headers = table->format().headerRowCount();
    for (int r = headers; r < table->rows(); ++r) {
        const Extent e = rowExtent(doc, table, r);
        if (crossesAPage(doc, e)) {
            *extent = e;
            return r;
        }
    }
    return -1;
}

void breakBefore(const QTextBlock& block)
{
    QTextCursor cursor(block);
    QTextBlockFormat format = block.blockFormat();
    format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
    cursor.setBlockFormat(format);
}

// The first block outside tables that should start a page and does not: a heading near the
// bottom of its page, or a paragraph that would leave one line alone on either page.
QTextBlock firstBlockToMove(QTextDocument& doc)
{
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore)
            continue;
        if (doc.rootFrame() != QTextCursor(block).currentFrame())
            continue; // inside a table: rows move as a whole
        const QRectF r = blockRect(doc, block);
        const double pageBottom = (pageOf(doc, r.top()) + 1) * doc.pageSize().height();
        const bool lastBlock = !block.next().isValid();
        if (block.blockFormat().headingLevel() > 0 && !lastBlock &&
            pageBottom - r.bottom() < kUnderHeading &&
            r.top() > pageBottom - doc.pageSize().height() + 1)
            return block;
        const QTextLayout* layout = block.layout();
        if (layout && layout->lineCount() <= 3 && crossesAPage(doc, {r.top(), r.bottom()}))
            return block;
    }
    return {};
}

// A table's last row when it alone went on to a new page (a widow), and the row before it,
// which goes along; -1 when there is none.
int rowBeforeAWidow(QTextDocument& doc, QTextTable* table, Extent* extent)
{
    const int last = table->rows() - 1;
    if (last - 1 <= table->format().headerRowCount())
        return -1;
    const Extent before = rowExtent(doc, table, last - 1);
    if (pageOf(doc, before.top) == pageOf(doc, rowExtent(doc, table, last).top))
        return -1;
    *extent = before;
    return last - 1;
}

// Moves the first row that is split, or that leaves its table's last row alone on a page.
bool moveARow(QTextDocument& doc)
{
    for (QTextTable* table : tablesOf(doc)) {
        Extent row;
        int r = firstSplitRow(doc, table, &row);
        if (r < 0)
            r = rowBeforeAWidow(doc, table, &row);
        if (r >= 0) {
            pushRowToNextPage(doc, table, r, row);
            return true;
        }
    }
    return false;
}

} // namespace

bool splitsATableRow(QTextDocument& doc)
{
    Extent unused;
    for (QTextTable* table : tablesOf(doc))
        if (firstSplitRow(doc, table, &unused) >= 0)
            return true;
    return false;
}

void keepTogetherAcrossPages(QTextDocument& doc)
{
    // Each move shifts what follows, so one at a time, from the top, each after a new layout;
    // a document has a few dozen rows, and a move never undoes an earlier one.
    for (int guard = 0; guard < 200; ++guard) {
        doc.documentLayout()->documentSize(); // lays it out
        if (const QTextBlock block = firstBlockToMove(doc); block.isValid()) {
            breakBefore(block);
            continue;
        }
        if (!moveARow(doc))
            return;
    }
}

void paginate(QTextDocument& doc, const QSizeF& page)
{
    doc.setPageSize(page);
    keepTogetherAcrossPages(doc);
}

double lastPageHeight(QTextDocument& doc)
{
    const double bottom = doc.documentLayout()->blockBoundingRect(doc.lastBlock()).bottom();
    return bottom - double(doc.pageCount() - 1) * doc.pageSize().height();
}

} // namespace kvscope::ui
