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

double medianOf(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return quantileOfSorted(values, 0.5);
}

} // namespace kvscope
