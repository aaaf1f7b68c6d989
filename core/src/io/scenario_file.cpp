// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/io/scenario_file.h"

#include "kvscope/io/config_import.h"
#include "kvscope/io/checked_json.h"

#include <nlohmann/json.hpp>

namespace kvscope {

nlohmann::json scenarioToJson(const Scenario& s)
{
    nlohmann::json j;
    j["kvscope_scenario"] = scenarioFileVersion;
    j["model"] = s.model.imported ? modelToConfig(s.model) : nlohmann::json(s.model.id);
    j["gpu"] = s.gpu.custom ? gpuToJson(s.gpu) : nlohmann::json(s.gpu.id);
    j["gpus"] = s.gpuCount;
    j["weights"] = s.weights.id;
    j["kv_dtype"] = s.kvDtype.id;
    j["engine"] = s.engine.id;
    j["context"] = s.context;
    j["batch"] = s.batch;
    j["pcie"] = s.pcie.gen;
    j["lanes"] = s.pcieLanes;
    j["kv_placement"] = kvPlacementId(s.kvPlacement);
    j["prefetch_kv"] = s.prefetchKv;
    j["offload_weights"] = s.offloadWeights;
    if (s.memoryFraction)
        j["gpu_mem_util"] = *s.memoryFraction;
    j["block_size"] = s.engine.kvBlockTokens;
    j["prefill_chunk_tokens"] = s.engine.prefillChunkTokens;
    j["max_num_seqs"] = s.engine.maxNumSeqs;
    j["runtime_overhead_mib"] = s.engine.runtimeOverheadMiB;
    j["split_mode"] = s.engine.layerSplit ? "layer" : "tensor";
    if (s.gpuLayers)
        j["n_gpu_layers"] = *s.gpuLayers;
    j["nvme"] = s.nvme.id;
    j["sata"] = s.sata.id;
    j["host_memory"] = s.hostMemory.id;
    nlohmann::json efficiency = nlohmann::json::object();
    for (const std::string& id : efficiencyIds())
        efficiency[id] = *efficiencyField(s.efficiency, id);
    j["efficiency"] = efficiency;
    if (s.calibration) {
        const CalibrationRecord& c = *s.calibration;
        j["calibration"] = {{"kind", c.kind},     {"measured", c.measured}, {"factor", c.factor},
                            {"fitted", c.fitted}, {"before", c.before},     {"after", c.after}};
    }
    return j;
}

std::string scenarioToText(const Scenario& s)
{
    return scenarioToJson(s).dump(2) + "\n";
}

namespace {

template <typename T, typename Lookup>
void pickById(JsonReader& r, const char* key, Lookup lookup, T& target, const std::string& accepted)
{
    const std::string id = r.text({key}, "");
    if (id.empty())
        return;
    if (const T* found = lookup(id))
        target = *found;
    else
        r.fail(key, "\"" + id + "\"", accepted);
}

// The calibration record: which figure was measured, the factor it set, and the values; each
// checked so a hand-edited file cannot carry a NaN or a mismatched pair into the window.
Expected<CalibrationRecord> calibrationFromJson(const nlohmann::json& j)
{
    if (!j.is_object())
        return FieldError{"scenario.calibration", describeJson(j), "an object"};
    JsonReader r(j, "scenario.calibration");
    CalibrationRecord c;
    r.require({"kind"});
    c.kind = r.text({"kind"}, "");
    const char* factor = nullptr;
    if (c.kind == "decode_tokens_per_s")
        factor = "hbm_efficiency";
    else if (c.kind == "kv_cache_tokens")
        factor = "runtime_overhead_mib";
    else if (!r.error())
        r.fail("kind", "\"" + c.kind + "\"", "decode_tokens_per_s or kv_cache_tokens");
    r.require({"factor"});
    c.factor = r.text({"factor"}, "");
    if (!r.error() && c.factor != factor)
        r.fail("factor", "\"" + c.factor + "\"",
               std::string(factor) + " (the factor " + c.kind + " sets)");
    for (const char* key : {"measured", "fitted", "before", "after"})
        r.require({key});
    c.measured = r.number({"measured"}, 1e-9, 1e15, 0);
    c.fitted = r.number({"fitted"}, 0, 1e7, 0);
    c.before = r.number({"before"}, 0, 1e15, 0);
    c.after = r.number({"after"}, 0, 1e15, 0);
    if (r.error())
        return *r.error();
    return c;
}

template <typename T>
std::string idList(const std::vector<T>& items)
{
    std::string list = "one of ";
    for (size_t i = 0; i < items.size(); ++i)
        list += (i ? ", " : "") + items[i].id;
    return list;
}

} // namespace

Expected<Scenario> scenarioFromJson(const nlohmann::json& j, const Catalog& c)
{
    auto base = defaultScenario(c);
    if (!base)
        return base.error();
    Scenario s = std::move(base).value();
    JsonReader r(j, "scenario");
    const int64_t version = r.integer({"kvscope_scenario"}, 1, scenarioFileVersion, 0);
    if (version == 0 && !r.error())
        r.fail("kvscope_scenario", "", "a scenario file version from 1 to " +
                                           std::to_string(scenarioFileVersion));
    if (r.error())
        return *r.error();

    if (auto it = j.find("model"); it != j.end()) {
        if (it->is_object()) {
            auto model = modelFromConfig(*it, "custom");
            if (!model)
                return model.error();
            s.model = std::move(model).value();
            s.model.imported = true;
        } else {
            pickById(r, "model", [&](auto& id) { return c.model(id); }, s.model,
                     "a model id from `kvscope-cli list models` or an embedded config object");
        }
    }
    if (auto it = j.find("gpu"); it != j.end()) {
        if (it->is_object()) {
            auto gpu = gpuFromJson(*it, "custom");
            if (!gpu)
                return gpu.error();
            s.gpu = std::move(gpu).value();
            s.gpu.custom = true;
        } else {
            pickById(r, "gpu", [&](auto& id) { return c.gpu(id); }, s.gpu,
                     "a GPU id from `kvscope-cli list gpus` or an embedded GPU object");
        }
    }
    s.gpuCount = int(r.integer({"gpus"}, 1, limits::maxGpus, s.gpuCount));
    pickById(r, "weights", [&](auto& id) { return c.weightFormat(id); }, s.weights,
             idList(c.weightFormats));
    pickById(r, "kv_dtype", [&](auto& id) { return c.kvDtype(id); }, s.kvDtype, idList(c.kvDtypes));
    EngineProfile engine = s.engine;
    pickById(r, "engine", [&](auto& id) { return c.engine(id); }, engine, idList(c.engines));
    applyEngine(s, engine);
    s.context = r.integer({"context"}, limits::minContext, limits::maxContext, s.context);
    s.batch = r.integer({"batch"}, 1, limits::maxBatch, s.batch);
    const int gen = int(r.integer({"pcie"}, 1, 16, s.pcie.gen));
    if (const PcieGeneration* p = c.pcieGeneration(gen))
        s.pcie = *p;
    else
        r.fail("pcie", std::to_string(gen), "a PCIe generation from 3 to 6");
    s.pcieLanes = int(r.integer({"lanes"}, 1, 16, s.pcieLanes));
    const std::string placement = r.text({"kv_placement"}, kvPlacementId(s.kvPlacement));
    if (!parseKvPlacement(placement, &s.kvPlacement))
        r.fail("kv_placement", "\"" + placement + "\"", "gpu, cpu, nvme or sata");
    s.prefetchKv = r.boolean({"prefetch_kv"}, s.prefetchKv);
    s.offloadWeights = r.boolean({"offload_weights"}, s.offloadWeights);
    if (r.has("gpu_mem_util"))
        s.memoryFraction = r.number({"gpu_mem_util"}, 0.01, 1.0, 0.9);
    s.engine.kvBlockTokens = r.integer({"block_size"}, 1, 1 << 20, s.engine.kvBlockTokens);
    s.engine.prefillChunkTokens =
        r.integer({"prefill_chunk_tokens"}, 0, limits::maxContext, s.engine.prefillChunkTokens);
    s.engine.maxNumSeqs = r.integer({"max_num_seqs"}, 0, limits::maxBatch, s.engine.maxNumSeqs);
    s.engine.runtimeOverheadMiB =
        r.number({"runtime_overhead_mib"}, 0, 1e7, s.engine.runtimeOverheadMiB);
    const std::string split = r.text({"split_mode"}, s.engine.layerSplit ? "layer" : "tensor");
    if (split != "tensor" && split != "layer")
        r.fail("split_mode", "\"" + split + "\"", "tensor or layer");
    s.engine.layerSplit = split == "layer";
    if (r.has("n_gpu_layers"))
        s.gpuLayers = r.integer({"n_gpu_layers"}, 0, 100'000, 0);
    pickById(r, "nvme", [&](auto& id) { return c.storageTier(id); }, s.nvme, idList(c.storage));
    pickById(r, "sata", [&](auto& id) { return c.storageTier(id); }, s.sata, idList(c.storage));
    pickById(r, "host_memory", [&](auto& id) { return c.host(id); }, s.hostMemory,
             idList(c.hostMemory));
    if (auto it = j.find("efficiency"); it != j.end()) {
        if (!it->is_object())
            return FieldError{"scenario.efficiency", describeJson(*it), "an object of factors"};
        JsonReader e(*it, "scenario.efficiency");
        for (const auto& [key, value] : it->items()) {
            double* field = efficiencyField(s.efficiency, key);
            if (!field)
                continue; // a factor from a newer version: keep the default
            *field = e.number({key.c_str()}, 0, 1e6, *field);
        }
        if (e.error())
            return *e.error();
    }
    if (r.error())
        return *r.error();
    if (auto it = j.find("calibration"); it != j.end() && !it->is_null()) {
        auto calibration = calibrationFromJson(*it);
        if (!calibration)
            return calibration.error();
        s.calibration = std::move(calibration).value();
    }
    if (auto error = validate(s))
        return *error;
    return s;
}

Expected<Scenario> scenarioFromText(const std::string& text, const Catalog& c)
{
    auto json = parseJsonText(text, "scenario");
    if (!json)
        return json.error();
    return scenarioFromJson(*json, c);
}

Expected<Scenario> loadScenarioFile(const std::filesystem::path& path, const Catalog& c)
{
    auto json = readJsonFile(path, "scenario");
    if (!json)
        return json.error();
    return scenarioFromJson(*json, c);
}

} // namespace kvscope
