// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Order statistics over measured figures: the validation set's medians and bands, the queue's
// percentile waits.

#include <vector>

namespace kvscope {

// The q-quantile (0..1) of ascending `sorted` values, interpolated between neighbours (0.5 is the
// median, the mean of the middle two for an even count); 0 for no values.
double quantileOfSorted(const std::vector<double>& sorted, double q);

// The same quantile of `values` in any order, in linear time; the values are reordered.
double quantileOf(std::vector<double>& values, double q);

// The median of `values` in any order.
double medianOf(std::vector<double> values);

} // namespace kvscope
