// SPDX-License-Identifier: GPL-3.0-or-later
// The remedies in the seed's order. Each is applied through the settings registry (applyOptions),
// the door the CLI and scenario files use, so `calc` with a remedy's options gives its figures.
#include "kvscope/planning/remedies.h"

#include "kvscope/engines/engine_module.h"
#include "kvscope/planning/expert_fit.h"
#include "kvscope/planning/longest_context.h"
#include "kvscope/settings/scenario_options.h"

#include <algorithm>
#include <iterator>
#include <optional>

namespace kvscope {

const char* remedyId(RemedyKind kind)
{
    switch (kind) {
    case RemedyKind::QuantizeWeights8:
        return "quantize_weights_8bit";
    case RemedyKind::QuantizeWeights4:
        return "quantize_weights_4bit";
    case RemedyKind::QuantizeKv:
        return "quantize_kv_cache";
    case RemedyKind::OffloadExperts:
        return "offload_experts";
    case RemedyKind::OffloadWeights:
        return "offload_weights";
    case RemedyKind::OffloadKv:
        return "offload_kv_cache";
    case RemedyKind::PagedEngine:
        return "paged_engine";
    case RemedyKind::ShorterContext:
        return "shorter_context";
    case RemedyKind::FewerSequences:
        return "fewer_sequences";
    case RemedyKind::MoreGpus:
        return "more_gpus";
    case RemedyKind::LargerGpu:
        return "larger_gpu";
    case RemedyKind::QuantizeOnMoreGpus:
        return "quantize_on_more_gpus";
    case RemedyKind::ShorterContextSmallerKv:
        return "shorter_context_smaller_kv";
    case RemedyKind::MoreNodes:
        return "more_nodes";
    }
    return "";
}

bool formatSuits(const WeightFormat& format, const ModelSpec& model)
{
    return format.family != "mx" || model.isMoe();
}

namespace {

constexpr int kGpuCounts[] = {2, 4, 8}; // the GPU counts one node offers

struct Tried
{
    Scenario scenario;
    Evaluation evaluation;
    Verdict verdict;
};

std::optional<Tried> tryOptions(const Scenario& base, const OptionList& options, const Catalog& c)
{
    Tried t{base, {}, {}};
    if (applyOptions(t.scenario, options, c))
        return std::nullopt;
    auto e = evaluate(t.scenario);
    if (!e)
        return std::nullopt;
    t.evaluation = *e;
    t.verdict = verdictOf(t.scenario, t.evaluation);
    return t;
}

Remedy remedyFrom(RemedyKind kind, OptionList options, const Tried& t)
{
    Remedy r;
    r.kind = kind;
    r.options = std::move(options);
    r.scenario = t.scenario;
    r.verdict = t.verdict;
    const TokensFit& fit = t.evaluation.tokensFit;
    if (!fit.contextUnbounded(fit.perSequence))
        r.longestContext = fit.perSequence;
    // The context the search found is the longest that runs: a token more does not, though it
    // fits beside the activations of this one (longestRunningContext).
    if (kind == RemedyKind::ShorterContext || kind == RemedyKind::ShorterContextSmallerKv)
        r.longestContext = t.scenario.context;
    if (!fit.concurrencyUnbounded())
        r.concurrency = fit.maxConcurrency;
    // With the KV cache off the GPU, what the GPU holds no longer limits it: a running
    // scenario holds at least its own context and sequences.
    if (t.scenario.kvPlacement != KvPlacement::Gpu && t.verdict.runs) {
        if (r.longestContext)
            r.longestContext = std::max(*r.longestContext, t.scenario.context);
        if (r.concurrency)
            r.concurrency = std::max(*r.concurrency, t.scenario.batch);
    }
    r.decodeMs = t.evaluation.decode.selectedMs;
    r.tokensPerS = t.evaluation.decode.tokensPerS;
    r.cost = costOf(t.scenario, t.evaluation, t.verdict.runs);
    return r;
}

// The engine's first format (in its order of preference) in [loBits, hiBits) below the current.
// None when the current format is in that class already (or below it): another 4-bit family for
// a model in MXFP4 or Q4_K_M is a sideways step at best, and often a worse one.
const WeightFormat* weightStep(const Scenario& s, const Catalog& c, double loBits, double hiBits)
{
    if (s.weights.bitsPerWeight < hiBits)
        return nullptr;
    for (const std::string& id : s.engine.supportedWeights) {
        const WeightFormat* f = c.weightFormat(id);
        if (f && formatSuits(*f, s.model) && f->bitsPerWeight >= loBits &&
            f->bitsPerWeight < hiBits && f->bitsPerWeight < s.weights.bitsPerWeight)
            return f;
    }
    return nullptr;
}

// The engine's first KV dtype smaller than the current one.
const KvDtype* kvStep(const Scenario& s, const Catalog& c)
{
    for (const std::string& id : s.engine.supportedKvDtypes) {
        const KvDtype* d = c.kvDtype(id);
        if (d && d->bitsPerElement < s.kvDtype.bitsPerElement)
            return d;
    }
    return nullptr;
}

// A format the paged engine runs with about the bits of the current one.
const WeightFormat* nearestSupported(const EngineProfile& engine, const WeightFormat& current,
                                     const ModelSpec& model, const Catalog& c)
{
    const WeightFormat* best = nullptr;
    for (const std::string& id : engine.supportedWeights) {
        const WeightFormat* f = c.weightFormat(id);
        if (f && formatSuits(*f, model) && f->bitsPerWeight <= current.bitsPerWeight + 0.5 &&
            (!best || f->bitsPerWeight > best->bitsPerWeight))
            best = f;
    }
    return best;
}

class RemedyFinder
{
public:
    RemedyFinder(const Scenario& s, const Verdict& v, const Catalog& c) : m_s(s), m_v(v), m_c(c) {}

