// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/io/plan_csv.h"

#include "kvscope/base/number_format.h"

#include <sstream>

namespace kvscope {

namespace {

std::string option(const OptionList& options, const std::string& flag)
{
    for (const auto& [name, value] : options)
        if (name == flag)
            return value;
    return "";
}

// A CSV number: plain, no grouping, enough digits to recompute what the window shows.
std::string number(double v)
{
    return formatPlain(v);
}

} // namespace

std::string fitMatrixToCsv(const FitMatrix& m)
{
    std::ostringstream out;
    out << "model," << (m.axes == MatrixAxes::ModelsByGpus ? "gpu" : "weights")
        << ",fit,longest_context,concurrency\n";
    for (size_t r = 0; r < m.rowIds.size(); ++r)
        for (size_t c = 0; c < m.columnIds.size(); ++c) {
            const FitCell& cell = m.at(r, c);
            out << m.rowIds[r] << "," << m.columnIds[c] << "," << cellFitId(cell.fit) << ","
                << cell.longestContext << "," << cell.concurrency << "\n";
        }
    return out.str();
}

std::string planToCsv(const PlanResult& result)
{
    std::ostringstream out;
    out << "rank,gpu,gpus,nodes,engine,weights,kv_dtype,kv_placement,tokens_per_s_per_user,"
           "tokens_per_s,ttft_ms,cost_per_hour,cost_per_million_tokens,"
           "cost_per_million_prompt_tokens,cost_per_million_output_tokens,currency,"
           "on_pareto_front,lacks\n";
    const bool misses = result.ranked.empty();
    const std::vector<PlanEntry>& entries = misses ? result.closestMisses : result.ranked;
    for (size_t i = 0; i < entries.size(); ++i) {
        const PlanEntry& p = entries[i];
        std::string lacks;
        for (const std::string& l : p.lacks)
            lacks += (lacks.empty() ? "" : ";") + l;
        // A configuration that does not fit has no speed or first token: empty cells, as an
        // unknown cost has.
        const bool runs = p.verdict.runs;
        out << (misses ? 0 : i + 1) << "," << option(p.options, "gpu") << ","
            << option(p.options, "gpus") << "," << p.scenario.nodes << ","
            << option(p.options, "engine") << "," << option(p.options, "weights") << ","
            << option(p.options, "kv-dtype") << "," << option(p.options, "kv-placement") << ","
            << (runs ? number(p.verdict.tokensPerSUser) : "") << ","
            << (runs ? number(p.tokensPerS) : "") << "," << (runs ? number(p.verdict.ttftMs) : "")
            << "," << (p.cost.known ? number(p.cost.perHour) : "") << ","
            << (p.cost.known ? number(p.cost.perMillionTokens) : "") << ","
            << (p.cost.known ? number(p.cost.perMillionPromptTokens) : "") << ","
            << (p.cost.known ? number(p.cost.perMillionOutputTokens) : "") << ","
            << p.scenario.cost.currency << "," << (p.onFront ? "yes" : "no") << "," << lacks
            << "\n";
    }
    return out.str();
}

} // namespace kvscope
