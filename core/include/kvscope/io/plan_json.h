// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The planner's results as JSON: the verdict and remedies `calc --json` carries, `plan --json`
// and `matrix --json`. Sizes in bytes, times in ms, costs in the scenario's currency.

#include "kvscope/planning/cautions.h"
#include "kvscope/planning/fit_matrix.h"
#include "kvscope/planning/plan_search.h"

#include <nlohmann/json_fwd.hpp>

namespace kvscope {

nlohmann::json verdictToJson(const Scenario& scenario, const Verdict& verdict);
nlohmann::json costToJson(const Scenario& scenario, const Cost& cost);
nlohmann::json cautionsToJson(const std::vector<Caution>& cautions);
nlohmann::json remediesToJson(const std::vector<Remedy>& remedies);
nlohmann::json planToJson(const PlanRequest& request, const PlanResult& result);
nlohmann::json fitMatrixToJson(const FitMatrix& matrix);

} // namespace kvscope
