// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a configuration costs: its GPUs' hourly price (rented, or bought and written off over the
// scenario's amortization period) and, at its concurrency, per million tokens: prompt and output
// priced apart, as APIs price them, and the two at the workload's mix.

#include "kvscope/evaluation/evaluation.h"

namespace kvscope {

// One owned GPU's cost per hour in US dollars, part by part (CostBasis::Own).
struct OwningCost
{
    bool known = false;        // the GPU has a purchase price
    double gpuPerHour = 0;     // its price over the amortization years
    double hostPerHour = 0;    // its share of the host (server slot or desktop PC), likewise
    double powerPerHour = 0;   // TDP x utilization x PUE x tariff
    double hostingPerHour = 0; // colocation per kW of its TDP
    double total() const { return gpuPerHour + hostPerHour + powerPerHour + hostingPerHour; }
};

struct Cost
{
    CostBasis basis = CostBasis::Rent;
    OwningCost owning;  // the parts, on the Own basis
    bool known = false; // the GPU has a price on this basis
    double perHour = 0; // all GPUs together, in the scenario's currency
    // Per million tokens; 0 when it cannot run. A GPU-hour spent prefilling prompts (at the
    // context's prefill rate, each prompt its own compute) or decoding (the batch's output rate).
    double perMillionPromptTokens = 0;
    double perMillionOutputTokens = 0;
    double perMillionTokens = 0; // both at the workload's mix of prompt and output tokens
};

inline constexpr double kHoursPerYear = 8766; // 365.25 days

// One GPU's cost per hour in US dollars; 0 when its price is unknown.
double gpuUsdPerHour(const GpuPrice& price, double amortizationYears);

// `runs`: whether the scenario runs at all (the verdict's); a configuration that cannot run
// has an hourly price but produces no tokens.
Cost costOf(const Scenario& scenario, const Evaluation& evaluation, bool runs);
OwningCost owningCostPerGpu(const GpuSpec& gpu, const CostSettings& cost);

} // namespace kvscope
