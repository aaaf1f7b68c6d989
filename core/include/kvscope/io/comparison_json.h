// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/planning/comparison.h"

#include <nlohmann/json_fwd.hpp>

namespace kvscope {

// `compare --json`: the scenarios' names, each figure's values (bytes, ms; null where there is
// none) with the change against the first, and the inputs that differ.
nlohmann::json comparisonToJson(const Comparison& comparison);

} // namespace kvscope
