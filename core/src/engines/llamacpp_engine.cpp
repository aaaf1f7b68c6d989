// SPDX-License-Identifier: GPL-3.0-or-later
// llama.cpp (llama-server): the KV cache for the whole padded n_ctx allocated at start-up,
// prefill in n_ubatch chunks, layers beyond -ngl and a -nkvo cache computed by the CPU where they
// lie, whole layers per GPU by default (--split-mode layer).
#include "engines/engine_modules.h"
#include "kvscope/model/kv_cache.h"
#include "kvscope/model/weights.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

namespace kvscope::engines {

namespace {
class LlamaCppEngine final : public EngineModule
{
public:
    // The CPU backend computes what stays in host RAM; nothing is copied to the GPU per token
    // (tools/server/README.md: -ngl, -nkvo).
    bool computesOnHost(const Scenario&) const override { return true; }
    bool offloadsExperts() const override { return true; }
    // llama_model::create_memory: the recurrent cache is GGML_TYPE_F32 for r and s alike.
    bool recurrentStateInFloat32() const override { return true; }
    int64_t expertLayersOnHost(const Scenario& s) const override;
    WeightPlacement placeWeights(const Scenario& s, const ParameterCount& p,
                                 double totalBytes) const override;
    KvShape kvShape(const Scenario& s) const override;
    std::optional<double> computeBufferBytes(const Scenario& s, int ways) const override;

