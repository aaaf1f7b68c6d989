// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/planning/cost.h"

namespace kvscope {

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

Cost costOf(const Scenario& s, const Evaluation& e, bool runs)
{
    Cost c;
    const double usd = gpuUsdPerHour(s.gpu.price, s.cost.amortizationYears);
    if (usd <= 0)
        return c;
    c.known = true;
    c.perHour = usd * double(s.gpuCount) * s.cost.perUsd;
    const double tokensPerHour = e.decode.tokensPerS * 3600.0;
    if (runs && tokensPerHour > 0)
        c.perMillionTokens = c.perHour / tokensPerHour * 1e6;
    return c;
}

} // namespace kvscope
