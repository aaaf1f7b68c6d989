// SPDX-License-Identifier: GPL-3.0-or-later
#include "settings/catalog_settings.h"

#include "kvscope/catalog/catalog.h"
#include "kvscope/io/config_import.h"
#include "settings/field_access.h"

namespace kvscope {

namespace {

using V = std::optional<SettingValue>;
using settings_detail::textOf;

bool looksLikePath(const std::string& value)
{
    return value.find('/') != std::string::npos ||
           (value.size() > 5 && value.compare(value.size() - 5, 5, ".json") == 0);
}

template <typename T> std::string idList(const std::vector<T>& items)
{
    std::string list = "one of ";
    for (size_t i = 0; i < items.size(); ++i)
        list += (i ? ", " : "") + items[i].id;
    return list;
}

Setting entry(const char* id, const char* flag, const char* valueName, const char* help,
              const char* defaultText)
{
    Setting s = makeSetting(id, flag, valueName, SettingType::Entry);
    s.help = help;
    s.defaultText = defaultText;
    return s;
}

std::optional<FieldError> applyModel(Scenario& s, const SettingValue& v, const Catalog& c)
{
    const std::string& value = textOf(v);
    if (looksLikePath(value)) {
        auto model = modelFromConfigFile(value);
        if (!model)
            return model.error();
        s.model = std::move(model).value();
        s.model.imported = true;
    } else if (const ModelSpec* m = c.model(value)) {
        s.model = *m;
    } else {
        return FieldError{"model", value,
                          "a model id (see `kvscope-cli list models`) or a path to a config.json"};
    }
    return std::nullopt;
}

std::optional<FieldError> applyGpuEntry(Scenario& s, const SettingValue& v, const Catalog& c)
{
    const std::string& value = textOf(v);
    if (looksLikePath(value)) {
        auto gpu = gpuFromFile(value);
        if (!gpu)
            return gpu.error();
        GpuSpec custom = std::move(gpu).value();
        custom.custom = true;
        applyGpu(s, std::move(custom));
    } else if (const GpuSpec* g = c.gpu(value)) {
        applyGpu(s, *g);
    } else {
        return FieldError{"gpu", value,
                          "a GPU id (see `kvscope-cli list gpus`) or a path to a GPU JSON file"};
    }
    return std::nullopt;
}

} // namespace

std::vector<Setting> catalogEntrySettings()
{
    std::vector<Setting> r;
    {
        Setting s = entry("model", "model", "ID|CONFIG.json",
                          "model preset id, or a Hugging Face config.json", "llama-2-7b");
        s.choosesEntry = true;
        s.apply = applyModel;
        // An imported model is written whole by the scenario file, not as an id.
        s.current = [](const Scenario& sc) -> V {
            return sc.model.imported ? std::nullopt : V(SettingValue(sc.model.id));
        };
        r.push_back(s);
    }
    {
        Setting s = entry("gpu", "gpu", "ID|GPU.json",
                          "GPU catalog id, or a GPU JSON file of the catalog's schema", "rtx-4090");
        s.choosesEntry = true;
        s.apply = applyGpuEntry;
        s.current = [](const Scenario& sc) -> V {
            return sc.gpu.custom ? std::nullopt : V(SettingValue(sc.gpu.id));
        };
        r.push_back(s);
    }
    {
        Setting s = entry("engine", "engine", "ID",
                          "engine profile: hf, hf-static, hf-offloaded, vllm, llamacpp", "hf");
        s.choosesEntry = true;
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog& c) -> std::optional<FieldError> {
            const EngineProfile* e = c.engine(textOf(v));
            if (!e)
                return FieldError{"engine", textOf(v), idList(c.engines)};
            applyEngine(sc, *e);
            return std::nullopt;
        };
        s.current = [](const Scenario& sc) -> V { return SettingValue(sc.engine.id); };
        r.push_back(s);
    }
    {
        Setting s = entry("engine_version", "engine-version", "X.Y.Z",
                          "the engine release whose memory rules apply (vLLM: 0.2.0 to 0.28.0)",
                          "the latest release modelled");
        s.choosesEntry = true;
        s.apply = [](Scenario& sc, const SettingValue& v, const Catalog& c) {
            sc.engineVersion = textOf(v);
            return applyEngineRelease(sc, c);
        };
        s.current = [](const Scenario& sc) -> V {
            return sc.engineVersion.empty() ? std::nullopt : V(SettingValue(sc.engineVersion));
        };
        r.push_back(s);
    }
    {
        Setting s = makeSetting("vllm_use_v1", "vllm-use-v1", "on|off", SettingType::Switch);
        s.help = "vLLM's V1 engine (VLLM_USE_V1): from 0.7.0, the default from 0.8.0";
        s.defaultText = "follows the release";
        s.engineNames = {{"vllm", "VLLM_USE_V1"}};
        s.choosesEntry = true;
        s.apply = [](Scenario& sc, const SettingValue& v, const Catalog& c) {
            sc.vllmUseV1 = std::get<bool>(v);
            return applyEngineRelease(sc, c);
        };
        s.current = [](const Scenario& sc) -> V {
            return sc.vllmUseV1 ? V(SettingValue(*sc.vllmUseV1)) : std::nullopt;
        };
        r.push_back(s);
    }
    {
        Setting s = entry("weights", "weights", "FORMAT",
                          "weight format: fp16, bf16, fp8, int8, gptq-int4, q4_k_m, ...", "fp16");
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog& c) -> std::optional<FieldError> {
            const WeightFormat* f = c.weightFormat(textOf(v));
            if (!f)
                return FieldError{"weights", textOf(v), idList(c.weightFormats)};
            sc.weights = *f;
            return std::nullopt;
        };
        s.current = [](const Scenario& sc) -> V { return SettingValue(sc.weights.id); };
        r.push_back(s);
    }
    {
        Setting s = entry("kv_dtype", "kv-dtype", "DTYPE",
                          "KV cache element type: fp16, bf16, fp8, int8, q8_0, q4_0", "fp16");
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog& c) -> std::optional<FieldError> {
            const KvDtype* d = c.kvDtype(textOf(v));
            if (!d)
                return FieldError{"kv_dtype", textOf(v), idList(c.kvDtypes)};
            sc.kvDtype = *d;
            return std::nullopt;
        };
        s.current = [](const Scenario& sc) -> V { return SettingValue(sc.kvDtype.id); };
        r.push_back(s);
    }
    {
        Setting s = makeSetting("pcie", "pcie", "3|4|5|6", SettingType::Choice);
        s.choices = {"3", "4", "5", "6"};
        s.help = "PCIe generation of the host link";
        s.defaultText = "4";
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog& c) -> std::optional<FieldError> {
            const PcieGeneration* p = c.pcieGeneration(std::stoi(textOf(v)));
            if (!p)
                return FieldError{"pcie", textOf(v), "a PCIe generation in the catalog"};
            sc.pcie = *p;
            return std::nullopt;
        };
        s.current = [](const Scenario& sc) -> V {
            return SettingValue(std::to_string(sc.pcie.gen));
        };
        r.push_back(s);
    }
    return r;
}

