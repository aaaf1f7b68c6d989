// SPDX-License-Identifier: GPL-3.0-or-later
// interconnects.json: PCIe generations, the latency of a small all-reduce by link, and the
// networks between nodes.
#include "catalog/catalog_tables.h"

#include <algorithm>

namespace kvscope::catalog_tables {

namespace {

// The rule `id` names, or none.
AllReduceLatency* allReduceRule(AllReduceLatencies& rules, const std::string& id)
{
    if (id == "nvlink-custom")
        return &rules.nvlinkCustom;
    if (id == "nvlink-nccl")
        return &rules.nvlinkNccl;
    return id == "pcie-nccl" ? &rules.pcie : nullptr;
}

} // namespace

void loadPcieGenerations(const fs::path& dir, Catalog& c)
{
    forEachEntry(dir / "interconnects.json", "pcie", c.problems, [&](JsonReader& r) {
        PcieGeneration p;
        p.gen = int(r.integer({"gen"}, 1, 16, 0));
        p.gtPerS = r.number({"gt_per_s"}, 0.1, 10'000, 0);
        p.encodingEfficiency = r.number({"encoding_efficiency"}, 0.01, 1, 1);
        p.encoding = r.text({"encoding"}, "");
        p.source = r.text({"source"}, "");
        if (!r.error() && p.gen > 0 &&
            std::none_of(c.pcie.begin(), c.pcie.end(), [&](auto& q) { return q.gen == p.gen; }))
            c.pcie.push_back(p);
    });
}

// interconnects.json's all-reduce latencies; a rule an earlier directory gave stays.
void loadAllReduceLatencies(const fs::path& dir, Catalog& c)
{
    auto json = readJsonFile(dir / "interconnects.json", "interconnects.json");
    if (!json || !json->contains("all_reduce"))
        return; // a user's file may hold only PCIe generations
    const std::string name = (dir / "interconnects.json").string();
    forEachJsonEntry(*json, name, "all_reduce", c.problems, [&](JsonReader& r) {
        AllReduceLatency* rule = allReduceRule(c.allReduce, r.text({"id"}, ""));
        if (!rule) {
            r.fail("id", "\"" + r.text({"id"}, "") + "\"",
                   "\"nvlink-custom\", \"nvlink-nccl\" or \"pcie-nccl\"");
            return;
        }
        r.require({"source"});
        AllReduceLatency read;
        read.baseUs = r.number({"base_us"}, 0, 1e6, 0);
        read.perGpuUs = r.number({"per_gpu_us"}, 0, 1e5, 0);
        read.source = r.text({"source"}, "");
        if (!r.error() && rule->source.empty())
            *rule = read;
    });
}

// interconnects.json's DeepEP all-to-all; a table an earlier directory gave stays.
void loadAllToAll(const fs::path& dir, Catalog& c)
{
    auto json = readJsonFile(dir / "interconnects.json", "interconnects.json");
    if (!json || !json->contains("all_to_all") || c.deepEpAllToAll.present())
        return;
    const std::string name = (dir / "interconnects.json").string();
    forEachJsonEntry(*json, name, "all_to_all", c.problems, [&](JsonReader& r) {
        r.require({"source"});
        MoeAllToAll table;
        table.tokensPerRank = r.integer({"tokens_per_rank"}, 1, 1 << 20, 128);
        table.source = r.text({"source"}, "");
        const nlohmann::json* points = r.find({"points"});
        if (!points || !points->is_array() || points->empty()) {
            r.fail("points", points ? describeJson(*points) : "none",
                   "a list of {expert_ways, dispatch_us, combine_us}");
            return;
        }
        for (size_t i = 0; i < points->size(); ++i) {
            JsonReader p((*points)[i], "points[" + std::to_string(i) + "]");
            MoeAllToAll::Point point;
            point.expertWays = int(p.integer({"expert_ways"}, 1, 4096, 0));
            point.dispatchUs = p.number({"dispatch_us"}, 0, 1e6, 0);
            point.combineUs = p.number({"combine_us"}, 0, 1e6, 0);
            if (p.error()) {
                r.fail("points", describeJson((*points)[i]), p.error()->message());
                return;
            }
            table.points.push_back(point);
        }
        std::sort(table.points.begin(), table.points.end(),
                  [](const auto& a, const auto& b) { return a.expertWays < b.expertWays; });
        if (!r.error() && r.text({"id"}, "") == "deepep-low-latency")
            c.deepEpAllToAll = std::move(table);
    });
}

// interconnects.json's networks between nodes; an id an earlier directory gave stays.
void loadNodeLinks(const fs::path& dir, Catalog& c)
{
    auto json = readJsonFile(dir / "interconnects.json", "interconnects.json");
    if (!json || !json->contains("node_links"))
        return;
    for (NodeLink& link :
         nodeLinksFromJson(*json, (dir / "interconnects.json").string(), c.problems))
        if (!c.nodeLink(link.id))
            c.nodeLinks.push_back(std::move(link));
}

} // namespace kvscope::catalog_tables

namespace kvscope {

std::vector<NodeLink> nodeLinksFromJson(const nlohmann::json& json, const std::string& name,
                                        std::vector<std::string>& problems)
{
    std::vector<NodeLink> links;
    catalog_tables::forEachJsonEntry(json, name, "node_links", problems, [&](JsonReader& r) {
        r.require({"id"});
        r.require({"gbit_per_s"});
        r.require({"latency_us"});
        r.require({"source"});
        NodeLink link;
        link.id = r.text({"id"}, "");
        link.name = r.text({"name"}, link.id);
        link.gbitPerS = r.number({"gbit_per_s"}, 0.1, 1e5, 0);
        link.latencyUs = r.number({"latency_us"}, 0.01, 1e5, 0);
        link.source = r.text({"source"}, "");
        if (!r.error())
            links.push_back(std::move(link));
    });
    return links;
}

} // namespace kvscope
