// SPDX-License-Identifier: GPL-3.0-or-later
// evaluate()'s prefill parts: a prompt's prefill in the engine's chunks, reloading its KV over each
// tier instead, and the prompt lengths where reloading starts to win (break-even).
#include "evaluation/evaluation_parts.h"

#include "kvscope/model/roofline.h"
#include "kvscope/model/weights.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace kvscope::evaluation_parts {

namespace {

// Time to the first new token after a prompt of `tokens`, by recomputing its KV (prefill) and
// by reloading it over each tier (transfer, then one decode step).
struct ReloadRecompute
{
    double recomputeMs = 0;
    std::array<double, 3> reloadMs{};
};

// What experts in host RAM add to a forward of `tokens` tokens. From 32 tokens on, llama.cpp
// copies host-resident weights to the GPU to run the batch there (op offload, on by default:
// --no-op-offload in tools/server/README.md; ggml-cuda's min batch is 32), once per n_ubatch
// chunk; a shorter batch is computed by the CPU like a decode step.
double hostExpertsForwardMs(const Setup& x, const ParameterCount& p, const DecodeTiming& d,
                            const ExpertOffload& experts, int64_t tokens)
{
    const Scenario& s = x.s;
    if (experts.layers == 0)
        return 0.0;
    constexpr int64_t kOpOffloadMinBatch = 32;
    if (tokens < kOpOffloadMinBatch)
        return transferMs(expertBytesReadOnHost(s, experts, p, tokens, x.ways),
                          hostServeGBps(x, d.pcieEffectiveGBps)) +
               handoverMs(s, double(experts.layers), tokens, d.pcieEffectiveGBps);
    const int64_t chunk = s.engine.prefillChunkTokens > 0 ? s.engine.prefillChunkTokens : tokens;
    const int64_t chunkCount = (tokens + chunk - 1) / chunk; // whole chunks, the last partial
    const double chunks = double(chunkCount);
    return chunks * transferMs(experts.bytesTotal / double(x.ways), d.pcieEffectiveGBps);
}

// FLOPs a prefill achieves per millisecond, all tensor-parallel GPUs together.
double prefillFlopsPerMs(const Setup& x)
{
    return x.tflops * 1e12 * x.computeEfficiency / 1e3 * double(x.ways);
}

// A prefill of `tokens`, in the engine's chunks (vLLM's max_num_batched_tokens, llama.cpp's
// n_ubatch, TGI's prefill budget; transformers runs the prompt whole). Each chunk reads the
// weights again and computes its tokens against all before them, so a chunk takes
// max(weights read, its FLOPs): early chunks can be memory-bound, later ones compute-bound, and
// the chunk where that turns is found by bisection (chunk FLOPs only grow along the prompt).
// `cached` tokens at the prompt's start already have their KV (a prefix cache hit): the chunks
// cover the rest, each still attending to everything before it.
double prefillMs(const Setup& x, const ParameterCount& p, int64_t tokens, int64_t cached = 0)
{
    const Scenario& s = x.s;
    const double n = double(x.ways);
    const double flopsPerMs = prefillFlopsPerMs(x);
    const double bandwidth = s.gpu.bandwidthGBps * s.efficiency.hbm;
    // A chunk reads the same weights a decode step does, with every token's experts touched.
    auto readMs = [&](int64_t chunkTokens) {
        return transferMs(weightBytesReadPerStep(s.model, p, s.weights, chunkTokens) / n,
                          bandwidth);
    };
    cached = std::clamp<int64_t>(cached, 0, std::max<int64_t>(tokens - 1, 0));
    const double cachedFlops = prefillFlops(s.model, p, cached);
    auto flopsUpTo = [&](int64_t t) { return prefillFlops(s.model, p, cached + t) - cachedFlops; };
    tokens = std::max<int64_t>(tokens - cached, 1);
    const int64_t engineChunk = x.engine.prefillChunkTokens(s);
    const int64_t chunk = engineChunk > 0 ? std::min(engineChunk, tokens) : tokens;
    const int64_t full = tokens / chunk;        // chunks of `chunk` tokens
    const int64_t rest = tokens - full * chunk; // and a last, shorter one
    const double fullReadMs = readMs(chunk);
    auto chunkComputeMs = [&](int64_t i) {
        return (flopsUpTo((i + 1) * chunk) - flopsUpTo(i * chunk)) / flopsPerMs;
    };
    int64_t lo = 0, hi = full; // the first full chunk whose compute outlasts its read
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (chunkComputeMs(mid) >= fullReadMs)
            hi = mid;
        else
            lo = mid + 1;
    }
    double ms =
        double(lo) * fullReadMs + (flopsUpTo(full * chunk) - flopsUpTo(lo * chunk)) / flopsPerMs;
    if (rest > 0)
        ms += std::max(readMs(rest), (flopsUpTo(tokens) - flopsUpTo(full * chunk)) / flopsPerMs);
    // Each chunk's hidden states are all-reduced twice a layer under tensor parallel, inside
    // the nodes and between them, as a decode step's are: 8,192 tokens of gpt-oss-120b over 8
    // H100s move 47 MB each time.
    ms += double(full) * forwardAllReducesMs(s, chunk) +
          (rest > 0 ? forwardAllReducesMs(s, rest) : 0.0);
    // Each forward pass launches every layer's kernels as a decode step does: a host-bound
    // engine (transformers' Python dispatch) pays that per chunk, as its reload pays it once.
    const double forwards = double(full + (rest > 0 ? 1 : 0));
    return ms + forwards *
                    (double(s.model.layers) * x.engine.layerOverheadUs(s) +
                     x.engine.forwardOverheadUs(s)) /
                    1e3;
}

