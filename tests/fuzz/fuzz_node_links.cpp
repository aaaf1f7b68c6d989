// SPDX-License-Identifier: GPL-3.0-or-later
// interconnects.json's node_links: any bytes, as a user's data directory may hold them. Every
// network read has a finite, positive rate and latency, and a scenario spread over two nodes
// joined by it still evaluates.

#include "fuzz_support.h"

#include "kvscope/catalog/catalog.h"
#include "kvscope/formats/config_import.h"
#include "kvscope/settings/scenario_defaults.h"

#include <cmath>

#include <nlohmann/json.hpp>

using namespace kvscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    auto json = parseJsonText(std::string(reinterpret_cast<const char*>(data), size), "links");
    if (!json)
        return 0;
    std::vector<std::string> problems;
    const std::vector<NodeLink> links = nodeLinksFromJson(*json, "fuzz", problems);
    for (const NodeLink& link : links) {
        if (link.id.empty() || !std::isfinite(link.gbitPerS) || !(link.gbitPerS > 0) ||
            !std::isfinite(link.latencyUs) || !(link.latencyUs > 0))
            fuzz::fail("a network read with a bad figure: " + link.id);
        // Only vLLM spans nodes: under the default engine the scenario would be refused.
        Scenario s = fuzz::defaultScenario();
        applyEngine(s, *fuzz::catalog().engine("vllm"));
        s.nodeLink = link;
        s.nodes = 2;
        s.gpuCount = 2;
        fuzz::evaluateChecked(s, fuzz::selector(data, size));
    }
    return 0;
}