    std::vector<Remedy> find()
    {
        if (const WeightFormat* f = weightStep(m_s, m_c, 7, 9.5))
            offerQuantization(RemedyKind::QuantizeWeights8, *f);
        if (const WeightFormat* f = weightStep(m_s, m_c, 4, 5))
            offerQuantization(RemedyKind::QuantizeWeights4, *f);
        if (const KvDtype* d = kvStep(m_s, m_c))
            offer(RemedyKind::QuantizeKv, {{"kv-dtype", d->id}});
        offerOffloads();
        offerPagedEngine();
        // The same search as calc's longest context that runs (longest_context.h).
        if (auto n = longestRunningContext(m_s, m_s.context - 1, true))
            offer(RemedyKind::ShorterContext, {{"context", std::to_string(*n)}});
        offerShorterContextSmallerKv();
        searchCount(RemedyKind::FewerSequences, "batch", 1, m_s.batch - 1);
        offerMoreGpus();
        offerMoreNodes();
        offerLargerGpu();
        offerCombined();
        return m_found;
    }

private:
    // Listed when it runs and meets the targets, or when the scenario does not run and this
    // needs less memory; while the weights alone overflow, only a step that shrinks them counts.
    bool helps(const Tried& t, bool shrinksWeights) const
    {
        if (t.verdict.meetsTargets())
            return true;
        if (m_v.runs || t.verdict.runs || (m_v.binding == Binding::Weights && !shrinksWeights))
            return false;
        return t.verdict.shortBytes() < m_v.shortBytes();
    }

    void offer(RemedyKind kind, OptionList options, bool shrinksWeights = false)
    {
        if (auto t = tryOptions(m_s, options, m_c); t && helps(*t, shrinksWeights))
            m_found.push_back(remedyFrom(kind, std::move(options), *t));
    }

    // A quantization step is offered only when it makes the weights smaller than they are.
    void offerQuantization(RemedyKind kind, const WeightFormat& f)
    {
        const auto now = evaluate(m_s);
        OptionList options{{"weights", f.id}};
        if (auto t = tryOptions(m_s, options, m_c);
            t && now && t->evaluation.weightsBytesTotal < now->weightsBytesTotal && helps(*t, true))
            m_found.push_back(remedyFrom(kind, std::move(options), *t));
    }

    bool meets(const OptionList& options) const
    {
        auto t = tryOptions(m_s, options, m_c);
        return t && t->verdict.meetsTargets();
    }

