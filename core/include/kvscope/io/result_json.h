// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/evaluation/evaluation.h"
#include "kvscope/scenario/scenario.h"

#include <nlohmann/json_fwd.hpp>

namespace kvscope {

// The machine-readable result (SPEC section 5): sizes in bytes, times in milliseconds, rates in
// SI GB/s. Keys are stable; new keys may be added.
nlohmann::json evaluationToJson(const Scenario& scenario, const Evaluation& evaluation);

// The scenario's resolved inputs, for the result's "scenario" key and the report.
nlohmann::json scenarioSummaryJson(const Scenario& scenario);

} // namespace kvscope
