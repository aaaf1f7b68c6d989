// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/planning/serving.h"

#include "kvscope/catalog/catalog.h"
#include "kvscope/engines/engine_module.h"
#include "kvscope/evaluation/evaluation.h"
#include "kvscope/planning/verdict.h"
#include "kvscope/settings/scenario_defaults.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace kvscope {
namespace {

using KvHeld = EngineProfile::KvHeld;
constexpr double kGiB = 1073741824.0;

Scenario withLoad(Scenario s, int64_t sequences, int64_t context)
{
    s.batch = sequences;
    s.context = context;
    return s;
}

// Whether `sequences` requests holding `context` tokens each fit the engine's memory.
bool fits(const Scenario& s, int64_t sequences, int64_t context)
{
    const auto e = evaluate(withLoad(s, sequences, context));
    return e && e->vram.fits;
}

// The most requests whose KV fits at once: doubling, then bisection (fitting only gets harder
// with more requests).
int64_t memoryConcurrency(const Scenario& s, int64_t context)
{
    if (!fits(s, 1, context))
        return 0;
    int64_t lo = 1, hi = 2;
    while (hi <= limits::maxBatch && fits(s, hi, context)) {
        lo = hi;
        hi *= 2;
    }
    hi = std::min(hi, limits::maxBatch + 1); // first count known not to fit (or past the limit)
    while (hi - lo > 1) {
        const int64_t mid = lo + (hi - lo) / 2;
        (fits(s, mid, context) ? lo : hi) = mid;
    }
    return lo;
}

// 1 .. upTo users, about 28 points spaced on a log scale, with the counts that matter exactly.
std::vector<int64_t> userGrid(int64_t upTo, std::initializer_list<int64_t> exact)
{
    std::vector<int64_t> grid;
    constexpr int kPoints = 28;
    for (int i = 0; i <= kPoints; ++i)
        grid.push_back(int64_t(std::llround(std::pow(double(upTo), double(i) / double(kPoints)))));
    for (int64_t n : exact)
        if (n >= 1 && n <= upTo)
            grid.push_back(n);
    std::sort(grid.begin(), grid.end());
    grid.erase(std::unique(grid.begin(), grid.end()), grid.end());
    return grid;
}

class CurveBuilder
{
public:
    CurveBuilder(const Scenario& s, ServingCurve& curve) : s_(s), c_(curve)
    {
        const Workload& w = s.workload;
        const EngineProfile::Serving& policy = s.engine.serving;
        const int64_t request = w.promptTokens + w.outputTokens;
        // What a request holds on average, and what a decode step attends to on average: the
        // prompt and half the answer, except a static cache, whose attention spans its length.
        switch (policy.kvHeld) {
        case KvHeld::Grows:
            held_ = w.promptTokens + (w.outputTokens + 1) / 2;
            break;
        case KvHeld::Request:
            held_ = request;
            break;
        case KvHeld::MaxLength:
            held_ = s.context;
            break;
        }
        attended_ = policy.kvHeld == KvHeld::MaxLength && !policy.continuousBatching
                        ? s.context
                        : w.promptTokens + (w.outputTokens + 1) / 2;
        if (const auto prompt = evaluate(withLoad(s, 1, w.promptTokens))) {
            const Breakeven& b = prompt->breakeven;
            // A request's prefill skips what the prefix cache holds (a warm cache: the shared
            // prefix was computed by an earlier request).
            prefillMs_ = b.cachedRecomputeMs;
            prefillComputeMs_ = b.cachedPrefillComputeMs;
            c_.prefillMs = b.cachedRecomputeMs;
            c_.prefillMsUncached = b.recomputeMs;
            c_.cachedPrefixTokens = b.cachedPrefixTokens;
            c_.prefixHeldOnce =
                b.cachedPrefixTokens > 0 &&
                s.engine.prefixCache.sharing == EngineProfile::PrefixCache::Sharing::Blocks;
            kvBytesPerToken_ = prompt->kv.bytesPerToken;
            pcieGBps_ = prompt->decode.pcieEffectiveGBps;
        }
    }

