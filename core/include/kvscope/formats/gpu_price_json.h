// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A GPU's price as JSON: an entry of resources/catalog/gpu_prices.json (or the user's prices file
// of the same shape), or the "price" object of a GPU file.
//   {"kind": "rental", "usd_per_gpu_hour": 2.79, "provider": "...", "date": "2026-09", "source":
//   "..."}
//   {"kind": "purchase", "usd": 1599, "date": "2022-10", "source": "..."}

#include "kvscope/formats/checked_json.h"
#include "kvscope/model/hardware.h"

#include <optional>

#include <nlohmann/json.hpp>

namespace kvscope {

// Reads the price fields of `r`'s object; failures land in `r` with the field named.
GpuPrice gpuPriceFromJson(JsonReader& r);
nlohmann::json gpuPriceToJson(const GpuPrice& price);

// A GPU file's own prices: "price" (one object) or "prices" (an array, one per kind), into
// `prices`; the first problem, with its field, or none.
std::optional<FieldError> readGpuPrices(JsonReader& gpu, GpuPrices& prices);

} // namespace kvscope
