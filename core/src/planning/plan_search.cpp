// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/planning/plan_search.h"
#include "kvscope/engines/engine_module.h"
#include "kvscope/planning/cautions.h"
#include "kvscope/scenario/parallel_layout.h"
#include "kvscope/scenario/speed_class.h"
#include "kvscope/settings/scenario_defaults.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace kvscope {

const char* planObjectiveId(PlanObjective o)
{
    switch (o) {
    case PlanObjective::CostPerHour:
        return "cost";
    case PlanObjective::CostPerMillionTokens:
        return "cost-per-million";
    case PlanObjective::FewestGpus:
        return "gpus";
    case PlanObjective::Fastest:
        return "speed";
    }
    return "cost";
}

bool parsePlanObjective(const std::string& id, PlanObjective* out)
{
    for (PlanObjective o : {PlanObjective::CostPerHour, PlanObjective::CostPerMillionTokens,
                            PlanObjective::FewestGpus, PlanObjective::Fastest})
        if (id == planObjectiveId(o)) {
            *out = o;
            return true;
        }
    return false;
}

const char* deploymentId(Deployment d)
{
    switch (d) {
    case Deployment::Any:
        return "any";
    case Deployment::Datacenter:
        return "datacenter";
    case Deployment::Workstation:
        return "workstation";
    case Deployment::Consumer:
        return "consumer";
    }
    return "any";
}

bool parseDeployment(const std::string& id, Deployment* out)
{
    for (Deployment d :
         {Deployment::Any, Deployment::Datacenter, Deployment::Workstation, Deployment::Consumer})
        if (id == deploymentId(d)) {
            *out = d;
            return true;
        }
    return false;
}

// By the catalog's GPU groups: "Data center", "Workstation", "Consumer", "Apple silicon".
bool deploymentAllows(Deployment d, const GpuSpec& gpu)
{
    const bool apple = gpu.unifiedMemory;
    switch (d) {
    case Deployment::Any:
        return true;
    case Deployment::Datacenter:
        return !apple;
    case Deployment::Workstation:
        return apple || gpu.group == "Workstation" || gpu.group == "Consumer";
    case Deployment::Consumer:
        return apple || gpu.group == "Consumer";
    }
    return true;
}

