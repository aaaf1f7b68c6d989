// SPDX-License-Identifier: GPL-3.0-or-later
#include "fuzz_support.h"

#include "kvscope/engines/engine_module.h"

#include "evaluation_checks.h"
#include "kvscope/evaluation/evaluation.h"
#include "kvscope/io/result_json.h"
#include "kvscope/settings/scenario_defaults.h"
#include "kvscope/settings/scenario_file.h"
#include "kvscope/text/text_summary.h"

#include <cstdio>
#include <cstdlib>

#include <nlohmann/json.hpp>

namespace kvscope::fuzz {

const Catalog& catalog()
{
    static const Catalog loaded = [] {
        Catalog c = loadCatalog({KVSCOPE_FUZZ_DATA_DIR});
        if (c.models.empty() || c.gpus.empty() || !defaultScenario(c).ok())
            fail("no catalog in " KVSCOPE_FUZZ_DATA_DIR " (build the kvscope_data target)");
        return c;
    }();
    return loaded;
}

void fail(const std::string& what)
{
    std::fprintf(stderr, "kvscope fuzz check failed: %s\n", what.c_str());
    std::abort();
}

const Scenario& defaultScenario()
{
    static const Scenario seed = kvscope::defaultScenario(catalog()).value();
    return seed;
}

uint32_t selector(const uint8_t* data, size_t size)
{
    uint32_t h = 2166136261u; // FNV-1a
    for (size_t i = 0; i < size; ++i)
        h = (h ^ data[i]) * 16777619u;
    return h;
}

namespace {

void checkOne(const Scenario& s, const char* which, bool outputs)
{
    auto e = evaluate(s, EvaluateOptions{.breakevenCrossings = true});
    if (!e)
        fail(std::string(which) +
             " scenario passed loading but evaluate() refused it: " + e.error().message());
    if (const std::string bad = test::firstBadNumber(*e); !bad.empty())
        fail(std::string(which) + " scenario: " + bad + "\n" + scenarioToText(s));
    if (!outputs)
        return;
    // What `calc --json` and `calc` print; dump() throws on text that is not UTF-8.
    (void)evaluationToJson(s, *e).dump();
    (void)textSummary(s, *e, ByteUnits::Binary);
}

} // namespace

void evaluateChecked(const Scenario& s, uint32_t pick)
{
    checkOne(s, "loaded", true);

    // One variant: the same model and GPU under other deployment choices, all within limits.
    const Catalog& c = catalog();
    Scenario v = s;
    constexpr int gpuCounts[] = {1, 2, 3, 8, 1024};
    constexpr int64_t batches[] = {1, 8, 256, limits::maxBatch};
    constexpr int64_t contexts[] = {1, 4097, 1'000'000, limits::maxContext};
    constexpr KvPlacement placements[] = {KvPlacement::Gpu, KvPlacement::CpuRam, KvPlacement::Nvme,
                                          KvPlacement::Sata};
    v.gpuCount = gpuCounts[pick % 5];
    v.batch = batches[(pick / 5) % 4];
    v.context = contexts[(pick / 20) % 4];
    if (!c.engines.empty())
        applyEngine(v, c.engines[(pick / 80) % c.engines.size()]);
    v.kvPlacement = placements[(pick / 400) % 4];
    v.offloadWeights = (pick / 1600) % 2;
    v.prefetchKv = (pick / 3200) % 2;
    if (!c.weightFormats.empty())
        v.weights = c.weightFormats[(pick / 6400) % c.weightFormats.size()];
    // Two nodes where the engine spans machines and they divide the GPUs; else one.
    const int nodes = (pick / 12800) % 2 == 0 ? 1 : 2;
    v.nodes = engineModule(v.engine).spansNodes() && !v.gpu.unifiedMemory &&
                      v.gpuCount % nodes == 0 && v.nodeLink.gbitPerS > 0
                  ? nodes
                  : 1;
    if (validate(v))
        fail("variant out of limits:\n" + scenarioToText(v));
    checkOne(v, "variant", false); // same strings as the loaded one: outputs add nothing
}

} // namespace kvscope::fuzz
