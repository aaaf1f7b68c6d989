// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/scenario/parallel_layout.h"

#include "kvscope/scenario/scenario.h"

#include <algorithm>

namespace kvscope {

int tensorWays(const Scenario& s)
{
    return s.engine.layerSplit ? 1 : s.gpuCount;
}

double gpuLayerShare(const Scenario& s)
{
    if (!s.gpuLayers)
        return 1.0;
    return double(std::min(*s.gpuLayers, s.model.layers)) / double(s.model.layers);
}

double tensorParallelBufferMiB(const Scenario& s)
{
    // GPUs joined by PCIe alone show no such buffers in vLLM's logs, and a layer split only
    // hands activations from one GPU to the next.
    return tensorWays(s) > 1 && s.gpu.nvlinkGBps > 0 ? s.engine.tensorParallelOverheadMiB : 0.0;
}

} // namespace kvscope