    void build()
    {
        const EngineProfile::Serving& policy = s_.engine.serving;
        c_.kvTokensPerRequest = held_;
        const Workload& w = s_.workload;
        if (w.promptTokens + w.outputTokens > s_.context) {
            c_.unavailable = "refuses a request longer than the maximum length";
            return;
        }
        if (!fits(s_, 1, s_.context)) {
            c_.unavailable = "does not fit one sequence of the maximum length";
            return;
        }
        c_.memoryConcurrencyUncached = memoryConcurrency(s_, held_);
        c_.memoryConcurrency = c_.memoryConcurrencyUncached;
        if (c_.prefixHeldOnce)
            c_.memoryConcurrency = sharedPrefixConcurrency();
        if (c_.memoryConcurrency == 0) { // cannot happen once one maximum length fits
            c_.unavailable = "does not fit one request";
            return;
        }
        c_.runningCap = s_.engine.maxNumSeqs;
        c_.maxRequests = policy.maxRequests;
        c_.maxRunning = c_.memoryConcurrency;
        c_.limitedBy = "memory";
        if (c_.runningCap > 0 && c_.runningCap < c_.maxRunning) {
            c_.maxRunning = c_.runningCap;
            c_.limitedBy = "max_num_seqs";
        }
        // Only memory makes vLLM preempt: under max_num_seqs the waiting requests are not let in.
        if (policy.preempts && c_.limitedBy == "memory")
            c_.preemption = s_.preemptBySwap ? "swap" : "recompute";
        c_.swapSpaceShort =
            c_.preemption == "swap" && double(held_) * kvBytesPerToken_ > s_.swapSpaceGiB * kGiB;
        int64_t upTo = std::max<int64_t>({2 * c_.maxRunning, s_.batch, 2});
        if (c_.maxRequests > 0)
            upTo = std::min(upTo, c_.maxRequests);
        if (c_.swapSpaceShort)
            upTo = c_.maxRunning;
        upTo = std::min(upTo, limits::maxBatch);
        for (int64_t n : userGrid(upTo, {c_.maxRunning, s_.batch}))
            c_.points.push_back(point(n));
        c_.refusesUsers = (c_.maxRequests > 0 && s_.batch > c_.maxRequests) ||
                          (c_.swapSpaceShort && s_.batch > c_.maxRunning);
        c_.atUsers = point(std::min(s_.batch, upTo));
    }

private:
    // Requests whose KV fits when their shared prefix's blocks are held once: each holds only
    // the rest of its tokens, and the prefix takes the room of as many such requests as its
    // length needs, once.
    int64_t sharedPrefixConcurrency()
    {
        const int64_t own = std::max<int64_t>(1, held_ - c_.cachedPrefixTokens);
        const int64_t fitting = memoryConcurrency(s_, own);
        const int64_t prefixRoom = (c_.cachedPrefixTokens + own - 1) / own;
        return std::max(c_.memoryConcurrencyUncached, fitting - prefixRoom);
    }

    struct Step
    {
        double ms = 0;           // between one request's tokens
        double averageMs = 0;    // over the run: its own prompt's prefill shared in too
        double preemptionMs = 0; // of ms
        bool computeBound = false;
    };