std::vector<Setting> storageSettings()
{
    std::vector<Setting> r;
    {
        Setting s =
            entry("nvme", "nvme", "ID", "NVMe tier: nvme-gen3, nvme-gen4, nvme-gen5", "nvme-gen4");
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog& c) -> std::optional<FieldError> {
            const StorageTier* t = c.storageTier(textOf(v));
            if (!t || t->kind != "nvme")
                return FieldError{"nvme", textOf(v),
                                  "an NVMe tier id (nvme-gen3, nvme-gen4, nvme-gen5)"};
            sc.nvme = *t;
            return std::nullopt;
        };
        s.current = [](const Scenario& sc) -> V { return SettingValue(sc.nvme.id); };
        r.push_back(s);
    }
    {
        Setting s = entry("sata", "sata", "ID", "SATA tier: sata", "sata");
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog& c) -> std::optional<FieldError> {
            const StorageTier* t = c.storageTier(textOf(v));
            if (!t)
                return FieldError{"sata", textOf(v), idList(c.storage)};
            sc.sata = *t;
            return std::nullopt;
        };
        s.current = [](const Scenario& sc) -> V { return SettingValue(sc.sata.id); };
        r.push_back(s);
    }
    {
        Setting s = entry("host_memory", "host-memory", "ID", "host memory, e.g. ddr5-4800-dual",
                          "ddr5-4800-dual");
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog& c) -> std::optional<FieldError> {
            const HostMemory* h = c.host(textOf(v));
            if (!h)
                return FieldError{"host_memory", textOf(v), idList(c.hostMemory)};
            sc.hostMemory = *h;
            return std::nullopt;
        };
        s.current = [](const Scenario& sc) -> V { return SettingValue(sc.hostMemory.id); };
        r.push_back(s);
    }
    return r;
}

} // namespace kvscope
