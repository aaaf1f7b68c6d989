// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/planning/rate_fit.h"

#include "kvscope/planning/serving.h"

#include <cmath>

namespace kvscope {

RateFit rateFit(const Scenario& scenario, const Targets& targets, double requestsPerS)
{
    RateFit fit;
    if (requestsPerS <= 0 || scenario.workload.outputTokens <= 0)
        return fit;
    const ServingCurve curve = servingCurve(scenario);
    if (!curve.unavailable.empty())
        return fit;
    const double output = double(scenario.workload.outputTokens);
    for (const ServingPoint& p : curve.points) {
        const bool meets =
            (targets.minTokensPerSUser <= 0 || p.perUserTokensPerS >= targets.minTokensPerSUser) &&
            (targets.maxTtftMs <= 0 || p.ttftMs <= targets.maxTtftMs);
        const double capacity = p.aggregateTokensPerS / output;
        if (!meets || capacity <= fit.capacityPerS)
            continue;
        fit.capacityPerS = capacity;
        fit.usersPerReplica = p.users;
        fit.ttftMs = p.ttftMs;
        fit.tokensPerSUser = p.perUserTokensPerS;
    }
    if (fit.capacityPerS > 0)
        // A hair under a whole number of replicas is that number, not one more.
        fit.replicas = int64_t(std::ceil(requestsPerS / fit.capacityPerS - 1e-9));
    return fit;
}

} // namespace kvscope
