// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The serving figures as JSON (`calc --json`'s "serving", `serving --json`): times in ms, rates
// in output tokens per second.

#include "kvscope/planning/serving.h"
#include "kvscope/scenario/scenario.h"

#include <nlohmann/json_fwd.hpp>

namespace kvscope {

// `withPoints` adds each engine's whole curve; without it, the figures at the scenario's users.
nlohmann::json servingToJson(const Scenario& scenario, const Serving& serving, bool withPoints);

} // namespace kvscope
