// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How many replicas (data-parallel copies) of a configuration serve a request rate of the
// scenario's workload (prompt and output tokens) within its targets. One replica serves, at
// most, the output rate of the busiest point of its serving curve (planning/serving.h) whose
// per-user speed and time to first token (its wait for a slot included) meet the targets; the
// rate over that, rounded up, is the replicas. Requests are taken as arriving steadily: the
// curve's waits are those of users who send their next request when an answer ends, not of
// Poisson bursts, whose tail (p90) this does not model.

#include "kvscope/scenario/scenario.h"

#include <cstdint>

namespace kvscope {

struct RateFit
{
    double capacityPerS = 0;     // requests/s one replica serves within the targets; 0 = none
    int64_t usersPerReplica = 0; // its concurrency there
    double ttftMs = 0;           // its time to first token there, its wait for a slot included
    double tokensPerSUser = 0;   // output tokens/s a user reads there
    int64_t replicas = 0;        // ceil(rate / capacity); 0 when no point meets the targets

    bool serves() const { return replicas > 0; }
};

RateFit rateFit(const Scenario& scenario, const Targets& targets, double requestsPerS);

} // namespace kvscope
