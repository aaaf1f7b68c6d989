// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"
#include "cli_commands.h"

#include "kvscope/base/number_format.h"
#include "kvscope/formats/config_import.h"
#include "kvscope/settings/settings_registry.h"

#include <ostream>

#include <nlohmann/json.hpp>

namespace kvscope::cli {

namespace {

struct Listing
{
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    nlohmann::json json = nlohmann::json::array();
};

Listing listModels(const Catalog& c)
{
    Listing l{{"id", "name", "layers", "heads", "kv heads", "head_dim", "attention", "max context"},
              {}};
    for (const ModelSpec& m : c.models) {
        const std::string kind = attentionKindId(m.attentionKind());
        l.rows.push_back({m.id, m.name, std::to_string(m.layers), std::to_string(m.queryHeads),
                          std::to_string(m.kvHeads), std::to_string(m.headDim), kind,
                          m.maxContext > 0 ? formatInteger(m.maxContext) : "-"});
        nlohmann::json j = modelToConfig(m);
        j["attention"] = kind;
        l.json.push_back(j);
    }
    return l;
}

Listing listGpus(const Catalog& c)
{
    Listing l{{"id", "name", "group", "memory", "bandwidth", "FP16 TFLOPS", "PCIe"}, {}};
    for (const GpuSpec& g : c.gpus) {
        l.rows.push_back({g.id, g.name, g.group, formatNumber(g.memoryGiB, 0) + " GiB",
                          formatRate(g.bandwidthGBps), formatNumber(g.fp16Tflops, 1),
                          g.pcieGen > 0
                              ? std::to_string(g.pcieGen) + ".0 x" + std::to_string(g.pcieLanes)
                              : "unified"});
        l.json.push_back(gpuToJson(g));
    }
    return l;
}

Listing listQuants(const Catalog& c)
{
    Listing l{{"id", "name", "bits/weight", "embedding bits", "group"}, {}};
    for (const WeightFormat& f : c.weightFormats) {
        l.rows.push_back({f.id, f.name, formatNumber(f.bitsPerWeight, 3),
                          formatNumber(f.embeddingBits, 3),
                          f.groupSize ? std::to_string(f.groupSize) : "-"});
        l.json.push_back({{"id", f.id},
                          {"name", f.name},
                          {"family", f.family},
                          {"bits_per_weight", f.bitsPerWeight},
                          {"embedding_bits", f.embeddingBits},
                          {"group_size", f.groupSize},
                          {"compute", f.compute},
                          {"source", f.source}});
    }
    return l;
}

Listing listKvDtypes(const Catalog& c)
{
    Listing l{{"id", "name", "bits/element", "of which scales"}, {}};
    for (const KvDtype& d : c.kvDtypes) {
        l.rows.push_back({d.id, d.name, formatNumber(d.bitsPerElement, 3),
                          formatNumber(d.scaleOverheadBits, 3)});
        l.json.push_back({{"id", d.id},
                          {"name", d.name},
                          {"bits_per_element", d.bitsPerElement},
                          {"scale_overhead_bits", d.scaleOverheadBits},
                          {"source", d.source}});
    }
    return l;
}

Listing listEngines(const Catalog& c)
{
    Listing l{{"id", "name", "memory fraction", "overhead", "KV block", "KV default"}, {}};
    for (const EngineProfile& e : c.engines) {
        // SGLang's share follows the GPU and layout (its reserve rule); its fixed figure is only
        // the fallback for a GPU of unknown memory.
        const bool byGpu = e.reservedMemory.present();
        l.rows.push_back({e.id, e.name, byGpu ? "by GPU" : formatNumber(e.memoryFraction, 2),
                          formatNumber(e.runtimeOverheadMiB + e.cudaGraphMiB, 0) + " MiB",
                          std::to_string(e.kvBlockTokens) + " tokens",
                          kvPlacementId(e.defaultKvPlacement)});
        l.json.push_back({{"id", e.id},
                          {"name", e.name},
                          {"memory_fraction", e.memoryFraction},
                          {"memory_fraction_by_gpu", byGpu}, // else the fallback above
                          {"runtime_overhead_mib", e.runtimeOverheadMiB},
                          {"cuda_graph_mib", e.cudaGraphMiB},
                          {"kv_block_tokens", e.kvBlockTokens},
                          {"prefill_chunk_tokens", e.prefillChunkTokens},
                          {"default_kv_placement", kvPlacementId(e.defaultKvPlacement)},
                          {"source", e.source}});
    }
    return l;
}

// The settings registry: every scenario input with its flag, file key, engine names and range.
Listing listSettings()
{
    Listing l{{"flag", "file key", "accepts", "engine's name", "default"}, {}};
    for (const Setting& s : settingsRegistry()) {
        std::string engineNames;
        nlohmann::json names = nlohmann::json::object();
        for (const EngineName& n : s.engineNames) {
            engineNames +=
                (engineNames.empty() ? "" : ", ") + std::string(n.engine) + ": " + n.name;
            names[n.engine] = n.name;
        }
        std::string flags = std::string("--") + s.flag;
        for (const char* alias : s.flagAliases)
            flags += std::string(", --") + alias;
        const std::string key = *s.fileSection ? std::string(s.fileSection) + "." + s.id : s.id;
        l.rows.push_back({flags + " " + s.valueName, key, acceptedText(s),
                          engineNames.empty() ? "-" : engineNames, s.defaultText});
        nlohmann::json j{{"id", s.id},
                         {"flag", s.flag},
                         {"file_key", key},
                         {"value_name", s.valueName},
                         {"accepted", acceptedText(s)},
                         {"unit", s.unit},
                         {"default", s.defaultText},
                         {"help", s.help},
                         {"engine_names", names}};
        if (s.type == SettingType::Integer || s.type == SettingType::Real)
            j["range"] = {{"min", s.lo}, {"max", s.hi}, {"min_excluded", s.loOpen}};
        if (!s.choices.empty())
            j["choices"] = s.choices;
        if (!s.flagAliases.empty())
            j["aliases"] = std::vector<std::string>(s.flagAliases.begin(), s.flagAliases.end());
        l.json.push_back(j);
    }
    return l;
}

void printTable(const Listing& l, std::ostream& out)
{
    std::vector<size_t> width(l.header.size(), 0);
    auto measure = [&](const std::vector<std::string>& row) {
        for (size_t i = 0; i < row.size() && i < width.size(); ++i)
            width[i] = std::max(width[i], row[i].size());
    };
    measure(l.header);
    for (const auto& row : l.rows)
        measure(row);
    auto print = [&](const std::vector<std::string>& row) {
        for (size_t i = 0; i < row.size(); ++i)
            out << row[i]
                << (i + 1 < row.size() ? std::string(width[i] - row[i].size() + 2, ' ') : "");
        out << "\n";
    };
    print(l.header);
    for (const auto& row : l.rows)
        print(row);
}

} // namespace

int listCommand(const ParsedArgs& args, const Catalog& c, std::ostream& out, std::ostream& err)
{
    const std::string what = args.positional.empty() ? "" : args.positional.front();
    Listing listing;
    if (what == "models")
        listing = listModels(c);
    else if (what == "gpus")
        listing = listGpus(c);
    else if (what == "quants")
        listing = listQuants(c);
    else if (what == "kv-dtypes")
        listing = listKvDtypes(c);
    else if (what == "engines")
        listing = listEngines(c);
    else if (what == "settings")
        listing = listSettings();
    else
        return badInput(err,
                        {"list", what, "models, gpus, quants, kv-dtypes, engines or settings"});
    if (args.has("json"))
        out << listing.json.dump(2) << "\n";
    else
        printTable(listing, out);
    return exitOk;
}

} // namespace kvscope::cli
