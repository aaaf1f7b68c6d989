// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/planning/cautions.h"

namespace kvscope {

const char* cautionId(CautionKind kind)
{
    switch (kind) {
    case CautionKind::ContextBeyondModel:
        return "context_beyond_model";
    case CautionKind::LowHeadroom:
        return "low_headroom";
    case CautionKind::EngineLacksSetting:
        return "engine_lacks_setting";
    case CautionKind::LossyWeights:
        return "lossy_weights";
    case CautionKind::LossyKvCache:
        return "lossy_kv_cache";
    case CautionKind::GeForceLicence:
        return "geforce_licence";
    }
    return "";
}

// Neural Magic's INT4 (W4A16, GPTQ) Llama 3.1 checkpoints, OpenLLM v1 average against the
// unquantized model: 67.57 vs 69.32 for 8B ("It achieves an average score of 67.57 on the
// OpenLLM benchmark (version 1), whereas the unquantized model achieves 69.32"), 78.54 vs 78.67
// for 70B: 97.5 % and 99.8 % kept.
constexpr const char* kLossyWeightsSource =
    "https://huggingface.co/neuralmagic/Meta-Llama-3.1-8B-Instruct-quantized.w4a16";
// ikawrakow's perplexity runs with a q4_0 KV cache against f16 (rotated, -khad -vhad):
// Qwen3-8B-Base 7.2256 -> 7.3833 (+2.2 %), Qwen3-0.6B-Base 13.5068 -> 47.8404.
constexpr const char* kLossyKvSource = "https://github.com/ikawrakow/ik_llama.cpp/issues/1509";
// NVIDIA's GeForce software licence, 2.1.3 "No Datacenter Deployment. The SOFTWARE is not
// licensed for datacenter deployment, except that blockchain processing in a datacenter is
// permitted." (as quoted since 2017; the 2025 text keeps "is not licensed for datacenter
// deployment" in 2.8).
constexpr const char* kGeForceLicenceSource =
    "https://www.nvidia.com/en-us/drivers/geforce-license/";

bool isGeForce(const GpuSpec& gpu)
{
    return gpu.name.find("GeForce") != std::string::npos;
}

Caution geForceLicenceCaution()
{
    Caution c;
    c.kind = CautionKind::GeForceLicence;
    c.source = kGeForceLicenceSource;
    return c;
}

namespace {

// A caution of `kind` about `value` against `limit`; the engine fields stay empty. (GCC 12 warns
// about every member an aggregate initializer leaves out, even with designators.)
Caution cautionOf(CautionKind kind, double value = 0, double limit = 0)
{
    Caution c;
    c.kind = kind;
    c.value = value;
    c.limit = limit;
    return c;
}

// The engine's lists come from its documentation (resources/catalog/engines.json, "supports");
// an engine without a list (a user's own profile) accepts anything.
void checkEngineSettings(const Scenario& s, std::vector<Caution>& out)
{
    const EngineProfile& engine = s.engine;
    auto lacks = [&](EngineSetting setting, const std::string& given,
                     const std::vector<std::string>& offered) {
        Caution c = cautionOf(CautionKind::EngineLacksSetting);
        c.setting = setting;
        c.engine = engine.name;
        c.given = given;
        c.offered = offered;
        out.push_back(std::move(c));
    };
    // A GGUF file's own bytes ("file") are llama.cpp's to load; other engines are judged by the
    // format the file would be read as.
    if (!engine.supportsWeights(s.weights.id) &&
        !(s.weights.id == kFileWeightFormatId && engine.family == EngineFamily::LlamaCpp))
        lacks(EngineSetting::Weights, s.weights.id, engine.supportedWeights);
    if (!engine.supportsKvDtype(s.kvDtype.id))
        lacks(EngineSetting::KvDtype, s.kvDtype.id, engine.supportedKvDtypes);
    if (const char* placement = kvPlacementId(s.kvPlacement);
        !engine.supportsKvPlacement(placement))
        lacks(EngineSetting::KvPlacement, placement, engine.supportedKvPlacements);
    if (!s.gpu.vendor.empty() && !engine.runsOn(s.gpu.vendor))
        lacks(EngineSetting::GpuVendor, s.gpu.vendor, engine.supportedVendors);
}

std::string joined(const std::vector<std::string>& items)
{
    std::string text;
    for (const std::string& item : items)
        text += (text.empty() ? "" : ", ") + item;
    return text;
}

// "cpu" -> "CPU RAM", as the summary names the tiers.
std::string placementWords(const std::string& id)
{
    if (id == "gpu")
        return "the GPU";
    if (id == "cpu")
        return "CPU RAM";
    if (id == "nvme")
        return "NVMe";
    if (id == "sata")
        return "SATA";
    return id;
}

} // namespace

std::vector<Caution> cautionsOf(const Scenario& s, const Evaluation& e, const Verdict& verdict)
{
    std::vector<Caution> cautions;
    if (s.model.maxContext > 0 && s.context > s.model.maxContext)
        cautions.push_back(cautionOf(CautionKind::ContextBeyondModel, double(s.context),
                                     double(s.model.maxContext)));
    const VramSplit& v = e.vram;
    if (verdict.runs && v.budgetBytes > 0 && v.freeBytes < kLowHeadroomShare * v.budgetBytes)
        cautions.push_back(cautionOf(CautionKind::LowHeadroom, v.freeBytes, v.budgetBytes));
    checkEngineSettings(s, cautions);
    for (Caution& c : formatCautions(s))
        cautions.push_back(std::move(c));
    return cautions;
}

std::vector<Caution> formatCautions(const Scenario& s)
{
    std::vector<Caution> cautions;
    // A model shipped in a 4-bit format (gpt-oss in MXFP4) loses nothing by being run in it, or
    // in a variant of it ("mxfp4" for llama.cpp's GGUF of the "mxfp4-moe" checkpoint).
    const std::string& shipped = s.model.checkpointWeights;
    const bool shippedFormat =
        !shipped.empty() && s.weights.id.rfind(shipped.substr(0, shipped.find('-')), 0) == 0;
    if (s.weights.bitsPerWeight < kLossyBits && !shippedFormat) {
        Caution c = cautionOf(CautionKind::LossyWeights, s.weights.bitsPerWeight, kLossyBits);
        c.given = s.weights.name;
        c.source = kLossyWeightsSource;
        cautions.push_back(std::move(c));
    }
    if (s.kvDtype.bitsPerElement < kLossyBits) {
        Caution c = cautionOf(CautionKind::LossyKvCache, s.kvDtype.bitsPerElement, kLossyBits);
        c.given = s.kvDtype.name;
        c.source = kLossyKvSource;
        cautions.push_back(std::move(c));
    }
    return cautions;
}

std::string cautionText(const Caution& c, ByteUnits units, const NumberStyle& st)
{
    switch (c.kind) {
    case CautionKind::ContextBeyondModel:
        return "Caution: a context of " + formatInteger(int64_t(c.value), st) +
               " tokens is past the model's trained maximum of " +
               formatInteger(int64_t(c.limit), st) + "; quality past it is not assured.";
    case CautionKind::LowHeadroom:
        return "Caution: only " + formatBytes(c.value, units, st) + " (" +
               formatNumber(100.0 * c.value / c.limit, 1, st) + " %) of the " +
               formatBytes(c.limit, units, st) +
               " budget per GPU is left free; allocator fragmentation or a longer prompt may "
               "overflow it.";
    case CautionKind::EngineLacksSetting: {
        const std::string tail = "; the figures are what it would take if it did.";
        if (c.setting == EngineSetting::GpuVendor)
            return "Caution: " + c.engine + " does not run on " + c.given + " GPUs (it runs on " +
                   joined(c.offered) + ")" + tail;
        if (c.setting == EngineSetting::KvPlacement) {
            std::vector<std::string> offered;
            for (const std::string& id : c.offered)
                offered.push_back(placementWords(id));
            return "Caution: " + c.engine + " does not decode from a KV cache in " +
                   placementWords(c.given) + " (it offers " + joined(offered) + ")" + tail;
        }
        const char* what = c.setting == EngineSetting::Weights ? "weights" : "a KV cache";
        return "Caution: " + c.engine + " does not load " + what + " in " + c.given +
               " (it offers " + joined(c.offered) + ")" + tail;
    }
    case CautionKind::LossyWeights:
        return "Caution: " + c.given + " weights (" + formatNumber(c.value, 2, st) +
               " bits) lose accuracy: Llama 3.1's 4-bit (W4A16) checkpoints keep 97.5 % (8B) to "
               "99.8 % (70B) of the 16-bit model's OpenLLM v1 score (Neural Magic, " +
               c.source + "); check your own task.";
    case CautionKind::LossyKvCache:
        return "Caution: a " + c.given + " KV cache (" + formatNumber(c.value, 1, st) +
               " bits) loses accuracy: q4_0 raised Qwen3-8B's perplexity 2.2 % over f16 and "
               "Qwen3-0.6B's 3.5-fold (" +
               c.source + "); check your own task at your context length.";
    case CautionKind::GeForceLicence:
        return "Caution: NVIDIA's GeForce driver licence does not allow datacenter deployment "
               "(2.1.3, " +
               c.source +
               "); a GeForce card belongs on a desk, or with a provider licensed for it.";
    }
    return "";
}

} // namespace kvscope
