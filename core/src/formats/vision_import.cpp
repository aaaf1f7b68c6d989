// SPDX-License-Identifier: GPL-3.0-or-later
// Parameter counts follow the transformers modules of each tower (qwen2_5_vl, qwen2_vl, siglip,
// clip, pixtral and their projectors); a Linear with bias is in x out + out, a LayerNorm 2h, an
// RMSNorm h. Qwen2.5-VL-7B's tower comes to 676,550,144 and Gemma 3's SigLIP to 416,866,032.
#include "formats/vision_import.h"

#include "kvscope/base/limits.h"
#include "kvscope/formats/checked_json.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

namespace kvscope {

namespace {

constexpr const char* kKey = "kvscope_vision";
constexpr int64_t kDim = limits::maxDimension;
constexpr int64_t kMaxParameters = int64_t(1) << 44; // 17.6 trillion: far beyond any tower

struct Dims
{
    int64_t hidden = 0, width = 0, layers = 0, patch = 0, image = 0, channels = 3;
};

Dims readDims(JsonReader& v, int64_t defaultWidth)
{
    Dims d;
    d.hidden = v.integer({"hidden_size", "embed_dim"}, 1, kDim, 1024);
    d.width =
        v.integer({"intermediate_size"}, 1, kDim, defaultWidth > 0 ? defaultWidth : 4 * d.hidden);
    d.layers = v.integer({"num_hidden_layers", "depth"}, 1, 1000, 24);
    d.patch = v.integer({"patch_size"}, 1, 1024, 14);
    d.image = v.integer({"image_size"}, 1, 100'000, 336);
    d.channels = v.integer({"num_channels", "in_chans", "in_channels"}, 1, 16, 3);
    return d;
}

// A ViT layer with biased q/k/v/o, two LayerNorms and an ungated fc1/fc2 (SigLIP, CLIP).
double vitLayer(double h, double i)
{
    return 4 * h + 4 * (h * h + h) + (h * i + i) + (i * h + h);
}

void qwenVl(JsonReader& v, const nlohmann::json& top, ModelSpec& m, bool v25)
{
    VisionTower& t = m.vision;
    const double h = double(v.integer({v25 ? "hidden_size" : "embed_dim"}, 1, kDim, 1280));
    const double layers = double(v.integer({"depth"}, 1, 1000, 32));
    const double p = double(v.integer({"patch_size"}, 1, 1024, 14));
    const double merge = double(v.integer({"spatial_merge_size"}, 1, 16, 2));
    const double tp = double(v.integer({"temporal_patch_size"}, 1, 16, 2));
    const double c = double(v.integer({"in_chans", "in_channels"}, 1, 16, 3));
    const double out =
        double(v.integer({v25 ? "out_hidden_size" : "hidden_size"}, 1, kDim, m.hiddenSize));
    const double merged = h * merge * merge;
    double block = 0;
    double lnQ = 0;
    if (v25) { // RMSNorms, gated MLP with biases
        const double i = double(v.integer({"intermediate_size"}, 1, kDim, 3420));
        block = 2 * h + (3 * h * h + 3 * h) + (h * h + h) + (3 * h * i + 2 * i + h);
        lnQ = h;
    } else { // LayerNorms, fc1/fc2 of mlp_ratio x embed_dim
        const double i = h * v.number({"mlp_ratio"}, 0.5, 64, 4);
        block = 4 * h + (3 * h * h + 3 * h) + (h * h + h) + (h * i + i) + (i * h + h);
        lnQ = 2 * h;
    }
    const double merger = lnQ + (merged * merged + merged) + (merged * out + out);
    t.parameters = int64_t(c * tp * p * p * h + layers * block + merger);
    // Images are resized to multiples of patch x merge pixels; each such cell is one token.
    const double cell = p * merge;
    const double side = std::round(1024.0 / cell);
    t.tokensPerImage = int64_t(side * side);
    t.imageSize = "1024 x 1024";
    (void)top;
}

// Qwen3-VL: LayerNorm blocks with an ungated biased MLP, learned position embeddings, and one
// patch merger per deepstack layer besides the final one (the final merger normalises before the
// 2 x 2 shuffle, deepstack ones after it). Qwen3-VL-8B's tower comes to 576,388,336.
void qwen3Vl(JsonReader& v, ModelSpec& m)
{
    const double h = double(v.integer({"hidden_size"}, 1, kDim, 1152));
    const double i = double(v.integer({"intermediate_size"}, 1, kDim, 4304));
    const double layers = double(v.integer({"depth"}, 1, 1000, 27));
    const double p = double(v.integer({"patch_size"}, 1, 1024, 16));
    const double merge = double(v.integer({"spatial_merge_size"}, 1, 16, 2));
    const double tp = double(v.integer({"temporal_patch_size"}, 1, 16, 2));
    const double c = double(v.integer({"in_channels"}, 1, 16, 3));
    const double positions = double(v.integer({"num_position_embeddings"}, 0, kDim, 2304));
    const double out = double(v.integer({"out_hidden_size"}, 1, kDim, m.hiddenSize));
    double deepstack = 0;
    if (const nlohmann::json* it = v.find({"deepstack_visual_indexes"}); it && it->is_array())
        deepstack = double(std::min<size_t>(it->size(), 1000));
    const double merged = h * merge * merge;
    const double block = vitLayer(h, i);
    const double mlp = (merged * merged + merged) + (merged * out + out);
    const double mergers = (2 * h + mlp) + deepstack * (2 * merged + mlp);
    m.vision.parameters =
        int64_t(c * tp * p * p * h + h + positions * h + layers * block + mergers);
    const double side = std::round(1024.0 / (p * merge));
    m.vision.tokensPerImage = int64_t(side * side);
    m.vision.imageSize = "1024 x 1024";
}

void gemma3(JsonReader& v, JsonReader& top, ModelSpec& m)
{
    const Dims d = readDims(v, 4304);
    const double h = double(d.hidden), n = std::pow(double(d.image) / double(d.patch), 2.0);
    const double embeddings = double(d.channels) * double(d.patch * d.patch) * h + h + n * h;
    const double siglip = embeddings + double(d.layers) * vitLayer(h, double(d.width)) + 2 * h;
    const double projector = h * double(m.hiddenSize) + h; // projection and soft-embedding norm
    m.vision.parameters = int64_t(siglip + projector);
    m.vision.tokensPerImage = top.integer({"mm_tokens_per_image"}, 1, limits::maxContext, 256);
    m.vision.imageSize = std::to_string(d.image) + " x " + std::to_string(d.image);
}

void llava(JsonReader& v, const nlohmann::json& top, ModelSpec& m)
{
    const Dims d = readDims(v, 0);
    const double h = double(d.hidden), ht = double(m.hiddenSize);
    const auto perSide = d.image / d.patch; // whole patches across the image, as CLIP tiles it
    const double patches = std::pow(double(perSide), 2.0);
    const double clip = h + double(d.channels) * double(d.patch * d.patch) * h + (patches + 1) * h +
                        2 * h + double(d.layers) * vitLayer(h, double(d.width)) + 2 * h;
    const bool bias =
        !top.contains("multimodal_projector_bias") || top["multimodal_projector_bias"] != false;
    const double projector = h * ht + ht * ht + (bias ? 2 * ht : 0.0);
    m.vision.parameters = int64_t(clip + projector);
    // The default strategy drops the class token; "full" keeps it.
    const bool full = top.contains("vision_feature_select_strategy") &&
                      top["vision_feature_select_strategy"] == "full";
    m.vision.tokensPerImage = int64_t(patches) + (full ? 1 : 0);
    m.vision.imageSize = std::to_string(d.image) + " x " + std::to_string(d.image);
}

void pixtral(JsonReader& v, JsonReader& top, ModelSpec& m)
{
    const Dims d = readDims(v, 4096);
    const double h = double(d.hidden), i = double(d.width), ht = double(m.hiddenSize);
    const int64_t merge = top.integer({"spatial_merge_size"}, 1, 16, 2);
    const double encoder = double(d.channels) * double(d.patch * d.patch) * h + h +
                           double(d.layers) * (2 * h + 4 * h * h + 3 * h * i);
    const bool bias = top.boolean({"multimodal_projector_bias"}, false);
    const double projector =
        h + h * double(merge * merge) * h + h * ht + ht * ht + (bias ? 2 * ht : 0.0);
    m.vision.parameters = int64_t(encoder + projector);
    // rows x (columns + a break token) at the longest edge, image_size.
    const int64_t rows = d.image / (d.patch * merge);
    m.vision.tokensPerImage = rows * (rows + 1);
    m.vision.imageSize = std::to_string(d.image) + " x " + std::to_string(d.image);
}

} // namespace

std::optional<FieldError> readVisionTower(const nlohmann::json& config, ModelSpec& m)
{
    m.vision = {};
    if (auto saved = config.find(kKey); saved != config.end()) {
        JsonReader r(*saved, "config." + std::string(kKey));
        if (!saved->is_object())
            return FieldError{"config." + std::string(kKey), describeJson(*saved),
                              "an object with parameters and tokens_per_image"};
        m.vision.kind = r.text({"kind"}, "");
        m.vision.parameters = r.integer({"parameters"}, 1, kMaxParameters, 0);
        m.vision.tokensPerImage = r.integer({"tokens_per_image"}, 0, limits::maxContext, 0);
        m.vision.imageSize = r.text({"image_size"}, "");
        r.require({"parameters"});
        return r.error();
    }
    const auto it = config.find("vision_config");
    if (it == config.end() || it->is_null())
        return std::nullopt;
    if (!it->is_object())
        return FieldError{"config.vision_config", describeJson(*it), "an object"};
    JsonReader v(*it, "config.vision_config");
    JsonReader t(config, "config");
    const std::string top = config.value("model_type", std::string());
    m.vision.kind = v.text({"model_type"}, top);
    if (top == "qwen2_5_vl")
        qwenVl(v, config, m, true);
    else if (top == "qwen2_vl")
        qwenVl(v, config, m, false);
    else if (top == "qwen3_vl" || top == "qwen3_vl_moe")
        qwen3Vl(v, m);
    else if (top == "gemma3")
        gemma3(v, t, m);
    else if (top == "llava")
        llava(v, config, m);
    else if (top == "mistral3")
        pixtral(v, t, m);
    else
        return FieldError{
            "config.model_type", "\"" + top + "\" with a vision_config",
            "a vision-language model whose image encoder kvscope counts "
            "(qwen2_5_vl, qwen2_vl, qwen3_vl, qwen3_vl_moe, gemma3, llava, mistral3)"};
    if (v.error())
        return v.error();
    if (t.error())
        return t.error();
    // Absurd but individually valid dimensions can multiply past what a saved scenario reads back.
    if (m.vision.parameters < 1 || m.vision.parameters > kMaxParameters)
        return FieldError{"config.vision_config",
                          "dimensions giving " + std::to_string(m.vision.parameters) +
                              " vision parameters",
                          "dimensions of an image encoder under 2^44 parameters"};
    if (m.vision.tokensPerImage < 0 || m.vision.tokensPerImage > limits::maxContext)
        return FieldError{"config.vision_config",
                          "patch and image sizes giving " +
                              std::to_string(m.vision.tokensPerImage) + " tokens per image",
                          "sizes giving at most 100,000,000 tokens per image"};
    return std::nullopt;
}

nlohmann::json visionToJson(const VisionTower& t)
{
    return {{"kind", t.kind},
            {"parameters", t.parameters},
            {"tokens_per_image", t.tokensPerImage},
            {"image_size", t.imageSize}};
}

} // namespace kvscope
