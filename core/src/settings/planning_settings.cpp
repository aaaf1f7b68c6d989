// SPDX-License-Identifier: GPL-3.0-or-later
// Settings the planner reads: host RAM (what offloading may use), the user's targets, and how
// prices become cost. Each is a registry entry like any other, so the CLI, scenario files and the
// window accept the same values.
#include "scenario/field_access.h"
#include "settings/catalog_settings.h"

#include "kvscope/scenario/scenario.h"

namespace kvscope {

using V = std::optional<SettingValue>;

namespace {

// What offloading may use on the host: its RAM and that RAM's bandwidth.
std::vector<Setting> hostSettings()
{
    std::vector<Setting> r;
    {
        Setting s = makeSetting("host_ram_gib", "host-ram-gib", "GIB", SettingType::Real, 0,
                                limits::maxMemoryGiB);
        s.unit = "GiB";
        s.defaultText = "0: the GPU's usual platform (256 per H100/H200/B200 as in a DGX, 32 per "
                        "desktop GPU; see `list gpus --json`)";
        s.help = "host RAM for offloaded weights and KV cache, all GPUs together; the verdict "
                 "checks it";
        s.apply = KVSCOPE_FIELD_SETTER(hostRamGiB, realOf);
        settings_detail::setNumber(s, KVSCOPE_FIELD_NUMBER(hostRamGiB));
        s.place = ControlPlace::HostDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Host RAM size");
        r.push_back(std::move(s));
    }
    {
        // A measured or datasheet figure for a host the catalog does not list; applied after
        // --host-memory, which only chooses the catalog entry.
        Setting s = makeSetting("host_memory_gb_per_s", "host-memory-gbps", "GBPS",
                                SettingType::Real, 0, limits::maxRateGBps);
        s.loOpen = true;
        s.unit = "GB/s";
        s.defaultText = "the --host-memory entry's";
        s.help = "host memory peak bandwidth: what CPU-computed experts and layers read at";
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog&) -> std::optional<FieldError> {
            sc.hostMemoryGBps = settings_detail::realOf(v);
            return std::nullopt;
        };
        settings_detail::setNumber(s, {[](const Scenario& sc) { return sc.hostMemoryGBps; },
                                       KVSCOPE_FIELD_AT(hostMemoryGBps)});
        s.place = ControlPlace::HostDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Host memory bandwidth");
        s.texts.unsetText = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "as the host memory above");
        r.push_back(std::move(s));
    }
    return r;
}

// The user's targets, which the verdict checks.
std::vector<Setting> targetSettings()
{
    std::vector<Setting> r;
    {
        Setting s = makeSetting("min_tokens_per_s_user", "min-tokens-per-s", "X", SettingType::Real,
                                0, 1e6);
        s.unit = "tokens/s";
        s.defaultText = "0 (no target)";
        s.help = "target: decode tokens per second each sequence must reach";
        s.fileSection = "targets";
        s.apply = KVSCOPE_FIELD_SETTER(targets.minTokensPerSUser, realOf);
        settings_detail::setNumber(s, KVSCOPE_FIELD_NUMBER(targets.minTokensPerSUser));
        r.push_back(std::move(s));
    }
    {
        Setting s = makeSetting("max_ttft_ms", "max-ttft-ms", "MS", SettingType::Real, 0, 1e9);
        s.unit = "ms";
        s.defaultText = "0 (no target)";
        s.help = "target: longest time to first token for the last of the users' full-context "
                 "prompts sent together";
        s.fileSection = "targets";
        s.apply = KVSCOPE_FIELD_SETTER(targets.maxTtftMs, realOf);
        settings_detail::setNumber(s, KVSCOPE_FIELD_NUMBER(targets.maxTtftMs));
        r.push_back(std::move(s));
    }
    return r;
}

// How prices become cost: amortization and the currency shown.
std::vector<Setting> costSettings()
{
    std::vector<Setting> r;
    {
        Setting s = makeSetting("amortization_years", "amortization-years", "YEARS",
                                SettingType::Real, 0.1, 20);
        s.unit = "years";
        s.defaultText = "3";
        s.help = "a bought GPU's price is spread over this many years of round-the-clock use";
        s.fileSection = "cost";
        s.apply = KVSCOPE_FIELD_SETTER(cost.amortizationYears, realOf);
        settings_detail::setNumber(s, KVSCOPE_FIELD_NUMBER(cost.amortizationYears));
        r.push_back(std::move(s));
    }
    {
        Setting s = makeSetting("currency", "currency", "CODE", SettingType::Choice);
        s.choices = {"USD", "EUR", "JPY", "GBP", "CNY", "KRW", "INR", "CAD", "AUD", "CHF"};
        s.defaultText = "USD";
        s.help = "currency costs are shown in (set --usd-rate for any but USD)";
        s.fileSection = "cost";
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog&) -> std::optional<FieldError> {
            sc.cost.currency = std::get<std::string>(v);
            return std::nullopt;
        };
        s.current = [](const Scenario& sc) -> V { return SettingValue(sc.cost.currency); };
        r.push_back(std::move(s));
    }
    {
        Setting s = makeSetting("usd_rate", "usd-rate", "X", SettingType::Real, 0.001, 1e6);
        s.unit = "per USD";
        s.defaultText = "1";
        s.help = "units of the currency one US dollar buys (catalog prices are in USD)";
        s.fileSection = "cost";
        s.apply = KVSCOPE_FIELD_SETTER(cost.perUsd, realOf);
        settings_detail::setNumber(s, KVSCOPE_FIELD_NUMBER(cost.perUsd));
        r.push_back(std::move(s));
    }
    return r;
}

