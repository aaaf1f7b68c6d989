// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/model/kv_cache.h"

#include "kvscope/evaluation/scenario.h"

#include <algorithm>
#include <cmath>

namespace kvscope {

int64_t kvHeadsPerGpu(const ModelSpec& model, int gpus)
{
    if (model.isMla())
        return 1; // one latent, replicated on every GPU
    const int64_t n = std::max(1, gpus);
    return std::max<int64_t>(1, (model.kvHeads + n - 1) / n);
}

double kvBytesPerTokenPerLayer(const ModelSpec& model, const KvDtype& dtype, int gpus)
{
    if (model.isMla())
        return double(model.kvLoraRank + model.qkRopeHeadDim) * dtype.bytesPerElement();
    return 2.0 * double(kvHeadsPerGpu(model, gpus)) * double(model.headDim) *
           dtype.bytesPerElement();
}

static bool isWindowed(const ModelSpec& model, int64_t layer)
{
    return model.slidingWindow > 0 && layer < int64_t(model.windowedLayers.size()) &&
           model.windowedLayers[size_t(layer)];
}

int64_t tokensHeld(const ModelSpec& model, int64_t layer, int64_t context)
{
    return isWindowed(model, layer) ? std::min(context, model.slidingWindow) : context;
}

double kvBytesForContext(const ModelSpec& model, const KvDtype& dtype, int gpus, int64_t context)
{
    const int64_t windowed = model.windowedLayerCount();
    const int64_t full = model.layers - windowed;
    const double perLayer = kvBytesPerTokenPerLayer(model, dtype, gpus);
    const double held = double(full) * double(context) +
                        double(windowed) * double(std::min(context, model.slidingWindow));
    return perLayer * held;
}

double kvBytesPerToken(const ModelSpec& model, const KvDtype& dtype, int gpus)
{
    return kvBytesPerTokenPerLayer(model, dtype, gpus) * double(model.layers);
}

int64_t roundUpToBlock(int64_t tokens, int64_t blockTokens)
{
    if (blockTokens <= 1)
        return tokens;
    return (tokens + blockTokens - 1) / blockTokens * blockTokens;
}

int64_t longestContextFitting(const ModelSpec& model, const KvDtype& dtype, int gpus, double bytes,
                              int64_t blockTokens, bool* capped)
{
    if (capped)
        *capped = false;
    const double perLayer = kvBytesPerTokenPerLayer(model, dtype, gpus);
    if (!(bytes > 0) || !(perLayer > 0) || model.layers <= 0)
        return 0;
    const int64_t windowed = model.windowedLayerCount();
    const int64_t full = model.layers - windowed;
    const double window = double(model.slidingWindow);

    // KV(T) is piecewise linear: every layer grows until T reaches the window, then only the
    // full layers do.
    double tokens = bytes / (perLayer * double(model.layers));
    if (windowed > 0 && tokens >= window) {
        const double atWindow = perLayer * double(model.layers) * window;
        tokens = full > 0 ? window + (bytes - atWindow) / (perLayer * double(full))
                          : double(limits::maxContext);
    }
    int64_t result = tokens >= double(limits::maxContext) ? limits::maxContext
                                                          : int64_t(std::floor(tokens));
    if (result >= limits::maxContext && capped)
        *capped = true;
    if (blockTokens > 1)
        result = result / blockTokens * blockTokens;
    return result;
}

} // namespace kvscope
