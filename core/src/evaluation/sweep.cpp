// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/evaluation/sweep.h"

#include "kvscope/base/number_format.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kvscope {

namespace {

struct ColumnDef
{
    const char* id;
    const char* unit;
    double (*value)(const Evaluation&);
};

// A count GPU memory does not limit has no figure: NaN, which the CSV leaves empty and JSON
// writes as null, never its ceiling (TokensFit::room).
double tokensFitCell(const TokensFit& fit, int64_t count)
{
    return fit.contextUnbounded(count) ? std::numeric_limits<double>::quiet_NaN() : double(count);
}

// The columns every sweep carries, read off one Evaluation.
const std::vector<ColumnDef>& columnDefs()
{
    static const std::vector<ColumnDef> defs = {
        {"kv_per_gpu_bytes", "bytes", [](const Evaluation& e) { return e.kv.totalBytes; }},
        {"kv_mha_per_gpu_bytes", "bytes", [](const Evaluation& e) { return e.kv.totalMhaBytes; }},
        {"kv_gqa_per_gpu_bytes", "bytes", [](const Evaluation& e) { return e.kv.totalGqaBytes; }},
        {"kv_mqa_per_gpu_bytes", "bytes", [](const Evaluation& e) { return e.kv.totalMqaBytes; }},
        {"free_for_kv_per_gpu_bytes", "bytes",
         [](const Evaluation& e) { return e.tokensFit.freeForKvBytes; }},
        {"weights_per_gpu_bytes", "bytes", [](const Evaluation& e) { return e.vram.weightsBytes; }},
        {"activation_per_gpu_bytes", "bytes",
         [](const Evaluation& e) { return e.vram.activationBytes; }},
        {"free_per_gpu_bytes", "bytes", [](const Evaluation& e) { return e.vram.freeBytes; }},
        {"fits", "bool", [](const Evaluation& e) { return e.vram.fits ? 1.0 : 0.0; }},
        {"tokens_fit_model", "tokens",
         [](const Evaluation& e) { return tokensFitCell(e.tokensFit, e.tokensFit.model); }},
        {"tokens_fit_mha", "tokens",
         [](const Evaluation& e) { return tokensFitCell(e.tokensFit, e.tokensFit.mha); }},
        {"tokens_fit_gqa", "tokens",
         [](const Evaluation& e) { return tokensFitCell(e.tokensFit, e.tokensFit.gqa); }},
        {"tokens_fit_mqa", "tokens",
         [](const Evaluation& e) { return tokensFitCell(e.tokensFit, e.tokensFit.mqa); }},
        {"decode_ms_gpu", "ms", [](const Evaluation& e) { return e.decode.tierMs[0]; }},
        {"decode_ms_cpu_serial", "ms", [](const Evaluation& e) { return e.decode.tierMs[1]; }},
        {"decode_ms_cpu_pipelined", "ms", [](const Evaluation& e) { return e.decode.tierMs[2]; }},
        {"decode_ms_nvme", "ms", [](const Evaluation& e) { return e.decode.tierMs[3]; }},
        {"decode_ms_sata", "ms", [](const Evaluation& e) { return e.decode.tierMs[4]; }},
        {"tokens_per_s", "tokens/s", [](const Evaluation& e) { return e.decode.tokensPerS; }},
        {"recompute_ms", "ms", [](const Evaluation& e) { return e.breakeven.recomputeMs; }},
        {"reload_ms_cpu", "ms", [](const Evaluation& e) { return e.breakeven.reloadMs[0]; }},
        {"reload_ms_nvme", "ms", [](const Evaluation& e) { return e.breakeven.reloadMs[1]; }},
        {"reload_ms_sata", "ms", [](const Evaluation& e) { return e.breakeven.reloadMs[2]; }},
    };
    return defs;
}

void setVariable(Scenario& s, SweepVariable variable, double x)
{
    switch (variable) {
    case SweepVariable::Context:
        s.context = int64_t(x);
        break;
    case SweepVariable::Batch:
        s.batch = int64_t(x);
        break;
    case SweepVariable::Vram:
        s.gpu.memoryGiB = x;
        break;
    }
}

// CSV cells: integers stay integers, the rest keeps six decimals, '.' always.
std::string csvCell(double value)
{
    if (std::isnan(value))
        return ""; // no figure (tokensFitCell)
    if (value == std::floor(value) && std::fabs(value) < 9e15)
        return std::to_string(int64_t(value));
    return formatPlain(std::round(value * 1e6) / 1e6);
}

} // namespace

std::string sweepToCsv(const Sweep& s)
{
    std::vector<std::string> all;
    for (const SweepColumn& c : s.columns)
        all.push_back(c.id);
    return sweepToCsv(s, all);
}

