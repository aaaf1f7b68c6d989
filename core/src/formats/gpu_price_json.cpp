// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/formats/gpu_price_json.h"

namespace kvscope {

namespace {
// Far above any accelerator's price, so a typo (an extra digit or three) is refused.
constexpr double kMaxUsdPerHour = 100'000;
constexpr double kMaxUsd = 100'000'000;
} // namespace

GpuPrice gpuPriceFromJson(JsonReader& r)
{
    GpuPrice p;
    const std::string kind = r.text({"kind"}, "");
    if (kind == "rental") {
        r.require({"usd_per_gpu_hour"});
        p.kind = GpuPrice::Kind::Rental;
        p.usdPerHour = r.number({"usd_per_gpu_hour"}, 0, kMaxUsdPerHour, 0);
    } else if (kind == "purchase") {
        r.require({"usd"});
        p.kind = GpuPrice::Kind::Purchase;
        p.usd = r.number({"usd"}, 0, kMaxUsd, 0);
        p.memoryGiB = r.number({"memory_gib"}, 0, 1e5, 0);
    } else {
        r.fail("kind", kind.empty() ? "nothing" : "\"" + kind + "\"", "rental or purchase");
    }
    p.provider = r.text({"provider"}, "");
    p.date = r.text({"date"}, "");
    p.source = r.text({"source"}, "");
    return p;
}

std::optional<FieldError> readGpuPrices(JsonReader& gpu, GpuPrices& prices)
{
    const char* found = nullptr;
    const nlohmann::json* given = gpu.find({"prices", "price"}, &found);
    if (!given)
        return std::nullopt;
    const std::string key = found;
    const bool list = key == "prices";
    if (list ? !given->is_array() : !given->is_object())
        return FieldError{gpu.field(key), describeJson(*given),
                          list ? "an array of price objects"
                               : "an object with kind, usd_per_gpu_hour or usd"};
    const nlohmann::json items = list ? *given : nlohmann::json::array({*given});
    for (size_t i = 0; i < items.size(); ++i) {
        const std::string at = list ? key + "[" + std::to_string(i) + "]" : key;
        if (!items[i].is_object())
            return FieldError{gpu.field(at), describeJson(items[i]), "a price object"};
        JsonReader r(items[i], gpu.field(at));
        const GpuPrice price = gpuPriceFromJson(r);
        if (r.error())
            return *r.error();
        prices.set(price);
    }
    return std::nullopt;
}

nlohmann::json gpuPriceToJson(const GpuPrice& p)
{
    nlohmann::json j;
    switch (p.kind) {
    case GpuPrice::Kind::Rental:
        j["kind"] = "rental";
        j["usd_per_gpu_hour"] = p.usdPerHour;
        break;
    case GpuPrice::Kind::Purchase:
        j["kind"] = "purchase";
        j["usd"] = p.usd;
        break;
    case GpuPrice::Kind::Unknown:
        return nullptr;
    }
    if (!p.provider.empty())
        j["provider"] = p.provider;
    if (!p.date.empty())
        j["date"] = p.date;
    j["source"] = p.source;
    return j;
}

} // namespace kvscope
