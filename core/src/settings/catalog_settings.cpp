// SPDX-License-Identifier: GPL-3.0-or-later
#include "settings/catalog_settings.h"

#include "kvscope/catalog/catalog.h"
#include "kvscope/formats/config_import.h"
#include "kvscope/formats/gguf.h"
#include "kvscope/formats/hub_id.h"
#include "kvscope/model/weights.h"
#include "kvscope/settings/scenario_defaults.h"
#include "scenario/field_access.h"

#include <algorithm>

namespace kvscope {

namespace {

using V = std::optional<SettingValue>;
using settings_detail::textOf;

bool looksLikePath(const std::string& value)
{
    return value.find('/') != std::string::npos || looksLikeGgufPath(value) ||
           (value.size() > 5 && value.compare(value.size() - 5, 5, ".json") == 0);
}

// The catalog format whose kernels a GGUF file's weights run with: its own type when the
// catalog has it (q4_k_m, q8_0, ...), the float of that name, else the K-quants' Q4_K_M.
const WeightFormat* catalogFormatLike(const ModelSpec& model, const Catalog& c)
{
    std::string type = model.fileWeights.fileType;
    if (type.rfind("mostly ", 0) == 0)
        type = type.substr(7);
    for (char& ch : type)
        ch = char(std::tolower(static_cast<unsigned char>(ch)));
    if (type == "f16" || type == "f32")
        type = "fp" + type.substr(1);
    const WeightFormat* like = c.weightFormat(type);
    return like ? like : c.weightFormat("q4_k_m");
}

WeightFormat formatOfFile(const ModelSpec& model, const Catalog& c)
{
    const WeightFormat* like = catalogFormatLike(model, c);
    return fileWeightFormat(model, like ? *like : WeightFormat{});
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
    s.checkpoint.clear();        // the user's checkpoint was of the model being replaced
    s.speculative.draft.reset(); // so were its drafters
    s.speculative.mtp = false;
    if (isHubReference(value)) // kvscope and kvscope-cli fetch these before the core sees them
        return FieldError{"model", value, "a Hugging Face model fetched by kvscope or kvscope-cli"};
    if (looksLikePath(value)) {
        auto model =
            looksLikeGgufPath(value) ? modelFromGgufFile(value) : modelFromConfigFile(value);
        if (!model)
            return model.error();
        s.model = std::move(model).value();
        s.model.imported = true;
        // A file that holds its weights, or a quantized checkpoint's config, decides their
        // format; --weights may still override.
        if (s.model.fileWeights.present()) {
            s.weights = formatOfFile(s.model, c);
        } else if (!s.model.checkpointWeights.empty()) {
            const WeightFormat* f = c.weightFormat(s.model.checkpointWeights);
            if (!f)
                return FieldError{"config.kvscope_checkpoint_weights", s.model.checkpointWeights,
                                  idList(c.weightFormats)};
            s.weights = *f;
        }
    } else if (const ModelSpec* m = c.model(value)) {
        // Weights "as the file holds them" mean nothing without the file: its nearest format.
        if (s.weights.id == kFileWeightFormatId) {
            const WeightFormat* like = catalogFormatLike(s.model, c);
            s.weights = like ? *like : s.weights;
        }
        s.model = *m;
    } else {
        return FieldError{"model", value,
                          "a model id (see `kvscope-cli list models`), a path to a config.json or "
                          "a GGUF file"};
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
        applyGpu(s, std::move(custom), c);
    } else if (const GpuSpec* g = c.gpu(value)) {
        applyGpu(s, *g, c);
    } else {
        return FieldError{"gpu", value,
                          "a GPU id (see `kvscope-cli list gpus`) or a path to a GPU JSON file"};
    }
    return std::nullopt;
}

// What runs on what: the model (a preset or a file) and the GPU (a catalog id or a file).
std::vector<Setting> modelAndGpuEntries()
{
    std::vector<Setting> r;
    {
        Setting s = entry("model", "model", "ID|hf:ORG/NAME|CONFIG.json|FILE.gguf",
                          "model preset id, hf:ORG/NAME[@REVISION], a Hugging Face config.json, or "
                          "a GGUF model file",
                          "llama-2-7b");
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Model");
        s.choosesEntry = true;
        s.apply = applyModel;
        // An imported model is written whole by the scenario file, not as an id.
        s.current = [](const Scenario& sc) -> V {
            return sc.model.imported ? std::nullopt : V(SettingValue(sc.model.id));
        };
        r.push_back(std::move(s));
    }
    {
        Setting s = entry("gpu", "gpu", "ID|GPU.json",
                          "GPU catalog id, or a GPU JSON file of the catalog's schema", "rtx-4090");
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "GPU");
        s.choosesEntry = true;
        s.apply = applyGpuEntry;
        s.current = [](const Scenario& sc) -> V {
            return sc.gpu.custom ? std::nullopt : V(SettingValue(sc.gpu.id));
        };
        r.push_back(std::move(s));
    }
    return r;
}

// The engine, and the release and generation whose memory rules apply.
std::vector<Setting> engineEntries()
{
    std::vector<Setting> r;
    {
        Setting s =
            entry("engine", "engine", "ID",
                  "engine profile: hf, hf-static, hf-offloaded, vllm, llamacpp, tgi, sglang", "hf");
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Engine");
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
        r.push_back(std::move(s));
    }
    {
        Setting s = entry("engine_version", "engine-version", "X.Y.Z",
                          "the engine release whose memory rules apply (vLLM: 0.2.0 to 0.28.0; "
                          "llama.cpp: build b1 to b10573)",
                          "the latest release modelled");
        s.choosesEntry = true;
        s.apply = [](Scenario& sc, const SettingValue& v, const Catalog& c) {
            sc.engineVersion = textOf(v);
            return applyEngineRelease(sc, c);
        };
        s.current = [](const Scenario& sc) -> V {
            return sc.engineVersion.empty() ? std::nullopt : V(SettingValue(sc.engineVersion));
        };
        r.push_back(std::move(s));
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
        s.current = KVSCOPE_OPTIONAL_GETTER(vllmUseV1);
        r.push_back(std::move(s));
    }
    return r;
}

// The user's own checkpoint in the chosen weights, for the launch command (chooseCheckpoint()).
// After the model and weights: choosing either forgets it.
Setting checkpointSetting()
{
    Setting s = entry("checkpoint", "checkpoint", "REPO|PATH",
                      "the checkpoint the launch command loads, in the chosen weights: a Hugging "
                      "Face repository (ORG/NAME, or ORG/NAME:TYPE for a GGUF repository) or a "
                      "local path",
                      "one kvscope lists for the model and weights");
    s.place = ControlPlace::EngineDrawer;
    s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Checkpoint");
    s.texts.unsetText = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "as kvscope lists it");
    s.texts.toolTip = KVSCOPE_TRANSLATE_NOOP(
        "kvscope::Setting", "The checkpoint the launch command loads, in the chosen weights: a "
                            "Hugging Face repository or a local path.");
    s.apply = [](Scenario& sc, const SettingValue& v, const Catalog&) -> std::optional<FieldError> {
        const std::string& text = textOf(v);
        const bool printable = std::all_of(
            text.begin(), text.end(), [](unsigned char ch) { return ch >= 0x20 && ch != 0x7f; });
        if (text.size() > 1024 || !printable)
            return FieldError{"checkpoint", text,
                              "a repository or path of at most 1,024 printable characters"};
        sc.checkpoint = text;
        return std::nullopt;
    };
    s.current = [](const Scenario& sc) -> V {
        return sc.checkpoint.empty() ? std::nullopt : V(SettingValue(sc.checkpoint));
    };
    s.clear = [](Scenario& sc) { sc.checkpoint.clear(); };
    return s;
}