    void offerOffloads()
    {
        const EngineFamily family = m_s.engine.family;
        if (family == EngineFamily::Transformers && !m_s.offloadWeights)
            offer(RemedyKind::OffloadWeights, {{"offload-weights", "on"}}, true);
        // Experts first: attention and the KV cache stay on the GPU, so it costs far less speed
        // than whole layers. The fewest layers' experts that make it fit.
        if (auto fit = fitExpertOffload(m_s); fit && fit->nCpuMoe > m_s.cpuMoeLayers)
            offer(RemedyKind::OffloadExperts, {{"n-cpu-moe", std::to_string(fit->nCpuMoe)}}, true);
        if (family == EngineFamily::LlamaCpp) {
            // llama.cpp offloads whole layers (-ngl): keep as many on the GPU as fit.
            const int64_t layers = m_s.gpuLayers.value_or(m_s.model.layers);
            const int64_t n =
                largestHolding(0, std::min(layers, m_s.model.layers) - 1, [&](int64_t k) {
                    return meets({{"n-gpu-layers", std::to_string(k)}});
                });
            if (n >= 0)
                offer(RemedyKind::OffloadWeights, {{"n-gpu-layers", std::to_string(n)}}, true);
        }
        if ((family == EngineFamily::Transformers || family == EngineFamily::LlamaCpp) &&
            m_s.kvPlacement == KvPlacement::Gpu)
            offer(RemedyKind::OffloadKv, {{"kv-placement", "cpu"}});
    }

    void offerPagedEngine()
    {
        if (m_s.engine.family == EngineFamily::Vllm)
            return;
        const EngineProfile* vllm = nullptr;
        for (const EngineProfile& e : m_c.engines)
            if (e.family == EngineFamily::Vllm)
                vllm = &e;
        if (!vllm || !vllm->runsOn(m_s.gpu.vendor))
            return;
        OptionList options{{"engine", vllm->id}};
        if (!vllm->supportsWeights(m_s.weights.id)) {
            const WeightFormat* f = nearestSupported(*vllm, m_s.weights, m_s.model, m_c);
            if (!f)
                return;
            options.push_back({"weights", f->id});
        }
        if (!vllm->supportsKvDtype(m_s.kvDtype.id))
            options.push_back({"kv-dtype", vllm->supportedKvDtypes.empty()
                                               ? std::string("fp16")
                                               : vllm->supportedKvDtypes.front()});
        if (m_s.kvPlacement != KvPlacement::Gpu)
            options.push_back({"kv-placement", "gpu"});
        if (m_s.offloadWeights)
            options.push_back({"offload-weights", "off"});
        offer(RemedyKind::PagedEngine, std::move(options));
    }

    void searchCount(RemedyKind kind, const char* flag, int64_t lo, int64_t hi)
    {
        const int64_t n = largestHolding(lo, hi, [&](int64_t k) {
            return meets({{flag, std::to_string(k)}});
        });
        if (n >= lo)
            offer(kind, {{flag, std::to_string(n)}});
    }

    void offerMoreGpus()
    {
        if (m_s.gpu.unifiedMemory) // one Apple silicon machine is one GPU
            return;
        for (int n : kGpuCounts)
            if (n > m_s.gpuCount && meets({{"gpus", std::to_string(n)}})) {
                offer(RemedyKind::MoreGpus, {{"gpus", std::to_string(n)}});
                return;
            }
    }

    // With the KV cache one step smaller, no lossier than 8 bits, a context longer than the
    // one that runs with the cache as it is (and the cache step alone does not run).
    void offerShorterContextSmallerKv()
    {
        const KvDtype* smaller = kvStep(m_s, m_c);
        if (!smaller || smaller->bitsPerElement < 8)
            return;
        const auto withSmaller = tryOptions(m_s, {{"kv-dtype", smaller->id}}, m_c);
        if (!withSmaller || withSmaller->verdict.meetsTargets())
            return; // offered alone as QuantizeKv
        const auto n = longestRunningContext(withSmaller->scenario, m_s.context - 1, true);
        int64_t asItIs = 0;
        for (const Remedy& r : m_found)
            if (r.kind == RemedyKind::ShorterContext)
                asItIs = r.scenario.context;
        if (n && *n > asItIs)
            offer(RemedyKind::ShorterContextSmallerKv,
                  {{"kv-dtype", smaller->id}, {"context", std::to_string(*n)}});
    }

