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

// A machine priced with less memory than the catalog's (the $3,999 Mac Studio is the 96 GB
// M3 Ultra; the catalog's is the 512 GB one) is not the catalog's machine: its price would
// rank a model that needs the memory at the price of a machine that cannot hold it.
bool holdsCatalogConfiguration(const Catalog& c, const std::string& gpu, const GpuPrice& price)
{
    if (price.memoryGiB <= 0)
        return true;
    const auto spec =
        std::find_if(c.gpus.begin(), c.gpus.end(), [&](const GpuSpec& g) { return g.id == gpu; });
    return spec == c.gpus.end() || price.memoryGiB >= spec->memoryGiB * 0.99;
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
        if (r.error() || !holdsCatalogConfiguration(c, gpu, price))
            return;
        GpuPrices& known = c.gpuPrices[gpu];
        if (!known.has(price.kind))
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
            if (!gpu.prices.has(price->kind) && holdsCatalogConfiguration(c, gpu.id, *price))
                gpu.prices.set(*price);
    }
}

} // namespace kvscope::catalog_tables
