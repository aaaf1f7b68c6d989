// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/model/eagle_head.h"
#include "kvscope/model/weights.h"

namespace kvscope {

namespace {

// EAGLE-3 heads score a 32,000-token draft vocabulary mapped onto the model's (d2t): the
// training default (SafeAILab/EAGLE eagle/traineagle3/config.json and every SpecForge
// configs/*-eagle3.json, "draft_vocab_size": 32000, at cb7e084 and a6b6b02).
constexpr int64_t kEagle3DraftVocab = 32000;

// The head's MLP is dense. For a dense model it is the model's (SpecForge's Llama 3 8B, Qwen3
// 8B and 32B heads); for a mixture of experts with a separate moe_intermediate_size, twice the
// config's dense intermediate_size (SpecForge's Qwen3-30B-A3B head: 12,288 for 6,144; its
// Qwen3-235B-A22B head: 24,576 for 12,288). Where intermediate_size is the experts' own width
// (Mixtral), that width.
int64_t headMlpWidth(const ModelSpec& m)
{
    if (m.isMoe() && m.expertIntermediate > 0 && m.expertIntermediate != m.intermediateSize)
        return 2 * m.intermediateSize;
    return m.intermediateSize;
}

// One dense decoder layer: its MLP dense, its lm_head its own (untied) over `vocab` tokens.
ModelSpec headLayer(const ModelSpec& m, int64_t mlpWidth, int64_t vocab)
{
    ModelSpec one = standaloneLayers(m, 1);
    one.intermediateSize = mlpWidth;
    one.vocabSize = vocab;
    one.tiedEmbeddings = false;
    one.experts = 0;
    one.expertsPerToken = 0;
    one.expertIntermediate = 0;
    one.sharedExperts = 0;
    one.checkpoints.clear();
    return one;
}

} // namespace

const char* eagleMethodId(EagleMethod method)
{
    switch (method) {
    case EagleMethod::Off:
        return "off";
    case EagleMethod::Eagle:
        return "eagle";
    case EagleMethod::Eagle3:
        return "eagle3";
    }
    return "off";
}

const char* eagleMethodName(EagleMethod method)
{
    return method == EagleMethod::Eagle3 ? "EAGLE-3" : "EAGLE";
}

// EAGLE (vllm/model_executor/models/llama_eagle.py): fc joins the token's embedding and the
// model's last hidden state (2h -> h), then one layer; embedding and lm_head are the model's.
// EAGLE-3 (llama_eagle3.py): fc joins three of the model's hidden states (3h -> h), the layer's
// q, k and v read the embedding beside it (2h wide), and its own lm_head scores the draft
// vocabulary; the embedding is the model's.
EagleHead eagleHead(const ModelSpec& model, EagleMethod method)
{
    EagleHead head;
    if (method == EagleMethod::Off || model.hiddenSize <= 0)
        return head;
    const bool three = method == EagleMethod::Eagle3;
    head.mlpWidth = headMlpWidth(model);
    head.vocab = three ? kEagle3DraftVocab : model.vocabSize;
    head.layer = headLayer(model, head.mlpWidth, head.vocab);
    ParameterCount p = countParameters(head.layer);
    const double h = double(model.hiddenSize);
    p.embedding = 0;
    // fc is a plain Linear in SGLang and a ReplicatedLinear in vLLM: not split tensor-parallel.
    head.fc = (three ? 3.0 : 2.0) * h * h;
    p.denseMlp += head.fc;
    if (three) {
        const double qkvWidth =
            double(model.queryHeads + 2 * model.kvHeads) * double(model.headDim);
        p.attention += h * qkvWidth; // the second h of q, k and v's input
        p.other += h;                // hidden_norm
    } else {
        p.lmHead = 0;
    }
    head.held = p;
    head.read = p;
    if (!three)
        head.read.lmHead = double(model.vocabSize) * h;
    return head;
}

} // namespace kvscope
