// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/planning/poisson_queue.h"

#include "kvscope/base/statistics.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

namespace kvscope {

namespace {

constexpr int kArrivals = 6000; // p90 of 5,000 kept waits: within a few percent of the limit
constexpr int kWarmUp = 1000;   // the queue starts empty; its first arrivals wait too little
constexpr uint64_t kSeed = 0x6b7673636f7065ULL;

// A small, fully specified generator (splitmix64): std::exponential_distribution differs
// between standard libraries, and the figures must not. Every queue sees the same draws, so
// they are made once, as gaps of a rate of one arrival per millisecond, and scaled.
const std::vector<double>& unitGaps()
{
    static const std::vector<double> gaps = [] {
        std::vector<double> g(kArrivals);
        uint64_t state = kSeed;
        for (double& gap : g) {
            state += 0x9e3779b97f4a7c15ULL;
            uint64_t z = state;
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
            z ^= z >> 31;
            const double u = (double(z >> 11) + 0.5) / 9007199254740992.0; // (0, 1)
            gap = -std::log(u);
        }
        return g;
    }();
    return gaps;
}

} // namespace

std::optional<SlotWait> poissonSlotWait(double ratePerS, int64_t slots, double holdMs)
{
    if (!(ratePerS > 0) || slots < 1 || !(holdMs > 0) ||
        ratePerS * holdMs / 1000.0 >= double(slots))
        return std::nullopt;
    const double msPerUnitGap = 1000.0 / ratePerS;
    const std::vector<double>& gaps = unitGaps();
    // When each slot frees, earliest first; first come, first served.
    std::priority_queue<double, std::vector<double>, std::greater<>> freeAt;
    for (int64_t i = 0; i < std::min<int64_t>(slots, kArrivals); ++i)
        freeAt.push(0.0);
    std::vector<double> waits;
    waits.reserve(kArrivals - kWarmUp);
    double now = 0;
    for (int i = 0; i < kArrivals; ++i) {
        now += gaps[size_t(i)] * msPerUnitGap;
        const double start = std::max(now, freeAt.top());
        freeAt.pop();
        freeAt.push(start + holdMs);
        if (i >= kWarmUp)
            waits.push_back(start - now);
    }
    SlotWait w;
    for (double x : waits)
        w.meanMs += x / double(waits.size());
    w.p90Ms = quantileOf(waits, 0.9);
    w.p50Ms = quantileOf(waits, 0.5);
    return w;
}

} // namespace kvscope
