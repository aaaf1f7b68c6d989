// SPDX-License-Identifier: GPL-3.0-or-later
// Text Generation Inference (TGI 3.x): after a warm-up prefill of max_batch_prefill_tokens, the
// shard measures free memory within CUDA_MEMORY_FRACTION x TGI_WIGGLE_ROOM of the GPU and fills
// it with KV blocks (server/text_generation_server/models/flash_causal_lm.py, warmup); the
// catalog's memory_fraction is that product. CUDA graphs are captured afterwards, in the margin.
// When max_batch_prefill_tokens is not given, the launcher picks it from the GPU's FLOP/s
// (launcher/src/main.rs: compute_optimal, vram_maximum), as prefillTokens() below does.
#include "engines/engine_modules.h"

#include "kvscope/scenario/scenario.h"
#include "kvscope/scenario/setting.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace kvscope::engines {

namespace {

// TGI_WIGGLE_ROOM in the shard (models/globals.py, default 0.90) and in the launcher's VRAM
// estimate (main.rs ComputeType::vram, default 0.95).
constexpr double kShardWiggleRoom = 0.90;
constexpr double kLauncherWiggleRoom = 0.95;
constexpr int64_t kDefaultConcurrentRequests = 128; // --max-concurrent-requests

// kvscope's memory share is CUDA_MEMORY_FRACTION x TGI_WIGGLE_ROOM; a share above the default
// wiggle room is reached by raising TGI_WIGGLE_ROOM at a fraction of 1, as TGI allows.
struct MemorySplit
{
    double fraction = 1;   // --cuda-memory-fraction
    double wiggleRoom = 0; // TGI_WIGGLE_ROOM when it must be set, else 0
};

MemorySplit memorySplit(const Scenario& s)
{
    const double share = s.effectiveMemoryFraction();
    if (share > kShardWiggleRoom + 1e-9)
        return {1.0, share};
    return {share / kShardWiggleRoom, 0.0};
}

bool quantizedCheckpoint(const Scenario& s)
{
    const std::string& f = s.weights.id;
    return f != "fp16" && f != "bf16" && f != "fp32";
}

// Config::flop: FLOPs per token of q, k, v, the attention product, o and the gated MLP, with
// intermediate_size times (experts per token + shared experts), as TGI counts them.
double flopsPerToken(const ModelSpec& m)
{
    const double heads = double(m.queryHeads), kv = double(m.kvHeads), d = double(m.headDim);
    const double h = double(m.hiddenSize);
    const double routed = m.isMoe() ? double(m.expertsPerToken) : 1.0;
    const double mlpWidth = double(m.intermediateSize) * (routed + double(m.sharedExperts));
    const double attention = 2 * heads * d * h * 3 + 2 * kv * d * h * 2;
    return (attention + 2 * 3 * h * mlpWidth) * double(m.layers);
}

// vram_maximum: tokens the launcher thinks fit beside FP16 weights at 2 bytes of KV and an MoE
// intermediate per token; unknown (no cap) for quantized checkpoints, as TGI skips them.
std::optional<double> vramMaximumTokens(const Scenario& s)
{
    const ModelSpec& m = s.model;
    if (quantizedCheckpoint(s))
        return std::nullopt;
    const double experts = m.isMoe() ? double(m.experts) : 1.0;
    const double d = double(m.headDim), h = double(m.hiddenSize);
    const double layer = 3 * double(m.intermediateSize) * experts * h +
                         (double(m.queryHeads) + 2 * double(m.kvHeads)) * d +
                         double(m.queryHeads) * d * h;
    const double model = 2 * (layer * double(m.layers) + 2 * h * double(m.vocabSize));
    const double perToken = double(m.kvHeads) * 2 * d * 2 * double(m.layers) +
                            (1.5 * double(m.intermediateSize)) * experts * 2 * 3;
    const MemorySplit split = memorySplit(s);
    const double wiggle = split.wiggleRoom > 0 ? split.wiggleRoom : kLauncherWiggleRoom;
    const double available = s.gpu.memoryGiB * double(1 << 30) * s.gpu.usableFraction *
                             double(s.gpuCount) * split.fraction * wiggle;
    if (available < model || perToken <= 0)
        return std::nullopt; // TGI warns "Not enough VRAM" and keeps its default
    return std::floor((available - model) / perToken);
}

class TgiEngine final : public EngineModule
{
public:
    // TGI 3 chunks prompts by max_batch_prefill_tokens and warms up with one such batch.
    int64_t prefillChunkTokens(const Scenario& s) const override
    {
        return s.engine.prefillChunkTokens > 0 ? s.engine.prefillChunkTokens : prefillTokens(s);
    }
    bool splitsLayers() const override { return false; }
    // Unless PREFIX_CACHING says otherwise, the launcher turns the cache off for a vision model
    // and for a head size FlashInfer lacks (launcher/src/main.rs resolve_attention).
    bool cachesPrefixes(const Scenario& s) const override
    {
        if (!EngineModule::cachesPrefixes(s))
            return false;
        if (s.prefixCaching)
            return true;
        const int64_t head = s.model.headDim;
        return !s.model.vision.present() && (head == 64 || head == 128 || head == 256);
    }
    bool loadsOriginalAs(const WeightFormat& w) const override
    {
        return EngineModule::loadsOriginalAs(w) || w.id == "fp8" || w.id == "nf4";
    }
    LaunchCommand launchCommand(const Scenario& s) const override;

private:
    // The launcher's default max_batch_prefill_tokens: the GPUs' FP16 FLOP/s in its own table
    // over the model's FLOPs per token when above 100 (none for VLMs), else the fallback; then
    // at most max_position_embeddings and the tokens it estimates fit.
    static int64_t prefillTokens(const Scenario& s)
    {
        const EngineProfile::PrefillDefault& rule = s.engine.prefillDefault;
        double tokens = double(std::max<int64_t>(rule.fallbackTokens, 1));
        const double flops = flopsPerToken(s.model);
        for (const auto& [gpu, tflops] : rule.gpuTflops)
            if (gpu == s.gpu.id && flops > 0 && !s.model.vision.present()) {
                const double optimal = std::floor(tflops * 1e12 * double(s.gpuCount) / flops);
                if (optimal > 100)
                    tokens = optimal;
            }
        if (s.model.maxContext > 0)
            tokens = std::min(tokens, double(s.model.maxContext));
        if (const auto cap = vramMaximumTokens(s))
            tokens = std::min(tokens, *cap);
        return std::max<int64_t>(1, int64_t(tokens));
    }
};

// Three decimals: 0.72 / 0.9 is 0.8, not 0.7999999999999999.
std::string number(double value)
{
    return settingValueText(SettingValue(std::round(value * 1000) / 1000));
}

// --dtype for float checkpoints, --quantize where TGI quantizes while loading or needs telling;
// the others are read from the checkpoint's quantization_config.
void addWeightFlags(const Scenario& s, std::vector<std::string>& parts)
{
    const std::string& f = s.weights.id;
    if (f == "fp16" || f == "bf16")
        parts.push_back("--dtype " + std::string(f == "fp16" ? "float16" : "bfloat16"));
    else if (f == "fp8")
        parts.push_back("--quantize fp8");
    else if (f == "nf4")
        parts.push_back("--quantize bitsandbytes-nf4");
    else if (f == "int8")
        parts.push_back("--quantize compressed-tensors"); // a W8A8 checkpoint's format
    else if (f == "awq-int4")
        parts.push_back("--quantize awq");
    else if (f == "gptq-int4" || f == "gptq-int8")
        parts.push_back("--quantize gptq");
}

LaunchCommand TgiEngine::launchCommand(const Scenario& s) const
{
    LaunchCommand c;
    c.language = "sh";
    c.source = "https://huggingface.co/docs/text-generation-inference/reference/launcher";
    const CheckpointChoice checkpoint = chooseCheckpoint(s);
    if (!checkpoint.note.empty())
        c.notes.push_back(checkpoint.note);
    std::vector<std::string> parts{"text-generation-launcher --model-id " +
                                   shellWord(checkpoint.name)};
    if (s.gpuCount > 1)
        parts.push_back("--num-shard " + std::to_string(s.gpuCount));
    // max_input_tokens defaults to one less, so a prompt may take all but the first new token.
    parts.push_back("--max-total-tokens " + std::to_string(s.context));
    if (s.engine.prefillChunkTokens > 0)
        parts.push_back("--max-batch-prefill-tokens " +
                        std::to_string(s.engine.prefillChunkTokens));
    // The launcher reads PREFIX_CACHING before choosing its own default (resolve_attention).
    if (s.prefixCaching)
        parts.front() =
            std::string("PREFIX_CACHING=") + (*s.prefixCaching ? "1 " : "0 ") + parts.front();
    const MemorySplit split = memorySplit(s);
    if (split.wiggleRoom > 0)
        parts.front() = "TGI_WIGGLE_ROOM=" + number(split.wiggleRoom) + " " + parts.front();
    else if (split.fraction < 1 - 1e-9)
        parts.push_back("--cuda-memory-fraction " + number(split.fraction));
    addWeightFlags(s, parts);
    if (s.kvDtype.id == "fp8")
        parts.push_back("--kv-cache-dtype fp8_e4m3fn");
    else if (s.kvDtype.id != "fp16" && s.kvDtype.id != "bf16")
        c.notes.push_back("TGI's KV cache is the model's dtype or FP8; it has no " +
                          s.kvDtype.name + " cache.");
    noteKvOnGpuOnly("TGI", s, c);
    if (s.offloadWeights)
        c.notes.push_back("TGI has no weight offloading: the weights must fit on the GPUs.");
    if (s.batch > kDefaultConcurrentRequests) // more would be answered 429
        parts.push_back("--max-concurrent-requests " + std::to_string(s.batch));
    c.text = shellCommand(parts);
    return c;
}

} // namespace

const EngineModule& tgi()
{
    static const TgiEngine module;
    return module;
}

} // namespace kvscope::engines
