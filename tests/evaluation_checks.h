// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Every number an Evaluation holds, by name, and the check that each is finite and (apart from
// the documented signed ones) non-negative. Qt-free: the property suite and the fuzzers share it.
// Names are static strings: the property suite runs this millions of times.

#include "kvscope/evaluation/evaluation.h"

#include <cmath>
#include <iterator>
#include <string>

namespace kvscope::test {

// Calls f(name, value, mayBeNegative) for each number of `e`. A field added to Evaluation must be
// added here too, or the property suite and the fuzzers stop checking it.
template <typename F> void forEachNumber(const Evaluation& e, F&& f)
{
    const ParameterCount& p = e.parameters;
    f("parameters.embedding", p.embedding, false);
    f("parameters.lmHead", p.lmHead, false);
    f("parameters.attention", p.attention, false);
    f("parameters.denseMlp", p.denseMlp, false);
    f("parameters.experts", p.experts, false);
    f("parameters.expertsActive", p.expertsActive, false);
    f("parameters.other", p.other, false);
    f("weightsBytesTotal", e.weightsBytesTotal, false);

    const KvFigures& kv = e.kv;
    f("kv.bytesPerTokenPerLayer", kv.bytesPerTokenPerLayer, false);
    f("kv.bytesPerToken", kv.bytesPerToken, false);
    f("kv.totalBytes", kv.totalBytes, false);
    f("kv.allocatedBytes", kv.allocatedBytes, false);
    f("kv.totalMhaBytes", kv.totalMhaBytes, false);
    f("kv.totalGqaBytes", kv.totalGqaBytes, false);
    f("kv.totalMqaBytes", kv.totalMqaBytes, false);
    f("kv.kvHeadsPerGpu", double(kv.kvHeadsPerGpu), false);
    f("kv.windowedLayers", double(kv.windowedLayers), false);
    f("kv.tokensHeldPerWindowedLayer", double(kv.tokensHeldPerWindowedLayer), false);

    const VramSplit& v = e.vram;
    f("vram.capacityBytes", v.capacityBytes, false);
    f("vram.budgetBytes", v.budgetBytes, false);
    f("vram.reservedBytes", v.reservedBytes, false);
    f("vram.weightsBytes", v.weightsBytes, false);
    f("vram.kvCacheBytes", v.kvCacheBytes, false);
    f("vram.activationBytes", v.activationBytes, false);
    f("vram.overheadBytes", v.overheadBytes, false);
    f("vram.freeBytes", v.freeBytes, true); // < 0: does not fit by that much
    f("vram.weightsOffloadedBytes", v.weightsOffloadedBytes, false);

    const TokensFit& t = e.tokensFit;
    f("tokensFit.freeForKvBytes", t.freeForKvBytes, true); // < 0 when weights alone overflow
    f("tokensFit.model", double(t.model), false);
    f("tokensFit.mha", double(t.mha), false);
    f("tokensFit.gqa", double(t.gqa), false);
    f("tokensFit.mqa", double(t.mqa), false);
    f("tokensFit.mla", double(t.mla), t.mla == -1); // -1: the model has no latent cache
    f("tokensFit.gqaKvHeads", double(t.gqaKvHeads), false);
    f("tokensFit.perSequence", double(t.perSequence), false);
    f("tokensFit.perSequenceMha", double(t.perSequenceMha), false);
    f("tokensFit.perSequenceGqa", double(t.perSequenceGqa), false);
    f("tokensFit.perSequenceMqa", double(t.perSequenceMqa), false);
    f("tokensFit.maxConcurrency", double(t.maxConcurrency), false);

    const EngineFigures& g = e.engine;
    f("engine.kvBlocks", double(g.kvBlocks), false);
    f("engine.kvCacheTokens", double(g.kvCacheTokens), false);
    f("engine.maxConcurrency", g.maxConcurrency, false);
    f("engine.kvBufferBytes", g.kvBufferBytes, false);
    f("engine.gpuLayers", double(g.gpuLayers), false);

    const DecodeTiming& d = e.decode;
    f("decode.pcieEffectiveGBps", d.pcieEffectiveGBps, false);
    f("decode.nvmeEffectiveGBps", d.nvmeEffectiveGBps, false);
    f("decode.sataEffectiveGBps", d.sataEffectiveGBps, false);
    f("decode.kvTransferMs", d.kvTransferMs, false);
    f("decode.weightsReadBytes", d.weightsReadBytes, false);
    f("decode.memoryMs", d.memoryMs, false);
    f("decode.computeMs", d.computeMs, false);
    f("decode.gpuMs", d.gpuMs, false);
    f("decode.weightsOffloadMs", d.weightsOffloadMs, false);
    f("decode.fixedMs", d.fixedMs, false);
    f("decode.interconnectMs", d.interconnectMs, false);
    f("decode.hostLayersMs", d.hostLayersMs, false);
    static constexpr const char* tierNames[] = {"decode.tierMs.gpu", "decode.tierMs.cpu_serial",
                                                "decode.tierMs.cpu_pipelined", "decode.tierMs.nvme",
                                                "decode.tierMs.sata"};
    static_assert(std::size(tierNames) == allTiers.size());
    for (size_t i = 0; i < allTiers.size(); ++i)
        f(tierNames[i], d.tierMs[i], false);
    f("decode.selectedMs", d.selectedMs, false);
    f("decode.tokensPerS", d.tokensPerS, false);

    const Breakeven& b = e.breakeven;
    f("breakeven.recomputeMs", b.recomputeMs, false);
    f("breakeven.prefillComputeMs", b.prefillComputeMs, false);
    static constexpr const char* reloadNames[] = {
        "breakeven.reloadMs.cpu", "breakeven.reloadMs.nvme", "breakeven.reloadMs.sata"};
    static constexpr const char* crossNames[] = {
        "breakeven.crossTokens.cpu", "breakeven.crossTokens.nvme", "breakeven.crossTokens.sata"};
    static_assert(std::size(reloadNames) == allReloadTiers.size());
    for (size_t i = 0; i < allReloadTiers.size(); ++i) {
        f(reloadNames[i], b.reloadMs[i], false);
        const int64_t cross = b.crossTokens[i];
        f(crossNames[i], double(cross), cross == -1); // -1: recompute wins throughout
    }
    f("breakeven.searchedUpTo", double(b.searchedUpTo), false);
}

// The first number of `e` that is NaN, infinite or wrongly negative, as "name = value"; "" if none.
inline std::string firstBadNumber(const Evaluation& e)
{
    std::string bad;
    forEachNumber(e, [&](const char* name, double value, bool mayBeNegative) {
        if (bad.empty() && (!std::isfinite(value) || (value < 0 && !mayBeNegative)))
            bad = std::string(name) + " = " + std::to_string(value);
    });
    return bad;
}

} // namespace kvscope::test
