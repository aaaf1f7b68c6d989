// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/scenario/parallel_layout.h"

#include "kvscope/scenario/scenario.h"

#include <algorithm>

namespace kvscope {

int gpusPerNode(const Scenario& s)
{
    return s.gpuCount / std::max(1, s.nodes);
}

int tensorWays(const Scenario& s)
{
    if (s.engine.layerSplit)
        return 1;
    return std::max(1, s.tensorAcrossNodes ? s.gpuCount : gpusPerNode(s));
}

int attentionRanks(const Scenario& s)
{
    if (!s.dpAttention)
        return 1;
    return s.attentionRanksStated > 0 ? s.attentionRanksStated : std::max(1, tensorWays(s));
}

int kvWays(const Scenario& s)
{
    const int ranks = attentionRanks(s);
    return ranks > 1 ? std::max(1, tensorWays(s) / ranks) : tensorWays(s);
}

int expertWays(const Scenario& s)
{
    return s.expertParallel ? tensorWays(s) : 1;
}

int expertShardWays(const Scenario& s)
{
    return s.expertParallel ? 1 : tensorWays(s);
}

int pipelineWays(const Scenario& s)
{
    if (s.engine.layerSplit)
        return s.gpuCount;
    return s.tensorAcrossNodes ? 1 : std::max(1, s.nodes);
}

namespace {

bool splitsHeadsOver(const ModelSpec& m, int64_t ways)
{
    if (ways <= 1)
        return true;
    if (m.queryHeads % ways != 0)
        return false;
    if (m.isMla() || m.kvHeads <= 0)
        return true;
    return m.kvHeads >= ways ? m.kvHeads % ways == 0 : ways % m.kvHeads == 0;
}

} // namespace

bool splitsHeadsEvenly(const Scenario& s)
{
    return splitsHeadsOver(s.model, tensorWays(s));
}

HeadSplits nearestHeadSplits(const Scenario& s)
{
    const int64_t heads = std::max<int64_t>(1, s.model.queryHeads);
    HeadSplits near;
    // Counts per node, scaled back to GPUs in all.
    const int nodes = std::max(1, s.nodes);
    const int perNode = gpusPerNode(s);
    for (int64_t n = std::min<int64_t>(perNode - 1, heads); n >= 1 && near.below == 0; --n)
        if (splitsHeadsOver(s.model, n))
            near.below = int(n) * nodes;
    for (int64_t n = perNode + 1; n <= heads && near.above == 0; ++n)
        if (splitsHeadsOver(s.model, n))
            near.above = int(n) * nodes;
    return near;
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
