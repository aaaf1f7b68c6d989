// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The search for the configuration to buy: every catalog GPU x count (1, 2, 4, 8 in one node) x
// engine x weight format x KV dtype the engine runs, for the request's model, context and users,
// each evaluated by the same evaluate() the window uses. What runs and meets the targets is
// ranked by the objective, the best per GPU and count, with the Pareto front of cost per hour
// against tokens per second per user marked. Ranked by cost, a GPU with no price on the chosen
// basis (rent or own) is left out and named.

#include "kvscope/planning/cautions.h"
#include "kvscope/planning/rate_fit.h"
#include "kvscope/planning/remedies.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace kvscope {

enum class PlanObjective { CostPerHour, CostPerMillionTokens, FewestGpus, Fastest };

// Where the configuration will run, which decides the GPUs that may: a datacenter (no Apple
// silicon; GeForce cards carry their licence's caution), a workstation (workstation and
// consumer cards, Apple silicon), a consumer's PC (consumer cards, Apple silicon), or any.
enum class Deployment { Any, Datacenter, Workstation, Consumer };
const char* deploymentId(Deployment deployment); // "any", "datacenter", "workstation", "consumer"
bool parseDeployment(const std::string& id, Deployment* out);
bool deploymentAllows(Deployment deployment, const GpuSpec& gpu);
const char* planObjectiveId(PlanObjective objective); // "cost", "cost-per-million", "gpus", "speed"
bool parsePlanObjective(const std::string& id, PlanObjective* out);

struct PlanRequest
{
    Scenario base; // model, context, batch (the users), targets, cost, factors
    int maxGpusPerNode = 8;
    int maxNodes = 4;                 // several nodes are searched where one is not enough
    std::vector<std::string> engines; // engine ids allowed; empty = all
    std::vector<std::string> gpus;    // GPU ids allowed; empty = all
    double minWeightBits = 4.1; // effective bits: the 4-bit formats (4.13 to 4.9) and up; Q3_K_M
                                // (4.0) and Q2_K lose too much quality to be offered unasked
    double minKvBits = 8;       // KV cache bits: 8-bit caches (FP8, q8_0) and up; 4-bit caches
                                // lose accuracy on long contexts and are offered only when asked
    PlanObjective objective = PlanObjective::CostPerHour;
    size_t limit = 20; // ranked configurations kept
    // Keep too the configurations past `limit` that are on the Pareto front: the window's chart
    // draws the front whole (cut at the 20 cheapest, it ended before 1.8 x the price bought
    // 2.6 x the speed). The CLI's --limit stays a number of rows.
    bool keepFrontBeyondLimit = false;
    // Requests per second of the base's workload to serve; 0 = none asked. Each configuration
    // then takes the replicas it needs (RateFit) and is ranked by what they cost together.
    double ratePerS = 0;
    Deployment deployment = Deployment::Any;
};

struct PlanEntry
{
    OptionList options; // gpu, gpus, engine, weights, kv-dtype, kv-placement
    Scenario scenario;
    Verdict verdict;
    Cost cost;
    double tokensPerS = 0;          // all users together
    bool onFront = false;           // on the Pareto front of cost per hour against speed per user
    size_t rank = 0;                // its place in the whole ranking, from 1
    std::vector<std::string> lacks; // for a miss: "fit", "tokens_per_s", "ttft", "rate"
    RateFit rate;                   // with a request rate: the replicas it takes
    std::vector<Caution> cautions;  // lossy formats and the GeForce licence, with sources
    SpeedBand band;                 // the speed class's measured error (issue 43); cases 0: none
    int64_t replicas() const { return rate.serves() ? rate.replicas : 1; }
    // What the ranking weighs: the cost per hour of every replica the rate needs.
    double costPerHourAtRate() const { return cost.perHour * double(replicas()); }
};

struct PlanResult
{
    std::vector<PlanEntry> ranked;        // meet every target, best first, one per GPU x count
    std::vector<PlanEntry> closestMisses; // when nothing meets them: the nearest, and what lacks
    size_t evaluated = 0;                 // configurations evaluated
    // Ranked by cost, the GPUs (names) that meet the targets but have no price on the basis:
    // left out, never ranked after or beside priced ones, and named so the reader knows.
    std::vector<std::string> unpriced;
    // Why the ranking is not cheaper: the cheapest configuration on the basis that was turned
    // away, and what it lacks ("tokens_per_s", "ttft", "rate"; "fit" only where none that runs
    // was turned away). Empty when nothing cheaper than the first row was.
    std::optional<PlanEntry> cheapestRejected;
};

PlanResult plan(const PlanRequest& request, const Catalog& catalog);

// Why a row ranks above the next: ranked by speed, it is faster per user; ranked by GPUs, it takes
// fewer; else (and by cost) it costs less (with its replicas), or at the same cost its formats
// keep more bits, or its speed class was measured (a band) and the other's not, or it is faster
// at the slow end of its band, or it takes fewer GPUs.
enum class PlanPreference { Cheaper, MoreFaithful, Measured, Faster, FewerGpus, FasterPerUser };
PlanPreference whyFirst(const PlanEntry& first, const PlanEntry& second,
                        PlanObjective objective = PlanObjective::CostPerHour);
const char* planPreferenceId(PlanPreference why); // "cheaper", "more_faithful", "faster", ...

// The targets a plan is held to: the scenario's own, and where it sets none, reading speed per
// user (realtime_tokens_per_s) and the planner's first-token bound (plan_ttft_target_ms) for the
// last of the users' full-context prompts sent together.
Targets planTargets(const Scenario& base);

} // namespace kvscope