namespace {

constexpr int kGpuCounts[] = {1, 2, 4, 8};
constexpr int kNodeCounts[] = {2, 4};

bool allowed(const std::vector<std::string>& list, const std::string& id)
{
    return list.empty() || std::find(list.begin(), list.end(), id) != list.end();
}

// The options that make an entry's scenario from the request's: written only for the entries
// the search keeps, as most of the millions it evaluates are dropped at once.
void writeOptions(PlanEntry& p)
{
    const Scenario& s = p.scenario;
    p.options = {{"gpu", s.gpu.id},          {"gpus", std::to_string(s.gpuCount)},
                 {"engine", s.engine.id},    {"weights", s.weights.id},
                 {"kv-dtype", s.kvDtype.id}, {"kv-placement", kvPlacementId(s.kvPlacement)}};
    if (s.nodes > 1)
        p.options.insert(p.options.begin() + 2, {"nodes", std::to_string(s.nodes)});
    if (s.tensorAcrossNodes)
        p.options.push_back({"node-split", "tensor"});
    if (s.dpAttention)
        p.options.push_back({"dp-attention", "on"});
}

// Data-parallel attention pays where tensor parallel would copy the KV cache onto every GPU (an
// MLA latent, or fewer KV heads than GPUs): each GPU then keeps only its own requests' KV.
// Elsewhere it only copies the attention weights, so the search skips it there. SGLang runs it
// for any model; vLLM for a MoE model's GPUs in one pipeline stage.
bool dpAttentionWorthTrying(const Scenario& s)
{
    const bool vllm =
        s.engine.family == EngineFamily::Vllm && s.model.isMoe() && pipelineWays(s) == 1;
    if ((s.engine.family != EngineFamily::Sglang && !vllm) || s.replicas > 1)
        return false;
    const int ways = tensorWays(s);
    return ways > 1 && (s.model.isMla() || s.model.kvHeads < ways);
}

// An entry for `s`, which it takes (a scenario's strings and lists make a copy dear; the
// search moves it back when the entry is not kept).
PlanEntry entryFor(Scenario&& s, const Evaluation& e, const SpeedBand& band)
{
    PlanEntry p;
    p.verdict = verdictOf(s, e);
    p.cost = costOf(s, e, p.verdict.runs);
    p.tokensPerS = p.verdict.runs ? e.decode.tokensPerS : 0.0;
    p.band = band;
    p.scenario = std::move(s);
    if (!p.verdict.runs)
        p.lacks.push_back("fit");
    if (p.verdict.missesTokensPerS)
        p.lacks.push_back("tokens_per_s");
    if (p.verdict.missesTtft)
        p.lacks.push_back("ttft");
    return p;
}

// Cheapest hardware first; on a tie, the most faithful format (more bits), then a speed that was
// measured (its class has a band) over one that never was, then the faster at the slow end of
// its band: a speed nobody checked, or one the measurements say is optimistic, must not win a
// tie on its face (issue 43).
bool better(const PlanEntry& a, const PlanEntry& b, PlanObjective objective)
{
    // At a request rate, what its replicas cost (per hour and per token rank alike then).
    auto costKey = [&](const PlanEntry& p) {
        const double v = p.rate.serves() ? p.costPerHourAtRate()
                         : objective == PlanObjective::CostPerMillionTokens
                             ? p.cost.perMillionTokens
                             : p.cost.perHour;
        return std::make_tuple(!p.cost.known, p.cost.known ? v : 0.0);
    };
    const auto gpus = [](const PlanEntry& p) { return p.scenario.gpuCount * p.replicas(); };
    // Past 16 bits a format is no more faithful, only larger (FP32 weights, FP32 KV).
    auto quality = [](const PlanEntry& p) {
        return std::make_tuple(-std::min(p.scenario.weights.bitsPerWeight, 16.0),
                               -std::min(p.scenario.kvDtype.bitsPerElement, 16.0), !p.band.usable(),
                               -p.band.signableTokensPerS(p.verdict.tokensPerSUser));
    };
    switch (objective) {
    case PlanObjective::CostPerHour:
    case PlanObjective::CostPerMillionTokens:
        return std::tuple_cat(costKey(a), quality(a)) < std::tuple_cat(costKey(b), quality(b));
    case PlanObjective::FewestGpus:
        return std::tuple_cat(std::make_tuple(gpus(a)), costKey(a), quality(a)) <
               std::tuple_cat(std::make_tuple(gpus(b)), costKey(b), quality(b));
    case PlanObjective::Fastest:
        return std::make_tuple(-a.verdict.tokensPerSUser, std::get<1>(costKey(a))) <
               std::make_tuple(-b.verdict.tokensPerSUser, std::get<1>(costKey(b)));
    }
    return false;
}

// How far a miss is from running and meeting the targets: 0 meets them.
double shortfall(const PlanEntry& p, const Targets& t)
{
    if (!p.verdict.runs)
        return 1.0 + p.verdict.shortBytes() / std::max(p.verdict.offeredBytes, 1.0);
    double miss = 0;
    if (p.verdict.missesTokensPerS)
        miss = std::max(miss, 1.0 - p.verdict.tokensPerSUser / t.minTokensPerSUser);
    if (p.verdict.missesTtft)
        miss = std::max(miss, 1.0 - t.maxTtftMs / p.verdict.ttftLastMs);
    return miss;
}

void markFront(std::vector<PlanEntry>& entries)
{
    for (PlanEntry& p : entries) {
        p.onFront = p.cost.known;
        const double cost = p.costPerHourAtRate();
        for (const PlanEntry& q : entries)
            if (&q != &p && q.cost.known && p.cost.known && q.costPerHourAtRate() <= cost &&
                q.verdict.tokensPerSUser >= p.verdict.tokensPerSUser &&
                (q.costPerHourAtRate() < cost ||
                 q.verdict.tokensPerSUser > p.verdict.tokensPerSUser)) {
                p.onFront = false;
                break;
            }
    }
}

// The search's running best per GPU x count that meets the targets, and the closest miss for
// each where none does.
class PlanSearch
{
    using Key = std::pair<std::string, int>; // GPU id x count

public:
    PlanSearch(const PlanRequest& request, const Catalog& catalog)
        : m_request(request), m_catalog(catalog)
    {
    }

    // Every allowed GPU count of `gpu` under `engine`, with every format the engine runs.
    void searchEngineOnGpu(const EngineProfile& engine, const GpuSpec& gpu)
    {
        Scenario s = m_request.base;
        applyEngine(s, engine);
        applyGpu(s, gpu, m_catalog);
        s.memoryFraction = m_request.base.memoryFraction;
        s.nodes = 1;
        const int64_t ranBefore = m_ran;
        int fullNode = 0; // the most GPUs of one node that split the heads
        for (int count : kGpuCounts) {
            // A unified-memory machine (Apple silicon) is one GPU; it does not gang up.
            if (count > m_request.maxGpusPerNode || (count > 1 && gpu.unifiedMemory))
                continue;
            s.gpuCount = count;
            if (!splitsHeadsEvenly(s))
                continue;
            fullNode = count;
            searchAttention(engine, s, std::make_pair(gpu.id, count));
        }
        if (m_ran == ranBefore && fullNode > 1 && engineModule(engine).spansNodes())
            searchNodes(engine, s, fullNode);
    }

