// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/model/efficiency.h"
#include "kvscope/engines/engine_profile.h"
#include "kvscope/field_error.h"
#include "kvscope/model/storage_formats.h"
#include "kvscope/model/hardware.h"
#include "kvscope/model/model_spec.h"
#include "kvscope/evaluation/scenario.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace kvscope {

// Everything kvscope knows by name: models, GPUs, formats, engines, links, disks and the
// default efficiency factors. Loaded from data directories, the user's first.
struct Catalog
{
    std::vector<ModelSpec> models;
    std::vector<GpuSpec> gpus;
    std::vector<WeightFormat> weightFormats; // ordered from most to fewest bits (the UI slider)
    std::vector<KvDtype> kvDtypes;
    std::vector<EngineProfile> engines;
    std::vector<PcieGeneration> pcie;        // ordered by generation
    std::vector<StorageTier> storage;
    std::vector<HostMemory> hostMemory;
    std::vector<EfficiencyFactor> efficiencyFactors;
    Efficiency efficiencyDefaults;
    std::map<std::string, GpuPrice> gpuPrices; // by GPU id (gpu_prices.json, the user's first)
    std::vector<std::string> problems; // files skipped while loading, one line each

    const ModelSpec* model(const std::string& id) const;
    const GpuSpec* gpu(const std::string& id) const;
    const WeightFormat* weightFormat(const std::string& id) const;
    const KvDtype* kvDtype(const std::string& id) const;
    const EngineProfile* engine(const std::string& id) const;
    const PcieGeneration* pcieGeneration(int gen) const;
    const StorageTier* storageTier(const std::string& id) const;
    const HostMemory* host(const std::string& id) const;
};

// Directories searched for data, in order: $KVSCOPE_DATA_DIR, the user's
// $XDG_DATA_HOME/kvscope (~/.local/share/kvscope), <exe>/../share/kvscope, and the build's own
// share directory. Each holds models/*.json, gpus/*.json and catalog/*.json; an id found in an
// earlier directory hides the same id in later ones.
std::vector<std::filesystem::path> defaultDataDirs(const std::filesystem::path& executable);

// Loads every directory that exists. Malformed files are skipped and listed in problems.
Catalog loadCatalog(const std::vector<std::filesystem::path>& dataDirs);

// The seed article's scenario (Llama 2 7B, FP16, RTX 4090, 2,048 tokens, PCIe 4.0 x16, HF
// dynamic cache, KV on the GPU), or an error naming the catalog entry that is missing.
Expected<Scenario> defaultScenario(const Catalog& catalog);

// Puts an engine into a scenario along with the defaults it implies (its KV placement, its batch
// defaults for the scenario's GPU, its latest release).
void applyEngine(Scenario& scenario, const EngineProfile& engine);

// Re-derives the scenario's engine from the catalog as its release (engineVersion) and vLLM
// engine generation (vllmUseV1) have it, with the batch defaults for its GPU; an error names a
// release or generation the engine does not have. The KV placement and other settings stay.
std::optional<FieldError> applyEngineRelease(Scenario& scenario, const Catalog& catalog);

// Puts a GPU into a scenario; batch settings still at the engine's defaults for the old GPU
// follow to the new one's, settings the user changed stay.
void applyGpu(Scenario& scenario, GpuSpec gpu);
// The same, and the host link follows the GPU's own (an H100 SXM's platform is PCIe 5.0) unless
// it had been set apart from the old GPU's: how --gpu, the window, the planner and the matrix
// put a GPU in, so they agree on every figure.
void applyGpu(Scenario& scenario, GpuSpec gpu, const Catalog& catalog);

// Whether the engine raises its batch defaults on this GPU (vLLM on 70 GiB or more, not A100).
bool takesLargeGpuDefaults(const EngineProfile& engine, const GpuSpec& gpu);

} // namespace kvscope
