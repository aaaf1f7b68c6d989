// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Serving many users: aggregate and per-user output tokens/s, time per output token and time to
// first token against the number of concurrent users, for the scenario's engine and, beside it,
// the others. Each user sends the scenario's average request (Workload) and, once answered, the
// next. Every figure comes from evaluate(): a decode step of the running batch, the prompt's
// prefill, and whether that many requests' KV fits. The engines differ only in their data
// (EngineProfile::Serving): how long each request holds its KV, whether a finished request is
// replaced at once (continuous batching) or the batch runs to its end, and their caps.

#include "kvscope/base/field_error.h"
#include "kvscope/scenario/engine_profile.h"
#include "kvscope/scenario/scenario.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kvscope {

struct ServingPoint
{
    int64_t users = 0;              // concurrent users, one request in flight each
    int64_t running = 0;            // of them decoding together; the others wait
    double stepMs = 0;              // time per output token of a running request (a decode
                                    // step, with its share of the other requests' prefills)
    double averageStepMs = 0;       // a step over the whole run, every prompt's prefill shared
                                    // in (its own too): what sets the output of all users
    double aggregateTokensPerS = 0; // output tokens per second, all users together
    double perUserTokensPerS = 0;   // aggregate / users: a user's answer rate, waiting included
    double ttftMs = 0;              // waiting for a slot + the prompt's prefill + one step
    // The users' prompts all arriving at once: each waits for the prompts admitted before it to
    // prefill (one after another; their compute, the weights read once), and for a slot.
    double togetherPrefillMs = 0;  // the first prompt's prefill
    double togetherEachMoreMs = 0; // each further prompt's prefill (its compute)
    double togetherRoundMs = 0;    // past the running slots: a round (its prefills and output)
    double togetherTtftMeanMs = 0; // mean over the users
    double togetherTtftLastMs = 0; // the last user's
    double preemptionMs = 0;       // of stepMs: vLLM recomputing (or swapping) the requests
                                   // it preempts once users wait for memory
    bool computeBound = false;     // compute, not memory, sets the decode step
};

struct ServingCurve
{
    std::string engineId;
    std::string engineName;
    std::string engineShortName;    // for legends
    bool selected = false;          // the scenario's own engine (the others use their defaults)
    std::string unavailable;        // why the engine cannot serve the scenario; "" = it can
    int64_t kvTokensPerRequest = 0; // KV tokens a request holds, on average
    int64_t memoryConcurrency = 0;  // requests whose KV fits at once
    int64_t runningCap = 0;         // vLLM max_num_seqs; 0 = none
    int64_t maxRequests = 0;        // requests beyond which the engine refuses (TGI); 0 = none
    int64_t maxRunning = 0;         // min(memoryConcurrency, runningCap)
    std::string limitedBy;          // "memory" or "max_num_seqs": what sets maxRunning
    std::string preemption;         // past maxRunning, set by memory, with users waiting:
                                    // "recompute" or "swap" (vLLM); "" = the engine waits
    bool swapSpaceShort = false;    // swap space holds no request: vLLM V0 aborts past
                                    // maxRunning users
    bool refusesUsers = false;      // the scenario's users exceed maxRequests
    // The engine's prefix cache holding the workload's shared prefix (none: all three 0 and the
    // figures without a cache equal the ones above).
    int64_t cachedPrefixTokens = 0;        // of each prompt, found in the cache
    bool prefixHeldOnce = false;           // its KV blocks shared by all requests (vLLM, TGI)
    int64_t memoryConcurrencyUncached = 0; // requests that would fit with no prefix cache
    double prefillMs = 0;                  // a request's prompt prefill, the cached part skipped
    double prefillMsUncached = 0;          // the whole prompt's
    ServingPoint atUsers;                  // at the scenario's users (its batch)
    std::vector<ServingPoint> points;      // from 1 user to about twice maxRunning
};

struct Serving
{
    std::optional<FieldError> refused; // the average request is longer than the maximum length
    std::vector<ServingCurve> curves;  // the scenario's engine first
};

// The scenario's own engine.
ServingCurve servingCurve(const Scenario& scenario);

// Where a request rate puts the curve: requests arriving at `ratePerS` on average, each in
// flight for its first token and `outputTokens` - 1 further steps, keep N in flight where
// N = rate x (TTFT(N) + (outputTokens - 1) x step(N)) (Little's law); the point there,
// interpolated between the curve's points by users. The mean figures of a steady load: the
// queueing of random bursts is not in them. Nothing when the rate needs more users in flight
// than the curve reaches (it saturates), or the curve is empty.
std::optional<ServingPoint> pointAtRate(const ServingCurve& curve, double ratePerS,
                                        int64_t outputTokens);
// That and every engine of `engines` that keeps its KV on the GPU and runs on the scenario's GPU,
// each with its defaults (its latest release) and the scenario's model, GPUs, formats and
// workload.
Serving serving(const Scenario& scenario, const std::vector<EngineProfile>& engines);

} // namespace kvscope