    // Where one node cannot hold the model: full nodes, the fewest that meet the targets,
    // each split two ways: tensor parallel inside each node and a pipeline stage per node, or
    // tensor parallel over every GPU (faster where the network's all-reduces cost less than
    // the stages' reads save). Where one node holds the model, more nodes add memory, not speed.
    void searchNodes(const EngineProfile& engine, Scenario& s, int perNode)
    {
        for (int nodes : kNodeCounts) {
            if (nodes > m_request.maxNodes)
                break;
            const int64_t ranBefore = m_ran;
            s.nodes = nodes;
            s.gpuCount = perNode * nodes;
            const Key key = std::make_pair(s.gpu.id, s.gpuCount);
            searchAttention(engine, s, key);
            s.tensorAcrossNodes = true;
            if (splitsHeadsEvenly(s))
                searchAttention(engine, s, key);
            s.tensorAcrossNodes = false;
            if (m_ran > ranBefore)
                break;
        }
        s.nodes = 1;
    }

    // The formats with attention split as tensor parallel splits it, and where it would copy
    // the KV cache, with data-parallel attention too; the better of each GPU x count is kept.
    void searchAttention(const EngineProfile& engine, Scenario& s, const Key& key)
    {
        s.attentionRanksStated = 0; // the search's ranks are a rank per GPU, at every count
        searchFormats(engine, s, key);
        // A request rate sizes replicas, which SGLang's --dp-size cannot count beside the
        // attention ranks (validateDpAttention).
        if (m_request.ratePerS > 0 || !dpAttentionWorthTrying(s))
            return;
        s.dpAttention = true;
        searchFormats(engine, s, key);
        s.dpAttention = false;
    }

    // The best that meet the targets, ranked; the closest misses when none does.
    PlanResult finish()
    {
        PlanResult& result = m_result;
        const bool byCost = m_request.objective == PlanObjective::CostPerHour ||
                            m_request.objective == PlanObjective::CostPerMillionTokens;
        RateBound bound(m_request.limit);
        for (PlanEntry* candidate : inRateOrder(byCost)) {
            PlanEntry& p = *candidate;
            if (m_request.ratePerS > 0 && byCost && bound.excludes(p))
                continue; // one replica costs more than `limit` rows with all theirs
            if (m_request.ratePerS > 0 && !fitRate(p))
                continue;
            if (p.cost.known)
                bound.add(p.costPerHourAtRate());
            noteCautions(p);
            if (byCost && !p.cost.known) {
                if (std::find(result.unpriced.begin(), result.unpriced.end(),
                              p.scenario.gpu.name) == result.unpriced.end())
                    result.unpriced.push_back(p.scenario.gpu.name);
                continue;
            }
            result.ranked.push_back(std::move(p));
        }
        markFront(result.ranked);
        std::sort(result.ranked.begin(), result.ranked.end(),
                  [&](const PlanEntry& a, const PlanEntry& b) {
                      return better(a, b, m_request.objective);
                  });
        keepRanked(result.ranked);
        for (const PlanEntry& p : m_rateMisses)
            noteRejected(p);
        // Only what was cheaper than the first row explains it, and only a ranking by cost.
        if (!byCost)
            result.cheapestRejected.reset();
        if (result.cheapestRejected && !result.ranked.empty() &&
            result.cheapestRejected->costPerHourAtRate() >=
                result.ranked.front().costPerHourAtRate())
            result.cheapestRejected.reset();
        if (result.cheapestRejected)
            noteCautions(*result.cheapestRejected);
        if (result.ranked.empty() && result.unpriced.empty())
            keepClosestMisses(result);
        return std::move(m_result);
    }

private:
    // Each entry numbered by its place in the whole ranking; then the first `limit`, and where
    // asked, the front's entries past them.
    void keepRanked(std::vector<PlanEntry>& ranked) const
    {
        for (size_t i = 0; i < ranked.size(); ++i)
            ranked[i].rank = i + 1;
        std::vector<PlanEntry> kept;
        for (PlanEntry& p : ranked)
            if (p.rank <= m_request.limit || (m_request.keepFrontBeyondLimit && p.onFront))
                kept.push_back(std::move(p));
        ranked = std::move(kept);
    }

