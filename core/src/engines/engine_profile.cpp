// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/engines/engine_profile.h"

namespace kvscope {

const char* kvPlacementId(KvPlacement placement)
{
    switch (placement) {
    case KvPlacement::Gpu: return "gpu";
    case KvPlacement::CpuRam: return "cpu";
    case KvPlacement::Nvme: return "nvme";
    case KvPlacement::Sata: return "sata";
    }
    return "gpu";
}

bool parseKvPlacement(const std::string& id, KvPlacement* out)
{
    for (KvPlacement p : {KvPlacement::Gpu, KvPlacement::CpuRam, KvPlacement::Nvme, KvPlacement::Sata}) {
        if (id == kvPlacementId(p)) {
            *out = p;
            return true;
        }
    }
    return false;
}

void useBatchDefaults(EngineProfile& engine, bool largeGpu)
{
    engine.maxNumSeqs = largeGpu ? engine.largeGpuMaxNumSeqs : engine.baseMaxNumSeqs;
    engine.prefillChunkTokens =
        largeGpu ? engine.largeGpuPrefillChunkTokens : engine.basePrefillChunkTokens;
}

} // namespace kvscope
