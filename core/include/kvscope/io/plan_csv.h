// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The planner's tables as CSV, one row per cell or configuration, for spreadsheets: the window's
// matrix and plan views and `kvscope-cli matrix --csv` / `plan --csv` write the same text.

#include "kvscope/planning/fit_matrix.h"
#include "kvscope/planning/plan_search.h"

#include <string>

namespace kvscope {

// model,<gpu|weights>,fit,longest_context,concurrency
std::string fitMatrixToCsv(const FitMatrix& matrix);
// rank,gpu,gpus,engine,weights,kv_dtype,kv_placement,tokens_per_s_per_user,tokens_per_s,
// ttft_ms,cost_per_hour,cost_per_million_tokens,currency,on_pareto_front,lacks
std::string planToCsv(const PlanResult& result);

} // namespace kvscope
