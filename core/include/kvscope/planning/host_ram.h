// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/scenario/scenario.h"

#include <string>

namespace kvscope {

// Where the host RAM size the verdict checks against comes from.
enum class HostRamBasis {
    Stated,        // --host-ram-gib
    Platform,      // the GPU entry's usual platform (a DGX H100: 256 GiB per GPU) x GPUs
    UnifiedMemory, // Apple silicon: what the GPU may not wire of the one shared memory
    Unknown,       // a GPU without a platform figure and nothing stated: not checked
};

struct HostRam
{
    double gib = 0; // 0 with Unknown
    HostRamBasis basis = HostRamBasis::Unknown;
    std::string source; // for Platform: the system the figure is from
};

HostRam hostRamOf(const Scenario& scenario);

const char* hostRamBasisId(HostRamBasis basis); // "stated", "platform", ...

} // namespace kvscope
