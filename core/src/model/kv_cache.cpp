// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/model/kv_cache.h"

#include <algorithm>
#include <cmath>

namespace kvscope {

KvShape kvShapeKeepingState(const ModelSpec& model, bool stateInFloat32)
{
    KvShape shape;
    shape.layers = model.kvLayers();
    if (const RecurrentLayers& r = model.recurrent; r.present()) {
        shape.recurrentLayers = r.count;
        const double convBytes = stateInFloat32 ? 4.0 : 2.0;
        const double ssmBytes = stateInFloat32 ? 4.0 : double(r.ssmBytes);
        shape.stateBytesPerLayer =
            double(r.convElements) * convBytes + double(r.ssmElements) * ssmBytes;
    }
    shape.windowedLayers = model.windowedLayerCount();
    shape.slidingWindow = model.slidingWindow;
    shape.kvHeads = model.kvHeads;
    shape.headDim = model.headDim;
    shape.kvLoraRank = model.kvLoraRank;
    shape.qkRopeHeadDim = model.qkRopeHeadDim;
    return shape;
}

KvShape kvShape(const ModelSpec& model, int64_t kvHeads)
{
    return variantShape(kvShape(model), model, kvHeads);
}

int64_t kvHeadsPerGpu(const ModelSpec& model, int gpus)
{
    return kvHeadsPerGpu(kvShape(model), gpus);
}

double kvBytesPerTokenPerLayer(const ModelSpec& model, const KvDtype& dtype, int gpus)
{
    return kvBytesPerTokenPerLayer(kvShape(model), dtype, gpus);
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
    return kvBytesForContext(kvShape(model), dtype, gpus, context);
}

double kvBytesPerToken(const KvShape& shape, const KvDtype& dtype, int gpus)
{
    return kvBytesPerTokenPerLayer(shape, dtype, gpus) * double(shape.layers) +
           draftKvBytesPerToken(shape, dtype, gpus);
}

double kvBytesPerToken(const ModelSpec& model, const KvDtype& dtype, int gpus)
{
    return kvBytesPerToken(kvShape(model), dtype, gpus);
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
    return longestContextFitting(kvShape(model), dtype, gpus, bytes, blockTokens, capped);
}

} // namespace kvscope
