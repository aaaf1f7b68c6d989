// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How the catalog reads its tables (catalog/*.json): each entry of an array, a bad one named
// with its field and skipped; and the loaders that live in files of their own.

#include "kvscope/catalog/catalog.h"
#include "kvscope/formats/checked_json.h"
#include "kvscope/formats/config_import.h"

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kvscope::catalog_tables {

namespace fs = std::filesystem;

// Reads each entry of a catalog table's array (`name` in problems); a bad one is named with
// its field and skipped.
template <typename Read>
void forEachJsonEntry(const nlohmann::json& json, const std::string& name, const char* arrayKey,
                      std::vector<std::string>& problems, Read read)
{
    auto it = json.is_object() ? json.find(arrayKey) : json.end();
    if (it == json.end() || !it->is_array()) {
        problems.push_back(name + ": " + arrayKey + " must be an array");
        return;
    }
    for (size_t i = 0; i < it->size(); ++i) {
        const auto& entry = (*it)[i];
        if (!entry.is_object()) {
            problems.push_back(name + ": " + arrayKey + "[" + std::to_string(i) +
                               "] must be an object");
            continue;
        }
        JsonReader r(entry, std::string(arrayKey) + "[" + std::to_string(i) + "]");
        read(r);
        if (r.error())
            problems.push_back(name + ": " + r.error()->message());
    }
}

// The same for a catalog file.
template <typename Read>
void forEachEntry(const fs::path& file, const char* arrayKey, std::vector<std::string>& problems,
                  Read read)
{
    auto json = readJsonFile(file, file.filename().string());
    if (!json) {
        problems.push_back(file.string() + ": " + json.error().message());
        return;
    }
    forEachJsonEntry(*json, file.string(), arrayKey, problems, read);
}

// interconnects.json: PCIe generations and all-reduce latencies (link_tables.cpp).
void loadPcieGenerations(const fs::path& dir, Catalog& c);
void loadAllReduceLatencies(const fs::path& dir, Catalog& c);
void loadAllToAll(const fs::path& dir, Catalog& c);
void loadNodeLinks(const fs::path& dir, Catalog& c);
// gpu_prices.json: prices by kind and the costs of owning (price_tables.cpp).
void loadGpuPrices(const fs::path& dir, Catalog& c);
// Each GPU's prices from the tables where its own file states none.
void attachPrices(Catalog& c);

} // namespace kvscope::catalog_tables
