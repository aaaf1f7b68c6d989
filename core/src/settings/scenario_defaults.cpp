// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/settings/scenario_defaults.h"

#include "kvscope/engines/engine_module.h"

namespace kvscope {

namespace {

void applyBatchDefaults(EngineProfile& engine, const GpuSpec& gpu)
{
    useBatchDefaults(engine, takesLargeGpuDefaults(engine, gpu));
}

// gpu_prices.json's costs of owning, as the cost settings' defaults.
void applyOwningDefaults(CostSettings& cost, const std::vector<EfficiencyFactor>& owning)
{
    const std::pair<const char*, double CostSettings::*> fields[] = {
        {"electricity_usd_per_kwh", &CostSettings::electricityUsdPerKwh},
        {"pue", &CostSettings::pue},
        {"utilization", &CostSettings::utilization},
        {"host_usd_per_gpu_server", &CostSettings::hostUsdPerGpuServer},
        {"host_usd_per_gpu_desktop", &CostSettings::hostUsdPerGpuDesktop},
        {"hosting_usd_per_kw_month", &CostSettings::hostingUsdPerKwMonth}};
    for (const EfficiencyFactor& f : owning)
        for (const auto& [id, member] : fields)
            if (f.id == id)
                cost.*member = f.value;
}

} // namespace

void applyEngine(Scenario& s, const EngineProfile& engine)
{
    s.profile.reset(); // fitted to another engine, or to this one's defaults
    s.engine = engine;
    s.engineVersion.clear();
    s.vllmUseV1.reset();
    s.enforceEager = false;
    s.flashinferSampler = false;
    s.preemptBySwap = false;
    s.prefixCaching.reset(); // each engine's own default
    s.flashAttention.reset();
    if (!engineModule(engine).offloadsExperts()) { // --n-cpu-moe is llama.cpp's alone
        s.cpuMoeLayers = 0;
        s.cpuMoeAll = false;
    }
    applyBatchDefaults(s.engine, s.gpu);
    s.kvPlacement = engine.defaultKvPlacement;
}

std::optional<FieldError> applyEngineRelease(Scenario& s, const Catalog& c)
{
    const EngineProfile* base = c.engine(s.engine.id);
    if (!base)
        return std::nullopt; // an engine the catalog does not hold has no rules to apply
    const EngineReleases& r = base->releases;
    Release release = r.latest;
    if (!s.engineVersion.empty()) {
        const auto parsed = parseRelease(r, s.engineVersion);
        if (!r.modelled() || !parsed || *parsed < r.first || r.latest < *parsed)
            return FieldError{"engine_version", s.engineVersion, acceptedReleases(base->name, r)};
        release = *parsed;
    }
    if (s.vllmUseV1 && !r.v1DefaultFrom)
        return FieldError{"vllm_use_v1", *s.vllmUseV1 ? "on" : "off",
                          "nothing: " + base->name + " has one engine"};
    const bool v1 = s.vllmUseV1.value_or(v1EngineByDefault(r, release));
    if (s.vllmUseV1)
        if (auto error = checkEngineGeneration(r, release, v1))
            return error;
    if (s.profile && s.profile->release != s.engineVersion)
        s.profile.reset(); // fitted under another release's memory rules
    EngineProfile engine = *base;
    if (r.modelled())
        applyReleaseRules(engine, release, v1);
    s.engine = engine;
    applyBatchDefaults(s.engine, s.gpu);
    return std::nullopt;
}

void applyGpu(Scenario& s, GpuSpec gpu)
{
    if (gpu.id != s.gpu.id)
        s.profile.reset(); // fitted to another machine
    EngineProfile defaults = s.engine;
    applyBatchDefaults(defaults, s.gpu);
    const bool untouched = s.engine.maxNumSeqs == defaults.maxNumSeqs &&
                           s.engine.prefillChunkTokens == defaults.prefillChunkTokens;
    s.gpu = std::move(gpu);
    if (untouched)
        applyBatchDefaults(s.engine, s.gpu);
}

void applyGpu(Scenario& s, GpuSpec gpu, const Catalog& c)
{
    const GpuSpec before = s.gpu;
    applyGpu(s, std::move(gpu));
    const bool untouched = s.pcie.gen == (before.pcieGen > 0 ? before.pcieGen : s.pcie.gen) &&
                           s.pcieLanes == (before.pcieLanes > 0 ? before.pcieLanes : s.pcieLanes);
    if (!untouched || s.gpu.pcieGen <= 0)
        return;
    if (const PcieGeneration* p = c.pcieGeneration(s.gpu.pcieGen))
        s.pcie = *p;
    if (s.gpu.pcieLanes > 0)
        s.pcieLanes = s.gpu.pcieLanes;
}

Expected<Scenario> defaultScenario(const Catalog& c)
{
    Scenario s;
    auto missing = [](const std::string& what, const std::string& id) {
        return FieldError{"catalog." + what, id,
                          "the built-in catalog entry (is the data installed?)"};
    };
    const ModelSpec* model = c.model("llama-2-7b");
    if (!model)
        return missing("models", "llama-2-7b");
    const GpuSpec* gpu = c.gpu("rtx-4090");
    if (!gpu)
        return missing("gpus", "rtx-4090");
    const WeightFormat* weights = c.weightFormat("fp16");
    if (!weights)
        return missing("weight_formats", "fp16");
    const KvDtype* kv = c.kvDtype("fp16");
    if (!kv)
        return missing("kv_dtypes", "fp16");
    const EngineProfile* engine = c.engine("hf");
    if (!engine)
        return missing("engines", "hf");
    const PcieGeneration* pcie = c.pcieGeneration(4);
    if (!pcie)
        return missing("pcie", "4");
    const StorageTier* nvme = c.storageTier("nvme-gen4");
    if (!nvme)
        return missing("storage", "nvme-gen4");
    const StorageTier* sata = c.storageTier("sata");
    if (!sata)
        return missing("storage", "sata");
    if (c.hostMemory.empty())
        return missing("host_memory", "ddr5-4800-dual");
    const HostMemory* host = c.host("ddr5-4800-dual");
    s.model = *model;
    s.gpu = *gpu;
    s.weights = *weights;
    s.kvDtype = *kv;
    applyEngine(s, *engine);
    s.pcie = *pcie;
    s.pcieLanes = 16;
    s.nvme = *nvme;
    s.sata = *sata;
    s.hostMemory = host ? *host : c.hostMemory.front();
    s.efficiency = c.efficiencyDefaults;
    applyOwningDefaults(s.cost, c.owningCosts);
    s.allReduce = c.allReduce;
    s.deepEpAllToAll = c.deepEpAllToAll;
    if (const NodeLink* link = c.nodeLink("ib-ndr"); link || !c.nodeLinks.empty())
        s.nodeLink = link ? *link : c.nodeLinks.front();
    s.speedBands = c.speedBands;
    return s;
}

void applyProfile(Scenario& s, const MachineProfile& profile)
{
    if (profile.runtimeOverheadMiB)
        s.engine.runtimeOverheadMiB = *profile.runtimeOverheadMiB;
    if (profile.hbmEfficiency)
        s.efficiency.hbm = *profile.hbmEfficiency;
    if (profile.activationBytes)
        s.efficiency.activationBytes = *profile.activationBytes;
    s.profile = profile;
}

} // namespace kvscope
