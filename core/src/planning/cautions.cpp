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
    }
    return "";
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
    }
    return "";
}

} // namespace kvscope
