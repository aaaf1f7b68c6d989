// SPDX-License-Identifier: GPL-3.0-or-later
// vLLM: a memory budget of gpu_memory_utilization, a profiling run that sizes the activation peak
// and the sampler, CUDA graphs counted in the budget as the release does it, and the rest of the
// budget preallocated as KV blocks. What changed by release is data (engines.json "releases").
#include "engines/engine_modules.h"

namespace kvscope::engines {

namespace {
class VllmEngine final : public EngineModule
{
public:
    double overheadMiB(const Scenario& s) const override
    {
        return s.engine.runtimeOverheadMiB + (graphsInBudget(s) ? s.engine.cudaGraphMiB : 0.0) +
               tensorParallelBufferMiB(s);
    }

    // Model Runner V2, the default for dense models since v0.25.0, profiles a greedy sampler;
    // MoE models still run the classic runner, whose profile samples with top-k and top-p.
    // FlashInfer samples top-k/top-p without sorting the logits, so it holds no more than them.
    double samplerLogitCopies(const Scenario& s) const override
    {
        if (s.flashinferSampler)
            return 1.0;
        const double classic = s.engine.classicSamplerLogitCopies;
        return s.model.isMoe() && classic > 0 ? classic : s.engine.samplerLogitCopies;
    }

private:
    // Graphs the release captures before sizing the KV cache count in the budget; the others
    // are captured afterwards, in the headroom outside it. --enforce-eager captures none.
    static bool graphsInBudget(const Scenario& s)
    {
        if (s.enforceEager)
            return false;
        switch (s.engine.cudaGraphsInBudget) {
        case CudaGraphAccounting::All:
            return true;
        case CudaGraphAccounting::MoeOnly:
            return s.model.isMoe();
        case CudaGraphAccounting::None:
            return false;
        }
        return true;
    }
};
} // namespace

const EngineModule& vllm()
{
    static const VllmEngine module;
    return module;
}

} // namespace kvscope::engines