    // Where no count of GPUs in one node runs the model as it is: the fewest full nodes that do,
    // under an engine that spans them.
    void offerMoreNodes()
    {
        if (m_s.gpu.unifiedMemory || m_s.nodes > 1)
            return;
        for (const Remedy& r : m_found)
            if (r.kind == RemedyKind::MoreGpus)
                return;
        constexpr int kPerNode = kGpuCounts[std::size(kGpuCounts) - 1];
        for (int nodes : {2, 4})
            for (const std::string& engine : combinedEngines()) {
                const EngineProfile* profile = m_c.engine(engine);
                if (!profile || !engineModule(*profile).spansNodes())
                    continue;
                OptionList options{{"gpus", std::to_string(kPerNode * nodes)},
                                   {"nodes", std::to_string(nodes)}};
                if (engine != m_s.engine.id)
                    options.push_back({"engine", engine});
                if (meets(options)) {
                    offer(RemedyKind::MoreNodes, std::move(options));
                    return;
                }
            }
    }

    // The fewest GPUs of this kind on which the weights at 8 bits, else 4, run and meet the
    // targets, under this engine or else vLLM (a paged KV cache): offered when neither the
    // quantization alone nor more GPUs alone reach it on as few GPUs.
    void offerCombined()
    {
        if (m_s.gpu.unifiedMemory)
            return;
        int moreGpus = 0; // what MoreGpus alone needs, if it was offered
        for (const Remedy& r : m_found)
            if (r.kind == RemedyKind::MoreGpus)
                moreGpus = r.scenario.gpuCount;
        std::vector<const WeightFormat*> steps;
        for (const auto& [lo, hi] : {std::pair{7.0, 9.5}, std::pair{4.0, 5.0}})
            if (const WeightFormat* f = weightStep(m_s, m_c, lo, hi))
                steps.push_back(f);
        for (int n : kGpuCounts) {
            if (n <= m_s.gpuCount || (moreGpus > 0 && n >= moreGpus))
                continue;
            for (const std::string& engine : combinedEngines())
                for (const WeightFormat* f : steps) {
                    OptionList options{{"weights", f->id}, {"gpus", std::to_string(n)}};
                    if (engine != m_s.engine.id)
                        options.push_back({"engine", engine});
                    if (meets(options)) {
                        offer(RemedyKind::QuantizeOnMoreGpus, std::move(options), true);
                        return;
                    }
                }
        }
    }

    // The scenario's engine, then vLLM where it runs on the GPU and is not already the engine.
    std::vector<std::string> combinedEngines() const
    {
        std::vector<std::string> engines{m_s.engine.id};
        for (const EngineProfile& e : m_c.engines)
            if (e.family == EngineFamily::Vllm && e.id != m_s.engine.id && e.runsOn(m_s.gpu.vendor))
                engines.push_back(e.id);
        return engines;
    }

    // The cheapest catalog GPU (then the smallest) on which the scenario runs as it is.
    void offerLargerGpu()
    {
        std::optional<Remedy> best;
        for (const GpuSpec& g : m_c.gpus) {
            if (g.id == m_s.gpu.id || !m_s.engine.runsOn(g.vendor) ||
                g.memoryGiB * g.usableFraction < m_s.gpu.memoryGiB * m_s.gpu.usableFraction)
                continue;
            OptionList options{{"gpu", g.id}};
            auto t = tryOptions(m_s, options, m_c);
            if (!t || !t->verdict.meetsTargets())
                continue;
            Remedy r = remedyFrom(RemedyKind::LargerGpu, std::move(options), *t);
            if (!best || cheaper(r, *best))
                best = std::move(r);
        }
        if (best)
            m_found.push_back(std::move(*best));
    }

    static bool cheaper(const Remedy& a, const Remedy& b)
    {
        if (a.cost.known != b.cost.known)
            return a.cost.known;
        if (a.cost.known && a.cost.perHour != b.cost.perHour)
            return a.cost.perHour < b.cost.perHour;
        return a.scenario.gpu.memoryGiB < b.scenario.gpu.memoryGiB;
    }

    const Scenario& m_s;
    const Verdict& m_v;
    const Catalog& m_c;
    std::vector<Remedy> m_found;
};

} // namespace

std::vector<Remedy> remedies(const Scenario& scenario, const Verdict& verdict,
                             const Catalog& catalog)
{
    if (verdict.meetsTargets())
        return {};
    return RemedyFinder(scenario, verdict, catalog).find();
}

} // namespace kvscope
