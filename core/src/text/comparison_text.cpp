// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/text/comparison_text.h"

#include "base/text_columns.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace kvscope {

namespace {

std::string magnitudeText(const Comparison& c, const ComparedFigure& f, size_t index, double v,
                          ByteUnits units, const NumberStyle& st)
{
    switch (f.kind) {
    case FigureKind::Bytes:
        return formatBytes(v, units, st);
    case FigureKind::Milliseconds:
        return formatDuration(v, st);
    case FigureKind::TokensPerS:
        return formatTokensPerSecond(v, st);
    case FigureKind::Tokens:
    case FigureKind::Count:
        return formatInteger(int64_t(std::llround(v)), st);
    case FigureKind::Money: {
        // Cents, or three significant digits below one unit (a bought GPU's hour: 0.0608 USD).
        const int decimals = v >= 1 || v <= 0 ? 2 : std::min(4, 2 - int(std::floor(std::log10(v))));
        return formatNumber(v, decimals, st) + " " +
               (index < c.currencies.size() ? c.currencies[index] : "");
    }
    case FigureKind::YesNo:
        return v != 0 ? "yes" : "no";
    }
    return formatPlain(v);
}

std::string csvField(const std::string& text)
{
    if (text.find_first_of(",\"\n") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (char ch : text)
        quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return quoted + "\"";
}

} // namespace

std::string comparedValueText(const Comparison& c, const ComparedFigure& f, size_t index,
                              ByteUnits units, const NumberStyle& st)
{
    if (index >= f.values.size() || !f.values[index])
        return "—";
    return magnitudeText(c, f, index, *f.values[index], units, st);
}

std::string relativeChangeText(const ComparedFigure& f, size_t index, const NumberStyle& st)
{
    const auto change = changeOf(f, index);
    if (!change || !change->ratio || *change->ratio < 0)
        return "";
    const double ratio = *change->ratio;
    if (ratio >= 2)
        return "+" + formatNumber(ratio, ratio >= 10 ? 0 : 1, st) + "x";
    const double percent = (ratio - 1) * 100;
    const long rounded = std::lround(percent);
    if (rounded == 0)
        return "0 %";
    return (rounded > 0 ? "+" : "-") + formatInteger(std::labs(rounded), st) + " %";
}

std::string absoluteChangeText(const Comparison& c, const ComparedFigure& f, size_t index,
                               ByteUnits units, const NumberStyle& st)
{
    const auto change = changeOf(f, index);
    if (!change)
        return "";
    if (f.kind == FigureKind::YesNo)
        return change->absolute == 0 ? "" : "changed";
    const double d = change->absolute;
    if (d == 0)
        return "0";
    return (d > 0 ? "+" : "-") + magnitudeText(c, f, index, std::fabs(d), units, st);
}

namespace {

// The comparison as rows of cells: label, the first scenario's value, then value and change for
// each later one.
struct ComparisonTable
{
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> figures;
    std::vector<std::vector<std::string>> inputs;
    std::string note;
};

std::vector<std::string> figureRow(const Comparison& c, const ComparedFigure& f, ByteUnits units,
                                   const NumberStyle& st)
{
    std::vector<std::string> row = {f.label};
    for (size_t i = 0; i < c.names.size(); ++i) {
        row.push_back(comparedValueText(c, f, i, units, st));
        if (i == 0)
            continue;
        const std::string absolute = absoluteChangeText(c, f, i, units, st);
        const std::string relative = relativeChangeText(f, i, st);
        std::string change = absolute;
        if (!absolute.empty() && !relative.empty() && absolute != "0")
            change.append(", ").append(relative);
        row.push_back(std::move(change));
    }
    return row;
}

ComparisonTable comparisonTable(const Comparison& c, ByteUnits units, const NumberStyle& st)
{
    const size_t n = c.names.size();
    ComparisonTable t;
    t.header = {""};
    for (size_t i = 0; i < n; ++i) {
        t.header.push_back(c.names[i]);
        if (i > 0)
            t.header.push_back(c.names[i] + " vs " + c.names[0]);
    }
    for (const ComparedFigure& f : c.figures)
        t.figures.push_back(figureRow(c, f, units, st));
    for (const ComparedInput& input : c.inputs) {
        std::vector<std::string> row = {input.id};
        for (size_t i = 0; i < n; ++i) {
            row.push_back(input.values[i]);
            if (i > 0)
                row.push_back("");
        }
        t.inputs.push_back(std::move(row));
    }
    t.note = c.modelsDiffer ? "The scenarios are of different models." : "";
    return t;
}

std::string markdownComparison(const ComparisonTable& t, size_t scenarios)
{
    std::ostringstream out;
    auto line = [&](const std::vector<std::string>& cells) {
        out << "|";
        for (const std::string& cell : cells)
            out << " " << cell << " |";
        out << "\n";
    };
    // The header, then its rule: figures right-aligned, inputs (text) left-aligned.
    auto headerAndRule = [&](const char* column) {
        line(t.header);
        out << "|---|";
        for (size_t i = 1; i < t.header.size(); ++i)
            out << column;
        out << "\n";
    };
    out << "## kvscope: " << scenarios << " scenarios compared\n\n";
    if (!t.note.empty())
        out << "**" << t.note << "**\n\n";
    headerAndRule("---:|");
    for (const auto& row : t.figures)
        line(row);
    if (!t.inputs.empty()) {
        out << "\n### Inputs that differ\n\n";
        headerAndRule("---|");
        for (const auto& row : t.inputs)
            line(row);
    }
    return out.str();
}

// Columns as wide as their widest cell; the last column is not padded.
std::string plainComparison(const ComparisonTable& t)
{
    std::vector<size_t> widths(t.header.size(), 0);
    for (const auto* rows : {&t.figures, &t.inputs})
        for (const auto& row : *rows)
            for (size_t i = 0; i < row.size(); ++i)
                widths[i] = std::max(widths[i], codePoints(row[i]));
    for (size_t i = 0; i < t.header.size(); ++i)
        widths[i] = std::max(widths[i], codePoints(t.header[i]));
    std::ostringstream out;
    auto line = [&](const std::vector<std::string>& cells) {
        std::string text;
        for (size_t i = 0; i < cells.size(); ++i)
            text += (i ? "  " : "") +
                    (i + 1 < cells.size() ? padColumns(cells[i], widths[i]) : cells[i]);
        while (!text.empty() && text.back() == ' ')
            text.pop_back();
        out << text << "\n";
    };
    if (!t.note.empty())
        out << t.note << "\n";
    line(t.header);
    for (const auto& row : t.figures)
        line(row);
    if (!t.inputs.empty()) {
        out << "\nInputs that differ\n";
        for (const auto& row : t.inputs)
            line(row);
    }
    return out.str();
}

} // namespace

std::string comparisonText(const Comparison& c, ByteUnits units, SummaryStyle style,
                           const NumberStyle& st)
{
    const ComparisonTable table = comparisonTable(c, units, st);
    return style == SummaryStyle::Markdown ? markdownComparison(table, c.names.size())
                                           : plainComparison(table);
}

std::string comparisonCsv(const Comparison& c)
{
    std::ostringstream out;
    out << "row,id";
    for (size_t i = 0; i < c.names.size(); ++i) {
        out << "," << csvField(c.names[i]);
        if (i > 0)
            out << "," << csvField(c.names[i] + " change") << ","
                << csvField(c.names[i] + " ratio");
    }
    out << "\n";
    for (const ComparedFigure& f : c.figures) {
        out << "figure," << f.id;
        for (size_t i = 0; i < c.names.size(); ++i) {
            out << "," << (f.values[i] ? formatPlain(*f.values[i]) : "");
            if (i == 0)
                continue;
            const auto change = changeOf(f, i);
            out << "," << (change ? formatPlain(change->absolute) : "") << ","
                << (change && change->ratio ? formatPlain(*change->ratio) : "");
        }
        out << "\n";
    }
    for (const ComparedInput& input : c.inputs) {
        out << "input," << input.id;
        for (size_t i = 0; i < c.names.size(); ++i)
            out << "," << csvField(input.values[i]) << (i > 0 ? ",," : "");
        out << "\n";
    }
    return out.str();
}

} // namespace kvscope
