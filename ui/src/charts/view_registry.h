// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <string>
#include <vector>

class QWidget;

namespace kvscope::ui {

class ChartBase;

// A view's cell in the window's chart grid (QGridLayout row, column and spans).
struct GridPlace
{
    int row = 0;
    int column = 0;
    int rowSpan = 1;
    int columnSpan = 1;
};

// Where the window shows a view: in the chart grid under the headline figures, or on a page of
// its own (a tab beside the grid) with the controls that page needs.
enum class ViewPage { Charts, Plan, Matrix };

// The room a view gets in the report PDF, in registry order: a sixth of a page (six views to a
// page, two columns by three rows), half a page (full width; two to a page) or a page of its own.
enum class ReportSpace { SixthPage, HalfPage, FullPage };

// One view of an evaluation and everything the front ends need to know about it: the window
// lays it out, the report paginates it, `kvscope-cli export --chart` accepts it, --help lists
// it and Export data writes its series, all from this entry.
struct ViewEntry
{
    const char* id;           // stable: file names and lookups ("vram", "tokens", ...)
    const char* titleContext; // translation context of the title (see translatedTitle())
    const char* title;        // untranslated title, marked with QT_TRANSLATE_NOOP
    ChartBase* (*create)(QWidget* parent);
    GridPlace grid;
    ReportSpace report = ReportSpace::SixthPage;
    const char* cliId;                   // the value of `kvscope-cli export --chart`
    std::vector<std::string> csvColumns; // the context-sweep columns it draws (sweep column ids)
    ViewPage page = ViewPage::Charts;    // grid (placed at `grid`) or a page of its own

    QString translatedTitle() const;
};

// Every view, in display and report order. A new view is its chart file and one entry here.
const std::vector<ViewEntry>& viewRegistry();
const ViewEntry* findViewByCliId(const std::string& cliId);
// The `export --chart` values in registry order.
std::vector<std::string> cliChartIds();
// The sweep columns of every view, without repeats: what Export data writes.
std::vector<std::string> viewCsvColumns();

} // namespace kvscope::ui
