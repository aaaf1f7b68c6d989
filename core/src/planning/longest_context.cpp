// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/planning/longest_context.h"

#include "kvscope/evaluation/evaluation.h"
#include "kvscope/planning/verdict.h"

namespace kvscope {

std::optional<int64_t> longestRunningContext(const Scenario& scenario, int64_t upTo,
                                             bool meetTargets)
{
    Scenario s = scenario;
    const int64_t n = largestHolding(1, upTo, [&](int64_t context) {
        s.context = context;
        const auto e = evaluate(s);
        if (!e)
            return false;
        const Verdict v = verdictOf(s, *e);
        return meetTargets ? v.meetsTargets() : v.runs;
    });
    return n >= 1 ? std::optional<int64_t>(n) : std::nullopt;
}

} // namespace kvscope
