// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace kvscope {

enum class AttentionKind { Mha, Gqa, Mqa, Mla };

// An amount per weight role: embeddings and lm_head apart (formats keep them at higher
// precision), experts apart (only the routed ones are read per token).
struct WeightRoles
{
    double embedding = 0;
    double lmHead = 0;
    double attention = 0;
    double denseMlp = 0; // dense MLP layers and shared experts
    double experts = 0;  // all routed experts
    double other = 0;    // norms, router gates, anything else
    double total() const { return embedding + lmHead + attention + denseMlp + experts + other; }
};

// Weights as a file holds them (a GGUF file's tensor infos): elements and stored bytes by role,
// so the weights match the file to the byte instead of a format's average bits per weight.
struct FileWeights
{
    std::string fileType; // the file's own name for its quantization, e.g. "Q4_K_M"
    WeightRoles elements;
    WeightRoles bytes;
    bool present() const { return elements.total() > 0; }
};

// Layers that hold a fixed recurrent state per sequence instead of a KV cache: Mamba SSM layers
// (Jamba, Nemotron-H, Granite 4.0-H, Falcon-H1) and gated DeltaNet linear attention (Qwen3-Next).
// Element counts are vLLM's MambaStateShapeCalculator's for one GPU; the state never grows
// with the context.
struct RecurrentLayers
{
    std::string kind;            // "mamba", "mamba2" or "gated_deltanet"; "" = none
    int64_t count = 0;           // layers holding the state
    int64_t attentionLayers = 0; // layers that attend and hold KV (Falcon-H1: all of them)
    int64_t mlpLayers = 0;       // layers with an MLP or MoE block (Nemotron-H: its '-' / 'E')
    int64_t convElements = 0;    // one layer, one sequence: (conv kernel - 1) x conv width
    int64_t ssmElements = 0;     // one layer, one sequence: heads x head dim x state size
    int64_t ssmBytes = 2;        // element size of that state as vLLM keeps it by default: the
                                 // model's dtype, float32 for Nemotron-H
    int64_t mixerParameters = 0; // weights of one such layer's mixer (projections, conv, norm)
    bool present() const { return count > 0; }
};

// A vision-language model's image encoder: its weights load with the model, and each image
// becomes tokens in the language model's context.
struct VisionTower
{
    std::string kind;           // model_type of its vision_config, e.g. "siglip_vision_model"
    int64_t parameters = 0;     // encoder and projector weights
    int64_t tokensPerImage = 0; // language-model tokens one image takes at the default size
    std::string imageSize;      // the size those tokens are for, e.g. "896 x 896"
    bool present() const { return parameters > 0; }
};

// A checkpoint of the model published in one weight format, from
// resources/catalog/checkpoints.json: what a launch command names when the engine cannot
// quantize the model while loading it.
struct PublishedCheckpoint
{
    std::string format;                 // weight-format id, or "gguf": a repository of GGUF files
    std::string repo;                   // Hugging Face repository
    std::vector<std::string> ggufTypes; // for "gguf": the GGUF type ids its files hold
    std::string ggufFilePattern;  // "Model-{TYPE}.gguf" ({type} lower case), if its files were seen
    bool oneGgufType = false;     // the repository holds one type: fetched without a :TYPE tag
    bool instructSibling = false; // the instruct model's checkpoint, for a base model entry
    std::string source;           // the page it was read from
};

// A transformer's architecture, read generically from a Hugging Face config.json.
// Every count is per model (not per GPU); 0 means "not present" unless said otherwise.
struct ModelSpec
{
    std::string id;           // catalog slug, e.g. "llama-2-7b"; file name stem for imports
    std::string name;         // display name, e.g. "Llama 2 7B"
    std::string family;       // list grouping, e.g. "Llama 2"
    std::string source;       // where the dimensions were read (URL or file path)
    std::string hfRepo;       // Hugging Face repository ("meta-llama/Llama-2-7b-hf"), if known
    std::string architecture; // config.json "architectures"[0] ("Gemma3ForCausalLM"), or a
                              // GGUF's general.architecture ("gemma3"); "" = not stated
    bool imported = false;    // true when read from a user's config.json, not the catalog

