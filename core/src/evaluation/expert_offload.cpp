// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/evaluation/expert_offload.h"

#include <algorithm>

namespace kvscope {

ExpertOffload expertOffload(const Scenario& s, int64_t layers, const ExpertStorage& experts)
{
    ExpertOffload o;
    o.moeLayers = s.model.moeLayers();
    o.layers = std::clamp<int64_t>(layers, 0, o.moeLayers);
    if (o.layers == 0)
        return o;
    const double share = double(o.layers) / double(o.moeLayers);
    o.bytesTotal = share * experts.parameters * experts.bitsPerWeight / 8.0;
    o.bytesPerGpu = o.bytesTotal / double(s.gpuCount);
    return o;
}

double expertBytesReadOnHost(const Scenario& s, const ExpertOffload& o, const ParameterCount& p,
                             int64_t tokens, int tensorWays)
{
    if (o.layers == 0)
        return 0.0;
    // The same count weightBytesReadPerStep() makes for the experts, for these layers only.
    const double share = double(o.layers) / double(o.moeLayers);
    return share * p.experts * expertShareTouched(s.model, tokens) * s.weights.bitsPerWeight / 8.0 /
           double(std::max(1, tensorWays));
}

} // namespace kvscope
