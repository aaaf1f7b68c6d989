// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/model/weights.h"

#include <algorithm>
#include <cmath>

namespace kvscope {

namespace {

// Bytes of the layers between embedding and lm_head, given how many of the experts' parameters
// take part: a format that quantizes experts only leaves the other layers at embedding precision.
double bodyBytes(double experts, double expertBits, double rest, const WeightFormat& format)
{
    const double restBits = format.expertsOnly ? format.embeddingBits : format.bitsPerWeight;
    return experts * expertBits / 8.0 + rest * restBits / 8.0;
}

int64_t roundUp(int64_t value, int64_t multiple)
{
    return multiple > 1 ? (value + multiple - 1) / multiple * multiple : value;
}

} // namespace

ExpertStorage expertStorage(const ModelSpec& model, const ParameterCount& p,
                            const WeightFormat& format, double computeCapability, int tensorWays)
{
    ExpertStorage stored{p.experts, format.bitsPerWeight};
    if (p.experts <= 0 || computeCapability <= 0)
        return stored;
    const auto layout = std::find_if(format.expertLayouts.begin(), format.expertLayouts.end(),
                                     [&](const ExpertLayout& l) {
                                         return computeCapability >= l.minComputeCapability &&
                                                computeCapability <= l.maxComputeCapability;
                                     });
    if (layout == format.expertLayouts.end())
        return stored;
    // Each expert is gate and up (intermediate x hidden each) and down (hidden x intermediate),
    // so padding either dimension scales all three alike.
    const int64_t ways = std::max(1, tensorWays);
    const int64_t width =
        model.expertIntermediate > 0 ? model.expertIntermediate : model.intermediateSize;
    const int64_t perGpu = (width + ways - 1) / ways;
    if (width > 0 && model.hiddenSize > 0) {
        const double factor =
            double(roundUp(perGpu, layout->intermediateMultiple) * ways) / double(width) *
            double(roundUp(model.hiddenSize, layout->hiddenMultiple)) / double(model.hiddenSize);
        stored.parameters *= factor;
        stored.padded = factor > 1.0;
    }
    // Group scales are 8 bits per group; a copy left behind by a re-layout is held as well.
    if (layout->scaleCopies > 1 && format.groupSize > 0) {
        stored.bitsPerWeight += double(layout->scaleCopies - 1) * 8.0 / double(format.groupSize);
        stored.scaleCopies = layout->scaleCopies;
    }
    return stored;
}

ModelSpec standaloneLayers(const ModelSpec& m, int64_t layers)
{
    ModelSpec one = m;
    one.layers = layers;
    one.denseLayers = 0;
    one.windowedLayers.clear();
    one.slidingWindow = 0;
    one.recurrent = {};
    one.vision = {};
    one.fileWeights = {};
    one.mtpLayers = 0;
    one.statedParameters = 0;
    return one;
}

ModelSpec mtpModel(const ModelSpec& m)
{
    return standaloneLayers(m, m.mtpLayers);
}

ParameterCount mtpParameters(const ModelSpec& m)
{
    if (m.mtpLayers <= 0)
        return {};
    ParameterCount p = countParameters(mtpModel(m));
    p.embedding = 0;
    p.lmHead = 0;
    const double hidden = double(m.hiddenSize);
    p.denseMlp += 2.0 * hidden * hidden * double(m.mtpLayers);
    p.other += 2.0 * hidden * double(m.mtpLayers);
    return p;
}

double weightBytes(const ParameterCount& p, const WeightFormat& format)
{
    return weightBytes(p, format, ExpertStorage{p.experts, format.bitsPerWeight});
}

double weightBytes(const ParameterCount& p, const WeightFormat& format,
                   const ExpertStorage& experts)
{
    // A vision encoder stays at 16-bit precision in quantized checkpoints (AWQ and GPTQ leave
    // it out; llama.cpp keeps it in an F16 mmproj file), like embeddings.
    return (p.embedding + p.lmHead + p.vision) * format.embeddingBits / 8.0 +
           bodyBytes(experts.parameters, experts.bitsPerWeight, p.attention + p.denseMlp + p.other,
                     format);
}

WeightFormat fileWeightFormat(const ModelSpec& model, const WeightFormat& like)
{
    WeightFormat f = like;
    const FileWeights& file = model.fileWeights;
    f.id = kFileWeightFormatId;
    f.name = "GGUF " + file.fileType;
    f.family = "gguf";
    f.groupSize = 0;
    f.expertLayouts.clear(); // llama.cpp holds the tensors as the file has them
    const WeightRoles& n = file.elements;
    const WeightRoles& b = file.bytes;
    const auto bits = [](double bytes, double elements) {
        return elements > 0 ? bytes * 8.0 / elements : 16.0;
    };
    // Total bytes stay exact either way: experts apart from the rest when the model has them,
    // else the body apart from embeddings and lm_head.
    f.expertsOnly = n.experts > 0;
    if (f.expertsOnly) {
        f.bitsPerWeight = bits(b.experts, n.experts);
        f.embeddingBits = bits(b.total() - b.experts, n.total() - n.experts);
    } else {
        f.bitsPerWeight =
            bits(b.attention + b.denseMlp + b.other, n.attention + n.denseMlp + n.other);
        f.embeddingBits = bits(b.embedding + b.lmHead, n.embedding + n.lmHead);
    }
    f.source = model.source;
    return f;
}

double expertShareTouched(const ModelSpec& model, int64_t batch)
{
    if (!model.isMoe())
        return 1.0;
    const double perToken = double(model.expertsPerToken) / double(model.experts);
    return std::clamp(1.0 - std::pow(1.0 - perToken, double(std::max<int64_t>(1, batch))), 0.0,
                      1.0);
}

int64_t expertsOnFullestGpu(const ModelSpec& model, int ways)
{
    return (model.experts + std::max(1, ways) - 1) / std::max(1, ways);
}

double expertParallelHeldShare(const ModelSpec& model, int ways)
{
    if (!model.isMoe() || ways <= 1)
        return 1.0 / double(std::max(1, ways));
    return double(expertsOnFullestGpu(model, ways)) / double(model.experts);
}

double expertParallelImbalance(const ModelSpec& model, int ways, int64_t batch)
{
    if (!model.isMoe() || ways <= 1)
        return 1.0;
    const double q = expertShareTouched(model, batch);
    const int64_t n = expertsOnFullestGpu(model, ways);
    if (q <= 0.0 || q >= 1.0)
        return 1.0;
    // E[max] = sum over j < n of 1 - P(X <= j)^ways, X ~ Binomial(n, q).
    double cdf = 0.0;
    double pmf = std::pow(1.0 - q, double(n)); // P(X = 0)
    double expectedMax = 0.0;
    for (int64_t j = 0; j < n; ++j) {
        cdf = std::min(1.0, cdf + pmf);
        expectedMax += 1.0 - std::pow(cdf, double(ways));
        pmf *= double(n - j) / double(j + 1) * q / (1.0 - q);
    }
    const double mean = double(model.experts) * q / double(ways);
    return std::max(1.0, expectedMax / mean);
}

double weightBytesReadPerStep(const ModelSpec& model, const ParameterCount& p,
                              const WeightFormat& format, int64_t batch)
{
    const double head = p.lmHead > 0 ? p.lmHead : p.embedding; // tied: lm_head reuses the table
    const double lookups = std::min(p.embedding,
                                    double(batch) * double(model.hiddenSize)); // rows read
    return (head + (p.lmHead > 0 ? lookups : 0.0)) * format.embeddingBits / 8.0 +
           bodyBytes(p.experts * expertShareTouched(model, batch), format.bitsPerWeight,
                     p.attention + p.denseMlp + p.other, format);
}

} // namespace kvscope