    int64_t layers = 0;           // num_hidden_layers
    int64_t hiddenSize = 0;       // hidden_size
    int64_t queryHeads = 0;       // num_attention_heads
    int64_t kvHeads = 0;          // num_key_value_heads (1 with Falcon's multi_query)
    int64_t headDim = 0;          // head_dim, else hidden_size / num_attention_heads
    int64_t intermediateSize = 0; // dense MLP width (intermediate_size / ffn_hidden_size)
    bool gatedMlp = true;         // gate+up+down (3 matrices); false: up+down (GPT/Falcon style)
    int64_t vocabSize = 0;        // vocab_size
    bool tiedEmbeddings = false;  // tie_word_embeddings: lm_head shares the embedding matrix
    bool attentionBias = false;   // q/k/v projections carry biases (Qwen2)
    int64_t maxContext = 0;       // max_position_embeddings (tokens)

    int64_t slidingWindow = 0;        // window in tokens for windowed layers; 0 = no window
    std::vector<bool> windowedLayers; // per layer: true holds min(context, slidingWindow) tokens

    // Multi-head latent attention (DeepSeek-V2/V3): the cache holds one latent per token.
    int64_t kvLoraRank = 0;    // kv_lora_rank; > 0 means MLA
    int64_t qLoraRank = 0;     // q_lora_rank (0 = full-rank query projection)
    int64_t qkRopeHeadDim = 0; // qk_rope_head_dim (decoupled RoPE key, cached with the latent)
    int64_t qkNopeHeadDim = 0; // qk_nope_head_dim
    int64_t vHeadDim = 0;      // v_head_dim

    // Mixture of experts: every expert is resident, only the routed ones are read per token.
    int64_t experts = 0; // routed experts per MoE layer (num_local_experts / n_routed_experts)
    int64_t expertsPerToken = 0;    // num_experts_per_tok
    int64_t expertIntermediate = 0; // moe_intermediate_size (else intermediate_size)
    int64_t sharedExperts = 0;      // n_shared_experts, always active
    int64_t denseLayers = 0;        // first_k_dense_replace: leading layers with a dense MLP
    // num_nextn_predict_layers: multi-token prediction layers the checkpoint carries beside the
    // model (DeepSeek-V3, GLM-4.5), loaded only to draft tokens for speculative decoding.
    int64_t mtpLayers = 0;

    RecurrentLayers recurrent; // hybrid models' state-holding layers
    VisionTower vision;        // vision-language models' image encoder

    double statedParameters = 0;   // num_parameters when an authoritative count exists, else 0
    FileWeights fileWeights;       // present when read from a model file with its tensors (GGUF)
    std::string checkpointWeights; // weight format id its quantization_config names ("" = none)
    std::vector<PublishedCheckpoint> checkpoints; // catalog models only

    bool isMla() const { return kvLoraRank > 0; }
    bool isMoe() const { return experts > 0 && expertsPerToken > 0; }
    // Layers whose MLP routes to experts (all but the leading dense ones).
    int64_t moeLayers() const { return isMoe() ? std::max<int64_t>(0, layers - denseLayers) : 0; }
    // Layers that attend and hold a KV cache, and layers with an MLP: every layer, except in a
    // hybrid model whose recurrent layers replace attention (or whole blocks, Nemotron-H).
    int64_t kvLayers() const { return recurrent.present() ? recurrent.attentionLayers : layers; }
    int64_t mlpLayers() const { return recurrent.present() ? recurrent.mlpLayers : layers; }
    int64_t windowedLayerCount() const;
    AttentionKind attentionKind() const;
};

const char* attentionKindId(AttentionKind kind); // "mha", "gqa", "mqa", "mla"

// The same dimensions with another number of KV heads (MLA is replaced by plain attention
// with the model's query heads and the head_dim of its values): how SPEC's MHA / GQA / MQA
// comparison is built.
ModelSpec withKvHeads(const ModelSpec& model, int64_t kvHeads);

// head_dim of those variants: the model's own, or for MLA the width of its values.
int64_t variantHeadDim(const ModelSpec& model);

// The widest MLP a token passes through: a dense layer's intermediate size (4 x hidden where
// the config states none) or the routed and shared experts a MoE layer runs it through,
// whichever is wider among the layers the model has. What an activation peak holds per token.
double activeMlpWidth(const ModelSpec& model);

// KV-head counts for the comparison: MHA = query heads, GQA = the model's own grouping when it
// has one, else 8 (Llama 2 70B, Llama 3), MQA = 1.
struct AttentionVariants
{
    int64_t mha = 0;
    int64_t gqa = 0;
    int64_t mqa = 1;
};
AttentionVariants attentionVariants(const ModelSpec& model);

} // namespace kvscope
