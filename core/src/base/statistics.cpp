// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/base/statistics.h"

#include <algorithm>
#include <cmath>

namespace kvscope {

double quantileOfSorted(const std::vector<double>& sorted, double q)
{
    if (sorted.empty())
        return 0;
    const double at = std::clamp(q, 0.0, 1.0) * double(sorted.size() - 1);
    const size_t below = size_t(std::floor(at));
    const size_t above = std::min(below + 1, sorted.size() - 1);
    return sorted[below] + (sorted[above] - sorted[below]) * (at - double(below));
}

double quantileOf(std::vector<double>& values, double q)
{
    if (values.empty())
        return 0;
    // The order statistics either side of the quantile's rank, by selection: the one below, and
    // the least of those above it.
    const double at = std::clamp(q, 0.0, 1.0) * double(values.size() - 1);
    const auto below = values.begin() + std::ptrdiff_t(std::floor(at));
    std::nth_element(values.begin(), below, values.end());
    const double low = *below;
    const double high =
        below + 1 == values.end() ? low : *std::min_element(below + 1, values.end());
    return low + (high - low) * (at - std::floor(at));
}

double medianOf(std::vector<double> values)
{
    return quantileOf(values, 0.5);
}

} // namespace kvscope
