// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/model/roofline.h"

#include "kvscope/model/kv_cache.h"

#include <algorithm>

namespace kvscope {

namespace {

double attentionWidth(const ModelSpec& m)
{
    if (m.isMla())
        return double(m.kvLoraRank + m.qkRopeHeadDim) + double(m.kvLoraRank);
    return 2.0 * double(m.headDim);
}

// Query-key pairs of a causal prefill of n tokens in a layer with window w (0 = none).
double causalPairs(double n, double w)
{
    if (w <= 0 || n <= w)
        return n * (n + 1) / 2;
    return w * (w + 1) / 2 + (n - w) * w;
}

} // namespace

double attentionFlopsPerToken(const ModelSpec& m, int64_t context)
{
    const int64_t windowed = m.windowedLayerCount();
    const double held = double(m.kvLayers() - windowed) * double(context) +
                        double(windowed) * double(std::min(context, m.slidingWindow));
    return 2.0 * double(m.queryHeads) * attentionWidth(m) * held;
}

double prefillFlops(const ModelSpec& m, const ParameterCount& p, int64_t tokens)
{
    const int64_t windowed = m.windowedLayerCount();
    const double n = double(tokens);
    const double pairs = double(m.kvLayers() - windowed) * causalPairs(n, 0) +
                         double(windowed) * causalPairs(n, double(m.slidingWindow));
    return 2.0 * p.active() * n + 2.0 * double(m.queryHeads) * attentionWidth(m) * pairs;
}

double decodeFlops(const ModelSpec& m, const ParameterCount& p, int64_t batch, int64_t context)
{
    return double(batch) * (2.0 * p.active() + attentionFlopsPerToken(m, context));
}

double serialStepMs(double gpuMs, double transfer)
{
    return gpuMs + transfer;
}

// Layer by layer, layer N+1 crosses while layer N computes: the slower of the two streams runs
// throughout, and the faster one's share of one layer sticks out at an end (the first layer's
// transfer, or the last layer's compute). So the overlap is never slower than serial.
double pipelinedStepMs(double gpuMs, double transfer, int64_t layers)
{
    return std::max(gpuMs, transfer) +
           std::min(gpuMs, transfer) / double(std::max<int64_t>(1, layers));
}

} // namespace kvscope
