// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The longest context a scenario runs at: one search, shared by the shorten-context remedy and
// calc's "longest context that runs", so the two cannot disagree.

#include "kvscope/scenario/scenario.h"

#include <cstdint>
#include <optional>

namespace kvscope {

// The largest n in [lo, hi] for which `holds(n)`, memory growing with n; lo - 1 if none.
template <typename Holds> int64_t largestHolding(int64_t lo, int64_t hi, Holds holds)
{
    if (hi < lo || !holds(lo))
        return lo - 1;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo + 1) / 2;
        if (holds(mid))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

// The longest context up to `upTo` at which the scenario runs at its own batch (and, with
// `meetTargets`, meets its targets), each context evaluated whole: the activation peak and the
// engine's blocks shrink with the context too, which the tokens that fit in today's free memory
// (TokensFit) do not see. None when not even one token runs.
std::optional<int64_t> longestRunningContext(const Scenario& scenario, int64_t upTo,
                                             bool meetTargets = false);

} // namespace kvscope
