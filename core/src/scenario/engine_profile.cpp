// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/scenario/engine_profile.h"

#include <algorithm>
#include <cctype>

namespace kvscope {

const char* kvPlacementId(KvPlacement placement)
{
    switch (placement) {
    case KvPlacement::Gpu:
        return "gpu";
    case KvPlacement::CpuRam:
        return "cpu";
    case KvPlacement::Nvme:
        return "nvme";
    case KvPlacement::Sata:
        return "sata";
    }
    return "gpu";
}

bool parseKvPlacement(const std::string& id, KvPlacement* out)
{
    for (KvPlacement p :
         {KvPlacement::Gpu, KvPlacement::CpuRam, KvPlacement::Nvme, KvPlacement::Sata}) {
        if (id == kvPlacementId(p)) {
            *out = p;
            return true;
        }
    }
    return false;
}

const char* engineFamilyId(EngineFamily family)
{
    switch (family) {
    case EngineFamily::Transformers:
        return "transformers";
    case EngineFamily::Vllm:
        return "vllm";
    case EngineFamily::LlamaCpp:
        return "llamacpp";
    case EngineFamily::Tgi:
        return "tgi";
    case EngineFamily::Sglang:
        return "sglang";
    case EngineFamily::Other:
        return "other";
    }
    return "other";
}

EngineFamily engineFamilyFromId(const std::string& id)
{
    for (EngineFamily f : {EngineFamily::Transformers, EngineFamily::Vllm, EngineFamily::LlamaCpp,
                           EngineFamily::Tgi, EngineFamily::Sglang})
        if (id == engineFamilyId(f))
            return f;
    return EngineFamily::Other;
}

namespace {
bool listedOrOpen(const std::vector<std::string>& list, const std::string& id)
{
    return list.empty() || std::find(list.begin(), list.end(), id) != list.end();
}
} // namespace

bool EngineProfile::supportsWeights(const std::string& id) const
{
    return listedOrOpen(supportedWeights, id);
}

bool EngineProfile::supportsKvDtype(const std::string& id) const
{
    return listedOrOpen(supportedKvDtypes, id);
}

bool EngineProfile::supportsKvPlacement(const std::string& id) const
{
    return listedOrOpen(supportedKvPlacements, id);
}

bool EngineProfile::runsOn(const std::string& vendor) const
{
    return listedOrOpen(supportedVendors, vendor);
}

void useBatchDefaults(EngineProfile& engine, bool largeGpu)
{
    engine.maxNumSeqs = largeGpu ? engine.largeGpuMaxNumSeqs : engine.baseMaxNumSeqs;
    engine.prefillChunkTokens =
        largeGpu ? engine.largeGpuPrefillChunkTokens : engine.basePrefillChunkTokens;
}

bool takesLargeGpuDefaults(const EngineProfile& engine, const GpuSpec& gpu)
{
    if (engine.largeGpuMinGiB <= 0)
        return false;
    std::string name = gpu.name;
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char ch) { return char(std::tolower(ch)); });
    if (!engine.largeGpuExcludedName.empty() &&
        name.find(engine.largeGpuExcludedName) != std::string::npos)
        return false;
    return gpu.memoryGiB * gpu.usableFraction >= engine.largeGpuMinGiB;
}

} // namespace kvscope