ReloadRecompute reloadRecompute(const Setup& x, const ParameterCount& p, const DecodeTiming& d,
                                const ExpertOffload& experts, int64_t tokens)
{
    const Scenario& s = x.s;
    ReloadRecompute r;
    r.recomputeMs = prefillMs(x, p, tokens) + hostExpertsForwardMs(x, p, d, experts, tokens);

    const double hostRead = expertBytesReadOnHost(s, experts, p, 1, x.ways);
    const GpuStep step = gpuStep(x, p, 1.0, 1.0, 1, tokens, hostRead);
    const double stepMs = std::max(step.memoryMs, step.computeMs) + d.fixedMs + d.interconnectMs +
                          hostExpertsForwardMs(x, p, d, experts, 1);
    const double kvBytes = kvBytesForContext(x.shape, s.kvDtype, x.kvWays, tokens) * layerShare(s);
    const double rates[] = {d.pcieEffectiveGBps, d.nvmeEffectiveGBps, d.sataEffectiveGBps};
    for (size_t i = 0; i < 3; ++i)
        r.reloadMs[i] = transferMs(kvBytes, rates[i]) + stepMs;
    return r;
}

} // namespace

void breakeven(const Setup& x, const ParameterCount& p, const DecodeTiming& d,
               const ExpertOffload& experts, bool withCrossings, Breakeven& b)
{
    const Scenario& s = x.s;
    const ReloadRecompute at = reloadRecompute(x, p, d, experts, s.context);
    b.recomputeMs = at.recomputeMs;
    b.reloadMs = at.reloadMs;
    b.prefillComputeMs = prefillFlops(s.model, p, s.context) / prefillFlopsPerMs(x);
    b.cachedPrefixTokens = x.engine.cachedPrefixTokens(s);
    b.cachedRecomputeMs = b.recomputeMs;
    b.cachedPrefillComputeMs = b.prefillComputeMs;
    if (b.cachedPrefixTokens > 0) {
        const int64_t rest = s.context - b.cachedPrefixTokens;
        b.cachedRecomputeMs = prefillMs(x, p, s.context, b.cachedPrefixTokens) +
                              hostExpertsForwardMs(x, p, d, experts, rest);
        b.cachedPrefillComputeMs =
            (prefillFlops(s.model, p, s.context) - prefillFlops(s.model, p, b.cachedPrefixTokens)) /
            prefillFlopsPerMs(x);
    }

    if (!withCrossings)
        return;

    // The prompt length from which reload stays faster up to the search bound: after the last
    // grid point where recompute still wins, refined by bisection. (Reload can win briefly at a
    // few tokens and lose again, e.g. when a MoE prefill touches more experts as it grows.)
    const int64_t upTo =
        std::max<int64_t>(s.context, s.model.maxContext > 0 ? s.model.maxContext : 131'072);
    b.searchedUpTo = upTo;
    constexpr int kGrid = 64;
    std::array<int64_t, 3> lastLoss{0, 0, 0}; // 0: reload never lost on the grid
    std::array<int64_t, 3> winAfterLoss{-1, -1, -1};
    int64_t previous = 0;
    for (int i = 0; i <= kGrid; ++i) {
        const auto t = int64_t(std::llround(std::pow(double(upTo), double(i) / kGrid)));
        if (t <= previous)
            continue;
        const ReloadRecompute r = reloadRecompute(x, p, d, experts, t);
        for (size_t tier = 0; tier < 3; ++tier) {
            if (r.reloadMs[tier] < r.recomputeMs) {
                if (winAfterLoss[tier] < 0)
                    winAfterLoss[tier] = t;
            } else {
                lastLoss[tier] = t;
                winAfterLoss[tier] = -1;
            }
        }
        previous = t;
    }
    for (size_t tier = 0; tier < 3; ++tier) {
        if (winAfterLoss[tier] < 0) {
            b.crossTokens[tier] = -1; // recompute wins at the longest prompt considered
            continue;
        }
        int64_t lo = lastLoss[tier], hi = winAfterLoss[tier]; // reload loses at lo, wins at hi
        while (hi - lo > 1) {
            const int64_t mid = lo + (hi - lo) / 2;
            const ReloadRecompute m = reloadRecompute(x, p, d, experts, mid);
            (m.reloadMs[tier] < m.recomputeMs ? hi : lo) = mid;
        }
        b.crossTokens[tier] = hi;
    }
}

} // namespace kvscope::evaluation_parts
