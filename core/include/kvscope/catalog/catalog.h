// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/base/field_error.h"
#include "kvscope/model/efficiency.h"
#include "kvscope/model/hardware.h"
#include "kvscope/model/machine_profile.h"
#include "kvscope/model/model_spec.h"
#include "kvscope/model/storage_formats.h"
#include "kvscope/scenario/engine_profile.h"
#include "kvscope/scenario/scenario.h"
#include "kvscope/scenario/speed_band.h"

#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace kvscope {

// Everything kvscope knows by name: models, GPUs, formats, engines, links, disks and the
// default efficiency factors. Loaded from data directories, the user's first.
struct Catalog
{
    std::vector<ModelSpec> models;
    // Decode error per speed class (speed_bands.json); every default scenario shares it.
    std::shared_ptr<const SpeedBands> speedBands;
    std::vector<GpuSpec> gpus;
    std::vector<WeightFormat> weightFormats; // ordered from most to fewest bits (the UI slider)
    std::vector<KvDtype> kvDtypes;
    std::vector<EngineProfile> engines;
    std::vector<PcieGeneration> pcie; // ordered by generation
    AllReduceLatencies allReduce;     // small all-reduces by link (interconnects.json)
    MoeAllToAll deepEpAllToAll;       // DeepEP's low-latency all-to-all (interconnects.json)
    std::vector<NodeLink> nodeLinks;  // networks between nodes (interconnects.json)
    std::vector<StorageTier> storage;
    std::vector<HostMemory> hostMemory;
    std::vector<EfficiencyFactor> efficiencyFactors;
    Efficiency efficiencyDefaults;
    std::map<std::string, GpuPrices> gpuPrices; // by GPU id (gpu_prices.json, the user's first)
    std::vector<EfficiencyFactor> owningCosts;  // gpu_prices.json "owning": CostSettings' defaults
    std::vector<MachineProfile> profiles;       // the user's (profiles/*.json), by name
    std::vector<std::string> problems;          // files skipped while loading, one line each

    const ModelSpec* model(const std::string& id) const;
    const GpuSpec* gpu(const std::string& id) const;
    const MachineProfile* profile(const std::string& id) const;
    const WeightFormat* weightFormat(const std::string& id) const;
    const KvDtype* kvDtype(const std::string& id) const;
    const EngineProfile* engine(const std::string& id) const;
    const PcieGeneration* pcieGeneration(int gen) const;
    const NodeLink* nodeLink(const std::string& id) const;
    const StorageTier* storageTier(const std::string& id) const;
    const HostMemory* host(const std::string& id) const;
};

// Directories searched for data, in order: $KVSCOPE_DATA_DIR, the user's
// $XDG_DATA_HOME/kvscope (~/.local/share/kvscope), <exe>/../share/kvscope, and the build's own
// share directory. Each holds models/*.json, gpus/*.json, profiles/*.json and catalog/*.json; an id
// found in an earlier directory hides the same id in later ones.
std::vector<std::filesystem::path> defaultDataDirs(const std::filesystem::path& executable);
// The user's own: $XDG_DATA_HOME/kvscope, else ~/.local/share/kvscope; empty without a home.
std::filesystem::path userDataDir();
// Where a machine profile of that name is saved and read: userDataDir()/profiles/NAME.json.
std::filesystem::path userProfilePath(const std::string& name);

// Loads every directory that exists. Malformed files are skipped and listed in problems.
Catalog loadCatalog(const std::vector<std::filesystem::path>& dataDirs);

// interconnects.json's networks between nodes ("node_links"); each bad entry named in
// `problems` (prefixed with `name`) and left out.
std::vector<NodeLink> nodeLinksFromJson(const nlohmann::json& json, const std::string& name,
                                        std::vector<std::string>& problems);

// speed_bands.json's table; each bad entry named in `problems` (prefixed with `name`) and left
// out.
SpeedBands speedBandsFromJson(const nlohmann::json& json, const std::string& name,
                              std::vector<std::string>& problems);

} // namespace kvscope
