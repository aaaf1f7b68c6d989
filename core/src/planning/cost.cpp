// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/planning/cost.h"

namespace kvscope {

namespace {

// A consumer card sits in a desktop PC; a datacenter or workstation card in a server's slot;
// Apple silicon is the whole machine, its price already the host's.
double hostUsdPerGpu(const GpuSpec& gpu, const CostSettings& c)
{
    if (gpu.unifiedMemory)
        return 0;
    return gpu.group == "Consumer" ? c.hostUsdPerGpuDesktop : c.hostUsdPerGpuServer;
}

} // namespace

double gpuUsdPerHour(const GpuPrice& price, double amortizationYears)
{
    switch (price.kind) {
    case GpuPrice::Kind::Rental:
        return price.usdPerHour;
    case GpuPrice::Kind::Purchase:
        return amortizationYears > 0 ? price.usd / (amortizationYears * kHoursPerYear) : 0.0;
    case GpuPrice::Kind::Unknown:
        break;
    }
    return 0;
}

OwningCost owningCostPerGpu(const GpuSpec& gpu, const CostSettings& c)
{
    OwningCost o;
    const double hours = c.amortizationYears * kHoursPerYear;
    if (gpu.prices.purchase.kind != GpuPrice::Kind::Purchase || hours <= 0)
        return o;
    o.gpuPerHour = gpuUsdPerHour(gpu.prices.purchase, c.amortizationYears);
    o.hostPerHour = hostUsdPerGpu(gpu, c) / hours;
    const double itKw = gpu.tdpW / 1e3 * c.utilization;
    o.powerPerHour = itKw * c.pue * c.electricityUsdPerKwh;
    o.hostingPerHour = gpu.tdpW / 1e3 * c.hostingUsdPerKwMonth * 12.0 / (365.25 * 24.0);
    o.known = true;
    return o;
}

Cost costOf(const Scenario& s, const Evaluation& e, bool runs)
{
    Cost c;
    c.basis = s.cost.basis;
    double usd = 0;
    if (s.cost.basis == CostBasis::Rent) {
        usd = gpuUsdPerHour(s.gpu.prices.rental, s.cost.amortizationYears);
    } else {
        c.owning = owningCostPerGpu(s.gpu, s.cost);
        usd = c.owning.known ? c.owning.total() : 0.0;
    }
    if (usd <= 0)
        return c;
    c.known = true;
    c.perHour = usd * double(s.gpuCount) * double(s.replicas) * s.cost.perUsd;
    if (!runs)
        return c;
    const double outputPerHour = e.decode.tokensPerS * 3600.0;
    // Prompts after the first pay their compute only (the weights read is shared): the rate a
    // busy server prefills at.
    const double prefillMs =
        e.breakeven.prefillComputeMs > 0 ? e.breakeven.prefillComputeMs : e.breakeven.recomputeMs;
    const double promptPerHour = prefillMs > 0 ? double(s.context) / prefillMs * 3.6e6 : 0.0;
    if (outputPerHour <= 0 || promptPerHour <= 0)
        return c;
    // Each replica produces as much as the one evaluated, at its share of the hourly price.
    const double replicaPerHour = c.perHour / double(s.replicas);
    c.perMillionOutputTokens = replicaPerHour / outputPerHour * 1e6;
    c.perMillionPromptTokens = replicaPerHour / promptPerHour * 1e6;
    const double prompt = double(s.workload.promptTokens), output = double(s.workload.outputTokens);
    c.perMillionTokens =
        (prompt * c.perMillionPromptTokens + output * c.perMillionOutputTokens) / (prompt + output);
    return c;
}

} // namespace kvscope
