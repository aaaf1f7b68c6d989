// SPDX-License-Identifier: GPL-3.0-or-later
// `kvscope-cli plan`: the configurations to buy for the scenario's model, context and users
// (--users is --batch), ranked, with what each costs; `kvscope-cli matrix`: the fit matrix.
#include "cli.h"
#include "cli_commands.h"

#include "kvscope/base/number_format.h"
#include "kvscope/io/plan_csv.h"
#include "kvscope/io/plan_json.h"
#include "kvscope/settings/scenario_options.h"
#include "kvscope/text/options_text.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace kvscope::cli {

namespace {

// An integer option within [lo, hi], or `fallback` when absent.
Expected<int64_t> wholeOption(const ParsedArgs& args, const std::string& name, int64_t lo,
                              int64_t hi, int64_t fallback)
{
    if (!args.value(name))
        return fallback;
    auto v = numberOption(args, name);
    const std::string accepted =
        "an integer from " + formatInteger(lo) + " to " + formatInteger(hi);
    if (!v)
        return FieldError{"--" + name, *args.value(name), accepted};
    if (*v != std::floor(*v) || *v < double(lo) || *v > double(hi))
        return FieldError{"--" + name, *args.value(name), accepted};
    return int64_t(*v);
}

template <typename Entries>
std::optional<FieldError> checkIds(const std::vector<std::string>& ids, const Entries& known,
                                   const std::string& option)
{
    for (const std::string& id : ids) {
        bool found = false;
        std::vector<std::string> all;
        for (const auto& entry : known) {
            found = found || entry.id == id;
            all.push_back(entry.id);
        }
        if (!found)
            return FieldError{"--" + option, id, "a comma-separated list of: " + orList(all)};
    }
    return std::nullopt;
}

Expected<PlanRequest> planRequest(const ParsedArgs& args, const Catalog& catalog)
{
    auto base = scenarioFromOptions(args.scenarioValues(), catalog);
    if (!base)
        return base.error();
    PlanRequest r;
    r.base = *base;
    auto gpusPerNode = wholeOption(args, "max-gpus-per-node", 1, 8, 8);
    if (!gpusPerNode)
        return gpusPerNode.error();
    r.maxGpusPerNode = int(*gpusPerNode);
    auto nodes = wholeOption(args, "max-nodes", 1, 16, 4);
    if (!nodes)
        return nodes.error();
    r.maxNodes = int(*nodes);
    auto limit = wholeOption(args, "limit", 1, 1000, 20);
    if (!limit)
        return limit.error();
    r.limit = size_t(*limit);
    if (args.value("min-weight-bits")) {
        auto bits = numberOption(args, "min-weight-bits");
        if (!bits || *bits < 1 || *bits > 32)
            return FieldError{"--min-weight-bits", *args.value("min-weight-bits"),
                              "a number from 1 to 32"};
        r.minWeightBits = *bits;
    }
    if (args.value("min-kv-bits")) {
        auto bits = numberOption(args, "min-kv-bits");
        if (!bits || *bits < 1 || *bits > 32)
            return FieldError{"--min-kv-bits", *args.value("min-kv-bits"), "a number from 1 to 32"};
        r.minKvBits = *bits;
    }
    if (args.value("rate")) {
        auto rate = numberOption(args, "rate");
        if (!rate || *rate <= 0 || *rate > 1e6)
            return FieldError{"--rate", *args.value("rate"),
                              "requests per second, a number above 0 and up to 1,000,000"};
        r.ratePerS = *rate;
    }
    if (const std::string* d = args.value("class"); d && !parseDeployment(*d, &r.deployment))
        return FieldError{"--class", *d, "any, datacenter, workstation or consumer"};
    r.base.targets = planTargets(r.base); // printed as they are applied
    if (const std::string* o = args.value("objective"); o && !parsePlanObjective(*o, &r.objective))
        return FieldError{"--objective", *o, "cost, cost-per-million, gpus or speed"};
    r.engines = listOption(args, "allow-engines");
    r.gpus = listOption(args, "allow-gpus");
    if (auto e = checkIds(r.engines, catalog.engines, "allow-engines"))
        return *e;
    if (auto e = checkIds(r.gpus, catalog.gpus, "allow-gpus"))
        return *e;
    return r;
}

// What every row had to meet, so a reader knows what "ranked" excludes, and how to change it.
std::string costLine(const Scenario& b);

// With --rate: the workload it is of, and how a replica's share is found.
std::string rateLine(const PlanRequest& r)
{
    if (r.ratePerS <= 0)
        return {};
    const Workload& w = r.base.workload;
    return "Rate: " + formatNumber(r.ratePerS, r.ratePerS < 10 ? 2 : 1) +
           " requests/s (--rate) of " + formatInteger(w.promptTokens) + " prompt and " +
           formatInteger(w.outputTokens) +
           " output tokens, arriving at random (Poisson); each replica runs as many at once as "
           "its serving curve allows within the targets, and the replicas are the fewest whose "
           "90th-percentile first token, its wait for a slot in a burst included, meets "
           "--max-ttft-ms (\"p90 TTFT\"); the cost is that of every replica.\n";
}

std::string joined(const std::vector<std::string>& words, const std::string& separator)
{
    std::string text;
    for (const std::string& w : words)
        text += (text.empty() ? "" : separator) + w;
    return text;
}

std::string targetsLine(const PlanRequest& r)
{
    const Targets& t = r.base.targets;
    const int64_t users = r.base.batch;
    return "Held to: at least " + formatTokensPerSecond(t.minTokensPerSUser) +
           " tokens/s per user (--min-tokens-per-s), first token within " +
           formatDuration(t.maxTtftMs) +
           (users > 1
                ? " for the last of " + formatInteger(users) + " full-context prompts sent together"
                : std::string(" for a full-context prompt")) +
           " (--max-ttft-ms), weights of " + formatNumber(r.minWeightBits, 1) +
           " bits and more (--min-weight-bits), a KV cache of " + formatNumber(r.minKvBits, 1) +
           " bits and more (--min-kv-bits).\n" + rateLine(r) + costLine(r.base);
}

// The basis every price is on, and how tokens are priced.
std::string costLine(const Scenario& b)
{
    const std::string basis = b.cost.basis == CostBasis::Rent
                                  ? "Costs: rented GPU-hours (--cost-basis rent)"
                                  : "Costs: owned GPUs (--cost-basis own): price over " +
                                        formatNumber(b.cost.amortizationYears, 1) +
                                        " years, host share, power and colocation";
    return basis + "; per million prompt tokens (\"M in\", at the prefill rate) and output " +
           "tokens (\"M out\", at the decode rate); --objective cost-per-million mixes them " +
           formatInteger(b.workload.promptTokens) + " : " + formatInteger(b.workload.outputTokens) +
           " (--prompt-tokens, --output-tokens).";
}

enum class Price { PerHour, PerMillionIn, PerMillionOut };

std::string money(const Scenario& s, const Cost& c, Price price)
{
    if (!c.known)
        return "-";
    const double v = price == Price::PerHour        ? c.perHour
                     : price == Price::PerMillionIn ? c.perMillionPromptTokens
                                                    : c.perMillionOutputTokens;
    if (v <= 0)
        return "-";
    return formatNumber(v, v < 10 ? 2 : v < 1000 ? 1 : 0) + " " + s.cost.currency;
}

// The row's measured error, short: "-38/+26 %" of step time, "1 case" under a band, or "none".
std::string bandText(const SpeedBand& b)
{
    if (b.usable()) {
        const auto pct = [](double x) {
            return (x >= 0 ? "+" : "-") + formatNumber(std::fabs(x) * 100, 0);
        };
        return pct(b.low) + "/" + pct(b.high) + " %";
    }
    return b.cases == 0 ? "none" : formatInteger(b.cases) + (b.cases == 1 ? " case" : " cases");
}

// A speed or a time only for a configuration that runs ("-" for one that does not fit).
std::string ifRuns(const PlanEntry& p, const std::string& figure)
{
    return p.verdict.runs ? figure : "-";
}

// The GPUs, and how they split the model where the search chose other than the default
// (tensor parallel in each node, a pipeline stage per node, attention split as the rest).
std::string gpusText(const Scenario& s)
{
    std::string text = s.nodes > 1 ? std::to_string(s.nodes) + " nodes x " +
                                         std::to_string(s.gpuCount / s.nodes) + " x " + s.gpu.name
                                   : std::to_string(s.gpuCount) + " x " + s.gpu.name;
    if (s.tensorAcrossNodes)
        text += ", TP " + std::to_string(s.gpuCount);
    if (s.dpAttention)
        text += ", DP attention";
    return text;
}

// The GPU column as wide as its longest entry and two spaces more, so no name runs into the
// engine beside it ("RTX 5060 Ti 16GBllamacpp").
int gpuColumnWidth(const std::vector<PlanEntry>& entries)
{
    size_t width = 34;
    for (const PlanEntry& p : entries)
        width = std::max(width, gpusText(p.scenario).size() + 2); // catalog names are ASCII
    return int(width);
}

void printPlanTable(const std::vector<PlanEntry>& entries, bool misses, std::ostream& out)
{
    std::ostringstream t;
    const int gpuWidth = gpuColumnWidth(entries);
    t << std::left << std::setw(4) << "#" << std::setw(gpuWidth) << "GPUs" << std::setw(14)
      << "engine" << std::setw(11) << "weights" << std::setw(6) << "KV" << std::right
      << std::setw(12) << "tok/s/user" << std::setw(12) << "measured" << std::setw(12)
      << "tok/s all" << std::setw(12) << "TTFT last" << std::setw(14) << "per hour" << std::setw(13)
      << "M in" << std::setw(13) << "M out";
    // With --rate: the replicas each takes and what they cost together.
    const bool withRate = std::any_of(entries.begin(), entries.end(),
                                      [](const PlanEntry& p) { return p.rate.serves(); });
    if (withRate)
        t << std::setw(10) << "replicas" << std::setw(12) << "p90 TTFT" << std::setw(14)
          << "rate/hour";
    t << (misses ? "  lacks" : "  front") << "\n";
    int rank = 0;
    for (const PlanEntry& p : entries) {
        const Scenario& s = p.scenario;
        std::string lacks;
        for (const std::string& l : p.lacks)
            lacks += (lacks.empty() ? "" : ", ") + l;
        t << std::left << std::setw(4) << ++rank << std::setw(gpuWidth) << gpusText(s)
          << std::setw(14) << s.engine.id << std::setw(11) << s.weights.id << std::setw(6)
          << s.kvDtype.id << std::right << std::setw(12)
          << ifRuns(p, formatTokensPerSecond(p.verdict.tokensPerSUser)) << std::setw(12)
          << bandText(p.band) << std::setw(12) << ifRuns(p, formatTokensPerSecond(p.tokensPerS))
          << std::setw(12) << ifRuns(p, formatDuration(p.verdict.ttftLastMs)) << std::setw(14)
          << money(s, p.cost, Price::PerHour) << std::setw(13)
          << money(s, p.cost, Price::PerMillionIn) << std::setw(13)
          << money(s, p.cost, Price::PerMillionOut);
        if (withRate) {
            Cost atRate = p.cost;
            atRate.perHour = p.costPerHourAtRate();
            t << std::setw(10) << (p.rate.serves() ? formatInteger(p.rate.replicas) : "-")
              << std::setw(12) << (p.rate.serves() ? formatDuration(p.rate.ttftP90Ms) : "-")
              << std::setw(14) << money(s, atRate, Price::PerHour);
        }
        t << (misses ? "  " + lacks : p.onFront ? "  *" : "") << "\n";
    }
    out << t.str();
}

std::string configurationText(const PlanEntry& p)
{
    const Scenario& s = p.scenario;
    return gpusText(s) + " (" + s.engine.shortName + ", " + s.weights.id + " weights, " +
           s.kvDtype.id + " KV)";
}

// Why the first row is first: against the second, and against the cheapest turned away.
void printWhy(const PlanRequest& r, const PlanResult& result, std::ostream& out)
{
    if (result.ranked.size() >= 2) {
        const PlanEntry& a = result.ranked[0];
        const PlanEntry& b = result.ranked[1];
        const Scenario& s = a.scenario;
        out << "Why #1 over #2: ";
        switch (whyFirst(a, b, r.objective)) {
        case PlanPreference::Cheaper: {
            Cost less = a.cost;
            less.perHour = b.costPerHourAtRate() - a.costPerHourAtRate();
            out << "it costs " << money(s, less, Price::PerHour) << " an hour less";
            break;
        }
        case PlanPreference::MoreFaithful:
            out << "the same cost, with more faithful formats (" << s.weights.id << " / "
                << s.kvDtype.id << " against " << b.scenario.weights.id << " / "
                << b.scenario.kvDtype.id << ")";
            break;
        case PlanPreference::Measured:
            out << "the same cost and formats, and its speed was measured (" << a.band.cases
                << " measurements of " << a.band.classId << "); " << b.scenario.engine.shortName
                << "'s on this hardware never was";
            break;
        case PlanPreference::Faster:
            out << "the same cost and formats, and faster at the slow end of its measured band ("
                << formatTokensPerSecond(a.band.signableTokensPerS(a.verdict.tokensPerSUser))
                << " against "
                << formatTokensPerSecond(b.band.signableTokensPerS(b.verdict.tokensPerSUser))
                << " tokens/s per user)";
            break;
        case PlanPreference::FewerGpus:
            if (r.objective == PlanObjective::FewestGpus)
                out << "it takes fewer GPUs (" << a.scenario.gpuCount * a.replicas() << " against "
                    << b.scenario.gpuCount * b.replicas() << ")";
            else
                out << "the same cost, formats and speed, on fewer GPUs";
            break;
        case PlanPreference::FasterPerUser:
            out << "it is faster per user (" << formatTokensPerSecond(a.verdict.tokensPerSUser)
                << " against " << formatTokensPerSecond(b.verdict.tokensPerSUser) << " tokens/s)";
            break;
        }
        out << ".\n";
    }
    if (!result.cheapestRejected)
        return;
    const PlanEntry& c = *result.cheapestRejected;
    const Targets& t = r.base.targets;
    std::vector<std::string> why;
    if (!c.verdict.runs)
        why.push_back(verdictText(c.scenario, c.verdict, ByteUnits::Binary));
    if (c.verdict.runs && c.verdict.missesTokensPerS)
        why.push_back(formatTokensPerSecond(c.verdict.tokensPerSUser) +
                      " tokens/s per user, under " + formatTokensPerSecond(t.minTokensPerSUser));
    if (c.verdict.runs && c.verdict.missesTtft)
        why.push_back("first token in " + formatDuration(c.verdict.ttftLastMs) + ", over " +
                      formatDuration(t.maxTtftMs));
    if (std::find(c.lacks.begin(), c.lacks.end(), "rate") != c.lacks.end())
        why.push_back("no concurrency serves the rate within the targets");
    out << "Cheapest turned away: " << configurationText(c) << " at "
        << money(c.scenario, c.cost, Price::PerHour) << " an hour: " << joined(why, "; ") << ".\n";
}

// Each caution once, with the rows it applies to: "Cautions: #1, #3: ...".
void printCautions(const std::vector<PlanEntry>& entries, std::ostream& out)
{
    std::vector<std::pair<std::string, std::string>> seen; // text, rows
    for (size_t i = 0; i < entries.size(); ++i)
        for (const Caution& c : entries[i].cautions) {
            const std::string text = cautionText(c, ByteUnits::Binary);
            auto it = std::find_if(seen.begin(), seen.end(),
                                   [&](const auto& s) { return s.first == text; });
            if (it == seen.end())
                it = seen.insert(seen.end(), {text, std::string()});
            it->second += (it->second.empty() ? "#" : ", #") + std::to_string(i + 1);
        }
    if (!seen.empty())
        out << "\n";
    for (const auto& [text, rows] : seen)
        out << rows << ": " << text << "\n";
}

} // namespace

