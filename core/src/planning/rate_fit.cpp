// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/planning/rate_fit.h"

#include "kvscope/planning/poisson_queue.h"
#include "kvscope/planning/serving.h"

#include <cmath>

namespace kvscope {

namespace {

// Past this many replicas over the steady minimum a burst target is not worth chasing: the
// configuration does not serve the rate.
constexpr int64_t kMostExtraReplicas = 64;

// The busiest point of the curve whose users all run at once and meet the targets.
void pickBusiestPoint(const ServingCurve& curve, const Targets& targets, double outputTokens,
                      RateFit& fit, double& holdMs)
{
    for (const ServingPoint& p : curve.points) {
        const bool meets =
            p.running >= p.users &&
            (targets.minTokensPerSUser <= 0 || p.perUserTokensPerS >= targets.minTokensPerSUser) &&
            (targets.maxTtftMs <= 0 || p.ttftMs <= targets.maxTtftMs);
        const double capacity = p.aggregateTokensPerS / outputTokens;
        if (!meets || capacity <= fit.capacityPerS)
            continue;
        fit.capacityPerS = capacity;
        fit.usersPerReplica = p.users;
        fit.ttftMs = p.ttftMs;
        fit.tokensPerSUser = p.perUserTokensPerS;
        holdMs = p.ttftMs + outputTokens * p.stepMs;
    }
}

} // namespace

RateFit rateFit(const Scenario& scenario, const Targets& targets, double requestsPerS)
{
    RateFit fit;
    if (requestsPerS <= 0 || scenario.workload.outputTokens <= 0)
        return fit;
    const ServingCurve curve = servingCurve(scenario);
    if (!curve.unavailable.empty())
        return fit;
    double holdMs = 0;
    pickBusiestPoint(curve, targets, double(scenario.workload.outputTokens), fit, holdMs);
    if (fit.capacityPerS <= 0)
        return fit;
    // A hair under a whole number of replicas is that number, not one more.
    const int64_t steady = int64_t(std::ceil(requestsPerS / fit.capacityPerS - 1e-9));
    // The p90 first token at `replicas`, or none when bursts queue past the target there. More
    // replicas only shorten the queue, so the fewest that meet it are found by doubling the
    // extra replicas and then bisecting (each try simulates thousands of arrivals).
    auto meets = [&](int64_t replicas) -> std::optional<SlotWait> {
        const auto wait =
            poissonSlotWait(requestsPerS / double(replicas), fit.usersPerReplica, holdMs);
        if (!wait || (targets.maxTtftMs > 0 && fit.ttftMs + wait->p90Ms > targets.maxTtftMs))
            return std::nullopt;
        return wait;
    };
    int64_t lo = steady - 1; // known not to meet the targets (or below the steady minimum)
    int64_t hi = steady;
    std::optional<SlotWait> atHi = meets(hi);
    for (int64_t extra = 1; !atHi; extra *= 2) {
        if (extra > kMostExtraReplicas)
            return fit; // bursts queue past the target at any sensible count
        lo = hi;
        hi = steady + extra;
        atHi = meets(hi);
    }
    while (hi - lo > 1) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (auto w = meets(mid)) {
            hi = mid;
            atHi = w;
        } else {
            lo = mid;
        }
    }
    fit.replicas = hi;
    fit.ttftP50Ms = fit.ttftMs + atHi->p50Ms;
    fit.ttftP90Ms = fit.ttftMs + atHi->p90Ms;
    return fit;
}

} // namespace kvscope
