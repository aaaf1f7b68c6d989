// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/io/plan_json.h"
#include "kvscope/io/serving_json.h"

#include "kvscope/text/options_text.h"

#include "io/json_numbers.h"
#include "kvscope/base/number_format.h"

#include <nlohmann/json.hpp>

namespace kvscope {

using json_numbers::bytes;
using json_numbers::real;

namespace {

nlohmann::json optionsJson(const OptionList& options)
{
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [flag, value] : options)
        j[flag] = value;
    return j;
}

nlohmann::json rateJson(const PlanEntry& p)
{
    if (!p.rate.serves())
        return nullptr;
    const RateFit& r = p.rate;
    return {{"replicas", r.replicas},
            {"capacity_requests_per_s", real(r.capacityPerS)},
            {"users_per_replica", r.usersPerReplica},
            {"ttft_ms", real(r.ttftMs)},
            {"ttft_p50_ms", real(r.ttftP50Ms)},
            {"ttft_p90_ms", real(r.ttftP90Ms)},
            {"tokens_per_s_per_user", real(r.tokensPerSUser)},
            {"cost_per_hour",
             p.cost.known ? nlohmann::json(real(p.costPerHourAtRate())) : nlohmann::json(nullptr)}};
}

nlohmann::json entryJson(const PlanEntry& p)
{
    return {{"options", optionsJson(p.options)},
            {"rate", rateJson(p)},
            {"command", optionsText(p.options)},
            {"verdict", verdictToJson(p.scenario, p.verdict)},
            {"cost", costToJson(p.scenario, p.cost)},
            {"tokens_per_s", real(p.tokensPerS)},
            {"band", speedBandJson(p.scenario, SpeedFigure::Decode)},
            {"cautions", cautionsToJson(p.cautions)},
            {"on_pareto_front", p.onFront},
            {"lacks", p.lacks}};
}

} // namespace

nlohmann::json verdictToJson(const Scenario& s, const Verdict& v)
{
    return {{"runs", v.runs},
            {"binding", bindingId(v.binding)},
            {"needed_bytes_per_gpu", bytes(v.neededBytes)},
            {"offered_bytes_per_gpu", bytes(v.offeredBytes)},
            // What is missing, on each GPU or in the host's RAM, as the binding says.
            {"short_bytes_per_gpu", bytes(v.binding == Binding::HostRam ? 0.0 : v.shortBytes())},
            {"host_short_bytes", bytes(v.binding == Binding::HostRam ? v.shortBytes() : 0.0)},
            {"host_needed_bytes", bytes(v.hostNeededBytes)},
            {"host_offered_bytes", bytes(v.hostOfferedBytes)},
            {"host_ram_basis", hostRamBasisId(v.hostRamBasis)},
            {"tokens_per_s_per_user", real(v.tokensPerSUser)},
            {"ttft_ms", real(v.ttftMs)},
            {"ttft_last_ms", real(v.ttftLastMs)},
            // Which prompt that is: one of the full context, alone (serving's is its request's).
            {"ttft_prompt_tokens", s.context},
            {"ttft_users", 1},
            {"meets_targets", v.meetsTargets()},
            {"misses_tokens_per_s", v.missesTokensPerS},
            {"misses_ttft", v.missesTtft},
            {"text", verdictText(s, v, ByteUnits::Binary)}};
}

nlohmann::json costToJson(const Scenario& s, const Cost& c)
{
    if (!c.known)
        return {{"known", false}, {"basis", costBasisId(c.basis)}, {"currency", s.cost.currency}};
    const GpuPrice& price = s.gpu.prices.on(c.basis);
    nlohmann::json j = {
        {"known", true},
        {"basis", costBasisId(c.basis)},
        {"currency", s.cost.currency},
        {"per_hour", real(c.perHour)},
        // At the workload's mix of prompt and output tokens, and each alone.
        {"per_million_tokens", real(c.perMillionTokens)},
        {"per_million_prompt_tokens", real(c.perMillionPromptTokens)},
        {"per_million_output_tokens", real(c.perMillionOutputTokens)},
        {"mix",
         {{"prompt_tokens", s.workload.promptTokens}, {"output_tokens", s.workload.outputTokens}}},
        {"price_source", price.source},
        {"price_date", price.date},
        {"price_kind", c.basis == CostBasis::Rent ? "rental" : "purchase"}};
    if (c.basis == CostBasis::Own) {
        j["amortization_years"] = s.cost.amortizationYears;
        const OwningCost& o = c.owning;
        j["per_gpu_hour_usd"] = {{"gpu", real(o.gpuPerHour)},
                                 {"host", real(o.hostPerHour)},
                                 {"power", real(o.powerPerHour)},
                                 {"hosting", real(o.hostingPerHour)}};
    }
    return j;
}