int planCommand(const ParsedArgs& args, const Catalog& catalog, std::ostream& out,
                std::ostream& err)
{
    if (!args.positional.empty())
        return badInput(err, {"plan", args.positional.front(), "no positional arguments"});
    if (args.has("csv") && args.has("json"))
        return badInput(err, {"--csv", "with --json", "one output format"});
    auto request = planRequest(args, catalog);
    if (!request)
        return badInput(err, request.error());
    const PlanResult result = plan(*request, catalog);
    if (args.has("json")) {
        out << planToJson(*request, result).dump(2) << "\n";
        return exitOk;
    }
    if (args.has("csv")) {
        out << planToCsv(result);
        return exitOk;
    }
    const Scenario& b = request->base;
    out << b.model.name << ", " << formatInteger(b.context) << " tokens, " << formatInteger(b.batch)
        << (b.batch == 1 ? " user" : " users")
        << (request->deployment == Deployment::Any
                ? std::string()
                : std::string(", ") + deploymentId(request->deployment) + " GPUs (--class)")
        << "; " << formatInteger(int64_t(result.evaluated))
        << " configurations evaluated, ranked by " << planObjectiveId(request->objective) << ".\n"
        << targetsLine(*request) << "\n\n";
    if (result.ranked.empty() && result.unpriced.empty()) {
        out << "Nothing in the catalog runs this and meets the targets. Closest:\n";
        printPlanTable(result.closestMisses, true, out);
        return exitOk;
    }
    printPlanTable(result.ranked, false, out);
    printCautions(result.ranked, out);
    if (!result.ranked.empty())
        out << "\n";
    printWhy(*request, result, out);
    if (!result.unpriced.empty())
        out << "\nLeft out, no " << (b.cost.basis == CostBasis::Rent ? "rental" : "purchase")
            << " price in the catalog (" << result.unpriced.size() << " GPU"
            << (result.unpriced.size() == 1 ? "" : "s")
            << " that meet the targets): " << joined(result.unpriced, ", ") << ".\n";
    if (result.ranked.empty())
        return exitOk;
    out << "\nmeasured: how far measured step times of the row's speed class (engine, GPU class, "
           "dense or MoE, quantized or not) fell from kvscope's, lowest to highest (kvscope-cli "
           "validate); none: no measurement of the class, so its speed is unchecked.\n"
        << "* on the Pareto front of cost per hour against tokens/s per user.\n"
        << "Run #1 as a scenario: kvscope-cli calc " << optionsText(result.ranked.front().options)
        << " (with the options above)\n";
    return exitOk;
}