    // The best so far, cheapest first where a rate ranks by cost: sizing a configuration's
    // replicas runs its serving curve and a queue, the search's dearest step, and a
    // configuration whose one replica costs more than `limit` sized rows cannot rank.
    std::vector<PlanEntry*> inRateOrder(bool byCost)
    {
        std::vector<PlanEntry*> order;
        for (auto& [key, p] : m_best)
            order.push_back(&p);
        if (m_request.ratePerS > 0 && byCost)
            std::stable_sort(order.begin(), order.end(),
                             [](const PlanEntry* a, const PlanEntry* b) {
                                 return std::make_pair(!a->cost.known, a->cost.perHour) <
                                        std::make_pair(!b->cost.known, b->cost.perHour);
                             });
        return order;
    }

    // The `limit` lowest costs at the rate seen so far (a max-heap).
    class RateBound
    {
    public:
        explicit RateBound(size_t limit) : m_limit(std::max<size_t>(limit, 1)) {}
        void add(double cost)
        {
            m_costs.push_back(cost);
            std::push_heap(m_costs.begin(), m_costs.end());
            if (m_costs.size() > m_limit) {
                std::pop_heap(m_costs.begin(), m_costs.end());
                m_costs.pop_back();
            }
        }
        bool excludes(const PlanEntry& p) const
        {
            return p.cost.known && m_costs.size() >= m_limit && p.cost.perHour > m_costs.front();
        }

    private:
        size_t m_limit;
        std::vector<double> m_costs;
    };

    // When nothing meets the targets: the nearest miss per GPU x count (and those that meet
    // them but not the rate), the five closest.
    void keepClosestMisses(PlanResult& result)
    {
        for (auto& [key, p] : m_nearest) {
            noteCautions(p);
            result.closestMisses.push_back(std::move(p));
        }
        for (PlanEntry& p : m_rateMisses)
            result.closestMisses.push_back(std::move(p));
        std::sort(result.closestMisses.begin(), result.closestMisses.end(),
                  [&](const PlanEntry& a, const PlanEntry& b) {
                      return shortfall(a, m_request.base.targets) <
                             shortfall(b, m_request.base.targets);
                  });
        if (result.closestMisses.size() > 5)
            result.closestMisses.resize(5);
    }

    // The cheapest turned away, one that runs before one that does not (a GPU too small to
    // hold the model says little about why the first row costs what it does).
    void noteRejected(const PlanEntry& p)
    {
        if (!p.cost.known)
            return;
        const std::optional<PlanEntry>& held = m_result.cheapestRejected;
        const auto key = [](const PlanEntry& e) {
            return std::make_pair(!e.verdict.runs, e.cost.perHour);
        };
        if (!held || key(p) < key(*held)) {
            m_result.cheapestRejected = p;
            writeOptions(*m_result.cheapestRejected);
        }
    }

    // What a reader must weigh before signing the row: a lossy format, a GeForce licence.
    void noteCautions(PlanEntry& p) const
    {
        p.cautions = formatCautions(p.scenario);
        const Deployment d = m_request.deployment;
        if ((d == Deployment::Any || d == Deployment::Datacenter) && isGeForce(p.scenario.gpu))
            p.cautions.push_back(geForceLicenceCaution());
    }

    // The replicas `p` needs for the request rate; false (and a miss that lacks "rate", kept
    // for the closest misses) when no concurrency of one replica meets the targets.
    bool fitRate(PlanEntry& p)
    {
        p.rate = rateFit(p.scenario, m_request.base.targets, m_request.ratePerS);
        if (p.rate.serves()) {
            // A row loaded into the window keeps the copies the rate takes (its cost was priced
            // for one, and costPerHourAtRate multiplies).
            p.scenario.replicas = int(p.rate.replicas);
            return true;
        }
        p.lacks.push_back("rate");
        m_rateMisses.push_back(std::move(p));
        return false;
    }

    void searchFormats(const EngineProfile& engine, Scenario& s, const Key& key)
    {
        for (const WeightFormat& w : m_catalog.weightFormats) {
            if (!engine.supportsWeights(w.id) || !formatSuits(w, s.model) ||
                w.bitsPerWeight < m_request.minWeightBits)
                continue;
            s.weights = w;
            const SpeedBand band = decodeBandOf(s); // its class does not follow the KV cache
            for (const KvDtype& kv : m_catalog.kvDtypes) {
                if (!engine.supportsKvDtype(kv.id) || kv.bitsPerElement < m_request.minKvBits)
                    continue;
                s.kvDtype = kv;
                auto e = evaluate(s);
                ++m_result.evaluated;
                if (!e)
                    continue;
                PlanEntry p = entryFor(std::move(s), *e, band);
                if (const Scenario* kept = record(p, key))
                    s = *kept;
                else
                    s = std::move(p.scenario);
            }
        }
    }