    // One decode step of `running` requests. With continuous batching the prompts of the
    // requests that replace finished ones ride in the same steps, adding their FLOPs where the
    // step is short of compute: over a request's output the other running - 1 slots each take
    // a new prompt, so (running - 1) / output of them a step between its tokens; its own
    // prompt's prefill is its first token's, and the run's average step carries all running /
    // output of them. Preempting, vLLM fills the
    // blocks freed for the running requests' growth with waiting prompts and preempts them as
    // the growth arrives: about one token per running request a step, recomputed (its prefill
    // FLOPs) or swapped out and back in over PCIe (engines.json, vLLM "serving").
    // Under pipeline parallel the engine keeps one batch per stage in flight, so each request
    // waits one step of its own batch's share of the running requests.
    Step step(int64_t allRunning, bool preempting)
    {
        const int64_t key = 2 * allRunning + (preempting ? 1 : 0);
        if (auto it = steps_.find(key); it != steps_.end())
            return it->second;
        const int64_t inFlight = std::max(1, engineModule(s_.engine).batchesInFlight(s_));
        const int64_t running = (allRunning + inFlight - 1) / inFlight;
        Step out;
        if (const auto e = evaluate(withLoad(s_, running, attended_))) {
            const DecodeTiming& d = e->decode;
            double prefillShare = 0;
            double ownPrefillShare = 0;
            if (s_.engine.serving.continuousBatching) {
                const double output = double(s_.workload.outputTokens);
                prefillShare = double(running - 1) / output * prefillComputeMs_;
                ownPrefillShare = prefillComputeMs_ / output;
            }
            const bool recompute = preempting && c_.preemption == "recompute";
            const double recomputeShare =
                recompute ? double(running) / double(s_.workload.promptTokens) * prefillComputeMs_
                          : 0.0;
            auto stepMs = [&](double extraCompute) {
                const double compute = d.computeMs + extraCompute;
                return d.selectedMs + std::max(0.0, compute - std::max(d.memoryMs, d.computeMs));
            };
            out.ms = stepMs(prefillShare + recomputeShare);
            out.averageMs = stepMs(prefillShare + ownPrefillShare + recomputeShare);
            out.preemptionMs = out.ms - stepMs(prefillShare);
            if (preempting && c_.preemption == "swap" && pcieGBps_ > 0) {
                out.preemptionMs = 2.0 * double(running) * kvBytesPerToken_ / (pcieGBps_ * 1e6);
                out.ms += out.preemptionMs;
                out.averageMs += out.preemptionMs;
            }
            out.computeBound = d.computeMs + prefillShare + recomputeShare > d.memoryMs;
        }
        return steps_[key] = out;
    }

    ServingPoint point(int64_t users)
    {
        ServingPoint p;
        p.users = users;
        p.running = std::min(users, c_.maxRunning);
        const Step st = step(p.running, !c_.preemption.empty() && users > c_.maxRunning);
        p.stepMs = st.ms;
        p.averageStepMs = st.averageMs;
        p.preemptionMs = st.preemptionMs;
        p.computeBound = st.computeBound;
        const double output = double(s_.workload.outputTokens);
        const double rounds = double(users) / double(p.running); // requests per slot in turn
        if (s_.engine.serving.continuousBatching) {
            // A user's request holds its slot for output average steps; the others' share of
            // the slots is the wait.
            const double runMs = output * st.averageMs;
            p.aggregateTokensPerS = st.averageMs > 0 ? double(p.running) * 1e3 / st.averageMs : 0.0;
            p.ttftMs = (rounds - 1.0) * runMs + prefillMs_ + st.ms;
        } else {
            // A batch prefills its prompts together (the weights read once, every prompt's
            // FLOPs), decodes to its end, and the next batch starts.
            const double prefill = prefillsMs(double(p.running));
            const double batchMs = prefill + output * st.ms;
            p.aggregateTokensPerS = batchMs > 0 ? double(p.running) * output * 1e3 / batchMs : 0.0;
            p.ttftMs = (rounds - 1.0) * batchMs + prefill + st.ms;
        }
        p.perUserTokensPerS = p.aggregateTokensPerS / double(users);
        arrivingTogether(p, rounds, output * st.ms);
        return p;
    }

    // `prompts` of the workload's prompts prefilled in turn.
    double prefillsMs(double prompts) const
    {
        return prefillsInTurnMs(prefillMs_, prefillComputeMs_, prompts);
    }

    // TTFT when every user's prompt arrives at the same moment. The running slots' prompts
    // prefill one after another (a static batch: together, all ready when the last is); later
    // prompts wait a round per slot turn.
    void arrivingTogether(ServingPoint& p, double rounds, double outputMs) const
    {
        p.togetherPrefillMs = prefillMs_;
        p.togetherEachMoreMs = prefillComputeMs_;
        const double batchPrefillMs = prefillsMs(double(p.running));
        p.togetherRoundMs = batchPrefillMs + outputMs;
        const double waitLast = (rounds - 1.0) * p.togetherRoundMs;
        const double waitMean = (rounds - 1.0) / 2.0 * p.togetherRoundMs;
        p.togetherTtftLastMs = waitLast + batchPrefillMs + p.stepMs;
        p.togetherTtftMeanMs =
            waitMean + p.stepMs +
            (s_.engine.serving.continuousBatching ? prefillsMs((double(p.running) + 1.0) / 2.0)
                                                  : batchPrefillMs);
    }

