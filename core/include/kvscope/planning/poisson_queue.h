// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Requests arriving at random (a Poisson process) at a replica that runs `slots` of them at once,
// each holding its slot for `holdMs` (its prefill and its whole answer): how long one waits for
// a slot. Steady arrivals never wait below capacity; random ones do, and the tail (p90) is what
// a service target is written against. Simulated over a fixed, seeded sequence of arrivals, so
// the same inputs give the same figures on every machine.

#include <cstdint>
#include <optional>

namespace kvscope {

struct SlotWait
{
    double meanMs = 0;
    double p50Ms = 0;
    double p90Ms = 0;
};

// Nothing when the arrivals outrun the slots (rate x hold >= slots): the queue grows without end.
std::optional<SlotWait> poissonSlotWait(double ratePerS, int64_t slots, double holdMs);

} // namespace kvscope