// A catalog model that drafts tokens for the scenario's model (speculative decoding, vLLM method
// "draft_model"): the window lists those of the same vocabulary.
Setting draftModelSetting()
{
    Setting s = entry("draft_model", "draft-model", "ID",
                      "speculative decoding: a catalog model of the same vocabulary that drafts "
                      "tokens (vLLM --speculative-config method draft_model); its weights and KV "
                      "are loaded beside the model's",
                      "none");
    s.place = ControlPlace::EngineDrawer;
    s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Draft model");
    s.texts.unsetText = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "none");
    s.apply = [](Scenario& sc, const SettingValue& v,
                 const Catalog& c) -> std::optional<FieldError> {
        const ModelSpec* draft = c.model(textOf(v));
        if (!draft)
            return FieldError{"draft_model", textOf(v),
                              "a model id from the catalog (list models)"};
        sc.speculative.draft = std::make_shared<const ModelSpec>(*draft);
        return std::nullopt;
    };
    s.current = [](const Scenario& sc) -> V {
        return sc.speculative.draft ? V(SettingValue(sc.speculative.draft->id)) : std::nullopt;
    };
    s.clear = [](Scenario& sc) { sc.speculative.draft.reset(); };
    s.offered = [](const Scenario& sc, const Catalog& c) {
        std::vector<std::string> ids;
        for (const ModelSpec& m : c.models)
            if (m.vocabSize == sc.model.vocabSize && m.id != sc.model.id &&
                countParameters(m).total() < countParameters(sc.model).total())
                ids.push_back(m.id);
        return ids;
    };
    return s;
}