    const Scenario& s_;
    ServingCurve& c_;
    int64_t held_ = 0;
    int64_t attended_ = 0;
    double prefillMs_ = 0;
    double prefillComputeMs_ = 0;
    double kvBytesPerToken_ = 0; // per GPU
    double pcieGBps_ = 0;        // one GPU's host link, achieved
    std::map<int64_t, Step> steps_;
};

} // namespace

ServingCurve servingCurve(const Scenario& scenario)
{
    ServingCurve curve;
    curve.engineId = scenario.engine.id;
    curve.engineName = scenario.engine.name;
    curve.engineShortName = scenario.engine.shortName;
    CurveBuilder(scenario, curve).build();
    return curve;
}

namespace {

// The users a point's own figures would keep in flight at the rate, less its users: negative
// while the point has room for the rate, positive once requests outlast it.
double inFlightExcess(const ServingPoint& p, double ratePerS, int64_t outputTokens)
{
    const double holdMs = p.ttftMs + double(std::max<int64_t>(0, outputTokens - 1)) * p.stepMs;
    return ratePerS * holdMs / 1000.0 - double(p.users);
}

ServingPoint between(const ServingPoint& a, const ServingPoint& b, double t)
{
    auto mix = [t](double x, double y) { return x + (y - x) * t; };
    ServingPoint p = a;
    p.users = int64_t(std::llround(mix(double(a.users), double(b.users))));
    p.running = int64_t(std::llround(mix(double(a.running), double(b.running))));
    p.stepMs = mix(a.stepMs, b.stepMs);
    p.averageStepMs = mix(a.averageStepMs, b.averageStepMs);
    p.ttftMs = mix(a.ttftMs, b.ttftMs);
    p.aggregateTokensPerS = mix(a.aggregateTokensPerS, b.aggregateTokensPerS);
    p.perUserTokensPerS = mix(a.perUserTokensPerS, b.perUserTokensPerS);
    return p;
}

} // namespace

std::optional<ServingPoint> pointAtRate(const ServingCurve& curve, double ratePerS,
                                        int64_t outputTokens)
{
    const std::vector<ServingPoint>& points = curve.points;
    if (points.empty() || !(ratePerS > 0))
        return std::nullopt;
    double before = inFlightExcess(points.front(), ratePerS, outputTokens);
    if (before <= 0)
        return points.front(); // under one request in flight on average
    for (std::size_t i = 1; i < points.size(); ++i) {
        const double after = inFlightExcess(points[i], ratePerS, outputTokens);
        if (after <= 0)
            return between(points[i - 1], points[i], before / (before - after));
        before = after;
    }
    return std::nullopt;
}

Serving serving(const Scenario& scenario, const std::vector<EngineProfile>& engines)
{
    Serving out;
    const Workload& w = scenario.workload;
    if (w.promptTokens + w.outputTokens > scenario.context) {
        out.refused =
            FieldError{"prompt_tokens",
                       std::to_string(w.promptTokens) + " + " + std::to_string(w.outputTokens),
                       "a request no longer than the maximum length (context " +
                           std::to_string(scenario.context) + "); engines refuse longer ones"};
        return out;
    }
    out.curves.push_back(servingCurve(scenario));
    out.curves.front().selected = true;
    for (const EngineProfile& engine : engines) {
        if (engine.id == scenario.engine.id || engine.defaultKvPlacement != KvPlacement::Gpu ||
            !engine.runsOn(scenario.gpu.vendor))
            continue;
        Scenario s = scenario;
        applyEngine(s, engine);
        ServingCurve curve;
        curve.engineId = engine.id;
        curve.engineName = engine.name;
        curve.engineShortName = engine.shortName;
        if (!engine.supportsWeights(s.weights.id))
            curve.unavailable = "runs no " + s.weights.name + " weights";
        else if (!engine.supportsKvDtype(s.kvDtype.id))
            curve.unavailable = "has no " + s.kvDtype.name + " KV cache";
        else if (!splitsHeadsEvenly(s))
            curve.unavailable = "cannot split the attention heads over the GPUs";
        else if (const auto refused = validate(s)) // LoRA, a drafter: what kvscope models for
            curve.unavailable = "cannot: " + refused->message(); // another engine only
        else
            CurveBuilder(s, curve).build();
        out.curves.push_back(std::move(curve));
    }
    return out;
}

} // namespace kvscope
