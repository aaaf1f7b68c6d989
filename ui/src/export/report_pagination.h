// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QSizeF;
class QTextDocument;

namespace kvscope::ui {

// Moves what must not cross a page of `doc` (its page size set) to the next page: a table row
// (QTextDocument breaks a row between the lines of its cells, so a label stays on one page while
// its arithmetic goes on), a table's last row that would stand alone on a page (the row before
// it goes along), a heading with too little of what it heads under it, and a paragraph that
// would leave a single line on either page. Tables with header rows repeat them there.
void keepTogetherAcrossPages(QTextDocument& doc);

// `doc` laid out in pages of `page`, what must not cross a page kept together.
void paginate(QTextDocument& doc, const QSizeF& page);

// How much of its last page `doc` (paginated) fills, in the page's units.
double lastPageHeight(QTextDocument& doc);

// Whether any table row of `doc` (laid out in pages) starts on one page and ends on another.
bool splitsATableRow(QTextDocument& doc);

} // namespace kvscope::ui
