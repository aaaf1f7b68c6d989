// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/model/parameters.h"

namespace kvscope {

namespace {

double attentionPerLayer(const ModelSpec& m)
{
    const double hidden = double(m.hiddenSize);
    const double heads = double(m.queryHeads);
    if (m.isMla()) {
        // DeepSeek-V2/V3: low-rank query (optional), joint KV compression, decoupled RoPE key.
        const double qkDim = double(m.qkNopeHeadDim + m.qkRopeHeadDim);
        const double query =
            m.qLoraRank > 0 ? hidden * double(m.qLoraRank) + double(m.qLoraRank) * heads * qkDim
                            : hidden * heads * qkDim;
        const double kvDown = hidden * double(m.kvLoraRank + m.qkRopeHeadDim);
        const double kvUp = double(m.kvLoraRank) * heads * double(m.qkNopeHeadDim + m.vHeadDim);
        const double out = heads * double(m.vHeadDim) * hidden;
        return query + kvDown + kvUp + out;
    }
    const double qDim = heads * double(m.headDim);
    const double kvDim = double(m.kvHeads) * double(m.headDim);
    double projections = hidden * qDim + 2 * hidden * kvDim + qDim * hidden;
    if (m.attentionBias)
        projections += qDim + 2 * kvDim;
    return projections;
}

double mlpParameters(const ModelSpec& m, int64_t width)
{
    const double matrices = m.gatedMlp ? 3.0 : 2.0;
    return matrices * double(m.hiddenSize) * double(width);
}

} // namespace

ParameterCount countParameters(const ModelSpec& m)
{
    ParameterCount count;
    if (m.fileWeights.present()) {
        // A file's tensors are the count itself; the experts a token reads are k of E.
        const WeightRoles& e = m.fileWeights.elements;
        count.embedding = e.embedding;
        count.lmHead = e.lmHead;
        count.attention = e.attention;
        count.denseMlp = e.denseMlp;
        count.experts = e.experts;
        count.expertsActive =
            m.isMoe() ? e.experts * double(m.expertsPerToken) / double(m.experts) : e.experts;
        count.other = e.other;
        return count;
    }
    count.embedding = double(m.vocabSize) * double(m.hiddenSize);
    count.lmHead = m.tiedEmbeddings ? 0.0 : count.embedding;
    // A hybrid's recurrent layers mix tokens with their own projections instead of attention.
    count.attention = attentionPerLayer(m) * double(m.kvLayers()) +
                      double(m.recurrent.mixerParameters) * double(m.recurrent.count);
    const int64_t mlpLayers = m.mlpLayers();

    const int64_t denseWidth = m.intermediateSize > 0 ? m.intermediateSize : 4 * m.hiddenSize;
    const double norms = 2.0 * double(m.hiddenSize); // two RMS/LayerNorm weight vectors a layer
    if (m.isMoe()) {
        const int64_t moeLayers = std::max<int64_t>(0, mlpLayers - m.denseLayers);
        const int64_t expertWidth = m.expertIntermediate > 0 ? m.expertIntermediate : denseWidth;
        const double oneExpert = mlpParameters(m, expertWidth);
        count.denseMlp = mlpParameters(m, denseWidth) * double(m.denseLayers) +
                         oneExpert * double(m.sharedExperts) * double(moeLayers);
        count.experts = oneExpert * double(m.experts) * double(moeLayers);
        count.expertsActive = oneExpert * double(m.expertsPerToken) * double(moeLayers);
        const double router = double(m.hiddenSize) * double(m.experts) * double(moeLayers);
        count.other = norms * double(m.layers) + router;
    } else {
        count.denseMlp = mlpParameters(m, denseWidth) * double(mlpLayers);
        count.other = norms * double(m.layers);
    }
    count.other += double(m.hiddenSize); // final norm
    count.vision = double(m.vision.parameters);
    return count;
}

} // namespace kvscope
