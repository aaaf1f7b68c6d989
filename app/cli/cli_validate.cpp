// SPDX-License-Identifier: GPL-3.0-or-later
// `kvscope-cli validate [FILES...] [--json]`: every case of the validation set, its prediction,
// its measurement and the error, then the summary per kind (see kvscope/validation.h).
#include "cli.h"
#include "cli_commands.h"

#include "kvscope/base/number_format.h"
#include "kvscope/validation/validation_set.h"

#include <algorithm>
#include <cmath>
#include <ostream>

#include <nlohmann/json.hpp>

namespace kvscope::cli {

namespace {

// Decimals that show a figure of this unit to the precision it is logged with.
int decimalsFor(const std::string& unit)
{
    if (unit == "tokens")
        return 0;
    if (unit == "tokens/s" || unit == "ms")
        return 1;
    return 2; // MiB, GB/s
}

std::string percent(double fraction, bool sign)
{
    const double p = fraction * 100.0;
    return (sign && p >= 0 ? "+" : "") + formatNumber(p, 1) + " %";
}

// Columns padded to their widest cell; numbers right-aligned so their digits line up.
void printColumns(const std::vector<std::vector<std::string>>& rows, const std::vector<bool>& right,
                  std::ostream& out)
{
    std::vector<size_t> width(right.size(), 0);
    for (const auto& row : rows)
        for (size_t i = 0; i < row.size() && i < width.size(); ++i)
            width[i] = std::max(width[i], row[i].size());
    for (const auto& row : rows) {
        std::string line;
        for (size_t i = 0; i < row.size(); ++i) {
            const std::string pad(width[i] - row[i].size(), ' ');
            line += right[i] ? pad + row[i] : row[i] + (i + 1 < row.size() ? pad : "");
            if (i + 1 < row.size())
                line += "  ";
        }
        out << line << "\n";
    }
}

// The compared cases, each marked where kvscope assumed what the source did not state.
void printCompared(const ValidationReport& report, std::ostream& out)
{
    std::vector<std::vector<std::string>> table{
        {"id", "kind", "predicted", "measured", "unit", "error"}};
    bool anyContext = false, anyEngine = false, anyGpu = false;
    for (const ValidationResult& r : report.results) {
        if (r.skipped() || r.doesNotFit)
            continue;
        const int d = decimalsFor(r.unit);
        std::string marks = std::string(r.defaultContext ? "*" : "") +
                            (r.defaultEngine ? "+" : "") + (r.defaultGpu ? "#" : "");
        anyContext = anyContext || r.defaultContext;
        anyEngine = anyEngine || r.defaultEngine;
        anyGpu = anyGpu || r.defaultGpu;
        table.push_back({r.id + marks, validationKindId(r.kind), formatNumber(r.predicted, d),
                         formatNumber(r.measured, d), r.unit, percent(r.error, true)});
    }
    printColumns(table, {false, false, true, true, false, true}, out);
    if (anyContext)
        out << "* no context stated: decoded at 128 tokens (llama-bench's default tg128)\n";
    if (anyEngine)
        out << "+ engine not stated: evaluated with the catalog's default engine\n";
    if (anyGpu)
        out << "# GPU not stated: llama.cpp's KV buffer does not depend on it\n";
}

// The cases not compared: skipped ones with the reason, and those predicted not to fit.
void printNotCompared(const ValidationReport& report, std::ostream& out)
{
    const bool anySkipped = std::any_of(report.results.begin(), report.results.end(),
                                        [](const ValidationResult& r) { return r.skipped(); });
    if (anySkipped) {
        out << "\nSkipped:\n";
        std::vector<std::vector<std::string>> skipped;
        for (const ValidationResult& r : report.results)
            if (r.skipped())
                skipped.push_back({"  " + r.id, validationKindId(r.kind), skipReasonText(r)});
        printColumns(skipped, {false, false, false}, out);
    }

    if (std::any_of(report.results.begin(), report.results.end(),
                    [](const ValidationResult& r) { return r.doesNotFit; })) {
        out << "\nPredicted not to fit (the source ran them):\n";
        std::vector<std::vector<std::string>> rows;
        for (const ValidationResult& r : report.results)
            if (r.doesNotFit)
                rows.push_back(
                    {"  " + r.id, validationKindId(r.kind),
                     "measured " + formatNumber(r.measured, decimalsFor(r.unit)) + " " + r.unit});
        printColumns(rows, {false, false, false}, out);
    }
}

// One summary row per kind of case.
void printSummary(const char* title, const std::array<ValidationSummary, 5>& all, std::ostream& out)
{
    out << "\n" << title << "\n";
    std::vector<std::vector<std::string>> summary{
        {"  kind", "cases", "skipped", "not fit", "median |error|", "within 5 %", "within 10 %"}};
    for (const ValidationSummary& s : all) {
        const bool any = s.evaluated > 0;
        summary.push_back(
            {"  " + std::string(validationKindId(s.kind)), std::to_string(s.evaluated),
             std::to_string(s.skipped), std::to_string(s.doesNotFit),
             any ? percent(s.medianAbsError, false) : "-", any ? percent(s.within5, false) : "-",
             any ? percent(s.within10, false) : "-"});
    }
    printColumns(summary, {false, true, true, true, true, true, true}, out);
}

// Decode error per speed class, fit and held out apart: one median over every case hid whole
// classes that were far off (issue 43).
void printClasses(const char* title, const std::vector<ClassSummary>& classes, std::ostream& out)
{
    if (classes.empty())
        return;
    out << "\n" << title << "\n";
    std::vector<std::vector<std::string>> rows{{"  class", "fit cases", "fit median", "held out",
                                                "held-out median", "median signed", "worst"}};
    const auto median = [](const ValidationSummary& s) {
        return s.evaluated > 0 ? percent(s.medianAbsError, false) : "-";
    };
    for (const ClassSummary& c : classes)
        rows.push_back({"  " + c.speedClass, std::to_string(c.fit.evaluated), median(c.fit),
                        std::to_string(c.heldOut.evaluated), median(c.heldOut),
                        percent(c.medianSignedError, true), percent(c.worstError, true)});
    printColumns(rows, {false, true, true, true, true, true, true}, out);
}

void printReport(const ValidationReport& report, std::ostream& out)
{
    printCompared(report, out);
    printNotCompared(report, out);
    printSummary("Summary:", report.summaries, out);
    printSummary("Held out (splits.json: files no default, rule or setting was shaped by):",
                 report.heldOut, out);
    const auto oneUser = [](const ValidationSummary& s) {
        return s.evaluated > 0 ? std::to_string(s.evaluated) + " rows, median |error| " +
                                     percent(s.medianAbsError, false)
                               : std::string("none");
    };
    out << "\nFirst token at one user (a prompt alone): " << oneUser(report.ttftOneUser)
        << "; held out " << oneUser(report.ttftOneUserHeldOut) << "\n";
    printClasses(
        "Decode by class (engine/GPU class/dense or MoE/weights); + is predicted too fast:",
        report.decodeClasses, out);
    printClasses(
        "Serving time per output token by class; + is predicted slower:", report.tpotClasses, out);
}

} // namespace

int validateCommand(const ParsedArgs& args, const Catalog& catalog,
                    const std::filesystem::path& executable, std::ostream& out, std::ostream& err)
{
    std::vector<ValidationCase> cases;
    if (args.positional.empty()) {
        const auto dir = findValidationDir(defaultDataDirs(executable));
        if (!dir)
            return badInput(err, {"validate", "",
                                  "case files, or a data directory with validation/*.json "
                                  "(is the data installed?)"});
        auto loaded = loadValidationDir(*dir);
        if (!loaded)
            return badInput(err, loaded.error());
        cases = std::move(loaded).value();
    } else {
        for (const std::string& file : args.positional) {
            auto loaded = loadValidationFile(file);
            if (!loaded)
                return badInput(err, loaded.error());
            for (ValidationCase& c : loaded.value())
                cases.push_back(std::move(c));
        }
    }
    const ValidationReport report = runValidation(cases, catalog);
    if (const std::string* bands = args.value("write-bands")) {
        std::string error;
        if (!writeAtomically(
                *bands, speedBandsToJson(speedBandsFrom(report.results)).dump(2) + "\n", &error)) {
            err << "kvscope-cli: --write-bands: " << *bands << ": " << error << "\n";
            return exitBadInput;
        }
    }
    if (args.has("json"))
        out << validationReportToJson(report).dump(2) << "\n";
    else
        printReport(report, out);
    return exitOk;
}

} // namespace kvscope::cli
