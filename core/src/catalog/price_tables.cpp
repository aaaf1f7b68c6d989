// SPDX-License-Identifier: GPL-3.0-or-later
// gpu_prices.json: each GPU's rental and purchase prices, and what owning a GPU costs beside its
// price (power, hosting, the host it sits in), each with its source.
#include "catalog/catalog_tables.h"

#include "kvscope/formats/gpu_price_json.h"

#include <algorithm>

namespace kvscope::catalog_tables {

namespace {

// The owning costs' ids, as CostSettings holds them (settings/planning_settings.cpp names each).
bool isOwningCost(const std::string& id)
{
    for (const char* known :
         {"electricity_usd_per_kwh", "pue", "utilization", "host_usd_per_gpu_server",
          "host_usd_per_gpu_desktop", "hosting_usd_per_kw_month"})
        if (id == known)
            return true;
    return false;
}

void loadOwningCosts(const nlohmann::json& json, const std::string& name, Catalog& c)
{
    forEachJsonEntry(json, name, "owning", c.problems, [&](JsonReader& r) {
        EfficiencyFactor f;
        f.id = r.text({"id"}, "");
        if (!isOwningCost(f.id)) {
            r.fail("id", "\"" + f.id + "\"",
                   "electricity_usd_per_kwh, pue, utilization, host_usd_per_gpu_server, "
                   "host_usd_per_gpu_desktop or hosting_usd_per_kw_month");
            return;
        }
        r.require({"value"});
        r.require({"source"});
        f.name = r.text({"name"}, f.id);
        f.value = r.number({"value"}, 0, 1e7, 0);
        f.unit = r.text({"unit"}, "");
        f.source = r.text({"source"}, "");
        const bool known = std::any_of(c.owningCosts.begin(), c.owningCosts.end(),
                                       [&](const EfficiencyFactor& o) { return o.id == f.id; });
        if (!r.error() && !known) // an earlier directory's stays
            c.owningCosts.push_back(f);
    });
}

} // namespace

void loadGpuPrices(const fs::path& dir, Catalog& c)
{
    // Prices are optional: a user's data directory may hold gpu_prices.json to override some.
    std::error_code ec;
    if (!fs::exists(dir / "gpu_prices.json", ec))
        return;
    auto json = readJsonFile(dir / "gpu_prices.json", "gpu_prices.json");
    const std::string name = (dir / "gpu_prices.json").string();
    if (!json) {
        c.problems.push_back(name + ": " + json.error().message());
        return;
    }
    forEachJsonEntry(*json, name, "prices", c.problems, [&](JsonReader& r) {
        r.require({"gpu"});
        const std::string gpu = r.text({"gpu"}, "");
        GpuPrice price = gpuPriceFromJson(r);
        GpuPrices& known = c.gpuPrices[gpu];
        if (!r.error() && !known.has(price.kind))
            known.set(price); // an earlier directory's price of that kind stays
    });
    if (json->contains("owning"))
        loadOwningCosts(*json, name, c);
}

void attachPrices(Catalog& c)
{
    for (GpuSpec& gpu : c.gpus) {
        auto it = c.gpuPrices.find(gpu.id);
        if (it == c.gpuPrices.end())
            continue;
        // The GPU's own file, when it states a price, wins for that kind.
        for (const GpuPrice* price : {&it->second.rental, &it->second.purchase})
            if (!gpu.prices.has(price->kind))
                gpu.prices.set(*price);
    }
}

} // namespace kvscope::catalog_tables