int matrixCommand(const ParsedArgs& args, const Catalog& catalog, std::ostream& out,
                  std::ostream& err)
{
    if (!args.positional.empty())
        return badInput(err, {"matrix", args.positional.front(), "no positional arguments"});
    MatrixAxes axes = MatrixAxes::ModelsByGpus;
    if (const std::string* c = args.value("columns")) {
        if (*c == "formats")
            axes = MatrixAxes::ModelsByFormats;
        else if (*c != "gpus")
            return badInput(err, {"--columns", *c, "gpus or formats"});
    }
    if (args.has("csv") && args.has("json"))
        return badInput(err, {"--csv", "with --json", "one output format"});
    const std::vector<std::string> models = listOption(args, "models");
    if (auto e = checkIds(models, catalog.models, "models"))
        return badInput(err, *e);
    auto base = scenarioFromOptions(args.scenarioValues(), catalog);
    if (!base)
        return badInput(err, base.error());
    const FitMatrix m = fitMatrix(*base, catalog, axes, models);
    if (args.has("json")) {
        out << fitMatrixToJson(m).dump(2) << "\n";
        return exitOk;
    }
    if (args.has("csv")) {
        out << fitMatrixToCsv(m);
        return exitOk;
    }
    // Text: one row per model; "fits" cells show the concurrency, "shorter" the longest context.
    std::ostringstream t;
    t << std::left << std::setw(28) << "model";
    for (const std::string& id : m.columnIds)
        t << std::setw(14) << id.substr(0, 13);
    t << "\n";
    for (size_t r = 0; r < m.rowIds.size(); ++r) {
        t << std::setw(28) << m.rowIds[r].substr(0, 27);
        for (size_t c = 0; c < m.columnIds.size(); ++c) {
            const FitCell& cell = m.at(r, c);
            t << std::setw(14)
              << (cell.fit == CellFit::Fits          ? "ok x" + formatInteger(cell.concurrency)
                  : cell.fit == CellFit::FitsShorter ? "<" + formatInteger(cell.longestContext)
                                                     : std::string("-"));
        }
        t << "\n";
    }
    out << t.str() << "\nok xN: fits, N sequences of " << formatInteger(base->context)
        << " tokens at once; <N: fits only up to N tokens per sequence; -: does not fit.\n";
    return exitOk;
}

} // namespace kvscope::cli
