// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/weights.h"

#include <algorithm>
#include <cmath>

namespace kvscope {

double weightBytes(const ParameterCount& p, const WeightFormat& format)
{
    return (p.embedding + p.lmHead) * format.embeddingBits / 8.0 +
           p.body() * format.bitsPerWeight / 8.0;
}

double expertShareTouched(const ModelSpec& model, int64_t batch)
{
    if (!model.isMoe())
        return 1.0;
    const double perToken = double(model.expertsPerToken) / double(model.experts);
    return std::clamp(1.0 - std::pow(1.0 - perToken, double(std::max<int64_t>(1, batch))), 0.0, 1.0);
}

double weightBytesReadPerStep(const ModelSpec& model, const ParameterCount& p,
                              const WeightFormat& format, int64_t batch)
{
    const double head = p.lmHead > 0 ? p.lmHead : p.embedding; // tied: lm_head reuses the table
    const double lookups = std::min(p.embedding,
                                    double(batch) * double(model.hiddenSize)); // rows read
    const double body = p.attention + p.denseMlp + p.other +
                        p.experts * expertShareTouched(model, batch);
    return (head + (p.lmHead > 0 ? lookups : 0.0)) * format.embeddingBits / 8.0 +
           body * format.bitsPerWeight / 8.0;
}

} // namespace kvscope
