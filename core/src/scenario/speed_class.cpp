// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/scenario/speed_class.h"

namespace kvscope {

namespace {

// The catalog's list groups, in one word each; a GPU outside them (a custom one) by its vendor.
std::string gpuClassOf(const GpuSpec& gpu)
{
    if (gpu.dataCenter())
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

const char* speedFigureId(SpeedFigure figure)
{
    switch (figure) {
    case SpeedFigure::Decode:
        return "decode";
    case SpeedFigure::Tpot:
        return "tpot";
    case SpeedFigure::Ttft:
        return "ttft";
    case SpeedFigure::TtftOneUser:
        return "ttft1";
    }
    return "decode";
}

std::optional<SpeedFigure> speedFigureFromId(const std::string& id)
{
    for (SpeedFigure f :
         {SpeedFigure::Decode, SpeedFigure::Tpot, SpeedFigure::Ttft, SpeedFigure::TtftOneUser})
        if (id == speedFigureId(f))
            return f;
    return std::nullopt;
}

std::string speedBandKey(SpeedFigure figure, const std::string& classId)
{
    return figure == SpeedFigure::Decode ? classId : speedFigureId(figure) + (":" + classId);
}

std::pair<SpeedFigure, std::string> splitSpeedBandKey(const std::string& key)
{
    const size_t colon = key.find(':');
    if (colon != std::string::npos)
        if (auto figure = speedFigureFromId(key.substr(0, colon)))
            return {*figure, key.substr(colon + 1)};
    return {SpeedFigure::Decode, key};
}

std::vector<std::string> speedClassLevels(const std::string& classId)
{
    // Drafting speeds ("<class>/drafting") group among themselves, never into the plain step's.
    static const std::string drafting = "/drafting";
    if (classId.size() > drafting.size() && classId.ends_with(drafting)) {
        std::vector<std::string> levels =
            speedClassLevels(classId.substr(0, classId.size() - drafting.size()));
        for (std::string& level : levels)
            level += drafting;
        return levels;
    }
    std::vector<std::string> levels{classId};
    // engine/gpuClass/dense-or-moe/weights: drop the last two, then the GPU class.
    size_t cut = classId.find('/');
    if (cut != std::string::npos) {
        const size_t second = classId.find('/', cut + 1);
        if (second != std::string::npos)
            levels.push_back(classId.substr(0, second));
        levels.push_back(classId.substr(0, cut));
    }
    return levels;
}

SpeedBand speedBandOf(const Scenario& s, SpeedFigure figure)
{
    const std::string own = speedClassOf(s).id();
    SpeedBand found; // the class's own, even under three cases, unless a broader one binds
    if (s.speedBands)
        for (const std::string& level : speedClassLevels(own)) {
            const auto it = s.speedBands->find(speedBandKey(figure, level));
            if (it == s.speedBands->end())
                continue;
            if (it->second.usable()) {
                found = it->second;
                found.classId = level;
                return found;
            }
            if (level == own)
                found = it->second;
        }
    found.classId = own;
    return found;
}

SpeedBand decodeBandOf(const Scenario& s)
{
    return speedBandOf(s, SpeedFigure::Decode);
}

} // namespace kvscope
