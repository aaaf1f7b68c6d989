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
    } else {
        r.fail("kind", kind.empty() ? "nothing" : "\"" + kind + "\"", "rental or purchase");
    }
    p.provider = r.text({"provider"}, "");
    p.date = r.text({"date"}, "");
    p.source = r.text({"source"}, "");
    return p;
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
