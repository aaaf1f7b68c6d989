// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/weights.h"

#include <algorithm>
#include <cmath>

namespace kvscope {

namespace {

// Bytes of the layers between embedding and lm_head, given how many of the experts' parameters
// take part: a format that quantizes experts only leaves the other layers at embedding precision.
double bodyBytes(double experts, double rest, const WeightFormat& format)
{
    if (format.expertsOnly)
        return experts * format.bitsPerWeight / 8.0 + rest * format.embeddingBits / 8.0;
    return (experts + rest) * format.bitsPerWeight / 8.0;
}

} // namespace

double weightBytes(const ParameterCount& p, const WeightFormat& format)
{
    return (p.embedding + p.lmHead) * format.embeddingBits / 8.0 +
           bodyBytes(p.experts, p.attention + p.denseMlp + p.other, format);
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
    return (head + (p.lmHead > 0 ? lookups : 0.0)) * format.embeddingBits / 8.0 +
           bodyBytes(p.experts * expertShareTouched(model, batch),
                     p.attention + p.denseMlp + p.other, format);
}

} // namespace kvscope
