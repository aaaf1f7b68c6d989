// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The settings whose values name catalog entries (or files): the model, GPU, engine and its
// release, formats, PCIe generation, disks and host memory. Part of the settings registry.

#include "kvscope/scenario/setting.h"

#include <utility>
#include <vector>

namespace kvscope {

// Model, GPU, engine, engine release, vLLM engine generation, weights, KV dtype, PCIe: in the
// order they are applied and listed.
std::vector<Setting> catalogEntrySettings();
// NVMe, SATA and host memory.
std::vector<Setting> storageSettings();
// Host RAM, the user's targets and cost (planning_settings.cpp).
std::vector<Setting> planningSettings();
// The serving workload: prompt and answer lengths (serving_settings.cpp).
std::vector<Setting> servingSettings();
std::vector<Setting> nodeSettings(); // nodes, replicas, how the nodes split the model
std::vector<Setting> loraSettings();
std::vector<Setting> speculativeSettings();

// Moves a group's entries to the end of the registry being built, keeping their order.
inline void appendSettings(std::vector<Setting>& to, std::vector<Setting> group)
{
    for (Setting& s : group)
        to.push_back(std::move(s));
}

} // namespace kvscope
