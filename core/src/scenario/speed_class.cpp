// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/scenario/speed_class.h"

namespace kvscope {

namespace {

// The catalog's list groups, in one word each; a GPU outside them (a custom one) by its vendor.
std::string gpuClassOf(const GpuSpec& gpu)
{
    if (gpu.group == "Data center")
        return "datacenter";
    if (gpu.group == "Workstation")
        return "workstation";
    if (gpu.group == "Consumer")
        return "consumer";
    if (gpu.group == "Apple silicon" || gpu.unifiedMemory)
        return "apple";
    return gpu.vendor.empty() ? "other" : gpu.vendor;
}

} // namespace

std::string SpeedClass::id() const
{
    return engine + "/" + gpuClass + "/" + (moe ? "moe" : "dense") + "/" +
           (quantized ? "quantized" : "16-bit");
}

SpeedClass speedClassOf(const Scenario& s)
{
    SpeedClass c;
    c.engine = engineFamilyId(s.engine.family);
    c.gpuClass = gpuClassOf(s.gpu);
    c.moe = s.model.isMoe();
    c.quantized = s.weights.bitsPerWeight < 15.5;
    return c;
}

SpeedBand decodeBandOf(const Scenario& s)
{
    if (!s.speedBands)
        return {};
    const auto it = s.speedBands->find(speedClassOf(s).id());
    return it == s.speedBands->end() ? SpeedBand{} : it->second;
}

} // namespace kvscope