    bool loadsOriginalAs(const WeightFormat&) const override { return false; } // GGUF files only
    bool readsOnlyGguf() const override { return true; }
    LaunchCommand launchCommand(const Scenario& s) const override;
};

// llama-server's defaults (tools/server/README.md): -ub 512 tokens per forward, -b 2,048.
constexpr int64_t kDefaultUbatch = 512;
constexpr int64_t kDefaultLogicalBatch = 2048;

// llama.cpp's own cache types (tools/server/README.md, --cache-type-k).
bool isLlamaCacheType(const std::string& id)
{
    for (const char* t : {"f32", "f16", "bf16", "q8_0", "q4_0", "q4_1", "iq4_nl", "q5_0", "q5_1"})
        if (id == t)
            return true;
    return false;
}

// A local GGUF file by -m; a Hugging Face repository by -hf, with the type as its tag
// (common/arg.cpp: "-hf <user>/<model>[:quant]").
std::string modelOption(const Scenario& s, LaunchCommand& c)
{
    const CheckpointChoice checkpoint = chooseCheckpoint(s);
    if (!checkpoint.note.empty())
        c.notes.push_back(checkpoint.note);
    if (checkpoint.path)
        return "-m " + shellWord(checkpoint.name);
    return "-hf " + shellWord(checkpoint.ggufType.empty()
                                  ? checkpoint.name
                                  : checkpoint.name + ":" + checkpoint.ggufType);
}

// llama_model::load_tensors (src/llama-model.cpp): the input layer, token_embd, stays on the CPU
// at any -ngl ("there is very little benefit to offloading the input layer"); -ngl N puts the
// last N repeating layers on the GPUs (i_gpu_start = n_layer - N) and the output layer only when
// N exceeds the layer count (act_gpu_layers = min(N, n_layer + 1); dev_output is layer n_layer's
// device). A tied model's output is a copy of token_embd (TENSOR_DUPLICATED) on that device; on
// the CPU it is the same mapped file.
WeightPlacement LlamaCppEngine::placeWeights(const Scenario& s, const ParameterCount& p,
                                             double totalBytes) const
{
    const double bytesPerElement = s.weights.embeddingBits / 8.0;
    const bool tied = p.lmHead <= 0;
    const double embedding = p.embedding * bytesPerElement;
    const double head = (tied ? p.embedding : p.lmHead) * bytesPerElement;
    const double body = std::max(0.0, totalBytes - embedding - (tied ? 0.0 : head));
    const int64_t layers = std::max<int64_t>(1, s.model.layers);
    const int64_t offloaded = s.gpuLayers.value_or(layers + 1);
    const bool outputOnGpu = offloaded > layers;
    const double share = double(std::min(offloaded, layers)) / double(layers);
    WeightPlacement placed;
    placed.gpuBytes = body * share + (outputOnGpu ? head : 0.0);
    placed.hostPinnedBytes = embedding;
    placed.hostBytes = embedding + body * (1.0 - share) + (outputOnGpu || tied ? 0.0 : head);
    return placed;
}

// --n-cpu-moe N overrides blk.0..N-1's ffn_*_exps tensors to the CPU buffer (common/arg.cpp),
// counting layers from 0, the leading dense layers included; --cpu-moe matches every layer. -ngl
// G puts the last G layers on the GPU, so the first L - G already run whole on the CPU.
int64_t LlamaCppEngine::expertLayersOnHost(const Scenario& s) const
{
    if (!s.model.isMoe())
        return 0;
    const int64_t layers = s.model.layers;
    const int64_t n = s.cpuMoeAll ? layers : std::min(s.cpuMoeLayers, layers);
    const int64_t firstGpuLayer = layers - std::min(s.gpuLayers.value_or(layers), layers);
    return std::max<int64_t>(0, n - std::max(firstGpuLayer, s.model.denseLayers));
}

// The cache as llama_model::create_memory lays it out (EngineProfile::kvLayout, by build in
// engines.json). Sliding-window layers of an architecture llama.cpp builds with
// llama_kv_cache_iswa share a cache of min(n_ctx, PAD(n_swa x sequences + n_ubatch)) cells
// (src/llama-kv-cache-iswa.cpp); every other layer holds the whole context. A cache shared by
// several sequences is charged to each in equal parts, rounded up to a whole token.
KvShape LlamaCppEngine::kvShape(const Scenario& s) const
{
    using Layout = EngineProfile::KvLayout;
    KvShape shape = kvShapeKeepingState(s.model, true);
    const Layout& layout = s.engine.kvLayout;
    if (shape.isMla() && layout.mla == Layout::Mla::LatentAndValue) {
        shape.mlaValueWidth =
            shape.kvLoraRank; // V: the latent again (n_embd_head_v = kv_lora_rank)
    } else if (shape.isMla() && layout.mla == Layout::Mla::FullHeads) {
        // Every query head's K (qk_nope + qk_rope) and V (v_head_dim): 2 x heads x their mean.
        const ModelSpec& m = s.model;
        shape.kvHeads = m.queryHeads;
        shape.headDim = (m.qkNopeHeadDim + m.qkRopeHeadDim + m.vHeadDim) / 2;
        shape.kvLoraRank = shape.qkRopeHeadDim = 0;
    }
    if (shape.windowedLayers == 0 || layout.windows == Layout::Windows::Model)
        return shape;
    const auto& listed = layout.ownCacheArchitectures;
    if (layout.windows == Layout::Windows::FullContext ||
        std::find(listed.begin(), listed.end(), s.model.architecture) == listed.end()) {
        shape.windowedLayers = 0; // the window is only a mask over the whole context
        shape.slidingWindow = 0;
        return shape;
    }
    const int64_t ubatch =
        s.engine.prefillChunkTokens > 0 ? s.engine.prefillChunkTokens : kDefaultUbatch;
    const int64_t batchCells =
        layout.plusLogicalBatch ? std::max(kDefaultLogicalBatch, ubatch) : ubatch;
    // One sequence on llama-server opens loneSequenceSlots slots over one shared cache (-np auto).
    const bool lone = s.batch == 1 && layout.loneSequenceSlots > 1;
    const bool shared = lone || !layout.perSequence;
    const int64_t slots = lone ? layout.loneSequenceSlots : s.batch;
    const int64_t cells =
        roundUpToBlock(shape.slidingWindow * (shared ? slots : 1) + batchCells, layout.padTokens);
    shape.slidingWindow = shared && s.batch > 1 ? (cells + s.batch - 1) / s.batch : cells;
    return shape;
}

// -fa as set, else the release's default; a quantized V cache runs only with it (the launch
// command turns it on).
bool flashAttentionOn(const Scenario& s)
{
    return s.flashAttention.value_or(s.engine.flashAttention) || s.kvDtype.bitsPerElement < 16;
}

// Builds from b6325 take -fa on|off|auto, auto by default (#15434); earlier ones a bare -fa,
// off without it: the release's default tells which.
std::string flashAttentionFlag(const Scenario& s)
{
    const bool on = flashAttentionOn(s);
    if (!s.engine.flashAttention)
        return on ? "-fa" : "";
    if (s.flashAttention)
        return std::string("--flash-attn ") + (on ? "on" : "off");
    return s.kvDtype.bitsPerElement < 16 ? "--flash-attn on" : ""; // auto may pick off
}

// llama_context reserves each GPU's compute buffer for a worst-case graph: one ubatch of
// T = min(n_ctx, n_ubatch) tokens, every one an output (graph_reserve(n_tokens, n_seqs,
// n_tokens) over a full cache, src/llama-context.cpp), its tensors in F32. Where the output
// layer is, the peak is its T rows of logits over the vocabulary beside the normed hidden state
// they come from; elsewhere a layer's FFN (gate and up, the residual stream and its normed
// copy), or, without flash attention, a layer's scores over the whole cache (n_head x n_kv x T;
// the softmax runs in place). Logged: Qwen2.5 32B (vocabulary 152,064, n_ubatch 512, flash
// attention) 307 MiB, this rule 307 MiB; GLM-Z1 32B (151,552) 353 MiB, this rule 308 MiB
// (tests/data/logs, SOURCES.md).
std::optional<double> LlamaCppEngine::computeBufferBytes(const Scenario& s, int ways) const
{
    constexpr double f32 = 4.0;
    const ModelSpec& m = s.model;
    const int64_t ubatch =
        s.engine.prefillChunkTokens > 0 ? s.engine.prefillChunkTokens : kDefaultUbatch;
    const int64_t cells = roundUpToBlock(s.context * s.batch, s.engine.kvBlockTokens);
    const double tokens = double(std::min(cells, ubatch));
    const double hidden = double(m.hiddenSize) * tokens * f32;
    double peak = 2.0 * activeMlpWidth(m) / double(ways) * tokens * f32 + 2.0 * hidden;
    const bool outputOnGpu = !s.gpuLayers || *s.gpuLayers >= m.layers;
    if (outputOnGpu)
        peak = std::max(peak, double(m.vocabSize) * tokens * f32 + hidden);
    if (!flashAttentionOn(s) && s.kvPlacement == KvPlacement::Gpu)
        peak = std::max(peak, double(m.queryHeads) / double(ways) * double(cells) * tokens * f32 +
                                  2.0 * hidden);
    return peak;
}

LaunchCommand LlamaCppEngine::launchCommand(const Scenario& s) const
{
    LaunchCommand c;
    c.language = "sh";
    c.source = "https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md";
    std::vector<std::string> parts{"llama-server " + modelOption(s, c)};
    // n_ctx is shared by the -np slots, so each sequence gets context tokens of it.
    parts.push_back("-c " + std::to_string(s.context * s.batch));
    if (s.batch > 1)
        parts.push_back("-np " + std::to_string(s.batch));
    parts.push_back("-ngl " + (s.gpuLayers ? std::to_string(*s.gpuLayers) : std::string("999")));
    if (s.prefixCaching && !*s.prefixCaching) // a request field, not a server flag
        c.notes.push_back("llama-server reuses each slot's last prompt unless a request sends "
                          "\"cache_prompt\": false (tools/server/README.md).");
    if (s.cpuMoeAll)
        parts.push_back("--cpu-moe");
    else if (s.cpuMoeLayers > 0)
        parts.push_back("--n-cpu-moe " + std::to_string(s.cpuMoeLayers));
    if (s.gpuCount > 1)
        parts.push_back(std::string("--split-mode ") + (s.engine.layerSplit ? "layer" : "row"));
    const std::string& kv = s.kvDtype.id;
    if (kv != "fp16") {
        if (isLlamaCacheType(kv)) {
            parts.push_back("-ctk " + kv + " -ctv " + kv);
        } else {
            c.notes.push_back("llama.cpp has no " + s.kvDtype.name +
                              " cache type; q8_0 is the nearest 8-bit one.");
        }
    }
    if (const std::string fa = flashAttentionFlag(s); !fa.empty())
        parts.push_back(fa);
    if (s.kvPlacement == KvPlacement::CpuRam)
        parts.push_back("-nkvo");
    else if (s.kvPlacement != KvPlacement::Gpu)
        c.notes.push_back("llama.cpp keeps its KV cache in GPU or host memory, not on disk.");
    if (s.engine.prefillChunkTokens > 0 && s.engine.prefillChunkTokens != kDefaultUbatch) {
        // The logical batch must hold the physical one.
        if (s.engine.prefillChunkTokens > kDefaultLogicalBatch)
            parts.push_back("-b " + std::to_string(s.engine.prefillChunkTokens));
        parts.push_back("-ub " + std::to_string(s.engine.prefillChunkTokens));
    }
    if (s.gpuCount > 1 && !s.engine.layerSplit)
        c.notes.push_back("--split-mode row splits each layer's rows across the GPUs, "
                          "llama.cpp's nearest to tensor parallel.");
    c.text = shellCommand(parts);
    return c;
}
} // namespace

const EngineModule& llamaCpp()
{
    static const LlamaCppEngine module;
    return module;
}

} // namespace kvscope::engines
