// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/planning/host_ram.h"

namespace kvscope {

HostRam hostRamOf(const Scenario& s)
{
    if (s.hostRamGiB > 0)
        return {s.hostRamGiB, HostRamBasis::Stated, ""};
    // On unified memory, "offloading to host RAM" moves bytes to the part of the same memory the
    // GPU may not wire (macOS keeps about a quarter): that part is all the host side has.
    if (s.gpu.unifiedMemory)
        return {s.gpu.memoryGiB * (1.0 - s.gpu.usableFraction) * double(s.gpuCount),
                HostRamBasis::UnifiedMemory, ""};
    if (s.gpu.hostRamGiBPerGpu > 0)
        return {s.gpu.hostRamGiBPerGpu * double(s.gpuCount), HostRamBasis::Platform,
                s.gpu.hostRamSource};
    return {};
}

const char* hostRamBasisId(HostRamBasis basis)
{
    switch (basis) {
    case HostRamBasis::Stated:
        return "stated";
    case HostRamBasis::Platform:
        return "platform";
    case HostRamBasis::UnifiedMemory:
        return "unified_memory";
    case HostRamBasis::Unknown:
        return "unknown";
    }
    return "unknown";
}

} // namespace kvscope
