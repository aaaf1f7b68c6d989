// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/scenario/reserved_memory.h"

#include "kvscope/scenario/parallel_layout.h"
#include "kvscope/scenario/scenario.h"

#include <algorithm>
#include <cmath>

namespace kvscope {

namespace {

// Prefill CUDA graphs captured up to `maxTokens` tokens, one per size in SGLang's list
// (generate_prefill_cuda_graph_batch_sizes: 4-32 by 4, 48-256 by 16, 288-512 by 32, 576-1024
// by 64, 1280-4096 by 256, then by 512).
int64_t prefillGraphSizes(int64_t maxTokens)
{
    struct Run
    {
        int64_t first, last, step;
    };
    constexpr Run runs[] = {{4, 32, 4},      {48, 256, 16},     {288, 512, 32},
                            {576, 1024, 64}, {1280, 4096, 256}, {4608, INT64_MAX / 2, 512}};
    int64_t count = 0;
    for (const Run& r : runs)
        if (maxTokens >= r.first)
            count += (std::min(maxTokens, r.last) - r.first) / r.step + 1;
    return count;
}

const EngineProfile::ReservedMemory::Tier* tierFor(const EngineProfile::ReservedMemory& rule,
                                                   double gpuMiB)
{
    for (const auto& tier : rule.tiers)
        if (tier.belowMiB <= 0 || gpuMiB < tier.belowMiB)
            return &tier;
    return nullptr;
}

} // namespace

double Scenario::effectiveMemoryFraction() const
{
    if (memoryFraction)
        return *memoryFraction;
    const ReservedMemoryDefaults reserved = reservedMemoryDefaults(*this);
    return reserved.memoryFraction > 0 ? reserved.memoryFraction : engine.memoryFraction;
}

ReservedMemoryDefaults reservedMemoryDefaults(const Scenario& s)
{
    ReservedMemoryDefaults d;
    const EngineProfile::ReservedMemory& rule = s.engine.reservedMemory;
    const double gpuMiB = s.gpu.memoryGiB * s.gpu.usableFraction * 1024.0;
    const auto* tier = rule.present() ? tierFor(rule, gpuMiB) : nullptr;
    if (!tier || gpuMiB <= 0)
        return d;
    const int tp = tensorWays(s), pp = pipelineWays(s);
    d.chunkedPrefillTokens =
        s.engine.prefillChunkTokens > 0 ? s.engine.prefillChunkTokens : tier->chunkedPrefillTokens;
    d.graphMaxBatch = tp >= 4 ? tier->graphMaxBatchFromTp4 : tier->graphMaxBatch;
    const double activationTokens =
        double(std::max(d.chunkedPrefillTokens, rule.minActivationTokens));
    double reserved = rule.baseMiB + activationTokens * rule.mibPerActivationToken +
                      double(tp * pp) / 8.0 * rule.mibPerEightGpus;
    if (!s.enforceEager) {
        reserved += double(d.graphMaxBatch) * rule.mibPerDecodeGraphBatch;
        reserved += s.model.isMla() ? rule.mlaPrefillGraphMiB
                                    : double(prefillGraphSizes(d.chunkedPrefillTokens)) *
                                          rule.mibPerPrefillGraphSize;
    }
    // Data-parallel attention pads its graphs per rank (reserve_for_graph_mb).
    if (const int ranks = attentionRanks(s); ranks > 1 && !s.enforceEager) {
        const double perRank = double(d.graphMaxBatch) * double(ranks);
        reserved += perRank * rule.mibPerDpAttentionGraphBatch;
        if (d.graphMaxBatch > 300)
            reserved += perRank * rule.mibPerDpAttentionGraphBatchAbove300;
    }
    if (gpuMiB > rule.floorAboveMiB)
        reserved = std::max(reserved, rule.floorMiB);
    if (s.speculative.draft)
        reserved += rule.draftModelMiB;
    else if (s.speculative.mtp || s.speculative.eagle != EagleMethod::Off)
        reserved += rule.eagleDraftMiB;
    d.reservedMiB = reserved;
    d.memoryFraction =
        std::clamp(std::round((gpuMiB - reserved) / gpuMiB * 1000.0) / 1000.0, 0.01, 1.0);
    return d;
}

} // namespace kvscope