    // Keeps `p` as the best (or the closest miss) of its GPU x count when it is; the kept
    // entry's scenario then, else none (and `p` is left whole).
    const Scenario* record(PlanEntry& p, const Key& key)
    {
        if (p.verdict.runs)
            ++m_ran;
        if (!p.lacks.empty())
            noteRejected(p);
        std::map<Key, PlanEntry>* into = nullptr;
        if (p.lacks.empty()) {
            auto it = m_best.find(key);
            if (it == m_best.end() || better(p, it->second, m_request.objective))
                into = &m_best;
        } else if (m_best.find(key) == m_best.end()) {
            const double gap = shortfall(p, m_request.base.targets);
            auto it = m_nearestGap.find(key);
            if (it == m_nearestGap.end() || gap < it->second) {
                m_nearestGap[key] = gap;
                into = &m_nearest;
            }
        }
        if (!into)
            return nullptr;
        writeOptions(p);
        return &into->insert_or_assign(key, std::move(p)).first->second.scenario;
    }

    const PlanRequest& m_request;
    const Catalog& m_catalog;
    PlanResult m_result;
    std::map<Key, PlanEntry> m_best;    // meets targets
    std::map<Key, PlanEntry> m_nearest; // the closest miss
    std::map<Key, double> m_nearestGap;
    int64_t m_ran = 0;                   // configurations seen that run
    std::vector<PlanEntry> m_rateMisses; // meet the targets alone, not at the request rate
};

} // namespace

const char* planPreferenceId(PlanPreference why)
{
    switch (why) {
    case PlanPreference::Cheaper:
        return "cheaper";
    case PlanPreference::MoreFaithful:
        return "more_faithful";
    case PlanPreference::Measured:
        return "measured";
    case PlanPreference::Faster:
        return "faster";
    case PlanPreference::FewerGpus:
        return "fewer_gpus";
    case PlanPreference::FasterPerUser:
        return "faster_per_user";
    }
    return "cheaper";
}

PlanPreference whyFirst(const PlanEntry& first, const PlanEntry& second, PlanObjective objective)
{
    // The objective's own measure first: a speed ranking is not explained by cost.
    if (objective == PlanObjective::Fastest &&
        first.verdict.tokensPerSUser > second.verdict.tokensPerSUser)
        return PlanPreference::FasterPerUser;
    const auto gpus = [](const PlanEntry& p) { return p.scenario.gpuCount * p.replicas(); };
    if (objective == PlanObjective::FewestGpus && gpus(first) < gpus(second))
        return PlanPreference::FewerGpus;
    if (first.costPerHourAtRate() < second.costPerHourAtRate())
        return PlanPreference::Cheaper;
    const auto bits = [](const PlanEntry& p) {
        return std::make_pair(std::min(p.scenario.weights.bitsPerWeight, 16.0),
                              std::min(p.scenario.kvDtype.bitsPerElement, 16.0));
    };
    if (bits(first) > bits(second))
        return PlanPreference::MoreFaithful;
    if (first.band.usable() && !second.band.usable())
        return PlanPreference::Measured;
    const auto signable = [](const PlanEntry& p) {
        return p.band.signableTokensPerS(p.verdict.tokensPerSUser);
    };
    if (signable(first) > signable(second))
        return PlanPreference::Faster;
    return PlanPreference::FewerGpus;
}

Targets planTargets(const Scenario& base)
{
    Targets t = base.targets;
    if (t.minTokensPerSUser <= 0)
        t.minTokensPerSUser = base.efficiency.realtimeTokensPerS;
    if (t.maxTtftMs <= 0)
        t.maxTtftMs = base.efficiency.planTtftTargetMs;
    return t;
}

PlanResult plan(const PlanRequest& asked, const Catalog& catalog)
{
    PlanRequest request = asked;
    request.base.targets = planTargets(asked.base);
    PlanSearch search(request, catalog);
    for (const EngineProfile& engine : catalog.engines) {
        if (!allowed(request.engines, engine.id))
            continue;
        for (const GpuSpec& gpu : catalog.gpus)
            if (allowed(request.gpus, gpu.id) && engine.runsOn(gpu.vendor) &&
                deploymentAllows(request.deployment, gpu))
                search.searchEngineOnGpu(engine, gpu);
    }
    return search.finish();
}

} // namespace kvscope