std::string sweepToCsv(const Sweep& s, const std::vector<std::string>& columnIds)
{
    return sweepsToCsv({{"", &s}}, columnIds);
}

std::string sweepsToCsv(const std::vector<NamedSweep>& sweeps,
                        const std::vector<std::string>& columnIds)
{
    if (sweeps.empty())
        return "";
    const Sweep& first = *sweeps.front().sweep;
    std::string csv =
        first.variable == SweepVariable::Vram ? "vram_gib" : sweepVariableId(first.variable);
    std::vector<std::vector<const SweepColumn*>> picked(sweeps.size());
    for (size_t g = 0; g < sweeps.size(); ++g)
        for (const SweepColumn& c : sweeps[g].sweep->columns)
            if (std::find(columnIds.begin(), columnIds.end(), c.id) != columnIds.end()) {
                picked[g].push_back(&c);
                const std::string name =
                    sweeps[g].name.empty() ? c.id : sweeps[g].name + ":" + c.id;
                // Quoted where a scenario's name holds a comma or a quote.
                std::string quoted = "\"";
                for (char ch : name)
                    quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
                csv +=
                    "," + (name.find_first_of(",\"\n") == std::string::npos ? name : quoted + "\"");
            }
    csv += "\n";
    for (size_t i = 0; i < first.x.size(); ++i) {
        csv += csvCell(first.x[i]);
        for (size_t g = 0; g < sweeps.size(); ++g)
            for (const SweepColumn* c : picked[g])
                // Every sweep shares the first one's points; a shorter one leaves cells empty.
                csv += "," + (i < c->values.size() && sweeps[g].sweep->x.size() == first.x.size()
                                  ? csvCell(c->values[i])
                                  : std::string());
        csv += "\n";
    }
    return csv;
}

const char* sweepVariableId(SweepVariable variable)
{
    switch (variable) {
    case SweepVariable::Context:
        return "context";
    case SweepVariable::Batch:
        return "batch";
    case SweepVariable::Vram:
        return "vram";
    }
    return "context";
}

bool parseSweepVariable(const std::string& id, SweepVariable* out)
{
    for (SweepVariable v : {SweepVariable::Context, SweepVariable::Batch, SweepVariable::Vram}) {
        if (id == sweepVariableId(v)) {
            *out = v;
            return true;
        }
    }
    return false;
}

const SweepColumn* Sweep::column(const std::string& id) const
{
    auto it =
        std::find_if(columns.begin(), columns.end(), [&](const auto& c) { return c.id == id; });
    return it == columns.end() ? nullptr : &*it;
}

std::vector<double> sweepGrid(SweepVariable variable, double from, double to, int points)
{
    std::vector<double> grid;
    if (points < 2 || !(from > 0) || !(to > from))
        return grid;
    grid.reserve(size_t(points));
    const double ratio = std::log(to / from);
    for (int i = 0; i < points; ++i) {
        double x = from * std::exp(ratio * double(i) / double(points - 1));
        if (i == points - 1)
            x = to;
        if (variable != SweepVariable::Vram)
            x = std::round(x);
        if (grid.empty() || x > grid.back())
            grid.push_back(x);
    }
    return grid;
}

Expected<Sweep> sweep(const Scenario& scenario, SweepVariable variable, double from, double to,
                      int points)
{
    const char* name = sweepVariableId(variable);
    double lo = 1, hi = double(limits::maxContext);
    if (variable == SweepVariable::Batch)
        hi = double(limits::maxBatch);
    if (variable == SweepVariable::Vram)
        lo = 0.001, hi = limits::maxMemoryGiB;
    const std::string range = "from " + formatPlain(lo) + " to " + formatPlain(hi);
    if (!std::isfinite(from) || from < lo || from > hi)
        return FieldError{"--from", formatPlain(from), std::string("a ") + name + " " + range};
    if (!std::isfinite(to) || to <= from || to > hi)
        return FieldError{"--to", formatPlain(to),
                          "a value above --from (" + formatPlain(from) + ") up to " +
                              formatPlain(hi)};
    if (points < 2 || points > 10'000)
        return FieldError{"--points", std::to_string(points), "an integer from 2 to 10,000"};

    Sweep result;
    result.variable = variable;
    result.x = sweepGrid(variable, from, to, points);
    for (const ColumnDef& def : columnDefs())
        result.columns.push_back({def.id, def.unit, {}});
    Scenario s = scenario;
    // The plain evaluation: the columns chart the curves, not the crossings.
    for (double x : result.x) {
        setVariable(s, variable, x);
        auto e = evaluate(s);
        if (!e)
            return e.error();
        for (size_t c = 0; c < result.columns.size(); ++c)
            result.columns[c].values.push_back(columnDefs()[c].value(*e));
    }
    return result;
}

} // namespace kvscope
