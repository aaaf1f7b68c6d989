// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The serving figures as JSON (`calc --json`'s "serving", `serving --json`): times in ms, rates
// in output tokens per second.

#include "kvscope/planning/serving.h"
#include "kvscope/scenario/scenario.h"
#include "kvscope/scenario/speed_band.h"

#include <nlohmann/json_fwd.hpp>

namespace kvscope {

// The measured error of the scenario's speed class for one figure (issue 43): a measured time was
// kvscope's x (1 + <figure>_low) to x (1 + <figure>_high); under 3 cases no band, only the count.
nlohmann::json speedBandJson(const Scenario& scenario, SpeedFigure figure);
// `withPoints` adds each engine's whole curve; without it, the figures at the scenario's users.
nlohmann::json servingToJson(const Scenario& scenario, const Serving& serving, bool withPoints);

} // namespace kvscope
