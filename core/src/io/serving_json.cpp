// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/io/serving_json.h"

#include "io/json_numbers.h"
#include "kvscope/scenario/speed_class.h"

#include <nlohmann/json.hpp>

namespace kvscope {

using json_numbers::real;

namespace {

// `promptTokens`: the workload's request, whose time to first token (waiting included) this is,
// beside the verdict's of a full-context prompt alone.
nlohmann::json pointJson(const ServingPoint& p, int64_t promptTokens)
{
    return {{"users", p.users},
            {"running", p.running},
            {"aggregate_tokens_per_s", real(p.aggregateTokensPerS)},
            {"per_user_tokens_per_s", real(p.perUserTokensPerS)},
            {"time_per_output_token_ms", real(p.stepMs)},
            {"average_step_ms", real(p.averageStepMs)},
            {"ttft_ms", real(p.ttftMs)},
            {"ttft_prompt_tokens", promptTokens},
            {"ttft_users", p.users},
            {"ttft_together_mean_ms", real(p.togetherTtftMeanMs)},
            {"ttft_together_last_ms", real(p.togetherTtftLastMs)},
            {"preemption_ms", real(p.preemptionMs)},
            {"compute_bound", p.computeBound}};
}

} // namespace

nlohmann::json speedBandJson(const Scenario& s, SpeedFigure figure)
{
    const SpeedBand b = speedBandOf(s, figure);
    nlohmann::json band{{"class", b.classId}, {"cases", b.cases}};
    if (b.usable()) {
        const std::string time = figure == SpeedFigure::Decode ? "step_time"
                                 : figure == SpeedFigure::Tpot ? "time_per_output_token"
                                                               : "ttft";
        band[time + "_low"] = b.low;
        band[time + "_high"] = b.high;
    }
    return band;
}

nlohmann::json servingToJson(const Scenario& scenario, const Serving& serving, bool withPoints)
{
    nlohmann::json j = {{"users", scenario.batch},
                        {"prompt_tokens", scenario.workload.promptTokens},
                        {"output_tokens", scenario.workload.outputTokens},
                        {"shared_prefix_tokens", scenario.workload.sharedPrefixTokens},
                        {"replicas", scenario.replicas},
                        {"max_length", scenario.context}};
    if (serving.refused) {
        j["refused"] = serving.refused->message();
        return j;
    }
    nlohmann::json& engines = j["engines"] = nlohmann::json::array();
    for (const ServingCurve& c : serving.curves) {
        nlohmann::json e = {{"id", c.engineId}, {"name", c.engineName}, {"selected", c.selected}};
        if (!c.unavailable.empty()) {
            e["unavailable"] = c.unavailable;
            engines.push_back(std::move(e));
            continue;
        }
        e["kv_tokens_per_request"] = c.kvTokensPerRequest;
        e["memory_concurrency"] = c.memoryConcurrency;
        e["max_running"] = c.maxRunning;
        e["limited_by"] = c.limitedBy;
        e["preemption"] = c.preemption.empty() ? "none" : c.preemption;
        if (c.swapSpaceShort)
            e["swap_space_short"] = true;
        if (c.maxRequests > 0)
            e["max_requests"] = c.maxRequests;
        e["refuses_users"] = c.refusesUsers;
        if (scenario.workload.sharedPrefixTokens > 0)
            e["prefix_cache"] = {{"cached_prefix_tokens", c.cachedPrefixTokens},
                                 {"held_once", c.prefixHeldOnce},
                                 {"memory_concurrency_uncached", c.memoryConcurrencyUncached},
                                 {"prefill_ms", real(c.prefillMs)},
                                 {"prefill_ms_uncached", real(c.prefillMsUncached)}};
        const int64_t prompt = scenario.workload.promptTokens;
        e["at_users"] = pointJson(c.atUsers, prompt);
        // The other engines run at their defaults; the band is the measured class's, the
        // scenario's own engine.
        if (c.selected)
            e["band"] = {{"time_per_output_token", speedBandJson(scenario, SpeedFigure::Tpot)},
                         {"ttft", speedBandJson(scenario, SpeedFigure::Ttft)}};
        if (withPoints) {
            nlohmann::json& points = e["points"] = nlohmann::json::array();
            for (const ServingPoint& p : c.points)
                points.push_back(pointJson(p, prompt));
        }
        engines.push_back(std::move(e));
    }
    return j;
}

} // namespace kvscope
