// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A Comparison as text: a figure's value and its change in the words of the headline strip,
// and the whole difference table as an aligned table, Markdown or CSV.

#include "kvscope/base/number_format.h"
#include "kvscope/planning/comparison.h"
#include "kvscope/text/text_summary.h"

#include <string>

namespace kvscope {

// The figure of scenario `index` as the table shows it ("12.6 GiB", "yes"); "—" for none.
std::string comparedValueText(const Comparison& comparison, const ComparedFigure& figure,
                              size_t index, ByteUnits units, const NumberStyle& style = {});

// The change against the first scenario as people say it: "-48 %" (or "+12 %") below twice the
// reference, "+2.3x" from there; "0 %" for no change; "" where there is no ratio (a reference of
// zero, a change of sign, a missing figure).
std::string relativeChangeText(const ComparedFigure& figure, size_t index,
                               const NumberStyle& style = {});
// The difference with its sign and unit ("-9.01 GiB", "+1,024 tokens"); "" where there is none.
std::string absoluteChangeText(const Comparison& comparison, const ComparedFigure& figure,
                               size_t index, ByteUnits units, const NumberStyle& style = {});

// The difference table: every figure for every scenario with each later one's change against
// the first, then the inputs that differ.
std::string comparisonText(const Comparison& comparison, ByteUnits units,
                           SummaryStyle style = SummaryStyle::PlainTable,
                           const NumberStyle& numbers = {});
// The same as CSV: one row per figure or input, the raw numbers (bytes, ms) in one column group
// per scenario: value, change, ratio.
std::string comparisonCsv(const Comparison& comparison);

} // namespace kvscope