nlohmann::json cautionsToJson(const std::vector<Caution>& cautions)
{
    nlohmann::json list = nlohmann::json::array();
    for (const Caution& c : cautions) {
        nlohmann::json j = {{"id", cautionId(c.kind)},
                            {"value", c.value},
                            {"limit", c.limit},
                            {"message", cautionText(c, ByteUnits::Binary)}};
        if (!c.source.empty())
            j["source"] = c.source;
        list.push_back(std::move(j));
    }
    return list;
}

nlohmann::json remediesToJson(const std::vector<Remedy>& remedies)
{
    nlohmann::json list = nlohmann::json::array();
    for (const Remedy& r : remedies)
        list.push_back({{"kind", remedyId(r.kind)},
                        {"options", optionsJson(r.options)},
                        {"command", optionsText(r.options)},
                        {"verdict", verdictToJson(r.scenario, r.verdict)},
                        {"longest_context", r.longestContext ? nlohmann::json(*r.longestContext)
                                                             : nlohmann::json(nullptr)},
                        {"concurrency",
                         r.concurrency ? nlohmann::json(*r.concurrency) : nlohmann::json(nullptr)},
                        {"decode_ms", real(r.decodeMs)},
                        {"tokens_per_s", real(r.tokensPerS)},
                        {"cost", costToJson(r.scenario, r.cost)}});
    return list;
}

nlohmann::json planToJson(const PlanRequest& request, const PlanResult& result)
{
    nlohmann::json ranked = nlohmann::json::array(), misses = nlohmann::json::array();
    for (const PlanEntry& p : result.ranked)
        ranked.push_back(entryJson(p));
    for (const PlanEntry& p : result.closestMisses)
        misses.push_back(entryJson(p));
    const Scenario& b = request.base;
    return {{"request",
             {{"model", b.model.id},
              {"context", b.context},
              {"users", b.batch},
              {"min_tokens_per_s_per_user", b.targets.minTokensPerSUser},
              {"max_ttft_ms", b.targets.maxTtftMs},
              {"max_gpus_per_node", request.maxGpusPerNode},
              {"max_nodes", request.maxNodes},
              {"min_weight_bits", request.minWeightBits},
              {"min_kv_bits", request.minKvBits},
              {"objective", planObjectiveId(request.objective)},
              {"rate_requests_per_s", request.ratePerS},
              {"prompt_tokens", b.workload.promptTokens},
              {"output_tokens", b.workload.outputTokens},
              {"cost_basis", costBasisId(b.cost.basis)}}},
            {"evaluated", result.evaluated},
            {"unpriced_gpus", result.unpriced},
            {"why_first", result.ranked.size() >= 2
                              ? nlohmann::json(planPreferenceId(whyFirst(
                                    result.ranked[0], result.ranked[1], request.objective)))
                              : nlohmann::json(nullptr)},
            {"cheapest_rejected", result.cheapestRejected ? entryJson(*result.cheapestRejected)
                                                          : nlohmann::json(nullptr)},
            {"ranked", ranked},
            {"closest_misses", misses}};
}

nlohmann::json fitMatrixToJson(const FitMatrix& m)
{
    nlohmann::json rows = nlohmann::json::array();
    for (size_t r = 0; r < m.rowIds.size(); ++r) {
        nlohmann::json cells = nlohmann::json::object();
        for (size_t c = 0; c < m.columnIds.size(); ++c) {
            const FitCell& cell = m.at(r, c);
            cells[m.columnIds[c]] = {{"fit", cellFitId(cell.fit)},
                                     {"longest_context", cell.longestContext},
                                     {"concurrency", cell.concurrency}};
        }
        rows.push_back({{"model", m.rowIds[r]}, {"name", m.rowNames[r]}, {"cells", cells}});
    }
    return {{"columns", matrixAxesId(m.axes)}, {"column_ids", m.columnIds}, {"rows", rows}};
}

} // namespace kvscope
