// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/catalog/catalog.h"
#include "kvscope/catalog/machine_profile_json.h"

#include "catalog/catalog_tables.h"

#include "kvscope/catalog/engine_releases_json.h"
#include "kvscope/formats/checked_json.h"
#include "kvscope/formats/config_import.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <set>

#include <nlohmann/json.hpp>

#ifndef KVSCOPE_BUILD_DATA_DIR
#define KVSCOPE_BUILD_DATA_DIR ""
#endif

namespace kvscope {

namespace fs = std::filesystem;

namespace {

using catalog_tables::forEachEntry;
using catalog_tables::forEachJsonEntry;
using catalog_tables::loadAllReduceLatencies;
using catalog_tables::loadAllToAll;
using catalog_tables::loadGpuPrices;
using catalog_tables::loadNodeLinks;
using catalog_tables::loadPcieGenerations;

template <typename T> const T* byId(const std::vector<T>& items, const std::string& id)
{
    auto it =
        std::find_if(items.begin(), items.end(), [&](const T& item) { return item.id == id; });
    return it == items.end() ? nullptr : &*it;
}

std::vector<fs::path> jsonFilesIn(const fs::path& dir)
{
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".json" && it->is_regular_file(ec))
            files.push_back(it->path());
    std::sort(files.begin(), files.end());
    return files;
}

template <typename T> void addUnlessKnown(std::vector<T>& items, T item)
{
    if (!item.id.empty() && !byId(items, item.id))
        items.push_back(std::move(item));
}

// Entry `index` of a weight format's expert_layouts; a problem is recorded on `format`.
std::optional<ExpertLayout> expertLayoutFrom(const nlohmann::json& item, size_t index,
                                             JsonReader& format)
{
    const std::string key = "expert_layouts[" + std::to_string(index) + "]";
    if (!item.is_object()) {
        format.fail(key, describeJson(item), "an object");
        return std::nullopt;
    }
    JsonReader r(item, "");
    r.require({"min_compute_capability"});
    r.require({"max_compute_capability"});
    ExpertLayout l;
    l.minComputeCapability = r.number({"min_compute_capability"}, 1, 20, 0);
    l.maxComputeCapability = r.number({"max_compute_capability"}, 1, 20, 0);
    l.intermediateMultiple = r.integer({"intermediate_multiple"}, 1, 4096, 1);
    l.hiddenMultiple = r.integer({"hidden_multiple"}, 1, 4096, 1);
    l.scaleCopies = int(r.integer({"scale_copies"}, 1, 2, 1));
    if (const auto& e = r.error()) {
        format.fail(key + "." + e->field, e->value, e->accepted);
        return std::nullopt;
    }
    return l;
}

void loadWeightFormats(const fs::path& dir, Catalog& c)
{
    forEachEntry(dir / "weight_formats.json", "formats", c.problems, [&](JsonReader& r) {
        WeightFormat f;
        f.id = r.text({"id"}, "");
        f.name = r.text({"name"}, f.id);
        f.family = r.text({"family"}, "");
        f.bitsPerWeight = r.number({"bits_per_weight"}, 0.5, 64, 16);
        f.embeddingBits = r.number({"embedding_bits"}, 0.5, 64, f.bitsPerWeight);
        f.expertsOnly = r.boolean({"experts_only"}, false);
        f.groupSize = int(r.integer({"group_size"}, 0, 1 << 20, 0));
        f.dequantizes = r.boolean({"dequantizes"}, false);
        f.compute = r.text({"compute"}, "fp16");
        f.kernelEfficiency = r.number({"kernel_efficiency"}, 0.01, 1, 1);
        f.source = r.text({"source"}, "");
        if (const nlohmann::json* layouts = r.find({"expert_layouts"})) {
            if (!f.expertsOnly)
                r.fail("expert_layouts", describeJson(*layouts), "only with experts_only true");
            else if (!layouts->is_array())
                r.fail("expert_layouts", describeJson(*layouts), "a list of layouts");
            else
                for (size_t i = 0; i < layouts->size(); ++i)
                    if (auto layout = expertLayoutFrom((*layouts)[i], i, r))
                        f.expertLayouts.push_back(*layout);
        }
        if (!r.error())
            addUnlessKnown(c.weightFormats, f);
    });
}

void loadKvDtypes(const fs::path& dir, Catalog& c)
{
    forEachEntry(dir / "kv_dtypes.json", "dtypes", c.problems, [&](JsonReader& r) {
        KvDtype d;
        d.id = r.text({"id"}, "");
        d.name = r.text({"name"}, d.id);
        d.bitsPerElement = r.number({"bits_per_element"}, 0.5, 64, 16);
        d.scaleOverheadBits = r.number({"scale_overhead_bits"}, 0, 64, 0);
        d.source = r.text({"source"}, "");
        if (!r.error())
            addUnlessKnown(c.kvDtypes, d);
    });
}

// The batch defaults an engine uses on large GPUs (vLLM raises them from 70 GiB).
void readLargeGpuTier(JsonReader& r, EngineProfile& e)
{
    if (const nlohmann::json* tier = r.find({"large_gpu"}); tier && !tier->is_object()) {
        r.fail("large_gpu", describeJson(*tier), "an object");
    } else if (tier) {
        JsonReader large(*tier, "");
        large.require({"min_memory_gib"});
        e.largeGpuMinGiB = large.number({"min_memory_gib"}, 1, limits::maxMemoryGiB, 0);
        e.largeGpuExcludedName = large.text({"excluded_name"}, "");
        e.largeGpuMaxNumSeqs =
            large.integer({"max_num_seqs"}, 1, limits::maxBatch, e.baseMaxNumSeqs);
        e.largeGpuPrefillChunkTokens = large.integer({"max_num_batched_tokens"}, 1,
                                                     limits::maxContext, e.basePrefillChunkTokens);
        if (const auto& error = large.error())
            r.fail("large_gpu." + error->field, error->value, error->accepted);
    }
}

// What the engine runs: weight formats, KV dtypes and placements, GPU vendors.
// How the engine runs a decode step: compiled into CUDA graphs, or launched eagerly with the
// host's own time per layer (Python dispatch).
void readDecodeStep(JsonReader& r, EngineProfile& e)
{
    const nlohmann::json* step = r.find({"decode_step"});
    if (!step || !step->is_object())
        return;
    JsonReader sr(*step, "");
    e.pythonDispatchUsPerLayer = sr.number({"python_dispatch_us_per_layer"}, 0, 1e5, 0);
    e.compiled = sr.boolean({"compiled"}, false);
    e.customAllReduce = sr.boolean({"custom_all_reduce"}, false);
    e.stepOverheadUs = sr.number({"step_overhead_us"}, 0, 1e6, 0);
    e.moeLayerUs = sr.number({"moe_layer_us"}, 0, 1e5, 0);
    e.metalStepOverheadUs = sr.number({"metal_step_overhead_us"}, 0, 1e6, 0);
    e.hbmLayerUs = sr.number({"hbm_layer_us"}, 0, 1e5, 0);
    e.metalMoeLayerUs = sr.number({"metal_moe_layer_us"}, 0, 1e5, 0);
    if (const auto& error = sr.error())
        r.fail("decode_step." + error->field, error->value, error->accepted);
}

void readEngineSupports(JsonReader& r, EngineProfile& e)
{
    if (const nlohmann::json* supports = r.find({"supports"}); supports && supports->is_object()) {
        JsonReader sr(*supports, "");
        e.supportedWeights = sr.textList({"weights"});
        e.supportedKvDtypes = sr.textList({"kv_dtypes"});
        e.supportedKvPlacements = sr.textList({"kv_placements"});
        e.supportedVendors = sr.textList({"vendors"});
        if (const auto& error = sr.error())
            r.fail("supports." + error->field, error->value, error->accepted);
    }
}

void loadEngines(const fs::path& dir, Catalog& c)
{
    forEachEntry(dir / "engines.json", "engines", c.problems, [&](JsonReader& r) {
        EngineProfile e;
        e.id = r.text({"id"}, "");
        e.name = r.text({"name"}, e.id);
        e.shortName = r.text({"short_name"}, e.name);
        e.family = engineFamilyFromId(r.text({"family"}, e.id));
        e.memoryFraction = r.number({"memory_fraction"}, 0.01, 1, 1);
        e.runtimeOverheadMiB = r.number({"runtime_overhead_mib"}, 0, 1e7, 0);
        e.cudaGraphMiB = r.number({"cuda_graph_mib"}, 0, 1e7, 0);
        readDecodeStep(r, e);
        e.tensorParallelOverheadMiB = r.number({"tensor_parallel_overhead_mib"}, 0, 1e7, 0);
        e.kvBlockTokens = r.integer({"kv_block_tokens"}, 1, 1 << 20, 1);
        e.preallocatesKv = r.boolean({"preallocates_kv"}, false);
        e.flashAttention = r.boolean({"flash_attention"}, true);
        e.prefillChunkTokens = r.integer({"prefill_chunk_tokens"}, 0, limits::maxContext, 0);
        const std::string placement = r.text({"default_kv_placement"}, "gpu");
        if (!parseKvPlacement(placement, &e.defaultKvPlacement))
            r.fail("default_kv_placement", placement, "gpu, cpu, nvme or sata");
        e.gpuResidentKvLayers = r.integer({"gpu_resident_kv_layers"}, 0, 100'000, 0);
        e.maxNumSeqs = r.integer({"max_num_seqs"}, 0, limits::maxBatch, 0);
        e.samplerLogitCopies = r.number({"sampler_logit_copies"}, 1, 64, 1);
        e.classicSamplerLogitCopies = r.number({"classic_sampler_logit_copies"}, 1, 64, 0);
        e.baseMaxNumSeqs = e.maxNumSeqs;
        e.basePrefillChunkTokens = e.prefillChunkTokens;
        readLargeGpuTier(r, e);
        e.layerSplit = r.boolean({"layer_split"}, false);
        if (const nlohmann::json* rule = r.find({"prefill_default"}))
            readPrefillDefault(*rule, e.prefillDefault, r);
        if (const nlohmann::json* rule = r.find({"reserved_memory"}))
            readReservedMemory(*rule, e.reservedMemory, r);
        if (const nlohmann::json* rule = r.find({"serving"}))
            readServingPolicy(*rule, e.serving, r);
        if (const nlohmann::json* cache = r.find({"prefix_cache"}))
            readPrefixCache(*cache, e.prefixCache, r);
        if (const nlohmann::json* layout = r.find({"kv_layout"}))
            readKvLayout(*layout, e.kvLayout, r);
        readEngineSupports(r, e);
        if (const nlohmann::json* releases = r.find({"releases"}))
            readEngineReleases(*releases, e.releases, r);
        e.source = r.text({"source"}, "");
        if (!r.error())
            addUnlessKnown(c.engines, e);
    });
}

void loadStorageTiers(const fs::path& dir, Catalog& c)
{
    forEachEntry(dir / "storage.json", "tiers", c.problems, [&](JsonReader& r) {
        StorageTier t;
        t.id = r.text({"id"}, "");
        t.name = r.text({"name"}, t.id);
        t.kind = r.text({"kind"}, "nvme");
        t.readGBps = r.number({"read_gb_per_s"}, 0.001, limits::maxRateGBps, 0);
        t.writeGBps = r.number({"write_gb_per_s"}, 0, limits::maxRateGBps, 0);
        t.source = r.text({"source"}, "");
        if (!r.error())
            addUnlessKnown(c.storage, t);
    });
}

void loadHostMemory(const fs::path& dir, Catalog& c)
{
    forEachEntry(dir / "host_memory.json", "configs", c.problems, [&](JsonReader& r) {
        HostMemory h;
        h.id = r.text({"id"}, "");
        h.name = r.text({"name"}, h.id);
        h.bandwidthGBps = r.number({"bandwidth_gb_per_s"}, 0.001, limits::maxRateGBps, 0);
        h.source = r.text({"source"}, "");
        if (!r.error())
            addUnlessKnown(c.hostMemory, h);
    });
}

void loadEfficiencyFactors(const fs::path& dir, Catalog& c)
{
    forEachEntry(dir / "efficiency.json", "factors", c.problems, [&](JsonReader& r) {
        EfficiencyFactor f;
        f.id = r.text({"id"}, "");
        f.name = r.text({"name"}, f.id);
        f.value = r.number({"value"}, 0, 1e6, 0);
        f.unit = r.text({"unit"}, "");
        f.source = r.text({"source"}, "");
        double* field = efficiencyField(c.efficiencyDefaults, f.id);
        if (!r.error() && field && !byId(c.efficiencyFactors, f.id)) {
            *field = f.value;
            c.efficiencyFactors.push_back(f);
        }
    });
}

// The first directory's table wins, as for every other table; one of nothing usable does not.
void loadSpeedBands(const fs::path& dir, Catalog& c)
{
    if (c.speedBands || !fs::exists(dir / "speed_bands.json"))
        return;
    auto json = readJsonFile(dir / "speed_bands.json", "speed_bands.json");
    if (!json) {
        c.problems.push_back((dir / "speed_bands.json").string() + ": " + json.error().message());
        return;
    }
    SpeedBands bands = speedBandsFromJson(*json, (dir / "speed_bands.json").string(), c.problems);
    if (!bands.empty())
        c.speedBands = std::make_shared<const SpeedBands>(std::move(bands));
}

// One loader per table; each adds the entries an earlier directory did not.
void loadTables(const fs::path& dir, Catalog& c)
{
    loadWeightFormats(dir, c);
    loadKvDtypes(dir, c);
    loadEngines(dir, c);
    loadGpuPrices(dir, c);
    loadPcieGenerations(dir, c);
    loadAllReduceLatencies(dir, c);
    loadAllToAll(dir, c);
    loadNodeLinks(dir, c);
    loadStorageTiers(dir, c);
    loadHostMemory(dir, c);
    loadEfficiencyFactors(dir, c);
    loadSpeedBands(dir, c);
}

} // namespace

SpeedBands speedBandsFromJson(const nlohmann::json& json, const std::string& name,
                              std::vector<std::string>& problems)
{
    SpeedBands bands;
    forEachJsonEntry(json, name, "bands", problems, [&](JsonReader& r) {
        const std::string id = r.text({"class"}, "");
        const std::string figureId = r.text({"figure"}, "decode");
        const std::optional<SpeedFigure> figure = speedFigureFromId(figureId);
        if (!figure)
            r.fail("figure", "\"" + figureId + "\"", "decode, tpot or ttft");
        SpeedBand b;
        b.low = r.number({"low"}, -1, 100, 0);
        b.high = r.number({"high"}, -1, 100, 0);
        b.cases = int(r.integer({"cases"}, 1, 1'000'000, 1));
        if (id.empty())
            r.fail("class", "", "a speed class id such as vllm/datacenter/dense/16-bit");
        else if (b.low > b.high)
            r.fail("low", std::to_string(b.low), "a value no greater than high");
        if (!r.error())
            bands[speedBandKey(*figure, id)] = b;
    });
    return bands;
}

const ModelSpec* Catalog::model(const std::string& id) const
{
    return byId(models, id);
}
const GpuSpec* Catalog::gpu(const std::string& id) const
{
    return byId(gpus, id);
}
const MachineProfile* Catalog::profile(const std::string& id) const
{
    return byId(profiles, id);
}
const WeightFormat* Catalog::weightFormat(const std::string& id) const
{
    return byId(weightFormats, id);
}
const KvDtype* Catalog::kvDtype(const std::string& id) const
{
    return byId(kvDtypes, id);
}
const EngineProfile* Catalog::engine(const std::string& id) const
{
    return byId(engines, id);
}
const StorageTier* Catalog::storageTier(const std::string& id) const
{
    return byId(storage, id);
}
const HostMemory* Catalog::host(const std::string& id) const
{
    return byId(hostMemory, id);
}

const PcieGeneration* Catalog::pcieGeneration(int gen) const
{
    auto it = std::find_if(pcie.begin(), pcie.end(), [&](const auto& p) { return p.gen == gen; });
    return it == pcie.end() ? nullptr : &*it;
}

const NodeLink* Catalog::nodeLink(const std::string& id) const
{
    return byId(nodeLinks, id);
}

fs::path userDataDir()
{
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
        return fs::path(xdg) / "kvscope";
    if (const char* home = std::getenv("HOME"); home && *home)
        return fs::path(home) / ".local" / "share" / "kvscope";
    return {};
}

fs::path userProfilePath(const std::string& name)
{
    return userDataDir() / "profiles" / (name + ".json");
}

std::vector<fs::path> defaultDataDirs(const fs::path& executable)
{
    std::vector<fs::path> dirs;
    if (const char* env = std::getenv("KVSCOPE_DATA_DIR"); env && *env)
        dirs.emplace_back(env);
    if (fs::path user = userDataDir(); !user.empty())
        dirs.push_back(std::move(user));
    if (!executable.empty()) {
        std::error_code ec;
        // Started through PATH, argv[0] is a bare name that would resolve against the working
        // directory; the kernel's link names the installed file (/usr/bin/kvscope).
        fs::path located = executable;
        if (!executable.has_parent_path())
            if (fs::path self = fs::read_symlink("/proc/self/exe", ec); !ec)
                located = std::move(self);
        const fs::path exe = fs::weakly_canonical(located, ec);
        dirs.push_back(exe.parent_path().parent_path() / "share" / "kvscope");
    }
    if (*KVSCOPE_BUILD_DATA_DIR)
        dirs.emplace_back(KVSCOPE_BUILD_DATA_DIR);
    return dirs;
}

namespace {

// Checkpoints name models and formats that may come from a later directory, so they are read
// per directory and attached once everything is loaded.
struct ModelCheckpoint
{
    std::string model;
    PublishedCheckpoint checkpoint;
};

void readCheckpoints(const fs::path& file, std::vector<ModelCheckpoint>& out,
                     std::vector<std::string>& problems)
{
    std::error_code ec;
    if (!fs::exists(file, ec))
        return; // a user's catalog directory need not list checkpoints
    forEachEntry(file, "checkpoints", problems, [&](JsonReader& r) {
        r.require({"model"});
        r.require({"format"});
        r.require({"repo"});
        r.require({"source"});
        ModelCheckpoint m;
        m.model = r.text({"model"}, "");
        m.checkpoint.format = r.text({"format"}, "");
        m.checkpoint.repo = r.text({"repo"}, "");
        m.checkpoint.ggufTypes = r.textList({"gguf_types"});
        m.checkpoint.ggufFilePattern = r.text({"file_pattern"}, "");
        m.checkpoint.oneGgufType = r.boolean({"one_type"}, false);
        m.checkpoint.instructSibling = r.text({"variant"}, "same") == "instruct";
        m.checkpoint.source = r.text({"source"}, "");
        if (m.checkpoint.format == "gguf" && m.checkpoint.ggufTypes.empty())
            r.fail("gguf_types", "[]", "the GGUF type ids the repository holds");
        if (!r.error())
            out.push_back(std::move(m));
    });
}

// Why the catalog cannot take a checkpoint's format ids, or "".
std::string formatProblem(const Catalog& c, const ModelCheckpoint& m)
{
    const bool ggufRepo = m.checkpoint.format == "gguf";
    const std::vector<std::string> formats =
        ggufRepo ? m.checkpoint.ggufTypes : std::vector<std::string>{m.checkpoint.format};
    for (const std::string& id : formats) {
        const WeightFormat* w = c.weightFormat(id);
        // GGUF files hold ggml's types, MXFP4 among them (gpt-oss's experts).
        const bool ggmlType = w && (w->family == "gguf" || w->family == "mx");
        std::string why;
        if (!w)
            why = "no weight format";
        else if (ggufRepo && !ggmlType)
            why = "not a GGUF type";
        else if (!ggufRepo && w->family == "gguf")
            why = "a GGUF type: list it under format \"gguf\"";
        if (!why.empty()) {
            std::string problem = "\"" + id + "\": ";
            return problem += why;
        }
    }
    return "";
}

std::string checkpointProblem(const Catalog& c, const ModelCheckpoint& m)
{
    std::string problem =
        c.model(m.model) ? formatProblem(c, m) : "no catalog model \"" + m.model + "\"";
    if (problem.empty())
        return problem;
    return "checkpoints.json: " + m.checkpoint.repo + ": " + problem;
}

void attachCheckpoints(Catalog& c, std::vector<ModelCheckpoint>& pending)
{
    for (ModelCheckpoint& m : pending) {
        if (std::string problem = checkpointProblem(c, m); !problem.empty()) {
            c.problems.push_back(std::move(problem));
            continue;
        }
        for (ModelSpec& model : c.models)
            if (model.id == m.model)
                model.checkpoints.push_back(std::move(m.checkpoint));
    }
}

} // namespace

Catalog loadCatalog(const std::vector<fs::path>& dataDirs)
{
    std::vector<ModelCheckpoint> checkpoints;
    Catalog c;
    std::set<fs::path> seen;
    for (const fs::path& dir : dataDirs) {
        std::error_code ec;
        const fs::path canonical = fs::weakly_canonical(dir, ec);
        if (ec || !fs::is_directory(canonical, ec) || !seen.insert(canonical).second)
            continue;
        for (const fs::path& file : jsonFilesIn(canonical / "models")) {
            auto json = readJsonFile(file, "model");
            auto model = json ? modelFromConfig(*json, file.stem().string())
                              : Expected<ModelSpec>(json.error());
            if (model)
                addUnlessKnown(c.models, std::move(model).value());
            else
                c.problems.push_back(file.string() + ": " + model.error().message());
        }
        for (const fs::path& file : jsonFilesIn(canonical / "gpus")) {
            auto gpu = gpuFromFile(file);
            if (gpu)
                addUnlessKnown(c.gpus, std::move(gpu).value());
            else
                c.problems.push_back(file.string() + ": " + gpu.error().message());
        }
        for (const fs::path& file : jsonFilesIn(canonical / "profiles")) {
            auto json = readJsonFile(file, "profile");
            auto profile =
                json ? machineProfileFromJson(*json) : Expected<MachineProfile>(json.error());
            if (profile && profile->id != file.stem().string())
                profile = FieldError{"profile.id", profile->id,
                                     "the file's name, " + file.stem().string()};
            if (profile)
                addUnlessKnown(c.profiles, std::move(profile).value());
            else
                c.problems.push_back(file.string() + ": " + profile.error().message());
        }
        if (fs::is_directory(canonical / "catalog", ec)) {
            loadTables(canonical / "catalog", c);
            readCheckpoints(canonical / "catalog" / "checkpoints.json", checkpoints, c.problems);
        }
    }
    attachCheckpoints(c, checkpoints);
    catalog_tables::attachPrices(c);
    std::sort(c.weightFormats.begin(), c.weightFormats.end(),
              [](const auto& a, const auto& b) { return a.bitsPerWeight > b.bitsPerWeight; });
    std::sort(c.pcie.begin(), c.pcie.end(),
              [](const auto& a, const auto& b) { return a.gen < b.gen; });
    return c;
}

} // namespace kvscope