// One cost of owning a GPU beside its price: a number whose default is gpu_prices.json's.
using Apply = std::optional<FieldError> (*)(Scenario&, const SettingValue&, const Catalog&);

Setting owningCost(const char* id, const char* flag, double lo, double hi, const char* unit,
                   const char* help, Apply apply, const settings_detail::NumberAccess& access)
{
    Setting s = makeSetting(id, flag, "X", SettingType::Real, lo, hi);
    s.unit = unit;
    s.defaultText = "the catalog's (gpu_prices.json \"owning\", with its source)";
    s.help = help;
    s.fileSection = "cost";
    s.apply = apply;
    settings_detail::setNumber(s, access);
    return s;
}

// Renting or owning, and what owning costs beside the GPUs' price.
std::vector<Setting> basisSettings()
{
    std::vector<Setting> r;
    {
        Setting s = makeSetting("cost_basis", "cost-basis", "rent|own", SettingType::Choice);
        s.choices = {"rent", "own"};
        s.defaultText = "rent";
        s.help = "rent: GPUs rented by the hour (catalog rental prices); own: bought, hosted and "
                 "powered (purchase price, host share, power, hosting); never mixed";
        s.fileSection = "cost";
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog&) -> std::optional<FieldError> {
            parseCostBasis(std::get<std::string>(v), &sc.cost.basis);
            return std::nullopt;
        };
        s.current = [](const Scenario& sc) -> V {
            return SettingValue(std::string(costBasisId(sc.cost.basis)));
        };
        r.push_back(std::move(s));
    }
    r.push_back(owningCost("electricity_usd_per_kwh", "electricity-usd-per-kwh", 0, 10, "USD/kWh",
                           "owning: the electricity tariff",
                           KVSCOPE_FIELD_SETTER(cost.electricityUsdPerKwh, realOf),
                           KVSCOPE_FIELD_NUMBER(cost.electricityUsdPerKwh)));
    r.push_back(owningCost("pue", "pue", 1, 5, "ratio",
                           "owning: facility power per watt the GPUs draw (PUE)",
                           KVSCOPE_FIELD_SETTER(cost.pue, realOf), KVSCOPE_FIELD_NUMBER(cost.pue)));
    r.push_back(owningCost("utilization", "utilization", 0, 1, "fraction",
                           "owning: average share of its TDP each GPU draws",
                           KVSCOPE_FIELD_SETTER(cost.utilization, realOf),
                           KVSCOPE_FIELD_NUMBER(cost.utilization)));
    r.push_back(owningCost("host_usd_per_gpu_server", "host-usd-per-gpu-server", 0, 1e6, "USD",
                           "owning: a server's price without GPUs, per GPU slot",
                           KVSCOPE_FIELD_SETTER(cost.hostUsdPerGpuServer, realOf),
                           KVSCOPE_FIELD_NUMBER(cost.hostUsdPerGpuServer)));
    r.push_back(owningCost("host_usd_per_gpu_desktop", "host-usd-per-gpu-desktop", 0, 1e5, "USD",
                           "owning: a desktop PC's price without its GPU (consumer cards)",
                           KVSCOPE_FIELD_SETTER(cost.hostUsdPerGpuDesktop, realOf),
                           KVSCOPE_FIELD_NUMBER(cost.hostUsdPerGpuDesktop)));
    r.push_back(owningCost("hosting_usd_per_kw_month", "hosting-usd-per-kw-month", 0, 1e4,
                           "USD/kW/month", "owning: colocation per kW of the GPUs' TDP",
                           KVSCOPE_FIELD_SETTER(cost.hostingUsdPerKwMonth, realOf),
                           KVSCOPE_FIELD_NUMBER(cost.hostingUsdPerKwMonth)));
    return r;
}

} // namespace

std::vector<Setting> planningSettings()
{
    std::vector<Setting> r;
    appendSettings(r, hostSettings());
    appendSettings(r, targetSettings());
    appendSettings(r, costSettings());
    appendSettings(r, basisSettings());
    return r;
}

} // namespace kvscope
