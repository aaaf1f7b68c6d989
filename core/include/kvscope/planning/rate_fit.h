// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How many replicas (data-parallel copies) of a configuration serve a request rate of the
// scenario's workload (prompt and output tokens) within its targets. One replica runs as many
// requests at once as the busiest point of its serving curve (planning/serving.h) whose
// per-user speed and time to first token meet the targets, with no request waiting for a slot
// there. Requests arrive at random (Poisson), split evenly over the replicas; each holds its slot
// for its first token and its whole answer, and waits for a slot when all are taken
// (planning/poisson_queue.h). The replicas are the fewest for which the first token's 90th
// percentile, that wait included, meets the target: at least the rate over one replica's
// capacity, rounded up, and more where random bursts would queue past the target.

#include "kvscope/scenario/scenario.h"

#include <cstdint>

namespace kvscope {

struct RateFit
{
    double capacityPerS = 0;     // requests/s one replica serves within the targets; 0 = none
    int64_t usersPerReplica = 0; // its concurrency there
    double ttftMs = 0;           // its time to first token there, with a slot free
    double ttftP50Ms = 0;        // at the replicas chosen, Poisson arrivals' waits for a slot
    double ttftP90Ms = 0;        // included: the median and the 90th percentile
    double tokensPerSUser = 0;   // output tokens/s a user reads there
    int64_t replicas = 0;        // 0 when no point meets the targets

    bool serves() const { return replicas > 0; }
};

RateFit rateFit(const Scenario& scenario, const Targets& targets, double requestsPerS);

} // namespace kvscope
