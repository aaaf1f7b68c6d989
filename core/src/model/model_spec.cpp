// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/model/model_spec.h"

#include <algorithm>

namespace kvscope {

int64_t ModelSpec::windowedLayerCount() const
{
    if (slidingWindow <= 0)
        return 0;
    return std::count(windowedLayers.begin(), windowedLayers.end(), true);
}

AttentionKind ModelSpec::attentionKind() const
{
    if (isMla())
        return AttentionKind::Mla;
    if (kvHeads == 1 && queryHeads > 1)
        return AttentionKind::Mqa;
    if (kvHeads < queryHeads)
        return AttentionKind::Gqa;
    return AttentionKind::Mha;
}

const char* attentionKindId(AttentionKind kind)
{
    switch (kind) {
    case AttentionKind::Mha:
        return "mha";
    case AttentionKind::Gqa:
        return "gqa";
    case AttentionKind::Mqa:
        return "mqa";
    case AttentionKind::Mla:
        return "mla";
    }
    return "mha";
}

double activeMlpWidth(const ModelSpec& m)
{
    const int64_t dense = m.intermediateSize > 0 ? m.intermediateSize : 4 * m.hiddenSize;
    if (!m.isMoe())
        return double(dense);
    const int64_t expert = m.expertIntermediate > 0 ? m.expertIntermediate : dense;
    const double routed = double(expert) * double(m.expertsPerToken + m.sharedExperts);
    return m.denseLayers > 0 ? std::max(routed, double(dense)) : routed;
}

int64_t variantHeadDim(const ModelSpec& model)
{
    if (!model.isMla())
        return model.headDim;
    // Plain attention over the same heads, keyed at the width of MLA's values (DeepSeek-V2
    // paper, table 1 compares MLA against MHA with d_h = 128 = v_head_dim).
    return model.vHeadDim > 0 ? model.vHeadDim : model.qkNopeHeadDim;
}

ModelSpec withKvHeads(const ModelSpec& model, int64_t kvHeads)
{
    ModelSpec variant = model;
    if (variant.isMla()) {
        variant.headDim = variantHeadDim(model);
        variant.kvLoraRank = 0;
        variant.qkRopeHeadDim = 0;
    }
    variant.kvHeads = kvHeads;
    return variant;
}

AttentionVariants attentionVariants(const ModelSpec& model)
{
    AttentionVariants variants;
    variants.mha = model.queryHeads;
    const bool grouped = !model.isMla() && model.kvHeads > 1 && model.kvHeads < model.queryHeads;
    variants.gqa = grouped ? model.kvHeads : std::min<int64_t>(8, model.queryHeads);
    variants.mqa = 1;
    return variants;
}

} // namespace kvscope