// A machine profile the user saved (kvscope-cli check-log LOG --save-profile NAME): its fitted
// factors on the GPU, engine and release it was fitted on. After the entries, so the engine's
// defaults do not replace what it sets.
Setting profileSetting()
{
    Setting s = entry("profile", "profile", "NAME",
                      "a machine profile fitted from a start-up log (check-log LOG --save-profile "
                      "NAME; $XDG_DATA_HOME/kvscope/profiles): its runtime overhead, bytes per "
                      "activation and memory bandwidth efficiency, on the GPU, engine and release "
                      "it was fitted on",
                      "none");
    s.place = ControlPlace::EngineDrawer;
    s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Machine profile");
    s.texts.unsetText = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "none");
    s.texts.toolTip = KVSCOPE_TRANSLATE_NOOP(
        "kvscope::Setting", "A machine profile fitted from this machine's start-up log (Tools > "
                            "Check a start-up log > Save as machine profile). The list holds "
                            "the profiles fitted on this GPU, engine and release.");
    s.apply = [](Scenario& sc, const SettingValue& v,
                 const Catalog& c) -> std::optional<FieldError> {
        const std::string& name = textOf(v);
        const MachineProfile* profile = c.profile(name);
        if (!profile) {
            std::string names;
            for (const MachineProfile& p : c.profiles)
                names += (names.empty() ? "" : ", ") + p.id;
            return FieldError{"profile", name,
                              names.empty() ? "a saved machine profile; none is saved yet "
                                              "(check-log LOG --save-profile NAME)"
                                            : "a saved machine profile: " + names};
        }
        applyProfile(sc, *profile);
        return std::nullopt;
    };
    s.current = [](const Scenario& sc) -> V {
        return sc.profile ? V(SettingValue(sc.profile->id)) : std::nullopt;
    };
    s.clear = [](Scenario& sc) { sc.profile.reset(); };
    s.offered = [](const Scenario& sc, const Catalog& c) {
        std::vector<std::string> names;
        for (const MachineProfile& p : c.profiles)
            if (profileHoldsFor(p, sc))
                names.push_back(p.id);
        return names;
    };
    return s;
}

// The element types of the weights and of the KV cache.
std::vector<Setting> numberFormatEntries()
{
    std::vector<Setting> r;
    {
        Setting s = entry("weights", "weights", "FORMAT",
                          "weight format: fp16, bf16, fp8, int8, gptq-int4, q4_k_m, ...", "fp16");
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Weights");
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog& c) -> std::optional<FieldError> {
            if (textOf(v) != sc.weights.id)
                sc.checkpoint.clear(); // it held the weights being replaced
            if (textOf(v) == kFileWeightFormatId && sc.model.fileWeights.present()) {
                sc.weights = formatOfFile(sc.model, c);
                return std::nullopt;
            }
            const WeightFormat* f = c.weightFormat(textOf(v));
            if (!f)
                return FieldError{"weights", textOf(v),
                                  idList(c.weightFormats) +
                                      (sc.model.fileWeights.present()
                                           ? std::string(", or file (as the model file holds them)")
                                           : std::string())};
            sc.weights = *f;
            return std::nullopt;
        };
        s.current = [](const Scenario& sc) -> V { return SettingValue(sc.weights.id); };
        r.push_back(std::move(s));
    }
    {
        Setting s = entry("kv_dtype", "kv-dtype", "DTYPE",
                          "KV cache element type: fp16, bf16, fp8, int8, q8_0, q4_0", "fp16");
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "KV cache dtype");
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog& c) -> std::optional<FieldError> {
            const KvDtype* d = c.kvDtype(textOf(v));
            if (!d)
                return FieldError{"kv_dtype", textOf(v), idList(c.kvDtypes)};
            sc.kvDtype = *d;
            return std::nullopt;
        };
        s.current = [](const Scenario& sc) -> V { return SettingValue(sc.kvDtype.id); };
        r.push_back(std::move(s));
    }
    r.push_back(checkpointSetting());
    r.push_back(profileSetting());
    r.push_back(draftModelSetting());
    return r;
}

// The PCIe generation of the host link, and the network between nodes.
std::vector<Setting> hostLinkEntries()
{
    std::vector<Setting> r;
    {
        Setting s = makeSetting("pcie", "pcie", "3|4|5|6", SettingType::Choice);
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "PCIe generation");
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
        r.push_back(std::move(s));
    }
    {
        Setting s = makeSetting("node_link", "node-link", "ID", SettingType::Choice);
        s.choices = {"ib-xdr", "ib-ndr", "ib-hdr", "roce-400g"};
        s.defaultText = "ib-ndr";
        s.help = "the network between nodes (interconnects.json node_links)";
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog& c) -> std::optional<FieldError> {
            const NodeLink* link = c.nodeLink(textOf(v));
            if (!link)
                return FieldError{"node_link", textOf(v), "a network in the catalog's node_links"};
            sc.nodeLink = *link;
            return std::nullopt;
        };
        s.current = [](const Scenario& sc) -> V { return SettingValue(sc.nodeLink.id); };
        s.place = ControlPlace::EngineDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Network between nodes");
        s.texts.choices = {KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "InfiniBand XDR (800 Gb/s)"),
                           KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "InfiniBand NDR (400 Gb/s)"),
                           KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "InfiniBand HDR (200 Gb/s)"),
                           KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "RoCE v2 (400 GbE)")};
        r.push_back(std::move(s));
    }
    return r;
}

} // namespace

std::vector<Setting> catalogEntrySettings()
{
    std::vector<Setting> r;
    appendSettings(r, modelAndGpuEntries());
    appendSettings(r, engineEntries());
    appendSettings(r, numberFormatEntries());
    appendSettings(r, hostLinkEntries());
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
