// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/planning/expert_fit.h"

#include "kvscope/engines/engine_module.h"
#include "kvscope/evaluation/evaluation.h"
#include "kvscope/planning/verdict.h"

namespace kvscope {

std::optional<ExpertFit> fitExpertOffload(const Scenario& scenario)
{
    const EngineModule& engine = engineModule(scenario.engine);
    if (!engine.offloadsExperts() || !scenario.model.isMoe())
        return std::nullopt;
    Scenario s = scenario;
    s.cpuMoeAll = false;
    auto fits = [&](int64_t n) {
        s.cpuMoeLayers = n;
        const auto e = evaluate(s);
        return e && e->vram.fits;
    };
    // Memory on the GPU only falls as N grows, so the smallest N that fits is a bisection away.
    int64_t lo = 0, hi = s.model.layers;
    if (!fits(hi))
        return std::nullopt;
    if (fits(lo))
        hi = lo;
    while (hi - lo > 1) {
        const int64_t mid = lo + (hi - lo) / 2;
        (fits(mid) ? hi : lo) = mid;
    }
    s.cpuMoeLayers = hi;
    ExpertFit fit;
    fit.nCpuMoe = hi;
    fit.layersOnHost = engine.expertLayersOnHost(s);
    if (const auto e = evaluate(s)) {
        const Verdict v = verdictOf(s, *e);
        if (!v.runs && v.binding == Binding::HostRam)
            fit.hostShortBytes = v.shortBytes();
    }
    s.cpuMoeAll = true; // every MoE layer -ngl leaves on the GPU
    fit.layersOnGpu = engine.expertLayersOnHost(s) - fit.layersOnHost;
    return fit;
}

} // namespace kvscope
