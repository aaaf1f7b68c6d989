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

std::string comparisonText(const Comparison& c, ByteUnits units, SummaryStyle style,
                           const NumberStyle& st)
{
    const size_t n = c.names.size();
    // Rows of cells: label, the first scenario's value, then value and change for each later one.
    std::vector<std::string> header = {""};
    for (size_t i = 0; i < n; ++i) {
        header.push_back(c.names[i]);
        if (i > 0)
            header.push_back(c.names[i] + " vs " + c.names[0]);
    }
    std::vector<std::vector<std::string>> figures;
    for (const ComparedFigure& f : c.figures) {
        std::vector<std::string> row = {f.label};
        for (size_t i = 0; i < n; ++i) {
            row.push_back(comparedValueText(c, f, i, units, st));
            if (i == 0)
                continue;
            const std::string absolute = absoluteChangeText(c, f, i, units, st);
            const std::string relative = relativeChangeText(f, i, st);
            row.push_back(absolute + (!absolute.empty() && !relative.empty() && absolute != "0"
                                          ? ", " + relative
                                          : ""));
        }
        figures.push_back(std::move(row));
    }
    std::vector<std::vector<std::string>> inputs;
    for (const ComparedInput& input : c.inputs) {
        std::vector<std::string> row = {input.id};
        for (size_t i = 0; i < n; ++i) {
            row.push_back(input.values[i]);
            if (i > 0)
                row.push_back("");
        }
        inputs.push_back(std::move(row));
    }
    const std::string note = c.modelsDiffer ? "The scenarios are of different models." : "";

    std::ostringstream out;
    if (style == SummaryStyle::Markdown) {
        auto line = [&](const std::vector<std::string>& cells) {
            out << "|";
            for (const std::string& cell : cells)
                out << " " << cell << " |";
            out << "\n";
        };
        out << "## kvscope: " << n << " scenarios compared\n\n";
        if (!note.empty())
            out << "**" << note << "**\n\n";
        line(header);
        out << "|---|";
        for (size_t i = 1; i < header.size(); ++i)
            out << "---:|";
        out << "\n";
        for (const auto& row : figures)
            line(row);
        if (!inputs.empty()) {
            out << "\n### Inputs that differ\n\n";
            line(header);
            out << "|---|";
            for (size_t i = 1; i < header.size(); ++i)
                out << "---|";
            out << "\n";
            for (const auto& row : inputs)
                line(row);
        }
        return out.str();
    }
    std::vector<size_t> widths(header.size(), 0);
    for (const auto* rows : {&figures, &inputs})
        for (const auto& row : *rows)
            for (size_t i = 0; i < row.size(); ++i)
                widths[i] = std::max(widths[i], codePoints(row[i]));
    for (size_t i = 0; i < header.size(); ++i)
        widths[i] = std::max(widths[i], codePoints(header[i]));
    auto line = [&](const std::vector<std::string>& cells) {
        std::string text;
        for (size_t i = 0; i < cells.size(); ++i)
            text += (i ? "  " : "") +
                    (i + 1 < cells.size() ? padColumns(cells[i], widths[i]) : cells[i]);
        while (!text.empty() && text.back() == ' ')
            text.pop_back();
        out << text << "\n";
    };
    if (!note.empty())
        out << note << "\n";
    line(header);
    for (const auto& row : figures)
        line(row);
    if (!inputs.empty()) {
        out << "\nInputs that differ\n";
        for (const auto& row : inputs)
            line(row);
    }
    return out.str();
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
